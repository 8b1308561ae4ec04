"""``db search`` looks in findings and école reasons by default (issue 15); ``--only``
narrows it, ``--everywhere`` is kept; ``db ecoles --found-by-verifier`` lists the écoles
nobody claimed, charged to the player who made them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from club_helpers import copy_record, selfplay_records, with_table_talk, write_archive

from trictrac.cli.main import cli
from trictrac.club import queries
from trictrac.club.db import open_db
from trictrac.club.importer import import_records

FIX = Path(__file__).resolve().parent.parent / "fixtures" / "findings"
LABEL = "2024-05-02 Jean Dupont – Marie Martin, r. 1"


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> str:
    tmp = tmp_path_factory.mktemp("search")
    rec = copy_record(selfplay_records(1, seed=3)[0], A="Jean Dupont", B="Marie Martin", Date="2024.05.02", Round="1")
    rec = with_table_talk(rec, ecoles=[(2, "B", 4, "oubli au petit jan")], comments=[(4, "partie serrée")])
    db = tmp / "s.db"
    rep = import_records(db, [write_archive(tmp / "a.trn", [rec]), FIX / "e20-unclaimed-ecole.trn"])
    assert rep.failures == [] and rep.added == 2
    return str(db)


def test_search_finds_ecole_reasons_and_findings_by_default(club: str) -> None:
    res = run("db", "search", club, "petit", "--json")
    assert res.exit_code == 0, res.output
    hits = json.loads(res.output)
    assert [(h["kind"], h["text"], h["game"]) for h in hits] == [
        ("ecole", "B:école+4(oubli au petit jan) oubli au petit jan", LABEL)
    ]
    assert hits[0]["coup"] == 3 and hits[0]["line"] > 0
    # the messages are stored (and indexed) in the import's language, French by default as the
    # pages; the command says the finding again in its own (English here)
    hits = json.loads(run("db", "search", club, "lui revient", "--json").output)
    assert [h["kind"] for h in hits] == ["finding"] and "entitled to 2" in hits[0]["text"]
    assert hits[0]["game"] == "? A – B, fixture" and hits[0]["coup"] == 1


def test_only_narrows_and_everywhere_is_kept(club: str) -> None:
    assert json.loads(run("db", "search", club, "petit", "--only", "comment", "--json").output) == []
    both = json.loads(run("db", "search", club, "partie", "--json").output)
    assert {h["kind"] for h in both} == {"comment"}
    assert json.loads(run("db", "search", club, "petit", "--everywhere", "--json").output)[0]["kind"] == "ecole"
    res = run("db", "search", club, "petit", "--only", "coups")
    assert res.exit_code == 2 and "Traceback" not in res.output
    table = run("db", "search", club, "petit").output
    assert LABEL in table and "game_id" not in table  # the game by its label, not its hash


def test_search_in_python(club: str) -> None:
    db = open_db(club, create=False, readonly=True)
    try:
        assert [h["kind"] for h in queries.search(db, "petit")] == ["ecole"]
        assert queries.search(db, "petit", everywhere=False) == []
        assert [h["kind"] for h in queries.search(db, "dupont petit jan", kinds=["ecole"])] == []  # every word
        with pytest.raises(ValueError, match="unknown kind"):
            queries.search(db, "petit", kinds=["coup"])
    finally:
        db.close()


def test_found_by_verifier_lists_the_unclaimed_ecole_of_its_maker(club: str) -> None:
    rows = json.loads(run("db", "ecoles", club, "--found-by-verifier", "--json").output)
    unclaimed = [r for r in rows if r["kind"] == "unclaimed-ecole"]
    assert [(r["game"], r["made_by"], r["entitled"], r["marked"], r["coup"]) for r in unclaimed] == [
        ("? A – B, fixture", "A", 2, 0, 1)
    ]
    mine = json.loads(run("db", "ecoles", club, "--found-by-verifier", "--player", "A", "--json").output)
    assert "unclaimed-ecole" in {r["kind"] for r in mine}
    theirs = json.loads(run("db", "ecoles", club, "--found-by-verifier", "--player", "B", "--json").output)
    assert "unclaimed-ecole" not in {r["kind"] for r in theirs}
    totals = {r["player"]: r for r in json.loads(run("db", "ecoles", club, "--json").output)["by_player"]}
    assert totals["A"]["found_by_verifier"] >= 1 and totals["A"]["claimed"] == 0
    table = run("db", "ecoles", club, "--found-by-verifier").output
    assert "unclaimed-ecole" in table and "? A – B, fixture" in table
