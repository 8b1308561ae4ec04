"""Rules review: tricky positions the engine gets right (regression tests).

Each test is a small position built for one law of RULES.md §3-§4 that is easy to
get wrong; the expectation is derived from RULES.md and the French source cited.
Positions are in each side's own frame (RULES.md §2.2); the docstrings say where the
checkers a law does not need are put.
"""

from __future__ import annotations

from dataclasses import replace

from trictrac.replay.rules.moves import judge_play, legal_plays
from trictrac.replay.rules.position import Position
from trictrac.replay.rules.profiles import DEFAULT_PROFILE
from trictrac.replay.rules.scoring import CoupScore, score_roll

B_AWAY = {14: 3, 15: 3, 16: 3, 17: 3, 18: 3}  # B in his own second table, harmless


def make(mover: dict[int, int], other: dict[int, int], **kw: object) -> Position:
    pos = Position.from_points(mover, other, **kw)
    assert not pos.problems(), pos.problems()
    return pos


def evs(sc: CoupScore) -> list[tuple[object, ...]]:
    return [(e.side, e.kind, e.ways, e.points) for e in sc.events]


def texts(pos: Position, roll: tuple[int, int]) -> list[str]:
    return [p.text() for p in legal_plays(pos, roll).plays]


# --- R5 / B4: one's own empty coin as the repos of a hit by the sum ---------------


def test_R5_B4_sum_hit_whose_only_repos_is_own_empty_coin_is_a_faux() -> None:
    """A 10 ×1, 3-2 onto B's lone checker on A's 15 (B's 10, a second table): repos 12
    (A's own empty coin, closed by default, RULES.md §3.4 R5, §10 D13) and 13 (B's
    coin, held): no open passage, à faux, B +2 (B4; 003 §136).  With the switch
    ``rest_on_own_empty_coin`` the passage is open: à vrai, A +2.  A's other 14 and
    B's other 12 on their talons."""
    pos = make({1: 14, 10: 1}, {12: 2, 10: 1, 1: 12})
    assert evs(score_roll(pos, (3, 2))) == [("other", "battre-a-faux", 1, 2)]
    open_coin = replace(DEFAULT_PROFILE, rest_on_own_empty_coin=True)
    assert evs(score_roll(pos, (3, 2), open_coin)) == [("mover", "battre-a-vrai", 1, 2)]


def test_R2_B4_sum_hit_through_the_opponents_empty_coin_is_a_vrai() -> None:
    """Same, B's coin empty: 13 is a legal repos (R2; 003 §42 law 2), à vrai A +2."""
    pos = make({1: 14, 10: 1}, {10: 1, 1: 14})
    assert evs(score_roll(pos, (3, 2))) == [("mover", "battre-a-vrai", 1, 2)]


# --- C8: the coin's last two checkers and the jan de retour ------------------------


def test_C8_003_104_coin_pair_cannot_fill_the_retour() -> None:
    """Jan de retour missing one on 23; A holds his coin with exactly two; 6-5: the
    sum 11 from the coin is no way (003 §104: "elles ne peuvent servir à remplir";
    RULES.md §3.5 C8, §4.5 F10); the 5 from 18 and the 6 from 17 are: 2 ways, 8."""
    pos = make({12: 2, 19: 2, 20: 2, 21: 2, 22: 2, 23: 1, 24: 2, 18: 1, 17: 1}, B_AWAY)
    assert evs(score_roll(pos, (6, 5))) == [("mover", "jan-de-retour", 2, 8)]


def test_C8_third_coin_checker_fills_by_the_sum() -> None:
    """With three on the coin the third moves singly (003 §43): 12→23 by 6-5 is a way
    (F3), plus the 5 from 18: 2 ways, 8."""
    pos = make({12: 3, 19: 2, 20: 2, 21: 2, 22: 2, 23: 1, 24: 2, 18: 1}, B_AWAY)
    assert evs(score_roll(pos, (6, 5))) == [("mover", "jan-de-retour", 2, 8)]
    assert texts(pos, (6, 5)) == ["12/23"]


# --- C7, K1: the evacuated coin -----------------------------------------------------


def test_C7_001_69_evacuated_coin_retaken_par_puissance() -> None:
    """A has left his coin (two in B's first table); B's coin empty; 6-5 with A's
    checkers on 7 and 8: 7+6 = 8+5 = 13, direct impossible — the coin is retaken par
    puissance (RULES.md §3.5 C7; 003 §80; 001 r.69).  Forbidden once B holds his
    coin (C4).  Other A checkers on the talon, B on his talon."""
    pos = make({1: 11, 7: 1, 8: 1, 19: 2}, {1: 15}, mover_coin_taken=True)
    assert "7/12 8/12" in texts(pos, (6, 5))
    held = make({1: 11, 7: 1, 8: 1, 19: 2}, {1: 13, 12: 2}, mover_coin_taken=True)
    assert "7/12 8/12" not in texts(held, (6, 5))


def test_K1_001_70_battre_le_coin_evacue() -> None:
    """B took and left his coin (two of them now on A's 5); A holds his coin, 9 ×2:
    4-4 carries two checkers onto B's empty coin: battre le coin by doublet, A +6
    (RULES.md §4.4 K1; 001 r.70 "un coin évacué peut être battu")."""
    pos = make({1: 11, 12: 2, 9: 2}, {1: 13, 20: 2}, other_coin_taken=True)
    assert ("mover", "battre-le-coin", 1, 6) in evs(score_roll(pos, (4, 4)))


# --- P1-P3: closed tables -----------------------------------------------------------


def test_P1_P2_003_61_rest_in_a_closed_table_stop_in_an_open_one() -> None:
    """B can still make his grand jan (2k of his checkers on or behind his k-th point
    of 7..12, RULES.md §3.8 P3) but not his petit jan (talon 1): A may not stop in B's
    second table (A's 13..18, L4) but may rest there (P2; 003 §61 "une flèche vide
    pour vous reposer dans la deuxième table"): with 6-4, 11→21 through 17 is legal,
    11→17 is not.  B was {1: 1, 2: 2, 3: 2, 10: 4, 11: 4, 12: 2}: only 5 on or behind
    his 9th point, so by the corrected P3 (003 §77) his grand jan is past making."""
    pos = make({1: 14, 11: 1}, {1: 1, 2: 2, 3: 2, 5: 2, 6: 2, 7: 2, 9: 2, 12: 2})
    assert "11/21" in texts(pos, (6, 4))
    j = judge_play(pos, (6, 4), [(11, 17), (1, 5)])
    assert not j.legal and j.violation == "closed-table"


# --- S4, S5: défaillant and excédant numbers -------------------------------------------


def test_S4_000_820_defaillant_number_played_inside() -> None:
    """All in, A on 19 ×2 and 21 (12 off); 6-5: the 6 is sortant (19); the 5 finds 20
    empty with a checker behind, so it is défaillant and must be played inside,
    19→24; 21 may not go off with it (S4; 000 ~l.820 "il faut jouer ce qui ne bat
    point sur le bord")."""
    pos = make({19: 2, 21: 1}, B_AWAY, mover_off=12)
    assert texts(pos, (6, 5)) == ["19/off 19/24"]


def test_S5_003_116_excedant_number_takes_the_rearmost() -> None:
    """A on 20 and 22 (13 off); 6-1: the 6 is excédant for both and bears off the
    rearmost, 20 (S5; 003 §116; 000 ~l.822 "on lève les plus éloignées"); never 22
    while 20 is there."""
    pos = make({20: 1, 22: 1}, B_AWAY, mover_off=13)
    results = {p.result[20:24] for p in legal_plays(pos, (6, 1)).plays}
    assert all(r[2] or r[3] for r in results)  # the checker of 22 (or 23) is still in
    assert all(r[0] == 0 for r in results)  # the rearmost went off (or moved on)


# --- §4.6: the jan de trois coups and the once limits ----------------------------------


def test_jan_de_trois_coups_conditions_003_123() -> None:
    """Third throw, talon 11, singles on flèches 1, 2, 3, 6: 5-4 makes it (4); not a
    doublet, not with a case among the four, not on the fourth throw (RULES.md §4.6
    1; 003 §123 "six dames de suite ... en trois coups")."""
    pos = make({1: 11, 2: 1, 3: 1, 4: 1, 7: 1}, {1: 15}, mover_coups=2)
    assert evs(score_roll(pos, (5, 4))) == [("mover", "jan-de-trois-coups", 1, 4)]
    assert evs(score_roll(pos, (5, 5))) == []
    assert evs(score_roll(make({1: 11, 2: 2, 4: 1, 7: 1}, {1: 15}, mover_coups=2), (5, 2))) == []
    assert evs(score_roll(make({1: 11, 2: 1, 3: 1, 4: 1, 7: 1}, {1: 15}, mover_coups=3), (5, 4))) == []


def test_mezeas_once_for_one_player_only_003_126() -> None:
    """ "Un seul joueur peut le faire, une seule fois" (003 §126): once B has made the
    jan de mézéas, A's coin-only position with an ace scores nothing."""
    pos = make({1: 13, 12: 2}, {1: 15}, other_jans=frozenset({"jan-de-mezeas"}))
    assert evs(score_roll(pos, (6, 1))) == []
    assert evs(score_roll(make({1: 13, 12: 2}, {1: 15}), (6, 1))) == [("mover", "jan-de-mezeas", 1, 4)]
