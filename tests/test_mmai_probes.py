"""The 18 probes of the mmai/trictrac anchor study, asked of OUR engine.

Source: shared/research/anchor-mmai-trictrac.md §5 (probes P1-P18; mmai deviates from
the classic books on most of them).  Each probe whose classic answer is settled by the
books is a test here, named after the probe; the expectation is re-derived from
RULES.md and the French text and cited in the docstring.

Translation of the positions (RULES.md §2.2): mmai numbers the points 1..24 from
White's view (White's talon 1, White's coin 12); White is always the mover here, so a
White point is the same number in our mover frame.  A Black point ``f`` is ``25 - f`` in
Black's own frame (``other`` of ``Position.from_points``).  The probes list only the
checkers that matter; each test says where it puts the others (on a talon, or borne
off) and why they do not interfere.
"""

from __future__ import annotations

import pytest

from trictrac.replay.rules.game import Game
from trictrac.replay.rules.ledger import Ledger, PlayerScore, ScoreState
from trictrac.replay.rules.moves import legal_plays
from trictrac.replay.rules.position import Position
from trictrac.replay.rules.scoring import CoupScore, score_play, score_roll

ROLLS = tuple((a, b) for a in range(6, 0, -1) for b in range(a, 0, -1))

#: Black far away in his own second table (his 14..18 = our 11..7): no lone checker,
#: no coin, he can make neither his petit nor his grand jan any more, so none of our
#: tables is closed (RULES.md §3.8 P3) and none of our bearing-off points is blocked.
B_AWAY = {14: 3, 15: 3, 16: 3, 17: 3, 18: 3}


def make(mover: dict[int, int], other: dict[int, int], **kw: object) -> Position:
    pos = Position.from_points(mover, other, **kw)
    assert not pos.problems(), pos.problems()
    return pos


def evs(sc: CoupScore, kind: str | None = None) -> list[tuple[object, ...]]:
    return [(e.side, e.kind, e.ways, e.points, e.how) for e in sc.events if kind is None or e.kind == kind]


def fills(pos: Position) -> dict[tuple[int, int], tuple[int, int]]:
    """{roll: (ways, points)} of every roll that fills a plein (RULES.md §4.5)."""
    out = {}
    for roll in ROLLS:
        for e in score_roll(pos, roll).events:
            if e.how == "remplir":
                out[roll] = (e.ways, e.points)
    return out


# ---------------------------------------------------------------------------------
# filling: ways (P1, P4, P5, P12, P15)
# ---------------------------------------------------------------------------------


def test_P1_last_field_made_d_emblee_is_one_way() -> None:
    """W 1..5 ×3, flèche 5 (point 6) empty; 3-2 makes the last case d'emblée: the two
    numbers bring two surplus checkers onto it, which is ONE way, 4 points (RULES.md
    §4.5 F4; 003 §53-54; 000 ~l.798 "ce ne serait toujours qu'un moyen").  mmai: 8.
    Black: all 15 on his talon (our 24), nothing to hit, nothing in reach."""
    pos = make({1: 3, 2: 3, 3: 3, 4: 3, 5: 3}, {1: 15})
    sc = score_roll(pos, (3, 2))
    assert evs(sc) == [("mover", "petit-jan", 1, 4, "remplir")]
    assert (sc.mover, sc.other) == (4, 0)


def test_P4_003_53_fig6_ten_rolls_fill_one_way_each() -> None:
    """Lelasseux fig. 6 (1..5 ×3, one surplus on each of points 1..5): "dix coups
    remplissent" — the ten simple rolls of two different numbers 1..5 — and "aucun
    doublet ne remplit" (003 §53); a case is always one way, 4 points (F4, F5).
    mmai: the same ten rolls, 8 points each.  Black on his talon, as in P1."""
    pos = make({1: 3, 2: 3, 3: 3, 4: 3, 5: 3}, {1: 15})
    expected = {(a, b): (1, 4) for a in range(5, 0, -1) for b in range(a - 1, 0, -1)}
    assert len(expected) == 10
    assert fills(pos) == expected


def test_P15_003_53_fig6_variant_five_rolls_one_way() -> None:
    """003 §53, second figure (= RULES.md E9): surplus two on flèche 1 (point 2), two
    on flèche 3 (point 4), one on flèche 4 (point 5), talon 2: "4-2, 4-1, 2-1, 4-4,
    2-2 : cinq coups", one way each (F4): 4 simple, 6 doublet.  mmai: non-doublets 8.
    Black on his talon."""
    pos = make({1: 2, 2: 4, 3: 2, 4: 4, 5: 3}, {1: 15})
    assert fills(pos) == {(4, 2): (1, 4), (4, 1): (1, 4), (2, 1): (1, 4), (4, 4): (1, 6), (2, 2): (1, 6)}


def test_P5_003_54_fig7_twelve_rolls_one_way_each() -> None:
    """Lelasseux fig. 7: two demi-cases to make (points 5 and 6 hold one each),
    surcases on the talon (1), flèches 1, 2 (1 each) and 3 (2).  003 §54 lists the
    natural order 4-4, 4-3, 4-2, 3-3, 3-2, 2-2, the inverse order 5-3, 5-2, 5-1, 4-2,
    4-1, 3-1 and the double surcase's 2-1: twelve rolls; two demi-cases covered by one
    throw are always ONE way (F4; 000 ~l.798; the two-ways reading is 001 IV only,
    switch two_demi_cases_two_ways).  mmai: 8 or 12, and 16 for 4-2.  Black on his talon."""
    pos = make({1: 3, 2: 3, 3: 3, 4: 4, 5: 1, 6: 1}, {1: 15})
    rolls = [(4, 4), (4, 3), (4, 2), (3, 3), (3, 2), (2, 2), (5, 3), (5, 2), (5, 1), (4, 1), (3, 1), (2, 1)]
    assert fills(pos) == {r: (1, 6 if r[0] == r[1] else 4) for r in rolls}


FIG8 = {1: 3, 2: 4, 3: 2, 4: 3, 5: 2, 6: 1}


@pytest.mark.parametrize(
    "roll, ways",
    [
        ((3, 1), 1),  # 003 §55 "3-1 de la somme 4" (from flèche 1)
        ((6, 2), 1),  # 003 §55 "6-2 remplit du petit"
        ((5, 1), 1),  # 003 §55 "5-1 du grand"
        ((5, 4), 2),  # 003 §56 "du cinq et du quatre"
        ((4, 1), 2),  # 003 §56 "du quatre et du quatre et un"
        ((2, 2), 2),  # 003 §56 "du deux et du deux plus deux"
        ((5, 5), 1),  # the 5 from the talon (3 there); see the docstring
        ((3, 3), 0),
        ((6, 6), 0),
        ((6, 3), 0),
        ((6, 1), 0),
    ],
)
def test_P12_003_55_fig8_ways_of_one_demi_case(roll: tuple[int, int], ways: int) -> None:
    """Lelasseux fig. 8 (talon 3, flèche 1 ×4, flèche 2 ×2, flèche 3 ×3, flèche 4 ×2,
    flèche 5 ×1): one checker missing on point 6; surplus at distances 5 (talon, one),
    4 (point 2, two) and 2 (point 4, one).  F3: each of a, b, a+b bringing a surplus
    checker onto the gap is one way (RULES.md §4.5 F3; 003 §55-56).  mmai: 3-1 → 12,
    4-1 → 12.

    The research flags 003 §55's "6-6, 6-3, 6-1, 5-5, ne remplissent pas" as doubtful,
    rightly: 5-5 brings the talon's surplus checker onto point 6 (the talon keeps 2),
    and the same book's §297, on the sister figure, lists the non-filling throws as
    "6-6, 6-3, 6-1, 3-3" — the numbers that reach no surplus are 6, 3 and 1, so 3-3
    cannot fill and 5-5 must.  "5-5" in §55 is a slip for "3-3" (30 chances fill in
    both).  Black on his talon (the other 5 of 5-5 is played 2→7 etc.)."""
    pos = make(FIG8, {1: 15})
    sc = score_roll(pos, roll)
    got = [(e.ways, e.points) for e in sc.events if e.how == "remplir"]
    value = 6 if roll[0] == roll[1] else 4
    assert got == ([(ways, ways * value)] if ways else [])


def test_P12_003_56_fig8_three_ways_after_moving_one_checker() -> None:
    """003 §56: "Si une dame de la première flèche est portée à la quatrième, 4-1
    remplit de trois façons, du petit nombre, du grand, de leur somme": 12 points."""
    pos = make({1: 3, 2: 3, 3: 2, 4: 3, 5: 3, 6: 1}, {1: 15})
    assert evs(score_roll(pos, (4, 1))) == [("mover", "petit-jan", 3, 12, "remplir")]


# ---------------------------------------------------------------------------------
# impuissance and conservation par impuissance (P2, P3, P16)
# ---------------------------------------------------------------------------------


def test_P2_doublet_half_played_gives_two_points() -> None:
    """W 3 ×1, 5 ×1; Black on mmai 11 and 15 (his 14 and 10) ×2; 6-6: the first 6 goes
    3→9, the second finds 9→15, 5→11 blocked (L1): one number of the doublet is
    unplayable, 2 points to the opponent (RULES.md §4.8, M8: "2 a number, simple or
    doublet"; 003 §83, §153).  mmai: (0, 0).  White's other 13 checkers are borne off
    (bearing off stays impossible: points 3 and 5 are outside 19..24); Black's other
    11 on his talon (our 24, out of reach)."""
    pos = make({3: 1, 5: 1}, {14: 2, 10: 2, 1: 11}, mover_off=13)
    ps = legal_plays(pos, (6, 6))
    assert [p.text() for p in ps.plays] == ["3/9"]
    assert ps.unplayable == (6,)
    sc = score_roll(pos, (6, 6))
    assert evs(sc) == [("other", "impuissance", 1, 2, None)]
    assert (sc.mover, sc.other) == (0, 2)


def test_P3_grand_jan_conserved_when_nothing_can_be_played() -> None:
    """W grand jan 7..12 ×2 and 22 ×3; Black 13..18 ×2 (his grand jan 12..7) and 24 ×3
    (his talon); 6-6: every 6 lands on Black or on his coin, the coin checkers cannot
    leave, no bearing off (points 7..12 are out): nothing is played, the grand jan is
    conserved par impuissance, 6 (F8; 003 §76, §107: "on conserve ... par
    impuissance"), and Black gets 2 a number, 4 (§4.8).  mmai: (0, 4)."""
    pos = make(
        {7: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 2, 22: 3},
        {12: 2, 11: 2, 10: 2, 9: 2, 8: 2, 7: 2, 1: 3},
    )
    assert [p.text() for p in legal_plays(pos, (6, 6)).plays] == ["-"]
    sc = score_roll(pos, (6, 6))
    assert sorted(evs(sc)) == [("mover", "grand-jan", 1, 6, "conserver"), ("other", "impuissance", 2, 4, None)]
    assert (sc.mover, sc.other) == (6, 4)


def test_P16_petit_jan_conserved_by_the_five_six_unplayable() -> None:
    """W talon 3, points 2..6 ×2 (petit jan made), 20 ×2; Black on mmai 7..11 ×2 (his
    18..14) and 5 on his talon (our 24).  6-5: every 6 is blocked or would put a lone
    checker on the coin (L3), the 5 is played talon→6 keeping the plein: conserved,
    4, and 2 for the unplayable 6 (RULES.md §4.5 F8, §4.8).  mmai agrees: (4, 2)."""
    pos = make({1: 3, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 20: 2}, {18: 2, 17: 2, 16: 2, 15: 2, 14: 2, 1: 5})
    assert [p.text() for p in legal_plays(pos, (6, 5)).plays] == ["1/6"]
    sc = score_roll(pos, (6, 5))
    assert sorted(evs(sc)) == [("mover", "petit-jan", 1, 4, "conserver"), ("other", "impuissance", 1, 2, None)]


# ---------------------------------------------------------------------------------
# sortie (P6, P7)
# ---------------------------------------------------------------------------------


def test_P6_sortie_with_the_smaller_number_on_the_nearer_checker() -> None:
    """W 22 ×1, 24 ×1 (13 borne off); 3-1: the ace bears off from 24, the 3 from 22
    (both sortants, S2-S3): the last checkers are off, sortie 4 (RULES.md §4.9; 003
    §118, §152; 000 ~l.824).  mmai pairs the larger number with the nearest checker
    and gives 0.  Black away (B_AWAY)."""
    pos = make({22: 1, 24: 1}, B_AWAY, mover_off=13)
    ps = legal_plays(pos, (3, 1))
    assert any(p.result[25] == 15 for p in ps.plays)
    sc = score_roll(pos, (3, 1))
    assert evs(sc) == [("mover", "sortie", 1, 4, None)]
    play = next(p for p in ps.plays if p.result[25] == 15)
    assert score_play(pos, (3, 1), play).mover == 4


def test_P7_last_checker_off_tout_d_une_by_doublet() -> None:
    """W's last checker on 19 (14 borne off), 3-3: tout d'une 19→22→off (exactly 6,
    repos 22 free): sortie by a doublet, 6 (RULES.md §4.9, §4.2; 000 ~l.824 "s'il fait
    un doublet, il marque six points").  mmai: 0.  Black away (B_AWAY)."""
    pos = make({19: 1}, B_AWAY, mover_off=14)
    sc = score_roll(pos, (3, 3))
    assert evs(sc) == [("mover", "sortie", 1, 6, None)]
    assert (sc.mover, sc.other) == (6, 0)


# ---------------------------------------------------------------------------------
# the coin par puissance and resting (P8, P14), hits (P13, P18), jans (P17)
# ---------------------------------------------------------------------------------


def test_P8_coin_par_puissance_with_a_doublet_when_direct_needs_two() -> None:
    """W talon 12, 8 ×1, 9 ×2; 4-4.  Directly the coin needs two checkers on 8 (a
    doublet brings both from the same point, C1) — only one is there, so the coin
    cannot be taken directly; 9+4 = 13 twice, Black's coin empty: the coin par
    puissance 9→12 ×2 is legal (RULES.md §3.5 C3, C5; 003 §44).  mmai refuses it.
    Black all on his talon (his coin empty)."""
    pos = make({1: 12, 8: 1, 9: 2}, {1: 15})
    plays = legal_plays(pos, (4, 4)).plays
    want = make({1: 12, 8: 1, 12: 2}, {1: 15}).mover
    match = [p for p in plays if p.result == want]
    assert match and match[0].is_puissance()


def test_P14_tout_d_une_past_own_empty_coin_through_the_opponents_empty_coin() -> None:
    """W 10 ×1, own coin and Black's coin empty; 3-2: 10→15 tout d'une.  The repos 12
    is W's own empty coin (closed by default, R5), but the repos 13, Black's empty
    coin, is open (R2; 003 §42 law 2, §61 "en vous reposant sur ... sa onzième"), and
    one open repos suffices (M3; 003 §137).  So the play is legal whichever reading of
    R5 — the classic answer "allowed" holds.  mmai refuses it.  W's other 14 on his
    talon; Black has 11 on his talon and 4 borne off (unreal, but it keeps both his
    pleins impossible, so point 15 is not in a closed table, P3)."""
    pos = make({1: 14, 10: 1}, {1: 11}, other_off=4)
    texts = [p.text() for p in legal_plays(pos, (3, 2)).plays]
    assert "10/15" in texts


def test_P13_003_130_a_coin_checker_may_hit() -> None:
    """W holds his coin with exactly two; a lone Black checker on mmai 15 (his 10, our
    15, a second table); 5-3: 12+3 = 15.  "Une dame qui bat ne change pas de place; il
    en résulte qu'une des deux dames du coin peut battre" (003 §130; RULES.md §4.3
    B2): à vrai by a single number, 2 points (B5).  The research left it to "the
    dédoubler interpretation"; 003 §130 settles it (only filling the retour from the
    coin is refused, §104, C8).  W's other 13 on his talon (1+3, 1+5, 1+8 reach 4, 6,
    9: empty); Black's other 14 on his talon."""
    pos = make({1: 13, 12: 2}, {1: 14, 10: 1})
    sc = score_roll(pos, (5, 3))
    assert [(e.side, e.kind, e.ways, e.points, e.target) for e in sc.events] == [("mover", "battre-a-vrai", 1, 2, 15)]


def test_P18_hit_into_a_closed_table_and_both_numbers_unplayable() -> None:
    """W 18 ×2; a lone Black checker on mmai 20 (his 5, our 20); 2-1.  18+2 = 20 hits
    it à vrai in a first table, 4 — the hitting checker need not be able to go there
    (RULES.md §4.3 B6; 003 §130).  Reconstructed rest (the probe gives only the
    result (4, 4)): Black has 14 on his talon, so he can still make his petit jan and
    our 19..24 is closed (P3): 18→19, 18→20, 18→21 are all refused, both numbers are
    unplayable, 2 each to Black (§4.8).  W's other 13 are borne off (no bearing off:
    18 is outside 19..24)."""
    pos = make({18: 2}, {1: 14, 5: 1}, mover_off=13)
    sc = score_roll(pos, (2, 1))
    assert sorted(evs(sc)) == [("mover", "battre-a-vrai", 1, 4, None), ("other", "impuissance", 2, 4, None)]
    assert (sc.mover, sc.other) == (4, 4)


def test_P17_jan_de_deux_tables_from_one_point() -> None:
    """W talon 13, two checkers on 8; 5-4: 8+4 = 12 (own coin), 8+5 = 13 (Black's
    empty coin): jan de deux tables, 4 (RULES.md §4.6 2; 003 §124: "les nombres
    portent une des dames à son coin et l'autre au coin de l'adversaire" — two
    checkers, nothing says from two points).  mmai agrees.  Black on his talon."""
    pos = make({1: 13, 8: 2}, {1: 15})
    sc = score_roll(pos, (5, 4))
    assert evs(sc) == [("mover", "jan-de-deux-tables", 1, 4, None)]


# ---------------------------------------------------------------------------------
# bredouille (P9, P10, P11) — the ledger and the game flow
# ---------------------------------------------------------------------------------


def test_P9_003_144_second_to_mark_has_the_bredouille() -> None:
    """A marks 4, then B marks 12: "celui qui marque le second marque avec deux
    jetons" (003 §144; RULES.md §5.2): B's 12 are uninterrupted, a double hole —
    2 holes, and A's 4 erased (003 §148).  mmai gives B 1 hole."""
    lg = Ledger()
    lg.mark("A", 4, own=True)
    r = lg.mark("B", 12, own=True)
    assert r.holes == ((2, True),)
    assert lg.state.b == PlayerScore(points=0, bredouille=False, holes=2, pavillon=True)
    assert lg.state.a.points == 0


def test_P10_003_118_bredouille_survives_a_sortie() -> None:
    """ "Les deux joueurs gardent le gain qu'ils ont fait" at the sortie (003 §118;
    RULES.md §4.9, §6.5): the points AND their bredouille state carry into the new
    relevé.  A had 4 (interrupted by B's 4, B in bredouille); A's sortie 3-1 gains 4:
    A 8, still not in bredouille, B's bredouille is now interrupted too.  Checked
    through the game flow (replay/rules/game.py).  A's last checkers on 22 and 24 (13 off);
    Black away (B_AWAY)."""
    start = make({22: 1, 24: 1}, B_AWAY, mover_off=13)
    score = ScoreState(PlayerScore(4, False), PlayerScore(4, True))
    g = Game(start=start, score=score)
    play = next(p for p in g.legal((3, 1)).plays if p.result[25] == 15)
    out = g.apply_coup((3, 1), play)
    assert out.sortie and out.releve_ended
    assert g.score.a == PlayerScore(8, False, 0, False)
    assert g.score.b == PlayerScore(4, False, 0, False)
    # the next relevé: A (primauté) keeps 8 without bredouille — 4 more make a simple hole
    assert g.position.turn == "A" and g.position.mover[1] == 15
    lg = g.ledger.copy()
    assert lg.mark("A", 4, own=True).holes == ((1, False),)


def test_P10_003_118_bredouille_kept_when_the_sortie_scores_nothing_else() -> None:
    """The relevé after a sortie does not reset the flags (003 §118): with the ledger
    alone, B in bredouille with 4 (A's 4 interrupted), a sortie relevé marking nothing
    keeps B's bredouille, and B's next 8 make a double hole."""
    lg = Ledger(state=ScoreState(PlayerScore(4, False), PlayerScore(4, True)))
    lg.new_releve_after_sortie("A")
    assert lg.state.b.bredouille and not lg.state.a.bredouille
    assert lg.mark("B", 8, own=True).holes == ((2, True),)


def test_P11_003_144_points_given_debredouille_the_roller() -> None:
    """A (roller) has 4 in bredouille and gives B 4 by two unplayable numbers: B is the
    one who marks, so it is A's series that is interrupted (003 §144: the first to
    mark "est débredouillé" when the other marks; RULES.md §5.2, O5) and B marks in
    bredouille.  mmai debredouilles the scorer.  A: 18 ×2, 13 borne off; Black 15 on
    his talon (his petit jan still possible closes our 19..24): 2-1 unplayable."""
    start = make({18: 2}, {1: 15}, mover_off=13)
    g = Game(start=start, score=ScoreState(PlayerScore(4, True), PlayerScore()))
    out = g.apply_coup((2, 1), None)
    assert out.receipts == 4
    assert g.score.a == PlayerScore(4, False, 0, False)
    assert g.score.b == PlayerScore(4, True, 0, False)
    assert g.ledger.copy().mark("B", 8).holes == ((2, True),)
