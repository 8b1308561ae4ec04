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
    side, roller, gains = facts.side, facts.roller, facts.gains
    own_hole = st0[roller].points + gains >= HOLE
    w = table.where(facts.coup, facts.acts.leave_span)
    sortie = any(isinstance(m, Move) and m.to == 25 for m in facts.coup.moves)
    if not own_hole:
        kind = "leave-at-sortie" if sortie else "leave-without-right"
        found.add(
            kind,
            w,
            f"{side} leaves with {st0[roller].points} points and a gain of {gains}: no hole of his own throw",
            who=roller,
            entitled=gains,
            marked=marked,
            consequence="école as soon as he lifts a checker; the opponent may make him stay and "
            "play the lifted checkers (003 §170; 001 r.25)",
        )
    elif marked > gains and _holes_over(table, st0, roller, gains, facts.acts.roller_marks):
        found.add(
            "leave-without-right",
            w,
            f"{side} leaves after marking {marked} for a gain of {gains}: over-marking his holes forfeits "
            "the right to leave",
            who=roller,
            entitled=gains,
            marked=marked,
            detail="over-marked",
            consequence="the opponent may force him to stay and school the excess (003 §173; 001 r.54)",
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
            f"{table.letter(facts.other)} leaves in {facts.side}'s coup: only the player who throws can leave, "
            "on a hole of his own throw",
            who=facts.other,
            entitled=0,
            marked=0,
            detail="not-roller",
            consequence="he stays; points given by the opponent's throw give no right to leave (003 §186, §217)",
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
        lost = "said-reste", 'he had said "je reste"'
    elif acts.leave_after_play and facts.moves:
        lost = "touched", "he had played his checkers"
    elif any(m.points > 0 for m in marks[_hole_mark(marks, need) + 1 :]):
        lost = "reste-marked", "he had marked his points de reste"
    if lost is None:
        return False
    found.add(
        "leave-without-right",
        table.where(facts.coup, acts.leave_span),
        f"{facts.side} leaves after {lost[1]}: he must stay",
        who=facts.roller,
        entitled=facts.gains,
        marked=marks_sum(acts.roller_marks),
        detail=lost[0],
        consequence="the leave is refused: he stays and keeps his points de reste (003 §156; 001 r.36, r.40)",
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
    play_text = facts.play.text() if facts.play else None
    w = table.where(facts.coup, facts.acts.leave_span)
    if facts.forced_by_replay and not facts.forced_stay:
        found.add(
            "remedy-not-allowed",
            w,
            f"{table.letter(facts.other)} made {facts.side} stay and play {play_text or '--'}, but his own "
            "gains gave him a hole: he had the right to leave",
            who=facts.other,
            detail="right-to-leave",
            consequence="the game goes on as the table played it (RULES.md §6.1; 003 §155)",
        )
    elif not facts.forced_stay:
        found.add(
            "stay-after-leave",
            w,
            f'{facts.side} said "je m\'en vais" and then played {play_text or "his checkers"}',
            who=facts.roller,
            consequence="words bind: the opponent may force him to leave (003 §156; 001 r.36)",
        )
