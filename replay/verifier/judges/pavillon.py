"""Judge of the pavillon of the written game (RULES.md §5.4; 001 r.58).
Entry point: :func:`judge_pavillon`, after the coup's marks."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..findings import Note, Where
from .table import TableState

if TYPE_CHECKING:  # pragma: no cover
    from ....notation.record import Pavillon
    from ..findings import Findings


def judge_pavillon(
    table: TableState, holes0: tuple[int, int], claims: list[Pavillon], where: Where, found: Findings
) -> None:
    """The second player to take holes, while the first took none in between, sets
    it; it must be taken before the next hole is marked by either player, or it is
    lost (bonne compagnie: always acknowledged, 001 III on r.58)."""
    h1 = (table.std.holes("A"), table.std.holes("B"))
    claimed = _pavillons_taken(table, claims, where, found)
    # a hole taken now ends the time to take a pavillon earned earlier (001 r.58)
    if h1 != holes0:
        _pavillons_expire(table, where, found)
    # a pavillon earned now: his first hole while the opponent has holes (RULES.md §5.4)
    for i, seat in enumerate(("A", "B")):
        if holes0[i] == 0 and h1[i] > 0 and holes0[1 - i] > 0 and table.std[seat].pavillon and seat not in claimed:
            table.partie.pav_due[seat] = where


def _pavillons_taken(table: TableState, claims: list[Pavillon], where: Where, found: Findings) -> set[str]:
    claimed = set()
    for c in claims:
        seat = table.seat_of.get(c.who, c.who)
        claimed.add(seat)
        if seat in table.partie.pav_due:
            del table.partie.pav_due[seat]
        elif seat in table.partie.pav_lost:
            table.notes.append(Note.of("pavillon-late", coup=where.coup, who=c.who))
        elif seat not in ("A", "B") or not table.std[seat].pavillon:
            w = replace(where, span=c.span if c.span.line else where.span)
            found.add(
                "bredouille-lost",
                w,
                who=seat,
                detail="pavillon-not-due",
            )
    return claimed


def _pavillons_expire(table: TableState, where: Where, found: Findings) -> None:
    for seat, w in list(table.partie.pav_due.items()):
        if w.index == where.index:
            continue
        del table.partie.pav_due[seat]
        if table.profile.pavillon_deadline:
            found.add(
                "bredouille-lost",
                w,
                who=seat,
                detail="pavillon",
            )
            table.correct(seat, 0, 0, pavillon=False)
            table.partie.pav_lost.add(seat)
            table.in_sync = False
        else:
            table.notes.append(Note.of("pavillon-acknowledged", who=table.letter(seat)))
