"""Judge of the marks: what each side marked against what the rules give, holes and
bredouille, and the order in which the table applies them (RULES.md §4.1, §5, §7).

Two ledgers move together (see :mod:`trictrac.replay.verifier.verify`): the *standing* one (the
marks as written, the écoles claimed) and the *entitled* one (every mark right).
Wrong marks become :class:`~.table.Pending` mistakes the claims judge closes.
Entry points: :func:`full_marks` (a record with marks), :func:`compact_marks` (a
compact record: perfect marks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ....notation.record import Ecole, Remet
from ...rules.course import mark_points, roller_gains
from ..findings import Note, Where
from .claims import close_mistake, match_claim
from .decisions import check_leave
from .gains import MarkTally, judge_roller_marks
from .holes import HoleMarks, check_holes
from .table import (
    ERASING,
    HOLE,
    CoupFacts,
    Pending,
    TableState,
    even,
    hole_words,
    marks_sum,
)

if TYPE_CHECKING:  # pragma: no cover
    from ....notation.record import Mark
    from ..findings import Findings


# -- compact records: perfect marking -------------------------------------------------
def compact_marks(table: TableState, facts: CoupFacts) -> None:
    """Mark as perfect players would: the course of a coup (``course.roller_gains``, the
    decision, ``course.mark_points``; RULES.md §4.1, §5.3, §6), on both ledgers."""
    roller, other, gains, receipts = facts.roller, facts.other, facts.gains, facts.receipts
    for led in (table.std, table.ent):
        got = roller_gains(led, roller, gains, receipts)
        if led is table.std:
            if got.marked.double:
                table.log_marked(roller, got.marked)
            if table.keep_trace:
                table.score_mid = led.state
        if facts.left:
            led.leave(roller, force=True)
        elif receipts:
            led.stay(roller)
            made = mark_points(led, other, receipts)
            if made.double and led is table.std:
                table.log_marked(other, made)


# -- full records: marks against entitlement -------------------------------------------
def full_marks(table: TableState, facts: CoupFacts, found: Findings) -> None:
    acts = facts.acts
    # most coups write one mark or none: no call for an empty list (hot path)
    before = marks_sum(acts.roller_before) if acts.roller_before else 0
    after = marks_sum(acts.roller_after) if acts.roller_after else 0
    other_marked = marks_sum(acts.other_marks) if acts.other_marks else 0
    if (
        before == facts.gains
        and other_marked == facts.receipts
        and not after
        and not facts.left
        and not acts.ne_marque_pas
        and not facts.plein_lost
        and not acts.roller_claims
        and not acts.other_claims
        and not acts.corrections
        and not facts.forced_stay
        and not acts.fait_marquer
        and not acts.remets
        and _fast_marks(table, facts, found)
    ):
        return  # fast path: everything marked as entitled (the usual coup of a clean record)
    tally = MarkTally(before, after, other_marked)
    tally.st0 = table.std.state
    judge_roller_marks(table, facts, tally, found)
    _judge_receiver_marks(table, facts, tally, found)
    table.pending.extend(tally.new)
    # the table's order (RULES.md §4.1, §7.3): the marks, then the claims, then the
    # corrections and jetons put back; but an erasure written before the claim that
    # answers it is judged first, so that the claim can take the école it made
    erasures = _erasures_in_written_order(facts) if facts.acts.remets else []
    for r, eraser_claims_after, victim_claims_after in erasures:
        if victim_claims_after and not eraser_claims_after:
            _judge_erasure(table, facts, r, found)
            tally.erased_before_claims.append(r)
    _take_claims(table, facts, tally, found)
    _mark_standing(table, facts, tally, found)
    _apply_corrections(table, facts, found)
    if facts.acts.fait_marquer:
        _apply_fait_marquer(table, facts, found)
    for r, eraser_claims_after, victim_claims_after in erasures:
        if not victim_claims_after and not eraser_claims_after:
            _judge_erasure(table, facts, r, found)
    if facts.acts.remets:
        _apply_remets(table, facts, tally.erased_before_claims, found)
    _mark_entitled(table, facts, tally)


class EntitledMarks(NamedTuple):
    """A coup whose marks are exactly what the rules give: who threw, the gains and
    receipts, the marks as written (their holes and bredouille are still judged)."""

    roller: str  # seats
    other: str
    side: str  # the roller's letter as written
    gains: int
    receipts: int
    roller_marks: list[Mark]
    other_marks: list[Mark]
    where: Where


def _fast_marks(table: TableState, facts: CoupFacts, found: Findings) -> bool:
    """Marks exactly as entitled: both ledgers move alike (False = take the long way)."""
    if not table.in_sync:
        return False
    acts = facts.acts
    marks = EntitledMarks(
        facts.roller,
        facts.other,
        facts.side,
        facts.gains,
        facts.receipts,
        acts.roller_before,
        acts.other_marks,
        facts.where,
    )
    mark_as_entitled(table, marks, found)
    return True


def mark_as_entitled(table: TableState, marks: EntitledMarks, found: Findings) -> None:
    """Both ledgers, in sync, move alike by the gains then the receipts (RULES.md §4.1
    O2-O4, §5.2); the roller's right to leave is gone once the receiver marks (§6.1)."""
    roller, other, gains, receipts = marks.roller, marks.other, marks.gains, marks.receipts
    std, ent = table.std, table.ent
    if gains:
        r2 = gains - (gains & 1)  # even(gains), gains > 0
        res = table.mark_std(roller, r2, own=True)
        ent.mark(roller, r2, own=True)
        if hole_words(marks.roller_marks):
            check_holes(
                table, res, (gains, gains), HoleMarks(marks.roller_marks, roller, marks.side, marks.where), found
            )
            std = table.std  # a bredouille lost at the table replaces the standing ledger
    if table.keep_trace:
        table.score_mid = std.state
    std.stay(roller)
    ent.stay(roller)
    if receipts:
        o2 = receipts - (receipts & 1)
        res = table.mark_std(other, o2)
        ent.mark(other, o2)
        if hole_words(marks.other_marks):
            written = HoleMarks(marks.other_marks, other, table.letter(other), marks.where)
            check_holes(table, res, (receipts, receipts), written, found)


# -- the receiver's marks (RULES.md §4.1 O4; 001 r.55: credited to what is owed first) --
def _judge_receiver_marks(table: TableState, facts: CoupFacts, tally: MarkTally, found: Findings) -> None:
    receipts, other_claims = facts.receipts, facts.acts.other_claims
    if tally.other_marked < receipts and other_claims:
        short = receipts - tally.other_marked
        for c in other_claims:
            taken = min(short, c.points)
            tally.credit.append(taken)
            short -= taken
    else:
        tally.credit = [0] * len(other_claims)
    tally.other_effective = tally.other_marked + sum(tally.credit)
    if facts.partie_ended and tally.other_marked:
        _marked_after_the_end(table, facts, tally, found)
        tally.other_effective = 0  # not marked: the partie is over
        return
    if tally.other_effective > receipts and not facts.left:
        tally.late = _late_impossible(table, facts.other, tally.other_effective - receipts)
        tally.other_effective -= tally.late
    p = _receiver_mistake(table, facts, tally)
    if p is not None:
        tally.new.append(p)


def _marked_after_the_end(table: TableState, facts: CoupFacts, tally: MarkTally, found: Findings) -> None:
    """The receiver marks points of a throw whose gains gave the roller his twelfth hole:
    the partie ended before the roller played, and points given are marked only once he
    has played (RULES.md §4.1 O2, §8.1; 003 §149, §207, §218).  No école (the partie is
    over): one finding, and the marks are not put on the standing score."""
    found.add(
        "play-after-end",
        facts.where,
        who=facts.other,
        entitled=0,
        marked=tally.other_marked,
        detail="receipts",
    )


def _receiver_mistake(table: TableState, facts: CoupFacts, tally: MarkTally) -> Pending | None:
    """The receiver's marks against his receipts: over-marked (par trop, also after the
    roller left), under-marked (par moins), or right (None)."""
    receipts = facts.receipts
    marked = tally.other_effective
    p = None
    if facts.left:
        if tally.other_marked:
            p = Pending(
                "par-trop",
                facts.other,
                facts.roller,
                tally.other_marked,
                facts.where,
                0,
                tally.other_marked,
                0,
                "after-leave",
                this_coup=True,
            )
    elif marked > receipts:
        p = Pending(
            "par-trop",
            facts.other,
            facts.roller,
            marked - receipts,
            facts.where,
            receipts,
            marked,
            marked - receipts,
            this_coup=True,
        )
        st0 = tally.st0
        if tally.induced and st0 is not None and st0[facts.other].points + marked >= HOLE:
            p.detail = "induced"  # the hole the roller's wrong warning announced (003 §177)
    elif marked < receipts:
        p = Pending(
            "par-moins",
            facts.other,
            facts.roller,
            receipts - marked,
            facts.where,
            receipts,
            marked,
            this_coup=True,
        )
        if sum(tally.credit):
            p.detail = "credited"  # 001 r.55: his école claim counted against his receipts
    return p


def _late_impossible(table: TableState, seat: str, extra: int) -> int:
    """Points missing from ``seat``'s own unplayable throw, added before he throws
    again: no école, they are his (RULES.md §7.8; 001 r.62; 003 §197)."""
    late = 0
    for p in table.pending:
        if p.status == "open" and p.kind == "impossible" and p.offender == seat and p.amount > 0:
            taken = min(extra, p.amount)
            late += taken
            p.amount -= taken
            if not p.amount:
                p.status = "closed"
    return late


# -- match the claims (RULES.md §7.3-7.4) -------------------------------------------
def _take_claims(table: TableState, facts: CoupFacts, tally: MarkTally, found: Findings) -> None:
    roller, other = facts.roller, facts.other
    credit_of = {id(c): cr for c, cr in zip(facts.acts.other_claims, tally.credit)}
    for c in facts.acts.claims:
        if id(c) not in credit_of and _induced_claim(table, facts, tally, c, found):
            continue
        if id(c) not in credit_of:  # the roller's claim, matched where it was written
            tally.roller_claims.append((c, match_claim(table, c, c.points, (roller, other), facts.where, found)))
            continue
        n = c.points - credit_of[id(c)]
        if n <= 0:
            continue
        p = match_claim(table, c, n, (other, roller), facts.where, found)
        if p is not None and p.this_coup and p.offender == roller and p.kind == "fausse":
            tally.against_roller_claims.append((c, n, p))  # undoes the roller's own école claim (003 §194)
        elif p is not None and p.this_coup and p.offender == roller:
            tally.now.append((c, n, p))
            if p.kind in ERASING:
                tally.roller_erased += min(p.erase, tally.marked)
        elif p is None or p.this_coup:
            # a claim that answers no earlier mistake is made now, after the receipts
            tally.now.append((c, n, p))
        else:
            tally.earlier.append((c, n, p))
    if (tally.earlier or facts.acts.roller_claims) and not table.ordering_noted:
        table.ordering_noted = True
        table.notes.append(Note.of("ecole-order"))


def _induced_claim(table: TableState, facts: CoupFacts, tally: MarkTally, c: Ecole, found: Findings) -> bool:
    """The roller's claim of the hole his own wrong "je ne marque pas" announced: he may
    have it erased, not school it (RULES.md §5.3; 003 §177: « le lui faire effacer en le
    réduisant aux points qu'il avait ; mais il ne peut marquer l'école »; 001 r.57).
    The over-mark is erased before it reaches the ledger (the receiver keeps his
    bredouille) and the claim marks nothing: a claim of an école not made."""
    for p in tally.new:
        if p.detail == "induced" and p.status == "open" and p.amount == c.points:
            p.status = "erased"
            close_mistake(table, p, found, erased=True)
            tally.other_effective -= p.amount
            tally.induced = None
            found.add(
                "ecole-claimed-wrongly",
                table.where(facts.coup, c.span),
                who=facts.roller,
                entitled=0,
                marked=c.points,
            )
            return True
    return False


# -- the standing ledger, in the usual order --------------------------------------------
def _mark_standing(table: TableState, facts: CoupFacts, tally: MarkTally, found: Findings) -> None:
    roller, other = facts.roller, facts.other
    for _c, n, p in tally.earlier:
        if p is not None and p.kind in ERASING and p.erase:
            table.erase(p.offender, min(p.erase, n))
        table.mark_std(other, even(n))
    _mark_roller_standing(table, facts, tally, found)
    for r in tally.erased_before_claims:  # written before the claim that answers it
        _remet(table, r, found)
    for _c, n, p in tally.now:
        if p is not None and p.kind in ERASING and p.erase and p.offender != roller:
            table.erase(p.offender, min(p.erase, n))
        table.mark_std(other, even(n))
    for c, p in tally.roller_claims:
        if p is not None and p.kind in ERASING and p.erase:
            table.erase(p.offender, min(p.erase, c.points))
        table.mark_std(roller, even(c.points))
    for _c, n, p in tally.against_roller_claims:
        if p is not None and p.erase:
            table.erase(roller, min(p.erase, n))
        table.mark_std(other, even(n))


def _mark_roller_standing(table: TableState, facts: CoupFacts, tally: MarkTally, found: Findings) -> None:
    """The roller's gains, his decision (RULES.md §6), the receiver's receipts."""
    roller, other, st0 = facts.roller, facts.other, tally.st0
    assert st0 is not None
    applied = max(0, tally.marked - tally.roller_erased)
    if facts.acts.ne_marque_pas:
        table.std.ne_marque_pas(roller)
    elif applied:
        res = table.mark_std(roller, even(applied), own=True)
        written = HoleMarks(facts.acts.roller_marks, roller, facts.side, facts.where)
        check_holes(table, res, (tally.marked, applied), written, found, st0)
    if table.keep_trace:
        table.score_mid = table.std.state
    if facts.left or facts.forced_stay:
        check_leave(table, facts, tally.marked, st0, found)
    if facts.left:
        table.std.leave(roller, force=True)
        return
    table.std.stay(roller)
    if tally.late:
        table.mark_std(other, even(tally.late), own=True)
        table.notes.append(Note.of("late-points", coup=facts.coup.number, who=table.letter(other), points=tally.late))
    if tally.other_effective:
        res = table.mark_std(other, even(tally.other_effective))
        if tally.induced is not None:  # None: the hole he wrote was erased (003 §177)
            written = HoleMarks(facts.acts.other_marks, other, table.letter(other), facts.where)
            check_holes(table, res, (tally.other_effective, tally.other_effective), written, found, st0)


def _apply_corrections(table: TableState, facts: CoupFacts, found: Findings) -> None:
    """Corrections as written; one that undoes a pending mistake in time ends it."""
    for c in facts.acts.corrections:
        s = table.seat_of.get(c.who, c.who)
        table.correct(s, c.points, c.holes)
        for p in table.pending:
            if p.status != "open" or p.offender != s:
                continue
            if p.kind in ("par-trop", "fausse") and -c.points == p.amount:
                p.status = "erased"
                close_mistake(table, p, found, erased=True)
            elif p.kind in ("par-moins", "impossible") and c.points == p.amount:
                p.status = "closed"  # corrected in time: no mistake left


def _apply_fait_marquer(table: TableState, facts: CoupFacts, found: Findings) -> None:
    """``X:fait-marquer(Y+N)``: X obliges Y to mark points he omitted or the rest of an
    école he marked short (RULES.md §7.3; 003 §186: « il faut l'empêcher, et obliger
    l'adversaire à marquer le trou »; 003 §187: « on l'oblige à marquer le trou, en
    marquant l'école entière »).  Marked on Y's jeton as if Y had marked it; his
    omission stays his école par moins."""
    for d in facts.acts.fait_marquer:
        x, y = table.seat_of.get(d.who, d.who), table.seat_of.get(d.mark.who, d.mark.who)
        n = d.mark.points
        w = table.where(facts.coup, d.span)
        omitted = [
            p
            for p in table.pending
            if p.status == "open" and p.kind == "par-moins" and p.offender == y and p.claimant == x and p.amount >= n
        ]
        short = [
            p
            for p in table.closed
            if p.status == "claimed"
            and p.claimant == y
            and p.offender == x
            and 0 < p.claimed
            and p.claimed + n <= p.amount
        ]
        if omitted:
            p = omitted[0]
            p.status, p.claimed = "claimed", 0
            table.closed.append(p)
            found.add(
                "ecole-par-moins",
                p.where,
                who=y,
                entitled=p.entitled,
                marked=p.marked,
                detail="fait-marquer",
            )
        elif short:
            short[-1].claimed += n  # the whole école, at the offender's demand (003 §187)
        else:
            found.add(
                "remedy-not-allowed",
                w,
                who=x,
                detail="fait-marquer",
            )
        table.mark_std(y, even(n))


def _erasures_in_written_order(facts: CoupFacts) -> list[tuple[Remet, bool, bool]]:
    """Each ``X:remet(Y-N)`` that takes points off the opponent, with what the written
    order says of it (RULES.md §7.3-7.4): (the erasure, X claims an école after it, Y
    claims one after it).  An erasure followed by the eraser's own claim is part of that
    claim — he undoes an école to mark a fausse école, 003 §187 (last example), §194 —
    and is judged with it; one followed by the victim's claim is judged before the
    claims, so that the claim can answer it."""
    written = list(facts.coup.before) + list(facts.coup.after)
    out = []
    for k, a in enumerate(written):
        if not isinstance(a, Remet) or a.points >= 0 or a.who == a.target:
            continue
        later = [b.claimant for b in written[k + 1 :] if isinstance(b, Ecole)]
        out.append((a, a.who in later, a.target in later))
    return out


def _judge_erasure(table: TableState, facts: CoupFacts, r: Remet, found: Findings) -> None:
    """``X:remet(Y-N)`` beyond Y's points open to a claim (over-marked points X may simply
    erase, 001 r.56; 003 §187): X takes points Y was owed, believing Y made an école.
    No école by 003 §181 (« on efface ses points, sans les marquer, on ne fait pas
    école »); an école of every point taken by 001 r.67 (« vous êtes à l'école de tous
    les points dont vous l'avez privé »), which Y may claim until he throws: the
    profile's ``erasing_opponent_ecole`` (RULES.md §7.6, §10 D34)."""
    x, y = table.seat_of.get(r.who, r.who), table.seat_of.get(r.target, r.target)
    open_to_erase = sum(
        p.erase
        for p in table.pending
        if p.status == "open" and p.offender == y and p.claimant == x and p.kind in ("par-trop", "fausse")
    )
    wrong = -r.points - open_to_erase
    if wrong <= 0:
        return
    who, whom = table.letter(x), table.letter(y)
    if not table.profile.erasing_opponent_ecole:
        table.notes.append(
            Note.of("erased-no-ecole", coup=facts.coup.number, who=who, n=wrong, whom=whom, profile=table.profile.name)
        )
        return
    where = table.where(facts.coup, r.span)
    table.pending.append(Pending("fausse", x, y, wrong, where, 0, wrong, detail="erased", this_coup=True))


def _apply_remets(table: TableState, facts: CoupFacts, early: list[Remet], found: Findings) -> None:
    """``X:remet(Y±N)``: X moves Y's jeton apart from any claim of his own (003 §187:
    « l'adversaire vous remet à huit points, et en marque quatre. On se contente
    d'effacer ces quatre points, et l'on se remet à dix »).  Erasing points of an
    open false école is no école, and leaves the école to claim (the points are
    already off); restoring one's own jeton undoes a wrong remet."""
    for r in facts.acts.remets:
        if not any(r is q for q in early):
            _remet(table, r, found)


def _remet(table: TableState, r: Remet, found: Findings) -> None:
    x, y = table.seat_of.get(r.who, r.who), table.seat_of.get(r.target, r.target)
    table.correct(y, r.points, r.holes)
    if r.points < 0 and x != y:
        left = -r.points
        for p in table.pending:
            if p.status == "open" and p.offender == y and p.claimant == x and p.kind in ("par-trop", "fausse"):
                taken = min(left, p.erase)
                p.erase -= taken
                left -= taken
                if taken and not p.erase and p.kind == "fausse":
                    # his false claim erased: « on se contente d'effacer » (003 §187; 001 r.56)
                    p.status = "erased"
                    close_mistake(table, p, found, erased=True)


# -- the entitled ledger -------------------------------------------------------------
def _mark_entitled(table: TableState, facts: CoupFacts, tally: MarkTally) -> None:
    roller, other, gains, receipts = facts.roller, facts.other, facts.gains, facts.receipts
    ent = table.ent
    roller_gains(ent, roller, gains, receipts)
    if facts.left:
        ent.leave(roller, force=True)
    else:
        due = receipts + sum(p.amount for p in tally.new if p.kind in ("must-fill", "must-conserve"))
        if due:
            mark_points(ent, other, even(due))
    table.in_sync = table.std.state == ent.state
