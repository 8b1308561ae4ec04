"""``trictrac check``, ``trictrac annotate``, ``trictrac replay``: the verifier's doors.

Wiring only: each command calls :mod:`trictrac.replay.verifier.verify` and prints what it
returns (STYLE.md §5).  Exit codes: 0 clean, 1 findings, 2 unreadable input.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import click

from ..notation.textio import Input, InputError, atomic_write_text, open_input, terminal_safe
from ..replay.rules.profiles import Profile
from ..replay.verifier.verify import GameReport, verify, verify_file
from ..words import Words
from .common import (
    BadInput,
    batch_collector,
    cannot_write,
    command_words,
    echo_json,
    jobs_option,
    json_option,
    lang_option,
    os_refusal,
    profile_option,
    read_input,
    said_diagnostic,
    summary_line,
    unreadable_input,
    use_colour,
)
from .helptext import Command

__all__ = ["check", "annotate", "replay"]


def _paint(text: str, fg: str, colour: bool) -> str:
    """Colour only on a terminal (never in pipes, files or tests)."""
    return click.style(text, fg=fg) if colour else text


def _reports(
    inp: Input, profile: Profile | None, jobs: int, trace: bool = False, recover: bool = False
) -> list[GameReport]:
    """Every game of ``inp`` verified; :class:`BadInput` when it holds no record."""
    return list(_streamed(inp, profile, jobs, trace, recover))


def _verified(inp: Input, profile: Profile | None, jobs: int, trace: bool, recover: bool) -> Iterator[GameReport]:
    if inp.path is not None:
        yield from verify_file(inp.path, profile, jobs=jobs, trace=trace, recover=recover)
        return
    from ..notation.reader import iter_records

    with inp.stream() as fh:
        for i, pr in enumerate(iter_records(fh, file=inp.name)):
            yield verify(
                pr.record, profile, file=inp.name, game=i, trace=trace, diagnostics=pr.diagnostics, recover=recover
            )


def _streamed(
    inp: Input, profile: Profile | None, jobs: int, trace: bool = False, recover: bool = False
) -> Iterator[GameReport]:
    """The reports of ``inp`` one by one as they are verified (flat memory, issue 17).
    Reports of no record (no header, no coup) are held back until a record shows up, so
    that a file without any is bad input (:class:`BadInput`) with nothing printed."""
    path = inp.name
    held: list[GameReport] = []
    seen = False
    try:
        for rep in _verified(inp, profile, jobs, trace, recover):
            if seen:
                yield rep
                continue
            held.append(rep)
            if rep.headers or rep.coups_verified:
                seen = True
                yield from held
                held.clear()
    except OSError as e:
        raise os_refusal(e) if e.filename else unreadable_input(path, e) from None
    if not seen:
        raise BadInput(command_words()("cli.no_record", path=path))


@click.command("check", cls=Command)
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@profile_option
@json_option
@jobs_option
@click.option(
    "--strict",
    is_flag=True,
    help="Stop a game at the first mistake of the record itself (a move it cannot make, a coup "
    "for the wrong side) instead of proposing the nearest legal play and going on.",
)
@click.option(
    "--analyse",
    "analyse_play",
    is_flag=True,
    help="Also analyse the plays: each coup's loss against the best choice, its class and each "
    'player\'s summary (docs/analysis.md; JSON: an "analysis" key per game).',
)
@lang_option
@batch_collector()
def check(
    files: tuple[str, ...],
    profile: Profile | None,
    as_json: bool,
    jobs: int,
    strict: bool,
    analyse_play: bool,
    lang: Words,
) -> None:
    """Verify recorded games against the rules: one line per finding, a summary per game
    (and a last line of totals when several files are given).  FILE '-' reads standard
    input; a missing or unreadable FILE is reported and the others are still checked.

    A mistake of the record itself (a typo: a move the throw cannot make, from an empty
    point, a coup written for the wrong side) is one finding with a "did you mean"
    proposal, and the game is verified on from it; --strict stops there instead.

    \b
    Example:
        trictrac check fixtures/findings/e40-ecole-par-trop.trn
        trictrac check archive.trn --jobs 4 --json
        cat game.trn | trictrac check -
    Exit codes: 0 clean, 1 findings, 2 a FILE could not be read (bad input).
    """
    dirty = False
    bad = 0
    items = 0  # --json: the array is written item by item, nothing kept (flat memory)
    colour = use_colour()
    games = coups = findings = 0
    out = _Batch()
    for name in files:
        try:
            inp = open_input(name)
            path = terminal_safe(inp.name)
            plays = _play_analysis(inp, profile) if analyse_play else None  # issue 29
            for rep in _streamed(inp, profile, jobs, recover=not strict):
                played = next(plays, None) if plays is not None else None
                errors = [d for d in rep.diagnostics if d.severity == "error"]
                games += 1
                coups += rep.coups_verified
                findings += rep.finding_count + len(errors)
                if rep.findings or errors:
                    dirty = True
                if as_json:
                    text = json.dumps(rep.as_dict(lang=lang) | _analysis_key(played), ensure_ascii=False, indent=2)
                    out.add(("[\n" if not items else ",\n") + "  " + text.replace("\n", "\n  "))
                    items += 1
                    continue
                out.add(_report_text(rep, path, colour, lang) + "\n")
                if played is not None:
                    out.add(terminal_safe(_analysis_text(played, path, lang)) + "\n")
        except (InputError, BadInput) as e:
            out.flush()  # the games read so far before the error, as they came
            said = e.format_message() if isinstance(e, BadInput) else e.say(lang.lang)
            click.echo(lang("dbcli.input.error", message=terminal_safe(said)), err=True)
            bad += 1
        finally:
            out.flush()
    if as_json:
        click.echo("\n]" if items else "[]")  # as echo_json(list) writes it
    elif len(files) > 1:
        click.echo(summary_line(len(files), games, coups, findings, unreadable=bad, lang=lang))
    raise SystemExit(2 if bad else 1 if dirty else 0)


def _play_analysis(inp: Input, profile: Profile | None) -> Iterator[dict[str, Any]]:
    """The play analysis of each game of ``inp`` in turn (``analysis.review``)."""
    from ..analysis.review import analyse_record
    from ..notation.reader import iter_records

    with inp.stream() as fh:
        for i, pr in enumerate(iter_records(fh, file=inp.name)):
            res = analyse_record(pr.record, profile=profile)
            res["game"] = i
            yield res


def _analysis_key(played: dict[str, Any] | None) -> dict[str, Any]:
    return {} if played is None else {"analysis": played}


def _analysis_text(played: dict[str, Any], path: str, lang: Words) -> str:
    from ..analysis.review import render_review

    return render_review(played, name=lang("an.game_name", file=path, n=played["game"] + 1), lang=lang)


class _Batch:
    """The games' report text, written a chunk at a time (``CHUNK`` characters), not a
    ``click.echo`` per game: each looks the stream up, tests it for colours and flushes
    it (a file of one-coup games, issue 27).  Flushed before an error is said and at
    each file's end, so the output and its order are the same."""

    CHUNK = 1 << 16

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0

    def add(self, text: str) -> None:
        self.parts.append(text)
        self.size += len(text)
        if self.size >= self.CHUNK:
            self.flush()

    def flush(self) -> None:
        if self.parts:
            click.echo("".join(self.parts), nl=False)
            self.parts.clear()
            self.size = 0


def _report_text(rep: GameReport, path: str, colour: bool, lang: Words) -> str:
    """The game's lines as one text (one write per game, not per finding: a
    finding-dense game has thousands)."""
    lines = [
        _paint(terminal_safe(said_diagnostic(d, path, lang)), "red" if d.severity == "error" else "yellow", colour)
        for d in rep.diagnostics
    ]
    lines += [_paint(terminal_safe(f.render(path, lang)), "red", colour) for f in rep.findings]
    lines += [_paint(f"{path}: {line}", "red", colour) for line in rep.more_lines(lang)]
    lines.append(_paint(terminal_safe(f"{path}: {rep.summary(lang)}"), "yellow" if rep.findings else "green", colour))
    lines += [terminal_safe(lang("rep.note", file=path, note=note.say(lang))) for note in rep.notes]
    return "\n".join(lines)


@click.command("annotate", cls=Command)
@click.argument("file", type=click.Path(allow_dash=True))
@click.option(
    "-o",
    "--output",
    "output",
    required=True,
    type=click.Path(dir_okay=False),
    help="Where to write the annotated record ('-' = standard output).",
)
@click.option("--explain", is_flag=True, help="Also write each coup's entitled marks.")
@click.option(
    "--analyse",
    "analyse_play",
    is_flag=True,
    help="Also write the play analysis: the classes as glyphs (?! ? ??) and the best choice as a comment.",
)
@lang_option
@profile_option
def annotate(file: str, output: str, explain: bool, lang: Words, analyse_play: bool, profile: Profile | None) -> None:
    """Write FILE in canonical notation with every finding as a comment and a glyph.
    FILE '-' reads standard input.  The output file is written whole or not at all.

    \b
    Example:
        trictrac annotate game.trn -o game.annotated.trn --explain
        trictrac annotate game.trn -o game.fr.trn --lang fr
    Exit codes: 0 written (whatever the games' findings), 2 FILE could not be read or
    the output could not be written (nothing is written).
    """
    from ..notation.reader import iter_records
    from ..notation.writer import write_record
    from ..publish.annotate import annotate_record

    inp = read_input(file)
    texts: list[str] = []
    with inp.stream() as fh:
        for i, pr in enumerate(iter_records(fh, file=inp.name)):
            # as `check` verifies (recover): a mistake of the record is said as one (issue 25 §2)
            rep = verify(
                pr.record, profile, file=inp.name, game=i, trace=explain, diagnostics=pr.diagnostics, recover=True
            )
            annotated = annotate_record(pr.record, rep, explain=explain, lang=lang)
            if analyse_play:  # issue 29
                from ..analysis.review import analyse_record, annotate_review

                annotated = annotate_review(annotated, analyse_record(pr.record, profile=profile), lang.lang)
            texts.append(write_record(annotated))
    if not texts:
        raise BadInput(lang("cli.no_game", file=file))
    text = "\n".join(texts)
    if output == "-":
        click.echo(text, nl=False)
    else:
        try:
            atomic_write_text(output, text)
        except OSError as e:
            raise cannot_write(e, output) from None


@click.command("replay", cls=Command)
@click.argument("file", type=click.Path(allow_dash=True))
@profile_option
@json_option
@lang_option
def replay(file: str, profile: Profile | None, as_json: bool, lang: Words) -> None:
    """The position, the score and the scoring events after every coup of FILE
    ('-' reads standard input).

    \b
    Example:
        trictrac replay game.trn --json
    Exit codes: 0 replayed, 2 FILE could not be read.
    """
    from ..notation.position import write_position

    out = []
    for rep in _reports(read_input(file), profile, 1, trace=True, recover=True):
        coups = []
        for t in rep.trace:
            d = t.as_dict()
            d["position"] = write_position(t.position_after.to_spec(t.score_standing))
            coups.append(d)
        g = rep.as_dict(lang=lang)
        g["coups"] = coups
        out.append(g)
    if as_json:
        echo_json(out)
        return
    for g in out:
        click.echo(terminal_safe(lang("dbcli.replay_game", n=g["game"] + 1, profile=g["profile"])))
        for c in g["coups"]:
            ev = ", ".join(f"{e['kind']} {e['points']}" for e in c["events"]) or "-"
            holes = "".join("; " + lang("dbcli.replay_hole", side=h["side"], hole=h["hole"]) for h in c["holes"])
            mid = c["score_after_gains"]
            between = (
                ""
                if mid is None or mid == c["score"]
                else " | " + lang("dbcli.replay_after_gains", side=c["side"], score=_score_text(mid))
            )
            click.echo(
                terminal_safe(
                    f"  {c['releve']}.{c['coup']} {c['side']} {c['roll'][0]}-{c['roll'][1]} {c['play']}: "
                    f"{ev}{holes}{between} | {c['position']}"
                )
            )


def _score_text(score: dict[str, dict[str, Any]]) -> str:
    """``A 1t 2p, B 0t 4pb``: holes, points, b = bredouille."""
    return ", ".join(f"{x} {s['holes']}t {s['points']}p{'b' if s['bredouille'] else ''}" for x, s in score.items())
