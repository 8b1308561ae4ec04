"""The rows of a game are inserted several a statement (issue 30, speed): every row goes in, in
order, and the table's constraints still refuse a bad one (nothing of its statement written).
A game's marks go in in id order, each run of rows of one shape (a mark or a decision: the
short one, naming only the columns they fill, a ``None`` bound costing ten times an integer)
several a statement: every column reads back as the rows said, the others NULL, the seats'
players written beside them."""

from __future__ import annotations

import sqlite3

import pytest

from trictrac.club.rows import MARK_HEAD, MARK_SHAPES
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
#: a value of each column (a seat for who and against)
_VALUE = {"who": "B", "against": "A", "points": 4, "holes": 2, "bredouille": 1, "leave": 0, "reason": "r", "text": "t"}
_KINDS = ("mark", "decision", "ecole", "correction", "comment")


def _game(conn: sqlite3.Connection) -> None:
    conn.execute("INSERT INTO games (id, label, sha256, n_coups, n_findings, profile, mode, n_releves, n_marques, "
                 "verified, notes, headers, diagnostics, canonical, engine_version, imported_at) "
                 "VALUES (7, 'g', 's', 1, 0, 'p', 'full', 0, 0, 0, '[]', '{}', '[]', '', 'v', 't')")  # fmt: skip
    conn.execute("INSERT INTO players (id, name) VALUES (11, 'Ann'), (12, 'Bob')")
    conn.execute("INSERT INTO coups (game_id, seq, number, side, die1, die2, moves) VALUES (7, 0, 1, 'A', 6, 5, '-')")


@pytest.mark.parametrize("n", [1, 3, 40])
@pytest.mark.parametrize("pattern", ["runs", "mixed"])
def test_marks_in_runs_of_one_shape(n: int, pattern: str) -> None:
    """Rows of both shapes, in runs (many rows of a shape, then of the other) or mixed row by
    row: every column reads back as built, the short shape's other columns NULL, in id order."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    create_schema(conn)
    _game(conn)
    marks: list[tuple[object, ...]] = []
    want = []
    kinds = [k for k in _KINDS for _ in range(n)] if pattern == "runs" else [_KINDS[i % 5] for i in range(5 * n)]
    for local, kind in enumerate(kinds, 1):
        fields = MARK_SHAPES[kind not in ("mark", "decision")]
        values = [_VALUE[f] if not (kind == "mark" and f == "leave") else None for f in fields]
        marks.append((local, 0, local, "after", kind, *values, f"tok{local}", local + 1, 3))
        got = dict.fromkeys(_COLS)
        got.update(zip(fields, values))
        for seat, pid in (("who", "player_id"), ("against", "against_id")):
            if got[seat] is not None:
                got[pid] = {"A": 11, "B": 12}[got[seat]]
        want.append((local + 100, 7, 0, local, "after", kind, *got.values(), f"tok{local}", local + 1, 3))
    assert all(len(r) == MARK_HEAD + len(MARK_SHAPES[r[4] not in ("mark", "decision")]) + 3 for r in marks)
    conn.execute("BEGIN")
    _insert_marks(conn, marks, 7, 100, (11, 12, None, None))
    conn.execute("COMMIT")
    cols = "id, game_id, coup_seq, seq, phase, kind, " + ", ".join(_COLS) + ", token, line, col"
    assert conn.execute(f"SELECT {cols} FROM marks ORDER BY rowid").fetchall() == want  # inserted in id order


def test_marks_constraints_checked() -> None:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")  # as the store's connection (club.db)
    create_schema(conn)
    _game(conn)
    players = (11, 12, None, None)
    good = (1, 0, 0, "after", "mark", "A", 4, None, None, None, "A+4", None, None)
    _insert_marks(conn, [good], 7, 0, players)
    with pytest.raises(sqlite3.IntegrityError):  # bredouille is 0 or 1
        _insert_marks(conn, [(2, 0, 1, "after", "mark", "A", 4, None, 5, None, "A+4", None, None)], 7, 0, players)
    with pytest.raises(sqlite3.IntegrityError):  # a coup the game does not have
        _insert_marks(conn, [(3, 9, 0, "after", "mark", "A", 4, None, None, None, "A+4", None, None)], 7, 0, players)
    with pytest.raises(sqlite3.IntegrityError):  # no such kind
        _insert_marks(
            conn, [(4, 0, 2, "after", "nonsense", "A", 4, None, None, None, "A+4", None, None)], 7, 0, players
        )
    assert conn.execute("SELECT id, kind, player_id FROM marks").fetchall() == [(1, "mark", 11)]
