"""notation.visitor: one walk over a record (issue 14 §1)."""

from __future__ import annotations

from collections import Counter

import pytest

from trictrac.notation.reader import parse_text
from trictrac.notation.record import Mark, Move
from trictrac.notation.visitor import RecordVisitor, visit_action, visit_element, walk

TEXT = """[A "Ann"]
[B "Bob"]

relevé 1
1. A 6-5 1/7 1/6 {a comment}
2. B 4-4 A+4 1/5 1/5 B:s'en-va
"""


class _Count(RecordVisitor[None]):
    def __init__(self) -> None:
        self.seen: Counter[str] = Counter()
        self.tags: list[str] = []

    def visit_header(self, name: str, value: str) -> None:
        self.tags.append(name)

    def visit_coup(self, coup) -> None:  # type: ignore[no-untyped-def]
        self.seen["coup"] += 1
        for token in (*coup.before, *coup.moves, *coup.after):
            visit_action(token, self)

    def visit_move(self, move: Move) -> None:
        self.seen["move"] += 1

    def visit_mark(self, mark: Mark) -> None:
        self.seen["mark"] += 1

    def visit_releve_start(self, start) -> None:  # type: ignore[no-untyped-def]
        self.seen["releve"] += 1

    def end_record(self, record) -> Counter[str]:  # type: ignore[no-untyped-def]
        return self.seen


def test_walk_visits_every_token_once() -> None:
    (rec,), _diags = parse_text(TEXT)
    v = _Count()
    seen = walk(rec, v)
    assert v.tags == ["A", "B"]
    assert seen == Counter({"coup": 2, "move": 4, "mark": 1, "releve": 1})


def test_unknown_tokens_are_refused() -> None:
    with pytest.raises(TypeError, match="not a record element"):
        visit_element(object(), _Count())
    with pytest.raises(TypeError, match="not a record action"):
        visit_action("1/7", _Count())
