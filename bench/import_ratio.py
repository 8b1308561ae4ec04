"""Issue 30's import/check ratio, pure Python and compiled core, interleaved, in one command
(about 6 minutes on a quiet 2-core machine, three of them the build, skipped when a current
build is in place):

    python -m trictrac.bench.import_ratio --archive /work/data/db3/fed10000.trn

``db import`` games per CPU s over ``check``'s games per CPU s on the same sample (the
archive's first ``--sample`` parties), each a whole process (``bench.common.run_child``).
The compiled core (``bench.compile_core --hot``) is built first, then each round runs
``check`` and ``db import`` pure Python (``TRICTRAC_PURE=1``) and with the compiled core, one
after the other, so that a busy machine weighs on both sides of each ratio alike; the
figure is the median of the rounds' ratios (and, beside it, the ratio of the CPU seconds of all
the rounds, and that of the best CPU times).  Eleven rounds: on a shared host one process's
CPU seconds move by a fifth from one run to the next, and the median of five rounds moved from
0.76 to 0.89 over three runs of the same code (docs/performance.md, "Issue 30, tenth pass").  The
build is removed at the end (``compile_core --clean``): the tree is pure Python again.
Target: at least 0.8 (docs/performance.md, "The import target and the club database's shape").

``--instructions N`` counts, besides, the instructions each process executes on the archive's
first N parties under ``valgrind --tool=callgrind`` (when valgrind is installed): a count the
host's load does not move, for comparing two versions of the code where the CPU seconds of a
shared machine scatter more than the change (docs/performance.md, "Issue 30, eighth pass").
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .club_targets import first_games
from .common import remove_db, run_child
from .compile_core import ROOT, build, clean, hot_sources


def _current_build() -> bool:
    """A build in place of (at least) the hot sources, none edited since: no need to build."""
    from ..notation.compiled import MANIFEST, _stale

    manifest = ROOT / "replay" / MANIFEST
    try:
        built = set(json.loads(manifest.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return False
    return set(hot_sources()) <= built and not _stale()


def _cpu(args: list[str], pure: bool, db: Path | None = None) -> float:
    if db is not None:
        remove_db(db)
    os.environ["TRICTRAC_PURE"] = "1" if pure else ""
    return run_child(args).cpu


def instructions(args: list[str], pure: bool, db: Path | None = None) -> int:
    """The instructions ``python -m trictrac.cli ARGS`` executes, counted by callgrind (the
    same count from one run to the next: no clock, no other process weighs on it)."""
    if db is not None:
        remove_db(db)
    env = dict(os.environ, TRICTRAC_PURE="1" if pure else "", NO_COLOR="1")
    with tempfile.TemporaryDirectory(prefix="trictrac-callgrind-") as d:
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={d}/out"]
        done = subprocess.run(
            [*cmd, sys.executable, "-m", "trictrac.cli", *args], env=env, capture_output=True, text=True
        )
    counted = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode not in (0, 1) or counted is None:
        raise RuntimeError(f"{' '.join(args[:2])} under callgrind: exit {done.returncode}: {done.stderr[-500:]}")
    return int(counted.group(1))


def _count(archive: Path, parties: int, modes: list[tuple[str, bool]], tmp: Path) -> None:
    """``--instructions``: the ratio of the instructions of ``check`` and ``db import``."""
    sample, db = tmp / "counted.trn", tmp / "counted.db"
    games = first_games(archive, parties, sample)
    for name, pure in modes:
        check, imp = (
            instructions(["check", str(sample)], pure),
            instructions(["db", "import", str(db), str(sample)], pure, db),
        )
        print(
            f"instructions (callgrind), {name}, {games} {'party' if games == 1 else 'parties'}: check {check / 1e6:,.0f} M, "
            f"db import {imp / 1e6:,.0f} M, the import's own {(imp - check) / 1e6:,.0f} M: ratio {check / imp:.3f}",
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m trictrac.bench.import_ratio", description=__doc__.split("\n")[0])
    p.add_argument("--archive", type=Path, required=True, help="a .trn archive (its first --sample parties)")
    p.add_argument("--sample", type=int, default=300, help="parties measured (300)")
    p.add_argument("--rounds", type=int, default=11, help="rounds of the four processes (11)")
    p.add_argument("--no-build", action="store_true", help="pure Python only: no compiled core built")
    p.add_argument(
        "--instructions",
        type=int,
        default=0,
        metavar="N",
        help="also count the instructions of each on the first N parties under callgrind (valgrind)",
    )
    args = p.parse_args(argv)
    t0 = time.perf_counter()
    # every child writes its bytecode once, as an installed package has it: compiling the
    # sources again in each process would weigh on the side that loads more modules
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    old_pure = os.environ.get("TRICTRAC_PURE")
    modes = [("pure Python", True)] + ([] if args.no_build else [("compiled core", False)])
    bad = 0
    try:
        if not args.no_build and _current_build():
            print("compiled core: the build in place (current)", flush=True)
        elif not args.no_build:
            seconds = build(hot_sources())
            print(f"compiled core built in {seconds:.0f} s", flush=True)
        with tempfile.TemporaryDirectory(prefix="trictrac-import-ratio-") as d:
            tmp = Path(d)
            sample, db = tmp / "sample.trn", tmp / "ratio.db"
            games = first_games(args.archive, args.sample, sample)
            check, imp = ["check", str(sample)], ["db", "import", str(db), str(sample)]
            for _, pure in modes:  # a first, untimed run of each: bytecode written, caches warm
                _cpu(check, pure)
                _cpu(imp, pure, db)
            cpu: dict[bool, list[tuple[float, float]]] = {pure: [] for _, pure in modes}
            for _ in range(args.rounds):
                for _, pure in modes:
                    cpu[pure].append((_cpu(check, pure), _cpu(imp, pure, db)))
            if args.instructions and shutil.which("valgrind") is None:
                print("--instructions: valgrind is not installed: nothing counted", flush=True)
            elif args.instructions:
                _count(args.archive, args.instructions, modes, tmp)
            for name, pure in modes:
                pairs = cpu[pure]
                median = statistics.median(c / i for c, i in pairs)
                pooled = sum(c for c, _ in pairs) / sum(i for _, i in pairs)
                best_c, best_i = min(c for c, _ in pairs), min(i for _, i in pairs)
                print(
                    f"import/check games per CPU s, {name}, {games} parties, {len(pairs)} rounds interleaved: "
                    f"median {median:.2f}, all rounds {pooled:.2f}, "
                    f"best {games / best_i:.1f} / {games / best_c:.1f} = {best_c / best_i:.2f} (target >= 0.8)",
                    flush=True,
                )
                bad += median < 0.8
    finally:
        if old_pure is None:
            os.environ.pop("TRICTRAC_PURE", None)
        else:
            os.environ["TRICTRAC_PURE"] = old_pure
        if not args.no_build:
            print(f"compiled core removed ({clean()} files): pure Python again", flush=True)
    print(f"{time.perf_counter() - t0:.0f} s; {'target met' if not bad else f'{bad} figure(s) off target'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
