"""Judge of the decisions: s'en aller or rester, and the right to leave (RULES.md §6;
003 §155-157, §170, §173; 001 r.25, r.36, r.54).  Entry points: :func:`leave_right_lost`,
:func:`judge_said_leave_then_played`, :func:`leave_forfeited`, :func:`check_leave`,
:func:`gains_end_partie`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....notation.record import Mark, Move
from ...rules.course import DOUZE_TROUS
from ...rules.course import gains_end_partie as course_gains_end_partie
from ...rules.ledger import Ledger
from .play import roll_score
from .table import HOLE, CoupFacts, TableState, even, marks_sum

if TYPE_CHECKING:  # pragma: no cover
    from ...rules.ledger import ScoreState
    from ...rules.position import Position
    from ..findings import Findings


def holes_of(table: TableState, st0: ScoreState, seat: str, points: int) -> int:
    """Holes (double ones count 2) that ``points`` of ``seat``'s own make from ``st0``."""
    if points <= 1:
        return 0
    return Ledger(table.profile, st0).mark(seat, even(points), own=True).holes_won


def _holes_over(table: TableState, st0: ScoreState, seat: str, gains: int, marks: list[Mark]) -> bool:
    """Did the marks make more holes than the gains (RULES.md §6.4; 003 §173; 001 r.54)?"""
    if not marks:
        return False
    written = [m.holes for m in marks if m.holes is not None]
    marked = sum(m.points for m in marks)
    h = sum(written) if written else holes_of(table, st0, seat, marked)
    return h > holes_of(table, st0, seat, gains)


def leave_forfeited(table: TableState, facts: CoupFacts) -> bool:
    """No right to leave: no hole of his own throw, or holes over-marked (RULES.md §6.1, §6.4)."""
    st0 = table.std.state
    return st0[facts.roller].points + facts.gains < HOLE or _holes_over(
        table, st0, facts.roller, facts.gains, facts.acts.roller_marks
    )


def gains_end_partie(table: TableState, roller: str, pos: Position, roll: tuple[int, int]) -> bool:
    """Do the roller's gains give him his twelfth hole (the partie en douze trous ends
    on them and nothing is played, RULES.md §8.1; 003 §218)?  ``course.gains_end_partie``."""
    kind = table.partie.kind
    if kind != DOUZE_TROUS:
        return False
    return course_gains_end_partie(kind, table.std, roller, roll_score(table, pos, roll).mover)


def check_leave(table: TableState, facts: CoupFacts, marked: int, st0: ScoreState, found: Findings) -> None:
    """S'en aller: own gains must complete a hole, and the holes must not be
    over-marked (RULES.md §6.1, §6.4, §6.5; 003 §170, §173; 001 r.54)."""
    roller, gains = facts.roller, facts.gains
    own_hole = st0[roller].points + gains >= HOLE
    w = table.where(facts.coup, facts.acts.leave_span)
    sortie = any(isinstance(m, Move) and m.to == 25 for m in facts.coup.moves)
    if not own_hole:
        kind = "leave-at-sortie" if sortie else "leave-without-right"
        found.add(
            kind,
            w,
            who=roller,
            entitled=gains,
            marked=marked,
        )
    elif marked > gains and _holes_over(table, st0, roller, gains, facts.acts.roller_marks):
        found.add(
            "leave-without-right",
            w,
            who=roller,
            entitled=gains,
            marked=marked,
            detail="over-marked",
        )


def leave_right_lost(table: TableState, facts: CoupFacts, found: Findings) -> bool:
    """The right to leave followed through the coup's actions in order (RULES.md §6.1;
    003 §156: « Pour avoir le droit de s'en aller, il faut achever le trou de son coup,
    n'avoir pas marqué les points de reste, ne pas avoir dit : Je reste »; 001 r.40).

    Set when his own gains complete the hole; lost by a separate mark after the one
    that completes it (the reste laid on the board, 003 §161), by *je reste*, or by
    moving his checkers — except at the sortie, where he decides after playing
    (003 §163).  A leave written for the player who did not throw is without right
    (003 §186, §217).  True when the roller's leave is refused: he stays."""
    acts = facts.acts
    if acts.other_leave is not None:
        found.add(
            "leave-without-right",
            table.where(facts.coup, acts.other_leave.span),
            who=facts.other,
            entitled=0,
            marked=0,
            detail="not-roller",
        )
    if acts.leave is not True or facts.sortie:
        return False
    st0 = table.std.state
    need = HOLE - st0[facts.roller].points
    if need > facts.gains:
        return False  # no hole of his own throw: _check_leave says so
    lost = None
    marks = acts.roller_marks[: acts.leave_marks]
    if acts.said_reste:
        lost = "said-reste"
    elif acts.leave_after_play and facts.moves:
        lost = "touched"
    elif any(m.points > 0 for m in marks[_hole_mark(marks, need) + 1 :]):
        lost = "reste-marked"
    if lost is None:
        return False
    found.add(
        "leave-without-right",
        table.where(facts.coup, acts.leave_span),
        who=facts.roller,
        entitled=facts.gains,
        marked=marks_sum(acts.roller_marks),
        detail=lost,
    )
    return True


def _hole_mark(marks: list[Mark], need: int) -> int:
    """Index of the mark that completes the hole: the last one that writes holes, else
    the first that brings his points to ``need``."""
    written = [i for i, m in enumerate(marks) if m.holes]
    if written:
        return written[-1]
    done = 0
    for i, m in enumerate(marks):
        done += m.points
        if done >= need:
            return i
    return len(marks)


def judge_said_leave_then_played(table: TableState, facts: CoupFacts, found: Findings) -> None:
    """He said "je m'en vais" and played without bearing off (RULES.md §6.1; 003 §155-156)."""
    w = table.where(facts.coup, facts.acts.leave_span)
    if facts.forced_by_replay and not facts.forced_stay:
        found.add(
            "remedy-not-allowed",
            w,
            who=facts.other,
            detail="right-to-leave",
        )
    elif not facts.forced_stay:
        found.add(
            "stay-after-leave",
            w,
            who=facts.roller,
        )
