"""The store writes a batch of new games with SQLite's foreign-key enforcement off (issue 30,
speed: SQLite's check of every row against its parents cost more than any other part of the
store but the rows themselves), and every reference still holds:

* what a batch writes is, row for row, what the enforced path writes (one game a
  transaction, every row checked by SQLite), on a corpus of games with every kind of row
  (marqués, relevés, écoles, comments, findings);
* no reference dangles afterwards (``PRAGMA foreign_key_check``, rows of no game);
* a game whose own references do not hold is refused as SQLite refuses it, and nothing of
  its batch is written;
* a game that replaces a stored one takes the old game's rows with it (the cascade needs the
  enforcement: that batch is written again with it on);
* a game's rows are freed as soon as they are dropped, by reference counting: building them
  makes no reference cycle (one made every row of every game garbage that only the cyclic
  collector could free: ~300 objects a game)."""

from __future__ import annotations

import gc
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from club_helpers import (
    TABLES,
    copy_record,
    orphans,
    rows_corpus,
    selfplay_records,
    with_table_talk,
    write_archive,
)

from trictrac.club import importer
from trictrac.club.db import _connect_writer
from trictrac.club.importer import import_records
from trictrac.club.rows import G_KEY, _GameRows
from trictrac.club.store import _references_hold, _Store
from trictrac.club.workers import ENGINE_VERSION, _Read, _Work
from trictrac.notation.reader import iter_records
from trictrac.notation.record import Record
from trictrac.notation.textio import open_file
from trictrac.notation.writer import COUP_WIDTH
from trictrac.replay.verifier.verify import verify

ROOT = Path(__file__).resolve().parent.parent
#: the columns that say when a row was written, not what it holds
_WHEN = {"imported_at", "attempted_at", "at"}


def _records() -> list[Record]:
    return rows_corpus(4, seed=5)


def _rows(conn: sqlite3.Connection) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, in rowid or key order, but when it was written."""
    out = {}
    for t in TABLES:
        cols = [r[1] for r in conn.execute(f"PRAGMA table_info({t})") if r[1] not in _WHEN]
        out[t] = conn.execute(f"SELECT {', '.join(cols)} FROM {t} ORDER BY {', '.join(cols)}").fetchall()
    return out


def test_a_batch_writes_what_the_enforced_path_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    archive = write_archive(tmp_path / "corpus.trn", _records())
    batched, one_by_one = tmp_path / "batched.db", tmp_path / "one.db"
    report = import_records(batched, [archive])
    assert report.imported > 40 and not report.failures
    monkeypatch.setattr(importer, "BATCH_GAMES", 1)  # one game a transaction: the store's enforced path
    assert import_records(one_by_one, [archive]).imported == report.imported
    a, b = sqlite3.connect(batched), sqlite3.connect(one_by_one)
    try:
        want, got = _rows(b), _rows(a)
        assert all(want[t] for t in ("coups", "marks", "releves", "comments", "findings", "marques"))  # every kind
        assert got == want
    finally:
        a.close()
        b.close()
    assert orphans(batched) == []


def _game_rows(tmp_path: Path, records: list[Record]) -> list[_GameRows]:
    """Each game's rows as the import builds them (read, written, verified)."""
    path = str(write_archive(tmp_path / "games.trn", records))
    work = _Work(None, True, 1, ENGINE_VERSION)
    out = []
    with open_file(path) as raw:
        for i, parsed in enumerate(iter_records(path, file=path)):
            got = work.read_game(_Read(path, i, raw), parsed, lambda gid: False)
            assert got.rows is not None
            got.rows.game[G_KEY] = got.key
            out.append(got.rows)
    return out


def _broken(rows: _GameRows, how: str) -> _GameRows:
    n = len(rows.coups) // COUP_WIDTH
    if how == "mark-after-the-last-coup":
        rows.marks[-1] = (rows.marks[-1][0], n, *rows.marks[-1][2:])
    elif how == "comment-of-no-coup":
        rows.comments.append([len(rows.comments) + 1, None, n + 1, "x", None, None])
    else:  # two coups of one index
        rows.coups[COUP_WIDTH + 1] = 0
    return rows


@pytest.mark.parametrize("how", ["mark-after-the-last-coup", "comment-of-no-coup", "coup-index-twice"])
def test_a_game_whose_references_do_not_hold_is_refused(tmp_path: Path, how: str) -> None:
    games = _game_rows(tmp_path, list(selfplay_records(3, seed=9)))
    assert all(_references_hold(g) for g in games)
    games[1] = _broken(games[1], how)
    assert not _references_hold(games[1])
    conn = _connect_writer(tmp_path / "club.db", 1, True)
    try:
        store = _Store(conn)
        with pytest.raises(sqlite3.IntegrityError):
            store.store_batch(games)
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0  # nothing of the batch
        assert conn.execute("SELECT COUNT(*) FROM coups").fetchone()[0] == 0
        # the importer then stores them one by one, enforced: SQLite refuses the same game
        assert store.store(games[0]) == "added"
        with pytest.raises(sqlite3.IntegrityError):
            store.store(games[1])
        assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    finally:
        conn.close()


def test_a_replacement_in_a_batch_takes_the_old_rows_with_it(tmp_path: Path) -> None:
    first, other, third = selfplay_records(3, seed=21)
    old = copy_record(first, Event="Soirée", Round="1")
    new = copy_record(
        selfplay_records(1, seed=22)[0], Event="Soirée", Round="1", A=old.headers["A"], B=old.headers["B"]
    )
    db = tmp_path / "club.db"
    conn = _connect_writer(db, 1, True)
    try:
        store = _Store(conn)
        old_rows, other_rows = _game_rows(tmp_path, [old, other])
        assert store.store_batch([old_rows, other_rows]) == ["added", "added"]
        new_rows, third_rows = _game_rows(tmp_path, [new, third])
        assert new_rows.game[G_KEY] == old_rows.game[G_KEY]  # the same game, played again
        assert store.store_batch([new_rows, third_rows]) == ["replaced", "added"]
        gone = old_rows.game[0]
        assert conn.execute("SELECT COUNT(*) FROM games WHERE sha256 = ?", (gone,)).fetchone()[0] == 0
        assert conn.execute("SELECT COUNT(*) FROM game_history WHERE game_id = ?", (gone,)).fetchone()[0] == 1
        n_coups = sum(len(r.coups) // COUP_WIDTH for r in (other_rows, new_rows, third_rows))
        assert conn.execute("SELECT COUNT(*) FROM coups").fetchone()[0] == n_coups  # the old game's went
    finally:
        conn.close()
    assert orphans(db) == []


def _cyclic_garbage(run: Callable[[], object]) -> int:
    """The objects only the cyclic collector can free after ``run`` (collector off meanwhile)."""
    gc.collect()
    gc.disable()
    try:
        run()
        return gc.collect()
    finally:
        gc.enable()


def test_a_games_rows_are_freed_without_the_collector(tmp_path: Path) -> None:
    talk = with_table_talk(selfplay_records(1, seed=3)[0], ecoles=[(2, "A", 2, "par trop")], comments=[(1, "x")])
    path = str(write_archive(tmp_path / "games.trn", [*selfplay_records(4, seed=13), talk]))
    parsed = list(iter_records(path, file=path))
    work = _Work(None, True, 1, ENGINE_VERSION)

    def verified() -> None:
        for i, pr in enumerate(parsed):
            verify(pr.record, None, file=path, game=i, trace=False, recover=True)

    def with_rows() -> None:
        with open_file(path) as raw:
            for i, pr in enumerate(parsed):
                assert work.read_game(_Read(path, i, raw), pr, lambda gid: False).rows is not None

    # the rows (text, rows walk, an école's claimant's opponent, comments) add none to the verifier's
    assert _cyclic_garbage(with_rows) <= _cyclic_garbage(verified)
