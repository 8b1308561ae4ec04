"""``trictrac stats``: how often each scoring event happens in a corpus of records
(wiring only; the work is :func:`trictrac.replay.verifier.stats.corpus_stats`)."""

from __future__ import annotations

from pathlib import Path

import click

from ..notation.reader import iter_records
from ..replay.rules.profiles import Profile
from ..replay.verifier.stats import CorpusStats, format_stats
from ..replay.verifier.verify import verify
from ..words import Words
from .common import (
    echo_json,
    json_option,
    lang_option,
    os_refusal,
    profile_option,
    read_input,
    summary_line,
    unreadable_input,
)
from .helptext import Command


@click.command("stats", cls=Command)
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True, path_type=Path))
@profile_option
@json_option
@lang_option
def stats(files: tuple[Path, ...], profile: Profile | None, as_json: bool, lang: Words) -> None:
    """Statistics of the games in FILE…: each scoring event's frequency, coups per
    relevé, relevés per game, sorties, bredouilles, grandes bredouilles, refaits.

    Every count is the verdict's: each game is replayed by the verifier, as
    `trictrac check` replays it, and counted from what the table did (leaves, stays,
    holes and double holes as marked) and what the rules gave each coup (events);
    the summary says how many games and coups had findings and how many écoles.
    With several files the last line sums them up as `check` does: files, games,
    coups, findings.

    \b
    Example:
      trictrac selfplay -n 1000 --seed 1 -o corpus.trn
      trictrac stats corpus.trn --json
    """
    acc = CorpusStats(profile)
    index = coups = findings = 0  # the summary line, counted as check counts
    for path in files:
        inp = read_input(str(path))  # '-', BOMs; junk is one line and exit 2
        try:
            with inp.stream() as fh:
                for i, parsed in enumerate(iter_records(fh, file=inp.name)):
                    report = verify(
                        parsed.record,
                        profile,
                        file=inp.name,
                        game=i,
                        diagnostics=parsed.diagnostics,
                        recover=True,
                        trace=True,
                    )
                    coups += report.coups_verified
                    findings += report.finding_count + sum(1 for d in report.diagnostics if d.severity == "error")
                    if any(d.severity == "error" for d in parsed.diagnostics):
                        acc.skipped.append({"game": index, "reason": f"{path}: unreadable record"})  # nothing to judge
                    else:
                        acc.add(parsed.record, index, report=report)
                    index += 1
        except OSError as e:
            raise os_refusal(e) if e.filename else unreadable_input(path, e) from None
    data = acc.as_dict()
    data["files"] = len(files)
    if as_json:
        echo_json(data)
        return
    click.echo(format_stats(data, lang))
    if len(files) > 1:  # as check: every game read, the coups verified, findings and reading errors
        click.echo(summary_line(len(files), index, coups, findings, lang=lang))
