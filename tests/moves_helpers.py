"""Helpers for the legal-play tests: random reachable positions (issue 2, property tests)."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from trictrac.replay.rules.moves import GRAND_JAN, ROLLS, Play, apply_play, legal_plays, plein_made
from trictrac.replay.rules.position import Position, start_position
from trictrac.replay.rules.profiles import DEFAULT_PROFILE, Profile

#: an opponent out of the way of a mover in his own 12..24 (RULES.md §11: "unlisted
#: checkers are assumed not to interfere"): on the mover's 7..11, neither of his pleins
#: possible, so no table is closed (P3).
B_FAR = {14: 3, 15: 3, 16: 3, 17: 3, 18: 3}


def random_roll(rng: random.Random) -> tuple[int, int]:
    a, b = rng.randint(1, 6), rng.randint(1, 6)
    return (a, b) if a >= b else (b, a)


def _plein_progress(play: Play) -> int:
    r = play.result
    return sum(min(r[p], 2) for p in range(1, 13)) + sum(min(r[p], 2) for p in range(19, 25))


def next_turn(pos: Position, play: Play, profile: Profile = DEFAULT_PROFILE) -> Position:
    """Apply ``play`` and pass the turn (a new relevé after a sortie, RULES.md §3.10 S8).

    Under ``opponent_table_closed="until-broken"`` a made grand jan is remembered in
    the side's jans (the history 000 ~l.508 needs)."""
    after = apply_play(pos, play)
    other = "B" if pos.turn == "A" else "A"
    if after.mover[25] == 15:
        return start_position(pos.turn)
    jans = pos.mover_jans
    if profile.opponent_table_closed == "until-broken" and plein_made(after.mover, GRAND_JAN):
        jans = jans | {"grand-jan"}
    return Position(
        after.other,
        after.mover,
        other,
        after.other_coups,
        after.mover_coups + 1,
        pos.other_coin_taken,
        pos.mover_coin_taken,
        pos.other_jans,
        jans,
    )


def random_game(
    rng: random.Random, plies: int, profile: Profile = DEFAULT_PROFILE, greedy: float = 0.0
) -> list[Position]:
    """Positions reached by random legal plays from the start, both sides.

    With probability ``greedy`` a side picks the play holding most points of its
    pleins (so that pleins get made, filled and conserved).
    """
    pos = start_position("A")
    out = [pos]
    for _ in range(plies):
        ps = legal_plays(pos, random_roll(rng), profile)
        if rng.random() < greedy:
            play = max(ps.plays, key=_plein_progress)
        else:
            play = rng.choice(ps.plays)
        pos = next_turn(pos, play, profile)
        out.append(pos)
    return out


def reachable_positions(
    seed: int, n_games: int, plies: int, profile: Profile = DEFAULT_PROFILE, greedy: float = 0.3
) -> list[Position]:
    rng = random.Random(seed)
    out: list[Position] = []
    for _ in range(n_games):
        out.extend(random_game(rng, plies, profile, greedy))
    return out


@st.composite
def reachable(draw, profile: Profile = DEFAULT_PROFILE) -> Position:
    """A hypothesis strategy: one random reachable position (early, middle or deep)."""
    seed = draw(st.integers(0, 2**32 - 1))
    plies = draw(st.integers(0, 320))
    greedy = draw(st.sampled_from([0.0, 0.5, 0.9]))
    return random_game(random.Random(seed), plies, profile, greedy)[-1]


rolls = st.sampled_from(ROLLS)
