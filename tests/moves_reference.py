"""An independent, slow reference for legal plays, written straight from RULES.md §3.

It shares no code with ``replay/rules/moves.py``: the mover's 15 checkers are a list of
individual positions, every assignment of the two numbers to checkers is tried
step by step (both orders), each law is checked literally, then the obligations
are applied in the order of RULES.md §3.12.  Used only by the tests.

Result: a dict ``{result counts: filled bits}`` of the legal plays (one per resulting
position), the unplayable numbers, and the fills / conserves flags.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

from trictrac.replay.rules.position import Position
from trictrac.replay.rules.profiles import Profile

PLEINS = {1: range(1, 7), 2: range(7, 13), 4: range(19, 25)}  # bit -> points (RULES.md §2.4)


@dataclass
class RefResult:
    plays: dict[tuple[int, ...], int]  # result counts -> filled bits
    unplayable: tuple[int, ...]
    fills: bool
    conserves: bool
    numbers_played: int


def _counts(checkers: list[int]) -> tuple[int, ...]:
    c = [0] * 26
    for x in checkers:
        c[x] += 1
    return tuple(c)


def _made(checkers: list[int], points: range) -> bool:
    return all(sum(1 for x in checkers if x == p) >= 2 for p in points)


class Reference:
    def __init__(self, pos: Position, profile: Profile) -> None:
        self.pos = pos
        self.profile = profile
        o = pos.other  # the opponent, in his own frame

        # P3 operational test (RULES.md §3.8, corrected): a plein is still possible iff
        # for every k = 1..6 at least 2k of his checkers stand on or behind its k-th
        # point — 003 §77: one checker behind his 7th point, "il ne peut plus faire de
        # plein" in his second table (the old count test, >= 12 on his 1..12, said he could)
        def possible(first: int) -> bool:
            return all(sum(o[p] for p in range(1, first + k)) >= 2 * k for k in range(1, 7))

        petit_possible = possible(1)
        grand_possible = possible(7)
        if profile.opponent_table_closed == "until-broken":
            grand_made = all(o[p] >= 2 for p in range(7, 13))
            grand_closed = grand_made or ("grand-jan" not in pos.other_jans and grand_possible)
        else:
            grand_closed = grand_possible
        self.closed = set()
        if petit_possible:
            self.closed |= set(range(19, 25))  # his first table, my 19..24
        if grand_closed:
            self.closed |= set(range(13, 19))  # his second table, my 13..18

    # -- the opponent --------------------------------------------------------------
    def opposing(self, q: int) -> bool:
        """An opposing checker on my point q (he counts it 25 - q)."""
        return 1 <= q <= 24 and self.pos.other[25 - q] > 0

    # -- laws of one step ----------------------------------------------------------
    def may_stop(self, q: int) -> bool:
        """L1, L2, L4 for q <= 24 (L3, the lone coin, is checked on the whole throw)."""
        if self.opposing(q):
            return False  # L1
        if q == 13:
            return False  # L2
        if q in self.closed:
            return False  # L4
        return True

    def may_rest(self, q: int, checkers: list[int], mover: int) -> bool:
        """R1-R5: no opposing checker; own empty coin only with the switch."""
        if q > 24 or self.opposing(q):
            return False
        if q == 12 and not self.profile.rest_on_own_empty_coin:
            others_on_coin = sum(1 for k, x in enumerate(checkers) if x == 12 and k != mover)
            if others_on_coin == 0:
                return False
        return True

    def all_home(self, checkers: list[int]) -> bool:
        """S1: all 15 in 19..24 (or already off); S6 switch."""
        if not all(x >= 19 for x in checkers):
            return False
        if not self.profile.bear_off_while_plein_possible:
            made = _made(checkers, range(19, 25))
            if not made and self._retour_possible(checkers):
                return False
        return True

    @staticmethod
    def _retour_possible(checkers: list[int]) -> bool:
        # every point of 19..24 can still get two checkers from behind or itself
        live = sorted(x for x in checkers if x <= 24)
        need = []
        for p in range(19, 25):
            need += [p, p]
        # match the 12 needs with checkers at or behind each point, greedily
        if len(live) < 12:
            return False
        return all(live[i] <= need[i] for i in range(12))

    def step(self, checkers: list[int], k: int, n: int, resting: bool) -> int | None:
        """Where checker k goes with number n (None = illegal).  Bearing off S1-S5."""
        p = checkers[k]
        if p > 24:
            return None
        q = p + n
        home = self.all_home(checkers)
        if q <= 24:
            ok = self.may_rest(q, checkers, k) if resting else self.may_stop(q)
            if not ok:
                return None
            if home and self.profile.sortant_must_bear_off and any(x == 25 - n for x in checkers):
                return None  # S3 switch: the sortant number must bear off
            if home and self.profile.defaillant_rearmost and not any(x == 25 - n for x in checkers):
                movable = [x for x in checkers if x <= 24 and x + n <= 24 and self.may_stop(x + n)]
                if movable and p != min(movable):
                    return None  # S4 switch: the rearmost checker
            return q
        if not home:
            return None  # L5
        if q == 25:
            return 25  # S2 sortant
        if any(x < p for x in checkers):
            return None  # S4: défaillant, play inside
        if self.profile.sortant_must_bear_off and any(x == 25 - n for x in checkers):
            return None
        return 25  # S5 excédant: the rearmost checker

    # -- a whole throw -------------------------------------------------------------
    def legal(self, roll: tuple[int, int]) -> RefResult:
        start = []
        for p in range(1, 26):
            start += [p] * self.pos.mover[p]
        a, b = roll
        cands: dict[tuple[int, ...], list[int]] = {}  # result -> [numbers played, filled, larger played]

        def fills_of(states: list[list[int]]) -> int:
            # M13 (003 §398): "il faut que l'autre nombre puisse se jouer sans rompre":
            # only the final state fills; the states after one step (remplir en
            # passant) only with the switch of D33
            if not self.profile.score_remplir_en_passant:
                states = states[-1:]
            f = 0
            for bit, pts in PLEINS.items():
                if not _made(start, pts) and any(_made(s, pts) for s in states):
                    f |= bit
            return f

        def add(final: list[int], n_played: int, filled: int, larger: bool) -> None:
            if sum(1 for x in final if x == 12) == 1:
                return  # L3 / C1-C2: a lone checker on the coin
            key = _counts(final)
            c = cands.get(key)
            if c is None:
                cands[key] = [n_played, filled, larger]
            elif n_played > c[0]:
                cands[key] = [n_played, filled, larger]  # the same position playing more numbers
            elif n_played == c[0]:
                c[1] |= filled
                c[2] = c[2] or larger

        orders = set(permutations((a, b)))
        for x, y in orders:
            for i in range(15):
                # tout d'une: checker i rests after x, goes on with y (M2, M3)
                r = self.step(start, i, x, resting=True)
                if r is not None and r <= 24:
                    s1 = list(start)
                    s1[i] = r
                    q = self.step(s1, i, y, resting=False)
                    if q is not None:
                        s2 = list(s1)
                        s2[i] = q
                        add(s2, 2, fills_of([s2]), True)
                q1 = self.step(start, i, x, resting=False)
                if q1 is None:
                    continue
                s1 = list(start)
                s1[i] = q1
                add(s1, 1, fills_of([s1]), x == max(a, b))
                for j in range(15):
                    if j == i:
                        continue
                    q2 = self.step(s1, j, y, resting=False)
                    if q2 is None:
                        continue
                    s2 = list(s1)
                    s2[j] = q2
                    add(s2, 2, fills_of([s1, s2]), True)
        # coin par puissance (C3-C5): my coin and his coin empty, two checkers reach
        # 13 one by each number, and no two checkers reach 12 one by each number.
        if 12 not in start and self.pos.other[12] == 0 and min(a, b) > 1:

            def pair(target: int) -> tuple[int, int] | None:
                for i in range(15):
                    for j in range(15):
                        if i != j and start[i] + a == target and start[j] + b == target:
                            return i, j
                return None

            pp = pair(13)
            if pp is not None and pair(12) is None:
                s2 = list(start)
                s2[pp[0]] = 12
                s2[pp[1]] = 12
                add(s2, 2, fills_of([s2]), True)
        # obligations (RULES.md §3.6-§3.7)
        if not cands:
            made_before = [bit for bit, pts in PLEINS.items() if _made(start, pts)]
            return RefResult({_counts(start): 0}, (a, b), False, bool(made_before), 0)
        most = max(c[0] for c in cands.values())
        pool = {k: c for k, c in cands.items() if c[0] == most}
        if most == 1:
            larger = {k: c for k, c in pool.items() if c[2]}
            if larger:
                pool = larger
                unplayable: tuple[int, ...] = (min(a, b),)
            else:
                unplayable = (max(a, b),)
        else:
            unplayable = ()
        fills = any(c[1] for c in pool.values())
        if fills:
            pool = {k: c for k, c in pool.items() if c[1]}
            # a plein just filled must be kept if the throw allows: fill and keep
            # beats remplir en passant (M11, M13 "forces"; 003 §60, §62, §82)
            keep = {
                k: c
                for k, c in pool.items()
                if any(c[1] & bit and all(k[p] >= 2 for p in pts) for bit, pts in PLEINS.items())
            }
            if keep:
                pool = keep
        conserves = False
        if not fills:
            made_before = [pts for pts in PLEINS.values() if _made(start, pts)]
            for pts in made_before:
                keep = {k: c for k, c in pool.items() if all(k[p] >= 2 for p in pts)}
                if keep:
                    conserves = True
                    pool = keep
        return RefResult({k: c[1] for k, c in pool.items()}, unplayable, fills, conserves, most)


def reference_legal(pos: Position, roll: tuple[int, int], profile: Profile) -> RefResult:
    return Reference(pos, profile).legal(roll)
