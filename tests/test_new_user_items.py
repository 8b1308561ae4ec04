"""Small things a new user met (issue 25 item 10): English headers, a *je reste* with
nothing to decide, standard input's name, a mistyped command.  (The count of the files
``publish`` writes: ``test_publish_html.test_cli_publish_and_board``.)"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import FIXTURES

from trictrac.cli.main import cli
from trictrac.notation.reader import parse_text
from trictrac.replay.verifier.verify import verify

ENGLISH = '[Event "x"]\n[White "Dupont"]\n[Black "Martin"]\n\n1. White 6-1 1/7 1/2\n2. B 2-1 1/3 1/2\n'


def test_english_headers_propose_the_seats() -> None:
    records, diags = parse_text(ENGLISH)
    tags = [d for d in diags if d.code == "english-tag"]
    assert [(d.severity, d.span.line) for d in tags] == [("warning", 2), ("warning", 3)]
    assert '[A "Dupont"]' in tags[0].message and '[B "Martin"]' in tags[1].message
    (coup,) = [d for d in diags if d.code == "bad-coup"]
    assert coup.span.line == 5 and "did you mean '1. A'" in coup.message
    # the canonical fast path of tag lines says it too
    _, diags = parse_text('[Black "Martin"]\n\n1. A 2-1 1/3 1/2\n')
    assert [d.code for d in diags] == ["english-tag"]


def test_english_headers_in_check() -> None:
    r = CliRunner().invoke(cli, ["check", "-"], input=ENGLISH)
    assert "warning: english-tag: tag White is not read" in r.output
    assert "did you mean '1. A' for '1. White'?" in r.output


RESTE = '[A "x"]\n[B "y"]\n\n1. A 2-1 1/3 1/2 A:reste\n2. B 2-1 1/3 1/2\n'


def test_je_reste_without_a_hole_is_a_note() -> None:
    (record,), _ = parse_text(RESTE)
    rep = verify(record)
    assert rep.findings == []
    assert [str(n) for n in rep.notes if "je reste" in str(n)] == [
        "coup 1: A says « je reste » without a hole of his own throw: there was nothing to decide "
        "(Lelasseux-Lafosse 1852, art. 155-158)"
    ]
    r = CliRunner().invoke(cli, ["check", "-"], input=RESTE)
    assert r.exit_code == 0 and "note: coup 1: A says « je reste »" in r.output


@pytest.mark.parametrize("path", sorted((FIXTURES / "corpus").glob("*.trn")), ids=lambda p: p.name)
def test_je_reste_after_a_hole_is_no_note(path: Path) -> None:
    """Every *je reste* of the corpus follows a hole of the player's throw (or a wrong mark
    of one, a finding's matter): no note."""
    text = path.read_text(encoding="utf-8")
    if ":reste" not in text:
        pytest.skip("no je reste")
    records, _ = parse_text(text, file=str(path))
    for record in records:
        assert not [n for n in verify(record).notes if "nothing to decide" in str(n)]


def _sources(db: Path) -> set[str]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT source_file FROM games UNION SELECT path FROM source_files").fetchall()
    return {r[0] for r in rows}


def test_db_import_of_standard_input_stores_its_given_name(tmp_path: Path) -> None:
    text = (FIXTURES / "findings" / "e40-ecole-par-trop.trn").read_text(encoding="utf-8")
    db = tmp_path / "club.db"
    r = CliRunner().invoke(cli, ["db", "import", str(db), "-", "--name", "soiree.trn"], input=text)
    assert r.exit_code == 0, r.output
    assert r.output.startswith("soiree.trn: 1 added") and "trictrac-input" not in r.output
    assert _sources(db) == {"soiree.trn"}
    other = (FIXTURES / "records" / "douze_trous.trn").read_text(encoding="utf-8")
    r = CliRunner().invoke(cli, ["db", "import", str(db), "-", "--json"], input=other)
    assert r.exit_code == 0 and '"files": [\n    "-"\n  ]' in r.output
    assert _sources(db) == {"soiree.trn", "-"}


def test_publish_of_standard_input_shows_its_given_name(tmp_path: Path) -> None:
    text = (FIXTURES / "findings" / "e40-ecole-par-trop.trn").read_text(encoding="utf-8")
    out = tmp_path / "site"
    r = CliRunner().invoke(cli, ["publish", "-", "-o", str(out), "--name", "soiree.trn"], input=text)
    assert r.exit_code == 0, r.output
    pages = "".join(p.read_text(encoding="utf-8") for p in out.rglob("*.html"))
    assert "soiree.trn:" in pages and "trictrac-input" not in pages


@pytest.mark.parametrize(
    "typed,meant", [(["chek"], "check"), (["publsh", "x"], "publish"), (["db", "improt"], "import")]
)
def test_a_mistyped_command_proposes_the_nearest(typed: list[str], meant: str) -> None:
    r = CliRunner().invoke(cli, typed)
    assert r.exit_code == 2
    assert f"No such command '{typed[-1] if typed[0] == 'db' else typed[0]}'. Did you mean '{meant}'?" in r.output


def test_a_command_far_from_any_proposes_nothing() -> None:
    r = CliRunner().invoke(cli, ["zzz"])
    assert r.exit_code == 2 and "No such command 'zzz'." in r.output and "Did you mean" not in r.output
