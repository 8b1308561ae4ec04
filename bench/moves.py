"""Speed of the legal-play generator alone (the ``moves`` step of ``trictrac bench``).

Corpus: reachable positions from random legal play (fixed seed), deep games
included.  Two figures, caches emptied so that no (position, roll) is ever a hit:
all 21 rolls of each position in a row (per-position facts shared, as ``analyse``
does) and one random roll per fresh position.  A third figure is the one the
verifier sees: the (position, roll) of every coup of self-played games, in game
order, caches emptied once.  The whole-engine figures are :mod:`.engine`.
"""

from __future__ import annotations

import random
import time
from itertools import pairwise

from ..replay.rules import moves
from ..replay.rules.moves import ROLLS, legal_plays
from ..replay.rules.position import Position, start_position
from ..replay.rules.profiles import DEFAULT_PROFILE, Profile


def corpus(n: int, seed: int = 1852, profile: Profile = DEFAULT_PROFILE) -> list[Position]:
    """``n`` reachable positions (both sides play random legal plays; new relevé at a sortie)."""
    rng = random.Random(seed)
    out: list[Position] = []
    pos = start_position("A")
    while len(out) < n:
        out.append(pos)
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        ps = legal_plays(pos, (max(a, b), min(a, b)), profile)
        play = rng.choice(ps.plays)
        after = moves.apply_play(pos, play)
        if play.result[25] == 15:
            pos = start_position("A")
        else:
            pos = Position(after.other, after.mover, "B" if pos.turn == "A" else "A")
    return out


def game_corpus(
    n_games: int, seed: int = 7, profile: Profile = DEFAULT_PROFILE
) -> list[tuple[Position, tuple[int, int]]]:
    """(position before the coup, roll) of every coup of ``n_games`` self-played games."""
    from ..replay.generate.selfplay import selfplay
    from ..replay.verifier.verify import verify

    out: list[tuple[Position, tuple[int, int]]] = []
    for rec in selfplay(n_games, seed, profile=profile):
        trace = verify(rec, profile, trace=True).trace
        for x, y in pairwise(trace):
            if not x.releve_ended:
                out.append((x.position_after, y.roll))
    return out


def run_games(n_games: int = 20, seed: int = 7, profile: Profile = DEFAULT_PROFILE) -> dict[str, float]:
    """legal_plays on the coups of self-played games, in game order, cold caches."""
    pairs = game_corpus(n_games, seed, profile)
    best = float("inf")
    for _ in range(3):
        moves.clear_cache()
        t = time.process_time()
        for pos, roll in pairs:
            legal_plays(pos, roll, profile)
        best = min(best, time.process_time() - t)
    return {"pairs": len(pairs), "us_per_call_games": best / len(pairs) * 1e6}


def run(n: int = 3000, seed: int = 1852, profile: Profile = DEFAULT_PROFILE) -> dict[str, float]:
    positions = corpus(n, seed, profile)
    rng = random.Random(seed)
    rolls = [rng.choice(ROLLS) for _ in positions]
    moves.clear_cache()
    t = time.process_time()
    plays = 0
    for pos in positions:
        for r in ROLLS:
            plays += len(legal_plays(pos, r, profile).plays)
        moves.clear_cache()
    all21 = time.process_time() - t
    t = time.process_time()
    for pos, r in zip(positions, rolls):
        legal_plays(pos, r, profile)
        moves.clear_cache()
    one = time.process_time() - t
    return {
        "positions": len(positions),
        "us_per_call_21_rolls": all21 / (21 * len(positions)) * 1e6,
        "us_per_call_one_roll": one / len(positions) * 1e6,
        "plays_per_call": plays / (21 * len(positions)),
    }
