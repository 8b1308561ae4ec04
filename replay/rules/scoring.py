"""Scoring events of one throw (RULES.md §4).

Everything is in the mover's frame (RULES.md §2.2).  The roller is the *mover*;
``other`` is his opponent.  Three groups of events:

* judged on the position before the throw and the dice only (RULES.md §3.11): the
  five special jans (§4.6), battre le coin (§4.4) and the hits à vrai / à faux on
  lone checkers (§4.3) — :func:`position_events`;
* judged on the legal plays of the roll (:mod:`trictrac.replay.rules.moves`): filling a
  plein and its ways (§4.5 F2-F5, F11-F12), conserving it (F7-F8), impuissance
  (§4.8), sortie (§4.9), pile de misère (profile ``innovations``, §10 D20);
* :func:`score_play` judges those on one actual play instead of on the roll.

Values are per RULES.md §4.2: 4 for a simple throw and 6 for a doublet, except hits
on a second table (2 / 4) and impuissance (2 a number).  All events of a throw add up
(RULES.md §4.2 last line, §4.7).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from .direct import both_numbers_playable
from .moves import (
    GRAND_JAN,
    JAN_DE_RETOUR,
    OFF,
    PLEIN_AT,
    TABLE_BITS,
    Play,
    PlaySet,
    heavy_table,
    legal_plays,
)
from .position import Position, after_play, is_start
from .profiles import DEFAULT_PROFILE, Profile

__all__ = [
    "KINDS",
    "SPECIAL_JANS",
    "ScoringEvent",
    "CoupScore",
    "score_roll",
    "score_play",
    "next_position",
    "play_outcome",
    "position_events",
    "fill_ways",
    "clear_cache",
]

Roll = tuple[int, int]

#: every kind of scoring event, in the order the analyser lists them (architecture.md)
KINDS: tuple[str, ...] = (
    "jan-de-trois-coups",
    "jan-de-deux-tables",
    "contre-jan-de-deux-tables",
    "jan-de-mezeas",
    "contre-jan-de-mezeas",
    "battre-le-coin",
    "battre-a-vrai",
    "battre-a-faux",
    "petit-jan",
    "grand-jan",
    "jan-de-retour",
    "sortie",
    "pile-de-misere",
    "impuissance",
)
#: the special jans of RULES.md §4.6, recorded in Position.mover_jans once made
SPECIAL_JANS: frozenset[str] = frozenset(KINDS[:5])

COIN = 12
OPP_COIN = 13


def _targets(oth: tuple[int, ...]) -> tuple[int, ...]:
    """Mover's points holding exactly one opposing checker (B1), ascending: the
    opponent's points 1..23 in his frame (``oth``), found by ``index`` (C speed)."""
    n = oth[1:24].count(1)
    if not n:
        return ()
    out = []
    q = 0
    for _ in range(n):
        q = oth.index(1, q + 1, 24)
        out.append(25 - q)
    out.reverse()
    return tuple(out)


#: value of a hit on point t (mover's frame): (simple, doublet) per way (RULES.md §4.3 B5,
#: §2.4: first tables 1-6 and 19-24 score 4/6, second tables 7-18 score 2/4)
_HIT_VALUE: tuple[tuple[int, int], ...] = tuple((4, 6) if (1 <= t <= 6 or 19 <= t <= 24) else (2, 4) for t in range(26))


@dataclass(frozen=True, slots=True)
class ScoringEvent:
    """One scoring event of a throw (RULES.md §4.2).

    ``side``: "mover" (the roller) or "other"; ``points`` = ``ways`` × value;
    ``target``: the point hit (mover's frame) for the battre kinds; ``how``:
    "remplir" | "conserver" for the three pleins.
    """

    side: str
    kind: str
    ways: int
    points: int
    target: int | None = None
    how: str | None = None

    def as_dict(self) -> dict[str, object]:
        d: dict[str, object] = {"side": self.side, "kind": self.kind, "ways": self.ways, "points": self.points}
        if self.target is not None:
            d["target"] = self.target
        if self.how is not None:
            d["how"] = self.how
        return d


#: events already built, by their fields: a frozen dataclass costs ~1 µs to build and a
#: verifier builds the same few hundred events over and over (bounded: finite fields)
_EVENTS: dict[tuple[Any, ...], ScoringEvent] = {}


def _event(
    side: str, kind: str, ways: int, points: int, target: int | None = None, how: str | None = None
) -> ScoringEvent:
    key = (side, kind, ways, points, target, how)
    e = _EVENTS.get(key)
    if e is None:
        e = _EVENTS[key] = ScoringEvent(side, kind, ways, points, target, how)
    return e


@dataclass(frozen=True, slots=True)
class CoupScore:
    """All events of one throw and the totals: ``mover`` = roller's points (points
    gagnés), ``other`` = the opponent's (points donnés) (RULES.md §4.1)."""

    events: tuple[ScoringEvent, ...]
    mover: int
    other: int


#: the score of a throw without any event (immutable, so shared)
_NO_SCORE = CoupScore((), 0, 0)
_new_score = CoupScore.__new__  # object.__new__ in Python; the allocator when compiled (mypyc)
_SET_SCORE = tuple(vars(CoupScore)[f.name].__set__ for f in fields(CoupScore))


# ---------------------------------------------------------------------------------
# per-position facts (computed once, shared by the 21 rolls)
# ---------------------------------------------------------------------------------


class _Ctx:
    """Facts of a position that every roll needs (slotted; built once per position)."""

    __slots__ = (
        "m",
        "oth",
        "targets",
        "own_coin_closed",
        "coin_hit",
        "trois_coups",
        "deux_tables",
        "mezeas",
        "plein",
        "gaps",
        "deficit",
    )

    def __init__(self, pos: Position, profile: Profile) -> None:
        m = pos.mover
        oth = pos.other  # the opponent's own frame: mover's point t is oth[25 - t]
        self.m = m
        self.oth = oth
        # B1: a target is a point with exactly one opposing checker
        self.targets = _targets(oth) if 1 in oth else ()
        # R5: one's own empty coin is no repos (switch rest_on_own_empty_coin, §10 D13)
        self.own_coin_closed = m[COIN] == 0 and not profile.rest_on_own_empty_coin
        # K1: own coin held, opponent's coin (his 12) empty
        self.coin_hit = m[COIN] >= 2 and oth[COIN] == 0
        talon = m[1]
        self.trois_coups = _trois_coups_roll(pos, profile) if talon == 11 else None
        self.deux_tables = _deux_tables_points(pos) if talon == 13 else None
        self.mezeas = _mezeas_kind(pos) if talon == 13 else None
        # the plein at stake: at most one table can miss <= 2 checkers (12 + 10 > 15)
        lo, deficit = heavy_table(m)
        if deficit <= 2:
            kind, table, _bit = PLEIN_AT[lo]
            self.plein: tuple[str, tuple[int, ...]] | None = (kind, table)
            self.deficit = deficit
            self.gaps: tuple[int, ...] = tuple([p for p in table if m[p] < 2])
        else:
            self.plein = None
            self.deficit = 99
            self.gaps = ()

    def open_hit(self, r: int) -> bool:
        """B4: a repos for a hit by the sum holds at most one opposing checker (a held
        opposing coin holds two); R5: one's own empty coin is closed by default."""
        if r == COIN:
            return not self.own_coin_closed
        return self.oth[25 - r] <= 1

    def open_move(self, r: int) -> bool:
        """R1-R5: a repos for moving holds no opposing checker."""
        if r == COIN:
            return not self.own_coin_closed
        return self.oth[25 - r] == 0


# keyed by (position, id(profile)): hashing a Profile costs ~2 µs; the entry keeps its
# profile so that a recycled id never matches (checked by identity)
_CTX: dict[tuple[Position, int], tuple[Profile, _Ctx]] = {}
_CTX_MAX = 20_000
#: the last (position, profile, facts), by identity: scoring then moving one throw
#: asks for the same position twice in a row, and hashing a Position costs ~1 µs
_LAST_CTX: list[Any] = [None, None, None]


def _ctx(pos: Position, profile: Profile) -> _Ctx:
    last = _LAST_CTX
    if last[0] is pos and last[1] is profile:
        kept: _Ctx = last[2]
        return kept
    key = (pos, id(profile))
    hit = _CTX.get(key)
    if hit is not None and hit[0] is profile:
        c = hit[1]
    else:
        if len(_CTX) >= _CTX_MAX:
            _CTX.clear()
        c = _Ctx(pos, profile)
        _CTX[key] = (profile, c)
    last[0], last[1], last[2] = pos, profile, c
    return c


def clear_cache() -> None:
    """Forget the per-position facts (benchmarks with a cold cache)."""
    _CTX.clear()
    _LAST_CTX[:] = [None, None, None]
    _OPENING_OUTCOMES.clear()


# ---------------------------------------------------------------------------------
# the special jans (RULES.md §4.6) — position before the throw
# ---------------------------------------------------------------------------------


def _trois_coups_roll(pos: Position, profile: Profile) -> Roll | None:
    """The roll that makes the jan de trois coups now, or None (RULES.md §4.6 1; 003 §123).

    Third throw of the relevé; the first two put four single checkers from the talon on
    four of flèches 1-6 (points 2..7), talon 11; the throw's numbers are the two flèches
    still empty (never a doublet).  Scored at the start of every relevé: RULES.md §10 D30
    is no real disagreement, since 000 calls a relevé a "partie" (000 ~l.710, ~l.824).
    """
    m = pos.mover
    if pos.mover_coups != 2 or m[1] != 11 or "jan-de-trois-coups" in pos.mover_jans:
        return None
    empty = []
    for p in range(2, 8):
        if m[p] == 0:
            empty.append(p)
        elif m[p] != 1:
            return None
    if len(empty) != 2:
        return None
    return (empty[1] - 1, empty[0] - 1)


def _deux_tables_points(pos: Position) -> tuple[int, int, bool] | None:
    """(p, q, contre) when the roller has exactly two checkers abattues, none on his coin
    (RULES.md §4.6 2-3; 003 §124-125).  ``contre`` = the opponent holds his coin.
    "Chaque joueur peut le faire une fois" (003 §124): not again once in mover_jans."""
    m = pos.mover
    if m[1] != 13 or m[COIN] or m[OFF]:
        return None
    pts = [p for p in range(2, 12) for _ in range(m[p])]
    if len(pts) != 2:
        return None
    contre = pos.other[COIN] >= 2
    if not contre and "jan-de-deux-tables" in pos.mover_jans:
        return None
    return pts[0], pts[1], contre


def _mezeas_kind(pos: Position) -> str | None:
    """Kind of the mézéas pattern: the roller's only abattues are the two on his coin
    (RULES.md §4.6 4-5; 003 §126-127).  "Un seul joueur peut le faire, une seule fois"
    (003 §126): no jan de mézéas once either side has made it."""
    m = pos.mover
    if m[1] != 13 or m[COIN] != 2:
        return None
    if pos.other[COIN] >= 2:
        return "contre-jan-de-mezeas"
    if "jan-de-mezeas" in pos.mover_jans or "jan-de-mezeas" in pos.other_jans:
        return None
    return "jan-de-mezeas"


# ---------------------------------------------------------------------------------
# events judged on the position and the dice only
# ---------------------------------------------------------------------------------


def _position_events(c: _Ctx, a: int, b: int, out: list[ScoringEvent]) -> None:
    """Special jans (RULES.md §4.6), battre le coin (§4.4 K1-K3), hits (§4.3 B1-B7):
    appended to ``out`` in that order, hits by ascending target."""
    doublet = a == b
    v = 6 if doublet else 4
    m = c.m
    # -- special jans (§4.6)
    if c.trois_coups is not None and c.trois_coups == (a, b):
        out.append(_event("mover", "jan-de-trois-coups", 1, 4))
    dt = c.deux_tables
    if dt is not None:
        p, q, contre = dt
        if (
            (p + a == COIN and q + b == OPP_COIN)
            or (p + b == COIN and q + a == OPP_COIN)
            or (q + a == COIN and p + b == OPP_COIN)
            or (q + b == COIN and p + a == OPP_COIN)
        ):
            if contre:
                out.append(_event("other", "contre-jan-de-deux-tables", 1, v))
            else:
                out.append(_event("mover", "jan-de-deux-tables", 1, v))
    if c.mezeas is not None and b == 1:
        side = "other" if c.mezeas[0] == "c" else "mover"
        out.append(_event(side, c.mezeas, 1, v))
    # -- battre le coin (§4.4 K1-K3): two checkers onto 13, one per number; the two
    # checkers holding the coin do not count (K2)
    if c.coin_hit:
        s1 = OPP_COIN - a
        n1 = m[s1] - (2 if s1 == COIN else 0)
        if doublet:
            ok = n1 >= 2
        else:
            s2 = OPP_COIN - b
            ok = n1 >= 1 and m[s2] - (2 if s2 == COIN else 0) >= 1
        if ok:
            out.append(_event("mover", "battre-le-coin", 1, v, target=OPP_COIN))
    # -- hits on lone checkers (§4.3 B1-B7)
    if c.targets:
        oh = c.open_hit
        s = a + b
        for t in c.targets:
            vrai = 0
            faux = 0
            if t > a and m[t - a]:
                vrai += 1
            if not doublet and t > b and m[t - b]:
                vrai += 1
            src = t - s
            if src >= 1 and m[src]:
                # B4: by the sum, à vrai when a repos is open, else à faux
                if oh(src + a) or (not doublet and oh(src + b)):
                    vrai += 1
                else:
                    faux += 1
            if vrai or faux:
                val = _HIT_VALUE[t][doublet]
                if vrai:
                    out.append(_event("mover", "battre-a-vrai", vrai, vrai * val, target=t))
                if faux:
                    out.append(_event("other", "battre-a-faux", faux, faux * val, target=t))


def position_events(pos: Position, roll: Sequence[int], profile: Profile = DEFAULT_PROFILE) -> tuple[ScoringEvent, ...]:
    """Events judged on the position before the throw and the dice alone: special jans
    (RULES.md §4.6), battre le coin (§4.4), hits à vrai / à faux (§4.3)."""
    a, b = _norm(roll)
    out: list[ScoringEvent] = []
    _position_events(_ctx(pos, profile), a, b, out)
    return tuple(out)


# ---------------------------------------------------------------------------------
# pleins (RULES.md §4.5)
# ---------------------------------------------------------------------------------


#: weights of a play's net change: |change| <= 2 < 4 per point, so base 8 is exact
_W: tuple[int, ...] = tuple(8**p for p in range(26))


def _play_key(play: Play) -> int:
    """Net change of a play as one int, whatever the route (tout d'une or tout à bas,
    order of the steps)."""
    k = 0
    for p, q in play.steps:
        k += _W[q] - _W[p]
    return k


def _surplus(m: Sequence[int], s: int, table: tuple[int, ...]) -> bool:
    """Can point ``s`` give a checker to the plein without emptying a needed point?
    (RULES.md §4.5 F3 (i); 003 §50, §52): inside the table (talon included for the petit
    jan) only a third checker; the coin only its third checker (C8, 003 §104)."""
    n = m[s]
    if table[0] <= s <= table[5] or s == COIN:
        return n >= 3
    return n >= 1


def fill_ways(
    pos: Position, roll: Sequence[int], profile: Profile = DEFAULT_PROFILE, ps: PlaySet | None = None
) -> tuple[str, int] | None:
    """``(plein kind, ways)`` when the roll fills a plein, else None (RULES.md §4.5).

    F3 (one demi-case missing): each of the distances ``a``, ``b``, ``a + b`` (doublet
    ``a``, ``2a``) that carries a surplus checker exactly onto the gap is one way,
    provided the sum has an open repos (R1-R5) and the throw can then be completed
    legally — checked against the legal plays that fill: some such play must have the
    net change of "this checker onto the gap, then the other number anywhere (or
    nothing when the legal plays play one number)" (003 §55-56, §72-73, §103-104;
    M12).  M13: a play fills only when the plein is made at its end, "il faut que
    l'autre nombre puisse se jouer sans rompre" (003 §398), so *en jouant un seul
    nombre* counts (003 §81) and *en passant* does not (003 §64), except under the
    switch ``score_remplir_en_passant`` (§10 D33).  Several checkers on one source
    point make one way (000 ~l.800).
    F4 (a case or two demi-cases missing): one way whenever a legal play fills
    (000 ~l.798; 003 §53-54); two ways for two demi-cases with the switch
    ``two_demi_cases_two_ways`` (001 IV, §10 D8).  F12: taking the coin when it is the
    last missing case of the grand jan is such a fill.
    F11 (switch ``fill_by_puissance_at_retour``, 000 ~l.804-812): see :func:`_puissance_way`.
    """
    a, b = _norm(roll)
    if ps is None:
        ps = legal_plays(pos, (a, b), profile)
    c = _ctx(pos, profile)
    return _fill_ways(c, a, b, ps, profile)


def _fill_ways(c: _Ctx, a: int, b: int, ps: PlaySet, profile: Profile) -> tuple[str, int] | None:
    if c.plein is None or c.deficit == 0 or not ps.fills:
        return None
    kind, table = c.plein
    bit = TABLE_BITS[kind]
    plays = ps.plays
    if c.deficit == 2:
        if not any(p.filled & bit for p in plays):
            return None
        ways = 2 if (profile.two_demi_cases_two_ways and len(c.gaps) == 2) else 1
        return kind, ways
    # F3: one demi-case at g
    g = c.gaps[0]
    m = c.m
    keys = {_play_key(p) for p in plays if p.filled & bit}
    one_step = any(len(p.steps) == 1 for p in plays)
    doublet = a == b
    ways = 0
    if doublet:
        singles: tuple[tuple[int, int], ...] = ((a, a),)
    else:
        singles = ((a, b), (b, a))
    W = _W
    for x, y in singles:
        s = g - x
        if s < 1 or not _surplus(m, s, table):
            continue
        base = W[g] - W[s]
        if one_step and base in keys:
            ways += 1
            continue
        # the other number y from any point of the partial position (q = g included:
        # a checker then leaves the gap, the fill *en passant* of 003 §64, which is in
        # ``keys`` only under switch D33)
        for q in range(1, 25):
            n = m[q] - (q == s) + (q == g)
            if n <= 0:
                continue
            t = q + y
            if t > OFF:
                t = OFF
            if base + W[t] - W[q] in keys:
                ways += 1
                break
    s = g - a - b
    if s >= 1 and _surplus(m, s, table):
        om = c.open_move
        if (om(s + a) or (not doublet and om(s + b))) and (W[g] - W[s]) in keys:
            ways += 1
    if ways and profile.fill_by_puissance_at_retour and kind == "jan-de-retour":
        ways += _puissance_way(c, a, b, g, plays)
    if not ways:
        # a legal play fills but by no way of F3 (cannot happen with one demi-case)
        ways = 1
    return kind, ways


def _puissance_way(c: _Ctx, a: int, b: int, g: int, plays: tuple[Play, ...]) -> int:
    """One more way for the jan de retour "par puissance" from the coin (RULES.md §4.5
    F11; 000 ~l.804-812, profile switch ``fill_by_puissance_at_retour``, §10 D5): some
    ordinary way fills, a number or the sum carries an (immobile) coin checker exactly
    onto the gap, and the throw can be played entirely without the coin and without
    breaking (some legal play plays both numbers, keeps the jan and leaves the coin)."""
    m = c.m
    if m[COIN] != 2:
        return 0
    d = g - COIN
    if d not in ((a, b, a + b) if a != b else (a, 2 * a)):
        return 0
    for p in plays:
        r = p.result
        if len(p.numbers) == 2 and r[COIN] == 2 and all(r[x] >= 2 for x in JAN_DE_RETOUR):
            return 1
    return 0


def _made(r: Sequence[int], table: tuple[int, ...]) -> bool:
    for p in table:
        if r[p] < 2:
            return False
    return True


# ---------------------------------------------------------------------------------
# scoring a throw
# ---------------------------------------------------------------------------------


def _norm(roll: Sequence[int]) -> Roll:
    a, b = roll
    if not (1 <= a <= 6 and 1 <= b <= 6):
        raise ValueError(f"bad roll {tuple(roll)!r}: numbers must be 1..6")
    return (a, b) if a >= b else (b, a)


def _total(events: list[ScoringEvent]) -> CoupScore:
    if not events:
        return _NO_SCORE
    mv = 0
    ot = 0
    for e in events:
        if e.side == "mover":
            mv += e.points
        else:
            ot += e.points
    score = _new_score(CoupScore)  # through the slots: a frozen dataclass's __init__ is slow
    set_events, set_mover, set_other = _SET_SCORE
    set_events(score, tuple(events))
    set_mover(score, mv)
    set_other(score, ot)
    return score


def _score(
    pos: Position, a: int, b: int, profile: Profile, ps: PlaySet | None, play: Play | None, c: _Ctx | None = None
) -> CoupScore:
    """The events of the roll (``play`` None; ``ps`` required) or of one play.  For one
    play the legal plays are enumerated (``ps`` None: on demand) only when the play
    fills a plein, whose ways F3-F5 depend on the other legal plays (RULES.md §4.5);
    conservation, sortie, pile de misère and impuissance are the play's own (§4.5 F7,
    §4.9, §10 D20, §4.8 M8: 2 a number *this* play leaves unplayed)."""
    if c is None:
        c = _ctx(pos, profile)
    v = 6 if a == b else 4
    events: list[ScoringEvent] = []
    _position_events(c, a, b, events)
    if play is None:
        assert ps is not None
        plays = ps.plays
    else:
        plays = (play,)
    # -- pleins: fill (F2-F5, F11-F12) or conserve (F7-F8); one plein at stake at a time
    if c.plein is not None:
        kind, table = c.plein
        if c.deficit:
            if play is None:
                assert ps is not None  # every play scored: the play set was given
                fw = _fill_ways(c, a, b, ps, profile)
            elif play.filled & TABLE_BITS[kind]:
                if ps is None:
                    ps = legal_plays(pos, (a, b), profile)
                fw = _fill_ways(c, a, b, ps, profile)
                fw = (kind, fw[1] if fw else 1)
            else:
                fw = None
            if fw is not None:
                events.append(_event("mover", kind, fw[1], fw[1] * v, how="remplir"))
        else:
            # F7: conserved when the plein is intact after the throw; F8 par impuissance
            # (nothing or one number played) likewise; the filling throw never conserves
            kept = not plays or any(_made(p.result, table) for p in plays)
            if kept:
                events.append(_event("mover", kind, 1, v, how="conserver"))
    m = c.m
    # -- sortie (§4.9): the throw bears off the last checker (first to finish)
    sortie = m[OFF] >= 13 and m[OFF] < 15 and any(p.result[OFF] == 15 for p in plays)
    if sortie:
        events.append(_event("mover", "sortie", 1, v))
    # -- pile de misère (profile innovations; §10 D20; 001 IV): 15 on the coin, made or kept
    if profile.pile_de_misere and (any(p.result[COIN] == 15 for p in plays) or (not plays and m[COIN] == 15)):
        events.append(_event("mover", "pile-de-misere", 1, v))
    # -- impuissance (§4.8 M8): 2 a number not played.  [Derived] not at the sortie:
    # a number left over once the last checker is off is no impuissance — the
    # relevé is over and "je joue pour tout" plays the throw again (003 §118)
    if sortie:
        unplayed = 0
    elif play is None:
        assert ps is not None
        unplayed = len(ps.unplayable)
    else:
        unplayed = 2 - len(play.numbers)
    if unplayed > 0:
        events.append(_event("other", "impuissance", unplayed, 2 * unplayed))
    return _total(events)


def score_roll(pos: Position, roll: Sequence[int], profile: Profile = DEFAULT_PROFILE) -> CoupScore:
    """What ``roll`` entitles each side to when played legally (RULES.md §4.10).

    Fill and conservation follow the legal plays, which must fill or conserve when
    they can (M10-M11); the sortie is counted when some legal play bears off the last
    checker (bearing off with a sortant number is free, §10 D15); impuissance counts
    the numbers no legal play can play (PlaySet.unplayable).
    """
    a, b = _norm(roll)
    c = _ctx(pos, profile)
    if c.plein is None and c.m[OFF] < 13 and not profile.pile_de_misere and both_numbers_playable(pos, a, b, profile):
        # no plein to fill or keep, no sortie, every number played: the throw's events
        # are the position's (§4.3, §4.4, §4.6), no play needs listing
        events: list[ScoringEvent] = []
        _position_events(c, a, b, events)
        return _total(events)
    ps = legal_plays(pos, (a, b), profile)
    return _score(pos, a, b, profile, ps, None, c)


def score_play(pos: Position, roll: Sequence[int], play: Play, profile: Profile = DEFAULT_PROFILE) -> CoupScore:
    """The events of one actual play of ``roll`` (RULES.md §4.10).

    Position events as in :func:`score_roll`; fill only when ``play.filled`` says the
    play fills (at its end; *en passant* only under switch D33), with the ways of the roll; conservation,
    sortie and pile de misère only when this play achieves them; impuissance 2 per
    number the play leaves unplayed (for an illegal play that leaves a playable number,
    M9: the opponent may accept it and take the 2).
    """
    a, b = _norm(roll)
    ps = legal_plays(pos, (a, b), profile)
    return _score(pos, a, b, profile, ps, play)


def next_position(pos: Position, roll: Sequence[int], play: Play, profile: Profile = DEFAULT_PROFILE) -> Position:
    """The position after ``play``, with the other side to move.

    The mover's counts become ``play.result``; his coups count grows by one; his coin
    is recorded as taken once he holds it (RULES.md §3.5); the special jans the throw
    produced (jan or contre-jan, RULES.md §4.6) are added to ``mover_jans`` so that the
    "once" limits of 003 §124, §126 hold; under ``opponent_table_closed="until-broken"``
    a made grand jan is recorded too (read by moves.py).  A sortie
    (``play.result[25] == 15``) ends the relevé (RULES.md §4.9): the caller starts the
    next one (``start_position``).
    """
    a, b = _norm(roll)
    events: list[ScoringEvent] = []
    _position_events(_ctx(pos, profile), a, b, events)
    return _next(pos, play, profile, events)


def _next(pos: Position, play: Play, profile: Profile, events: Sequence[ScoringEvent]) -> Position:
    """:func:`next_position` given the throw's events (only its special jans are read)."""
    r = play.result
    mover_jans = pos.mover_jans
    if events:
        jans = {e.kind for e in events if e.kind in SPECIAL_JANS}
        if jans:
            mover_jans = mover_jans | jans
    if profile.opponent_table_closed == "until-broken" and (_made(pos.mover, GRAND_JAN) or _made(r, GRAND_JAN)):
        # 000 ~l.508 (§10 D14): the opponent's second table opens once this grand jan,
        # having been made (before or by this throw), is broken; moves.py reads that
        # history from the jans
        mover_jans = mover_jans | _GRAND_JAN_MADE
    # built directly, already swapped (the other side to move), through the slots:
    # dataclasses.replace and swapped() cost ~7 µs on this hot path
    return after_play(pos, r, mover_jans)


_GRAND_JAN_MADE = frozenset(("grand-jan",))


def play_outcome(
    pos: Position, roll: Sequence[int], play: Play, profile: Profile = DEFAULT_PROFILE
) -> tuple[CoupScore, Position]:
    """``(score_play(...), next_position(...))`` of one play, sharing the work (the
    verifier's hot path)."""
    a, b = roll
    if not (1 <= a <= 6 and 1 <= b <= 6):
        raise ValueError(f"bad roll {tuple(roll)!r}: numbers must be 1..6")
    if a < b:
        a, b = b, a
    if is_start(pos):  # the opening: every game and relevé starts there, its outcomes made once
        key = (pos.turn, a, b, play, profile)
        kept = _OPENING_OUTCOMES.get(key)
        if kept is None:
            if len(_OPENING_OUTCOMES) >= _OPENING_OUTCOMES_MAX:
                _OPENING_OUTCOMES.clear()
            cs = _score_one(pos, a, b, profile, play, _Ctx(pos, profile))
            kept = _OPENING_OUTCOMES[key] = (cs, _next(pos, play, profile, cs.events))
        return kept
    last = _LAST_CTX
    if last[0] is pos and last[1] is profile:
        c = last[2]
    else:
        # a game seldom comes back to a position: the facts are built without the
        # shared cache (no hashing of the position, no garbage kept alive)
        c = _Ctx(pos, profile)
        last[0], last[1], last[2] = pos, profile, c
    cs = _score_one(pos, a, b, profile, play, c)
    return cs, _next(pos, play, profile, cs.events)


#: (side, larger number, smaller, play, profile) -> the outcome of a play from the opening
#: (``start_position``): frozen values, shared by the games that play it
_OPENING_OUTCOMES: dict[tuple[str, int, int, Play, Profile], tuple[CoupScore, Position]] = {}
_OPENING_OUTCOMES_MAX = 4096


def _score_one(pos: Position, a: int, b: int, profile: Profile, play: Play, c: _Ctx) -> CoupScore:
    """``_score(pos, a, b, profile, None, play, c)`` written for one play (the verifier's
    hot path: no generator over a one-play tuple, no event list when nothing scores)."""
    v = 6 if a == b else 4
    events: list[ScoringEvent] = []
    _position_events(c, a, b, events)
    r = play.result
    if c.plein is not None:
        kind, table = c.plein
        if c.deficit:
            if play.filled & TABLE_BITS[kind]:
                fw = _fill_ways(c, a, b, legal_plays(pos, (a, b), profile), profile)
                ways = fw[1] if fw else 1
                events.append(_event("mover", kind, ways, ways * v, how="remplir"))
        elif _made(r, table):
            events.append(_event("mover", kind, 1, v, how="conserver"))  # F7
    m = c.m
    sortie = r[OFF] == 15 and 13 <= m[OFF] < 15  # §4.9
    if sortie:
        events.append(_event("mover", "sortie", 1, v))
    if profile.pile_de_misere and r[COIN] == 15:
        events.append(_event("mover", "pile-de-misere", 1, v))
    unplayed = 0 if sortie else 2 - len(play.numbers)  # §4.8 M8
    if unplayed > 0:
        events.append(_event("other", "impuissance", unplayed, 2 * unplayed))
    return _total(events)
