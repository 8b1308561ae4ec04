"""Properties of the publisher over many records: any record (even nonsense) gives a
structurally valid page with no injected script; injected mistakes all show up on
the page at their coup."""

from __future__ import annotations

import random

import lxml.html
import pytest
from hypothesis import given, settings
from notation_strategies import records
from publish_helpers import html5_problems, selfplay_record

from trictrac.notation.record import Comment, Coup
from trictrac.publish.html import render_game
from trictrac.publish.i18n import labels
from trictrac.replay.verifier.findings import say
from trictrac.replay.verifier.verify import verify


@settings(max_examples=40)
@given(records)
def test_any_record_gives_a_valid_page_with_its_texts_escaped(record) -> None:
    try:
        report = verify(record)
    except ValueError as e:  # the verifier gave up on this record: published unverified
        report, why = None, str(e)
    else:
        why = None
    page = render_game(record, report, profile=None, not_verified=why)
    assert html5_problems(page) == []
    doc = lxml.html.fromstring(page)
    assert len(doc.xpath("//script")) == 2
    # every header value and comment is in the page as text (the notation's own word for
    # the Record tag, full or compact, said in the page's language)
    text = doc.text_content()
    for k, v in record.headers.items():
        assert (labels("fr").get(f"tag_value.{v}", v) if k == "Record" else v).strip() in text
    comments = [e.text for e in record.elements if isinstance(e, Comment)]
    comments += [
        a.text for c in record.elements if isinstance(c, Coup) for a in (*c.before, *c.after) if isinstance(a, Comment)
    ]
    for c in comments:
        assert c.strip() in text
    # one row per coup, one board per traced coup (+ the start)
    assert len(doc.xpath("//tr[contains(@class,'coup')]")) == len(record.coups)
    assert len(doc.xpath("//figure")) == (len(report.trace) if report else 0) + 1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_injected_mistakes_are_shown_at_their_coup(seed: int) -> None:
    """Mistakes put in by ``replay.generate.inject`` → the verifier's findings → one highlighted
    row each, right after the coup row it belongs to."""
    from trictrac.replay.generate.inject import inject

    rec, injected = inject(selfplay_record(40 + seed), 3, random.Random(seed))
    assert injected
    rep = verify(rec)
    assert rep.findings
    doc = lxml.html.fromstring(render_game(rec, rep, profile=None))
    for f in rep.findings:
        if f.index < 0:
            continue
        row = doc.get_element_by_id(f"coup-{f.index}")
        assert "has-finding" in row.get("class")
        nxt = row.getnext()
        kinds = []
        while nxt is not None and "finding" in (nxt.get("class") or "").split():
            kinds.append((nxt.get("data-kind"), nxt.text_content()))
            nxt = nxt.getnext()
        said = say(f, "fr").citation  # a French page: the rule as the rules reference cites it
        assert any(f.kind == k and said in text for k, text in kinds)
    assert len(doc.xpath("//tr[@data-kind]")) == sum(1 for f in rep.findings if f.index >= 0)
