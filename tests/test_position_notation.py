"""The one-line position notation (issue 2; docs/notation.md "Position notation")."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trictrac.notation.position import (
    JAN_NAMES,
    START_SPEC,
    PositionSpec,
    parse_position,
    write_position,
)

CANON = "A{1:13,12:2} B{1:15} turn=B coups=1/1 coin=1/0 jans=deux-tables/- points=4b/0 holes=2p/0"


def codes(text: str) -> list[tuple[int, str]]:
    spec, diags = parse_position(text)
    return [(d.span.col, d.code) for d in diags]


def test_canonical_example_round_trip() -> None:
    spec, diags = parse_position(CANON)
    assert diags == []
    assert spec is not None
    assert spec.a[1] == 13 and spec.a[12] == 2 and sum(spec.a) == 15
    assert spec.b[1] == 15
    assert spec.turn == "B"
    assert spec.coups == (1, 1)
    assert spec.coin_taken == (True, False)
    assert spec.jans == (frozenset({"deux-tables"}), frozenset())
    assert spec.points == (4, 0) and spec.bredouille == (True, False)
    assert spec.holes == (2, 0) and spec.pavillon == (True, False)
    assert write_position(spec) == CANON


def test_start_position_is_two_fields() -> None:
    assert write_position(START_SPEC) == "A{1:15} B{1:15}"
    assert parse_position("A{1:15} B{1:15}") == (START_SPEC, [])


def test_borne_off_is_point_25() -> None:
    spec, diags = parse_position("A{24:3,25:12} B{19:15}")
    assert diags == [] and spec is not None
    assert spec.a[25] == 12 and spec.a[24] == 3


def test_sixteen_checkers_is_an_error_at_the_side() -> None:
    assert codes("A{1:14} B{1:16}") == [(1, "position-checker-count"), (9, "position-checker-count")]


def test_lone_checker_on_coin_L3() -> None:
    # RULES.md §3.3 L3: the coin holds two checkers or none
    assert codes("A{1:14,12:1} B{1:15}") == [(8, "position-lone-coin")]


def test_checkers_on_opponent_coin_L2() -> None:
    assert codes("A{1:13,13:2} B{1:15}") == [(8, "position-opponent-coin")]


def test_point_held_by_both_sides_L1() -> None:
    # A's point 10 is B's point 15 (RULES.md §2.2)
    assert codes("A{1:13,10:2} B{1:13,15:2}") == [(21, "position-point-shared")]
    # A's 9 and B's 15 are different flèches
    assert codes("A{1:13,9:2} B{1:13,15:2}") == []


def test_unknown_tokens_and_keys_carry_their_column() -> None:
    assert codes("A{1:15} B{1:15} tour=B x") == [(17, "position-unknown-key"), (24, "position-unknown-token")]


@pytest.mark.parametrize(
    "text, col, code",
    [
        ("A{1:15} B{1:15} points=12/0", 24, "position-bad-number"),
        ("A{1:15} B{1:15} holes=x/1", 23, "position-bad-number"),
        ("A{1:15} B{1:15} coups=1", 23, "position-bad-value"),
        ("A{1:15} B{1:15} turn=C", 22, "position-bad-value"),
        ("A{1:15} B{1:15} coin=2/0", 22, "position-bad-number"),
        ("A{1:15} B{1:15} jans=-/foo", 24, "position-unknown-jan"),
        ("A{0:15} B{1:15}", 3, "position-bad-number"),
        ("A{1:15,1:0} B{1:15}", 8, "position-bad-number"),
        ("A{1:x} B{1:15}", 3, "position-bad-number"),
        ("A{1:10,1:5} B{1:15}", 8, "position-duplicate"),
        ("A{1:15} A{1:15}", 9, "position-duplicate"),
        ("A{1:15", 1, "position-unclosed"),
        ("C{1:15} A{1:15} B{1:15}", 1, "position-unknown-token"),
    ],
)
def test_errors_with_column(text: str, col: int, code: str) -> None:
    spec, diags = parse_position(text)
    assert spec is None
    assert (diags[0].span.col, diags[0].code) == (col, code)


def test_column_offset_places_errors_in_the_file() -> None:
    _, diags = parse_position("A{1:15} B{1:15} x", file="f.trn", line=3, col=12)
    assert [(d.file, d.span.line, d.span.col) for d in diags] == [("f.trn", 3, 28)]
    assert diags[0].render() == "f.trn:3:28: error: position-unknown-token: unknown token 'x'"


def test_spaces_inside_braces_and_key_order_are_tolerated() -> None:
    spec, diags = parse_position("B{ 1:15 } holes=0/1 A{12:2, 1:13} turn=b")
    assert diags == [] and spec is not None
    assert write_position(spec) == "A{1:13,12:2} B{1:15} turn=B holes=0/1"


def test_full_jan_names_are_accepted() -> None:
    spec, _ = parse_position("A{1:15} B{1:15} jans=jan-de-mezeas+trois-coups/contre-jan-de-deux-tables")
    assert spec is not None
    assert spec.jans == (frozenset({"mezeas", "trois-coups"}), frozenset({"contre-deux-tables"}))
    assert write_position(spec).endswith("jans=mezeas+trois-coups/contre-deux-tables")


def test_multiline_is_an_error() -> None:
    assert parse_position("A{1:15}\nB{1:15}")[0] is None


# --- properties ------------------------------------------------------------------------


@st.composite
def boards(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Two sides of 15 checkers obeying L1-L3 (not necessarily reachable)."""
    a = [0] * 26
    b = [0] * 26
    for counts, other in ((a, b), (b, a)):
        left = 15
        while left:
            p = draw(st.sampled_from([1, 2, 5, 6, 7, 11, 12, 14, 18, 19, 23, 24, 25]))
            if p == 13 or (p < 25 and other[25 - p]):
                p = 25
            n = draw(st.integers(1, left))
            counts[p] += n
            left -= n
        if counts[12] == 1:
            counts[12] = 0
            counts[25] += 1
    return tuple(a), tuple(b)


jan_sets = st.frozensets(st.sampled_from(sorted(JAN_NAMES)), max_size=2)


@st.composite
def specs(draw: st.DrawFn) -> PositionSpec:
    a, b = draw(boards())
    pair = lambda s: st.tuples(s, s)  # noqa: E731
    return PositionSpec(
        a,
        b,
        turn=draw(st.sampled_from("AB")),
        coups=draw(pair(st.integers(0, 40))),
        coin_taken=draw(pair(st.booleans())),
        jans=draw(pair(jan_sets)),
        points=draw(pair(st.integers(0, 11))),
        bredouille=draw(pair(st.booleans())),
        holes=draw(pair(st.integers(0, 12))),
        pavillon=draw(pair(st.booleans())),
    )


@settings(max_examples=300, deadline=None)
@given(specs())
def test_round_trip_spec(spec: PositionSpec) -> None:
    text = write_position(spec)
    back, diags = parse_position(text)
    assert diags == []
    assert back == spec
    assert write_position(back) == text


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_never_raises_on_random_text(text: str) -> None:
    spec, diags = parse_position(text)
    assert (spec is None) == any(d.severity == "error" for d in diags)
    for d in diags:
        assert d.span.col >= 1
    if spec is not None:
        assert parse_position(write_position(spec))[0] == spec


@settings(max_examples=200, deadline=None)
@given(specs(), st.integers(0, 200), st.characters(blacklist_categories=("Cs",)))
def test_mutations_never_raise(spec: PositionSpec, at: int, ch: str) -> None:
    text = write_position(spec)
    at %= len(text) + 1
    parse_position(text[:at] + ch + text[at:])
    parse_position(text[:at])
