"""Holes written as simple or double in ``check`` and ``replay`` output (issue 13 §4;
RULES.md §5.2: a hole marked in bredouille is a trou double)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from trictrac.cli.main import cli

_GAME = (
    '[Partie "douze-trous"]\n[Profile "lelasseux-1852"]\n'
    '[Position "A{{1:9,8:1,9:1,11:2,12:2}} B{{1:14,10:1}} coin=1/0 coups=5/5 points=10{b}/0"]\n\n'
    "1. A 3-1 A+4t{t} 8/11 9/10\n"
)


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


def test_replay_shows_the_score_between_the_gains_and_the_receipts(tmp_path):
    """RULES.md §4.1 O2-O4: the roller marks first, then the opponent his receipts; B's
    hole of points given (003 §186) erases A's 4 after A marked them."""
    path = tmp_path / "g.trn"
    path.write_text(
        '[Partie "douze-trous"]\n[Profile "lelasseux-1852"]\n'
        '[Position "A{1:1,2:1,3:1,6:1,7:2,8:1,9:2,10:2,11:2,12:2} B{6:1,7:2,8:2,9:2,10:2,11:3,12:3} '
        'coin=1/1 coups=20/20 points=0/8"]\n\n1. A 4-3 A+4 1/8 B+4t1\n',
        encoding="utf-8",
    )
    coup = json.loads(CliRunner().invoke(cli, ["replay", "--json", str(path)]).output)[0]["coups"][0]
    assert coup["score_after_gains"]["A"]["points"] == 4 and coup["score_after_gains"]["B"]["points"] == 8
    assert coup["score"]["A"]["points"] == 0 and coup["score"]["B"]["holes"] == 1
    text = CliRunner().invoke(cli, ["replay", str(path)]).output
    assert "after A's gains: A 0t 4pb, B 0t 8p" in text and "B trou simple" in text
