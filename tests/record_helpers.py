"""Helpers of the recorder's tests: the keys a person types to write a recorded coup."""

from __future__ import annotations

from conftest import ROOT

from trictrac.notation.reader import parse_text
from trictrac.notation.record import Coup, Decision, Record
from trictrac.notation.writer import write_action
from trictrac.replay.recorder.recording import RecordingSession
from trictrac.replay.rules.game import moves_text


def fixture_game(name: str, index: int = 0) -> Record:
    records, _ = parse_text((ROOT / name).read_text(encoding="utf-8"))
    return records[index]


def headers_of(rec: Record) -> dict[str, str]:
    return {k: v for k, v in rec.headers.items() if k != "Result"}


def marks_of(coup: Coup) -> str:
    return " ".join(write_action(a, coup.side) for a in coup.before + coup.after)


def type_coup(session: RecordingSession, coup: Coup) -> list[str]:
    """Enter ``coup`` into ``session`` with the fewest keys and return the keys typed,
    one string per entry ("\\r" = Enter; a roll of two digits and a play number no
    longer number can extend are submitted as typed)."""
    keys: list[str] = []

    def enter(text: str) -> None:
        keys.append(text if session.complete(text) else text + "\r")
        session.enter(text)

    enter(f"{coup.roll[0]}{coup.roll[1]}")
    st = session.state
    if st.stage == "play":
        want = moves_text(coup.moves)
        leave = any(isinstance(a, Decision) and a.leave for a in coup.before) and not coup.moves
        if leave:
            enter("v")
        elif want in st.plays:
            enter("" if len(st.plays) == 1 else str(st.plays.index(want) + 1))
        else:
            enter(" ".join(write_action(m) for m in coup.moves))
    if session.state.stage == "marks":
        marks = marks_of(coup)
        enter("" if marks == session.state.default_marks else marks)
    return keys
