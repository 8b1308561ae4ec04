"""Growth exponents of ``check``, ``db import``, ``publish`` and ``standings`` (issue 27):
CPU time (less the start-up, measured on one game) and peak memory at n, 2n, 4n games, with as many players as games (a new
pair each game) or with a club of 20 players, and the exponent k of time ~ n^k.

    python tests/fuzz/growth.py [--games 250] [--steps 3]

Linear is k = 1; the crosstable before issue 27 made ``standings`` and ``publish`` 2 in
players.  A short run on purpose (a few seconds a size); the machine's load adds noise.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def games_text(n: int, players: int | None) -> str:
    """``n`` one-coup games; ``players`` distinct names (None: a new pair each game)."""
    out = []
    for g in range(n):
        if players is None:
            a, b = 2 * g, 2 * g + 1
        else:
            a, b = g % players, (g + 1 + g // players) % players
            b = b if b != a else (a + 1) % players
        out.append(
            f'[Event "Soirée"]\n[Date "2024.{g % 12 + 1:02d}.{g % 28 + 1:02d}"]\n[A "Joueur {a:05d}"]\n'
            f'[B "Joueur {b:05d}"]\n[Partie "douze-trous"]\n[Result "A 12-0"]\n\n1. A 2-1 1/3 1/2\n\n'
        )
    return "".join(out)


def measure(argv: list[str]) -> tuple[float, float]:
    """CPU seconds (user + system: a loaded machine changes them less than the wall
    clock) and peak MB of one command."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"failed: {' '.join(argv)}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def _slope(points: list[tuple[int, float]]) -> float:
    """The least-squares slope of log(time) on log(games): the exponent k of time ~ n^k."""
    if len(points) < 2:
        return float("nan")
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=250)
    ap.add_argument("--steps", type=int, default=3)
    args = ap.parse_args()
    tt = [sys.executable, "-m", "trictrac.cli"]
    work = Path(tempfile.mkdtemp(prefix="trictrac-growth-"))
    try:
        for label, players in (("players = 2 x games", None), ("20 players", 20)):
            rows: dict[str, list[tuple[int, float, float]]] = {}
            for step in range(-1, args.steps):
                n = 1 if step < 0 else args.games << step  # 1 game: the start-up, subtracted
                src = work / f"g{n}.trn"
                src.write_text(games_text(n, players), encoding="utf-8")
                db = work / f"g{n}.db"
                site = work / f"site{n}"
                for name, argv in (
                    ("check", [*tt, "check", str(src)]),
                    ("db import", [*tt, "db", "import", str(db), str(src)]),
                    ("publish", [*tt, "publish", str(src), "-o", str(site)]),
                    ("standings", [*tt, "standings", str(db)]),
                ):
                    sec, mb = measure(argv)
                    rows.setdefault(name, []).append((n, sec, mb))
            print(f"{label}:")
            for name, (start, *pts) in rows.items():
                base = start[1]  # interpreter and imports
                k = _slope([(n, sec - base) for n, sec, _ in pts if sec - base > 0.05])
                cells = ", ".join(f"{n} games {sec:.2f} s CPU {mb:.0f} MB" for n, sec, mb in pts)
                print(f"  {name:10s} exponent {k:.2f}  (start-up {base:.2f} s; {cells})")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
