"""The long fuzz run of issue 27, in resumable chunks under a memory limit.

    nice -n 19 python tests/fuzz/million.py STATE_DIR [--total 1000000] [--chunk 50000]
        [--workers 2] [--until HH:MM] [--memory-mb 1000]

Runs ``tests/fuzz/fuzz_records.py`` (atheris) in chunks of ``--chunk`` inputs, ``--workers``
at a time, each under ``RLIMIT_AS`` (``ulimit -v``) of ``--memory-mb``, until the inputs
counted in ``STATE_DIR/count.jsonl`` reach ``--total`` or the clock reaches ``--until``
(UTC).  Run it again with the same folder and it goes on from the count.  The corpus
(``STATE_DIR/corpus``) is shared by the chunks and grows; it starts from the first 400
bytes of five records and one seed per shape of issue 27 (``harness.SHAPES``).

Then the suspects the fuzzer saved (inputs over the bound in the instrumented run,
``STATE_DIR/crashes/suspect-*``) are measured again with the real commands
(``tests/fuzz/bound.py``), and the totals printed: inputs, per commit, grown per shape,
crashes, suspects, inputs over the bound, the worst CPU and memory per KB seen.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SEED_RECORDS = ("douze_trous", "compact", "a_quatre", "chouette", "comments_glyphs_ecoles")
SHAPE_SEEDS = (
    b"\xf0\x00\x20a",
    b"\xf1\x00\x20ab",
    b"\xf2\x00\x20x",
    b"\xf3\x00\x20",
    b"\xf4\x00\x20Joueur ",
    b"\xf5\x00\x20",
)


def _seeds(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name in SEED_RECORDS:
        (folder / name).write_bytes((ROOT / "fixtures" / "records" / f"{name}.trn").read_bytes()[:400])
    for k, seed in enumerate(SHAPE_SEEDS):
        (folder / f"shape-{k}").write_bytes(seed)


def totals(count_file: Path) -> dict[str, object]:
    t: dict[str, object] = {"n": 0, "crashes": 0, "suspects": 0, "grown": {}, "by_commit": {}}
    worst_ms = worst_mb = 0.0
    if count_file.exists():
        for line in count_file.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            d = json.loads(line)
            for k in ("n", "crashes", "suspects"):
                t[k] += d[k]  # type: ignore[operator]
            for shape, n in d["grown"].items():
                t["grown"][shape] = t["grown"].get(shape, 0) + n  # type: ignore[union-attr,index]
            by = t["by_commit"]
            by[d["commit"]] = by.get(d["commit"], 0) + d["n"]  # type: ignore[union-attr,index]
            worst_ms = max(worst_ms, d["worst_ms_per_kb"])
            worst_mb = max(worst_mb, d["worst_mb_per_kb"])
    t["worst_ms_per_kb_instrumented"] = worst_ms
    t["worst_mb_per_kb"] = worst_mb
    return t


def _commit() -> str:
    """The commit of the code fuzzed (``COMMIT`` beside a snapshot made with ``git archive``)."""
    if (ROOT / "COMMIT").exists():
        return (ROOT / "COMMIT").read_text(encoding="utf-8").strip()
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(
        ["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True
    )
    return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


def _limit(memory_mb: int):
    def apply() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))

    return apply


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("state", type=Path)
    ap.add_argument("--total", type=int, default=1_000_000)
    ap.add_argument("--chunk", type=int, default=50_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--until", default="", help="HH:MM UTC: no chunk runs past it")
    ap.add_argument("--memory-mb", type=int, default=1000)
    ap.add_argument("--max-len", type=int, default=200)
    args = ap.parse_args()
    state: Path = args.state
    corpus, seeds, crashes = state / "corpus", state / "seeds", state / "crashes"
    count_file = state / "count.jsonl"
    corpus.mkdir(parents=True, exist_ok=True)
    crashes.mkdir(parents=True, exist_ok=True)
    _seeds(seeds)
    deadline = float("inf")
    if args.until:
        now = dt.datetime.now(dt.timezone.utc)
        h, m = map(int, args.until.split(":"))
        end = now.replace(hour=h, minute=m, second=0, microsecond=0)
        deadline = end.timestamp() if end > now else now.timestamp()
    env = {**os.environ, "PYTHONPATH": str(HERE.parent), "FUZZ_COMMIT": _commit()}
    running: list[tuple[subprocess.Popen[bytes], object]] = []
    chunk_no = len(list(state.glob("chunk-*.log")))
    failed = 0
    while True:
        for p, _ in running:
            if p.poll() is not None and p.returncode not in (0, 1):
                failed += 1
        if failed >= 3:
            print(f"chunks fail at once: see {state}/chunk-*.log", file=sys.stderr)
            return 2
        running = [(p, f) for p, f in running if p.poll() is None]
        done = int(totals(count_file)["n"])  # type: ignore[call-overload]
        pending = args.total - done - sum(args.chunk for _ in running)
        if time.time() >= deadline or (pending <= 0 and not running):
            break
        if len(running) < args.workers and pending > 0 and time.time() < deadline:
            env["FUZZ_COMMIT"] = _commit()  # each chunk runs the code as it is when it starts
            log = open(state / f"chunk-{chunk_no:04d}.log", "wb")  # noqa: SIM115 - closed with the process
            argv = [
                sys.executable,
                str(HERE / "fuzz_records.py"),
                f"-atheris_runs={min(args.chunk, pending)}",
                f"-max_len={args.max_len}",
                f"-crash_dir={crashes}",
                f"-artifact_prefix={crashes}/",
                f"-memory_mb={args.memory_mb}",
                f"-count_file={count_file}",
                f"-deadline={deadline if deadline != float('inf') else 1e12}",
                "-print_final_stats=1",
                str(corpus),
                str(seeds),
            ]
            p = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env, preexec_fn=_limit(args.memory_mb))
            running.append((p, log))
            chunk_no += 1
            continue
        time.sleep(5)
    for p, _ in running:  # the deadline: each chunk flushes its count within 1,000 inputs
        try:
            p.wait(timeout=300)
        except subprocess.TimeoutExpired:
            p.terminate()
    return report(state)


def report(state: Path) -> int:
    t = totals(state / "count.jsonl")
    measured_file = state / "suspects-measured.jsonl"
    measured = {}
    if measured_file.exists():
        for line in measured_file.read_text(encoding="utf-8").splitlines():
            d = json.loads(line)
            measured[d["name"]] = d
    crashes = sorted((state / "crashes").glob("crash-*")) if (state / "crashes").exists() else []
    suspects = sorted((state / "crashes").glob("suspect-*")) if (state / "crashes").exists() else []
    todo = [f for f in suspects if f.name not in measured]
    if todo:  # measured uninstrumented, in one process of their own
        env = {**os.environ, "PYTHONPATH": str(HERE.parent)}
        out = subprocess.run(
            [sys.executable, str(HERE / "bound.py"), "--json", *map(str, todo)],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        with open(measured_file, "a", encoding="utf-8") as f:
            for line in out.stdout.splitlines():
                if line.startswith("{"):
                    d = json.loads(line)
                    measured[d["name"]] = d
                    f.write(line + "\n")
    over = [d for d in measured.values() if not d["holds"]]
    print(f"inputs: {t['n']:,} (by commit: {t['by_commit']})")
    print(f"grown into issue 27's shapes: {t['grown']}")
    print(f"crashes (any exception, MemoryError included): {t['crashes']} ({len(crashes)} distinct saved)")
    print(
        f"suspects (instrumented run over the bound): {t['suspects']} ({len(suspects)} distinct), "
        f"measured again with the commands: {len(over)} over the bound"
    )
    for d in over:
        print(f"  OVER {d['name']}: {'; '.join(d['costs'])}")
    print(
        f"worst per KB (inputs of 1 KB or more, instrumented run): {t['worst_ms_per_kb_instrumented']} ms/KB, "
        f"{t['worst_mb_per_kb']} MB/KB"
    )
    return 1 if over or t["crashes"] else 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    raise SystemExit(main())
