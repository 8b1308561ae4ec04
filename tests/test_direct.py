"""The written play judged directly (``replay/rules/direct.py``, issue 17) against enumeration.

The direct judgement must give the same answer as finding the written play among
``legal_plays`` (``judge_play``) on every coup: self-played games under several
profiles, each coup as written and with the mistakes ``replay/generate/inject.py`` injects
and typos.  The suite runs a few thousand coups; ``TRICTRAC_SLOW=1`` runs 12,000 generated coups
and the coups of 20 records with injected mistakes.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest
from direct_helpers import coups, injected_coups, reference

from trictrac.replay.rules.direct import UNDECIDED, direct_play, judge_written, written_in_legal_plays
from trictrac.replay.rules.moves import IllegalMoveError, Play, legal_plays
from trictrac.replay.rules.position import Position, start_position


def _compare(n: int, seed: int, source=coups) -> Counter:
    seen: Counter = Counter()
    for pos, roll, moves, profile in source(n, seed):
        ref = reference(pos, roll, moves, profile)
        direct = direct_play(pos, roll, moves, profile)
        if direct is not UNDECIDED:
            assert direct == ref, (pos, roll, moves, profile.name)
            seen["direct"] += 1
        assert judge_written(pos, roll, moves, profile) == ref, (pos, roll, moves, profile.name)
        assert written_in_legal_plays(pos, roll, moves, profile) == ref
        seen["coups"] += 1
        seen["legal" if ref is not None else "illegal"] += 1
    return seen


def test_same_verdict_as_enumeration() -> None:
    """RULES.md §3: same legal play (route, numbers, pleins filled) or the same refusal."""
    seen = _compare(3000, 17)
    assert seen["coups"] == 3000
    # the corpus holds both verdicts, and most coups are decided without enumeration
    assert seen["legal"] > 500 and seen["illegal"] > 500
    assert seen["direct"] > seen["coups"] // 3


def test_same_verdict_on_records_with_injected_mistakes() -> None:
    """The coups of records ``replay.generate.inject`` put mistakes into, from the positions the
    verifier reached: the same verdict both ways."""
    seen = _compare(4, 40, injected_coups)
    assert seen["coups"] > 1000 and seen["illegal"] > 0 and seen["direct"] > seen["coups"] // 2


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("TRICTRAC_SLOW"), reason="TRICTRAC_SLOW=1 runs the 12,000 coups")
def test_same_verdict_on_twelve_thousand_coups() -> None:
    seen = _compare(12000, 1852)
    assert seen["coups"] == 12000
    assert _compare(20, 1852, injected_coups)["coups"] > 5000


def test_tout_d_une_rests_on_the_larger_number_first() -> None:
    """RULES.md §3.1 M3, §3.4 R1: 6-4 from the talon rests on 7, not 5; written either
    way (one move or two) it is the play legal_plays lists."""
    pos = start_position("A")
    play = direct_play(pos, (6, 4), [(1, 11)])
    assert isinstance(play, Play)
    assert play.steps == ((1, 7), (7, 11)) and play.numbers == (6, 4)
    assert play in legal_plays(pos, (4, 6)).plays
    assert direct_play(pos, (4, 6), [(1, 5), (5, 11)]) == play
    # 6-5 tout d'une leaves a lone checker on the coin (C1-C2): not proven, refused
    assert direct_play(pos, (6, 5), [(1, 12)]) is UNDECIDED
    assert judge_written(pos, (6, 5), [(1, 12)]) is None


def test_unexecutable_is_refused_without_enumeration() -> None:
    """RULES.md §3.1: no checker on 5, or a move backward: not a play at all."""
    pos = start_position("A")
    assert direct_play(pos, (4, 2), [(5, 9), (1, 3)]) is None
    assert direct_play(pos, (4, 2), [(5, 1)]) is None
    assert judge_written(pos, (4, 2), [(5, 9), (1, 3)]) is None


def test_obligations_left_to_the_enumeration() -> None:
    """One number (M6-M7), or a plein at stake that the play does not fill (M10): the
    direct proof is not at hand, and the fallback decides."""
    pos = start_position("A")
    assert direct_play(pos, (4, 2), [(1, 5)]) is UNDECIDED
    assert judge_written(pos, (4, 2), [(1, 5)]) is None  # both numbers can be played
    # petit jan lacking one checker on 6 (two spare on the talon): 5-1 must fill it
    mover = [0] * 26
    mover[1], mover[2], mover[3], mover[4], mover[5], mover[6] = 5, 2, 2, 2, 2, 1
    mover[25] = 1
    other = [0] * 26
    other[1] = 15
    pos = Position(tuple(mover), tuple(other))
    assert direct_play(pos, (5, 1), [(1, 6), (1, 2)]) not in (None, UNDECIDED)
    assert direct_play(pos, (5, 1), [(2, 7), (1, 2)]) is UNDECIDED
    assert judge_written(pos, (5, 1), [(2, 7), (1, 2)]) is None  # must fill (M10)


def test_bad_roll_raises_as_enumeration_does() -> None:
    with pytest.raises(IllegalMoveError):
        judge_written(start_position("A"), (7, 1), [(1, 8)])
