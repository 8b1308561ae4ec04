"""RULES.md §3.8 P3 (passage into the opponent's tables) and §3.7 M13 (a fill needs the
other number playable without breaking), as corrected for issue 13 §1-§2.

Positions are the ``--position-json`` of ``trictrac analyse``, each side in its own
frame (RULES.md §2.2); the analyser is asked, so the verifier, the generator and the
publisher (which all call the same engine) follow.  The random cross-check of the P3
test against a brute-force search runs 3,000 positions; ``TRICTRAC_SLOW=1`` runs
100,000 (or ``TRICTRAC_P3_POSITIONS=n``).
"""

from __future__ import annotations

import os
import random
from dataclasses import fields, replace

import pytest
from plein_reference import can_fill_by_search

from trictrac.cli.analyse import position_from_json
from trictrac.replay.rules.analyse import analyse
from trictrac.replay.rules.moves import can_still_make_plein, legal_plays, opponent_table_closed
from trictrac.replay.rules.position import Position
from trictrac.replay.rules.profiles import DEFAULT_PROFILE, PROFILES, Profile, find_profile

GRAND_GONE = (
    '{"mover":{"7":2,"8":3,"9":3,"10":2,"11":3,"12":2},'
    '"other":{"5":1,"8":4,"10":3,"11":3,"12":4},"mover_coups":20,"other_coups":20}'
)
PETIT_GONE = (
    '{"mover":{"11":13,"12":2},"other":{"1":2,"2":2,"3":2,"4":2,"6":5,"7":2},"mover_coups":20,"other_coups":20}'
)
#: 003 §398: jan de retour less one checker on his talon (my 24), three spare on my own
#: 10th flèche (my 11), one on his first flèche (my 23); he holds his coin and stands
#: where my 6, 5, 4 and 3 land freely (his grand jan is past making: none on his 7)
RETOUR_398 = (
    '{"mover":{"11":3,"19":2,"20":2,"21":2,"22":2,"23":3,"24":1},'
    '"other":{"12":2,"15":3,"16":2,"17":2,"18":2,"19":2,"20":2},'
    '"mover_coups":20,"other_coups":20}'
)


def one_roll(text: str, roll: tuple[int, int], profile: Profile = DEFAULT_PROFILE) -> dict:
    return analyse(position_from_json(text), profile, roll)["rolls"][0]


def kinds(r: dict) -> list[tuple[str, str, int]]:
    return [(e["side"], e["kind"], e["points"]) for e in r["events"]]


# ---------------------------------------------------------------------------------
# P3
# ---------------------------------------------------------------------------------


def test_P3_003_77_one_checker_behind_his_seventh_opens_his_second_table() -> None:
    """003 §77: "Vous pouvez placer des dames dans sa deuxième table, où il ne peut plus
    faire de plein" — his 15 on his 5..12, one behind his 7th point.  Here likewise:
    6-2 goes 8→16 tout d'une (resting on my 10), conserving (4) and hitting on 20 (4)."""
    r = one_roll(GRAND_GONE, (6, 2))
    assert r["moves"] == ["8/16"]
    assert kinds(r) == [("mover", "battre-a-vrai", 4), ("mover", "grand-jan", 4)]
    assert r["points"] == {"mover": 8, "other": 0}  # not 2 to him for an unplayable 6


def test_P3_003_77_conserve_by_entering_his_second_table() -> None:
    """003 §77: "pour conserver, il faut jouer de votre dixième à sa huitième" — 5-4
    plays 11→16 (his 9th) and 8→12: conserve 4 and hit 4, where the count test gave 4."""
    r = one_roll(GRAND_GONE, (5, 4))
    assert r["moves"] == ["11/16 8/12"]
    assert r["points"] == {"mover": 8, "other": 0}


def test_P3_003_61_first_table_open_once_his_petit_jan_is_past_making() -> None:
    """003 §61: "vous ne pouvez placer aucune dame dans une table où l'adversaire peut
    faire un plein".  He has 8 on or behind his 5th point (10 needed): 6-3 plays
    11→20 tout d'une, not an impuissance worth 4 to him."""
    r = one_roll(PETIT_GONE, (6, 3))
    assert r["moves"] == ["11/20"]
    assert r["points"] == {"mover": 0, "other": 0}


def test_P3_003_213_an_intruder_does_not_make_his_plein_impossible() -> None:
    """003 §213: "Si une dame est dans la première table, où le plein est possible, elle
    y restera nécessairement" — my checker on his 3rd point does not open his first
    table: no second checker may stop there (my 19..24 stay closed)."""
    pos = Position.from_points({1: 12, 12: 2, 22: 1}, {1: 15})
    assert can_still_make_plein(pos.other, "petit-jan")
    assert opponent_table_closed(pos) >> 19 & 1
    for roll in ((6, 5), (5, 4), (4, 1)):
        for play in legal_plays(pos, roll).plays:
            assert sum(play.result[19:25]) <= 1 or play.result[22] == 0, play.text()


def test_P3_D14_lebrun_until_broken_stays_on_top_of_the_same_test() -> None:
    """000 ~l.508: "dans le grand jan de votre adversaire avant qu'il fût rompu" (D14):
    never made and past making → open in both profiles; made now → closed in lebrun-1828
    even though, by the count, it is as possible as in lelasseux-1852."""
    lebrun = find_profile("lebrun-1828")
    gone = position_from_json(GRAND_GONE)
    assert not opponent_table_closed(gone) >> 15 & 1
    assert not opponent_table_closed(gone, lebrun) >> 15 & 1
    made = Position.from_points({1: 15}, {1: 3, 7: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 2})
    assert opponent_table_closed(made, lebrun) >> 15 & 1


def _random_counts(rng: random.Random, first: int) -> list[int]:
    """15 checkers: a random share spread over the table and behind it, the rest
    anywhere (borne off included) — about half the positions can still fill."""
    c = [0] * 26
    near = rng.random()
    for _ in range(15):
        c[rng.randint(1, first + 5) if rng.random() < near else rng.randint(1, 25)] += 1
    return c


def _p3_positions() -> int:
    if os.environ.get("TRICTRAC_P3_POSITIONS"):
        return int(os.environ["TRICTRAC_P3_POSITIONS"])
    return 100_000 if os.environ.get("TRICTRAC_SLOW") else 3_000


def test_P3_fast_test_agrees_with_a_brute_force_search() -> None:
    """The running count of :func:`can_still_make_plein` against a search over his
    future moves (tests/plein_reference.py), for the three tables, on random positions."""
    rng = random.Random(13)
    n = _p3_positions()
    answers = {True: 0, False: 0}
    for _ in range(n):
        first = rng.choice((1, 7, 19))
        c = _random_counts(rng, first)
        fast = can_still_make_plein(c, (first,))
        assert fast == can_fill_by_search(c, first), (first, c)
        answers[fast] += 1
    assert min(answers.values()) > n // 5, answers  # both answers well represented


# ---------------------------------------------------------------------------------
# M13
# ---------------------------------------------------------------------------------


def test_M13_003_398_the_ace_fills_with_eight_chances_not_eleven() -> None:
    """003 §398: "L'as ne donne pas 11 chances pour remplir : il faut en retrancher 1-1,
    2-1 ... Pour qu'un nombre d'un coup remplisse, il faut que l'autre nombre puisse se
    jouer sans rompre"."""
    res = analyse(position_from_json(RETOUR_398))
    assert res["chances"]["jan-de-retour"] == 8
    filling = {r["roll"] for r in res["rolls"] if any(e["kind"] == "jan-de-retour" for e in r["events"])}
    assert filling == {"6-1", "5-1", "4-1", "3-1"}
    d33 = replace(DEFAULT_PROFILE, score_remplir_en_passant=True)
    assert analyse(position_from_json(RETOUR_398), d33)["chances"]["jan-de-retour"] == 11


def test_M13_003_64_remplir_en_passant_neither_scores_nor_obliges() -> None:
    """003 §64: "Remplir en passant se dit ... si l'un des nombres fait remplir, et si
    l'autre fait rompre" — no gain stated; not a fill, so 1-1 may be played otherwise."""
    r = one_roll(RETOUR_398, (1, 1))
    assert not any(e["kind"] == "jan-de-retour" for e in r["events"])
    assert "11/12 11/12" in r["moves"]  # taking the coin instead is legal
    ps = legal_plays(position_from_json(RETOUR_398), (1, 1))
    assert not ps.fills and not any(p.filled for p in ps.plays)


def test_M13_003_81_one_number_fills_when_the_other_cannot_be_played() -> None:
    """003 §81: "l'un achève le plein et l'autre est impossible à jouer, on remplit
    néanmoins, et l'on gagne comme à l'ordinaire" (E15, 003 §113: 6-1 fills by the ace)."""
    pos = Position.from_points({12: 2, 24: 3, 23: 2, 22: 1, 21: 3, 20: 2, 19: 2}, {14: 3, 15: 3, 16: 3, 17: 3, 18: 3})
    r = analyse(pos, DEFAULT_PROFILE, (6, 1))["rolls"][0]
    assert r["moves"] == ["21/22"]
    assert kinds(r) == [("mover", "jan-de-retour", 4), ("other", "impuissance", 2)]


def test_M13_003_82_fill_and_keep_is_still_a_fill() -> None:
    """003 §398 on the other side: the other number "puisse se jouer sans rompre" — the
    fig. 8 position (P12) with 4-1: the 4 fills 2→6 and the ace is played keeping."""
    pos = Position.from_points({1: 3, 2: 4, 3: 2, 4: 3, 5: 2, 6: 1}, {1: 15})
    r = analyse(pos, DEFAULT_PROFILE, (4, 1))["rolls"][0]
    # two ways: the 4 from 2 and the sum from the talon, the ace then kept clear of
    # the plein; the ace alone brings no spare checker (5 holds two)
    assert ("mover", "petit-jan", 8) in kinds(r)


def test_D33_switch_is_a_profile_field_off_in_every_profile() -> None:
    """RULES.md §10 D33: *remplir en passant* "no gain (switch
    ``score_remplir_en_passant``, off)"."""
    assert "score_remplir_en_passant" in {f.name for f in fields(Profile)}
    assert not any(p.score_remplir_en_passant for p in PROFILES.values())


@pytest.mark.parametrize("name", list(PROFILES))
def test_every_profile_answers_the_reproducers_alike(name: str) -> None:
    """Neither correction is a profile difference (only D14's history and D33 are)."""
    profile = find_profile(name)
    assert one_roll(PETIT_GONE, (6, 3), profile)["moves"] == ["11/20"]
    assert analyse(position_from_json(RETOUR_398), profile)["chances"]["jan-de-retour"] == 8
