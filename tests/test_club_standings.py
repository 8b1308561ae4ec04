"""Standings (issue 15): the pure computation on plain rows, read from the database, and
the ``trictrac standings`` command (club/standings.py, cli/standings.py)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from club_helpers import (
    as_marques,
    copy_record,
    selfplay_records,
    with_table_talk,
    write_archive,
)

from trictrac.cli.main import cli
from trictrac.club.db import open_db
from trictrac.club.importer import import_records
from trictrac.club.standings import (
    MarqueRow,
    SeatRow,
    StandingGame,
    compute_standings,
    standing_games,
)
from trictrac.notation.record import MarqueResult


def _douze(gid: str, a: tuple, b: tuple, date: str = "2024-03-01") -> StandingGame:
    return StandingGame(gid, gid, date, date[:4], "douze-trous", (SeatRow(*a), SeatRow(*b)))


def test_douze_trous_ranks_by_wins_then_difference_then_holes() -> None:
    games = [
        _douze("g1", ("Ann", 12, "win", 1, 4, 0, 0), ("Bob", 5, "loss", 0, 0, 1, 4)),
        _douze("g2", ("Bob", 12, "win"), ("Cid", 11, "loss")),
        _douze("g3", ("Cid", 12, "win"), ("Ann", 2, "loss")),
        _douze("g4", ("Ann", 3, None), ("Cid", 4, None)),  # unfinished
    ]
    st = compute_standings(games)
    t = st["tables"]["douze-trous"]
    assert st["games"] == 4 and t["games"] == 4 and "a-ecrire" not in st["tables"]
    rows = {r["player"]: r for r in t["players"]}
    # each has one win and one loss: holes difference decides (Bob +6, Cid -10+... )
    assert rows["Ann"]["games"] == 3 and rows["Ann"]["unfinished"] == 1
    assert (rows["Ann"]["holes_for"], rows["Ann"]["holes_against"]) == (12 + 2 + 3, 5 + 12 + 4)
    assert (rows["Bob"]["holes_for"], rows["Bob"]["holes_against"]) == (17, 23)
    assert (rows["Cid"]["holes_for"], rows["Cid"]["holes_against"]) == (27, 17)
    assert [r["player"] for r in t["players"]] == ["Cid", "Ann", "Bob"]
    assert [r["rank"] for r in t["players"]] == [1, 2, 3]
    assert (rows["Ann"]["ecoles_made"], rows["Ann"]["ecoles_made_points"]) == (1, 4)
    assert (rows["Bob"]["ecoles_claimed"], rows["Bob"]["ecoles_claimed_points"]) == (1, 4)
    cells = t["crosstable"]["cells"]
    assert cells["Ann"]["Bob"] == {"games": 1, "wins": 1, "losses": 0, "draws": 0, "holes_for": 12, "holes_against": 5}
    assert cells["Ann"]["Cid"]["games"] == 2 and cells["Ann"]["Cid"]["losses"] == 1
    assert cells["Cid"]["Ann"]["wins"] == 1 and "Ann" not in cells["Ann"]


def test_equal_players_share_a_rank() -> None:
    st = compute_standings(
        [_douze("g1", ("Ann", 12, "win"), ("Bob", 6, "loss")), _douze("g2", ("Bob", 12, "win"), ("Ann", 6, "loss"))]
    )
    assert [(r["rank"], r["player"]) for r in st["tables"]["douze-trous"]["players"]] == [(1, "Ann"), (1, "Bob")]


def test_a_ecrire_counts_each_marque_between_its_two_players() -> None:
    """A partie à tourner: the marqués are credited to who played them, with their value."""
    g = StandingGame(
        "t1",
        "t1",
        "2024-05-01",
        "2024",
        "a-ecrire",
        (SeatRow("Ann", None, "win"), SeatRow("Bob", None, "loss"), SeatRow("Cid", None, "loss")),
        (
            MarqueRow("Ann", "Bob", 6, "none"),
            MarqueRow("Cid", "Ann", 12, "petite"),
            MarqueRow("Ann", "Cid", 18, "grande"),
            MarqueRow("Bob", "Cid", None),
        ),
    )
    t = compute_standings([g])["tables"]["a-ecrire"]
    rows = {r["player"]: r for r in t["players"]}
    assert (rows["Ann"]["marques_won"], rows["Ann"]["marques_lost"]) == (2, 1)
    assert (rows["Ann"]["value_won"], rows["Ann"]["value_lost"], rows["Ann"]["net_value"]) == (24, 12, 12)
    assert rows["Ann"]["bredouilles_won"] == 1 and rows["Cid"]["bredouilles_won"] == 1
    assert rows["Cid"]["net_value"] == 12 - 18 and rows["Bob"]["net_value"] == -6
    assert sum(r["net_value"] for r in t["players"]) == 0  # the settlement balances
    # Bob and Cid both -6 and one marqué won: Bob lost fewer
    assert [r["player"] for r in t["players"]] == ["Ann", "Bob", "Cid"]
    cells = t["crosstable"]["cells"]
    assert cells["Ann"]["Cid"] == {"marques_won": 1, "marques_lost": 1, "net_value": 6}
    assert cells["Cid"]["Ann"]["net_value"] == -6


def _club_db(tmp_path: Path) -> Path:
    recs = selfplay_records(4, seed=11)
    names = [("Jean Dupont", "Marie Martin"), ("Marie Martin", "Élise Bérard"), ("Jean Dupont", "Élise Bérard")]
    games = [
        copy_record(r, A=a, B=b, Date=f"2024.0{i + 1}.05", Round=str(i + 1))
        for i, (r, (a, b)) in enumerate(zip(recs, names))
    ]
    games[0] = with_table_talk(games[0], ecoles=[(3, "B", 4, "par trop")])
    ecrire = as_marques(
        copy_record(recs[3], A="Jean Dupont", B="Marie Martin", Date="2025.01.10", Round="9"),
        [MarqueResult("A", 6, 2, "none", False, 6), MarqueResult("B", 6, 0, "petite", False, 12)],
    )
    db_path = tmp_path / "club.db"
    rep = import_records(db_path, [write_archive(tmp_path / "a.trn", [*games, ecrire])], verify=False)
    assert rep.failures == [] and rep.added == 4
    return db_path


def test_standings_from_the_database_and_the_command(tmp_path: Path) -> None:
    db_path = _club_db(tmp_path)
    db = open_db(db_path, create=False, readonly=True)
    rows = standing_games(db)
    assert len(rows) == 4 and [g.kind for g in rows] == ["douze-trous"] * 3 + ["a-ecrire"]
    assert standing_games(db, season="2025")[0].marques == (
        MarqueRow("Jean Dupont", "Marie Martin", 6, "none"),
        MarqueRow("Marie Martin", "Jean Dupont", 12, "petite"),
    )
    assert len(standing_games(db, date_from="2024-02", date_to="2024-03")) == 2
    first = rows[0]
    by = {s.player: s for s in first.seats}
    claimant = first.seats[1].player  # B claimed the école, A made it
    assert by[claimant].ecoles_claimed == 1 and by[first.seats[0].player].ecoles_made_points == 4
    db.close()
    run = CliRunner().invoke
    res = run(cli, ["standings", str(db_path), "--season", "2024", "--json"])
    assert res.exit_code == 0, res.output
    st = json.loads(res.output)
    assert st["games"] == 3 and list(st["tables"]) == ["douze-trous"]
    assert st["filter"] == {"season": "2024", "from": None, "to": None}
    t = st["tables"]["douze-trous"]
    assert sum(r["wins"] for r in t["players"]) == 3 and sum(r["games"] for r in t["players"]) == 6
    res = run(cli, ["standings", str(db_path), "--lang", "fr"])
    assert res.exit_code == 0 and "Partie à écrire" in res.output and "Tableau croisé" in res.output
    res = run(cli, ["standings", str(db_path), "--lang", "en"])
    assert res.exit_code == 0 and "Partie à écrire (1 game)" in res.output and "Crosstable" in res.output
    assert "Élise Bérard" in res.output
    res = run(cli, ["standings", str(db_path), "--from", "yesterday"])
    assert res.exit_code == 2
    res = run(cli, ["standings", str(tmp_path / "none.db")])
    assert res.exit_code == 2 and "Traceback" not in res.output
