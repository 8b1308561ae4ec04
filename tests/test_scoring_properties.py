"""Property tests of the scorer against the slow reference of scoring_helpers
(RULES.md §4.3 hits, §4.5 fills) over random reachable positions, and invariants of
every throw's score (RULES.md §4.2, §4.8)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from trictrac.replay.moves import legal_plays
from trictrac.replay.profiles import DEFAULT_PROFILE, find_profile
from trictrac.replay.scoring import KINDS, fill_ways, position_events, score_play, score_roll
from scoring_helpers import ALL_ROLLS, hits, make, random_positions, ref_fill, ref_hits

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
    for pos in _near_plein_positions(seed, 400)[:8]:
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
            assert sum(e.points for e in imp) == 2 * len(ps.unplayable)
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
