"""The tablier as an SVG diagram: checkers *and* the score as the table shows it.

A pure function of a position (``notation.position.PositionSpec`` or
``replay.rules.position.Position``), an optional score (``replay.rules.ledger.ScoreState`` or
anything with ``.a``/``.b`` having ``points, bredouille, holes, pavillon``) and
keyword-only display options, built as an lxml element tree (text is escaped by
lxml; nothing is concatenated into markup).

Layout (RULES.md §2.1; 003 §13, §26, §108): the near player sits at the bottom.
Both talons are at the left end, next to the short bande where checkers are borne
off; both coins are at the right end, facing each other.  The bar (*bande de
séparation*) splits the first tables (talon side) from the second tables (coin
side).  The near player's own points 1..12 run left to right along the bottom, his
13..24 right to left along the top (RULES.md §2.2).

Score (RULES.md §5.1-§5.4; 003 §141-144, §175, §223):

* *jetons* — three shared counters.  Unused ones rest at their "talon", by the
  short bande between the two talons (003 §175).  A player's points are shown by
  a jeton on his side at the book's places: 2 and 4 points at a third and two
  thirds of the first table, 6 next to the bar in the first table, 8 next to the
  bar in the second table, 10 by the bande at the coin end (003 §141).  The player
  holding the bredouille *while the other has points too* marks with two jetons;
  the first to score marks with one even though he is in bredouille, so that "two
  jetons or none at the talon" means someone has the bredouille (003 §144).
* *fichets* — each player's peg in the 12 holes of the long bande in front of him,
  counted from the talon end (003 §142); with no hole it stands in the short
  bande's hole by his talon (003 §175).  Past twelve holes (a marqué of a partie à
  écrire) the peg goes round again and the count is written beside it.
* *pavillon* — in the middle hole of the short bande when only one player has
  holes or both are débredouillés; in the hole where the fichet started (by the
  talon) of the player who took holes second without interruption (003 §223,
  §175; RULES.md §5.4).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from copy import deepcopy
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from lxml import etree

from ..notation.position import PositionSpec, write_position
from .markup import clean

__all__ = ["board_svg", "board_defs", "svg_text", "BoardError", "SVG_NS", "BoardScore", "checker_count"]

SVG_NS = "http://www.w3.org/2000/svg"
_NSMAP = {None: SVG_NS}


class BoardError(ValueError):
    """API misuse: not a position, wrong orientation, malformed counts."""


# --- geometry (viewBox units) ------------------------------------------------------
PW = 40  # flèche width
R = 17  # checker radius
LEFT = 64  # short bande at the talon end (borne-off checkers, 3 holes)
RIGHT = 34  # short bande at the coin end
BAR = 24  # bande de séparation
RAIL = 34  # long bandes (12 holes each)
FIELD_H = 420
FL = 180  # flèche length
LABEL = 18  # label strip above and below when labels=True
WIDTH = LEFT + 12 * PW + BAR + RIGHT

COLOURS = {
    "bande": "#6b3f1d",
    "field": "#e8dcc0",
    "fleche-light": "#f7f1e1",
    "fleche-dark": "#2e6b4e",
    "bar": "#5a3418",
    "hole": "#2a1708",
    "A": "#fbf8ee",
    "B": "#2b2b2b",
    "stroke": "#111111",
    "jeton": "#d4a017",
    "pavillon": "#c0392b",
    "arrow": "#c0392b",
    "text": "#222222",
}

# Jeton places in flèche widths from the talon-end bande (003 §141): a table is
# six flèches = twelve half-intervals, "dont le tiers est quatre".
_JETON_U: dict[int, float] = {
    1: 1.0,
    2: 2.0,
    3: 3.0,
    4: 4.0,
    5: 5.0,
    6: 5.6,
    7: 6.0,
    8: 6.4,
    9: 9.0,
    10: 11.55,
    11: 11.55,
}


_KEYS: dict[str, str] = {}  # keyword -> attribute name (memo: boards draw many elements)
_TAGS: dict[str, str] = {}
_SubElement = etree.SubElement


def _key(k: str) -> str:
    name = _KEYS.get(k)
    if name is None:
        name = _KEYS[k] = k.rstrip("_").replace("_", "-")
    return name


def _el(parent: etree._Element | None, tag: str, text: str | None = None, **attrs: Any) -> etree._Element:
    """An SVG element; ``None`` attributes are dropped, ``_`` in names becomes ``-``."""
    a = {_key(k): (v if v.__class__ is str else _fmt(v)) for k, v in attrs.items() if v is not None}
    qname = _TAGS.get(tag) or _TAGS.setdefault(tag, f"{{{SVG_NS}}}{tag}")
    e = etree.Element(qname, a, nsmap=_NSMAP) if parent is None else _SubElement(parent, qname, a)
    if text is not None:
        e.text = text
    return e


def _fmt(v: Any) -> str:
    if v.__class__ is float:
        if v.is_integer():
            return str(int(v))
        s = f"{v:.2f}".rstrip("0").rstrip(".")
        return s if s != "-0" else "0"
    return str(v)


@cache
def _stack(n: int, bottom: bool, fb: float, ft: float) -> tuple[str, ...]:
    """The y of each checker of a stack of n (as attribute text)."""
    step = _stack_step(n)
    return tuple(_fmt(fb - R - i * step if bottom else ft + R + i * step) for i in range(n))


@dataclass(frozen=True, slots=True)
class BoardScore:
    """The score as drawn: (A, B) pairs."""

    points: tuple[int, int] = (0, 0)
    bredouille: tuple[bool, bool] = (False, False)
    holes: tuple[int, int] = (0, 0)
    pavillon: tuple[bool, bool] = (False, False)

    @classmethod
    def of(cls, score: Any) -> BoardScore:
        if isinstance(score, BoardScore):
            return score
        if isinstance(score, PositionSpec):
            return cls(score.points, score.bredouille, score.holes, score.pavillon)
        try:
            a, b = score.a, score.b
            return cls(
                (int(a.points), int(b.points)),
                (bool(a.bredouille), bool(b.bredouille)),
                (int(a.holes), int(b.holes)),
                (bool(a.pavillon), bool(b.pavillon)),
            )
        except AttributeError:
            raise BoardError(f"not a score: {score!r}") from None


_MOVER_FRAMED: set[Any] = set()  # classes seen with mover / other / turn (replay Position)


def _raw_sides(pos: Any) -> tuple[tuple[int, ...], tuple[int, ...], str]:
    """(A counts, B counts, turn) of a PositionSpec or a replay Position, unchecked."""
    if pos.__class__ in _MOVER_FRAMED:
        turn = pos.turn
        a, b = (pos.mover, pos.other) if turn == "A" else (pos.other, pos.mover)
    elif isinstance(pos, PositionSpec):
        a, b, turn = pos.a, pos.b, pos.turn
    elif hasattr(pos, "mover") and hasattr(pos, "other") and hasattr(pos, "turn"):
        _MOVER_FRAMED.add(pos.__class__)
        turn = pos.turn
        a, b = (pos.mover, pos.other) if turn == "A" else (pos.other, pos.mover)
    else:
        raise BoardError(f"not a position: {pos!r}")
    return (a if a.__class__ is tuple else tuple(a)), (b if b.__class__ is tuple else tuple(b)), turn


def _check_counts(name: str, c: tuple[int, ...]) -> None:
    if len(c) != 26 or min(c) < 0:
        raise BoardError(f"side {name}: counts must be 26 non-negative numbers")


def _sides(pos: Any) -> tuple[tuple[int, ...], tuple[int, ...], str]:
    """(A counts, B counts, turn) of a PositionSpec or a replay Position."""
    a, b, turn = _raw_sides(pos)
    _check_counts("A", a)
    _check_counts("B", b)
    return a, b, turn


_SCORES: dict[tuple[Any, ...], BoardScore] = {}  # a score's values -> its BoardScore (few occur)


def score_of_state(score: Any) -> BoardScore:
    """``BoardScore.of`` a ledger's ``ScoreState`` (or anything with ``.a``/``.b``),
    one object per distinct score: a page's boards then compare scores by identity."""
    try:
        a, b = score.a, score.b
        key = (a.points, b.points, a.bredouille, b.bredouille, a.holes, b.holes, a.pavillon, b.pavillon)
    except AttributeError:
        return BoardScore.of(score)
    sc = _SCORES.get(key)
    if sc is None:
        sc = BoardScore.of(score)
        if len(_SCORES) < 4096:
            _SCORES[key] = sc
    return sc


def checker_count(svg: etree._Element) -> int:
    """How many checkers a board draws (for tests and sanity checks)."""
    return len(svg.xpath(".//*[contains(concat(' ', @class, ' '), ' checker ')]"))


def board_defs(*, standalone: bool = False, labels: bool = True) -> etree._Element:
    """The shared ``<defs>``: the empty tablier (bandes, flèches, holes, point
    numbers), checker faces, edge-on checkers, jeton, fichets, pavillon, arrow head.
    Put once on a page inside a zero-size ``<svg>`` and draw boards with
    ``defs=False`` (each board is then only its checkers and score); a standalone
    board carries its own."""
    svg = _el(
        None,
        "svg",
        width=0,
        height=0,
        aria_hidden="true",
        focusable="false",
        style=None if standalone else "position:absolute;width:0;height:0;overflow:hidden",
    )
    d = _el(svg, "defs")
    g = _Geometry("A", labels)
    _draw_table(_el(d, "g", id=_tablier_id(labels)), g)
    for side in "AB":
        fill = COLOURS[side]
        g = _el(d, "g", id=f"tt-dame-{side.lower()}")
        _el(g, "circle", r=R, fill=fill, stroke=COLOURS["stroke"], stroke_width=1.5)
        _el(g, "circle", r=R - 5, fill="none", stroke=COLOURS["stroke"], stroke_opacity=0.35, stroke_width=1)
        _el(
            d,
            "rect",
            id=f"tt-off-{side.lower()}",
            x=-R,
            y=-3,
            width=2 * R,
            height=6,
            rx=2,
            fill=fill,
            stroke=COLOURS["stroke"],
            stroke_width=1,
        )
        _el(d, "circle", id=f"tt-fichet-{side.lower()}", r=6, fill=fill, stroke=COLOURS["stroke"], stroke_width=2)
    _el(d, "circle", id="tt-jeton", r=9, fill=COLOURS["jeton"], stroke="#7a5a00", stroke_width=1.5)
    flag = _el(d, "g", id="tt-pavillon")
    _el(flag, "line", x1=0, y1=4, x2=0, y2=-16, stroke=COLOURS["stroke"], stroke_width=2)
    _el(
        flag, "path", d="M0,-16 L13,-11.5 L0,-7 Z", fill=COLOURS["pavillon"], stroke=COLOURS["stroke"], stroke_width=0.8
    )
    m = _el(
        d,
        "marker",
        id="tt-arrowhead",
        viewBox="0 0 10 10",
        refX=8,
        refY=5,
        markerWidth=5,
        markerHeight=5,
        orient="auto",
    )
    _el(m, "path", d="M0,0 L10,5 L0,10 Z", fill=COLOURS["arrow"])
    return svg


class _Geometry:
    """Screen coordinates for one orientation (``near`` = the side at the bottom)."""

    def __init__(self, near: str, labels: bool) -> None:
        self.near = near
        self.top = LABEL if labels else 0  # y of the outer top edge
        self.ft = self.top + RAIL  # field top
        self.fb = self.ft + FIELD_H  # field bottom
        self.mid = (self.ft + self.fb) / 2
        self.height = self.fb + RAIL + (LABEL if labels else 0)

    @staticmethod
    def col_x(col: int) -> float:
        """Centre x of column 0..11 (0 = talon end)."""
        return LEFT + col * PW + (BAR if col >= 6 else 0) + PW / 2

    def place(self, side: str, p: int) -> tuple[int, bool]:
        """(column, bottom row?) of ``side``'s own point p (1..24)."""
        near = side == self.near
        if p <= 12:
            return p - 1, near
        return 24 - p, not near

    @staticmethod
    def u_x(u: float) -> float:
        """x of a distance u (in flèche widths) from the talon-end bande."""
        if u == 6.0:
            return LEFT + 6 * PW + BAR / 2
        return LEFT + u * PW + (BAR if u > 6 else 0)


def _stack_step(n: int) -> float:
    return 2 * R if n <= 5 else (FL - 2 * R) / (n - 1)


def board_svg(
    position: Any,
    score: Any = None,
    *,
    size: int | None = None,
    orientation: str = "A",
    last_move: tuple[str, Sequence[tuple[int, int]]] | None = None,
    labels: bool = True,
    names: tuple[str, str] | None = None,
    defs: bool = True,
    id: str | None = None,
    title: str | None = None,
) -> etree._Element:
    """Draw the tablier of ``position`` with ``score`` on the bandes.

    ``position``: a ``PositionSpec`` or a replay ``Position``.  ``score``: a
    ``ScoreState`` (or ``BoardScore``); None takes the score of a ``PositionSpec``
    (nothing for a ``Position``).  ``orientation``: the side at the bottom ("A" or
    "B").  ``last_move``: ``(side, ((from, to), …))`` in that side's own frame
    (``to`` = 25 bears off), drawn as arrows.  ``names``: the players' names for
    the labels and the description (A, B).  ``defs=False`` references the shared
    defs of :func:`board_defs` instead of embedding them.  Returns an lxml
    ``<svg>`` element (see :func:`svg_text`).
    """
    if orientation not in ("A", "B"):
        raise BoardError(f"orientation must be 'A' or 'B', not {orientation!r}")
    a, b, turn = _sides(position)
    if score is None:
        sc = BoardScore.of(position) if isinstance(position, PositionSpec) else BoardScore()
    else:
        sc = BoardScore.of(score)
    counts = {"A": a, "B": b}
    g = _Geometry(orientation, labels)
    w, h = WIDTH, g.height
    svg = _el(
        None,
        "svg",
        viewBox=f"0 0 {w} {h}",
        width=size,
        height=None if size is None else round(size * h / w),
        role="img",
        id=id,
        class_="tt-board",
        aria_labelledby=f"{id}-title" if id else None,
    )
    _el(svg, "title", title or _title(turn, names), id=f"{id}-title" if id else None)
    _el(svg, "desc", _describe(a, b, turn, sc, names, position))
    if defs:
        svg.append(board_defs(standalone=True, labels=labels)[0])
    _el(svg, "use", href="#" + _tablier_id(labels), class_="tablier")
    _draw_checkers(svg, g, counts)
    svg.append(deepcopy(_score_group(sc, orientation, labels)))
    if last_move is not None:
        _draw_last_move(svg, g, counts, last_move)
    if labels:
        svg.append(deepcopy(_labels_group(orientation, turn, names)))
    return svg


@lru_cache(maxsize=512)
def _score_group(sc: BoardScore, near: str, labels: bool) -> etree._Element:
    """The score layer, built once per score (the score changes far less often than
    the checkers; boards of a page copy it)."""
    holder = _el(None, "svg")
    _draw_score(holder, _Geometry(near, labels), sc)
    return holder[0]


@lru_cache(maxsize=512)
def _labels_group(near: str, turn: str, names: tuple[str, str] | None) -> etree._Element:
    holder = _el(None, "svg")
    _draw_labels(holder, _Geometry(near, True), turn, names)
    return holder[0]


def _title(turn: str, names: tuple[str, str] | None) -> str:
    who = names[0 if turn == "A" else 1] if names else turn
    return clean(f"Trictrac position, {who} to play")


def _side_text(c: tuple[int, ...]) -> str:
    parts = [f"{c[p]} on {'talon' if p == 1 else 'coin' if p == 12 else p}" for p in range(1, 25) if c[p]]
    if c[25]:
        parts.append(f"{c[25]} borne off")
    return ", ".join(parts) or "no checkers"


def _score_text(sc: BoardScore, i: int) -> str:
    s = f"{sc.points[i]} points"
    if sc.bredouille[i] and sc.points[i]:
        s += " in bredouille"
    s += f", {sc.holes[i]} holes"
    if sc.pavillon[i] and sc.holes[i]:
        s += " with the pavillon"
    return s


def _describe(
    a: tuple[int, ...], b: tuple[int, ...], turn: str, sc: BoardScore, names: tuple[str, str] | None, position: Any
) -> str:
    na, nb = (clean(n) for n in names) if names else ("A", "B")
    lines = [
        f"A ({na}), own points: {_side_text(a)}.",
        f"B ({nb}), own points: {_side_text(b)}.",
        f"{turn} to play. Score: A {_score_text(sc, 0)}; B {_score_text(sc, 1)}.",
    ]
    if isinstance(position, PositionSpec):
        lines.append("Notation: " + write_position(position))
    return "\n".join(lines)


def _tablier_id(labels: bool) -> str:
    return "tt-tablier" if labels else "tt-tablier-plain"


def _draw_table(t: etree._Element, g: _Geometry) -> None:
    """The empty tablier: the same for every position (point numbers are in the near
    player's frame whoever he is, so the orientation does not change it)."""
    _el(t, "rect", x=0, y=g.top, width=WIDTH, height=g.fb + RAIL - g.top, rx=6, fill=COLOURS["bande"], class_="bande")
    _el(t, "rect", x=LEFT, y=g.ft, width=12 * PW + BAR, height=FIELD_H, fill=COLOURS["field"], class_="field")
    _el(t, "rect", x=LEFT + 6 * PW, y=g.ft, width=BAR, height=FIELD_H, fill=COLOURS["bar"], class_="bar")
    # flèches: alternating colours, and a player's light ones face the other's dark
    # ones (003 §10).
    for col in range(12):
        x0 = g.col_x(col) - PW / 2
        for bottom in (True, False):
            light = (col % 2 == 0) == bottom
            base, tip = (g.fb, g.fb - FL) if bottom else (g.ft, g.ft + FL)
            _el(
                t,
                "path",
                d=f"M{_fmt(x0 + 1.0)},{base} L{_fmt(x0 + PW / 2)},{tip} L{_fmt(x0 + PW - 1.0)},{base} Z",
                fill=COLOURS["fleche-light" if light else "fleche-dark"],
                class_="fleche",
            )
    # the holes: 12 in each long bande opposite the flèches, 3 in the short bande
    # by the talons (003 §11).
    holes = _el(t, "g", class_="holes", fill=COLOURS["hole"])
    for col in range(12):
        for y in (g.ft - RAIL / 2, g.fb + RAIL / 2):
            _el(holes, "circle", cx=g.col_x(col), cy=y, r=3.5)
    for y in _short_holes(g):
        _el(holes, "circle", cx=LEFT - 11, cy=y, r=3.5)
    if g.top:
        nums = _el(
            t,
            "g",
            class_="point-numbers",
            font_family="sans-serif",
            font_size=12,
            fill=COLOURS["text"],
            text_anchor="middle",
        )
        far = _el(
            t,
            "g",
            class_="point-numbers far",
            font_family="sans-serif",
            font_size=9,
            fill="#555555",
            text_anchor="middle",
        )
        for col in range(12):
            # the near player's number in bold, the far player's beside it (RULES.md
            # §2.2: the far player's 1..12 are the near player's 24..13)
            x = g.col_x(col)
            _el(nums, "text", str(col + 1), x=x - 5, y=g.height - 5, font_weight="bold")
            _el(far, "text", str(24 - col), x=x + 10, y=g.height - 5)
            _el(nums, "text", str(24 - col), x=x - 5, y=13, font_weight="bold")
            _el(far, "text", str(col + 1), x=x + 10, y=13)


def _short_holes(g: _Geometry) -> tuple[float, float, float]:
    """(near talon, middle, far talon) holes of the short bande."""
    return g.fb - 14, g.mid, g.ft + 14


def _draw_checkers(svg: etree._Element, g: _Geometry, counts: dict[str, tuple[int, ...]]) -> None:
    layer = _el(svg, "g", class_="checkers")
    use = f"{{{SVG_NS}}}use"
    for side in "AB":
        c = counts[side]
        href = f"#tt-dame-{side.lower()}"
        cls = f"checker {side.lower()}"
        for p in range(1, 25):
            n = c[p]
            if not n:
                continue
            col, bottom = g.place(side, p)
            x = g.col_x(col)
            xs = _fmt(x)
            ys = _stack(n, bottom, g.fb, g.ft)
            for y_text in ys:  # the hot loop of a page: one <use> per checker
                _SubElement(layer, use, {"href": href, "x": xs, "y": y_text, "class": cls})
            if n > 5:
                _el(
                    layer,
                    "text",
                    str(n),
                    x=x,
                    y=float(ys[-1]) + 5,
                    text_anchor="middle",
                    font_size=14,
                    font_weight="bold",
                    font_family="sans-serif",
                    fill=COLOURS["B" if side == "A" else "A"],
                    class_="count",
                )
        off = c[25]
        if off:
            bottom = side == g.near
            x = (LEFT - 22) / 2 + 2
            for i in range(off):
                y = g.fb - 30 - i * 8 if bottom else g.ft + 30 + i * 8
                _el(layer, "use", href=f"#tt-off-{side.lower()}", x=x, y=y, class_=f"checker off {side.lower()}")
            _el(
                layer,
                "text",
                str(off),
                x=x,
                y=(y - 12) if bottom else (y + 20),
                text_anchor="middle",
                font_size=12,
                font_family="sans-serif",
                fill="#ffffff",
                class_="count",
            )


def _jetons_used(sc: BoardScore, i: int) -> int:
    """Jetons a player marks with (003 §144): none without points; two when he has
    the bredouille and the other has points too; else one."""
    if sc.points[i] <= 0:
        return 0
    return 2 if sc.bredouille[i] and sc.points[1 - i] > 0 else 1


def _draw_score(svg: etree._Element, g: _Geometry, sc: BoardScore) -> None:
    """The score layer: one sub-group per part (each side's jetons, the jetons at
    rest, each side's fichet, the pavillon) so that boards of a page share parts."""
    layer = _el(svg, "g", class_="score")
    used = 0
    for i, side in enumerate("AB"):
        n = _jetons_used(sc, i)
        used += n
        if not n:
            continue
        part = _el(layer, "g")
        pts = sc.points[i]
        near = side == g.near
        y = g.mid + 13 if near else g.mid - 13
        x = g.u_x(_JETON_U.get(pts, 11.55))
        for k in range(n):
            _el(
                part,
                "use",
                href="#tt-jeton",
                x=x + 9 * k,
                y=y + (3 if near else -3) * k,
                class_=f"jeton {side.lower()}" + (" bredouille" if n == 2 else ""),
            )
        _el(
            part,
            "text",
            str(pts),
            x=x,
            y=y + (25 if near else -16),
            text_anchor="middle",
            font_size=12,
            font_family="sans-serif",
            fill=COLOURS["text"],
            class_="points-label",
        )
    # the jetons' own talon, by the short bande between the two talons (003 §175)
    if used < 3:
        part = _el(layer, "g")
        for k in range(3 - used):
            _el(part, "use", href="#tt-jeton", x=LEFT + 12, y=g.mid - 10 + 10 * k, class_="jeton rest")

    near_hole, mid_hole, far_hole = _short_holes(g)
    for i, side in enumerate("AB"):
        near = side == g.near
        holes = sc.holes[i]
        part = _el(layer, "g")
        if holes <= 0:
            x, y = LEFT - 11, near_hole if near else far_hole
        else:
            col = (holes - 1) % 12
            x, y = g.col_x(col), g.fb + RAIL / 2 if near else g.ft - RAIL / 2
        _el(part, "use", href=f"#tt-fichet-{side.lower()}", x=x, y=y, class_=f"fichet {side.lower()}")
        if holes > 0:
            _el(
                part,
                "text",
                str(holes),
                x=x + 9,
                y=y + 4,
                font_size=11,
                font_family="sans-serif",
                fill="#ffffff",
                class_="holes-label",
            )
    # pavillon (003 §223): by the talon of the player who has it while the other
    # has holes too; otherwise in the middle hole.
    owner = None
    for i, side in enumerate("AB"):
        if sc.pavillon[i] and sc.holes[i] > 0 and sc.holes[1 - i] > 0:
            owner = side
    y = mid_hole if owner is None else (near_hole if owner == g.near else far_hole)
    _el(
        _el(layer, "g"),
        "use",
        href="#tt-pavillon",
        x=LEFT - 11,
        y=y,
        class_="pavillon" + ("" if owner is None else f" {owner.lower()}"),
    )


def _point_xy(g: _Geometry, counts: dict[str, tuple[int, ...]], side: str, p: int) -> tuple[float, float]:
    if p >= 25:
        near = side == g.near
        return (LEFT - 22) / 2 + 2, (g.fb - 60 if near else g.ft + 60)
    col, bottom = g.place(side, p)
    y = g.fb - FL * 0.55 if bottom else g.ft + FL * 0.55
    return g.col_x(col), y


def _draw_last_move(
    svg: etree._Element,
    g: _Geometry,
    counts: dict[str, tuple[int, ...]],
    last_move: tuple[str, Sequence[tuple[int, int]]],
) -> None:
    side, moves = last_move
    if side not in ("A", "B"):
        raise BoardError(f"last_move side must be 'A' or 'B', not {side!r}")
    layer = _el(svg, "g", class_="last-move")
    for fr, to in moves:
        if not (1 <= fr <= 24 and 1 <= to <= 25):
            raise BoardError(f"last_move: bad move {fr}/{to}")
        x1, y1 = _point_xy(g, counts, side, fr)
        x2, y2 = _point_xy(g, counts, side, to)
        _el(
            layer,
            "line",
            x1=x1,
            y1=y1,
            x2=x2,
            y2=y2,
            stroke=COLOURS["arrow"],
            stroke_width=4,
            stroke_opacity=0.85,
            stroke_linecap="round",
            marker_end="url(#tt-arrowhead)",
        )


def _draw_labels(svg: etree._Element, g: _Geometry, turn: str, names: tuple[str, str] | None) -> None:
    """Each side's letter/name (the point numbers are part of the tablier)."""
    layer = _el(svg, "g", class_="labels", font_family="sans-serif", font_size=12, fill=COLOURS["text"])
    far = "B" if g.near == "A" else "A"
    for side, y in ((g.near, g.height - 5), (far, 13)):
        name = side if names is None else f"{side} {names[0 if side == 'A' else 1]}"
        label = clean(("\u25b6 " if side == turn else "") + name)
        size, shown = _label_fit(label)
        text = _el(
            layer,
            "text",
            None if shown != label else label,
            x=4,
            y=y,
            text_anchor="start",
            font_weight="bold" if side == turn else None,
            font_size=None if size == 12 else size,
            class_="side-label" + (" turn" if side == turn else ""),
        )
        if shown != label:  # cut to its margin: the whole label as the text's tooltip
            _el(text, "title", label).tail = shown


#: the label's room: from the board's left edge to the first point number
_LABEL_ROOM = LEFT + PW / 2 - 10
_EM = 0.62  # a bold sans-serif glyph's width, in font sizes (a generous estimate)


def _label_fit(label: str) -> tuple[float, str]:
    """The font size (12 down to 8) and text that fit the label in its margin, beside
    the point numbers and never over them; a name too long even at 8 is cut with « … »."""
    if len(label) * _EM * 12 <= _LABEL_ROOM:
        return 12, label
    size = max(8.0, _LABEL_ROOM / (len(label) * _EM))
    fits = int(_LABEL_ROOM / (_EM * size))
    return round(size, 1), label if len(label) <= fits else label[: fits - 1].rstrip() + "\u2026"


def svg_text(svg: etree._Element, *, xml_declaration: bool = True) -> str:
    """Serialise a standalone SVG document."""
    body = etree.tostring(svg, encoding="unicode", pretty_print=False)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' if xml_declaration else "") + body + "\n"


def iter_checkers(svg: etree._Element) -> Iterable[etree._Element]:
    return svg.xpath(".//*[contains(concat(' ', @class, ' '), ' checker ')]")


# --- the boards of a page: compact strings sharing definitions ---------------------

DICE_W = 52  # the dice column right of the board (page boards)
_PIPS = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


def _xml(e: etree._Element) -> str:
    return etree.tostring(e, encoding="unicode").replace(f' xmlns="{SVG_NS}"', "")


@cache
def _page_static_defs(labels: bool) -> str:
    """Tablier, checker faces, jeton, fichets, pavillon, arrow head, dice faces."""
    d = board_defs(labels=labels)[0]
    # short aliases: a page uses them thousands of times
    for alias, ref in (("ca", "tt-dame-a"), ("cb", "tt-dame-b"), ("T", _tablier_id(labels))):
        _el(d, "use", id=alias, href="#" + ref)
    for n, pips in _PIPS.items():
        die = _el(d, "g", id=f"tt-d{n}")
        _el(
            die,
            "rect",
            x=-13,
            y=-13,
            width=26,
            height=26,
            rx=5,
            fill="#fffdf5",
            stroke=COLOURS["stroke"],
            stroke_width=1.5,
        )
        for px, py in pips:
            _el(die, "circle", cx=px * 7, cy=py * 7, r=2.6, fill=COLOURS["stroke"])
    return "".join(_xml(c) for c in d)


@cache
def _stack_def(side: str, n: int, bottom: bool, labels: bool) -> str:
    """One side's stack of n checkers on a flèche (x = 0), drawn like board_svg draws it."""
    g = _Geometry("A", labels)
    s = side.lower()
    ys = _stack(n, bottom, g.fb, g.ft)
    body = "".join(f'<use href="#c{s}" y="{y}"/>' for y in ys)  # c{s}: the page's alias of the checker
    if n > 5:
        body += (
            f'<text class="count f" y="{_fmt(float(ys[-1]) + 5)}" text-anchor="middle" font-size="14" '
            f'font-weight="bold" font-family="sans-serif" fill="{COLOURS["B" if side == "A" else "A"]}">{n}</text>'
        )
    return f'<g id="{s}{n}{"b" if bottom else "t"}">{body}</g>'


@cache
def _off_def(side: str, n: int, labels: bool) -> str:
    """A side's n borne-off checkers on the short bande (A near in the page frame)."""
    g = _Geometry("A", labels)
    s = side.lower()
    bottom = side == "A"
    x = _fmt((LEFT - 22) / 2 + 2)
    ys = [g.fb - 30 - i * 8 if bottom else g.ft + 30 + i * 8 for i in range(n)]
    body = "".join(f'<use href="#tt-off-{s}" x="{x}" y="{_fmt(y)}"/>' for y in ys)
    ty = ys[-1] - 12 if bottom else ys[-1] + 20
    body += (
        f'<text class="count f" x="{x}" y="{_fmt(ty)}" text-anchor="middle" font-size="12" '
        f'font-family="sans-serif" fill="#ffffff">{n}</text>'
    )
    return f'<g id="{s}o{n}">{body}</g>'


def _score_keys(sc: BoardScore) -> tuple[tuple[Any, ...], ...]:
    """What each part of the score layer depends on, in :func:`_draw_score`'s order."""
    used = (_jetons_used(sc, 0), _jetons_used(sc, 1))
    keys: list[tuple[Any, ...]] = [("j", i, sc.points[i], used[i]) for i in (0, 1) if used[i]]
    if sum(used) < 3:
        keys.append(("rest", sum(used)))
    keys += [("f", 0, sc.holes[0]), ("f", 1, sc.holes[1])]
    owner = [i for i in (0, 1) if sc.pavillon[i] and sc.holes[i] > 0 and sc.holes[1 - i] > 0]
    keys.append(("pav", owner[-1] if owner else None))
    return tuple(keys)


_PARTS: dict[tuple[tuple[Any, ...], bool], str] = {}


def _score_parts(sc: BoardScore, labels: bool) -> tuple[str, ...]:
    """The parts of a score layer as SVG text, each drawn once by
    :func:`_draw_score` and kept by what it depends on (texts marked ``f``: kept
    upright when the page turns the board)."""
    keys = _score_keys(sc)
    try:
        return tuple(_PARTS[(k, labels)] for k in keys)
    except KeyError:
        pass
    e = deepcopy(_score_group(sc, "A", labels))  # the cached group stays as board_svg draws it
    assert len(e) == len(keys)
    for k, part in zip(keys, e):
        for t in part.iter(f"{{{SVG_NS}}}text"):
            t.set("class", t.get("class", "") + " f")
        _PARTS[(k, labels)] = "".join(_xml(c) for c in part)
    return tuple(_PARTS[(k, labels)] for k in keys)


@cache
def _arrow(side: str, fr: int, to: int, labels: bool) -> str:
    g = _Geometry("A", labels)
    x1, y1 = _point_xy(g, {}, side, fr)
    x2, y2 = _point_xy(g, {}, side, to)
    return f'<line x1="{_fmt(x1)}" y1="{_fmt(y1)}" x2="{_fmt(x2)}" y2="{_fmt(y2)}"/>'


class PageBoards:
    """The boards of one page as small SVG strings: every board is a ``<use>`` of
    the page's tablier, one ``<use>`` per side's checkers (a layer defined once per
    arrangement that occurs; a stack of n on a flèche defined once), one ``<use>``
    of the score (defined once per score that occurs), the arrows of the play and
    the dice thrown.  Drawn in A's frame; the page turns the moving layer (``g.m``)
    upside down by CSS to see it from B's side (texts in it carry class ``f`` to
    stay upright).  ``defs()`` gives the one hidden ``<svg>`` with the definitions
    the boards used; call it last.  Every definition is built once per page and kept
    as text (in trictrac only the mover's checkers change at a coup: the other
    side's layer, the score and the dice are mostly reused)."""

    def __init__(self, labels: bool = True) -> None:
        self.labels = labels
        self.g = _Geometry("A", labels)
        self.stacks: dict[str, None] = {}
        self.scores: dict[BoardScore, int] = {}
        self._defs_extra: list[str] = []
        self.parts: dict[str, str] = {}
        self.layers: dict[tuple[str, tuple[int, ...]], str] = {}
        self.at_a: dict[int, str] = {}
        self.at_b: dict[int, str] = {}
        self.view = f"0 0 {WIDTH + DICE_W} {_fmt(self.g.height)}"
        self.mirror = _fmt(self.g.ft + self.g.fb)
        self._head = f'<svg viewBox="{self.view}" role="img"><title>'
        self._last_score: tuple[BoardScore | None, str] = (None, "")
        self._arrows: dict[Any, str] = {}
        self._dice: dict[tuple[Any, str | None], str] = {}

    def board(
        self,
        position: Any,
        score: Any = None,
        *,
        last_move: tuple[str, Sequence[tuple[int, int]]] | None = None,
        dice: tuple[int, int] | None = None,
        roller: str | None = None,
        title: str = "",
        desc: bool = True,
    ) -> str:
        """One board's ``<svg>`` (``title`` is escaped by the caller)."""
        a, b, turn = _raw_sides(position)
        layers = self.layers
        la = layers.get(("A", a)) or self._layer("A", a)
        lb = layers.get(("B", b)) or self._layer("B", b)
        if score.__class__ is not BoardScore:
            score = (
                BoardScore.of(position)
                if score is None and isinstance(position, PositionSpec)
                else BoardScore()
                if score is None
                else BoardScore.of(score)
            )
        last_sc, sid = self._last_score
        if score is not last_sc:
            sid = self._score_id(score)
            self._last_score = (score, sid)
        d = f"<desc>{write_position(PositionSpec(a, b, turn=turn))}</desc>" if desc else ""
        arrows = "" if last_move is None else self._arrow_layer(last_move)
        die = "" if dice is None else self._dice_use(dice, roller)
        return (
            f'{self._head}{title}</title>{d}<use href="#T"/><g class="m"><use href="#{la}"/><use href="#{lb}"/>'
            f'<use href="#{sid}"/>{arrows}{die}</g></svg>'
        )

    def _layer(self, side: str, c: tuple[int, ...]) -> str:
        """The id of a side's checkers (a ``<g>`` of its stacks), defined on first use."""
        _check_counts(side, c)
        s = side.lower()
        lid = self.layers[(side, c)] = f"k{len(self.layers)}"
        at_of = self.at_a if side == "A" else self.at_b  # (point, checkers) -> the stack's <use>
        uses = [at_of.get(p * 32 + n) or self._stack_at(side, p, n) for p, n in enumerate(c) if n and 0 < p < 25]
        if c[25]:
            key = f"{s}o{c[25]}"
            if key not in self.stacks:
                self.stacks[key] = None
                self._defs_extra.append(_off_def(side, c[25], self.labels))
            uses.append(f'<use href="#{key}"/>')
        self._defs_extra.append(f'<g id="{lid}">{"".join(uses)}</g>')
        return lid

    def _score_id(self, sc: BoardScore) -> str:
        """The id of a score layer (its parts shared between scores), defined on first use."""
        k = self.scores.get(sc)
        if k is None:
            k = self.scores[sc] = len(self.scores)
            refs = []
            for part in _score_parts(sc, self.labels):
                pid = self.parts.get(part)
                if pid is None:
                    pid = self.parts[part] = f"p{len(self.parts)}"
                    self._defs_extra.append(f'<g id="{pid}">{part}</g>')
                refs.append(f'<use href="#{pid}"/>')
            self._defs_extra.append(f'<g id="sc{k}">{"".join(refs)}</g>')
        return f"sc{k}"

    def _arrow_layer(self, last_move: tuple[str, Sequence[tuple[int, int]]]) -> str:
        """The arrows of a play (kept by the play; a list of moves is drawn anew)."""
        try:
            text = self._arrows.get(last_move)
        except TypeError:
            return self._draw_arrows(last_move)
        if text is None:
            text = self._arrows[last_move] = self._draw_arrows(last_move)
        return text

    def _draw_arrows(self, last_move: tuple[str, Sequence[tuple[int, int]]]) -> str:
        side, moves = last_move
        if side not in ("A", "B"):
            raise BoardError(f"last_move side must be 'A' or 'B', not {side!r}")
        arrows = []
        for fr, to in moves:
            if not (1 <= fr <= 24 and 1 <= to <= 25):
                raise BoardError(f"last_move: bad move {fr}/{to}")
            arrows.append(_arrow(side, fr, to, self.labels))
        return f'<g class="last-move">{"".join(arrows)}</g>'

    def _dice_use(self, dice: tuple[int, int], roller: str | None) -> str:
        """The throw, by the roller's side of the board (kept by throw and roller)."""
        try:
            text = self._dice.get((dice, roller))
        except TypeError:  # dice given as a list
            return self._define_dice(dice, roller)
        if text is None:
            text = self._dice[(dice, roller)] = self._define_dice(dice, roller)
        return text

    def _define_dice(self, dice: Sequence[int], roller: str | None) -> str:
        key = f"d{'b' if roller == 'B' else 'a'}{dice[0]}{dice[1]}"
        if key not in self.stacks:
            self.stacks[key] = None
            x = _fmt(WIDTH + DICE_W / 2)
            y = self.g.fb - 60 if roller != "B" else self.g.ft + 30
            self._defs_extra.append(
                f'<g id="{key}" class="dice"><use href="#tt-d{dice[0]}" x="{x}" y="{_fmt(y)}"/>'
                f'<use href="#tt-d{dice[1]}" x="{x}" y="{_fmt(y + 32)}"/></g>'
            )
        return f'<use href="#{key}"/>'

    def _stack_at(self, side: str, p: int, n: int) -> str:
        """The ``<use>`` of n of ``side``'s checkers on his point p, defining on the
        page the stack (once a size and row) and the stack on its flèche."""
        col, bottom = self.g.place(side, p)
        key = f"{side.lower()}{n}{'b' if bottom else 't'}"
        if key not in self.stacks:
            self.stacks[key] = None
            self._defs_extra.append(_stack_def(side, n, bottom, self.labels))
        at = f"{key}{col}"
        self._defs_extra.append(f'<use id="{at}" href="#{key}" x="{_fmt(self.g.col_x(col))}"/>')
        use = (self.at_a if side == "A" else self.at_b)[p * 32 + n] = f'<use href="#{at}"/>'
        return use

    def defs(self) -> str:
        return (
            '<svg class="tt-defs" width="0" height="0" aria-hidden="true" focusable="false" '
            'style="position:absolute;width:0;height:0;overflow:hidden"><defs>'
            + _page_static_defs(self.labels)
            + "".join(self._defs_extra)
            + "</defs></svg>"
        )


_STACK_ID = re.compile(r"([ab])(o?)(\d+)([bt]?)")


def page_checkers(svg: Any) -> list[tuple[str, str, int]]:
    """The stacks a page board draws, following the page's definitions (layers,
    stacks on their flèche): sorted (stack id, x, checkers).  For tests; works on
    lxml.html and lxml.etree trees."""
    ids = {e.get("id"): e for e in svg.getroottree().iter() if isinstance(e.tag, str) and e.get("id")}
    out: list[tuple[str, str, int]] = []

    def walk(el: Any, x: str) -> None:
        for e in el.iter():
            if not isinstance(e.tag, str):
                continue
            href = e.get("href") or ""
            if not href.startswith("#") or href.startswith("#tt-"):
                continue
            m = _STACK_ID.fullmatch(href[1:])
            if m:
                out.append((href[1:], e.get("x") or x, int(m.group(3))))
            elif href[1] in "kab" and href[1:] in ids and ids[href[1:]] is not e:
                walk(ids[href[1:]], e.get("x") or x)

    walk(svg, "")
    return sorted(out)
