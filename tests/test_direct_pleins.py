"""The direct proof with a plein at stake (``replay/direct.py``, issue 17) against
enumeration.

When a plein lacks one or two checkers and the written play does not make it, the
proof decides legality by showing that no two-number play can fill (M10,
``direct._fill_possible``), trying only the plays that land a checker on a gap.  Here,
on self-played positions with a plein at stake, under four profiles, for every one of
the 21 throws: ``_fill_possible`` says False only when ``legal_plays`` finds no fill,
and every movement-legal play (the legal ones and those an obligation excluded, i.e.
the written mistakes "must-fill", "both-numbers", …) plus the mistakes of
``direct_helpers.mistakes`` gets from ``direct_play`` the very verdict of
``judge_play``.  The suite compares over 10,000 coups; ``TRICTRAC_SLOW=1`` several
times more.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Iterator

from direct_helpers import PROFILES, mistakes, reference

from trictrac.bench.judge import game_coups, written
from trictrac.replay.direct import UNDECIDED, _fill_possible, direct_play
from trictrac.replay.moves import ROLLS, legal_plays
from trictrac.replay.position import Position
from trictrac.replay.profiles import Profile


def _at_stake(m: tuple[int, ...]) -> int:
    """First point of a plein lacking one or two checkers, or 0."""
    for lo in (1, 7, 19):
        lacking = sum(max(0, 2 - m[p]) for p in range(lo, lo + 6))
        if 0 < lacking <= 2:
            return lo
    return 0


def _positions(n: int, seed: int) -> Iterator[tuple[Position, int, Profile]]:
    """``n`` distinct self-played positions with a plein at stake and no checker able
    to bear off (the proof's ground)."""
    seen = set()
    for pos, _roll, _play, _unplayable, profile in game_coups(seed, PROFILES):
        lo = _at_stake(pos.mover)
        if not lo or sum(pos.mover[1:19]) < 2 or (pos, profile.name) in seen:
            continue
        seen.add((pos, profile.name))
        yield pos, lo, profile
        if len(seen) == n:
            return


def _compare(n_positions: int, seed: int) -> Counter:
    rng = random.Random(seed)
    seen: Counter = Counter()
    for pos, lo, profile in _positions(n_positions, seed):
        for roll in ROLLS:
            ps = legal_plays(pos, roll, profile)
            possible = _fill_possible(pos, profile, roll[0], roll[1], lo)
            assert possible or not ps.fills, (pos, roll, profile.name)
            if pos.mover[12] != 1 and (lo != 7 or pos.mover[12] >= 2):
                # away from the coin (puissance, C1-C2) the search tries every filling play
                assert possible == ps.fills, (pos, roll, profile.name)
            seen["throws"] += 1
            seen["no fill proven" if not possible else "fill possible"] += 1
            seen["fills"] += ps.fills
            written_plays = [written(p, ps.unplayable) for p in ps.plays]
            written_plays += [written(p, ()) for p, _why in ps.excluded()]
            written_plays += mistakes(pos, roll, ps.plays[0], rng, profile)
            for moves in written_plays:
                ref = reference(pos, roll, moves, profile)
                got = direct_play(pos, roll, moves, profile)
                if got is not UNDECIDED:
                    assert got == ref, (pos, roll, moves, profile.name)
                    seen["decided"] += 1
                seen["coups"] += 1
                seen["legal" if ref is not None else "illegal"] += 1
    return seen


def test_no_fill_proven_only_when_none_fills() -> None:
    """RULES.md §3.7 M10, M13: same verdict as the enumeration, plein at stake."""
    seen = _compare(100, 23)
    assert seen["coups"] >= 10_000
    # both answers of the proof (some throws do fill), both verdicts, many decided directly
    assert seen["no fill proven"] > 1000 and seen["fill possible"] > 50 and seen["fills"] > 30
    assert seen["legal"] > 1000 and seen["illegal"] > 1000
    assert seen["decided"] > seen["coups"] // 4


def test_more_positions_when_slow() -> None:
    if not os.environ.get("TRICTRAC_SLOW"):
        return
    seen = _compare(400, 1852)
    assert seen["coups"] >= 100_000
