"""The reader's and the writer's fast paths give what their general paths give (issue 17).

The writer looks the hot tokens' texts up in tables (notation/writer.py ``_coup_text``);
each coup's line must equal the visitor's token-by-token text.  The reader's fast path
reads a game's lines from one split of its text; records, spans and diagnostics must
equal the token path's (``reader._FAST_OFF``) on self-played, mistaken and typo records,
and on the same text with CRLF line ends, multi-line comments and junk lines."""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from dataclasses import replace

import pytest
from mistake_corpus import mistaken_records

from trictrac.club.rows import write_with_rows  # the import's writer: text and rows
from trictrac.notation import reader, writer
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


# --- the line as read, written again as is (Coup.canonical_line; issue 30) ---------------


def _fast_coup(line: str) -> Coup | None:
    got = parse_text('[A "x"]\n\n' + line + "\n")[0][0].elements
    return got[0] if len(got) == 1 and isinstance(got[0], Coup) else None


def test_every_move_token_of_the_fast_table_is_written_as_read() -> None:
    """Each checker-move and cannot-play token the fast path reads, alone and after another,
    in coups of every side and every roll (each written either die first): the line kept is
    the writer's own, and the moves the import stores are the writer's; a roll written
    smaller die first keeps no line (the writer puts the larger die first)."""
    moves = [k for k, spec in reader._FAST_TOK.items() if spec[0] in (0, 1)]
    assert len(moves) == 24 * 25 + 6
    kept = 0
    for i, tok in enumerate(moves):
        side = "ABCD"[i % 4]
        a, b = 1 + i % 6, 1 + (i // 6) % 6
        for roll in {f"{a}-{b}", f"{b}-{a}"}:
            for line in (f"{i % 999 + 1}. {side} {roll} {tok}", f"7. {side} {roll} {moves[i - 1]} {tok}"):
                c = _fast_coup(line)
                assert c is not None, line
                full, moves_text = writer._line(c.number, c.side, c.roll, c.moves, c.before, c.after)
                if roll[0] < roll[2]:
                    assert c.canonical_line is None and full != line
                    continue
                assert c.canonical_line == line == full
                coup_values = write_with_rows(Record({}, [c]))[1][0]
                assert coup_values[6] == moves_text  # the coups.moves column
                kept += 1
    assert kept > 1200


@pytest.mark.parametrize(
    "line",
    [
        "3. A 5-3 A+2 1/6 1/4",  # a mark before the moves
        "3. A 5-3 1/6 1/4 B+2",  # a mark after them
        "3. A 5-3 1/6 1/4 {a remark}",  # a comment
        "3. A 5-3 1/6 ! 1/4",  # a glyph among the moves: the writer puts it after them
        "3. A 5-3 A:s'en-va",  # a decision, no move
    ],
)
def test_a_coup_with_actions_keeps_no_line(line: str) -> None:
    c = _fast_coup(line)
    assert c is not None and c.canonical_line is None
    assert write_with_rows(Record({}, [c]))[0].strip() == write_coup(c)


def test_the_lines_kept_are_every_plain_coup_of_the_records() -> None:
    text = write_records(RECORDS) or ""
    fast = parse_text(text)[0]
    plain = kept = 0
    for rec in fast:
        for e in rec.elements:
            if isinstance(e, Coup):
                if not e.before and not e.after:
                    plain += 1
                    kept += e.canonical_line is not None
                    assert e.canonical_line == write_coup(e)
                else:
                    assert e.canonical_line is None
    assert plain > 1000 and kept == plain  # every plain coup written canonically keeps its line


def test_a_coup_continued_on_the_next_line_keeps_no_line() -> None:
    """A continuation line reopens the coup the fast path read: the coup built again has
    no line (what was read is no longer its whole line)."""
    recs, _ = parse_text('[A "x"]\n\n3. A 5-3 1/6\n1/4\n')
    (c,) = recs[0].elements
    assert isinstance(c, Coup) and len(c.moves) == 2
    assert c.canonical_line is None
    assert write_with_rows(recs[0])[0].endswith("3. A 5-3 1/6 1/4\n")


def test_a_line_is_not_part_of_the_coup_s_value() -> None:
    """Kept by the reader only: equality, repr and ``dataclasses.replace`` ignore it, and a
    coup built in code has none."""
    c = _fast_coup("3. A 5-3 1/6 1/4")
    assert c is not None and c.canonical_line == "3. A 5-3 1/6 1/4"
    made = Coup(3, "A", (5, 3), (Move(1, 6), Move(1, 4)))
    assert made.canonical_line is None and made == c and hash(made) == hash(c)
    assert "canonical_line" not in repr(c)
    changed = replace(c, moves=(Move(1, 6), Move(6, 10)))
    assert changed.canonical_line is None
    assert write_coup(changed) == "3. A 5-3 1/6 6/10"
    assert pickle.loads(pickle.dumps(c)).canonical_line == c.canonical_line
