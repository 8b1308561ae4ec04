"""RULES.md §11 worked examples about scoring (E5-E28, E32, E35-E37, E45, E46).

The books' positions are often partial; each test completes them with checkers that
do not interfere, and says where they are.  Points are in each side's own frame;
``make(mover, other)`` puts the roller first.
"""

from __future__ import annotations

from dataclasses import replace

from scoring_helpers import ALL_ROLLS, events, hits, make, weight

from trictrac.replay.rules.analyse import analyse
from trictrac.replay.rules.moves import legal_plays
from trictrac.replay.rules.profiles import DEFAULT_PROFILE
from trictrac.replay.rules.scoring import next_position, position_events, score_play, score_roll

# B non-interfering in his own retour (his 14..18 = the mover's 11..7): no lone
# checker, no coin, cannot make his petit or grand jan any more, so none of the
# mover's tables is closed (RULES.md §3.8 P3).
B_AWAY = {14: 3, 15: 3, 16: 3, 17: 3, 18: 3}


# --- special jans (RULES.md §4.6) -------------------------------------------------


def test_E5_003_292_jan_de_deux_tables() -> None:
    # B has not his coin: B all on his talon.
    pos = make({1: 13, 7: 1, 9: 1}, {1: 15})
    for roll in ((6, 3), (5, 4)):
        assert events(score_roll(pos, roll)) == [("mover", "jan-de-deux-tables", 1, 4, None, None)]
    for roll in ((5, 3), (6, 4)):  # the coin directly / by puissance: no jan
        assert events(score_roll(pos, roll)) == []
    # each throw has 2 chances (6-3 and 5-4 give the jan)
    assert analyse(pos)["chances"].get("jan-de-deux-tables") == 4
    # B holding his coin: contre-jans, B +4
    held = make({1: 13, 7: 1, 9: 1}, {1: 13, 12: 2})
    for roll in ((6, 3), (5, 4)):
        sc = score_roll(held, roll)
        assert events(sc) == [("other", "contre-jan-de-deux-tables", 1, 4, None, None)]
        assert (sc.mover, sc.other) == (0, 4)


def test_E5_003_124_deux_tables_once_per_player() -> None:
    pos = make({1: 13, 7: 1, 9: 1}, {1: 15}, mover_jans=frozenset({"jan-de-deux-tables"}))
    assert events(score_roll(pos, (6, 3))) == []


def test_E6_003_45_battre_le_coin() -> None:
    # B's coin empty (B all on his talon); A's other checkers on his talon.
    coin = ("mover", "battre-le-coin", 1)
    sc = score_roll(make({12: 2, 7: 1, 9: 1, 1: 11}, {1: 15}), (6, 4))
    assert [e[:4] for e in events(sc)] == [coin + (4,)]
    assert events(sc)[0][4] == 13  # target: the opponent's coin
    assert [e[:4] for e in events(score_roll(make({12: 2, 9: 2, 1: 11}, {1: 15}), (4, 4)))] == [coin + (6,)]
    assert [e[:4] for e in events(score_roll(make({12: 3, 7: 1, 1: 11}, {1: 15}), (6, 1)))] == [coin + (4,)]
    # the two checkers holding the coin do not count (K2)
    assert events(score_roll(make({12: 2, 7: 1, 1: 12}, {1: 15}), (6, 1))) == []
    assert [e[:4] for e in events(score_roll(make({12: 4, 1: 11}, {1: 15}), (1, 1)))] == [coin + (6,)]
    # B holding his coin: never (K1)
    assert events(score_roll(make({12: 2, 7: 1, 9: 1, 1: 11}, {12: 2, 1: 13}), (6, 4)), "battre-le-coin") == []


def test_E7_003_123_jan_de_trois_coups() -> None:
    pos = make({1: 11, 2: 1, 3: 1, 4: 1, 7: 1}, {1: 15}, mover_coups=2, other_coups=2)
    sc = score_roll(pos, (5, 4))
    assert events(sc) == [("mover", "jan-de-trois-coups", 1, 4, None, None)]
    # A may then make a case on 8 with 3/8 4/8 (he is not obliged to abattre)
    assert any(p.result[8] == 2 for p in legal_plays(pos, (5, 4)).plays)
    assert events(score_roll(pos, (6, 5))) == []
    # not the third throw: nothing
    assert events(score_roll(make({1: 11, 2: 1, 3: 1, 4: 1, 7: 1}, {1: 15}, mover_coups=3), (5, 4))) == []
    # next_position records the jan for the "once" limits
    play = next(p for p in legal_plays(pos, (5, 4)).plays if p.result[8] == 2)
    after = next_position(pos, (5, 4), play)
    assert "jan-de-trois-coups" in after.other_jans and after.other_coups == 3 and after.turn == "B"


def test_E8_003_126_jan_de_mezeas() -> None:
    pos = make({1: 13, 12: 2}, {1: 15})
    assert events(score_roll(pos, (6, 1))) == [("mover", "jan-de-mezeas", 1, 4, None, None)]
    assert events(score_roll(pos, (1, 1))) == [("mover", "jan-de-mezeas", 1, 6, None, None)]
    assert events(score_roll(pos, (6, 5))) == []
    held = make({1: 13, 12: 2}, {1: 13, 12: 2})
    sc = score_roll(held, (6, 1))
    assert events(sc) == [("other", "contre-jan-de-mezeas", 1, 4, None, None)] and sc.other == 4
    assert events(score_roll(held, (1, 1))) == [("other", "contre-jan-de-mezeas", 1, 6, None, None)]
    # "un seul joueur peut le faire, une seule fois" (003 §126)
    done = make({1: 13, 12: 2}, {1: 15}, mover_jans=frozenset({"jan-de-mezeas"}))
    assert events(score_roll(done, (6, 1))) == []


# --- filling and conserving (RULES.md §4.5) ----------------------------------------


def _fills(pos, kind: str = "petit-jan") -> dict[tuple[int, int], int]:
    out = {}
    for r in ALL_ROLLS:
        evs = events(score_roll(pos, r), kind)
        if evs:
            assert len(evs) == 1 and evs[0][5] == "remplir"
            out[r] = evs[0][3]
    return out


def test_E9_003_53_one_case_one_way() -> None:
    pos = make({1: 2, 2: 4, 3: 2, 4: 4, 5: 3}, {1: 15})  # B all on his talon
    assert _fills(pos) == {(4, 2): 4, (4, 1): 4, (2, 1): 4, (4, 4): 6, (2, 2): 6}


def test_E10_003_297_fill_one_demi_case() -> None:
    pos = make({1: 4, 2: 3, 3: 2, 4: 3, 5: 2, 6: 1}, {1: 15})  # B all on his talon
    f = _fills(pos)
    assert set(ALL_ROLLS) - set(f) == {(6, 6), (6, 3), (6, 1), (3, 3)}
    assert sum(weight(r) for r in f) == 30
    assert f[(4, 1)] == 8 and f[(5, 4)] == 8 and f[(4, 2)] == 8
    assert f[(2, 2)] == 12 and f[(5, 5)] == 6 and f[(3, 1)] == 4 and f[(1, 1)] == 6
    assert analyse(pos)["chances"]["petit-jan"] == 30
    moved = make({1: 3, 2: 3, 3: 3, 4: 3, 5: 2, 6: 1}, {1: 15})
    f2 = _fills(moved)
    assert set(ALL_ROLLS) - set(f2) == {(6, 6), (6, 1)}
    assert sum(weight(r) for r in f2) == 33


def test_E11_003_109_fill_then_privilege_de_la_bande() -> None:
    pos = make({24: 3, 23: 3, 22: 1, 21: 2, 20: 3, 19: 2, 18: 1}, B_AWAY)
    sc = score_roll(pos, (5, 4))
    assert events(sc) == [("mover", "jan-de-retour", 1, 4, None, "remplir")]
    texts = {p.text() for p in legal_plays(pos, (5, 4)).plays}
    assert "18/22 20/off" in texts or "20/off 18/22" in texts


def test_E12_003_110_conserve_by_bearing_off() -> None:
    pos = make({24: 3, 23: 2, 22: 2, 21: 2, 20: 2, 19: 4}, B_AWAY)
    assert events(score_roll(pos, (6, 6))) == [("mover", "jan-de-retour", 1, 6, None, "conserver")]
    assert events(score_roll(pos, (6, 1))) == [("mover", "jan-de-retour", 1, 4, None, "conserver")]


def test_E13_003_110_last_checker_enters_then_off() -> None:
    pos = make({24: 2, 23: 3, 22: 2, 21: 2, 20: 2, 19: 3, 18: 1}, B_AWAY)
    assert events(score_roll(pos, (6, 6))) == [("mover", "jan-de-retour", 1, 6, None, "conserver")]
    assert all(p.result[18] == 0 and p.result[25] == 1 for p in legal_plays(pos, (6, 6)).plays)


def test_E14_003_110_fill_then_bear_off() -> None:
    pos = make({24: 2, 23: 1, 22: 2, 21: 3, 20: 2, 19: 4, 18: 1}, B_AWAY)
    assert events(score_roll(pos, (6, 5))) == [("mover", "jan-de-retour", 1, 4, None, "remplir")]


def test_E15_003_113_fill_with_one_number() -> None:
    pos = make({12: 2, 24: 3, 23: 2, 22: 1, 21: 3, 20: 2, 19: 2}, B_AWAY)
    sc = score_roll(pos, (6, 1))
    assert events(sc) == [
        ("mover", "jan-de-retour", 1, 4, None, "remplir"),
        ("other", "impuissance", 1, 2, None, None),
    ]
    assert (sc.mover, sc.other) == (4, 2)


def test_E16_003_114_remplir_en_passant() -> None:
    """Corrected for RULES.md §3.7 M13: "Pour qu'un nombre d'un coup remplisse, il faut
    que l'autre nombre puisse se jouer sans rompre" (003 §398); §114 names the case and
    states no gain.  Scored 4 only under switch D33."""
    pos = make({24: 4, 23: 3, 22: 2, 21: 2, 20: 1, 19: 2, 17: 1}, B_AWAY)
    sc = score_roll(pos, (6, 3))
    assert events(sc) == []
    plays = legal_plays(pos, (6, 3)).plays
    passant = [p for p in plays if p.text() == "17/20 19/off"]
    assert len(passant) == 1 and passant[0].result[19] == 1  # the 6 breaks
    assert score_play(pos, (6, 3), passant[0]).mover == 0
    d33 = replace(DEFAULT_PROFILE, score_remplir_en_passant=True)
    assert events(score_roll(pos, (6, 3), d33)) == [("mover", "jan-de-retour", 1, 4, None, "remplir")]
    plays = legal_plays(pos, (6, 3), d33).plays
    assert len(plays) == 1 and score_play(pos, (6, 3), plays[0], d33).mover == 4


def test_E17_003_107_conserve_par_impuissance() -> None:
    pos = make({12: 2, 24: 2, 23: 2, 22: 2, 21: 2, 20: 2, 19: 3}, B_AWAY)
    sc = score_roll(pos, (6, 1))
    assert events(sc) == [
        ("mover", "jan-de-retour", 1, 4, None, "conserver"),
        ("other", "impuissance", 1, 2, None, None),
    ]


def test_E18_003_107_conserve_par_impuissance_and_hit_from_coin() -> None:
    # B: the lone checker on his 10 (A's 15), the rest on his 11 and 14-17 (A's 14, 11-8).
    pos = make({12: 2, 24: 2, 23: 2, 22: 2, 21: 2, 20: 3, 19: 2}, {10: 1, 11: 3, 14: 3, 15: 3, 16: 3, 17: 2})
    sc = score_roll(pos, (6, 3))
    assert events(sc) == [
        ("mover", "battre-a-vrai", 1, 2, 15, None),  # [Derived] the 3 from the coin
        ("mover", "jan-de-retour", 1, 4, None, "conserver"),
        ("other", "impuissance", 1, 2, None, None),
    ]
    assert (sc.mover, sc.other) == (6, 2)


def test_E19_003_201_fill_by_tout_d_une() -> None:
    # grand jan missing one on 8; the rest on the talon; B all on his talon
    pos = make({1: 4, 7: 2, 8: 1, 9: 2, 10: 2, 11: 2, 12: 2}, {1: 15})
    assert events(score_roll(pos, (6, 1)), "grand-jan") == [("mover", "grand-jan", 1, 4, None, "remplir")]
    tout = next(p for p in legal_plays(pos, (6, 1)).plays if p.text() == "1/8")
    assert score_play(pos, (6, 1), tout).mover == 4


def test_E46_001_59_fill_two_ways() -> None:
    # grand jan missing one on 8, surplus on 6 and 2; others on the talon
    pos = make({1: 2, 2: 1, 6: 1, 7: 2, 8: 1, 9: 2, 10: 2, 11: 2, 12: 2}, {1: 15})
    assert events(score_roll(pos, (4, 2)), "grand-jan") == [("mover", "grand-jan", 2, 8, None, "remplir")]
    not_filling = next(p for p in legal_plays(pos, (4, 2)).excluded() if p[0].text() == "1/7")
    assert events(score_play(pos, (4, 2), not_filling[0]), "grand-jan") == []
    # (the same 4-2 also beats B's empty coin from 9 and 11: RULES.md §4.4)
    assert events(score_roll(pos, (4, 2)), "battre-le-coin") == [("mover", "battre-le-coin", 1, 4, 13, None)]


# --- hitting (RULES.md §4.3) -------------------------------------------------------


def test_E20_003_131_hit_one_two_three_ways() -> None:
    # A's others on his talon; B's lone checker on his 10 (A's 15), the rest on his talon
    pos = make({1: 9, 8: 1, 9: 1, 11: 2, 12: 2}, {10: 1, 1: 14})
    assert hits(position_events(pos, (4, 1))) == {("mover", 15): 2}
    assert hits(position_events(pos, (3, 1))) == {("mover", 15): 4}
    assert hits(position_events(pos, (4, 3))) == {("mover", 15): 6}
    assert hits(position_events(pos, (5, 1))) == {("mover", 15): 2}


def test_E21_000_790_hits_on_three_checkers() -> None:
    # Jules: 1, 3, 7, 9, 10 and his coin; Charles: lone on J-frame 15, 17, 6, the rest on his talon
    pos = make({1: 6, 3: 2, 7: 2, 9: 2, 10: 1, 12: 2}, {10: 1, 8: 1, 19: 1, 1: 12})
    evs = position_events(pos, (5, 3))
    assert hits(evs) == {("mover", 15): 6, ("mover", 17): 4, ("mover", 6): 8}
    assert [(e.target, e.ways) for e in evs] == [(6, 2), (15, 3), (17, 2)]
    assert score_roll(pos, (5, 3)).mover == 18


def _B_grand_jan_vs(a_points: dict[int, int]):
    # B (the roller) has his grand jan and 3 checkers on his talon (too far to hit)
    return make({1: 3, 7: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 2}, a_points)


def _hit_table(pos) -> dict[tuple[int, int], dict]:
    return {r: hits(position_events(pos, r)) for r in ALL_ROLLS}


def test_E22_003_334_vrai_and_faux_chances() -> None:
    pos = _B_grand_jan_vs({1: 4, 6: 1, 7: 2, 8: 2, 9: 2, 10: 2, 12: 2})
    t = _hit_table(pos)
    vrai = {r: h[("mover", 19)] for r, h in t.items() if ("mover", 19) in h}
    faux = {r: h[("other", 19)] for r, h in t.items() if ("other", 19) in h}
    assert vrai == {(6, 5): 4, (5, 4): 4, (5, 3): 4, (5, 2): 4, (5, 5): 6}
    assert faux == {(6, 4): 4, (6, 3): 4, (6, 2): 4, (6, 1): 4, (4, 3): 4, (6, 6): 6, (4, 4): 6}
    assert sum(weight(r) for r in vrai) == 9 and sum(weight(r) for r in faux) == 12


def test_E23_003_334_ninth_point_empty() -> None:
    pos = _B_grand_jan_vs({1: 4, 6: 1, 7: 2, 8: 2, 9: 2, 11: 2, 12: 2})
    t = _hit_table(pos)
    vrai = {r: h[("mover", 19)] for r, h in t.items() if ("mover", 19) in h}
    faux = {r: h[("other", 19)] for r, h in t.items() if ("other", 19) in h}
    assert vrai == {(6, 4): 4, (5, 4): 4, (4, 3): 4, (4, 4): 6}
    assert sum(weight(r) for r in vrai) == 7
    assert sum(weight(r) for r in faux) == 14
    assert faux[(6, 6)] == 6 and faux[(5, 5)] == 6 and all(v == 4 for r, v in faux.items() if r[0] != r[1])


def test_E24_003_335_lone_checker_on_fourth() -> None:
    pos = _B_grand_jan_vs({1: 4, 5: 1, 7: 2, 8: 2, 9: 2, 10: 2, 12: 2})
    t = _hit_table(pos)
    vrai = {r: h[("mover", 20)] for r, h in t.items() if ("mover", 20) in h}
    faux = {r: h[("other", 20)] for r, h in t.items() if ("other", 20) in h}
    assert vrai == {(6, 5): 4, (6, 4): 4, (6, 3): 4, (6, 2): 4, (6, 6): 6}
    assert faux == {(5, 4): 4, (5, 3): 4, (5, 5): 6, (4, 4): 6}


def test_E25_003_338_two_lone_checkers() -> None:
    pos = _B_grand_jan_vs({1: 3, 5: 1, 6: 1, 7: 2, 8: 2, 9: 2, 10: 2, 12: 2})
    t = _hit_table(pos)
    assert t[(6, 5)] == {("mover", 20): 4, ("mover", 19): 4}
    assert t[(4, 4)] == {("other", 20): 6, ("other", 19): 6}
    assert t[(6, 6)] == {("mover", 20): 6, ("other", 19): 6}
    assert t[(5, 5)] == {("mover", 19): 6, ("other", 20): 6}
    for r in ((6, 4), (6, 3), (6, 2)):
        assert t[r] == {("mover", 20): 4, ("other", 19): 4}
    for r in ((5, 4), (5, 3)):
        assert t[r] == {("mover", 19): 4, ("other", 20): 4}
    # 6-1 and 4-3: the sum 7 from B's coin onto A's 6, both repos closed
    assert t[(6, 1)] == {("other", 19): 4} and t[(4, 3)] == {("other", 19): 4}
    assert t[(5, 2)] == {("mover", 19): 4}


def test_E26_003_296_gains_of_both_players() -> None:
    # B (roller) B{1:7, 8:2, 9:2, 10:2, 12:2}; A after taking his coin with 5-4
    pos = make({1: 7, 8: 2, 9: 2, 10: 2, 12: 2}, {1: 7, 7: 1, 8: 1, 9: 2, 10: 2, 12: 2})
    gains = {}
    receipts = {}
    for r in ALL_ROLLS:
        h = hits(position_events(pos, r))
        g = sum(v for (side, _t), v in h.items() if side == "mover")
        o = sum(v for (side, _t), v in h.items() if side == "other")
        if g:
            gains[r] = g
        if o:
            receipts[r] = o
    assert gains == {
        (6, 3): 6,
        (6, 2): 6,
        (5, 4): 6,
        (6, 6): 4,
        (6, 5): 4,
        (6, 4): 4,
        (6, 1): 4,
        (5, 5): 4,
        (5, 3): 4,
        (5, 2): 4,
        (5, 1): 4,
        (4, 4): 4,
        (4, 3): 2,
        (4, 2): 2,
        (3, 2): 2,  # omitted by the text (RULES.md §10 D31)
    }
    assert receipts == {(5, 5): 4, (5, 3): 2, (4, 4): 4, (4, 1): 2, (3, 3): 4}


def test_E27_003_186_fill_and_hit_a_faux() -> None:
    pos = make(
        {1: 1, 2: 1, 3: 1, 6: 1, 7: 2, 8: 1, 9: 2, 10: 2, 11: 2, 12: 2},
        {6: 1, 7: 2, 8: 2, 9: 2, 10: 2, 11: 3, 12: 3},
    )
    sc = score_roll(pos, (4, 3))
    assert events(sc) == [
        ("other", "battre-a-faux", 1, 4, 19, None),
        ("mover", "grand-jan", 1, 4, None, "remplir"),
    ]
    assert (sc.mover, sc.other) == (4, 4)


def test_E28_001_55_hit_and_contre_jan() -> None:
    # B throws: B{1:13, 7:1, 9:1}; A{1:12, 7:1, 12:2} holds his coin
    pos = make({1: 13, 7: 1, 9: 1}, {1: 12, 7: 1, 12: 2})
    sc = score_roll(pos, (6, 3))
    assert events(sc) == [
        ("other", "contre-jan-de-deux-tables", 1, 4, None, None),
        ("mover", "battre-a-vrai", 1, 2, 18, None),
    ]
    assert (sc.mover, sc.other) == (2, 4)


def test_E32_003_331_sonnez_hits_everywhere() -> None:
    # B holds his coin; lone B checkers on his 1, 2, 3, 5, 6, 7; seven on his 8.
    # A: 6, 7, 11, 14, 16 (two each), coin 3, talon 2.
    pos = make({1: 2, 6: 2, 7: 2, 11: 2, 12: 3, 14: 2, 16: 2}, {1: 1, 2: 1, 3: 1, 5: 1, 6: 1, 7: 1, 8: 7, 12: 2})
    h = hits(position_events(pos, (6, 6)))
    assert h == {
        ("mover", 18): 8,
        ("mover", 20): 6,
        ("mover", 22): 6,
        ("mover", 24): 6,
        ("other", 19): 6,
        ("other", 23): 6,
    }
    assert sum(v for (s, _), v in h.items() if s == "mover") == 26


# --- sortie, later relevé, école-related scoring -----------------------------------


def test_E35_003_163_sortie_values() -> None:
    # B in his own retour (A's 1..5), no lone checker
    far = {19: 3, 20: 3, 21: 3, 22: 3, 23: 3}
    pos = make({19: 1, 23: 1}, far, mover_off=13)
    sc = score_roll(pos, (6, 6))
    assert events(sc) == [("mover", "sortie", 1, 6, None, None)]
    pos2 = make({22: 1, 23: 1}, far, mover_off=13)
    assert events(score_roll(pos2, (3, 2))) == [("mover", "sortie", 1, 4, None, None)]
    # a play that does not bear off both (22/24, then 24/off by the excédant 3) scores none
    for p in legal_plays(pos2, (3, 2)).plays:
        want = 4 if p.result[25] == 15 else 0
        assert score_play(pos2, (3, 2), p).mover == want


def test_E36_003_300_sortie_then_trois_coups() -> None:
    far = {19: 3, 20: 3, 21: 3, 22: 3, 23: 3}
    sortie = score_roll(make({22: 1, 23: 1}, far, mover_off=13), (3, 2)).mover
    # new relevé: flèches 1, 2, 4, 5 after two throws, then 6-3 = flèches 3 and 6
    trois = score_roll(make({1: 11, 2: 1, 3: 1, 5: 1, 6: 1}, {1: 15}, mover_coups=2), (6, 3)).mover
    assert sortie + trois == 8


def test_E37_000_734_sonnez_breaks_and_hits_a_faux() -> None:
    # Charles (roller) has his grand jan, coin 5; Jules holds his coin, cases on his
    # 7, 8, 9, 11, a lone checker on his 6, four on his talon (no petit jan possible).
    pos = make({7: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 5}, {1: 4, 6: 1, 7: 2, 8: 2, 9: 2, 11: 2, 12: 2})
    plays = legal_plays(pos, (6, 6)).plays
    assert [p.text() for p in plays] == ["9/21"]  # forced to break
    sc = score_roll(pos, (6, 6))
    assert events(sc) == [("other", "battre-a-faux", 1, 6, 19, None)]
    assert (sc.mover, sc.other) == (0, 6)


def test_E45_001_62_unplayable_sonnez_conserves_and_hits() -> None:
    # A: grand jan, 5 on the coin.  B holds his coin; lone B checkers on his 8 and 10
    # (A's 17 and 15); B cases on his 1, 3, 5 (A's 24, 22, 20) block the 12s.
    pos = make({7: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 5}, {12: 2, 10: 1, 8: 1, 1: 5, 3: 3, 5: 3})
    ps = legal_plays(pos, (6, 6))
    assert ps.unplayable == (6, 6)
    sc = score_roll(pos, (6, 6))
    assert events(sc) == [
        ("mover", "battre-a-vrai", 1, 4, 15, None),
        ("mover", "battre-a-vrai", 1, 4, 17, None),
        ("mover", "grand-jan", 1, 6, None, "conserver"),
        ("other", "impuissance", 2, 4, None, None),
    ]
    assert sc.mover == 14


# --- the throws behind the ledger examples (their positions are not given: any
# position producing the stated events will do; these are constructed) ------------


def test_E31_000_534_one_vrai_two_faux() -> None:
    # B's sonnez: à vrai on A's 5th flèche (6), à faux on two checkers (2 x 6).
    # Roller: talon 9, cases on 7, 11, 14; opponent holds his coin, a case on his 8,
    # lone checkers on his 2, 5, 6 (roller's 23, 20, 19), the rest on his talon.
    pos = make({1: 9, 7: 2, 11: 2, 14: 2}, {1: 8, 2: 1, 5: 1, 6: 1, 8: 2, 12: 2})
    sc = score_roll(pos, (6, 6))
    assert hits(sc.events) == {("mover", 20): 6, ("other", 19): 6, ("other", 23): 6}
    assert (sc.mover, sc.other) == (6, 12)


def test_E33_003_207_vrai_2_faux_2_and_impuissance() -> None:
    # (a) a 6-1 hits one checker à vrai (2) and another à faux (2), both second table:
    # 17 by the 6 from 11; 15 only by the 7 from 8, repos 9 and 14 on opposing cases.
    pos = make({1: 11, 8: 2, 11: 2}, {1: 9, 8: 1, 10: 1, 11: 2, 16: 2})
    sc = score_roll(pos, (6, 1))
    assert hits(sc.events) == {("mover", 17): 2, ("other", 15): 2}
    assert (sc.mover, sc.other) == (2, 2)
    # (b) conserving by impuissance gives 4 and the opponent 2 (the position of E17)
    e17 = make({12: 2, 24: 2, 23: 2, 22: 2, 21: 2, 20: 2, 19: 3}, B_AWAY)
    sc = score_roll(e17, (6, 1))
    assert (sc.mover, sc.other) == (4, 2)


def test_E34_003_176_two_hits_a_vrai_first_table() -> None:
    # 6-5 from the roller's 14 onto lone checkers on the opponent's 5 and 6 (roller's 20, 19)
    pos = make({1: 13, 14: 2}, {1: 13, 5: 1, 6: 1})
    sc = score_roll(pos, (6, 5))
    assert hits(sc.events) == {("mover", 19): 4, ("mover", 20): 4} and sc.mover == 8


def test_F12_003_85_taking_the_coin_fills_the_grand_jan() -> None:
    # the coin is the last missing case of the grand jan (RULES.md §4.5 F12): one way
    direct = make({1: 3, 6: 2, 7: 2, 8: 2, 9: 2, 10: 2, 11: 2}, {1: 15})
    assert events(score_roll(direct, (6, 6))) == [("mover", "grand-jan", 1, 6, None, "remplir")]
    # by puissance (C3): two checkers from 7 would reach B's empty coin; none on 6
    puissance = make({1: 3, 7: 4, 8: 2, 9: 2, 10: 2, 11: 2}, {1: 15})
    plays = legal_plays(puissance, (6, 6)).plays
    assert [p.result[12] for p in plays] == [2]
    assert events(score_roll(puissance, (6, 6))) == [("mover", "grand-jan", 1, 6, None, "remplir")]


def test_sortie_003_118_no_impuissance_for_the_number_left_over() -> None:
    # the last checker borne off by the 6; the 5 has nothing left to move
    pos = make({24: 1}, {19: 3, 20: 3, 21: 3, 22: 3, 23: 3}, mover_off=14)
    ps = legal_plays(pos, (6, 5))
    assert ps.unplayable == (5,)
    sc = score_roll(pos, (6, 5))
    assert events(sc) == [("mover", "sortie", 1, 4, None, None)] and sc.other == 0
