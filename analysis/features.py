"""The books' features of a position and a score, as numbers for the evaluator.

A position is seen from the side to throw (the *mover*) and the side that has just
played (the *other*), each in his own frame (RULES.md §2.2).  For each side:

* the cases (points with two checkers or more) of each of the three pleins — petit
  jan, grand jan, jan de retour — whether the plein is made, and whether it lacks one
  case only: the chances to fill and to conserve (RULES.md §4.5; 003 §47-60);
* the coin held (003 §66: « la plus difficile et la plus importante » case) and the
  chance to hit the opponent's coin (RULES.md §4.4);
* the lone checkers the opponent may hit by one of his numbers next throw, weighted by
  what a hit there scores (4 in a first table, 2 in a second; RULES.md §4.3 B3-B5);
* the checkers passed into the opponent's tables (the jan de retour) and the race to
  the sortie (pips still to go, checkers off; RULES.md §3.10, §4.9);
* the checkers left on the talon and the lone checkers (demi-cases) of one's tables.

The score gives the holes, the points and the bredouille of each side (RULES.md §5).
"""

from __future__ import annotations

from ..replay.rules.moves import ROLLS
from ..replay.rules.position import Position
from ..replay.rules.profiles import DEFAULT_PROFILE, Profile
from ..replay.rules.scoring import score_roll

__all__ = [
    "SIDE_FEATURES",
    "THROW_FEATURES",
    "POSITION_FEATURES",
    "side_features",
    "throw_features",
    "position_features",
]

SIDE_FEATURES = (
    "cases_petit_jan",
    "cases_grand_jan",
    "cases_jan_de_retour",
    "plein_petit_jan",
    "plein_grand_jan",
    "plein_jan_de_retour",
    "five_petit_jan",
    "five_grand_jan",
    "five_jan_de_retour",
    "coin",
    "coin_to_hit",
    "exposed",
    "demi_cases",
    "talon",
    "passed",
    "pips",
    "off",
)

#: the throw to come, exactly: the points the mover's throw gives him and gives the
#: other, averaged over the 21 throws (1/36 and 2/36; RULES.md §4.10, 003 §256-263)
THROW_FEATURES = ("throw_mover", "throw_other")

#: the position's features: the mover's, the other's, the throw to come, a constant
POSITION_FEATURES = (
    tuple(f"mover_{n}" for n in SIDE_FEATURES) + tuple(f"other_{n}" for n in SIDE_FEATURES) + THROW_FEATURES + ("bias",)
)

_WEIGHTS = tuple((r, (1 if r[0] == r[1] else 2) / 36) for r in ROLLS)

#: chance (out of 36) that one die reaches a distance 1..6: 11/36 (RULES.md §1.2)
_ONE_DIE = 11 / 36


def side_features(me: tuple[int, ...], opp: tuple[int, ...]) -> list[float]:
    """The features of one side: ``me`` his counts in his frame, ``opp`` the
    opponent's counts in *his own* frame (opponent point q = my point 25 - q)."""
    out: list[float] = []
    cases = [0, 0, 0]
    for i, (lo, hi) in enumerate(((1, 7), (7, 13), (19, 25))):
        n = 0
        for p in range(lo, hi):
            if me[p] >= 2:
                n += 1
        cases[i] = n
    out.extend(cases)
    out.extend(1.0 if n == 6 else 0.0 for n in cases)
    out.extend(1.0 if n == 5 else 0.0 for n in cases)
    coin = me[12] >= 2
    out.append(1.0 if coin else 0.0)
    # his coin (my point 13) empty while I hold mine: a throw may bring two checkers there
    out.append(1.0 if coin and opp[12] == 0 and sum(me[7:12]) >= 2 else 0.0)
    # lone checkers within reach of one of the opponent's numbers (his point q moves up,
    # i.e. down my frame: his checker on my point r reaches my p at r - p)
    occupied = [25 - q for q in range(1, 25) if opp[q]]
    exposed = 0.0
    demi = 0
    for p in range(2, 25):
        if me[p] == 1:
            if p <= 12:
                demi += 1
            reach = 0.0
            for r in occupied:
                d = r - p
                if 0 < d <= 6:
                    reach += _ONE_DIE
            if reach:
                exposed += (4.0 if p <= 6 or p >= 19 else 2.0) * (reach if reach < 1.0 else 1.0)
    out.append(exposed)
    out.append(float(demi))
    out.append(me[1] / 15)
    passed = 0
    pips = 0
    for p in range(1, 25):
        c = me[p]
        if c:
            pips += c * (25 - p)
            if p >= 13:
                passed += c
    out.append(passed / 15)
    out.append(pips / 100)
    out.append(me[25] / 15)
    return out


def throw_features(pos: Position, profile: Profile = DEFAULT_PROFILE) -> list[float]:
    """:data:`THROW_FEATURES`: what the mover's next throw entitles each side to, on
    average over the 21 throws (``replay.rules.scoring.score_roll``)."""
    mover = other = 0.0
    for roll, w in _WEIGHTS:
        sc = score_roll(pos, roll, profile)
        mover += w * sc.mover
        other += w * sc.other
    return [mover, other]


def position_features(pos: Position, profile: Profile = DEFAULT_PROFILE, *, throw: bool = True) -> list[float]:
    """:data:`POSITION_FEATURES` of a position (the mover is about to throw); with
    ``throw`` False the throw features are 0 (a cheaper value, to order choices)."""
    t = throw_features(pos, profile) if throw else [0.0, 0.0]
    return side_features(pos.mover, pos.other) + side_features(pos.other, pos.mover) + t + [1.0]
