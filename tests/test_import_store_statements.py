"""The marks of a game are inserted several a statement (issue 30, speed: ``marks.kind``'s
CHECK list is built once a statement, not once a row): every row goes in, in order, and the
table's constraints still refuse a bad one (nothing of its statement written)."""

from __future__ import annotations

import sqlite3

import pytest

from trictrac.club.schema import create_schema
from trictrac.club.store import _MARKS_HEAD, _insert_rows_by_statement


def _conn() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("CREATE TABLE t (a INTEGER, b TEXT CHECK (b IN ('x', 'y', 'z')), c)")
    return conn


@pytest.mark.parametrize("n", [0, 1, 2, 3, 31, 32, 33, 63, 64, 65, 100])
def test_every_row_in_order(n: int) -> None:
    conn = _conn()
    rows = [(i, "xyz"[i % 3], None if i % 5 else f"r{i}") for i in range(n)]
    _insert_rows_by_statement(conn, "INSERT INTO t (a, b, c)", rows)
    assert conn.execute("SELECT a, b, c FROM t ORDER BY rowid").fetchall() == rows


def test_a_bad_row_is_refused() -> None:
    conn = _conn()
    rows = [(i, "x", None) for i in range(40)]
    rows[35] = (35, "w", None)  # not in the CHECK's list
    conn.execute("BEGIN")
    with pytest.raises(sqlite3.IntegrityError):
        _insert_rows_by_statement(conn, "INSERT INTO t (a, b, c)", rows)
    assert conn.execute("SELECT COUNT(*) FROM t").fetchone()[0] == 32  # the first statement's rows
    conn.execute("ROLLBACK")  # the store rolls the game (or the batch) back
    assert conn.execute("SELECT COUNT(*) FROM t").fetchone()[0] == 0


def test_marks_kind_checked() -> None:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    create_schema(conn)
    conn.execute("INSERT INTO games (id, label, sha256, n_coups, n_findings, profile, mode, n_releves, n_marques, "
                 "verified, notes, headers, diagnostics, canonical, engine_version, imported_at) "
                 "VALUES (1, 'g', 's', 1, 0, 'p', 'full', 0, 0, 0, '[]', '{}', '[]', '', 'v', 't')")  # fmt: skip
    conn.execute("INSERT INTO coups (game_id, seq, number, side, die1, die2, moves) VALUES (1, 0, 1, 'A', 6, 5, '-')")
    good = (1, 1, 0, 0, "after", "mark", "A", None, None, None, 4, None, None, None, None, None, "A+4", None, None)
    _insert_rows_by_statement(conn, _MARKS_HEAD, [good])
    with pytest.raises(sqlite3.IntegrityError):
        _insert_rows_by_statement(conn, _MARKS_HEAD, [(2, *good[1:3], 1, "after", "nonsense", *good[6:])])
    assert conn.execute("SELECT id, kind FROM marks").fetchall() == [(1, "mark")]
