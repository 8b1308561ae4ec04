"""Judge of holes and bredouille as written: put right, never schooled (RULES.md §5.2,
§5.5, §7.5; 003 §144-145, §184; 001 r.48, r.51).  Entry point: :func:`check_holes`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ...rules.ledger import Ledger
from ..findings import Where
from .table import TableState, even

if TYPE_CHECKING:  # pragma: no cover
    from ....notation.record import Mark
    from ...rules.ledger import ScoreState
    from ..findings import Findings


class HoleMarks(NamedTuple):
    """One player's marks of a coup, whose holes and bredouille are judged."""

    marks: list[Mark]
    seat: str
    letter: str  # his letter as written
    where: Where


def check_holes(
    table: TableState,
    res: Any,
    points: tuple[int, int],
    written: HoleMarks,
    found: Findings,
    st0: ScoreState | None = None,
) -> None:
    """Holes and bredouille as written against what the points make (RULES.md §5.2,
    §5.5, §7.5: corrected, never schooled; 003 §145, §184; 001 r.51).  ``points`` =
    (written, applied to the ledger); ``res`` the ledger's mark of the applied points."""
    marks = written.marks
    holes_written = [m.holes for m in marks if m.holes is not None]
    bred_written = [m.bredouille for m in marks if m.bredouille is not None]
    if not holes_written and not bred_written:
        return
    marked, applied = points
    if marked != applied:  # the holes follow the points as written
        res = Ledger(table.profile, st0).mark(written.seat, even(marked))
    lost_ok = marked == applied and table.profile.late_bredouille_correction != "always"
    if holes_written and _check_hole_count(table, res, (marked, sum(holes_written)), written, lost_ok, found):
        return
    if bred_written:
        _check_bredouille(table, res, bred_written[-1], written, lost_ok, found)


def _check_hole_count(
    table: TableState, res: Any, counts: tuple[int, int], written: HoleMarks, lost_ok: bool, found: Findings
) -> bool:
    """The fichet moved as written (``counts`` = (points, holes)); True when judged."""
    h = counts[1]
    seat = written.seat
    bred_written = [m.bredouille for m in written.marks if m.bredouille is not None]
    made = sum(n for n, _ in res.holes)
    doubles = sum(1 for _n, d in res.holes if d)
    if h < made and made - h == doubles and bred_written[-1:] != [True]:
        # a double hole marked simple: lost once he plays or throws (RULES.md §5.5;
        # 003 §145, §191); bonne compagnie always corrects (001 III on r.48)
        found.add(
            "bredouille-lost",
            written.where,
            who=seat,
            entitled=None,
            marked=None,
            detail="double-hole-marked-simple",
            outcome="lost" if lost_ok else "correct",
        )
        if lost_ok:
            table.correct(seat, 0, -doubles)
            table.in_sync = False
        return True
    if h != made:
        found.add(
            "hole-mismatch",
            written.where,
            who=seat,
            entitled=made,
            marked=h,
        )
        return True
    return False


def _check_bredouille(
    table: TableState, res: Any, bredouille: bool, written: HoleMarks, lost_ok: bool, found: Findings
) -> None:
    """Bredouille as written (RULES.md §5.5; 003 §144-145; 001 r.48)."""
    seat = written.seat
    due = any(d for _, d in res.holes) if res.holes else res.bredouille_after
    if bredouille == due:
        return
    found.add(
        "bredouille-lost",
        written.where,
        who=seat,
        outcome="removed" if bredouille else "lost" if lost_ok else "correct",
    )
    if not bredouille and lost_ok:
        # the table goes on without it (RULES.md §5.5; 003 §145; 001 r.48)
        doubles = sum(1 for _n, d in res.holes if d)
        if doubles:
            table.correct(seat, 0, -doubles)
        else:
            table.correct(seat, 0, 0, bredouille=False)
        table.in_sync = False
