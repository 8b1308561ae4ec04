"""``trictrac score events`` from given points, holes and bredouille, and the result of
a partie en douze trous with its stake multiplier (issue 13 §4; RULES.md §5.2, §8.1)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from trictrac.cli.main import cli


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_points_in_bredouille_make_a_double_hole() -> None:
    """003 §146: "Si le joueur qui a marqué le premier ... va au trou sans que son
    adversaire ait marqué, il marque deux trous" — 6 in bredouille, +8: a double hole."""
    res = run("score", "events", "A+8", "--points", "A=6", "--json")
    assert res.exit_code == 0, res.output
    st = json.loads(res.output)
    assert (st["A"]["holes"], st["A"]["points"]) == (2, 2)
    res = run("score", "events", "A+8", "--points", "A=6,B=2", "--json")  # interrupted: simple
    assert json.loads(res.output)["A"]["holes"] == 1
    res = run("score", "events", "A+8", "--points", "A=6,B=2", "--bredouille", "A", "--json")
    assert json.loads(res.output)["A"]["holes"] == 2


@pytest.mark.parametrize("profile,x", [("lelasseux-1852", 1), ("lebrun-1828", 2)])
def test_douze_trous_result_with_the_multiplier(profile: str, x: int) -> None:
    """000 ~l.826-832 (lebrun-1828, D1): the grande bredouille, twelve holes without
    interruption, doubles the stake; 003 §218 gives no multiplier."""
    args = ("score", "events", "A+4", "--points", "A=8", "--holes", "A=11", "--profile", profile)
    res = run(*args, "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["douze_trous"] == {"winner": "A", "multiplier": x}
    res = run(*args)
    # 8 in bredouille + 4: a double hole, 11 + 2 = 13
    assert f"A wins the partie en douze trous 13-0, stake ×{x}" in res.output


def test_no_result_before_twelve_holes() -> None:
    res = run("score", "events", "A+4", "--holes", "A=3,B=5", "--json")
    assert "douze_trous" not in json.loads(res.output)


@pytest.mark.parametrize(
    "args,words",
    [
        (("--points", "A=12"), "12 make a hole"),
        (("--bredouille", "B", "--points", "A=4"), "B has no points"),
        (("--bredouille", "C"), "cannot read --bredouille"),
        (("--points", "A:4"), "cannot read --points"),
    ],
)
def test_bad_start_is_exit_2_with_a_message(args: tuple[str, ...], words: str) -> None:
    res = run("score", "events", "A+4", *args)
    assert res.exit_code == 2 and words in res.output and "Traceback" not in res.output
