"""judge_play: written moves against the legal plays, one test per violation id (RULES.md §3)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from moves_helpers import B_FAR

from trictrac.replay.rules.moves import VIOLATIONS, judge_play, legal_plays
from trictrac.replay.rules.position import Position, start_position
from trictrac.replay.rules.profiles import DEFAULT_PROFILE

P = Position.from_points


def verdict(pos: Position, roll, moves, profile=DEFAULT_PROFILE) -> str | None:
    j = judge_play(pos, roll, moves, profile)
    assert j.legal == (j.violation is None)
    if j.violation:
        assert j.rule == VIOLATIONS[j.violation]
        assert j.alternatives == legal_plays(pos, roll, profile).plays
    return j.violation


def test_tout_d_une_written_as_one_move_or_chained() -> None:
    s = start_position()
    for moves in ([(1, 7)], [(1, 5), (5, 7)], [(1, 3), (3, 7)]):
        j = judge_play(s, (4, 2), moves)
        assert j.legal and j.play.text() == "1/7" and j.play.is_tout_d_une()
    j = judge_play(s, (2, 4), [(1, 3), (1, 5)])  # order of the dice and moves is free
    assert j.legal and j.play.numbers == (4, 2)


def test_lands_on_opponent_L1() -> None:
    pos = P({1: 14, 5: 1}, {1: 14, 17: 1})  # B's 17 = the mover's 8
    assert verdict(pos, (3, 1), [(5, 8), (1, 2)]) == "lands-on-opponent"


def test_opponent_coin_L2() -> None:
    pos = P({1: 13, 7: 1, 8: 1}, {19: 5, 20: 5, 21: 5})
    assert verdict(pos, (6, 5), [(7, 13), (1, 6)]) == "opponent-coin"


def test_lone_checker_on_the_coin_L3() -> None:
    pos = P({1: 13, 7: 1, 8: 1}, {1: 15})
    assert verdict(pos, (5, 1), [(7, 12), (1, 2)]) == "lone-coin"
    # the last two coin checkers leave together (C2): one alone may not
    pos = P({12: 2, 24: 3, 23: 2, 22: 2, 21: 2, 20: 2, 19: 2}, B_FAR)
    assert verdict(pos, (6, 1), [(12, 18), (19, 20)]) == "lone-coin"


def test_closed_table_L4_P3() -> None:
    pos = P({1: 13, 7: 1, 8: 1}, {1: 15})  # B can still make both pleins
    assert verdict(pos, (6, 2), [(8, 14), (1, 3)]) == "closed-table"


def test_no_repos_R1_and_own_empty_coin_R5() -> None:
    pos = P({1: 14, 6: 1}, {1: 14, 14: 1, 15: 1})  # B on the mover's 11 and 10
    assert verdict(pos, (5, 4), [(6, 15)]) == "no-repos"  # repos 11 and 10 held by B
    pos = P({1: 14, 7: 1}, {19: 5, 20: 5, 21: 5})
    # 5-5 from 7: the single repos is 12, the mover's own empty coin (R5 default: closed)
    assert verdict(pos, (5, 5), [(7, 17)]) == "no-repos"
    lax = replace(DEFAULT_PROFILE, rest_on_own_empty_coin=True)
    assert verdict(pos, (5, 5), [(7, 17)], lax) is None


def test_bear_off_too_early_S1() -> None:
    pos = P({18: 1, 19: 2, 20: 2, 21: 2, 22: 2, 23: 3, 24: 3}, B_FAR)
    assert verdict(pos, (6, 1), [(19, 25), (20, 21)]) == "bear-off-too-early"
    assert verdict(pos, (6, 1), [(18, 19), (19, 25)]) is None  # S1: the last one enters first
    # written order is not physical order: the same resulting position is the same play
    assert verdict(pos, (6, 1), [(19, 25), (18, 19)]) is None


def test_defaillant_number_is_played_inside_S4() -> None:
    pos = P({19: 1, 22: 4, 23: 5, 24: 5}, B_FAR)
    # 4 is défaillant (nobody on 21) with a checker behind on 19: 22/off with the 4 is wrong
    assert verdict(pos, (4, 2), [(22, 25), (23, 25)]) == "bear-off-not-rearmost"
    assert verdict(pos, (4, 2), [(19, 23), (23, 25)]) is None


def test_wrong_distance_and_no_checker() -> None:
    s = start_position()
    assert verdict(s, (6, 5), [(1, 8), (1, 6)]) == "wrong-distance"
    assert verdict(s, (6, 5), [(2, 8), (1, 6)]) == "no-checker"
    assert not judge_play(s, (6, 5), [(2, 8)]).executable


def test_both_numbers_M6() -> None:
    s = start_position()
    assert verdict(s, (6, 5), [(1, 7), 5]) == "both-numbers"
    assert verdict(s, (6, 5), [(1, 7)]) == "both-numbers"


def test_larger_number_M7() -> None:
    # (a reachable position) the lone checker on 7 can play the 5 or the 4, not both:
    # 7+9 = 16 is held by B (his 9th), the others are blocked by B's second table
    pos = P({7: 1, 10: 5, 11: 5, 12: 4}, {3: 1, 7: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 3, 22: 1})
    ps = legal_plays(pos, (5, 4))
    assert [p.text() for p in ps.plays] == ["7/12"] and ps.unplayable == (4,)
    assert verdict(pos, (5, 4), [(7, 11), 5]) == "larger-number"
    assert verdict(pos, (5, 4), [(7, 12), 4]) is None


def test_must_fill_M10() -> None:
    # E14 (003 §110), not E16 (003 §114) as before: under M13 (003 §398, "il faut que
    # l'autre nombre puisse se jouer sans rompre") E16's 6-3 fills only en passant
    # and is no fill, so not playing it is no must-fill
    pos = P({24: 2, 23: 1, 22: 2, 21: 3, 20: 2, 19: 4, 18: 1}, B_FAR)  # E14
    assert verdict(pos, (6, 5), [(18, 24), (19, 24)]) == "must-fill"
    pos = P({24: 4, 23: 3, 22: 2, 21: 2, 20: 1, 19: 2, 17: 1}, B_FAR)  # E16
    assert verdict(pos, (6, 3), [(17, 23), (19, 22)]) is None


def test_must_conserve_M11() -> None:
    pos = P({12: 2, 24: 2, 23: 2, 22: 2, 21: 2, 20: 2, 19: 3}, B_FAR)  # E17
    assert verdict(pos, (6, 1), [(21, 22), 6]) == "must-conserve"
    assert verdict(pos, (6, 1), [(19, 20), 6]) is None


def test_puissance_when_direct_C5() -> None:
    pos = P({1: 11, 6: 1, 7: 2, 8: 1}, {1: 15})
    # 6-5: 6+6 = 7+5 = 12 takes the coin directly, so 7+6 = 8+5 = 13 may not take it by puissance
    assert verdict(pos, (6, 5), [(7, 12), (8, 12)]) == "puissance-when-direct"
    assert verdict(pos, (6, 5), [(6, 12), (7, 12)]) is None


@pytest.mark.parametrize("roll", [(6, 5), (3, 3), (2, 1)])
def test_cannot_play_declared(roll) -> None:
    pos = P({12: 2, 24: 2, 23: 2, 22: 2, 21: 2, 20: 2, 19: 3}, B_FAR)
    ps = legal_plays(pos, roll)
    play = ps.plays[0]
    j = judge_play(pos, roll, list(play.steps) + list(ps.unplayable))
    assert j.legal
