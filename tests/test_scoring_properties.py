"""Property tests of the scorer against the slow reference of scoring_helpers
(RULES.md §4.3 hits, §4.5 fills) over random reachable positions, and invariants of
every throw's score (RULES.md §4.2, §4.8)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st
from scoring_helpers import ALL_ROLLS, hits, make, random_positions, ref_fill, ref_hits

from trictrac.replay.rules.moves import legal_plays
from trictrac.replay.rules.profiles import DEFAULT_PROFILE, find_profile
from trictrac.replay.rules.scoring import KINDS, SPECIAL_JANS, fill_ways, position_events, score_play, score_roll

seeds = st.integers(min_value=0, max_value=10**9)
plies = st.integers(min_value=0, max_value=160)
OWN_COIN_OPEN = replace(DEFAULT_PROFILE, rest_on_own_empty_coin=True)


@given(seeds, plies)
def test_hits_match_reference(seed: int, n: int) -> None:
    for pos in random_positions(seed, n)[-6:]:
        for roll in ALL_ROLLS:
            assert hits(position_events(pos, roll)) == ref_hits(pos, roll), (pos, roll)
            assert hits(position_events(pos, roll, OWN_COIN_OPEN)) == ref_hits(pos, roll, OWN_COIN_OPEN)


@given(seeds, plies)
def test_fills_match_reference(seed: int, n: int) -> None:
    for pos in random_positions(seed, n)[-6:]:
        for roll in ALL_ROLLS:
            assert fill_ways(pos, roll) == ref_fill(pos, roll), (pos, roll)


def _near_plein_positions(seed: int, n: int) -> list:
    """Positions where some plein misses one or two checkers (where fills happen)."""
    out = []
    for pos in random_positions(seed, n):
        m = pos.mover
        for t in (range(1, 7), range(7, 13), range(19, 25)):
            if 1 <= sum(max(0, 2 - m[p]) for p in t) <= 2:
                out.append(pos)
    return out


@given(seeds)
def test_fills_match_reference_near_pleins(seed: int) -> None:
    for pos in _near_plein_positions(seed, 300)[:6]:
        for roll in ALL_ROLLS:
            fw = fill_ways(pos, roll)
            assert fw == ref_fill(pos, roll), (pos, roll)
            # the scorer fills exactly when the legal plays must fill (M10)
            assert (fw is not None) == legal_plays(pos, roll).fills, (pos, roll)


@given(seeds, plies)
def test_score_invariants(seed: int, n: int) -> None:
    for pos in random_positions(seed, n)[-4:]:
        for roll in ALL_ROLLS:
            sc = score_roll(pos, roll)
            doublet = roll[0] == roll[1]
            assert sc.mover == sum(e.points for e in sc.events if e.side == "mover")
            assert sc.other == sum(e.points for e in sc.events if e.side == "other")
            for e in sc.events:
                assert e.kind in KINDS and e.points > 0 and e.points % 2 == 0  # 003 §140
                if e.kind in ("battre-a-vrai", "battre-a-faux"):
                    assert 1 <= e.ways <= (2 if doublet else 3) and e.target is not None
                if e.kind in ("petit-jan", "grand-jan", "jan-de-retour"):
                    assert e.how in ("remplir", "conserver")
                    assert e.ways <= (2 if doublet else 3)
                    assert e.points == e.ways * (6 if doublet else 4)
            ps = legal_plays(pos, roll)
            imp = [e for e in sc.events if e.kind == "impuissance"]
            sortie = any(e.kind == "sortie" for e in sc.events)
            assert sum(e.points for e in imp) == (0 if sortie else 2 * len(ps.unplayable))
            # every legal play scores what the roll entitles, except the optional sortie
            for play in ps.plays[:5]:
                sp = score_play(pos, roll, play)
                a = [e for e in sc.events if e.kind != "sortie"]
                b = [e for e in sp.events if e.kind != "sortie"]
                assert a == b, (pos, roll, play)


def test_two_demi_cases_switch() -> None:
    # petit jan missing one on 5 and one on 6; surplus on 2 and 3 (001 IV, RULES.md §10 D8)
    pos = make({1: 2, 2: 4, 3: 4, 4: 2, 5: 1, 6: 1, 7: 1}, {1: 15})
    assert fill_ways(pos, (3, 3)) == ("petit-jan", 1)
    assert fill_ways(pos, (3, 3), find_profile("innovations")) == ("petit-jan", 2)


def test_fill_by_puissance_at_retour_switch() -> None:
    # 000 ~l.804-812: jan de retour missing one on 21; a surplus on 15 fills by the 6;
    # a surplus on 18 by the 3; the coin (two checkers) is 9 away: 6-3 fills "par trois
    # moyens" under the switch, as in 000's example
    pos = make({12: 2, 15: 1, 18: 1, 19: 2, 20: 2, 21: 1, 22: 2, 23: 2, 24: 2}, {14: 3, 15: 3, 16: 3, 17: 3, 18: 3})
    base = fill_ways(pos, (6, 3))
    assert base is not None and base[0] == "jan-de-retour"
    on = replace(DEFAULT_PROFILE, fill_by_puissance_at_retour=True)
    assert base == ("jan-de-retour", 2)
    assert fill_ways(pos, (6, 3), on) == ("jan-de-retour", 3)


@given(seeds, plies)
def test_next_position_passes_the_turn(seed: int, n: int) -> None:
    from trictrac.replay.rules.scoring import next_position

    for pos in random_positions(seed, n)[-3:]:
        for roll in ALL_ROLLS[::4]:
            for play in legal_plays(pos, roll).plays[:3]:
                after = next_position(pos, roll, play)
                assert after.turn != pos.turn
                assert after.other == play.result and after.mover == pos.other
                assert sum(after.other) == 15 and sum(after.mover) == 15
                assert after.other_coups == pos.mover_coups + 1 and after.mover_coups == pos.other_coups
                assert after.other_coin_taken == (pos.mover_coin_taken or play.result[12] >= 2)
                made = {e.kind for e in score_play(pos, roll, play).events if e.kind in SPECIAL_JANS}
                assert after.other_jans == pos.mover_jans | made


def test_next_position_records_contre_jan_and_deux_tables() -> None:
    from trictrac.replay.rules.scoring import next_position

    pos = make({1: 13, 7: 1, 9: 1}, {1: 15})  # E5
    play = legal_plays(pos, (6, 3)).plays[0]
    after = next_position(pos, (6, 3), play)
    assert after.other_jans == frozenset({"jan-de-deux-tables"})
    held = make({1: 13, 7: 1, 9: 1}, {1: 13, 12: 2})
    after = next_position(held, (6, 3), legal_plays(held, (6, 3)).plays[0])
    assert after.other_jans == frozenset({"contre-jan-de-deux-tables"})


_SPOTS = (1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 18, 19, 20, 21, 22, 23)
_OPP_SPOTS = (1, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 12, 14, 16, 18, 19, 20, 21, 22, 23, 24)


@st.composite
def near_plein_positions(draw):
    """Arbitrary (not necessarily reachable) positions where a plein misses 1 or 2
    checkers: odd coins, blocked repos and surplus placements the games rarely make."""
    from trictrac.replay.rules.position import Position

    table = draw(st.sampled_from((range(1, 7), range(7, 13), range(19, 25))))
    m = [0] * 26
    for p in table:
        m[p] = 2
    m[draw(st.sampled_from(list(table)))] -= draw(st.integers(1, 2))
    for p in draw(st.lists(st.sampled_from(_SPOTS), min_size=15 - sum(m), max_size=15 - sum(m))):
        m[p] += 1
    if m[12] == 1:  # never a lone checker on the coin (L3)
        m[12] = 0
        m[11] += 1
    o = [0] * 26
    for q in draw(st.lists(st.sampled_from(_OPP_SPOTS), min_size=15, max_size=15)):
        if m[25 - q]:
            q = 25  # the point is the mover's: that checker is borne off instead
        o[q] += 1
    if o[12] == 1:
        o[12] = 0
        o[25] += 1
    pos = Position(tuple(m), tuple(o))
    assert not pos.problems(), pos
    return pos


@given(near_plein_positions(), st.sampled_from(("lelasseux-1852", "innovations")))
def test_fills_and_hits_match_reference_on_arbitrary_positions(pos, name: str) -> None:
    profile = find_profile(name)
    for roll in ALL_ROLLS:
        assert fill_ways(pos, roll, profile) == ref_fill(pos, roll, profile), (pos, roll)
        assert hits(position_events(pos, roll, profile)) == ref_hits(pos, roll, profile), (pos, roll)
