"""``trictrac score``: events, marque, partie (issue 3; docs/score.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from trictrac.cli.main import cli

PARTIES = Path(__file__).resolve().parent.parent / "fixtures" / "parties"


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, ["score", *args], input=input)


def test_events_003_146_json_exactly() -> None:
    r = run("events", "A+4 B+4 A+16", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout) == {
        "A": {"points": 8, "holes": 1, "bredouille": True, "pavillon": True},
        "B": {"points": 0, "holes": 0, "bredouille": False, "pavillon": False},
    }


def test_events_003_147_text_output() -> None:
    r = run("events", "A+8 B+8 A+18")
    assert r.exit_code == 0
    assert "simple hole, double hole" in r.stdout
    assert "A: 2 points in bredouille, 3 holes with the pavillon" in r.stdout


def test_events_with_held_holes_and_pavillon() -> None:
    r = run("events", "A+12", "--holes", "A=3,B=5", "--pavillon", "B", "--json")
    d = json.loads(r.stdout)
    assert d["A"]["holes"] == 5 and not d["A"]["pavillon"]  # A's double hole; B's pavillon gone
    assert d["B"] == {"points": 0, "holes": 5, "bredouille": False, "pavillon": False}
    r = run("events", "B+12", "--holes", "A=3,B=5", "--pavillon", "B", "--json")
    assert json.loads(r.stdout)["B"] == {"points": 0, "holes": 7, "bredouille": False, "pavillon": True}


def test_events_ne_marque_pas_and_leave() -> None:
    r = run("events", "A+4 B+8 A:nmp B+4", "--json")
    assert json.loads(r.stdout)["B"]["holes"] == 1  # E34: simple hole
    r = run("events", "A+10 A+4 A:leave", "--json")
    assert json.loads(r.stdout)["A"] == {"points": 0, "holes": 2, "bredouille": False, "pavillon": True}


@pytest.mark.parametrize(
    "args,msg",
    [
        (("events", "A+5"), "always even"),
        (("events", "C+4"), "cannot read event"),
        (("events", "A+4", "--holes", "A3"), "--holes"),
        (("events", "A+4", "--pavillon", "A"), "A has no holes"),
        (("events", "A+4", "--holes", "A=2", "--pavillon", "none"), "uninterrupted"),
        (("marque", "7", "7"), "refait"),
        (("marque", "5", "2"), "6 holes"),
        (("marque", "11", "3", "--bredouille", "grande"), "12 holes"),
        (("marque", "13", "3", "--bredouille", "petite"), "grande"),
        (("marque", "8", "3", "--profile", "nope"), "unknown rules profile"),
        (("partie", "/nonexistent/file.txt"), "cannot read"),
    ],
)
def test_bad_input_exit_2(args: tuple, msg: str) -> None:
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert msg in r.output
    assert "Traceback" not in r.output


@pytest.mark.parametrize(
    "args,value",
    [
        (("9", "8"), 3),  # E47, 003 §222
        (("9", "8", "--bredouille", "petite"), 14),  # E48, 003 §223
        (("18", "6", "--bredouille", "grande"), 74),  # E49, 003 §224
        (("12", "6", "--bredouille", "grande"), 50),  # E49
        (("18", "5"), 15),  # E50, 003 §225
        (("6", "1", "--bredouille", "petite"), 15),  # E51, 000 ~l.1001
        (("7", "4", "--refaits", "1"), 7),  # E52
        (("12", "0", "--bredouille", "grande", "--refaits", "2"), 72),  # E52
        (("18", "6", "--bredouille", "grande", "--profile", "lebrun-1828"), 154),  # D3: ×8 at 18
    ],
)
def test_marque_values(args: tuple, value: int) -> None:
    r = run("marque", *args, "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout) == {"value": value}


def test_marque_text_shows_the_computation() -> None:
    assert run("marque", "12", "6", "--bredouille", "grande").stdout.strip() == "4 × (12 + 2) − 6 = 50"


def test_partie_003_234_fixture() -> None:
    r = run("partie", str(PARTIES / "ecrire_003_234.txt"), "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["methods"]["papier"]["fiches"] == {"A": 1, "B": -1}
    assert d["methods"]["jetons"]["fiches"] == {"A": 2, "B": -2}
    assert d["players"]["A"] == {"account": "A", "jetons": 18, "fiches": 2}
    r = run("partie", str(PARTIES / "ecrire_003_234.txt"), "--method", "papier", "--json")
    assert json.loads(r.stdout)["players"]["B"]["fiches"] == -1


def test_partie_every_fixture_text_and_json() -> None:
    for f in sorted(PARTIES.glob("*.txt")):
        r = run("partie", str(f))
        assert r.exit_code == 0, (f.name, r.output)
        r = run("partie", str(f), "--json")
        assert r.exit_code == 0 and json.loads(r.stdout)["kind"]


def test_partie_from_stdin_and_errors_with_line_numbers() -> None:
    ok = "kind: ecrire\nplayers: A B\nmarques: 2\nA 9-8\nB 7-3 pavillon\n"
    r = run("partie", "-", "--json", input=ok)
    assert r.exit_code == 0 and json.loads(r.stdout)["complete"]
    for text, msg in [
        ("kind: ecrire\nA 9-9\n", "line 2: equal holes"),
        ("kind: ecrire\nZ 9-8\n", "line 2: unknown player"),
        ("kind: ecrire\nA 9-8\nqueue: 3\n", "line 3: header line"),
        ("kind: bridge\n", "unknown kind"),
        ("colour: red\n", "unknown key"),
        ("kind: ecrire\nmarques: 3\n", "multiple of 2"),
        ("kind: tourner\nplayers: A B C\nmarques: 9\nA =12\n", "needs the holes"),
        ("kind: ecrire\nmarques: 2\nA 9-8\nA 9-8\nA 9-8\n", "more results"),
        ("", "empty"),
    ]:
        r = run("partie", "-", input=text)
        assert r.exit_code == 2, (text, r.output)
        assert msg in r.output, (text, r.output)
