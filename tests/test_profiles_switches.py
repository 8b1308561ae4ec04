"""Every profile's value of every switch, stated here (issue 25 §7).

A profile built from another (``bonne-compagnie`` from ``rigueur``, ``lebrun-1828`` and
``innovations`` from ``lelasseux-1852``) would inherit a new switch silently: this table
lists each value by hand, so a new field of :class:`Profile` fails the test until its
value for every profile is written down (with the passage it comes from, in
``replay/rules/profiles.py``).
"""

from __future__ import annotations

from dataclasses import fields

import pytest

from trictrac.replay.rules.profiles import PROFILES, Profile

ORDER = ("lelasseux-1852", "rigueur", "bonne-compagnie", "lebrun-1828", "innovations")

#: switch -> its value in each profile of ORDER (RULES.md §10.3)
SWITCHES: dict[str, tuple[object, ...]] = {
    "rest_on_own_empty_coin": (False, False, False, False, False),
    "opponent_table_closed": ("plein-possible", "plein-possible", "plein-possible", "until-broken", "plein-possible"),
    "score_remplir_en_passant": (False, False, False, False, False),
    "bear_off_while_plein_possible": (True, True, True, True, True),
    "sortant_must_bear_off": (False, False, False, False, False),
    "defaillant_rearmost": (False, False, False, False, False),
    "fill_by_puissance_at_retour": (False, False, False, False, False),
    "two_demi_cases_two_ways": (False, False, False, False, True),
    "pile_de_misere": (False, False, False, False, True),
    "twelve_hole_multiplier": ("none", "none", "none", "lebrun", "none"),
    "marque_beyond_12": (False, False, False, True, False),
    "petite_bredouille_min_holes": (6, 6, 6, 6, 6),
    "consolation": (2, 2, 2, 2, 2),
    "postillon_first": (28, 28, 28, 28, 28),
    "postillon_next": (8, 8, 8, 8, 8),
    "jetons_per_marque_lost": (2, 2, 2, 2, 2),
    "primaute_after_marque_leave": ("winner", "winner", "winner", "winner", "winner"),
    "chouette_primaute": ("alternate", "alternate", "alternate", "lebrun", "alternate"),
    "marque_end_holes": (6, 6, 6, 6, 6),
    "tourner_rotation": ("loser-out", "loser-out", "loser-out", "two-each", "loser-out"),
    "remplir_error_ecole": ("single", "double", "correct", "single", "single"),
    "ecole_deux_jetons": ("remove-one", "ecole", "not-admitted", "ecole", "remove-one"),
    "sortie_points_removed_ecole": (False, False, False, True, False),
    "unmarked_whole_hole": ("ecole", "ecole", "may-mark", "warn", "ecole"),
    "extra_checker": ("opponent-choice", "replay-partie", "replay-partie", "opponent-choice", "opponent-choice"),
    "missing_checker_reentry": ("lelasseux", "lepeintre", "lepeintre", "lelasseux", "lelasseux"),
    "ecole_par_trop_when": ("jeton-released", "jeton-released", "after-play", "jeton-released", "jeton-released"),
    "keep_unschooled_wrong_points": (True, True, False, True, True),
    "late_hole_correction": (False, False, True, False, False),
    "late_bredouille_correction": ("003", "001", "always", "until-hole", "003"),
    "pavillon_deadline": (True, True, False, True, True),
    "must_explain_ecole": (False, False, True, True, False),
    "announce_leaving": (True, False, True, True, True),
    # D34: 003 §181 (no école) / 001 r.67 (école) / 001 III on r.67, his "68" (null) /
    # 000 is silent (003) / innovations: 003
    "erasing_opponent_ecole": (False, True, False, False, False),
    "spinning_die": ("stop-with-cup", "wait", "relaxed", "stop-with-cup", "stop-with-cup"),
    "rompre_max": (3, 3, 1, 3, 3),
    "touch_strict": (True, True, False, True, True),
    "dice_missed_rail": (
        "opponent-chooses",
        "opponent-chooses",
        "thrower-rethrows",
        "thrower-rethrows",
        "opponent-chooses",
    ),
    "early_throw_usable": (True, True, False, True, True),
    "misplaced_beyond_tout_d_une": (True, True, False, True, True),
    "fausse_case_penalty": ("opponent-disposes", "opponent-disposes", "replay-displaced", "none", "opponent-disposes"),
    "illegal_leave_replay_lifted": (True, True, False, True, True),
    "puissance_when_direct_penalty": (True, True, False, True, True),
    "checker_kept_in_hand_ecole": (False, True, False, False, False),
    "checker_between_points": ("opponent-places", "opponent-places", "intended", "intended", "opponent-places"),
    "missed_retour_passage_penalty": (True, True, False, True, True),
}


def test_every_profile_is_listed() -> None:
    assert tuple(PROFILES) == ORDER


def test_every_switch_is_stated_for_every_profile() -> None:
    """A new switch fails here until its value in each profile is written above."""
    switches = [f.name for f in fields(Profile) if f.name != "name"]
    missing = [s for s in switches if s not in SWITCHES]
    assert not missing, f"state each profile's value of {missing} in SWITCHES (and cite it in profiles.py)"
    assert sorted(SWITCHES) == sorted(switches)
    assert all(len(values) == len(ORDER) for values in SWITCHES.values())


@pytest.mark.parametrize("profile", ORDER)
def test_profile_values(profile: str) -> None:
    p = PROFILES[profile]
    k = ORDER.index(profile)
    wrong = {s: (getattr(p, s), v[k]) for s, v in SWITCHES.items() if getattr(p, s) != v[k]}
    assert not wrong, f"{profile}: (value, stated) {wrong}"
