"""The written play judged directly against enumeration (the ``judge`` step of
``trictrac bench``; :mod:`trictrac.replay.rules.direct`, issue 17).

On the coups of self-played games, as a record writes them (the verifier's common
case), µs per coup of ``direct.judge_written`` (enumeration only where the proof is
not at hand) and of ``moves.judge_play`` (which enumerates every legal play), caches
emptied before each run, the µs of the proof alone on the coups it decides, and the
share of coups decided without enumeration.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence
from typing import Any

from ..replay.generate.selfplay import choose_play
from ..replay.rules import moves
from ..replay.rules.direct import UNDECIDED, direct_play, judge_written
from ..replay.rules.moves import ROLLS, Play, legal_plays
from ..replay.rules.position import Position, start_position
from ..replay.rules.profiles import DEFAULT_PROFILE, Profile
from ..replay.rules.scoring import next_position

__all__ = ["game_coups", "run", "written"]


def written(play: Play, unplayable: Sequence[int]) -> list[tuple[int, int] | int]:
    """The play as a record writes it (its canonical text: a tout d'une as one move),
    plus the numbers declared unplayable."""
    out: list[tuple[int, int] | int] = []
    if play.steps:
        for tok in play.text().split():
            p, q = tok.split("/")
            out.append((int(p), 25 if q == "off" else int(q)))
    out.extend(unplayable)
    return out


def game_coups(
    seed: int, profiles: Sequence[Profile] = (DEFAULT_PROFILE,), max_coups: int = 400
) -> Iterator[tuple[Position, tuple[int, int], Play, tuple[int, ...], Profile]]:
    """Endless ``(position, roll, play, unplayable numbers, profile)`` of games between
    the bots of ``replay.generate.selfplay``, one profile per game in turn (a new relevé after a
    sortie; a new game after ``max_coups``)."""
    rng = random.Random(seed)
    g = 0
    while True:
        profile = profiles[g % len(profiles)]
        g += 1
        pos = start_position(rng.choice("AB"))
        for _ in range(max_coups):
            roll = rng.choice(ROLLS)
            ps = legal_plays(pos, roll, profile)
            play = choose_play(pos, ps.plays, rng)
            yield pos, roll, play, ps.unplayable, profile
            pos = next_position(pos, roll, play, profile)
            if play.result[25] == 15:
                pos = start_position(pos.turn)


def _time(fn: Any, sample: list[Any]) -> float:
    moves.clear_cache()
    t = time.process_time()
    for pos, roll, mv, profile in sample:
        fn(pos, roll, mv, profile)
    return (time.process_time() - t) / len(sample) * 1e6


def run(n: int = 5000, seed: int = 17, repeat: int = 3) -> dict[str, Any]:
    """µs per coup both ways (best of ``repeat``, CPU time, back to back) and the share
    decided directly, on ``n`` coups."""
    sample = []
    for pos, roll, play, unplayable, profile in game_coups(seed):
        sample.append((pos, roll, written(play, unplayable), profile))
        if len(sample) >= n:
            break
    decided = [c for c in sample if direct_play(*c) is not UNDECIDED]
    best_enum = best_direct = best_proof = float("inf")
    for _ in range(repeat):
        best_enum = min(best_enum, _time(moves.judge_play, sample))
        best_direct = min(best_direct, _time(judge_written, sample))
        if decided:
            best_proof = min(best_proof, _time(direct_play, decided))
    return {
        "coups": len(sample),
        "us_per_coup_enumeration": round(best_enum, 2),  # moves.judge_play
        "us_per_coup_direct": round(best_direct, 2),  # direct.judge_written, fallbacks included
        "us_per_decided_coup": round(best_proof, 2) if decided else None,  # direct_play where it decides
        "decided_directly": round(len(decided) / len(sample), 4),
    }
