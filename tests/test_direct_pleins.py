"""The direct proof with a plein at stake (``replay/rules/direct.py``, issue 17) against
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

from direct_helpers import PROFILES, compare_with_reference, mistakes, reference

from trictrac.bench.judge import game_coups, written
from trictrac.replay.rules.direct import UNDECIDED, _fill_possible, direct_play, judge_direct, proven_legal
from trictrac.replay.rules.moves import ROLLS, Play, legal_plays
from trictrac.replay.rules.position import Position
from trictrac.replay.rules.profiles import DEFAULT_PROFILE, Profile


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
                compare_with_reference(pos, roll, moves, profile, seen)
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


def _short_throws(n: int, seed: int) -> Iterator[tuple[Position, tuple[int, int], Profile]]:
    """``n`` self-played (position, throw), no checker able to bear off: every throw where
    both numbers cannot be played (RULES.md §3.6 M6-M7: one number, or none), and some
    where they can."""
    made = 0
    seen = set()
    for pos, _roll, _play, _unplayable, profile in game_coups(seed, PROFILES):
        if sum(pos.mover[1:19]) < 2 or (pos, profile.name) in seen:
            continue
        seen.add((pos, profile.name))
        for i, roll in enumerate(ROLLS):
            ps = legal_plays(pos, roll, profile)
            # and one throw in seven where both can: a number dropped is then illegal (M6)
            if len(ps.plays[0].numbers) < 2 or i % 7 == len(seen) % 7:
                yield pos, roll, profile
                made += 1
                if made == n:
                    return


def _compare_short(n_throws: int, seed: int) -> Counter:
    rng = random.Random(seed)
    seen: Counter = Counter()
    for pos, roll, profile in _short_throws(n_throws, seed):
        ps = legal_plays(pos, roll, profile)
        kind = ("none", "one", "two")[len(ps.plays[0].numbers)]
        seen[kind] += 1
        written_plays = [[], list(roll)]  # nothing played, both numbers declared unplayable
        if kind == "two":  # each legal play with a step dropped (M6)
            written_plays += [[p.steps[i]] for p in ps.plays for i in range(len(p.steps))]
            written_plays += mistakes(pos, roll, ps.plays[0], rng, profile)
        else:
            written_plays += [written(p, ps.unplayable) for p in ps.plays]
            written_plays += [written(p, ()) for p, _why in ps.excluded()]
            for play in ps.plays:
                written_plays += mistakes(pos, roll, play, rng, profile)
        for moves in written_plays:
            compare_with_reference(pos, roll, moves, profile, seen)
    return seen


def test_one_number_or_none_as_the_enumeration() -> None:
    """RULES.md §3.6 M6-M7 and M10-M11 among single plays: a play of one number (or of
    none) decided directly gets the enumeration's verdict."""
    seen = _compare_short(1000, 31)
    assert seen["coups"] >= 10_000
    assert seen["one"] > 100 and seen["none"] > 10 and seen["two"] > 100
    assert seen["decided legal"] > 300 and seen["illegal"] > 1000
    if os.environ.get("TRICTRAC_SLOW"):
        assert _compare_short(4000, 1852)["coups"] >= 50_000


def _random_position(rng: random.Random) -> Position:
    """A crowded random position (lawful, not necessarily reachable in play): the
    mover's checkers on a few points, the opponent's on most others, so that numbers
    are often blocked, the coin law bites and pleins are near or made."""
    while True:
        mover = [0] * 26
        other = [0] * 26
        spots = rng.sample(range(1, 20), rng.randint(2, 8))
        for _ in range(15):
            mover[rng.choice(spots)] += 1
        free = [q for q in range(1, 25) if not mover[q] and q != 13]  # mover's frame
        for _ in range(15):
            other[25 - rng.choice(free)] += 1
        pos = Position(tuple(mover), tuple(other))
        if not pos.problems():
            return pos


def test_random_crowded_positions_as_the_enumeration() -> None:
    """Edge cases self-play seldom reaches (a checker that cannot play both numbers alone,
    the coin law deciding, pleins at stake in blocked positions): every written form of
    every throw, one number or two, legal or excluded, as the enumeration judges it."""
    rng = random.Random(5)
    seen: Counter = Counter()
    for _ in range(150):
        pos = _random_position(rng)
        for roll in ROLLS:
            ps = legal_plays(pos, roll, DEFAULT_PROFILE)
            seen[len(ps.plays[0].numbers)] += 1
            forms = [[], list(roll)] + [[p.steps[i]] for p in ps.plays for i in range(len(p.steps))]
            forms += [written(p, ps.unplayable) for p in ps.plays] + [written(p, ()) for p, _w in ps.excluded()]
            for moves in forms:
                ref = reference(pos, roll, moves, DEFAULT_PROFILE)
                got = direct_play(pos, roll, moves, DEFAULT_PROFILE)
                # the remembered proof (the verifier's recovery asks first, then the judge)
                assert proven_legal(pos, roll, moves, DEFAULT_PROFILE) == isinstance(got, Play)
                j = judge_direct(pos, roll, moves, DEFAULT_PROFILE)
                assert j.legal == (ref is not None) and (ref is None or j.play == ref)
                if got is not UNDECIDED:
                    assert got == ref, (pos, roll, moves)
                    seen["decided"] += 1
                seen["coups"] += 1
    assert seen["coups"] >= 10_000 and seen[0] > 50 and seen[1] > 100 and seen["decided"] > 2000
