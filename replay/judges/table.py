"""What the judges share: the table's state, one coup's facts, the actions as written,
the mistakes pending a claim (RULES.md §7.2-7.3), and small arithmetic helpers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ...notation.record import (
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
from ..findings import FINDING_KINDS, Finding
from ..ledger import Ledger, MarkResult, ScoreState

if TYPE_CHECKING:  # pragma: no cover
    from ..moves import Play, PlayJudgement
    from ..position import Position
    from ..profiles import Profile
    from ..scoring import CoupScore

PLEIN_KINDS = frozenset(("petit-jan", "grand-jan", "jan-de-retour"))
IMPUISSANCE = frozenset(("impuissance",))
SORTIE = frozenset(("sortie",))
ALL_OFF = 15
HOLE = 12
#: pending kinds whose claim erases the offender's over-marked points (RULES.md §7.3)
ERASING = frozenset(("par-trop", "fausse", "too-late", "plein"))
#: violation ids of ``moves.judge_play`` that have their own finding kind
VIOLATION_KIND = {
    "must-fill": "must-fill",
    "must-conserve": "must-conserve",
    "both-numbers": "unplayed-number",
    "larger-number": "unplayed-number",
}


@dataclass(slots=True)
class Where:
    game: int
    marque: int
    releve: int
    coup: int
    index: int
    span: Span


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
    message: str
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
        self.remedy: tuple[Any, ...] | None = None
        self.forced_stay = False
        self.plein_lost = 0
        self.plein_not_due = 0

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


class TableState:
    """The state of the table the judges read and update: the two ledgers (standing
    and entitled, see :mod:`trictrac.replay.verify`), the pending mistakes, the
    findings so far.  The flow (``_Verifier``) creates it; each judge is a mixin."""

    rec: Record
    profile: Profile
    game: int
    file: str | None
    compact: bool
    findings: list[Finding]
    notes: list[str]
    diagnostics: list[Diagnostic]
    pending: list[Pending]
    closed: list[Pending]
    seat_of: dict[str, str]
    letter_of: dict[str, str]
    marque: int
    releve: int
    index: int
    stopped: bool
    std: Ledger
    ent: Ledger
    in_sync: bool
    partie_kind: str | None
    ordering_noted: bool

    def _where(self, coup: Coup | None, span: Span | None = None) -> Where:
        if coup is None:
            return Where(self.game, self.marque, self.releve, 0, -1, span or NO_SPAN)
        return Where(self.game, self.marque, self.releve, coup.number, self.index, span or coup.span)

    def _finding(self, kind: str, where: Where, message: str, *, who: str | None = None, **details: Any) -> None:
        """Record one finding; ``details``: entitled, marked, consequence, detail,
        alternatives (see :class:`~trictrac.replay.findings.Finding`)."""
        sp = where.span
        self.findings.append(
            Finding(
                kind=kind,
                message=message,
                game=where.game,
                releve=where.releve,
                marque=where.marque,
                coup=where.coup,
                index=where.index,
                line=sp.line,
                col=sp.col,
                who=self.letter_of.get(who, who) if who else None,
                entitled=details.get("entitled"),
                marked=details.get("marked"),
                consequence=details.get("consequence", ""),
                rule=FINDING_KINDS[kind][0],
                detail=details.get("detail"),
                alternatives=details.get("alternatives", ()),
                file=self.file,
            )
        )

    def _letter(self, seat: str) -> str:
        return self.letter_of.get(seat, seat)

    keep_trace: bool
    #: the standing score after the roller's own gains, before the receipts and the
    #: écoles of the coup (RULES.md §4.1 O2-O4); kept only with a trace
    score_mid: ScoreState | None
    hole_log: list[tuple[str, int]]  # this coup's holes on the standing ledger: (seat, 1 simple | 2 double)

    def _mark_std(self, seat: str, n: int, own: bool = False) -> MarkResult:
        """Mark on the standing ledger, keeping the holes it completes (simple or double)."""
        res = self.std.mark(seat, n, own=own)
        if res.holes:
            self._log_holes(seat, res)
        return res

    double_holes: dict[str, int]  # trous doubles marked in the game, by seat (RULES.md §5.2)

    def _log_holes(self, seat: str, res: MarkResult) -> None:
        for k, _double in res.holes:
            self.hole_log.append((seat, k))
            if k == 2:
                self.double_holes[seat] += 1

    # -- the standing ledger put right (claims, corrections; RULES.md §7.3, §5.5) ----------
    def _erase(self, seat: str, n: int) -> None:
        """Erase ``n`` over-marked points of ``seat`` (a claimed école par trop, §7.3)."""
        self._correct(seat, -n, 0)

    def _correct(
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


def moves_of(moves: Sequence[Any]) -> tuple[Any, ...]:
    """The written moves as engine input: (from, to) pairs and unplayable numbers."""
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
