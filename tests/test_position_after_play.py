"""``position.after_play`` (the position after a play, built through the slots for
speed, issue 17) equals the dataclass it stands for, hashes alike and stays frozen."""

from __future__ import annotations

import dataclasses

import pytest

from trictrac.bench.judge import game_coups
from trictrac.replay.rules.position import Position, after_play
from trictrac.replay.rules.scoring import _event, _total, next_position


def test_after_play_is_the_swapped_position() -> None:
    seen = 0
    for pos, _roll, play, _unplayable, _profile in game_coups(3):
        r = play.result
        jans = pos.mover_jans | {"jan-de-mezeas"} if seen % 3 == 0 else pos.mover_jans
        built = after_play(pos, r, jans)
        ref = Position(
            pos.other,
            r,
            "B" if pos.turn == "A" else "A",
            pos.other_coups,
            pos.mover_coups + 1,
            pos.other_coin_taken,
            pos.mover_coin_taken or r[12] >= 2,
            pos.other_jans,
            jans,
        )
        assert built == ref and hash(built) == hash(ref) and repr(built) == repr(ref)
        seen += 1
        if seen == 2000:
            break
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.turn = "A"  # type: ignore[misc]


def test_next_position_still_swaps_and_counts() -> None:
    for pos, roll, play, _unplayable, profile in game_coups(5):
        nxt = next_position(pos, roll, play, profile)
        assert nxt.mover == pos.other and nxt.other == play.result and nxt.other_coups == pos.mover_coups + 1
        assert nxt.turn != pos.turn
        break


def test_score_built_through_slots_is_the_dataclass() -> None:
    events = [_event("mover", "battre-a-vrai", 1, 4, target=5), _event("other", "impuissance", 1, 2)]
    score = _total(events)
    assert score == type(score)(tuple(events), 4, 2) and hash(score) == hash(type(score)(tuple(events), 4, 2))
    with pytest.raises(dataclasses.FrozenInstanceError):
        score.mover = 0  # type: ignore[misc]
