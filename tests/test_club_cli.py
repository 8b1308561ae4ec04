"""``trictrac db …`` (cli/db.py): exit codes, --json and --csv output, help examples."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from club_helpers import BERARD, DUPONT, MARTIN, club_records, counts, orphans, write_archive

from trictrac.cli.main import cli

pytest.importorskip("trictrac.notation.writer")


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    tmp = tmp_path_factory.mktemp("cli")
    src = write_archive(tmp / "club.trn", club_records())
    res = run("db", "import", str(tmp / "club.db"), str(src), "--json")
    assert res.exit_code == 0, res.output
    return tmp / "club.db", json.loads(res.output)


def test_import_json_report(club) -> None:
    db_path, rep = club
    assert (rep["read"], rep["imported"], rep["failed"], rep["unreadable"]) == (4, 4, 0, [])
    assert len(rep["game_ids"]) == 4 and rep["games_per_second"] > 0
    assert counts(db_path)["games"] == 4


def test_reimport_exit_0_and_unchanged(club, tmp_path: Path) -> None:
    db_path, rep = club
    src = write_archive(tmp_path / "again.trn", club_records())
    res = run("db", "import", str(db_path), str(src))
    assert res.exit_code == 0
    assert "0 imported, 4 unchanged, 0 failed" in res.output


def test_import_exit_1_when_a_game_fails(tmp_path: Path) -> None:
    good = write_archive(tmp_path / "g.trn", club_records()[:2]).read_text(encoding="utf-8")
    (tmp_path / "mixed.trn").write_text(good + '[Event "bad"]\n\n1. A 7-7 {\n', encoding="utf-8")
    res = run("db", "import", str(tmp_path / "c.db"), str(tmp_path / "mixed.trn"))
    assert res.exit_code == 1
    assert "2 imported" in res.output and "parse-error" in res.output
    assert orphans(tmp_path / "c.db") == []


def test_import_exit_2_on_unreadable_input(tmp_path: Path) -> None:
    good = write_archive(tmp_path / "g.trn", club_records()[:1])
    res = run("db", "import", str(tmp_path / "c.db"), str(tmp_path / "nope.trn"), str(good), "--json")
    assert res.exit_code == 2
    out = json.loads(res.output)
    assert out["imported"] == 1 and out["unreadable"] == [str(tmp_path / "nope.trn")]
    (tmp_path / "not.db").write_text("this is not sqlite" * 100)
    res = run("db", "import", str(tmp_path / "not.db"), str(good))
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert run("db", "import", str(tmp_path / "c.db"), str(tmp_path)).exit_code == 2


def test_import_with_jobs(tmp_path: Path) -> None:
    src = write_archive(tmp_path / "j.trn", club_records())
    res = run("db", "import", str(tmp_path / "j.db"), str(src), "--jobs", "2", "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["imported"] == 4
    assert orphans(tmp_path / "j.db") == []


def test_games_json_and_csv(club) -> None:
    db_path, rep = club
    res = run("db", "games", str(db_path), "--json")
    assert res.exit_code == 0
    games = json.loads(res.output)
    assert [g["id"] for g in games] == rep["game_ids"]
    res = run("db", "games", str(db_path), "--player", "Martin", "--season", "2024", "--csv")
    rows = list(csv.DictReader(io.StringIO(res.output)))
    assert [r["id"] for r in rows] == [rep["game_ids"][1], rep["game_ids"][3]]
    # g2's seats follow the bot game's winner, which changed with the corrected P3
    # (RULES.md §3.8): Martin sat on A before, Dupont now; read them from the record
    assert rows[0]["player_a"] == club_records()[1].headers["A"]
    assert {rows[0]["player_a"], rows[0]["player_b"]} == {DUPONT, MARTIN}
    res = run("db", "games", str(db_path))
    assert res.exit_code == 0 and DUPONT in res.output and rep["game_ids"][0][:12] in res.output


def test_players_and_results(club) -> None:
    db_path, _ = club
    players = json.loads(run("db", "players", str(db_path), "--json").output)
    assert {p["name"] for p in players} == {DUPONT, MARTIN, BERARD}
    res = run("db", "players", str(db_path), "--player", "dupont", "--json")
    out = json.loads(res.output)
    assert out["player"] == DUPONT and {s["season"] for s in out["seasons"]} == {"2023", "2024"}
    assert {h["opponent"] for h in out["head_to_head"]} == {MARTIN, BERARD}
    rows = list(csv.DictReader(io.StringIO(run("db", "players", str(db_path), "--player", DUPONT, "--csv").output)))
    assert [r["season"] for r in rows] == ["2023", "2024"]
    assert run("db", "players", str(db_path), "--player", DUPONT).exit_code == 0
    res = run("db", "players", str(db_path), "--player", "Personne")
    assert res.exit_code == 2 and "no player" in res.output


def test_ecoles_bredouilles_h2h(club) -> None:
    db_path, _ = club
    out = json.loads(run("db", "ecoles", str(db_path), "--json").output)
    assert len(out["claimed"]) == 3
    rows = list(csv.DictReader(io.StringIO(run("db", "ecoles", str(db_path), "--list", "--csv").output)))
    assert [r["claimant"] for r in rows] == [DUPONT, DUPONT, BERARD]
    br = json.loads(run("db", "bredouilles", str(db_path), "--json").output)
    assert [b["bredouille"] for b in br] == ["petite", "grande"]
    h = json.loads(run("db", "h2h", str(db_path), DUPONT, MARTIN, "--json").output)
    # The winners follow the verified score at the table (an unclaimed fausse école
    # stands, 001 r.47), so the head-to-head must agree with the per-game winners.
    games = json.loads(run("db", "games", str(db_path), "--json").output)
    pair = [g for g in games if {g["player_a"], g["player_b"]} == {DUPONT, MARTIN}]
    wins = sum(g["winner"] == DUPONT for g in pair)
    losses = sum(g["winner"] == MARTIN for g in pair)
    assert len(pair) == 3 and wins + losses >= 2
    assert (h[0]["games"], h[0]["wins"], h[0]["losses"]) == (3, wins, losses)


def test_show_by_prefix(club) -> None:
    db_path, rep = club
    gid = rep["game_ids"][0]
    out = json.loads(run("db", "show", str(db_path), gid[:6], "--json").output)
    assert out["id"] == gid and set(out["players"].values()) == {DUPONT, MARTIN}
    text = run("db", "show", str(db_path), gid[:6])
    assert text.exit_code == 0 and "[Event" in text.output
    for bad in ("ffffff0000", "xyz"):
        res = run("db", "show", str(db_path), bad)
        assert res.exit_code == 2 and "Error:" in res.output


def test_stats(club) -> None:
    db_path, _ = club
    res = run("db", "stats", str(db_path), "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert (out["games"], out["players"], out["ecoles_claimed"]) == (4, 3, 3)
    assert "corpus" in out
    assert run("db", "stats", str(db_path), "--no-corpus").exit_code == 0


def test_search(club) -> None:
    db_path, rep = club
    out = json.loads(run("db", "search", str(db_path), "école", "--only", "comment", "--json").output)
    assert [(h["kind"], h["game_id"]) for h in out] == [("comment", rep["game_ids"][0])]
    out = json.loads(run("db", "search", str(db_path), "école", "--json").output)  # findings too, by default
    assert out[0]["kind"] == "comment" and {h["kind"] for h in out[1:]} == {"finding", "ecole"}
    assert all("cole" in h["text"] and h["game"] for h in out)
    res = run("db", "search", str(db_path), "berard")
    assert res.exit_code == 0 and BERARD in res.output


def test_missing_database_exit_2(tmp_path: Path) -> None:
    for cmd in (["games"], ["players"], ["stats"], ["search", "x"], ["show", "abcd"]):
        res = run("db", cmd[0], str(tmp_path / "none.db"), *cmd[1:])
        assert res.exit_code == 2, cmd
        assert "no database file" in res.output
    assert not (tmp_path / "none.db").exists()


def test_every_command_has_help_with_examples() -> None:
    from trictrac.cli.db import db

    for name in db.commands:
        res = run("db", name, "--help")
        assert res.exit_code == 0 and "Examples:" in res.output and "trictrac db" in res.output, name


def test_datasette_sees_plain_tables(club) -> None:
    """Datasette opens the file as it is: tables and views readable by a plain connection."""
    db_path, _ = club
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    for v in ("game_list", "player_games", "marque_results", "ecoles"):
        conn.execute(f"SELECT * FROM {v} LIMIT 1").fetchall()
    fks = conn.execute("PRAGMA foreign_key_list(coups)").fetchall()
    assert {f[2] for f in fks} == {"games"}  # schema 5: a coup's relevé and player are not looked up by key
    fks = conn.execute("PRAGMA foreign_key_list(marks)").fetchall()
    assert {f[2] for f in fks} == {"games", "coups", "players"}


def test_reverify_command(tmp_path: Path) -> None:
    src = write_archive(tmp_path / "r.trn", club_records()[:2])
    assert run("db", "import", str(tmp_path / "r.db"), str(src)).exit_code == 0
    out = json.loads(run("db", "reverify", str(tmp_path / "r.db"), "--json").output)
    assert (out["imported"], out["unchanged"]) == (0, 2)
    res = run("db", "reverify", str(tmp_path / "r.db"), "--all", "--profile", "rigueur", "--json")
    assert res.exit_code == 0 and json.loads(res.output)["imported"] == 2
    assert {g["profile"] for g in json.loads(run("db", "games", str(tmp_path / "r.db"), "--json").output)} == {
        "rigueur"
    }
    assert run("db", "reverify", str(tmp_path / "none.db")).exit_code == 2
