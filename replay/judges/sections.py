"""The sections of a record: the kind of partie, a relevé or a marqué starting
(RULES.md §6.1, §8.2-8.3)."""

from __future__ import annotations

from typing import Any

from ...notation.reader import parse_partie
from ...notation.record import MarqueStart, Pavillon, Record, ReleveStart
from ..ledger import Ledger, ScoreState
from ..partie import RECORD_KINDS
from ..position import Position
from .pavillon import PavillonJudge
from .result import ResultJudge
from .table import Where


class SectionsJudge(ResultJudge, PavillonJudge):
    pos: Position | None

    def _init_partie(self, record: Record) -> None:
        """The kind of partie (the ``Partie`` tag) and what its end depends on."""
        tag = record.headers.get("Partie")
        kind = parse_partie(tag) if tag else None
        # parties of several players: who has the primauté of each marqué follows the
        # rotation of replay.partie (RULES.md §8.3; 003 §241-244), in player letters
        self.multi = RECORD_KINDS.get(kind[0]) if kind else None
        self.partie_kind = kind[0] if kind else None
        self.partie_marques = kind[1] if kind else None  # marqués of a partie à écrire
        self.over: str | None = None  # why the partie or the marqué is over (RULES.md §8.1-8.2)
        self.over_reported = False
        self.over_state: ScoreState | None = None  # the score when the partie ended
        # the pavillon of the written game, checked when the record writes it (001 r.58)
        self.pav_check = (self.partie_kind == "a-ecrire" or self.multi is not None) and any(
            isinstance(a, Pavillon) for c in record.coups for a in c.before + c.after
        )
        self.pav_due: dict[str, Where] = {}
        self.pav_lost: set[str] = set()
        self.winners: list[tuple[str | None, int]] = []  # (winner, value) of every marqué (Result check)
        self.marque_open = False  # a marqué whose result is not written yet
        self.multi_lines: list[Any] = []
        self.multi_first: str | None = None  # the drawn primauté of the first marqué
        self.multi_expected: str | None = None  # player letter expected to throw first
        self.marque_fresh = False
        self.refaits = 0

    # -- sections -------------------------------------------------------------------
    def visit_releve_start(self, el: ReleveStart) -> None:
        if self.over is not None:
            self._after_end(self._where(None, el.span))
        if not self.releve_over and self.index > 0:
            self._finding(
                "releve-without-leave",
                self._where(None, el.span),
                f"relevé {el.number} starts but nobody left and nobody bore off",
                consequence="the checkers should still be in play (RULES.md §6.1)",
            )
        self.releve = el.number
        self.releve_over = False
        self.pos = None  # set by the first coup (its side has the primauté)

    def visit_marque_start(self, el: MarqueStart) -> None:
        if self.marque_open and self.index > 0:
            self._unwritten_result()
        self.pav_due.clear()  # not lost: no hole followed it in that marqué
        self.pav_lost.clear()
        if self.over is not None and self.partie_kind == "douze-trous":
            self._after_end(self._where(None, el.span))
        elif self.over is not None and "marqué" in self.over:
            self.over, self.over_reported = None, False
        self.marque_open = True
        self.marque = el.number
        self.marque_fresh = True
        if el.players:
            a, b = el.players
            self.seat_of = {a: "A", b: "B"}
            self.letter_of = {"A": a, "B": b}
        if self.index > 0:  # a new marqué: fresh score and checkers (RULES.md §8.2)
            self.std = Ledger(self.profile)
            self.ent = Ledger(self.profile)
            self.in_sync = True
            self.releve_over = True
            self.pos = None
