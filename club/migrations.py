"""The club database's migrations: each step brings a file from one schema version to the
next inside the caller's transaction (:func:`trictrac.club.schema.upgrade_schema`); the
versions are in docs/database.md, "Schema versions"."""

from __future__ import annotations

import json
import re
import sqlite3

from .schema import (
    CUSTOM_FTS,
    SCHEMA_VERSION,
    V6_GAME_COLUMNS,
    VIEWS_V3,
    VIEWS_V6,
    SchemaError,
    _statements,
    _table_statement,
    free_label,
    parse_version,
    stored_version,
)

# The DDL of schema version 4 that the steps up to it create (the current schema is another).
V4_GAMES = """CREATE TABLE IF NOT EXISTS games (
    label          TEXT NOT NULL PRIMARY KEY, -- readable name, unique: date, players, round (free_label)
    date_iso       TEXT,                      -- YYYY[-MM[-DD]] when readable
    season         TEXT,                      -- see club season rule (meta.season_start_month)
    event          TEXT,
    site           TEXT,
    round          TEXT,
    partie         TEXT,                      -- Partie header (kind of partie)
    result         TEXT,                      -- Result header as written
    n_coups        INTEGER NOT NULL,
    n_findings     INTEGER NOT NULL,
    id             TEXT NOT NULL UNIQUE,      -- sha256 of the canonical text (what other tables name)
    game_key       TEXT,                      -- identity (club.identity.game_key): a correction replaces
    date           TEXT,                      -- Date header as written
    profile        TEXT NOT NULL,             -- rules profile the game was verified with
    mode           TEXT NOT NULL CHECK (mode IN ('full', 'compact')),
    start_position TEXT,                      -- Position header (one-line notation)
    annotator      TEXT,
    n_releves      INTEGER NOT NULL,
    n_marques      INTEGER NOT NULL,
    verified       INTEGER NOT NULL CHECK (verified IN (0, 1)),
    stopped        INTEGER CHECK (stopped IN (0, 1)),  -- the verifier could not go on (missing checker)
    notes          TEXT NOT NULL,             -- JSON list: the verifier's assumptions (law of timing)
    headers        TEXT NOT NULL,             -- JSON object of every header tag
    diagnostics    TEXT NOT NULL,             -- JSON list: parser and verifier diagnostics
    canonical      TEXT NOT NULL,             -- canonical text (notation writer)
    source         TEXT,                      -- the game as read in its file
    source_file    TEXT,
    source_line    INTEGER,
    engine_version TEXT NOT NULL,
    imported_at    TEXT NOT NULL
)"""

V4_MARKS = """CREATE TABLE IF NOT EXISTS marks (
    id              INTEGER PRIMARY KEY,
    game_id         TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    coup_id         INTEGER NOT NULL REFERENCES coups(id) ON DELETE CASCADE,
    seq             INTEGER NOT NULL,         -- order within the coup (before, then after)
    phase           TEXT NOT NULL CHECK (phase IN ('before', 'after')),
    kind            TEXT NOT NULL CHECK (kind IN ('mark', 'ne-marque-pas', 'decision', 'ecole',
                                        'correction', 'joue-pour-tout', 'replay', 'pavillon',
                                        'comment', 'glyph')),
    who             TEXT,                     -- seat letter (claimant for an école)
    player_id       INTEGER REFERENCES players(id),
    against         TEXT,                     -- école: the seat who made it (claimant's opponent)
    against_id      INTEGER REFERENCES players(id),
    points          INTEGER,
    holes           INTEGER,
    bredouille      INTEGER CHECK (bredouille IN (0, 1)),
    leave           INTEGER CHECK (leave IN (0, 1)),
    reason          TEXT,
    text            TEXT,                     -- comment text, glyph, or the moves of a replay
    token           TEXT NOT NULL,            -- the action in canonical notation: A+4t1b, B:école+8
    line            INTEGER,
    col             INTEGER,
    UNIQUE (coup_id, seq)
)"""

V4_CUSTOM_FTS = """
CREATE VIRTUAL TABLE IF NOT EXISTS ecole_reasons_fts USING fts5(
    reason, content='marks', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
CREATE TRIGGER IF NOT EXISTS ecole_reasons_ai AFTER INSERT ON marks
WHEN new.kind = 'ecole' AND new.reason IS NOT NULL BEGIN
    INSERT INTO ecole_reasons_fts(rowid, reason) VALUES (new.id, new.reason); END;
CREATE TRIGGER IF NOT EXISTS ecole_reasons_ad AFTER DELETE ON marks
WHEN old.kind = 'ecole' AND old.reason IS NOT NULL BEGIN
    INSERT INTO ecole_reasons_fts(ecole_reasons_fts, rowid, reason) VALUES ('delete', old.id, old.reason); END
"""


def _check_foreign_keys(conn: sqlite3.Connection, table: str) -> None:
    bad = conn.execute(f"PRAGMA foreign_key_check({table})").fetchall()
    if bad:
        raise SchemaError("migrating_orphans", table=table, n=len(bad))


def migrate(conn: sqlite3.Connection) -> bool:
    """Run the migrations from the stored version up to this one (inside the caller's
    transaction); False when there is nothing to do."""
    version = stored_version(conn)
    if version is None:
        return False
    parse_version(version)  # a clear message for anything but 1..SCHEMA_VERSION
    if version == SCHEMA_VERSION:
        return False
    while version != SCHEMA_VERSION:
        version = MIGRATIONS[version](conn)
    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (SCHEMA_VERSION,))
    return True


def _migrate_1_to_2(conn: sqlite3.Connection) -> str:
    """Version 2 adds ``'replay'`` and ``'pavillon'`` to the ``marks.kind`` CHECK.  SQLite cannot alter a
    CHECK, so ``marks`` is rebuilt: old table renamed aside, new one created from
    :data:`TABLES`, rows copied with their ids, old table dropped, its indexes and
    triggers made again from their saved SQL (which still names ``marks``).
    ``legacy_alter_table`` keeps the rename from rewriting the views that name
    ``marks`` (they must go on naming the new table)."""
    _rebuild_marks(conn, V4_MARKS, "marks_v1")
    return "2"


def _rebuild_marks(conn: sqlite3.Connection, create: str, aside: str) -> None:
    """``marks`` made again by ``create``: the old table renamed ``aside``, its rows copied
    with their ids, dropped, its indexes and triggers made again from their saved SQL."""
    saved = _saved_indexes_and_triggers(conn, "marks")
    _rename_table(conn, "marks", aside)
    conn.execute(create)
    cols = ", ".join(r[1] for r in conn.execute(f'PRAGMA table_info("{aside}")'))
    conn.execute(f'INSERT INTO marks ({cols}) SELECT {cols} FROM "{aside}"')
    conn.execute(f'DROP TABLE "{aside}"')
    for sql in saved:
        conn.execute(sql)
    _check_foreign_keys(conn, "marks")


def _migrate_2_to_3(conn: sqlite3.Connection) -> str:
    """Version 3: ``games.label`` and ``games.game_key`` (filled from each game's
    headers), the history and source-file tables, new views and full-text indexes
    (made by :func:`_create_missing` after the migration)."""
    from .identity import game_key, game_label

    have = {r[1] for r in conn.execute("PRAGMA table_info(games)")}
    for col in ("label", "game_key"):
        if col not in have:
            conn.execute(f"ALTER TABLE games ADD COLUMN {col} TEXT")
    seen: set[str] = {k for (k,) in conn.execute("SELECT game_key FROM games WHERE game_key IS NOT NULL")}
    for gid, headers, date_iso in conn.execute(
        "SELECT id, headers, date_iso FROM games WHERE game_key IS NULL ORDER BY rowid"
    ).fetchall():
        h = json.loads(headers)
        key = game_key(h, gid)
        if key in seen:  # two stored games with the same tags: both kept
            key = game_key({}, gid)
        seen.add(key)
        conn.execute("UPDATE games SET label = ?, game_key = ? WHERE id = ?", (game_label(h, date_iso), key, gid))
    for view in VIEWS_V3:
        conn.execute(f"DROP VIEW IF EXISTS {view}")
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'ecole_reasons_fts'").fetchone():
        for stmt in _statements(V4_CUSTOM_FTS):
            conn.execute(stmt)
        conn.execute(
            "INSERT INTO ecole_reasons_fts(rowid, reason) SELECT id, reason FROM marks "
            "WHERE kind = 'ecole' AND reason IS NOT NULL"
        )
    return "3"


def _migrate_3_to_4(conn: sqlite3.Connection) -> str:
    """Version 4: ``games`` rebuilt with ``label`` as its primary key, first (Datasette shows
    the key first: a readable name instead of a hash), ``id`` a unique key further right.
    Rows copied in their order, each label made unique (:func:`free_label`); the views
    naming ``games`` are dropped first and made again by :func:`_create_missing`; foreign
    keys are off (:func:`_foreign_keys_off`), so the other tables keep their rows and go on
    naming ``games(id)``, checked before the commit."""
    from .identity import game_label

    _drop_views(conn)
    saved = _saved_indexes_and_triggers(conn, "games")
    conn.execute(V4_GAMES.replace("games (", "games_v4 (", 1))
    old = [r[1] for r in conn.execute("PRAGMA table_info(games)")]
    new = {r[1] for r in conn.execute("PRAGMA table_info(games_v4)")}
    cols = [c for c in old if c in new and c != "label"]
    names = ", ".join(cols)
    rows = conn.execute("SELECT id, label, headers, date_iso FROM games ORDER BY rowid").fetchall()
    for gid, label, headers, date_iso in rows:
        base = label or game_label(json.loads(headers), date_iso)
        conn.execute(
            f"INSERT INTO games_v4 (label, {names}) SELECT ?, {names} FROM games WHERE id = ?",
            (free_label(conn, base, gid, table="games_v4", hash_col="id"), gid),
        )
    conn.execute("DROP TABLE games")
    _rename_table(conn, "games_v4", "games")
    for sql in saved:
        conn.execute(sql)
    for table in ("game_players", "marques", "releves", "coups", "marks", "comments", "findings", "results"):
        _check_foreign_keys(conn, table)
    return "4"


#: the tables whose rows name a game, rebuilt from 4 to 5 (``games`` first)
V5_REBUILT = ("games", "game_players", "marques", "releves", "coups", "marks", "comments", "findings", "results")

# What schema 4 made on those tables (a club's own indexes and triggers are the others).
_V4_OURS = re.compile(
    r"idx_(games|game_players|marques|releves|coups|marks|comments|findings|results)_\w+"
    r"|(comments|findings)_a[iud]|ecole_reasons_a[id]"
)


def _migrate_4_to_5(conn: sqlite3.Connection) -> str:
    """Version 5 (issue 30): ``games.id`` an INTEGER key, the hash ``games.sha256``; every table
    naming a game rebuilt with that key (each row keeps its id), ``games.source`` NULL where it
    is the canonical text, ``games.source_end_line`` counted; the indexes of version 5 only,
    and a club's own indexes and triggers on those tables made again; the full-text indexes of
    findings and écoles built anew.  Inside the caller's transaction, foreign keys off (the
    rows are copied, not cascaded), every row counted and every foreign key checked before
    the commit."""
    from .rows import ecole_fts_rows, finding_fts_rows

    own = [
        sql
        for name, sql in conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL "
            f"AND tbl_name IN ({', '.join('?' * len(V5_REBUILT))}) ORDER BY type, name",
            V5_REBUILT,
        ).fetchall()
        if not _V4_OURS.fullmatch(name)
    ]
    before = {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in V5_REBUILT}
    _drop_views(conn)
    for fts in ("findings_fts", "ecole_reasons_fts", "comments_fts"):
        conn.execute(f"DROP TABLE IF EXISTS {fts}")
    for t in V5_REBUILT:
        _rename_table(conn, t, f"{t}_v4")
        conn.execute(_table_statement(t))
    text = "rtrim(COALESCE(source, canonical), char(10))"
    game_cols = [r[1] for r in conn.execute("PRAGMA table_info(games)")]
    pick = {
        "id": "rowid",
        "sha256": "id",
        "source": "CASE WHEN rtrim(source, char(10)) = rtrim(canonical, char(10)) THEN NULL ELSE source END",
        "source_end_line": f"source_line + length({text}) - length(replace({text}, char(10), ''))",
    }
    old_cols = {r[1] for r in conn.execute("PRAGMA table_info(games_v4)")} | set(pick)
    game_cols = [c for c in game_cols if c in old_cols]  # the columns of later versions: their defaults
    conn.execute(
        f"INSERT INTO games ({', '.join(game_cols)}) SELECT {', '.join(pick.get(c, c) for c in game_cols)} "
        "FROM games_v4 ORDER BY rowid"
    )
    for t in V5_REBUILT[1:]:
        cols = [r[1] for r in conn.execute(f"PRAGMA table_info({t})")]
        pick = {"game_id": "g.id", "coup_seq": "c.seq"}  # a coup is named by its game and seq now
        sel = ", ".join(pick.get(c, f"x.{c}") for c in cols)
        coup = " LEFT JOIN coups_v4 c ON c.id = x.coup_id" if "coup_seq" in cols else ""
        conn.execute(
            f"INSERT INTO {t} ({', '.join(cols)}) SELECT {sel} FROM {t}_v4 x JOIN games g ON g.sha256 = x.game_id"
            f"{coup} ORDER BY x.rowid"
        )
    for t in V5_REBUILT:
        n = conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
        if n != before[t]:
            raise SchemaError("migrating_no_game", table=t, n=before[t] - n)
    for t in reversed(V5_REBUILT):
        conn.execute(f"DROP TABLE {t}_v4")
    for stmt in _statements(CUSTOM_FTS):
        conn.execute(stmt)
    conn.executemany(
        "INSERT INTO findings_fts (rowid, terms, message, detail) VALUES (?, ?, ?, ?)",
        finding_fts_rows(conn.execute("SELECT id, kind, message, detail FROM findings")),
    )
    conn.executemany(
        "INSERT INTO ecoles_fts (rowid, terms, reason) VALUES (?, ?, ?)",
        ecole_fts_rows(conn.execute("SELECT id, token, reason FROM marks WHERE kind = 'ecole'")),
    )
    for sql in own:
        conn.execute(sql)
    for t in V5_REBUILT:
        _check_foreign_keys(conn, t)
    return "5"


def _migrate_5_to_6(conn: sqlite3.Connection) -> str:
    """Version 6 (issue 25 item 3): each game's result stored once, ``games.kind``,
    ``games.finished`` and ``games.winner`` (``replay.verifier.result.game_result``), which the
    views, standings and canned queries read.  Filled from the stored rows: the kind from the
    ``Partie`` header; a partie en douze trous is finished when a seat has won (its
    ``results`` rows); a partie à écrire when its decided marqués reach the agreed number
    (the marqués as written; ``db reverify --all`` takes them from the replay), its
    seats' outcomes cleared while it is not.  Inside the caller's transaction."""
    from ..notation.reader import parse_partie

    have = {r[1] for r in conn.execute("PRAGMA table_info(games)")}
    for col, ddl in V6_GAME_COLUMNS:
        if col not in have:
            conn.execute(f"ALTER TABLE games ADD COLUMN {ddl}")
    for view in VIEWS_V6:
        conn.execute(f"DROP VIEW IF EXISTS {view}")  # made again by _create_missing
    decided = dict(
        conn.execute(
            "SELECT game_id, COUNT(*) FROM marques WHERE NOT COALESCE(refait, 0) AND winner IN (seat_x, seat_y) "
            "GROUP BY game_id"
        ).fetchall()
    )
    winners = dict(conn.execute("SELECT game_id, seat FROM results WHERE outcome = 'win' AND seat IN ('A', 'B')"))
    seats = dict(conn.execute("SELECT game_id, COUNT(*) FROM results GROUP BY game_id"))
    updates, unfinished = [], []
    for gno, partie in conn.execute("SELECT id, partie FROM games").fetchall():
        parsed = parse_partie(partie) if partie else None
        kind = parsed[0] if parsed is not None else "douze-trous"
        if kind == "douze-trous":
            winner = winners.get(gno)
            updates.append((kind, int(winner is not None), winner, gno))
            continue
        finished = decided.get(gno, 0) >= ((parsed[1] if parsed else None) or 4)
        if not finished:
            unfinished.append((gno,))
        winner = winners.get(gno) if finished and seats.get(gno, 0) <= 2 else None
        updates.append((kind, int(finished), winner, gno))
    conn.executemany("UPDATE games SET kind = ?, finished = ?, winner = ? WHERE id = ?", updates)
    conn.executemany("UPDATE results SET outcome = NULL WHERE game_id = ?", unfinished)
    return "6"


#: ``marks.kind``'s CHECK as versions 2 to 6 write it, and as version 7 does (club.schema.TABLES)
V6_KIND_CHECK = """CHECK (kind IN ('mark', 'ne-marque-pas', 'decision', 'ecole',
                                        'correction', 'joue-pour-tout', 'replay', 'pavillon',
                                        'force', 'fait-marquer', 'remet', 'comment', 'glyph'))"""


def _v7_kind_check() -> str:
    found = re.search(r"CHECK \(kind = .*?'glyph'\)", _table_statement("marks"), re.S)
    assert found is not None  # club.schema.TABLES writes it so
    return found.group(0)


def _migrate_6_to_7(conn: sqlite3.Connection) -> str:
    """Version 7 (issue 30): ``marks.kind``'s CHECK written as a chain of ``OR`` instead of an
    ``IN`` list of 13 words, which SQLite builds into a table each time an insert statement
    runs (a third of the marks' insert); the same kinds allowed, so every stored row holds
    it.  A CHECK leaves nothing on disk: the table's SQL is rewritten in ``sqlite_schema``
    (SQLite's documented way to change a CHECK, lang_altertable.html "Making Other Kinds Of
    Table Schema Changes": ``writable_schema``, the schema version bumped), no row moved, so
    a federation's file neither takes long nor grows.  A ``marks`` whose SQL is not the one
    versions 2 to 6 wrote (a club's own change) is rebuilt instead
    (:func:`_rebuild_marks`).  Inside the caller's transaction."""
    (sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'marks'").fetchone()
    if _v7_kind_check() in sql:  # made by the step to 5 (from version 4 or before): as version 7 has it
        return "7"
    if sql.count(V6_KIND_CHECK) == 1:
        cookie = conn.execute("PRAGMA schema_version").fetchone()[0]
        conn.execute("PRAGMA writable_schema = ON")
        try:
            conn.execute(
                "UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = 'marks'",
                (sql.replace(V6_KIND_CHECK, _v7_kind_check()),),
            )
            conn.execute(f"PRAGMA schema_version = {int(cookie) + 1}")
        finally:
            conn.execute("PRAGMA writable_schema = OFF")
        return "7"
    _rebuild_marks(conn, _table_statement("marks"), "marks_v6")
    return "7"


MIGRATIONS = {
    "1": _migrate_1_to_2,
    "2": _migrate_2_to_3,
    "3": _migrate_3_to_4,
    "4": _migrate_4_to_5,
    "5": _migrate_5_to_6,
    "6": _migrate_6_to_7,
}  # stored version -> step to the next one (returns it)


def _saved_indexes_and_triggers(conn: sqlite3.Connection, table: str) -> list[str]:
    """The SQL of the indexes and triggers on ``table`` (a club may have added its own), to
    make them again once the table is rebuilt (they go with the old table)."""
    return [
        sql
        for (sql,) in conn.execute(
            "SELECT sql FROM sqlite_master WHERE tbl_name = ? AND type IN ('index', 'trigger') "
            "AND sql IS NOT NULL ORDER BY type, name",
            (table,),
        )
    ]


def _rename_table(conn: sqlite3.Connection, old: str, new: str) -> None:
    """``ALTER TABLE old RENAME TO new`` without rewriting the views and triggers that name
    either table (``legacy_alter_table``): they must go on naming the table of that name."""
    legacy = conn.execute("PRAGMA legacy_alter_table").fetchone()[0]
    conn.execute("PRAGMA legacy_alter_table = ON")
    try:
        conn.execute(f"ALTER TABLE {old} RENAME TO {new}")
    finally:
        conn.execute(f"PRAGMA legacy_alter_table = {int(legacy)}")


def _drop_views(conn: sqlite3.Connection) -> None:
    """Drop every view (made again by ``_create_missing`` once the tables are rebuilt)."""
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'view'").fetchall():
        conn.execute(f'DROP VIEW IF EXISTS "{name}"')
