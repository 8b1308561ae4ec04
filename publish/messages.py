"""The verifier's findings on the pages: the words are the catalogue's
(:func:`trictrac.replay.findings.say`), said in the page's language with the
players' names; nothing is judged or re-worded here.  The caller escapes the result.
"""

from __future__ import annotations

from typing import Any

from ..replay.findings import Finding, kind_name, say
from ..words import Words, words

__all__ = [
    "finding_kind_name",
    "finding_message",
    "finding_consequence",
    "finding_rule",
    "seat_names",
    "event_words",
]


def finding_kind_name(f: Finding, lang: str | Words = "fr") -> str:
    """The kind's name in the page's language."""
    return kind_name(f.kind, lang)


def finding_message(f: Finding, lang: str | Words = "fr", names: dict[str, str] | None = None) -> str:
    """What the verifier found, in the page's language; ``names``: letter -> player's name."""
    return say(f, lang, names).message


def finding_consequence(f: Finding, lang: str | Words = "fr", names: dict[str, str] | None = None) -> str:
    """What follows at the table, in the page's language ("" when the kind says none)."""
    return say(f, lang, names).consequence


def finding_rule(f: Finding, lang: str | Words = "fr") -> str:
    """The treatises' articles the finding applies, as a reader can follow them."""
    return say(f, lang).citation


def seat_names(record: Any) -> dict[str, str]:
    """Seat letter -> the player's name from the record's tags (the letter itself when
    the tag is missing): the names the findings are said with."""
    return {s: record.headers.get(s, "") or s for s in ("A", "B", "C", "D")}


def event_words(kind: str, how: str | None, lang: str | Words = "fr") -> str:
    """A scoring event's name in the page's language (« petit jan (remplir) »)."""
    W = words(lang)
    name = W.get(f"event.{kind}", kind)
    return W("event.said", kind=name, how=W(f"how.{how}")) if how else name
