"""The direct proof when a checker may bear off during the throw (``replay/rules/direct.py``,
issue 17) against enumeration.

RULES.md §3.10 S1-S8: with at most one checker outside ``19..24`` the proof plays the
steps one after the other by ``moves``' own step law, finds the route ``legal_plays``
lists for the written result, and settles M6-M7 and the pleins law (M10-M13, the jan de
retour conserved par le privilège de la bande, S7).  Here, on random end-game positions
(every checker in ``19..24`` or off, or one outside; the opponent's checkers blocking
points, sometimes his tables still closed) and on self-played ones, for every one of the
21 throws, under the profiles with the switches of D15-D16 and D33: every written form
(the legal plays, the plays an obligation excluded, each legal play with a step dropped,
bear-offs the throw may or may not allow, nothing played, the mistakes of
``direct_helpers.mistakes``) gets from ``direct_play`` the very verdict of ``judge_play``
— an illegal play is never proven legal, a legal one gets the identical ``Play`` (steps,
numbers, result, pleins filled).  ``TRICTRAC_SLOW=1`` runs several times more.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

from direct_helpers import (
    Moves,
    compare_with_reference,
    listed_forms,
    mistakes,
    position_of,
    reference,
    self_played_positions,
)

from trictrac.replay.rules.direct import UNDECIDED, direct_play, judge_direct, proven_legal
from trictrac.replay.rules.moves import ROLLS, Play, legal_plays
from trictrac.replay.rules.position import Position
from trictrac.replay.rules.profiles import DEFAULT_PROFILE, Profile, find_profile

#: the bearing-off switches (RULES.md §10 D15, D16), the repos (D13) and en passant (D33)
SORTIE_PROFILES: tuple[Profile, ...] = (
    DEFAULT_PROFILE,
    replace(DEFAULT_PROFILE, sortant_must_bear_off=True),
    replace(DEFAULT_PROFILE, defaillant_rearmost=True),
    replace(DEFAULT_PROFILE, sortant_must_bear_off=True, defaillant_rearmost=True),
    replace(DEFAULT_PROFILE, bear_off_while_plein_possible=False),
    replace(DEFAULT_PROFILE, bear_off_while_plein_possible=False, sortant_must_bear_off=True, defaillant_rearmost=True),
    replace(DEFAULT_PROFILE, rest_on_own_empty_coin=True, opponent_table_closed="until-broken"),
    replace(DEFAULT_PROFILE, score_remplir_en_passant=True),
    find_profile("lebrun-1828"),
)


def _mover(rng: random.Random) -> list[int]:
    """The mover's counts: all in ``19..24`` or off, or one outside; often the jan de
    retour made or lacking one or two checkers (the pleins law at stake)."""
    m = [0] * 26
    off = rng.choice((0, 0, 0, 1, 2, 3, rng.randint(0, 14)))
    on = 15 - off
    outside = 1 if on > 1 and rng.random() < 0.3 else 0
    if rng.random() < 0.5 and on - outside >= 10:
        for p in range(19, 25):
            m[p] = 2  # a made jan de retour, then some taken away or added
        spare = on - outside - 12
        for _ in range(rng.choice((0, 0, 1, 2))):
            p = rng.randint(19, 24)
            if m[p]:
                m[p] -= 1
                spare += 1
        for _ in range(spare):
            m[rng.randint(19, 24)] += 1
    else:
        spots = rng.sample(range(19, 25), rng.randint(1, 6))
        for _ in range(on - outside):
            m[rng.choice(spots)] += 1
    if outside:
        m[rng.choice([p for p in range(1, 19) if p not in (12, 13)])] += 1
    m[25] = off
    return m


def _other(rng: random.Random, mover: list[int]) -> list[int]:
    """The opponent's counts (his frame): on points the mover does not hold, some on
    the mover's ``19..24`` (blocking), sometimes many behind (his tables still closed)."""
    o = [0] * 26
    o[25] = rng.choice((0, 0, 0, 5, 10))
    free = [q for q in range(1, 25) if not mover[q] and q != 12]  # the mover's frame
    behind = rng.random() < 0.2
    for _ in range(15 - o[25]):
        near_end = [q for q in free if q >= 19]
        if behind and near_end and rng.random() < 0.8:
            q = rng.choice(near_end + [q for q in free if 13 <= q <= 18])
        elif near_end and rng.random() < 0.15:
            q = rng.choice(near_end)
        else:
            q = rng.choice(free)
        o[25 - q] += 1
    return o


def _random_positions(n: int, seed: int) -> Iterator[Position]:
    rng = random.Random(seed)
    made = 0
    while made < n:
        m = _mover(rng)
        pos = Position(tuple(m), tuple(_other(rng, m)))
        if not pos.problems():
            made += 1
            yield pos


def _self_played(n: int, seed: int) -> Iterator[tuple[Position, Profile]]:
    """Self-played positions of the bearing-off phase, under the sortie profiles."""
    return self_played_positions(n, seed, SORTIE_PROFILES, lambda pos: sum(pos.mover[1:19]) < 2)


def _forms(pos: Position, roll: tuple[int, int], profile: Profile, rng: random.Random) -> list[Moves]:
    """Written forms of one throw, legal and not (see the module docstring)."""
    ps, forms = listed_forms(pos, roll, profile)
    m = pos.mover
    occ = [p for p in range(1, 25) if m[p]]
    a, b = roll
    for p in occ:
        forms.append([(p, 25)])
        forms.append([(p, min(p + a, 25)), (p, min(p + b, 25))] if m[p] > 1 else [(p, min(p + a + b, 25))])
        for p2 in occ:
            if p2 > p:
                forms.append([(p, 25), (p2, 25)])
                forms.append([(p, min(p + a, 25)), (p2, min(p2 + b, 25))])
                forms.append([(p, min(p + b, 25)), (p2, min(p2 + a, 25))])
    for play in ps.plays[:2]:
        forms += mistakes(pos, roll, play, rng, profile)
    return forms


def _compare(cases: Iterator[tuple[Position, Profile]], seed: int) -> Counter:
    rng = random.Random(seed)
    seen: Counter = Counter()
    for pos, profile in cases:
        for roll in ROLLS:
            ps = legal_plays(pos, roll, profile)
            seen[("none", "one", "two")[len(ps.plays[0].numbers)]] += 1
            seen["fills"] += ps.fills
            seen["conserves"] += ps.conserves
            for moves in _forms(pos, roll, profile, rng):
                compare_with_reference(pos, roll, moves, profile, seen)
    return seen


def _random_cases(n: int, seed: int) -> Iterator[tuple[Position, Profile]]:
    for i, pos in enumerate(_random_positions(n, seed)):
        yield pos, SORTIE_PROFILES[i % len(SORTIE_PROFILES)]


def test_random_end_games_as_the_enumeration() -> None:
    """RULES.md §3.10 S1-S7, §3.6-§3.7: same verdict, same Play, on random end games
    under every bearing-off switch; most legal plays decided without enumeration."""
    seen = _compare(_random_cases(50, 7), 7)
    assert seen["coups"] >= 50_000
    # the corpus holds both verdicts, plays of one number and of none, and the pleins law
    assert seen["legal"] > 3000 and seen["illegal"] > 10_000
    assert seen["one"] > 50 and seen["none"] > 10 and seen["fills"] > 30 and seen["conserves"] > 50
    assert seen["decided legal"] > seen["legal"] * 3 // 4
    if os.environ.get("TRICTRAC_SLOW"):
        assert _compare(_random_cases(500, 1852), 1852)["coups"] >= 300_000


def test_self_played_end_games_as_the_enumeration() -> None:
    """The bearing-off positions the bots reach, under the sortie profiles."""
    seen = _compare(_self_played(15, 11), 11)
    assert seen["coups"] >= 10_000 and seen["legal"] > 1000
    assert seen["decided legal"] > seen["legal"] * 3 // 4
    if os.environ.get("TRICTRAC_SLOW"):
        assert _compare(_self_played(300, 1852), 1852)["coups"] >= 100_000


def test_last_checker_is_played_tout_d_une() -> None:
    """RULES.md §3.2 M2-M3, §3.10 S2, S5: one checker left on 19, 6-5 — it rests on 24
    and bears off with the 6 (excédant): a play of both numbers, as ``legal_plays`` lists
    it; an opposing checker on 24 leaves the 6 alone (the 5 unplayable, M7)."""
    pos = position_of({19: 1}, {18: 10})
    play = direct_play(pos, (6, 5), [(19, 25)])
    assert isinstance(play, Play) and play.steps == ((19, 24), (24, 25)) and play.numbers == (5, 6)
    assert play in legal_plays(pos, (6, 5)).plays
    blocked = position_of({19: 1}, {1: 1, 18: 9})  # his 1 is the mover's 24
    play = direct_play(blocked, (6, 5), [(19, 25), 5])
    assert isinstance(play, Play) and play.steps == ((19, 25),) and play.numbers == (6,)
    assert play == reference(blocked, (6, 5), [(19, 25), 5], DEFAULT_PROFILE)


def test_privilege_de_la_bande() -> None:
    """RULES.md §3.10 S7, §3.7 M11 (003 §110, §196): a made jan de retour with surplus
    checkers on 23 and 24 — 2-1 bears them off and keeps the jan, proven directly;
    breaking it when it can be conserved is excluded (left to the enumeration, which
    calls it "must-conserve")."""
    pos = position_of({19: 2, 20: 2, 21: 2, 22: 2, 23: 3, 24: 3}, {18: 10})
    play = direct_play(pos, (2, 1), [(23, 25), (24, 25)])
    assert isinstance(play, Play) and play == reference(pos, (2, 1), [(23, 25), (24, 25)], DEFAULT_PROFILE)
    assert play.steps == ((23, 25), (24, 25)) and play.numbers == (2, 1)
    assert proven_legal(pos, (2, 1), [(23, 25), (24, 25)], DEFAULT_PROFILE)
    breaks = [(19, 21), (20, 21)]
    assert direct_play(pos, (2, 1), breaks) is UNDECIDED
    assert judge_direct(pos, (2, 1), breaks).violation == "must-conserve"


def test_sortant_must_bear_off_switch() -> None:
    """RULES.md §3.10 S3 (switch D15): a sortant 5 played inside is legal by default,
    refused when a sortant number must bear off."""
    pos = position_of({19: 3, 20: 4, 22: 3}, {18: 10})
    inside = [(19, 24), (22, 24)]  # the 5 inside though a checker on 20 could bear off
    strict = replace(DEFAULT_PROFILE, sortant_must_bear_off=True)
    assert direct_play(pos, (5, 2), inside, strict) is UNDECIDED
    assert reference(pos, (5, 2), inside, strict) is None
    play = direct_play(pos, (5, 2), inside)
    assert isinstance(play, Play) and play == reference(pos, (5, 2), inside, DEFAULT_PROFILE)
    off = [(20, 25), (22, 24)]
    assert direct_play(pos, (5, 2), off, strict) == reference(pos, (5, 2), off, strict) is not None


def test_a_lone_checker_on_the_coin_is_no_play() -> None:
    """RULES.md §3.5 C1-C2, §3.6 M6-M7: the last checker outside on 5, the others on
    24 (they cannot bear off yet, S1): 4-3 tout d'une would leave it alone on the coin,
    so no play of both numbers exists and the 4 alone is the play, proven directly."""
    pos = position_of({5: 1, 24: 14}, {18: 10})
    play = direct_play(pos, (4, 3), [(5, 9), 3])
    assert isinstance(play, Play) and play.steps == ((5, 9),) and play.numbers == (4,)
    assert play == reference(pos, (4, 3), [(5, 9), 3], DEFAULT_PROFILE)
    assert direct_play(pos, (4, 3), [(5, 8), 4]) is UNDECIDED  # M7: the larger number
    assert reference(pos, (4, 3), [(5, 12)], DEFAULT_PROFILE) is None
