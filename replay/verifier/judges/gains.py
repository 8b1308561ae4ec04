"""Judge of the roller's own marks against his gains: par trop, par moins, the plein
marked or missed, "je ne marque pas", the école impossible, the marks of a leaver
(RULES.md §5.3, §6.4, §7.1-7.2, §7.5, §7.7, §7.8).  Entry points:
:func:`plein_of_illegal_play` (the flow, before the marks), :func:`judge_roller_marks`
(the marks judge, into the coup's :class:`MarkTally`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...rules.course import says_ne_marque_pas
from ...rules.moves import legal_plays
from ..findings import Note
from .decisions import holes_of
from .table import HOLE, PLEIN_KINDS, VIOLATION_KIND, CoupFacts, Pending, TableState, points_of

if TYPE_CHECKING:  # pragma: no cover
    from ....notation.record import Ecole, Remet
    from ...rules.ledger import ScoreState
    from ..findings import Findings

#: a claim as the table applies it: (claim, points that count, the mistake it answers)
ClaimTaken = tuple["Ecole", int, "Pending | None"]


class MarkTally:
    """The marks of one coup, summed, and what the judges derived from them."""

    __slots__ = (
        "after",
        "against_roller_claims",
        "before",
        "credit",
        "earlier",
        "erased_before_claims",
        "induced",
        "late",
        "marked",
        "new",
        "now",
        "other_effective",
        "other_marked",
        "roller_claims",
        "roller_erased",
        "st0",
    )

    def __init__(self, before: int, after: int, other_marked: int) -> None:
        self.before = before  # the roller's points before touching a checker
        self.after = after
        self.marked = before + after
        self.other_marked = other_marked
        self.other_effective = self.other_marked  # with the claims credited to his receipts (001 r.55)
        self.late = 0  # points of the receiver's own unplayable throw added now (001 r.62)
        # the roller's "je ne marque pas" was wrong: he announced a hole (003 §177); None
        # once the hole it made the receiver mark is erased
        self.induced: bool | None = False
        self.credit: list[int] = []
        self.new: list[Pending] = []  # mistakes of this coup
        self.roller_erased = 0  # the roller's points a claim on this coup erases at once
        self.earlier: list[ClaimTaken] = []  # the receiver's claims of earlier coups' écoles
        self.now: list[ClaimTaken] = []  # ... of this coup's
        self.against_roller_claims: list[ClaimTaken] = []
        # erasures of the opponent's points written before the claim that answers them
        # (judged and put on the standing score before the claims; RULES.md §7.6)
        self.erased_before_claims: list[Remet] = []
        self.roller_claims: list[tuple[Ecole, Pending | None]] = []
        self.st0: ScoreState | None = None


# -- the roller's own gains (RULES.md §7.1-7.2, §7.7, §7.8, §5.3) ----------------------
def _mistake(facts: CoupFacts, tally: MarkTally, kind: str, amount: int) -> Pending:
    """A mistake of the roller's marks, claimable by the other (set its counts after)."""
    p = Pending(kind, facts.roller, facts.other, amount, facts.where, facts.gains, tally.marked, this_coup=True)
    tally.new.append(p)
    return p


def plein_of_illegal_play(facts: CoupFacts) -> None:
    """The pleins of an illegal play measured against the legal plays (RULES.md §7.7;
    003 §192: « Si l'on marque des points croyant remplir ou conserver, quoiqu'on ne
    remplisse pas ou qu'on ne conserve pas, on fait école des points marqués »).
    A plein the legal plays make and this one does not is lost (``plein_lost``); a
    plein only this illegal play makes is not due to him (``plein_not_due``)."""
    due = points_of(facts.score_of_roll, PLEIN_KINDS, "mover")
    played = points_of(facts.score, PLEIN_KINDS, "mover")
    facts.plein_lost = max(0, due - played)
    if played > due:
        facts.plein_not_due = played - due
        facts.gains -= facts.plein_not_due


def judge_roller_marks(table: TableState, facts: CoupFacts, tally: MarkTally, found: Findings) -> None:
    gains, marked = facts.gains, tally.marked
    if facts.acts.ne_marque_pas:
        _judge_ne_marque_pas(table, facts, tally)
        return
    if facts.plein_lost and marked >= gains + facts.plein_lost:
        _judge_plein_marked(table, facts, tally, facts.plein_lost, found)
        return
    if facts.plein_not_due and marked >= gains + facts.plein_not_due:
        _judge_plein_marked(table, facts, tally, 0, found)
        return
    if facts.plein_lost:
        _judge_plein_missed(table, facts, tally, found)
    else:
        violation = facts.judgement.violation if facts.judgement is not None and not facts.judgement.legal else None
        if violation in ("must-fill", "must-conserve"):
            j = facts.judgement
            assert j is not None and j.play is not None and violation is not None
            found.add(
                VIOLATION_KIND[violation],
                facts.where,
                who=facts.roller,
                detail=violation,
                alternatives=tuple(x.text() for x in j.alternatives[:8]),
            )
    if facts.left and marked != gains:
        _judge_marks_on_leave(table, facts, tally, found)
    elif facts.pairs and tally.after and tally.before < gains:
        _judge_marked_after_touching(facts, tally)
    elif marked > gains:
        p = _mistake(facts, tally, "par-trop", marked - gains)
        p.erase = marked - gains
    elif marked < gains:
        _judge_under_marked(table, facts, tally, found)


def _judge_marked_after_touching(facts: CoupFacts, tally: MarkTally) -> None:
    """Points marked after the moves (RULES.md §7.2): the omission was consummated when he
    touched a checker (003 §167, §172), and what he marks afterwards is no longer his to
    take (003 §174: « si on avait joué ses dames ... on ne pourrait reprendre ... ceux
    nouvellement gagnés »).  One act, one école: the opponent may school the omission,
    which also erases the late mark; unclaimed, the late mark stands (001 r.47; 003
    §167).  Only a late mark beyond the throw's points is a second mistake (par trop)."""
    gains, before, after = facts.gains, tally.before, tally.after
    omitted = gains - before
    p = _mistake(facts, tally, "par-moins", omitted)
    p.marked, p.detail, p.erase = before, "marked-after-touching", min(after, omitted)
    if after > omitted:
        q = _mistake(facts, tally, "par-trop", after - omitted)
        q.erase = after - omitted


def _judge_ne_marque_pas(table: TableState, facts: CoupFacts, tally: MarkTally) -> None:
    """ "Je ne marque pas" (RULES.md §5.3; 003 §150, §176)."""
    st0, gains = tally.st0, facts.gains
    assert st0 is not None
    if not gains or says_ne_marque_pas(st0, facts.roller, gains, facts.receipts):
        return  # said rightly (course.says_ne_marque_pas)
    if st0[facts.roller].points + gains >= HOLE:
        p = _mistake(facts, tally, "nmp", _nmp_ecole(st0, facts))
        p.marked, p.detail = 0, "ne-marque-pas"
    else:
        tally.induced = True
        table.notes.append(Note.of("nmp-wrongly", coup=facts.coup.number, who=facts.side, points=gains))


def _nmp_ecole(st0: ScoreState, facts: CoupFacts) -> int:
    """The école of a wrong "je ne marque pas" when his own gains make his hole (RULES.md
    §5.3; 003 §176): the announcement counts as marking the points he believed he gained,
    so the école is what he believed given instead: at least enough to give the opponent
    his hole (« qu'il croie en battre une à vrai et l'autre à faux »: with 4 against 8,
    two hits à vrai of 4, the école is 4), and enough that his own points made no hole in
    his eyes.  A claim short of it is partial (003 §187); one up to his whole gain is
    the école he believed."""
    gains = facts.gains
    believed_given = HOLE - st0[facts.other].points - facts.receipts
    believed_short = st0[facts.roller].points + gains - (HOLE - 2)
    return min(gains, max(2, believed_given, believed_short))


def _judge_plein_marked(table: TableState, facts: CoupFacts, tally: MarkTally, lost: int, found: Findings) -> None:
    """Points of a plein marked, then a play that does not make it (RULES.md §7.7; 003 §192);
    ``lost``: the points of the plein a legal play would have made (0 when every legal
    play breaks and only an illegal one kept it)."""
    assert facts.judgement is not None and facts.judgement.play is not None
    excess = tally.marked - facts.gains
    rule = table.profile.remplir_error_ecole
    value = {"single": excess, "double": excess + lost, "correct": 0}[rule]
    if value:
        p = _mistake(facts, tally, "plein", value)
        p.erase, p.detail = excess, rule
    else:
        found.add(
            "ecole-plein-not-made",
            facts.where,
            who=facts.roller,
            entitled=facts.gains,
            marked=tally.marked,
            outcome="correct",
        )


def _judge_plein_missed(table: TableState, facts: CoupFacts, tally: MarkTally, found: Findings) -> None:
    """A plein he could fill or keep and did not (RULES.md §7.7; 003 §192)."""
    j = facts.judgement
    assert j is not None and j.play is not None
    violation = j.violation if not j.legal else None
    # the kind is the plein lost, whatever made the play illegal (003 §192: « pouvant
    # conserver, on ne conserve pas »)
    conserved = any(
        ev.how == "conserver" for ev in facts.score_of_roll.events if ev.side == "mover" and ev.kind in PLEIN_KINDS
    )
    kind = "must-conserve" if violation == "must-conserve" or (violation != "must-fill" and conserved) else "must-fill"
    value = 0 if table.profile.remplir_error_ecole == "correct" else facts.plein_lost
    if value:
        p = _mistake(facts, tally, kind, value)
        p.entitled, p.detail = facts.gains + facts.plein_lost, violation
        p.alternatives = tuple(x.text() for x in j.alternatives[:8])
    else:
        found.add(
            kind,
            facts.where,
            who=facts.roller,
            entitled=facts.gains + facts.plein_lost,
            marked=tally.marked,
            outcome="correct",
        )


def _throw_unplayable(table: TableState, facts: CoupFacts) -> bool:
    """No legal play of the throw moves a checker: only then is an omission an école
    impossible (RULES.md §7.8; 001 r.62: « Lorsqu'on amène des dés qu'on ne peut jouer
    par impuissance, on ne peut être envoyé à l'école »; 003 §197) — not a playable
    throw the record leaves unplayed."""
    if facts.pairs:
        return False
    assert facts.position is not None
    return not any(p.steps for p in legal_plays(facts.position, facts.roll, table.profile).plays)


def _judge_marks_on_leave(table: TableState, facts: CoupFacts, tally: MarkTally, found: Findings) -> None:
    """Leaving: the jetons go back to the rail, so points de reste over- or
    under-marked are no école (003 §157, §169; 001 r.45); holes count (RULES.md
    §6.4; 003 §173; 001 r.53-54)."""
    st0, gains, marked, side = tally.st0, facts.gains, tally.marked, facts.side
    assert st0 is not None
    written = [m.holes for m in facts.acts.roller_marks if m.holes is not None]
    h_marked = sum(written) if written else holes_of(table, st0, facts.roller, marked)
    h_due = holes_of(table, st0, facts.roller, gains)
    if h_marked > h_due and marked > gains:
        p = _mistake(facts, tally, "par-trop", marked - gains)
        p.erase = marked - gains
    elif h_marked < h_due:
        found.add(
            "hole-mismatch",
            facts.where,
            who=facts.roller,
            entitled=h_due,
            marked=h_marked,
            detail="left",
        )
    else:
        table.notes.append(Note.of("reste-taken-off", coup=facts.coup.number, who=side))


def _judge_under_marked(table: TableState, facts: CoupFacts, tally: MarkTally, found: Findings) -> None:
    """Marked short: école par moins, or an école impossible (RULES.md §7.8)."""
    gains, marked, side = facts.gains, tally.marked, facts.side
    if not facts.left and _throw_unplayable(table, facts):
        # école impossible (RULES.md §7.8; 001 r.62; 003 §197)
        found.add(
            "ecole-impossible",
            facts.where,
            who=facts.roller,
            entitled=gains,
            marked=marked,
        )
        _mistake(facts, tally, "impossible", gains - marked)
    elif marked == 0 and gains == HOLE and table.profile.unmarked_whole_hole != "ecole":
        # D10: a forgotten trou sans bouger is no école under lebrun-1828 (000 ~l.760)
        # nor bonne-compagnie (001 III on r.50); 003 §184 schools it
        table.notes.append(Note.of("hole-unmarked", coup=facts.coup.number, who=side, profile=table.profile.name))
        _mistake(facts, tally, "impossible", gains)
    else:
        _mistake(facts, tally, "par-moins", gains - marked)
