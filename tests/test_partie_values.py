"""Marqué values and twelve-hole multipliers against the sources (RULES.md §8.1-§8.2,
§11 E47-E52, E57; 003 §222-226; 002: Marqué simple, double ou quadruple; 000 ~l.1001-1013)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trictrac.replay.rules.ledger import Ledger, PlayerScore, ScoreState
from trictrac.replay.rules.partie import (
    PartieError,
    marque_factor,
    marque_outcome,
    marque_value,
    twelve_hole_multiplier,
    twelve_hole_winner,
)
from trictrac.replay.rules.profiles import DEFAULT_PROFILE, find_profile

LEBRUN = find_profile("lebrun-1828")
GUITON = replace(DEFAULT_PROFILE, twelve_hole_multiplier="guiton")


def v(w: int, lo: int, pav: bool = False, refaits: int = 0, profile=DEFAULT_PROFILE) -> int:
    return marque_value(w, lo, pav, refaits, profile).value


def test_E47_003_222_smallest_marque_is_three() -> None:
    assert v(9, 8) == 3  # "neuf et deux de consolation font onze; onze moins huit ... trois"
    # no smaller value is possible for a decided marqué
    assert min(v(w, lo) for w in range(6, 30) for lo in range(0, w)) == 3


def test_E48_003_223_petite_bredouille_nine_after_eight() -> None:
    assert v(9, 8, pav=True) == 14  # "onze fois deux font vingt-deux, ... quatorze"


def test_E49_003_224_grande_bredouille_eighteen_against_six() -> None:
    assert v(18, 6, pav=True) == 74
    assert v(18, 6, pav=False) == 14  # "sans pavillon"


def test_E49_003_224_one_more_hole_adds_thirty() -> None:
    assert v(11, 6, pav=True) == 20
    assert v(12, 6, pav=True) == 50
    assert v(12, 6, pav=True) - v(11, 6, pav=True) == 30  # "trente, ou trois fiches"


def test_E50_003_225_eighteen_holes_without_pavillon() -> None:
    assert v(18, 5) == 15


def test_E51_000_l1001_six_holes_in_bredouille() -> None:
    # "a-t-on gagné six trous, on compte douze et quatre de consolation ... quinze"
    assert v(6, 1, pav=True) == 15


def test_002_marque_double_and_quadruple_consolations() -> None:
    # 002: "on ajoute de plus quatre jetons de consolation" / "huit jetons de consolation"
    mv = marque_value(8, 3, True)
    assert (mv.factor, mv.factor * mv.consolation, mv.value) == (2, 4, 2 * 8 + 4 - 3)
    mv = marque_value(13, 3, True)
    assert (mv.factor, mv.factor * mv.consolation, mv.value) == (4, 8, 4 * 13 + 8 - 3)


def test_D2_003_224_plus_de_six_reading() -> None:
    strict = replace(DEFAULT_PROFILE, petite_bredouille_min_holes=7)
    assert v(6, 1, pav=True, profile=strict) == 6 + 2 - 1
    assert v(7, 1, pav=True, profile=strict) == 2 * 9 - 1


def test_E52_003_226_after_one_refait() -> None:
    assert v(7, 4, refaits=1) == 7
    assert v(7, 4, pav=True, refaits=1) == 18


def test_E52_003_226_after_two_refaits_grande_bredouille() -> None:
    assert v(12, 0, pav=True, refaits=2) == 72


def test_002_refait_consolation_4_8_16_then_triple() -> None:
    # "la consolation qui se paie double ... 4, 8 ou 16, au lieu de 2, 4 ou 8"
    for w, pav, base in ((7, False, 2), (7, True, 4), (12, True, 8)):
        mv0, mv1, mv2 = (marque_value(w, 3, pav, r) for r in (0, 1, 2))
        assert mv0.idle_consolation == base
        assert mv1.idle_consolation == 2 * base
        assert mv2.idle_consolation == 3 * base


def test_D3_000_l1011_progression_beyond_twelve() -> None:
    assert [marque_factor(w, True, LEBRUN) for w in (6, 11, 12, 17, 18, 23, 24, 30)] == [2, 2, 4, 4, 8, 8, 16, 32]
    assert [marque_factor(w, True) for w in (12, 18, 24)] == [4, 4, 4]  # 002: "abandonnée"
    assert v(18, 6, pav=True, profile=LEBRUN) == 8 * 20 - 6


def test_loser_holes_never_multiplied() -> None:
    assert v(9, 8, pav=True) - v(9, 7, pav=True) == -1
    assert v(14, 8, pav=True) - v(14, 7, pav=True) == -1


@pytest.mark.parametrize("w,lo", [(7, 7), (5, 3), (6, 8), (-1, 0)])
def test_impossible_marques(w: int, lo: int) -> None:
    with pytest.raises(PartieError):
        marque_value(w, lo)


@given(st.integers(6, 40), st.integers(0, 40), st.booleans(), st.integers(0, 4))
def test_value_formula(w: int, lo: int, pav: bool, r: int) -> None:
    if lo >= w:
        return
    mv = marque_value(w, lo, pav, r)
    assert mv.value == mv.factor * (w + 2 * (r + 1)) - lo
    assert mv.value >= 3
    assert mv.factor == (1 if not pav else 2 if w < 12 else 4)


# -- the end of a marqué: 003 §221, §226 ------------------------------------------------


def test_003_221_marque_ends_on_a_leave_with_six_holes() -> None:
    s = ScoreState(PlayerScore(holes=5), PlayerScore(holes=3))
    assert marque_outcome(s) is None
    s = ScoreState(PlayerScore(holes=3), PlayerScore(holes=6, pavillon=True))
    o = marque_outcome(s)
    assert o is not None and (o.winner, o.loser, o.winner_holes, o.loser_holes, o.pavillon) == ("B", "A", 6, 3, True)
    # the loser may be the one who leaves, as long as someone has six holes
    s = ScoreState(PlayerScore(holes=8), PlayerScore(holes=2))
    assert marque_outcome(s).winner == "A"  # type: ignore[union-attr]


def test_003_226_equal_holes_make_a_refait() -> None:
    o = marque_outcome(ScoreState(PlayerScore(holes=7), PlayerScore(holes=7)))
    assert o is not None and o.refait


def test_marque_from_a_ledger() -> None:
    lg = Ledger()
    lg.mark("B", 24)  # B: 4 holes (two doubles), pavillon
    for _ in range(4):
        lg.mark("A", 12)  # A takes 8 holes running after B's: pavillon
    lg.mark("A", 2, own=True)
    o = marque_outcome(lg.state)
    assert o is not None and (o.winner, o.winner_holes, o.loser_holes, o.pavillon) == ("A", 8, 4, True)
    assert marque_value(o.winner_holes, o.loser_holes, o.pavillon).value == 2 * 10 - 4


# -- partie en douze trous: 002, 000 ~l.826-832; RULES.md E57 -------------------------


def test_E57_002_twelve_hole_multipliers() -> None:
    assert twelve_hole_multiplier(12, 0, True, GUITON) == 4  # quadruple
    assert twelve_hole_multiplier(12, 3, True, GUITON) == 3  # triple: pavillon second
    assert twelve_hole_multiplier(12, 5, False, GUITON) == 2  # double: loser < 6
    assert twelve_hole_multiplier(12, 7, False, GUITON) == 1  # simple


def test_000_l826_grande_bredouille_doubles_the_stake() -> None:
    assert twelve_hole_multiplier(12, 0, True, LEBRUN) == 2
    assert twelve_hole_multiplier(12, 4, True, LEBRUN) == 2  # "son adversaire n'a pris aucun trou depuis lui"
    assert twelve_hole_multiplier(12, 4, False, LEBRUN) == 1
    assert twelve_hole_multiplier(12, 0, True) == 1  # 003 §218: no detail, no multiplier


def test_003_217_twelve_hole_game_may_end_on_given_points() -> None:
    lg = Ledger(state=ScoreState(PlayerScore(holes=11, points=10), PlayerScore(holes=3)))
    assert twelve_hole_winner(lg.state) is None
    lg.mark_throw("B", 0, 2)  # B hits à faux: A completes his twelfth hole
    assert twelve_hole_winner(lg.state) == "A"
    assert not lg.can_leave("A")  # but he could not have left on it
