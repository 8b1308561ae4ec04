"""The play analysis on a game's page (issue 29; docs/analysis.md): each player's
summary, the evaluation through the game as a chart, and for each classed coup (and each
decision to leave or stay) the written play and the best one drawn side by side.  The
classes' glyphs reach the coups table through the record itself
(:func:`trictrac.analysis.review.annotate_review` adds them, with the best play as a
comment), so :mod:`.html` shows them as any glyph."""

from __future__ import annotations

from typing import Any

from ..analysis.review import CLASSES, GLYPHS
from ..notation.record import Coup, Record
from ..replay.rules.game import GameFlowError, _Replayer
from ..replay.rules.profiles import DEFAULT_PROFILE, find_profile
from ..words import words
from .board import board_svg, svg_text
from .i18n import Labels
from .markup import esc

__all__ = ["analysis_section", "evaluation_chart"]

#: the two boards side by side (wrapping on a narrow screen)
_BESIDE = "display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start"
_FIGURE = "margin:0;max-width:320px"

#: classed coups drawn at most (the page stays small; the JSON has them all)
MAX_DRAWN = 40


def _pct(x: float, L: Labels) -> str:
    return words(L.lang).pct(x)


def evaluation_chart(analysis: dict[str, Any], names: tuple[str, str], L: Labels, *, width: int = 640) -> str:
    """An SVG line of seat A's chances to win after each coup (50 % dashed)."""
    pts = [c["win_a"] for c in analysis["coups"]]
    h, pad = 160, 24
    n = max(1, len(pts) - 1)
    xs = [pad + (width - 2 * pad) * i / n for i in range(len(pts))]
    ys = [pad + (h - 2 * pad) * (1.0 - p) for p in pts]
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(xs, ys))
    mid = pad + (h - 2 * pad) / 2
    title = esc(L("an_chart_title", a=names[0]))
    marks = "".join(
        f'<circle class="an-{c["class"]}" cx="{xs[i]:.1f}" cy="{ys[i]:.1f}" r="3"><title>'
        f"{esc(c['number'])}. {esc(c['side'])} {esc(c['roll'])} {esc(GLYPHS[c['class']])}</title></circle>"
        for i, c in enumerate(analysis["coups"])
        if c["class"]
    )
    return (
        f'<svg id="analysis-chart" class="an-chart" viewBox="0 0 {width} {h}" width="{width}" height="{h}" '
        f'style="max-width:100%;height:auto" role="img" aria-labelledby="an-chart-t">'
        f'<title id="an-chart-t">{title}</title>'
        f'<rect x="{pad}" y="{pad}" width="{width - 2 * pad}" height="{h - 2 * pad}" fill="none" stroke="#999"/>'
        f'<line x1="{pad}" y1="{mid:.1f}" x2="{width - pad}" y2="{mid:.1f}" stroke="#999" stroke-dasharray="4 3"/>'
        f'<text x="0" y="{pad - 6}" font-size="9">100 %</text><text x="0" y="{h - 6}" font-size="9">0 %</text>'
        f'<polyline points="{line}" fill="none" stroke="#333" stroke-width="1.5"/>{marks}</svg>'
    )


def _summary(analysis: dict[str, Any], names: dict[str, str], L: Labels) -> str:
    head = "".join(
        f"<th>{esc(L(k))}</th>"
        for k in ("an_player", "an_choices", "an_mean_loss", "an_doubtful", "an_mistake", "an_blunder")
    )
    rows = []
    for side, p in analysis["players"].items():
        cells = [f"{esc(side)} {esc(names.get(side, ''))}", str(p["choices"]), _pct(p["mean_win_loss"], L)]
        cells += [str(p[c]) for c in CLASSES]
        rows.append("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in cells) + "</tr>")
    return f'<table class="an-summary"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def _boards(record: Record, analysis: dict[str, Any], L: Labels) -> list[str]:
    """The written play and the best one, drawn after the coup, for each classed coup."""
    wanted = {c["index"]: c for c in analysis["coups"] if c["class"] or c.get("decision")}
    if not wanted:
        return []
    name = record.headers.get("Profile")
    try:
        profile = find_profile(name) if name else DEFAULT_PROFILE
    except ValueError:
        profile = DEFAULT_PROFILE
    rep = _Replayer(record, profile)
    from ..notation.visitor import visit_element

    out: list[str] = []
    idx = -1
    for el in record.elements:
        if not isinstance(el, Coup):
            visit_element(el, rep)
            continue
        idx += 1
        try:
            if rep.game is None:
                rep.game = rep._first_game(el)
            game = rep.game.copy()
            visit_element(el, rep)
        except GameFlowError:
            break
        c = wanted.get(idx)
        if c is None or len(out) >= MAX_DRAWN:
            continue
        out.append(_pair(c, game, L))
    return out


def _drawn(game: Any, roll: tuple[int, int], row: dict[str, Any], cls: str, caption: str) -> str:
    from ..replay.rules.game import find_play

    g = game.copy()
    roller = g.position.turn
    if row["leave"]:
        g.apply_coup(roll, None, leave=True)
        moves: tuple[Any, ...] = ()
    else:
        ps = g.legal(roll)
        play = next((p for p in ps.plays if p.moves() == row["play"]), None)
        if play is None and row["play"]:
            play = find_play(ps, ())
        g.apply_coup(roll, play, leave=False)
        moves = tuple(tuple(m) for m in row["play"])
    svg = board_svg(g.position, g.ledger.state, size=300, last_move=(roller, moves) if moves else None)
    return (
        f'<figure class="{cls}">{svg_text(svg, xml_declaration=False)}<figcaption>{esc(caption)}</figcaption></figure>'
    )


def _pair(c: dict[str, Any], game: Any, L: Labels) -> str:
    hi, lo = (int(x) for x in c["roll"].split("-"))
    roll = (hi, lo)
    w, b = c["written"], c["best"]
    glyph = f" {GLYPHS[c['class']]}" if c["class"] else ""
    head = (
        f"{c['number']}. {c['side']} {c['roll']}{glyph} — "
        + L("an_loss", loss=_pct(c["loss"]["win"], L))
        + (f" ({L('an_' + c['class'])})" if c["class"] else "")
    )
    written = _drawn(game, roll, w, "an-written", L("an_written", moves=w["moves"], win=_pct(w["win"], L)))
    best = _drawn(game, roll, b, "an-best", L("an_best", moves=b["moves"], win=_pct(b["win"], L)))
    return (
        f'<div class="an-coup" id="an-{c["index"]}"><p class="an-head">{esc(head)}</p>'
        f'<div class="an-boards" style="{_BESIDE}">{written}{best}</div></div>'
    )


def analysis_section(record: Record, analysis: dict[str, Any], names: dict[str, str], L: Labels) -> str:
    """The page's section of the play analysis."""
    pair = (names.get("A", "A"), names.get("B", "B"))
    out = [f'<section class="analysis" id="analysis"><h2>{esc(L("an_title"))}</h2>']
    out.append(f'<p class="an-note">{esc(L("an_note"))}</p>')
    out.append(_summary(analysis, names, L))
    out.append(f"<h3>{esc(L('an_chart'))}</h3>" + evaluation_chart(analysis, pair, L))
    boards = _boards(record, analysis, L)
    if boards:
        out.append(f"<h3>{esc(L('an_coups'))}</h3>" + "".join(boards))
    out.append("</section>")
    return "".join(out)
