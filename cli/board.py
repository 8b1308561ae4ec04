"""``trictrac board``: draw a position (one-line notation) as an SVG diagram."""

from __future__ import annotations

import click

from ..notation.position import parse_position
from ..notation.textio import atomic_write_text, terminal_safe
from ..publish.board import board_svg, svg_text
from .common import BadInput, cannot_write, command_words
from .helptext import Command


@click.command("board", cls=Command)
@click.argument("position")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True, allow_dash=True),
    default="-",
    show_default=True,
    help="SVG file to write ('-' = standard output).",
)
@click.option("--size", type=click.IntRange(100, 4000), default=600, show_default=True, help="Width in pixels.")
@click.option(
    "--orientation", type=click.Choice(["A", "B"]), default="A", show_default=True, help="The side drawn at the bottom."
)
@click.option("--no-labels", "labels", flag_value=False, default=True, help="No point numbers or side letters.")
def board(position: str, output: str, size: int, orientation: str, labels: bool) -> None:
    """Draw POSITION (one-line position notation) as an SVG tablier, with the score
    on the bandes (jetons, fichets, pavillon).

    \b
    Examples:
      trictrac board "A{1:15} B{1:15}" -o start.svg
      trictrac board "A{1:13,12:2} B{1:15} turn=B coups=1/1 points=4b/0 holes=2p/0" -o x.svg

    A bad position prints the column of the fault and exits with code 2.
    """
    spec, diags = parse_position(position)
    errors = [d for d in diags if d.severity == "error"]
    if spec is None or errors:
        d = errors[0] if errors else None
        W = command_words()
        if d is None:
            raise BadInput(W("cli.board.unreadable"))
        caret = " " * (d.span.col - 1) + "^" * max(1, d.span.end_col - d.span.col)
        said = W("cli.board.fault", col=d.span.col, code=d.code, message=d.say(W.lang))
        raise BadInput(terminal_safe(f"{said}\n  {position}\n  {caret}"))
    text = svg_text(board_svg(spec, size=size, orientation=orientation, labels=labels))
    if output == "-":
        click.echo(text, nl=False)
        return
    try:
        atomic_write_text(output, text)
    except OSError as e:
        raise cannot_write(e, output) from None
    click.echo(command_words()("w6.board.wrote", path=output), err=True)
