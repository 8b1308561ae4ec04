"""The match: the ``analyse`` player against another bot (``python -m trictrac.analysis.match``).

Parties en douze trous (the default profile), ``-n`` pairs of parties: in pair ``i``
the same dice (seeded from ``--seed`` and ``i``) are thrown for both parties, the
analyse player in seat A in one and in seat B in the other (who throws first is drawn
from the same seed, so each side opens as often).  Reported from the analyse player's
side: the win rate and the holes per partie (his holes less his opponent's at the end),
each with a 95 % confidence interval (the win rate: Wilson's score interval; the holes:
the normal approximation, mean ± 1.96 standard errors over the parties).  ``-j N`` plays on N processes; the figures do not depend on it.

    python -m trictrac.analysis.match --against heuristic -n 1000 --seed 1 -j 2
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Iterable
from multiprocessing import get_context
from typing import Any

from ..replay.generate.selfplay import BotCoup
from ..replay.rules.game import Game
from ..replay.rules.position import other_side
from .player import BOTS, make_bot

__all__ = ["play_one", "run_match", "summary", "main"]


def play_one(seed: int, i: int, seats: dict[str, BotCoup]) -> tuple[str, int, int, int]:
    """One partie en douze trous: ``(winner, A's holes, B's holes, coups)``."""
    rng = random.Random(f"match:{seed}:{i}")
    first = "A" if rng.random() < 0.5 else "B"
    dice = random.Random(rng.getrandbits(64))
    ties = random.Random(rng.getrandbits(64))
    game = Game("douze-trous", first=first)
    while not game.finished:
        roll, _ps, play, leave, say = seats[game.turn](game, ties, dice=dice)
        game.apply_coup(roll, play, leave=leave, pour_tout=say)
        if game.coups > 6000:
            raise RuntimeError("match: a partie did not end")
    st = game.ledger.state
    return game.winner or "", st["A"].holes, st["B"].holes, game.coups


def _pair(args: tuple[int, int, str, int]) -> list[tuple[float, float, int]]:
    """Pair ``i``: the analyse player in seat A, then in seat B, on the same dice."""
    seed, i, against, deep = args
    me, them = make_bot("analyse", deep=deep), make_bot(against)
    rows = []
    for seat in ("A", "B"):
        seats = {seat: me, other_side(seat): them}
        winner, ha, hb, coups = play_one(seed, i, seats)
        mine, theirs = (ha, hb) if seat == "A" else (hb, ha)
        rows.append((1.0 if winner == seat else 0.0, float(mine - theirs), coups))
    return rows


def _ci(xs: list[float]) -> dict[str, float]:
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return {"mean": round(mean, 4), "low": round(mean - half, 4), "high": round(mean + half, 4)}


def _wilson(xs: list[float]) -> dict[str, float]:
    """A proportion with its 95 % Wilson score interval (sound also at 0 % or 100 %)."""
    n = len(xs)
    p = sum(xs) / n
    z = 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return {"mean": round(p, 4), "low": round(centre - half, 4), "high": round(centre + half, 4)}


def summary(rows: Iterable[tuple[float, float, int]], against: str, seed: int, deep: int) -> dict[str, Any]:
    rows = list(rows)
    return {
        "analyse": f"analyse (deep={deep})",
        "against": against,
        "seed": seed,
        "parties": len(rows),
        "win_rate": _wilson([r[0] for r in rows]),
        "holes_per_partie": _ci([r[1] for r in rows]),
        "coups_per_partie": round(sum(r[2] for r in rows) / max(1, len(rows)), 1),
    }


def run_match(
    against: str, pairs: int, seed: int = 1, jobs: int = 1, deep: int = 0, *, every: int = 0, log: Any = None
) -> dict[str, Any]:
    """``pairs`` pairs of parties (2 × pairs parties) against ``against``; with
    ``every`` the summary of the pairs played so far (always the first ones, in order)
    is printed to ``log`` every ``every`` pairs."""
    work = [(seed, i, against, deep) for i in range(pairs)]
    t0 = time.perf_counter()
    rows: list[tuple[float, float, int]] = []

    def done(pair: list[tuple[float, float, int]]) -> None:
        rows.extend(pair)
        if every and log is not None and len(rows) % (2 * every) == 0:
            s = summary(rows, against, seed, deep)
            s["seconds"] = round(time.perf_counter() - t0, 1)
            print(format_summary(s), file=log, flush=True)

    if jobs > 1:
        with get_context("fork").Pool(jobs) as pool:
            for pair in pool.imap(_pair, work, chunksize=1):
                done(pair)
    else:
        for w in work:
            done(_pair(w))
    out = summary(rows, against, seed, deep)
    out["seconds"] = round(time.perf_counter() - t0, 1)
    return out


def format_summary(s: dict[str, Any]) -> str:
    w, h = s["win_rate"], s["holes_per_partie"]
    return (
        f"{s['analyse']} vs {s['against']}: {s['parties']} parties (seed {s['seed']}), "
        f"win rate {w['mean']:.3f} [{w['low']:.3f}, {w['high']:.3f}], "
        f"holes per partie {h['mean']:+.2f} [{h['low']:+.2f}, {h['high']:+.2f}], "
        f"{s['coups_per_partie']} coups per partie, {s.get('seconds', 0)} s"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m trictrac.analysis.match", description=__doc__.split("\n\n")[0])
    ap.add_argument("--against", choices=[b for b in BOTS if b != "analyse"] + ["all"], default="all")
    ap.add_argument("-n", "--pairs", type=int, default=1000, help="pairs of parties (2 parties each; default 1000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--deep", type=int, default=0, help="choices valued again by the 21 replies (default 0)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--every", type=int, default=0, help="print the summary so far every N pairs (to stderr)")
    a = ap.parse_args(argv)
    if a.pairs < 1 or a.jobs < 1 or a.deep < 0:
        print("match: -n and -j must be >= 1, --deep >= 0", file=sys.stderr)
        return 2
    against = [b for b in BOTS if b != "analyse"] if a.against == "all" else [a.against]
    results = []
    for b in against:
        s = run_match(b, a.pairs, a.seed, a.jobs, a.deep, every=a.every, log=sys.stderr)
        results.append(s)
        if not a.json:
            print(format_summary(s), flush=True)
    if a.json:
        print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
