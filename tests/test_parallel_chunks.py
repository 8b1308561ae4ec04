"""The parallel drivers (issue 17): ``check -j`` and ``db import -j`` split a file into
chunks of whole games that workers read, parse and verify on their own; the results
must be those of one process reading the whole file, game for game."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from trictrac.club.importer import import_records
from trictrac.notation.reader import iter_records
from trictrac.replay.verifier.verify import chunk_records, game_chunks, verify_file

ROOT = Path(__file__).resolve().parent.parent
PARTS = (
    "corpus/multi.trn",
    "broken/broken_latin1.trn",
    "corpus/mistakes.trn",
    "broken/broken_tokens.trn",
    "corpus/pour-tout.trn",
    "broken/broken_order.trn",
    "corpus/multi.trn",  # the same games again: unchanged on import
)


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A file with a byte-order mark, a comment line above a game, broken and Latin-1
    games, and games written twice."""
    data = b"\xef\xbb\xbf{ archive of the club }\n"
    for name in PARTS:
        data += (ROOT / "fixtures" / name).read_bytes().rstrip(b"\n") + b"\n\n"
    path = tmp_path_factory.mktemp("chunks") / "archive.trn"
    path.write_bytes(data)
    return path


def _parsed(prs) -> list[tuple]:
    return [(repr(pr.record), pr.record.span, [d.render("f") for d in pr.diagnostics]) for pr in prs]


@pytest.mark.parametrize("games", [1, 2, 3, 50])
def test_chunks_give_the_games_of_the_whole_file(archive: Path, games: int) -> None:
    whole = list(iter_records(str(archive), file=str(archive)))
    chunks = list(game_chunks(str(archive), games))
    assert chunks[0].start == 3 and chunks[-1].end == archive.stat().st_size
    assert all(a.end == b.start for a, b in zip(chunks, chunks[1:]))  # contiguous, nothing read twice
    pieces = [pr for c in chunks for pr in chunk_records(c)[1]]
    assert _parsed(pieces) == _parsed(whole)
    sizes = [b - a for a, b in zip([c.game for c in chunks], [c.game for c in chunks[1:]] + [len(whole)])]
    # whole chunks of `games` games, then the file's last stretch a game a chunk
    full = sizes.index(1) if 1 in sizes else len(sizes)
    assert sizes[:full] == [games] * full and set(sizes[full:]) <= {1}
    if games > 1:  # the last stretch: about two chunks' worth of games, one a chunk
        assert 1 <= len(whole) - full * games <= 3 * games


def test_chunks_are_cut_by_size_too(archive: Path) -> None:
    chunks = list(game_chunks(str(archive), 1000, max_bytes=1))
    assert len(chunks) == sum(1 for _ in iter_records(str(archive)))


def test_check_with_two_jobs_gives_the_same_reports(archive: Path) -> None:
    one = [r.as_dict() for r in verify_file(str(archive), recover=True)]
    for games in (1, 3):
        two = [r.as_dict() for r in verify_file(str(archive), jobs=2, chunk_games=games, recover=True)]
        assert two == one
    assert any(r["findings"] for r in one)


def _content(db: Path) -> dict[str, list[tuple]]:
    """Every table's rows, without the import times."""
    conn = sqlite3.connect(db)
    out = {}
    for table in ("games", "marques", "releves", "coups", "marks", "comments", "findings", "results", "players"):
        cols = [r[1] for r in conn.execute(f"PRAGMA table_info({table})") if r[1] != "imported_at"]
        order = "game_id, seq" if table == "coups" else "game_id, seat" if table == "results" else "rowid"
        out[table] = conn.execute(f"SELECT {', '.join(cols)} FROM {table} ORDER BY {order}").fetchall()
    out["import_failures"] = conn.execute(
        "SELECT source_file, game_index, line, game_id, reason, message FROM import_failures ORDER BY rowid"
    ).fetchall()
    conn.close()
    return out


def test_import_with_two_jobs_stores_the_same_rows(archive: Path, tmp_path: Path) -> None:
    one = import_records(tmp_path / "one.db", [archive])
    two = import_records(tmp_path / "two.db", [archive], jobs=2)
    assert one.failures and one.unchanged and one.imported and one.findings
    for r in (one, two):
        r.seconds = 0
    assert two.as_dict() == one.as_dict()
    assert _content(tmp_path / "two.db") == _content(tmp_path / "one.db")


def test_a_parallel_import_skips_the_games_stored_already(archive: Path, tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    first = import_records(db, [archive], jobs=2)
    archive2 = tmp_path / "again.trn"
    archive2.write_bytes(archive.read_bytes() + b"\n")  # other bytes, the same games
    again = import_records(db, [archive2], jobs=2)
    assert (again.imported, again.unchanged) == (0, first.imported + first.unchanged)
    assert len(again.failures) == len(first.failures)


def test_a_worker_sees_the_games_stored_already(archive: Path, tmp_path: Path) -> None:
    from trictrac.club.workers import _stored_in

    db = tmp_path / "club.db"
    rep = import_records(db, [archive])
    stored = _stored_in(str(db))
    assert all(stored(gid) for gid in rep.game_ids)
    assert not stored("0" * 64)
    assert not _stored_in(str(tmp_path / "missing.db"))(rep.game_ids[0])


def _first_chunk_dies(args):
    if args[1].game == 0:
        raise MemoryError("worker killed")
    return _ORIGINAL_CHUNK(args)


_ORIGINAL_CHUNK = None


def test_a_chunk_whose_worker_fails_is_one_failure_and_the_rest_is_stored(
    archive: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from trictrac.club import workers

    global _ORIGINAL_CHUNK
    _ORIGINAL_CHUNK = workers._import_chunk
    monkeypatch.setattr(workers, "_import_chunk", _first_chunk_dies)  # the forked workers inherit it
    whole = import_records(tmp_path / "whole.db", [archive])
    rep = import_records(tmp_path / "club.db", [archive], jobs=2)
    lost = [f for f in rep.failures if f.reason == "verify-error"]
    assert len(lost) == 1 and "MemoryError: worker killed" in lost[0].message and lost[0].game_index == 0
    assert 0 < rep.imported + rep.unchanged < whole.imported + whole.unchanged


class _Recorded:
    """A pool that only records what is sent to it (the early start is judged by it)."""

    def __init__(self) -> None:
        self.sent: list = []

    def submit(self, fn, task):
        from concurrent.futures import Future

        self.sent.append(task[1])
        return Future()


def test_a_fresh_import_sends_the_first_chunks_before_opening_the_database(archive: Path, tmp_path: Path) -> None:
    """``db import -j``: the workers start while the database is made (issue 17)."""
    from trictrac.club.workers import ENGINE_VERSION, _Readers, _Work

    pool = _Recorded()
    readers = _Readers(str(tmp_path / "new.db"), pool, 2, _Work(None, True, 9, ENGINE_VERSION))
    assert readers.start_early(str(archive)) is not None
    assert [c.game for c in pool.sent] == [c.game for c in list(game_chunks(str(archive)))[:6]]
    assert readers.work.season_rule == 9  # no database yet: the rule asked for
    assert not (tmp_path / "new.db").exists()  # nothing written before the database is opened


def test_a_file_imported_before_sends_nothing_early(tmp_path: Path) -> None:
    from trictrac.club.workers import ENGINE_VERSION, _Readers, _Work

    db, clean = tmp_path / "club.db", ROOT / "fixtures" / "corpus" / "multi.trn"
    import_records(db, [clean], season_start_month=9)
    pool = _Recorded()
    readers = _Readers(str(db), pool, 2, _Work(None, True, 1, ENGINE_VERSION))
    assert readers.start_early(str(clean)) is None and not pool.sent  # its games are stored: nothing to read
    other = tmp_path / "other.trn"
    other.write_bytes(clean.read_bytes() + b"\n")
    assert readers.start_early(str(other)) is not None and pool.sent
    assert readers.work.season_rule == 9  # the database's own rule, not the one asked for
    again = import_records(db, [clean], jobs=2)
    assert again.imported == 0 and again.unchanged == len(again.game_ids) > 0


def test_a_parallel_import_follows_the_season_rule_of_the_database(tmp_path: Path) -> None:
    """Chunks sent before the database is opened carry the rule it holds, not the one
    asked for (a rule is fixed when the file is made)."""
    text = (ROOT / "fixtures" / "records" / "douze_trous.trn").read_text(encoding="utf-8")
    dated = tmp_path / "dated.trn"
    dated.write_text(text, encoding="utf-8")
    assert '[Date "' in text
    for name, jobs in (("one.db", 1), ("two.db", 2)):
        import_records(tmp_path / name, [ROOT / "fixtures" / "corpus" / "multi.trn"], season_start_month=9)
        import_records(tmp_path / name, [dated], jobs=jobs)  # asked: January
    one, two = _content(tmp_path / "one.db"), _content(tmp_path / "two.db")
    assert two == one
    seasons = {
        r[0]
        for r in sqlite3.connect(tmp_path / "two.db").execute("SELECT season FROM games WHERE date_iso IS NOT NULL")
    }
    assert seasons and all("-" in s for s in seasons)  # e.g. 2024-2025: the September rule


def test_the_early_peek_does_not_wait_for_a_lock(tmp_path: Path) -> None:
    """A database another process holds locked: the peek gives up at once (the writer's
    opening then waits and says why, as without the peek), not after a busy timeout."""
    import time

    from trictrac.club.workers import _peek_season_rule

    db = tmp_path / "club.db"
    import_records(db, [ROOT / "fixtures" / "corpus" / "multi.trn"], season_start_month=9)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("PRAGMA journal_mode = DELETE")  # a rollback journal: readers wait on a writer
    holder.execute("BEGIN EXCLUSIVE")
    try:
        t0 = time.monotonic()
        assert _peek_season_rule(str(db), "0" * 64, 1) is None
        assert time.monotonic() - t0 < 10  # the busy timeout is 60 s
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert _peek_season_rule(str(db), "0" * 64, 1) == 9


def test_a_database_in_a_directory_that_cannot_be_entered_is_not_peeked(tmp_path: Path, monkeypatch) -> None:
    """``Path.exists`` raises for a directory the user may not enter (EACCES): no peek, no
    traceback; the writer's opening reports the database as it always did."""
    from trictrac.club.workers import _peek_season_rule

    def denied(self):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "exists", denied)
    assert _peek_season_rule(str(tmp_path / "sub" / "club.db"), "0" * 64, 1) is None
