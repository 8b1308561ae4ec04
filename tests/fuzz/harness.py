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
from trictrac.replay.verifier.verify import verify


class RoundTripError(AssertionError):
    """The writer's text did not read back to the same text."""


#: the shapes a short fuzz input is grown into (issue 27): the first byte picks one when
#: it is 0xF0 or more, the next two give the number of repetitions, the rest is the piece
#: repeated.  Each is a class of input the byte-level fuzzer cannot reach by itself.
SHAPES = ("escape-run", "comment-lines", "reason-escapes", "finding-dense", "many-players", "look-alikes")
_HEAD = '[A "Dupont"]\n[B "Martin"]\n[Partie "douze-trous"]\n[Result "*"]\n\n'
_LOOK_ALIKES = ("Dupont", "Dup\u043ent", "Dupont\u200b", "\uff24upont", "Dupont ", "Lef\u00e8vre", "Lefe\u0300vre")
MAX_GROWN = 200_000  # bytes: an input grown past this is cut


#: the repetitions of a grown input by its size class (the second byte): small, medium
#: (0xE0 and up), large (0xF8 and up).  The fuzz target keeps the medium and large ones
#: rare (``fuzz_records.py``), so that a million inputs run in an hour; each size is held
#: to the bound all the same.
SIZES = (40, 1_000, 20_000)


def size_class(data: bytes) -> int:
    return 2 if data[1] >= 0xF8 else 1 if data[1] >= 0xE0 else 0


def grow(data: bytes) -> tuple[bytes, str | None]:
    """``data`` as it is, or grown into one of :data:`SHAPES` (and the shape's name)."""
    if len(data) < 3 or data[0] < 0xF0:
        return data, None
    shape = SHAPES[(data[0] - 0xF0) % len(SHAPES)]
    n = 1 + int.from_bytes(data[1:3], "big") % SIZES[size_class(data)]
    piece = data[3:].decode("utf-8", "replace") or "a"
    if shape == "escape-run":
        text = '[Event "' + ("\\" + piece[:1]) * n + '"]\n' + _HEAD + "1. A 2-1 1/3 1/2\n"
    elif shape == "comment-lines":
        text = _HEAD + "{" + (piece.replace("}", "").replace("\n", "") + "\n") * n + "}\n1. A 2-1 1/3 1/2\n"
    elif shape == "reason-escapes":
        text = _HEAD + "1. A 2-1 1/3 1/2 B:\u00e9cole+2(" + ("\\)" + piece[:2]) * n + ")\n"
    elif shape == "finding-dense":
        text = _HEAD + "relev\u00e9 1\n" + "".join(f"{i % 2 + 1}. {'AB'[i % 2]} 2-1 {piece[:8]}\n" for i in range(n))
    else:
        names = _LOOK_ALIKES if shape == "look-alikes" else ()
        text = "".join(
            f'[A "{names[i % len(names)] if names else piece[:12] + str(i)}"]\n'
            f'[B "{piece[:12]}{i + 1}"]\n[Date "2024.01.{i % 28 + 1:02d}"]\n[Result "A 12-0"]\n\n1. A 2-1 1/3 1/2\n\n'
            for i in range(min(n, 2_000))
        )
    return text.encode("utf-8")[:MAX_GROWN], shape


def exercise(data: bytes, *, verify_games: bool = True, standings: bool = False) -> int:
    """Run ``data`` through the pipeline; the number of games read.  ``standings``: also
    rank the games and render the standings (text and HTML), as ``publish`` does.

    :raises Exception: a crash (any exception is one), or :class:`RoundTripError`.
    """
    games = 0
    rows = []
    for i, pr in enumerate(iter_records(io.BytesIO(data), file="fuzz")):
        games += 1
        rec = pr.record
        if verify_games:
            report = verify(rec, None, file="fuzz", game=i, trace=True, diagnostics=pr.diagnostics)
            if standings:
                from trictrac.club.rows import standing_game

                rows.append(standing_game(rec, report, f"g{i}"))
        text = write_record(rec)
        again, _diags = parse_text(text)
        if "".join(write_record(r) for r in again) != text and len(again) == 1:
            raise RoundTripError(f"write(read(write(r))) != write(r):\n{text!r}")
        pos = rec.headers.get("Position")
        if pos is not None:
            parse_position(pos)
    if rows:
        from trictrac.club.standings import compute_standings, format_standings
        from trictrac.publish.standings import render_standings

        st = compute_standings(rows)
        format_standings(st)
        render_standings(st)
    first = data.split(b"\n", 1)[0][:2000].decode("utf-8", "replace")
    parse_position(first.replace("\r", " "))
    return games
