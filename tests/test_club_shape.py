"""Issue 30 and the database's parts of issues 25 and 27: what a club types finds what it
means (full-text search of finding kinds and école claims, both languages, accents or not),
a game keeps its file and lines, one key per player name and look-alikes reported, a strict
schema version, a damaged row or a control character in a name told in one line."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from club_helpers import copy_record, selfplay_records, write_archive

from trictrac.cli.main import cli
from trictrac.club import queries
from trictrac.club.db import open_db
from trictrac.club.importer import import_records
from trictrac.club.report import ImportStep
from trictrac.club.rows import is_ecole_kind
from trictrac.notation.names import describe_oddities, lookalikes, oddities, one_line, player_name, skeleton
from trictrac.notation.reader import iter_records
from trictrac.notation.record import Ecole

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


# --- search: what a club types (issue 25 item 4) ------------------------------------------------


@pytest.fixture(scope="module")
def every_fixture(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[tuple[str, int], str], list]:
    """A database of every record of fixtures/records, findings, books and corpus, the game id of
    each (file, game index), and ``trictrac check --json`` on the same files."""
    files = [str(p) for d in ("records", "findings", "books", "corpus") for p in sorted((FIXTURES / d).glob("*.trn"))]
    db = tmp_path_factory.mktemp("fx") / "all.db"
    ids: dict[tuple[str, int], str] = {}

    def seen(step: ImportStep) -> None:
        if step.game_id is not None and step.status != "failed":
            ids[(step.path, step.game_index)] = step.game_id

    import_records(db, files, progress=seen)
    checked = json.loads(run("check", "--json", *files).stdout)
    return db, ids, checked


def _claims(path: str) -> set[int]:
    """The games of a file with an école claimed at the table (an ``Ecole`` action)."""
    out = set()
    for i, parsed in enumerate(iter_records(path, file=path)):
        rec = parsed.record
        if rec is not None and any(type(a) is Ecole for k in rec.coups for a in (*k.before, *k.after)):
            out.add(i)
    return out


def _hits(db_path: Path, text: str) -> set[str]:
    db = open_db(db_path, create=False, readonly=True)
    try:
        return {h["game_id"] for h in queries.search(db, text, limit=100_000, kinds=("finding", "ecole"))}
    finally:
        db.close()


def test_search_ecole_finds_every_game_with_an_ecole_finding_or_claim(every_fixture) -> None:
    db, ids, checked = every_fixture
    want_ecole, want_trop = set(), set()
    claims = {f: _claims(f) for f in {g["file"] for g in checked}}
    for g in checked:
        gid = ids.get((g["file"], g["game"]))
        if gid is None:  # a game the database refused (a parse error): not stored, not searched
            continue
        kinds = {f["kind"] for f in g.get("findings", ())}
        if any(is_ecole_kind(k) for k in kinds) or g["game"] in claims[g["file"]]:
            want_ecole.add(gid)
        if "ecole-par-trop" in kinds:
            want_trop.add(gid)
    assert len(want_ecole) >= 20 and want_trop  # the fixtures hold both
    for text in ("ecole", "école", "ECOLE", "Écol"):
        assert want_ecole <= _hits(db, text), text
    for text in ("par trop", "ecole par trop", "école par trop", "over-marked"):  # French and English
        assert want_trop <= _hits(db, text), text
    assert not _hits(db, "zzzunknown")


def test_search_kinds_are_spelled_with_spaces_and_named_in_both_languages(every_fixture) -> None:
    db, _, _ = every_fixture
    conn = sqlite3.connect(db)
    terms = dict(
        conn.execute(
            "SELECT f.kind, t.terms FROM findings f JOIN findings_fts t ON t.rowid = f.id WHERE f.kind = 'ecole-par-trop'"
        ).fetchall()
    )
    conn.close()
    assert terms["ecole-par-trop"].startswith("ecole par trop école par trop")
    assert "over-marked" in terms["ecole-par-trop"]


# --- provenance (issue 25 item 5) ----------------------------------------------------------------


def _two_games(tmp_path: Path) -> tuple[Path, int]:
    """A file of two games, the second with a wrong mark; the line where that game starts."""
    recs = [copy_record(r, Date="2024.05.06", Round=str(i + 1)) for i, r in enumerate(selfplay_records(2, seed=3))]
    path = write_archive(tmp_path / "soiree.trn", recs)
    text = path.read_text(encoding="utf-8")
    second = text.index('[Round "2"]')
    start = text[:second].count("\n") + 1
    # the first coup of the second game marks 9 points (a wrong mark: a finding there)
    lines = text.split("\n")
    k = next(i for i in range(start, len(lines)) if re.match(r"1\. [AB] \d-\d", lines[i]))
    lines[k] += " A+9" if " A " in lines[k] else " B+9"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path, start


def test_a_game_keeps_its_file_and_lines(tmp_path: Path) -> None:
    path, start = _two_games(tmp_path)
    db_path = tmp_path / "c.db"
    rep = import_records(db_path, [path])
    assert rep.imported == 2
    lines = path.read_text(encoding="utf-8").split("\n")
    db = open_db(db_path, create=False)
    try:
        g = queries.game_detail(db, rep.game_ids[1])
    finally:
        db.close()
    assert g["source_file"] == str(path) and g["source_line"] < start <= g["source_end_line"]
    assert lines[g["source_line"] - 1].startswith("[") and not lines[g["source_line"] - 2].strip()
    assert lines[g["source_end_line"] - 1].strip() and not "".join(lines[g["source_end_line"] :]).strip()
    for c in g["coups"]:  # each coup's line is its line in the file
        assert lines[c["line"] - 1].startswith(f"{c['number']}. {c['side']} {c['roll']}")
    at_coups = [f for f in g["findings"] if f["coup"]]
    assert at_coups and all(lines[f["line"] - 1].startswith(f"{f['coup']}. ") for f in at_coups)
    # db show names the file and the lines
    res = run("db", "show", str(db_path), rep.game_ids[1][:10])
    assert res.exit_code == 0
    assert f"source: {path}, lines {g['source_line']}-{g['source_end_line']}" in res.output
    assert f"{path}:{at_coups[0]['line']}:" in res.output


def test_standard_input_is_stored_under_its_name(tmp_path: Path) -> None:
    path, _ = _two_games(tmp_path)
    db_path = tmp_path / "c.db"
    text = path.read_text(encoding="utf-8")
    res = run("db", "import", str(db_path), "-", "--name", "mardi.trn", input=text)
    assert res.exit_code == 0 and "mardi.trn: 2 added" in res.output and "trictrac-input" not in res.output
    res = run("db", "import", str(tmp_path / "d.db"), "-", input=text)
    conn = sqlite3.connect(db_path)
    assert {r[0] for r in conn.execute("SELECT source_file FROM games")} == {"mardi.trn"}
    conn.close()
    conn = sqlite3.connect(tmp_path / "d.db")
    assert {r[0] for r in conn.execute("SELECT source_file FROM games")} == {"-"}
    conn.close()


def test_publish_from_the_database_cites_the_file_and_its_lines(tmp_path: Path) -> None:
    path, _ = _two_games(tmp_path)
    db_path = tmp_path / "c.db"
    rep = import_records(db_path, [path])
    res = run("publish", "--db", str(db_path), "-o", str(tmp_path / "www"))
    assert res.exit_code == 0, res.output
    db = open_db(db_path, create=False)
    try:
        g = queries.game_detail(db, rep.game_ids[1])
    finally:
        db.close()
    index = (tmp_path / "www" / "index.html").read_text(encoding="utf-8")
    assert f"soiree.trn:{g['source_line']}" in index and "c.trn" not in index
    pages = [p.read_text(encoding="utf-8") for p in (tmp_path / "www").glob("*.html")]
    f = next(f for f in g["findings"] if f["coup"])
    assert any(f"{f['line']}:{f['col']}" in p for p in pages)  # the line in the secretary's file


# --- player names (issue 27 row 7) ---------------------------------------------------------------


def test_one_key_per_player_name() -> None:
    assert player_name("Lefe\u0300vre ") == player_name("Lefèvre") == "Lefèvre"
    assert player_name("  Jean \t Dupont\u00a0") == "Jean Dupont"
    assert player_name("Dupont") != player_name("Dup\u043ent")  # look-alikes are not merged ...
    assert lookalikes(["Dupont", "Dup\u043ent", "Dupont\u200b", "\uff24upont", "Martin"]) == [
        sorted(["Dupont", "Dup\u043ent", "Dupont\u200b", "\uff24upont"])
    ]  # ... but reported
    assert skeleton("Lefèvre") != skeleton("Lefevre")  # an accent is not a look-alike
    assert "CYRILLIC SMALL LETTER O" in describe_oddities("Dup\u043ent")
    assert "ZERO WIDTH SPACE" in describe_oddities("Dupont\u200b") and describe_oddities("Lefèvre") == ""
    # the same as data, for the caller to say in its language
    assert oddities("Dup\u043ent\u200b") == [("U+043E", "cyrillic", "o"), ("U+200B", "invisible", "")]
    assert oddities("\uff24up\u03bfnt") == [("U+FF24", "fullwidth", "D"), ("U+03BF", "greek", "o")]
    assert oddities("Lefèvre") == []


def test_composed_and_decomposed_names_are_one_player_and_look_alikes_are_reported(tmp_path: Path) -> None:
    recs = selfplay_records(3, seed=4)
    games = [
        copy_record(recs[0], A="Lefe\u0300vre", B="Martin", Date="2024.01.01", Round="1"),
        copy_record(recs[1], A="Lefèvre ", B="Martin", Date="2024.01.02", Round="2"),
        copy_record(recs[2], A="Dup\u043ent", B="Martin", Date="2024.01.03", Round="3"),
    ]
    db_path = tmp_path / "c.db"
    res = run("db", "import", str(db_path), str(write_archive(tmp_path / "n.trn", games)))
    assert res.exit_code == 0
    assert "warning: player names that look alike" not in res.output  # Lefèvre twice: one player
    games.append(copy_record(recs[0], A="Dupont", B="Martin", Date="2024.01.04", Round="4"))
    res = run("db", "import", str(db_path), str(write_archive(tmp_path / "m.trn", games[3:])))
    said = "player names that look alike: 'Dupont', 'Dupоnt' ('Dupоnt': U+043E, a Cyrillic letter that looks like “o”)"
    assert said in res.output
    res = run("db", "players", str(db_path), "--lang", "fr")  # said again, in the user's language
    said = "noms de joueurs qui se ressemblent : 'Dupont', 'Dupоnt' ('Dupоnt' : U+043E, une lettre cyrillique qui ressemble à « o »)"
    assert said in res.stderr
    players = json.loads(run("db", "players", str(db_path), "--json").stdout)  # the warning is on stderr
    assert sorted(p["name"] for p in players) == ["Dupont", "Dupоnt", "Lefèvre", "Martin"]
    assert next(p for p in players if p["name"] == "Lefèvre")["games"] == 2
    standings = json.loads(run("standings", str(db_path), "--json").stdout)
    ranked = [r["player"] for r in standings["tables"]["douze-trous"]["players"]]
    assert ranked.count("Lefèvre") == 1
    res = run("db", "players", str(db_path))
    assert res.exit_code == 0 and "look alike" in res.output


# --- the schema version, read strictly (issue 27 row 12) ----------------------------------------


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("5.0", "a decimal"),
        ("4a", "not a whole number"),
        ("", "empty"),
        (" 5", "spaces around"),
        ("-1", "no sign"),
        ("0", "numbered from 1"),
        ("9", "reads versions up to 7"),
    ],
)
def test_a_schema_version_that_is_not_one_is_refused_in_one_line(tmp_path: Path, value: str, words: str) -> None:
    db_path = tmp_path / "c.db"
    import_records(db_path, [write_archive(tmp_path / "a.trn", selfplay_records(1))], verify=False)
    conn = sqlite3.connect(db_path)
    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (value,))
    conn.commit()
    conn.close()
    for args in (["db", "games", str(db_path)], ["db", "import", str(db_path), str(tmp_path / "a.trn")]):
        res = run(*args)
        assert res.exit_code == 2, (args, res.output)
        assert words in res.output and repr(value) in res.output and "Traceback" not in res.output
        assert len(res.output.strip().splitlines()) == 1, res.output


# --- damaged rows and control characters (issue 27 row 14) --------------------------------------


def test_headers_that_are_not_json_are_one_line_exit_2(tmp_path: Path) -> None:
    db_path = tmp_path / "c.db"
    rep = import_records(db_path, [write_archive(tmp_path / "a.trn", selfplay_records(1))], verify=False)
    conn = sqlite3.connect(db_path)
    conn.execute("UPDATE games SET headers = '{not json'")
    conn.commit()
    conn.close()
    res = run("db", "show", str(db_path), rep.game_ids[0][:8])
    assert res.exit_code == 2 and "not JSON" in res.output and "Traceback" not in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_control_characters_in_names_are_escaped_in_every_table(tmp_path: Path) -> None:
    db_path = tmp_path / "c.db"
    import_records(db_path, [write_archive(tmp_path / "a.trn", selfplay_records(1))], verify=False)
    conn = sqlite3.connect(db_path)
    conn.execute("UPDATE players SET name = 'Bot A\nFORGED LINE\x1b[2J' WHERE name = 'Bot A'")
    conn.commit()
    conn.close()
    for args in (["db", "games"], ["db", "players"], ["standings"], ["db", "search", "forged"]):
        res = run(*args[:1], *args[1:2], str(db_path), *args[2:]) if args[0] == "db" else run(*args, str(db_path))
        assert res.exit_code == 0, (args, res.output)
        assert not any(line.startswith("FORGED") for line in res.output.splitlines()), args
        assert "\x1b" not in res.output, args
    assert one_line("a\nb\tc\x1b") == "a\\nb\\tc\\x1b"


def test_publish_gives_one_page_to_one_player_however_spaced_or_composed(tmp_path: Path) -> None:
    recs = selfplay_records(2, seed=4)
    games = [
        copy_record(recs[0], A="Dupont ", B="Lefe\u0300vre", Date="2024.01.01", Round="1"),
        copy_record(recs[1], A="Dupont", B="Lefèvre", Date="2024.01.02", Round="2"),
    ]
    res = run("publish", str(write_archive(tmp_path / "p.trn", games)), "-o", str(tmp_path / "www"))
    assert res.exit_code == 0, res.output
    assert len(list((tmp_path / "www" / "joueurs").glob("*.html"))) == 2  # Dupont, Lefèvre
