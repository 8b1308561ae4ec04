"""A record annotated in its own notation: each finding of the verifier as a ``{…}``
comment and a glyph at its coup (``trictrac annotate``), in English (the verifier's
words) or in French (the game's words, as the published pages say them:
:mod:`publish.messages`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..notation.record import Comment, Coup, Glyph, Record
from ..replay.rulebook import rule_for_finding
from .i18n import Labels, labels
from .messages import finding_consequence, finding_message, seat_names

__all__ = ["annotate_record"]


def annotate_record(record: Record, report: Any, *, explain: bool = False, lang: str | Labels = "en") -> Record:
    """A copy of ``record`` with each finding of ``report`` (a ``GameReport``) as a
    comment and a glyph at its coup (``??`` for a missing checker, ``?`` otherwise), and
    with ``explain`` each coup's entitled marks (the report must then hold its trace).
    A finding at no coup goes after the section of its line, or at the end.  ``record``
    is not changed."""
    say = _Sayer(labels(lang), seat_names(record))
    by_index: dict[int, list[Any]] = {}
    loose: list[Any] = []
    for f in report.findings:
        (by_index.setdefault(f.index, []) if f.index >= 0 else loose).append(f)
    traces = {t.index: t for t in report.trace}
    out: list[Any] = []
    idx = 0
    for el in record.elements:
        if isinstance(el, Coup):
            extra: list[Any] = []
            if explain and idx in traces:
                extra.append(Comment(say.entitled(traces[idx])))
            fs = by_index.get(idx, [])
            extra += [Comment(say.finding(f, with_consequence=True)) for f in fs]
            if fs:
                extra.append(Glyph("??" if any(f.kind == "missing-checker" for f in fs) else "?"))
            out.append(replace(el, after=tuple(el.after) + tuple(extra)) if extra else el)
            idx += 1
            continue
        out.append(el)
        span = getattr(el, "span", None)
        for f in list(loose):
            if span is not None and f.line and span.line == f.line:
                out.append(Comment(say.finding(f)))
                loose.remove(f)
    out += [Comment(say.finding(f)) for f in loose]
    return Record(headers=dict(record.headers), elements=out, span=record.span)


class _Sayer:
    """The comments' words in one language (``names``: seat letter -> player's name)."""

    def __init__(self, L: Labels, names: dict[str, str]) -> None:
        self.L, self.names = L, names

    def finding(self, f: Any, *, with_consequence: bool = False) -> str:
        """``kind: message — consequence [rule: citation]``; the kind's stable id in every
        language (it is what docs/findings.md and the database use), the rule as the rules
        reference names it (``replay.rulebook``)."""
        text = f"{f.kind}: {finding_message(f, self.L, self.names)}"
        consequence = finding_consequence(f, self.L, self.names) if with_consequence else ""
        if consequence:
            text += f" — {consequence}"
        rule, lang = rule_for_finding(f.kind, f.detail), self.L.lang
        return text + f" [{rule.title(lang)}{' : ' if lang == 'fr' else ': '}{rule.cite(lang)}]"

    def entitled(self, t: Any) -> str:
        """What the rules gave the roller and the other player at a coup, and why."""
        L = self.L
        events = ", ".join(
            f"{e.kind} {e.points} {L('ann_to_roller') if e.side == 'mover' else L('ann_to_other')}" for e in t.events
        )
        return L("ann_entitled", roller=t.entitled[0], other=t.entitled[1], events=events or L("ann_nothing"))
