"""The ``trictrac`` entry point.  Each command lives in its own module of ``cli/``
and only wires options to one library call."""

from __future__ import annotations

import difflib
import gettext
import importlib
import os
from collections.abc import Iterator, MutableMapping, Sequence
from contextlib import contextmanager
from typing import Any

import click

from .helptext import Group

#: command name -> (module of ``cli/``, attribute).  A command's module is imported only
#: when that command runs (or ``--help`` lists them): ``trictrac check`` need not load
#: lxml, sqlite-utils or prompt_toolkit, which would cost it a tenth of a second.
COMMANDS: dict[str, tuple[str, str]] = {
    "analyse": ("analyse", "analyse"),
    "board": ("board", "board"),
    "score": ("score", "score"),
    "fmt": ("fmt", "fmt"),
    "check": ("check", "check"),
    "annotate": ("check", "annotate"),
    "replay": ("check", "replay"),
    "selfplay": ("selfplay", "selfplay"),
    "stats": ("stats", "stats"),
    "bench": ("bench", "bench"),
    "db": ("db", "db"),
    "standings": ("standings", "standings"),
    "publish": ("publish", "publish"),
    "record": ("record", "record"),
    "serve": ("serve", "serve"),
}


class LazyGroup(Group):
    """A group whose commands are imported on first use (click's documented lazy-loading
    pattern: ``list_commands`` / ``get_command``)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module, attr = COMMANDS[cmd_name]
            cmd = getattr(importlib.import_module(f"{__package__}.{module}"), attr)
            self.add_command(cmd, cmd_name)
        return super().get_command(ctx, cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """An unknown command proposes the nearest names (``trictrac chek``: did you mean
        'check'?), as click does for the commands it has loaded; the lazy ones are not."""
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            close = difflib.get_close_matches(name, self.list_commands(ctx), n=3, cutoff=0.6)
            if close:
                from ..words import words

                W = words(_argv_lang(ctx.args or args))
                ctx.fail(W("cli.did_you_mean", name=name, close=W("cli.or").join(repr(c) for c in close)))
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: click.Context) -> object:
        """A command out of memory (a memory limit, ``ulimit -v``) is one line and exit 2,
        never a traceback with exit 1, which reads as "findings" (issue 27 row 1)."""
        try:
            return super().invoke(ctx)
        except MemoryError:
            import gc

            gc.collect()
            from .common import command_words

            W = command_words()
            click.echo(W("dbcli.input.error", message=W("cli.out_of_memory")), err=True)
            ctx.exit(2)

    def main(self, args: Sequence[str] | None = None, *a: Any, **kw: Any) -> Any:
        """Click's own words (``Usage:``, ``Error: No such option``…) in the user's language:
        the one catalogue holds Click's msgids too, bound for the run (:func:`click_speaks`)."""
        with click_speaks(_argv_lang(list(args) if args is not None else None, default="")):
            return super().main(args, *a, **kw)

    def load_all(self) -> MutableMapping[str, click.Command]:
        """Every command, imported (the docs tests walk them)."""
        ctx = click.Context(self)
        for name in COMMANDS:
            self.get_command(ctx, name)
        return self.commands


def _group_lang(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    """The group's ``--lang`` (``trictrac --lang fr check …``): the words every command
    under it speaks unless it names its own ``--lang``."""
    from ..words import lang_from_env, words

    return words(value or lang_from_env())


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="trictrac-records", prog_name="trictrac")
@click.option(
    "--lang",
    "lang",
    type=click.Choice(("fr", "en")),
    default=None,
    callback=_group_lang,
    help="Language of the messages: fr or en (default: from LANG; English when neither).",
)
def cli(lang: object) -> None:
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


def _argv_lang(args: Sequence[str] | None, default: str = "en") -> str:
    """The language of a command line: its ``--lang`` (read before Click parses it, so
    that a usage error is said in it), else the user's locale, else ``default``."""
    import sys

    from ..words import LANGS, lang_from_env

    argv = list(sys.argv[1:] if args is None else args)
    for i, a in enumerate(argv):
        value = (
            argv[i + 1]
            if a == "--lang" and i + 1 < len(argv)
            else a.partition("=")[2]
            if a.startswith("--lang=")
            else None
        )
        if value in LANGS:
            return value
        if a == "--":
            break
    return lang_from_env(default=default)


@contextmanager
def click_speaks(lang: str) -> Iterator[None]:
    """Click marks its messages with the standard ``gettext`` (its default domain): for
    the run of a command, that domain is the toolkit's catalogue and its language
    ``lang`` (``LANGUAGE``, which gettext reads first; "": the locale's, or Click's own
    English when it names none); both are restored after, so no library state outlives
    the command (tests run many in one process)."""
    from ..words import DOMAIN, LOCALE_DIR

    gettext.bindtextdomain(DOMAIN, str(LOCALE_DIR))
    domain, language = gettext.textdomain(), os.environ.get("LANGUAGE")
    gettext.textdomain(DOMAIN)
    if lang:
        os.environ["LANGUAGE"] = lang
    try:
        yield
    finally:
        gettext.textdomain(domain)
        if language is None:
            os.environ.pop("LANGUAGE", None)
        else:
            os.environ["LANGUAGE"] = language
