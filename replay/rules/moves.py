"""Legal plays of a throw (RULES.md §3).

Everything is in the mover's frame (RULES.md §2.2): points ``1..24``, ``25`` = borne
off; an opposing checker on the mover's ``q`` is ``pos.other[25 - q]``.

:func:`legal_plays` returns a :class:`PlaySet`: every legal way to play a roll after
all obligations, one :class:`Play` per distinct resulting position.  The movement
laws it enforces (RULES.md §3.12):

* M1-M3: a throw is two numbers, doublets included; tout à bas (two checkers) or
  tout d'une (one checker, the sum, resting on a usable repos).
* L1-L5: never stop on an opposing checker, on the opponent's coin (13), alone on
  one's own coin (12), in a table where the opponent can still make a plein, or
  beyond 24 unless bearing off.
* R1-R5: a repos holds no opposing checker; the opponent's empty coin is a repos,
  one's own empty coin is not (switch ``rest_on_own_empty_coin``).
* C1-C8: the coin is taken and left by two checkers of one throw; extra checkers
  move singly; coin par puissance when the opponent's coin is empty and the throw
  cannot take the coin directly.
* S1-S5: bearing off only with all 15 checkers in ``19..24`` (the last one may enter
  with the first number); exact numbers (sortant) bear off, an excédant number bears
  off the rearmost checker, a défaillant one is played inside; switches
  ``sortant_must_bear_off``, ``defaillant_rearmost``, ``bear_off_while_plein_possible``.
* M6, M7 (both numbers, else the larger), then M10 (fill), else M11 (conserve),
  with M12 precedence.  M13: "Pour qu'un nombre d'un coup remplisse, il faut que
  l'autre nombre puisse se jouer sans rompre" (003 §398): a play fills when the
  plein is made at its end — both numbers played and the plein kept, or one number
  played and the other unplayable (*remplir en jouant un seul nombre*, 003 §81).
  *Remplir en passant* (one number fills, the other then breaks, 003 §64, §82,
  §114) is no fill: it neither scores nor obliges.  Profile switch
  ``score_remplir_en_passant`` (RULES.md §10 D33, off in every profile) counts it
  as a fill again; a fill en passant is then legal only when no play fills and
  keeps (M11 on the plein just filled, 003 §60, §62; labelled ``"must-conserve"``).

Coin rule reading: the coin law is checked on the counts at the end of the throw
(never exactly one checker on point 12).  So a coin holding two may lose one checker
and gain another in the same throw; taking it needs two arrivals, leaving it two
departures, extra checkers come and go singly (RULES.md §3.5 C1-C2, C8).

Speed: per-side facts (occupied points, pleins near or made, pleins still possible)
are cached by counts, since the opponent of one throw is the mover of the next; the
per-position masks (open points, repos) are built from them.  Resulting positions are
deduplicated by an integer key (the net change, base 8) before any tuple is built;
steps and pairs of steps are interned.  The candidates are not kept in the
:class:`PlaySet` (``excluded()`` generates them again), so that a play set holds few
container objects: the garbage collector, not the generator, dominated the cost of a
verifier keeping many of them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import compress
from typing import Any, Final, NamedTuple

from ...notation.compiled import compiled_module
from ...notation.record import CannotPlay, Move
from .position import Position, is_start
from .profiles import DEFAULT_PROFILE, Profile

#: this module runs compiled by mypyc (``python -m trictrac.bench.compile_core``)
_COMPILED: Final = compiled_module(__file__)

__all__ = [
    "Roll",
    "Play",
    "PlaySet",
    "PlayJudgement",
    "legal_plays",
    "apply_play",
    "judge_play",
    "plein_made",
    "can_still_make_plein",
    "bear_off_allowed",
    "opponent_table_closed",
    "PETIT_JAN",
    "GRAND_JAN",
    "JAN_DE_RETOUR",
    "TABLES",
    "TABLE_BITS",
    "PLEIN_AT",
    "ROLLS",
    "OFF",
    "IllegalMoveError",
]

Roll = tuple[int, int]
Step = tuple[int, int]  # (from, to) in the mover's frame
# A candidate play, mutable while the obligations are applied: [steps, numbers, count of
# numbers played, filled bits, kept bits, reason it is excluded or None].
_Cand = list[Any]
_Cands = dict[int, _Cand]  # candidates by the key of their result

OFF = 25
COIN = 12
OPP_COIN = 13

#: points of each plein (RULES.md §2.4, §4.5 F1)
PETIT_JAN: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
GRAND_JAN: tuple[int, ...] = (7, 8, 9, 10, 11, 12)
JAN_DE_RETOUR: tuple[int, ...] = (19, 20, 21, 22, 23, 24)
TABLES: dict[str, tuple[int, ...]] = {
    "petit-jan": PETIT_JAN,
    "grand-jan": GRAND_JAN,
    "jan-de-retour": JAN_DE_RETOUR,
}
#: bit of each plein in :attr:`Play.filled`
TABLE_BITS: dict[str, int] = {"petit-jan": 1, "grand-jan": 2, "jan-de-retour": 4}
_TABLE_LIST = (("petit-jan", PETIT_JAN, 1), ("grand-jan", GRAND_JAN, 2), ("jan-de-retour", JAN_DE_RETOUR, 4))
#: each table by its first point (as :func:`heavy_table` names it): its kind, points and plein bit
PLEIN_AT: dict[int, tuple[str, tuple[int, ...], int]] = {t[0]: (kind, t, bit) for kind, t, bit in _TABLE_LIST}

#: the 21 distinct rolls, larger number first
ROLLS: tuple[Roll, ...] = tuple((a, b) for a in range(6, 0, -1) for b in range(a, 0, -1))

#: dedup weights: a play's key is sum(_W[to] - _W[from]); |net change| <= 2 < 4 per point
_W = tuple(8**p for p in range(26))
_MASK_1_24 = sum(1 << p for p in range(1, 25))
_MASK_13_18 = sum(1 << p for p in range(13, 19))
_MASK_19_24 = sum(1 << p for p in range(19, 25))
_POINTS = range(1, 25)
#: points of each plein by its bit (1 petit jan, 2 grand jan, 4 jan de retour)
_TABLE_MASK = (0, sum(1 << p for p in PETIT_JAN), sum(1 << p for p in GRAND_JAN), 0, sum(1 << p for p in JAN_DE_RETOUR))
#: interned steps ``_STEP[p][q] == (p, q)``: no tuple built per candidate
_STEP = tuple(tuple((p, q) for q in range(26)) for p in range(26))
#: interned pairs of steps (tout à bas), filled on demand; bounded by the board
#: (at most 24 x 6 steps squared), so never cleared
_PAIRS: dict[int, tuple[tuple[int, int], tuple[int, int]]] = {}
#: bit of an opposing checker's point ``q`` in the mover's frame (``25 - q``)
_RBIT = tuple(1 << (25 - q) if 1 <= q <= 24 else 0 for q in range(26))


class IllegalMoveError(ValueError):
    """API misuse (e.g. a roll outside 1..6); illegal plays are judged, not raised."""


class Play(NamedTuple):
    """One way of playing a throw (a tuple: cheap to build, hashable, immutable).

    ``steps``: ``(from, to)`` in the mover's frame in the order played; ``to = 25``
    bears off; a tout d'une is two chained steps.  ``numbers``: the die number of each
    step (a coin par puissance step moves one pip less than its number, RULES.md §3.5
    C3).  ``result``: the mover's 26 counts after the play.  ``filled``: bits of the
    pleins (:data:`TABLE_BITS`) the play fills (RULES.md §3.7 M13): made at its end
    and not before the throw; *en passant* too only with the switch
    ``score_remplir_en_passant`` (§10 D33).
    """

    steps: tuple[tuple[int, int], ...]
    numbers: tuple[int, ...]
    result: tuple[int, ...]
    filled: int = 0

    def text(self) -> str:
        """Canonical move text: ``"1/7 1/6"``; tout d'une ``"1/12"``; ``"19/off"``; ``"-"``."""
        st = self.steps
        if not st:
            return "-"
        if len(st) == 2 and st[0][1] == st[1][0] and st[0][1] != OFF and not self.is_puissance():
            st = ((st[0][0], st[1][1]),)
        return " ".join(f"{p}/{'off' if q == OFF else q}" for p, q in st)

    def is_tout_d_une(self) -> bool:
        st = self.steps
        return len(st) == 2 and st[0][1] == st[1][0]

    def is_puissance(self) -> bool:
        """Coin taken par puissance (RULES.md §3.5 C3): both steps one pip short, onto 12."""
        st = self.steps
        return (
            len(st) == 2
            and st[0][1] == COIN
            and st[1][1] == COIN
            and st[0][1] - st[0][0] == self.numbers[0] - 1
            and st[1][1] - st[1][0] == self.numbers[1] - 1
        )

    def moves(self) -> list[list[int]]:
        """``[[from, to], ...]`` as in the analyser's JSON."""
        return [[p, q] for p, q in self.steps]


# ---------------------------------------------------------------------------------
# pure movement facts, also used by the scorer
# ---------------------------------------------------------------------------------


def plein_made(counts: Sequence[int], table: Sequence[int]) -> bool:
    """Six points each holding >= 2 of one's checkers (RULES.md §4.5 F1; §2.4)."""
    for p in table:
        if counts[p] < 2:
            return False
    return True


def can_still_make_plein(counts: Sequence[int], table: Sequence[int] | str) -> bool:
    """Can a side still make (or keep, or make again) this plein, ignoring dice?
    (RULES.md §3.8 P3, corrected).

    Operational test of P3: for every k = 1..6, at least ``2k`` of the side's checkers
    stand on or behind the k-th point of the table — checkers only move forward
    (RULES.md §2.1), so only those can still reach it.  003 §77: all his checkers on
    his ``5..12``, one behind his 7th point, and "il ne peut plus faire de plein" in
    his second table.  The other side's checkers are no obstacle: a checker entered
    into a table "où le plein est possible" stays there (003 §213).
    """
    if isinstance(table, str):
        table = TABLES[table]
    return _plein_possible(counts, table[0])


def _plein_possible(counts: Sequence[int], first: int) -> bool:
    """P3's test for the table ``first..first+5``: a running count of the checkers
    on or behind each of its points against two per point reached (twelve suffice for
    the rest of the table)."""
    have = sum(counts[1:first]) if first > 1 else 0  # on or behind the point reached
    need = 2
    for p in range(first, first + 6):
        have += counts[p]
        if have >= 12:
            return True  # enough for every point of the table: the count only grows
        if have < need:
            return False
        need += 2
    return True


#: the counts last asked of :func:`heavy_table` and its answer: the direct proof and the
#: scoring ask for the same position one after the other (an immutable tuple, checked
#: by identity)
_LAST_HEAVY: list[Any] = [None, (0, 99)]


def heavy_table(counts: Sequence[int]) -> tuple[int, int]:
    """``(first, lacking)``: the one table (points ``first..first+5``: petit jan, grand
    jan or jan de retour) holding ten or more of ``counts``' checkers, and the checkers
    its plein lacks (RULES.md §3.7, §4.5); ``(0, 99)`` when none does.  Two tables cannot
    (10 + 10 > 15), and a plein lacking two or fewer needs ten there: so this table is
    the only one made or one throw from made."""
    last = _LAST_HEAVY
    if last[0] is counts:
        found: tuple[int, int] = last[1]
        return found
    found = (0, 99)
    for lo in (1, 7, 19):
        if counts[lo] + counts[lo + 1] + counts[lo + 2] + counts[lo + 3] + counts[lo + 4] + counts[lo + 5] >= 10:
            lacking = 0
            for p in range(lo, lo + 6):
                if counts[p] < 2:
                    lacking += 2 - counts[p]
            found = (lo, lacking)
            break
    if type(counts) is tuple:
        last[0], last[1] = counts, found
    return found


def bear_off_allowed(counts: Sequence[int]) -> bool:
    """All 15 checkers in ``19..24`` or off (RULES.md §3.10 S1)."""
    return sum(counts[1:19]) == 0


def opponent_table_closed(pos: Position, profile: Profile = DEFAULT_PROFILE) -> int:
    """Mask of the mover's points in tables where he may not stop (RULES.md §3.3 L4, §3.8 P3).

    The opponent's first table (mover's ``19..24``) is closed while he can still make
    his petit jan; his second table (``13..18``) while he can still make his grand jan.
    Profile ``opponent_table_closed="until-broken"`` (000 ~l.508, RULES.md §10 D14):
    the second table stays closed while his grand jan is made, or has never been made
    and is still possible (history read from ``"grand-jan" in pos.other_jans``).
    """
    o = pos.other
    mask = _MASK_19_24 if _plein_possible(o, 1) else 0  # his petit jan: points 1..6
    if profile.opponent_table_closed == "until-broken":
        if plein_made(o, GRAND_JAN) or ("grand-jan" not in pos.other_jans and _plein_possible(o, 7)):
            mask |= _MASK_13_18
    elif _plein_possible(o, 7):  # his grand jan: points 7..12
        mask |= _MASK_13_18
    return mask


# ---------------------------------------------------------------------------------
# per-position facts (cached)
# ---------------------------------------------------------------------------------


class _Info(NamedTuple):
    m: tuple[int, ...]
    stop: int  # points 1..24 where one checker may stop (L1, L2, L4; coin law checked at the end)
    rest: int  # points 1..24 usable as a repos (R1-R5)
    blocked: int  # points holding an opposing checker (L1)
    closed: int  # points in closed tables (L4)
    occ: tuple[int, ...]  # occupied points 1..24, ascending
    out: int  # checkers on 1..18 (bearing off impossible while > 0)
    near: tuple[tuple[tuple[int, ...], int], ...]  # (table, bit) not made, fillable by 2 checkers
    made: tuple[tuple[tuple[int, ...], int], ...]  # (table, bit) made before the throw
    opp_coin_empty: bool
    passant: bool  # a fill en passant is a fill (switch score_remplir_en_passant, D33)


_LAST: list[Any] = [None, None, None]  # (pos, profile, info): the 21 rolls of one position


def _info(pos: Position, profile: Profile) -> _Info:
    """Per-position facts: the last position is kept (the 21 rolls of one position);
    otherwise rebuilt from the per-side facts, which are cached by counts."""
    last = _LAST
    if last[0] is pos and last[1] is profile:
        kept: _Info = last[2]
        return kept
    info = _make_info(pos, profile)
    last[0], last[1], last[2] = pos, profile, info
    return info


# Facts of one side's counts, in its own frame, for either role (a plain tuple, indexed):
# 0 occ: occupied points 1..24 ascending; 1 rmask: those points in the other side's
# frame (bit 25 - q: where it may not stop); 2 out: checkers on 1..18; 3 near: pleins
# lacking one or two checkers; 4 made: pleins made; 5, 6: can_still_make_plein for the
# petit jan and the grand jan; 7: grand jan made.
_Tables = tuple[tuple[tuple[int, ...], int], ...]  # (table, bit) of some pleins
_Side = tuple[tuple[int, ...], int, int, _Tables, _Tables, bool, bool, bool]
_SIDES: dict[tuple[int, ...], _Side] = {}
_SIDES_MAX = 4096


def _table_state(t: tuple[int, ...]) -> int:
    """0 made, 1 lacking one or two checkers (near), 2 otherwise (RULES.md §4.5 F1)."""
    lo = min(t)
    if lo >= 2:
        return 0
    if lo < 0:
        return 2
    return 1 if 2 * t.count(0) + t.count(1) <= 2 else 2


def _side(c: tuple[int, ...]) -> _Side:
    """Cached by counts: in a game the opponent of one throw is the mover of the next."""
    s = _SIDES.get(c)
    if s is not None:
        return s
    occ = tuple(compress(_POINTS, c[1:25]))
    s1 = sum(c[1:7])
    s2 = sum(c[7:13])
    s3 = sum(c[19:25])
    near: _Tables = ()
    made: _Tables = ()
    grand_made = False
    # a table holding s < 10 checkers lacks >= 12 - s > 2 (negative counts included)
    if s1 >= 10 or s2 >= 10 or s3 >= 10:
        nl = []
        ml = []
        for t, bit, lo in ((PETIT_JAN, 1, 1), (GRAND_JAN, 2, 7), (JAN_DE_RETOUR, 4, 19)):
            st = _table_state(c[lo : lo + 6])
            if st == 0:
                ml.append((t, bit))
                if bit == 2:
                    grand_made = True
            elif st == 1:
                nl.append((t, bit))
        near = tuple(nl)
        made = tuple(ml)
    s = (
        occ,
        sum(map(_RBIT.__getitem__, occ)),
        s1 + s2 + sum(c[13:19]),
        near,
        made,
        _plein_possible(c, 1),
        _plein_possible(c, 7),
        grand_made,
    )
    if len(_SIDES) >= _SIDES_MAX:
        _SIDES.clear()
    _SIDES[c] = s
    return s


def _make_info(pos: Position, profile: Profile) -> _Info:
    m = pos.mover
    o = pos.other
    sm = _side(m)
    so = _side(o)
    blocked = so[1]
    # opponent_table_closed (RULES.md §3.3 L4, §3.8 P3; §10 D14), from the cached facts
    closed = _MASK_19_24 if so[5] else 0
    if profile.opponent_table_closed == "until-broken":
        if so[7] or ("grand-jan" not in pos.other_jans and so[6]):
            closed |= _MASK_13_18
    elif so[6]:
        closed |= _MASK_13_18
    stop = _MASK_1_24 & ~blocked & ~closed & ~(1 << OPP_COIN)
    rest = _MASK_1_24 & ~blocked
    if m[COIN] == 0 and not profile.rest_on_own_empty_coin:
        rest &= ~(1 << COIN)  # R5 default
    return tuple.__new__(
        _Info,
        (m, stop, rest, blocked, closed, sm[0], sm[2], sm[3], sm[4], o[12] == 0, profile.score_remplir_en_passant),
    )


# ---------------------------------------------------------------------------------
# the play set
# ---------------------------------------------------------------------------------

# A candidate is a list [steps, numbers, count of numbers played, filled bits, kept bits
# (pleins made at the end: made before and kept, or filled and kept), exclusion reason
# or None], keyed by net change.


class PlaySet:
    """Legal plays of one roll in one position (RULES.md §3.12).

    ``plays``: after every obligation, one per distinct resulting position, in a
    deterministic order.  ``unplayable``: numbers the legal plays leave unplayed
    (impuissance, RULES.md §4.8).  ``fills`` / ``conserves``: the legal plays fill a
    plein (M10) / keep a made plein (M11).  ``excluded()`` (computed on demand): the
    movement-legal plays an obligation removed, with the obligation's id.
    """

    __slots__ = ("roll", "plays", "unplayable", "fills", "conserves", "_info", "_profile")

    def __init__(
        self,
        roll: Roll,
        plays: tuple[Play, ...],
        unplayable: tuple[int, ...],
        fills: bool,
        conserves: bool,
        info: _Info,
        profile: Profile,
    ) -> None:
        self.roll = roll
        self.plays = plays
        self.unplayable = unplayable
        self.fills = fills
        self.conserves = conserves
        self._info = info
        self._profile = profile

    def excluded(self) -> tuple[tuple[Play, str], ...]:
        """Movement-legal plays removed by an obligation, one per resulting position:
        ``"both-numbers"`` (M6: a play of one number, or none, when both could be
        played), ``"larger-number"`` (M7), ``"must-fill"`` (M10), ``"must-conserve"`` (M11)."""
        # the candidates are not kept (memory, GC): generated again, in the same order
        info = self._info
        cands = _candidates(info, self.roll, self._profile)
        _select(info, self.roll, cands)
        m = info.m
        seen = {p.result for p in self.plays}
        out = []
        for c in cands.values():
            play = _make_play(m, c)
            if play.result in seen:
                continue
            seen.add(play.result)
            out.append((play, c[5]))
        if self.plays and len(self.plays[0].numbers) == 2:
            for play in _single_plays(self._info, self.roll, self._profile):
                if play.result not in seen:
                    seen.add(play.result)
                    out.append((play, "both-numbers"))
        return tuple(out)

    def __iter__(self) -> Iterator[Play]:
        return iter(self.plays)

    def __len__(self) -> int:
        return len(self.plays)

    def __repr__(self) -> str:
        return (
            f"PlaySet(roll={self.roll}, plays=[{', '.join(p.text() for p in self.plays)}], "
            f"unplayable={self.unplayable}, fills={self.fills}, conserves={self.conserves})"
        )


def _single_plays(info: _Info, roll: Roll, profile: Profile) -> list[Play]:
    """Plays of one number alone (for ``excluded()``; RULES.md §3.6 M6)."""
    m = info.m
    out = []
    for n in sorted(set(roll), reverse=True):
        for p in info.occ:
            q = _step_ok(info, profile, m, p, n, info.stop)
            if not q:
                continue
            r = list(m)
            r[p] -= 1
            r[q] += 1
            if r[COIN] == 1:
                continue
            f = 0
            for t, bit in info.near:
                if plein_made(r, t):
                    f |= bit
            out.append(Play(((p, q),), (n,), tuple(r), f))
    return out


def _make_play(m: tuple[int, ...], c: _Cand) -> Play:
    steps = c[0]
    r = list(m)
    for p, q in steps:
        r[p] -= 1
        r[q] += 1
    return Play(steps, c[1], tuple(r), c[3])


def _norm_roll(roll: Sequence[int]) -> Roll:
    try:
        a, b = roll
    except (TypeError, ValueError):
        raise IllegalMoveError(f"bad roll {roll!r}: two numbers 1..6") from None
    if not (isinstance(a, int) and isinstance(b, int) and 1 <= a <= 6 and 1 <= b <= 6):
        raise IllegalMoveError(f"bad roll {roll!r}: numbers must be 1..6")
    return (a, b) if a >= b else (b, a)


def legal_plays(pos: Position, roll: Sequence[int], profile: Profile = DEFAULT_PROFILE) -> PlaySet:
    """Every legal play of ``roll`` in ``pos`` after all obligations (RULES.md §3).

    The last call is remembered by identity (a verifier judges, then scores, the same
    throw).  No cache by value: a game seldom comes back to a position, and a cache
    keyed on both sides' counts hit ~0.5 % of a verifier's calls while its play sets
    cost the garbage collector (docs/performance.md, issue 17).  The one exception is
    the opening (``start_position``, by identity): every game and relevé starts there,
    so its at most 2 x 21 sets per profile are kept (a file of one-coup games, issue 27).
    """
    last = _LAST_PS
    if last[0] is pos and last[2] is profile and last[1] == roll:
        kept: PlaySet = last[3]
        return kept
    nroll = _norm_roll(roll)
    if is_start(pos):  # the opening: every game and relevé starts there, its sets made once
        key = (pos.turn, nroll, profile)
        ps = _OPENING_PS.get(key)
        if ps is None:
            ps = _OPENING_PS[key] = _legal_plays(pos, nroll, profile)
    else:
        ps = _legal_plays(pos, nroll, profile)
    last[0], last[1], last[2], last[3] = pos, roll, profile, ps
    return ps


_LAST_PS: list[Any] = [None, None, None, None]  # (pos, roll, profile, play set) of the last call
#: the play sets of the opening position (``start_position``) by (side, roll, profile):
#: at most 2 x 21 per profile, kept for the process
_OPENING_PS: dict[tuple[str, Roll, Profile], PlaySet] = {}


def clear_cache() -> None:
    """Empty the caches (benchmarks; memory)."""
    _LAST_PS[:] = [None, None, None, None]
    _OPENING_PS.clear()
    _SIDES.clear()
    _LAST[:] = [None, None, None]


def _legal_plays(pos: Position, roll: Roll, profile: Profile) -> PlaySet:
    info = _info(pos, profile)
    cands = _candidates(info, roll, profile)
    pool, unplayable, fills, conserves = _select(info, roll, cands)
    m = info.m
    plays: list[Play] = []
    new = tuple.__new__
    for c in pool:
        st = c[0]
        r = list(m)
        if len(st) == 2:
            (p1, q1), (p2, q2) = st
            r[p1] -= 1
            r[q1] += 1
            r[p2] -= 1
            r[q2] += 1
        elif st:
            ((p1, q1),) = st
            r[p1] -= 1
            r[q1] += 1
        plays.append(new(Play, (st, c[1], tuple(r), c[3])))
    if _COMPILED:  # a compiled class's allocator runs __init__ (and is as fast)
        return PlaySet(roll, tuple(plays), unplayable, fills, conserves, info, profile)
    ps: PlaySet = _new_playset(PlaySet)
    ps.roll = roll
    ps.plays = tuple(plays)
    ps.unplayable = unplayable
    ps.fills = fills
    ps.conserves = conserves
    ps._info = info
    ps._profile = profile
    return ps


_new_playset = object.__new__


def _candidates(info: _Info, roll: Roll, profile: Profile) -> _Cands:
    if info.out >= 2:
        return _candidates_fast(info, roll)
    return _candidates_general(info, roll, profile)


def _select(info: _Info, roll: Roll, cands: _Cands) -> tuple[list[_Cand], tuple[int, ...], bool, bool]:
    """Apply M6/M7, then M10, else M11 (RULES.md §3.6-§3.7): the candidates kept
    (``pool``), the numbers left unplayed, fills, conserves; every candidate removed
    gets its reason in ``c[5]``.

    Either every candidate plays both numbers or none does (the generators add
    one-number plays only when no two-number play exists)."""
    vals = list(cands.values())
    a, b = roll
    if vals[0][2] == 2:
        pool = vals
        unplayable: tuple[int, ...] = ()
    elif vals[0][2] == 0 and len(vals) == 1:
        pool = vals
        unplayable = (a, b)
    else:
        best = 0
        for c in vals:
            if c[2] > best:
                best = c[2]
        if best == 1:
            pool = [c for c in vals if c[1][0] == a]
            if pool:
                for c in vals:
                    if c[1][0] != a:
                        c[5] = "larger-number" if c[2] == 1 else "both-numbers"
                unplayable = (b,)
            else:
                for c in vals:
                    if c[2] == 0:
                        c[5] = "both-numbers"
                pool = [c for c in vals if c[2] == 1]
                unplayable = (a,)
        else:
            pool = vals
            unplayable = (a, b)
    fills = False
    conserves = False
    if info.near:
        f = [c for c in pool if c[3]]
        if f:
            fills = True
            if len(f) < len(pool):
                for c in pool:
                    if not c[3]:
                        c[5] = "must-fill"
                pool = f
            # M11 on the plein just filled (only with D33: otherwise every fill keeps):
            # a fill en passant is legal only when no play fills and keeps (003 §60, §62)
            k = [c for c in pool if c[3] & c[4]]
            if k and len(k) < len(pool):
                for c in pool:
                    if not c[3] & c[4]:
                        c[5] = "must-conserve"
                pool = k
    if not fills and info.made:
        mb = _kept_all(info)
        k = [c for c in pool if c[4] & mb]
        if k:
            conserves = True
            if len(k) < len(pool):
                for c in pool:
                    if not c[4] & mb:
                        c[5] = "must-conserve"
                pool = k
    return pool, unplayable, fills, conserves


def _eval_pleins(info: _Info, steps: tuple[Step, ...], both_orders: bool) -> tuple[int, int]:
    """(filled bits, kept bits) of a play (RULES.md §3.7 M10-M13; §4.5 F1, F7).

    A play fills when the plein is made at its end (M13, 003 §398).  With the switch
    ``score_remplir_en_passant`` (D33), ``both_orders``: a tout-à-bas play whose steps
    may be played in either order fills also if the plein is made after either single
    step (*en passant*); a tout d'une or a puissance only at the end (a resting checker
    does not stop).

    Shortcut: a plein not made can only be made by a step arriving in its table,
    and a made one only broken by a step leaving it; the counts are built only when
    some step does so.
    """
    src_mask = 0
    dst_mask = 0
    for p, q in steps:
        src_mask |= 1 << p
        dst_mask |= 1 << q
    m = info.m
    r = None
    filled = 0
    kept = 0
    for t, bit in info.near:
        if not dst_mask & _TABLE_MASK[bit]:
            continue
        if r is None:
            r = list(m)
            for p, q in steps:
                r[p] -= 1
                r[q] += 1
        if plein_made(r, t):
            filled |= bit
            kept |= bit
        elif both_orders and info.passant:
            tm = _TABLE_MASK[bit]
            for p, q in steps:
                if tm >> q & 1:
                    r1 = list(m)
                    r1[p] -= 1
                    r1[q] += 1
                    if plein_made(r1, t):
                        filled |= bit
                        break
    for t, bit in info.made:
        if src_mask & _TABLE_MASK[bit]:
            if r is None:
                r = list(m)
                for p, q in steps:
                    r[p] -= 1
                    r[q] += 1
            if not plein_made(r, t):
                continue
        kept |= bit
    return filled, kept


def _candidates_fast(info: _Info, roll: Roll) -> _Cands:
    """Candidates when no checker can bear off during this throw (>= 2 outside 19..24).

    All step laws are then static (L1, L2, L4, L5), so the order of the two steps of
    a tout-à-bas play does not matter; only the coin law looks at the end state
    (C1-C2: never exactly one checker on 12; a step's coin delta is nonzero exactly
    when it leaves or reaches the coin).
    """
    a, b = roll
    m = info.m
    stop = info.stop
    rest = info.rest
    occ = info.occ
    m12 = m[COIN]
    W = _W
    ST = _STEP
    pairs = _PAIRS
    cands: _Cands = {}
    near = info.near
    pleins = bool(near or info.made)
    doublet = a == b
    ba = roll if doublet else (b, a)
    s = a + b
    steps: tuple[Step, ...] | None
    # tout d'une (M2, M3; repos R1-R5)
    for p in occ:
        q = p + s
        if q > 24:
            break
        if not (stop >> q) & 1:
            continue
        if (rest >> (p + a)) & 1:
            r, nums = p + a, roll
        elif (rest >> (p + b)) & 1:
            r, nums = p + b, ba
        else:
            continue
        if (p == COIN or q == COIN) and m12 - (p == COIN) + (q == COIN) == 1:
            continue  # C1-C2: never a lone checker on the coin
        steps = (ST[p][r], ST[r][q])
        f, k = _eval_pleins(info, steps, False) if pleins else (0, 0)
        cands[W[q] - W[p]] = [steps, nums, 2, f, k, None]
    # tout à bas (M2): (from, step, key, coin delta) of each number
    A = []
    for p in occ:
        q = p + a
        if q > 24:
            break
        if (stop >> q) & 1:
            A.append((p, ST[p][q], W[q] - W[p], (q == COIN) - (p == COIN), p << 5 | q))
    if doublet:
        B = A  # a doublet's two checkers: unordered pairs, the same point twice allowed
    else:
        B = []
        for p in occ:
            q = p + b
            if q > 24:
                break
            if (stop >> q) & 1:
                B.append((p, ST[p][q], W[q] - W[p], (q == COIN) - (p == COIN), p << 5 | q))
    for i, (p1, s1, k1, d1, c1) in enumerate(A):
        for p2, s2, k2, d2, c2 in A[i:] if doublet else B:
            if p2 == p1 and m[p1] < 2:
                continue
            if (d1 or d2) and m12 + d1 + d2 == 1:
                continue
            key = k1 + k2
            c = cands.get(key)
            if c is None:
                steps = pairs.get(c1 << 10 | c2)
                if steps is None:
                    steps = pairs[c1 << 10 | c2] = (s1, s2)
                f, k = _eval_pleins(info, steps, True) if pleins else (0, 0)
                cands[key] = [steps, roll, 2, f, k, None]
            elif near:
                c[3] |= _eval_pleins(info, (s1, s2), True)[0]
    # coin par puissance (C3-C5)
    if m12 == 0 and info.opp_coin_empty and not (info.blocked >> OPP_COIN) & 1:
        _puissance(info, a, b, cands)
    if not cands:
        # single numbers (M6/M7 only matter when no two-number play exists)
        for n, lst in ((a, A),) if doublet else ((a, A), (b, B)):
            for _p, st, kk, d, _c in lst:
                if d and m12 + d == 1:
                    continue
                if kk not in cands:
                    steps = (st,)
                    f, k = _eval_pleins(info, steps, False) if pleins else (0, 0)
                    cands[kk] = [steps, (n,), 1, f, k, None]
        if not cands:
            cands[0] = [(), (), 0, 0, _kept_all(info), None]
    return cands


def _kept_all(info: _Info) -> int:
    k = 0
    for _t, bit in info.made:
        k |= bit
    return k


def _puissance(info: _Info, a: int, b: int, cands: _Cands) -> None:
    """Coin par puissance (RULES.md §3.5 C3-C5, C7): own coin empty, opponent's coin
    empty, two checkers one number short of 13 each, and no direct taking possible."""
    m = info.m
    s1, s2 = 13 - a, 13 - b
    if s1 < 1 or s2 < 1 or a == 1 or b == 1:
        return
    if s1 == s2:
        if m[s1] < 2:
            return
    elif not (m[s1] and m[s2]):
        return
    d1, d2 = 12 - a, 12 - b
    if d1 == d2:
        direct = m[d1] >= 2
    else:
        direct = m[d1] >= 1 and m[d2] >= 1
    if direct:
        return  # C5: "sans exception"
    key = 2 * _W[COIN] - _W[s1] - _W[s2]
    if key in cands:
        return
    steps = ((s1, COIN), (s2, COIN))
    f, k = _eval_pleins(info, steps, False) if (info.near or info.made) else (0, 0)
    cands[key] = [steps, (a, b), 2, f, k, None]


def _puissance_status(pos: Position, roll: Roll) -> str | None:
    """Why a puissance taking is not allowed, or None when it is (C3-C5)."""
    a, b = roll
    m = pos.mover
    if m[COIN]:
        return "coin-held"
    if pos.other[12]:
        return "puissance-opponent-coin"
    d1, d2 = 12 - a, 12 - b
    direct = (m[d1] >= 2) if d1 == d2 else (d1 >= 1 and d2 >= 1 and m[d1] >= 1 and m[d2] >= 1)
    if direct:
        return "puissance-when-direct"
    return None


# ---------------------------------------------------------------------------------
# general (sequential) generator: bearing off may happen during this throw
# ---------------------------------------------------------------------------------


def _step_ok(info: _Info, profile: Profile, s: Sequence[int], p: int, n: int, mask: int) -> int:
    """Target of moving one checker from ``p`` by ``n`` in state ``s`` (counts list),
    or 0 when that single step is illegal.  ``mask``: open points (``info.stop`` to
    stop, ``info.rest`` to rest).  Laws L1-L5 and bearing off S1-S5 (RULES.md §3.10)."""
    q = p + n
    if q <= 24:
        if not (mask >> q) & 1:
            return 0
        if (profile.sortant_must_bear_off or profile.defaillant_rearmost) and _off_ok(s, profile):
            # bearing-off phase: how numbers must be used (S3, S4; switches of D15)
            if s[25 - n]:
                if profile.sortant_must_bear_off:
                    return 0
            elif profile.defaillant_rearmost:
                rear = _rearmost_movable(info, s, n)
                if rear and p != rear:
                    return 0
        return q
    if not _off_ok(s, profile):
        return 0  # L5, S1
    if q == OFF:
        return OFF  # S2: sortant
    for x in range(19, p):
        if s[x]:
            return 0  # S4: a défaillant number is played inside
    if profile.sortant_must_bear_off and s[25 - n]:
        return 0
    return OFF  # S5: excédant, the rearmost checker


def _rearmost_movable(info: _Info, s: Sequence[int], n: int) -> int:
    for x in range(19, 25):
        if s[x] and x + n <= 24 and (info.stop >> (x + n)) & 1:
            return x
    return 0


def _off_ok(s: Sequence[int], profile: Profile) -> bool:
    """Bearing off allowed now (S1; switch ``bear_off_while_plein_possible``, S6/D16)."""
    if sum(s[1:19]):
        return False
    if not profile.bear_off_while_plein_possible:
        if not plein_made(s, JAN_DE_RETOUR) and can_still_make_plein(s, JAN_DE_RETOUR):
            return False
    return True


def _two_number_plays(
    info: _Info, profile: Profile, orders: tuple[tuple[int, int], ...], singles: list[tuple[Step, int, list[int]]]
) -> Iterator[tuple[tuple[Step, Step], tuple[int, int], list[int], list[int], bool]]:
    """Every movement-legal play of both numbers, stepped in each order of the numbers
    (RULES.md §3.12): ``(steps, numbers, after_first_step, end, tout_d_une)``, repeats
    included; a tout d'une rests on a repos (R1-R5), a tout à bas moves another checker
    second; never a lone checker on the coin at the end (C1-C2).  Each first step that
    can be played is also put in ``singles`` as ``(step, number, after_it)`` (M6-M7)."""
    m = info.m
    for x, y in orders:
        for p in info.occ:
            # tout d'une: the same checker rests on p + x (R1-R5), then moves y
            r = _step_ok(info, profile, m, p, x, info.rest)
            if r and r <= 24:
                s1 = list(m)
                s1[p] -= 1
                s1[r] += 1
                q2 = _step_ok(info, profile, s1, r, y, info.stop)
                if q2 and s1[COIN] - (r == COIN) + (q2 == COIN) != 1:
                    end = list(s1)
                    end[r] -= 1
                    end[q2] += 1
                    yield ((p, r), (r, q2)), (x, y), s1, end, True
            q = _step_ok(info, profile, m, p, x, info.stop)
            if not q:
                continue
            s1 = list(m)
            s1[p] -= 1
            s1[q] += 1
            singles.append(((p, q), x, s1))
            # tout à bas: another checker plays y
            for p2 in range(1, 25):
                if s1[p2] - (p2 == q) <= 0:
                    continue
                q2 = _step_ok(info, profile, s1, p2, y, info.stop)
                if not q2:
                    continue
                r2 = list(s1)
                r2[p2] -= 1
                r2[q2] += 1
                if r2[COIN] != 1:
                    yield ((p, q), (p2, q2)), (x, y), s1, r2, False


def _candidates_general(info: _Info, roll: Roll, profile: Profile) -> _Cands:
    """Candidates by trying every order of the numbers step by step (RULES.md §3.12);
    used when a checker may bear off during the throw (S1: the last one may enter
    with the first number and the second number bear off)."""
    a, b = roll
    m = info.m
    W = _W
    cands: _Cands = {}
    orders = ((a, b),) if a == b else ((a, b), (b, a))
    singles: list[tuple[Step, int, list[int]]] = []
    for steps, numbers, s1, end, tout_d_une in _two_number_plays(info, profile, orders, singles):
        (p, q), (p2, q2) = steps
        key = W[q2] - W[p] if tout_d_une else W[q] - W[p] + W[q2] - W[p2]
        c = cands.get(key)
        if tout_d_une:
            if c is None:
                cands[key] = [steps, numbers, 2, 0, 0, None]
            continue
        f = _fill_route(info, s1, end)
        if c is None:
            cands[key] = [steps, numbers, 2, f, 0, None]
        else:
            c[3] |= f
    if m[COIN] == 0 and info.opp_coin_empty and not (info.blocked >> OPP_COIN) & 1:
        _puissance(info, a, b, cands)
    # final state: fills (tout d'une, puissance) and kept pleins, for every candidate
    for c in cands.values():
        end = list(m)
        for p, q in c[0]:
            end[p] -= 1
            end[q] += 1
        k = 0
        for t, bit in info.near:
            if plein_made(end, t):
                c[3] |= bit
                k |= bit
        for t, bit in info.made:
            if plein_made(end, t):
                k |= bit
        c[4] = k
    if not any(c[2] == 2 for c in cands.values()):
        for (p, q), n, s1 in singles:
            if s1[COIN] == 1:
                continue
            key = W[q] - W[p]
            if key not in cands:
                f, k = 0, 0
                for t, bit in info.near:
                    if plein_made(s1, t):
                        f |= bit
                        k |= bit
                for t, bit in info.made:
                    if plein_made(s1, t):
                        k |= bit
                cands[key] = [((p, q),), (n,), 1, f, k, None]
        if not cands:
            cands[0] = [(), (), 0, 0, _kept_all(info), None]
    return cands


def _fill_route(info: _Info, s1: list[int], r: list[int]) -> int:
    """Pleins a tout-à-bas play fills: at its end; after its first step too (*en
    passant*) only with the switch of D33 (RULES.md §3.7 M13, 003 §398)."""
    f = 0
    for t, bit in info.near:
        if plein_made(r, t) or (info.passant and plein_made(s1, t)):
            f |= bit
    return f


# ---------------------------------------------------------------------------------
# applying and judging
# ---------------------------------------------------------------------------------


def apply_play(pos: Position, play: Play) -> Position:
    """The position after ``play``: the mover's counts replaced; turn not passed."""
    return pos.with_mover(play.result)


class PlayJudgement(NamedTuple):
    """A written play compared with the legal plays (RULES.md §3; §9.5 misplays).

    ``play``: the matching legal play, or the play as physically executed when it is
    illegal but executable.  ``violation``: stable id (see :data:`VIOLATIONS`) and
    ``rule`` its RULES.md section; ``alternatives``: all the legal plays of the roll
    (a tuple, or :class:`~.direct.LegalPlays` enumerating them when first read).
    """

    legal: bool
    play: Play | None
    executable: bool
    violation: str | None
    rule: str | None
    alternatives: Sequence[Play]


#: violation id -> RULES.md rule
VIOLATIONS: dict[str, str] = {
    "lands-on-opponent": "§3.3 L1",
    "opponent-coin": "§3.3 L2",
    "lone-coin": "§3.5 C1-C2 (L3)",
    "closed-table": "§3.3 L4 (§3.8 P3)",
    "no-repos": "§3.4 R1-R5",
    "bear-off-too-early": "§3.10 S1 (L5)",
    "bear-off-not-rearmost": "§3.10 S4-S5",
    "sortant-must-bear-off": "§3.10 S3",
    "defaillant-rearmost": "§3.10 S4",
    "wrong-distance": "§3.1 M1-M3",
    "no-checker": "§3.2 M2",
    "both-numbers": "§3.6 M6",
    "larger-number": "§3.6 M7",
    "must-fill": "§3.7 M10",
    "must-conserve": "§3.7 M11",
    "puissance-when-direct": "§3.5 C5",
    "puissance-opponent-coin": "§3.5 C4",
    "puissance-coin-held": "§3.5 C3",
}


def judge_play(
    pos: Position,
    roll: Sequence[int],
    moves: Sequence[tuple[int, int] | int],
    profile: Profile = DEFAULT_PROFILE,
) -> PlayJudgement:
    """Match moves as written to a legal play (RULES.md §3; misplays §9.5).

    ``moves``: ``(from, to)`` pairs in the mover's frame (``to = 25`` bears off; a
    tout d'une is ONE pair spanning the sum, tout à bas two pairs; chained pairs are
    accepted too) and bare ints for an explicit "cannot play that number".  Checkers
    are indistinguishable, so a written play is the legal play with the same
    resulting position.  Otherwise the violation is the obligation that excluded it
    (M6, M7, M10, M11) or the first movement law its steps break.
    """
    roll = _norm_roll(roll)
    ps = legal_plays(pos, roll, profile)
    a, b = roll
    pairs = [(int(mv[0]), int(mv[1])) for mv in moves if not isinstance(mv, int)]
    declared = [mv for mv in moves if isinstance(mv, int)]
    alts = ps.plays

    def bad(v: str, play: Play | None, executable: bool) -> PlayJudgement:
        return PlayJudgement(False, play, executable, v, VIOLATIONS.get(v), alts)

    # 1. physically execute: the checkers must be there when moved
    m = list(pos.mover)
    for p, q in pairs:
        if not (1 <= p <= 24 and p < q <= OFF):
            return bad("wrong-distance", None, False)
        if m[p] <= 0:
            return bad("no-checker", None, False)
        m[p] -= 1
        m[q] += 1
    result = tuple(m)
    # 2. the same resulting position as a legal play (or one an obligation removed)
    for pl in ps.plays:
        if pl.result == result:
            return PlayJudgement(True, pl, True, None, None, alts)
    # an empty written play is none of the plays an obligation removed when both numbers
    # can be played: each of those moves a checker forward (``_select``: every candidate
    # then plays both numbers; the one-number plays one step), so none leaves the position
    # as it was.  A record wrong on every coup (nothing played) skips enumerating them.
    if pairs or not (alts and len(alts[0].numbers) == 2):
        for pl, why in ps.excluded():
            if pl.result == result:
                return bad(why, pl, True)
    # 3. which numbers the written pairs use (the declared unplayable ones set aside)
    avail = [a, b]
    for n in declared:
        if n not in avail:
            return bad("wrong-distance", None, False)
        avail.remove(n)
    found = _assign_numbers(pos, roll, pairs, profile, avail)
    if found is None:
        return bad("wrong-distance", None, False)
    steps, numbers = found
    filled = 0
    for _name, t, bit in _TABLE_LIST:
        if not plein_made(pos.mover, t) and plein_made(result, t):
            filled |= bit
    executed = Play(tuple(steps), tuple(numbers), result, filled)
    v = _diagnose(pos, roll, steps, numbers, profile)
    if v is None:
        most = max((len(pl.numbers) for pl in ps.plays), default=0)
        if len(numbers) < most:
            v = "both-numbers"
        elif len(numbers) == 1 and numbers[0] != a and ps.plays and ps.plays[0].numbers[0] == a:
            v = "larger-number"
        else:
            v = "wrong-distance"
    return bad(v, executed, True)


def _assign_numbers(
    pos: Position, roll: Roll, pairs: list[Step], profile: Profile, avail: list[int]
) -> tuple[list[Step], list[int]] | None:
    """Die numbers of the written pairs: each pair plays one number (exact, or an
    excédant number bearing off), the sum (tout d'une, expanded into two chained
    steps through a repos) or, for two pairs onto 12, a coin par puissance (C3)."""
    a, b = roll
    if len(pairs) == 2 and len(avail) == 2 and pairs[0][1] == COIN and pairs[1][1] == COIN:
        d = sorted((COIN - pairs[0][0], COIN - pairs[1][0]))
        if d != sorted((a, b)) and [x + 1 for x in d] == sorted((a, b)):
            return list(pairs), [COIN - pairs[0][0] + 1, COIN - pairs[1][0] + 1]
    info = _info(pos, profile)

    def options(p: int, q: int, avail: list[int]) -> Iterator[tuple[list[Step], list[int]]]:
        d = q - p
        for n in sorted(set(avail), reverse=True):
            if d == n:
                yield [(p, q)], [n]
        if len(avail) == 2:
            x, y = avail
            for u, v in ((x, y), (y, x)):
                r = p + u
                if r <= 24 and (d == x + y or (q == OFF and r + v > OFF)) and (info.rest >> r) & 1:
                    yield [(p, r), (r, q)], [u, v]
            for u, v in ((x, y), (y, x)):
                r = p + u
                if r <= 24 and (d == x + y or (q == OFF and r + v > OFF)):
                    yield [(p, r), (r, q)], [u, v]
        if q == OFF:
            for n in sorted(set(avail)):
                if n > d:
                    yield [(p, q)], [n]

    def search(i: int, avail: list[int]) -> tuple[list[Step], list[int]] | None:
        if i == len(pairs):
            return [], []
        p, q = pairs[i]
        for st, ns in options(p, q, avail):
            left = list(avail)
            for n in ns:
                left.remove(n)
            sub = search(i + 1, left)
            if sub is not None:
                return st + sub[0], ns + sub[1]
        return None

    return search(0, list(avail))


def _diagnose(pos: Position, roll: Roll, steps: list[Step], numbers: list[int], profile: Profile) -> str | None:
    """First movement law the executed steps break (RULES.md §3.3-§3.5, §3.10), or None."""
    info = _info(pos, profile)
    if len(steps) == 2 and steps[0][1] == COIN and steps[1][1] == COIN:
        if steps[0][1] - steps[0][0] != numbers[0] or steps[1][1] - steps[1][0] != numbers[1]:
            why = _puissance_status(pos, roll)
            if why is not None:
                return "puissance-coin-held" if why == "coin-held" else why
    s = list(pos.mover)
    chained = len(steps) == 2 and steps[0][1] == steps[1][0]
    for i, ((p, q), n) in enumerate(zip(steps, numbers)):
        resting = chained and i == 0
        if q <= 24:
            if (info.blocked >> q) & 1:
                return "no-repos" if resting else "lands-on-opponent"
            if resting:
                if not (info.rest >> q) & 1:
                    return "no-repos"
            elif q == OPP_COIN:
                return "opponent-coin"
            elif (info.closed >> q) & 1:
                return "closed-table"
            if q - p == n and not _step_ok(info, profile, s, p, n, info.rest if resting else info.stop):
                return "sortant-must-bear-off" if s[25 - n] else "defaillant-rearmost"
        else:
            if not _off_ok(s, profile):
                return "bear-off-too-early"
            if q - p != n and any(s[x] for x in range(19, p)):
                return "bear-off-not-rearmost"  # S4-S5: overshooting numbers take the rearmost
            if not _step_ok(info, profile, s, p, n, info.stop):
                return "sortant-must-bear-off"
        s[p] -= 1
        s[q] += 1
    if s[COIN] == 1:
        return "lone-coin"
    return None


def play_moves(play: Play | None, unplayable: tuple[int, ...]) -> tuple[Move | CannotPlay, ...]:
    """The written moves of a play (its canonical text: tout d'une as one move) and an
    explicit *cannot play* for each number left unplayed (RULES.md §4.8)."""
    out: list[Move | CannotPlay] = []
    if play is not None and play.steps:
        for tok in play.text().split():
            a, b = tok.split("/")
            out.append(Move(int(a), 25 if b == "off" else int(b)))
    for n in unplayable:
        out.append(CannotPlay(n))
    return tuple(out)
