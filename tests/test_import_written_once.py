"""``db import`` writes a game's text once (issue 30, speed): the ``coups`` rows it stores (each
coup's relevé, index, number, side, dice, moves, place) come from the same pass that writes the
canonical text (the game's content hash), and they are what the record says, read field by field
and its moves spelled token by token."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from club_helpers import rows_corpus, write_archive

from trictrac.club.importer import import_records
from trictrac.club.rows import _build_rows, game_id_of, write_with_rows
from trictrac.notation.record import Coup, Decision, Mark, MarqueStart, Record, ReleveStart
from trictrac.notation.writer import NO_VALUE, write_action, write_moves, write_record
from trictrac.replay.verifier.verify import verify

ROOT = Path(__file__).resolve().parent.parent


def _records() -> list[Record]:
    return rows_corpus(6, seed=11)


def _spelled(coup: Coup) -> str:
    """The coup's moves spelled token by token (the slow, independent way)."""
    return " ".join(write_action(m) for m in coup.moves) if coup.moves else "-"


def test_the_moves_written_with_the_text_are_the_coups_moves() -> None:
    records = _records()
    assert any(any(type(m).__name__ == "CannotPlay" for c in r.coups for m in c.moves) for r in records)
    assert any(any(not c.moves for c in r.coups) for r in records)  # a coup with no move written
    for rec in records:
        moves: list[str] = []
        assert write_record(rec, moves) == write_record(rec)  # the text is the same either way
        assert moves == [_spelled(c) for c in rec.elements if type(c) is Coup]
        assert [write_moves(c) for c in rec.coups] == moves


def _coup_rows(rec: Record) -> list[tuple[object, ...]]:
    """The coups' rows read from the record element by element (the slow, independent way)."""
    out: list[tuple[object, ...]] = []
    releve, releves = None, 0
    for el in rec.elements:
        if isinstance(el, ReleveStart):
            releves += 1
            releve = releves
        elif isinstance(el, MarqueStart):
            releve = None
        elif isinstance(el, Coup):
            line, col = el.span.line or None, el.span.col or None
            out.append((releve, len(out), el.number, el.side, *el.roll, _spelled(el), line, col))
    return out


def _flat(rows: list[tuple[object, ...]]) -> list[object]:
    return [v for row in rows for v in row]


def _mark_rows(rec: Record) -> tuple[list[tuple[object, ...]], list[tuple[int, int, int]]]:
    """The marks' rows and the other elements to read, from the record (the slow way)."""
    marks: list[tuple[object, ...]] = []
    others: list[tuple[int, int, int]] = []
    ids, n = 0, -1
    for i, el in enumerate(rec.elements):
        if not isinstance(el, Coup):
            others.append((i, -1, 0))
            continue
        n += 1
        actions = [("before", a) for a in el.before] + [("after", a) for a in el.after]
        for k, (phase, a) in enumerate(actions, 1):
            line, col = a.span.line or None, a.span.col or None
            if isinstance(a, Mark):
                # an empty column NO_VALUE (the store binds it and stores NULL)
                h = NO_VALUE if a.holes is None else a.holes
                b = NO_VALUE if a.bredouille is None else int(a.bredouille)
                row = (ids + k, n, k - 1, phase, "mark", a.who, a.points, h, b, NO_VALUE, write_action(a), line, col)
                marks.append(row)
            elif isinstance(a, Decision):
                leave = int(a.leave)
                marks.append(
                    (ids + k, n, k - 1, phase, "decision", a.who, *[NO_VALUE] * 3, leave, write_action(a), line, col)
                )
        if any(not isinstance(a, (Mark, Decision)) for _, a in actions):
            others.append((i, n, ids + 1))
        ids += len(actions)
    return marks, others


def test_the_coups_rows_written_with_the_text() -> None:
    records = _records()
    assert any(any(isinstance(e, MarqueStart) for e in r.elements) for r in records)  # marqués: relevé ordinals reset
    for rec in records:
        coups: list[object] = []
        marks: list[tuple[object, ...]] = []
        others: list[tuple[int, int, int]] = []
        moves: list[str] = []
        assert write_record(rec, moves, coups, marks, others) == write_record(rec)  # type: ignore[arg-type]
        assert coups == _flat(_coup_rows(rec))  # a coup's values one after the other
        assert moves == [_spelled(c) for c in rec.coups]
        want_marks, want_others = _mark_rows(rec)
        assert marks == want_marks
        assert others == want_others


@pytest.mark.parametrize("given", [True, False])
def test_rows_alike_with_or_without_the_written_coups(given: bool) -> None:
    for rec in _records()[:8]:
        text, written = write_with_rows(rec)
        report = verify(rec, None, trace=False, recover=True)
        args = dict(
            profile_name="p",
            parse_diagnostics=(),
            source_file=None,
            source=None,
            season_start_month=1,
            engine_version="",
        )
        rows = _build_rows(rec, game_id_of(text), text, report, written=written if given else None, **args)  # type: ignore[arg-type]
        assert rows.coups == _flat(_coup_rows(rec))


def test_stored_moves_are_the_coups_moves(tmp_path: Path) -> None:
    records = _records()[:8]
    path = write_archive(tmp_path / "a.trn", records)
    import_records(tmp_path / "c.db", [path])
    conn = sqlite3.connect(tmp_path / "c.db")
    try:
        for rec in records:
            (gno,) = conn.execute("SELECT id FROM games WHERE sha256 = ?", (game_id_of(write_record(rec)),)).fetchone()
            stored = [m for (m,) in conn.execute("SELECT moves FROM coups WHERE game_id = ? ORDER BY seq", (gno,))]
            assert stored == [_spelled(c) for c in rec.coups]
    finally:
        conn.close()
