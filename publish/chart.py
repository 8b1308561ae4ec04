"""An inline SVG chart of both players' points and holes through a game.

Two stacked panels sharing the x axis (coups, in order): holes (12 make the partie
en douze trous, RULES.md §8.1) and points on the jetons (0..11, RULES.md §5.1).
Step lines, because the score changes only at a coup.  Built with lxml.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from lxml import etree

from .board import _el

__all__ = ["score_chart"]

_W, _PANEL, _GAP, _ML, _MR, _MT = 680, 110, 34, 44, 150, 20
_LINE = {"A": "#8a6100", "B": "#1f4e8c"}  # A's ivory would not show on white


def _n(v: float) -> str:
    s = f"{v:.1f}"
    return s[:-2] if s.endswith(".0") else s


def _steps(values: Sequence[int], x: Callable[[int], float], y: Callable[[int], float]) -> str:
    """A step line as path data: ``M`` to the start, then ``H``/``V`` at each change."""
    if not values:
        return ""
    out = [f"M{_n(x(0))} {_n(y(values[0]))}"]
    prev = values[0]
    for i, v in enumerate(values):
        if v != prev:
            out.append(f"H{_n(x(i))}V{_n(y(v))}")
            prev = v
    out.append(f"H{_n(x(len(values) - 1))}")
    return "".join(out)


def score_chart(
    points: Mapping[str, Sequence[int]],
    holes: Mapping[str, Sequence[int]],
    *,
    breaks: Sequence[tuple[int, str]] = (),
    id: str | None = None,
    L: Any = None,
) -> etree._Element:
    """``points[side][i]`` / ``holes[side][i]`` after step ``i`` (0 = the start).
    ``breaks``: (step, label) vertical markers (relevés, marqués).  The chart names
    the sides by letter only (no record text in it); the page gives the names."""
    from .i18n import labels

    L = labels(L or "fr")
    n = max(len(points["A"]), 1)
    max_h = max(12, *(max(holes[s], default=0) for s in "AB"))
    height = _MT + 2 * _PANEL + _GAP + 26
    svg = _el(
        None,
        "svg",
        viewBox=f"0 0 {_W} {height}",
        role="img",
        class_="tt-chart",
        id=id,
        aria_labelledby=f"{id}-title" if id else None,
    )
    _el(svg, "title", L("chart_title"), id=f"{id}-title" if id else None)
    last = {s: (points[s][-1] if points[s] else 0, holes[s][-1] if holes[s] else 0) for s in "AB"}
    _el(
        svg,
        "desc",
        "; ".join(L("chart_end", side=s, name=s, holes=last[s][1], points=last[s][0]) for s in "AB")
        + "; "
        + L("chart_coups", n=n - 1),
    )
    span = _W - _ML - _MR

    def x(i: int) -> float:
        return _ML + (span * i / (n - 1) if n > 1 else 0)

    font = {"font_family": "sans-serif", "font_size": 11, "fill": "#333"}
    for k, (label, series, top, vmax, ticks) in enumerate(
        (
            ("holes", holes, _MT, max_h, range(0, max_h + 1, 3 if max_h <= 24 else 6)),
            ("points", points, _MT + _PANEL + _GAP, 12, range(0, 13, 2)),
        )
    ):

        def y(v: int, top: int = top, vmax: int = vmax) -> float:
            return top + _PANEL - _PANEL * v / vmax

        g = _el(svg, "g", class_=f"panel {label}")
        _el(g, "rect", x=_ML, y=top, width=span, height=_PANEL, fill="#fafafa", stroke="#bbb")
        for t in ticks:
            _el(g, "line", x1=_ML, x2=_ML + span, y1=y(t), y2=y(t), stroke="#e3e3e3")
            _el(g, "text", str(t), x=_ML - 6, y=y(t) + 4, text_anchor="end", **font)
        _el(g, "text", L(f"chart_{label}"), x=_ML, y=top - 5, **{**font, "font_weight": "bold"})
        for step, text in breaks:
            _el(
                g,
                "line",
                x1=x(step),
                x2=x(step),
                y1=top,
                y2=top + _PANEL,
                stroke="#999",
                stroke_dasharray="3 3",
                class_="break",
            )
            if k == 0:
                _el(g, "text", text, x=x(step) + 2, y=top + 10, font_family="sans-serif", font_size=9, fill="#777")
        for i, side in enumerate("AB"):
            _el(
                g,
                "path",
                d=_steps(series[side], x, y),
                fill="none",
                stroke=_LINE[side],
                stroke_width=2,
                stroke_dasharray=None if side == "A" else "6 3",
                class_=f"series {side.lower()}",
            )
            vals = series[side]
            # legend at fixed places (labels next to the line ends would collide)
            ly = top + 16 + 30 * i
            _el(
                g,
                "line",
                x1=_ML + span + 8,
                x2=_ML + span + 30,
                y1=ly - 4,
                y2=ly - 4,
                stroke=_LINE[side],
                stroke_width=2,
                stroke_dasharray=None if side == "A" else "6 3",
            )
            _el(
                g,
                "text",
                f"{side} : {vals[-1] if vals else 0}",
                x=_ML + span + 34,
                y=ly,
                fill=_LINE[side],
                font_family="sans-serif",
                font_size=11,
            )
    _el(svg, "text", L("chart_x"), x=_ML + span / 2, y=height - 6, text_anchor="middle", **font)
    for t in _xticks(n - 1):
        _el(svg, "text", str(t), x=x(t), y=height - 18, text_anchor="middle", **{**font, "font_size": 9})
    return svg


def _xticks(last: int) -> list[int]:
    if last <= 0:
        return [0]
    step = max(1, round(last / 8 / 5) * 5) if last > 16 else (1 if last <= 8 else 2)
    return list(range(0, last + 1, step))
