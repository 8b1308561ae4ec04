"""Judge of holes and bredouille as written: put right, never schooled (RULES.md §5.2,
§5.5, §7.5; 003 §144-145, §184; 001 r.48, r.51)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..ledger import Ledger
from .claims import ClaimsJudge
from .table import Where, even

if TYPE_CHECKING:  # pragma: no cover
    from ...notation.record import Mark
    from ..ledger import ScoreState


class HolesJudge(ClaimsJudge):
    # -- holes and bredouille as written ----------------------------------------------------
    def _check_holes(
        self,
        res: Any,
        points: tuple[int, int],
        marks: list[Mark],
        player: tuple[str, str],
        where: Where,
        st0: ScoreState | None = None,
    ) -> None:
        """Holes and bredouille as written against what the points make (RULES.md §5.2,
        §5.5, §7.5: corrected, never schooled; 003 §145, §184; 001 r.51).  ``points`` =
        (written, applied to the ledger); ``player`` = (seat, his letter as written)."""
        holes_written = [m.holes for m in marks if m.holes is not None]
        bred_written = [m.bredouille for m in marks if m.bredouille is not None]
        if not holes_written and not bred_written:
            return
        written, applied = points
        seat = player[0]
        if written != applied:  # the holes follow the points as written
            res = Ledger(self.profile, st0).mark(seat, even(written))
        lost_ok = written == applied and self.profile.late_bredouille_correction != "always"
        if holes_written and self._check_hole_count(
            res, (written, sum(holes_written)), bred_written, player, where, lost_ok
        ):
            return
        if bred_written:
            self._check_bredouille(res, bred_written[-1], player, where, lost_ok)

    def _check_hole_count(
        self,
        res: Any,
        written: tuple[int, int],
        bred_written: list[bool],
        player: tuple[str, str],
        where: Where,
        lost_ok: bool,
    ) -> bool:
        """The fichet moved as written (``written`` = (points, holes)); True when judged."""
        points, h = written
        seat, who = player
        made = sum(n for n, _ in res.holes)
        doubles = sum(1 for _n, d in res.holes if d)
        if h < made and made - h == doubles and bred_written[-1:] != [True]:
            # a double hole marked simple: lost once he plays or throws (RULES.md §5.5;
            # 003 §145, §191); bonne compagnie always corrects (001 III on r.48)
            self._finding(
                "bredouille-lost",
                where,
                f"{who} marked {'his double holes' if doubles > 1 else 'his double hole'} simple ({h} for {made})",
                who=seat,
                entitled=None,
                marked=None,
                detail="double-hole-marked-simple",
                consequence=(
                    "the bredouille is lost once he plays or throws, no école (003 §145, §191)"
                    if lost_ok
                    else "corrected (001 III on r.48)"
                ),
            )
            if lost_ok:
                self._correct(seat, 0, -doubles)
                self.in_sync = False
            return True
        if h != made:
            self._finding(
                "hole-mismatch",
                where,
                f"{who} moved his fichet {h} hole{'s' if h != 1 else ''} for {points} points, which make {made}",
                who=seat,
                entitled=made,
                marked=h,
                consequence="the holes are put right, no école (003 §184; 001 r.51)",
            )
            return True
        return False

    def _check_bredouille(self, res: Any, written: bool, player: tuple[str, str], where: Where, lost_ok: bool) -> None:
        """Bredouille as written (RULES.md §5.5; 003 §144-145; 001 r.48)."""
        seat, who = player
        due = any(d for _, d in res.holes) if res.holes else res.bredouille_after
        if written == due:
            return
        why = "his points were interrupted" if written else "it was due"
        if written and self._ecole_before(seat):
            why = "his own école, marked before the opponent's gain, interrupted it (001 r.64; 003 §200)"
        self._finding(
            "bredouille-lost",
            where,
            f"{who} marked {'in' if written else 'without'} bredouille but {why}",
            who=seat,
            consequence=(
                "the extra jeton is removed, no école (003 §144)"
                if written
                else "the bredouille is lost once he plays or throws, no école (003 §145)"
                if lost_ok
                else "corrected (001 III on r.48)"
            ),
        )
        if not written and lost_ok:
            # the table goes on without it (RULES.md §5.5; 003 §145; 001 r.48)
            doubles = sum(1 for _n, d in res.holes if d)
            if doubles:
                self._correct(seat, 0, -doubles)
            else:
                self._correct(seat, 0, 0, bredouille=False)
            self.in_sync = False
