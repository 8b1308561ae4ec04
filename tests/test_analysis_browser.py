"""The play analysis on a published game page, in a real headless Chromium (Playwright's
Python API with Debian's ``/usr/bin/chromium``): the per-player summary, the chart of the
chances through the game, the written play and the best one drawn side by side, and the
classes' glyphs on the coups."""

from __future__ import annotations

import pytest
from publish_helpers import have_chromium
from test_analysis import _short_record

from trictrac.analysis.review import GLYPHS, analyse_record
from trictrac.publish.html import render_game
from trictrac.replay.verifier.verify import verify

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not have_chromium(), reason="/usr/bin/chromium is not installed"),
]


def test_analysed_page_shows_the_analysis(tmp_path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    rec = _short_record(worst_at=(4, 7, 9))
    analysis = analyse_record(rec)
    classed = [c for c in analysis["coups"] if c["class"]]
    drawn = [c for c in analysis["coups"] if c["class"] or c.get("decision")]
    page_file = tmp_path / "game.html"
    page_file.write_text(render_game(rec, verify(rec, trace=True), analysis=analysis, lang="en"), encoding="utf-8")
    errors: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(page_file.as_uri())
            section = page.locator("section#analysis")
            assert section.is_visible()
            assert section.locator("h2").inner_text() == "Play analysis"
            rows = section.locator("table.an-summary tbody tr")
            assert rows.count() == len(analysis["players"]) == 2
            first = rows.nth(0).locator("td")
            assert first.nth(0).inner_text().startswith("A")
            assert int(first.nth(1).inner_text()) == analysis["players"]["A"]["choices"]
            chart = page.locator("svg#analysis-chart")
            assert chart.is_visible() and chart.bounding_box()["width"] > 100
            points = chart.locator("polyline").get_attribute("points").split()
            assert len(points) == len(analysis["coups"])
            assert chart.locator("circle").count() == len(classed)
            pairs = section.locator("div.an-coup")
            assert pairs.count() == len(drawn)
            for i in range(pairs.count()):
                pair = pairs.nth(i)
                assert pair.locator("figure.an-written svg").is_visible()
                assert pair.locator("figure.an-best svg").is_visible()
                written = pair.locator("figure.an-written").bounding_box()
                best = pair.locator("figure.an-best").bounding_box()
                assert best["x"] > written["x"] or best["y"] > written["y"]  # beside (or below on a narrow page)
            coups_text = page.locator("section.coups-pane").inner_text()
            for c in classed:
                assert GLYPHS[c["class"]] in coups_text
                assert c["best"]["moves"] in coups_text  # the best play as a comment on the coup
        finally:
            browser.close()
    assert not errors, errors
