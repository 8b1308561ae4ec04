"""Issue 27's figures in one command: each row's worst input through its command (CPU and
peak memory, less the command's start-up, per KB of input, beside the "before" of
docs/resilience.md), the typo recovery's rate and cost on one-typo games, and the growth
exponents of ``check``, ``db import``, ``publish`` and ``standings`` (tests/fuzz/growth.py).

    python tests/fuzz/bench27.py [--quick]

About 3 minutes on a quiet 2-core machine (``--quick``: smaller growth sweeps and 40
one-typo games).  Nothing to prepare: every input is written into a temporary folder.
The bound (docs/resilience.md, tests/fuzz/bound.py): 20 ms + 10 ms and 5 MB + 0.15 MB
per KB (publish: its memory; its time is reported).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz.bound import Cost  # noqa: E402
from fuzz.growth import exponents, games_text  # noqa: E402

HEAD = '[A "Dupont"]\n[B "Martin"]\n[Partie "douze-trous"]\n[Result "*"]\n\n'
CLI = [sys.executable, "-m", "trictrac.cli"]


def _dense(n: int, body: str, same_side: bool = False) -> str:
    if same_side:
        return HEAD + "".join(f"1. A {body}\n" for _ in range(n))
    return HEAD + "relevé 1\n" + "".join(f"{i % 2 + 1}. {'AB'[i % 2]} {body}\n" for i in range(n))


#: (row, input, command, the input's text or a maker, before: docs/resilience.md or the issue)
ROWS: list[tuple[str, str, str, object, str]] = [
    (
        "1",
        "tag of 500,000 escapes (1 MB)",
        "check",
        lambda: '[Event "' + "\\a" * 500_000 + '"]\n' + HEAD,
        "0.86 s, 530 MB",
    ),
    ("1", "comment of 500,000 lines (1 MB)", "check", lambda: HEAD + "{" + "a\n" * 500_000 + "}\n", "1.05 s, 478 MB"),
    (
        "1",
        "reason of 500,000 escapes (1 MB)",
        "check",
        lambda: HEAD + "1. A 2-1 1/3 1/2 B:école+2(" + "\\)" * 500_000 + ")\n",
        "1.14 s, 421 MB",
    ),
    ("2", "100,000 coups wrong each (0.9 MB)", "check", lambda: _dense(100_000, "2-1"), "25.9 s, 314 MB"),
    ("2", "the same", "check --json", lambda: _dense(100_000, "2-1"), "29 s, 1.07 GB (issue)"),
    ("2", "20,000 such coups (180 KB)", "publish", lambda: _dense(20_000, "2-1"), "30 s, 326 MB (issue, 218 KB)"),
    (
        "2",
        "260 coups `1. A 2-1 A+3` (3.4 KB, recovery)",
        "check",
        lambda: _dense(260, "2-1 A+3", same_side=True),
        "over 120 s (killed); 9.3 s wall last session",
    ),
    (
        "2",
        "260 coups `2-1 1/5 1/6` (4.4 KB, recovery)",
        "check",
        lambda: _dense(260, "2-1 1/5 1/6"),
        "0.59 s CPU of read + verify (fbe6afd)",
    ),
    (
        "2",
        "260 coups `2-1 61/12` (3.9 KB, recovery)",
        "check",
        lambda: _dense(260, "2-1 61/12"),
        "1.22 s CPU of read + verify (fbe6afd)",
    ),
    ("3", "2,000 games, 4,000 players (260 KB)", "publish", lambda: games_text(2_000, None), "203 s, 619 MB"),
    ("3", "the same in a database", "standings", lambda: games_text(2_000, None), "100 s, 324 MB"),
    (
        "9",
        '8 MB of `[A "x"]` on standard input',
        "check -",
        lambda: '[A "x"]\n' * 1_000_000,
        "MemoryError (issue, 41 MB)",
    ),
]


def measure(argv: list[str], stdin: Path | None = None) -> tuple[float, float]:
    """CPU seconds (user + system) and peak MB of one command."""
    with open(stdin, "rb") if stdin else open(os.devnull, "rb") as inp:
        proc = subprocess.Popen(argv, stdin=inp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"failed ({os.waitstatus_to_exitcode(status)}): {' '.join(argv)}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def _argv(command: str, path: Path, work: Path) -> tuple[list[str], Path | None]:
    if command == "publish":
        return [*CLI, "publish", str(path), "-o", str(work / f"site-{path.stem}")], None
    if command == "standings":
        db = work / f"{path.stem}.db"
        if not db.exists():
            subprocess.run([*CLI, "db", "import", str(db), str(path)], capture_output=True, check=False)
        return [*CLI, "standings", str(db)], None
    if command == "check -":
        return [*CLI, "check", "-"], path
    return [*CLI, *command.split(), str(path)], None


def rows(work: Path) -> list[str]:
    small = work / "small.trn"
    small.write_text(HEAD + "1. A 2-1 1/3 1/2\n", encoding="utf-8")
    start: dict[str, tuple[float, float]] = {}
    out = ["row  input | command: after (CPU and peak memory, less the start-up; per KB) | before"]
    for k, (row, what, command, make, before) in enumerate(ROWS):
        text = make() if callable(make) else str(make)
        path = work / f"row{k}.trn"
        path.write_text(text, encoding="utf-8")
        kb = path.stat().st_size / 1024
        if command not in start:
            runs = [measure(*_argv(command, small, work)) for _ in range(2)]
            start[command] = (min(r[0] for r in runs), min(r[1] for r in runs))
        sec, mb = measure(*_argv(command, path, work))
        sec, mb = max(0.0, sec - start[command][0]), max(0.0, mb - start[command][1])
        # the bound as the fuzzer holds it (tests/fuzz/bound.py: 20 ms and 5 MB of floor)
        cost = Cost(command.split()[0], kb, sec, mb)
        verdict = "holds" if cost.holds else "OVER THE BOUND"
        out.append(
            f"{row:>3}  {what} | {command}: {sec:.2f} s, {mb:.0f} MB; {sec * 1000 / kb:.2f} ms/KB, "
            f"{mb / kb:.3f} MB/KB ({verdict}) | before: {before}"
        )
    return out


def typos(games: int) -> list[str]:
    """The one-typo games of bench/typo_bench.py: the recovery's rate, and its cost per KB."""
    from trictrac.bench.typo_bench import KINDS, judge_typo, make_typo
    from trictrac.notation.writer import write_record
    from trictrac.replay.generate.selfplay import selfplay

    rng = random.Random("typo:0")
    n = alone = proposals = original = 0
    worst = (0.0, "")
    for k, rec in enumerate(selfplay(games, 0, "douze-trous")):
        made = make_typo(write_record(rec), KINDS[k % len(KINDS)], rng)
        if made is None:
            continue
        text, typo = made
        t = time.process_time()
        a, o = judge_typo(text, typo, True)
        dt = time.process_time() - t
        n += 1
        alone += a
        if typo.kind in ("digit", "side"):
            proposals += 1
            original += o
        per_kb = dt * 1000 / (len(text.encode()) / 1024)
        worst = max(worst, (per_kb, typo.kind))
    return [
        f"one-typo games ({n}): {alone / n:.1%} verified to the end with the typo's finding only, "
        f"proposal = original in {original / max(proposals, 1):.1%}; the costliest {worst[0]:.1f} ms/KB "
        f"(a {worst[1]} typo; read + verify in this process)"
    ]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="trictrac-bench27-"))
    t0 = time.perf_counter()
    try:
        for line in rows(work):
            print(line, flush=True)
        for line in typos(40 if args.quick else 100):
            print(line, flush=True)
        print("growth exponents (CPU less the start-up; time ~ n^k):", flush=True)
        for line in exponents(125, 3) if args.quick else exponents(400, 4):
            print(line, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
