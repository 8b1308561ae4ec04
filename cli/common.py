"""Options and errors shared by every command (defined once, used everywhere)."""

from __future__ import annotations

import gc
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

from ..notation.textio import Input, InputError, OSReason, OutputError, open_input
from ..replay.rules.profiles import Profile, find_profile, profile_names
from ..words import LANGS, Words, lang_from_env, words


class BadInput(click.ClickException):
    """Bad input: one clear line on stderr and exit code 2 (never a traceback)."""

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.words = command_words()  # shown after the command's context has closed

    def show(self, file: Any = None) -> None:
        click.echo(self.words("dbcli.input.error", message=self.format_message()), err=True)


def command_words(ctx: click.Context | None = None) -> Words:
    """The words of the running command: its ``--lang``, else the group's
    (``trictrac --lang fr …``), else the user's locale."""
    ctx = ctx if ctx is not None else click.get_current_context(silent=True)
    while ctx is not None:
        lang = ctx.params.get("lang")
        if isinstance(lang, Words):
            return lang
        ctx = ctx.parent
    return words(lang_from_env())


def cannot_write(e: OSError, output: str | os.PathLike[str] | None = None) -> BadInput:
    """A write that failed, said in the command's words (``OUTPUT: écriture impossible :
    permission refusée``; exit 2)."""
    if not isinstance(e, OutputError):
        e = OutputError.cannot_write(output if output is not None else (e.filename or "-"), e)
    return BadInput(e.say(command_words().lang))


def os_refusal(e: OSError) -> BadInput:
    """A file the system refused (read or write), in the command's words: ``FILE: reason``."""
    if isinstance(e, OutputError):
        return cannot_write(e)
    W = command_words()
    why = OSReason.of(e).say(W)
    return BadInput(W("dbcli.input.said", name=e.filename or "-", why=why) if e.filename else why)


def os_reason(e: OSError, W: Words) -> str:
    """Why a file failed, alone (no file name), in ``W``'s words: a write's reason
    (``OutputError``) or the system's."""
    return e.why(W) if isinstance(e, OutputError) else OSReason.of(e).say(W)


def unreadable_input(path: str | os.PathLike[str], e: OSError) -> BadInput:
    """A FILE that failed while it was read (the error names no file): ``FILE: reason``."""
    W = command_words()
    return BadInput(W("dbcli.input.said", name=os.fspath(path), why=OSReason.of(e).say(W)))


def _profile_callback(ctx: click.Context, param: click.Parameter, value: str | None) -> Profile | None:
    if value is None:
        return None
    try:
        return find_profile(value)
    except ValueError:
        W = command_words()
        raise click.BadParameter(W("cli.unknown_profile", name=value, known=", ".join(profile_names()))) from None


def profile_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--profile",
        "profile",
        default=None,
        callback=_profile_callback,
        help=f"Rules profile (the rules reference, docs/rules-reference.md, says where the treatises differ): {', '.join(profile_names())}. "
        "Default: the record's Profile header, else lelasseux-1852.",
    )(f)


def lang_option(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--lang fr|en``: the language of the words; by default the user's locale
    (``LANG``, ``LC_ALL``…), English when it names neither."""
    return click.option(
        "--lang",
        "lang",
        type=click.Choice(LANGS),
        default=None,
        callback=lambda ctx, _param, value: words(value) if value else command_words(ctx.parent),
        help="Language of the messages: fr or en (default: from LANG; English when neither).",
    )(f)


def json_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")(f)


def jobs_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--jobs",
        "-j",
        type=click.IntRange(1, 256),
        default=1,
        show_default=True,
        help="Worker processes for large archives.",
    )(f)


@contextmanager
def batch_collector() -> Iterator[None]:
    """The cyclic garbage collector tuned for a command that walks a whole archive
    (used as a decorator): the modules already loaded are moved out of its passes
    (``gc.freeze``, also what a fork wants) and its youngest generation holds more
    objects before a pass.  A game's records and reports make no reference cycles,
    so memory stays flat; measured on ``check`` of 300 parties: 1.42 -> 1.35 CPU s
    (issue 17).  Restored when the command ends."""
    threshold = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(10_000, *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False))


def use_colour() -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set (no-color.org)."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def read_input(name: str) -> Input:
    """A FILE argument through the one input reader (``notation.textio.open_input``):
    ``-`` is standard input; junk is :class:`BadInput` (one line, exit 2)."""
    try:
        return open_input(name)
    except InputError as e:
        raise BadInput(e.say(command_words().lang)) from None


def input_paths(files: tuple[str, ...], *, pass_missing: bool = False) -> tuple[str, ...]:
    """Every FILE checked by the one input reader before anything is written (junk: one
    line, exit 2), as paths for the APIs that take paths (``-`` and UTF-16 files as
    temporary UTF-8 copies, removed when the command ends).  ``pass_missing``: a file
    that does not exist is passed on as it is (the API reports it and goes on)."""
    from contextlib import ExitStack

    inputs = [Input(f, f) if pass_missing and f != "-" and not os.path.lexists(f) else read_input(f) for f in files]
    stack = ExitStack()
    click.get_current_context().call_on_close(stack.close)
    return tuple(stack.enter_context(inp.as_path()) for inp in inputs)


def stdin_names(files: tuple[str, ...], paths: tuple[str, ...], name: str | None) -> dict[str, str]:
    """The name standard input is known by (``--name``, else ``-``), by the temporary
    path :func:`input_paths` gave it: what is stored and shown is never that path."""
    return {p: name or "-" for f, p in zip(files, paths, strict=True) if f == "-"}


def name_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--name",
        "stdin_name",
        default=None,
        metavar="NAME",
        help="The name a record read from standard input (FILE '-') is stored and shown under (default: '-').",
    )(f)


def summary_line(
    files: int, games: int, coups: int, findings: int, *, unreadable: int = 0, lang: str | Words = "en"
) -> str:
    """The last line of a command that read several files, each count agreeing with its word."""
    W = words(lang)
    tail = W.n("cli.unreadable", unreadable) if unreadable else ""
    return W(
        "cli.summary",
        files=W.n("cli.files", files),
        tail=tail,
        games=W.n("cli.games", games),
        coups=W.n("cli.coups", coups),
        findings=W.n("cli.findings", findings),
    )


def said_diagnostic(d: Any, path: str, lang: Words) -> str:
    """``file:line:col: severity: code: message``, the severity and message in ``lang``
    (English: the reader's own words, ``Diagnostic.render``)."""
    if lang.lang == "en":
        return str(d.render(path))
    return f"{path}:{d.span.line}:{d.span.col}: {lang(f'sev.{d.severity}')}: {d.code}: {d.say(lang.lang)}"


def progress(length: int, label: str) -> Any:
    """A progress bar on stderr when it is a terminal; a silent stand-in otherwise."""
    if sys.stderr.isatty() and length > 0:
        return click.progressbar(length=length, label=label, file=sys.stderr)
    return _NoBar()


class _NoBar:
    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, n: int, current_item: object = None) -> None:
        return None
