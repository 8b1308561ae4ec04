"""The SVG tablier: checkers where RULES.md §2 puts them, and the score as the table
shows it (jetons, fichets, pavillon; RULES.md §5.1-§5.4, 003 §141-144, §175, §223)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree

from trictrac.notation.position import PositionSpec, parse_position, write_position
from trictrac.publish.board import (
    BAR,
    LEFT,
    PW,
    SVG_NS,
    BoardError,
    board_svg,
    checker_count,
    svg_text,
)
from trictrac.replay.rules.position import Position, start_position

NS = {"s": SVG_NS}


def spec(text: str) -> PositionSpec:
    s, diags = parse_position(text)
    assert s is not None, diags
    return s


def uses(svg: etree._Element, cls: str) -> list[etree._Element]:
    return svg.xpath(f".//s:use[contains(concat(' ', @class, ' '), ' {cls} ')]", namespaces=NS)


def xy(e: etree._Element) -> tuple[float, float]:
    return float(e.get("x")), float(e.get("y"))


def col_x(col: int) -> float:
    return LEFT + col * PW + (BAR if col >= 6 else 0) + PW / 2


def test_start_position_draws_thirty_checkers_on_the_two_talons_at_the_same_end() -> None:
    """RULES.md §2.1 (003 §13, §26): both talons at the same (left) end."""
    svg = board_svg(spec("A{1:15} B{1:15}"))
    assert checker_count(svg) == 30
    a, b = uses(svg, "a"), uses(svg, "b")
    a = [e for e in a if "checker" in e.get("class")]
    b = [e for e in b if "checker" in e.get("class")]
    assert len(a) == len(b) == 15
    assert {xy(e)[0] for e in a} == {col_x(0)} == {xy(e)[0] for e in b}
    mid = float(svg.get("viewBox").split()[3]) / 2
    assert all(xy(e)[1] > mid for e in a) and all(xy(e)[1] < mid for e in b)
    # tall stacks carry their count
    assert sorted(t.text for t in svg.xpath(".//s:text[@class='count']", namespaces=NS)) == ["15", "15"]


def test_coins_face_each_other_at_the_other_end() -> None:
    """RULES.md §2.1-2.2: A's coin (12) and B's coin (12) in the last column."""
    svg = board_svg(spec("A{1:13,12:2} B{1:13,12:2}"))
    coin = [xy(e) for e in uses(svg, "checker") if xy(e)[0] == col_x(11)]
    assert len(coin) == 4
    ys = sorted(y for _, y in coin)
    mid = float(svg.get("viewBox").split()[3]) / 2
    assert ys[1] < mid < ys[2]


def test_a_checker_in_the_opponents_tables_is_drawn_on_his_side() -> None:
    """RULES.md §2.2: A's point p is B's point 25-p (A's 19 = B's 6, top row col 5)."""
    svg = board_svg(spec("A{1:14,19:1} B{1:15}"))
    lone = [xy(e) for e in uses(svg, "a") if "checker" in e.get("class") and xy(e)[0] == col_x(5)]
    mid = float(svg.get("viewBox").split()[3]) / 2
    assert len(lone) == 1 and lone[0][1] < mid


def test_orientation_b_puts_b_at_the_bottom_left() -> None:
    svg = board_svg(spec("A{1:15} B{1:15}"), orientation="B")
    mid = float(svg.get("viewBox").split()[3]) / 2
    b = [xy(e) for e in uses(svg, "b") if "checker" in e.get("class")]
    assert all(y > mid and x == col_x(0) for x, y in b)


def test_borne_off_checkers_lie_on_the_bande_by_the_talons() -> None:
    """RULES.md §1.1 bande, §3.10 (003 §108, §115): borne off over the short bande AD."""
    svg = board_svg(spec("A{19:2,20:2,21:2,22:2,23:2,24:2,25:3} B{7:15}"))
    off = [xy(e) for e in uses(svg, "off")]
    assert len(off) == 3 and all(x < LEFT for x, _ in off)
    assert checker_count(svg) == 30


def test_replay_position_is_drawn_from_each_sides_frame() -> None:
    pos = Position.from_points({1: 13, 12: 2}, {1: 15}, turn="B")  # mover B
    svg = board_svg(pos)
    a_coin = [e for e in uses(svg, "a") if "checker" in e.get("class") and xy(e)[0] == col_x(11)]
    assert len(a_coin) == 0  # the mover is B: B has 13+2, A (other) 15 on the talon
    b_coin = [e for e in uses(svg, "b") if "checker" in e.get("class") and xy(e)[0] == col_x(11)]
    assert len(b_coin) == 2
    assert checker_count(board_svg(start_position("A"))) == 30


# --- the score -----------------------------------------------------------------------


def jetons(svg: etree._Element) -> dict[str, list[tuple[float, float]]]:
    out: dict[str, list[tuple[float, float]]] = {"a": [], "b": [], "rest": []}
    for e in uses(svg, "jeton"):
        for k in out:
            if k in e.get("class").split():
                out[k].append(xy(e))
    return out


@pytest.mark.parametrize(
    ("points", "expect"),
    [
        ("0/0", (0, 0, 3)),  # all three jetons on their talon (003 §175)
        ("4b/0", (1, 0, 2)),  # the first to score marks with one jeton (003 §144)
        ("4/6b", (1, 2, 0)),  # the second to score, in bredouille, with two
        ("4/6", (1, 1, 1)),  # both débredouillés: one jeton at the talon (003 §144)
    ],
)
def test_jetons_per_003_144(points: str, expect: tuple[int, int, int]) -> None:
    svg = board_svg(spec(f"A{{1:15}} B{{1:15}} points={points}"))
    j = jetons(svg)
    assert (len(j["a"]), len(j["b"]), len(j["rest"])) == expect


def test_jeton_places_per_003_141() -> None:
    """2 and 4 at a third and two thirds of the first table, 6 by the bar in the first
    table, 8 by the bar in the second, 10 by the bande at the coin end."""
    xs = {}
    for n in (2, 4, 6, 8, 10):
        xs[n] = jetons(board_svg(spec(f"A{{1:15}} B{{1:15}} points={n}/0")))["a"][0][0]
    bar_left, bar_right = LEFT + 6 * PW, LEFT + 6 * PW + BAR
    assert xs[2] == LEFT + 2 * PW and xs[4] == LEFT + 4 * PW
    assert xs[4] < xs[6] < bar_left < bar_right < xs[8] < xs[10] < LEFT + 12 * PW + BAR


def test_fichets_in_the_holes_of_each_players_rail() -> None:
    """003 §142: the fichet in the n-th of the 12 holes in front of the player; with no
    hole it stands in the short bande by his talon (003 §175)."""
    svg = board_svg(spec("A{1:15} B{1:15} holes=3/0"))
    fa = [xy(e) for e in uses(svg, "fichet") if "a" in e.get("class").split()]
    fb = [xy(e) for e in uses(svg, "fichet") if "b" in e.get("class").split()]
    mid = float(svg.get("viewBox").split()[3]) / 2
    assert fa[0][0] == col_x(2) and fa[0][1] > mid
    assert fb[0][0] < LEFT and fb[0][1] < mid
    svg = board_svg(spec("A{1:15} B{1:15} holes=14/12"))
    fa = [xy(e) for e in uses(svg, "fichet") if "a" in e.get("class").split()]
    fb = [xy(e) for e in uses(svg, "fichet") if "b" in e.get("class").split()]
    assert fa[0][0] == col_x(1) and fb[0][0] == col_x(11)  # round again past twelve


@pytest.mark.parametrize(
    ("holes", "owner"),
    [("2p/0", None), ("3/5p", "b"), ("4p/1", "a"), ("3/5", None)],
)
def test_pavillon_per_003_223(holes: str, owner: str | None) -> None:
    """In the middle hole when only one player has holes or both are débredouillés;
    by the talon of the player who took holes second without interruption."""
    svg = board_svg(spec(f"A{{1:15}} B{{1:15}} holes={holes}"))
    (p,) = uses(svg, "pavillon")
    cls = p.get("class").split()
    mid = float(svg.get("viewBox").split()[3]) / 2
    if owner is None:
        assert cls == ["pavillon"] and xy(p)[1] == mid
    else:
        assert owner in cls and ((xy(p)[1] > mid) == (owner == "a"))


def test_description_and_title_say_the_position_and_the_score() -> None:
    svg = board_svg(spec("A{1:13,12:2} B{1:15} turn=B coups=1/1 points=4b/0 holes=2p/0"), names=("Ann", "Bob"))
    title = svg.find("s:title", NS).text
    desc = svg.find("s:desc", NS).text
    assert "Bob to play" in title
    assert "2 on coin" in desc and "4 points in bredouille" in desc and "2 holes with the pavillon" in desc
    assert "Notation: A{1:13,12:2} B{1:15} turn=B" in desc


def test_names_are_text_not_markup() -> None:
    svg = board_svg(spec("A{1:15} B{1:15}"), names=("<script>alert(1)</script>", "B&B"))
    text = svg_text(svg)
    assert "<script>" not in text and "&lt;script&gt;" in text
    root = etree.fromstring(text.encode())
    assert not root.xpath(".//*[local-name()='script']")


@pytest.mark.parametrize("name", ["Dupont", "Lelasseux", "Lelasseux-Lafosse", "Jean-Baptiste de la Rochefoucauld"])
def test_a_side_label_stays_beside_the_point_numbers(name: str) -> None:
    """A name fits the margin before the first point number (smaller, then cut with a
    tooltip holding it whole); it never runs over the numbers."""
    from trictrac.publish.board import LEFT, PW

    svg = board_svg(spec("A{1:15} B{1:15} turn=A"), names=(name, "Bob"))
    label = svg.xpath(".//s:text[contains(@class, 'turn')]", namespaces=NS)[0]
    shown = "".join(label.xpath("text()"))
    size = float(label.get("font-size", 12))
    assert 8 <= size <= 12 and len(shown) * 0.6 * size <= LEFT + PW / 2 - 8, (shown, size)
    whole = "\u25b6 A " + name
    title = label.find("s:title", NS)
    assert shown == whole if title is None else (title.text == whole and shown.endswith("\u2026"))
    assert shown.rstrip("\u2026") == whole[: len(shown.rstrip("\u2026"))]


def test_last_move_arrows_and_standalone_document() -> None:
    svg = board_svg(spec("A{1:13,4:1,6:1} B{1:15} turn=B"), last_move=("A", ((1, 4), (1, 6))), size=300)
    assert len(svg.xpath(".//s:g[@class='last-move']/s:line", namespaces=NS)) == 2
    root = etree.fromstring(svg_text(svg).encode())
    assert root.tag == f"{{{SVG_NS}}}svg" and root.get("width") == "300"
    ids = {e.get("id") for e in root.iter() if e.get("id")}
    refs = {e.get("href")[1:] for e in root.iter() if e.get("href")}
    assert refs <= ids  # every <use> resolves inside the document


def test_misuse_raises_value_errors() -> None:
    with pytest.raises(BoardError):
        board_svg("A{1:15} B{1:15}")
    with pytest.raises(BoardError):
        board_svg(spec("A{1:15} B{1:15}"), orientation="C")
    with pytest.raises(ValueError):
        board_svg(spec("A{1:15} B{1:15}"), last_move=("A", ((0, 30),)))


@st.composite
def positions(draw: st.DrawFn) -> PositionSpec:
    """Random possible positions (15 checkers a side, RULES.md §3.3 L1-L3 kept)."""
    a = [0] * 26
    b = [0] * 26
    # point sets chosen so that no flèche can hold both sides (A's p = B's 25-p)
    for counts, points in ((a, [1, 2, 4, 6, 9, 12, 14, 16, 20, 25]), (b, [1, 3, 6, 8, 10, 12, 15, 17, 25])):
        for _ in range(15):
            counts[draw(st.sampled_from(points))] += 1
        if counts[12] == 1:  # no lone checker on a coin (L3): put it back on the talon
            counts[12], counts[1] = 0, counts[1] + 1
    pts = draw(st.tuples(st.integers(0, 11), st.integers(0, 11)))
    holes = draw(st.tuples(st.integers(0, 20), st.integers(0, 20)))
    return PositionSpec(
        tuple(a),
        tuple(b),
        turn=draw(st.sampled_from("AB")),
        points=pts,
        bredouille=(draw(st.booleans()), False),
        holes=holes,
        pavillon=(False, draw(st.booleans())),
    )


@given(positions())
def test_every_position_draws_each_checker_once(s: PositionSpec) -> None:
    assert parse_position(write_position(s))[0] == s
    svg = board_svg(s)
    assert checker_count(svg) == 30
    assert len(uses(svg, "off")) == s.a[25] + s.b[25]
    assert len(uses(svg, "jeton")) == 3  # the three jetons, on the board or at their talon
    assert len(uses(svg, "fichet")) == 2 and len(uses(svg, "pavillon")) == 1


def test_without_labels_the_board_is_smaller_and_still_complete() -> None:
    s = spec("A{1:13,12:2} B{1:15} points=2/0 holes=1/0")
    plain, labelled = board_svg(s, labels=False), board_svg(s)
    assert float(plain.get("viewBox").split()[3]) < float(labelled.get("viewBox").split()[3])
    assert plain.xpath(".//s:g[@class='labels']", namespaces=NS) == []
    assert checker_count(plain) == 30 and len(uses(plain, "jeton")) == 3
    root = etree.fromstring(svg_text(plain).encode())
    ids = {e.get("id") for e in root.iter() if e.get("id")}
    assert {e.get("href")[1:] for e in root.iter() if e.get("href")} <= ids
