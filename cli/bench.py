"""``trictrac bench``: every speed figure of issue 17 in one run (wiring only; the
work is :mod:`trictrac.bench`, which documents the JSON shape)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..bench import STEPS, Options, format_text, run_bench
from ..notation.textio import atomic_write_text
from .common import BadInput, cannot_write, command_words
from .helptext import Command


def _steps(value: str | None) -> tuple[str, ...]:
    if not value:
        return STEPS
    names = tuple(s.strip() for s in value.split(",") if s.strip())
    unknown = [s for s in names if s not in STEPS]
    if unknown or not names:
        step = repr(unknown[0] if unknown else value)
        raise BadInput(command_words()("cli.bench.unknown_step", step=step, steps=", ".join(STEPS)))
    return names


def _sizes(value: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(x) for x in value.split(","))
    except ValueError:
        raise BadInput(command_words()("cli.bench.sizes", value=repr(value))) from None
    if not sizes or min(sizes) < 1:
        raise BadInput(command_words()("cli.bench.size_at_least_1"))
    return sizes


@click.command("bench", cls=Command)
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "-n",
    "--parties",
    type=click.IntRange(1, None),
    default=300,
    show_default=True,
    help="Self-played parties to generate when no FILE is given.",
)
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the generated parties and PGN.")
@click.option(
    "--only", "only", default=None, metavar="STEP,...", help=f"Run only these steps (default all): {', '.join(STEPS)}."
)
@click.option(
    "--memory-sizes",
    default="100,400",
    show_default=True,
    metavar="N,N,...",
    help="Archive sizes (parties) for check's peak memory; issue 17's table uses 500,4000.",
)
@click.option(
    "--import-sample",
    type=click.IntRange(1, None),
    default=100,
    show_default=True,
    help="Parties imported into a scratch club database.",
)
@click.option(
    "--publish-sample",
    type=click.IntRange(1, None),
    default=200,
    show_default=True,
    help="Parties published as a site (generated en douze trous unless FILE is given).",
)
@click.option(
    "--positions",
    type=click.IntRange(1, None),
    default=500,
    show_default=True,
    help="Positions of the engine and moves steps.",
)
@click.option(
    "--judge-coups",
    type=click.IntRange(1, None),
    default=5000,
    show_default=True,
    help="Coups of the judge step (written play judged directly vs enumeration).",
)
@click.option(
    "--parse-games",
    type=click.IntRange(1, None),
    default=2000,
    show_default=True,
    help="Games of the synthetic archive of the parse step.",
)
@click.option(
    "--typo-games",
    type=click.IntRange(1, None),
    default=1000,
    show_default=True,
    help="Generated games of the typo step, one typo each (issue 14 §2: targets 95 % and 80 %).",
)
@click.option("--json", "json_out", is_flag=True, help="Print the result as JSON (shape: trictrac.bench).")
@click.option(
    "--json-file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write the JSON result to this file.",
)
def bench(
    file: Path | None,
    parties: int,
    seed: int,
    only: str | None,
    memory_sizes: str,
    import_sample: int,
    publish_sample: int,
    positions: int,
    judge_coups: int,
    parse_games: int,
    typo_games: int,
    json_out: bool,
    json_file: Path | None,
) -> None:
    """Measure every figure of issue 17 in one run: check coups/s on one core (whole
    process) against python-chess replaying as many plies (when installed: pip install
    -e '.[bench]'), check -j 2, check's peak memory as the archive grows, db import
    and publish rates, analyse of one position, the written play judged directly.

    \b
    Example:
      trictrac bench                                   # 300 parties, all steps
      trictrac bench --only check,chess -n 300 --json
      trictrac bench archive.trn --memory-sizes 500,4000 --json-file bench.json
    Exit codes: 0 measured, 2 bad options or unreadable FILE.
    """
    if file is not None and not file.is_file():
        raise BadInput(command_words()("dbcli.input.said", name=file, why=command_words()("dbcli.input.missing")))
    opt = Options(
        file=str(file) if file is not None else None,
        parties=parties,
        seed=seed,
        only=_steps(only),
        memory_sizes=_sizes(memory_sizes),
        import_sample=import_sample,
        publish_sample=publish_sample,
        positions=positions,
        judge_coups=judge_coups,
        parse_games=parse_games,
        typo_games=typo_games,
    )
    try:
        result = run_bench(opt)
    except ValueError as e:
        raise BadInput(str(e)) from None
    text = json.dumps(result, indent=1)
    if json_file is not None:
        try:
            atomic_write_text(json_file, text + "\n")
        except OSError as e:
            raise cannot_write(e, json_file) from None
    click.echo(text if json_out else format_text(result))
