"""One walk over a record: a visitor with a ``visit_*`` method per token class (as
python-chess's ``pgn.BaseVisitor``), so that a module that reads records (the writer,
the verifier, …) dispatches in one place instead of its own ``isinstance`` ladder.

:func:`walk` visits a whole record; :func:`visit_element` / :func:`visit_action` one
element of the movetext or one action of a coup.  Each ``visit_*`` returns what that
visitor makes of the token (the writer: its text); the defaults return None, so a
visitor overrides only what it needs.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from .record import (
    CannotPlay,
    Comment,
    Correction,
    Coup,
    Decision,
    Ecole,
    FaitMarquer,
    Force,
    Glyph,
    JouePourTout,
    Mark,
    MarqueResult,
    MarqueStart,
    Move,
    NeMarquePas,
    Pavillon,
    Record,
    ReleveStart,
    Remet,
    Replay,
)

__all__ = ["ActionVisitor", "RecordVisitor", "visit_action", "visit_element", "walk"]

T = TypeVar("T")


class ActionVisitor(Generic[T]):
    """The tokens of a coup: moves and the actions written before or after them."""

    def visit_move(self, move: Move) -> T | None:
        return None

    def visit_cannot_play(self, token: CannotPlay) -> T | None:
        return None

    def visit_mark(self, mark: Mark) -> T | None:
        return None

    def visit_decision(self, decision: Decision) -> T | None:
        return None

    def visit_ne_marque_pas(self, token: NeMarquePas) -> T | None:
        return None

    def visit_joue_pour_tout(self, token: JouePourTout) -> T | None:
        return None

    def visit_pavillon(self, token: Pavillon) -> T | None:
        return None

    def visit_ecole(self, ecole: Ecole) -> T | None:
        return None

    def visit_correction(self, correction: Correction) -> T | None:
        return None

    def visit_replay(self, replay: Replay) -> T | None:
        return None

    def visit_force(self, force: Force) -> T | None:
        return None

    def visit_fait_marquer(self, token: FaitMarquer) -> T | None:
        return None

    def visit_remet(self, remet: Remet) -> T | None:
        return None

    def visit_comment(self, comment: Comment) -> T | None:
        return None

    def visit_glyph(self, glyph: Glyph) -> T | None:
        return None


class RecordVisitor(ActionVisitor[T]):
    """A whole record: its tags, then the movetext's elements in order."""

    def begin_record(self, record: Record) -> None:
        return None

    def visit_header(self, name: str, value: str) -> None:
        return None

    def visit_coup(self, coup: Coup) -> T | None:
        return None

    def visit_releve_start(self, start: ReleveStart) -> T | None:
        return None

    def visit_marque_start(self, start: MarqueStart) -> T | None:
        return None

    def visit_marque_result(self, result: MarqueResult) -> T | None:
        return None

    def end_record(self, record: Record) -> Any:
        return None


_ACTION_METHOD: dict[type, str] = {
    Move: "visit_move",
    CannotPlay: "visit_cannot_play",
    Mark: "visit_mark",
    Decision: "visit_decision",
    NeMarquePas: "visit_ne_marque_pas",
    JouePourTout: "visit_joue_pour_tout",
    Pavillon: "visit_pavillon",
    Ecole: "visit_ecole",
    Correction: "visit_correction",
    Replay: "visit_replay",
    Comment: "visit_comment",
    Glyph: "visit_glyph",
    Force: "visit_force",
    FaitMarquer: "visit_fait_marquer",
    Remet: "visit_remet",
}
_ELEMENT_METHOD: dict[type, str] = {
    Coup: "visit_coup",
    ReleveStart: "visit_releve_start",
    MarqueStart: "visit_marque_start",
    MarqueResult: "visit_marque_result",
    Comment: "visit_comment",
    Glyph: "visit_glyph",
}


def visit_action(token: object, visitor: ActionVisitor[T]) -> T | None:
    """Call the visitor's method for one action or move (TypeError for anything else)."""
    name = _ACTION_METHOD.get(type(token))
    if name is None:
        raise TypeError(f"not a record action: {token!r}")
    return getattr(visitor, name)(token)  # type: ignore[no-any-return]


def visit_element(element: object, visitor: RecordVisitor[T]) -> T | None:
    """Call the visitor's method for one element of the movetext (TypeError for anything else)."""
    name = _ELEMENT_METHOD.get(type(element))
    if name is None:
        raise TypeError(f"not a record element: {element!r}")
    return getattr(visitor, name)(element)  # type: ignore[no-any-return]


def walk(record: Record, visitor: RecordVisitor[T]) -> Any:
    """Visit a record: ``begin_record``, every tag, every element, and return ``end_record``."""
    visitor.begin_record(record)
    for name, value in record.headers.items():
        visitor.visit_header(name, value)
    for element in record.elements:
        visit_element(element, visitor)
    return visitor.end_record(record)
