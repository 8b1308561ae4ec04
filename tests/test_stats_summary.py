"""``trictrac stats`` ends, as ``check`` does, with one line: files, games, coups, findings."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from trictrac.cli.main import cli

ROOT = Path(__file__).resolve().parents[1]


def test_stats_summary_line_is_checks() -> None:
    files = [str(p) for p in sorted((ROOT / "fixtures" / "findings").glob("*.trn"))[:12]]
    files += [str(ROOT / "fixtures" / "records" / "douze_trous_sloppy.trn")]
    runner = CliRunner()
    stats = runner.invoke(cli, ["stats", *files])
    check = runner.invoke(cli, ["check", *files])
    assert stats.exit_code == 0 and check.exit_code == 1, (stats.output, check.output)
    last = stats.output.strip().splitlines()[-1]
    assert last == check.output.strip().splitlines()[-1]
    assert last.startswith(f"{len(files)} files, {len(files)} games, ") and not last.endswith(" 0 findings")
    data = json.loads(runner.invoke(cli, ["stats", *files, "--json"]).output)
    assert data["files"] == len(files) and data["games"] == len(files)
    assert last.endswith(f", {data['findings']['findings']} findings")
    one = runner.invoke(cli, ["stats", files[0]]).output  # one file: no summary, as check
    assert " files, " not in one and "1 file, " not in one
