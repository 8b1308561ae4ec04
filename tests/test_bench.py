"""``trictrac bench`` (issue 17): every figure of the table in one run, a documented
JSON shape (``trictrac.bench``), bad options refused with exit code 2."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from trictrac.bench import STEPS
from trictrac.cli.main import cli
from trictrac.notation.reader import iter_records

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fixtures" / "corpus"

TINY = [
    "-n",
    "4",
    "--memory-sizes",
    "2,6",
    "--import-sample",
    "3",
    "--publish-sample",
    "2",
    "--positions",
    "20",
    "--judge-coups",
    "200",
    "--parse-games",
    "20",
    "--typo-games",
    "6",
]


def _positive(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and x > 0


def test_every_step_on_a_tiny_size(tmp_path: Path) -> None:
    """Every step runs; each figure of issue 17's table is present and positive."""
    out = tmp_path / "bench.json"
    res = CliRunner().invoke(cli, ["bench", *TINY, "--json", "--json-file", str(out)])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert json.loads(out.read_text()) == data
    assert data["version"] == 1
    assert set(data) == {"version", "machine", "corpus", "options", "rows", "figures", "skipped", "peak_memory"}
    assert data["corpus"]["games"] == 4 and data["corpus"]["coups"] > 100
    chess = data["machine"]["chess"]
    # the children start from bytecode, as an installed package does (python-chess's)
    assert data["machine"]["byte_compiled"] == 6
    from trictrac.notation.compiled import active

    assert data["machine"]["compiled_core"] is active()  # which build the figures are of
    import importlib.util

    import trictrac.replay.verifier.verify

    source = os.path.join(
        os.path.dirname(trictrac.replay.verifier.verify.__file__), "verify.py"
    )  # the .so when compiled
    assert os.path.exists(importlib.util.cache_from_source(source))
    assert set(data["skipped"]) == (set() if chess else {"chess"}), data["skipped"]
    f = data["figures"]
    keys = [
        "check_coups_per_s",
        "check_j2_speedup",
        "db_import_games_per_s",
        "db_import_j2_speedup",
        "publish_pages_per_s",
        "analyse_ms",
        "judge_us_direct",
        "judge_us_enumeration",
        "judge_us_proof",
        "judge_decided_directly",
        "typo_to_the_end",
        "typo_proposal_original",
    ]
    if chess:
        keys += ["chess_plies_per_s", "check_vs_chess"]
    for key in keys:
        assert _positive(f[key]), (key, f.get(key))
    assert f["judge_decided_directly"] <= 1
    assert f["typo"]["games"] == 6 and f["typo_to_the_end"] <= 1 and f["typo_proposal_original"] <= 1
    assert set(f["check_peak_mb"]) == {"2", "6"} and all(_positive(v) for v in f["check_peak_mb"].values())
    for name in ("engine", "moves", "parse"):
        rates = {k: v for k, v in f[name].items() if "per_" in k}  # per second, per call
        assert len(rates) >= 3 and all(_positive(v) for v in rates.values()), (name, f[name])
    for r in data["rows"]:
        assert set(r) == {
            "step",
            "items",
            "unit",
            "seconds",
            "cpu_seconds",
            "rate",
            "rate_per_cpu_second",
            "peak_mb",
            "note",
        }
        assert _positive(r["items"]) and _positive(r["seconds"]), r
    check = next(r for r in data["rows"] if r["step"] == "check")
    assert check["items"] == data["corpus"]["coups"] and _positive(check["peak_mb"])
    # same number of plies as coups: the comparison is like for like
    if chess:
        assert next(r for r in data["rows"] if r["step"] == "chess")["items"] == check["items"]


def test_verify_counts_every_coup_of_a_file(tmp_path: Path) -> None:
    """On a given file: parse first, then every coup verified (the pipeline figures of
    the former replay/benchmark.py)."""
    path = CORPUS / "douze-trous-compact.trn"
    res = CliRunner().invoke(cli, ["bench", str(path), "--only", "parse,verify", "--parse-games", "10", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    steps = [r["step"] for r in data["rows"]]
    assert steps == ["parse corpus", "parse corpus", "verify (1 job)"]
    coups = sum(len(pr.record.coups) for pr in iter_records(path))
    assert data["corpus"]["coups"] == coups and data["rows"][2]["items"] == coups
    assert data["peak_memory"]["self_mb"] > 0
    assert data["figures"]["parse"]["games"] == 10


def test_text_output_names_the_targets() -> None:
    res = CliRunner().invoke(cli, ["bench", *TINY, "--only", "check"])
    assert res.exit_code == 0, res.output
    assert "check, coups per CPU second (one core, whole process)" in res.output


@pytest.mark.parametrize(
    "args,message",
    [
        (["--only", "check,nonsense"], "unknown step 'nonsense'"),
        (["--memory-sizes", "5,x"], "--memory-sizes"),
        (["missing-file.trn"], "no such file"),
    ],
)
def test_bad_options_exit_2(args: list[str], message: str) -> None:
    res = CliRunner().invoke(cli, ["bench", *args])
    assert res.exit_code == 2 and message in res.output, res.output


def test_steps_are_listed_in_the_help() -> None:
    res = CliRunner().invoke(cli, ["bench", "--help"])
    assert all(s in res.output for s in STEPS)
