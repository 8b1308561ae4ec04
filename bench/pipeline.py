"""Whole-process steps of ``trictrac bench``: ``check`` (one core, ``-j 2``, memory as
the archive grows), the python-chess comparison, ``db import`` and ``publish``; plus
the in-process ``parse`` and ``verify`` figures of the corpus.

Each whole-process step runs the real command (``python -m trictrac.cli ...``) as a
child; its CPU seconds and peak memory are that child's own (:func:`.common.run_child`).
Rates of one process are per CPU second (a loaded machine disturbs them less); the
``-j 2`` speed-ups compare wall seconds, which is what parallelism buys.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

from .common import Child, Row, clear_caches, cpu_seconds, remove_db, row, run_child
from .corpus import chess_pgn, repeated

__all__ = ["check", "chess_replay", "db_import", "memory", "parse_corpus", "publish", "verify_in_process"]

#: python-chess replaying a PGN (issue 17): read_game + board.push of every mainline move
_CHESS = """
import sys
import chess.pgn
n = 0
with open(sys.argv[1], encoding="utf-8") as f:
    while True:
        game = chess.pgn.read_game(f)
        if game is None:
            break
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
            n += 1
print(n)
"""


def parse_corpus(path: str) -> list[Row]:
    """The streaming reader over the corpus: MB/s and games/s (this process)."""
    from ..notation.reader import iter_records

    size = os.path.getsize(path)
    c0 = cpu_seconds()
    t0 = time.perf_counter()
    games = sum(1 for _ in iter_records(path))
    dt, cpu = time.perf_counter() - t0, cpu_seconds() - c0
    return [
        row("parse corpus", round(size / 1e6, 3), "MB", dt, cpu=cpu, note=f"{games} games"),
        row("parse corpus", games, "games", dt, cpu=cpu),
    ]


def verify_in_process(path: str, jobs: int = 1) -> Row:
    """``verify_file`` in this process: coups verified per second."""
    from ..replay.verifier.verify import verify_file

    clear_caches()
    c0 = cpu_seconds()
    t0 = time.perf_counter()
    coups = games = findings = 0
    for rep in verify_file(path, jobs=jobs):
        games += 1
        coups += rep.coups_verified
        findings += len(rep.findings)
    return row(
        f"verify ({jobs} job{'s' if jobs > 1 else ''})",
        coups,
        "coups",
        time.perf_counter() - t0,
        cpu=cpu_seconds() - c0,
        note=f"{games} games, {findings} findings",
    )


def best_run(
    args: list[str],
    *,
    jobs: int = 1,
    repeat: int = 3,
    code: str | None = None,
    ok: tuple[int, ...] = (0, 1),
    after_each: Callable[[], None] | None = None,
) -> Child:
    """The best of ``repeat`` runs of one child (least CPU with one job, least wall time
    with ``-j``): other work on the machine only ever slows a run down.  ``after_each``
    puts things back between runs (a database removed)."""
    runs = []
    for _ in range(repeat):
        runs.append(run_child(args, code=code, ok=ok))
        if after_each is not None:
            after_each()
    return min(runs, key=lambda r: r.cpu if jobs == 1 else r.seconds)


def check(path: str, coups: int, jobs: int = 1, step: str = "check", repeat: int = 3) -> Row:
    """``trictrac check FILE [-j N]`` as a whole process: coups per second (best of
    ``repeat``)."""
    c = best_run(["check", path, "--jobs", str(jobs)], jobs=jobs, repeat=repeat)
    return row(
        step,
        coups,
        "coups",
        c.seconds,
        cpu=c.cpu if jobs == 1 else None,
        peak_mb=c.peak_mb,
        note=f"exit {c.returncode}, {jobs} job(s), best of {repeat}" + _all_cpu(c.cpu, jobs),
    )


def _all_cpu(cpu: float, jobs: int) -> str:
    """With ``-j`` the rate per CPU second means little (the speed-up compares wall
    seconds); the CPU seconds of all its processes (wait4 counts the workers it reaped)
    say what the parallelism costs."""
    return f", {cpu:.2f} CPU s in all processes" if jobs > 1 else ""


def chess_replay(plies: int, tmp: str, seed: int = 1, repeat: int = 3) -> Row:
    """python-chess reading and replaying a PGN of ``plies`` plies, as a whole process
    (best of ``repeat``, as ``check``)."""
    pgn = os.path.join(tmp, "random.pgn")
    info = chess_pgn(pgn, plies, seed)
    c = best_run([pgn], code=_CHESS, ok=(0,), repeat=repeat)
    done = int(c.stdout.strip() or 0)
    if done != plies:
        raise RuntimeError(f"python-chess replayed {done} plies of {plies}")
    return row(
        "chess",
        plies,
        "plies",
        c.seconds,
        cpu=c.cpu,
        peak_mb=c.peak_mb,
        note=f"python-chess {info['chess']}, {info['games']} games, best of {repeat}",
    )


def memory(path: str, sizes: list[int], tmp: str) -> list[Row]:
    """Peak memory of ``trictrac check`` on archives of ``sizes`` parties (the corpus
    repeated): flat memory means the same peak whatever the size."""
    out = []
    for n in sizes:
        big = repeated(path, n, os.path.join(tmp, f"archive-{n}.trn"))
        c = run_child(["check", big])
        out.append(
            row(
                f"check memory {n}",
                n,
                "games",
                c.seconds,
                cpu=c.cpu,
                peak_mb=c.peak_mb,
                note=f"{os.path.getsize(big) / 1e6:.1f} MB archive",
            )
        )
        os.unlink(big)
    return out


def db_import(sample: str, games: int, tmp: str, jobs: int = 1, repeat: int = 3) -> Row:
    """``trictrac db import`` of ``games`` games into a new database (verification
    included), ``repeat`` times: the best run (least CPU with one job, least wall time
    with ``-j``), as other work on the machine only ever slows a run down."""
    db = os.path.join(tmp, f"bench-{jobs}.db")
    c = best_run(
        ["db", "import", db, sample, "--jobs", str(jobs)], jobs=jobs, repeat=repeat, after_each=lambda: remove_db(db)
    )
    return row(
        "db import" + (f" -j {jobs}" if jobs > 1 else ""),
        games,
        "games",
        c.seconds,
        cpu=c.cpu if jobs == 1 else None,
        peak_mb=c.peak_mb,
        note=f"exit {c.returncode}, best of {repeat}" + _all_cpu(c.cpu, jobs),
    )


def publish(sample: str, games: int, tmp: str) -> list[Row]:
    """``trictrac publish`` of ``games`` games as a site (verification included):
    pages per CPU second, and the site's CPU seconds (issue 15: 200 parties in under
    5 s); then ``trictrac check`` of the same games, the part of it that is reading
    and verifying (with the interpreter's start)."""
    out = os.path.join(tmp, "site")
    c = run_child(["publish", sample, "-o", out])
    size = 0
    for folder, _dirs, files in os.walk(out):
        size += sum(os.path.getsize(os.path.join(folder, f)) for f in files)
    site = row(
        "publish",
        games,
        "pages",
        c.seconds,
        cpu=c.cpu,
        peak_mb=c.peak_mb,
        note=f"site of {games} parties: {c.cpu:.2f} CPU s, {size / 1e6:.1f} MB written, exit {c.returncode}",
    )
    v = run_child(["check", sample])
    share = f", {v.cpu / c.cpu:.0%} of publish" if c.cpu else ""
    checked = row(
        "publish: check",
        games,
        "games",
        v.seconds,
        cpu=v.cpu,
        peak_mb=v.peak_mb,
        note=f"the same games read and verified only{share}",
    )
    return [site, checked]


def python_version() -> str:
    return sys.version.split()[0]
