"""Writing the rows of a game (:mod:`trictrac.club.rows`) into the club database, inside
the caller's transaction: prepared statements, one ``executemany`` a table."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Sequence

from .db import _to_history
from .report import ImportFailure
from .rows import _ID_TABLES, _GameRows, _now
from .schema import free_label

# --- storing one game -----------------------------------------------------------------------

_MARQUE_COLS = (
    "id, game_id, number, seq, seat_x, seat_y, winner, winner_holes, loser_holes, bredouille, refait, value, line, col"
)
_RELEVE_COLS = "id, game_id, marque_id, number, seq, line, col"
_COUP_COLS = "id, game_id, releve_id, marque_id, seq, number, side, player_id, die1, die2, moves, line, col"
_MARK_COLS = (
    "id, game_id, coup_id, seq, phase, kind, who, player_id, against, against_id, points, holes, "
    "bredouille, leave, reason, text, token, line, col"
)
_COMMENT_COLS = "id, game_id, coup_id, text, line, col"
_FINDING_COLS = (
    "id, game_id, coup_id, seq, releve, marque, coup, line, col, who, player_id, kind, entitled, "
    "marked, consequence, rule, detail, alternatives, message"
)


def _insert_sql(table: str, cols: str) -> str:
    n = cols.count(",") + 1
    return f"INSERT INTO {table} ({cols}) VALUES ({', '.join('?' * n)})"


_SQL = {
    "marques": _insert_sql("marques", _MARQUE_COLS),
    "releves": _insert_sql("releves", _RELEVE_COLS),
    "coups": _insert_sql("coups", _COUP_COLS),
    "marks": _insert_sql("marks", _MARK_COLS),
    "comments": _insert_sql("comments", _COMMENT_COLS),
    "findings": _insert_sql("findings", _FINDING_COLS),
    "results": _insert_sql(
        "results",
        "game_id, seat, player_id, opponent_seat, holes, points, bredouille, pavillon, "
        "marques_won, marques_lost, marque_value, outcome",
    ),
}


def _off(v: int | None, b: int) -> int | None:
    return None if v is None else v + b


def _insert_rows(conn: sqlite3.Connection, rows: _GameRows, pid: dict[str, int]) -> None:
    """Every row of one game but the ``games`` and ``game_players`` ones, local ids made
    global (inside the caller's transaction).  Measured: the copies cost ~5 % of the
    storing, SQLite's inserts (indexes, foreign keys, FTS triggers) the rest (issue 17)."""
    base = dict(zip(_ID_TABLES, conn.execute(_MAX_IDS).fetchone()))
    bm, br, bc, bk = base["marques"], base["releves"], base["coups"], base["marks"]
    get = pid.get
    conn.executemany(_SQL["marques"], [[r[0] + bm, *r[1:]] for r in rows.marques])
    conn.executemany(_SQL["releves"], [[r[0] + br, r[1], _off(r[2], bm), *r[3:]] for r in rows.releves])
    # ~290 coups a game: unpacked, their ids made global inline (local ids start at 1)
    conn.executemany(
        _SQL["coups"],
        [
            (cid + bc, g, rel and rel + br, mq and mq + bm, seq, num, side, get(seat), d1, d2, moves, line, col)
            for cid, g, rel, mq, seq, num, side, seat, d1, d2, moves, line, col in rows.coups
        ],
    )
    conn.executemany(
        _SQL["marks"],
        [[r[0] + bk, r[1], r[2] + bc, *r[3:7], get(r[7]), r[8], get(r[9]), *r[10:]] for r in rows.marks],
    )
    conn.executemany(_SQL["comments"], [[r[0] + base["comments"], r[1], _off(r[2], bc), *r[3:]] for r in rows.comments])
    bf = base["findings"]
    conn.executemany(
        _SQL["findings"],
        [[r[0] + bf, r[1], _off(r[2], bc), *r[3:10], get(r[10]), *r[11:]] for r in rows.findings],
    )
    gid = rows.game["id"]
    conn.executemany(
        _SQL["results"],
        [
            (gid, r["seat"], get(r["seat"]), r["opponent_seat"], r["holes"], r["points"], r["bredouille"])
            + (r["pavillon"], r["marques_won"], r["marques_lost"], r["marque_value"], r["outcome"])
            for r in rows.results
        ],
    )


_MAX_IDS = "SELECT " + ", ".join(f"(SELECT COALESCE(MAX(id), 0) FROM {t})" for t in _ID_TABLES)


class _Store:
    """Writes games into one connection; caches player ids that are committed."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.players: dict[str, int] = {}

    def exists(self, gid: str) -> bool:
        return self.conn.execute("SELECT 1 FROM games WHERE id = ?", (gid,)).fetchone() is not None

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
        caller stores the games one by one then, to know which game failed."""
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        pending: dict[str, int] = {}
        try:
            statuses = [self._write(rows, False, pending) for rows in games]
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        self.players.update(pending)
        return statuses

    def _write(self, rows: _GameRows, replace: bool, pending: dict[str, int]) -> str:
        """One game's rows, inside the caller's transaction (nothing written when the
        status is ``unchanged``); new players' ids go to ``pending`` until the commit."""
        conn = self.conn
        g = rows.game
        status = "added"
        if replace:
            conn.execute("DELETE FROM games WHERE id = ?", (g["id"],))
        elif self.exists(g["id"]):
            return "unchanged"
        else:
            old = conn.execute("SELECT id FROM games WHERE game_key = ?", (g["game_key"],)).fetchone()
            if old is not None:
                _to_history(conn, old[0], "replaced", g["id"])
                status = "replaced"
        pid = {seat: self._player(name, pending) for seat, name in rows.names.items()}
        values = {**g, "label": free_label(conn, g["label"], g["id"])}  # the primary key: unique
        conn.execute(
            f"INSERT INTO games ({', '.join(values)}) VALUES ({', '.join('?' * len(values))})", tuple(values.values())
        )
        conn.executemany(
            "INSERT INTO game_players(game_id, seat, player_id) VALUES (?, ?, ?)",
            [(g["id"], s, p) for s, p in pid.items()],
        )
        _insert_rows(conn, rows, pid)
        return status

    def known_file(self, digest: str) -> list[str] | None:
        return _known_file(self.conn, digest)

    def remember_file(self, digest: str, path: str, ids: list[str]) -> None:
        with self.conn:
            self.conn.execute(
                "INSERT OR REPLACE INTO source_files (sha256, path, game_ids, imported_at) VALUES (?, ?, ?, ?)",
                (digest, path, json.dumps(ids), _now()),
            )

    def fail(self, f: ImportFailure) -> None:
        """Log a failure (once per file, line, reason and message) in its own transaction."""
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
                    f.message,
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
    n = conn.execute("SELECT COUNT(*) FROM games WHERE id IN (SELECT value FROM json_each(?))", (row[0],)).fetchone()[0]
    return ids if n == len(set(ids)) else None
