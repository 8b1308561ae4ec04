"""Publishing fast without changing the pages (issues 15 and 17): the chart written
as text is the chart lxml wrote, a game's feuille de marque is built once for its page
and for feuilles.html, page boards reuse what they defined, and ``trictrac bench``
reports the site's CPU seconds and the share of it that is verification."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner
from lxml import etree
from publish_helpers import selfplay_record

from trictrac.cli.main import cli
from trictrac.notation.writer import write_records
from trictrac.publish.board import SVG_NS, BoardScore, PageBoards
from trictrac.publish.chart import chart_svg, score_chart
from trictrac.publish.html import game_page, render_game
from trictrac.publish.i18n import labels
from trictrac.publish.sheet import feuille
from trictrac.publish.site import publish_files
from trictrac.replay.verifier.verify import verify


def test_the_chart_text_is_well_formed_and_the_tree_says_the_same() -> None:
    points = {"A": [0, 4, 4, 10, 2], "B": [0, 0, 6, 6, 6]}
    holes = {"A": [0, 0, 0, 0, 1], "B": [0, 0, 0, 0, 0]}
    text = chart_svg(points, holes, breaks=[(3, "R2")], id="c", L="en")
    tree = etree.fromstring(text.replace("<svg ", f'<svg xmlns="{SVG_NS}" ', 1))
    assert tree.get("aria-labelledby") == "c-title" and tree.findtext(f"{{{SVG_NS}}}title")
    series = tree.findall(f".//{{{SVG_NS}}}path")
    assert [p.get("class") for p in series] == ["series a", "series b"] * 2
    # the step line of A's points goes up to 4, then 10, then down to 2: three changes
    assert len(re.findall("V", series[2].get("d"))) == 3
    again = score_chart(points, holes, breaks=[(3, "R2")], id="c", L="en")
    assert etree.tostring(again) == etree.tostring(tree)


def test_a_sheet_is_built_once_and_the_same_on_its_page_and_on_feuilles(tmp_path: Path) -> None:
    rec = selfplay_record(3, "a-ecrire", names=("Zoé <b>", "Léo & Cie"))
    report = verify(rec)
    L = labels("fr")
    done = game_page(rec, report, number=1, lang=L)
    assert done.html == render_game(rec, report, number=1, lang=L)
    assert feuille(rec, report, None, list(report.trace), L).endswith(done.sheet)
    assert done.sheet in done.html and "Zoé &lt;b&gt;" in done.sheet
    src = tmp_path / "one.trn"
    src.write_text(write_records([rec]), encoding="utf-8")
    publish_files([src], tmp_path / "site")
    sheets = (tmp_path / "site" / "feuilles.html").read_text(encoding="utf-8")
    page = next((tmp_path / "site").glob("0001-*.html")).read_text(encoding="utf-8")
    body = page[page.index('<section class="feuille"') :]
    body = body[body.index("</h2>") + 5 : body.index("</section>") + 10]
    assert body in sheets and len(body) > 200


def test_page_boards_define_a_layer_score_and_dice_once() -> None:
    rec = selfplay_record(5)
    trace = verify(rec).trace
    boards = PageBoards()
    first = trace[2]
    args = (first.position_after, BoardScore.of(first.score_standing))
    one = boards.board(*args, last_move=("A", ((1, 7),)), dice=(6, 1), roller="A")
    n_defs = len(boards.defs())
    two = boards.board(*args, last_move=("A", ((1, 7),)), dice=(6, 1), roller="A")
    assert one == two and len(boards.defs()) == n_defs
    # lists of moves and dice are drawn the same (not kept, being unhashable)
    assert boards.board(*args, last_move=("A", [(1, 7)]), dice=[6, 1], roller="A") == one
    uses = re.findall(r'href="#([^"]+)"', one)
    assert uses[0] == "T" and all(f'id="{u}"' in boards.defs() for u in uses[1:])


def test_bench_reports_the_site_cpu_seconds_and_the_verification_share(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    res = CliRunner().invoke(
        cli, ["bench", "-n", "2", "--only", "publish", "--publish-sample", "2", "--json", "--json-file", str(out)]
    )
    assert res.exit_code == 0, res.output
    f = json.loads(res.output)["figures"]
    assert f["publish_site_parties"] == 2 and f["publish_site_cpu_s"] > 0 and f["publish_pages_per_s"] > 0
    assert 0 < f["publish_check_share"] < 1.5  # check alone takes less than the whole site, give or take noise
    steps = [r["step"] for r in json.loads(out.read_text())["rows"]]
    assert steps[-2:] == ["publish", "publish: check"]
