"""Helpers of the recorder's tests: the keys a person types to write a recorded coup."""

from __future__ import annotations

from conftest import ROOT

from trictrac.notation.reader import parse_text
from trictrac.notation.record import Coup, Record
from trictrac.replay.recorder.recording import RecordingSession, marks_of
from trictrac.replay.recorder.recording import type_coup as typed

__all__ = ["fixture_game", "headers_of", "marks_of", "type_coup"]


def fixture_game(name: str, index: int = 0) -> Record:
    records, _ = parse_text((ROOT / name).read_text(encoding="utf-8"))
    return records[index]


def headers_of(rec: Record) -> dict[str, str]:
    return {k: v for k, v in rec.headers.items() if k != "Result"}


def type_coup(session: RecordingSession, coup: Coup) -> list[str]:
    """Enter ``coup`` into ``session`` with the fewest keys and return the keys typed,
    one string per entry ("\\r" = Enter; a roll of two digits and a play number no
    longer number can extend are submitted as typed): the library's way
    (``recording.type_coup``), keys counted."""
    keys: list[str] = []

    def enter(text: str) -> None:
        keys.append(text if session.complete(text) else text + "\r")
        session.enter(text)

    typed(session, coup, enter)
    return keys
