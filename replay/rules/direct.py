"""The written play judged directly, without enumerating every legal play (issue 17).

A verifier does not need every legal play of a throw to judge a written one: it needs
to know whether the written play is legal and, only when it is not, what the legal
ones are.  :func:`direct_play` proves the common cases — every movement law kept, both
numbers played or only one (none) playable, the pleins' duties met — from the
position alone; :func:`judge_written` falls back to :func:`~.moves.legal_plays`
whenever that proof is not at hand, so its answer is always the enumeration's:
"the legal play with the same resulting position" (checkers are indistinguishable,
as in :func:`~.moves.judge_play`).

Only facts of ``moves.py`` are used (:func:`~.moves.opponent_table_closed`, the tables;
for bearing off its own step law ``_step_ok`` and per-position facts ``_info``), so a
rule fixed there reaches this module; ``tests/test_direct*.py`` compare both ways on
several hundred thousand coups.

What the proof checks (RULES.md §3):

* the written pairs can be executed: forward, from a point holding a checker (§3.1
  M1-M3; otherwise the written play is not executable: ``None``, as ``judge_play``);
* no checker can bear off during the throw (>= 2 checkers on 1..18, §3.10 S1), so
  every step law is static and the order of the steps does not matter;
* the net change is one checker moving the sum (tout d'une, §3.1 M3, resting on a
  repos §3.4 R1-R5), two checkers moving one number each (tout à bas, M2), or the coin
  taken par puissance when it cannot be taken directly (§3.5 C3-C5); each
  landing point is open (§3.3 L1 no opposing checker, L2 not the opponent's coin, L4
  not a closed table §3.8 P3) and the coin never holds a lone checker at the end
  (§3.5 C1-C2);
* both numbers are played, so M6 and M7 (§3.6) hold; then M10-M12 (§3.7): with a plein
  that can still be filled (lacking one or two checkers), the play makes it at its end
  (a fill that is also kept, so neither "must-fill" nor "must-conserve" can exclude
  it), or no play of both numbers can make it (:func:`_fill_possible` tries the plays
  that land a checker on a gap, the only ones that can); with none, it must keep a
  plein made before the throw when there is one, or no play can keep it
  (:func:`_keep_possible`: the plays whose checkers leave surplus points);
* or one number, or none, is played (:func:`_short_play`): no play of both numbers
  exists (M6), the larger number is played whenever one can be (M7), and no other
  single play of that number fills or keeps the plein at stake (M10-M11).

When a checker may bear off during the throw (at most one checker on 1..18, §3.10 S1),
:func:`_sortie_play` plays the steps one after the other by ``moves``' step law (S1-S6
and their switches): the route ``legal_plays`` lists for the written result, then M6-M7
and the pleins law, the jan de retour conserved par le privilège de la bande (S7).

Anything else — one number played with a coin par puissance possible (§3.5 C3), a lone
checker on the coin, a plein at stake under the switch D33 (fills *en passant*) — is
left to the enumeration (``UNDECIDED``).  The legal play returned is the one ``legal_plays``
lists for that resulting position, route included: a tout d'une rests on the point of
the larger number when that point is a repos, else on the other; a tout-à-bas play
lists the larger number's step first, the pairing with the lowest starting points.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Final, overload

from ...notation.compiled import compiled_module
from .moves import (
    OFF,
    PLEIN_AT,
    Play,
    PlayJudgement,
    _Info,
    _info,
    _step_ok,
    _two_number_plays,
    heavy_table,
    judge_play,
    legal_plays,
    opponent_table_closed,
    plein_made,
)
from .position import Position
from .profiles import DEFAULT_PROFILE, Profile

#: this module runs compiled by mypyc (``python -m trictrac.bench.compile_core``)
_COMPILED: Final = compiled_module(__file__)

__all__ = [
    "UNDECIDED",
    "Written",
    "LegalPlays",
    "direct_play",
    "judge_direct",
    "judge_written",
    "proven_legal",
    "written_in_legal_plays",
]

#: moves as written, as :func:`~.moves.judge_play` takes them: ``(from, to)`` pairs and
#: bare ints (a number declared unplayable)
Written = Sequence[tuple[int, int] | int]
Steps = tuple[tuple[int, int], ...]
#: a play's steps and their numbers
Route = tuple[Steps, tuple[int, int]]

COIN = 12
OPP_COIN = 13


class _Undecided:
    """The direct proof is not at hand: enumerate (a singleton)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNDECIDED"


UNDECIDED: Final = _Undecided()

#: points 1..24 but the opponent's coin (L2): where a checker may stop, before L1 and L4
_STOP_BASE = sum(1 << p for p in range(1, 25)) & ~(1 << OPP_COIN)
_MASK_1_24 = sum(1 << p for p in range(1, 25))


def _execute(mover: tuple[int, ...], moves: Written) -> tuple[list[int], dict[int, int]] | None:
    """Counts after the written pairs and the net change by point, or None when a pair
    goes backward, off the board or from an empty point (RULES.md §3.1; not executable)."""
    r = list(mover)
    delta: dict[int, int] = {}
    for mv in moves:
        if isinstance(mv, int):
            continue  # a number declared unplayable: no checker moves
        p, q = int(mv[0]), int(mv[1])
        if not (1 <= p <= 24 and p < q <= OFF) or r[p] <= 0:
            return None
        r[p] -= 1
        r[q] += 1
        delta[p] = delta.get(p, 0) - 1
        delta[q] = delta.get(q, 0) + 1
    return r, delta


def _sides(delta: dict[int, int]) -> tuple[list[int], list[int]] | None:
    """Points left and reached (with multiplicity), or None unless two checkers' worth."""
    src: list[int] = []
    dst: list[int] = []
    for p, d in delta.items():
        if d < 0:
            src.extend((p,) * -d)
        elif d > 0:
            dst.extend((p,) * d)
    if not 1 <= len(src) == len(dst) <= 2:
        return None
    src.sort()
    dst.sort()
    return src, dst


def _route(
    pos: Position, profile: Profile, a: int, b: int, src: list[int], dst: list[int]
) -> tuple[Steps, tuple[int, int]] | None:
    """``(steps, numbers)`` of the two-number play with this net change as ``legal_plays``
    lists it, or None when no movement-legal tout d'une or tout à bas makes it."""
    other = pos.other
    hi = dst[-1]  # ascending
    if hi > 24:
        return None
    # L1, L2, L4 (RULES.md §3.3): the closed tables only matter from 13 on
    closed = opponent_table_closed(pos, profile) if hi >= OPP_COIN else 0
    for q in dst:
        if other[25 - q] or q == OPP_COIN or (closed >> q) & 1:
            return None
    if len(src) == 1:
        x = src[0]
        if hi - x != a + b:
            return None
        for u, w in ((a, b), (b, a)):
            r = x + u
            # R1-R5: a repos holds no opposing checker; one's own empty coin is none (R5)
            if not other[25 - r] and (r != COIN or pos.mover[COIN] or profile.rest_on_own_empty_coin):
                return ((x, r), (r, hi)), (u, w)
        return None
    # tout à bas: the larger number's step first, the pairing with the lowest starts
    s0, s1 = src
    d0, d1 = dst
    for sa, sb in ((s0, s1), (s1, s0)):
        for qa, qb in ((d0, d1), (d1, d0)):
            if qa - sa == a and qb - sb == b:
                return ((sa, qa), (sb, qb)), (a, b)
    return None


def direct_play(
    pos: Position, roll: Sequence[int], moves: Written, profile: Profile = DEFAULT_PROFILE
) -> Play | None | _Undecided:
    """The legal :class:`~.moves.Play` the written ``moves`` make, proven without
    enumeration; ``None`` when they cannot be executed; ``UNDECIDED`` otherwise.

    ``moves`` as for :func:`~.moves.judge_play`: ``(from, to)`` pairs in the mover's
    frame, bare ints for numbers declared unplayable.  See the module docstring for
    what is proven (RULES.md §3.1-§3.7, §3.10).
    """
    try:
        a, b = roll
    except (TypeError, ValueError):
        return UNDECIDED
    if type(a) is not int or type(b) is not int or not (1 <= a <= 6 and 1 <= b <= 6):
        return UNDECIDED  # the enumeration raises its own error
    if a < b:
        a, b = b, a
    m = pos.mover
    r = list(m)
    pairs = []
    for mv in moves:
        if isinstance(mv, int):
            continue  # a number declared unplayable: no checker moves
        p, q = mv
        if type(p) is not int or type(q) is not int:
            p, q = int(p), int(q)
        if not (1 <= p <= 24 and p < q <= OFF) or r[p] <= 0:
            return None  # RULES.md §3.1: not executable
        r[p] -= 1
        r[q] += 1
        pairs.append((p, q))
    if r[COIN] == 1:
        return UNDECIDED  # C1-C2: a lone checker on the coin
    if sum(m[1:19]) < 2:  # checkers on 1..18 (S1: with one, a checker may bear off)
        return _sortie_play(pos, profile, (a, b), pairs, r)  # S1: a checker may bear off
    if not pairs:
        return _short_play(pos, profile, a, b, pairs, r)
    sides = _net_change(pairs)
    if sides is None:
        return UNDECIDED
    route = _route(pos, profile, a, b, *sides) or _puissance_route(pos, a, b, *sides)
    if route is None:
        return _short_play(pos, profile, a, b, pairs, r) if len(pairs) <= 1 else UNDECIDED
    filled = _pleins_law(pos, profile, a, b, r)
    if filled < 0:
        return UNDECIDED
    return tuple.__new__(Play, (route[0], route[1], tuple(r), filled))


def _puissance_route(pos: Position, a: int, b: int, src: list[int], dst: list[int]) -> Route | None:
    """The coin taken par puissance (RULES.md §3.5 C3-C5) as ``legal_plays`` lists it:
    two checkers each one pip short of the opponent's empty coin put on one's own empty
    coin, when the throw cannot take it directly; None otherwise.  No other play has
    that net change (each checker moves one pip less than its number)."""
    if dst != [COIN, COIN] or b == 1 or pos.mover[COIN] or pos.other[COIN]:
        return None  # C3 (an ace would start on the coin), C4: the opponent's coin held
    s1, s2 = OPP_COIN - a, OPP_COIN - b
    if src != [s1, s2]:
        return None
    m = pos.mover
    d1, d2 = COIN - a, COIN - b
    if (m[d1] >= 2) if d1 == d2 else (m[d1] >= 1 and m[d2] >= 1):
        return None  # C5: the coin can be taken directly, "sans exception"
    return ((s1, COIN), (s2, COIN)), (a, b)


def _net_change(pairs: list[tuple[int, int]]) -> tuple[list[int], list[int]] | None:
    """Points left and reached by the executed pairs, ascending, with multiplicity; None
    unless one or two checkers' worth (a chain of pairs is one checker)."""
    if len(pairs) == 2:
        (p1, q1), (p2, q2) = pairs
        if q1 == p2:
            return [p1], [q2]
        if q2 == p1:
            return [p2], [q1]
        return ([p1, p2] if p1 <= p2 else [p2, p1]), ([q1, q2] if q1 <= q2 else [q2, q1])
    if len(pairs) == 1:
        return [pairs[0][0]], [pairs[0][1]]
    delta: dict[int, int] = {}
    for p, q in pairs:
        delta[p] = delta.get(p, 0) - 1
        delta[q] = delta.get(q, 0) + 1
    return _sides(delta)


def _pleins_law(pos: Position, profile: Profile, a: int, b: int, r: list[int]) -> int:
    """Pleins the two-number play ending on ``r`` fills, or -1 when M10-M13 (RULES.md
    §3.7) cannot be settled here: it fills (made at its end), or no play can fill and
    it keeps what can be kept."""
    lo, lacking = heavy_table(pos.mover)
    if lacking > 2:
        return 0  # three or more lacking: neither made nor fillable by one throw
    made_after = (
        r[lo] >= 2 and r[lo + 1] >= 2 and r[lo + 2] >= 2 and r[lo + 3] >= 2 and r[lo + 4] >= 2 and r[lo + 5] >= 2
    )
    if lacking == 0:  # made before the throw: kept, or broken when no play keeps it (M11)
        return 0 if made_after or not _keep_possible(pos, profile, a, b, lo) else -1
    if made_after:
        return PLEIN_AT[lo][2]  # made at the end: filled and kept (M10, M13)
    if profile.score_remplir_en_passant or _fill_possible(pos, profile, a, b, lo):
        # D33: another play filling en passant counts, which _fill_possible misses
        return -1  # M10: another play fills (the written one is illegal)
    return 0


def _keep_possible(pos: Position, profile: Profile, a: int, b: int, lo: int) -> bool:
    """Could a two-number play keep the made plein ``lo..lo+5`` (RULES.md §3.7 M11)?
    False only when none can, by the laws of ``moves._candidates_fast`` (no checker can
    bear off: S1 was checked).  A play keeps it when each checker leaving the table
    leaves a surplus (three or more; four for two from one point): a step that refills
    the point the other left makes a chain, the net change of a tout d'une resting on
    one's own point (R1), tried as such.  A lone checker on the coin, or a coin par
    puissance possible (§3.5 C3): True (the enumeration decides)."""
    m = pos.mover
    if m[COIN] == 1 or (m[COIN] == 0 and pos.other[COIN] == 0):
        return True
    stop, rest = _masks(pos, profile)
    hi = lo + 6
    s = a + b
    for p in range(1, 25 - s):  # tout d'une: one checker leaves p
        if m[p] and (stop >> (p + s)) & 1 and ((rest >> (p + a)) & 1 or (rest >> (p + b)) & 1):
            if (m[p] >= 3 or not lo <= p < hi) and m[COIN] - (p == COIN) + (p + s == COIN) != 1:
                return True
    spare_b = [p for p in range(1, 25 - b) if m[p] and (stop >> (p + b)) & 1 and (m[p] >= 3 or not lo <= p < hi)]
    for p1 in range(1, 25 - a):
        if m[p1] and (stop >> (p1 + a)) & 1 and (m[p1] >= 3 or not lo <= p1 < hi):
            for p2 in spare_b:
                if _pair_keeps(m, lo, (p1, p1 + a), (p2, p2 + b)):
                    return True
    return False


def _pair_keeps(m: Sequence[int], lo: int, step1: tuple[int, int], step2: tuple[int, int]) -> bool:
    """The two steps can be played together (two checkers), leave the plein
    ``lo..lo+5`` made and the coin lawful (RULES.md §3.5 C1-C2, §4.5 F1)."""
    (p1, q1), (p2, q2) = step1, step2
    if p1 == p2 and m[p1] < 2:
        return False
    for x in (p1, p2):
        if lo <= x < lo + 6 and m[x] - (x == p1) - (x == p2) + (x == q1) + (x == q2) < 2:
            return False
    return m[COIN] - (p1 == COIN) - (p2 == COIN) + (q1 == COIN) + (q2 == COIN) != 1


def _masks(pos: Position, profile: Profile) -> tuple[int, int]:
    """``(stop, rest)``: points 1..24 where a checker may stop (RULES.md §3.3 L1, L2, L4)
    and those usable as a repos (§3.4 R1-R5), as ``moves._make_info`` builds them."""
    other = pos.other
    blocked = 0
    for q in range(1, 25):
        if other[25 - q]:
            blocked |= 1 << q
    stop = _STOP_BASE & ~blocked & ~opponent_table_closed(pos, profile)
    rest = _MASK_1_24 & ~blocked
    if pos.mover[COIN] == 0 and not profile.rest_on_own_empty_coin:
        rest &= ~(1 << COIN)  # R5
    return stop, rest


def _short_play(
    pos: Position, profile: Profile, a: int, b: int, pairs: list[tuple[int, int]], r: list[int]
) -> Play | _Undecided:
    """A written play of one number, or of none (RULES.md §3.6 M6-M7): legal when no play
    of both numbers exists, the larger number is played whenever one can be, and no
    plein is at stake (M10-M11 among single plays: left to the enumeration), nor the
    coin (a lone checker there, a coin par puissance).  The play ``legal_plays`` lists:
    one step and its number, or no step."""
    m = pos.mover
    if m[COIN] <= 1 and pos.other[COIN] == 0:
        return UNDECIDED  # C1-C2 (a lone checker on the coin); a coin par puissance (C3)
    stop, rest = _masks(pos, profile)
    if _both_playable(m, a, b, stop, rest):
        return UNDECIDED  # M6: both numbers must be played
    if not pairs:
        if _one_playable(m, a, stop) or _one_playable(m, b, stop):
            return UNDECIDED  # M6: a number can be played
        return tuple.__new__(Play, ((), (), tuple(r), 0))  # nothing playable: no obligation
    ((p, q),) = pairs
    n = q - p
    if (n != a and n != b) or q > 24 or not (stop >> q) & 1:
        return UNDECIDED
    if n != a and _one_playable(m, a, stop):
        return UNDECIDED  # M7: the larger number when either can be played
    filled = 0
    lo, lacking = heavy_table(m)
    if lacking <= 2:  # three or more lacking: one step cannot make it
        if _made_from(r, lo):
            filled = PLEIN_AT[lo][2] if lacking else 0  # made at its end: filled (M13) or kept
        elif _single_makes(m, n, stop, lo):
            return UNDECIDED  # M10 / M11: another single play fills or keeps it
    return tuple.__new__(Play, (((p, q),), (n,), tuple(r), filled))


def _made_from(counts: Sequence[int], lo: int) -> bool:
    """The plein ``lo..lo+5`` made (RULES.md §4.5 F1)."""
    for x in range(lo, lo + 6):
        if counts[x] < 2:
            return False
    return True


def _single_makes(m: Sequence[int], n: int, stop: int, lo: int) -> bool:
    """Some checker can play ``n`` alone and leave the plein ``lo..lo+5`` made."""
    m12 = m[COIN]
    for p in range(1, 25 - n):
        q = p + n
        if m[p] and (stop >> q) & 1 and not (m12 + (q == COIN) - (p == COIN) == 1 and (p == COIN or q == COIN)):
            end = list(m)
            end[p] -= 1
            end[q] += 1
            if _made_from(end, lo):
                return True
    return False


def _one_playable(m: Sequence[int], n: int, stop: int) -> bool:
    """Some checker can play ``n`` alone (L1-L5, C1-C2; no bearing off: S1)."""
    m12 = m[COIN]
    for p in range(1, 25 - n):
        q = p + n
        if m[p] and (stop >> q) & 1 and not (m12 + (q == COIN) - (p == COIN) == 1 and (p == COIN or q == COIN)):
            return True
    return False


def both_numbers_playable(pos: Position, a: int, b: int, profile: Profile = DEFAULT_PROFILE) -> bool:
    """True when some play surely uses both numbers of the throw ``a``-``b`` (RULES.md
    §3.6 M2-M3, by the movement laws L1-L5, R1-R5, C1-C2): then every legal play uses
    both and none is unplayable (§4.8 M8).  False means not known: no checker may bear
    off during the throw (S1), and one's own coin empty with the opponent's empty, or a
    lone checker on it, are left to the enumeration (C1-C3)."""
    m = pos.mover
    if sum(m[1:19]) < 2 or m[COIN] == 1 or (m[COIN] == 0 and pos.other[COIN] == 0):
        return False
    stop, rest = _masks(pos, profile)
    return _both_playable(m, a, b, stop, rest)


def _both_playable(m: Sequence[int], a: int, b: int, stop: int, rest: int) -> bool:
    """Some play uses both numbers (RULES.md §3.1 M2-M3, L1-L5, R1-R5, C1-C2), by the
    laws of ``moves._candidates_fast`` (no checker can bear off; the coin par puissance
    is excluded by the caller)."""
    m12 = m[COIN]
    s = a + b
    for p in range(1, 25 - s):
        q = p + s
        if m[p] and (stop >> q) & 1 and ((rest >> (p + a)) & 1 or (rest >> (p + b)) & 1):
            if not ((p == COIN or q == COIN) and m12 - (p == COIN) + (q == COIN) == 1):
                return True
    steps_a = [(p, (p + a == COIN) - (p == COIN)) for p in range(1, 25 - a) if m[p] and (stop >> (p + a)) & 1]
    if not steps_a:
        return False
    steps_b = (
        steps_a
        if a == b
        else [(p, (p + b == COIN) - (p == COIN)) for p in range(1, 25 - b) if m[p] and (stop >> (p + b)) & 1]
    )
    for p1, d1 in steps_a:
        for p2, d2 in steps_b:
            if p2 == p1 and m[p1] < 2:
                continue
            if (d1 or d2) and m12 + d1 + d2 == 1:
                continue
            return True
    return False


def _fill_possible(pos: Position, profile: Profile, a: int, b: int, lo: int) -> bool:
    """Could a two-number play make the plein ``lo..lo+5`` at its end (RULES.md §3.7
    M10, M13)?  False only when none can: a fill lands a checker on a gap, so only the
    plays with a step (or a tout d'une) onto a gap are tried, with the movement laws of
    ``moves._candidates_fast`` (no checker can bear off: S1 was checked).  A gap on the
    coin (coin par puissance, §3.5 C3) or a lone coin before the throw: True (the
    enumeration decides)."""
    m = pos.mover
    if m[COIN] == 1:
        return True
    gaps = [p for p in range(lo, lo + 6) if m[p] < 2]
    if COIN in gaps:
        return True
    other = pos.other
    stop = _STOP_BASE
    for q in range(1, 25):
        if other[25 - q]:
            stop &= ~(1 << q)
    stop &= ~opponent_table_closed(pos, profile)
    coin_rest = bool(m[COIN]) or profile.rest_on_own_empty_coin
    orders = ((a, b),) if a == b else ((a, b), (b, a))
    s = a + b
    for g in gaps:
        if not (stop >> g) & 1:
            continue  # every filling play stops a checker on g
        p = g - s
        if p >= 1 and m[p]:
            for rr in (p + a, p + b):
                if not other[25 - rr] and (rr != COIN or coin_rest):
                    if _makes(m, lo, ((p, g),)):
                        return True
                    break
        for x, y in orders:
            p1 = g - x
            if p1 < 1 or not m[p1]:
                continue
            for p2 in range(1, 25 - y):
                if not m[p2] or (p2 == p1 and m[p1] < 2) or not (stop >> (p2 + y)) & 1:
                    continue
                if _makes(m, lo, ((p1, g), (p2, p2 + y))):
                    return True
    return False


def _makes(m: Sequence[int], lo: int, steps: tuple[tuple[int, int], ...]) -> bool:
    """The steps leave the coin lawful (C1-C2) and the plein ``lo..lo+5`` made."""
    end = list(m)
    for p, q in steps:
        end[p] -= 1
        end[q] += 1
    if end[COIN] == 1:
        return False
    for p in range(lo, lo + 6):
        if end[p] < 2:
            return False
    return True


# ---------------------------------------------------------------------------------
# a checker may bear off during the throw (RULES.md §3.10)
# ---------------------------------------------------------------------------------

#: base-8 weights of a net change, as ``moves`` keys its candidates (|change| < 4 a point)
_W = tuple(8**p for p in range(26))
#: the single step of each one-step net change: ``(from, to)``, ``to = 25`` bears off
_STEP_OF_KEY = {_W[q] - _W[p]: (p, q) for p in range(1, 25) for q in range(p + 1, OFF + 1)}


def _sortie_play(
    pos: Position, profile: Profile, roll: tuple[int, int], pairs: list[tuple[int, int]], r: list[int]
) -> Play | _Undecided:
    """The written play of a throw during which a checker may bear off (at most one
    checker outside ``19..24``: RULES.md §3.10 S1, the last one may enter with the first
    number and the other number bear off), proven with ``moves``' own step law
    (``_step_ok``: L1-L5, S1-S5 and the switches ``sortant_must_bear_off``,
    ``defaillant_rearmost``, ``bear_off_while_plein_possible`` of S6 / D15-D16), the
    steps played one after the other as ``moves._two_number_plays`` plays them.

    Both numbers played (:func:`_sortie_route`): legal when the pleins law allows it
    (:func:`_sortie_pleins`).  Otherwise legal only when no play of both numbers exists
    (§3.6 M6) and the play is one of the single plays (or none) the obligations keep
    (:func:`_sortie_single`).  A fill en passant at stake (switch D33): ``UNDECIDED``."""
    info = _info(pos, profile)
    if info.passant and info.near:
        return UNDECIDED  # D33: a fill en passant would count; the enumeration decides
    a, b = roll
    orders = ((a, b),) if a == b else ((a, b), (b, a))
    key = 0
    for p, q in pairs:
        key += _W[q] - _W[p]
    if key:
        sides = _net_change(pairs)
        if sides is None:
            return UNDECIDED  # more than two checkers moved: not a play of one throw
        route = _sortie_route(info, profile, orders, key, *sides)
        if route is not None:
            return _sortie_pleins(info, profile, orders, route, r)
    if next(_two_number_ends(info, profile, orders), None) is not None:
        return UNDECIDED  # M6: both numbers can be played, the written play does not
    return _sortie_single(info, profile, orders, key, r)


def _sortie_route(
    info: _Info, profile: Profile, orders: tuple[tuple[int, int], ...], key: int, src: list[int], dst: list[int]
) -> Route | None:
    """``(steps, numbers)`` of the two-number play with the net change ``key`` as
    ``legal_plays`` lists it, or None when no movement-legal play of both numbers makes
    it (RULES.md §3.1-§3.5, §3.10).  The route listed is the one the generator finds
    first: the larger number first, the lowest first checker, a tout d'une (resting on a
    repos, R1-R5) before a tout à bas.  The first step leaves a point the net change
    leaves, or — one checker's worth — an occupied point between its ends (the second
    checker then takes its place); the key of the rest names the second step."""
    m = info.m
    if len(src) == 1:
        lo, hi = src[0], dst[0]
        starts: Sequence[int] = [p for p in info.occ if lo <= p < hi]
    else:
        lo = hi = 0  # two checkers: no tout d'une
        starts = src if src[0] != src[1] else src[:1]
    for x, y in orders:
        for p in starts:
            if p == lo:
                rr = _step_ok(info, profile, m, p, x, info.rest)
                if rr and rr <= 24:
                    s1 = list(m)
                    s1[p] -= 1
                    s1[rr] += 1
                    if _step_ok(info, profile, s1, rr, y, info.stop) == hi:
                        return ((p, rr), (rr, hi)), (x, y)
            q = _step_ok(info, profile, m, p, x, info.stop)
            second = _STEP_OF_KEY.get(key - _W[q] + _W[p]) if q else None
            if second is None:
                continue
            p2, q2 = second
            s1 = list(m)
            s1[p] -= 1
            s1[q] += 1
            if s1[p2] - (p2 == q) > 0 and _step_ok(info, profile, s1, p2, y, info.stop) == q2:
                return ((p, q), (p2, q2)), (x, y)
    return None


def _sortie_pleins(
    info: _Info, profile: Profile, orders: tuple[tuple[int, int], ...], route: Route, r: list[int]
) -> Play | _Undecided:
    """The two-number play under the pleins law (RULES.md §3.7 M10-M13): it fills (the
    plein made at its end), or no play of both numbers fills; then, a plein made before
    the throw, it keeps it or no such play keeps it — bearing surplus checkers off keeps
    the jan de retour, *conserver par le privilège de la bande* (§3.10 S7; 003 §110,
    §196).  Otherwise ``UNDECIDED`` (the written play is excluded)."""
    filled = 0
    for t, bit in info.near:
        if plein_made(r, t):
            filled |= bit
    if info.near and not filled and _some_play_makes(info, profile, orders, info.near):
        return UNDECIDED  # M10: another play fills
    if not filled and info.made and not any(plein_made(r, t) for t, _bit in info.made):
        if _some_play_makes(info, profile, orders, info.made):
            return UNDECIDED  # M11: another play keeps the plein
    return tuple.__new__(Play, (route[0], route[1], tuple(r), filled))


def _some_play_makes(
    info: _Info, profile: Profile, orders: tuple[tuple[int, int], ...], tables: Sequence[tuple[tuple[int, ...], int]]
) -> bool:
    """Some play of both numbers ends with one of ``tables`` made (RULES.md §3.7)."""
    for end in _two_number_ends(info, profile, orders):
        for t, _bit in tables:
            if plein_made(end, t):
                return True
    return False


def _two_number_ends(info: _Info, profile: Profile, orders: tuple[tuple[int, int], ...]) -> Iterator[list[int]]:
    """The counts at the end of every movement-legal play of both numbers (repeats
    included), as ``legal_plays`` steps them (``moves._two_number_plays``, RULES.md
    §3.1-§3.5, §3.10).  The coin par puissance needs two checkers on ``1..12`` (C3):
    none here (S1)."""
    for _steps, _numbers, _s1, end, _tout_d_une in _two_number_plays(info, profile, orders, []):
        yield end


def _sortie_single(
    info: _Info, profile: Profile, orders: tuple[tuple[int, int], ...], key: int, r: list[int]
) -> Play | _Undecided:
    """No play of both numbers exists: the single plays (RULES.md §3.6 M7: the larger
    number whenever it can be played), then M10-M11 among them (a single play fills:
    *remplir en jouant un seul nombre*, 003 §81); nothing playable, nothing played.
    The written play must be one of those kept, with the number the generator finds
    first for it (an excédant and a sortant number may bear off the same checker)."""
    m = info.m
    singles: dict[int, tuple[tuple[int, int], int, list[int]]] = {}
    for x, _y in orders:
        for p in info.occ:
            q = _step_ok(info, profile, m, p, x, info.stop)
            k = _W[q] - _W[p] if q else 0
            if k and k not in singles:
                s1 = list(m)
                s1[p] -= 1
                s1[q] += 1
                if s1[COIN] != 1:  # C1-C2
                    singles[k] = ((p, q), x, s1)
    if not singles:
        return tuple.__new__(Play, ((), (), tuple(r), 0)) if not key else UNDECIDED
    a = orders[0][0]
    pool = [s for s in singles.values() if s[1] == a] or list(singles.values())
    fills = [s for s in pool if any(plein_made(s[2], t) for t, _bit in info.near)]
    if fills:
        pool = fills  # M10
    elif info.made:
        pool = [s for s in pool if any(plein_made(s[2], t) for t, _bit in info.made)] or pool  # M11
    for step, n, end in pool:
        if _W[step[1]] - _W[step[0]] == key:
            filled = 0
            for t, bit in info.near:
                if plein_made(end, t):
                    filled |= bit
            return tuple.__new__(Play, ((step,), (n,), tuple(r), filled))
    return UNDECIDED


def written_in_legal_plays(
    pos: Position, roll: Sequence[int], moves: Written, profile: Profile = DEFAULT_PROFILE
) -> Play | None:
    """The enumeration's answer: the legal play with the written resulting position,
    or None (RULES.md §3.12; as :func:`~.moves.judge_play` decides legality)."""
    ps = legal_plays(pos, roll, profile)
    done = _execute(pos.mover, moves)
    if done is None:
        return None
    result = tuple(done[0])
    for play in ps.plays:
        if play.result == result:
            return play
    return None


def judge_written(
    pos: Position, roll: Sequence[int], moves: Written, profile: Profile = DEFAULT_PROFILE
) -> Play | None:
    """The legal play the written ``moves`` make, or None when they make none: directly
    when :func:`direct_play` can prove it, else by enumeration (same answer)."""
    play = direct_play(pos, roll, moves, profile)
    if play is UNDECIDED:
        return written_in_legal_plays(pos, roll, moves, profile)
    return play  # type: ignore[return-value]


class LegalPlays(Sequence[Play]):
    """The legal plays of a throw, enumerated only when first read: the alternatives of
    a judgement the direct proof decided, which the verifier reads only on rare paths
    (a remedy under ``touch_strict``).  Compares equal to the tuple it stands for."""

    __slots__ = ("_args", "_plays")

    def __init__(self, pos: Position, roll: Sequence[int], profile: Profile) -> None:
        self._args = (pos, roll, profile)
        self._plays: tuple[Play, ...] | None = None

    def _all(self) -> tuple[Play, ...]:
        if self._plays is None:
            self._plays = legal_plays(*self._args).plays
        return self._plays

    @overload
    def __getitem__(self, i: int) -> Play: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[Play, ...]: ...
    def __getitem__(self, i: int | slice) -> Play | tuple[Play, ...]:
        return self._all()[i]

    def __len__(self) -> int:
        return len(self._all())

    def __iter__(self) -> Iterator[Play]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalPlays):
            other = other._all()
        return self._all() == other

    def __hash__(self) -> int:
        return hash(self._all())

    def __repr__(self) -> str:
        return repr(self._all())


#: the last proof: (position, roll, moves, profile, play); the verifier's recovery asks
#: first whether the written play is legal, then the play judge judges it
_LAST_PROOF: list[Any] = [None, None, None, None, None]


def _proof(pos: Position, roll: Sequence[int], moves: Written, profile: Profile) -> Play | None | _Undecided:
    last = _LAST_PROOF
    if last[0] is pos and last[1] is roll and last[3] is profile and last[2] == moves:
        return last[4]  # type: ignore[no-any-return]
    play = direct_play(pos, roll, moves, profile)
    last[0], last[1], last[2], last[3], last[4] = pos, roll, moves, profile, play
    return play


def proven_legal(pos: Position, roll: Sequence[int], moves: Written, profile: Profile = DEFAULT_PROFILE) -> bool:
    """The direct proof shows the written moves legal (remembered for the judge)."""
    return type(_proof(pos, roll, moves, profile)) is Play


def judge_direct(
    pos: Position, roll: Sequence[int], moves: Written, profile: Profile = DEFAULT_PROFILE
) -> PlayJudgement:
    """:func:`~.moves.judge_play`'s judgement, the direct proof first: a legal play it
    proves is judged without enumerating (its alternatives enumerated only if read);
    anything else — undecided, not executable, illegal — is ``judge_play``'s."""
    play = _proof(pos, roll, moves, profile)
    if type(play) is Play:
        if _COMPILED:  # a compiled class's allocator runs __init__ (and is as fast)
            alts = LegalPlays(pos, roll, profile)
        else:
            alts = _new_object(LegalPlays)  # built through the slots: hot path
            alts._args = (pos, roll, profile)
            alts._plays = None
        return tuple.__new__(PlayJudgement, (True, play, True, None, None, alts))
    return judge_play(pos, roll, moves, profile)


_new_object = object.__new__
