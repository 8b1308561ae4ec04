"""Writing records back as canonical ``.trn`` text (docs/notation.md).

One spelling per keyword, tags in ``TAG_ROSTER`` order then the others as read, one
element per line.  ``parse_text(write_record(r))`` gives back ``r`` and writing is
idempotent (tests/test_notation_roundtrip.py).

Text that the format cannot hold is made safe rather than refused, so that writing
never fails: a blank line inside a comment is dropped (a comment never crosses a blank
line), line breaks in tag values and reasons become spaces.
"""

from __future__ import annotations

import re
from typing import Iterable, TextIO

from trictrac.notation.record import (
    OFF,
    TAG_ROSTER,
    CannotPlay,
    Comment,
    Correction,
    Coup,
    Decision,
    Ecole,
    Glyph,
    JouePourTout,
    MarqueResult,
    MarqueStart,
    Mark,
    Move,
    NeMarquePas,
    Pavillon,
    Record,
    ReleveStart,
    Replay,
)

__all__ = ["write_record", "write_records", "write_action", "write_coup", "write_element"]

_LEAVE = "s'en-va"
_BLANK_LINES = re.compile(r"\n[^\S\n]*(?=\n)")  # a blank line would end the comment (a last "\n" before "}" does not)
_TAG_START = re.compile(r"(^|\n)([^\S\n]*)\[")


def _comment(text: str) -> str:
    t = text.replace("\r", "").replace("\\", "\\\\").replace("}", "\\}")
    if "\n" in t:
        t = _BLANK_LINES.sub("", t)
        t = _TAG_START.sub(r"\1\2\\[", t)
    return "{" + t + "}"


def _reason(reason: str | None) -> str:
    if reason is None:
        return ""
    r = reason.replace("\r", " ").replace("\n", " ").replace("\\", "\\\\").replace(")", "\\)")
    return f"({r})"


def _tag_value(v: str) -> str:
    return v.replace("\r", " ").replace("\n", " ").replace("\\", "\\\\").replace('"', '\\"')


def write_action(a: object, side: str | None = None) -> str:
    """The canonical token of one action or move.

    ``side`` is the roller of the coup the action stands in: a :class:`Replay` by the
    roller is written ``A:rejoue(…)``, one by anybody else (or with ``side`` unknown)
    ``B:fait-jouer(…)``, so that the written form says who decided (RULES.md §9.5).
    """
    t = type(a)
    if t is Move:
        return f"{a.from_}/{'off' if a.to == OFF else a.to}"  # type: ignore[attr-defined]
    if t is Mark:
        s = f"{a.who}+{a.points}"  # type: ignore[attr-defined]
        if a.holes is not None:  # type: ignore[attr-defined]
            s += f"t{a.holes}"  # type: ignore[attr-defined]
        if a.bredouille is not None:  # type: ignore[attr-defined]
            s += "b" if a.bredouille else "s"  # type: ignore[attr-defined]
        return s
    if t is CannotPlay:
        return f"-{a.number}"  # type: ignore[attr-defined]
    if t is Comment:
        return _comment(a.text)  # type: ignore[attr-defined]
    if t is Glyph:
        return a.glyph  # type: ignore[attr-defined]
    if t is Decision:
        return f"{a.who}:{_LEAVE if a.leave else 'reste'}"  # type: ignore[attr-defined]
    if t is NeMarquePas:
        return f"{a.who}:ne-marque-pas"  # type: ignore[attr-defined]
    if t is JouePourTout:
        return f"{a.who}:joue-pour-tout"  # type: ignore[attr-defined]
    if t is Pavillon:
        return f"{a.who}:pavillon"  # type: ignore[attr-defined]
    if t is Ecole:
        return f"{a.claimant}:école{a.points:+d}{_reason(a.reason)}"  # type: ignore[attr-defined]
    if t is Correction:
        s = f"{a.who}:correction{a.points:+d}"  # type: ignore[attr-defined]
        if a.holes:  # type: ignore[attr-defined]
            s += f"t{a.holes:+d}"  # type: ignore[attr-defined]
        return s + _reason(a.reason)  # type: ignore[attr-defined]
    if t is Replay:
        word = "rejoue" if a.who == side else "fait-jouer"  # type: ignore[attr-defined]
        body = " ".join(map(write_action, a.moves)) or "--"  # type: ignore[attr-defined]
        return f"{a.who}:{word}({body})"  # type: ignore[attr-defined]
    raise TypeError(f"not a record action: {a!r}")


def write_coup(c: Coup) -> str:
    parts = [f"{c.number}. {c.side} {c.roll[0]}-{c.roll[1]}"]
    side = c.side
    parts.extend(write_action(a, side) for a in c.before)
    if c.moves:
        parts.extend(map(write_action, c.moves))
    elif c.after:
        parts.append("--")  # no checker moved: what follows is after the (absent) play
    parts.extend(write_action(a, side) for a in c.after)
    return " ".join(parts)


def write_element(e: object) -> str:
    t = type(e)
    if t is Coup:
        return write_coup(e)  # type: ignore[arg-type]
    if t is ReleveStart:
        return f"relevé {e.number}"  # type: ignore[attr-defined]
    if t is MarqueStart:
        s = f"marqué {e.number}"  # type: ignore[attr-defined]
        if e.players:  # type: ignore[attr-defined]
            s += f" {e.players[0]}-{e.players[1]}"  # type: ignore[attr-defined]
        return s
    if t is MarqueResult:
        r: MarqueResult = e  # type: ignore[assignment]
        s = "résultat " + ("refait" if r.refait or r.winner is None else r.winner)
        s += f" {r.winner_holes}-{r.loser_holes}"
        if r.bredouille != "none":
            s += f" {r.bredouille}-bredouille"
        if r.value is not None:
            s += f" valeur {r.value}"
        return s
    if t is Comment:
        return _comment(e.text)  # type: ignore[attr-defined]
    if t is Glyph:
        return e.glyph  # type: ignore[attr-defined]
    raise TypeError(f"not a record element: {e!r}")


def write_record(record: Record) -> str:
    """The canonical text of one game, ending with a newline ("" for an empty record:
    no tags and no movetext, e.g. a junk-only game the reader kept for its diagnostics)."""
    h = record.headers
    if not h and not record.elements:
        return ""
    lines = [f'[{k} "{_tag_value(h[k])}"]' for k in TAG_ROSTER if k in h]
    lines.extend(f'[{k} "{_tag_value(v)}"]' for k, v in h.items() if k not in TAG_ROSTER)
    if record.elements:
        if lines:
            lines.append("")
        lines.extend(map(write_element, record.elements))
    return "\n".join(lines) + "\n"


def write_records(records: Iterable[Record], out: TextIO | None = None) -> str | None:
    """Canonical text of many games, separated by a blank line.  With ``out``, write
    game by game to the stream (for archives) and return None."""
    texts = (t for t in map(write_record, records) if t)
    if out is None:
        return "\n".join(texts)
    first = True
    for t in texts:
        if not first:
            out.write("\n")
        out.write(t)
        first = False
    return None
