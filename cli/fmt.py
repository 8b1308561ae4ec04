"""``trictrac fmt``: print records in the canonical ``.trn`` form (docs/notation.md).

Wiring only: ``notation.reader`` reads, ``notation.writer`` writes.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from trictrac.notation.reader import format_diagnostic, iter_records, source_lines
from trictrac.notation.record import Diagnostic
from trictrac.notation.writer import write_record


def _report(path: str, diags: list[Diagnostic]) -> None:
    lines = source_lines(path, (d.span.line for d in diags))
    for d in diags:
        click.echo(format_diagnostic(d, lines.get(d.span.line), path), err=True)


@click.command("fmt")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=str))
@click.option("--check", is_flag=True, help="Print nothing; exit 1 if a file is not in canonical form.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
def fmt(files: tuple[str, ...], check: bool, strict: bool) -> None:
    """Print each record FILE in canonical form (one spelling per keyword).

    \b
    Diagnostics go to stderr as file:line:col: severity: code: message.
    Exit codes: 0 ok; 1 (--check) a file is not canonical; 2 unreadable file or
    errors in the text (with --strict, warnings count as errors).

    \b
    Examples:
      trictrac fmt fixtures/records/douze_trous_sloppy.trn
      trictrac fmt --check fixtures/records/*.trn
    """
    errors = False
    not_canonical: list[str] = []
    for path in files:
        if not Path(path).is_file():
            click.echo(f"{path}: error: cannot read: no such file", err=True)
            errors = True
            continue
        diags: list[Diagnostic] = []
        same = True
        try:
            with open(path, "rb") as raw:
                first = True
                for pr in iter_records(path, strict=strict):
                    diags.extend(pr.diagnostics)
                    text = write_record(pr.record)
                    if not text:
                        continue
                    if not first:
                        text = "\n" + text
                    first = False
                    if check:
                        if same:
                            want = text.encode("utf-8")
                            same = raw.read(len(want)) == want
                    else:
                        sys.stdout.write(text)
                if check and same:
                    same = raw.read(1) == b""
        except OSError as e:
            click.echo(f"{path}: error: cannot read: {e.strerror or e}", err=True)
            errors = True
            continue
        if diags:
            _report(path, diags)
        if any(d.severity == "error" for d in diags):
            errors = True
        if check and not same:
            not_canonical.append(path)
            click.echo(f"{path}: not in canonical form (run: trictrac fmt {path})", err=True)
    if not check:
        sys.stdout.flush()
    if errors:
        sys.exit(2)
    if not_canonical:
        sys.exit(1)
