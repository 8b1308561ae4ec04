"""What the judges share: the table's state, one coup's facts, the actions as written,
the mistakes pending a claim (RULES.md §7.2-7.3), and small arithmetic helpers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from ....notation.compiled import mypyc_attr
from ....notation.record import (
    NO_SPAN,
    CannotPlay,
    Correction,
    Coup,
    Decision,
    Diagnostic,
    Ecole,
    FaitMarquer,
    Force,
    JouePourTout,
    Mark,
    Move,
    NeMarquePas,
    Pavillon,
    Record,
    Remet,
    Replay,
    Span,
)
from ...rules.course import DOUZE_TROUS, Marked
from ...rules.ledger import Ledger, MarkResult, ScoreState
from ...rules.partie import twelve_reached
from ...rules.profiles import Profile
from ..findings import Note, Where

if TYPE_CHECKING:  # pragma: no cover
    from ...rules.moves import Play, PlayJudgement
    from ...rules.position import Position
    from ...rules.scoring import CoupScore

PLEIN_KINDS = frozenset(("petit-jan", "grand-jan", "jan-de-retour"))
IMPUISSANCE = frozenset(("impuissance",))
SORTIE = frozenset(("sortie",))
HOLE = 12
#: pending kinds whose claim erases the offender's over-marked points (RULES.md §7.3); a
#: par-moins erases only the points he marked after touching a checker (``erase``)
ERASING = frozenset(("par-trop", "fausse", "too-late", "plein", "par-moins"))
#: violation ids of ``moves.judge_play`` that have their own finding kind
VIOLATION_KIND = {
    "must-fill": "must-fill",
    "must-conserve": "must-conserve",
    "both-numbers": "unplayed-number",
    "larger-number": "unplayed-number",
}


# Per-process cache of the score of a roll, one dict per profile (hashing a Profile
# costs ~2 µs): (position, roll) -> score (no-play coups and illegal plays only).
# Coups themselves are not cached: real games seldom repeat a position, even in the
# opening (measured: a cache of (position, roll, moves) gave nothing on cold runs and
# cost garbage-collector time).
ROLL_CACHE: dict[Profile, dict[tuple[Any, ...], CoupScore]] = {}
ROLL_CACHE_MAX = 4096


#: the throw played again at the table: (play, its score, the position after, seat of who decided)
Remedy = tuple["Play", "CoupScore", "Position", str]


@dataclass(slots=True)
class Pending:
    """A mistake the adversary may claim until he throws (RULES.md §7.2-7.3).

    kind: par-trop | par-moins | nmp | plein | must-fill | must-conserve | fausse |
    too-late | impossible.  ``offender`` / ``claimant`` are seats, ``amount`` the
    points the claimant may mark, ``erase`` the offender's points a claim erases.
    """

    kind: str
    offender: str
    claimant: str
    amount: int
    where: Where
    entitled: int | None
    marked: int | None
    erase: int = 0
    detail: str | None = None
    alternatives: tuple[str, ...] = ()
    status: str = "open"  # open | claimed | erased | closed
    claimed: int = 0
    this_coup: bool = False
    closed_at: int = -1  # index of the coup whose throw closed the claim window
    parts: tuple[int, ...] = ()  # two écoles made in one act: each may be claimed alone (003 §187)


class WrittenActions:
    """A coup's actions as the record writes them, sorted by who and when (hot path:
    a plain slotted class, filled by :func:`read_actions`)."""

    __slots__ = (
        "claims",
        "corrections",
        "fait_marquer",
        "forces",
        "leave",
        "leave_after_play",
        "leave_marks",
        "leave_span",
        "ne_marque_pas",
        "other_claims",
        "other_leave",
        "other_marks",
        "pavillons",
        "pour_tout",
        "remets",
        "replay",
        "replays",
        "roller_after",
        "roller_before",
        "roller_claims",
        "said_reste",
    )

    def __init__(self, span: Span) -> None:
        self.roller_before: list[Mark] = []  # the roller's marks before he plays
        self.roller_after: list[Mark] = []  # ... and after
        self.other_marks: list[Mark] = []
        self.roller_claims: list[Ecole] = []
        self.other_claims: list[Ecole] = []
        self.claims: list[Ecole] = []  # both sides', in the order written (003 §194)
        self.corrections: list[Correction] = []
        self.forces: list[Force] = []  # the opponent's demands on the play (003 §213)
        self.fait_marquer: list[FaitMarquer] = []  # marks one side obliges the other to make (003 §187)
        self.remets: list[Remet] = []  # a jeton put back apart from a claim (003 §187)
        self.ne_marque_pas = False
        self.leave: bool | None = None
        self.leave_span = span
        # the order of his actions, for the right to leave (RULES.md §6.1; 003 §156)
        self.leave_marks = 0  # the roller's marks written before his leave
        self.leave_after_play = False  # the leave written after the moves
        self.said_reste = False  # "je reste" written before the leave
        self.other_leave: Decision | None = None  # a leave by the player who did not throw
        self.pour_tout = False
        self.replay: Replay | None = None
        self.replays = 0
        self.pavillons: list[Pavillon] = []

    @property
    def roller_marks(self) -> list[Mark]:
        return self.roller_before + self.roller_after

    def any_mark(self) -> bool:
        return bool(
            self.roller_before
            or self.roller_after
            or self.other_marks
            or self.roller_claims
            or self.other_claims
            or self.ne_marque_pas
        )


def read_actions(coup: Coup, seat_of: dict[str, str], roller: str, bonne_compagnie_jeton: bool) -> WrittenActions:
    """Sort the coup's actions by seat and time.  ``bonne_compagnie_jeton``: a negative
    correction before the play is a jeton taken back, not a correction (001 III on r.41)."""
    acts = WrittenActions(coup.span)
    if not coup.before and not coup.after:
        return acts  # most coups write no action
    for part, written in ((0, coup.before), (1, coup.after)):
        for a in written:
            if isinstance(a, Mark):
                if seat_of.get(a.who, a.who) == roller:
                    (acts.roller_before if part == 0 else acts.roller_after).append(a)
                else:
                    acts.other_marks.append(a)
            elif isinstance(a, Ecole):
                by_roller = seat_of.get(a.claimant, a.claimant) == roller
                (acts.roller_claims if by_roller else acts.other_claims).append(a)
                acts.claims.append(a)
            elif isinstance(a, NeMarquePas):
                if seat_of.get(a.who, a.who) == roller:
                    acts.ne_marque_pas = True
            elif isinstance(a, Decision):
                if seat_of.get(a.who, a.who) != roller:
                    if a.leave:
                        acts.other_leave = a
                    continue
                if a.leave and acts.leave is False:
                    acts.said_reste = True
                if a.leave:
                    acts.leave_marks = len(acts.roller_before) + len(acts.roller_after)
                    acts.leave_after_play = part == 1
                acts.leave = a.leave
                acts.leave_span = a.span
            elif isinstance(a, Correction):
                if (
                    part == 0
                    and a.points < 0
                    and not a.holes
                    and bonne_compagnie_jeton
                    and seat_of.get(a.who, a.who) == roller
                ):
                    acts.roller_before.append(Mark(a.who, a.points, span=a.span))
                    continue
                acts.corrections.append(a)
            elif isinstance(a, JouePourTout):
                acts.pour_tout = True
            elif isinstance(a, Pavillon):
                acts.pavillons.append(a)
            elif isinstance(a, Replay):
                acts.replay = a
                acts.replays += 1
            elif isinstance(a, Force):
                acts.forces.append(a)
            elif isinstance(a, FaitMarquer):
                acts.fait_marquer.append(a)
            elif isinstance(a, Remet):
                acts.remets.append(a)
    return acts


class CoupFacts:
    """One coup as the flow established it, handed to the judges (a value object, so
    no judge needs twenty parameters).  ``roller`` / ``other`` are seats, ``side`` the
    record's letter; ``gains`` / ``receipts`` the points the rules give the roller and
    his opponent for the play as made."""

    __slots__ = (
        "acts",
        "coup",
        "could_leave",
        "forced_by_replay",
        "forced_stay",
        "gains",
        "inferred_leave",
        "judgement",
        "left",
        "moves",
        "no_play",
        "other",
        "pairs",
        "partie_ended",
        "play",
        "plein_lost",
        "plein_not_due",
        "position",
        "position_after",
        "receipts",
        "remedy",
        "roll",
        "roller",
        "score",
        "score_of_roll",
        "side",
        "sortie",
        "where",
    )

    def __init__(self, coup: Coup, side: str, roller: str, where: Where) -> None:
        self.coup = coup
        self.side = side
        self.roller = roller
        self.other = "B" if roller == "A" else "A"
        self.roll = coup.roll
        self.where = where
        self.forced_by_replay = False
        self.judgement: PlayJudgement | None = None
        self.play: Play | None = None
        self.remedy: Remedy | None = None
        self.forced_stay = False
        self.could_leave = False
        self.plein_lost = 0
        self.plein_not_due = 0
        self.partie_ended = False  # his gains gave him his twelfth hole: nothing is played

    # set by the flow at their step, always before a judge reads them
    position: Position | None
    inferred_leave: bool
    no_play: bool
    left: bool
    sortie: bool
    gains: int
    receipts: int
    acts: WrittenActions
    moves: tuple[Any, ...]
    pairs: list[tuple[int, int]]
    score: CoupScore
    score_of_roll: CoupScore
    position_after: Position


@mypyc_attr(native_class=False)  # deep-copied by the typo recovery: a plain class when compiled
class TableState:
    """The one state value of the table that the judges read and update, through their
    ``table`` parameter: the two ledgers (standing and entitled, see
    :mod:`trictrac.replay.verifier.verify`), the pending mistakes, the seats, the counters of the
    walk, the course of the partie.  The flow (``verify._Verifier``) creates it; what
    the judges find goes to a :class:`~trictrac.replay.verifier.findings.Findings` sink passed
    beside it.  The small ledger helpers below move the standing jetons."""

    def __init__(self, record: Record, profile: Profile, *, game: int, file: str | None) -> None:
        self.rec = record
        self.profile = profile
        self.game = game
        self.file = file
        self.compact = record.mode == "compact"
        self.keep_trace = True
        self.recover = False  # go on after a mistake of the record (issue 14 §2); False = stop (--strict)
        #: the written play proved legal without enumerating first (issue 17); False = always
        #: ``judge_play`` (the differential test compares both)
        self.direct_judge = True
        #: a plain coup walked in one step (replay/verifier/plain.py, issue 17); False = every coup
        #: by the full course (the differential test compares both)
        self.plain = True
        self.notes: list[Note] = []
        self.diagnostics: list[Diagnostic] = []
        self.pending: list[Pending] = []
        self.closed: list[Pending] = []  # mistakes whose claim window has closed
        self.seat_of: dict[str, str] = {"A": "A", "B": "B"}
        self.letter_of: dict[str, str] = {"A": "A", "B": "B"}  # updated in place (the sink reads it)
        self.marque = self.releve = self.index = 0
        self.stopped = False
        self.pos: Position | None = None
        self.primaute: str | None = None
        self.marque_first: str | None = None  # who threw first in this marqué (003 §226)
        self.releve_over = True  # a relevé may start (start of game)
        self.ordering_noted = False
        self.std = Ledger(profile)
        self.ent = Ledger(profile)
        self.in_sync = True  # standing == entitled (the fast path keeps them so)
        #: the standing score after the roller's own gains, before the receipts and the
        #: écoles of the coup (RULES.md §4.1 O2-O4); kept only with a trace
        self.score_mid: ScoreState | None = None
        self.hole_log: list[tuple[str, int]] = []  # this coup's holes: (seat, 1 simple | 2 double)
        self.double_holes = {"A": 0, "B": 0}  # trous doubles marked in the game, by seat (§5.2)
        self.marques: list[dict[str, Any]] = []
        self.bad_tokens: dict[int, list[Diagnostic]] | None = None  # unread moves by line (recover.py)
        self.partie = PartieCourse()
        self.roll_cache = ROLL_CACHE.setdefault(profile, {})  # the score of a roll, see play.score_roll

    def where(self, coup: Coup | None, span: Span | None = None) -> Where:
        if coup is None:
            return Where(self.game, self.marque, self.releve, 0, -1, span or NO_SPAN)
        return Where(self.game, self.marque, self.releve, coup.number, self.index, span or coup.span)

    def letter(self, seat: str) -> str:
        return self.letter_of.get(seat, seat)

    def mark_std(self, seat: str, n: int, own: bool = False) -> MarkResult:
        """Mark on the standing ledger, keeping the holes it completes (simple or double)."""
        res = self.std.mark(seat, n, own=own)
        if res.holes:
            self.log_holes(seat, res)
        return res

    def log_marked(self, seat: str, made: Marked) -> None:
        """Keep the holes of one mark of the course (``course.Marked``): a double hole
        counts 2 (RULES.md §5.2)."""
        for dbl in made.double:
            self.hole_log.append((seat, 2 if dbl else 1))
            if dbl:
                self.double_holes[seat] += 1
        self._first_to_twelve(seat)

    def log_holes(self, seat: str, res: MarkResult) -> None:
        for k, _double in res.holes:
            self.hole_log.append((seat, k))
            if k == 2:
                self.double_holes[seat] += 1
        self._first_to_twelve(seat)

    def _first_to_twelve(self, seat: str) -> None:
        """After each hole marked, in the table's order (the roller's gains before the
        opponent's receipts, 003 §149, §207): the first twelfth hole of a partie en douze
        trous ends it (RULES.md §8.1; 003 §218 « celui qui arrive le premier à douze
        trous »), whatever else the coup's marks bring (``partie.twelve_reached``)."""
        course = self.partie
        if course.twelve_at != self.index:  # a new coup: the last one's is read or void
            course.twelve_first = course.twelve_state = None
        if course.kind == DOUZE_TROUS and course.twelve_first is None and twelve_reached(self.std.state, seat):
            course.twelve_first, course.twelve_state, course.twelve_at = seat, self.std.state, self.index

    # -- the standing ledger put right (claims, corrections; RULES.md §7.3, §5.5) ----------
    def erase(self, seat: str, n: int) -> None:
        """Erase ``n`` over-marked points of ``seat`` (a claimed école par trop, §7.3)."""
        self.correct(seat, -n, 0)

    def correct(
        self, seat: str, dpoints: int, dholes: int, *, bredouille: bool | None = None, pavillon: bool | None = None
    ) -> None:
        """Move ``seat``'s jeton and fichet by ``dpoints`` / ``dholes`` (closed form: a hole
        is borrowed back for missing points, twelve points make a hole; issue 18)."""
        st = self.std.state
        ps = st[seat]
        pts, holes = ps.points + dpoints, ps.holes + dholes
        if pts < 0 < holes:
            back = min(holes, (HOLE - 1 - pts) // HOLE)  # ceil(-pts / HOLE), at most his holes
            holes -= back
            pts += back * HOLE
        elif pts >= HOLE:
            holes += pts // HOLE
            pts %= HOLE
        pts = max(0, pts)
        holes = max(0, holes)
        keep = ps.bredouille if bredouille is None else bredouille
        pav = ps.pavillon if pavillon is None else pavillon
        new = replace(ps, points=pts, holes=holes, bredouille=keep and pts > 0, pavillon=pav and holes > 0)
        state = replace(st, a=new) if seat == "A" else replace(st, b=new)
        led = Ledger(self.profile, state, primaute=self.std.primaute)
        led.releve = self.std.releve
        self.std = led


class MarqueWon(NamedTuple):
    """A marqué's result as the end judges keep it (a ``course.MarqueLine``): the winner's
    player letter, None for a refait, and the marqué's value (RULES.md §8.2)."""

    winner: str | None
    value: int

    @property
    def refait(self) -> bool:
        return self.winner is None


class PartieCourse:
    """The course of the partie the end judges follow (RULES.md §5.4, §8): its kind, when
    it or a marqué ended, the marqués' winners, the rotation of several players, the
    pavillon of the written game.  Set from the ``Partie`` tag by ``sections.init_partie``."""

    def __init__(self) -> None:
        self.kind: str | None = None  # douze-trous | a-ecrire | a kind of several players
        self.marques_total: int | None = None  # marqués of a partie à écrire
        self.multi: tuple[str, tuple[str, ...]] | None = None  # (kind, players) of several players
        self.over: str | None = None  # why the partie or the marqué is over (RULES.md §8.1-8.2)
        self.over_reported = False
        self.over_state: ScoreState | None = None  # the score when the partie ended
        self.over_winner: str | None = None  # the seat that reached twelve holes first (§8.1)
        # this coup's first twelfth hole, in the order of marking, and the score then
        self.twelve_first: str | None = None
        self.twelve_state: ScoreState | None = None
        self.twelve_at = -1  # the index of that coup
        self.pav_check = False  # the pavillon of the written game is judged (001 r.58)
        self.pav_due: dict[str, Where] = {}  # seat -> where he earned a pavillon not yet taken
        self.pav_lost: set[str] = set()  # seats whose pavillon was lost for want of taking it
        self.winners: list[MarqueWon] = []  # every marqué's result
        self.marque_open = False  # a marqué whose result is not written yet
        self.multi_lines: list[Any] = []
        self.multi_first: str | None = None  # the drawn primauté of the first marqué
        self.multi_expected: str | None = None  # player letter expected to throw first
        self.marque_fresh = False
        self.refaits = 0


def moves_of(moves: Sequence[Any]) -> tuple[Any, ...]:
    """The written moves as engine input: (from, to) pairs and unplayable numbers."""
    if len(moves) == 2 and type(moves[0]) is Move and type(moves[1]) is Move:  # the usual coup
        return ((moves[0].from_, moves[0].to), (moves[1].from_, moves[1].to))
    out: list[Any] = []
    for m in moves:
        if isinstance(m, Move):
            out.append((m.from_, m.to))
        elif isinstance(m, CannotPlay):
            out.append(m.number)
    return tuple(out)


def pairs_text(moves: tuple[Any, ...]) -> str:
    return (
        " ".join(f"{m[0]}/{'off' if m[1] == 25 else m[1]}" if not isinstance(m, int) else f"-{m}" for m in moves)
        or "--"
    )


def points_of(cs: CoupScore, kinds: frozenset[str], side: str) -> int:
    """Points of the events of these kinds for ``side`` ("mover" / "other")."""
    return sum(ev.points for ev in cs.events if ev.side == side and ev.kind in kinds)


def hole_words(marks: list[Mark]) -> bool:
    """Does a mark write holes or a bredouille (a plain loop: hot path)?"""
    for m in marks:
        if m.holes is not None or m.bredouille is not None:
            return True
    return False


def even(n: int) -> int:
    """Points are even (003 §140); an odd written mark is taken one lower."""
    return n - (n & 1) if n > 0 else 0


def marks_sum(marks: list[Mark]) -> int:
    total = 0  # a loop, not sum(generator): this runs on every coup
    for m in marks:
        total += m.points
    return total
