"""The site's standings page: ranked from the games published (the very rows the club
database stores, so both agree) or from the club database (``publish --db``), French
by default, linked from the index, printed one sheet per kind of partie."""

from __future__ import annotations

import re
from pathlib import Path

import lxml.html
import pytest
from click.testing import CliRunner
from publish_helpers import XSS, have_chromium, run_chromium, selfplay_record

from trictrac.cli.main import cli
from trictrac.club.db import open_db
from trictrac.club.importer import import_records
from trictrac.club.standings import compute_standings, standing_games
from trictrac.notation.writer import write_records
from trictrac.publish.site import publish_files
from trictrac.replay.verifier.verify import verify


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("club")
    recs = [
        selfplay_record(31, names=("Ann", "Bob")),
        selfplay_record(33, names=("Bob", XSS)),
        selfplay_record(32, "a-ecrire", names=("Ann", "Zoé")),
    ]
    (out / "club.trn").write_text(write_records(recs), encoding="utf-8")
    return out


def _rows(table: lxml.html.HtmlElement) -> list[list[str]]:
    return [[c.text_content() for c in tr.xpath("th|td")] for tr in table.xpath("tbody/tr")]


def test_published_standings_are_the_databases(club: Path, tmp_path: Path) -> None:
    """The page made from the published games shows what ``trictrac standings`` reads
    from the database after ``db import`` of the same file."""
    publish_files([club / "club.trn"], tmp_path / "www")
    import_records(tmp_path / "club.db", [club / "club.trn"])
    db = open_db(tmp_path / "club.db", create=False, readonly=True)
    try:
        st = compute_standings(standing_games(db))
    finally:
        db.close()
    assert st["games"] == 3 and set(st["tables"]) == {"douze-trous", "a-ecrire"}
    doc = lxml.html.fromstring((tmp_path / "www" / "standings.html").read_text(encoding="utf-8"))
    assert doc.get("lang") == "fr" and doc.findtext(".//h1") == "Classement"
    for kind, heading in (("douze-trous", "Partie en douze trous"), ("a-ecrire", "Partie à écrire")):
        sheet = doc.xpath(f"//section[@id='{kind}']")[0]
        assert sheet.findtext("h2").startswith(heading)
        rows = _rows(sheet.xpath(".//table[contains(@class, 'standings')]")[0])
        want = st["tables"][kind]["players"]
        assert [r[1] for r in rows] == [w["player"] for w in want]
        assert [r[2] for r in rows] == [str(w["games"]) for w in want]
        if kind == "a-ecrire":
            assert [r[8] for r in rows] == [f"{w['net_value']:+d}" for w in want]
        else:
            assert [r[3] for r in rows] == [str(w["wins"]) for w in want]
    assert "<script>" not in (tmp_path / "www" / "standings.html").read_text(encoding="utf-8")


def test_the_winner_of_a_douze_trous_is_ranked_first(club: Path, tmp_path: Path) -> None:
    rec = selfplay_record(31, names=("Ann", "Bob"))
    final = verify(rec).final_score
    winner, loser = ("Ann", "Bob") if final.a.holes > final.b.holes else ("Bob", "Ann")
    (tmp_path / "one.trn").write_text(write_records([rec]), encoding="utf-8")
    publish_files([tmp_path / "one.trn"], tmp_path / "www", lang="en")
    doc = lxml.html.fromstring((tmp_path / "www" / "standings.html").read_text(encoding="utf-8"))
    rows = _rows(doc.xpath("//section[@id='douze-trous']//table[contains(@class, 'standings')]")[0])
    holes = {winner: max(final.a.holes, final.b.holes), loser: min(final.a.holes, final.b.holes)}
    assert [r[:4] for r in rows] == [["1", winner, "1", "1"], ["2", loser, "1", "0"]]
    assert [r[7:9] for r in rows] == [[str(holes[winner]), str(holes[loser])], [str(holes[loser]), str(holes[winner])]]
    assert doc.findtext(".//h1") == "Standings"
    cross = _rows(doc.xpath("//table[contains(@class, 'crosstable')]")[0])
    assert cross == [[f"1. {winner}", "×", "1–0"], [f"2. {loser}", "0–1", "×"]]


def test_index_links_the_page_and_the_players(club: Path, tmp_path: Path) -> None:
    publish_files([club / "club.trn"], tmp_path / "www", club="Cercle")
    index = lxml.html.fromstring((tmp_path / "www" / "index.html").read_text(encoding="utf-8"))
    assert index.xpath("//nav//a[@href='standings.html']")[0].text == "Classement"
    doc = lxml.html.fromstring((tmp_path / "www" / "standings.html").read_text(encoding="utf-8"))
    assert doc.findtext(".//p[@class='club']") == "Cercle"
    links = set(doc.xpath("//a/@href"))
    assert {"index.html", "joueurs/ann.html", "joueurs/bob.html"} <= links
    assert all((tmp_path / "www" / h).is_file() for h in links)
    names = doc.xpath("//section[@id='douze-trous']//table[contains(@class, 'standings')]//th[@scope='row']")
    assert XSS in [n.text_content() for n in names]  # a name as text, never markup


def test_cli_db_ranks_the_databases_games(club: Path, tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    import_records(db, [club / "club.trn"])
    one = tmp_path / "one.trn"
    one.write_text(write_records([selfplay_record(40, names=("Nina", "Olga"))]), encoding="utf-8")
    r = CliRunner().invoke(cli, ["publish", str(one), "-o", str(tmp_path / "www"), "--db", str(db)])
    assert r.exit_code == 0, r.output
    page = (tmp_path / "www" / "standings.html").read_text(encoding="utf-8")
    assert "D&#39;après la base du club : 3 parties." in page
    assert ">Zoé<" in page and "Nina" not in page  # the database's players, not the published game's
    r = CliRunner().invoke(cli, ["publish", str(one), "-o", str(tmp_path / "none"), "--db", str(tmp_path / "no.db")])
    assert r.exit_code == 2 and "Traceback" not in r.output and not (tmp_path / "none").exists()
    r = CliRunner().invoke(cli, ["publish", str(one), "-o", str(tmp_path / "own"), "--standings-href", "x.html"])
    index = (tmp_path / "own" / "index.html").read_text(encoding="utf-8")
    assert 'href="x.html"' in index and 'href="standings.html"' not in index


@pytest.mark.skipif(not have_chromium(), reason="/usr/bin/chromium is not installed")
def test_standings_print_one_sheet_per_kind(club: Path, tmp_path: Path) -> None:
    publish_files([club / "club.trn"], tmp_path / "www")
    pdf = tmp_path / "standings.pdf"
    run_chromium(["--no-pdf-header-footer", f"--print-to-pdf={pdf}", (tmp_path / "www" / "standings.html").as_uri()])
    counts = re.findall(rb"/Count (\d+)", pdf.read_bytes())
    assert max(int(c) for c in counts) == 2
