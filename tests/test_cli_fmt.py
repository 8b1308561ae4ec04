"""``trictrac fmt`` (issue 4): canonical output, --check, --strict, exit codes, carets."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from trictrac.cli.main import cli

FIX = Path(__file__).resolve().parent.parent / "fixtures"
CANONICAL = sorted(p for p in (FIX / "records").glob("*.trn") if "sloppy" not in p.name)


def run(*args: str):
    return CliRunner().invoke(cli, ["fmt", *args])


@pytest.mark.parametrize("path", CANONICAL, ids=lambda p: p.name)
def test_canonical_fixtures_pass_check(path: Path) -> None:
    r = run("--check", str(path))
    assert r.exit_code == 0, r.output
    assert r.stdout == ""


def test_sloppy_fixture_fails_check_and_prints_its_twin() -> None:
    sloppy = FIX / "records" / "douze_trous_sloppy.trn"
    r = run("--check", str(sloppy))
    assert r.exit_code == 1
    assert "not in canonical form" in r.stderr
    r = run(str(sloppy))
    assert r.exit_code == 0
    assert r.stdout == (FIX / "records" / "douze_trous.trn").read_text(encoding="utf-8")


def test_errors_exit_2_with_location_and_caret(tmp_path: Path) -> None:
    p = tmp_path / "bad.trn"
    p.write_text('[A "x"]\n\n1. A 6-5 1/7 hop\n', encoding="utf-8")
    r = run(str(p))
    assert r.exit_code == 2
    lines = r.stderr.splitlines()
    assert lines[0] == f"{p}:3:14: error: unknown-token: not a coup, move, mark or keyword of the notation"
    assert lines[1] == "    1. A 6-5 1/7 hop"
    assert lines[2] == "                 ^^^"
    assert "Traceback" not in r.output
    r = run("--check", str(p))
    assert r.exit_code == 2  # errors win over "not canonical"


def test_strict_makes_warnings_fatal(tmp_path: Path) -> None:
    p = tmp_path / "warn.trn"
    p.write_text('[A "x"]\n[A "y"]\n', encoding="utf-8")
    assert run(str(p)).exit_code == 0
    r = run("--strict", str(p))
    assert r.exit_code == 2 and "error: duplicate-tag" in r.stderr


def test_missing_and_binary_files(tmp_path: Path) -> None:
    r = run(str(tmp_path / "nope.trn"))
    assert r.exit_code == 2 and "cannot read" in r.stderr and "Traceback" not in r.output
    b = tmp_path / "junk.trn"
    b.write_bytes(bytes(range(256)) * 20)
    r = run(str(b))
    assert r.exit_code == 2 and "Traceback" not in r.output


def test_several_files_and_idempotence(tmp_path: Path) -> None:
    sloppy = FIX / "records" / "a_ecrire_two_marques_sloppy.trn"
    once = run(str(sloppy)).stdout
    p = tmp_path / "once.trn"
    p.write_text(once, encoding="utf-8")
    assert run("--check", str(p)).exit_code == 0
    r = run("--check", str(p), str(sloppy))
    assert r.exit_code == 1 and str(sloppy) in r.stderr and str(p) not in r.stderr
