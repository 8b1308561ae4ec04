"""The rules reference for players (issue 25 item 6): every finding kind has its rule,
every rule quotes its treatise word for word, the docs and the site's page are the
data rendered."""

from __future__ import annotations

import re
from pathlib import Path

import lxml.html
import pytest
from click.testing import CliRunner
from conftest import FIXTURES, ROOT
from publish_helpers import html5_problems

from trictrac.publish.rules_page import render_rules_page, rule_href, rules_page_name
from trictrac.replay.verifier import rulebook
from trictrac.replay.verifier.findings import FINDING_KINDS
from trictrac.replay.verifier.rulebook import (
    KIND_RULES,
    RULES,
    Citation,
    art,
    lepeintre,
    rule,
    rule_for_finding,
    rule_for_kind,
)

_SEEDS = [ROOT.parent / "shared" / "seeds", Path("/work/shared/seeds")]
SEEDS = next((p for p in _SEEDS if (p / "README.md").is_file()), None)
SEED_FILES = {"000": "000_", "001": "001_", "002": "002_", "003": "003_"}


@pytest.mark.parametrize("kind", sorted(FINDING_KINDS))
def test_every_finding_kind_has_a_rule(kind: str) -> None:
    r = rule_for_kind(kind)
    assert r.anchor == KIND_RULES[kind] and r.citations and r.passages


def test_the_kind_map_names_only_real_kinds_and_rules() -> None:
    assert set(KIND_RULES) == set(FINDING_KINDS)
    assert {kind for kind, _ in rulebook._DETAIL_RULES} <= set(FINDING_KINDS)
    for anchor in [*KIND_RULES.values(), *rulebook._DETAIL_RULES.values()]:
        assert rule(anchor).anchor == anchor
    with pytest.raises(ValueError, match="no-such-kind"):
        rule_for_kind("no-such-kind")


def test_a_sub_reason_names_its_narrower_rule() -> None:
    assert rule_for_finding("illegal-move", "larger-number").anchor == "tout-jouer"
    assert rule_for_finding("illegal-move", "wrong-distance").anchor == "marche-des-dames"
    assert rule_for_finding("play-after-end", "partie").anchor == "partie-en-douze-trous"
    assert rule_for_finding("play-after-end", None).anchor == "fin-de-la-partie"


def test_anchors_are_stable_ids_and_the_core_rules_are_there() -> None:
    anchors = [r.anchor for r in RULES]
    assert len(anchors) == len(set(anchors))
    assert all(re.fullmatch(r"[a-z]+(-[a-z]+)*", a) for a in anchors)
    for core in ("valeur-des-coups", "points-et-trous", "bredouille", "s-en-aller", "ecole", "partie-en-douze-trous"):
        assert core in anchors


def test_each_rule_is_said_in_both_languages_without_files() -> None:
    for r in RULES:
        for lang in ("fr", "en"):
            assert r.title(lang) and len(r.statement(lang)) > 40, (r.anchor, lang)
            for text in (r.title(lang), r.statement(lang), r.cite(lang)):
                assert "RULES" not in text and ".md" not in text and "§" not in text, (r.anchor, text)
        assert r.statement("fr") != r.statement("en")


def test_citations_say_the_treatise_and_the_article() -> None:
    assert art("164").text("fr") == "Lelasseux-Lafosse 1852, art. 164"
    assert art("164-167").text("en") == "Lelasseux-Lafosse 1852, art. 164-167"
    # Lepeintre by his own numbers: the transcription's item 47 is his rule 48
    assert lepeintre(47).text("fr") == "Lepeintre 1818, règle 48"
    assert lepeintre(17).text("en") == "Lepeintre 1818, rule 17"
    assert rule("ecole-par-trop").cite("fr") == "Lelasseux-Lafosse 1852, art. 164-167, 172"
    assert rule("ecole-non-marquee").cite("en") == "Lelasseux-Lafosse 1852, art. 167, 182; Lepeintre 1818, rules 44, 48"


def _numbers(where: str) -> range:
    a, _, b = where.partition("-")
    return range(int(a), int(b or a) + 1)


def test_every_passage_is_within_the_rule_s_citations() -> None:
    for r in RULES:
        for p in r.passages:
            cited = [c for c in r.citations if c.key == p.citation.key]
            if p.citation.key in ("003", "001"):
                assert any(set(_numbers(p.citation.where)) <= set(_numbers(c.where)) for c in cited), (r.anchor, p)
            else:
                assert p.citation in cited


def _seed(key: str) -> str:
    assert SEEDS is not None
    (path,) = SEEDS.glob(SEED_FILES[key] + "*.txt")
    return path.read_text(encoding="utf-8")


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.skipif(SEEDS is None, reason="the treatises' transcriptions are not beside the project")
def test_every_passage_is_the_treatise_s_own_words() -> None:
    texts = {k: _seed(k) for k in ("001", "002", "003")}
    for bad, good in rulebook.OCR_FIXES:  # each fix mends a slip the transcription really has
        assert bad != good
        hits = [k for k, t in texts.items() if bad in t]
        assert hits, bad
        for k in hits:
            texts[k] = texts[k].replace(bad, good)
    flat = {k: _norm(t) for k, t in texts.items()}
    for r in RULES:
        for p in r.passages:
            for cut in p.text.split(" […] "):
                assert _norm(cut) in flat[p.citation.key], (r.anchor, p.citation.text(), cut[:60])


@pytest.mark.skipif(SEEDS is None, reason="the treatises' transcriptions are not beside the project")
def test_a_lelasseux_passage_comes_from_the_article_it_cites() -> None:
    """The quoted words sit under the article's own heading (« 164. Définition. »)."""
    text = _seed("003")
    for bad, good in rulebook.OCR_FIXES:
        text = text.replace(bad, good)
    articles: dict[int, str] = {}
    current = None
    for line in text.splitlines()[:1372]:
        m = re.match(r"^(?:<\|[^|]*\|>)?(\d{1,3})\. ", line)
        if m and int(m.group(1)) <= 255:
            # the transcription prints article 194 (Augmentation d'école) as "191." (seeds' README)
            current = 194 if line.startswith("191. Augmentation") else int(m.group(1))
        elif current is not None:
            articles[current] = articles.get(current, "") + " " + line
    for r in RULES:
        for p in r.passages:
            if p.citation.key == "003":
                body = _norm(" ".join(articles.get(n, "") for n in _numbers(p.citation.where)))
                for cut in p.text.split(" […] "):
                    assert _norm(cut) in body, (r.anchor, p.citation.where, cut[:60])


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_docs_are_the_data_rendered(lang: str) -> None:
    """Fails when docs/rules-reference.md or docs/reference-des-regles.md is stale:
    `python -m trictrac.replay.verifier.rulebook --write` renders them again."""
    path = ROOT / rulebook.DOC_FILES[lang]
    assert path.read_text(encoding="utf-8") == rulebook.render_markdown(lang)
    text = path.read_text(encoding="utf-8")
    for r in RULES:
        assert f'<a id="{r.anchor}"></a>' in text and r.title(lang) in text


def test_the_check_command_of_the_docs(tmp_path: Path) -> None:
    assert rulebook.main(["--write", str(tmp_path)]) == 0
    assert rulebook.main(["--check", str(tmp_path)]) == 0
    (tmp_path / rulebook.DOC_FILES["fr"]).write_text("vieux\n", encoding="utf-8")
    assert rulebook.main(["--check", str(tmp_path)]) == 1


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_rules_page_has_one_id_per_rule(lang: str) -> None:
    text = render_rules_page(lang)
    assert html5_problems(text) == []
    doc = lxml.html.fromstring(text)
    assert doc.get("lang") == lang
    ids = doc.xpath("//section[@class='rule']/@id")
    assert ids == [r.anchor for r in RULES]
    quotes = doc.xpath("//blockquote[@lang='fr']")
    assert len(quotes) == sum(len(r.passages) for r in RULES)
    sec = doc.xpath("//section[@id='ecole-par-trop']")[0]
    assert "Lelasseux-Lafosse 1852, art. 164-167, 172" in sec.text_content()
    assert "RULES.md" not in lxml.html.tostring(doc, encoding="unicode")
    assert rule_href("ecole-par-trop", lang) == f"{rules_page_name(lang)}#ecole-par-trop"


def test_publish_writes_the_rules_page_into_the_site(tmp_path: Path) -> None:
    from trictrac.cli.main import cli

    src = FIXTURES / "findings" / "e40-ecole-par-trop.trn"
    for lang, name in (("fr", "regles.html"), ("en", "rules.html")):
        out = tmp_path / lang
        r = CliRunner().invoke(cli, ["publish", str(src), "-o", str(out), "--lang", lang])
        assert r.exit_code == 0, r.output
        doc = lxml.html.fromstring((out / name).read_text(encoding="utf-8"))
        assert doc.xpath(f"//*[@id='{rule_for_kind('ecole-par-trop').anchor}']")


def test_check_names_the_rule_in_the_terminal() -> None:
    from trictrac.cli.main import cli

    r = CliRunner().invoke(cli, ["check", str(FIXTURES / "findings" / "e40-ecole-par-trop.trn")])
    assert r.exit_code == 1
    line = r.output.splitlines()[0]
    assert line.endswith("[École par trop (over-marking): Lelasseux-Lafosse 1852, art. 164-167, 172]"), line
    assert "RULES.md" not in r.output


def test_citation_of_another_treatise() -> None:
    assert Citation("002", "Partie en douze trous").text("fr") == "Guiton, « Partie en douze trous »"


@pytest.mark.parametrize(
    "lang,said",
    [
        ("en", "[École par trop (over-marking): Lelasseux-Lafosse 1852, art. 164-167, 172]"),
        ("fr", "[École par trop : Lelasseux-Lafosse 1852, art. 164-167, 172]"),
    ],
)
def test_annotate_names_the_rule(lang: str, said: str) -> None:
    from trictrac.cli.main import cli

    r = CliRunner().invoke(
        cli, ["annotate", str(FIXTURES / "findings" / "e40-ecole-par-trop.trn"), "-o", "-", "--lang", lang]
    )
    assert r.exit_code == 0 and said in r.output and "RULES.md" not in r.output


def test_every_ocr_fix_mends_a_quoted_passage() -> None:
    quoted = " || ".join(_norm(p.text) for r in RULES for p in r.passages)
    for _, good in rulebook.OCR_FIXES:
        assert _norm(good) in quoted, good
