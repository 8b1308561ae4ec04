"""Coverage-guided fuzzing of the text pipeline with atheris (issue 18; docs/resilience.md).

    python tests/fuzz/fuzz_records.py -atheris_runs=1000000 [-crash_dir=DIR] [CORPUS_DIR ...]

Each input goes through read -> verify -> write -> read again and the position parser
(tests/fuzz/harness.py).  A crash does not stop the run: the input is saved in the crash
directory (default ``fuzz-crashes/``) and counted.  A summary line is printed every
100,000 inputs and at the end: inputs, inputs/s, crashes, inputs over 1 s, the slowest
input, peak memory (max RSS).  Exit status 1 when anything crashed or took over 1 s.
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
    from fuzz.harness import exercise

_RUNS = 0
_CRASH_DIR = Path("fuzz-crashes")
for _a in list(sys.argv[1:]):
    if _a.startswith("-atheris_runs="):
        _RUNS = int(_a.split("=", 1)[1])
    elif _a.startswith("-crash_dir="):
        _CRASH_DIR = Path(_a.split("=", 1)[1])
        sys.argv.remove(_a)  # ours, not libFuzzer's

_stats = {"n": 0, "crashes": 0, "slow": 0, "slowest": 0.0}
_T0 = time.perf_counter()


def _summary() -> str:
    dt = time.perf_counter() - _T0
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    s = _stats
    return (
        f"fuzz summary: {s['n']} inputs in {dt:.0f} s, {s['n'] / max(dt, 1e-9):.0f} inputs/s, "
        f"{s['crashes']} crashes, {s['slow']} inputs over 1 s (slowest {s['slowest']:.3f} s), "
        f"peak memory {rss_mb:.0f} MB"
    )


def _save(data: bytes, why: str) -> None:
    _CRASH_DIR.mkdir(parents=True, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    (_CRASH_DIR / f"{why}-{name}.trn").write_bytes(data)


def test_one_input(data: bytes) -> None:
    t = time.perf_counter()
    try:
        exercise(data)
    except Exception as e:  # noqa: BLE001 - every exception is a finding of the fuzzer
        _stats["crashes"] += 1
        _save(data, "crash")
        print(f"CRASH {type(e).__name__}: {str(e)[:200]}", flush=True)
    dt = time.perf_counter() - t
    if dt > _stats["slowest"]:
        _stats["slowest"] = dt
    if dt > 1.0:
        _stats["slow"] += 1
        _save(data, "slow")
    _stats["n"] += 1
    n = _stats["n"]
    if n % 100_000 == 0 or n == _RUNS:
        print(_summary(), flush=True)
        if n == _RUNS:
            os._exit(1 if _stats["crashes"] or _stats["slow"] else 0)


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
