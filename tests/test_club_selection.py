"""One season or date range, chosen once (``club.standings.GameSelection``), for
``trictrac standings`` and ``trictrac publish --db`` (issue 15): a club publishes one
season's site; a bad season or date is one line and exit 2, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from club_helpers import copy_record, selfplay_records, write_archive

from trictrac.cli.main import cli
from trictrac.club.db import open_db
from trictrac.club.importer import import_records
from trictrac.club.standings import GameSelection, SelectionError, selected_games, standing_games

# (date, A, B): a club whose seasons start in September
GAMES = [
    ("2024.03.05", "Jean Dupont", "Marie Martin"),  # season 2023-2024
    ("2024.10.01", "Élise Bérard", "Paul Lefèvre"),  # season 2024-2025
    ("2025.02.01", "Paul Lefèvre", "Élise Bérard"),  # season 2024-2025
    ("?", "Jean Dupont", "Paul Lefèvre"),  # no date: in no season and no date range
]


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("sel")
    recs = [
        copy_record(r, Date=d, A=a, B=b, Round="1", Event="Soirée")
        for r, (d, a, b) in zip(selfplay_records(4, seed=11), GAMES)
    ]
    db = tmp / "club.db"
    rep = import_records(db, [write_archive(tmp / "a.trn", recs)], season_start_month=9)
    assert rep.failures == [] and rep.added == 4
    return db


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("24",), "a season is a year"),
        (("2024-2026",), "a season is a year"),
        (("2024/25",), "a season is a year"),
        ((None, "2024-13"), "--from '2024-13': not a date"),
        ((None, None, "2024-02-32"), "--to '2024-02-32': not a date"),
        ((None, "yesterday"), "not a date YYYY, YYYY-MM or YYYY-MM-DD"),
        ((None, "2025", "2024-06"), "--from 2025 is after --to 2024-06"),
    ],
)
def test_bad_forms_are_refused_with_one_line(args: tuple, message: str) -> None:
    with pytest.raises(SelectionError, match=message.replace("(", r"\(")):
        GameSelection(*args)


def test_the_selection_chooses_by_season_and_dates(club: Path) -> None:
    db = open_db(club, create=False, readonly=True)
    try:
        labels = [g.label for g in standing_games(db, GameSelection("2024-2025"))]
        assert [lb.split()[0] for lb in labels] == ["2024-10-01", "2025-02-01"]
        assert [g.date for g in standing_games(db, GameSelection(None, "2024-10", "2025"))] == [
            "2024-10-01",
            "2025-02-01",
        ]
        assert [g.date for g in standing_games(db, GameSelection(None, None, "2024-10-01"))] == [
            "2024-03-05",
            "2024-10-01",
        ]
        assert len(standing_games(db)) == 4 and len(selected_games(db)) == 4  # every game, the undated one too
        chosen = selected_games(db, GameSelection("2023-2024"))
        assert [label for _, label, _ in chosen] == ["2024-03-05 Jean Dupont – Marie Martin, r. 1"]
        assert chosen[0][2].startswith("[Event") and '[Date "2024.03.05"]' in chosen[0][2]
        with pytest.raises(
            SelectionError, match="this club's seasons are two years, e.g. 2024-2025 \\(from month 9\\)"
        ):
            standing_games(db, GameSelection("2024"))
    finally:
        db.close()


def test_standings_command_uses_the_same_selection(club: Path) -> None:
    res = run("standings", str(club), "--season", "2024-2025", "--json")
    assert res.exit_code == 0, res.output
    st = json.loads(res.output)
    players = {r["player"] for t in st["tables"].values() for r in t["players"]}
    assert st["games"] == 2 and players == {"Élise Bérard", "Paul Lefèvre"}
    for args, message in (
        (["--season", "2024"], "this club's seasons are two years"),
        (["--season", "saison-1"], "a season is a year"),
        (["--from", "2025", "--to", "2024"], "is after"),
    ):
        res = run("standings", str(club), *args)
        assert res.exit_code == 2 and message in res.output, (args, res.output)
        assert len(res.output.strip().splitlines()) == 1 and "Traceback" not in res.output


@pytest.mark.parametrize(
    "command", [["games"], ["players", "--player", "Paul"], ["h2h", "Paul"], ["ecoles"], ["bredouilles"]]
)
def test_db_queries_refuse_a_season_they_cannot_select(club: Path, command: list[str]) -> None:
    """``db`` queries take the season as ``standings`` does: a bad form or the other
    club rule is one line and exit 2, not an empty list."""
    res = run("db", command[0], str(club), *command[1:], "--season", "2024-2025", "--json")
    assert res.exit_code == 0, res.output
    for season, message in (("20x", "a season is a year"), ("2024", "this club's seasons are two years")):
        res = run("db", command[0], str(club), *command[1:], "--season", season)
        assert res.exit_code == 2 and message in res.output, (season, res.output)
        assert len(res.output.strip().splitlines()) == 1 and "Traceback" not in res.output


def test_publish_one_season_from_the_database(club: Path, tmp_path: Path) -> None:
    out = tmp_path / "www"
    res = run("publish", "--db", str(club), "--season", "2024-2025", "-o", str(out), "--json")
    assert res.exit_code == 0, res.output
    rep = json.loads(res.output)
    assert rep["games"] == 2 and len(rep["pages"]) == 2
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "Bérard" in index and "Lefèvre" in index and "Dupont" not in index and "Martin" not in index
    standings = (out / "standings.html").read_text(encoding="utf-8")
    assert "Bérard" in standings and "Dupont" not in standings
    everything = tmp_path / "all"
    rep = json.loads(run("publish", "--db", str(club), "-o", str(everything), "--json").output)
    assert rep["games"] == 4  # without a selection: every game of the database
    dated = tmp_path / "dated"
    rep = json.loads(
        run("publish", "--db", str(club), "--from", "2024-03", "--to", "2024-03", "-o", str(dated), "--json").output
    )
    assert rep["games"] == 1 and "Dupont" in (dated / "index.html").read_text(encoding="utf-8")


def test_publish_refuses_what_it_cannot_select(club: Path, tmp_path: Path) -> None:
    trn = write_archive(tmp_path / "x.trn", [selfplay_records(1, seed=11)[0]])
    out = tmp_path / "www"
    for args, message in (
        (["--season", "2024-2025"], "give it and no FILE"),  # no --db
        ([str(trn), "--db", str(club), "--season", "2024-2025"], "give it and no FILE"),
        ([], "nothing to publish"),
        (["--db", str(club), "--season", "2030-2031"], "no game to publish (season 2030-2031)"),
        (["--db", str(club), "--season", "2024"], "this club's seasons are two years"),
        (["--db", str(club), "--from", "2024-99"], "not a date"),
        (["--db", str(tmp_path / "none.db")], "no database file"),
    ):
        res = run("publish", *args, "-o", str(out))
        assert res.exit_code == 2 and message in res.output, (args, res.output)
        assert len(res.output.strip().splitlines()) == 1 and "Traceback" not in res.output
        assert not out.exists()  # nothing written
    res = run("publish", "--help")
    assert "--season" in res.output and "--from" in res.output and "--db" in res.output
