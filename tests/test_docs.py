"""The docs cannot drift from the CLI: every command has help with an example, and the
README's tour names every top-level command."""

from __future__ import annotations

import click
import pytest
from conftest import ROOT

from trictrac.cli.main import LazyGroup, cli


def _commands(group: click.Group, prefix: str = ""):
    commands = group.load_all() if isinstance(group, LazyGroup) else group.commands
    for name, cmd in sorted(commands.items()):
        yield prefix + name, cmd
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, prefix + name + " ")


ALL = list(_commands(cli))


def test_every_planned_command_is_registered():
    names = {n for n, _ in ALL}
    for expected in (
        "analyse",
        "board",
        "score",
        "fmt",
        "check",
        "annotate",
        "replay",
        "selfplay",
        "bench",
        "db",
        "publish",
        "stats",
    ):
        assert expected in names


@pytest.mark.parametrize("name,cmd", ALL, ids=[n for n, _ in ALL])
def test_command_has_help(name, cmd):
    assert cmd.help and len(cmd.help.strip()) > 20, f"{name} lacks help text"


@pytest.mark.parametrize(
    "name,cmd",
    [(n, c) for n, c in ALL if not isinstance(c, click.Group)],
    ids=[n for n, c in ALL if not isinstance(c, click.Group)],
)
def test_leaf_command_help_has_an_example(name, cmd):
    assert "trictrac " in cmd.help, f"`trictrac {name} --help` shows no example"


def test_readme_tour_names_every_top_level_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in cli.load_all():
        assert f"trictrac {name}" in readme, f"README does not show `trictrac {name}`"


def test_docs_exist_and_are_linked_from_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for doc in (
        "docs/notation.md",
        "docs/glossary.md",
        "docs/score.md",
        "docs/database.md",
        "docs/findings.md",
        "docs/architecture.md",
    ):
        assert (ROOT / doc).exists(), doc
        assert doc in readme, f"README does not link {doc}"
