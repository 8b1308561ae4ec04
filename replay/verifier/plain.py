"""The plain coup: the usual coup of a clean record, walked in one step (issue 17).

Most coups of a record are *plain*: the side to move throws and plays, and
each player marks exactly what the rules give, nothing else written but *je reste* (a
hole marked and no leave written: he stays, §6.1).
:func:`walk_plain_coup` recognises such a coup and walks it with the same rules the
full course uses — the play proved legal by :func:`.direct.direct_play`
(RULES.md §3), scored by :func:`.scoring.play_outcome` (§4), marked on both ledgers by
:func:`.judges.marks.mark_as_entitled` (§4.1, §5.2) — without building the coup's
facts for the judges.  Anything else (a mistake, a leave, a sortie, a claim,
a first throw out of turn, a trace to keep) is left to the full course,
:meth:`.verify._Verifier.coup`, before anything has changed: the plain walk never
reports a finding the full course would not, nor misses one
(``tests/test_plain_coup.py`` compares both on injected mistakes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...notation.record import Comment, Decision, Glyph, Mark, Move
from ..rules.direct import direct_play
from ..rules.moves import Play
from ..rules.position import start_position
from ..rules.scoring import play_outcome
from .findings import Where
from .judges.marks import EntitledMarks, mark_as_entitled
from .judges.result import partie_over_after
from .judges.table import HOLE, moves_of
from .recover import bad_tokens, first_expected

if TYPE_CHECKING:  # pragma: no cover
    from ...notation.record import Coup
    from .findings import Findings
    from .judges.table import TableState

__all__ = ["plain_table", "walk_plain_coup"]

#: what a plain coup may write beside its marks: nothing the judges read
_SILENT = (Comment, Glyph)


def plain_table(table: TableState) -> bool:
    """Can the table take plain coups at all (checked once per coup, before the coup)?
    Not with a trace to keep, a compact record, a mistake pending a claim, the
    ledgers apart, the partie over, a pavillon to judge, or every play enumerated."""
    return (
        not table.keep_trace
        and not table.compact
        and not table.pending
        and table.in_sync
        and table.direct_judge
        and table.partie.over is None
        and not table.partie.pav_check
    )


class _Marks:
    """The marks of a plain coup as ``judges.table.read_actions`` sorts them: the
    roller's before his play, the receiver's, and their sums."""

    __slots__ = ("other", "other_sum", "reste", "roller", "roller_sum")

    def __init__(self) -> None:
        self.roller: list[Mark] = []
        self.other: list[Mark] = []
        self.roller_sum = self.other_sum = 0
        self.reste = False  # a "je reste" written


_NO_MARKS = _Marks()  # a coup that writes no action (never changed)


def _written_marks(coup: Coup, seat_of: dict[str, str], roller: str) -> _Marks | None:
    """The coup's marks when it writes nothing else (but a *je reste*); None otherwise."""
    marks = _Marks()
    for part, written in ((0, coup.before), (1, coup.after)):
        for a in written:
            if type(a) is Mark:
                if seat_of.get(a.who, a.who) != roller:
                    marks.other.append(a)
                    marks.other_sum += a.points
                elif part == 0:
                    marks.roller.append(a)
                    marks.roller_sum += a.points
                else:
                    return None  # the roller marks after playing: the gains judge's
            elif type(a) is Decision and not a.leave:
                marks.reste = True  # je reste: with his checkers played it changes nothing (§6.1)
            elif not isinstance(a, _SILENT):
                return None
    return marks


def walk_plain_coup(table: TableState, coup: Coup, found: Findings) -> bool:
    """Walk ``coup`` when it is plain (see the module) and say True; False, with
    nothing changed, sends it to the full course.  Call only when :func:`plain_table`."""
    pos = table.pos
    moves = coup.moves
    roller = table.seat_of.get(coup.side)
    if pos is None:  # the relevé's first throw: the primauté's (RULES.md §9.3)
        # the primauté's player, or either when none is; several players: the full course's
        if roller is None or table.partie.multi is not None or first_expected(table) not in (None, coup.side):
            return False
        pos = start_position(roller)
    elif roller != pos.turn:
        return False
    if not moves:  # nothing played: a leave, the gains that end the partie
        return False
    written_marks = _written_marks(coup, table.seat_of, roller) if coup.before or coup.after else _NO_MARKS
    if written_marks is None:
        return False
    if table.recover:  # a move the reader could not read on this line: recovery's
        bad = bad_tokens(table)  # indexed once a game
        if bad and coup.span.line in bad:
            return False
    profile, roll = table.profile, coup.roll
    written: tuple[tuple[int, int] | int, ...]  # declared: one type for both branches (mypyc checks it)
    if len(moves) == 2 and type(moves[0]) is Move and type(moves[1]) is Move:
        written = ((moves[0].from_, moves[0].to), (moves[1].from_, moves[1].to))
    else:
        written = moves_of(moves)  # a checker played tout d'une, a number unplayable (§3.4)
    play = direct_play(pos, roll, written, profile)  # not remembered: a plain coup is not asked again
    if type(play) is not Play or play.result[25] == 15:  # not proved legal, or a sortie (§4.9)
        return False
    score, after = play_outcome(pos, roll, play, profile)
    gains, receipts = score.mover, score.other
    if written_marks.roller_sum != gains or written_marks.other_sum != receipts:
        return False  # a wrong mark: the marks judge's
    if written_marks.reste and table.std.points(roller) + gains < HOLE:
        return False  # "je reste" with no hole to decide on: the full course notes it
    # the course of a plain coup (verify._Verifier.coup): the throw, the play, the marks
    table.hole_log.clear()
    table.score_mid = None
    table.primaute = None
    table.releve_over = False
    if gains or receipts:
        where = Where(table.game, table.marque, table.releve, coup.number, table.index, coup.span)
        other = "B" if roller == "A" else "A"
        marks = EntitledMarks(
            roller, other, coup.side, gains, receipts, written_marks.roller, written_marks.other, where
        )
        mark_as_entitled(table, marks, found)  # a hole too: he stays, as he wrote no leave
    else:
        table.std.stay(roller)
        table.ent.stay(roller)
    if table.pos is None:
        table.partie.marque_fresh = False
        if table.marque_first is None:
            table.marque_first = roller
    table.pos = after
    if table.partie.kind is not None and table.std.most_holes() >= HOLE:
        partie_over_after(table, coup.side, coup.number, False)  # twelve holes (§8.1)
    return True
