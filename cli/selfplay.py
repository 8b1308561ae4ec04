"""``trictrac selfplay``: whole parties between two bots, written as records
(wiring only; the work is :func:`trictrac.replay.generate.selfplay.selfplay` and
:func:`trictrac.replay.generate.inject.inject`)."""

from __future__ import annotations

import json
import random
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import TextIO

import click

from ..notation.textio import atomic_write_text, atomic_writer
from ..notation.writer import write_record
from ..replay.generate.inject import INJECT_KINDS, InjectError, inject
from ..replay.generate.selfplay import MULTI
from ..replay.generate.selfplay import selfplay as generate
from ..replay.rules.profiles import DEFAULT_PROFILE, Profile
from .common import BadInput, cannot_write, command_words, os_refusal, profile_option, progress
from .helptext import Command


@click.command("selfplay", cls=Command)
@click.option("-n", "n", type=click.IntRange(0, None), default=10, show_default=True, help="Number of parties.")
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same file.")
@click.option(
    "--kind",
    type=click.Choice(["douze-trous", "a-ecrire", "a-tourner", "chouette", "a-quatre"]),
    default="douze-trous",
    show_default=True,
    help="Partie en douze trous, à écrire, or à tourner / à la chouette / à quatre.",
)
@click.option(
    "--marques",
    type=click.IntRange(1, 64),
    default=None,
    help="Marqués of a partie à écrire (default 4; à tourner 9, chouette 6, à quatre 8).",
)
@click.option("--compact", is_flag=True, help="Rolls and moves only (no marks).")
@click.option(
    "--inject",
    "inject_k",
    type=click.IntRange(0, None),
    default=0,
    show_default=True,
    help="Put K table mistakes in each game; their truth goes to a JSON sidecar.",
)
@click.option(
    "--kinds",
    default=None,
    help=f"Comma-separated kinds of mistake for --inject (default all): {', '.join(INJECT_KINDS)}.",
)
@click.option(
    "--truth",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where to write the injected mistakes (default: OUTPUT.injected.json).",
)
@click.option(
    "--bot",
    type=click.Choice(["heuristic", "random", "analyse"]),
    default="heuristic",
    show_default=True,
    help="The bot that plays (both seats; see --against): heuristic (replay/generate/selfplay.py), random, "
    "or analyse (the evaluator, docs/analysis.md).",
)
@click.option(
    "--against",
    type=click.Choice(["heuristic", "random", "analyse"]),
    default=None,
    help="The bot in seat B (default: the same as --bot).",
)
@click.option(
    "--players",
    "players_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="A file of player names, one a line: each partie draws its players from it (seeded).",
)
@click.option(
    "--seasons",
    type=click.IntRange(1, 100),
    default=None,
    help="Date each partie on a day drawn from this many seasons (calendar years from --first-season).",
)
@click.option(
    "--first-season",
    type=click.IntRange(1, 9999),
    default=2024,
    show_default=True,
    help="The year of the first season of --seasons.",
)
@click.option(
    "--inject-every",
    type=click.IntRange(1, None),
    default=1,
    show_default=True,
    help="With --inject: put the mistakes in one partie out of N only.",
)
@click.option(
    "--first",
    type=click.IntRange(0, None),
    default=0,
    show_default=True,
    help="The index of the first partie: parts made with --first 0, N, 2N… and joined are the file "
    "made at once (each partie, its players, date and mistakes drawn from the seed and its index).",
)
@profile_option
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Output .trn file (default: standard output).",
)
def selfplay(
    n: int,
    seed: int,
    kind: str,
    marques: int | None,
    compact: bool,
    inject_k: int,
    kinds: str | None,
    truth: Path | None,
    bot: str,
    against: str | None,
    players_file: Path | None,
    seasons: int | None,
    first_season: int,
    inject_every: int,
    first: int,
    profile: Profile | None,
    output: Path | None,
) -> None:
    """Play N parties between two bots and write their records, every mark included.

    The bots play legally and sensibly and decide s'en aller / rester by a stated
    heuristic (see replay/generate/selfplay.py).  With --inject K each game gets K realistic
    table mistakes (kinds = the verifier's finding kinds) and the truth is written as
    JSON next to the output, to compare with `trictrac check --json`.

    With --players FILE each partie's seats are players drawn from the file, and with
    --seasons N each partie gets a date drawn from N seasons and the event
    "Championnat YEAR": a club's or a federation's archive (docs/database.md).  The
    same seed gives the same file.

    \b
    Example:
      trictrac selfplay -n 100 --seed 1 -o games.trn
      trictrac selfplay -n 20 --kind a-ecrire --inject 3 -o mistakes.trn
      trictrac selfplay -n 10000 --players names.txt --seasons 3 --inject 1 --inject-every 5 -o fed.trn
    """
    prof = profile or DEFAULT_PROFILE
    if marques is not None and kind in MULTI and marques % (3 if kind == "a-tourner" else 2):
        raise BadInput(command_words()("cli.selfplay.marques", kind=kind, by=3 if kind == "a-tourner" else 2))
    bots = None
    if bot != "heuristic" or against not in (None, "heuristic"):  # issue 29
        if kind in MULTI:
            raise BadInput(command_words()("cli.selfplay.bots_of_two", kind=kind))
        from ..analysis.player import make_bot

        bots = {"A": make_bot(bot), "B": make_bot(against or bot)}
    kind_list = None
    if kinds:
        kind_list = [k.strip() for k in kinds.split(",") if k.strip()]
        bad = [k for k in kind_list if k not in INJECT_KINDS]
        if bad:
            raise BadInput(
                command_words()("cli.selfplay.unknown_kind", kind=repr(bad[0]), known=", ".join(INJECT_KINDS))
            )
    if inject_k and output is None and truth is None:
        raise BadInput(command_words()("cli.selfplay.inject_needs_output"))
    names = _read_players(players_file) if players_file else None
    truth_rows: list[dict[str, object]] = []
    out: TextIO
    stack = ExitStack()  # -o is replaced whole when every game is written, else left as it was
    try:
        out = stack.enter_context(atomic_writer(output)) if output else sys.stdout
    except OSError as e:
        raise cannot_write(e, output) from None
    with stack:
        bar = stack.enter_context(progress(n if output else 0, "selfplay"))  # on a terminal only
        rng = random.Random(f"inject:{seed}")
        per_partie = bool(first) or names is not None or seasons is not None
        games = generate(n, seed, kind, compact, prof, marques=marques, bots=bots, start=first)
        for i, rec in enumerate(games, start=first):
            # players and dates: a generator of their own for each partie, the games unchanged
            _club_headers(rec.headers, random.Random(f"club:{seed}:{i}"), names, seasons, first_season)
            if inject_k and per_partie:
                rng = random.Random(f"inject:{seed}:{i}")  # a club's archive: each partie its own mistakes
            if inject_k and i % inject_every == 0:
                try:
                    rec, done = inject(rec, inject_k, rng, kind_list, prof)
                except InjectError as e:
                    raise BadInput(e.say(command_words())) from None
                truth_rows.append({"game": i, "injected": [d.as_dict() for d in done]})
            if i > first:
                out.write("\n")
            out.write(write_record(rec))
            bar.update(1)
    if inject_k:
        path = truth or Path(str(output) + ".injected.json")
        try:
            atomic_write_text(path, json.dumps(truth_rows, ensure_ascii=False, indent=1) + "\n")
        except OSError as e:
            raise cannot_write(e, path) from None
        if output:
            W = command_words()
            click.echo(W("w6.selfplay.wrote", games=W.n("cli.games", n), output=output, path=path), err=True)


def _read_players(path: Path) -> list[str]:
    """The names of a --players file: one a line, blank lines and ``#`` lines skipped."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise os_refusal(e) from None
    except UnicodeDecodeError as e:
        W = command_words()
        why = W("dbcli.input.bad-encoding", label="UTF-8", byte=e.start)
        raise BadInput(W("dbcli.input.said", name=path, why=why)) from None
    names = list(
        dict.fromkeys(ln.strip() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#"))
    )
    if len(names) < 4:
        raise BadInput(command_words().n("cli.selfplay.few_players", len(names), path=path))
    return names


def _club_headers(
    headers: dict[str, str], rng: random.Random, names: list[str] | None, seasons: int | None, first: int
) -> None:
    """Seat players drawn from ``names`` and a date drawn from ``seasons`` years (in place)."""
    if names is not None:
        seats = [s for s in "ABCD" if s in headers]
        for seat, name in zip(seats, rng.sample(names, len(seats))):
            headers[seat] = name
    if seasons is not None:
        year = first + rng.randrange(seasons)
        headers["Event"] = f"Championnat {year}"
        headers["Date"] = f"{year}.{rng.randint(1, 12):02d}.{rng.randint(1, 28):02d}"
