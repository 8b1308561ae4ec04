"""The bound of docs/resilience.md, measured on one input with the real commands.

A command (``check``; ``publish`` for the inputs that are ranked) may take, beyond what
it takes for a one-game file, at most ``FLOOR_S`` + 10 ms of CPU and ``FLOOR_MB`` +
0.15 MB of peak memory per KB of input.  The floors are a warm command's fixed cost and
the measure's noise; nothing else is allowed, whatever the size.

Measured in this process, uninstrumented and warm (the imports and the catalogue loaded
by a first run on a one-game file): the CPU time is the least of three runs (a loaded
machine only adds to it; one run when it is under half the bound), the memory the growth of the peak RSS over the first run
(``/proc/self/clear_refs`` resets the peak).

    python tests/fuzz/bound.py [--json | --summary] FILE_OR_DIR ...   # raw fuzz inputs, grown as the fuzzer grew them

prints each input's size, CPU and memory per KB and whether it holds the bound; exit 1
when one does not.  ``--summary``: only the inputs over the bound, then the totals and the
worst inputs (CPU per KB, CPU past the bound, memory per KB); a folder's ``slow-unit-*``
(libFuzzer's copies) are skipped.  ``tests/fuzz/million.py`` runs it on the fuzzer's suspects.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import resource
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import click

S_PER_KB = 0.010  # CPU seconds per KB of input
MB_PER_KB = 0.15  # MB of peak memory per KB of input
FLOOR_S = 0.02  # seconds: a warm command's fixed cost and the measure's noise
FLOOR_MB = 5.0  # MB: the same for memory
#: the fuzzer's screen: it reads, verifies with the trace, writes and reads again,
#: instrumented (about three times slower): an input over this many times the bound is
#: a suspect, measured again here
SCREEN = 2.0

_SMALL = '[A "Dupont"]\n[B "Martin"]\n[Partie "douze-trous"]\n[Result "*"]\n\n1. A 2-1 1/3 1/2\n'


@dataclass(slots=True)
class Cost:
    command: str
    kb: float
    seconds: float  # CPU
    mb: float  # growth of the peak memory

    @property
    def ms_per_kb(self) -> float:
        return self.seconds * 1000 / self.kb

    @property
    def mb_per_kb(self) -> float:
        return self.mb / self.kb

    @property
    def holds(self) -> bool:
        """Memory for every command; time for ``check``, the measure of the guarantee
        (``publish`` writes two or three pages per game: its time is reported)."""
        memory = self.mb <= FLOOR_MB + MB_PER_KB * self.kb
        return memory and (self.command != "check" or self.seconds <= FLOOR_S + S_PER_KB * self.kb)

    def text(self) -> str:
        verdict = "holds" if self.holds else "OVER THE BOUND"
        return (
            f"{self.command}: {self.kb:.1f} KB, {self.seconds * 1000:.1f} ms CPU ({self.ms_per_kb:.2f} ms/KB), "
            f"{self.mb:.1f} MB ({self.mb_per_kb:.3f} MB/KB): {verdict}"
        )


try:
    _CLEAR_REFS: int | None = os.open("/proc/self/clear_refs", os.O_WRONLY)
except OSError:  # pragma: no cover - not Linux
    _CLEAR_REFS = None


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _once(argv: list[str]) -> None:
    from trictrac.cli.main import cli

    with open(os.devnull, "w") as null, contextlib.redirect_stdout(null), contextlib.redirect_stderr(io.StringIO()):
        try:
            cli.main(argv, standalone_mode=False)
        except SystemExit as e:
            if e.code not in (0, 1, 2, None):
                raise
        except click.ClickException:  # bad input: one line and exit 2 in the command
            pass


def _argv(command: str, path: Path, out: Path) -> list[str]:
    return ["publish", str(path), "-o", str(out)] if command == "publish" else [command, str(path)]


_warm: set[str] = set()


def cost(text: bytes, command: str = "check", runs: int = 3) -> Cost:
    """The cost of ``command`` on ``text``, warm, in this process."""
    with tempfile.TemporaryDirectory() as tmp:
        small, path = Path(tmp) / "small.trn", Path(tmp) / "input.trn"
        small.write_text(_SMALL, encoding="utf-8")
        path.write_bytes(text)
        if command not in _warm:
            _once(_argv(command, small, Path(tmp) / "warm"))
            _warm.add(command)
        best, mb = float("inf"), 0.0
        for k in range(runs):
            if _CLEAR_REFS is not None:
                os.write(_CLEAR_REFS, b"5")
            mb0 = _peak_mb()
            t = time.process_time()
            _once(_argv(command, path, Path(tmp) / f"site{k}"))
            best = min(best, time.process_time() - t)
            if k == 0:
                mb = max(0.0, _peak_mb() - mb0)
            if best <= (FLOOR_S + S_PER_KB * len(text) / 1024) / 2:
                break  # clearly within the bound: the other runs could only lower it
    return Cost(command, max(len(text), 1) / 1024, best, mb)


def costs_of_fuzz_input(raw: bytes) -> list[Cost]:
    """A raw fuzz input grown as the fuzzer grew it, through ``check`` (and ``publish``
    for the shapes the fuzzer ranks)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from fuzz.harness import grow

    data, shape = grow(raw)
    out = [cost(data, "check")]
    if shape in ("many-players", "look-alikes"):
        out.append(cost(data, "publish"))
    return out


def main(argv: list[str]) -> int:
    as_json = "--json" in argv
    summary = "--summary" in argv  # only the inputs over the bound, and the totals
    argv = [a for a in argv if a not in ("--json", "--summary")]
    files = [f for a in argv for f in (sorted(Path(a).iterdir()) if Path(a).is_dir() else [Path(a)])]
    files = [f for f in files if not f.name.startswith("slow-unit-")]  # libFuzzer's own copies of the suspects
    over = 0
    checks: list[tuple[Cost, str]] = []
    for f in files:
        cs = costs_of_fuzz_input(f.read_bytes())
        over += not all(c.holds for c in cs)
        checks += [(c, f.name) for c in cs if c.command == "check"]
        if as_json:
            print(json.dumps({"name": f.name, "holds": all(c.holds for c in cs), "costs": [c.text() for c in cs]}))
        else:
            for c in cs:
                if not summary or not c.holds:
                    print(f"{f.name}: {c.text()}", flush=True)
    print(f"{len(files)} inputs measured, {over} over the bound")
    if summary and checks:
        worst_ms = max(checks, key=lambda x: x[0].ms_per_kb)
        worst_over = max(checks, key=lambda x: x[0].seconds - FLOOR_S - S_PER_KB * x[0].kb)
        worst_mb = max(checks, key=lambda x: x[0].mb_per_kb)
        print(f"worst CPU per KB: {worst_ms[1]}: {worst_ms[0].text()}")
        print(f"worst CPU past the bound (20 ms + 10 ms/KB): {worst_over[1]}: {worst_over[0].text()}")
        print(f"worst memory per KB: {worst_mb[1]}: {worst_mb[0].text()}")
    return 1 if over else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
