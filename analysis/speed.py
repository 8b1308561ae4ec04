"""Speed of the play analysis (``python -m trictrac.analysis.speed``).

Measures CPU time (``time.process_time``: on a shared machine the wall clock also counts
the other processes): the analysis of whole parties played by the heuristic bot
(``--parties``, seeds from ``--seed``), as seconds per partie and per 300 coups (target
≤ 60 s on one core), and the ranking of one throw's choices in positions of those parties
(target ≤ 1 s), both as ``trictrac analyse`` does them.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from ..replay.generate.selfplay import selfplay
from ..replay.rules.game import Game
from ..replay.rules.moves import ROLLS
from .evaluator import load_evaluator
from .review import FULL, KEEP, analyse_record


def measure(parties: int = 2, seed: int = 1, throws: int = 40) -> dict[str, float]:
    ev = load_evaluator()
    coups = 0
    t0 = time.process_time()
    records = list(selfplay(parties, seed))
    t_gen = time.process_time() - t0
    t0 = time.process_time()
    for rec in records:
        coups += len(analyse_record(rec, ev)["coups"])
    t_game = time.process_time() - t0
    rng = random.Random(seed)
    g = Game()
    states = []
    while not g.finished:
        states.append(g.copy())
        roll = rng.choice(ROLLS)
        ranked = ev.rank(g, roll, depth=1)
        g.apply_coup(roll, ranked[0].choice.play, leave=ranked[0].choice.leave)
    picks = [states[i] for i in sorted(rng.sample(range(len(states)), min(throws, len(states))))]
    worst = 0.0
    t0 = time.process_time()
    for s in picks:
        t = time.process_time()
        ev.rank(s, rng.choice(ROLLS), depth=2, keep=KEEP, full=FULL)
        worst = max(worst, time.process_time() - t)
    t_throw = (time.process_time() - t0) / len(picks)
    return {
        "parties": parties,
        "coups": coups,
        "generate_s": round(t_gen, 2),
        "analyse_s_per_partie": round(t_game / parties, 2),
        "analyse_s_per_300_coups": round(t_game / coups * 300, 2),
        "throw_s_mean": round(t_throw, 3),
        "throw_s_max": round(worst, 3),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m trictrac.analysis.speed", description=__doc__.split("\n\n")[0])
    ap.add_argument("--parties", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--throws", type=int, default=40)
    a = ap.parse_args(argv)
    print(json.dumps(measure(a.parties, a.seed, a.throws), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
