"""Several processes creating the same club database at once: switching a new file to WAL
needs an exclusive lock, and SQLite answers "database is locked" at once instead of
waiting; ``open_db`` must retry (before the fix, 12 races in 30 failed)."""

from __future__ import annotations

import multiprocessing as mp

from trictrac.club.db import open_db


def _open_and_count(path: str) -> int:
    db = open_db(path)
    n = db.conn.execute("SELECT count(*) FROM games").fetchone()[0]
    mode = db.conn.execute("PRAGMA journal_mode").fetchone()[0]
    db.conn.close()
    return n if mode == "wal" else -1


def test_four_processes_create_one_database_together(tmp_path):
    ctx = mp.get_context("fork")
    with ctx.Pool(4) as pool:
        for i in range(8):
            path = str(tmp_path / f"club{i}.db")
            assert pool.map(_open_and_count, [path] * 4) == [0, 0, 0, 0]
