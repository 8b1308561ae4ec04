"""Writing the rows of a game (:mod:`trictrac.club.rows`) into the club database, inside
the caller's transaction: prepared statements, one ``executemany`` a table."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from functools import cache, partial
from itertools import chain
from typing import Any

from ..notation.writer import COUP_WIDTH, NO_VALUE, CoupValue
from .db import _to_history
from .report import ImportFailure
from .rows import (
    _ID_TABLES,
    G_KEY,
    G_LABEL,
    G_SHA256,
    GAME_COLS,
    MARK_HEAD,
    MARK_SHAPES,
    SEATS,
    _GameRows,
    _now,
    ecole_fts_rows,
    finding_fts_rows,
)
from .schema import free_label

# --- storing one game -----------------------------------------------------------------------

# Each row list of club.rows holds the game's content id at index 1: the store puts the
# game's INTEGER key there (games.id, known once its games row is written).
_MARQUE_COLS = (
    "id, game_id, number, seq, seat_x, seat_y, winner, winner_holes, loser_holes, bredouille, refait, value, line, col"
)
_RELEVE_COLS = "id, game_id, marque_id, number, seq, line, col"
_COUP_COLS = "game_id, releve_id, seq, number, side, die1, die2, moves, line, col"
_COMMENT_COLS = "id, game_id, coup_seq, text, line, col"
_FINDING_COLS = (
    "id, game_id, coup_seq, seq, releve, marque, coup, line, col, who, player_id, kind, entitled, "
    "marked, consequence, rule, detail, alternatives, message"
)


def _insert_sql(table: str, cols: str) -> str:
    n = cols.count(",") + 1
    return f"INSERT INTO {table} ({cols}) VALUES ({', '.join('?' * n)})"


_SQL = {
    "games": _insert_sql("games", ", ".join(GAME_COLS)),
    "games_with_id": _insert_sql("games", ", ".join(("id", *GAME_COLS))),
    "game_players": "INSERT INTO game_players (game_id, seat, player_id) VALUES (?, ?, ?)",
    "marques": _insert_sql("marques", _MARQUE_COLS),
    "releves": _insert_sql("releves", _RELEVE_COLS),
    "coups": _insert_sql("coups", _COUP_COLS),
    "comments": _insert_sql("comments", _COMMENT_COLS),
    "findings": _insert_sql("findings", _FINDING_COLS),
    "results": _insert_sql(
        "results",
        "game_id, seat, player_id, opponent_seat, holes, points, bredouille, pavillon, "
        "marques_won, marques_lost, marque_value, outcome",
    ),
    "findings_fts": "INSERT INTO findings_fts (rowid, terms, message, detail) VALUES (?, ?, ?, ?)",
    "ecoles_fts": "INSERT INTO ecoles_fts (rowid, terms, reason) VALUES (?, ?, ?)",
}


#: the writer gives each coup's values (releve_id, seq, number, side, die1, die2, moves, line,
#: col) one coup after the other, its relevé's id local to the game (NULL + offset stays NULL)
_COUPS_HEAD = "INSERT INTO coups (game_id, releve_id, seq, number, side, die1, die2, moves, line, col)"


@cache
def _coups_sql(rows: int) -> str:
    """The coups' insert of ``rows`` rows: the game's key ``?1`` and the relevés' offset ``?2``
    bound once a statement, then each coup's values as built (numbered parameters: the text
    is the same for every game, prepared once)."""
    one = []
    for r in range(rows):
        b = 3 + r * COUP_WIDTH
        one.append(f"(?1, ?{b} + ?2, " + ", ".join(f"?{b + k}" for k in range(1, COUP_WIDTH)) + ")")
    return f"{_COUPS_HEAD} VALUES {', '.join(one)}"


def _insert_coups(conn: sqlite3.Connection, coups: list[CoupValue], gno: int, br: int) -> None:
    """A game's coups (their values one after the other, :data:`COUP_WIDTH` a coup),
    :data:`_ROWS_A_STATEMENT` a statement: bound one by one (an ``executemany``), each coup
    costs SQLite a statement step and the binding a call; several a statement, about a
    quarter less of the coups' insert (issue 30).  Each statement binds a slice of the
    values as they are: no tuple a coup to build and flatten again."""
    lead: list[Any] = [gno, br]
    for i, k in _statements(len(coups) // COUP_WIDTH):
        conn.execute(_coups_sql(k), lead + coups[i * COUP_WIDTH : (i + k) * COUP_WIDTH])


#: rows a statement at most (a power of two)
_ROWS_A_STATEMENT = 32  # coups: 290 parameters, marks: up to 384: under the 999 of older SQLite builds

#: a seat's player, from the statement's parameters ?3 .. ?6 (the players of seats A .. D)
_PLAYER_OF = "CASE ?{} " + " ".join(f"WHEN '{s}' THEN ?{3 + i}" for i, s in enumerate(SEATS)) + " END"


@cache
def _marks_sql(long: bool, rows: int) -> str:
    """The marks' insert of ``rows`` rows of one shape (:data:`~trictrac.club.rows.MARK_SHAPES`),
    bound as ``club.rows`` builds them: the game's key ``?1``, the marks' id offset ``?2`` and
    the players of seats A-D ``?3``-``?6`` bound once a statement, a seat's player taken from
    them; the columns the short shape leaves empty not named (NULL by no value bound: a ``None``
    costs the binding ten times an integer; issue 30)."""
    fields = MARK_SHAPES[long]
    seats = [(fields.index(f), ref) for f, ref in (("who", "player_id"), ("against", "against_id")) if f in fields]
    cols = ["id", "game_id", "coup_seq", "seq", "phase", "kind", *fields, "token", "line", "col"]
    cols += [ref for _, ref in seats]
    width = MARK_HEAD + len(fields) + 3
    # the short shape's empty columns bound as NO_VALUE (the writer's rows), stored NULL
    empty = set() if long else {MARK_HEAD + fields.index(f) for f in ("points", "holes", "bredouille", "leave")}
    values = []
    for r in range(rows):
        b = 7 + r * width  # the row's first parameter
        one = [f"?{b} + ?2", "?1"]
        one += [f"NULLIF(?{b + i}, {NO_VALUE})" if i in empty else f"?{b + i}" for i in range(1, width)]
        one += [_PLAYER_OF.format(b + MARK_HEAD + i) for i, _ in seats]
        values.append("(" + ", ".join(one) + ")")
    return f"INSERT INTO marks ({', '.join(cols)}) VALUES {', '.join(values)}"


_SHORT = MARK_HEAD + len(MARK_SHAPES[0]) + 3  # the length of a row of the short shape


def _insert_marks(
    conn: sqlite3.Connection, marks: list[tuple[Any, ...]], gno: int, bk: int, players: tuple[Any, ...]
) -> None:
    """A game's marks in id order (rows inserted at the end of the table: no page split),
    each run of rows of one shape several a statement, bound as the rows were built."""
    lead = (gno, bk, *players)
    i, n = 0, len(marks)
    while i < n:
        width = len(marks[i])
        j = i + 1
        while j < n and len(marks[j]) == width:
            j += 1
        _by_statement(conn, partial(_marks_sql, width != _SHORT), marks[i:j] if i or j < n else marks, lead)
        i = j


def _by_statement(
    conn: sqlite3.Connection, sql_of: Callable[[int], str], rows: list[tuple[Any, ...]], lead: tuple[Any, ...] = ()
) -> None:
    """``rows`` in statements of a power of two rows (:func:`_statements`), ``sql_of(k)`` the
    statement of ``k`` rows, its parameters ``lead`` then the rows' values in order."""
    for i, k in _statements(len(rows)):
        conn.execute(sql_of(k), list(chain(lead, *rows[i : i + k])))  # flattened in C


def _statements(n: int) -> Iterator[tuple[int, int]]:
    """The first row and the number of rows of each statement that inserts ``n`` rows: powers
    of two, :data:`_ROWS_A_STATEMENT` at most (32, 16, ... 1: the statements of each size are
    prepared once)."""
    i = 0
    while i < n:
        k = 1 << (min(_ROWS_A_STATEMENT, n - i).bit_length() - 1)
        yield i, k
        i += k


def _off(v: int | None, b: int) -> int | None:
    return None if v is None else v + b


def _insert_rows(conn: sqlite3.Connection, rows: _GameRows, pid: dict[str, int], gno: int) -> None:
    """Every row of one game but the ``games`` and ``game_players`` ones, local ids made
    global and ``gno`` (the game's INTEGER key) put in (inside the caller's transaction);
    then the full-text rows of its findings and école claims, in bulk."""
    base = dict(zip(_ID_TABLES, conn.execute(_MAX_IDS).fetchone()))
    bm, br, bk = base["marques"], base["releves"], base["marks"]
    get = pid.get
    ex = conn.executemany
    if rows.marques:
        ex(_SQL["marques"], [(r[0] + bm, gno, *r[2:]) for r in rows.marques])
    ex(_SQL["releves"], [(r[0] + br, gno, _off(r[2], bm), *r[3:]) for r in rows.releves])
    # ~290 coups a game, bound as the rows built them, several a statement; the game's key
    # and the relevés' offset bound once a statement, not in each row
    _insert_coups(conn, rows.coups, gno, br)
    marks = rows.marks
    _insert_marks(conn, marks, gno, bk, tuple(get(s) for s in SEATS))
    claims = [(r[0] + bk, r[13], r[11]) for r in marks if r[4] == "ecole"]  # MARK_SHAPES (long): reason 11, token 13
    if claims:
        ex(_SQL["ecoles_fts"], ecole_fts_rows(claims))
    if rows.comments:
        bo = base["comments"]
        ex(_SQL["comments"], [(r[0] + bo, gno, _off(r[2], -1), *r[3:]) for r in rows.comments])
    if rows.findings:
        bf = base["findings"]
        ex(
            _SQL["findings"],
            [(r[0] + bf, gno, _off(r[2], -1), *r[3:10], get(r[10]), *r[11:]) for r in rows.findings],
        )
        # _FINDING_COLS: kind 11, detail 16, message 18
        ex(_SQL["findings_fts"], finding_fts_rows([(r[0] + bf, r[11], r[18], r[16]) for r in rows.findings]))
    ex(
        _SQL["results"],
        [
            (gno, r["seat"], get(r["seat"]), r["opponent_seat"], r["holes"], r["points"], r["bredouille"])
            + (r["pavillon"], r["marques_won"], r["marques_lost"], r["marque_value"], r["outcome"])
            for r in rows.results
        ],
    )


_MAX_IDS = "SELECT " + ", ".join(f"(SELECT COALESCE(MAX(id), 0) FROM {t})" for t in _ID_TABLES)


class _Cascades(Exception):
    """A game of a batch written without foreign-key enforcement replaces a stored one."""


def _references_hold(rows: _GameRows) -> bool:
    """Every reference SQLite's foreign keys check between a game's own rows points at one
    of them: each mark, comment and finding at one of the game's coups (numbered 0..n-1).
    (The game's key and the players' are the store's own, made in its transaction.)"""
    n = len(rows.coups) // COUP_WIDTH
    if rows.coups[1::COUP_WIDTH] != list(range(n)):  # a coup's values: its seq second
        return False
    if any(not 0 <= r[1] < n for r in rows.marks):  # MARK_HEAD: coup seq 1
        return False
    # comments' and findings' coup (index 2) as a coup's local id (seq + 1) or None
    return all(r[2] is None or 1 <= r[2] <= n for r in chain(rows.comments, rows.findings))


class _Store:
    """Writes games into one connection; caches player ids that are committed."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.players: dict[str, int] = {}
        self.enforced = bool(conn.execute("PRAGMA foreign_keys").fetchone()[0])

    def _enforce(self, on: bool) -> None:
        """SQLite's foreign-key enforcement on or off for the next transaction (set outside
        one: SQLite ignores the pragma inside a transaction), switched only when it changes:
        a switch makes SQLite prepare every statement again (measured: a switch a batch cost
        more than the checks it saved)."""
        if on != self.enforced:
            self.conn.execute(f"PRAGMA foreign_keys = {int(on)}")
            self.enforced = on

    def exists(self, gid: str) -> bool:
        return self.conn.execute("SELECT 1 FROM games WHERE sha256 = ?", (gid,)).fetchone() is not None

    def has_games(self) -> bool:
        return self.conn.execute("SELECT 1 FROM games LIMIT 1").fetchone() is not None

    def _player(self, name: str, pending: dict[str, int]) -> int:
        pid = self.players.get(name) or pending.get(name)
        if pid is None:
            row = self.conn.execute("SELECT id FROM players WHERE name = ?", (name,)).fetchone()
            new = row[0] if row else self.conn.execute("INSERT INTO players(name) VALUES (?)", (name,)).lastrowid
            assert new is not None  # an INSERT gives its row id
            pid = pending[name] = int(new)
        return pid

    def store(self, rows: _GameRows, *, replace: bool = False) -> str:
        """Write one game in its own transaction: ``added``, ``replaced`` (a game with the
        same ``game_key`` and another text was there: it goes to ``game_history``) or
        ``unchanged`` (this very text was there).  ``replace``: rewrite the stored game of
        this id in place (re-verification), in the same transaction."""
        conn = self.conn
        self._enforce(True)
        conn.execute("BEGIN IMMEDIATE")
        pending: dict[str, int] = {}
        try:
            status = self._write(rows, replace, pending)
            conn.execute("ROLLBACK" if status == "unchanged" else "COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        self.players.update(pending)
        return status

    def store_batch(self, games: Sequence[_GameRows]) -> list[str]:
        """Write several games in one transaction (one commit instead of one a game: the
        WAL pages they share are written once), each as :meth:`store` would: their
        statuses in order.  Any error rolls the whole batch back and is raised: the
        caller stores the games one by one then, to know which game failed.

        New games are written with SQLite's foreign-key enforcement off (as a migration
        does): every key of their rows is made here, in this transaction (the game's from
        its ``games`` row, the players' from ``players``, the others local to the game and
        checked by :func:`_references_hold` before anything is written), and SQLite's check
        of each row against its parents cost more than any other part of the store but the
        rows themselves (issue 30).  A game that replaces a stored one needs the
        enforcement (the old game's rows go by cascade): the batch is then written again
        with it on.  :meth:`store` (one game, a replacement, a re-verification) always
        has it on."""
        try:
            return self._batch(games, enforced=False)
        except _Cascades:
            return self._batch(games, enforced=True)

    def _batch(self, games: Sequence[_GameRows], *, enforced: bool) -> list[str]:
        conn = self.conn
        self._enforce(enforced)
        conn.execute("BEGIN IMMEDIATE")
        pending: dict[str, int] = {}
        try:
            statuses = [self._write(rows, False, pending, cascades=enforced) for rows in games]
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        self.players.update(pending)
        return statuses

    def _write(self, rows: _GameRows, replace: bool, pending: dict[str, int], *, cascades: bool = True) -> str:
        """One game's rows, inside the caller's transaction (nothing written when the
        status is ``unchanged``); new players' ids go to ``pending`` until the commit.
        ``cascades``: foreign keys are enforced (else :class:`_Cascades` for a game that
        replaces another, and the game's own references are checked here)."""
        conn = self.conn
        g = rows.game
        sha = g[G_SHA256]
        status = "added"
        keep: int | None = None  # re-verification keeps the game's integer key
        if replace:
            row = conn.execute("SELECT id FROM games WHERE sha256 = ?", (sha,)).fetchone()
            keep = row[0] if row else None
            conn.execute("DELETE FROM games WHERE sha256 = ?", (sha,))
        elif self.exists(sha):
            return "unchanged"
        else:
            old = conn.execute("SELECT sha256 FROM games WHERE game_key = ?", (g[G_KEY],)).fetchone()
            if old is not None:
                if not cascades:
                    raise _Cascades
                _to_history(conn, old[0], "replaced", sha)
                status = "replaced"
        if not cascades and not _references_hold(rows):
            raise sqlite3.IntegrityError("FOREIGN KEY constraint failed")  # as SQLite says it
        pid = {seat: self._player(name, pending) for seat, name in rows.names.items()}
        values = g.copy()
        values[G_LABEL] = free_label(conn, g[G_LABEL], sha)  # unique: a readable name for one game
        if keep is None:
            gno = conn.execute(_SQL["games"], values).lastrowid
        else:
            gno = conn.execute(_SQL["games_with_id"], (keep, *values)).lastrowid
        assert gno is not None  # an INSERT gives its row id
        conn.executemany(_SQL["game_players"], [(gno, s, p) for s, p in pid.items()])
        _insert_rows(conn, rows, pid, gno)
        return status

    def known_file(self, digest: str) -> list[str] | None:
        return _known_file(self.conn, digest)

    def remember_file(self, digest: str, path: str, ids: list[str]) -> None:
        with self.conn:
            self.conn.execute(
                "INSERT OR REPLACE INTO source_files (sha256, path, game_ids, imported_at) VALUES (?, ?, ?, ?)",
                (digest, path, json.dumps(ids), _now()),
            )

    def fail(self, f: ImportFailure, lang: str = "en") -> None:
        """Log a failure (once per file, line, reason and message) in its own transaction,
        its message in ``lang`` (the import's)."""
        fid = hashlib.sha256("\0".join(map(str, (f.source_file, f.line, f.reason, f.message))).encode()).hexdigest()[
            :32
        ]
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            self.conn.execute(
                "INSERT OR IGNORE INTO import_failures (id, source_file, game_index, line, game_id, reason, message, "
                "diagnostics, attempted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    fid,
                    f.source_file,
                    f.game_index,
                    f.line,
                    f.game_id,
                    f.reason,
                    f.say(lang),
                    json.dumps(list(f.diagnostics), ensure_ascii=False),
                    _now(),
                ),
            )
            self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise


def _known_file(conn: sqlite3.Connection, digest: str) -> list[str] | None:
    """The games of a file imported before with these bytes, if every one is still stored."""
    row = conn.execute("SELECT game_ids FROM source_files WHERE sha256 = ?", (digest,)).fetchone()
    if row is None:
        return None
    ids = json.loads(row[0])
    n = conn.execute(
        "SELECT COUNT(*) FROM games WHERE sha256 IN (SELECT value FROM json_each(?))", (row[0],)
    ).fetchone()[0]
    return ids if n == len(set(ids)) else None
