"""The ``trictrac`` entry point.  Each command lives in its own module of ``cli/``
and only wires options to one library call."""

from __future__ import annotations

import importlib

import click

# (module, attribute) of each command; a module that is missing is skipped so that a
# partial checkout still runs the other commands.
COMMANDS = [
    ("analyse", "analyse"),
    ("board", "board"),
    ("score", "score"),
    ("fmt", "fmt"),
    ("check", "check"),
    ("check", "annotate"),
    ("check", "replay"),
    ("selfplay", "selfplay"),
    ("stats", "stats"),
    ("bench", "bench"),
    ("db", "db"),
    ("standings", "standings"),
    ("publish", "publish"),
    ("record", "record"),
]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="trictrac-records", prog_name="trictrac")
def cli() -> None:
    """Grand Trictrac records: write, check, analyse, store and publish games.

    FILE '-' reads standard input wherever a FILE is taken.  NO_COLOR turns colour off.

    \b
    Exit codes:
      0  ok: check found nothing; annotate, fmt, publish, db import did their job
         (whatever the games' findings)
      1  check: findings; fmt --check: a file is not canonical
      2  bad input: a FILE missing, a directory, empty or binary, or an output
         that could not be written (nothing is written)
    """


for _module, _attr in COMMANDS:
    try:
        _mod = importlib.import_module(f"trictrac.cli.{_module}")
    except ModuleNotFoundError as _e:  # not built yet in this checkout
        if _e.name != f"trictrac.cli.{_module}":
            raise
        continue
    _cmd = getattr(_mod, _attr, None)
    if _cmd is not None:
        cli.add_command(_cmd)
