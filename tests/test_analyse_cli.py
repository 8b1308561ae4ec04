"""``trictrac analyse`` through click's CliRunner: --json shape, --roll,
--position-json, and exit code 2 with a message naming the column on bad input."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from trictrac.cli.main import cli

MEZEAS = "A{1:13,12:2} B{1:15}"
MEZEAS_JSON = json.dumps(
    {
        "mover": {"1": 13, "12": 2},
        "other": {"1": 15},
        "mover_off": 0,
        "other_off": 0,
        "mover_coups": 1,
        "other_coups": 1,
    }
)


def run(*args: str):
    return CliRunner().invoke(cli, ["analyse", *args])


def test_json_all_rolls() -> None:
    res = run(MEZEAS, "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert set(data) == {"rolls", "chances"} and len(data["rolls"]) == 21
    assert data["chances"] == {"jan-de-mezeas": 11}
    r61 = next(r for r in data["rolls"] if r["roll"] == "6-1")
    assert set(r61) == {"roll", "plays", "moves", "events", "points", "ranked"}
    assert r61["events"] == [{"side": "mover", "kind": "jan-de-mezeas", "ways": 1, "points": 4}]
    assert r61["points"] == {"mover": 4, "other": 0}


def test_roll_option() -> None:
    res = run(MEZEAS, "--roll", "1-6", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert [r["roll"] for r in data["rolls"]] == ["6-1"]
    text = run(MEZEAS, "--roll", "1-1")
    assert text.exit_code == 0 and "1-1: roller +6, opponent +0" in text.output


def test_turn_b_is_the_mover() -> None:
    # B to move has no coin: no mézéas for him
    data = json.loads(run("A{1:13,12:2} B{1:15} turn=B coups=1/1", "--roll", "6-1", "--json").output)
    assert data["rolls"][0]["events"] == []


def test_position_json_same_as_text() -> None:
    a = run("--position-json", MEZEAS_JSON, "--json")
    b = run(MEZEAS + " coups=1/1", "--json")
    assert a.exit_code == b.exit_code == 0
    assert json.loads(a.output) == json.loads(b.output)


def test_profile_option() -> None:
    res = run(MEZEAS, "--profile", "rigueur", "--roll", "6-1", "--json")
    assert res.exit_code == 0
    bad = run(MEZEAS, "--profile", "nonesuch")
    assert bad.exit_code == 2


@pytest.mark.parametrize(
    "position,col,words",
    [
        ("A{1:16} B{1:15}", 1, "16 checkers"),
        ("A{1:14,12:1} B{1:15}", 8, "lone checker"),
        ("A{1:13,12:2} B{1:15} frobnicate", 22, "frobnicate"),
        ("A{1:13,12:2} B{1:15", None, ""),
    ],
)
def test_bad_positions_exit_2(position: str, col: int | None, words: str) -> None:
    res = run(position)
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    out = res.output
    assert out.startswith("Error: position:1:")
    if col is not None:
        assert out.startswith(f"Error: position:1:{col}:"), out
    assert words in out


@pytest.mark.parametrize(
    "payload,words",
    [
        ("{not json", "bad JSON"),
        ('{"mover": {"1": 16}, "other": {"1": 15}}', "mover has 16 checkers"),
        ('{"mover": {"1": 14, "12": 1}, "other": {"1": 15}}', "lone checker"),
        ('{"mover": {"1": 15}, "other": {"1": 14, "13": 1}}', "opponent's coin"),
        ('{"mover": {"1": 15}, "other": {"1": 15}, "colour": 1}', "unknown key"),
        ('{"mover": {"x": 15}, "other": {"1": 15}}', "not 1..24"),
        ('{"mover": {"1": 15}, "other": {"1": 15}, "mover_coups": -1}', "mover_coups"),
        ("[1, 2]", "JSON object"),
    ],
)
def test_bad_position_json_exit_2(payload: str, words: str) -> None:
    res = run("--position-json", payload)
    assert res.exit_code == 2, res.output
    assert res.output.startswith("Error: --position-json:1:") and words in res.output


def test_bad_roll_and_usage_exit_2() -> None:
    assert run(MEZEAS, "--roll", "7-2").exit_code == 2
    assert run().exit_code == 2
    assert run(MEZEAS, "--position-json", MEZEAS_JSON).exit_code == 2


def test_help_has_examples() -> None:
    res = run("--help")
    assert res.exit_code == 0 and "Examples:" in res.output and "--position-json" in res.output
