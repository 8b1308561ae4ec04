"""The game flow for perfect players: a thin driver over the course of a coup.

A :class:`Game` is the table of a partie between two seats ``"A"`` and ``"B"``: the
position, the score ledger, relevé and marqué counters, whose turn, and the result.
:meth:`Game.apply_coup` plays one throw through the steps of ``replay.rules.course``, which
writes the course of a coup once, in the rules' order (RULES.md §4.1 O1-O5, §5.3, §6,
§4.9, §8.1-8.2; its docstring draws the states):

1. the roller marks his gains, or says *je ne marque pas* (``course.roller_gains``);
2. if his own gains completed a hole he may leave (``course.right_to_leave``); a
   leave starts a new relevé or ends the marqué (``course.after_leave``,
   ``course.close_marque``, ``course.partie_over``);
3. otherwise he plays, and the opponent marks what the throw gave him, then any école
   claimed (``course.mark_points``);
4. the first to bear off all fifteen makes the *sortie* (``course.after_sortie``).

A partie en douze trous ends as soon as a player has twelve holes, even on points
given (``course.twelve_reached``); a partie à écrire after its agreed number of
decided marqués.

The flow trusts its caller to pass legal plays (the bots take them from
``legal_plays``; the verifier judges a play before applying it).  Misuse of the flow
(a coup after the end, leaving without the right) raises :class:`GameFlowError`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

from ...notation.compiled import mypyc_attr
from ...notation.position import parse_position
from ...notation.reader import parse_partie
from ...notation.record import CannotPlay, Coup, Decision, JouePourTout, MarqueStart, Move, Record
from ...notation.visitor import ActionVisitor, RecordVisitor, visit_action, visit_element
from ...words import SaidError
from . import course
from .course import MarqueOutcome, marque_bredouille
from .ledger import Ledger, ScoreState
from .moves import Play, PlaySet, legal_plays
from .partie import MarqueOutcome as MarqueEnd
from .position import Position, other_side, start_position
from .profiles import DEFAULT_PROFILE, Profile, find_profile
from .scoring import CoupScore, ScoringEvent, next_position, score_roll

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

KINDS: tuple[str, ...] = (course.DOUZE_TROUS, course.A_ECRIRE)


@mypyc_attr(native_class=False)  # its base, words.SaidError, is interpreted
class GameFlowError(SaidError):
    """A coup the flow cannot apply (game over, leaving without the right, bad roll): a
    catalogue key (``w5.flow.*``) and its fields; ``str(e)`` its English (what the
    analysis JSON's ``stopped`` holds), ``e.say("fr")`` its French."""


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
    played: bool = False
    receipts: int = 0
    other_holes: int = 0
    other_double: tuple[bool, ...] = ()
    other_bredouille: bool | None = None
    sortie: bool = False
    pour_tout: bool = False
    releve_ended: bool = False
    marque_ended: MarqueOutcome | None = None
    game_over: bool = False

    @property
    def events(self) -> tuple[ScoringEvent, ...]:
        return self.score.events


class _Throw(NamedTuple):
    """One call of :meth:`Game.apply_coup`: the throw, the choices, the table mistakes (internal)."""

    roll: tuple[int, int]
    play: Play | None
    leave: bool
    pour_tout: bool
    received: int | None
    ecoles: tuple[tuple[str, int], ...]
    force_leave: bool
    score: CoupScore  # of the play, or what the throw entitles when nothing is played


class Game:
    """A partie for perfect players (RULES.md §4.1, §5, §6, §8.1-8.2).

    ``kind`` is ``"douze-trous"`` or ``"a-ecrire"`` (``marques`` = the agreed number
    of marqués, 003 §220).  ``start`` / ``score`` start from a given position and
    score (book problems); ``first`` is who has the primauté.
    """

    def __init__(
        self,
        kind: str = course.DOUZE_TROUS,
        profile: Profile = DEFAULT_PROFILE,
        *,
        start: Position | None = None,
        score: ScoreState | None = None,
        first: str = "A",
        marques: int = 4,
    ) -> None:
        if kind not in KINDS:
            raise GameFlowError("sc.err.unknown_partie_kind", kind=kind, known=", ".join(KINDS))
        if marques < 1:
            raise GameFlowError("w5.flow.one_marque")
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
        for side in ("A", "B"):  # a book position may start at the end
            if course.twelve_reached(kind, self.ledger.state, side):
                self.finished, self.winner = True, side

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
        if self.kind == course.DOUZE_TROUS:
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

    def after_gains(self, roll: tuple[int, int], play: Play | None = None) -> tuple[ScoreState, int]:
        """The score after the roller's gains only, and the holes they make (a preview:
        the game is not changed).  ``play`` None = the gains the throw entitles."""
        ledger = self.ledger.copy()
        score = course.throw_score(self.position, _norm(roll), play, self.profile)
        gains = course.roller_gains(ledger, self.position.turn, score.mover, score.other)
        return ledger.state, gains.marked.holes

    def can_leave(self, roll: tuple[int, int], play: Play | None = None) -> bool:
        """Would the roller's own gains complete a hole, giving him the right to leave?

        (RULES.md §6.1; 003 §155; ``course.right_to_leave``.)  ``play`` None = the gains
        the throw entitles.  False when those gains end a partie en douze trous.
        """
        if self.finished:
            return False
        roller = self.position.turn
        score = course.throw_score(self.position, _norm(roll), play, self.profile)
        if self.ledger.points(roller) + score.mover < course.TWELVE:
            return False  # no hole: the cheap common case
        ledger = self.ledger.copy()
        gains = course.roller_gains(ledger, roller, score.mover, score.other)
        return course.right_to_leave(self.kind, ledger.state, roller, gains.marked.holes)

    def ends_on_gains(self, roll: tuple[int, int], marked: int | None = None) -> bool:
        """Do the roller's gains (as entitled, or as ``marked``) give him his twelfth hole
        (``course.gains_end_partie``)?  Then nothing is played."""
        return self._ends_on_gains(_norm(roll), marked)

    def _ends_on_gains(self, roll: tuple[int, int], marked: int | None) -> bool:
        if self.kind != course.DOUZE_TROUS:
            return False
        gains = score_roll(self.position, roll, self.profile).mover if marked is None else marked
        return course.gains_end_partie(self.kind, self.ledger, self.position.turn, gains)

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
        """Apply one throw in the rules' order (``replay.rules.course``; RULES.md §4.1, §6).

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
            raise GameFlowError("w5.flow.over")
        roll = _norm(roll)
        if self.pending_roll is not None and roll != self.pending_roll:
            raise GameFlowError("w5.flow.joue_pour_tout", roll=self.pending_roll)
        roller = self.position.turn
        ends = not leave and self._ends_on_gains(roll, marked)
        if ends:
            play = None  # a partie en douze trous ends on the entitled gains: nothing is played
        elif play is None and not leave:
            play = self._only_play(roll)
        score = course.throw_score(self.position, roll, None if (leave or ends) else play, self.profile)
        t = _Throw(roll, play, bool(leave), pour_tout, received, ecoles, force_leave, score)
        self.pending_roll = None
        self.coups += 1
        gains = course.roller_gains(self.ledger, roller, score.mover, score.other, marked)
        if gains.marked.holes and course.twelve_reached(self.kind, self.ledger.state, roller):
            self.finished, self.winner = True, roller
            return self._unplayed(roller, t, gains, False, False, None)
        if t.leave:
            return self._leave(roller, t, gains)
        return self._play(roller, t, gains)

    def _only_play(self, roll: tuple[int, int]) -> Play:
        ps = legal_plays(self.position, roll, self.profile)
        if len(ps.plays) != 1:
            raise GameFlowError("w5.flow.needs_play")
        return ps.plays[0]

    def _leave(self, roller: str, t: _Throw, gains: course.Gains) -> CoupOutcome:
        """*Je m'en vais* (RULES.md §6.2; ``course.after_leave``): a new relevé, or the
        end of the marqué and perhaps of the partie (§8.2)."""
        could_leave = gains.marked.holes > 0
        if not could_leave and not t.force_leave:
            raise GameFlowError("w5.flow.no_leave", side=roller)
        self.ledger.leave(roller, force=not could_leave)
        end = course.after_leave(self.kind, self.ledger.state, roller, self.profile)
        ended = self._close_marque(end.marque, roller) if end.marque is not None else None
        if ended is None:
            self._new_releve(end.primaute)
        return self._unplayed(roller, t, gains, could_leave, True, ended)

    def _play(self, roller: str, t: _Throw, gains: course.Gains) -> CoupOutcome:
        """He stays and plays (O3); the opponent marks his receipts, then the écoles
        claimed (O4); a sortie starts a new relevé (``course.after_sortie``)."""
        assert t.play is not None
        kind, ledger, opp = self.kind, self.ledger, other_side(roller)
        ledger.stay(roller)
        self.position = next_position(self.position, t.roll, t.play, self.profile)
        due = t.score.other if t.received is None else t.received
        got = course.mark_points(ledger, opp, due) if due else course.NOTHING
        over = got.holes > 0 and course.twelve_reached(kind, ledger.state, opp)
        for claimant, points in t.ecoles:
            if over:
                break
            made = course.mark_points(ledger, claimant, points)
            over = made.holes > 0 and course.twelve_reached(kind, ledger.state, claimant)
        if over:
            self.finished, self.winner = True, course.holes_leader(ledger.state)
        sortie = course.is_sortie(t.play)
        if sortie and not over:
            end = course.after_sortie(roller, t.roll, t.pour_tout)
            ledger.new_releve_after_sortie(end.primaute)
            self._new_releve(end.primaute)
            self.pending_roll = end.replay_roll
        return _outcome(
            roller,
            t,
            gains,
            t.play,
            could_leave=gains.marked.holes > 0,
            left=False,
            played=True,
            receipts=due,
            other_holes=got.holes,
            other_double=got.double,
            other_bredouille=got.bredouille,
            sortie=sortie,
            pour_tout=t.pour_tout and sortie and not over,
            releve_ended=sortie and not over,
            game_over=over,
        )

    def _unplayed(
        self, roller: str, t: _Throw, gains: course.Gains, could_leave: bool, left: bool, ended: MarqueOutcome | None
    ) -> CoupOutcome:
        """A coup without a play: the roller left, or his gains ended the partie."""
        return _outcome(
            roller,
            t,
            gains,
            None,
            could_leave=could_leave,
            left=left,
            releve_ended=left,
            marque_ended=ended,
            game_over=self.finished,
        )

    # -- relevés and marqués ------------------------------------------------------------
    def _new_releve(self, primaute: str) -> None:
        """All checkers back to the talons (RULES.md §3.11; 003 §25, §118, §155)."""
        self.position = start_position(primaute)
        self.releve += 1

    def _close_marque(self, ended: MarqueEnd, leaver: str) -> MarqueOutcome:
        """Close the marqué (``course.close_marque``) and start the next one, or end the
        partie (``course.partie_over``, ``course.partie_winner``; RULES.md §8.2)."""
        closed = course.close_marque(self.marque, ended, leaver, self.marque_primaute, self.refaits, self.profile)
        self.marque_results.append(closed.outcome)
        self.refaits = closed.refaits
        if course.partie_over(self.marque_results, self.marques):
            self.finished, self.winner = True, course.partie_winner(self.marque_results)
            return closed.outcome
        self.marque += 1
        self.releve = 0
        self.ledger = Ledger(self.profile, primaute=closed.primaute)
        self.marque_primaute = closed.primaute
        self._new_releve(closed.primaute)
        return closed.outcome


def _norm(roll: tuple[int, int]) -> tuple[int, int]:
    a, b = int(roll[0]), int(roll[1])
    if not (1 <= a <= 6 and 1 <= b <= 6):
        raise GameFlowError("w5.flow.bad_roll", roll=roll)
    return (a, b) if a >= b else (b, a)


# --- replaying a record of perfect play -----------------------------------------------


def partie_kind(header: str | None) -> tuple[str, int]:
    """``(kind, marques)`` of the flow from a ``Partie`` header (``notation.reader.parse_partie``):
    ``douze-trous``, else a partie à écrire (à quatre, chouette and à tourner are parties
    à écrire too) with its number of marqués (default 4).  No header: douze trous."""
    parsed = parse_partie(header) if header else None
    if parsed is None or parsed[0] == course.DOUZE_TROUS:
        return course.DOUZE_TROUS, 4
    return course.A_ECRIRE, parsed[1] or 4


class _MoveText(ActionVisitor[str]):
    """The text of a written move (``Play.text()`` form); nothing for other tokens."""

    def visit_move(self, move: Move) -> str:
        return f"{move.from_}/{'off' if move.to == 25 else move.to}"


_MOVE_TEXT = _MoveText()


def moves_text(moves: tuple[object, ...]) -> str:
    """The canonical text of written moves (``Play.text()`` form; ``-`` for none)."""
    out = [text for m in moves if (text := visit_action(m, _MOVE_TEXT)) is not None]
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
    spec, diags = parse_position(text)
    if spec is None or any(d.severity == "error" for d in diags):
        if diags:
            raise GameFlowError("w5.flow.position_header", message=diags[0])
        raise GameFlowError("w5.flow.position_unreadable")
    return Position.from_spec(spec), ScoreState.from_spec(spec)


class _Said(ActionVisitor[None]):
    """What a coup's written tokens say to the flow: the last decision, *je joue pour
    tout*, and whether any move (or *cannot play*) is written."""

    def __init__(self, coup: Coup) -> None:
        self.leave: bool | None = None
        self.pour_tout = False
        self.moves = False
        for token in coup.before + coup.moves:
            visit_action(token, self)

    def visit_decision(self, decision: Decision) -> None:
        self.leave = decision.leave

    def visit_joue_pour_tout(self, token: JouePourTout) -> None:
        self.pour_tout = True

    def visit_move(self, move: Move) -> None:
        self.moves = True

    def visit_cannot_play(self, token: CannotPlay) -> None:
        self.moves = True


_Replayed = tuple[Coup, CoupOutcome, Game]


class _Replayer(RecordVisitor[_Replayed]):
    """Drives a :class:`Game` through the elements of a record (:func:`replay_record`)."""

    def __init__(self, record: Record, profile: Profile) -> None:
        self.record = record
        self.profile = profile
        self.kind, self.marques = partie_kind(record.headers.get("Partie"))
        parsed = parse_partie(record.headers.get("Partie") or "")
        self.multi = parsed is not None and parsed[0] in ("a-quatre", "chouette", "a-tourner")
        self.game: Game | None = None
        self.seat_of = {"A": "A", "B": "B"}
        self.seated: tuple[str, str] | None = None

    def visit_marque_start(self, start: MarqueStart) -> None:
        if not self.multi or (self.game is not None and not self.game.finished):
            return None  # two players, or a refait: the same players play the marqué again
        if start.players is None:
            raise GameFlowError("w5.flow.seated", n=start.number)
        self.seated, self.game = start.players, None
        return None

    def _first_game(self, coup: Coup) -> Game:
        """The game the record's first coup (or a marqué's first coup) opens."""
        if self.multi:
            if self.seated is None:
                raise GameFlowError("w5.flow.before_marque", n=coup.number)
            self.seat_of = {self.seated[0]: "A", self.seated[1]: "B"}
            if coup.side not in self.seat_of:
                raise GameFlowError("w5.flow.not_in_marque", n=coup.number, side=coup.side)
            return Game(course.A_ECRIRE, self.profile, first=self.seat_of[coup.side], marques=1)
        if self.record.start:
            start, score = start_of(self.record.start)
            if start.turn != coup.side:
                raise GameFlowError("w5.flow.position_turn", n=coup.number, side=coup.side, turn=start.turn)
            return Game(self.kind, self.profile, start=start, score=score, marques=self.marques)
        return Game(self.kind, self.profile, first=coup.side, marques=self.marques)

    def visit_coup(self, coup: Coup) -> _Replayed:
        if self.game is None:
            self.game = self._first_game(coup)
        game = self.game
        if game.finished:
            raise GameFlowError("w5.flow.after_end", n=coup.number)
        if self.seat_of.get(coup.side, coup.side) != game.turn:
            raise GameFlowError("w5.flow.out_of_turn", n=coup.number, side=coup.side)
        roll = _norm(coup.roll)
        said = _Said(coup)
        leave = said.leave
        if leave is None and not said.moves and game.can_leave(roll, None):
            leave = True  # compact record: no moves after a hole = he left
        if leave:
            return coup, game.apply_coup(roll, None, leave=True), game
        ps = game.legal(roll)
        play = find_play(ps, coup.moves)
        if play is None and coup.moves:
            raise GameFlowError("w5.flow.illegal", n=coup.number, moves=moves_text(coup.moves), roll=roll)
        if play is None and len(ps.plays) > 1 and not game.ends_on_gains(roll, None):
            raise GameFlowError("w5.flow.no_moves", n=coup.number)
        return coup, game.apply_coup(roll, play, leave=leave, pour_tout=said.pour_tout), game


def replay_record(record: object, profile: Profile | None = None) -> Iterator[tuple[object, CoupOutcome, Game]]:
    """Drive a :class:`Game` through a record of perfect play, coup by coup.

    Yields ``(coup, outcome, game)`` (the game after the coup).  The marks written in
    the record are not read: the flow marks as perfect players do; a leave is read
    from a :class:`Decision` or, in a compact record, from a coup without moves that
    follows a hole.  Raises :class:`GameFlowError` at the first coup that perfect
    play cannot explain (an illegal move, a leave without the right) — the verifier
    (``replay.verifier.verify``) is the tool for records with mistakes.

    Parties à tourner, à la chouette and à quatre (``marqué N X-Y`` sections): each
    marqué (with its refaits) is a one-marqué partie à écrire between the two seated
    players, X in seat A; the outcomes then speak of seats ``"A"`` / ``"B"``.
    """
    assert isinstance(record, Record)
    if profile is None:
        name = record.headers.get("Profile")
        profile = find_profile(name) if name else DEFAULT_PROFILE
    replayer = _Replayer(record, profile)
    for element in record.elements:
        replayed = visit_element(element, replayer)
        if replayed is not None:
            yield replayed


def _outcome(roller: str, t: _Throw, gains: course.Gains, play: Play | None, **rest: Any) -> CoupOutcome:
    """A coup's outcome: the throw and the roller's own marking, then ``rest``."""
    m = gains.marked
    return CoupOutcome(
        side=roller,
        roll=t.roll,
        play=play,
        score=t.score,
        gains=m.points,
        ne_marque_pas=gains.ne_marque_pas,
        holes=m.holes,
        double=m.double,
        bredouille=m.bredouille,
        **rest,
    )
