"""Issue 30's import/check ratio in CPU seconds: all the rounds' ratio and its bootstrap
interval (``bench.import_ratio.ratio_interval``), and the verdict it gives (met only when the
whole interval clears the target).  On a shared host a process's CPU seconds scatter by a
fifth and more from one run to the next (docs/performance.md, "Issue 30, eleventh pass"): the
interval is what says whether the rounds measured decide the figure."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trictrac.bench.import_ratio import TARGET, Interval, cpu_rounds, ratio_interval, verdict

seconds = st.floats(min_value=0.5, max_value=20.0, allow_nan=False)
rounds = st.lists(st.tuples(seconds, seconds), min_size=1, max_size=40)


def _noisy(n: int, ratio: float, scatter: float, seed: int) -> list[tuple[float, float]]:
    """``n`` rounds of a host whose speed moves each process's CPU seconds by up to
    ``scatter`` (a fraction), the import doing ``1 / ratio`` times ``check``'s work."""
    rng = random.Random(seed)
    return [
        (2.0 * (1 + rng.uniform(-scatter, scatter)), 2.0 / ratio * (1 + rng.uniform(-scatter, scatter)))
        for _ in range(n)
    ]


@given(rounds)
def test_the_interval_holds_the_ratio_of_all_the_rounds(pairs: list[tuple[float, float]]) -> None:
    got = ratio_interval(pairs, resamples=200)
    assert got.ratio == pytest.approx(sum(c for c, _ in pairs) / sum(i for _, i in pairs))
    assert (
        min(c / i for c, i in pairs) - 1e-9 <= got.low <= got.ratio <= got.high <= max(c / i for c, i in pairs) + 1e-9
    )


@given(rounds, st.floats(min_value=0.2, max_value=5.0))
def test_a_host_slower_for_both_alike_changes_nothing(pairs: list[tuple[float, float]], k: float) -> None:
    slower = [(c * k, i * k) for c, i in pairs]
    a, b = ratio_interval(pairs, resamples=200), ratio_interval(slower, resamples=200)
    assert b.ratio == pytest.approx(a.ratio) and b.low == pytest.approx(a.low) and b.high == pytest.approx(a.high)


def test_rounds_that_agree_give_an_interval_of_one_point() -> None:
    pairs = [(c, c / 0.83) for c in (2.1, 2.9, 3.7, 2.4, 2.2)]
    got = ratio_interval(pairs)
    assert got.low == pytest.approx(0.83) and got.high == pytest.approx(0.83)


def test_the_same_rounds_give_the_same_interval() -> None:
    pairs = _noisy(15, 0.82, 0.2, seed=1)
    assert ratio_interval(pairs) == ratio_interval(list(pairs))


def test_more_rounds_of_the_same_host_narrow_the_interval() -> None:
    few, many = ratio_interval(_noisy(11, 0.82, 0.25, seed=2)), ratio_interval(_noisy(275, 0.82, 0.25, seed=2))
    assert many.high - many.low < (few.high - few.low) / 2
    assert many.low < 0.82 < many.high  # and it still holds the host's true ratio


@pytest.mark.parametrize(
    ("interval", "said"),
    [
        (Interval(0.83, 0.81, 0.85), "met"),
        (Interval(0.82, TARGET, 0.84), "met"),
        (Interval(0.82, 0.79, 0.85), "undecided: more --rounds"),
        (Interval(0.78, 0.76, 0.80), "undecided: more --rounds"),
        (Interval(0.76, 0.74, 0.79), "not met"),
    ],
)
def test_the_verdict_needs_the_whole_interval(interval: Interval, said: str) -> None:
    assert verdict(interval) == said


def test_a_scattered_host_leaves_a_true_ratio_over_the_target_undecided_with_eleven_rounds() -> None:
    # 0.83, each process's CPU seconds moving by up to a fifth: eleven rounds do not decide it
    assert verdict(ratio_interval(_noisy(11, 0.83, 0.2, seed=3))) == "undecided: more --rounds"


def test_no_rounds_is_refused() -> None:
    with pytest.raises(ValueError, match="no rounds"):
        ratio_interval([])


@pytest.mark.parametrize(("value", "message"), [("0", "at least one round"), ("x", "not a whole number")])
@pytest.mark.parametrize("bench", ["import_ratio", "club_targets"])
def test_bad_rounds_exit_2(bench: str, value: str, message: str) -> None:
    args = ["--archive", "a.trn", "--rounds", value] + (["--db", "a.db"] if bench == "club_targets" else [])
    done = subprocess.run([sys.executable, "-m", f"trictrac.bench.{bench}", *args], capture_output=True, text=True)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


@pytest.fixture(scope="module")
def two_parties(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("ratio") / "two.trn"
    made = [sys.executable, "-m", "trictrac.cli", "selfplay", "-n", "2", "--seed", "5", "-o", str(path)]
    subprocess.run(made, check=True, capture_output=True)
    return str(path)


def test_the_bench_prints_the_interval_and_keeps_every_round(two_parties: str, tmp_path: Path) -> None:
    saved = tmp_path / "rounds.json"
    args = ["--archive", two_parties, "--no-build", "--rounds", "2", "--save", str(saved)]
    done = subprocess.run([sys.executable, "-m", "trictrac.bench.import_ratio", *args], capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr
    (line,) = [x for x in done.stdout.splitlines() if x.startswith("import/check")]
    rounds = json.loads(saved.read_text(encoding="utf-8"))["pure Python"]
    assert len(rounds) == 2 and all(c > 0 and i > 0 for c, i in rounds)
    # the printed figure is the interval of exactly these rounds, and the verdict is its own
    interval = ratio_interval([(c, i) for c, i in rounds])
    assert f"all rounds {interval}" in line and f": {verdict(interval)} (target >= {TARGET})" in line
    assert done.returncode == (0 if verdict(interval) == "met" else 1)


def test_club_targets_measures_the_ratio_as_the_bench_does(two_parties: str, tmp_path: Path) -> None:
    args = ["--archive", two_parties, "--db", str(tmp_path / "none.db"), "--skip", "size,jobs,queries", "--rounds", "2"]
    done = subprocess.run([sys.executable, "-m", "trictrac.bench.club_targets", *args], capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr
    (line,) = [x for x in done.stdout.splitlines() if x.startswith("import/check")]
    assert "2 rounds: " in line and "95 % interval" in line
    assert line.rstrip().endswith(("met (target >= 0.8)", "undecided: more --rounds (target >= 0.8)"))


def test_the_rounds_leave_the_environment_as_they_found_it(
    two_parties: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # club_targets times the -j 2 speed-up after the ratio: a mode left set would run it pure
    monkeypatch.delenv("TRICTRAC_PURE", raising=False)
    db = tmp_path / "r.db"
    got = cpu_rounds(["check", two_parties], ["db", "import", str(db), two_parties], db, [True], 1)
    assert "TRICTRAC_PURE" not in os.environ
    assert list(got) == [True] and len(got[True]) == 1 and all(s > 0 for s in got[True][0])
