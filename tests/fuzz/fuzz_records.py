"""Coverage-guided fuzzing of the text pipeline with atheris (issue 18; docs/resilience.md).

    python tests/fuzz/fuzz_records.py -atheris_runs=1000000 [-crash_dir=DIR] [-memory_mb=1000] [CORPUS_DIR ...]

Each input goes through read -> verify -> write -> read again and the position parser
(tests/fuzz/harness.py); an input whose first byte is 0xF0 or more is first grown into
one of issue 27's shapes (``harness.grow``: long escape runs, comments of many lines,
finding-dense games, many players, look-alike names; the last two also ranked and
rendered as standings).  The run holds itself to ``-memory_mb`` of address space
(``RLIMIT_AS``, as ``ulimit -v``), so an input that needs more raises ``MemoryError``:
a crash.  A crash does not stop the run: the input is saved in the crash directory
(default ``fuzz-crashes/``) and counted.  A summary line is printed every 100,000
inputs and at the end: inputs, inputs/s, crashes, inputs over 1 s of CPU, the slowest input (CPU seconds),
grown inputs, inputs over the time bound (over 1 s and 30 ms per KB), peak memory
(max RSS).  Exit status 1 when anything crashed or was over the bound.
"""

from __future__ import annotations

import hashlib
import os
import resource
import sys
import time
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

with atheris.instrument_imports(include=["trictrac"]):
    from fuzz.harness import exercise, grow

_RUNS = 0
_CRASH_DIR = Path("fuzz-crashes")
_MEMORY_MB = 1000  # the address space the run may take: past it a MemoryError is a crash
for _a in list(sys.argv[1:]):
    if _a.startswith("-atheris_runs="):
        _RUNS = int(_a.split("=", 1)[1])
    elif _a.startswith("-crash_dir="):
        _CRASH_DIR = Path(_a.split("=", 1)[1])
        sys.argv.remove(_a)  # ours, not libFuzzer's
    elif _a.startswith("-memory_mb="):
        _MEMORY_MB = int(_a.split("=", 1)[1])
        sys.argv.remove(_a)
# the memory bound is the harness's own (as ``ulimit -v``): an input that needs more
# raises MemoryError inside exercise(), which is counted and saved as a crash
resource.setrlimit(resource.RLIMIT_AS, (_MEMORY_MB << 20, _MEMORY_MB << 20))
#: the time bound of docs/resilience.md: 10 ms per KB (with 0.25 s for the smallest inputs)
#: the time bound: docs/resilience.md allows `check` (read + verify) 10 ms per KB; the harness reads,
#: verifies with the trace, writes, reads again and may rank (about three times the work)
_MS_PER_KB = 30.0  # an input over 1 s and over this is over the bound

_stats = {"n": 0, "crashes": 0, "slow": 0, "slowest": 0.0, "grown": 0, "over": 0}
_T0 = time.perf_counter()


def _summary() -> str:
    dt = time.perf_counter() - _T0
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    s = _stats
    return (
        f"fuzz summary: {s['n']} inputs in {dt:.0f} s, {s['n'] / max(dt, 1e-9):.0f} inputs/s, "
        f"{s['crashes']} crashes, {s['slow']} inputs over 1 s (slowest {s['slowest']:.3f} s), "
        f"{s['grown']} grown into issue 27's shapes, {s['over']} over the time bound, "
        f"peak memory {rss_mb:.0f} MB (limit {_MEMORY_MB} MB)"
    )


def _save(data: bytes, why: str) -> None:
    _CRASH_DIR.mkdir(parents=True, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    (_CRASH_DIR / f"{why}-{name}.trn").write_bytes(data)


def test_one_input(data: bytes) -> None:
    data, shape = grow(data)
    _stats["grown"] += shape is not None
    t = time.process_time()  # CPU time: on a shared machine the wall clock measures the load
    try:
        exercise(data, standings=shape in ("many-players", "look-alikes"))
    except Exception as e:  # noqa: BLE001 - every exception is a finding of the fuzzer
        _stats["crashes"] += 1
        _save(data, "crash")
        print(f"CRASH {type(e).__name__}: {str(e)[:200]}", flush=True)
    dt = time.process_time() - t
    if dt > _stats["slowest"]:
        _stats["slowest"] = dt
    if dt > 1.0:
        _stats["slow"] += 1
        if dt > _MS_PER_KB * len(data) / 1024 / 1000:  # over 1 s and over 10 ms per KB
            _stats["over"] += 1
            _save(data, "over-bound")
    _stats["n"] += 1
    n = _stats["n"]
    if n % 100_000 == 0 or n == _RUNS:
        print(_summary(), flush=True)
        if n == _RUNS:
            os._exit(1 if _stats["crashes"] or _stats["over"] else 0)


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
