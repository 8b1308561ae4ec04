"""Rules profiles: every point where the treatises disagree, as one value passed in.

A :class:`Profile` has one field per switch of RULES.md §10.3 (and the open points
of §10.1 that touch movement, scoring, marking, leaving or payment).  The rules
engine, the score ledger, the verifier, the generator and the publisher all take
the same profile value explicitly; there is no global setting.

Named profiles are those of RULES.md §10.2:

* ``lelasseux-1852`` (default): 003 wherever it speaks, 001 Part I where it is silent.
* ``rigueur``: Lepeintre's rules "dans toute leur rigueur" (001 Part I).
* ``bonne-compagnie``: ``rigueur`` with the softenings of 001 Part III.
* ``lebrun-1828``: the variants of 000 (Lebrun's *Manuel des jeux*).
* ``innovations``: the proposals of 001 Part IV and 000 ~l.1067-1069.

Tweak a profile with :func:`dataclasses.replace`, e.g.
``replace(find_profile("rigueur"), marque_beyond_12=True)``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Literal

__all__ = ["Profile", "PROFILES", "DEFAULT_PROFILE", "find_profile", "profile_names"]


@dataclass(frozen=True, slots=True)
class Profile:
    """One value per rule switch (RULES.md §10.3).  Frozen and hashable (used in caches)."""

    name: str = "lelasseux-1852"

    # --- movement (RULES.md §3) -------------------------------------------------
    #: D13 / R5: may a tout-d'une checker (or a hit by the sum) rest on one's own *empty* coin?
    rest_on_own_empty_coin: bool = False
    #: D14 / P3: when is the opponent's table closed to one's checkers?
    #: "plein-possible" = while he can still make a plein there (003 §61, §77; the operational
    #: test of P3: at least 2k of his checkers on or behind the k-th point of the table);
    #: "until-broken" = 000 ~l.508, until his (grand) jan has been made and broken.
    opponent_table_closed: Literal["plein-possible", "until-broken"] = "plein-possible"
    #: D33 / M13: *remplir en passant* (one number fills, the other then breaks) is a fill,
    #: scored and obliged.  Off in every profile: "Pour qu'un nombre d'un coup remplisse, il
    #: faut que l'autre nombre puisse se jouer sans rompre" (003 §398).
    score_remplir_en_passant: bool = False
    #: D16 / S6: bearing off is allowed while the jan de retour can still be filled.
    bear_off_while_plein_possible: bool = True
    #: D15 / S3: a sortant number must bear off.
    sortant_must_bear_off: bool = False
    #: D15 / S4: a défaillant number must move the rearmost checker.
    defaillant_rearmost: bool = False

    # --- scoring (RULES.md §4) --------------------------------------------------
    #: D5 / F11: the jan de retour may be filled "par puissance" from the coin (000 ~l.804-812).
    fill_by_puissance_at_retour: bool = False
    #: D8 / F4: two demi-cases covered by one throw count two ways (001 IV).
    two_demi_cases_two_ways: bool = False
    #: D20: pile de misère scores 4/6 when made and each throw kept (001 IV; 000 ~l.1067).
    pile_de_misere: bool = False
    # D30 (jan de trois coups only at the start of the partie) is no switch: 000 calls a
    # relevé a "partie" ("lever vos dames, et recommencer la partie", 000 ~l.710), so all
    # the books score it at the start of every relevé (003 §123, §168).

    # --- games and payment (RULES.md §8) ---------------------------------------
    #: D1: stake multiplier of the partie en douze trous: none, "lebrun" (×2 grande bredouille,
    #: 000 ~l.826-832) or "guiton" (×4/×3/×2/×1 of 002: Partie en douze trous).
    twelve_hole_multiplier: Literal["none", "lebrun", "guiton"] = "none"
    #: D3: marqué multiplier keeps doubling every six holes beyond 12 (×8 at 18, ×16 at 24; 000 ~l.1011).
    marque_beyond_12: bool = False
    #: D2: fewest holes for a petite bredouille marqué (000 ~l.1001 and 002: six; 003 §224 "plus de six").
    petite_bredouille_min_holes: int = 6
    #: consolation of a marqué (003 §222); grows by this much per refait (003 §226).
    consolation: int = 2
    #: postillons: first and each further (003 §227; 002: Paris et postillon).
    postillon_first: int = 28
    postillon_next: int = 8
    #: jetons set aside per marqué lost (003 §227: one or two; 002: two).
    jetons_per_marque_lost: int = 2
    #: D21: primauté after a leave that ends a marqué: "winner" (003 §221) or "leaver" (003 §155).
    primaute_after_marque_leave: Literal["winner", "leaver"] = "winner"
    #: D22: primauté at the chouette: "alternate" (003 §242, 002) or "lebrun" (000 ~l.1021).
    chouette_primaute: Literal["alternate", "lebrun"] = "alternate"
    #: D29: a marqué ends when someone leaves while someone has >= this many holes (003 §221).
    marque_end_holes: int = 6
    #: à tourner rotation: "loser-out" = the loser of every marqué gives way to the idle player
    #: (003 §244, 002: Partie à tourner); "two-each" = after the first marqué each plays two
    #: marqués running, as at four (000 ~l.1031).
    tourner_rotation: Literal["loser-out", "two-each"] = "loser-out"

    # --- écoles and marking (RULES.md §5-§7) ------------------------------------
    #: D6: école for marking a fill and then not filling: "single" (003 §192), "double" (001 r.59),
    #: "correct" (001 III: he may correct, no école).
    remplir_error_ecole: Literal["single", "double", "correct"] = "single"
    #: D7: école des deux jetons: "remove-one" (003 §195), "ecole" (001 r.65, 000 ~l.758),
    #: "not-admitted" (001 III).
    ecole_deux_jetons: Literal["remove-one", "ecole", "not-admitted"] = "remove-one"
    #: D9: own points removed while re-piling after a sortie: lost without école (003 §175) or école (000 ~l.756).
    sortie_points_removed_ecole: bool = False
    #: D10: an unmarked whole hole (trou sans bouger): "ecole" (003 §184), "may-mark" (001 III on r.50),
    #: "warn" (000 ~l.760).
    unmarked_whole_hole: Literal["ecole", "may-mark", "warn"] = "ecole"
    #: D11: sixteen checkers: "opponent-choice" (003 §215) or "replay-partie" (001 r.32).
    extra_checker: Literal["opponent-choice", "replay-partie"] = "opponent-choice"
    #: D12: where a missing 15th checker re-enters: "lelasseux" (003 §214) or "lepeintre" (001 r.31, r.33).
    missing_checker_reentry: Literal["lelasseux", "lepeintre"] = "lelasseux"
    #: D25: when an école par trop is made: "jeton-released" (003 §167) or "after-play" (001 III on r.41).
    ecole_par_trop_when: Literal["jeton-released", "after-play"] = "jeton-released"
    #: D26: wrongly marked points not schooled in time stay with the marker (001 r.47; 003 §167).
    keep_unschooled_wrong_points: bool = True
    #: D27: holes forgotten or de-marked may still be marked after playing (001 III on r.50).
    late_hole_correction: bool = False
    #: D24: until when an extra bredouille jeton may be corrected: "003" (even a throw later, 003 §144),
    #: "001" (not after a second throw, 001 r.48), "always" (001 III), "until-hole" (000 ~l.540).
    late_bredouille_correction: Literal["003", "001", "always", "until-hole"] = "003"
    #: D28: the pavillon must be claimed before the next hole (001 r.58); False = always acknowledged.
    pavillon_deadline: bool = True
    #: must a claimant explain his école at once (001 III on r.61)?
    must_explain_ecole: bool = False
    #: D19: "je m'en vais" must be said and words bind (003 §156); False = taking up the checkers shows it.
    announce_leaving: bool = True
    #: D34: erasing the opponent's points wrongly (believing he made an école), without
    #: marking them: no école (003 §181: « on efface ses points, sans les marquer, on ne fait
    #: pas école ») or an école of every point he was deprived of (001 r.67: « vous êtes à
    #: l'école de tous les points dont vous l'avez privé »; null in 001 III on r.67, his "68").
    erasing_opponent_ecole: bool = False

    # --- table procedure (RULES.md §9) ------------------------------------------
    spinning_die: Literal["stop-with-cup", "wait", "relaxed"] = "stop-with-cup"
    rompre_max: int = 3
    touch_strict: bool = True
    dice_missed_rail: Literal["opponent-chooses", "thrower-rethrows"] = "opponent-chooses"
    early_throw_usable: bool = True
    misplaced_beyond_tout_d_une: bool = True
    fausse_case_penalty: Literal["opponent-disposes", "replay-displaced", "none"] = "opponent-disposes"
    illegal_leave_replay_lifted: bool = True
    puissance_when_direct_penalty: bool = True
    checker_kept_in_hand_ecole: bool = False
    checker_between_points: Literal["opponent-places", "intended"] = "opponent-places"
    missed_retour_passage_penalty: bool = True

    def __hash__(self) -> int:
        """By name: equal profiles share it, and the caches keyed on a profile (a game's
        roll scores, the opening's play sets) hash it once a game or more, where the
        generated hash went over every switch (~2 µs)."""
        return hash(self.name)

    def describe(self) -> dict[str, object]:
        """The profile as a plain dict (for ``--json`` output and record headers)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


LELASSEUX_1852 = Profile()

RIGUEUR = replace(
    LELASSEUX_1852,
    name="rigueur",
    remplir_error_ecole="double",  # 001 r.59
    ecole_deux_jetons="ecole",  # 001 r.65
    extra_checker="replay-partie",  # 001 r.32
    missing_checker_reentry="lepeintre",  # 001 r.31, r.33
    late_bredouille_correction="001",  # 001 r.48
    spinning_die="wait",  # 001 r.2
    announce_leaving=False,  # 001 r.36
    checker_kept_in_hand_ecole=True,  # 001 r.28
    erasing_opponent_ecole=True,  # D34, 001 r.67
)

BONNE_COMPAGNIE = replace(
    RIGUEUR,
    name="bonne-compagnie",
    remplir_error_ecole="correct",  # 001 III on r.59
    ecole_deux_jetons="not-admitted",  # 001 III on r.65
    unmarked_whole_hole="may-mark",  # 001 III on r.50
    ecole_par_trop_when="after-play",  # 001 III on r.41
    keep_unschooled_wrong_points=False,  # 001 III on r.47
    late_hole_correction=True,  # 001 III on r.50
    late_bredouille_correction="always",  # 001 III on r.48
    pavillon_deadline=False,  # 001 III on r.58
    must_explain_ecole=True,  # 001 III on r.61
    spinning_die="relaxed",  # 001 III on r.2
    rompre_max=1,  # 001 III on r.16
    touch_strict=False,  # 001 III on r.17, r.19, r.20
    dice_missed_rail="thrower-rethrows",  # 001 III on r.12
    early_throw_usable=False,  # 001 III on r.14
    misplaced_beyond_tout_d_une=False,  # 001 III on r.22
    fausse_case_penalty="replay-displaced",  # 001 III on r.23, r.27
    illegal_leave_replay_lifted=False,  # 001 III on r.25
    puissance_when_direct_penalty=False,  # 001 III on r.26
    checker_kept_in_hand_ecole=False,  # 001 III on r.28
    checker_between_points="intended",  # 001 III on r.31
    missed_retour_passage_penalty=False,  # 001 III on r.68
    announce_leaving=True,  # 001 III on r.36 (courtesy)
    erasing_opponent_ecole=False,  # D34, 001 III on r.67 (his "68"): « Idem pour la règle 68 » (null)
)

LEBRUN_1828 = replace(
    LELASSEUX_1852,
    name="lebrun-1828",
    twelve_hole_multiplier="lebrun",  # D1, 000 ~l.826-832
    marque_beyond_12=True,  # D3, 000 ~l.1011
    ecole_deux_jetons="ecole",  # D7, 000 ~l.758
    sortie_points_removed_ecole=True,  # D9, 000 ~l.756
    unmarked_whole_hole="warn",  # D10, 000 ~l.760
    opponent_table_closed="until-broken",  # D14, 000 ~l.508
    chouette_primaute="lebrun",  # D22, 000 ~l.1021
    tourner_rotation="two-each",  # 000 ~l.1031
    late_bredouille_correction="until-hole",  # D24, 000 ~l.540
    must_explain_ecole=True,  # 000 ~l.778
    dice_missed_rail="thrower-rethrows",  # 000 ~l.1041
    fausse_case_penalty="none",  # 000 ~l.1047
    checker_between_points="intended",  # 000 ~l.1051
)

INNOVATIONS = replace(
    LELASSEUX_1852,
    name="innovations",
    two_demi_cases_two_ways=True,  # D8, 001 IV
    pile_de_misere=True,  # D20, 001 IV, 000 ~l.1067
    announce_leaving=True,  # D19, 001 IV, 000 ~l.1069
)

PROFILES: dict[str, Profile] = {p.name: p for p in (LELASSEUX_1852, RIGUEUR, BONNE_COMPAGNIE, LEBRUN_1828, INNOVATIONS)}
DEFAULT_PROFILE = LELASSEUX_1852

_ALIASES = {
    "default": "lelasseux-1852",
    "lelasseux": "lelasseux-1852",
    "003": "lelasseux-1852",
    "lepeintre": "rigueur",
    "academie": "rigueur",
    "001": "rigueur",
    "bc": "bonne-compagnie",
    "lebrun": "lebrun-1828",
    "000": "lebrun-1828",
}


def profile_names() -> list[str]:
    return list(PROFILES)


def find_profile(name: str | None) -> Profile:
    """Look a profile up by name or alias (case and accents ignored); ``None`` → the default.

    :raises ValueError: unknown name (the message lists the known ones).
    """
    if name is None:
        return DEFAULT_PROFILE
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = _ALIASES.get(key, key)
    try:
        return PROFILES[key]
    except KeyError:
        raise ValueError(f"unknown rules profile {name!r}; known profiles: {', '.join(PROFILES)}") from None
