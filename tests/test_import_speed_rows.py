"""``db import`` stores several games in one transaction (issue 17, speed): the rows are
those that one transaction a game stores, a game that SQLite refuses in the middle of a
batch is reported alone while the others are stored, and every game reported is
committed already, in one process and with ``-j 2``."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from club_helpers import (
    club_records,
    copy_record,
    counts,
    orphans,
    selfplay_records,
    with_table_talk,
    write_archive,
)

import trictrac.club.db as clubdb
import trictrac.club.importer as importer
from trictrac.club.importer import import_records
from trictrac.club.report import ImportStep
from trictrac.club.rows import game_id_of
from trictrac.notation.writer import write_record

ROOT = Path(__file__).resolve().parent.parent
FINDINGS = sorted((ROOT / "fixtures" / "findings").glob("*.trn"))

# columns whose values say when a row was written, not what it holds
_WHEN = {"imported_at", "attempted_at", "at"}


def _games(n: int = 20) -> list:
    """Bot games with écoles and comments (rows in every table), then the club's games."""
    out = []
    for i, rec in enumerate(selfplay_records(n, seed=5)):
        rec = copy_record(rec, Round=str(i + 1), Date="2024.06.01")
        out.append(with_table_talk(rec, ecoles=[(2, "A", 2, "par trop")], comments=[(1, f"note {i}")]))
    return out + club_records()


def _dump(db_path: Path) -> dict[str, list[tuple]]:
    """Every row of every table, in rowid order, times left out; for each full-text
    index, every term it holds with its row, column and place (``fts5vocab``: what a
    search finds, whatever the layout of its segments, which follows the commits)."""
    conn = sqlite3.connect(db_path)
    try:
        names = [n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        out = {}
        for t in names:
            if t.startswith("sqlite_") or "_fts_" in t:
                continue
            if t.endswith("_fts"):
                conn.execute(f"INSERT INTO {t}({t}) VALUES ('integrity-check')")
                conn.execute(f"CREATE VIRTUAL TABLE temp.{t}_terms USING fts5vocab(main, {t}, instance)")
                out[t] = conn.execute(f"SELECT * FROM temp.{t}_terms ORDER BY 1, 2, 3, 4").fetchall()
                continue
            cols = [r[1] for r in conn.execute(f"PRAGMA table_info({t})") if r[1] not in _WHEN]
            try:
                out[t] = conn.execute(f"SELECT rowid, {', '.join(cols)} FROM {t} ORDER BY rowid").fetchall()
            except sqlite3.OperationalError:  # WITHOUT ROWID: in the order of its key
                out[t] = conn.execute(f"SELECT {', '.join(cols)} FROM {t} ORDER BY 1, 2").fetchall()
        return out
    finally:
        conn.close()


@pytest.mark.parametrize("jobs", [1, 2])
def test_games_stored_in_batches_have_the_rows_of_one_transaction_a_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    """Same ids, same rows, same full-text indexes, same report, whether the games go in
    one transaction each or eight to a transaction (findings' coups included)."""
    src = write_archive(tmp_path / "soirees.trn", _games())
    files = [src, *FINDINGS]
    batched = import_records(tmp_path / "batched.db", files, jobs=jobs)
    monkeypatch.setattr(importer, "BATCH_GAMES", 1)
    single = import_records(tmp_path / "single.db", files, jobs=jobs)
    assert batched.added == single.added == len(_games()) + len(FINDINGS) - len(single.failures)
    assert batched.findings == single.findings > 0
    assert batched.game_ids == single.game_ids
    assert [f.as_dict() for f in batched.failures] == [f.as_dict() for f in single.failures]
    a, b = _dump(tmp_path / "batched.db"), _dump(tmp_path / "single.db")
    assert a.keys() == b.keys()
    for table in a:
        assert a[table] == b[table], table
    assert len(a["coups"]) > 1000 and a["findings"] and a["comments_fts"] and a["ecoles_fts"] and a["findings_fts"]


def _refuse_game(db_path: Path, gid: str) -> None:
    """A trigger that makes SQLite refuse the coups of one game (a store-error)."""
    clubdb.open_db(db_path).close()
    conn = sqlite3.connect(db_path)
    conn.execute(
        f"CREATE TRIGGER refuse_one BEFORE INSERT ON coups WHEN new.game_id = "
        f"(SELECT id FROM games WHERE sha256 = '{gid}') "
        "BEGIN SELECT RAISE(ABORT, 'refused for the test'); END"
    )
    conn.commit()
    conn.close()


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_game_sqlite_refuses_in_a_batch_fails_alone(tmp_path: Path, jobs: int) -> None:
    """The 6th game of 12 is refused: the 11 others are stored whole, the refused one is
    reported (store-error, its index and id) where it stands in the file, nothing of it
    is written; once the trigger is gone a rerun adds it and nothing else."""
    games = _games(12)[:12]
    src = write_archive(tmp_path / "soiree.trn", games)
    bad = game_id_of(write_record(games[5]))
    db_path = tmp_path / "club.db"
    _refuse_game(db_path, bad)
    steps: list[ImportStep] = []
    rep = import_records(db_path, [src], progress=steps.append, jobs=jobs)
    assert rep.added == 11 and rep.failed == 1
    (f,) = rep.failures
    assert (f.reason, f.game_index, f.game_id) == ("store-error", 5, bad)
    assert "refused for the test" in f.message
    assert [s.game_index for s in steps] == list(range(12))
    assert [s.status for s in steps] == ["added"] * 5 + ["failed"] + ["added"] * 6
    assert orphans(db_path) == []
    conn = sqlite3.connect(db_path)
    assert conn.execute("SELECT COUNT(*) FROM games WHERE sha256 = ?", (bad,)).fetchone()[0] == 0
    assert (
        conn.execute(
            "SELECT COUNT(*) FROM coups WHERE game_id = (SELECT id FROM games WHERE sha256 = ?)", (bad,)
        ).fetchone()[0]
        == 0
    )
    assert conn.execute("SELECT game_index, reason FROM import_failures").fetchall() == [(5, "store-error")]
    conn.execute("DROP TRIGGER refuse_one")
    conn.commit()
    conn.close()
    again = import_records(db_path, [src], jobs=jobs)
    assert (again.added, again.unchanged, again.failed) == (1, 11, 0)
    assert counts(db_path)["games"] == 12


@pytest.mark.parametrize("jobs", [1, 2])
def test_every_game_reported_is_committed(tmp_path: Path, jobs: int) -> None:
    """When ``progress`` hears of a stored game, another connection sees it whole: a
    batch is reported after its commit, never before."""
    games = _games(20)
    src = write_archive(tmp_path / "soirees.trn", games)
    db_path = tmp_path / "club.db"
    seen: list[tuple[str, int]] = []

    def check(step: ImportStep) -> None:
        conn = sqlite3.connect(db_path)
        try:
            row = conn.execute(
                "SELECT n_coups, (SELECT COUNT(*) FROM coups c WHERE c.game_id = games.id) FROM games WHERE sha256 = ?",
                (step.game_id,),
            ).fetchone()
        finally:
            conn.close()
        assert row is not None and row[0] == row[1] > 0
        seen.append((step.status, step.game_index))

    rep = import_records(db_path, [src], progress=check, jobs=jobs)
    assert rep.added == len(games)
    assert seen == [("added", i) for i in range(len(games))]


def test_a_parse_error_between_queued_games_keeps_the_file_order(tmp_path: Path) -> None:
    """A game that does not parse, between games queued to be stored: the ones before it
    are stored and reported first, then it, then the rest; a rerun stores nothing more."""
    games = _games(6)[:6]
    text = "".join(write_record(r).rstrip("\n") + "\n\n" for r in games[:3])
    text += '[Event "cassé"]\n\n1. A 9-9 zz\n\n'
    text += "".join(write_record(r).rstrip("\n") + "\n\n" for r in games[3:])
    src = tmp_path / "melange.trn"
    src.write_text(text, encoding="utf-8")
    steps: list[ImportStep] = []
    rep = import_records(tmp_path / "club.db", [src], progress=steps.append)
    assert [s.status for s in steps] == ["added"] * 3 + ["failed"] + ["added"] * 3
    assert [s.game_index for s in steps] == list(range(7))
    assert rep.failures[0].reason == "parse-error" and rep.failures[0].game_index == 3
    again = import_records(tmp_path / "club.db", [src])
    assert (again.added, again.unchanged, again.failed) == (0, 6, 1)
