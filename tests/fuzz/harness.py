"""One input through the whole text pipeline (issue 18, fuzzing as a habit): read ->
verify -> write -> read again, and the position parser.  Shared by the atheris target
(``fuzz_records.py``) and the hypothesis test (``tests/test_fuzz_records.py``).

Anything raised here is a bug: the reader never raises on text, the verifier judges
whatever the reader builds, and the writer's output reads back to the same text.
"""

from __future__ import annotations

import io

from trictrac.notation.position import parse_position
from trictrac.notation.reader import iter_records, parse_text
from trictrac.notation.writer import write_record
from trictrac.replay.verify import verify


class RoundTripError(AssertionError):
    """The writer's text did not read back to the same text."""


def exercise(data: bytes, *, verify_games: bool = True) -> int:
    """Run ``data`` through the pipeline; the number of games read.

    :raises Exception: a crash (any exception is one), or :class:`RoundTripError`.
    """
    games = 0
    for i, pr in enumerate(iter_records(io.BytesIO(data), file="fuzz")):
        games += 1
        rec = pr.record
        if verify_games:
            verify(rec, None, file="fuzz", game=i, trace=True, diagnostics=pr.diagnostics)
        text = write_record(rec)
        again, _diags = parse_text(text)
        if "".join(write_record(r) for r in again) != text and len(again) == 1:
            raise RoundTripError(f"write(read(write(r))) != write(r):\n{text!r}")
        pos = rec.headers.get("Position")
        if pos is not None:
            parse_position(pos)
    first = data.split(b"\n", 1)[0][:2000].decode("utf-8", "replace")
    parse_position(first.replace("\r", " "))
    return games
