"""What a club asks its database (club/queries.py), on a small club built from bot games
with names, dates, écoles, comments and marqués written in."""

from __future__ import annotations

from pathlib import Path

import pytest
from club_helpers import BERARD, DUPONT, MARTIN, club_games, club_records, result_of, write_archive
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trictrac.club import queries as q
from trictrac.club.db import GameNotFound, open_db
from trictrac.club.importer import import_records

pytest.importorskip("trictrac.notation.writer")


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("club")
    path = write_archive(tmp / "club.trn", club_records())
    rep = import_records(tmp / "club.db", [path], verify=False)
    assert rep.imported == 4, rep.failures
    database = open_db(tmp / "club.db", create=False)
    yield database, rep.game_ids, tmp
    database.close()


def test_list_games_filters(club) -> None:
    db, ids, _ = club
    assert [g["id"] for g in q.list_games(db)] == ids  # oldest first
    assert {g["id"] for g in q.list_games(db, player="Marie Martin")} == {ids[0], ids[1], ids[3]}
    assert [g["id"] for g in q.list_games(db, season="2023")] == [ids[0]]
    assert [g["id"] for g in q.list_games(db, player="martin", season="2024")] == [ids[1], ids[3]]
    g1 = q.list_games(db)[0]
    w, wh, lh = result_of(club_games()[0])
    assert g1["winner"] == DUPONT and {g1["player_a"], g1["player_b"]} == {DUPONT, MARTIN}
    assert (g1["holes_a"], g1["holes_b"]) == ((wh, lh) if w == "A" else (lh, wh))


def test_player_results_by_season(club) -> None:
    db, _, _ = club
    res = q.player_results(db, "Jean")
    assert res["player"] == DUPONT
    s = {row["season"]: row for row in res["seasons"]}
    (_, w1, l1), (_, w2, l2), (_, w3, l3) = (result_of(g) for g in club_games()[:3])
    y23 = s["2023"]
    assert (y23["games"], y23["wins"], y23["losses"], y23["holes_for"], y23["holes_against"]) == (1, 1, 0, w1, l1)
    # 2024: beat Martin, lost to Bérard, and lost the partie à écrire by value (won 2
    # marqués of 3 but lost 24 against 12 + 5); its holes are counted by marqué.
    assert (s["2024"]["games"], s["2024"]["wins"], s["2024"]["losses"]) == (3, 1, 2)
    assert (s["2024"]["holes_for"], s["2024"]["holes_against"]) == (w2 + l3, l2 + w3)
    assert (s["2024"]["marques_won"], s["2024"]["marques_lost"], s["2024"]["marque_value"]) == (2, 1, -7)
    assert len(q.player_results(db, DUPONT, season="2024")["games"]) == 3


def test_head_to_head(club) -> None:
    db, _, _ = club
    rows = {r["opponent"]: r for r in q.head_to_head(db, DUPONT)}
    assert set(rows) == {MARTIN, BERARD}
    m = rows[MARTIN]
    assert (m["games"], m["wins"], m["losses"]) == (3, 2, 1)
    assert (m["marques_won"], m["marques_lost"], m["won_in_bredouille"], m["lost_in_bredouille"]) == (2, 1, 1, 1)
    assert (rows[BERARD]["games"], rows[BERARD]["losses"]) == (1, 1)
    other_side = q.head_to_head(db, MARTIN, DUPONT)
    assert len(other_side) == 1 and (other_side[0]["wins"], other_side[0]["losses"]) == (1, 2)
    none = q.head_to_head(db, MARTIN, BERARD)
    assert none[0]["games"] == 0


def test_ecoles_made_and_claimed(club) -> None:
    db, _, _ = club
    res = q.ecoles(db)
    assert [(e["claimant"], e["made_by"], e["points"]) for e in res["claimed"]] == [
        (DUPONT, MARTIN, 4),
        (DUPONT, MARTIN, 2),
        (BERARD, DUPONT, 4),
    ]
    by = {r["player"]: r for r in res["by_player"]}
    assert (by[DUPONT]["claimed"], by[DUPONT]["claimed_points"], by[DUPONT]["made"], by[DUPONT]["made_points"]) == (
        2,
        6,
        1,
        4,
    )
    assert (by[MARTIN]["claimed"], by[MARTIN]["made"], by[MARTIN]["made_points"]) == (0, 2, 6)
    assert (by[BERARD]["claimed"], by[BERARD]["made"]) == (1, 0)
    mine = q.ecoles(db, player=MARTIN, season="2024")
    assert [e["points"] for e in mine["claimed"]] == [2]


def test_bredouille_marques(club) -> None:
    db, ids, _ = club
    rows = q.bredouille_marques(db)
    assert [(r["winner"], r["loser"], r["bredouille"], r["value"]) for r in rows] == [
        (DUPONT, MARTIN, "petite", 12),
        (MARTIN, DUPONT, "grande", 24),
    ]
    assert all(r["game_id"] == ids[3] for r in rows)
    assert [r["bredouille"] for r in q.bredouille_marques(db, player=MARTIN)] == ["grande"]
    assert q.bredouille_marques(db, season="2023") == []


def test_search_names_and_comments_accents_folded(club) -> None:
    db, ids, _ = club
    hits = q.search(db, "ecole", kinds=("player", "comment"))
    assert [(h["kind"], h["game_id"]) for h in hits] == [("comment", ids[0])]
    assert hits[0]["coup"] is not None
    claims = [h for h in q.search(db, "ecole") if h["kind"] == "ecole"]  # claims, with or without a reason
    assert claims and all(h["text"].split()[0].startswith(("A:école", "B:école")) for h in claims)
    assert [h["text"] for h in q.search(db, "berard")] == [BERARD]
    assert [h["text"] for h in q.search(db, "dup")] == [DUPONT]
    assert q.search(db, "bredouille")[0]["game_id"] == ids[1]
    assert q.search(db, '"; DROP TABLE games; --') == []
    assert q.search(db, "") == []


def test_players_and_lookup(club) -> None:
    db, _, _ = club
    ps = {p["name"]: p for p in q.list_players(db)}
    assert (ps[DUPONT]["games"], ps[DUPONT]["wins"], ps[DUPONT]["losses"]) == (4, 2, 2)
    assert (ps[DUPONT]["ecoles_claimed"], ps[DUPONT]["ecoles_made"]) == (2, 1)
    assert q.find_player(db, "jean dupont")["name"] == DUPONT
    with pytest.raises(q.PlayerNotFound):
        q.find_player(db, "Nobody")
    with pytest.raises(q.PlayerNotFound, match="ambiguous"):
        q.find_player(db, "")  # every name matches the empty prefix


def test_game_detail_by_prefix(club) -> None:
    db, ids, _ = club
    g = q.game_detail(db, ids[0][:8])
    assert g["id"] == ids[0] and sorted(g["players"].items()) == [("A", g["headers"]["A"]), ("B", g["headers"]["B"])]
    assert set(g["players"].values()) == {DUPONT, MARTIN}
    assert g["headers"]["Date"] == "2023.11.05"
    assert [a["kind"] for c in g["coups"] for a in c["actions"]].count("ecole") == 1
    assert g["comments"][0]["text"] == "Belle école de Jean"
    g4 = q.game_detail(db, ids[3])
    assert [m["bredouille"] for m in g4["marques"]] == ["petite", "grande", "none"]
    with pytest.raises(GameNotFound):
        q.game_detail(db, "ffffffffff")
    with pytest.raises(GameNotFound):
        q.game_detail(db, "zz")


def test_club_stats(club) -> None:
    db, _, _ = club
    s = q.club_stats(db, corpus=False)
    assert (s["games"], s["players"], s["ecoles_claimed"], s["bredouille_marques"], s["marques"]) == (4, 3, 3, 2, 3)
    assert [x["season"] for x in s["seasons"]] == ["2023", "2024"]
    assert s["comments"] == 2


def test_club_season_rule(tmp_path: Path) -> None:
    path = write_archive(tmp_path / "c.trn", club_records())
    import_records(tmp_path / "s.db", [path], verify=False, season_start_month=9)
    db = open_db(tmp_path / "s.db", create=False)
    try:
        assert len(q.list_games(db, season="2023-2024")) == 4
        # the rule is fixed when the file is created
        import_records(tmp_path / "s.db", [path], verify=False, season_start_month=1)
        assert db.conn.execute("SELECT value FROM meta WHERE key = 'season_start_month'").fetchone() == ("9",)
    finally:
        db.close()


def test_four_players_marques_by_pairs(tmp_path: Path) -> None:
    """A partie à tourner shape: each marqué names the two seats who play it; results,
    écoles and the marqué views follow the seats to the right players."""
    from club_helpers import selfplay_records, with_table_talk

    from trictrac.notation.record import MarqueResult, MarqueStart, Record, ReleveStart

    base = selfplay_records(6)[4]
    first_releve = next(i for i, e in enumerate(base.elements) if isinstance(e, ReleveStart))
    second = next(i for i, e in enumerate(base.elements) if isinstance(e, ReleveStart) and i > first_releve)
    body = with_table_talk(base, ecoles=[(0, "A", 2, None)]).elements
    els = [
        MarqueStart(1, ("A", "B")),
        *body[first_releve:second],
        MarqueResult("A", 6, 1, "petite", value=14),
        MarqueStart(2, ("C", "A")),
        ReleveStart(1),
        MarqueResult("C", 6, 0, "grande", value=26),
    ]
    rec = Record(
        headers={
            "Event": "tourner",
            "Date": "2024.06.01",
            "A": DUPONT,
            "B": MARTIN,
            "C": BERARD,
            "Partie": "a-tourner 2",
        },
        elements=els,
    )
    path = write_archive(tmp_path / "t.trn", [rec])
    rep = import_records(tmp_path / "t.db", [path], verify=False)
    assert rep.imported == 1, rep.failures
    db = open_db(tmp_path / "t.db", create=False)
    try:
        br = q.bredouille_marques(db)
        assert [(r["winner"], r["loser"], r["bredouille"]) for r in br] == [
            (DUPONT, MARTIN, "petite"),
            (BERARD, DUPONT, "grande"),
        ]
        res = {r["seat"]: r for r in q.game_detail(db, rep.game_ids[0])["results"]}
        assert (res["A"]["marques_won"], res["A"]["marques_lost"], res["A"]["marque_value"]) == (1, 1, -12)
        assert (res["C"]["outcome"], res["B"]["outcome"], res["A"]["outcome"]) == ("win", "loss", "loss")
        # three players: no single opponent, so no two-player head-to-head games, only marqués
        h = {r["opponent"]: r for r in q.head_to_head(db, DUPONT)}
        assert (h[MARTIN]["games"], h[MARTIN]["marques_won"], h[BERARD]["marques_lost"]) == (0, 1, 1)
        assert q.ecoles(db)["claimed"][0]["made_by"] == MARTIN
    finally:
        db.close()


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.text(max_size=40))
def test_search_and_lookup_never_raise_on_any_text(club, text: str) -> None:
    """Any user text is safe in search (FTS syntax is quoted) and in the player lookup."""
    db, _, _ = club
    hits = q.search(db, text)
    assert isinstance(hits, list) and all(h["kind"] in q.SEARCH_KINDS for h in hits)
    try:
        q.find_player(db, text)
    except q.PlayerNotFound:
        pass
