"""An inline SVG chart of both players' points and holes through a game.

Two stacked panels sharing the x axis (coups, in order): holes (12 make the partie
en douze trous, RULES.md §8.1) and points on the jetons (0..11, RULES.md §5.1).
Step lines, because the score changes only at a coup.  Written as text (a page
needs the markup, and building an lxml tree per page cost more than the rest of
the chart); :func:`score_chart` parses it for callers that want a tree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lxml import etree

from .board import SVG_NS, _fmt, _key

__all__ = ["score_chart", "chart_svg"]

_ATTR = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\n": "&#10;", "\t": "&#9;", "\r": "&#13;"}
)
_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"})


def _tag(tag: str, text: str | None = None, **attrs: Any) -> str:
    """An element as lxml writes it (``None`` attributes dropped, ``_`` in names
    becomes ``-``, numbers as :func:`trictrac.publish.board._fmt` writes them)."""
    a = "".join(
        f' {_key(k)}="{v.translate(_ATTR) if v.__class__ is str else _fmt(v)}"'  # numbers need no escaping
        for k, v in attrs.items()
        if v is not None
    )
    return f"<{tag}{a}/>" if text is None else f"<{tag}{a}>{text.translate(_TEXT)}</{tag}>"


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
    """The chart as an lxml tree (see :func:`chart_svg`)."""
    text = chart_svg(points, holes, breaks=breaks, id=id, L=L)
    return etree.fromstring(text.replace("<svg ", f'<svg xmlns="{SVG_NS}" ', 1))


def chart_svg(
    points: Mapping[str, Sequence[int]],
    holes: Mapping[str, Sequence[int]],
    *,
    breaks: Sequence[tuple[int, str]] = (),
    id: str | None = None,
    L: Any = None,
) -> str:
    """``points[side][i]`` / ``holes[side][i]`` after step ``i`` (0 = the start).
    ``breaks``: (step, label) vertical markers (relevés, marqués).  The chart names
    the sides by letter only (no record text in it); the page gives the names.
    An ``<svg>`` without namespace declaration (for an HTML page)."""
    from .i18n import labels

    L = labels(L or "fr")
    ax = _Axes(max(len(points["A"]), 1), breaks, L)
    max_h = max(12, *(max(holes[s], default=0) for s in "AB"))
    height = _MT + 2 * _PANEL + _GAP + 26
    last = {s: (points[s][-1] if points[s] else 0, holes[s][-1] if holes[s] else 0) for s in "AB"}
    desc = (
        "; ".join(L.score("chart_end", last[s][1], last[s][0], side=s, name=s) for s in "AB")
        + "; "
        + L.n("chart_coups", ax.n - 1)
    )
    head = _tag(
        "svg",
        viewBox=f"0 0 {_W} {height}",
        role="img",
        class_="tt-chart",
        id=id,
        aria_labelledby=f"{id}-title" if id else None,
    )
    out = [
        head[:-2] + ">",
        _tag("title", L("chart_title"), id=f"{id}-title" if id else None),
        _tag("desc", desc),
        _panel(ax, 0, ("holes", holes, _MT, max_h, range(0, max_h + 1, 3 if max_h <= 24 else 6))),
        _panel(ax, 1, ("points", points, _MT + _PANEL + _GAP, 12, range(0, 13, 2))),
        _tag("text", L("chart_x"), x=_ML + _SPAN / 2, y=height - 6, text_anchor="middle", **_FONT),
    ]
    for t in _xticks(ax.n - 1):
        out.append(_tag("text", str(t), x=ax.x(t), y=height - 18, text_anchor="middle", **{**_FONT, "font_size": 9}))
    out.append("</svg>")
    return "".join(out)


_SPAN = _W - _ML - _MR
_FONT: dict[str, Any] = {"font_family": "sans-serif", "font_size": 11, "fill": "#333"}


@dataclass(frozen=True, slots=True)
class _Axes:
    """What both panels share: the number of steps, the breaks, the words."""

    n: int
    breaks: Sequence[tuple[int, str]]
    L: Any

    def x(self, i: int) -> float:
        return _ML + (_SPAN * i / (self.n - 1) if self.n > 1 else 0)


def _panel(ax: _Axes, k: int, spec: tuple[str, Mapping[str, Sequence[int]], int, int, Iterable[int]]) -> str:
    """One panel (``spec``: label, series, top, largest value, ticks): frame, ticks,
    breaks, both sides' step lines and their legend."""
    label, series, top, vmax, ticks = spec

    def y(v: int) -> float:
        return top + _PANEL - _PANEL * v / vmax

    out = [f'<g class="panel {label}">']
    out.append(_tag("rect", x=_ML, y=top, width=_SPAN, height=_PANEL, fill="#fafafa", stroke="#bbb"))
    for t in ticks:
        out.append(_tag("line", x1=_ML, x2=_ML + _SPAN, y1=y(t), y2=y(t), stroke="#e3e3e3"))
        out.append(_tag("text", str(t), x=_ML - 6, y=y(t) + 4, text_anchor="end", **_FONT))
    out.append(_tag("text", ax.L(f"chart_{label}"), x=_ML, y=top - 5, **{**_FONT, "font_weight": "bold"}))
    for step, text in ax.breaks:
        bx = ax.x(step)
        out.append(
            _tag("line", x1=bx, x2=bx, y1=top, y2=top + _PANEL, stroke="#999", stroke_dasharray="3 3", class_="break")
        )
        if k == 0:
            out.append(_tag("text", text, x=bx + 2, y=top + 10, font_family="sans-serif", font_size=9, fill="#777"))
    for i, side in enumerate("AB"):
        dash = None if side == "A" else "6 3"
        stroke = _LINE[side]
        vals = series[side]
        out.append(
            _tag(
                "path",
                d=_steps(vals, ax.x, y),
                fill="none",
                stroke=stroke,
                stroke_width=2,
                stroke_dasharray=dash,
                class_=f"series {side.lower()}",
            )
        )
        # legend at fixed places (labels next to the line ends would collide)
        ly = top + 16 + 30 * i
        x0 = _ML + _SPAN
        out.append(
            _tag(
                "line",
                x1=x0 + 8,
                x2=x0 + 30,
                y1=ly - 4,
                y2=ly - 4,
                stroke=stroke,
                stroke_width=2,
                stroke_dasharray=dash,
            )
        )
        legend = f"{side} : {vals[-1] if vals else 0}"
        out.append(_tag("text", legend, x=x0 + 34, y=ly, fill=stroke, font_family="sans-serif", font_size=11))
    out.append("</g>")
    return "".join(out)


def _xticks(last: int) -> list[int]:
    if last <= 0:
        return [0]
    step = max(1, round(last / 8 / 5) * 5) if last > 16 else (1 if last <= 8 else 2)
    return list(range(0, last + 1, step))
