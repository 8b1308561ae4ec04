"""The club database's migrations: each step brings a file from one schema version to the
next inside the caller's transaction (:func:`trictrac.club.schema.upgrade_schema`); the
versions are in docs/database.md, "Schema versions"."""

from __future__ import annotations

import json
import sqlite3

from .schema import (
    CUSTOM_FTS,
    SCHEMA_VERSION,
    VIEWS,
    VIEWS_V3,
    SchemaError,
    _statements,
    _table_statement,
    free_label,
    stored_version,
)


def _check_foreign_keys(conn: sqlite3.Connection, table: str) -> None:
    bad = conn.execute(f"PRAGMA foreign_key_check({table})").fetchall()
    if bad:
        raise SchemaError(f"migrating {table}: {len(bad)} rows point at missing rows")


def migrate(conn: sqlite3.Connection) -> bool:
    """Run the migrations from the stored version up to this one (inside the caller's
    transaction); False when there is nothing to do."""
    version = stored_version(conn)
    if version in (None, SCHEMA_VERSION):
        return False
    if not version.isdigit() or int(version) > int(SCHEMA_VERSION) or version not in MIGRATIONS:
        raise SchemaError(
            f"club database schema version {version!r}: this trictrac reads versions up to "
            f"{SCHEMA_VERSION} (a newer trictrac made the file?)"
        )
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
    saved = _saved_indexes_and_triggers(conn, "marks")
    _rename_table(conn, "marks", "marks_v1")
    conn.execute(_table_statement("marks"))
    cols = ", ".join(r[1] for r in conn.execute("PRAGMA table_info(marks_v1)"))
    conn.execute(f"INSERT INTO marks ({cols}) SELECT {cols} FROM marks_v1")
    conn.execute("DROP TABLE marks_v1")
    for sql in saved:
        conn.execute(sql)
    _check_foreign_keys(conn, "marks")
    return "2"


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
        for stmt in _statements(CUSTOM_FTS):
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

    for view in _view_names():
        conn.execute(f"DROP VIEW IF EXISTS {view}")
    saved = _saved_indexes_and_triggers(conn, "games")
    conn.execute(_table_statement("games").replace("games (", "games_v4 (", 1))
    old = [r[1] for r in conn.execute("PRAGMA table_info(games)")]
    new = {r[1] for r in conn.execute("PRAGMA table_info(games_v4)")}
    cols = [c for c in old if c in new and c != "label"]
    names = ", ".join(cols)
    rows = conn.execute("SELECT id, label, headers, date_iso FROM games ORDER BY rowid").fetchall()
    for gid, label, headers, date_iso in rows:
        base = label or game_label(json.loads(headers), date_iso)
        conn.execute(
            f"INSERT INTO games_v4 (label, {names}) SELECT ?, {names} FROM games WHERE id = ?",
            (free_label(conn, base, gid, table="games_v4"), gid),
        )
    conn.execute("DROP TABLE games")
    _rename_table(conn, "games_v4", "games")
    for sql in saved:
        conn.execute(sql)
    for table in ("game_players", "marques", "releves", "coups", "marks", "comments", "findings", "results"):
        _check_foreign_keys(conn, table)
    return "4"


MIGRATIONS = {
    "1": _migrate_1_to_2,
    "2": _migrate_2_to_3,
    "3": _migrate_3_to_4,
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


def _view_names() -> list[str]:
    return [stmt.split(" AS", 1)[0].split()[-1] for stmt in _statements(VIEWS)]
