"""Pure movement facts shared with the scorer (RULES.md §2.4, §3.3 L4, §3.8 P3, §3.10 S1)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trictrac.replay.rules.moves import (
    GRAND_JAN,
    JAN_DE_RETOUR,
    PETIT_JAN,
    ROLLS,
    IllegalMoveError,
    bear_off_allowed,
    can_still_make_plein,
    heavy_table,
    legal_plays,
    opponent_table_closed,
    plein_made,
)
from trictrac.replay.rules.position import Position, start_position
from trictrac.replay.rules.profiles import DEFAULT_PROFILE, find_profile

P = Position.from_points


def c(d: dict[int, int]) -> tuple[int, ...]:
    out = [0] * 26
    for p, n in d.items():
        out[p] = n
    return tuple(out)


def test_pleins_and_the_talon() -> None:
    assert plein_made(c({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 9: 3}), PETIT_JAN)
    assert not plein_made(c({1: 1, 2: 3, 3: 2, 4: 2, 5: 2, 6: 2, 9: 3}), PETIT_JAN)  # talon >= 2
    assert plein_made(c({7: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 2, 1: 3}), GRAND_JAN)
    assert plein_made(c({19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 5}), JAN_DE_RETOUR)


def test_P3_operational_test() -> None:
    assert can_still_make_plein(c({1: 15}), "petit-jan")
    assert not can_still_make_plein(c({1: 1, 2: 11, 9: 3}), "petit-jan")  # talon below two
    assert not can_still_make_plein(c({1: 4, 2: 7, 9: 4}), "petit-jan")  # 11 on 1..6
    # corrected P3 (003 §77): 2k checkers on or behind the k-th point; the old count
    # test (>= 12 on 1..12) said yes here, but 3 checkers behind his 8th point cannot
    # put two on his 7th and two on his 8th
    assert not can_still_make_plein(c({1: 3, 12: 9, 14: 3}), "grand-jan")
    assert can_still_make_plein(c({1: 6, 9: 2, 10: 2, 12: 2, 14: 3}), "grand-jan")
    assert not can_still_make_plein(c({1: 3, 12: 8, 14: 4}), "grand-jan")
    assert can_still_make_plein(c({18: 3, 19: 1, 20: 2, 21: 2, 22: 2, 23: 2, 24: 3}), "jan-de-retour")
    assert not can_still_make_plein(c({19: 1, 20: 2, 21: 3, 22: 2, 23: 2, 24: 5}), "jan-de-retour")


def test_L4_closed_tables_and_the_until_broken_switch() -> None:
    s = start_position()
    closed = opponent_table_closed(s)
    assert all(closed >> q & 1 for q in range(13, 25))
    assert not any(closed >> q & 1 for q in range(1, 13))
    # B: no petit jan (talon 1), grand jan possible (2k on or behind his k-th point of
    # 7..12; the former {1: 1, 12: 14} has one behind his 7th: impossible, 003 §77)
    pos = P({1: 15}, {1: 1, 6: 2, 7: 2, 8: 2, 9: 2, 10: 2, 12: 4})
    closed = opponent_table_closed(pos)
    assert not closed >> 20 & 1 and closed >> 15 & 1
    lebrun = find_profile("lebrun-1828")
    made_then_broken = P({1: 15}, {1: 3, 7: 1, 8: 2, 9: 2, 10: 2, 11: 2, 12: 3}, other_jans=frozenset({"grand-jan"}))
    assert opponent_table_closed(made_then_broken) >> 15 & 1  # 003: still possible
    assert not opponent_table_closed(made_then_broken, lebrun) >> 15 & 1  # 000: broken


@given(st.lists(st.integers(1, 24), min_size=15, max_size=15), st.booleans())
def test_the_heavy_table_is_the_plein_at_stake(points: list[int], as_list: bool) -> None:
    """heavy_table against a count of every table: the one with ten checkers or more
    and what its plein lacks; none lacking two or fewer elsewhere (§3.7, §4.5)."""
    counts = [0] * 26
    for p in points:
        counts[p] += 1
    lacks = {lo: sum(max(0, 2 - counts[p]) for p in range(lo, lo + 6)) for lo in (1, 7, 19)}
    heavy = [lo for lo in (1, 7, 19) if sum(counts[lo : lo + 6]) >= 10]
    asked = counts if as_list else tuple(counts)
    assert heavy_table(asked) == ((heavy[0], lacks[heavy[0]]) if heavy else (0, 99))
    assert all(lacks[lo] > 2 for lo in lacks if lo not in heavy)
    assert heavy_table(asked) == heavy_table(list(counts))  # asked again: the same answer


def test_S1_bear_off_allowed() -> None:
    assert bear_off_allowed(c({19: 5, 24: 5, 25: 5}))
    assert not bear_off_allowed(c({18: 1, 19: 4, 24: 5, 25: 5}))


@pytest.mark.parametrize("roll", [(0, 3), (7, 1), (3,), "ab", None])
def test_bad_rolls_raise_a_value_error(roll) -> None:
    with pytest.raises(IllegalMoveError):
        legal_plays(start_position(), roll)
    assert issubclass(IllegalMoveError, ValueError)


def test_the_21_rolls_and_the_start() -> None:
    assert len(ROLLS) == 21 and len(set(ROLLS)) == 21
    s = start_position()
    for roll in ROLLS:
        ps = legal_plays(s, roll)
        a, b = roll
        # from the talons: tout à bas always; tout d'une lands on 1 + a + b
        assert ps.unplayable == ()
        texts = {p.text() for p in ps.plays}
        assert f"1/{1 + a} 1/{1 + b}" in texts
        if a + b < 11:
            assert f"1/{1 + a + b}" in texts
        else:  # 6-5 and 6-6 would put one checker alone on the coin (L3)
            assert len(texts) == 1


def test_profiles_with_the_same_switches_share_results() -> None:
    s = start_position()
    other = replace(DEFAULT_PROFILE, name="copy", consolation=5)
    assert legal_plays(s, (4, 2), other).plays == legal_plays(s, (4, 2)).plays
