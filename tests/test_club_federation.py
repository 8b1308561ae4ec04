"""The federation-size benchmark (bench/federation.py) in small: self-played parties between
named players over seasons, imported; every query a club runs (standings of a season, a
player's page, search, écoles of a player, the Datasette game page and canned queries) reads
through an index, by its ``EXPLAIN QUERY PLAN``.  The timings are the benchmark's, not a test's."""

from __future__ import annotations

from pathlib import Path

import pytest

from trictrac.bench import federation


@pytest.fixture(scope="module")
def fed_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("fed")
    archive = tmp / "fed.trn"
    federation.write_archive(archive, 30, players=12, seasons=3, seed=2, inject_every=2)
    figures = federation.import_archive(archive, tmp / "fed.db")
    assert figures["games"] == 30 and figures["failed"] == 0
    return tmp / "fed.db"


def test_every_query_a_club_runs_uses_an_index(fed_db: Path) -> None:
    timed = federation.time_club_queries(fed_db, rounds=1)
    assert len(timed) >= 14
    for t in timed:
        assert t.statements, t.name  # it ran SQL, and the plan of each statement was read
        assert t.unindexed == [], (t.name, t.unindexed)


def test_the_plan_reader_sees_a_full_scan() -> None:
    assert federation.unindexed(["SCAN c"], "SELECT * FROM coups c WHERE c.moves = '1/7'") == ["SCAN c"]
    assert federation.unindexed(["SEARCH c USING PRIMARY KEY (game_id=?)"], "SELECT * FROM coups c") == []
    assert federation.unindexed(["SCAN p"], "SELECT name FROM players p") == []  # a small table
    assert federation.unindexed(["SCAN k USING INDEX idx_marks_ecole_game"], "SELECT 1 FROM marks k") == []


def test_the_parties_are_between_named_players_over_seasons() -> None:
    recs = list(federation.parties(6, players=4, seasons=2, seed=3, inject_every=0))
    names = set(federation.player_names(4))
    assert all(r.headers["A"] in names and r.headers["B"] in names and r.headers["A"] != r.headers["B"] for r in recs)
    assert {r.headers["Date"][:4] for r in recs} <= {"2024", "2025"}
    assert len(set(federation.player_names(250))) == 250
