"""A game page on a phone (360 px wide): the header's cells wrap between words, never
inside one, and the final score's cell keeps each player's score whole (issue 25, a
page nit: « Marque finale » took the width and its score broke mid-word); and nothing is
wider than the screen (the coups table overflowed a phone by 17 px)."""

from __future__ import annotations

from pathlib import Path

import pytest
from publish_helpers import CHROMIUM, have_chromium

from trictrac.publish.site import publish_files

ROOT = Path(__file__).resolve().parent.parent


#: for each header cell: its words' line boxes (a word cut in two has two), and the
#: final score's sides (each on one line)
MEASURE = """() => {
  const cut = [];
  for (const dd of document.querySelectorAll('header dd')) {
    const walker = document.createTreeWalker(dd, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const re = /\\S+/g; let m;
      while ((m = re.exec(n.data))) {
        const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
        if (new Set([...r.getClientRects()].map(x => Math.round(x.top))).size > 1) cut.push(m[0]);
      }
    }
  }
  const sides = [...document.querySelectorAll('.final-score .final-side')].map(s => {
    const r = document.createRange(); r.selectNodeContents(s);
    return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size;
  });
  const dd = [...document.querySelectorAll('header dd')].pop().getBoundingClientRect();
  const feuille = document.querySelector('.feuille').getBoundingClientRect();
  return {cut, sides, right: dd.right, width: innerWidth, scroll: document.documentElement.scrollWidth,
          sheet: document.querySelector('.feuille table').getBoundingClientRect().right - feuille.right};
}"""


@pytest.mark.browser
@pytest.mark.skipif(not have_chromium(), reason="/usr/bin/chromium is not installed")
@pytest.mark.parametrize("size", [(360, 740), (1280, 800)])
def test_the_header_wraps_between_words(tmp_path: Path, size: tuple[int, int]) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    publish_files([ROOT / "fixtures" / "records" / "douze_trous.trn"], tmp_path, lang="fr")
    page = next(p for p in sorted(tmp_path.glob("0001-*.html")))
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        try:
            tab = browser.new_page(viewport={"width": size[0], "height": size[1]})
            tab.goto(page.as_uri())
            got = tab.evaluate(MEASURE)
        finally:
            browser.close()
    assert got["cut"] == [], got
    assert got["sides"] == [1, 1], got
    assert got["right"] <= got["width"], got
    # nothing wider than the screen (the coups table was 17 px over at 360), the score sheet in its box
    assert got["scroll"] <= got["width"] and got["sheet"] <= 0, got


def test_the_rules_profile_is_named_not_coded(tmp_path: Path) -> None:
    """The header names the rules profile (« Lelasseux-Lafosse (1852) »), never by its code."""
    import html
    import re

    for lang in ("fr", "en"):
        out = tmp_path / lang
        publish_files([ROOT / "fixtures" / "records" / "douze_trous.trn"], out, lang=lang)
        page = next(p for p in sorted(out.glob("0001-*.html"))).read_text(encoding="utf-8")
        header = html.unescape(re.sub(r"<[^>]+>", " ", page.split("</header>")[0]))
        assert "lelasseux-1852" not in header and "Lelasseux-Lafosse (1852)" in header, lang


#: the words of the coups table's last columns (marks, notes) cut across two lines
#: between two letters: « Lelasseu|x-Lafosse » (a cut at a space or a hyphen is a wrap)
WORDS_CUT = """() => {
  const cut = [];
  for (const tr of document.querySelectorAll('table.coups tr'))
    for (const td of [...tr.children].slice(4)) {
      const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        let top = null;
        for (let i = 0; i < n.data.length; i++) {
          const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
          const box = r.getBoundingClientRect(); if (!box.height) continue;
          if (top !== null && box.top > top + 2 && /\\p{L}/u.test(n.data[i]) && /\\p{L}/u.test(n.data[i - 1]))
            cut.push(n.data.slice(Math.max(0, i - 10), i) + '|' + n.data.slice(i, i + 8));
          top = box.top;
        }
      }
    }
  return {cut, width: innerWidth, scroll: document.documentElement.scrollWidth};
}"""


@pytest.mark.browser
@pytest.mark.skipif(not have_chromium(), reason="/usr/bin/chromium is not installed")
@pytest.mark.parametrize("width", [360, 390])
def test_the_notes_wrap_at_spaces_and_hyphens(tmp_path: Path, width: int) -> None:
    """On a phone the Notes (and the marks) wrap between words or at a hyphen, never inside
    a word (« Lelasseux-Lafosse » was cut « Lelasseu|x »); a table wider than the screen
    scrolls in its own pane, the page does not."""
    sync_api = pytest.importorskip("playwright.sync_api")
    publish_files([ROOT / "fixtures" / "records" / "comments_glyphs_ecoles.trn"], tmp_path, lang="fr")
    page = next(p for p in sorted(tmp_path.glob("0001-*.html")))
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        try:
            tab = browser.new_page(viewport={"width": width, "height": 844})
            tab.goto(page.as_uri())
            got = tab.evaluate(WORDS_CUT)
        finally:
            browser.close()
    assert got["cut"] == [] and got["scroll"] <= got["width"], got
