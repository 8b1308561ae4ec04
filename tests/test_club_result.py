"""One result a game (issue 25 item 3): ``replay.verifier.result.game_result`` of the verifier's replay
is what ``check --json`` says, what ``db import`` stores (schema 6: ``games.kind``,
``finished``, ``winner`` and the ``results`` rows), and what the standings, the canned
queries and the published front page read — over every fixture.  And the migration from 5."""

from __future__ import annotations

import gzip
import html
import re
import shutil
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from trictrac.club import migrations
from trictrac.club.datasette import CANNED_QUERIES
from trictrac.club.db import open_db
from trictrac.club.importer import import_records
from trictrac.club.standings import compute_standings, standing_games
from trictrac.notation.reader import iter_records
from trictrac.replay.verifier.result import game_result
from trictrac.replay.verifier.verify import verify
from trictrac.words import words

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
FIXTURES = sorted(
    p
    for part in ("records", "books", "findings")
    for p in (ROOT / "fixtures" / part).glob("*.trn")
    if not p.name.startswith("broken")
)


def _expected() -> dict[tuple[str, int], dict]:
    """Each fixture game's result as ``check --json`` gives it, keyed by (file, first line)."""
    out = {}
    for path in FIXTURES:
        for i, parsed in enumerate(iter_records(path, file=str(path))):
            rec = parsed.record
            if rec is None or any(d.severity == "error" for d in parsed.diagnostics):
                continue
            rep = verify(rec, None, file=str(path), game=i, trace=False, recover=True)
            as_json = rep.as_dict()["result"]
            assert as_json == game_result(rep, rec).as_dict() or rec.headers.get("Partie", "").split()[0] in (
                "chouette",
                "a-quatre",
                "a-tourner",
            )
            out[(str(path), rec.span.line)] = {"json": as_json, "result": game_result(rep, rec), "headers": rec.headers}
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    db = tmp_path_factory.mktemp("res") / "club.db"
    import_records(db, [str(p) for p in FIXTURES])
    return db, _expected()


def test_stored_result_is_the_verifiers(built: tuple[Path, dict]) -> None:
    db, expected = built
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT id, source_file, source_line, kind, finished, winner FROM games").fetchall()
    seen = 0
    for gno, file, line, kind, finished, winner in rows:
        exp = expected.get((file, line))
        if exp is None:  # a game stored twice under one text is stored once
            continue
        seen += 1
        j = exp["json"]
        assert (kind, bool(finished), winner) == (j["kind"], j["finished"], j["winner"]), (file, line)
        stored = {
            s: (h, o, w, lo, v)
            for s, h, o, w, lo, v in conn.execute(
                "SELECT seat, holes, outcome, marques_won, marques_lost, marque_value FROM results WHERE game_id = ?",
                (gno,),
            )
        }
        want = {
            s: (r.holes, r.outcome, r.marques_won, r.marques_lost, r.marque_value)
            for s, r in exp["result"].seats.items()
        }
        assert stored == want, (file, line)
    assert seen >= 100
    kinds = Counter(k for (k,) in conn.execute("SELECT kind FROM games"))
    assert {"douze-trous", "a-ecrire", "chouette", "a-quatre"} <= set(kinds), kinds
    assert conn.execute("SELECT COUNT(*) FROM games WHERE finished = 1").fetchone()[0] >= 1


def test_standings_and_canned_query_count_the_stored_results(built: tuple[Path, dict]) -> None:
    db, _ = built
    conn = sqlite3.connect(db)
    # the counts the results say, per player
    want: dict[str, Counter] = {}
    for name, outcome, holes, kind in conn.execute(
        "SELECT p.name, r.outcome, r.holes, g.kind FROM results r JOIN players p ON p.id = r.player_id "
        "JOIN games g ON g.id = r.game_id"
    ):
        c = want.setdefault(name, Counter())
        c["games"] += 1
        c[{"win": "wins", "loss": "losses", "draw": "draws"}.get(outcome or "", "unfinished")] += 1
        if kind == "douze-trous":
            c["holes_for"] += holes or 0
    conn.row_factory = sqlite3.Row
    canned = conn.execute(CANNED_QUERIES["standings"]["sql"], {"season": ""}).fetchall()
    assert canned
    for row in canned:
        for col in ("wins", "losses", "draws", "unfinished", "holes_for", "holes_against", "marques_won"):
            assert row[col] is not None, (row["player"], col)  # 0, never null, where the CLI says 0
        c = want[row["player"]]
        got = (row["games"], row["wins"], row["losses"], row["draws"], row["unfinished"], row["holes_for"])
        exp = (c["games"], c["wins"], c["losses"], c["draws"], c["unfinished"], c["holes_for"])
        assert got == exp, row["player"]
    d = open_db(db, create=False, readonly=True)
    try:
        st = compute_standings(standing_games(d))
    finally:
        d.close()
    total: dict[str, Counter] = {}
    for table in st["tables"].values():
        for p in table["players"]:
            t = total.setdefault(p["player"], Counter())
            for k in ("wins", "losses", "draws", "unfinished"):
                t[k] += p[k]
    for name, t in total.items():
        assert all(t[k] == want[name][k] for k in ("wins", "losses", "draws", "unfinished")), name


def test_front_page_says_the_same_result(built: tuple[Path, dict], tmp_path: Path) -> None:
    from trictrac.publish.site import publish_files

    _, expected = built
    files = [p for p in FIXTURES if p.parent.name == "records"]
    publish_files([str(p) for p in files], tmp_path / "www", lang="fr")
    page = html.unescape((tmp_path / "www" / "index.html").read_text(encoding="utf-8"))
    cells = re.findall(r"<tr[ >].*?</tr>", page, flags=re.S)
    L = words("fr")
    said = [exp["result"].text(L) for (f, _), exp in sorted(expected.items()) if Path(f) in files]
    assert len(said) >= 10
    for text in said:
        assert any(f"<td>{text}</td>" in c for c in cells), text
    # one unfinished game and another are said alike: no bare '*' from a Result header
    assert "<td>*</td>" not in page


def test_migration_5_to_6(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    with gzip.open(DATA / "club_v5.db.gz", "rb") as src, open(db, "wb") as out:
        shutil.copyfileobj(src, out)
    before = sqlite3.connect(db)
    counts = {t: before.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in ("games", "coups", "results")}
    before.close()
    open_db(db, create=False).close()
    conn = sqlite3.connect(db)
    assert (
        conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == migrations.SCHEMA_VERSION
    )
    assert {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in counts} == counts
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'club_games_site'").fetchone()  # the club's own
    got = {
        label: (kind, finished, winner)
        for label, kind, finished, winner in conn.execute("SELECT label, kind, finished, winner FROM games")
    }
    assert got["2025-02-03 Bot A – Bot B, r. 1"] == ("douze-trous", 1, "A")
    assert got["2025-02-03 Bot A – Bot B, r. 4"] == ("douze-trous", 0, None)  # cut short
    ecrire = got["1852-03-04 Dupont – Martin, Partie à écrire du jeudi"]
    assert ecrire == ("a-ecrire", 0, None)  # 2 marqués of 4: not over
    assert conn.execute(
        "SELECT COUNT(*) FROM results r JOIN games g ON g.id = r.game_id WHERE g.kind != 'douze-trous' "
        "AND g.finished = 0 AND r.outcome IS NOT NULL"
    ).fetchone() == (0,)
    assert {k for (k,) in conn.execute("SELECT kind FROM games")} >= {"douze-trous", "a-ecrire", "chouette", "a-quatre"}
    # the views read the stored result
    row = conn.execute(
        "SELECT winner, finished FROM game_list WHERE game = '2025-02-03 Bot A – Bot B, r. 1'"
    ).fetchone()
    assert row == ("Bot A", 1)


def test_migration_5_to_6_is_one_transaction(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "club.db"
    with gzip.open(DATA / "club_v5.db.gz", "rb") as src, open(db, "wb") as out:
        shutil.copyfileobj(src, out)
    original = db.read_bytes()
    real = migrations.MIGRATIONS["5"]

    def failing(conn: sqlite3.Connection) -> str:
        real(conn)
        raise sqlite3.IntegrityError("injected failure after the step")

    monkeypatch.setitem(migrations.MIGRATIONS, "5", failing)
    with pytest.raises(sqlite3.IntegrityError):
        open_db(db, create=False).close()
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == "5"
    assert "kind" not in {r[1] for r in conn.execute("PRAGMA table_info(games)")}
    conn.close()
    monkeypatch.undo()
    open_db(db, create=False).close()  # and it goes through once the step does
    assert db.read_bytes() != original


def test_datasette_labels_come_from_the_catalogue_in_the_language_asked(tmp_path: Path) -> None:
    import json

    from click.testing import CliRunner

    from trictrac.cli.main import cli
    from trictrac.club.datasette import _TABLES, datasette_metadata

    fr, en = datasette_metadata("club"), datasette_metadata("club", lang="en")
    assert fr["databases"]["club"]["tables"]["games"]["title"] == "Parties"
    assert en["databases"]["club"]["tables"]["games"]["title"] == "Games"
    for lang, meta in (("fr", fr), ("en", en)):
        W = words(lang)
        db = meta["databases"]["club"]
        assert set(db["tables"]) == set(_TABLES)
        for table, t in db["tables"].items():
            assert t["title"] == W(f"club.ds.{table}.title")
            for col, label in t.get("columns", {}).items():
                assert label == W(f"club.ds.{table}.col.{col}")
        for name, q in db["queries"].items():
            assert q["title"] == W(f"club.ds.query.{name}.title") and q["sql"] == CANNED_QUERIES[name]["sql"]
    assert fr["databases"]["club"]["queries"]["standings"]["title"] == "Classement"
    assert en["databases"]["club"]["queries"]["standings"]["title"] == "Standings"
    # the command: French by default, --lang en
    db = tmp_path / "club.db"
    import_records(db, [str(ROOT / "fixtures" / "records" / "douze_trous.trn")])
    r = CliRunner().invoke(cli, ["db", "datasette", str(db), "--lang", "en", "-o", str(tmp_path / "en.json")])
    assert r.exit_code == 0, r.output
    assert (
        json.loads((tmp_path / "en.json").read_text())["databases"]["club"]["tables"]["players"]["title"] == "Players"
    )
    r = CliRunner().invoke(cli, ["db", "datasette", str(db), "-o", str(tmp_path / "fr.json")])
    assert (
        json.loads((tmp_path / "fr.json").read_text())["databases"]["club"]["tables"]["players"]["title"] == "Joueurs"
    )
