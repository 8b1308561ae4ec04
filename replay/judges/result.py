"""Judge of the end: of a partie en douze trous, of a marqué, of a partie à écrire or of
several players, and of the ``Result`` header (RULES.md §8; 003 §218-226, §241-244)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..game import marque_bredouille
from ..partie import (
    MarqueLine,
    PartieSpec,
    marque_outcome,
    marque_value,
    settle_partie,
    twelve_hole_multiplier,
    twelve_hole_winner,
)
from .table import TableState, Where

if TYPE_CHECKING:  # pragma: no cover
    from ...notation.record import MarqueResult
    from ..ledger import ScoreState


class ResultJudge(TableState):
    over: str | None  # why the partie or the marqué is over
    over_reported: bool
    over_state: ScoreState | None  # the score when the partie ended
    winners: list[tuple[str | None, int]]  # (winner, value) of every marqué
    refaits: int
    marque_open: bool
    marque_first: str | None
    primaute: str | None
    multi: tuple[str, tuple[str, ...]] | None
    multi_lines: list[Any]
    multi_first: str | None
    multi_expected: str | None
    partie_marques: int | None
    marques: list[dict[str, Any]]
    releve_over: bool

    def _douze_trous_outcome(self) -> dict[str, Any] | None:
        """A finished partie en douze trous: its winner (player letter), the holes
        (winner's, loser's) and the stake multiplier of the profile (RULES.md §8.1, §10 D1;
        002 « Partie en douze trous »); coups after the end do not count."""
        if self.partie_kind != "douze-trous":
            return None
        st = self.over_state or self.std.state
        winner = twelve_hole_winner(st)
        if winner is None:
            return None
        loser = "B" if winner == "A" else "A"
        w, lo = st[winner].holes, st[loser].holes
        try:
            mult = twelve_hole_multiplier(w, lo, st[winner].pavillon, self.profile)
        except ValueError:
            return None
        return {
            "winner": self._letter(winner),
            "holes": [w, lo],
            "multiplier": mult,
            "rule": self.profile.twelve_hole_multiplier,
        }

    # -- the Result header ---------------------------------------------------------------
    def _check_result(self, text: str) -> None:
        """The ``Result`` header against the record (RULES.md §8.1-8.2).

        Understood forms (those ``trictrac selfplay`` writes): ``*`` (unfinished);
        douze trous ``A`` or ``A 12-7`` (winner, his holes - the loser's); a partie à
        écrire ``A 3-1`` (marqués won by A - by B; ``=`` for no winner); several players
        ``A:2 B:1 C:0``.  Anything else is free text, noted and not checked.
        """
        v = text.strip()
        where = Where(self.game, self.marque, self.releve, 0, -1, self.rec.span)
        if self.marque_open and self.index > 0:
            self._unwritten_result()
            self.marque_open = False
        problems: list[str] | None
        if self.partie_kind == "douze-trous":
            problems = self._douze_trous_result(v)
        elif self.partie_kind == "a-ecrire" and not self.rec.start:
            problems = self._a_ecrire_result(v)
        elif self.multi is not None and not self.rec.start:
            problems = self._players_result(v)
        else:
            return  # nothing the record can be checked against
        if problems is None:
            self.notes.append(f"Result {v!r}: free text, not checked")
        elif problems:
            self._finding(
                "result-mismatch",
                where,
                f'Result "{v}": ' + "; ".join(problems),
                consequence="the Result header must follow the record (RULES.md §8.1-8.2)",
            )

    def _won(self) -> tuple[dict[str, int], dict[str, int]]:
        """Marqués won and their values, by player letter."""
        won: dict[str, int] = {}
        values: dict[str, int] = {}
        for w, val in self.winners:
            if w:
                won[w] = won.get(w, 0) + 1
                values[w] = values.get(w, 0) + val
        return won, values

    def _douze_trous_result(self, v: str) -> list[str] | None:
        st = self.over_state or self.std.state  # coups after the end do not count
        winner = twelve_hole_winner(st)
        wl = self._letter(winner) if winner else None
        m = re.fullmatch(r"([A-D])(?:\s+(\d+)-(\d+))?", v)
        if v == "*":
            return [f"written unfinished, but {wl} has {st[winner].holes} holes"] if winner else []
        if not m:
            return None
        if winner is None:
            return [f"{m.group(1)} is written the winner, but nobody has twelve holes ({st.a.holes}-{st.b.holes})"]
        if m.group(1) != wl:
            return [f"{m.group(1)} is written the winner, but {wl} has twelve holes"]
        lo = st.b.holes if winner == "A" else st.a.holes
        if m.group(2) is not None and (int(m.group(2)), int(m.group(3))) != (st[winner].holes, lo):
            return [f"the holes are {st[winner].holes}-{lo}, written {m.group(2)}-{m.group(3)}"]
        return []

    def _a_ecrire_result(self, v: str) -> list[str] | None:
        total = self.partie_marques
        decided = sum(1 for w, _v in self.winners if w)
        m = re.fullmatch(r"([A-D]|=)\s+(\d+)-(\d+)", v)
        if v == "*":
            return [f"written unfinished, but the {total} marqués are decided"] if total and decided >= total else []
        if not m:
            return None
        won, values = self._won()
        problems = []
        got = (int(m.group(2)), int(m.group(3)))
        real = (won.get("A", 0), won.get("B", 0))
        if got != real:
            problems.append(f"the marqués won are {real[0]}-{real[1]}, written {got[0]}-{got[1]}")
        if total and decided < total:
            problems.append(f"only {decided} of the {total} marqués are decided")
        else:
            # the partie goes to the larger sum of marqué values (RULES.md §8.2)
            va, vb = values.get("A", 0), values.get("B", 0)
            best = "=" if va == vb else ("A" if va > vb else "B")
            if m.group(1) != best:
                problems.append(f"the marqués' values are {va}-{vb}: the winner is {best}, written {m.group(1)}")
        return problems

    def _players_result(self, v: str) -> list[str] | None:
        pairs = re.findall(r"([A-D]):(\d+)", v)
        if pairs and " ".join(f"{p}:{n}" for p, n in pairs) == " ".join(v.split()):
            won, _values = self._won()
            return [f"{p} won {won.get(p, 0)} marqués, written {n}" for p, n in pairs if int(n) != won.get(p, 0)]
        return [] if v == "*" else None

    # -- the end of a partie or a marqué ----------------------------------------------------
    def _after_end(self, where: Where) -> None:
        """Coups or relevés after the end (RULES.md §8.1-8.2): reported once."""
        if self.over_reported or self.over is None:
            return
        self.over_reported = True
        marque = "marqué" in self.over
        self._finding(
            "play-after-end",
            where,
            f"play goes on although {self.over}",
            detail="marque" if marque else "partie",
            consequence=(
                "a marqué ends when someone leaves while someone has six holes: its result "
                "should be written here (RULES.md §8.2)"
                if marque
                else "the first to twelve holes wins; later coups do not count (RULES.md §8.1)"
            ),
        )

    def _unwritten_result(self) -> None:
        """A marqué that ended (a leave with six holes) without a written result (compact
        records); one that never ended is not counted (RULES.md §8.2; 003 §221)."""
        if self.over is None or "marqué" not in self.over:
            return
        st = self.std.state
        if st.a.holes == st.b.holes:
            self.winners.append((None, 0))
            self.refaits += 1
            return
        seat = "A" if st.a.holes > st.b.holes else "B"
        self.winners.append((self._letter(seat), self._value_of(st, seat)))
        self.refaits = 0

    def _value_of(self, st: ScoreState, seat: str) -> int:
        w, lo = st[seat].holes, st["B" if seat == "A" else "A"].holes
        try:
            return marque_value(w, lo, pavillon=st[seat].pavillon, refaits=self.refaits, profile=self.profile).value
        except ValueError:
            return 0

    def visit_marque_result(self, el: MarqueResult) -> None:
        if self.over is not None and "marqué" in self.over:
            self.over, self.over_reported = None, False
        self.marque_open = False
        st = self.std.state
        ha, hb = st.a.holes, st.b.holes
        problems = self._marque_result_problems(el, st)
        exp_winner = None if ha == hb else self._letter("A" if ha > hb else "B")
        # primauté of the next marqué: the winner (003 §221) or the leaver (D21); after a
        # refait whoever had it keeps it (003 §226)
        if ha == hb:
            self.primaute = self.marque_first
        elif self.profile.primaute_after_marque_leave == "winner":
            self.primaute = "A" if ha > hb else "B"
        if self.multi is not None:
            self._multi_after(exp_winner, ha, hb, st)
        self.marque_first = None
        # the value counts the refaits before this marqué (003 §226), so it is taken first
        value = self._value_of(st, "A" if ha > hb else "B") if exp_winner else 0
        self.winners.append((exp_winner, value))
        self.refaits = self.refaits + 1 if (ha == hb) else 0
        self.marques.append({"number": self.marque, "winner": exp_winner, "holes": [ha, hb], "value": value})
        if problems:
            self._finding(
                "marque-result-mismatch",
                self._where(None, el.span),
                "; ".join(problems),
                consequence="the score sheet must follow the holes of the record (RULES.md §8.2)",
            )
        self.releve_over = True

    def _marque_result_problems(self, el: MarqueResult, st: ScoreState) -> list[str]:
        """The written result of a marqué against its holes (RULES.md §8.2; 003 §221-226)."""
        ha, hb = st.a.holes, st.b.holes
        if ha == hb:
            return [] if el.refait else [f"the holes are equal ({ha}-{hb}): a refait (003 §226)"]
        problems = []
        seat = "A" if ha > hb else "B"
        exp_winner = self._letter(seat)
        w, lo = max(ha, hb), min(ha, hb)
        if el.refait or el.winner != exp_winner:
            problems.append(f"the winner is {exp_winner} ({w}-{lo})")
        if (el.winner_holes, el.loser_holes) != (w, lo):
            problems.append(f"the holes are {w}-{lo}, written {el.winner_holes}-{el.loser_holes}")
        bred = marque_bredouille(w, st[seat].pavillon, self.profile)
        if el.bredouille != bred:
            problems.append(f"bredouille is {bred}, written {el.bredouille}")
        if el.value is not None:
            try:
                val = marque_value(w, lo, pavillon=st[seat].pavillon, refaits=self.refaits, profile=self.profile).value
            except ValueError:
                val = None
            if val is not None and val != el.value:
                problems.append(f"the value is {val}, written {el.value}")
        return problems

    def _multi_after(self, winner: str | None, ha: int, hb: int, st: ScoreState) -> None:
        """The next marqué's primauté in a partie of several players, from the rotation of
        ``replay.partie`` (RULES.md §8.3): 003 §241, §244 (the one who stays), 003 §242 (the
        chouette, then alternately), 003 §226 (after a refait, whoever had it)."""
        assert self.multi is not None
        kind, players = self.multi
        if winner is None:
            self.multi_lines.append(MarqueLine(refait_holes=ha))
        else:
            seat = "A" if ha > hb else "B"
            loser = self._letter("B" if seat == "A" else "A")
            leaver = self._letter(self.primaute) if self.primaute is not None else None
            self.multi_lines.append(
                MarqueLine(
                    winner=winner,
                    holes=(max(ha, hb), min(ha, hb)),
                    pavillon=st[seat].pavillon,
                    loser=loser,
                    leaver=leaver,
                )
            )
        spec = PartieSpec(kind=kind, players=players, marques=len(self.multi_lines) + 1, primaute=self.multi_first)
        try:
            det = settle_partie(spec, self.multi_lines + [MarqueLine()], self.profile).detail[-1]
        except ValueError:  # results that do not fit the rotation: no expectation
            self.multi_expected = None
            return
        self.multi_expected = det.get("primaute")

    def _partie_over_after(self, side: str, coup_number: int, left: bool) -> None:
        """Has this coup ended the partie (twelve holes) or the marqué (a leave with six
        holes)?  (RULES.md §8.1-8.2; 003 §218, §221)"""
        if self.over is not None or self.partie_kind is None:
            return
        if not (left or self.std.holes("A") >= 12 or self.std.holes("B") >= 12):
            return
        st = self.std.state
        if self.partie_kind == "douze-trous":
            if twelve_hole_winner(st) is not None:
                self.over = f"the partie ended at coup {coup_number} ({st.a.holes}-{st.b.holes} holes, 003 §218)"
                self.over_state = st
        elif left and marque_outcome(st, self.profile) is not None:
            self.over = (
                f"the marqué ended when {side} left at coup {coup_number} with "
                f"{st.a.holes}-{st.b.holes} holes (003 §221)"
            )
