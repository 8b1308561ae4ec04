"""The GameId tag: ``notation.identity`` computes it (no database in notation/),
``trictrac fmt --add-id`` writes it, and the club database then takes a corrected
record for the same game even when its Event, Date or players changed."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from trictrac.cli.main import cli
from trictrac.club import identity as club_identity
from trictrac.notation import identity

ROOT = Path(__file__).resolve().parents[1]
SLOPPY = ROOT / "fixtures" / "records" / "douze_trous_sloppy.trn"


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_one_game_id_function_and_notation_never_imports_club() -> None:
    assert club_identity.game_id is identity.game_id
    text = (ROOT / "notation" / "identity.py").read_text(encoding="utf-8")
    assert "club" not in re.sub(r'""".*?"""|#.*', "", text, flags=re.S)
    h = {"A": "Dupont", "B": "Martin", "Date": "1852.01.15"}
    value = identity.add_game_id(h)
    assert value == h["GameId"] and re.fullmatch(r"[0-9a-f]{16}", value)
    assert identity.add_game_id(h) is None and h["GameId"] == value  # never a second one
    assert identity.game_id({**h, "A": " dupont  "}) == value  # case and spacing: the same game
    kept = {"A": "x", "B": "y", "Game_Id": " club-17 "}
    assert identity.add_game_id(kept) is None and "GameId" not in kept and identity.game_id(kept) == "club-17"
    nameless = {"A": "Dupont", "Event": "Soirée"}
    assert identity.add_game_id(nameless) is None and nameless == {"A": "Dupont", "Event": "Soirée"}


def test_fmt_add_id_writes_the_tag_and_check_wants_it(tmp_path: Path) -> None:
    f = tmp_path / "g.trn"
    f.write_bytes(SLOPPY.read_bytes())
    assert run("fmt", "--write", str(f)).exit_code == 0
    assert "GameId" not in f.read_text(encoding="utf-8")  # off by default
    assert run("fmt", "--check", str(f)).exit_code == 0
    assert run("fmt", "--check", "--add-id", str(f)).exit_code == 1
    r = run("fmt", "--write", "--add-id", str(f))
    assert r.exit_code == 0, r.output
    text = f.read_text(encoding="utf-8")
    want = identity.game_id({"Event": "Tournoi d'hiver du Cercle", "Date": "1852.01.15", "A": "Dupont", "B": "Martin"})
    assert text.count("[GameId ") == 1 and f'[GameId "{want}"]' in text
    assert run("fmt", "--check", "--add-id", str(f)).exit_code == 0
    assert run("fmt", "--add-id", str(f)).output == text  # printing: the same text, idempotent


def _correct(text: str) -> str:
    # The secretary fixes the event, the date and a player's name: every identifying tag.
    return (
        text.replace("Tournoi d'hiver du Cercle", "Tournoi de printemps")
        .replace("1852.01.15", "1852.04.02")
        .replace('[A "Dupont"]', '[A "Jean Dupont"]')
    )


def _import(db: Path, f: Path) -> str:
    r = run("db", "import", str(db), str(f), "--json")
    assert r.exit_code == 0, r.output
    return r.output


def test_a_corrected_record_with_its_game_id_replaces_the_stored_game(tmp_path: Path) -> None:
    for add_id, games in ((True, 1), (False, 2)):
        f, db = tmp_path / f"g{add_id}.trn", tmp_path / f"club{add_id}.db"
        f.write_bytes(SLOPPY.read_bytes())
        args = ["fmt", "--write", str(f)] + (["--add-id"] if add_id else [])
        assert run(*args).exit_code == 0
        _import(db, f)
        f.write_text(_correct(f.read_text(encoding="utf-8")), encoding="utf-8")
        _import(db, f)
        with sqlite3.connect(db) as con:
            rows = con.execute("SELECT event, date, label FROM games").fetchall()
            history = con.execute("SELECT action FROM game_history").fetchall()
        assert len(rows) == games, (add_id, rows)
        if add_id:  # the correction replaced the game; the first version is in its history
            assert rows == [
                ("Tournoi de printemps", "1852.04.02", "1852-04-02 Jean Dupont – Martin, Tournoi de printemps")
            ]
            assert history == [("replaced",)]
        else:  # without the tag the tags changed, so did the identity: a second game
            assert history == []
