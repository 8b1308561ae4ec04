"""The words of a record and of its verdict on the pages: the kind of partie, a
marqué's result, and the verifier's findings, whose words are the catalogue's
(:func:`trictrac.replay.verifier.findings.say`), said in the page's language with the
players' names; nothing is judged or re-worded here.  The caller escapes the result.
"""

from __future__ import annotations

from typing import Any

from ..notation.record import MarqueResult, MarqueStart, Record
from ..replay.verifier.findings import Finding, say
from ..words import Words, words

__all__ = [
    "finding_kind_name",
    "finding_message",
    "finding_consequence",
    "finding_rule",
    "seat_names",
    "event_words",
    "is_a_ecrire",
    "partie_kind",
    "marque_result_text",
]


def finding_kind_name(f: Finding, lang: str | Words = "fr") -> str:
    """The kind's name in the page's language (a mistake of the record is named as one)."""
    return say(f, lang).name


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


def _partie(record: Record) -> tuple[str, int | None] | None:
    from ..notation.reader import parse_partie

    return parse_partie(record.headers.get("Partie", ""))


def is_a_ecrire(record: Record) -> bool:
    """A partie à écrire: marqué sections in the record, or a Partie tag saying so."""
    if any(isinstance(e, (MarqueStart, MarqueResult)) for e in record.elements):
        return True
    p = _partie(record)
    return p is not None and p[0] == "a-ecrire"


def partie_kind(record: Record, L: Words) -> str:
    """The kind of partie in words (RULES.md §8)."""
    p = _partie(record)
    if is_a_ecrire(record):
        return L("kind_ecrire_n", n=p[1]) if p is not None and p[1] else L("kind_ecrire")
    kind = p[0] if p else "douze-trous"
    return {"a-quatre": L("kind_quatre"), "chouette": L("kind_chouette"), "a-tourner": L("kind_tourner")}.get(
        kind, L("kind_douze")
    )


def marque_result_text(r: MarqueResult, names: dict[str, str], L: Words) -> str:
    if r.refait or r.winner is None:
        return L("refait", w=r.winner_holes, l=r.loser_holes)
    s = L("marque_result", who=f"{r.winner} {names.get(r.winner, '')}".rstrip(), w=r.winner_holes, l=r.loser_holes)
    if r.bredouille != "none":
        s += L("marque_bredouille", kind=r.bredouille)
    if r.value is not None:
        s += L("marque_value", v=r.value)
    return s
