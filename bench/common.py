"""Rows, clocks, child processes and archive samples shared by the benches (``trictrac bench``,
and the issue benches: ``first_games``).

A row is one measurement: ``{"step", "items", "unit", "seconds", "cpu_seconds",
"rate", "rate_per_cpu_second", "peak_mb", "note"}`` (see :mod:`trictrac.bench`).
Whole-process steps run ``python -m trictrac.cli ...`` as a child and read its own
resource usage with :func:`os.wait4`, so that CPU time and peak memory are those of
that process alone, whatever ran before it.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "Child",
    "Row",
    "clear_caches",
    "cpu_seconds",
    "first_games",
    "peak_memory",
    "progress",
    "remove_db",
    "row",
    "run_child",
    "timed",
]

Row = dict[str, Any]

#: ru_maxrss is in KiB on Linux, bytes on macOS
_RSS_SCALE = 1 if sys.platform == "darwin" else 1024


def row(
    step: str,
    items: float,
    unit: str,
    seconds: float,
    *,
    cpu: float | None = None,
    peak_mb: float | None = None,
    note: str = "",
) -> Row:
    """One measurement; rates are items per wall second and per CPU second."""
    return {
        "step": step,
        "items": items,
        "unit": unit,
        "seconds": round(seconds, 4),
        "cpu_seconds": None if cpu is None else round(cpu, 4),
        "rate": round(items / seconds, 1) if seconds > 0 else None,
        "rate_per_cpu_second": round(items / cpu, 1) if cpu else None,
        "peak_mb": None if peak_mb is None else round(peak_mb, 1),
        "note": note,
    }


def cpu_seconds() -> float:
    """CPU seconds used so far by this process and its finished children."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def peak_memory() -> dict[str, float]:
    """Peak resident set size in MB of this process and of its largest finished child."""
    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * _RSS_SCALE / 1e6
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * _RSS_SCALE / 1e6
    return {"self_mb": round(me, 1), "children_mb": round(kids, 1)}


def clear_caches() -> None:
    """Empty the engine's caches, so that no step profits from an earlier one."""
    from ..replay.rules import moves, scoring

    moves.clear_cache()
    scoring.clear_cache()


def timed(step: str, unit: str, fn: Callable[[], int]) -> Row:
    """Time ``fn()`` in this process (caches emptied first); it returns its item count."""
    clear_caches()
    c0 = cpu_seconds()
    t0 = time.perf_counter()
    items = fn()
    return row(step, items, unit, time.perf_counter() - t0, cpu=cpu_seconds() - c0)


@dataclass(frozen=True)
class Child:
    """A finished child process: wall and CPU seconds, peak RSS (MB), exit code, output."""

    seconds: float
    cpu: float
    peak_mb: float
    returncode: int
    stdout: str


#: runs a module or a code string and, at exit, writes its own peak RSS (VmHWM, KiB) to
#: the file named by $TRICTRAC_BENCH_PEAK.  ru_maxrss of the child would not do: Linux
#: carries the forking parent's peak across exec into the child's figure.
_WRAP = """
import atexit, os, runpy, sys
def _peak():
    try:
        with open("/proc/self/status") as f:
            kb = next(line.split()[1] for line in f if line.startswith("VmHWM:"))
        with open(os.environ["TRICTRAC_BENCH_PEAK"], "w") as out:
            out.write(kb)
    except (OSError, StopIteration, KeyError):
        pass
atexit.register(_peak)
kind, target = sys.argv[1], sys.argv[2]
if kind == "-m":
    sys.argv = [target, *sys.argv[3:]]
    runpy.run_module(target, run_name="__main__", alter_sys=True)
else:
    sys.argv = ["-c", *sys.argv[3:]]
    exec(compile(target, "<bench>", "exec"), {"__name__": "__main__"})
"""


def remove_db(path: str | os.PathLike[str]) -> None:
    """A database and its WAL files gone (none there: nothing to do), for a run that starts afresh."""
    for suffix in ("", "-wal", "-shm"):
        try:
            os.unlink(f"{os.fspath(path)}{suffix}")
        except FileNotFoundError:
            pass


def first_games(archive: Path, n: int, out: Path) -> int:
    """The first ``n`` games of ``archive`` written to ``out`` (split where a game's ``[Event``
    header starts a line after a blank one); the number written."""
    text = archive.read_text(encoding="utf-8")
    starts = [m.start() for m in re.finditer(r"(?:^|\n\n)\[Event ", text)]
    starts = [s if s == 0 else s + 2 for s in starts]
    end = starts[n] if n < len(starts) else len(text)
    out.write_text(text[:end].rstrip("\n") + "\n", encoding="utf-8")
    return min(n, len(starts))


def run_child(args: list[str], *, code: str | None = None, ok: tuple[int, ...] = (0, 1)) -> Child:
    """Run ``python -m trictrac.cli ARGS`` (or the Python ``code`` with ARGS) and
    measure that process alone: wall and CPU seconds (``os.wait4``), peak RSS.

    An exit code outside ``ok`` raises ``RuntimeError`` with the child's error output."""
    import tempfile

    head = ["-m", "trictrac.cli"] if code is None else ["-c", code]
    fd, peak_file = tempfile.mkstemp(prefix="trictrac-bench-peak-")
    os.close(fd)
    env = dict(os.environ, NO_COLOR="1", TRICTRAC_BENCH_PEAK=peak_file)
    # output to files, not pipes: nothing to drain while waiting, so wait4 can reap it
    with tempfile.TemporaryFile() as out_f, tempfile.TemporaryFile() as err_f:
        try:
            t0 = time.perf_counter()
            proc = subprocess.Popen([sys.executable, "-c", _WRAP, *head, *args], stdout=out_f, stderr=err_f, env=env)
            _pid, status, usage = os.wait4(proc.pid, 0)
            seconds = time.perf_counter() - t0
            proc.returncode = returncode = os.waitstatus_to_exitcode(status)
            with open(peak_file, encoding="ascii") as f:
                kb = f.read().strip()
        finally:
            os.unlink(peak_file)
        out_f.seek(0)
        err_f.seek(0)
        out, err = out_f.read(), err_f.read()
    if returncode not in ok:
        tail = err.decode("utf-8", "replace").strip().splitlines()[-3:]
        raise RuntimeError(f"{' '.join(args[:3])}: exit {returncode}: {' / '.join(tail)}")
    peak = int(kb) * 1024 / 1e6 if kb.isdigit() else usage.ru_maxrss * _RSS_SCALE / 1e6
    return Child(seconds, usage.ru_utime + usage.ru_stime, peak, returncode, out.decode("utf-8", "replace"))


def byte_compile_package() -> int:
    """Write the bytecode of every trictrac module, as pip does when it installs a
    package (python-chess's is written at its install): an editable install relies on
    the first import to write it, which ``PYTHONDONTWRITEBYTECODE`` forbids, and a child
    process would then compile every module again (~0.06 s of each run).  Returns the
    number of folders compiled."""
    import compileall
    import importlib

    done = 0
    for part in ("notation", "replay", "cli", "club", "publish", "bench"):
        folder = os.path.dirname(importlib.import_module(f"trictrac.{part}").__file__ or "")
        if folder and compileall.compile_dir(folder, quiet=2):
            done += 1
    return done


def progress(text: str) -> None:
    """A progress line on a terminal only (never in a pipe or a file)."""
    if sys.stderr.isatty():
        print(f"bench: {text}", file=sys.stderr, flush=True)
