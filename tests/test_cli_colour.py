"""Colour only on a terminal: `trictrac check` paints findings when stdout is a tty and
writes plain text into pipes and files."""

from __future__ import annotations

from click.testing import CliRunner
from conftest import FIXTURES

from trictrac.cli import check as check_module
from trictrac.cli.main import cli

RECORD = str(FIXTURES / "findings" / "e40-ecole-par-trop.trn")


def test_no_colour_when_not_a_terminal():
    res = CliRunner().invoke(cli, ["check", RECORD])
    assert res.exit_code == 1
    assert "ecole-par-trop" in res.output and "\x1b[" not in res.output


def test_colour_on_a_terminal(monkeypatch):
    monkeypatch.setattr(check_module, "use_colour", lambda: True)
    res = CliRunner().invoke(cli, ["check", RECORD], color=True)
    assert res.exit_code == 1
    assert "\x1b[31m" in res.output  # the finding in red
