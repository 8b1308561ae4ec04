"""Published pages in a real headless Chromium (Debian's ``chromium``): they load
without console errors, stepping through coups changes the board, a screenshot is
not blank, and a player named ``<script>alert(1)</script>`` shows as text."""

from __future__ import annotations

import json
from pathlib import Path

import lxml.html
import pytest

from publish_helpers import XSS, have_chromium, png_colours, run_chromium, selfplay_record
from trictrac.notation.record import Coup
from trictrac.notation.writer import write_records
from trictrac.publish.board import board_svg, svg_text
from trictrac.notation.position import parse_position
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
    r = run_chromium(["--enable-logging=stderr", "--v=0", "--virtual-time-budget=3000", "--dump-dom",
                      page.as_uri()])
    assert r.returncode == 0
    assert console_lines(r.stderr) == []
    dom = lxml.html.fromstring(r.stdout)
    assert XSS in dom.findtext(".//h1")
    assert len(dom.xpath("//script")) == 2  # no script element came from the name
    controls = dom.get_element_by_id("tt-controls")
    assert controls.get("hidden") is None  # the script ran and showed the buttons
    last = [e for e in short_game(31).elements if isinstance(e, Coup)][-1]
    # the script starts on the last board (coup numbers restart at each relevé)
    assert dom.get_element_by_id("tt-where").text_content().startswith(f"Coup {last.number}, {last.side} ")


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

    r = run_chromium(["--enable-logging=stderr", "--v=0", "--virtual-time-budget=3000", "--dump-dom",
                      variant.as_uri()])
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
    assert res["where"].startswith("Coup 5,") and res["boardWidth"] > 200
    assert XSS in res["h1"] and res["scripts"] == 4

    # the boards the buttons showed are different positions
    def checkers(step: int) -> list[tuple[str, str, str]]:
        fig = dom.get_element_by_id(f"step-{step}")
        return sorted((e.get("class"), e.get("x"), e.get("y")) for e in fig.iter()
                      if "checker" in (e.get("class") or "").split())

    assert len(checkers(0)) == 30 and checkers(0) != checkers(1) != checkers(5)


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
    r = run_chromium(["--enable-logging=stderr", "--v=0", "--window-size=620,560", f"--screenshot={shot}",
                      svg.as_uri()])
    assert console_lines(r.stderr) == []
    assert len(png_colours(shot)) > 5


def test_index_links_to_every_page(site: Path) -> None:
    r = run_chromium(["--virtual-time-budget=2000", "--dump-dom", (site / "index.html").as_uri()])
    dom = lxml.html.fromstring(r.stdout)
    hrefs = dom.xpath("//a/@href")
    assert sorted(hrefs) == sorted(p.name for p in site.glob("0*.html"))
    assert XSS in dom.text_content() and not dom.xpath("//script")
