"""The rows of a game are inserted several a statement (issue 30, speed): every row goes in, in
order, and the table's constraints still refuse a bad one (nothing of its statement written).
A game's marks go in kind by kind, each kind's statement naming only the columns the kind
fills (a ``None`` bound costs ten times an integer): every column reads back as the rows
said, the others NULL, the seats' players written beside them."""

from __future__ import annotations

import sqlite3

import pytest

from trictrac.club.rows import MARK_FIELDS, MARK_HEAD
from trictrac.club.schema import create_schema
from trictrac.club.store import _by_statement, _insert_marks


def _conn() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("CREATE TABLE t (a INTEGER, b TEXT CHECK (b IN ('x', 'y', 'z')), c)")
    return conn


def _sql(k: int) -> str:
    return "INSERT INTO t (a, b, c) VALUES " + ", ".join(["(?, ?, ?)"] * k)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 31, 32, 33, 63, 64, 65, 100])
def test_every_row_in_order(n: int) -> None:
    conn = _conn()
    rows = [(i, "xyz"[i % 3], None if i % 5 else f"r{i}") for i in range(n)]
    _by_statement(conn, _sql, rows)
    assert conn.execute("SELECT a, b, c FROM t ORDER BY rowid").fetchall() == rows


def test_a_bad_row_is_refused() -> None:
    conn = _conn()
    rows = [(i, "x", None) for i in range(40)]
    rows[35] = (35, "w", None)  # not in the CHECK's list
    conn.execute("BEGIN")
    with pytest.raises(sqlite3.IntegrityError):
        _by_statement(conn, _sql, rows)
    assert conn.execute("SELECT COUNT(*) FROM t").fetchone()[0] == 32  # the first statement's rows
    conn.execute("ROLLBACK")  # the store rolls the game (or the batch) back
    assert conn.execute("SELECT COUNT(*) FROM t").fetchone()[0] == 0


_COLS = ("who", "player_id", "against", "against_id", "points", "holes", "bredouille", "leave", "reason", "text")
#: a value of each field (a seat for who and against)
_VALUE = {"who": "B", "against": "A", "points": 4, "holes": 2, "bredouille": 1, "leave": 0, "reason": "r", "text": "t"}


def _game(conn: sqlite3.Connection) -> None:
    conn.execute("INSERT INTO games (id, label, sha256, n_coups, n_findings, profile, mode, n_releves, n_marques, "
                 "verified, notes, headers, diagnostics, canonical, engine_version, imported_at) "
                 "VALUES (7, 'g', 's', 1, 0, 'p', 'full', 0, 0, 0, '[]', '{}', '[]', '', 'v', 't')")  # fmt: skip
    conn.execute("INSERT INTO players (id, name) VALUES (11, 'Ann'), (12, 'Bob')")
    conn.execute("INSERT INTO coups (game_id, seq, number, side, die1, die2, moves) VALUES (7, 0, 1, 'A', 6, 5, '-')")


@pytest.mark.parametrize("n", [1, 3, 40])
def test_marks_kind_by_kind(n: int) -> None:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    create_schema(conn)
    _game(conn)
    marks: dict[str, list[tuple[object, ...]]] = {}
    want = []
    local = 0
    for kind, fields in MARK_FIELDS.items():
        for _ in range(n):
            local += 1
            values = [_VALUE[f] for f in fields]
            marks.setdefault(kind, []).append((local, 0, local, "after", *values, f"tok{local}", local + 1, 3))
            got = dict.fromkeys(_COLS)
            got.update(zip(fields, values))
            for seat, pid in (("who", "player_id"), ("against", "against_id")):
                if got[seat] is not None:
                    got[pid] = {"A": 11, "B": 12}[got[seat]]
            want.append((local + 100, 7, 0, local, "after", kind, *got.values(), f"tok{local}", local + 1, 3))
    assert all(len(r) == MARK_HEAD + len(MARK_FIELDS[k]) + 3 for k, rows in marks.items() for r in rows)
    conn.execute("BEGIN")
    _insert_marks(conn, marks, 7, 100, (11, 12, None, None))
    conn.execute("COMMIT")
    cols = "id, game_id, coup_seq, seq, phase, kind, " + ", ".join(_COLS) + ", token, line, col"
    assert conn.execute(f"SELECT {cols} FROM marks ORDER BY id").fetchall() == want


def test_marks_constraints_checked() -> None:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")  # as the store's connection (club.db)
    create_schema(conn)
    _game(conn)
    good = (1, 0, 0, "after", "A", 4, None, None, "A+4", None, None)
    _insert_marks(conn, {"mark": [good]}, 7, 0, (11, 12, None, None))
    with pytest.raises(sqlite3.IntegrityError):  # bredouille is 0 or 1
        _insert_marks(
            conn, {"mark": [(2, 0, 1, "after", "A", 4, None, 5, "A+4", None, None)]}, 7, 0, (11, 12, None, None)
        )
    with pytest.raises(sqlite3.IntegrityError):  # a coup the game does not have
        _insert_marks(
            conn, {"mark": [(3, 9, 0, "after", "A", 4, None, None, "A+4", None, None)]}, 7, 0, (11, 12, None, None)
        )
    assert conn.execute("SELECT id, kind, player_id FROM marks").fetchall() == [(1, "mark", 11)]
