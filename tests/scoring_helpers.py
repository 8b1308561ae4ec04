"""Helpers for the scoring and analyser tests: positions from partial book examples,
random reachable positions, and a slow reference scorer for hits and fills written
plainly from RULES.md §4.3 and §4.5 (no shared code with replay/rules/scoring.py)."""

from __future__ import annotations

import random
from collections.abc import Mapping

from trictrac.replay.rules.moves import legal_plays
from trictrac.replay.rules.position import Position, start_position
from trictrac.replay.rules.profiles import DEFAULT_PROFILE, Profile
from trictrac.replay.rules.scoring import CoupScore, ScoringEvent, next_position


def make(mover: Mapping[int, int], other: Mapping[int, int], **facts: object) -> Position:
    """A position from two ``{point: count}`` dicts (each side's own frame); both sides
    must total 15 (the tests complete the books' partial positions explicitly)."""
    pos = Position.from_points(mover, other, **facts)
    assert not pos.problems(), pos.problems()
    return pos


def events(sc: CoupScore | tuple[ScoringEvent, ...], kind: str | None = None) -> list[tuple]:
    """Events as comparable tuples ``(side, kind, ways, points, target, how)``."""
    evs = sc.events if isinstance(sc, CoupScore) else sc
    return [(e.side, e.kind, e.ways, e.points, e.target, e.how) for e in evs if kind is None or e.kind == kind]


def hits(evs: tuple[ScoringEvent, ...]) -> dict[tuple[str, int], int]:
    """``{(side, target): points}`` of the battre-a-vrai / battre-a-faux events."""
    return {(e.side, e.target): e.points for e in evs if e.kind in ("battre-a-vrai", "battre-a-faux")}


ALL_ROLLS = tuple((a, b) for a in range(6, 0, -1) for b in range(a, 0, -1))


def weight(roll: tuple[int, int]) -> int:
    return 1 if roll[0] == roll[1] else 2


def random_positions(seed: int, plies: int, profile: Profile = DEFAULT_PROFILE) -> list[Position]:
    """Positions met by random legal play from the talons (both sides), through
    ``next_position``; a sortie restarts from the talons."""
    rng = random.Random(seed)
    pos = start_position(rng.choice("AB"))
    out = [pos]
    for _ in range(plies):
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        roll = (max(a, b), min(a, b))
        ps = legal_plays(pos, roll, profile)
        play = rng.choice(ps.plays)
        if play.result[25] == 15:
            pos = start_position(pos.turn)
        else:
            pos = next_position(pos, roll, play, profile)
        out.append(pos)
    return out


# ---------------------------------------------------------------------------------
# slow reference scorer (RULES.md §4.3, §4.5), written from the text
# ---------------------------------------------------------------------------------


def ref_hits(pos: Position, roll: tuple[int, int], profile: Profile = DEFAULT_PROFILE) -> dict[tuple[str, int], int]:
    """{(side, target): points} for every hit, straight from §4.3 B1-B5 and R5."""
    a, b = roll
    doublet = a == b
    opp = {p: pos.other[25 - p] for p in range(1, 25)}  # opposing checkers, mover's frame
    out: dict[tuple[str, int], int] = {}
    for t in range(1, 25):
        if opp[t] != 1:
            continue  # B1: only a lone checker is a target
        if 7 <= t <= 18:
            value = 4 if doublet else 2
        else:
            value = 6 if doublet else 4
        ways = []  # (distance, repos points or None for a single number)
        if doublet:
            ways = [(a, None), (2 * a, [a])]
        else:
            ways = [(a, None), (b, None), (a + b, [a, b])]
        for d, repos_steps in ways:
            src = t - d
            if src < 1 or pos.mover[src] == 0:
                continue
            if repos_steps is None:
                side = "mover"  # 003 §138: by one number always à vrai
            else:
                open_ = False
                for step in repos_steps:
                    r = src + step
                    if r == 12 and pos.mover[12] == 0 and not profile.rest_on_own_empty_coin:
                        continue  # R5: own empty coin closed
                    if opp[r] <= 1:
                        open_ = True
                side = "mover" if open_ else "other"
            out[(side, t)] = out.get((side, t), 0) + value
    return out


_TABLES = {"petit-jan": range(1, 7), "grand-jan": range(7, 13), "jan-de-retour": range(19, 25)}


def _moved(counts: tuple[int, ...], frm: int, to: int) -> tuple[int, ...]:
    c = list(counts)
    c[frm] -= 1
    c[min(to, 25)] += 1
    return tuple(c)


def ref_fill(pos: Position, roll: tuple[int, int], profile: Profile = DEFAULT_PROFILE) -> tuple[str, int] | None:
    """(kind, ways) of a fill, from §4.5 F2-F4 and F3's three conditions, using only
    the resulting positions of the legal plays."""
    a, b = roll
    m = pos.mover
    results = {p.result for p in legal_plays(pos, roll, profile).plays}
    for kind, table in _TABLES.items():
        missing = sum(max(0, 2 - m[p]) for p in table)
        if missing == 0 or missing > 2:
            continue
        if missing == 2:
            # F4: a case or two demi-cases: one way when a legal play makes the plein
            if any(all(r[p] >= 2 for p in table) for r in results):
                two = profile.two_demi_cases_two_ways and sum(1 for p in table if m[p] == 1) == 2
                return kind, 2 if two else 1
            return None
        gap = next(p for p in table if m[p] == 1)
        ways = 0
        options = (
            [(a, b, False), (b, a, False), (a + b, None, True)] if a != b else [(a, a, False), (2 * a, None, True)]
        )
        for d, other_number, is_sum in options:
            src = gap - d
            if src < 1:
                continue
            spare = m[src] - (2 if (src in table or src == 12) else 0)
            if spare < 1:
                continue  # F3 (i): a surplus checker
            partial = _moved(m, src, gap)
            if is_sum:
                steps = [a] if a == b else [a, b]
                ok_repos = False
                for s in steps:
                    r = src + s
                    if r == 12 and m[12] == 0 and not profile.rest_on_own_empty_coin:
                        continue
                    if pos.other[25 - r] == 0:
                        ok_repos = True
                if ok_repos and partial in results:  # F3 (ii), (iii)
                    ways += 1
                continue
            # F3 (iii): the other number then played anywhere without breaking, or
            # nothing (M13, 003 §398: "il faut que l'autre nombre puisse se jouer sans
            # rompre"; breaking = remplir en passant, a fill only under switch D33)
            done = partial in results
            for q in range(1, 25):
                if done:
                    break
                if partial[q] > 0:
                    r = _moved(partial, q, q + other_number)
                    if r in results and (profile.score_remplir_en_passant or all(r[p] >= 2 for p in table)):
                        done = True
            if done:
                ways += 1
        return (kind, ways) if ways else None
    return None
