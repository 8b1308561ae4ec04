"""One catalogue for every word (issue 25 §1): the findings are data, and
:func:`trictrac.replay.verifier.findings.say` says them in French or English from the
catalogue; both languages have every key, the same fields, CLDR plurals, and no
surface falls back on another language."""

from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path

import lxml.html
import pytest

from trictrac.bench.typo_bench import KINDS as TYPO_KINDS
from trictrac.bench.typo_bench import make_typo
from trictrac.notation.reader import parse_text
from trictrac.notation.writer import write_record
from trictrac.publish.html import render_game
from trictrac.replay.generate.inject import inject
from trictrac.replay.generate.selfplay import play_partie
from trictrac.replay.rules.moves import VIOLATIONS
from trictrac.replay.verifier.findings import FINDING_KINDS, Finding, FindingKind, kind_name, say
from trictrac.replay.verifier.rulebook import rule_for_kind
from trictrac.replay.verifier.verify import verify, verify_file, verify_text
from trictrac.words import LANGS, lang_from_env, words
from trictrac.words.build import load, main, problems

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = sorted((ROOT / "fixtures" / "findings").glob("*.trn")) + sorted((ROOT / "fixtures" / "books").glob("*.trn"))
# words of English that must not be left in French, and of French in English
ENGLISH = re.compile(r"\b(the|marked|marks|claims|leaves|throws|plays|which|could|holes|points given|of)\b")
FRENCH = re.compile(r"\b(quand|qui|les|une|dans|sans|avec|joue|réclame|marque|adversaire|vérification)\b")


def test_the_catalogues_are_complete_and_compiled() -> None:
    assert problems({lang: load(lang) for lang in LANGS}) == []
    assert main(["--check"]) == 0, "a .mo is stale or a key is missing: run python -m trictrac.words.build"


def test_problems_are_found() -> None:
    fr, en = load("fr"), load("en")
    del en["coup"]
    fr["coup"].string = "coup {m}"
    found = problems({"fr": fr, "en": en})
    assert "en: 'coup' is missing" in found


def test_plurals_follow_each_language_cldr_rule() -> None:
    fr, en = words("fr"), words("en")
    assert [fr.plural(n) for n in (0, 1, 2, 1_000_000)] == [False, False, True, True]
    assert [en.plural(n) for n in (0, 1, 2)] == [True, False, True]
    assert fr.score("score_pair", 1, 0, side="A") == "A 1 trou 0 point"
    assert en.score("score_pair", 1, 0, side="A") == "A 1 hole 0 points"
    with pytest.raises(KeyError):
        fr("no-such-key")


@pytest.mark.parametrize(
    "env, lang",
    [
        ({"LANG": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
        ({"LC_ALL": "en_GB.UTF-8", "LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANGUAGE": "de:fr", "LANG": "en_US"}, "fr"),
        ({"LC_MESSAGES": "fr_CA"}, "fr"),
    ],
)
def test_the_language_follows_the_locale(env: dict[str, str], lang: str) -> None:
    assert lang_from_env(env) == lang


def test_every_kind_is_declared_once_with_its_words_in_both_languages() -> None:
    assert set(FINDING_KINDS) == {k.value for k in FindingKind}
    for kind in FindingKind:
        assert kind.rule.startswith("§") and rule_for_kind(kind.value).anchor, kind
        for lang in LANGS:
            W = words(lang)
            assert W.has(f"finding.{kind.value}.name") and W.has(f"finding.{kind.value}.message"), (lang, kind)
            assert W.has(f"finding.{kind.value}.consequence"), (lang, kind)


def test_every_violation_of_the_movement_laws_has_its_words() -> None:
    for lang in LANGS:
        assert all(words(lang).has(f"why.{v}") for v in VIOLATIONS)


def test_a_finding_cites_its_rule_by_treatise_and_article() -> None:
    f = Finding("ecole-par-trop", who="A", entitled=2, marked=10, detail="par-trop")
    fr, en = say(f, "fr"), say(f, "en")
    assert "Lelasseux-Lafosse 1852, art. 164" in fr.citation and " : " in fr.citation
    assert "Lelasseux-Lafosse 1852, art. 164" in en.citation and fr.anchor == en.anchor
    assert "RULES.md" not in fr.citation + en.citation


def _unquoted(text: str) -> str:
    """The words said, without the announcements quoted at the table (« je ne marque pas »)."""
    return re.sub(r"«[^»]*»|tout d'une", "", text)


@cache
def _generated_findings() -> tuple[Finding, ...]:
    """Findings of the injector over a few generated parties, and of typos read with
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


def test_the_fixtures_and_generated_games_give_every_kind() -> None:
    assert {f.kind for f in _all_findings()} == set(FINDING_KINDS)


def test_every_finding_is_said_in_each_language_without_the_other() -> None:
    names = {"A": "Dupont", "B": "Durand"}
    for f in _all_findings():
        fr, en = say(f, "fr", names), say(f, "en", names)
        for s, foreign in ((fr, ENGLISH), (en, FRENCH)):
            assert s.message and s.message[0].isupper() and "{" not in s.message, f
            assert s.consequence and "{" not in s.consequence, f
            said = _unquoted(s.message + " " + s.consequence)
            assert not foreign.search(said), (s, f)
            assert "RULES.md" not in s.citation and "RULES.md" not in s.consequence
        # a sub-reason the verifier gives is said, not dropped
        if f.kind == "illegal-move" and f.detail not in (None, "did-you-mean"):
            assert words("fr")(f"why.{f.detail}") in fr.message


def test_a_mistake_of_the_record_is_said_as_one_with_its_proposal() -> None:
    """The secretary's typo is not blamed on the player: 'did you mean' in both languages."""
    recovered = [f for f in _all_findings() if f.record_mistake]
    assert {f.kind for f in recovered} >= {"illegal-move", "out-of-turn"}
    for f in recovered:
        fr, en = say(f, "fr", {"A": "Dupont", "B": "Durand"}), say(f, "en")
        assert fr.message.startswith("Erreur de transcription"), fr
        assert en.message.startswith("A mistake of the record"), en
        if f.proposal and f.kind != "out-of-turn":
            assert f"vouliez-vous dire {f.proposal} ?" in fr.message and f"did you mean {f.proposal}?" in en.message
        assert "joue contre la règle" not in fr.message and fr.name == "erreur de transcription"


@pytest.mark.parametrize("kind", sorted(FINDING_KINDS))
def test_saying_never_fails_whatever_fields_are_missing(kind: str) -> None:
    for detail in [None, "no-such-detail", "did-you-mean", "par-trop", "zero", *VIOLATIONS]:
        for entitled, marked in ((None, None), (0, 0), (4, 2), (2, 4)):
            f = Finding(kind, who=None, entitled=entitled, marked=marked, detail=detail)
            for lang in LANGS:
                s = say(f, lang)
                named = words(lang)("finding.record-mistake.name") if f.record_mistake else kind_name(kind, lang)
                assert s.message and s.consequence and s.name == named


def test_the_numbers_and_names_come_from_the_fields() -> None:
    f = Finding("ecole-par-moins", who="A", entitled=4, marked=0)
    assert say(f, "fr", {"A": "Dupont"}).message == "Dupont ne marque rien quand il lui revient 4 : 4 de moins"
    assert say(f, "en", {"A": "Dupont"}).message == "Dupont marks nothing when he is entitled to 4: 4 short"
    f = Finding("ecole-par-trop", who="B", entitled=2, marked=6, detail="par-trop")
    assert say(f, "fr").message == "B marque 6 quand il ne lui revient que 2 : 4 de trop"
    assert say(f, "en").message == "B marks 6 when he is entitled to only 2: 4 too many"
    assert "qui n'a pas été faite" in say(Finding("ecole-claimed-wrongly", entitled=0, marked=4), "fr").message
    f = Finding("out-of-turn", who="A", detail="did-you-mean", alternatives=("B",))
    assert say(f, "fr", {"B": "Durand"}).message.endswith("vouliez-vous dire Durand ?")
    f = Finding("missing-checker", who="A", detail="did-you-mean")
    assert "erreur de transcription" in say(f, "fr").message.lower() and "continue" in say(f, "fr").consequence


def test_the_words_said_once_per_kind_are_each_languages() -> None:
    """``say`` reads the catalogue once per kind, variant and language (a finding-dense
    game says thousands): what it keeps is keyed by language, and the same finding said
    in one language after the other is said as in a fresh process."""
    from trictrac.replay.verifier import findings

    found = [f for path in FIXTURES for rep in verify_file(path) for f in rep.findings]
    assert len({(f.kind, f.detail) for f in found}) > 20
    said: dict[str, list[object]] = {}
    for first, second in (("fr", "en"), ("en", "fr")):
        findings._CHAINS.clear()
        findings._HEADS.clear()
        for lang in (first, second, first):
            said.setdefault(f"{first}>{lang}", []).append([say(f, lang, {"A": "Dupont"}) for f in found])
    for lang in LANGS:
        other = "en" if lang == "fr" else "fr"
        runs = said[f"{lang}>{lang}"] + said[f"{other}>{lang}"]
        assert all(r == runs[0] for r in runs), lang
    assert said["fr>fr"][0] != said["en>en"][0]


def _page(name: str, lang: str) -> tuple[list[Finding], lxml.html.HtmlElement]:
    (rec,), _ = parse_text((ROOT / "fixtures" / "findings" / name).read_text("utf-8"))
    rep = verify(rec)
    return list(rep.findings), lxml.html.fromstring(render_game(rec, rep, profile=None, lang=lang))


def test_a_page_says_the_finding_in_its_language() -> None:
    findings, fr = _page("ecole-par-moins.trn", "fr")
    (f,) = findings
    row = fr.get_element_by_id(f"coup-{f.index}").getnext().text_content()
    s = say(f, "fr", {"A": "A", "B": "B"})
    assert "école par moins" in row and "[ecole-par-moins]" not in row and "Lelasseux-Lafosse 1852, art." in row
    assert fr.xpath("//tr[@data-kind='ecole-par-moins']"), "the stable id is data, not words"
    assert "RULES.md" not in fr.text_content()
    assert s.consequence in row
    _, en = _page("ecole-par-moins.trn", "en")
    row = en.get_element_by_id(f"coup-{f.index}").getnext().text_content()
    assert say(f, "en").consequence in row and "école par moins (under-marked)" in row


def test_illegal_play_names_the_law_and_lists_the_legal_plays_once() -> None:
    findings, fr = _page("e58-illegal-move.trn", "fr")
    f = next(x for x in findings if x.kind == "illegal-move")
    row = fr.get_element_by_id(f"coup-{f.index}").getnext().text_content()
    assert words("fr")(f"why.{f.detail}") in row
    assert row.count("Jeux permis") == 1 and f.alternatives[0] in row


def test_counts_agree_with_their_words_on_a_page() -> None:
    text = Path("fixtures/records/arbitrage_fausse_case.trn").read_text(encoding="utf-8")
    rec = parse_text(text)[0][0]
    rep = verify(rec)
    pages = {lang: lxml.html.fromstring(render_game(rec, rep, lang=lang)).text_content() for lang in ("fr", "en")}
    assert "Jules : 1 trou (pavillon), 0 point" in pages["fr"] and "1 trous" not in pages["fr"]
    assert "Jules: 1 hole" in pages["en"]


def test_every_diagnostic_code_has_its_words() -> None:
    """Each code the reader can report (found in its source) is named in both catalogues."""
    src = "".join(p.read_text("utf-8") for p in (ROOT / "notation").glob("*.py"))
    codes = set(re.findall(r'"([a-z]+(?:-[a-z]+)+)",\s*"(?:error|warning|note)"', src))
    codes |= set(re.findall(r'diag\(\s*"([a-z]+(?:-[a-z]+)+)"', src))
    assert len(codes) >= 15
    for lang in LANGS:
        missing = sorted(c for c in codes if not words(lang).has(f"diag.{c}"))
        assert missing == [], (lang, missing)


def test_a_french_page_says_the_reader_s_faults_in_french() -> None:
    text = (ROOT / "fixtures" / "broken" / "broken_tokens.trn").read_text("utf-8")
    records, diags = parse_text(text)
    rep = verify(records[0], diagnostics=[d for d in diags if d.span.line >= 0])
    page = lxml.html.fromstring(render_game(records[0], rep, lang="fr"))
    items = page.xpath("//section[contains(@class,'diagnostics')]//li")
    assert items, "the broken fixture has diagnostics"
    for li in items:
        assert not ENGLISH.search(_unquoted(li.text_content().split("«")[0])), li.text_content()
