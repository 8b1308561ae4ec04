"""The reader's and the writer's fast paths give what their general paths give (issue 17).

The writer looks the hot tokens' texts up in tables (notation/writer.py ``_coup_text``);
each coup's line must equal the visitor's token-by-token text.  The reader's fast path
reads a game's lines from one split of its text; records, spans and diagnostics must
equal the token path's (``reader._FAST_OFF``) on self-played, mistaken and typo records,
and on the same text with CRLF line ends, multi-line comments and junk lines."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from mistake_corpus import mistaken_records

from trictrac.notation import reader
from trictrac.notation.reader import parse_text
from trictrac.notation.record import (
    CannotPlay,
    Comment,
    Coup,
    Decision,
    Glyph,
    Mark,
    Move,
    Record,
    Replay,
)
from trictrac.notation.visitor import visit_action
from trictrac.notation.writer import _Writer, write_coup, write_element, write_record, write_records
from trictrac.replay.generate.selfplay import selfplay


def _records() -> Iterator[Record]:
    yield from selfplay(3, 11)
    yield from selfplay(1, 5, "a-ecrire", marques=2)
    yield from selfplay(1, 8, compact=True)
    for rec, _how in mistaken_records(4, 17):
        yield rec


RECORDS = tuple(_records())


def _visitor_line(c: Coup) -> str:
    """A coup's line written token by token by the visitor (the writer before the tables)."""
    w = _Writer(c.side)
    parts = [f"{c.number}. {c.side} {c.roll[0]}-{c.roll[1]}"]
    parts += [visit_action(a, w) or "" for a in c.before]
    parts += [visit_action(m, w) or "" for m in c.moves] or (["--"] if c.after else [])
    parts += [visit_action(a, w) or "" for a in c.after]
    return " ".join(parts)


def _parse_both(text: str) -> tuple[tuple[list[Record], list[object]], tuple[list[Record], list[object]]]:
    fast = parse_text(text, file="x.trn")
    reader._FAST_OFF = True
    try:
        slow = parse_text(text, file="x.trn")
    finally:
        reader._FAST_OFF = False
    return fast, slow


def test_every_coup_line_is_the_visitors() -> None:
    n = 0
    for rec in RECORDS:
        for e in rec.elements:
            if isinstance(e, Coup):
                assert write_coup(e) == write_element(e) == _visitor_line(e)
                n += 1
    assert n > 1000


@pytest.mark.parametrize(
    "coup",
    [
        Coup(1000, "A", (6, 5), (Move(13, 7),)),  # a number past the head table
        Coup(3, "B", (7, 0), (Move(0, 26), CannotPlay(9))),  # a roll, a move, a die past the tables
        Coup(4, "C", (2, 1), (), (Mark("A", 99, 7, True), Mark("D", 4, None, False)), (Glyph("!"),)),
        Coup(5, "A", (3, 3), (), (), (Replay("A", (Move(1, 4),)), Replay("B", ()), Comment("x}y"))),
        Coup(6, "B", (4, 2), (Move(24, 25), Move(1, 25)), (Decision("B", True),), (Mark("A", 0, 4, None),)),
    ],
)
def test_tokens_out_of_the_tables_are_written_by_the_visitor(coup: Coup) -> None:
    assert write_coup(coup) == _visitor_line(coup)


def test_written_records_read_back_and_write_alike() -> None:
    text = write_records(RECORDS)
    assert text
    back, diags = parse_text(text)
    assert [d for d in diags if d.severity == "error"] == []
    assert back == [r for r in RECORDS if r.headers or r.elements]
    assert write_records(back) == text
    for rec in RECORDS[:3]:
        once = write_record(rec)
        assert write_record(parse_text(once)[0][0]) == once


def _variants(text: str) -> Iterator[str]:
    yield text
    yield text.replace("\n", "\r\n")
    lines = text.split("\n")
    yield "\n".join(ln + (" {a\nremark}" if i % 7 == 3 else "") for i, ln in enumerate(lines))
    yield "\n".join(ln + (" junk {" if i % 11 == 5 else "") for i, ln in enumerate(lines))
    yield "\n".join(("  " + ln if i % 13 == 2 else ln) for i, ln in enumerate(lines))


@pytest.mark.parametrize("variant", range(5))
def test_fast_path_reads_like_the_token_path(variant: int) -> None:
    text = list(_variants(write_records(RECORDS) or ""))[variant]
    (fast, d1), (slow, d2) = _parse_both(text)
    assert repr(fast) == repr(slow)  # spans included
    assert [r.span for r in fast] == [r.span for r in slow]
    assert repr(d1) == repr(d2)
    assert sum(len(r.elements) for r in fast) > 1000
