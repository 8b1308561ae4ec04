"""The site a club posts: French by default (one label table per language), hostile
text never breaks out, pages under 1 KB a coup, the feuille de marque, the index
and the players' pages, the command line, accessibility basics."""

from __future__ import annotations

import json
import re
from pathlib import Path

import lxml.html
import pytest
from click.testing import CliRunner
from publish_helpers import XSS, html5_problems, selfplay_record

from trictrac.notation.record import Comment
from trictrac.notation.writer import write_records
from trictrac.publish.html import CSS, GameSummary, render_game, render_index, render_player
from trictrac.publish.markup import esc, safe_href
from trictrac.publish.site import publish_files
from trictrac.replay.verifier.verify import verify
from trictrac.words.build import load

HOSTILE = [
    "<script>alert(1)</script>",
    "a\"b'c",
    "nul\x00here",
    "bell\x07\x1b[31mred",
    "javascript:alert(1)",
    "</style><img src=x onerror=alert(1)>",
    "\ud800lone",
]


def test_label_tables_have_the_same_keys_and_the_games_words() -> None:
    fr = " ".join(m.string if isinstance(m.string, str) else " ".join(m.string) for m in load("fr") if m.id)
    for word in (
        "relevé",
        "coup",
        "Dés",
        "marque",
        "points",
        "trous",
        "bredouille",
        "école",
        "je m'en vais",
        "je tiens",
        "marqué",
        "à écrire",
        "Feuille de marque",
    ):
        assert word in fr, word


def test_escaping_drops_controls_and_escapes_markup() -> None:
    assert esc('<a href="x">&\'') == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
    assert esc("a\x00b\x07c\x1bd\ud800e\ufffe") == "abcde"
    assert esc("plain text, Zoé") == "plain text, Zoé"
    for bad in ("javascript:alert(1)", " JaVaScRiPt:x", "java\tscript:x", "data:text/html,x", "vbscript:x"):
        assert safe_href(bad) is None, bad
    assert (
        safe_href("standings.html") == "standings.html"
        and safe_href("https://club.fr/?a=1&b=2") == "https://club.fr/?a=1&amp;b=2"
    )


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_and_comments_stay_text(name: str) -> None:
    rec = selfplay_record(7, names=(name, "Bob"))
    rec.headers["Event"] = name
    rec.elements.insert(0, Comment(name))
    page = render_game(rec, verify(rec), profile=None, index_href="javascript:alert(2)")
    assert html5_problems(page) == []
    assert "\x00" not in page and "\x07" not in page and "\x1b" not in page
    page.encode("utf-8")  # no lone surrogate
    doc = lxml.html.fromstring(page)
    assert len(doc.xpath("//script")) == 2 and not doc.xpath("//img") and len(doc.xpath("//style")) == 1
    assert not [a for a in doc.xpath("//a/@href") if a.lower().startswith("javascript")]
    kept = esc(name).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&#39;", "'")
    assert kept.replace("&amp;", "&") in doc.findtext(".//h1")


def test_index_with_hostile_text_and_a_standings_link() -> None:
    games = [
        GameSummary("0001-x.html", 1, {"A": h, "B": "b", "Date": h}, 10, 1, h, kind="en douze trous") for h in HOSTILE
    ]
    page = render_index(
        games, club=XSS, title='T"<', standings_href="standings.html", player_pages={XSS: "joueurs/x.html"}
    )
    assert html5_problems(page) == []
    doc = lxml.html.fromstring(page)
    assert not doc.xpath("//script") and not doc.xpath("//img")
    hrefs = doc.xpath("//a/@href")
    assert "standings.html" in hrefs and "joueurs/x.html" in hrefs
    assert doc.xpath("//a[@href='standings.html']")[0].text == "Classement"
    assert render_index(games, standings_href="javascript:alert(1)").count('javascript:alert(1)"') == 0
    assert "Classement" not in render_index(games)  # no standings page, no link
    player = render_player(XSS, games[:2], player_pages={XSS: "joueurs/x.html"})
    assert html5_problems(player) == [] and not lxml.html.fromstring(player).xpath("//script")
    assert '"../0001-x.html"' in player


def test_a_partie_page_is_under_a_kilobyte_a_coup() -> None:
    """Boards are <use> of the page's definitions (a side's checkers defined once
    for the boards that show them): a whole partie's page under 1 KB a coup."""
    for seed in (3, 4):
        rec = selfplay_record(seed)
        page = render_game(rec, verify(rec), profile=None)
        coups = len(rec.coups)
        assert coups > 150
        size = len(page.encode("utf-8"))
        assert size / coups < 1000, (seed, coups, size)
        if coups <= 320:
            assert size < 300_000


def test_french_page_words() -> None:
    rec = selfplay_record(5)
    doc = lxml.html.fromstring(render_game(rec, verify(rec), profile=None))
    assert doc.get("lang") == "fr"
    heads = [th.text for th in doc.xpath("//table[@class='coups']/thead//th")]
    assert heads == ["N°", "Joueur", "Dés", "Jeu", "Marque et décisions", "Notes"]
    assert doc.xpath("//tr[@class='section']/td")[0].text == "Relevé 1"
    # a board's caption says where it stands: relevé and coup number
    assert re.fullmatch(r"relevé \d+, coup \d+, [AB] \d-\d", doc.get_element_by_id("step-1").findtext("figcaption/b"))
    marks = " ".join(td.text_content() for td in doc.xpath("//tr[contains(@class,'coup')]/td[5]"))
    assert "marque" in marks and "« je " in marks
    en = lxml.html.fromstring(render_game(rec, verify(rec), profile=None, lang="en"))
    assert en.get("lang") == "en" and "Player" in [th.text for th in en.xpath("//thead//th")]


def test_legal_plays_are_listed_once() -> None:
    from trictrac.notation.reader import parse_text

    text = (
        Path(__file__).resolve().parent.parent / "fixtures" / "findings" / "remedy-fausse-case-spread.trn"
    ).read_text("utf-8")
    (rec,), _ = parse_text(text)
    rep = verify(rec)
    alts = [f for f in rep.findings if getattr(f, "alternatives", ())]
    assert alts
    doc = lxml.html.fromstring(render_game(rec, rep, profile=None))
    assert doc.text_content().count("Jeux permis") == len(alts)
    assert "Jeux permis" not in doc.xpath("//section[@class='findings-summary']")[0].text_content()


def test_feuille_de_marque_douze_trous_totals_are_the_verifiers() -> None:
    rec = selfplay_record(8)
    rep = verify(rec)
    doc = lxml.html.fromstring(render_game(rec, rep, profile=None))
    (sheet,) = doc.xpath("//section[@class='feuille']")
    table = sheet.xpath(".//table[contains(@class,'releves')]")[0]
    rows = table.xpath("./tbody/tr")
    releves = {(t.marque or 0, t.releve or 0) for t in rep.trace}
    assert len(rows) == len(releves)
    gains = [[int(td.text) for td in r.xpath("td")[0:4:2]] for r in rows]
    total = [int(td.text) for td in table.xpath("./tfoot/tr/td")[0:4]]
    assert total[0::2] == [sum(g[0] for g in gains), sum(g[1] for g in gains)]
    assert total[1::2] == [rep.final_score.a.holes, rep.final_score.b.holes]
    assert "s'en va" in table.text_content()
    winner = "A" if rep.final_score.a.holes >= 12 else "B"
    assert f"Gagnant : {winner}" in sheet.text_content()
    assert rep.partie is not None and f"Enjeu : partie × {rep.partie['multiplier']}" in sheet.text_content()


def test_feuille_prints_alone_one_sheet_a_page() -> None:
    m = re.search(r"@media print\{(.*)\}\s*$", CSS, re.S)
    assert m
    rules = m.group(1)
    assert "body>*:not(.feuille){display:none" in rules.replace(" ", "")
    assert "break-after:page" in rules and "@page" in rules


def test_site_writes_players_pages_and_links_the_standings(tmp_path: Path) -> None:
    recs = [selfplay_record(31, names=("Ann", "Bob")), selfplay_record(32, "a-ecrire", names=("Ann", "Zoé"))]
    src = tmp_path / "club.trn"
    src.write_text(write_records(recs), encoding="utf-8")
    rep = publish_files([src], tmp_path / "www", club="Cercle", standings_href="standings.html")
    index = lxml.html.fromstring((tmp_path / "www" / "index.html").read_text(encoding="utf-8"))
    assert index.findtext(".//p[@class='club']") == "Cercle"
    assert index.xpath("//a[@href='standings.html']")
    kinds = [tr.xpath("td")[4].text for tr in index.xpath("//table[@class='index']/tbody/tr")]
    assert kinds == ["en douze trous", "à écrire, 2 marqués"]
    ann = tmp_path / "www" / "joueurs" / "ann.html"
    doc = lxml.html.fromstring(ann.read_text(encoding="utf-8"))
    assert sorted(h for h in doc.xpath("//a/@href") if h.startswith("../0")) == sorted(
        "../" + p.name for p in rep.pages
    )
    assert not list((tmp_path / "www").rglob("*.tmp*"))  # atomic writes leave nothing behind


def test_cli_lang_club_and_exit_codes(tmp_path: Path) -> None:
    import dataclasses

    from trictrac.cli.main import cli
    from trictrac.notation.record import Coup, Mark

    rec = selfplay_record(23)
    for i, e in enumerate(rec.elements):  # one over-marked coup: a finding
        if isinstance(e, Coup) and any(isinstance(a, Mark) for a in e.before):
            rec.elements[i] = dataclasses.replace(
                e,
                before=tuple(
                    dataclasses.replace(a, points=a.points + 2) if isinstance(a, Mark) else a for a in e.before
                ),
            )
            break
    src = tmp_path / "g.trn"
    src.write_text(write_records([rec]), encoding="utf-8")
    r = CliRunner().invoke(cli, ["publish", str(src), "-o", str(tmp_path / "www"), "--club", "Cercle", "--json"])
    assert r.exit_code == 0, r.output  # published: findings are on the page, not a failure
    assert json.loads(r.output)["findings"] >= 1
    page = next((tmp_path / "www").glob("0001*.html")).read_text(encoding="utf-8")
    assert '<html lang="fr">' in page
    r = CliRunner().invoke(cli, ["publish", str(src), "-o", str(tmp_path / "en"), "--lang", "en"])
    assert r.exit_code == 0 and '<html lang="en">' in next((tmp_path / "en").glob("0001*.html")).read_text("utf-8")
    r = CliRunner().invoke(cli, ["publish", str(src), "-o", str(tmp_path / "x"), "--lang", "de"])
    assert r.exit_code == 2
    (tmp_path / "file").write_text("x")
    r = CliRunner().invoke(cli, ["publish", str(src), "-o", str(tmp_path / "file")])
    assert r.exit_code == 2 and "Traceback" not in r.output


# --- accessibility ----------------------------------------------------------------------


def _luminance(hex_colour: str) -> float:
    c = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    c = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in c]
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]


def contrast(fg: str, bg: str) -> float:
    a, b = sorted((_luminance(fg), _luminance(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def test_text_colours_have_enough_contrast() -> None:
    """WCAG AA (4.5:1) for the text colours of the stylesheet on their backgrounds."""
    var = {
        k: v if len(v) == 7 else "#" + "".join(c * 2 for c in v[1:])
        for k, v in re.findall(r"--([a-z]+):(#[0-9a-f]{6}|#[0-9a-f]{3})\b", CSS)
    }
    pairs = [
        (var["ink"], "#ffffff"),
        (var["muted"], "#ffffff"),
        (var["link"], "#ffffff"),
        (var["bad"], var["badbg"]),
        (var["warn"], "#ffffff"),
        (var["muted"], var["badbg"]),
        (var["link"], "#e7f0ff"),
        ("#8a6100", "#ffffff"),
        ("#1f4e8c", "#ffffff"),
    ]
    for fg, bg in pairs:
        assert contrast(fg, bg) >= 4.5, (fg, bg, contrast(fg, bg))


def test_boards_and_controls_are_labelled() -> None:
    rec = selfplay_record(9)
    doc = lxml.html.fromstring(render_game(rec, verify(rec), profile=None))
    boards = doc.xpath("//figure//svg")
    assert boards and all(s.get("role") == "img" and (s.findtext("title") or "").strip() for s in boards)
    chart = doc.xpath("//section[@class='chart']/svg")[0]
    assert chart.get("role") == "img" and chart.findtext("title")
    assert doc.xpath("//svg[@class='tt-defs']")[0].get("aria-hidden") == "true"
    for b in doc.xpath("//button"):
        assert b.get("aria-label")
    for inp in doc.xpath("//input"):
        assert doc.xpath(f"//label[@for='{inp.get('id')}']")
    for table in doc.xpath("//table"):
        assert all(th.get("scope") in ("col", "row") for th in table.xpath(".//thead//th[normalize-space()]"))
    assert doc.xpath("//section[contains(@class,'board-pane')]")[0].get("aria-labelledby") == "tt-board-h"
