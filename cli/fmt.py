"""``trictrac fmt``: print records in the canonical ``.trn`` form (docs/notation.md).

Wiring only: ``notation.reader`` reads, ``notation.writer`` writes, every FILE comes
through the one input reader (``notation.textio.open_input``) and ``--write`` replaces
a file whole or not at all (``notation.textio.atomic_write_text``).
"""

from __future__ import annotations

import hashlib
import sys
from typing import Any

import click

from ..notation.identity import add_game_id
from ..notation.reader import format_diagnostic, iter_records, source_lines
from ..notation.record import Coup, Diagnostic
from ..notation.textio import (
    Input,
    InputError,
    OSReason,
    OutputError,
    atomic_write_text,
    open_file,
    open_input,
    terminal_safe,
)
from ..notation.writer import write_record
from ..words import Words
from .common import lang_option, summary_line
from .helptext import Command


def _report(inp: Input, diags: list[Diagnostic], lang: Words) -> None:
    lines = source_lines(inp.path, (d.span.line for d in diags)) if inp.path else {}
    for d in diags:
        said = format_diagnostic(d, lines.get(d.span.line), inp.name)
        if lang.lang != "en":  # the severity and the fault in the language, the source line as it is
            head = f"{inp.name}:{d.span.line}:{d.span.col}: {lang(f'sev.{d.severity}')}: {d.code}: {d.say(lang.lang)}"
            said = head + said[len(d.render(inp.name)) :]
        click.echo(terminal_safe(said), err=True)


def _refused(lang: Words, name: str, why: str) -> None:
    """``FILE: error: reason`` on stderr, in the language."""
    click.echo(terminal_safe(lang("cli.fmt.refused", name=name, why=why)), err=True)


class _Digested:
    """A byte stream that hashes what is read from it: standard input is read once, as
    it comes, and ``--check`` compares its digest, not a copy kept in memory."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        self.sha = hashlib.sha256()

    def read(self, n: int = -1) -> bytes:
        data: bytes = self.raw.read(n)
        self.sha.update(data)
        return data


def _canonical(inp: Input, strict: bool, add_id: bool = False) -> tuple[str, list[Diagnostic], int, int]:
    """The canonical text of every game of ``inp`` (with ``add_id``, each given the
    ``GameId`` tag it lacks), its diagnostics, games and coups."""
    texts: list[str] = []
    diags: list[Diagnostic] = []
    games = coups = 0
    with inp.stream() as raw:
        fh = _Digested(raw)
        for pr in iter_records(fh, file=inp.name, strict=strict):  # type: ignore[arg-type]
            diags.extend(pr.diagnostics)
            if add_id:
                add_game_id(pr.record.headers)
            text = write_record(pr.record)
            if text:
                texts.append(text)
                games += 1
                coups += sum(1 for e in pr.record.elements if type(e) is Coup)
    _DIGESTS[id(inp)] = fh.sha.digest()
    return "\n".join(texts), diags, games, coups


_DIGESTS: dict[int, bytes] = {}  # the digest of each input as read (standard input is read once)


def _same(inp: Input, text: str) -> bool:
    want = text.encode("utf-8")
    if inp.path is None:  # standard input as read, or a UTF-16 file (never canonical)
        return inp.name == "<stdin>" and _DIGESTS.get(id(inp)) == hashlib.sha256(want).digest()
    with open_file(inp.path) as fh:
        return fh.read(len(want) + 1) == want


@click.command("fmt", cls=Command)
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True, path_type=str))
@click.option("--check", is_flag=True, help="Print nothing; exit 1 if a file is not in canonical form.")
@click.option(
    "--write",
    "-w",
    "write",
    is_flag=True,
    help="Rewrite each FILE in place in canonical form (whole or not at all; never a file with errors).",
)
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option(
    "--add-id",
    is_flag=True,
    help="Give each game that lacks one a GameId tag (from its Event, Date, Round and players), "
    "so that a later correction of those tags still replaces it in the club database.",
)
@lang_option
def fmt(files: tuple[str, ...], check: bool, write: bool, strict: bool, add_id: bool, lang: Words) -> None:
    """Print each record FILE in canonical form (one spelling per keyword).
    FILE '-' reads standard input.

    \b
    Diagnostics go to stderr as file:line:col: severity: code: message; with several
    files a last line of totals goes to stderr too.
    --add-id adds the GameId tag a game lacks (none when its tags cannot tell it
    apart: no players, or neither Date nor Round); with --check, a game without
    its GameId makes the file not canonical.  Off by default: canonical form
    never changes what a record says.
    Exit codes: 0 ok; 1 (--check) a file is not canonical; 2 a FILE could not be read
    (missing, a directory, empty, binary) or has errors in its text (with --strict,
    warnings count as errors): such a file is never written.

    \b
    Examples:
      trictrac fmt fixtures/records/douze_trous_sloppy.trn
      trictrac fmt --check fixtures/records/*.trn
      trictrac fmt --write club/*.trn
      trictrac fmt --write --add-id soiree-2024-03-15.trn
    """
    if check and write:
        raise click.UsageError(lang("cli.fmt.check_and_write"))
    errors = unreadable = 0
    not_canonical: list[str] = []
    games = coups = findings = 0
    first = True
    for name in files:
        if write and name == "-":
            _refused(lang, "-", lang("cli.fmt.stdin_no_write"))
            errors += 1
            continue
        try:
            inp = open_input(name)
            text, diags, g, c = _canonical(inp, strict, add_id)
        except InputError as e:
            _refused(lang, e.name or name, e.why(lang.lang))
            unreadable += 1
            continue
        except OSError as e:
            why = OSReason.of(e).say(lang)
            _refused(lang, name, lang("dbcli.input.cannot-read", reason=why))
            unreadable += 1
            continue
        games, coups = games + g, coups + c
        if diags:
            _report(inp, diags, lang)
        bad = [d for d in diags if d.severity == "error"]
        findings += len(bad)
        if bad:
            errors += 1
            continue
        if check or write:
            if not _same(inp, text):
                if write:
                    try:
                        atomic_write_text(name, text)
                    except OSError as e:  # an OutputError names the file written (a link's target)
                        out = e if isinstance(e, OutputError) else OutputError.cannot_write(name, e)
                        _refused(lang, out.output, out.why(lang.lang))
                        errors += 1
                        continue
                    click.echo(terminal_safe(lang("cli.fmt.rewritten", name=name)), err=True)
                else:
                    not_canonical.append(name)
                    click.echo(terminal_safe(lang("cli.fmt.not_canonical", name=name)), err=True)
            continue
        if text:
            if sys.stdout.isatty():  # a record's control characters never reach a terminal raw
                text = terminal_safe(text)
            sys.stdout.write(text if first else "\n" + text)
            first = False
    if not (check or write):
        sys.stdout.flush()
    if len(files) > 1:
        click.echo(summary_line(len(files), games, coups, findings, unreadable=unreadable, lang=lang), err=True)
    if errors or unreadable:
        sys.exit(2)
    if not_canonical:
        sys.exit(1)
