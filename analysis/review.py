"""Game analysis: every coup's choices ranked, the written choice's loss, its class,
and each player's summary (``trictrac analyse --game``; docs/analysis.md).

For each coup of a record (replayed by the rules engine, ``replay.rules.game``: the marks
are the rules' own, only the plays and the s'en aller / rester decisions are read),
the roller's choices of his throw — each legal play, and leaving when the throw
completes a hole (RULES.md §6.1) — are valued by :meth:`Evaluator.rank`: the best
:data:`KEEP` of them, and the written one, by the opponent's 21 replies.  The written
choice's **loss** is the difference with the best, in equity and in chances to win;
its **class** follows the loss of chances to win (not of points: a few points matter
more at 11 holes to 11 than at the start, lichess-org/lila#4705):

======================  =====================  =====
class                   loss of chances to win  glyph
======================  =====================  =====
doubtful (*douteux*)    ≥ 2 %                  ``?!``
mistake (*faute*)       ≥ 4 %                  ``?``
blunder (*grosse faute*) ≥ 8 %                 ``??``
======================  =====================  =====

(GNU Backgammon's doubtful / bad / very bad at 0.04 / 0.08 / 0.16 of equity are the
same 2 / 4 / 8 % of chances in a game without gammons.)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..notation.record import Comment, Coup, Glyph, Record
from ..replay.rules.game import Game, GameFlowError, _Replayer, find_play, moves_text
from ..replay.rules.moves import Play
from ..replay.rules.profiles import DEFAULT_PROFILE, Profile, find_profile
from ..words import Words, words
from .evaluator import Choice, Evaluator, Ranked, choices, load_evaluator

__all__ = ["CLASSES", "THRESHOLDS", "GLYPHS", "KEEP", "classify", "analyse_record", "render_review", "annotate_review"]

#: the classes, from the least to the worst, with their thresholds (loss of chances to
#: win, 0..1) and glyphs (docs/notation.md)
CLASSES = ("doubtful", "mistake", "blunder")
THRESHOLDS = {"doubtful": 0.02, "mistake": 0.04, "blunder": 0.08}
GLYPHS = {"doubtful": "?!", "mistake": "?", "blunder": "??"}

#: choices valued by the replies (beside the written one); the others by the static value
KEEP = 4
#: choices valued with the next throw's exact average before the replies
FULL = 8
#: ranked choices listed per coup
SHOWN = 5


def classify(win_loss: float) -> str | None:
    """The class of a loss of chances to win (None below *doubtful*)."""
    out = None
    for c in CLASSES:
        if win_loss >= THRESHOLDS[c] - 1e-12:
            out = c
    return out


def _choice_dict(r: Ranked) -> dict[str, Any]:
    return {
        "moves": r.text(),
        "play": r.moves(),
        "leave": r.choice.leave,
        "equity": round(r.value.equity, 4),
        "win": round(r.value.win, 4),
        "points": r.points,
        "depth": r.depth,
    }


def _written_choice(game: Game, coup: Coup, roll: tuple[int, int]) -> Choice:
    """The choice the record wrote (the same reading as ``replay.rules.game``)."""
    from ..replay.rules.game import _Said

    said = _Said(coup)
    leave = said.leave
    if leave is None and not said.moves and game.can_leave(roll, None):
        leave = True  # compact record: no moves after a hole = he left
    if leave:
        return Choice(None, True)
    opts = choices(game, roll)
    if len(opts) == 1 and opts[0].play is None:
        return opts[0]
    ps = game.legal(roll)
    play: Play | None = find_play(ps, coup.moves)
    if play is None:
        if coup.moves or len(ps.plays) > 1:
            raise GameFlowError("w5.flow.illegal", n=coup.number, moves=moves_text(coup.moves), roll=roll)
        play = ps.plays[0] if ps.plays else None
    return Choice(play, False)


class Review(dict[str, Any]):
    """:func:`analyse_record`'s dict (its JSON), and the error that stopped it (for the
    text to say it in the reader's language; the JSON's ``stopped`` is its English)."""

    stopped_error: GameFlowError | None = None


def analyse_record(
    record: Record,
    evaluator: Evaluator | None = None,
    profile: Profile | None = None,
    *,
    keep: int = KEEP,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """The analysis of one record (the JSON shape of docs/analysis.md)."""
    ev = evaluator or load_evaluator()
    if profile is None:
        name = record.headers.get("Profile")
        try:
            profile = find_profile(name) if name else DEFAULT_PROFILE
        except ValueError:
            profile = DEFAULT_PROFILE
    replayer = _Replayer(record, profile)
    coups: list[dict[str, Any]] = []
    stopped: str | None = None
    stopped_error: GameFlowError | None = None
    index = -1
    from ..notation.visitor import visit_element

    for element in record.elements:
        if not isinstance(element, Coup):
            visit_element(element, replayer)
            continue
        index += 1
        coup = element
        try:
            if replayer.game is None:
                replayer.game = replayer._first_game(coup)
            before = replayer.game.copy()
            seat = replayer.seat_of.get(coup.side, coup.side)
            if before.finished or seat != before.turn:
                visit_element(coup, replayer)  # raises the flow's own message
            roll = (max(coup.roll), min(coup.roll))
            written = _written_choice(before, coup, roll)
            ranked = ev.rank(before, roll, depth=2, keep=keep, full=max(keep, FULL), must=(written,))
            visit_element(coup, replayer)
        except GameFlowError as e:
            stopped, stopped_error = str(e), e
            break
        coups.append(_coup_row(index, coup, before, roll, written, ranked))
        if progress:
            progress(index)
    out = Review(
        headers={k: record.headers[k] for k in ("Event", "A", "B", "Partie", "Profile") if k in record.headers},
        profile=profile.name,
        thresholds=THRESHOLDS,
        coups=coups,
        players=_players(coups),
        stopped=stopped,
    )
    out.stopped_error = stopped_error
    return out


def _coup_row(
    index: int, coup: Coup, game: Game, roll: tuple[int, int], written: Choice, ranked: list[Ranked]
) -> dict[str, Any]:
    wr = next(r for r in ranked if r.choice == written)
    best = ranked[0]
    eq_loss = max(0.0, best.value.equity - wr.value.equity)
    win_loss = max(0.0, best.value.win - wr.value.win)
    cls = classify(win_loss) if len(ranked) > 1 else None
    roller = game.position.turn
    row: dict[str, Any] = {
        "index": index,
        "number": coup.number,
        "line": coup.span.line,
        "side": coup.side,
        "roll": f"{roll[0]}-{roll[1]}",
        "choices": len(ranked),
        "written": _choice_dict(wr),
        "best": _choice_dict(best),
        "ranked": [_choice_dict(r) for r in ranked[:SHOWN]],
        "loss": {"equity": round(eq_loss, 4), "win": round(win_loss, 4)},
        "class": cls,
        # the chances of seat A after the written choice (the chart of the game)
        "win_a": round(wr.value.win if roller == "A" else 1.0 - wr.value.win, 4),
    }
    stays = [r for r in ranked if not r.choice.leave]
    leaves = [r for r in ranked if r.choice.leave]
    if leaves and stays:
        stay, leave = stays[0], leaves[0]
        row["decision"] = {
            "written": "leave" if written.leave else "stay",
            "best": "leave" if (leave.value.equity, leave.value.win) > (stay.value.equity, stay.value.win) else "stay",
            "leave": {"equity": round(leave.value.equity, 4), "win": round(leave.value.win, 4)},
            "stay": {"equity": round(stay.value.equity, 4), "win": round(stay.value.win, 4), "moves": stay.text()},
        }
    return row


def _players(coups: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for c in coups:
        p = out.setdefault(
            c["side"],
            {"coups": 0, "choices": 0, "loss": 0.0, "win_loss": 0.0, **{k: 0 for k in CLASSES}},
        )
        p["coups"] += 1
        if c["choices"] > 1:
            p["choices"] += 1
            p["loss"] += c["loss"]["equity"]
            p["win_loss"] += c["loss"]["win"]
        if c["class"]:
            p[c["class"]] += 1
    for p in out.values():
        n = p["choices"]
        p["mean_loss"] = round(p["loss"] / n, 5) if n else 0.0
        p["mean_win_loss"] = round(p["win_loss"] / n, 5) if n else 0.0
        p["loss"] = round(p["loss"], 4)
        p["win_loss"] = round(p["win_loss"], 4)
    return dict(sorted(out.items()))


def render_review(result: dict[str, Any], *, name: str = "", lang: str | Words = "en") -> str:
    """The analysis as text, in ``lang``'s words: the coups with a class (and the
    decisions to leave or stay), then each player's summary."""
    W = words(lang)

    pct = W.pct
    lines: list[str] = []
    head = W("an.v.head", name=name) if name else ""
    for c in result["coups"]:
        dec = c.get("decision")
        if not c["class"] and not dec:
            continue
        w, b = c["written"], c["best"]
        tag = f" {GLYPHS[c['class']]} {W('an.class.' + c['class'])}" if c["class"] else ""
        text = head + W(
            "an.v.coup",
            line=c["line"],
            number=c["number"],
            side=c["side"],
            roll=c["roll"],
            written=w["moves"],
            wwin=pct(w["win"]),
            best=b["moves"],
            bwin=pct(b["win"]),
            loss=pct(c["loss"]["win"]),
            tag=tag,
        )
        if dec:
            text += W(
                "an.v.decision",
                leave=pct(dec["leave"]["win"]),
                stay=pct(dec["stay"]["win"]),
                moves=dec["stay"]["moves"],
                best=W("an.v.leave" if dec["best"] == "leave" else "an.v.stay"),
            )
        lines.append(text)
    if result.get("stopped"):
        err = getattr(result, "stopped_error", None)
        reason = err.say(W) if err is not None else result["stopped"]
        lines.append(head + W("an.v.stopped", reason=reason))
    hdr = result.get("headers", {})
    for side, p in result["players"].items():
        who = hdr.get(side, side)
        lines.append(
            head
            + W(
                "an.v.player",
                side=side,
                who=who,
                coups=W.n("an.v.coups", p["coups"]),
                choices=p["choices"],
                mean=W.number(f"{p['mean_loss']:.4f}"),
                pct=pct(p["mean_win_loss"]),
                doubtful=p["doubtful"],
                mistake=p["mistake"],
                blunder=p["blunder"],
            )
        )
    return "\n".join(lines)


def annotate_review(record: Record, result: dict[str, Any], lang: str | Words = "en") -> Record:
    """A copy of ``record`` with each classed coup's glyph and, as a comment, the best
    choice and the loss (the record reads again: comments and glyphs of the notation),
    in ``lang``'s words and numbers (keys ``w6.review.*``, ``an.class.*``)."""
    by_index = {c["index"]: c for c in result["coups"]}
    out: list[Any] = []
    idx = -1
    for el in record.elements:
        if isinstance(el, Coup):
            idx += 1
            c = by_index.get(idx)
            if c is not None and (c["class"] or c.get("decision")):
                extra: list[Any] = []
                b = c["best"]
                W = words(lang)
                tag = W("w6.review.class", name=W(f"an.class.{c['class']}")) if c["class"] else ""
                text = W(
                    "w6.review.comment",
                    best=b["moves"],
                    bwin=W.pct(b["win"]),
                    wwin=W.pct(c["written"]["win"]),
                    loss=W.pct(c["loss"]["win"]),
                    tag=tag,
                )
                extra.append(Comment(text.replace("{", "(").replace("}", ")")))
                if c["class"]:
                    extra.append(Glyph(GLYPHS[c["class"]]))
                el = replace(el, after=tuple(el.after) + tuple(extra))
        out.append(el)
    return Record(headers=dict(record.headers), elements=out, span=record.span)
