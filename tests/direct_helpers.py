"""Coups for the differential test of ``replay.rules.direct``: self-play positions, the play
the bot wrote, and the mistakes ``replay/generate/inject.py`` injects plus random perturbations."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace

from trictrac.bench.judge import game_coups, written
from trictrac.replay.rules.direct import UNDECIDED, direct_play
from trictrac.replay.rules.moves import Play, PlaySet, judge_play, legal_plays
from trictrac.replay.rules.position import Position
from trictrac.replay.rules.profiles import DEFAULT_PROFILE, Profile, find_profile

PROFILES: tuple[Profile, ...] = (
    DEFAULT_PROFILE,
    replace(DEFAULT_PROFILE, rest_on_own_empty_coin=True),
    replace(DEFAULT_PROFILE, sortant_must_bear_off=True, defaillant_rearmost=True),
    find_profile("lebrun-1828"),
)

Moves = list  # (from, to) pairs and bare ints, as judge_play takes them


def mistakes(pos: Position, roll: tuple[int, int], play: Play, rng: random.Random, profile: Profile) -> list[Moves]:
    """Wrong writings of one coup: the kinds of ``replay/generate/inject.py`` (illegal-move: two
    random steps of the roll; unplayed-number: one step alone; must-fill / must-conserve /
    both-numbers: a play an obligation excluded; missing-checker: a move one point off)
    and typos (a digit off, from and to exchanged, the steps swapped, a step dropped)."""
    a, b = roll
    me = pos.mover
    pts = [p for p in range(1, 25) if me[p]]
    out: list[Moves] = []
    if pts:
        p, q = rng.choice(pts), rng.choice(pts)
        out.append([(p, min(p + a, 25)), (q, min(q + b, 25))])
        out.append([(p, min(p + rng.choice(roll), 25))])
    ex = legal_plays(pos, roll, profile).excluded() if rng.random() < 0.5 else ()
    if ex:
        out.append(list(rng.choice(ex)[0].steps))
    base = written(play, ())
    if base:
        i = rng.randrange(len(base))
        p, q = base[i]
        for d in (-1, 1):
            out.append(base[:i] + [(p + d, q)] + base[i + 1 :])
            out.append(base[:i] + [(p, q + d)] + base[i + 1 :])
        out.append(base[:i] + [(q, p)] + base[i + 1 :])
        out.append(base[::-1])
        out.append(base[:i] + base[i + 1 :])
        out.append(list(play.steps))  # a tout d'une written as its two steps
    return out


def coups(n: int, seed: int) -> Iterator[tuple[Position, tuple[int, int], Moves, Profile]]:
    """``n`` written coups: self-played games under each profile in turn (the bots of
    ``replay.generate.selfplay``), each coup as written and with its mistakes."""
    rng = random.Random(seed)
    made = 0
    for pos, roll, play, unplayable, profile in game_coups(seed, PROFILES):
        for mv in [written(play, unplayable), *mistakes(pos, roll, play, rng, profile)]:
            if made == n:
                return
            yield pos, roll, mv, profile
            made += 1


def reference(pos: Position, roll: tuple[int, int], moves: Moves, profile: Profile) -> Play | None:
    """The engine's own verdict: the legal play ``judge_play`` matches, or None."""
    j = judge_play(pos, roll, moves, profile)
    return j.play if j.legal else None


def injected_coups(games: int, seed: int) -> Iterator[tuple[Position, tuple[int, int], Moves, Profile]]:
    """The coups of self-played parties with ``replay.generate.inject`` mistakes in them, as
    written, each from the position the verifier reached before it (its trace)."""
    from trictrac.notation.record import CannotPlay, Move
    from trictrac.replay.generate.inject import inject
    from trictrac.replay.generate.selfplay import play_partie
    from trictrac.replay.rules.position import start_position
    from trictrac.replay.verifier.verify import verify

    for i in range(games):
        rec = play_partie(random.Random(seed + i), "a-ecrire" if i % 2 else "douze-trous")
        bad, _done = inject(rec, 8, random.Random(seed + i))
        trace = verify(bad, DEFAULT_PROFILE, trace=True).trace
        prev = None
        for coup, t in zip(bad.coups, trace):
            pos = start_position(coup.side) if prev is None or prev.releve_ended else prev.position_after
            prev = t
            if pos.turn != coup.side:
                continue  # a coup written for the wrong side: not a play of this position
            moves: Moves = [
                (m.from_, m.to) if isinstance(m, Move) else m.number
                for m in coup.moves
                if isinstance(m, (Move, CannotPlay))
            ]
            yield pos, coup.roll, moves, DEFAULT_PROFILE


def position_of(mover: dict[int, int], other: dict[int, int]) -> Position:
    """A position from the checkers on each side's points (its own frame), the rest of
    the 15 borne off; checked lawful."""
    m, o = [0] * 26, [0] * 26
    for p, n in mover.items():
        m[p] = n
    for p, n in other.items():
        o[p] = n
    m[25] = 15 - sum(m)
    o[25] = 15 - sum(o)
    pos = Position(tuple(m), tuple(o))
    assert not pos.problems()
    return pos


def self_played_positions(
    n: int, seed: int, profiles: tuple[Profile, ...], wanted: Callable[[Position], bool]
) -> Iterator[tuple[Position, Profile]]:
    """``n`` distinct self-played positions (with the profile played) that ``wanted`` keeps."""
    seen = set()
    for pos, _roll, _play, _unplayable, profile in game_coups(seed, profiles):
        if wanted(pos) and (pos, profile.name) not in seen:
            seen.add((pos, profile.name))
            yield pos, profile
            if len(seen) == n:
                return


def listed_forms(pos: Position, roll: tuple[int, int], profile: Profile) -> tuple[PlaySet, list[Moves]]:
    """The legal plays and the written forms they give: nothing, the bare numbers, each
    legal play written and as steps, each of its steps alone, each play an obligation
    excluded."""
    ps = legal_plays(pos, roll, profile)
    forms: list[Moves] = [[], list(roll)]
    forms += [written(p, ps.unplayable) for p in ps.plays] + [list(p.steps) for p in ps.plays]
    forms += [[p.steps[i]] for p in ps.plays for i in range(len(p.steps))]
    forms += [written(p, ()) for p, _why in ps.excluded()]
    return ps, forms


def compare_with_reference(
    pos: Position, roll: tuple[int, int], moves: Moves, profile: Profile, seen: Counter[str]
) -> tuple[object, Play | None]:
    """``direct_play`` against the enumeration's answer for one written form: equal
    whenever the proof decides; counted in ``seen`` (coups, legal / illegal, decided,
    decided legal / illegal).  Returns (the proof's answer, the reference)."""
    ref = reference(pos, roll, moves, profile)
    got = direct_play(pos, roll, moves, profile)
    if got is not UNDECIDED:
        assert got == ref, (pos, roll, moves, profile.name, got, ref)
        seen["decided"] += 1
        seen["decided legal" if ref is not None else "decided illegal"] += 1
    seen["coups"] += 1
    seen["legal" if ref is not None else "illegal"] += 1
    return got, ref
