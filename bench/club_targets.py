"""Every figure of issue 30's "Done when", in one run (about 20 minutes on a 2-core machine, most
of it the import/check ratio's rounds):

    python -m trictrac.bench.club_targets --archive /work/data/db3/fed10000.trn --db /work/data/db3/fed10000.db

* database bytes per KB of records: the prepared federation database (``--db``, made by
  ``trictrac db import`` of ``--archive``; target ≤ 4);
* ``db import`` games per CPU s over ``check``'s games per CPU s on the same archive (its first
  ``--sample`` parties), each a whole process: pure Python (with ``TRICTRAC_PURE=1``) and, when
  a build is in place (``python -m trictrac.bench.compile_core --hot``), with the compiled core,
  measured as ``bench.import_ratio`` measures it (``--rounds`` interleaved rounds, the ratio of
  all their CPU seconds and its 95 % interval; met when the whole interval is ≥ 0.8);
* ``db import -j 2`` speed-up on the first ``--parties-j`` parties (1,200): wall seconds of
  ``-j 1`` over those of ``-j 2``, best of 2 each (target ≥ 1.8);
* each query a club runs on the federation database, best of 3 (target < 200 ms), with the
  index its ``EXPLAIN QUERY PLAN`` reads (no full scan of the club's rows), and Datasette's
  pages in process (target < 500 ms).

The archive is ``trictrac selfplay -n 10000 --seed 30 --players players200.txt --seasons 3
--inject 1 --inject-every 5`` (docs/database.md, "Speed"): its parts are taken from it, so the
bench self-plays nothing.
"""

from __future__ import annotations

import argparse
import os
import re
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

from .common import first_games, remove_db, run_child
from .import_ratio import ROUNDS, TARGET, cpu_rounds, ratio_interval, rounds_arg, verdict


def _best(args: list[str], *, repeat: int, env: dict[str, str], by: str, db: Path | None = None) -> float:
    """The best run of ``python -m trictrac.cli ARGS``: least CPU (``by='cpu'``) or wall s."""
    best = float("inf")
    for _ in range(repeat):
        if db is not None:
            remove_db(db)
        old = {k: os.environ.get(k) for k in env}
        os.environ.update(env)
        try:
            c = run_child(args)
        finally:
            for k, v in old.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        best = min(best, c.cpu if by == "cpu" else c.seconds)
    return best


def compiled_build() -> bool:
    """Whether a compiled core is built in place (``bench.compile_core``)."""
    from .compile_core import built_files

    return any(p.suffix == ".so" for p in built_files())


def speedup(sample: Path, tmp: Path, repeat: int) -> tuple[float, float, float]:
    """(``-j 1`` wall s, ``-j 2`` wall s, speed-up) of ``db import`` of ``sample``."""
    db = tmp / "j.db"
    one = _best(["db", "import", str(db), str(sample), "--jobs", "1"], repeat=repeat, env={}, by="wall", db=db)
    two = _best(["db", "import", str(db), str(sample), "--jobs", "2"], repeat=repeat, env={}, by="wall", db=db)
    return one, two, one / two


def bytes_per_kb(db: Path, archive: Path) -> tuple[int, float]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    pages = conn.execute("PRAGMA page_count").fetchone()[0] * conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    return pages, pages / (archive.stat().st_size / 1024)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m trictrac.bench.club_targets", description=__doc__.split("\n")[0])
    p.add_argument("--archive", type=Path, required=True, help="the federation's archive (.trn)")
    p.add_argument("--db", type=Path, required=True, help="its database, made by `trictrac db import`")
    p.add_argument("--sample", type=int, default=300, help="parties of the import/check ratio (300)")
    p.add_argument("--parties-j", type=int, default=1200, help="parties of the -j 2 speed-up (1200)")
    p.add_argument("--repeat", type=int, default=3, help="runs of each timing but the ratio's, the best kept (3)")
    p.add_argument("--rounds", type=rounds_arg, default=ROUNDS, help=f"rounds of the import/check ratio ({ROUNDS})")
    p.add_argument("--skip", default="", help="comma-separated: size,ratio,jobs,queries")
    args = p.parse_args(argv)
    skip = set(filter(None, args.skip.split(",")))
    t0 = time.perf_counter()
    out: list[str] = []

    def say(line: str) -> None:
        out.append(line)
        print(line, flush=True)

    bad = 0
    if "size" not in skip:
        size, per_kb = bytes_per_kb(args.db, args.archive)
        n = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True).execute("SELECT COUNT(*) FROM games").fetchone()[0]
        say(f"database: {n} games, {size / 1e6:.1f} MB for {args.archive.stat().st_size / 1e6:.1f} MB of records: "
            f"{per_kb / 1024:.2f} KB per KB of records (target <= 4)")  # fmt: skip
        bad += per_kb / 1024 > 4
    with tempfile.TemporaryDirectory(prefix="trictrac-club-targets-") as d:
        tmp = Path(d)
        if "ratio" not in skip:
            sample = tmp / "sample.trn"
            games = first_games(args.archive, args.sample, sample)
            modes = [("pure Python", True)] + ([("compiled core", False)] if compiled_build() else [])
            db = tmp / "ratio.db"
            check, imp = ["check", str(sample)], ["db", "import", str(db), str(sample)]
            cpu = cpu_rounds(check, imp, db, [pure for _, pure in modes], args.rounds)
            for name, pure in modes:
                interval = ratio_interval(cpu[pure])
                said = verdict(interval)
                say(f"import/check games per CPU s, {name}, {games} parties, {args.rounds} rounds: {interval}: "
                    f"{said} (target >= {TARGET})")  # fmt: skip
                bad += said != "met"
            if len(modes) == 1:
                say("compiled core: no build in place (python -m trictrac.bench.compile_core --hot, then --clean)")
        if "jobs" not in skip:
            sample = tmp / "jobs.trn"
            games = first_games(args.archive, args.parties_j, sample)
            one, two, s = speedup(sample, tmp, max(1, args.repeat - 1))
            say(f"db import -j 2 speed-up, {games} parties: {one:.2f} s / {two:.2f} s = {s:.2f} (target >= 1.8)")
            bad += s < 1.8
    if "queries" not in skip:
        from .federation import datasette_pages, time_club_queries

        for t in time_club_queries(args.db):
            indexes = sorted(
                {m for _, plan in t.statements for d in plan for m in re.findall(r"USING (?:COVERING )?INDEX (\w+)", d)}
                | {"PRIMARY KEY" for _, plan in t.statements for d in plan if "PRIMARY KEY" in d}
            )
            ok = t.ms < 200 and not t.unindexed
            bad += not ok
            plan = ("SCAN: " + "; ".join(t.unindexed)) if t.unindexed else ", ".join(indexes) or "-"
            say(f"{t.name:<45} {t.ms:8.1f} ms  {plan}")
        for path, ms, status in datasette_pages(args.db):
            bad += ms >= 500 or status != 200
            say(f"{'Datasette ' + path[:40]:<45} {ms:8.1f} ms  HTTP {status}")
    say(f"{time.perf_counter() - t0:.0f} s; {'every target met' if not bad else f'{bad} figure(s) off target'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
