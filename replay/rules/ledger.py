"""The score ledger: what scoring events do to the jetons, the fichet and the pavillon.

The rules engine (``replay.rules.scoring``) says what a throw is worth; the ledger says what
that does to the score (RULES.md §5, §6).  One call to :meth:`Ledger.mark` is one
*scoring event*: one throw's gains, one throw's receipts, or one école (RULES.md §4.1
O5, §5.2).  :meth:`Ledger.mark_throw` marks one throw in the right order (the roller's
gains before the opponent's receipts, RULES.md §4.1 O2; 003 §207).

State per seat (``"A"``/``"B"``):

* points 0..10 on the jetons (always even; 12 points make a hole, RULES.md §5.1),
* points-bredouille (the current points are uninterrupted, RULES.md §5.2),
* holes on the fichet (never erased inside a partie or a marqué, RULES.md §5.4),
* hole-bredouille, the *pavillon* (the holes are uninterrupted, RULES.md §5.4).

The state machine is RULES.md §5.2 / §5.4 verbatim; it reproduces 003 §146-147,
§200, §207, §331 and 000 ~l.534-538 (RULES.md E29-E34, E44).

The ledger knows nothing of checkers: whether the roller touched a checker or marked
his points de reste (which also lose the right to leave, RULES.md §6.1) is the
verifier's business; it tells the ledger through :meth:`Ledger.stay`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

from ...notation.compiled import mypyc_attr
from ...words import SaidError
from .profiles import DEFAULT_PROFILE, Profile

if TYPE_CHECKING:  # pragma: no cover
    from ...notation.position import PositionSpec

__all__ = [
    "SIDES",
    "LedgerError",
    "PlayerScore",
    "ScoreState",
    "MarkResult",
    "ThrowResult",
    "Ledger",
    "other",
]

SIDES = ("A", "B")
POINTS_PER_HOLE = 12  # RULES.md §5.1; 003 §140


@mypyc_attr(native_class=False)  # its base, words.SaidError, is interpreted
class LedgerError(SaidError):
    """API misuse: unknown side, odd or negative points, leaving without the right (a
    catalogue key, ``sc.ledger.*``: ``str(e)`` its English, ``e.say("fr")`` its French)."""


def other(side: str) -> str:
    if side == "A":
        return "B"
    if side == "B":
        return "A"
    raise LedgerError("sc.ledger.unknown_side", side=side)


def _index(side: str) -> int:
    if side == "A":
        return 0
    if side == "B":
        return 1
    raise LedgerError("sc.ledger.unknown_side", side=side)


@dataclass(frozen=True, slots=True)
class PlayerScore:
    """One player's score.  ``bredouille``: his current points are uninterrupted
    (only ever true with points); ``pavillon``: his holes are uninterrupted (only ever
    true with holes) — RULES.md §5.2, §5.4."""

    points: int = 0
    bredouille: bool = False
    holes: int = 0
    pavillon: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "points": self.points,
            "holes": self.holes,
            "bredouille": self.bredouille,
            "pavillon": self.pavillon,
        }


@dataclass(frozen=True, slots=True)
class ScoreState:
    """Both players' scores, by seat letter."""

    a: PlayerScore = PlayerScore()
    b: PlayerScore = PlayerScore()

    def __getitem__(self, side: str) -> PlayerScore:
        return (self.a, self.b)[_index(side)]

    def as_dict(self) -> dict[str, dict[str, Any]]:
        return {"A": self.a.as_dict(), "B": self.b.as_dict()}

    @classmethod
    def from_spec(cls, spec: PositionSpec) -> ScoreState:
        """The score carried by a one-line position (``points=4b/0 holes=2p/0``)."""
        sides = []
        for i in (0, 1):
            pts, holes = int(spec.points[i]), int(spec.holes[i])
            sides.append(
                PlayerScore(
                    points=pts,
                    bredouille=bool(spec.bredouille[i]) and pts > 0,
                    holes=holes,
                    pavillon=bool(spec.pavillon[i]) and holes > 0,
                )
            )
        return cls(sides[0], sides[1])

    def apply_to_spec(self, spec: PositionSpec) -> PositionSpec:
        """``spec`` with its score fields replaced by this state."""
        return replace(
            spec,
            points=(self.a.points, self.b.points),
            bredouille=(self.a.bredouille, self.b.bredouille),
            holes=(self.a.holes, self.b.holes),
            pavillon=(self.a.pavillon, self.b.pavillon),
        )


_NO_SCORE = ScoreState()  # a fresh ledger's score (frozen: one value for every ledger)
#: built through the slots (``Ledger.state``, read a few times a coup): a frozen
#: dataclass's ``__init__`` sets each field through ``object.__setattr__``
_new_player = PlayerScore.__new__  # object.__new__ in Python; the allocator when compiled (mypyc)
_new_state = ScoreState.__new__
_SET_PLAYER = tuple(vars(PlayerScore)[f.name].__set__ for f in fields(PlayerScore))
_SET_STATE = tuple(vars(ScoreState)[f.name].__set__ for f in fields(ScoreState))


def _player_score(points: int, bredouille: bool, holes: int, pavillon: bool) -> PlayerScore:
    ps: PlayerScore = _new_player(PlayerScore)
    set_points, set_bredouille, set_holes, set_pavillon = _SET_PLAYER
    set_points(ps, points)
    set_bredouille(ps, bredouille)
    set_holes(ps, holes)
    set_pavillon(ps, pavillon)
    return ps


@dataclass(frozen=True, slots=True)
class MarkResult:
    """What one scoring event did (RULES.md §5.2).

    ``holes``: one ``(n, double)`` per hole completed, in order — ``n`` = 2 for a
    *trou double* (bredouille), 1 for a *trou simple* (RULES.md §5.2).
    ``own``: the points were gained by the side's own throw (not given, not an
    école), so completing a hole gives the right to leave (RULES.md §6.1).
    ``erased``: the opponent's points wiped by the first hole (003 §148).
    """

    side: str
    points: int
    own: bool
    holes: tuple[tuple[int, bool], ...]
    points_after: int
    bredouille_after: bool
    erased: int = 0

    @property
    def holes_won(self) -> int:
        return sum(n for n, _ in self.holes)

    @property
    def completed(self) -> bool:
        """At least one hole was completed by this event."""
        return bool(self.holes)

    @property
    def sans_bouger(self) -> bool:
        """A hole made of exactly the event's points: the jeton stays put (003 §179)."""
        return bool(self.holes) and self.points % POINTS_PER_HOLE == 0 and self.points_after > 0

    @property
    def gives_right_to_leave(self) -> bool:
        """A hole completed with the side's own gain (RULES.md §6.1; 003 §155)."""
        return self.own and bool(self.holes)

    def as_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "points": self.points,
            "own": self.own,
            "holes": [[n, d] for n, d in self.holes],
            "points_after": self.points_after,
            "bredouille_after": self.bredouille_after,
            "erased": self.erased,
        }


@dataclass(frozen=True, slots=True)
class ThrowResult:
    """One throw marked by :meth:`Ledger.mark_throw`."""

    roller: str
    gained: MarkResult | None  # None when nothing was gained or "je ne marque pas"
    given: MarkResult | None  # None when nothing was given or the roller left
    left: bool


@mypyc_attr(allow_interpreted_subclasses=True)  # the tests' reference ledger subclasses it
class Ledger:
    """Mutable score of one relevé sequence (a partie en douze trous or one marqué).

    ``primaute``: who throws first in the current relevé (the leaver after a leave,
    RULES.md §6.2; the first out after a sortie, §4.9).  ``releve``: relevés started.
    """

    __slots__ = ("profile", "_pts", "_bred", "_holes", "_hbred", "_leave_right", "_nmp", "primaute", "releve")

    def __init__(
        self,
        profile: Profile = DEFAULT_PROFILE,
        state: ScoreState | None = None,
        primaute: str | None = None,
    ) -> None:
        self.profile = profile
        st = state or _NO_SCORE
        self._pts = [st.a.points, st.b.points]
        self._bred = [st.a.bredouille, st.b.bredouille]
        self._holes = [st.a.holes, st.b.holes]
        self._hbred = [st.a.pavillon, st.b.pavillon]
        for i in (0, 1):
            if not 0 <= self._pts[i] < POINTS_PER_HOLE or self._holes[i] < 0:
                raise LedgerError("sc.ledger.impossible", score=repr(st))
        self._leave_right: int | None = None  # seat that may leave right now
        self._nmp: int | None = None  # seat that just said "je ne marque pas"
        self.primaute = primaute
        self.releve = 1

    # -- reading --------------------------------------------------------------------
    @property
    def state(self) -> ScoreState:
        p, b, h, hb = self._pts, self._bred, self._holes, self._hbred
        st: ScoreState = _new_state(ScoreState)
        set_a, set_b = _SET_STATE
        set_a(st, _player_score(p[0], b[0] and p[0] > 0, h[0], hb[0] and h[0] > 0))
        set_b(st, _player_score(p[1], b[1] and p[1] > 0, h[1], hb[1] and h[1] > 0))
        return st

    def __getitem__(self, side: str) -> PlayerScore:
        return self.state[side]

    def points(self, side: str) -> int:
        return self._pts[_index(side)]

    def holes(self, side: str) -> int:
        return self._holes[_index(side)]

    def most_holes(self) -> int:
        """The holes of whoever has more (the end of a partie asks it every coup)."""
        h = self._holes
        return h[0] if h[0] >= h[1] else h[1]

    def pavillon(self, side: str) -> bool:
        """Hole-bredouille: all of ``side``'s holes uninterrupted (RULES.md §5.4)."""
        i = _index(side)
        return self._hbred[i] and self._holes[i] > 0

    def __repr__(self) -> str:
        return f"Ledger({self.profile.name!r}, {self.state!r}, primaute={self.primaute!r})"

    def copy(self) -> Ledger:
        new = Ledger.__new__(Ledger)
        new.profile = self.profile
        new._pts = self._pts[:]
        new._bred = self._bred[:]
        new._holes = self._holes[:]
        new._hbred = self._hbred[:]
        new._leave_right = self._leave_right
        new._nmp = self._nmp
        new.primaute = self.primaute
        new.releve = self.releve
        return new

    # -- marking --------------------------------------------------------------------
    def mark(self, side: str, points: int, *, own: bool = False) -> MarkResult:
        """One scoring event: ``side`` marks ``points`` (RULES.md §5.2 state machine).

        ``own=True`` for the roller's own gains (points gagnés); receipts (points
        donnés) and écoles are ``own=False``.  Holes: 12 points each, double when the
        12 are uninterrupted, the earliest points consumed first (003 §146); a hole
        erases the opponent's points, and the rest starts a fresh series, which is how
        one *rentre en bredouille* (003 §147-148).  Holes feed the pavillon (§5.4).

        :raises LedgerError: unknown side, negative or odd points.
        """
        x = _index(side)
        if not isinstance(points, int) or points < 0:
            raise LedgerError("sc.ledger.points_whole", points=points)
        if points % 2:
            raise LedgerError("sc.ledger.points_even", points=points)
        if points == 0:  # nothing marked: not an event
            return MarkResult(side, 0, own, (), self._pts[x], self._bred[x] and self._pts[x] > 0)
        y = 1 - x
        pts, bred = self._pts, self._bred
        nmp = self._nmp == y  # the opponent said "je ne marque pas" (003 §176)
        self._nmp = None
        self._leave_right = None
        if pts[x] == 0:
            bred[x] = True  # x starts an uninterrupted series
        elif nmp and pts[x] + points >= POINTS_PER_HOLE:
            # the announcement counts as the roller's marking, but takes the
            # bredouille only if the hole really comes (RULES.md §5.3; 003 §176)
            bred[x] = False
        if pts[y] > 0:
            bred[y] = False  # y's series is interrupted
        # closed form (issue 18): k holes; the first is double if x was in bredouille,
        # every later one double, since the rest starts a fresh series (003 §147)
        k, rest = divmod(pts[x] + points, POINTS_PER_HOLE)
        holes: tuple[tuple[int, bool], ...] = ()
        erased = 0
        if k:
            first = (2, True) if bred[x] else (1, False)
            holes = (first,) + ((2, True),) * (k - 1)
            self._add_holes(x, first[0] + 2 * (k - 1))
            erased = pts[y]
            pts[y] = 0  # effacer the opponent (003 §148)
            bred[y] = False
            pts[x] = 0
            bred[x] = True  # the rest is a fresh series: rentrer en bredouille (003 §147)
        pts[x] = rest
        if holes and own:
            self._leave_right = x
        return MarkResult(side, points, own, holes, pts[x], bred[x] and pts[x] > 0, erased)

    def _add_holes(self, x: int, n: int) -> None:
        """RULES.md §5.4: the pavillon; no re-entering hole-bredouille (003 §225)."""
        y = 1 - x
        if self._holes[x] == 0:
            self._hbred[x] = True
        if self._holes[y] > 0:
            self._hbred[y] = False
        self._holes[x] += n

    def ne_marque_pas(self, side: str) -> None:
        """*Je ne marque pas* (RULES.md §5.3; 003 §150, §176): ``side`` announces instead
        of marking a gain because the same throw gives the opponent his hole.  It
        counts as marking: if the opponent's next event completes a hole, his points
        were interrupted (a simple hole); if it does not, he keeps his bredouille."""
        x = _index(side)
        self._nmp = x
        self._leave_right = None

    def mark_throw(
        self,
        roller: str,
        gained: int,
        given: int,
        *,
        leave: bool = False,
        ne_marque_pas: bool = False,
    ) -> ThrowResult:
        """Mark one throw in order (RULES.md §4.1 O2, O4-O5; 003 §207): the roller's
        gains (one event), then — unless he leaves, which wipes what he gives
        (003 §157) — the opponent's receipts (a later event).

        :raises LedgerError: ``leave`` without the right to leave.
        """
        opp = other(roller)
        before = self.copy() if leave else None
        g = None
        if ne_marque_pas:
            self.ne_marque_pas(roller)
        elif gained:
            g = self.mark(roller, gained, own=True)
        if leave:
            if before is not None and not self.can_leave(roller):
                self._restore(before)  # nothing marked when the call is refused
                raise LedgerError("sc.ledger.no_leave_throw", side=roller)
            self.leave(roller)
            return ThrowResult(roller, g, None, True)
        self._leave_right = None  # he plays his checkers: the right is gone
        r = self.mark(opp, given) if given else None
        return ThrowResult(roller, g, r, False)

    def _restore(self, other_ledger: Ledger) -> None:
        self.profile = other_ledger.profile
        self._pts = other_ledger._pts
        self._bred = other_ledger._bred
        self._holes = other_ledger._holes
        self._hbred = other_ledger._hbred
        self._leave_right = other_ledger._leave_right
        self._nmp = other_ledger._nmp
        self.primaute = other_ledger.primaute
        self.releve = other_ledger.releve

    # -- leaving --------------------------------------------------------------------
    def can_leave(self, side: str) -> bool:
        """Has ``side`` the right to leave now?  Only just after a hole completed with his
        own throw's gain, before any other mark or :meth:`stay` (RULES.md §6.1;
        003 §155-156; 000 ~l.726).  Same rule in the partie en douze trous and the
        partie à écrire (§6.6): given points, écoles never give it."""
        return self._leave_right == _index(side)

    def stay(self, side: str) -> None:
        """*Je reste* / *je tiens*, or he marked his points de reste or touched a checker:
        the right to leave is gone (RULES.md §6.1, §6.3)."""
        if self._leave_right is not None and self._leave_right == _index(side):
            self._leave_right = None

    def leave(self, side: str, *, force: bool = False) -> None:
        """*S'en aller* (RULES.md §6.2; 003 §155, §157): all points of both players erased,
        a new relevé, the primauté to the leaver.  Also how a player leaves at the
        sortie after completing a hole with its points (§6.5; 003 §163).

        ``force=True`` records a leave made without the right (a hole wrongly taken and
        acted upon by both stands, 003 §180) — the verifier reports it.

        :raises LedgerError: no right to leave and not forced.
        """
        x = _index(side)
        if not force and self._leave_right != x:
            raise LedgerError("sc.ledger.no_leave_now", side=side)
        self._pts[0] = self._pts[1] = 0
        self._bred[0] = self._bred[1] = False
        self._leave_right = None
        self._nmp = None
        self.primaute = side
        self.releve += 1

    def new_releve_after_sortie(self, first_out: str) -> None:
        """A relevé after a sortie without leaving: points and holes kept, the primauté
        to the first out (RULES.md §4.9, §6.5; 003 §118)."""
        _index(first_out)
        self._leave_right = None
        self._nmp = None
        self.primaute = first_out
        self.releve += 1

    # -- holes ----------------------------------------------------------------------
    def grande_bredouille(self, side: str) -> bool:
        """Twelve holes or more, all uninterrupted (RULES.md §1.6, §5.4; 003 §224)."""
        i = _index(side)
        return self._holes[i] >= 12 and self._hbred[i]

    def set_holes(self, holes: tuple[int, int], pavillon: str | None = None) -> None:
        """Set the fichets (e.g. a score keeper joining a game): ``pavillon`` is the side
        whose holes are uninterrupted, implied when only one side has holes."""
        ha, hb = holes
        if ha < 0 or hb < 0:
            raise LedgerError("sc.ledger.negative_holes")
        self._holes = [ha, hb]
        if pavillon is not None:
            p = _index(pavillon)
            if self._holes[p] == 0:
                raise LedgerError("sc.ledger.no_pavillon", side=pavillon)
            self._hbred = [p == 0, p == 1]
        else:
            if ha and hb:
                self._hbred = [False, False]
            else:
                self._hbred = [ha > 0, hb > 0]
