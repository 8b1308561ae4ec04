"""Holes written as simple or double in ``check`` and ``replay`` output (issue 13 §4;
RULES.md §5.2: a hole marked in bredouille is a trou double)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from trictrac.cli.main import cli

_GAME = ('[Partie "douze-trous"]\n[Profile "lelasseux-1852"]\n'
         '[Position "A{{1:9,8:1,9:1,11:2,12:2}} B{{1:14,10:1}} coin=1/0 coups=5/5 points=10{b}/0"]\n\n'
         "1. A 3-1 A+4t{t} 8/11 9/10\n")


def _run(tmp_path, args, bredouille):
    path = tmp_path / "g.trn"
    path.write_text(_GAME.format(b="b" if bredouille else "", t=2 if bredouille else 1), encoding="utf-8")
    return CliRunner().invoke(cli, [*args, str(path)])


def test_replay_says_trou_double_in_bredouille_and_simple_without(tmp_path):
    for bredouille, word in ((True, "double"), (False, "simple")):
        res = _run(tmp_path, ["replay"], bredouille)
        assert res.exit_code == 0, res.output
        assert f"A trou {word}" in res.output
        coup = json.loads(_run(tmp_path, ["replay", "--json"], bredouille).output)[0]["coups"][0]
        assert coup["holes"] == [{"side": "A", "hole": word}]


def test_check_counts_the_double_holes(tmp_path):
    res = _run(tmp_path, ["check"], True)
    assert res.exit_code == 0, res.output
    assert "A 2 holes (1 double, 0 simple)" in res.output
    assert json.loads(_run(tmp_path, ["check", "--json"], True).output)[0]["double_holes"] == {"A": 1, "B": 0}
    assert "(1 double" not in _run(tmp_path, ["check"], False).output
