"""A mistake of the record itself (a typo): one finding with a "did you mean" proposal, and
the verification goes on (issue 14 §2); --strict / recover=False stops as before."""

from __future__ import annotations

import random
import re
from pathlib import Path

from click.testing import CliRunner

from trictrac.bench.typo_bench import (
    TARGET_PROPOSAL,
    TARGET_TO_THE_END,
    Typo,
    bench,
    judge_typo,
    make_typo,
    run,
)
from trictrac.cli.main import cli
from trictrac.notation.reader import parse_text
from trictrac.notation.writer import write_record
from trictrac.replay.generate.selfplay import selfplay
from trictrac.replay.rules.moves import legal_plays
from trictrac.replay.rules.position import start_position
from trictrac.replay.verifier.judges.play import nearest_plays
from trictrac.replay.verifier.verify import verify, verify_text

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
    assert "1 coup, 1 finding (stopped)" in stop.output


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


def test_typo_targets_on_100_games() -> None:
    """Issue 14 §2 targets on a fixed sample: ≥95 % verified to the end with the typo's
    finding only, ≥80 % proposing the original text; every kind of typo recovered."""
    fig = run(100, seed=7)
    shares = fig.shares()
    assert fig.games == 100 and fig.proposals == 50
    assert shares["to_the_end"] >= TARGET_TO_THE_END, fig.text()
    assert shares["proposal_original"] >= TARGET_PROPOSAL, fig.text()
    for kind, (games, to_the_end) in fig.by_kind.items():
        assert to_the_end >= 0.85 * games, (kind, fig.text())


def test_typo_targets_are_missed_when_stopping_at_the_first_error() -> None:
    """The same measure fails without recovery (check --strict): the targets can fail."""
    fig = run(12, seed=7, recover=False)
    assert fig.shares()["to_the_end"] < TARGET_TO_THE_END
    assert fig.shares()["proposal_original"] < TARGET_PROPOSAL


def test_a_missing_coup_is_found_among_the_21_throws() -> None:
    text = _game_text(11)
    made = make_typo(text, "delete", random.Random(1))
    assert made is not None
    typo_text, typo = made
    records, diags = parse_text(typo_text)
    rep = verify(records[0], diagnostics=diags, recover=True)
    (f,) = rep.findings
    assert f.detail == "missing-coup" and f.line == typo.line and not rep.stopped
    # the coups that follow agree with more than one coup left out here: any is proposed
    assert re.match(r"^[1-6]-[1-6] ", f.alternatives[0]) and len(f.alternatives) > 1
    assert f.record_mistake and "verification goes on as if the opponent had played" in f.consequence


def test_an_unreadable_move_is_the_finding_not_a_diagnostic() -> None:
    """``1/70`` is no move (the reader drops it with a diagnostic): the verifier still
    sees what was written and proposes the play it was typed for."""
    lines = _game_text(5).split("\n")
    k = next(i for i, ln in enumerate(lines) if re.match(r"^\d+\. [AB] \d-\d [0-9/ ]+$", ln) and "off" not in ln)
    head, moves = lines[k].split(" ", 3)[:3], lines[k].split(" ", 3)[3]
    first, *rest = moves.split(" ")
    lines[k] = " ".join([*head, first + "0", *rest])  # 1/7 -> 1/70
    records, diags = parse_text("\n".join(lines))
    assert any(d.code == "bad-move" for d in diags)
    rep = verify(records[0], diagnostics=diags, recover=True)
    assert not [d for d in rep.diagnostics if d.severity == "error"]
    (f,) = rep.findings
    assert f.line == k + 1 and f.detail == "did-you-mean" and not rep.stopped
    assert f.alternatives[0] == moves and f.record_mistake and f"did you mean {moves}?" in f.message
    strict = verify(records[0], diagnostics=diags)
    assert any(d.code == "bad-move" for d in strict.diagnostics)  # --strict keeps the reader's word


def test_bench_step_gives_plain_figures() -> None:
    out = bench(4, seed=1)
    assert out["games"] == 4 and set(out["by_kind"]) == {"delete", "digit", "side", "swap"}
    assert 0.0 <= out["to_the_end"] <= 1.0 and out["targets"]["to_the_end"] == 0.95
