"""``trictrac analyse``: legal plays, scoring events and chances of a position, each
throw's plays ranked by the evaluator; with ``--game FILE`` the play analysis of whole
games (wiring only; the work is :func:`trictrac.replay.rules.analyse.analyse`,
:mod:`trictrac.analysis.evaluator` and :mod:`trictrac.analysis.review`)."""

from __future__ import annotations

import json
from typing import Any

import click

from ..notation.position import parse_position
from ..notation.textio import terminal_safe
from ..replay.rules.analyse import analyse as analyse_position
from ..replay.rules.analyse import parse_roll, render_text
from ..replay.rules.ledger import ScoreState
from ..replay.rules.position import Position
from ..replay.rules.profiles import DEFAULT_PROFILE, Profile
from ..words import Words
from .common import (
    BadInput,
    command_words,
    echo_json,
    jobs_option,
    json_option,
    lang_option,
    profile_option,
    read_input,
)
from .helptext import Command

_JSON_KEYS = ("mover", "other", "mover_off", "other_off", "mover_coups", "other_coups")


def _col(text: str, key: str) -> int:
    """1-based column of ``"key"`` in a JSON text (1 when absent)."""
    i = text.find(f'"{key}"')
    return i + 1 if i >= 0 else 1


def position_from_json(text: str) -> Position:
    """Build a position from the ``--position-json`` shape of issue 2::

        {"mover": {"1": 13, "12": 2}, "other": {"1": 15}, "mover_off": 0,
         "other_off": 0, "mover_coups": 1, "other_coups": 1}

    Each side's checkers by point in its own frame (RULES.md §2.2).

    :raises BadInput: bad JSON or an impossible position, naming the column.
    """
    W = command_words()

    def fault(col: int, key: str, line: int = 1, **kw: object) -> BadInput:
        """``--position-json:LINE:COL: what`` in the command's words."""
        return BadInput(W("an.json.at", line=line, col=col, what=W(key, **kw)))

    keys = ", ".join(_JSON_KEYS)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        # the decoder's own reason, in the language when the catalogue has it
        msg = W.get("an.json.why." + e.msg.lower().replace(" ", "_"), e.msg)
        raise fault(e.colno, "an.json.bad", line=e.lineno, msg=msg) from None
    if not isinstance(data, dict):
        raise fault(1, "an.json.not_object", keys=keys)
    unknown = [k for k in data if k not in _JSON_KEYS]
    if unknown:
        raise fault(_col(text, unknown[0]), "an.json.unknown_key", name=unknown[0], keys=keys)
    sides: dict[str, list[int]] = {}
    for side in ("mover", "other"):
        pts = data.get(side)
        if not isinstance(pts, dict):
            raise fault(_col(text, side), "an.json.side_object", side=side)
        c = [0] * 26
        for k, n in pts.items():
            if not (isinstance(k, str) and k.isdigit() and 1 <= int(k) <= 24):
                raise fault(_col(text, side), "an.json.bad_point", side=side, point=k)
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise fault(_col(text, side), "an.json.bad_count", side=side, n=n, point=k)
            c[int(k)] += n
        sides[side] = c
    nums: dict[str, int] = {}
    for key in ("mover_off", "other_off", "mover_coups", "other_coups"):
        v = data.get(key, 0)
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise fault(_col(text, key), "an.json.not_whole", name=key, v=v)
        nums[key] = v
    sides["mover"][25] += nums["mover_off"]
    sides["other"][25] += nums["other_off"]
    m, o = sides["mover"], sides["other"]
    for side, c in (("mover", m), ("other", o)):
        total = sum(c)
        if total != 15:
            raise fault(_col(text, side), "an.json.not_15", side=side, total=total)
        if c[12] == 1:
            raise fault(_col(text, side), "an.json.lone_coin", side=side)
        if c[13]:
            raise fault(_col(text, side), "an.json.opponent_coin", side=side)
    for p in range(1, 25):
        if m[p] and o[25 - p]:
            raise fault(_col(text, "other"), "an.json.both", p=p, q=25 - p)
    return Position(
        tuple(m),
        tuple(o),
        mover_coups=nums["mover_coups"],
        other_coups=nums["other_coups"],
        mover_coin_taken=m[12] >= 2,
        other_coin_taken=o[12] >= 2,
    )


def position_from_text(text: str) -> Position:
    """Parse the one-line position notation (docs/notation.md).

    :raises BadInput: the first error diagnostic, ``position:1:COL: code: message``.
    """
    spec, diags = parse_position(text)
    errors = [d for d in diags if d.severity == "error"]
    if spec is None or errors:
        d = errors[0] if errors else (diags[0] if diags else None)
        W = command_words()
        if d is None:
            raise BadInput(W("an.position_unreadable"))
        raise BadInput(W("an.position_fault", line=d.span.line, col=d.span.col, code=d.code, message=d.say(W.lang)))
    return Position.from_spec(spec)


def score_from_text(text: str) -> ScoreState:
    """The score of a one-line position (zero when it gives none)."""
    spec, _ = parse_position(text)
    return ScoreState() if spec is None else ScoreState.from_spec(spec)


def _analyse_one(args: tuple[int, Any, Profile | None]) -> dict[str, Any]:
    from ..analysis.review import analyse_record

    i, record, profile = args
    out = analyse_record(record, profile=profile)
    out["game"] = i
    return out


def analyse_games(records: list[Any], profile: Profile | None, jobs: int = 1) -> list[dict[str, Any]]:
    """The play analysis of each record (``analysis.review.analyse_record``), on
    ``jobs`` processes across games."""
    work = [(i, r, profile) for i, r in enumerate(records)]
    if jobs > 1 and len(work) > 1:
        from multiprocessing import get_context

        with get_context("fork").Pool(min(jobs, len(work))) as pool:
            return list(pool.imap(_analyse_one, work))
    return [_analyse_one(w) for w in work]


def read_records(file: str) -> list[Any]:
    """The records of FILE (``-`` standard input); :class:`BadInput` when none."""
    from ..notation.reader import iter_records

    inp = read_input(file)
    with inp.stream() as fh:
        records = [pr.record for pr in iter_records(fh, file=inp.name)]
    records = [r for r in records if r.headers or r.elements]
    if not records:
        raise BadInput(command_words()("cli.no_record", path=file))
    return records


def _analyse_game_file(file: str, profile: Profile | None, jobs: int, as_json: bool, lang: Words) -> None:
    from ..analysis.review import render_review

    results = analyse_games(read_records(file), profile, jobs)
    if as_json:
        echo_json(results)
        return
    for res in results:
        name = lang("an.game_name", file=file, n=res["game"] + 1)
        click.echo(terminal_safe(render_review(res, name=name, lang=lang)))


def _ranked(pos: Position, score: ScoreState, profile: Profile, kind: str, result: dict[str, Any]) -> None:
    """Each roll of ``result`` gains ``ranked``: its choices valued by the evaluator,
    best first (docs/architecture.md, the analyse JSON)."""
    from ..analysis.evaluator import load_evaluator
    from ..analysis.review import FULL, KEEP
    from ..replay.rules.game import Game, GameFlowError

    ev = load_evaluator()
    try:
        game = Game(kind, profile, start=pos, score=score)
    except GameFlowError as e:
        raise BadInput(command_words()("an.flow", message=e.say(command_words().lang))) from None
    if game.finished:
        for r in result["rolls"]:
            r["ranked"] = []
        return
    for r in result["rolls"]:
        roll = parse_roll(r["roll"])
        ranked = ev.rank(game, roll, depth=2, keep=KEEP, full=FULL)
        r["ranked"] = [
            {
                "play": x.moves(),
                "moves": x.text(),
                "leave": x.choice.leave,
                "equity": round(x.value.equity, 4),
                "win": round(x.value.win, 4),
                "depth": x.depth,
                "points": x.points,
                "given": x.given,
                "reply_points": None if x.reply_points is None else round(x.reply_points, 3),
                "reply_hit": None if x.reply_hit is None else round(x.reply_hit, 2),
            }
            for x in ranked
        ]


def _ranked_text(result: dict[str, Any], W: Words, shown: int = 5) -> str:
    """Each roll's best plays, in ``W``'s words (French numbers with the decimal comma)."""
    lines = []
    for r in result["rolls"]:
        if not r.get("ranked"):
            continue
        lines.append(W("an.r.head", roll=r["roll"]))
        for x in r["ranked"][:shown]:
            extra = ""
            if x["reply_points"] is not None:
                points = W.number(f"{x['reply_points']:.1f}")
                extra = W("an.r.reply", points=points, hit=f"{x['reply_hit']:.0f}")
            line = W(
                "an.r.line",
                moves=x["moves"],
                win=W.number(f"{100 * x['win']:.1f}"),
                equity=W.number(f"{x['equity']:+.3f}"),
                points=x["points"],
                given=x["given"],
                extra=extra,
            )
            lines.append("  " + line)
    return "\n".join(lines)


@click.command("analyse", cls=Command)
@click.argument("position", required=False)
@click.option("--roll", "roll", default=None, metavar="A-B", help="Analyse one roll only, e.g. 5-4 (default: all 21).")
@click.option(
    "--position-json",
    "position_json",
    default=None,
    metavar="JSON",
    help='The position as JSON: {"mover": {"1": 13, "12": 2}, "other": {"1": 15}, '
    '"mover_off": 0, "other_off": 0, "mover_coups": 1, "other_coups": 1}.',
)
@click.option(
    "--game",
    "game_file",
    default=None,
    metavar="FILE",
    help="Analyse the plays of every game of FILE ('-' standard input): each coup's choices ranked, "
    "the written one's loss and class, each player's summary (docs/analysis.md).",
)
@click.option(
    "--kind",
    type=click.Choice(["douze-trous", "a-ecrire"]),
    default="douze-trous",
    show_default=True,
    help="The partie the position is played in (the unit of the equity).",
)
@click.option("--no-rank", is_flag=True, help="Do not rank the plays (legal plays, events and chances only).")
@jobs_option
@profile_option
@json_option
@lang_option
def analyse(
    position: str | None,
    roll: str | None,
    position_json: str | None,
    game_file: str | None,
    kind: str,
    no_rank: bool,
    jobs: int,
    profile: Profile | None,
    as_json: bool,
    lang: Words,
) -> None:
    """Legal plays and scoring events of POSITION for one roll or all 21, the points
    of each side, and the chances out of 36 of each kind of event.

    POSITION is the one-line position notation (docs/notation.md), seen from the side
    whose turn it is (turn=A by default). Points are in each side's own frame
    (1 = talon, 12 = coin, 25 = off); "mover" is the side to move.

    \b
    Examples:
      trictrac analyse "A{1:13,12:2} B{1:15} turn=A coups=1/1"
      trictrac analyse "A{1:13,12:2} B{1:15}" --roll 6-1 --json
      trictrac analyse --position-json '{"mover": {"1": 13, "12": 2}, "other": {"1": 15}, "mover_off": 0, "other_off": 0, "mover_coups": 1, "other_coups": 1}'

    Each roll's plays (and s'en aller when the throw completes a hole) are ranked by
    the evaluator (docs/analysis.md): chances to win and equity, the points of the
    throw, and the opponent's average reply.  --game FILE analyses whole games.

    Exit codes: 0 ok, 2 bad position, roll, file or options.
    """
    if game_file is not None:
        if position is not None or position_json is not None or roll is not None:
            raise BadInput(lang("an.game_alone"))
        _analyse_game_file(game_file, profile, jobs, as_json, lang)
        return
    if (position is None) == (position_json is None):
        raise BadInput(lang("an.one_position"))
    pos = position_from_json(position_json) if position_json is not None else position_from_text(position or "")
    try:
        r = parse_roll(roll) if roll is not None else None
    except ValueError:
        raise BadInput(lang("an.bad_roll", text=roll)) from None
    prof = profile or DEFAULT_PROFILE
    result: dict[str, Any] = analyse_position(pos, prof, r)
    if not no_rank:
        score = score_from_text(position) if position is not None else ScoreState()
        _ranked(pos, score, prof, kind, result)
    if as_json:
        echo_json(result)
    else:
        click.echo(render_text(result, lang=lang))
        if not no_rank:
            click.echo(_ranked_text(result, lang))
