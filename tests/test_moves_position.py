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


def test_no_excluded_play_leaves_the_position_as_it_was_when_both_numbers_can_be_played() -> None:
    """``judge_play`` judges an empty written play (a record wrong on every coup) without
    enumerating the plays the obligations removed when both numbers can be played: none
    of those leaves the position as it was (each moves a checker forward).  Checked on
    every throw of the positions of random games."""
    import random

    from trictrac.replay.rules.moves import judge_play, legal_plays
    from trictrac.replay.rules.position import start_position
    from trictrac.replay.rules.scoring import play_outcome

    rnd = random.Random(27)
    rolls = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
    checked = 0
    for _game in range(12):
        pos = start_position(rnd.choice("AB"))
        for _coup in range(120):
            for roll in rolls:
                ps = legal_plays(pos, roll)
                if ps.plays and len(ps.plays[0].numbers) == 2:
                    checked += 1
                    assert all(pl.result != pos.mover for pl, _why in ps.excluded()), (pos, roll)
                    j = judge_play(pos, roll, ())
                    assert not j.legal and j.violation == "both-numbers" and j.play is not None
            roll = rnd.choice(rolls)
            ps = legal_plays(pos, roll)
            if not ps.plays or not ps.plays[0].steps:
                break
            _, pos = play_outcome(pos, roll, rnd.choice(ps.plays))
    assert checked > 5_000
