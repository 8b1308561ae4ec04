"""RULES.md §11 worked examples, movement parts (legal plays, RULES.md §3)."""

from __future__ import annotations

from dataclasses import replace

from moves_helpers import B_FAR

from trictrac.replay.rules.moves import apply_play, judge_play, legal_plays
from trictrac.replay.rules.position import Position, start_position
from trictrac.replay.rules.profiles import DEFAULT_PROFILE

P = Position.from_points
START = start_position()


def counts(d: dict[int, int]) -> tuple[int, ...]:
    c = [0] * 26
    for p, n in d.items():
        c[p] += n
    return tuple(c)


def results(pos: Position, roll: tuple[int, int], profile=DEFAULT_PROFILE) -> set[tuple[int, ...]]:
    return {p.result for p in legal_plays(pos, roll, profile).plays}


def texts(pos: Position, roll: tuple[int, int], profile=DEFAULT_PROFILE) -> set[str]:
    return {p.text() for p in legal_plays(pos, roll, profile).plays}


# -- Moves and coin ----------------------------------------------------------------


def test_E1_003_29_30_doublets_play_two_numbers() -> None:
    assert results(START, (1, 1)) == {counts({1: 13, 2: 2}), counts({1: 14, 3: 1})}
    assert texts(START, (1, 1)) == {"1/2 1/2", "1/3"}
    pos = P({1: 13, 2: 2}, {1: 15})
    assert counts({1: 11, 2: 3, 4: 1}) in results(pos, (3, 1))
    pos = P({1: 11, 2: 3, 4: 1}, {1: 15})
    assert counts({1: 9, 2: 3, 4: 1, 5: 1, 7: 1}) in results(pos, (6, 4))
    # 4-4: two checkers 4 each, or one checker 8 (repos 5); never 4 x 4
    assert results(START, (4, 4)) == {counts({1: 13, 5: 2}), counts({1: 14, 9: 1})}
    tout_d_une = [p for p in legal_plays(START, (4, 4)).plays if p.is_tout_d_une()]
    assert [p.steps for p in tout_d_une] == [((1, 5), (5, 9))]


def test_E2_003_37_moving_into_the_opponents_tables() -> None:
    # B out of the way on the mover's 4..6 (his 19..21): neither of his pleins possible.
    pos = P({1: 13, 9: 1, 14: 1}, {19: 5, 20: 5, 21: 5})
    assert "9/18" in texts(pos, (5, 4))  # own 8th flèche + 9 -> B's 6th flèche
    assert "14/21" in texts(pos, (4, 3))  # B's 10th flèche + 7 -> B's 3rd flèche


def test_E3_003_44_coin_par_puissance() -> None:
    pos = P({1: 13, 7: 1, 8: 1}, {1: 15})
    ps = legal_plays(pos, (6, 5))
    taken = [p for p in ps.plays if p.result == counts({1: 13, 12: 2})]
    assert len(taken) == 1 and taken[0].is_puissance()
    assert taken[0].text() == "7/12 8/12"
    # 000 ~l.552: forbidden when B holds his coin (his 12 = the mover's 13)
    held = P({1: 13, 7: 1, 8: 1}, {1: 13, 12: 2})
    assert counts({1: 13, 12: 2}) not in results(held, (6, 5))
    j = judge_play(held, (6, 5), [(7, 12), (8, 12)])
    assert not j.legal and j.violation == "puissance-opponent-coin"


def _b_blocking(*mover_points: int, **extra: int) -> dict[int, int]:
    """B checkers on the given points of the mover's frame (B's own 25 - p)."""
    return {25 - p: n for p, n in zip(mover_points, extra.get("n", [3] * len(mover_points)))}


def test_E4_003_62_puissance_forbidden_when_direct() -> None:
    # A's petit jan and three on 7; B's coin empty; B holds the mover's 19 (his 6th
    # flèche) so the tout d'une 7/19 has no landing.
    pos = P({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 3}, {6: 3, 7: 3, 8: 3, 9: 3, 10: 3})
    ps = legal_plays(pos, (6, 6))
    direct = counts({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 7: 3, 12: 2})
    assert direct in {p.result for p in ps.plays}
    assert not any(p.is_puissance() for p in ps.plays)
    assert not ps.conserves  # the petit jan cannot be kept: it is broken
    j = judge_play(pos, (6, 6), [(7, 12), (7, 12)])
    assert not j.legal and j.violation == "puissance-when-direct" and j.rule == "§3.5 C5"


def test_E5_003_292_coin_direct_and_by_puissance() -> None:
    pos = P({1: 13, 7: 1, 9: 1}, {1: 15})
    coin = counts({1: 13, 12: 2})
    assert coin in results(pos, (5, 3))  # 7+5, 9+3: directly
    direct = [p for p in legal_plays(pos, (5, 3)).plays if p.result == coin]
    assert not direct[0].is_puissance()
    by_p = [p for p in legal_plays(pos, (6, 4)).plays if p.result == coin]
    assert by_p and by_p[0].is_puissance()  # 7+6 = 9+4 = 13
    for roll in ((6, 3), (5, 4)):  # jan de deux tables: the coin cannot be taken
        assert coin not in results(pos, roll)


def test_E8_003_126_coin_taken_with_two_six_fives() -> None:
    ps = legal_plays(START, (6, 5))
    assert [p.text() for p in ps.plays] == ["1/7 1/6"]
    pos = P({1: 13, 6: 1, 7: 1}, {1: 13, 6: 1, 7: 1}, turn="A")
    ps = legal_plays(pos, (6, 5))
    taken = [p for p in ps.plays if p.result == counts({1: 13, 12: 2})]
    assert len(taken) == 1 and not taken[0].is_puissance()  # 6+6, 7+5


# -- Filling and conserving ----------------------------------------------------------

ALL_ROLLS = [(a, b) for a in range(6, 0, -1) for b in range(a, 0, -1)]


def test_E9_003_53_five_throws_fill_the_case() -> None:
    pos = P({1: 2, 2: 4, 3: 2, 4: 4, 5: 3}, {1: 15})
    filling = {r for r in ALL_ROLLS if legal_plays(pos, r).fills}
    assert filling == {(4, 2), (4, 1), (2, 1), (4, 4), (2, 2)}
    for r in filling:  # M10: every legal play fills
        assert all(p.filled == 1 for p in legal_plays(pos, r).plays)


def test_E10_003_297_every_throw_fills_but_four() -> None:
    pos = P({1: 4, 2: 3, 3: 2, 4: 3, 5: 2, 6: 1}, {1: 15})
    failing = {r for r in ALL_ROLLS if not legal_plays(pos, r).fills}
    assert failing == {(6, 6), (6, 3), (6, 1), (3, 3)}
    pos = P({1: 3, 2: 3, 3: 3, 4: 3, 5: 2, 6: 1}, {1: 15})
    failing = {r for r in ALL_ROLLS if not legal_plays(pos, r).fills}
    assert failing == {(6, 6), (6, 1)}


def test_E11_003_109_fill_then_privilege_de_la_bande() -> None:
    pos = P({24: 3, 23: 3, 22: 1, 21: 2, 20: 3, 19: 2, 18: 1}, B_FAR)
    ps = legal_plays(pos, (5, 4))
    assert ps.fills and all(p.filled == 4 for p in ps.plays)
    assert all((18, 22) in p.steps for p in ps.plays)  # the 4 from 18 fills (one way)
    assert "18/22 20/off" in {p.text() for p in ps.plays}  # the 5 onto the rail


def test_E12_003_110_conserve_by_bearing_off() -> None:
    pos = P({24: 3, 23: 2, 22: 2, 21: 2, 20: 2, 19: 4}, B_FAR)
    ps = legal_plays(pos, (6, 6))
    assert [p.text() for p in ps.plays] == ["19/off 19/off"] and ps.conserves
    ps = legal_plays(pos, (6, 1))
    assert ps.conserves
    assert counts({24: 2, 23: 2, 22: 2, 21: 2, 20: 2, 19: 3, 25: 2}) in {p.result for p in ps.plays}
    excluded = {p.text(): why for p, why in ps.excluded()}
    assert excluded["19/off 20/21"] == "must-conserve"  # 20/21 would break the jan
    assert excluded["19/off"] == "both-numbers"


def test_E13_003_110_last_checker_enters_then_bears_off() -> None:
    pos = P({24: 2, 23: 3, 22: 2, 21: 2, 20: 2, 19: 3, 18: 1}, B_FAR)
    ps = legal_plays(pos, (6, 6))
    assert [p.steps for p in ps.plays] == [((18, 24), (19, 25))]
    assert ps.conserves and ps.unplayable == ()


def test_E14_003_110_fill_then_bear_off() -> None:
    pos = P({24: 2, 23: 1, 22: 2, 21: 3, 20: 2, 19: 4, 18: 1}, B_FAR)
    ps = legal_plays(pos, (6, 5))
    assert [p.text() for p in ps.plays] == ["18/23 19/off"]
    assert ps.fills and ps.plays[0].filled == 4


def test_E15_003_113_fill_with_one_number() -> None:
    pos = P({12: 2, 24: 3, 23: 2, 22: 1, 21: 3, 20: 2, 19: 2}, B_FAR)
    ps = legal_plays(pos, (6, 1))
    assert [p.text() for p in ps.plays] == ["21/22"]
    assert ps.fills and ps.unplayable == (6,)


def test_E16_003_114_remplir_en_passant() -> None:
    """Corrected for RULES.md §3.7 M13 (003 §398: "il faut que l'autre nombre puisse se
    jouer sans rompre"): the 3 fills and the 6 must break, so 6-3 does not fill and
    M10 does not oblige; the old reading (a fill, the only legal play) is switch D33."""
    pos = P({24: 4, 23: 3, 22: 2, 21: 2, 20: 1, 19: 2, 17: 1}, B_FAR)
    ps = legal_plays(pos, (6, 3))
    assert not ps.fills and not any(p.filled for p in ps.plays)
    texts = [p.text() for p in ps.plays]
    assert "17/20 19/off" in texts and "17/23 19/22" in texts
    old = replace(DEFAULT_PROFILE, score_remplir_en_passant=True)
    ps = legal_plays(pos, (6, 3), old)
    assert [p.text() for p in ps.plays] == ["17/20 19/off"]
    play = ps.plays[0]
    assert ps.fills and play.filled == 4  # filled en passant ...
    assert play.result[19] == 1  # ... and broken by the sortant 6
    assert "17/23" in {p.text().split()[0] for p, why in ps.excluded() if why == "must-fill"}


def test_E17_003_107_conserve_by_impuissance() -> None:
    pos = P({12: 2, 24: 2, 23: 2, 22: 2, 21: 2, 20: 2, 19: 3}, B_FAR)
    ps = legal_plays(pos, (6, 1))
    assert [p.text() for p in ps.plays] == ["19/20"]
    assert ps.unplayable == (6,) and ps.conserves
    # 000's version: the surcase on 20 plays the ace
    pos = P({12: 2, 24: 2, 23: 2, 22: 2, 21: 2, 20: 3, 19: 2}, B_FAR)
    ps = legal_plays(pos, (6, 1))
    assert [p.text() for p in ps.plays] == ["20/21"] and ps.unplayable == (6,)


def test_E18_003_107_coin_cannot_leave_past_a_checker() -> None:
    b = {14: 3, 15: 3, 16: 3, 17: 3, 18: 2, 10: 1}  # a lone B checker on A's 15 (B's 10th)
    pos = P({12: 2, 24: 2, 23: 2, 22: 2, 21: 2, 20: 3, 19: 2}, b)
    ps = legal_plays(pos, (6, 3))
    assert [p.text() for p in ps.plays] == ["20/23"]
    assert ps.unplayable == (6,) and ps.conserves


def test_E19_003_201_tout_d_une_fills_the_grand_jan() -> None:
    pos = P({1: 4, 7: 2, 8: 1, 9: 2, 10: 2, 11: 2, 12: 2}, {1: 15})
    ps = legal_plays(pos, (6, 1))
    assert [p.text() for p in ps.plays] == ["1/8"] and ps.fills
    assert ps.plays[0].filled == 2
    assert judge_play(pos, (6, 1), [(1, 8)]).legal
    j = judge_play(pos, (6, 1), [(1, 8), (1, 2)])  # an ace played again by mistake
    assert not j.legal and j.violation == "wrong-distance"


# -- Procedure ---------------------------------------------------------------------


def test_E58_003_201_ace_played_two_points() -> None:
    pos = P({1: 5, 5: 1, 6: 2, 7: 2, 8: 1, 11: 2, 12: 2}, {1: 15})
    j = judge_play(pos, (2, 1), [(6, 8), (1, 3)])
    assert not j.legal and j.violation == "wrong-distance" and not j.executable
    assert judge_play(pos, (2, 1), [(6, 8), (1, 2)]).legal
    # the talon checker really played the 2: the other checker must play the ace
    assert judge_play(pos, (2, 1), [(1, 3), (6, 7)]).legal


def test_E59_003_216_fausse_case() -> None:
    pos = P({1: 13, 3: 1, 4: 1}, {1: 15})
    j = judge_play(pos, (5, 4), [(3, 7), (4, 7)])  # played as if 4-3
    assert not j.legal and j.violation == "wrong-distance" and not j.executable
    assert judge_play(pos, (5, 4), [(3, 8), (4, 8)]).legal
    assert j.alternatives == legal_plays(pos, (5, 4)).plays


def test_E60_003_199_direct_coin_compulsory() -> None:
    # Only legal play of 6-6: the coin directly from 6.  B holds the mover's 14..17
    # and 19; the tout d'une from 6 would rest on the own empty coin (R5).
    pos = P({6: 2, 7: 2, 8: 3, 9: 3, 10: 3, 11: 2}, {11: 3, 10: 3, 9: 3, 8: 3, 6: 3})
    ps = legal_plays(pos, (6, 6))
    assert [p.text() for p in ps.plays] == ["6/12 6/12"]
    j = judge_play(pos, (6, 6), [(7, 12), (7, 12)])
    assert not j.legal and j.violation == "puissance-when-direct"
    assert j.alternatives == ps.plays
    # with the switch D13 the tout d'une 6/18 may rest on the own empty coin, but 18
    # is in B's second table where he can still make his grand jan (P3): still one play
    lax = replace(DEFAULT_PROFILE, rest_on_own_empty_coin=True)
    assert texts(pos, (6, 6), lax) == {"6/12 6/12"}


def test_apply_play_keeps_turn_and_counts() -> None:
    play = legal_plays(START, (6, 5)).plays[0]
    after = apply_play(START, play)
    assert after.turn == START.turn and after.mover == play.result and after.other == START.other
