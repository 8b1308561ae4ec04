"""The sections of a record: the kind of partie, a relevé or a marqué starting
(RULES.md §6.1, §8.2-8.3).  Entry points: :func:`init_partie` (the ``Partie`` tag),
:func:`judge_releve_start`, :func:`judge_marque_start`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....notation.reader import parse_partie
from ....notation.record import MarqueStart, Pavillon, Record, ReleveStart
from ...rules.ledger import Ledger
from ...rules.partie import RECORD_KINDS
from .result import after_end, unwritten_result
from .table import TableState

if TYPE_CHECKING:  # pragma: no cover
    from ..findings import Findings


def init_partie(table: TableState, record: Record) -> None:
    """The kind of partie (the ``Partie`` tag) and what its end depends on."""
    course = table.partie
    tag = record.headers.get("Partie")
    kind = parse_partie(tag) if tag else None
    # parties of several players: who has the primauté of each marqué follows the
    # rotation of replay.rules.partie (RULES.md §8.3; 003 §241-244), in player letters
    course.multi = RECORD_KINDS.get(kind[0]) if kind else None
    course.kind = kind[0] if kind else None
    course.marques_total = kind[1] if kind else None  # marqués of a partie à écrire
    # the pavillon of the written game, checked when the record writes it (001 r.58)
    course.pav_check = (course.kind == "a-ecrire" or course.multi is not None) and any(
        isinstance(a, Pavillon) for c in record.coups for a in c.before + c.after
    )


def judge_releve_start(table: TableState, el: ReleveStart, found: Findings) -> None:
    if table.partie.over is not None:
        after_end(table, table.where(None, el.span), found)
    if not table.releve_over and table.index > 0:
        found.add(
            "releve-without-leave",
            table.where(None, el.span),
        )
    table.releve = el.number
    table.releve_over = False
    table.pos = None  # set by the first coup (its side has the primauté)


def judge_marque_start(table: TableState, el: MarqueStart, found: Findings) -> None:
    course = table.partie
    if course.marque_open and table.index > 0:
        unwritten_result(table)
    course.pav_due.clear()  # not lost: no hole followed it in that marqué
    course.pav_lost.clear()
    if course.over is not None and course.kind == "douze-trous":
        after_end(table, table.where(None, el.span), found)
    elif course.over is not None and "marqué" in course.over:
        course.over, course.over_reported = None, False
    course.marque_open = True
    table.marque = el.number
    course.marque_fresh = True
    if el.players:
        a, b = el.players
        table.seat_of = {a: "A", b: "B"}
        table.letter_of.clear()  # in place: the findings sink reads the same mapping
        table.letter_of.update({"A": a, "B": b})
    if table.index > 0:  # a new marqué: fresh score and checkers (RULES.md §8.2)
        table.std = Ledger(table.profile)
        table.ent = Ledger(table.profile)
        table.in_sync = True
        table.releve_over = True
        table.pos = None
