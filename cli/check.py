"""``trictrac check``, ``trictrac annotate``, ``trictrac replay``: the verifier's doors.

Wiring only: each command calls :mod:`trictrac.replay.verify` and prints what it
returns (STYLE.md §5).  Exit codes: 0 clean, 1 findings, 2 unreadable input.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any

import click

from trictrac.cli.common import BadInput, echo_json, jobs_option, json_option, profile_option, use_colour


def _paint(text: str, fg: str, colour: bool) -> str:
    """Colour only on a terminal (never in pipes, files or tests)."""
    return click.style(text, fg=fg) if colour else text
from trictrac.notation.record import Comment, Coup, Glyph, Record
from trictrac.replay.profiles import Profile
from trictrac.replay.verify import GameReport, verify, verify_file

__all__ = ["check", "annotate", "replay"]


def _readable(path: str) -> None:
    if not os.path.isfile(path):
        raise BadInput(f"{path}: no such file")
    try:
        with open(path, "rb") as fh:
            fh.read(1)
    except OSError as e:
        raise BadInput(f"{path}: {e.strerror or e}") from None


def _reports(path: str, profile: Profile | None, jobs: int, trace: bool = False,
             recover: bool = False) -> list[GameReport]:
    _readable(path)
    try:
        reports = list(verify_file(path, profile, jobs=jobs, trace=trace, recover=recover))
    except OSError as e:
        raise BadInput(f"{path}: {e.strerror or e}") from None
    if not reports or all(not r.headers and not r.coups_verified for r in reports):
        raise BadInput(f"{path}: no trictrac record found (a record starts with [Tag \"value\"] lines)")
    return reports


@click.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@profile_option
@json_option
@jobs_option
@click.option("--strict", is_flag=True,
              help="Stop a game at the first mistake of the record itself (a move it cannot make, a coup "
                   "for the wrong side) instead of proposing the nearest legal play and going on.")
def check(files: tuple[str, ...], profile: Profile | None, as_json: bool, jobs: int, strict: bool) -> None:
    """Verify recorded games against the rules: one line per finding, a summary per game.

    A mistake of the record itself (a typo: a move the throw cannot make, from an empty
    point, a coup written for the wrong side) is one finding with a "did you mean"
    proposal, and the game is verified on from it; --strict stops there instead.

    \b
    Example:
        trictrac check fixtures/findings/e40-ecole-par-trop.trn
        trictrac check archive.trn --jobs 4 --json
    Exit codes: 0 clean, 1 findings, 2 unreadable input.
    """
    dirty = False
    out: list[dict[str, Any]] = []
    colour = use_colour()
    for path in files:
        for rep in _reports(path, profile, jobs, recover=not strict):
            errors = [d for d in rep.diagnostics if d.severity == "error"]
            if rep.findings or errors:
                dirty = True
            if as_json:
                out.append(rep.as_dict())
                continue
            for d in rep.diagnostics:
                click.echo(_paint(d.render(path), "red" if d.severity == "error" else "yellow", colour))
            for f in rep.findings:
                click.echo(_paint(f.render(path), "red", colour))
            click.echo(_paint(f"{path}: {rep.summary()}", "yellow" if rep.findings else "green", colour))
            for note in rep.notes:
                click.echo(f"{path}: note: {note}")
    if as_json:
        echo_json(out)
    raise SystemExit(1 if dirty else 0)


def _annotated(record: Record, rep: GameReport, explain: bool) -> Record:
    """A copy of ``record`` with each finding as a ``{…}`` comment and a glyph at its
    coup (and each coup's entitled marks with ``explain``).  ``record`` is not changed."""
    by_index: dict[int, list] = {}
    loose: list = []
    for f in rep.findings:
        (by_index.setdefault(f.index, []) if f.index >= 0 else loose).append(f)
    traces = {t.index: t for t in rep.trace}
    out: list = []
    idx = 0
    for el in record.elements:
        if isinstance(el, Coup):
            extra: list = []
            if explain and idx in traces:
                t = traces[idx]
                extra.append(Comment(_explain(t)))
            fs = by_index.get(idx, [])
            for f in fs:
                extra.append(Comment(f"{f.kind}: {f.message}" + (f" — {f.consequence}" if f.consequence else "")
                                     + f" [RULES.md {f.rule}]"))
            if fs:
                extra.append(Glyph("??" if any(f.kind == "missing-checker" for f in fs) else "?"))
            out.append(replace(el, after=tuple(el.after) + tuple(extra)) if extra else el)
            idx += 1
            continue
        out.append(el)
        span = getattr(el, "span", None)
        for f in list(loose):
            if span is not None and f.line and span.line == f.line:
                out.append(Comment(f"{f.kind}: {f.message} [RULES.md {f.rule}]"))
                loose.remove(f)
    for f in loose:
        out.append(Comment(f"{f.kind}: {f.message} [RULES.md {f.rule}]"))
    return Record(headers=dict(record.headers), elements=out, span=record.span)


def _explain(t: Any) -> str:
    ev = ", ".join(
        f"{e.kind} {e.points} to {'roller' if e.side == 'mover' else 'other'}" for e in t.events
    ) or "nothing scored"
    return f"entitled: roller {t.entitled[0]}, other {t.entitled[1]} ({ev})"


@click.command("annotate")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("-o", "--output", "output", required=True, type=click.Path(dir_okay=False),
              help="Where to write the annotated record ('-' = standard output).")
@click.option("--explain", is_flag=True, help="Also write each coup's entitled marks.")
@profile_option
def annotate(file: str, output: str, explain: bool, profile: Profile | None) -> None:
    """Write FILE in canonical notation with every finding as a comment and a glyph.

    \b
    Example:
        trictrac annotate game.trn -o game.annotated.trn --explain
    Exit codes: 0 clean, 1 findings, 2 unreadable input.
    """
    from trictrac.notation.reader import iter_records
    from trictrac.notation.writer import write_record

    _readable(file)
    texts: list[str] = []
    dirty = False
    for i, pr in enumerate(iter_records(file, file=file)):
        rep = verify(pr.record, profile, file=file, game=i, trace=explain, diagnostics=pr.diagnostics)
        dirty = dirty or bool(rep.findings) or any(d.severity == "error" for d in rep.diagnostics)
        texts.append(write_record(_annotated(pr.record, rep, explain)))
    if not texts:
        raise BadInput(f"{file}: no game found")
    text = "\n".join(texts)
    if output == "-":
        click.echo(text, nl=False)
    else:
        try:
            with open(output, "w", encoding="utf-8") as fh:
                fh.write(text)
        except OSError as e:
            raise BadInput(f"{output}: {e.strerror or e}") from None
    raise SystemExit(1 if dirty else 0)


@click.command("replay")
@click.argument("file", type=click.Path(dir_okay=False))
@profile_option
@json_option
def replay(file: str, profile: Profile | None, as_json: bool) -> None:
    """The position, the score and the scoring events after every coup of FILE.

    \b
    Example:
        trictrac replay game.trn --json
    """
    from trictrac.notation.position import write_position

    out = []
    for rep in _reports(file, profile, 1, trace=True):
        coups = []
        for t in rep.trace:
            d = t.as_dict()
            d["position"] = write_position(t.position_after.to_spec(t.score_standing))
            coups.append(d)
        g = rep.as_dict()
        g["coups"] = coups
        out.append(g)
    if as_json:
        echo_json(out)
        return
    for g in out:
        click.echo(f"game {g['game'] + 1} [{g['profile']}]")
        for c in g["coups"]:
            ev = ", ".join(f"{e['kind']} {e['points']}" for e in c["events"]) or "-"
            holes = "".join(f"; {h['side']} trou {h['hole']}" for h in c["holes"])
            mid = c["score_after_gains"]
            between = "" if mid is None or mid == c["score"] else f" | after {c['side']}'s gains: {_score_text(mid)}"
            click.echo(f"  {c['releve']}.{c['coup']} {c['side']} {c['roll'][0]}-{c['roll'][1]} {c['play']}: "
                       f"{ev}{holes}{between} | {c['position']}")


def _score_text(score: dict[str, dict[str, Any]]) -> str:
    """``A 1t 2p, B 0t 4pb``: holes, points, b = bredouille."""
    return ", ".join(f"{x} {s['holes']}t {s['points']}p{'b' if s['bredouille'] else ''}" for x, s in score.items())
