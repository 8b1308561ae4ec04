"""The commands' help in the user's language (issue 25 §1).

The source keeps each help text in English, and that text is its own msgid in the
catalogue (as Click's words are): a command's docstring, ``short_help`` and epilog,
each parameter's ``help``.  They are looked up when the help is shown, through the
gettext domain that :func:`trictrac.cli.main.click_speaks` binds for the run (the
command's ``--lang``, else the locale), so Click's headings and the toolkit's texts
are always said in one language.  Outside a run (the docs tests build the help
themselves) nothing is bound and the English is shown.

A help text is looked up one paragraph at a time, its whitespace folded (Click re-wraps
a paragraph anyway), so re-wrapping a docstring in the source keeps its entries; in a
``\\b`` paragraph (kept as written) the commands of an example are shown as written
and the lines between them looked up (:func:`pieces`).
:func:`help_texts` lists every msgid of a command tree: the coverage test checks each
is in both catalogues.
"""

from __future__ import annotations

import copy
import gettext
import inspect
import re
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import click
from click.utils import _make_default_short_help

__all__ = ["Command", "Group", "said", "said_metavar", "metavars", "help_texts", "pieces"]

#: a word of a metavar (``FILES...``, ``[OPTIONS]``, ``INTEGER RANGE``) or of a help text
#: naming one: said through its key ``w6.metavar.<WORD>`` when the catalogue has one
_METAVAR_WORD = re.compile(r"\b[A-Z][A-Z_]+\b")


def said_metavar(text: str) -> str:
    """``text`` with each metavar word the catalogue knows said in the run's language
    (``FILES...`` -> ``FICHIERS...``); a word it does not know (``JSON``, ``URL``) is
    kept, and outside a run (nothing bound) the English is shown."""

    def one(m: re.Match[str]) -> str:
        key = f"w6.metavar.{m.group()}"
        s = gettext.gettext(key)
        return m.group() if s == key else s

    return _METAVAR_WORD.sub(one, text)


#: a line of a verbatim paragraph that is a command to type: shown as written (its
#: ``  # comment`` said in the language)
_COMMAND = re.compile(r"^\s*(?:trictrac|datasette|cat|ssh) ")


def pieces(text: str) -> Iterator[tuple[str, str]]:
    """(literal, msgid) pieces of a cleaned help text: the literal is shown as it is, the
    msgid is said in the language.  A paragraph is one msgid, its whitespace folded; a
    verbatim one (``\\b``) is kept line for line, each run of lines that are not
    commands one msgid, the commands (their comments apart) as written."""
    for i, chunk in enumerate(text.split("\n\n")):
        if i:
            yield "\n\n", ""
        if not chunk.startswith("\b\n"):
            yield chunk[: len(chunk) - len(chunk.lstrip(" "))], " ".join(chunk.split())
            continue
        yield "\b", ""
        run: list[str] = []
        for line in chunk[2:].split("\n"):
            if not _COMMAND.match(line):
                run.append(line)
                continue
            if run:
                yield "\n", "\n".join(run)
                run = []
            command, hash_, comment = line.partition("  # ")
            yield "\n" + command + hash_, comment
        if run:
            yield "\n", "\n".join(run)


def said(text: str | None) -> str:
    """``text`` (a help text, cleaned by ``inspect.cleandoc``) in the language bound for
    the run, piece by piece."""
    if not text:
        return text or ""
    return "".join(literal + (said_metavar(gettext.gettext(msgid)) if msgid else "") for literal, msgid in pieces(text))


def _help(text: str | None) -> str:
    """What Click shows of a docstring: cleaned, cut at the first form feed."""
    return inspect.cleandoc(text or "").partition("\f")[0]


def _said_maker(make: Callable[[click.Context], str]) -> Callable[[click.Context], str]:
    """A parameter's ``make_metavar`` whose words are said in the run's language."""

    def make_metavar(ctx: click.Context) -> str:
        return said_metavar(make(ctx))

    return make_metavar


P = TypeVar("P", bound=click.Parameter)


def _spoken(param: P) -> P:
    """A copy of ``param`` whose help is said in the run's language."""
    help_ = getattr(param, "help", None)
    if not help_:
        return param
    twin = copy.copy(param)
    twin.help = said(help_)  # type: ignore[attr-defined]
    return twin


class HelpFormatter(click.HelpFormatter):
    """A heading in the language's typography (« Options : »)."""

    def write_heading(self, heading: str) -> None:
        self.write(f"{'':>{self.current_indent}}{gettext.gettext('{heading}:').format(heading=heading)}\n")


class Context(click.Context):
    formatter_class = HelpFormatter


class Command(click.Command):
    """A command whose help, short help, epilog and parameters' help are said in the
    run's language (the source's English is the msgid)."""

    context_class = Context

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        # Click makes it once, its help said in the language of that first run: keep
        # the msgid, said when shown
        option = super().get_help_option(ctx)
        if option is not None:
            option.help = "Show this message and exit."
        return option

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        # each parameter's metavar said in the run's language, wherever Click shows it
        # (the usage line, the options' list, "Missing argument 'FICHIERS...'")
        params = super().get_params(ctx)
        for param in params:
            _name_type(param.type, gettext.gettext)
            if "make_metavar" not in vars(param):
                param.make_metavar = _said_maker(param.make_metavar)  # type: ignore[method-assign,assignment]
        return params

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        rv = [said_metavar(self.options_metavar)] if self.options_metavar else []
        for param in self.get_params(ctx):
            rv.extend(param.get_usage_pieces(ctx))
        if isinstance(self, click.Group):
            rv.append(said_metavar(self.subcommand_metavar))
        return rv

    def get_short_help_str(self, limit: int = 45) -> str:
        if self.short_help:
            return said(inspect.cleandoc(self.short_help)).strip()
        if self.help:
            return _make_default_short_help(said(_help(self.help)), limit).strip()
        return ""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        text = said(_help(self.help))
        if text:
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(text)

    def format_arguments(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        args = [_spoken(p) for p in self.get_params(ctx) if isinstance(p, click.Argument)]
        if any(a.help is not None for a in args):
            with formatter.section(gettext.gettext("Positional arguments")):
                formatter.write_dl([a.get_help_record(ctx) for a in args])

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        opts = []
        for param in self.get_params(ctx):
            if isinstance(param, click.Argument):
                continue
            rv = _spoken(param).get_help_record(ctx)
            if rv is not None:
                opts.append(rv)
        if opts:
            with formatter.section(gettext.gettext("Options")):
                formatter.write_dl(opts)
        if isinstance(self, click.Group):
            self.format_commands(ctx, formatter)

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if self.epilog:
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(said(inspect.cleandoc(self.epilog)))


class Group(Command, click.Group):
    """A group of such commands: its subcommands and subgroups are :class:`Command`\\ s
    and :class:`Group`\\ s unless they name another class."""

    command_class = Command
    group_class = type


def help_texts(command: click.Command, ctx: click.Context | None = None) -> Iterator[tuple[str, str]]:
    """(command path, msgid) of every help text of ``command`` and of the commands under
    it: what :class:`Command` looks up when it shows its help."""
    ctx = ctx or click.Context(command, info_name=command.name)
    path = ctx.command_path
    texts = [_help(command.help), inspect.cleandoc(command.short_help or ""), inspect.cleandoc(command.epilog or "")]
    texts += [inspect.cleandoc(getattr(p, "help", None) or "") for p in command.params]
    for text in texts:
        for _literal, msgid in pieces(text):
            if msgid:
                yield path, msgid
    for sub, sub_ctx in _subcommands(command, ctx):
        yield from help_texts(sub, sub_ctx)


def _subcommands(command: click.Command, ctx: click.Context) -> Iterator[tuple[click.Command, click.Context]]:
    """A group's commands (loaded when the group loads them lazily), each with its context."""
    if isinstance(command, click.Group):
        load: Any = getattr(command, "load_all", None)
        if load is not None:
            load()
        for name in sorted(command.commands):
            sub = command.commands[name]
            yield sub, click.Context(sub, info_name=name, parent=ctx)


def _name_type(t: click.ParamType, say: Callable[[str], str]) -> None:
    """Name a parameter's type in ``say``'s language.  Click names a path type once, in the
    language bound when it was made (a command's module imported in a French run says
    FICHIER ever after), and the number types are process-wide values: named again at
    every use, so no run leaves its language to the next."""
    if isinstance(t, click.Path):
        t.name = say("file" if not t.dir_okay else "directory" if not t.file_okay else "path")
    elif isinstance(t, (click.types.IntParamType, click.types.FloatParamType)):
        # a number's name ("'zz' is not a valid integer")
        english = type(t).name
        said_ = say(f"w6.type.{english}")
        t.name = english if said_.startswith("w6.") else said_


def metavars(command: click.Command, ctx: click.Context | None = None) -> Iterator[tuple[str, str]]:
    """(command path, metavar) of every metavar ``command`` and the commands under it show,
    in the source's English (the coverage test checks each word has its key)."""
    ctx = ctx or click.Context(command, info_name=command.name)
    if command.options_metavar:
        yield ctx.command_path, command.options_metavar
    for p in click.Command.get_params(command, ctx):
        _name_type(p.type, str)  # the source's English, whatever language ran last
        if not (isinstance(p, click.Option) and p.is_flag):
            yield ctx.command_path, type(p).make_metavar(p, ctx)
    if isinstance(command, click.Group):
        yield ctx.command_path, command.subcommand_metavar
    for sub, sub_ctx in _subcommands(command, ctx):
        yield from metavars(sub, sub_ctx)
