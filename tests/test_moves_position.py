"""Position <-> PositionSpec conversions (issue 2, "Position"; RULES.md §2.2, §4.6)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from moves_helpers import reachable

from trictrac.notation.position import parse_position, write_position
from trictrac.replay.rules.ledger import PlayerScore, ScoreState
from trictrac.replay.rules.position import Position

CANONICAL = "A{1:13,12:2} B{1:15} turn=B coups=1/1 coin=1/0 jans=deux-tables/- points=4b/0 holes=2p/0"


def test_from_spec_sees_the_position_from_the_side_to_move() -> None:
    spec, diags = parse_position(CANONICAL)
    assert not diags and spec is not None
    pos = Position.from_spec(spec)
    assert pos.turn == "B"
    assert pos.mover == spec.b and pos.other == spec.a
    assert (pos.mover_coups, pos.other_coups) == (1, 1)
    assert (pos.mover_coin_taken, pos.other_coin_taken) == (False, True)
    assert pos.other_jans == frozenset({"jan-de-deux-tables"}) and pos.mover_jans == frozenset()


def test_to_spec_round_trips_the_canonical_example_with_its_score() -> None:
    spec, _ = parse_position(CANONICAL)
    pos = Position.from_spec(spec)
    score = ScoreState(PlayerScore(4, True, 2, True), PlayerScore())
    assert pos.to_spec(score) == spec
    assert write_position(pos.to_spec(score)) == CANONICAL
    assert pos.to_spec().points == (0, 0)


@settings(max_examples=60, deadline=None)
@given(reachable(), st.booleans(), st.integers(0, 3), st.integers(0, 3))
def test_spec_round_trip_of_reachable_positions(pos: Position, swap: bool, ca: int, cb: int) -> None:
    if swap:
        pos = pos.swapped()
    pos = Position(
        pos.mover,
        pos.other,
        pos.turn,
        ca,
        cb,
        bool(ca % 2),
        bool(cb % 2),
        frozenset({"jan-de-trois-coups"}) if ca else frozenset(),
        frozenset(),
    )
    spec = pos.to_spec()
    assert Position.from_spec(spec) == pos
    back, diags = parse_position(write_position(spec))
    assert not diags and Position.from_spec(back) == pos
