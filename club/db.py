"""The club database: opening it (created, migrated, or read only) and its games by id.

The schema is :mod:`trictrac.club.schema` (migrations :mod:`trictrac.club.migrations`),
a game's rows :mod:`trictrac.club.rows`, their writing :mod:`trictrac.club.store`, the
import :mod:`trictrac.club.importer` and its workers :mod:`trictrac.club.workers`;
``import_records`` and ``reverify`` are importable from here too."""

from __future__ import annotations

import os
import re
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from .rows import _now
from .schema import SCHEMA_VERSION, SchemaError, create_schema, parse_version, stored_version, upgrade_schema
from .words import ClubError

if TYPE_CHECKING:
    from sqlite_utils import Database


BUSY_TIMEOUT_MS = 60_000  # a concurrent importer holds the lock for one batch (8 games) at a time
SEATS = ("A", "B", "C", "D")


class GameNotFound(ClubError):
    """No stored game has this id (or id prefix), or the prefix is ambiguous."""


# --- opening ---------------------------------------------------------------------------


def readonly_uri(path: str | Path, *, writable_dir: bool | None = None, writable_file: bool | None = None) -> str:
    """The SQLite URI that reads ``path`` without writing anything (issue 18).

    * directory not writable: ``mode=ro&immutable=1`` — a WAL-mode reader would otherwise
      have to create the ``-shm`` (and ``-wal``) files beside the database.  An immutable
      open does not read a ``-wal`` file left beside it: only what was checkpointed into
      the file is seen (an archived copy has no other).
    * file not writable: ``mode=ro``.
    * both writable: ``mode=rw``, and the connection is made ``PRAGMA query_only``: a
      read-only connection could not remove the ``-wal``/``-shm`` files it makes, this one
      removes them on close like any last SQLite connection.

    ``writable_dir`` / ``writable_file`` None: ask the file system."""
    p = Path(path).resolve()
    if writable_dir is None:
        writable_dir = os.access(p.parent, os.W_OK)
    if writable_file is None:
        writable_file = os.access(p, os.W_OK)
    uri = f"file:{quote(str(p))}"
    if not writable_dir:
        return uri + "?mode=ro&immutable=1"
    return uri + ("?mode=rw" if writable_file else "?mode=ro")


def open_db(
    db_path: str | Path, *, season_start_month: int = 1, create: bool = True, readonly: bool = False
) -> Database:
    """Open (and create if needed) a club database: WAL, busy timeout, foreign keys on.

    ``create=False`` refuses a file that does not exist or has no ``games`` table
    (:class:`DatabaseMissing`, a ValueError); a file that is not SQLite raises
    ``sqlite3.DatabaseError`` at the first query.  A file of an older schema version
    is migrated in place, in one transaction (``club.schema.upgrade_schema``); a
    read-only one is left as it is (reading it works; storing a replay would not).
    """
    path = Path(db_path)
    if not create and not path.exists():
        raise DatabaseMissing("no_db_file", path=path)
    if readonly:
        return _open_readonly(path)
    return _as_database(_connect_writer(path, season_start_month, create))


def _as_database(conn: sqlite3.Connection) -> Database:
    # sqlite_utils is loaded only here: the import does without it (issue 17: its load
    # was a quarter of the serial start of ``db import -j``)
    from sqlite_utils import Database

    return Database(conn, execute_plugins=False)


def _connect_writer(path: Path, season_start_month: int, create: bool) -> sqlite3.Connection:
    """:func:`open_db`'s connection for writing, schema made or migrated."""
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA foreign_keys = ON")
    if create:
        if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            _retry_locked(lambda: conn.execute("PRAGMA journal_mode = WAL"))
        conn.execute("PRAGMA synchronous = NORMAL")  # safe with WAL: durable up to the last checkpoint
        try:
            create_schema(conn, season_start_month=season_start_month)
        except SchemaError as e:  # a file of a newer trictrac: not one this toolkit writes
            conn.close()
            raise SchemaTooNew("schema_too_new", path=path, why=e) from None
    elif not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone():
        conn.close()
        raise DatabaseMissing("not_club_db", path=path)
    else:
        try:
            upgrade_schema(conn)
        except SchemaError as e:
            conn.close()
            raise SchemaTooNew("schema_too_new", path=path, why=e) from None
        except sqlite3.OperationalError as e:
            if "readonly" not in str(e).replace("-", "").replace(" ", ""):
                conn.close()
                raise
    return conn


def _connect_readonly(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(readonly_uri(path), uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA query_only = ON")
    return conn


def _open_readonly(path: Path) -> Database:
    """For the commands that only read (``db games``, ``db stats``, ``standings`` …): no
    migration, no journal change, nothing written beside the file (:func:`readonly_uri`)."""
    if not path.is_file():
        raise DatabaseMissing("not_a_file", path=path)
    conn = _connect_readonly(path)
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone():
        conn.close()
        raise DatabaseMissing("not_club_db", path=path)
    try:
        version = stored_version(conn)
        if version is not None and parse_version(version) < int(SCHEMA_VERSION):
            if os.access(path, os.W_OK) and os.access(path.parent, os.W_OK):
                # An older file we may write: migrate it once, then read it as usual.
                conn.close()
                open_db(path, create=False).close()
                conn = _connect_readonly(path)
            else:
                conn = _migrated_in_memory(conn)
    except SchemaError as e:
        conn.close()
        raise SchemaTooNew("schema_too_new", path=path, why=e) from None
    return _as_database(conn)


def _migrated_in_memory(conn: sqlite3.Connection) -> sqlite3.Connection:
    """An older file that may not be written (an archived copy), read through a migrated copy
    in memory: the queries of this version read it, the file is left as it is."""
    mem = sqlite3.connect(":memory:")
    conn.backup(mem)
    conn.close()
    upgrade_schema(mem)
    mem.execute("PRAGMA query_only = ON")
    return mem


def _retry_locked(step: Callable[[], object], seconds: float = BUSY_TIMEOUT_MS / 1000) -> object:
    """Run ``step``, retrying while another process holds the file: switching the journal
    to WAL needs an exclusive lock, and SQLite answers "database is locked" at once instead
    of waiting in the busy handler when two processes create the same file together."""
    deadline = time.monotonic() + seconds
    delay = 0.01
    while True:
        try:
            return step()
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() > deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.5)


class DatabaseMissing(ClubError):
    """The file is not a club database."""


class SchemaTooNew(DatabaseMissing, sqlite3.DatabaseError):
    """The file's schema version is newer than this toolkit's (or unknown): neither
    read nor written.  Also an ``sqlite3.DatabaseError`` so that callers that report
    unusable database files (``trictrac db import``) report this one."""


def _to_history(conn: sqlite3.Connection, gid: str, action: str, replaced_by: str | None) -> None:
    """Copy a stored game into ``game_history`` and delete it (its rows cascade); inside the
    caller's transaction."""
    conn.execute(
        "INSERT INTO game_history (game_id, game_key, label, action, replaced_by, at, imported_at, n_findings, "
        "headers, canonical, source, source_file) SELECT sha256, game_key, label, ?, ?, ?, imported_at, n_findings, "
        "headers, canonical, source, source_file FROM games WHERE sha256 = ?",
        (action, replaced_by, _now(), gid),
    )
    conn.execute("DELETE FROM games WHERE sha256 = ?", (gid,))


def delete_game(db_path: str | Path, game: str) -> dict[str, Any]:
    """Delete one stored game (id, unique id prefix or label), keeping it in ``game_history``;
    one transaction.  Returns the deleted game's id and label.  In the CLI: ``db delete``."""
    database = open_db(db_path, create=False)
    conn = database.conn
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            gid = resolve_game(conn, game)
            label = conn.execute("SELECT label FROM games WHERE sha256 = ?", (gid,)).fetchone()[0]
            _to_history(conn, gid, "deleted", None)
            conn.execute("DELETE FROM source_files WHERE game_ids LIKE ?", (f'%"{gid}"%',))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    finally:
        database.close()
    return {"id": gid, "label": label}


def resolve_game(conn: sqlite3.Connection, game: str) -> str:
    """The content id (``games.sha256``) of a stored game from that id, a unique prefix of it
    (4+ hex digits), its label, or its ``Game-Id``; :class:`GameNotFound` otherwise."""
    text = game.strip()
    low = text.lower()
    if re.fullmatch(r"[0-9a-f]{4,64}", low):
        rows = conn.execute(
            "SELECT sha256 FROM games WHERE sha256 >= ? AND sha256 < ? LIMIT 2", (low, low + "g")
        ).fetchall()
        if len(rows) == 1:
            return rows[0][0]
        if len(rows) > 1:
            raise GameNotFound("id_ambiguous", game=game)
    rows = conn.execute(
        "SELECT sha256 FROM games WHERE label = ? OR game_key = ? OR game_key = ? LIMIT 2",
        (text, f"tag:{text}", text),
    ).fetchall()
    if len(rows) == 1:
        return rows[0][0]
    if len(rows) > 1:
        raise GameNotFound("names_several", game=game)
    raise GameNotFound("no_game", game=game)


def game_history(db: Database, game: str) -> list[dict[str, Any]]:
    """Every version of a game, oldest first: those in ``game_history`` (replaced or
    deleted) and the stored one (``action`` = ``current``).  ``game``: the id (or prefix)
    of any version, a label or a Game-Id.  In the CLI: ``db history``."""
    conn = db.conn
    try:
        key = conn.execute("SELECT game_key FROM games WHERE sha256 = ?", (resolve_game(conn, game),)).fetchone()[0]
    except GameNotFound:
        low = game.strip().lower()
        row = conn.execute(
            "SELECT game_key FROM game_history WHERE game_id >= ? AND game_id < ? OR label = ? "
            "ORDER BY id DESC LIMIT 1",
            (low, low + "g", game.strip()),
        ).fetchone()
        if row is None:
            raise
        key = row[0]
    cols = "game_id, label, action, replaced_by, at, imported_at, n_findings, source_file"
    cur = conn.execute(f"SELECT {cols} FROM game_history WHERE game_key = ? ORDER BY id", (key,))
    names = [d[0] for d in cur.description]
    out = [dict(zip(names, r)) for r in cur.fetchall()]
    cur = conn.execute(
        "SELECT sha256, label, 'current', NULL, NULL, imported_at, n_findings, source_file FROM games "
        "WHERE game_key = ?",
        (key,),
    )
    out += [dict(zip(names, r)) for r in cur.fetchall()]
    return out


#: the kinds of hit ``queries.search`` finds (``db search --only``); here, not in club.queries,
#: so that ``cli.db`` names them without loading the queries (``db import`` does without: issue 30)
SEARCH_KINDS = ("player", "comment", "finding", "ecole")


def __getattr__(name: str) -> Any:
    # ``trictrac.club.db.import_records`` / ``reverify`` (documented there since issue 7) live in
    # club.importer, which imports this module: loaded on first use, no import cycle
    if name in ("import_records", "reverify"):
        from . import importer

        return getattr(importer, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
