"""Growth exponents of ``check``, ``db import``, ``publish`` and ``standings`` (issue 27):
CPU time (less the start-up, measured on one game) and peak memory at n, 2n, 4n games, with a
new pair of players each game or with a club of 20 players, then at 4n games with n/4 to 4n
players; the exponent k of time ~ n^k (in games) or ~ p^k (in players).

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


def sweep(work: Path, label: str, sizes: list[tuple[int, int | None]], by_players: bool) -> list[str]:
    """Each command at each (games, players); the exponent in games (or in players)."""
    tt = [sys.executable, "-m", "trictrac.cli"]
    rows: dict[str, list[tuple[int, float, float]]] = {}
    for step, (n, players) in enumerate([(1, 20), *sizes]):  # 1 game: the start-up, subtracted
        src = work / f"g{label[:2]}{step}.trn"
        src.write_text(games_text(n, players), encoding="utf-8")
        db = work / f"g{label[:2]}{step}.db"
        site = work / f"site{label[:2]}{step}"
        x = (2 * n if players is None else players) if by_players else n
        for name, argv in (
            ("check", [*tt, "check", str(src)]),
            ("db import", [*tt, "db", "import", str(db), str(src)]),
            ("publish", [*tt, "publish", str(src), "-o", str(site)]),
            ("standings", [*tt, "standings", str(db)]),
        ):
            sec, mb = measure(argv)
            rows.setdefault(name, []).append((x if step else 0, sec, mb))
    unit = "players" if by_players else "games"
    out = [f"{label}:"]
    for name, (start, *pts) in rows.items():
        base = start[1]  # interpreter and imports
        k = _slope([(x, sec - base) for x, sec, _ in pts if sec - base > 0.05])
        cells = ", ".join(f"{x} {unit} {sec:.2f} s {mb:.0f} MB" for x, sec, mb in pts)
        out.append(f"  {name:10s} exponent {k:.2f}  (start-up {base:.2f} s CPU; {cells})")
    return out


def exponents(games: int = 250, steps: int = 3) -> list[str]:
    """The lines of the three sweeps: in games with a new pair of players each game, in
    games with a club of 20 players, and in players at the largest number of games."""
    work = Path(tempfile.mkdtemp(prefix="trictrac-growth-"))
    top = games << (steps - 1)
    player_steps = sorted({max(20, top >> (2 * (steps - 1 - s))) for s in range(steps)})
    try:
        lines = sweep(
            work, "in games, a new pair of players each game", [(games << s, None) for s in range(steps)], False
        )
        lines += sweep(work, "in games, a club of 20 players", [(games << s, 20) for s in range(steps)], False)
        lines += sweep(work, f"in players, {top} games", [(top, p) for p in player_steps], True)
        return lines
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=250)
    ap.add_argument("--steps", type=int, default=3)
    args = ap.parse_args()
    print("\n".join(exponents(args.games, args.steps)))


if __name__ == "__main__":
    main()
