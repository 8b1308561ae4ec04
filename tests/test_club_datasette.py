"""Datasette on a built club database (issue 15): the metadata ``db datasette`` writes, a
canned query's JSON, a table page with readable labels, full-text search over findings
and école reasons.  Datasette runs on 127.0.0.1 on a free port, waited for with a bound,
and is always stopped."""

from __future__ import annotations

import html
import json
import re
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner
from club_helpers import copy_record, selfplay_records, with_table_talk, write_archive

from trictrac.cli.main import cli
from trictrac.club.importer import import_records

pytest.importorskip("datasette")
FIX = Path(__file__).resolve().parent.parent / "fixtures" / "findings"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=20) as r:
        return r.read().decode("utf-8")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("ds")
    recs = [
        copy_record(r, A="Jean Dupont", B="Marie Martin", Date=f"2024.04.0{i + 1}", Round=str(i + 1))
        for i, r in enumerate(selfplay_records(2, seed=21))
    ]
    recs[0] = with_table_talk(recs[0], ecoles=[(2, "B", 4, "marqué par trop au petit jan")])
    db_path = tmp / "club.db"
    import_records(db_path, [write_archive(tmp / "a.trn", recs), FIX / "e20-unclaimed-ecole.trn"])
    res = CliRunner().invoke(cli, ["db", "datasette", str(db_path), "--club", "Cercle de Rouen"])
    assert res.exit_code == 0, res.output
    meta = tmp / "club.metadata.json"
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "datasette",
            "serve",
            str(db_path),
            "-m",
            str(meta),
            "--plugins-dir",
            str(tmp / "club.plugins"),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                _get(base + "/-/versions.json")
                break
            except OSError as err:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(
                        f"datasette did not start: {proc.stderr.read() if proc.poll() is not None else 'timeout'}"
                    ) from err
                time.sleep(0.2)
        yield base + "/club", recs, json.loads(meta.read_text(encoding="utf-8"))
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def test_metadata_has_titles_labels_and_canned_queries(served) -> None:
    _, _, meta = served
    db = meta["databases"]["club"]
    assert meta["title"] == "Trictrac — Cercle de Rouen"
    assert set(db["queries"]) == {"standings", "player_games", "game_ecoles", "disputed_scores"}
    assert db["tables"]["games"]["label_column"] == "label"
    assert db["tables"]["findings"]["columns"]["rule"] == "la règle appliquée (traité, article)"  # French: the default


def test_canned_standings_query_as_json(served) -> None:
    base, _, _ = served
    rows = json.loads(_get(base + "/standings.json?season=2024&_shape=array"))
    by = {r["player"]: r for r in rows}
    assert set(by) == {"Jean Dupont", "Marie Martin"}
    assert by["Jean Dupont"]["games"] == 2 and by["Jean Dupont"]["wins"] + by["Marie Martin"]["wins"] == 2
    assert by["Jean Dupont"]["ecoles_made"] == 1 and by["Marie Martin"]["ecoles_claimed"] == 1
    every = json.loads(_get(base + "/standings.json?season=&_shape=array"))
    assert sum(r["games"] for r in every) == 6  # the fixture's game (season NULL) too


def test_game_ecoles_and_disputed_scores(served) -> None:
    base, _, _ = served
    label = "2024-04-01 Jean Dupont – Marie Martin, r. 1"
    rows = json.loads(_get(base + "/game_ecoles.json?_shape=array&game=" + urllib.parse.quote(label)))
    claimed = [r for r in rows if r["source"] == "claimed"]
    assert [(r["claimant"], r["made_by"], r["points"], r["detail"]) for r in claimed] == [
        ("Marie Martin", "Jean Dupont", 4, "marqué par trop au petit jan")
    ]
    disputed = json.loads(_get(base + "/disputed_scores.json?_shape=array"))
    assert label in {r["game"] for r in disputed}
    assert any(r["score_findings"] for r in disputed)  # the unclaimed école of the fixture


def test_table_pages_read_well_and_search_finds_findings_and_reasons(served) -> None:
    base, _, _ = served
    page = _get(base + "/coups")
    assert "Coups" in page and "2024-04-01 Jean Dupont – Marie Martin, r. 1" in page  # the game's label, not its hash
    games = _get(base + "/game_list")
    assert "Liste des parties" in games
    # the messages are stored in the import's language, French by default (as the labels)
    hits = json.loads(_get(base + "/findings.json?_search=marque&_shape=array"))
    marked = json.loads(_get(base + "/findings.json?_where=message+like+'%25marque%25'&_shape=array&_size=max"))
    assert marked and {h["id"] for h in marked} <= {h["id"] for h in hits}  # and the kinds named so
    hits = json.loads(_get(base + "/ecoles.json?_search=petit&_shape=array"))
    assert [h["reason"] for h in hits] == ["marqué par trop au petit jan"]


def test_the_games_table_page_starts_with_the_readable_label(served) -> None:
    base, recs, _ = served
    page = _get(base + "/games?_sort=label")
    heads = re.findall(r'<th [^>]*data-column="([^"]+)"', page)
    assert heads[:2] == ["id", "label"] and "sha256" in heads[5:]  # the integer key, the label, the hash further

    first = [
        html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r'<td class="col-label[^"]*">(.*?)</td>', page)
    ]
    assert len(first) == 3 and first[0] == "2024-04-01 Jean Dupont – Marie Martin, r. 1"
    assert not any(re.search(r"[0-9a-f]{16}", c) for c in first)
    data = json.loads(_get(base + "/games.json?_shape=objects&_size=1"))
    assert data["columns"][:2] == ["id", "label"] and data["primary_keys"] == ["id"]


def test_a_link_to_a_game_from_another_table_opens_its_page(served) -> None:
    base, _, _ = served
    page = _get(base + "/findings?_size=50")
    links = set(re.findall(r'<td class="col-game_id[^"]*"><a href="([^"]+)">([^<]+)</a>', page))
    assert links and all("/club/games/" in href for href, _ in links)
    for href, label in links:  # by the game's integer key (schema 5), shown by its label
        assert re.search(r"/club/games/\d+$", href)
        row = _get(base.rsplit("/club", 1)[0] + html.unescape(href))
        assert html.unescape(label) in html.unescape(row)  # the game's own page (a 404 would raise)
    coups = _get(base + "/coups?_size=1")
    assert re.search(r'/club/games/\d+">2024-04-01 Jean Dupont – Marie Martin, r\. 1<', html.unescape(coups))
