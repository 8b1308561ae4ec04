"""``bench.import_ratio --instructions``: the import/check ratio counted in instructions under
callgrind, a measure the host's load does not move (docs/performance.md, issue 30, eighth pass)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from trictrac.bench.import_ratio import instructions

pytestmark = [
    pytest.mark.slow,  # two processes under valgrind: ~30 s
    pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed"),
]


def test_the_count_is_the_same_from_one_run_to_the_next(tmp_path: Path) -> None:
    sample = tmp_path / "one.trn"
    made = [sys.executable, "-m", "trictrac.cli", "selfplay", "-n", "1", "--seed", "3", "-o", str(sample)]
    subprocess.run(made, check=True, capture_output=True)
    check = [instructions(["check", str(sample)], True) for _ in range(2)]
    imported = instructions(["db", "import", str(tmp_path / "c.db"), str(sample)], True, tmp_path / "c.db")
    # the same to a tenth of a per cent (the hash seed moves a few dictionaries' order), and
    # an import does what a check does and more
    assert abs(check[0] - check[1]) < check[0] / 1000
    assert check[0] > 100e6 and imported > check[0] * 1.05
