"""Engine speed: (position, roll) analyses per second (the ``engine`` step of ``trictrac bench``).

1. Builds a corpus of reachable positions by random legal play from a fixed seed
   (every relevé starts from both talons; a relevé ends at the sortie or after 200
   coups).
2. Times the analysis of every (position, roll) pair — the legal plays and every
   scoring event of one roll (``legal_plays`` + ``score_roll``) — with all caches
   cleared before the run, so each position is fresh.  Two figures: all 21 rolls of
   a position one after the other (what ``analyse`` does; per-position facts are
   shared by the 21 rolls) and one random roll per fresh position (nothing shared).
3. Prints a cProfile summary of where the time goes.
"""

from __future__ import annotations

import cProfile
import io
import pstats
import random
import time

from ..replay.rules import moves, scoring
from ..replay.rules.analyse import analyse
from ..replay.rules.moves import ROLLS, legal_plays
from ..replay.rules.position import Position, start_position
from ..replay.rules.profiles import DEFAULT_PROFILE, Profile
from ..replay.rules.scoring import next_position, score_roll

__all__ = ["corpus", "run"]


def corpus(n: int, seed: int = 1852, profile: Profile = DEFAULT_PROFILE, max_coups: int = 200) -> list[Position]:
    """``n`` distinct positions reached by random legal play from ``seed``."""
    rng = random.Random(seed)
    seen: set[Position] = set()
    out: list[Position] = []
    pos = start_position("A")
    coups = 0
    while len(out) < n:
        if pos not in seen:
            seen.add(pos)
            out.append(pos)
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        roll = (a, b) if a >= b else (b, a)
        ps = legal_plays(pos, roll, profile)
        play = rng.choice(ps.plays) if ps.plays else None
        coups += 1
        if play is None or play.result[25] == 15 or coups >= max_coups:
            pos = start_position(rng.choice("AB"))
            coups = 0
            continue
        pos = next_position(pos, roll, play, profile)
    return out


def _clear() -> None:
    moves.clear_cache()
    scoring.clear_cache()


def _all_rolls(positions: list[Position], profile: Profile) -> int:
    """The 21 rolls of each position, caches emptied after each position (a fresh
    position every time, and no cache growing over the run)."""
    n = 0
    clear = _clear
    for pos in positions:
        for r in ROLLS:
            score_roll(pos, r, profile)
        n += 21
        clear()
    return n


def _one_roll(positions: list[Position], rolls: list[tuple[int, int]], profile: Profile) -> int:
    """One roll per position, every cache emptied each time (nothing shared)."""
    clear = _clear
    for pos, r in zip(positions, rolls):
        score_roll(pos, r, profile)
        clear()
    return len(positions)


def _split(positions: list[Position], profile: Profile) -> tuple[float, float]:
    """CPU seconds in legal_plays and in scoring (plays already computed), fresh positions."""
    t_legal = t_score = 0.0
    clock = time.process_time
    for pos in positions:
        t0 = clock()
        for r in ROLLS:
            legal_plays(pos, r, profile)
        t1 = clock()
        for r in ROLLS:
            score_roll(pos, r, profile)
        t_score += clock() - t1
        t_legal += t1 - t0
        _clear()
    return t_legal, t_score


def run(n_positions: int = 2000, seed: int = 1852, profile: Profile = DEFAULT_PROFILE, top: int = 15) -> dict:
    """Run the benchmark; returns the figures (analyses per CPU second of this process,
    so that other load on the machine matters less) and the profile text."""
    clock = time.process_time
    t0 = clock()
    positions = corpus(n_positions, seed, profile)
    t_corpus = clock() - t0
    rng = random.Random(seed + 1)
    rolls = [rng.choice(ROLLS) for _ in positions]

    _clear()
    t0 = clock()
    n_all = _all_rolls(positions, profile)
    t_all = clock() - t0

    _clear()
    t0 = clock()
    n_one = _one_roll(positions, rolls, profile)
    t_one = clock() - t0

    t_legal, t_score = _split(positions, profile)

    # the analyser's whole dict (plays as lists, texts, events, chances) per position
    _clear()
    t0 = clock()
    for pos in positions:
        analyse(pos, profile)
        _clear()
    t_analyse = clock() - t0

    _clear()
    prof = cProfile.Profile()
    prof.enable()
    _all_rolls(positions, profile)
    prof.disable()
    s = io.StringIO()
    pstats.Stats(prof, stream=s).sort_stats("tottime").print_stats(top)
    _clear()
    return {
        "positions": len(positions),
        "corpus_seconds": round(t_corpus, 2),
        "all_rolls_per_second": round(n_all / t_all),
        "one_roll_per_second": round(n_one / t_one),
        "legal_plays_per_second": round(n_all / t_legal),
        "scoring_per_second": round(n_all / t_score),
        "legal_share": round(t_legal / (t_legal + t_score), 2),
        "analyse_positions_per_second": round(len(positions) / t_analyse),
        "profile": s.getvalue(),
    }
