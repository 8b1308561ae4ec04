"""The verifier judging written plays directly (``replay.rules.direct``, issue 17) gives the
very verdicts of the verifier judging them by enumeration: every finding, score, mark
and traced coup of ``GameReport.as_dict(trace=True)``, with ``verify(direct=True)`` and
``verify(direct=False)`` side by side.

Records: self-played parties (douze trous and à écrire) with the table mistakes
``replay/generate/inject.py`` puts in, some with a typo of the record as well (a digit off, two
moves swapped, a coup for the wrong side, a coup line deleted: ``bench/typo_bench.py``),
verified with and without recovery, under the profile played and under others.  The
suite runs a few thousand coups; ``TRICTRAC_SLOW=1`` runs over 10,000.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest
from mistake_corpus import OTHER_PROFILES, mistaken_records

from trictrac.replay.generate.selfplay import play_partie
from trictrac.replay.verifier.verify import verify


def _compare(parties: int, seed: int) -> Counter:
    seen: Counter = Counter()
    for i, (rec, how) in enumerate(mistaken_records(parties, seed)):
        profile = OTHER_PROFILES[i % len(OTHER_PROFILES)]
        recover = i % 3 != 2
        fast = verify(rec, profile, trace=True, recover=recover, direct=True)
        slow = verify(rec, profile, trace=True, recover=recover, direct=False)
        assert fast.as_dict(trace=True) == slow.as_dict(trace=True), f"{how}, profile {profile}, recover {recover}"
        seen["coups"] += fast.coups_verified
        seen["findings"] += len(fast.findings)
        seen["stopped"] += fast.stopped
    return seen


def test_direct_judging_gives_the_same_verdicts() -> None:
    seen = _compare(10, 1717)
    # things that could be false: enough coups, and the mistakes were found
    assert seen["coups"] >= 2500, seen
    assert seen["findings"] >= 40, seen


@pytest.mark.skipif(not os.environ.get("TRICTRAC_SLOW"), reason="TRICTRAC_SLOW=1 runs over 10,000 coups")
def test_direct_judging_gives_the_same_verdicts_on_ten_thousand_coups() -> None:
    seen = _compare(40, 2026)
    assert seen["coups"] >= 10_000, seen


def test_the_switch_changes_how_not_what() -> None:
    """direct=False really enumerates (the direct path is not taken), direct=True mostly
    does not: counted through ``moves.judge_play``."""
    from trictrac.replay.rules import moves

    rec = play_partie(random.Random(5), "douze-trous")
    calls = Counter()
    orig = moves.judge_play

    def counting(*a, **k):
        calls["n"] += 1
        return orig(*a, **k)

    import trictrac.replay.rules.direct as direct
    import trictrac.replay.verifier.judges.play as play

    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(play, "judge_play", counting)
        mp.setattr(direct, "judge_play", counting)
        slow = verify(rec, trace=True, direct=False)
        n_slow = calls["n"]
        calls["n"] = 0
        fast = verify(rec, trace=True, direct=True)
        n_fast = calls["n"]
    finally:
        mp.undo()
    assert fast.as_dict(trace=True) == slow.as_dict(trace=True)
    assert n_slow >= fast.coups_verified * 0.9
    assert n_fast < n_slow / 2
