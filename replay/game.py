"""The game flow for perfect players: what follows a coup, in the rules' order.

A :class:`Game` is the table of a partie between two seats ``"A"`` and ``"B"``: the
position, the score ledger, relevé and marqué counters, whose turn, and the result.
:meth:`Game.apply_coup` plays one throw exactly as the rules order it (RULES.md §4.1
O1-O5, §6):

1. the roller marks his gains (points, holes, bredouille; RULES.md §4.1 O1-O2, §5.2),
   or says *je ne marque pas* when his gains make no hole and what he gives the
   opponent completes the opponent's hole (RULES.md §5.3; 003 §150, §176);
2. if his own gains completed a hole he may leave (*s'en aller*, RULES.md §6.1-6.2;
   003 §155): all points are erased, the opponent marks nothing from the throw, a new
   relevé starts with the primauté to the leaver — in a partie à écrire the leave
   ends the marqué when either player has at least ``profile.marque_end_holes`` holes
   (RULES.md §8.2; 003 §221);
3. otherwise he plays (RULES.md §4.1 O3);
4. the opponent marks what the throw gave him (RULES.md §4.1 O4-O5);
5. the first to bear off all fifteen makes the *sortie* (RULES.md §3.10 S8, §4.9;
   003 §118): both take up their checkers, points and holes are kept, and he has the
   primauté; with *je joue pour tout* the same throw is also his first throw of the
   new relevé (RULES.md §6.5; 001 r.73-74).

A partie en douze trous ends as soon as a player has twelve holes, even on points
given (RULES.md §8.1, §6.6; 003 §217-218); a partie à écrire ends after its agreed
number of decided marqués (refaits are replayed and do not count; RULES.md §8.2;
003 §220, §226).

The flow trusts its caller to pass legal plays (the bots take them from
``legal_plays``; the verifier judges a play before applying it).  Misuse of the flow
(a coup after the end, leaving without the right) raises :class:`GameFlowError`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from .ledger import Ledger, ScoreState
from .moves import Play, PlaySet, legal_plays
from .partie import marque_factor, marque_outcome, marque_value
from .position import Position, other_side, start_position
from .profiles import DEFAULT_PROFILE, Profile
from .scoring import CoupScore, ScoringEvent, next_position, score_play, score_roll

__all__ = [
    "KINDS",
    "GameFlowError",
    "MarqueOutcome",
    "CoupOutcome",
    "Game",
    "marque_bredouille",
    "partie_kind",
    "moves_text",
    "find_play",
    "replay_record",
    "start_of",
]

KINDS: tuple[str, ...] = ("douze-trous", "a-ecrire")
TWELVE = 12  # holes that win a partie en douze trous (RULES.md §8.1; 003 §218)
ALL_OFF = 15


class GameFlowError(ValueError):
    """A coup the flow cannot apply (game over, leaving without the right, bad roll)."""


@dataclass(frozen=True, slots=True)
class MarqueOutcome:
    """The end of a marqué of a partie à écrire (RULES.md §8.2; 003 §221-226).

    ``refait`` when both have the same number of holes (at least six): the marqué is
    void and replayed.  ``bredouille`` is ``"petite"`` / ``"grande"`` when the winner's
    holes were all taken without interruption (the pavillon, RULES.md §5.4).
    ``refaits_before`` = consecutive refaits just before (they raise the consolation).
    ``value`` comes from ``replay.partie`` when it is available, else None.
    """

    number: int
    winner: str | None
    winner_holes: int
    loser_holes: int
    bredouille: Literal["none", "petite", "grande"]
    refait: bool
    refaits_before: int
    value: int | None


@dataclass(frozen=True, slots=True)
class CoupOutcome:
    """What one coup did at the table, in order.

    ``score`` is the coup's scoring: of the actual play, or what the throw entitles
    (``score_roll``) when the roller left without playing.  ``gains`` is what the
    roller marked (0 with *je ne marque pas*), ``receipts`` what the opponent marked
    (0 when the roller left or the partie ended first).  ``holes`` / ``other_holes``
    are the holes each made with that mark (a double hole counts 2), ``double`` the
    bredouille flags of the holes made by the roller (one per hole-gesture), and
    ``bredouille`` / ``other_bredouille`` whether each side's points stand in
    bredouille after his mark (None when he marked nothing).
    """

    side: str
    roll: tuple[int, int]
    play: Play | None
    score: CoupScore
    gains: int
    ne_marque_pas: bool
    holes: int
    double: tuple[bool, ...]
    bredouille: bool | None
    could_leave: bool
    left: bool
    played: bool
    receipts: int
    other_holes: int
    other_double: tuple[bool, ...]
    other_bredouille: bool | None
    sortie: bool
    pour_tout: bool
    releve_ended: bool
    marque_ended: MarqueOutcome | None
    game_over: bool

    @property
    def events(self) -> tuple[ScoringEvent, ...]:
        return self.score.events


def marque_bredouille(winner_holes: int, pavillon: bool, profile: Profile) -> Literal["none", "petite", "grande"]:
    """Petite / grande bredouille of a marqué from its factor (RULES.md §8.2; 003 §223-225;
    ``replay.partie.marque_factor``): ×2 petite, ×4 or more grande."""
    m = marque_factor(winner_holes, pavillon, profile)
    return "none" if m == 1 else ("petite" if m == 2 else "grande")


def _holes_made(result: object) -> tuple[int, tuple[bool, ...]]:
    """(holes, double flags) from a ``Ledger.mark`` result."""
    made = getattr(result, "holes", ()) or ()
    if isinstance(made, int):
        return made, ()
    total = 0
    flags: list[bool] = []
    for item in made:
        n, double = item
        total += int(n)
        flags.append(bool(double))
    return total, tuple(flags)


@dataclass(slots=True)
class _Pending:
    """The roller's marking before his decision (internal)."""

    score: CoupScore
    gains: int
    ne_marque_pas: bool
    holes: int
    double: tuple[bool, ...]
    bredouille: bool | None


class Game:
    """A partie for perfect players (RULES.md §4.1, §5, §6, §8.1-8.2).

    ``kind`` is ``"douze-trous"`` or ``"a-ecrire"`` (``marques`` = the agreed number
    of marqués, 003 §220).  ``start`` / ``score`` start from a given position and
    score (book problems); ``first`` is who has the primauté.
    """

    def __init__(
        self,
        kind: str = "douze-trous",
        profile: Profile = DEFAULT_PROFILE,
        *,
        start: Position | None = None,
        score: ScoreState | None = None,
        first: str = "A",
        marques: int = 4,
    ) -> None:
        if kind not in KINDS:
            raise GameFlowError(f"unknown kind of partie {kind!r}; known: {', '.join(KINDS)}")
        if marques < 1:
            raise GameFlowError("a partie à écrire needs at least one marqué")
        self.kind: str = kind
        self.profile = profile
        self.marques = marques
        self.position: Position = start if start is not None else start_position(first)
        self.ledger = Ledger(profile, score, primaute=self.position.turn)
        self.releve = 1  # within the game (douze trous) or within the marqué (à écrire)
        self.marque = 1  # number of the marqué being played (à écrire)
        self.marque_primaute: str = self.position.turn  # who threw first in this marqué
        self.refaits = 0  # consecutive refaits just before the current marqué
        self.marque_results: list[MarqueOutcome] = []
        self.coups = 0  # coups played in the whole partie
        self.finished = False
        self.winner: str | None = None
        self.pending_roll: tuple[int, int] | None = None  # je joue pour tout
        self._check_end()

    # -- views ----------------------------------------------------------------------
    @property
    def turn(self) -> str:
        return self.position.turn

    @property
    def score(self) -> ScoreState:
        return self.ledger.state

    def holes(self, side: str) -> int:
        return self.ledger.state[side].holes

    @property
    def result(self) -> dict[str, object] | None:
        """The result once finished (None before): winner and holes, or the marqués."""
        if not self.finished:
            return None
        st = self.ledger.state
        out: dict[str, object] = {"kind": self.kind, "winner": self.winner}
        if self.kind == "douze-trous":
            out["holes"] = {"A": st["A"].holes, "B": st["B"].holes}
            out["pavillon"] = {"A": st["A"].pavillon, "B": st["B"].pavillon}
        else:
            out["marques"] = [
                {
                    "number": m.number,
                    "winner": m.winner,
                    "winner_holes": m.winner_holes,
                    "loser_holes": m.loser_holes,
                    "bredouille": m.bredouille,
                    "refait": m.refait,
                    "value": m.value,
                }
                for m in self.marque_results
            ]
        return out

    def copy(self) -> Game:
        g = Game.__new__(Game)
        g.kind = self.kind
        g.profile = self.profile
        g.marques = self.marques
        g.position = self.position
        g.ledger = self.ledger.copy()
        g.releve = self.releve
        g.marque = self.marque
        g.marque_primaute = self.marque_primaute
        g.refaits = self.refaits
        g.marque_results = list(self.marque_results)
        g.coups = self.coups
        g.finished = self.finished
        g.winner = self.winner
        g.pending_roll = self.pending_roll
        return g

    # -- what the rules entitle -------------------------------------------------------
    def legal(self, roll: tuple[int, int]) -> PlaySet:
        return legal_plays(self.position, _norm(roll), self.profile)

    def entitled(self, roll: tuple[int, int]) -> CoupScore:
        """What the throw entitles when played legally (``score_roll``, RULES.md §4)."""
        return score_roll(self.position, _norm(roll), self.profile)

    def _mark_gains(
        self, roll: tuple[int, int], play: Play | None, ledger: Ledger, marked: int | None = None
    ) -> _Pending:
        """Step 1: the roller's gains (RULES.md §4.1 O1-O2, §5.2-5.3); ``marked`` = what
        he really marked at the table (a mistake that stands)."""
        pos = self.position
        cs = score_play(pos, roll, play, self.profile) if play is not None else score_roll(pos, roll, self.profile)
        roller = pos.turn
        opp = other_side(roller)
        gains = cs.mover
        st = ledger.state
        if marked is not None:
            if not marked:
                return _Pending(cs, 0, False, 0, (), None)
            res = ledger.mark(roller, marked, own=True)
            holes, double = _holes_made(res)
            after = ledger.state[roller]
            return _Pending(cs, marked, False, holes, double, after.bredouille if after.points else None)
        # je ne marque pas: his gains make no hole and his gift completes the opponent's
        # hole, which would erase them anyway (RULES.md §5.3; 003 §150, §176).
        if gains and cs.other and st[roller].points + gains < 12 and st[opp].points + cs.other >= 12:
            ledger.ne_marque_pas(roller)
            return _Pending(cs, 0, True, 0, (), None)
        if not gains:
            return _Pending(cs, 0, False, 0, (), None)
        res = ledger.mark(roller, gains, own=True)
        holes, double = _holes_made(res)
        after = ledger.state[roller]
        return _Pending(cs, gains, False, holes, double, after.bredouille if after.points else None)

    def after_gains(self, roll: tuple[int, int], play: Play | None = None) -> tuple[ScoreState, int]:
        """The score after the roller's gains only, and the holes they make (a preview:
        the game is not changed).  ``play`` None = the gains the throw entitles."""
        ledger = self.ledger.copy()
        pend = self._mark_gains(_norm(roll), play, ledger)
        return ledger.state, pend.holes

    def can_leave(self, roll: tuple[int, int], play: Play | None = None) -> bool:
        """Would the roller's own gains complete a hole, giving him the right to leave?

        (RULES.md §6.1; 003 §155.)  ``play`` None = the gains the throw entitles.  False
        when those gains end a partie en douze trous (nothing is left to decide).
        """
        if self.finished:
            return False
        roll = _norm(roll)
        pos = self.position
        cs = score_play(pos, roll, play, self.profile) if play is not None else score_roll(pos, roll, self.profile)
        if self.ledger.points(pos.turn) + cs.mover < 12:
            return False  # no hole: the cheap common case
        state, holes = self.after_gains(roll, play)
        if holes == 0:
            return False
        return not (self.kind == "douze-trous" and state[self.position.turn].holes >= TWELVE)

    def _twelve_reached(self, side: str, made: int) -> bool:
        return self.kind == "douze-trous" and made > 0 and self.ledger.state[side].holes >= TWELVE

    # -- applying a coup ----------------------------------------------------------------
    def apply_coup(
        self,
        roll: tuple[int, int],
        play: Play | None,
        *,
        leave: bool | None = None,
        pour_tout: bool = False,
        marked: int | None = None,
        received: int | None = None,
        ecoles: tuple[tuple[str, int], ...] = (),
        force_leave: bool = False,
    ) -> CoupOutcome:
        """Apply one throw in the rules' order (module docstring; RULES.md §4.1, §6).

        ``play`` is the play made (None when the roller leaves: he does not play; the
        gains are then what the throw entitles; None is also accepted when the throw
        has a single legal play).  ``leave`` is his decision when he has the right
        (None = no decision = he stays).  ``pour_tout`` = *je joue pour tout* said
        with a sortie throw (RULES.md §6.5).

        Table mistakes that stand (used by the error injector; a perfect game passes
        none): ``marked`` / ``received`` = the points the roller / the opponent really
        marked instead of what is due; ``ecoles`` = (claimant, points) marked after the
        receipts (RULES.md §7.1, §4.1 O4); ``force_leave`` = a leave without the right
        that both players acted upon, which stands (003 §180).
        """
        if self.finished:
            raise GameFlowError("the partie is over")
        roll = _norm(roll)
        if self.pending_roll is not None and roll != self.pending_roll:
            raise GameFlowError(f"after 'je joue pour tout' the throw {self.pending_roll} must be played again")
        pos = self.position
        roller = pos.turn
        opp = other_side(roller)
        ends = not leave and self._ends_on_gains(roll, marked)
        if ends:
            play = None  # a partie en douze trous ends on the entitled gains: nothing is played
        elif play is None and not leave:
            ps = legal_plays(pos, roll, self.profile)
            if len(ps.plays) != 1:
                raise GameFlowError("apply_coup needs the play made (several legal plays)")
            play = ps.plays[0]
        self.pending_roll = None
        self.coups += 1
        gplay = None if (leave or ends) else play
        pend = self._mark_gains(roll, gplay, self.ledger, marked)
        if self._twelve_reached(roller, pend.holes):
            self.finished, self.winner = True, roller
            return self._finish_coup(roller, roll, pend, could_leave=False, left=False)
        could_leave = pend.holes > 0
        if leave and not could_leave and not force_leave:
            raise GameFlowError(f"{roller} has no right to leave: his own gains completed no hole (RULES.md §6.1)")
        if leave:
            self.ledger.leave(roller, force=not could_leave)
            ended = self._end_releve_by_leave(roller)
            return self._finish_coup(roller, roll, pend, could_leave=could_leave, left=True, marque_ended=ended)
        assert play is not None
        self.ledger.stay(roller)
        self.position = next_position(pos, roll, play, self.profile)
        receipts = pend.score.other if received is None else received
        other_double: tuple[bool, ...]
        other_holes, other_double, other_bred = 0, (), None
        if receipts:
            res = self.ledger.mark(opp, receipts)
            other_holes, other_double = _holes_made(res)
            after = self.ledger.state[opp]
            other_bred = after.bredouille if after.points else None
        over = self._twelve_reached(opp, other_holes)
        for claimant, pts in ecoles:
            if over:
                break
            res = self.ledger.mark(claimant, pts)
            over = self._twelve_reached(claimant, _holes_made(res)[0])
        if over:
            st = self.ledger.state
            self.finished, self.winner = True, ("A" if st["A"].holes > st["B"].holes else "B")
        sortie = play.result[25] == ALL_OFF
        releve_ended = False
        if sortie and not over:
            # sortie: both take up their checkers; points and holes kept; primauté to him
            self.ledger.new_releve_after_sortie(roller)
            self._new_releve(roller)
            releve_ended = True
            if pour_tout:
                self.pending_roll = roll
        return CoupOutcome(
            roller,
            roll,
            play,
            pend.score,
            pend.gains,
            pend.ne_marque_pas,
            pend.holes,
            pend.double,
            pend.bredouille,
            could_leave,
            False,
            True,
            receipts,
            other_holes,
            other_double,
            other_bred,
            sortie,
            bool(pour_tout and sortie and not over),
            releve_ended,
            None,
            over,
        )

    def _ends_on_gains(self, roll: tuple[int, int], marked: int | None) -> bool:
        """Do the roller's gains (as entitled, or as marked) give him his twelfth hole?"""
        if self.kind != "douze-trous":
            return False
        me = self.ledger.state[self.position.turn]
        gains = score_roll(self.position, roll, self.profile).mover if marked is None else marked
        if me.holes + 2 * ((me.points + gains) // 12) < TWELVE:
            return False  # cannot reach twelve holes, even all double
        ledger = self.ledger.copy()
        pend = self._mark_gains(roll, None, ledger, marked)
        return pend.holes > 0 and ledger.state[self.position.turn].holes >= TWELVE

    def _finish_coup(
        self,
        roller: str,
        roll: tuple[int, int],
        pend: _Pending,
        *,
        could_leave: bool,
        left: bool,
        marque_ended: MarqueOutcome | None = None,
    ) -> CoupOutcome:
        """A coup without a play: the roller left, or his gains ended the partie."""
        return CoupOutcome(
            roller,
            roll,
            None,
            pend.score,
            pend.gains,
            pend.ne_marque_pas,
            pend.holes,
            pend.double,
            pend.bredouille,
            could_leave,
            left,
            False,
            0,
            0,
            (),
            None,
            False,
            False,
            left,
            marque_ended,
            self.finished,
        )

    # -- relevés and marqués ------------------------------------------------------------
    def _new_releve(self, primaute: str) -> None:
        """All checkers back to the talons (RULES.md §3.11; 003 §25, §118, §155)."""
        self.position = start_position(primaute)
        self.releve += 1

    def _end_releve_by_leave(self, leaver: str) -> MarqueOutcome | None:
        """After *je m'en vais*: a new relevé, or the end of the marqué (RULES.md §6.2, §8.2)."""
        if self.kind == "a-ecrire":
            mo = marque_outcome(self.ledger.state, self.profile)
            if mo is not None:
                return self._end_marque(leaver, mo)
        self._new_releve(leaver)
        return None

    def _end_marque(self, leaver: str, mo: object) -> MarqueOutcome:
        """Close a marqué (RULES.md §8.2; 003 §221-226) and start the next one."""
        w, l = mo.winner_holes, mo.loser_holes  # type: ignore[attr-defined]
        winner = mo.winner  # type: ignore[attr-defined]
        if winner is None:  # refait: void, replayed; whoever had the primauté keeps it (003 §226)
            out = MarqueOutcome(self.marque, None, w, l, "none", True, self.refaits, None)
            self.refaits += 1
            primaute = self.marque_primaute
        else:
            pav = mo.pavillon  # type: ignore[attr-defined]
            bred = marque_bredouille(w, pav, self.profile)
            value = marque_value(w, l, pav, self.refaits, self.profile).value
            out = MarqueOutcome(self.marque, winner, w, l, bred, False, self.refaits, value)
            self.refaits = 0
            # D21: the marqué's winner (003 §221) or the leaver (003 §155)
            primaute = winner if self.profile.primaute_after_marque_leave == "winner" else leaver
        self.marque_results.append(out)
        decided = sum(1 for m in self.marque_results if not m.refait)
        if decided >= self.marques:
            self.finished = True
            won = {"A": 0, "B": 0}
            for m in self.marque_results:
                if m.winner:
                    won[m.winner] += m.value or 0
            self.winner = None if won["A"] == won["B"] else ("A" if won["A"] > won["B"] else "B")
            return out
        self.marque += 1
        self.releve = 0
        self.ledger = Ledger(self.profile, primaute=primaute)
        self.marque_primaute = primaute
        self._new_releve(primaute)
        return out

    def _check_end(self) -> None:
        if self.kind == "douze-trous":
            st = self.ledger.state
            for side in ("A", "B"):
                if st[side].holes >= TWELVE:
                    self.finished, self.winner = True, side


def _norm(roll: tuple[int, int]) -> tuple[int, int]:
    a, b = int(roll[0]), int(roll[1])
    if not (1 <= a <= 6 and 1 <= b <= 6):
        raise GameFlowError(f"bad roll {roll!r}")
    return (a, b) if a >= b else (b, a)


# --- replaying a record of perfect play -----------------------------------------------


def partie_kind(header: str | None) -> tuple[str, int]:
    """``(kind, marques)`` of the flow from a ``Partie`` header (``notation.reader.parse_partie``):
    ``douze-trous``, else a partie à écrire (à quatre, chouette and à tourner are parties
    à écrire too) with its number of marqués (default 4).  No header: douze trous."""
    from ..notation.reader import parse_partie

    parsed = parse_partie(header) if header else None
    if parsed is None or parsed[0] == "douze-trous":
        return "douze-trous", 4
    return "a-ecrire", parsed[1] or 4


def moves_text(moves: tuple[object, ...]) -> str:
    """The canonical text of written moves (``Play.text()`` form; ``-`` for none)."""
    out = [
        f"{m.from_}/{'off' if m.to == 25 else m.to}"  # type: ignore[attr-defined]
        for m in moves
        if hasattr(m, "from_")
    ]
    return " ".join(out) if out else "-"


def find_play(ps: PlaySet, moves: tuple[object, ...]) -> Play | None:
    """The legal play the written moves make (None when they make none)."""
    text = moves_text(moves)
    for p in ps.plays:
        if p.text() == text:
            return p
    want = sorted(text.split())
    for p in ps.plays:  # same moves written in another order
        if sorted(p.text().split()) == want:
            return p
    return None


def start_of(text: str) -> tuple[Position, ScoreState]:
    """The position and score of a record's ``Position`` header (book problems).

    :raises GameFlowError: the text is not a valid one-line position."""
    from ..notation.position import parse_position

    spec, diags = parse_position(text)
    if spec is None or any(d.severity == "error" for d in diags):
        msg = diags[0].message if diags else "unreadable"
        raise GameFlowError(f"Position header: {msg}")
    return Position.from_spec(spec), ScoreState.from_spec(spec)


def replay_record(record: object, profile: Profile | None = None) -> Iterator[tuple[object, CoupOutcome, Game]]:
    """Drive a :class:`Game` through a record of perfect play, coup by coup.

    Yields ``(coup, outcome, game)`` (the game after the coup).  The marks written in
    the record are not read: the flow marks as perfect players do; a leave is read
    from a :class:`Decision` or, in a compact record, from a coup without moves that
    follows a hole.  Raises :class:`GameFlowError` at the first coup that perfect
    play cannot explain (an illegal move, a leave without the right) — the verifier
    (``replay.verify``) is the tool for records with mistakes.

    Parties à tourner, à la chouette and à quatre (``marqué N X-Y`` sections): each
    marqué (with its refaits) is a one-marqué partie à écrire between the two seated
    players, X in seat A; the outcomes then speak of seats ``"A"`` / ``"B"``.
    """
    from ..notation.reader import parse_partie
    from ..notation.record import Coup, Decision, JouePourTout, MarqueStart, Record
    from .profiles import find_profile

    assert isinstance(record, Record)
    if profile is None:
        profile = find_profile(record.headers.get("Profile")) if record.headers.get("Profile") else DEFAULT_PROFILE
    kind, marques = partie_kind(record.headers.get("Partie"))
    parsed = parse_partie(record.headers.get("Partie") or "")
    multi = parsed is not None and parsed[0] in ("a-quatre", "chouette", "a-tourner")
    game: Game | None = None
    seat_of = {"A": "A", "B": "B"}
    pending: tuple[str, str] | None = None
    for el in record.elements:
        if isinstance(el, MarqueStart) and multi:
            if game is not None and not game.finished:
                continue  # a refait: the same players play the marqué again
            if el.players is None:
                raise GameFlowError(f"marqué {el.number}: the players seated are not written")
            pending, game = el.players, None
            continue
        if not isinstance(el, Coup):
            continue
        coup = el
        if game is None:
            if multi:
                if pending is None:
                    raise GameFlowError(f"coup {coup.number} before any marqué")
                seat_of = {pending[0]: "A", pending[1]: "B"}
                if coup.side not in seat_of:
                    raise GameFlowError(f"coup {coup.number}: {coup.side} does not play this marqué")
                game = Game("a-ecrire", profile, first=seat_of[coup.side], marques=1)
            elif record.start:
                start, score = start_of(record.start)
                if start.turn != coup.side:
                    raise GameFlowError(
                        f"coup {coup.number}: {coup.side} throws but the Position has turn={start.turn}"
                    )
                game = Game(kind, profile, start=start, score=score, marques=marques)
            else:
                game = Game(kind, profile, first=coup.side, marques=marques)
        if game.finished:
            raise GameFlowError(f"coup {coup.number} after the end of the partie")
        side = seat_of.get(coup.side, coup.side)
        if side != game.turn:
            raise GameFlowError(f"coup {coup.number}: {coup.side} throws but the other player is to play")
        roll = _norm(coup.roll)
        decided = [a.leave for a in coup.before if isinstance(a, Decision)]
        leave = decided[-1] if decided else None
        if leave is None and not any(hasattr(m, "from_") or hasattr(m, "number") for m in coup.moves):
            if game.can_leave(roll, None):
                leave = True  # compact record: no moves after a hole = he left
        if leave:
            out = game.apply_coup(roll, None, leave=True)
        else:
            ps = game.legal(roll)
            play = find_play(ps, coup.moves)
            if play is None and coup.moves:
                raise GameFlowError(f"coup {coup.number}: {moves_text(coup.moves)} is not a legal play of {roll}")
            if play is None and len(ps.plays) > 1 and not game._ends_on_gains(roll, None):
                raise GameFlowError(f"coup {coup.number}: no moves written")
            pour_tout = any(isinstance(a, JouePourTout) for a in coup.before)
            out = game.apply_coup(roll, play, leave=leave, pour_tout=pour_tout)
        yield coup, out, game
