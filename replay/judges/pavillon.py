"""Judge of the pavillon of the written game (RULES.md §5.4; 001 r.58)."""

from __future__ import annotations

from dataclasses import replace

from ...notation.record import Pavillon
from .table import TableState, Where


class PavillonJudge(TableState):
    pav_due: dict[str, Where]  # seat -> where he earned a pavillon not yet taken
    pav_lost: set[str]  # seats whose pavillon was lost for want of taking it

    def _pavillon(self, holes0: tuple[int, int], claims: list[Pavillon], where: Where) -> None:
        """The second player to take holes, while the first took none in between, sets
        it; it must be taken before the next hole is marked by either player, or it is
        lost (bonne compagnie: always acknowledged, 001 III on r.58)."""
        h1 = (self.std.holes("A"), self.std.holes("B"))
        claimed = self._pavillons_taken(claims, where)
        # a hole taken now ends the time to take a pavillon earned earlier (001 r.58)
        if h1 != holes0:
            self._pavillons_expire(where)
        # a pavillon earned now: his first hole while the opponent has holes (RULES.md §5.4)
        for i, seat in enumerate(("A", "B")):
            if holes0[i] == 0 and h1[i] > 0 and holes0[1 - i] > 0 and self.std[seat].pavillon and seat not in claimed:
                self.pav_due[seat] = where

    def _pavillons_taken(self, claims: list[Pavillon], where: Where) -> set[str]:
        claimed = set()
        for c in claims:
            seat = self.seat_of.get(c.who, c.who)
            claimed.add(seat)
            if seat in self.pav_due:
                del self.pav_due[seat]
            elif seat in self.pav_lost:
                self.notes.append(f"coup {where.coup}: {c.who} takes his pavillon too late (001 r.58)")
            elif seat not in ("A", "B") or not self.std[seat].pavillon:
                w = replace(where, span=c.span if c.span.line else where.span)
                self._finding(
                    "bredouille-lost",
                    w,
                    f"{c.who} takes the pavillon, but his holes are not uninterrupted",
                    who=seat,
                    detail="pavillon-not-due",
                    consequence="the pavillon is taken off, no école (RULES.md §5.4; 003 §223)",
                )
        return claimed

    def _pavillons_expire(self, where: Where) -> None:
        for seat, w in list(self.pav_due.items()):
            if w.index == where.index:
                continue
            del self.pav_due[seat]
            if self.profile.pavillon_deadline:
                self._finding(
                    "bredouille-lost",
                    w,
                    f"{self._letter(seat)} did not take the pavillon his hole earned before the next hole was marked",
                    who=seat,
                    detail="pavillon",
                    consequence="the pavillon is lost, no école (001 r.58)",
                )
                self._correct(seat, 0, 0, pavillon=False)
                self.pav_lost.add(seat)
                self.in_sync = False
            else:
                self.notes.append(
                    f"{self._letter(seat)}'s pavillon, not taken in time, is acknowledged (001 III on r.58)"
                )
