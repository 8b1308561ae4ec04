"""The club database schema (SQLite): plain tables, foreign keys, indexes, FTS5, views.

Every table and column is described in ``docs/database.md``.  The schema is created
with ``CREATE … IF NOT EXISTS`` inside one ``BEGIN IMMEDIATE`` transaction, so two
processes opening a new file at once both end up with the same, complete schema.
Plain tables and views only: Datasette browses the file as it is.  ``meta.schema_version``
says which version a file has; an older file is migrated in place when it is opened
(:func:`upgrade_schema`, :data:`MIGRATIONS`; docs/database.md "Schema versions").
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from .words import ClubError

SCHEMA_VERSION = "7"
# 2: marks.kind allows 'replay' (a table remedy, RULES.md §9.5) and 'pavillon' (§5.4)
# 3: games.game_key (a game's identity) and games.label; game_history; source_files;
#    full-text indexes over findings and école reasons
# 4: games.label is the primary key (unique, readable: the first column Datasette shows),
#    games.id (the content hash that other tables name) a unique key further right
# 5: games.id an INTEGER key that every other table names (issue 30: a tenth of the size),
#    the content hash games.sha256 the public id; indexes for the queries a club runs only;
#    games.source NULL when it is the canonical text, games.source_end_line; full-text
#    indexes findings_fts (kind words, French and English names) and ecoles_fts (claims)
# 6: games.kind, finished, winner (each game's result stored once)
# 7: marks.kind's CHECK written as a chain of OR (issue 30: SQLite builds an IN list of 13 words
#    into a table each time a statement runs; the chain costs nothing measurable), same kinds

# Tokenizer for the full-text indexes: accents folded, so `ecole` finds `école`.
FTS_TOKENIZE = "unicode61 remove_diacritics 2"

TABLES = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS players (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE                 -- normalised (notation.names.player_name)
);

CREATE TABLE IF NOT EXISTS games (
    id             INTEGER PRIMARY KEY,       -- the key every other table names
    label          TEXT NOT NULL UNIQUE,      -- readable name, unique: date, players, round (free_label)
    date_iso       TEXT,                      -- YYYY[-MM[-DD]] when readable
    season         TEXT,                      -- see club season rule (meta.season_start_month)
    event          TEXT,
    site           TEXT,
    round          TEXT,
    partie         TEXT,                      -- Partie header (kind of partie)
    result         TEXT,                      -- Result header as written
    n_coups        INTEGER NOT NULL,
    n_findings     INTEGER NOT NULL,
    sha256         TEXT NOT NULL UNIQUE,      -- of the canonical text: the game's public id
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
    source         TEXT,                      -- the game as read in its file; NULL: the canonical text
    source_file    TEXT,                      -- the file as named on the command line (- : standard input)
    source_line    INTEGER,                   -- first line of the game in that file
    source_end_line INTEGER,                  -- its last line
    engine_version TEXT NOT NULL,
    imported_at    TEXT NOT NULL,
    kind           TEXT NOT NULL DEFAULT 'douze-trous',  -- kind of partie (replay.verifier.result.game_result)
    finished       INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1)),  -- the partie is over
    winner         TEXT CHECK (winner IN ('A', 'B'))   -- seat; NULL: not finished, drawn, 3-4 seats
);

CREATE TABLE IF NOT EXISTS game_players (
    game_id   INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat      TEXT NOT NULL CHECK (seat IN ('A', 'B', 'C', 'D')),
    player_id INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS marques (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    number       INTEGER NOT NULL,
    seq          INTEGER NOT NULL,            -- index of the section among the game's elements
    seat_x       TEXT NOT NULL,               -- the two seats who play this marqué
    seat_y       TEXT NOT NULL,
    winner       TEXT,                        -- seat letter; NULL while unknown or refait
    winner_holes INTEGER,
    loser_holes  INTEGER,
    bredouille   TEXT CHECK (bredouille IN ('none', 'petite', 'grande')),
    refait       INTEGER CHECK (refait IN (0, 1)),
    value        INTEGER,                     -- value written on the score sheet
    line         INTEGER,
    col          INTEGER,
    UNIQUE (game_id, seq)
);

CREATE TABLE IF NOT EXISTS releves (
    id        INTEGER PRIMARY KEY,
    game_id   INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    marque_id INTEGER,                        -- marques.id (deleted with the game)
    number    INTEGER NOT NULL,
    seq       INTEGER NOT NULL,
    line      INTEGER,
    col       INTEGER,
    UNIQUE (game_id, seq)
);

CREATE TABLE IF NOT EXISTS coups (
    game_id   INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,               -- 0-based order of the coup in the game
    releve_id INTEGER,                        -- releves.id (its marqué: releves.marque_id)
    number    INTEGER NOT NULL,               -- coup number as written
    side      TEXT NOT NULL,                  -- seat letter of the roller (his player: game_players)
    die1      INTEGER NOT NULL CHECK (die1 BETWEEN 1 AND 6),
    die2      INTEGER NOT NULL CHECK (die2 BETWEEN 1 AND 6),
    moves     TEXT NOT NULL,                  -- canonical: "1/7 1/6", "19/off", "-5" = cannot play a 5
    line      INTEGER,                        -- in the game's file (games.source_file)
    col       INTEGER,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS marks (
    id              INTEGER PRIMARY KEY,
    game_id         INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    coup_seq        INTEGER NOT NULL,         -- the coup (coups.seq of this game)
    seq             INTEGER NOT NULL,         -- order within the coup (before, then after)
    phase           TEXT NOT NULL CHECK (phase IN ('before', 'after')),
    kind            TEXT NOT NULL CHECK (kind = 'mark' OR kind = 'ne-marque-pas' OR kind = 'decision'
                                        OR kind = 'ecole' OR kind = 'correction' OR kind = 'joue-pour-tout'
                                        OR kind = 'replay' OR kind = 'pavillon' OR kind = 'force'
                                        OR kind = 'fait-marquer' OR kind = 'remet' OR kind = 'comment'
                                        OR kind = 'glyph'),  -- not an IN list: club.migrations, version 7
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
    UNIQUE (game_id, coup_seq, seq),
    FOREIGN KEY (game_id, coup_seq) REFERENCES coups(game_id, seq) ON DELETE CASCADE
);

CREATE TABLE IF NOT EXISTS comments (
    id       INTEGER PRIMARY KEY,
    game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    coup_seq INTEGER,                          -- the coup (coups.seq), NULL between coups
    text     TEXT NOT NULL,
    line     INTEGER,
    col      INTEGER,
    FOREIGN KEY (game_id, coup_seq) REFERENCES coups(game_id, seq) ON DELETE CASCADE
);

CREATE TABLE IF NOT EXISTS findings (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    coup_seq    INTEGER,                      -- the coup (coups.seq), NULL when not at a coup
    seq         INTEGER NOT NULL,             -- order in the verifier's report
    releve      INTEGER,
    marque      INTEGER,
    coup        INTEGER,
    line        INTEGER,                      -- in the game's file (games.source_file)
    col         INTEGER,
    who         TEXT,
    player_id   INTEGER REFERENCES players(id),
    kind        TEXT NOT NULL,
    entitled    INTEGER,
    marked      INTEGER,
    consequence TEXT,
    rule        TEXT,                         -- RULES.md section (which cites the book)
    detail      TEXT,                         -- sub-reason, e.g. the violation of an illegal move
    alternatives TEXT,                        -- JSON list of legal plays (move texts)
    message     TEXT NOT NULL,
    UNIQUE (game_id, seq),
    FOREIGN KEY (game_id, coup_seq) REFERENCES coups(game_id, seq) ON DELETE CASCADE
);

CREATE TABLE IF NOT EXISTS results (
    game_id       INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat          TEXT NOT NULL CHECK (seat IN ('A', 'B', 'C', 'D')),
    player_id     INTEGER REFERENCES players(id),
    opponent_seat TEXT,                       -- two-player games only
    holes         INTEGER,                    -- final score as the table stands (verifier)
    points        INTEGER,
    bredouille    INTEGER,
    pavillon      INTEGER,
    marques_won   INTEGER NOT NULL DEFAULT 0,
    marques_lost  INTEGER NOT NULL DEFAULT 0,
    marque_value  INTEGER NOT NULL DEFAULT 0, -- value of marqués won minus marqués lost
    outcome       TEXT CHECK (outcome IN ('win', 'loss', 'draw')),  -- NULL = unfinished
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS game_history (
    id           INTEGER PRIMARY KEY,
    game_id      TEXT NOT NULL,               -- the content id (sha256) the version had
    game_key     TEXT,
    label        TEXT,
    action       TEXT NOT NULL CHECK (action IN ('replaced', 'deleted')),
    replaced_by  TEXT,                        -- content id of the version that replaced it
    at           TEXT NOT NULL,               -- when it was replaced or deleted
    imported_at  TEXT,
    n_findings   INTEGER,
    headers      TEXT,                        -- JSON object of its header tags
    canonical    TEXT NOT NULL,               -- its canonical text: re-import it to restore it
    source       TEXT,
    source_file  TEXT
);

CREATE TABLE IF NOT EXISTS source_files (
    sha256      TEXT PRIMARY KEY,             -- of the file's bytes: an unchanged file is not read again
    path        TEXT NOT NULL,
    game_ids    TEXT NOT NULL,                -- JSON list of the content ids of the games it holds
    imported_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS import_failures (
    id           TEXT PRIMARY KEY,            -- hash of file, line, reason, message
    source_file  TEXT NOT NULL,
    game_index   INTEGER,                     -- 0-based index of the game in its file
    line         INTEGER,
    game_id      TEXT,                        -- content hash, when it could be computed
    reason       TEXT NOT NULL,               -- unreadable-file | parse-error | verify-error | store-error
    message      TEXT NOT NULL,
    diagnostics  TEXT NOT NULL,               -- JSON list
    attempted_at TEXT NOT NULL
);
"""

# Only the indexes the queries of a club need (docs/database.md, "Indexes"): the primary
# keys and UNIQUE constraints, which start with game_id, serve a game's rows and the cascades.
INDEXES = """
CREATE INDEX IF NOT EXISTS idx_games_season ON games(season);
CREATE INDEX IF NOT EXISTS idx_games_date ON games(date_iso);
CREATE UNIQUE INDEX IF NOT EXISTS idx_games_key ON games(game_key);
CREATE INDEX IF NOT EXISTS idx_game_history_key ON game_history(game_key);
CREATE INDEX IF NOT EXISTS idx_game_history_game ON game_history(game_id);
CREATE INDEX IF NOT EXISTS idx_game_players_player ON game_players(player_id);
CREATE INDEX IF NOT EXISTS idx_results_player ON results(player_id);
CREATE INDEX IF NOT EXISTS idx_marks_ecole_claimant ON marks(player_id) WHERE kind = 'ecole';
CREATE INDEX IF NOT EXISTS idx_marks_ecole_made_by ON marks(against_id) WHERE kind = 'ecole';
CREATE INDEX IF NOT EXISTS idx_marks_ecole_game ON marks(game_id) WHERE kind = 'ecole';
CREATE INDEX IF NOT EXISTS idx_marks_correction_game ON marks(game_id) WHERE kind = 'correction';
CREATE INDEX IF NOT EXISTS idx_comments_game ON comments(game_id, coup_seq);
CREATE INDEX IF NOT EXISTS idx_findings_kind ON findings(kind);
CREATE INDEX IF NOT EXISTS idx_findings_player ON findings(player_id);
CREATE INDEX IF NOT EXISTS idx_import_failures_file ON import_failures(source_file);
"""

VIEWS = """
CREATE VIEW IF NOT EXISTS game_list AS
SELECT g.label AS game, g.date_iso AS date, g.season, g.event, g.site, g.partie,
       pa.name AS player_a, pb.name AS player_b,
       ra.holes AS holes_a, rb.holes AS holes_b,
       CASE g.winner WHEN 'A' THEN pa.name WHEN 'B' THEN pb.name END AS winner, g.finished,
       g.result, g.n_coups, g.n_findings, g.mode, g.profile, g.round, g.sha256 AS id, g.id AS game_ref
FROM games g
LEFT JOIN results ra ON ra.game_id = g.id AND ra.seat = 'A'
LEFT JOIN results rb ON rb.game_id = g.id AND rb.seat = 'B'
LEFT JOIN players pa ON pa.id = ra.player_id
LEFT JOIN players pb ON pb.id = rb.player_id;

CREATE VIEW IF NOT EXISTS player_games AS
SELECT p.name AS player, g.label AS game, r.player_id, g.sha256 AS game_id, g.date_iso AS date, g.season, g.event,
       g.partie, r.seat, op.name AS opponent, ro.player_id AS opponent_id, r.outcome,
       -- holes of a partie en douze trous; a partie à écrire counts its holes by marqué
       CASE WHEN g.kind = 'douze-trous' THEN r.holes END AS holes,
       CASE WHEN g.kind = 'douze-trous' THEN ro.holes END AS holes_against,
       r.marques_won, r.marques_lost, r.marque_value, g.id AS game_ref
FROM results r
JOIN games g ON g.id = r.game_id
JOIN players p ON p.id = r.player_id
LEFT JOIN results ro ON ro.game_id = r.game_id AND ro.seat = r.opponent_seat
LEFT JOIN players op ON op.id = ro.player_id;

CREATE VIEW IF NOT EXISTS marque_results AS
SELECT g.label AS game, m.id, g.sha256 AS game_id, g.season, g.date_iso AS date, m.number,
       CASE WHEN m.winner = m.seat_x THEN gx.player_id WHEN m.winner = m.seat_y THEN gy.player_id END AS winner_id,
       CASE WHEN m.winner = m.seat_x THEN px.name WHEN m.winner = m.seat_y THEN py.name END AS winner,
       CASE WHEN m.winner = m.seat_x THEN gy.player_id WHEN m.winner = m.seat_y THEN gx.player_id END AS loser_id,
       CASE WHEN m.winner = m.seat_x THEN py.name WHEN m.winner = m.seat_y THEN px.name END AS loser,
       m.winner_holes, m.loser_holes, m.bredouille, m.refait, m.value, m.game_id AS game_ref
FROM marques m
JOIN games g ON g.id = m.game_id
LEFT JOIN game_players gx ON gx.game_id = m.game_id AND gx.seat = m.seat_x
LEFT JOIN game_players gy ON gy.game_id = m.game_id AND gy.seat = m.seat_y
LEFT JOIN players px ON px.id = gx.player_id
LEFT JOIN players py ON py.id = gy.player_id;

CREATE VIEW IF NOT EXISTS ecoles AS
SELECT g.label AS game, k.id, g.sha256 AS game_id, g.season, g.date_iso AS date, c.number AS coup, c.line,
       pc.name AS claimant, k.player_id AS claimant_id,
       pm.name AS made_by, k.against_id AS made_by_id, k.points, k.reason, k.game_id AS game_ref
FROM marks k
JOIN coups c ON c.game_id = k.game_id AND c.seq = k.coup_seq
JOIN games g ON g.id = k.game_id
LEFT JOIN players pc ON pc.id = k.player_id
LEFT JOIN players pm ON pm.id = k.against_id
WHERE k.kind = 'ecole';

CREATE VIEW IF NOT EXISTS disputed_games AS
SELECT g.label AS game, g.date_iso AS date, g.season,
       (SELECT COUNT(*) FROM marks k WHERE k.game_id = g.id AND k.kind = 'ecole') AS ecoles_claimed,
       (SELECT COUNT(*) FROM marks k WHERE k.game_id = g.id AND k.kind = 'correction') AS corrections,
       (SELECT COUNT(*) FROM findings f WHERE f.game_id = g.id AND (f.kind GLOB 'ecole*'
          OR f.kind IN ('unclaimed-ecole', 'hole-mismatch', 'bredouille-lost', 'marque-result-mismatch',
                        'result-mismatch'))) AS score_findings,
       g.n_findings, g.result, g.sha256 AS id, g.id AS game_ref
FROM games g
WHERE g.id IN (SELECT k.game_id FROM marks k WHERE k.kind = 'ecole')
   OR g.id IN (SELECT k.game_id FROM marks k WHERE k.kind = 'correction')
   OR g.id IN (SELECT f.game_id FROM findings f WHERE f.kind GLOB 'ecole*'
          OR f.kind IN ('unclaimed-ecole', 'hole-mismatch', 'bredouille-lost', 'marque-result-mismatch',
                        'result-mismatch'));
"""

# Views rebuilt by the migration to 3 (their columns changed).
VIEWS_V3 = ("game_list", "player_games", "marque_results", "ecoles")
# Views rebuilt by the migration to 6 (they read the stored result: games.kind, finished, winner).
VIEWS_V6 = ("game_list", "player_games")
# The columns version 6 adds to games, as ALTER TABLE adds them (the same as in TABLES).
V6_GAME_COLUMNS = (
    ("kind", "kind TEXT NOT NULL DEFAULT 'douze-trous'"),
    ("finished", "finished INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1))"),
    ("winner", "winner TEXT CHECK (winner IN ('A', 'B'))"),
)

# Full-text indexes kept by the store (club.store: fed in bulk with each batch of games) and
# emptied by triggers when their rows go: ``findings_fts`` holds each finding's kind words
# (the kind spelled with spaces, its French and English names: club.rows.kind_terms), message
# and detail; ``ecoles_fts`` each école claimed (a ``marks`` row of kind ``ecole``): the
# words of a claim in both languages and its reason.  Rowids are the rows' ids.
CUSTOM_FTS = """
CREATE VIRTUAL TABLE IF NOT EXISTS findings_fts USING fts5(
    terms, message, detail, tokenize='unicode61 remove_diacritics 2');
CREATE TRIGGER IF NOT EXISTS findings_fts_ad AFTER DELETE ON findings BEGIN
    DELETE FROM findings_fts WHERE rowid = old.id; END;
CREATE VIRTUAL TABLE IF NOT EXISTS ecoles_fts USING fts5(
    terms, reason, tokenize='unicode61 remove_diacritics 2');
CREATE TRIGGER IF NOT EXISTS ecoles_fts_ad AFTER DELETE ON marks WHEN old.kind = 'ecole' BEGIN
    DELETE FROM ecoles_fts WHERE rowid = old.id; END
"""

# (table, columns) with an FTS5 index kept up to date by triggers (sqlite-utils).
FTS = (("players", ("name",)), ("comments", ("text",)))


class SchemaError(ClubError):
    """The file's ``meta.schema_version`` is one this toolkit cannot read or migrate."""


def create_schema(conn: sqlite3.Connection, *, season_start_month: int = 1) -> None:
    """Create every table, index, view and FTS index that is missing, migrating an
    older file first (see :func:`upgrade_schema`).

    Runs in one ``BEGIN IMMEDIATE`` transaction so concurrent creators serialise.
    ``season_start_month`` is stored on first creation only (the club season rule).
    """
    if not 1 <= season_start_month <= 12:
        raise ValueError(f"season_start_month must be 1..12, not {season_start_month}")
    with _foreign_keys_off(conn):
        conn.execute("BEGIN IMMEDIATE")
        try:
            if stored_version(conn) not in (None, SCHEMA_VERSION):  # a new or current file: not loaded
                from .migrations import migrate

                migrate(conn)
            _create_missing(conn)
            conn.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', ?)", (SCHEMA_VERSION,))
            conn.execute(
                "INSERT OR IGNORE INTO meta(key, value) VALUES ('season_start_month', ?)",
                (str(season_start_month),),
            )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise


def stored_version(conn: sqlite3.Connection) -> str | None:
    """``meta.schema_version`` of the file, or None for a file without one (a new file)."""
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone():
        return None
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    return row[0] if row else None


def parse_version(text: object) -> int:
    """``meta.schema_version`` read strictly (issue 27 row 12): ASCII digits only, no sign,
    no spaces, no decimals, from 1 to :data:`SCHEMA_VERSION`; :class:`SchemaError` with what is
    wrong otherwise, each case its own words."""
    if not isinstance(text, str):
        raise SchemaError("version_not_text", text=text)
    if text == "":
        raise SchemaError("version_empty", text=text)
    if text != text.strip():
        raise SchemaError("version_spaces", text=text)
    if text.startswith(("-", "+")):
        raise SchemaError("version_sign", text=text)
    if not (text.isascii() and text.isdigit()):
        kind = "version_decimal" if text.replace(".", "", 1).isdigit() else "version_not_whole"
        raise SchemaError(kind, text=text, latest=SCHEMA_VERSION)
    n = int(text)
    if n == 0 or text.startswith("0"):
        raise SchemaError("version_zeros", text=text)
    if n > int(SCHEMA_VERSION):
        raise SchemaError("version_newer", text=text, latest=SCHEMA_VERSION)
    return n


def upgrade_schema(conn: sqlite3.Connection) -> bool:
    """Bring an older club file to :data:`SCHEMA_VERSION` in place; True if it migrated.

    One ``BEGIN IMMEDIATE`` transaction: a crash (or any error) leaves the file as it
    was, and a second process opening the file at the same time waits, then finds it
    migrated.  Idempotent: a file at this version is not touched (no write lock taken).
    """
    if stored_version(conn) in (None, SCHEMA_VERSION):
        return False
    from .migrations import migrate

    with _foreign_keys_off(conn):
        conn.execute("BEGIN IMMEDIATE")
        try:
            migrated = migrate(conn)
            if migrated:
                _create_missing(conn)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return migrated


@contextmanager
def _foreign_keys_off(conn: sqlite3.Connection) -> Iterator[None]:
    """Foreign keys off around a migration (set outside the transaction: SQLite ignores the
    pragma inside one), so that rebuilding ``games`` does not cascade its DROP to every row
    of a game; :func:`_check_foreign_keys` checks the result before the commit."""
    was = conn.execute("PRAGMA foreign_keys").fetchone()[0]
    conn.execute("PRAGMA foreign_keys = OFF")
    try:
        yield
    finally:
        conn.execute(f"PRAGMA foreign_keys = {int(was)}")


def _create_missing(conn: sqlite3.Connection) -> None:
    for sql in (TABLES, INDEXES, VIEWS, CUSTOM_FTS):
        for stmt in _statements(sql):
            conn.execute(stmt)
    for table, columns in FTS:
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (f"{table}_fts",)).fetchone():
            _enable_fts(conn, table, columns)


def _enable_fts(conn: sqlite3.Connection, table: str, columns: tuple[str, ...]) -> None:
    """The FTS5 index sqlite-utils' ``enable_fts(columns, create_triggers=True)`` makes (the
    same statements, so that Datasette finds it as ever), filled from the rows; written here
    so that an import does not load sqlite-utils (and numpy with it: ~0.15 CPU s a process)."""
    cols = ", ".join(f'"{c}"' for c in columns)
    new = ", ".join(f'new."{c}"' for c in columns)
    old = ", ".join(f'old."{c}"' for c in columns)
    fts = f"{table}_fts"
    conn.execute(
        f'CREATE VIRTUAL TABLE "{fts}" USING FTS5 (\n'
        + "".join(f'    "{c}",\n' for c in columns)
        + f"    tokenize='{FTS_TOKENIZE}',\n    content=\"{table}\"\n)"
    )
    conn.execute(f'INSERT INTO "{fts}" (rowid, {cols}) SELECT rowid, {cols} FROM "{table}"')
    ins = f'INSERT INTO "{fts}" (rowid, {cols}) VALUES (new.rowid, {new});'
    dele = f'INSERT INTO "{fts}" ("{fts}", rowid, {cols}) VALUES(\'delete\', old.rowid, {old});'
    conn.execute(f'CREATE TRIGGER "{table}_ai" AFTER INSERT ON "{table}" BEGIN\n  {ins}\nEND')
    conn.execute(f'CREATE TRIGGER "{table}_ad" AFTER DELETE ON "{table}" BEGIN\n  {dele}\nEND')
    conn.execute(f'CREATE TRIGGER "{table}_au" AFTER UPDATE ON "{table}" BEGIN\n  {dele}\n  {ins}\nEND')


def free_label(
    conn: sqlite3.Connection, label: str, gid: str, *, table: str = "games", hash_col: str = "sha256"
) -> str:
    """``label`` when no other stored game has it, else ``label #`` and as many first hex
    digits of the game's id as make it unique (``games.label`` is the primary key)."""
    for digits in (0, 8, 16, len(gid)):
        name = f"{label} #{gid[:digits]}" if digits else label
        row = conn.execute(f"SELECT {hash_col} FROM {table} WHERE label = ?", (name,)).fetchone()
        if row is None or row[0] == gid:
            return name
    raise SchemaError("no_free_label", game=gid)


def _table_statement(name: str) -> str:
    for stmt in _statements(TABLES):
        if stmt.split("(", 1)[0].split()[-1] == name:
            return stmt
    raise KeyError(name)


def _statements(sql: str) -> list[str]:
    # Split on ";" at line ends: no statement here holds a ";" inside a string.
    out = []
    for chunk in sql.split(";\n"):
        lines = [ln for ln in chunk.strip().splitlines() if ln.strip()]
        if lines:
            out.append("\n".join(lines))
    return out
