"""Game pages, the index and the site: structure checked with lxml and an HTML5
structure checker; every user text escaped; findings shown with their RULES.md
section; the partie à écrire score sheet (RULES.md §8.2; 003 §233)."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import lxml.html
import pytest
from click.testing import CliRunner
from publish_helpers import XSS, expand, html5_problems, selfplay_record

from trictrac.notation.record import Coup, Mark, MarqueResult
from trictrac.notation.writer import write_records
from trictrac.publish.board import page_checkers
from trictrac.publish.html import GameSummary, render_game, render_index
from trictrac.publish.site import page_name, publish_files
from trictrac.replay.verifier.verify import verify


def mutate_first_mark(record, delta: int = 2) -> tuple[int, int]:
    """Over-mark the first roller's mark by ``delta`` (an école par trop, left unclaimed).
    Returns (index of the coup, points it had)."""
    for i, e in enumerate(record.elements):
        if isinstance(e, Coup) and any(isinstance(a, Mark) for a in e.before):
            before = tuple(
                dataclasses.replace(a, points=a.points + delta) if isinstance(a, Mark) else a for a in e.before
            )
            record.elements[i] = dataclasses.replace(e, before=before)
            marked = next(a.points for a in e.before if isinstance(a, Mark))
            return sum(1 for x in record.elements[:i] if isinstance(x, Coup)), marked
    raise AssertionError("no mark in the record")


@pytest.fixture(scope="module")
def xss_game():
    rec = selfplay_record(11, names=(XSS, "Zoé & <b>Co</b>"))
    rec.headers["Event"] = 'Club "night" </script><script>alert(2)</script>'
    index, marked = mutate_first_mark(rec)
    rep = verify(rec)
    return rec, rep, (index, marked), render_game(rec, rep, profile=None, number=3)


def test_page_is_html5_and_parses(xss_game) -> None:
    _, _, _, page = xss_game
    assert page.startswith("<!DOCTYPE html>")
    assert html5_problems(page) == []
    doc = lxml.html.fromstring(page)
    assert doc.tag == "html" and doc.find("head/title") is not None


def test_player_names_are_text_and_add_no_script(xss_game) -> None:
    rec, _, _, page = xss_game
    doc = lxml.html.fromstring(page)
    scripts = doc.xpath("//script")
    assert len(scripts) == 2  # the JSON data and the stepping script, nothing injected
    assert [s.get("type") for s in scripts] == ["application/json", None]
    assert XSS in doc.findtext(".//h1")
    assert "<script>alert" not in page and page.count("<script") == 2
    data = json.loads(scripts[0].text)
    assert "</" not in scripts[0].text and "<" not in scripts[0].text
    assert data["steps"] == len(doc.xpath("//figure[contains(@class,'tt-step')]"))
    assert doc.get_element_by_id("step-0").findtext("figcaption/b") == "Départ"


def test_a_board_after_every_coup_only_the_last_visible(xss_game) -> None:
    rec, rep, _, page = xss_game
    doc = lxml.html.fromstring(page)
    figs = doc.xpath("//figure[contains(@class,'tt-step')]")
    assert len(figs) == len(rep.trace) + 1
    visible = [f for f in figs if f.get("hidden") is None]
    assert visible == [figs[-1]]  # without JavaScript the final board reads
    # each board draws the 30 checkers (shared defs: a <use> per stack of n)
    for f in (figs[0], figs[len(figs) // 2], figs[-1]):
        svg = f.find("svg")  # lxml.html: SVG elements without a namespace
        assert sum(n for _, _, n in page_checkers(svg)) == 30
    # the data says which step each coup row shows
    rows = doc.xpath("//tr[@data-step]")
    assert len(rows) == len(rep.trace)
    assert rows[0].get("data-step") == "1"


def test_findings_are_highlighted_with_explanation_and_rule(xss_game) -> None:
    _, rep, (index, marked), page = xss_game
    assert [f.kind for f in rep.findings] == ["unclaimed-ecole"]
    doc = lxml.html.fromstring(page)
    row = doc.get_element_by_id(f"coup-{index}")
    assert "has-finding" in row.get("class")
    expl = row.getnext()
    assert "finding" in expl.get("class").split()
    text = expl.text_content()
    assert (
        expl.get("data-kind") == "unclaimed-ecole"
        and "Lelasseux-Lafosse 1852, art. 167, 182" in text
        and f"dû {marked}, marqué {marked + 2}" in text
    )
    summary = doc.xpath("//section[@class='findings-summary']//a/@href")
    assert summary[0] == f"#coup-{index}" and summary[1].startswith("regles.html#")  # the coup, then the rule
    # the board after that coup says the two ledgers part there (RULES.md §7.3)
    step = int(row.get("data-step"))
    caption = doc.get_element_by_id(f"step-{step}").find("figcaption").text_content()
    assert "telle qu'à la table ; la règle donne" in caption
    assert sum("la règle donne" in c.text_content() for c in doc.xpath("//figcaption")) == 1


def test_chart_has_both_players_points_and_holes(xss_game) -> None:
    _, rep, _, page = xss_game
    doc = lxml.html.fromstring(page)
    chart = doc.xpath("//section[@class='chart']")[0]
    lines = [e for e in chart.iter() if (e.get("class") or "").startswith("series")]
    assert len(lines) == 4
    final = rep.final_score
    assert f"{final.a.holes} holes" in chart.text_content() or str(final.a.holes) in chart.text_content()


def test_a_ecrire_page_has_the_papier_et_crayon_sheet() -> None:
    """003 §233: under each name the values of the marqués he lost, then the sums."""
    rec = selfplay_record(2, "a-ecrire", marques=2)
    page = render_game(rec, verify(rec), profile=None)
    assert html5_problems(page) == []
    doc = lxml.html.fromstring(page)
    paper = doc.xpath("//table[contains(@class,'paper')]")[0]
    results = [e for e in rec.elements if isinstance(e, MarqueResult) and not e.refait]
    lost = {"A": 0, "B": 0}
    for r in results:
        lost["B" if r.winner == "A" else "A"] += r.value
    sums = paper.xpath(".//tfoot/tr[1]/td")
    post = paper.xpath(".//tbody/tr[th='postillons']/td")
    with_post = [int(s.text) - (int(p.text) if p.text else 0) for s, p in zip(sums, post)]
    assert with_post == [lost["A"], lost["B"]]
    # a douze-trous page has no sheet
    assert "papier et crayon" not in render_game(selfplay_record(1), None, profile=None)


def test_page_without_report_still_renders() -> None:
    rec = selfplay_record(4)
    page = render_game(rec, None, profile=None)
    assert html5_problems(page) == []
    assert len(lxml.html.fromstring(page).xpath("//figure")) == 1


def test_index_lists_each_game_with_escaped_text() -> None:
    page = render_index(
        [
            GameSummary("0001-x.html", 1, {"A": XSS, "B": "b", "Date": "2025"}, 10, 2, "A 12-3"),
            GameSummary("", 2, {"A": "c"}, 0, 0, error="not verified: bad"),
        ]
    )
    assert html5_problems(page) == []
    doc = lxml.html.fromstring(page)
    assert doc.xpath("//script") == []
    assert XSS in doc.text_content()
    assert doc.xpath("//a/@href") == ["0001-x.html"]


@pytest.mark.parametrize(
    ("headers", "name"),
    [
        ({"A": "Zoé Dupont", "B": "Jean-Luc"}, "0007-zoe-dupont-jean-luc.html"),
        ({"A": "../../etc/passwd", "B": "<script>"}, "0007-etc-passwd-script.html"),
        ({"A": "...", "B": "/"}, "0007.html"),
        ({}, "0007.html"),
    ],
)
def test_page_names_are_safe(headers: dict[str, str], name: str) -> None:
    assert page_name(7, headers) == name


def test_publish_files_writes_index_and_pages(tmp_path: Path) -> None:
    records = [selfplay_record(21, names=(XSS, "Bob")), selfplay_record(22, "a-ecrire", marques=2)]
    src = tmp_path / "club.trn"
    src.write_text(write_records(records), encoding="utf-8")
    out = tmp_path / "site"
    rep = publish_files([src], out)
    assert rep.games == 2 and len(rep.pages) == 2 and not rep.failures
    assert all(re.fullmatch(r"\d{4}(-[a-z0-9-]+)?\.html", p.name) for p in rep.pages)
    index = (out / "index.html").read_text(encoding="utf-8")
    assert html5_problems(index) == []
    hrefs = lxml.html.fromstring(index).xpath("//a/@href")
    games = [h for h in hrefs if re.fullmatch(r"\d{4}.*\.html", h)]
    assert sorted(games) == sorted(p.name for p in rep.pages)
    # one page per player, linked from the index, linking back to the games
    players = sorted({h for h in hrefs if h.startswith("joueurs/")})
    assert len(players) == 4 and all((out / h).exists() for h in players)
    for h in players:
        text = (out / h).read_text(encoding="utf-8")
        assert html5_problems(text) == []
        assert set(lxml.html.fromstring(text).xpath("//a/@href")) & {"../" + p.name for p in rep.pages}
    for p in rep.pages:
        assert html5_problems(p.read_text(encoding="utf-8")) == []
    assert rep.as_dict()["pages_per_second"] > 0


def test_cli_publish_and_board(tmp_path: Path) -> None:
    from trictrac.cli.main import cli

    src = tmp_path / "g.trn"
    src.write_text(write_records([selfplay_record(23)]), encoding="utf-8")
    r = CliRunner().invoke(cli, ["publish", str(src), "-o", str(tmp_path / "www")])
    assert r.exit_code == 0, r.output
    # the count is of every file written (issue 25 §10): game page, index, players, sheets, standings, rules
    written = sorted(q for q in (tmp_path / "www").rglob("*") if q.is_file() and q.name != "published-files.txt")
    assert len(written) >= 6 and f"{len(written)} files written to " in r.output, r.output
    assert "(1 game page, index " in r.output
    r = CliRunner().invoke(cli, ["publish", str(tmp_path / "missing.trn"), "-o", str(tmp_path / "www2")])
    assert r.exit_code == 2 and "missing.trn" in r.output
    r = CliRunner().invoke(cli, ["publish", str(src), "-o", str(tmp_path / "www3"), "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["games"] == 1

    svg = tmp_path / "x.svg"
    r = CliRunner().invoke(cli, ["board", "A{1:13,12:2} B{1:15} turn=B points=4b/0 holes=2p/0", "-o", str(svg)])
    assert r.exit_code == 0 and svg.read_text().count('class="checker ') == 30
    r = CliRunner().invoke(cli, ["board", "A{1:13,12:1,3:1} B{1:15}", "-o", str(svg)])
    assert r.exit_code == 2
    assert "column 8" in r.output and "position-lone-coin" in r.output and "Traceback" not in r.output


def test_compact_record_page_shows_the_scoring_the_verifier_marked() -> None:
    """Compact records (no marks): the verifier marks as perfect players would; the
    page shows its scoring events per coup and the boards with that score."""
    import random

    from trictrac.replay.generate.selfplay import play_partie

    rec = play_partie(random.Random(5), compact=True, headers={"A": "Ann", "B": "Bob"})
    rep = verify(rec)
    page = render_game(rec, rep, profile=None)
    assert html5_problems(page) == []
    doc = lxml.html.fromstring(page)
    assert len(doc.xpath("//figure")) == len(rep.trace) + 1
    scored = [t for t in rep.trace if t.events]
    spans = doc.xpath("//span[@class='entitled']")
    assert scored and len(spans) == len(scored)
    from trictrac.publish.messages import event_words

    assert event_words(scored[0].events[0].kind, scored[0].events[0].how, "fr") in spans[0].text


def test_a_record_starting_from_a_position_draws_it_first() -> None:
    """A ``Position`` header (a book problem) is the first board, with its score."""
    from trictrac.notation.reader import parse_text

    text = '[A "Ann"]\n[B "Bob"]\n[Position "A{1:13,12:2} B{1:15} turn=B coups=1/1 points=4/0"]\n\n1. B 6-5 1/7 1/6\n'
    (rec,), diags = parse_text(text)
    page = render_game(rec, verify(rec), profile=None)
    doc = lxml.html.fromstring(page)
    first = doc.get_element_by_id("step-0")
    svg = first[0]
    desc = svg.findtext("desc")  # lxml.html: SVG elements without a namespace
    assert "12:2" in desc  # two on the coin
    assert ("a2b", "548", 2) in page_checkers(svg)  # x of the coin's flèche
    jetons = [e for e in expand(svg) if (e.get("class") or "").startswith("jeton a")]
    assert len(jetons) == 1
    assert [e.text for e in expand(svg) if "points-label" in (e.get("class") or "")] == ["4"]


# --- a throw played again (the Replay action, RULES.md §9.5) ---------------------------------

FINDINGS = Path(__file__).resolve().parent.parent / "fixtures" / "findings"
# 003 §216 (E59): A{1:9,5:1,6:1,7:2,12:2}, 5-4 set as 5/9 6/9 (a fausse case)
E59_WRITTEN = "A{1:9,7:2,9:2,12:2} B{1:7,4:2,5:2,6:2,12:2} turn=B"


def _replay_page(text: str, lang: str = "en"):
    from trictrac.notation.reader import parse_text

    (rec,), diags = parse_text(text)
    assert [d for d in diags if d.severity == "error"] == []
    rep = verify(rec)
    page = render_game(rec, rep, profile=None, lang=lang)
    assert html5_problems(page) == []  # validates as every page does
    return rec, rep, page, lxml.html.fromstring(page)


def _checkers(svg) -> list[tuple[str, str, int]]:
    """Every stack a board draws: (side, x, checkers; x "off" for borne-off ones),
    namespace-free, the same for a standalone board (a <use> per checker) and a
    page board (a <use> per stack of the page's definitions)."""
    stacks = {}
    for e in svg.iter():
        if not isinstance(e.tag, str):
            continue
        cls = (e.get("class") or "").split()
        if "checker" in cls:
            side = "a" if "a" in cls else "b"
            key = (side, "off" if "off" in cls else e.get("x"))
            stacks[key] = stacks.get(key, 0) + 1
    for sid, x, n in page_checkers(svg):
        stacks[(sid[0], "off" if sid[1] == "o" else x)] = n
    return sorted((side, x, n) for (side, x), n in stacks.items())


def _last_move(svg) -> list[tuple[str, ...]]:
    return sorted(
        (e.get("x1"), e.get("y1"), e.get("x2"), e.get("y2"))
        for e in svg.iter()
        if isinstance(e.tag, str) and e.tag.rsplit("}", 1)[-1] == "line" and e.getparent().get("class") == "last-move"
    )


def _reference(position: str, last_move):
    from trictrac.notation.position import parse_position
    from trictrac.publish.board import BoardScore, board_svg

    spec, diags = parse_position(position)
    assert spec is not None, diags
    return board_svg(spec, BoardScore.of(spec), last_move=last_move, defs=False)


def _board_after_coup(doc, ci: int):
    step = int(doc.get_element_by_id(f"coup-{ci}").get("data-step"))
    fig = doc.get_element_by_id(f"step-{step}")
    return fig, fig.find("svg")


def test_E59_003_216_page_shows_the_position_of_the_replay() -> None:
    """003 §216 (E59): B has A's fausse case 5/9 6/9 played 5/9 6/11.  The coup says so
    in plain words; the board after it has A's checkers on 9 and 11 (not two on 9),
    the arrows show the replay, the caption both plays."""
    rec, rep, page, doc = _replay_page((FINDINGS / "remedy-fausse-case-spread.trn").read_text("utf-8"))
    row = doc.get_element_by_id("coup-0")
    assert row.xpath("td")[3].text_content() == "5/9 6/9"  # the play as first written
    assert row.xpath("td")[4].text_content() == "B has the throw played again: 5/9 6/11"
    assert row.getnext().get("data-kind") == "illegal-move"
    fig, svg = _board_after_coup(doc, 0)
    assert ("a9b", "84", 9) in page_checkers(svg)  # 9 on the talon
    replayed = _reference("A{1:9,7:2,9:1,11:1,12:2} B{1:7,4:2,5:2,6:2,12:2} turn=B", ("A", ((5, 9), (6, 11))))
    written = _reference(E59_WRITTEN, ("A", ((5, 9), (6, 9))))
    assert _checkers(svg) == _checkers(replayed) != _checkers(written)
    assert _last_move(svg) == _last_move(replayed) != _last_move(written)
    assert "coup 1, A 5-4: 5/9 6/9, played again: 5/9 6/11" in fig.find("figcaption").text_content()
    # in French (the default) in the game's words
    doc_fr = _replay_page((FINDINGS / "remedy-fausse-case-spread.trn").read_text("utf-8"), lang="fr")[3]
    assert doc_fr.get_element_by_id("coup-0").xpath("td")[4].text_content() == "B fait rejouer le coup : 5/9 6/11"
    assert (
        "coup 1, A 5-4 : 5/9 6/9, rejoué : 5/9 6/11"
        in _board_after_coup(doc_fr, 0)[0].find("figcaption").text_content()
    )
    # B then hits both blots from there: the next board goes on from the replay
    _, svg2 = _board_after_coup(doc, 1)
    assert "9:1,11:1" in svg2.findtext("desc") and "3:1" in svg2.findtext("desc")


def test_003_216_rejoue_is_the_rollers_own_correction() -> None:
    """003 §216 first sentence: A notices before releasing and plays the same two
    checkers correctly himself: "A replays his throw"."""
    _, _, _, doc = _replay_page((FINDINGS / "remedy-rejoue-fausse-case.trn").read_text("utf-8"))
    row = doc.get_element_by_id("coup-0")
    assert row.xpath("td")[4].text_content() == "A replays his throw: 5/10 6/10"
    _, svg = _board_after_coup(doc, 0)
    assert _checkers(svg) == _checkers(_reference("A{1:9,7:2,10:2,12:2} B{1:7,4:2,5:2,6:2,12:2} turn=B", None))


def test_a_replay_that_cannot_be_played_leaves_the_written_play_on_the_board() -> None:
    """A replay from a point with no checker cannot be played: the verifier lets the
    written play stand (``remedy-not-allowed``, ``not-executable``), so does the board."""
    text = (
        (FINDINGS / "remedy-fausse-case-spread.trn")
        .read_text("utf-8")
        .replace("B:fait-jouer(5/9 6/11)", "B:fait-jouer(3/8 3/7)")
        .replace("2. B 4-2 B+4 1/5 1/3", "")
    )
    rec, rep, page, doc = _replay_page(text)
    assert ("remedy-not-allowed", "not-executable") in [(f.kind, f.detail) for f in rep.findings]
    row = doc.get_element_by_id("coup-0")
    assert row.xpath("td")[4].text_content() == "B has the throw played again: 3/8 3/7"
    fig, svg = _board_after_coup(doc, 0)
    written = _reference(E59_WRITTEN, ("A", ((5, 9), (6, 9))))
    assert _checkers(svg) == _checkers(written)
    assert _last_move(svg) == _last_move(written)
    assert "cannot be played: the written play stands" in fig.find("figcaption").text_content()


@pytest.mark.parametrize(
    "who, side, word",
    [
        ("A", "A", "A replays his throw"),
        ("B", "A", "B has the throw played again"),
        ("A", "B", "A has the throw played again"),
    ],
)
def test_replay_in_plain_words(who: str, side: str, word: str) -> None:
    from trictrac.notation.record import CannotPlay, Move, Replay
    from trictrac.publish.html import _action_text
    from trictrac.publish.i18n import labels

    r = Replay(who, (Move(1, 6), CannotPlay(5)))
    en = labels("en")
    assert _action_text(r, {}, side, en) == f"{word}: 1/6 (5 cannot be played)"
    assert _action_text(Replay(who, ()), {}, side, en) == f"{word}: no checker moved"
    fr = {
        "A replays his throw": "A rejoue son coup",
        "B has the throw played again": "B fait rejouer le coup",
        "A has the throw played again": "A fait rejouer le coup",
    }[word]
    assert _action_text(r, {}, side) == f"{fr} : 1/6 (le 5 ne peut se jouer)"


def test_pavillon_in_plain_words() -> None:
    """*Prendre le pavillon* (RULES.md §5.4): "B takes the pavillon", in the coup's row
    with the hole that earns it, before or after the moves."""
    from trictrac.notation.record import Pavillon
    from trictrac.publish.html import _action_text
    from trictrac.publish.i18n import labels

    assert _action_text(Pavillon("B"), {}, "A", labels("en")) == "B takes the pavillon"
    assert _action_text(Pavillon("B"), {}, "A") == "B prend le pavillon"
    text = (
        '[A "Dupont"]\n[B "Martin"]\n[Partie "a-ecrire 8"]\n\nmarqué 1 A-B\nrelevé 1\n'
        "1. A 6-4 1/7 1/5\n2. B 5-3 B+4t1 B:pavillon 1/6 1/4\n3. A 2-1 1/3 1/2 B:flag\n"
    )
    rec, _, page, doc = _replay_page(text)
    assert (
        doc.get_element_by_id("coup-1")
        .xpath("td")[4]
        .text_content()
        .startswith("B marks 4, 1 hole; B takes the pavillon")
    )
    assert doc.get_element_by_id("coup-2").xpath("td")[4].text_content().startswith("B takes the pavillon")
    assert "takes the pavillon" not in doc.get_element_by_id("coup-0").text_content()
