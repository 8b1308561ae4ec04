"""The findings on a French page read in French, in the game's words (issue 15):
publish/messages.py renders each finding from its structured fields, one template
table per kind; English pages keep the verifier's own text."""

from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path
from string import Formatter

import lxml.html
import pytest

from trictrac.notation.reader import parse_text
from trictrac.notation.writer import write_record
from trictrac.publish.html import render_game
from trictrac.publish.messages import (
    CONSEQUENCES_FR,
    KIND_NAMES_FR,
    MESSAGES_FR,
    WHY_FR,
    _fields,
    finding_consequence,
    finding_kind_name,
    finding_message,
    templates_of,
)
from trictrac.replay.findings import FINDING_KINDS, Finding
from trictrac.replay.inject import inject
from trictrac.replay.moves import VIOLATIONS
from trictrac.replay.selfplay import play_partie
from trictrac.replay.typo_bench import KINDS as TYPO_KINDS
from trictrac.replay.typo_bench import make_typo
from trictrac.replay.verify import verify, verify_file, verify_text

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = sorted((ROOT / "fixtures" / "findings").glob("*.trn")) + sorted((ROOT / "fixtures" / "books").glob("*.trn"))
# words of the verifier's English that must not be left on a French page
ENGLISH = re.compile(r"\b(the|marked|claims|leaves|throws|plays|which|could|holes|points given|école of)\b")


@cache
def _generated_findings() -> tuple[Finding, ...]:
    """Findings of `trictrac inject` over a few generated parties, and of typos read with
    recovery (the "did you mean" findings)."""
    out: list[Finding] = []
    for seed in range(3):
        for kind in ("douze-trous", "a-ecrire"):
            rec = play_partie(random.Random(f"fr{seed}"), kind, marques=2)
            bad, _done = inject(rec, 10, random.Random(seed))
            out += verify(bad).findings
            text = write_record(rec)
            for typo_kind in TYPO_KINDS:
                typo = make_typo(text, typo_kind, random.Random(seed))
                if typo is not None:
                    for rep in verify_text(typo[0], recover=True):
                        out += rep.findings
    return tuple(out)


@cache
def _all_findings() -> tuple[Finding, ...]:
    out: list[Finding] = []
    for path in FIXTURES:
        for rep in verify_file(str(path)):
            out += rep.findings
        for rep in verify_text(path.read_text("utf-8"), recover=True):
            out += rep.findings
    return tuple(out) + _generated_findings()


def test_every_kind_has_a_french_name_message_and_consequence() -> None:
    assert set(KIND_NAMES_FR) == set(FINDING_KINDS)
    assert set(MESSAGES_FR) == set(FINDING_KINDS)
    assert set(CONSEQUENCES_FR) == set(FINDING_KINDS)
    for kind in FINDING_KINDS:
        assert None in MESSAGES_FR[kind] and None in CONSEQUENCES_FR[kind], kind


def test_every_template_names_only_known_fields() -> None:
    known = set(_fields(Finding("hole-mismatch", "x"), None))
    for table in (*MESSAGES_FR.values(), *CONSEQUENCES_FR.values()):
        for template in (t for entry in table.values() for t in templates_of(entry)):
            names = {f for _l, f, _s, _c in Formatter().parse(template) if f}
            assert names <= known, template


def test_every_violation_of_the_movement_laws_has_its_words() -> None:
    assert set(VIOLATIONS) <= set(WHY_FR)


def test_the_fixtures_and_generated_games_give_every_kind() -> None:
    assert {f.kind for f in _all_findings()} == set(FINDING_KINDS)


def test_every_finding_renders_in_french_without_english_left() -> None:
    for f in _all_findings():
        msg = finding_message(f, "fr", {"A": "Dupont", "B": "Durand"})
        cons = finding_consequence(f, "fr")
        assert msg and msg[0].isupper() and "{" not in msg, f
        assert not ENGLISH.search(msg), (msg, f)
        assert bool(cons) == bool(f.consequence), f
        assert not ENGLISH.search(cons), (cons, f)
        assert finding_kind_name(f, "fr") == KIND_NAMES_FR[f.kind]
        # a sub-reason the verifier gives is said, not dropped
        if f.kind in ("illegal-move", "remedy-not-allowed") and f.detail not in (None, "did-you-mean"):
            assert f.detail in WHY_FR or f.detail in MESSAGES_FR[f.kind], f.detail


@pytest.mark.parametrize("kind", sorted(FINDING_KINDS))
def test_rendering_never_raises_whatever_fields_are_missing(kind: str) -> None:
    variants = {k for k in (*MESSAGES_FR[kind], *CONSEQUENCES_FR[kind]) if k}
    for detail in sorted(variants) + [None, "no-such-detail"]:
        for entitled, marked in ((None, None), (0, 0), (4, 2), (2, 4)):
            f = Finding(kind, "english", who=None, entitled=entitled, marked=marked, detail=detail, consequence="c")
            assert finding_message(f, "fr") and finding_consequence(f, "fr")
            assert finding_message(f, "en") == "english" and finding_consequence(f, "en") == "c"


def test_the_numbers_and_names_come_from_the_fields() -> None:
    f = Finding("ecole-par-moins", "A marked 0 for a throw worth 4 to him", who="A", entitled=4, marked=0)
    assert finding_message(f, "fr", {"A": "Dupont"}) == "Dupont ne marque rien quand il lui revient 4 : 4 de moins"
    f = Finding("ecole-par-trop", "x", who="B", entitled=2, marked=6, detail="par-trop")
    assert finding_message(f, "fr") == "B marque 6 quand il ne lui revient que 2 : 4 de trop"
    # a false claim of nothing, and of too much
    assert "qui n'a pas été faite" in finding_message(Finding("ecole-claimed-wrongly", "x", entitled=0, marked=4))
    assert finding_message(Finding("ecole-claimed-wrongly", "x", who="A", entitled=2, marked=4)) == (
        "A réclame 4 pour une école de 2"
    )
    # the proposal of a typo is the first alternative
    f = Finding("illegal-move", "x", who="A", detail="did-you-mean", alternatives=("1/7 1/6", "1/13"), consequence="c")
    assert finding_message(f).endswith("sans doute 1/7 1/6")
    assert "1/7 1/6" in finding_consequence(f)
    f = Finding("out-of-turn", "x", who="A", detail="did-you-mean", alternatives=("B",), consequence="c")
    assert finding_message(f, "fr", {"B": "Durand"}).endswith("sans doute Durand")
    # without the proposal, the variant's own wording without it (not the kind's default)
    f = Finding("missing-checker", "x", who="A", detail="did-you-mean", consequence="c")
    assert "erreur d'écriture" in finding_message(f) and "continue" in finding_consequence(f)


def _page(name: str, lang: str) -> tuple[list[Finding], lxml.html.HtmlElement]:
    (rec,), _ = parse_text((ROOT / "fixtures" / "findings" / name).read_text("utf-8"))
    rep = verify(rec)
    return list(rep.findings), lxml.html.fromstring(render_game(rec, rep, profile=None, lang=lang))


def test_a_french_page_says_the_finding_in_french_and_an_english_page_in_english() -> None:
    findings, fr = _page("ecole-par-moins.trn", "fr")
    (f,) = findings
    row = fr.get_element_by_id(f"coup-{f.index}").getnext().text_content()
    assert "école par moins" in row and "[ecole-par-moins]" in row and "RULES.md" in row
    assert finding_message(f, "fr") in row and finding_consequence(f, "fr") in row
    assert f.message not in fr.text_content() and f.consequence not in fr.text_content()
    summary = fr.xpath("//section[@class='findings-summary']")[0].text_content()
    assert finding_message(f, "fr") in summary
    _, en = _page("ecole-par-moins.trn", "en")
    row = en.get_element_by_id(f"coup-{f.index}").getnext().text_content()
    assert f.message in row and f.consequence in row and "école par moins" not in row


def test_illegal_play_in_french_names_the_law_and_lists_the_legal_plays_once() -> None:
    findings, fr = _page("e58-illegal-move.trn", "fr")
    f = next(x for x in findings if x.kind == "illegal-move")
    row = fr.get_element_by_id(f"coup-{f.index}").getnext().text_content()
    assert WHY_FR[f.detail] in row
    assert row.count("Jeux permis") == 1 and f.alternatives[0] in row


def test_counts_agree_with_their_words_in_each_language() -> None:
    """French puts 0 and 1 in the singular ("1 trou", "0 point"), English only 1; the
    final score of a page says so (a game where Jules ends on one hole)."""
    from trictrac.publish.i18n import labels
    from trictrac.replay.verify import verify

    fr, en = labels("fr"), labels("en")
    assert [fr.plural(n) for n in (0, 1, 2)] == [False, False, True]
    assert [en.plural(n) for n in (0, 1, 2)] == [True, False, True]
    assert fr.score("score_pair", 1, 0, side="A") == "A 1 trou 0 point"
    assert en.score("score_pair", 1, 0, side="A") == "A 1 hole 0 points"
    text = Path("fixtures/records/arbitrage_fausse_case.trn").read_text(encoding="utf-8")
    rec = parse_text(text)[0][0]
    rep = verify(rec)
    pages = {lang: lxml.html.fromstring(render_game(rec, rep, lang=lang)).text_content() for lang in ("fr", "en")}
    assert "Jules : 1 trou (pavillon), 0 point" in pages["fr"] and "1 trous" not in pages["fr"]
    assert "Jules: 1 hole" in pages["en"]


def test_the_rule_of_an_illegal_play_sends_to_its_reason_in_the_page_language() -> None:
    """The illegal-move kind cites RULES.md §3 "see the sub-reason": a French page says it
    in French, beside the sub-reason it sends to."""
    from trictrac.replay.verify import verify

    rec = parse_text(Path("fixtures/records/arbitrage_fausse_case.trn").read_text(encoding="utf-8"))[0][0]
    rep = verify(rec)
    assert any(f.kind == "illegal-move" for f in rep.findings)
    fr = lxml.html.fromstring(render_game(rec, rep, lang="fr")).text_content()
    en = lxml.html.fromstring(render_game(rec, rep, lang="en")).text_content()
    assert "RULES.md §3 (voir le motif), §9.5" in fr and "see the sub-reason" not in fr
    assert "RULES.md §3 (see the sub-reason), §9.5" in en
