"""Coverage-guided fuzzing of the text pipeline with atheris (issue 18; docs/resilience.md).

    python tests/fuzz/fuzz_records.py -atheris_runs=1000000 [-crash_dir=DIR] [-memory_mb=1000]
        [-count_file=FILE] [-deadline=EPOCH] [CORPUS_DIR ...]

Each input goes through read -> verify -> write -> read again and the position parser
(tests/fuzz/harness.py); an input whose first byte is 0xF0 or more is first grown into
one of issue 27's shapes (``harness.grow``: long escape runs, comments of many lines,
finding-dense games, many players, look-alike names; the last two also ranked and
rendered as standings).  The run holds itself to ``-memory_mb`` of address space
(``RLIMIT_AS``, as ``ulimit -v``), so an input that needs more raises ``MemoryError``:
a crash.  A crash does not stop the run: the input is saved in the crash directory
(default ``fuzz-crashes/``) and counted.

**Each input is held to the bound** of docs/resilience.md, cheaply (two ``getrusage``
calls and one write to ``/proc/self/clear_refs``, which resets the peak RSS): its CPU
time and the growth of the process's peak memory while it ran.  An input over
``bound.SCREEN`` times (``FLOOR_S`` + 10 ms per KB) of CPU, or over ``FLOOR_MB`` + 0.15 MB
per KB of memory, is a *suspect*, saved as ``suspect-…`` in the crash directory: the
instrumented code runs about three times slower than the real one, and the harness does
more than ``check`` (it writes and reads again), so a suspect is measured again by
``tests/fuzz/bound.py`` with the real commands, uninstrumented, and only then counted
over the bound (``tests/fuzz/million.py`` does both).

``-count_file``: every 1,000 inputs (and at the end) one JSON line is appended with the
inputs run since the last line, so that a run cut short (``-deadline``, a kill) keeps
its count and the next run adds to it.  A summary line is printed every 100,000 inputs
and at the end.  Exit status 1 when anything crashed.
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
import sys
import time
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

with atheris.instrument_imports(include=["trictrac"]):
    from fuzz.harness import exercise, grow, size_class

from fuzz.bound import FLOOR_MB, FLOOR_S, MB_PER_KB, S_PER_KB, SCREEN  # noqa: E402

_RUNS = 0
_CRASH_DIR = Path("fuzz-crashes")
_MEMORY_MB = 1000  # the address space the run may take: past it a MemoryError is a crash
_COUNT_FILE: Path | None = None
_DEADLINE = float("inf")
for _a in list(sys.argv[1:]):
    if _a.startswith("-atheris_runs="):
        _RUNS = int(_a.split("=", 1)[1])
    elif _a.startswith("-crash_dir="):
        _CRASH_DIR = Path(_a.split("=", 1)[1])
        sys.argv.remove(_a)  # ours, not libFuzzer's
    elif _a.startswith("-memory_mb="):
        _MEMORY_MB = int(_a.split("=", 1)[1])
        sys.argv.remove(_a)
    elif _a.startswith("-count_file="):
        _COUNT_FILE = Path(_a.split("=", 1)[1])
        sys.argv.remove(_a)
    elif _a.startswith("-deadline="):
        _DEADLINE = float(_a.split("=", 1)[1])
        sys.argv.remove(_a)
# the memory bound is the harness's own (as ``ulimit -v``): an input that needs more
# raises MemoryError inside exercise(), which is counted and saved as a crash
resource.setrlimit(resource.RLIMIT_AS, (_MEMORY_MB << 20, _MEMORY_MB << 20))
# writing "5" resets the peak RSS that getrusage reports (Linux 4.0+): the peak of one input
try:
    _CLEAR_REFS: int | None = os.open("/proc/self/clear_refs", os.O_WRONLY)
except OSError:  # pragma: no cover - not Linux: the memory check is the run's peak only
    _CLEAR_REFS = None
_COMMIT = os.environ.get("FUZZ_COMMIT", "")


def _new_stats() -> dict[str, object]:
    return {"n": 0, "crashes": 0, "suspects": 0, "grown": {}, "worst_ms_per_kb": 0.0, "worst_mb_per_kb": 0.0}


_stats = _new_stats()  # since the last count line
_total = {"n": 0, "crashes": 0, "suspects": 0, "grown": 0, "slowest": 0.0, "most_mb": 0.0}
_total |= {"small": 0, "medium": 0, "large": 0}
_T0 = time.perf_counter()


def _peak_kb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _summary() -> str:
    dt = time.perf_counter() - _T0
    t = _total
    return (
        f"fuzz summary: {t['n']} inputs in {dt:.0f} s, {t['n'] / max(dt, 1e-9):.0f} inputs/s "
        f"({t['n'] / max(time.process_time(), 1e-9):.0f} per CPU second), "
        f"{t['crashes']} crashes, {t['suspects']} suspects over the bound (to measure again), "
        f"slowest {t['slowest']:.3f} s of CPU, most memory {t['most_mb']:.1f} MB for one input, "
        f"{t['grown']} grown into issue 27's shapes ({t['medium']} medium, {t['large']} large), peak memory {_peak_kb() / 1024:.0f} MB (limit {_MEMORY_MB} MB)"
    )


def _flush() -> None:
    global _stats
    if _COUNT_FILE is not None and _stats["n"]:
        line = json.dumps({"pid": os.getpid(), "commit": _COMMIT, "time": round(time.time()), **_stats})
        with open(_COUNT_FILE, "a", encoding="utf-8") as f:  # one short append: atomic
            f.write(line + "\n")
    _stats = _new_stats()


def _save(data: bytes, why: str) -> None:
    _CRASH_DIR.mkdir(parents=True, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    (_CRASH_DIR / f"{why}-{name}.trn").write_bytes(data)


def _end(status: int) -> None:
    _flush()
    print(_summary(), flush=True)
    os._exit(status)


#: the share of all inputs each kind of grown input may take: the fuzzer's mutations
#: favour 0xFF, and a few large inputs (200 KB, a second of CPU instrumented) would
#: otherwise take the run; in a million inputs, 100,000 small, 1,000 medium, 100 large
GROWN_SHARE, MEDIUM_SHARE, LARGE_SHARE = 0.10, 0.001, 0.0001


def _gated(data: bytes) -> bytes:
    """``data``, made plain or smaller when its kind is over its share: the input saved
    is the one run, so it grows the same when measured again."""
    if len(data) < 3 or data[0] < 0xF0:
        return data
    n = _total["n"] + 1
    if _total["grown"] + 1 > GROWN_SHARE * n:
        return bytes([data[0] & 0x7F]) + data[1:]
    cls = size_class(data)
    if (cls == 2 and _total["large"] + 1 > LARGE_SHARE * n) or (cls == 1 and _total["medium"] + 1 > MEDIUM_SHARE * n):
        data = data[:1] + bytes([data[1] & 0x7F]) + data[2:]
        cls = 0
    _total[("small", "medium", "large")[cls]] += 1
    return data


def test_one_input(data: bytes) -> None:
    data = raw = _gated(data)
    data, shape = grow(data)
    if shape is not None:
        grown = _stats["grown"]
        assert isinstance(grown, dict)
        grown[shape] = grown.get(shape, 0) + 1
        _total["grown"] += 1
    if _CLEAR_REFS is not None:
        os.write(_CLEAR_REFS, b"5")
    kb0 = _peak_kb()  # just after the reset: the RSS now
    t = time.process_time()  # CPU time: on a shared machine the wall clock measures the load
    crashed = False
    try:
        exercise(data, standings=shape in ("many-players", "look-alikes"))
    except Exception as e:  # noqa: BLE001 - every exception is a finding of the fuzzer
        crashed = True
        _stats["crashes"] += 1  # type: ignore[operator]
        _total["crashes"] += 1
        _save(data, "crash")
        print(f"CRASH {type(e).__name__}: {str(e)[:200]}", flush=True)
    dt = time.process_time() - t
    mb = max(0, _peak_kb() - kb0) / 1024
    kb = max(len(data), 1) / 1024
    _total["slowest"] = max(_total["slowest"], dt)
    _total["most_mb"] = max(_total["most_mb"], mb)
    if dt / kb * 1000 > _stats["worst_ms_per_kb"] and kb >= 1:  # type: ignore[operator]
        _stats["worst_ms_per_kb"] = round(dt / kb * 1000, 2)
    if mb / kb > _stats["worst_mb_per_kb"] and kb >= 1:  # type: ignore[operator]
        _stats["worst_mb_per_kb"] = round(mb / kb, 4)
    if not crashed and (dt > SCREEN * (FLOOR_S + S_PER_KB * kb) or mb > FLOOR_MB + MB_PER_KB * kb):
        _stats["suspects"] += 1  # type: ignore[operator]
        _total["suspects"] += 1
        _save(raw, "suspect")  # the raw input: grown again when measured
    _stats["n"] += 1  # type: ignore[operator]
    _total["n"] += 1
    n = _total["n"]
    if n % 1_000 == 0:
        _flush()
        if time.time() > _DEADLINE:
            _end(1 if _total["crashes"] else 0)
    if n % 100_000 == 0:
        print(_summary(), flush=True)
    if n == _RUNS:
        _end(1 if _total["crashes"] else 0)


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
