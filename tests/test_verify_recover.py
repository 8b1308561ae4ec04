"""A mistake of the record itself (a typo): one finding with a "did you mean" proposal, and
the verification goes on (issue 14 §2); --strict / recover=False stops as before."""

from __future__ import annotations

import random
from pathlib import Path

from click.testing import CliRunner

from trictrac.cli.main import cli
from trictrac.notation.reader import parse_text
from trictrac.notation.writer import write_record
from trictrac.replay.judges.play import nearest_plays
from trictrac.replay.moves import legal_plays
from trictrac.replay.position import start_position
from trictrac.replay.selfplay import selfplay
from trictrac.replay.typo_bench import Typo, judge_typo, make_typo, run
from trictrac.replay.verify import verify, verify_text

ROOT = Path(__file__).resolve().parent.parent
MISSING = ROOT / "fixtures" / "findings" / "missing-checker.trn"


def test_missing_checker_proposes_the_nearest_play_and_goes_on() -> None:
    text = MISSING.read_text(encoding="utf-8")
    (strict,) = verify_text(text)
    assert strict.stopped and strict.coups_verified == 1
    (rep,) = verify_text(text, recover=True)
    assert not rep.stopped and rep.coups_verified == 3
    (f,) = rep.findings
    assert f.kind == "missing-checker" and f.detail == "did-you-mean"
    assert f.alternatives[0] == "1/6 1/3" and "did you mean 1/6 1/3?" in f.message


def test_check_goes_on_and_strict_stops() -> None:
    runner = CliRunner()
    on = runner.invoke(cli, ["check", str(MISSING)])
    stop = runner.invoke(cli, ["check", "--strict", str(MISSING)])
    assert on.exit_code == stop.exit_code == 1
    assert "3 coups, 1 finding;" in on.output and "(stopped)" not in on.output
    assert "1 coups, 1 finding (stopped)" in stop.output


def test_nearest_play_of_a_digit_off() -> None:
    plays = legal_plays(start_position("A"), (6, 5)).plays
    near, clear = nearest_plays("1/7 1/9", plays)  # 1/7 1/6 with the 6 mistyped
    assert clear and [p.text() for p in near] == ["1/7 1/6"]
    near, clear = nearest_plays("7/1 6/1", plays)  # from and to exchanged
    assert clear and near[0].text() == "1/7 1/6"


def _game_text(seed: int) -> str:
    (rec,) = list(selfplay(1, seed, "douze-trous"))
    return write_record(rec)


def test_side_letter_typo_is_one_finding_with_the_right_side() -> None:
    text = _game_text(3)
    made = make_typo(text, "side", random.Random(5))
    assert made is not None
    typo_text, typo = made
    assert typo_text != text
    records, diags = parse_text(typo_text)
    rep = verify(records[0], diagnostics=diags, recover=True)
    (f,) = rep.findings
    assert f.kind == "out-of-turn" and f.line == typo.line and f.alternatives == (typo.original,)
    assert not rep.stopped
    # without recovery the same typo gives more than one finding
    assert len(verify(records[0], diagnostics=diags).findings) > 1


def test_judge_typo_needs_the_typo_reported() -> None:
    text = _game_text(4)
    assert judge_typo(text, Typo("digit", 12, "1/7")) == (False, False)  # nothing found: not a pass


def test_typo_bench_on_a_few_games() -> None:
    fig = run(8, seed=2)
    assert fig.games == 8 and sorted(fig.by_kind) == ["delete", "digit", "side", "swap"]
    assert fig.by_kind["swap"] == [2, 2]  # the same play in another order is no mistake
    assert fig.proposals == 4 and fig.proposal_original >= 2
    assert 0.0 <= fig.shares()["to_the_end"] <= 1.0 and "8 games with one typo" in fig.text()
