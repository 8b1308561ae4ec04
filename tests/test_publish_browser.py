"""Published pages in a real headless Chromium (Debian's ``chromium``): they load
without console errors, stepping through coups changes the board, a screenshot is
not blank, and a player named ``<script>alert(1)</script>`` shows as text."""

from __future__ import annotations

import json
import re
from pathlib import Path

import lxml.html
import pytest
from publish_helpers import XSS, have_chromium, png_colours, run_chromium, selfplay_record

from trictrac.notation.position import parse_position
from trictrac.notation.record import Coup
from trictrac.notation.writer import write_records
from trictrac.publish.board import board_svg, page_checkers, svg_text
from trictrac.publish.site import publish_files

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not have_chromium(), reason="/usr/bin/chromium is not installed"),
]

# Runs before the page's own scripts: collects errors and any alert() call.
COLLECTOR = """
window.__errors = []; window.__alerts = 0;
window.addEventListener('error', function (e) { window.__errors.push(String(e.message)); });
(function () { var ce = console.error;
  console.error = function () { window.__errors.push(Array.prototype.join.call(arguments, ' ')); ce.apply(console, arguments); };
})();
window.alert = function () { window.__alerts += 1; };
"""

# Runs after the page's script: drives the controls and writes what it saw into the DOM.
PROBE = """
(function () {
  function vis() { return Array.prototype.map.call(document.querySelectorAll('figure.tt-step:not([hidden])'),
                                                  function (f) { return f.id; }); }
  var r = {initial: vis(), controlsHidden: document.getElementById('tt-controls').hidden};
  document.getElementById('tt-prev').click(); r.afterPrev = vis();
  document.getElementById('tt-first').click(); r.afterFirst = vis();
  document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true})); r.afterRight = vis();
  var row = document.querySelector('tr[data-step="5"]'); row.click(); r.afterRow = vis();
  r.rowCurrent = row.classList.contains('current');
  r.where = document.getElementById('tt-where').textContent;
  r.boardWidth = document.querySelector('figure.tt-step:not([hidden]) svg').getBoundingClientRect().width;
  r.h1 = document.querySelector('h1').textContent;
  r.scripts = document.scripts.length;
  r.errors = window.__errors; r.alerts = window.__alerts;
  var pre = document.createElement('pre'); pre.id = 'tt-probe'; pre.textContent = JSON.stringify(r);
  document.body.appendChild(pre);
})();
"""


def short_game(seed: int, coups: int = 40):
    """A generated partie cut after ``coups`` coups (small pages keep the test fast)."""
    rec = selfplay_record(seed, names=(XSS, "Bob"))
    kept, n = [], 0
    for e in rec.elements:
        if isinstance(e, Coup):
            n += 1
            if n > coups:
                break
        kept.append(e)
    rec.elements[:] = kept
    rec.headers.pop("Result", None)
    return rec


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    src = out / "games.trn"
    src.write_text(write_records([short_game(31), short_game(32)]), encoding="utf-8")
    rep = publish_files([src], out / "www")
    assert len(rep.pages) == 2
    return out / "www"


def console_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


def test_page_loads_without_console_errors_and_the_name_is_text(site: Path) -> None:
    page = sorted(site.glob("0001-*.html"))[0]
    r = run_chromium(["--enable-logging=stderr", "--v=0", "--virtual-time-budget=3000", "--dump-dom", page.as_uri()])
    assert r.returncode == 0
    assert console_lines(r.stderr) == []
    dom = lxml.html.fromstring(r.stdout)
    assert XSS in dom.findtext(".//h1")
    assert len(dom.xpath("//script")) == 2  # no script element came from the name
    controls = dom.get_element_by_id("tt-controls")
    assert controls.get("hidden") is None  # the script ran and showed the buttons
    last = [e for e in short_game(31).elements if isinstance(e, Coup)][-1]
    # the script starts on the last board (coup numbers restart at each relevé)
    assert re.match(rf"relevé \d+, coup {last.number}, {last.side} ", dom.get_element_by_id("tt-where").text_content())


def test_stepping_through_coups_changes_the_board(site: Path, tmp_path: Path) -> None:
    page = sorted(site.glob("0001-*.html"))[0]
    doc = lxml.html.fromstring(page.read_text(encoding="utf-8"))
    head = doc.find("head")
    col = lxml.html.Element("script")
    col.text = COLLECTOR
    head.insert(0, col)
    probe = lxml.html.Element("script")
    probe.text = PROBE
    doc.find("body").append(probe)
    variant = tmp_path / "variant.html"
    variant.write_text(lxml.html.tostring(doc, doctype="<!DOCTYPE html>", encoding="unicode"), encoding="utf-8")

    r = run_chromium(["--enable-logging=stderr", "--v=0", "--virtual-time-budget=3000", "--dump-dom", variant.as_uri()])
    dom = lxml.html.fromstring(r.stdout)
    res = json.loads(dom.get_element_by_id("tt-probe").text)
    n = len(doc.xpath("//figure[contains(@class,'tt-step')]"))
    assert res["errors"] == [] and res["alerts"] == 0 and console_lines(r.stderr) == []
    assert res["controlsHidden"] is False
    assert res["initial"] == [f"step-{n - 1}"]
    assert res["afterPrev"] == [f"step-{n - 2}"]
    assert res["afterFirst"] == ["step-0"]
    assert res["afterRight"] == ["step-1"]
    assert res["afterRow"] == ["step-5"] and res["rowCurrent"] is True
    assert res["where"].startswith("relevé 1, coup 5,") and res["boardWidth"] > 200
    assert XSS in res["h1"] and res["scripts"] == 4

    # the boards the buttons showed are different positions
    def checkers(step: int) -> list[tuple[str, str, int]]:
        return page_checkers(dom.get_element_by_id(f"step-{step}"))

    assert sum(n for _, _, n in checkers(0)) == 30 and checkers(0) != checkers(1) != checkers(5)


def test_screenshot_is_not_blank(site: Path, tmp_path: Path) -> None:
    page = sorted(site.glob("0002-*.html"))[0]
    shot = tmp_path / "page.png"
    run_chromium(["--window-size=1100,800", "--hide-scrollbars", f"--screenshot={shot}", page.as_uri()])
    assert shot.exists()
    colours = png_colours(shot)
    assert len(colours) > 8  # text, flèches, checkers, bande: far from one colour


def test_standalone_board_svg_renders(tmp_path: Path) -> None:
    spec, _ = parse_position("A{1:13,12:2} B{1:11,5:2,6:2} turn=B coups=2/2 points=4b/6 holes=3/1p")
    svg = tmp_path / "board.svg"
    svg.write_text(svg_text(board_svg(spec, size=600)), encoding="utf-8")
    shot = tmp_path / "board.png"
    r = run_chromium(
        ["--enable-logging=stderr", "--v=0", "--window-size=620,560", f"--screenshot={shot}", svg.as_uri()]
    )
    assert console_lines(r.stderr) == []
    assert len(png_colours(shot)) > 5


def test_index_links_to_every_page(site: Path) -> None:
    r = run_chromium(["--virtual-time-budget=2000", "--dump-dom", (site / "index.html").as_uri()])
    dom = lxml.html.fromstring(r.stdout)
    hrefs = dom.xpath("//a/@href")
    assert sorted(h for h in hrefs if re.fullmatch(r"\d{4}.*\.html", h)) == sorted(p.name for p in site.glob("0*.html"))
    assert XSS in dom.text_content() and not dom.xpath("//script")


# Reads what the page shows with its own scripts taken out (plain HTML and CSS).
NOJS_PROBE = """
window.addEventListener('load', function () {
  function shown() { return Array.prototype.filter.call(document.querySelectorAll('figure.tt-step'),
      function (f) { return getComputedStyle(f).display !== 'none'; }).map(function (f) { return f.id; }); }
  var r = {shown: shown(), controls: getComputedStyle(document.getElementById('tt-controls')).display};
  var flip = document.getElementById('tt-flip');
  var fig = document.getElementById(r.shown[0]);
  r.before = getComputedStyle(fig.querySelector('g.m')).transform;
  flip.checked = true;
  r.after = getComputedStyle(fig.querySelector('g.m')).transform;
  r.fy = getComputedStyle(fig.querySelector('g.m')).getPropertyValue('--fy').trim();
  r.sides = Array.prototype.filter.call(document.querySelectorAll('p.side'),
      function (p) { return getComputedStyle(p).display !== 'none'; }).map(function (p) { return p.textContent; });
  r.links = Array.prototype.map.call(fig.querySelectorAll('figcaption a'), function (a) { return a.getAttribute('href'); });
  var pre = document.createElement('pre'); pre.id = 'tt-probe'; pre.textContent = JSON.stringify(r);
  document.body.appendChild(pre);
});
"""


def _without_scripts(page: Path, tmp_path: Path) -> Path:
    doc = lxml.html.fromstring(page.read_text(encoding="utf-8"))
    for s in doc.xpath("//script"):
        s.getparent().remove(s)
    probe = lxml.html.Element("script")
    probe.text = NOJS_PROBE
    doc.find("body").append(probe)
    out = tmp_path / "nojs.html"
    out.write_text(lxml.html.tostring(doc, doctype="<!DOCTYPE html>", encoding="unicode"), encoding="utf-8")
    return out


@pytest.mark.parametrize("target", [None, 3])
def test_without_javascript_every_board_is_reached_by_its_link(site: Path, tmp_path: Path, target) -> None:
    """Plain HTML: no dead buttons, the last board shown, the one a coup's link
    targets instead; each board links the previous and next; the checkbox turns the
    board to the other player's side (names swapped, texts kept upright)."""
    page = sorted(site.glob("0001-*.html"))[0]
    n = len(lxml.html.fromstring(page.read_text(encoding="utf-8")).xpath("//figure"))
    url = _without_scripts(page, tmp_path).as_uri() + ("" if target is None else f"#step-{target}")
    r = run_chromium(["--virtual-time-budget=3000", "--dump-dom", url])
    res = json.loads(lxml.html.fromstring(r.stdout).get_element_by_id("tt-probe").text)
    k = n - 1 if target is None else target
    assert res["shown"] == [f"step-{k}"]
    assert res["controls"] == "none"  # the buttons need the script: not shown without it
    assert res["before"] == "none" and res["after"].startswith("matrix(1, 0, 0, -1,") and res["fy"] == "-1"
    assert len(res["sides"]) == 2 and res["sides"][0].startswith("En haut : A") and "Bob" in res["sides"][1]
    assert res["links"] == [f"#step-{k - 1}"] + ([f"#step-{k + 1}"] if k < n - 1 else [])


def _pdf_pages(pdf: Path) -> int:
    counts = re.findall(rb"/Type\s*/Pages\b[^>]*?/Count (\d+)|/Count (\d+)", pdf.read_bytes())
    return max(int(a or b) for a, b in counts)


def test_printing_gives_the_feuilles_de_marque_one_a_page(site: Path, tmp_path: Path) -> None:
    """The print style keeps only the feuille de marque: a game page prints on one
    sheet of paper, the evening's feuilles.html on one sheet a game."""
    game = sorted(site.glob("0001-*.html"))[0]
    for page, expect in ((game, 1), (site / "feuilles.html", 2)):
        pdf = tmp_path / f"{page.stem}.pdf"
        run_chromium(["--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.as_uri()])
        assert pdf.exists() and _pdf_pages(pdf) == expect, page.name
    # what the print shows (the print rules applied on screen): the sheet, not the boards
    text = (site / "feuilles.html").read_text(encoding="utf-8").replace("@media print{", "@media all{")
    shown = tmp_path / "print-view.html"
    shown.write_text(text, encoding="utf-8")
    shot = tmp_path / "print.png"
    run_chromium(["--window-size=800,1100", "--hide-scrollbars", f"--screenshot={shot}", shown.as_uri()])
    assert len(png_colours(shot)) > 2


def test_screenshots_of_a_game_the_index_and_a_player(site: Path, tmp_path: Path) -> None:
    shots = {}
    for name, page in (
        ("game", sorted(site.glob("0001-*.html"))[0]),
        ("index", site / "index.html"),
        ("player", sorted((site / "joueurs").glob("*.html"))[0]),
    ):
        shots[name] = tmp_path / f"{name}.png"
        r = run_chromium(
            [
                "--enable-logging=stderr",
                "--v=0",
                "--window-size=1200,900",
                "--hide-scrollbars",
                f"--screenshot={shots[name]}",
                page.as_uri(),
            ]
        )
        assert console_lines(r.stderr) == []
        assert len(png_colours(shots[name])) > 3, name
