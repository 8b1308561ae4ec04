"""The recorder's figures (issue 26), in one command:

* keystrokes per coup re-entering the fixture parties (median, target ≤ 4);
* the time from the Enter that writes a coup to the updated screen, at coup 300 and at
  coup 10,000 of one record (target ≤ 20 ms both), through the terminal front end
  itself (``cli.record.run`` on prompt_toolkit, its output drawn into memory) with the
  record written to a file in ``--dir`` (lock, one append, fsync): the Enter's
  validation, the session's work, the append and its fsync, the screen and score
  printed, until the next prompt is drawn;
* the same Enter without the terminal (the session's work, the screen and score text),
  and what one fsync'ed append costs in ``--dir`` (the disk's share, it does not grow);
* with ``--kills N``: the record written by a child process killed (SIGKILL) at random
  moments N times; after each kill the file must check clean and resume.

    python -m trictrac.bench.recorder [--coups 10000] [--window 40] [--dir DIR] [--kills 200]

A partie à écrire of many marqués is self-played (``replay.generate.selfplay``); each probe
resumes its first N-3 coups from a file (``--resume``, as the verifier has walked
them), types 3 coups to warm up, then times ``window`` coups.  The terminal's history
is filled as a session that typed the N coups would have it.  ``--compare`` also times
prompt_toolkit's default history (the whole history copied at every Enter: the cost
that grew with the record before issue 26's last fixes).

API: :func:`keystrokes`, :func:`enter_times`, :func:`fsync_ms`, :func:`kills` (plain data).
"""

from __future__ import annotations

import argparse
import io
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ..notation.reader import parse_text
from ..notation.record import Coup, Record
from ..notation.writer import write_record
from ..replay.generate.selfplay import play_partie
from ..replay.recorder.recording import RecordingSession, type_coup

__all__ = ["enter_times", "fsync_ms", "keystrokes", "kills"]

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ("fixtures/corpus/douze-trous.trn", "fixtures/corpus/a-ecrire.trn")
WARM = 3


def _long_partie(coups: int, seed: int) -> Record:
    """A self-played partie à écrire of enough marqués to hold ``coups`` coups."""
    marques = max(4, coups // 150 + 4)  # about 200 coups a marqué
    while True:
        rec = play_partie(random.Random(seed), "a-ecrire", marques=marques)
        if len(rec.coups) >= coups:
            return rec
        marques *= 2


def coup_keys(session: RecordingSession, coup: Coup, timed: list[float] | None = None) -> list[str]:
    """Enter ``coup`` into ``session`` with the fewest keys; the keys typed, one string
    per entry (``"\\r"`` = Enter; a throw of two digits and a play number nothing longer
    can extend are taken as typed).  ``timed`` gets the seconds of the coup's last entry
    with the screen and score text after it (the session's part of an Enter)."""
    from ..cli.record import screen

    keys: list[str] = []

    def enter(text: str) -> None:
        keys.append(text if session.complete(text) else text + "\r")
        t0 = time.perf_counter()
        session.enter(text)
        screen(session.state, 80)
        session.score_text()
        last[0] = time.perf_counter() - t0

    last = [0.0]
    type_coup(session, coup, enter)
    if timed is not None:
        timed.append(last[0])
    return keys


def keystrokes() -> dict[str, float]:
    """Keys per coup re-entering the fixture parties (first games)."""
    counts = []
    for name in FIXTURES:
        rec = parse_text((ROOT / name).read_text(encoding="utf-8"))[0][0]
        s = RecordingSession.new({k: v for k, v in rec.headers.items() if k != "Result"}, game_id=False)
        counts += [len("".join(coup_keys(s, c))) for c in rec.coups]
    return {
        "coups": len(counts),
        "median": statistics.median(counts),
        "mean": statistics.mean(counts),
        "max": max(counts),
    }


def _prefix(rec: Record, n: int) -> Record:
    """``rec`` up to its ``n``-th coup (0-based, excluded), unfinished."""
    at = [i for i, e in enumerate(rec.elements) if isinstance(e, Coup)][n]
    return Record(headers={**rec.headers, "Result": "*"}, elements=list(rec.elements[:at]))


def _ms(xs: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(xs) * 1000, 2), "max": round(max(xs) * 1000, 2)}


def _terminal(path: str, rec: Record, at: int, window: int, history: str) -> list[float]:
    """Enter→next prompt drawn, through ``cli.record.run`` resumed at coup ``at - WARM``."""
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.history import InMemoryHistory
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output.vt100 import Vt100_Output

    from ..cli.record import recent_history, run

    coups = rec.coups[at - WARM : at + window]
    shadow = RecordingSession(_prefix(rec, at - WARM))
    keys = "".join("".join(coup_keys(shadow, c)) for c in coups)
    hist = recent_history() if history == "recent" else InMemoryHistory()
    for k in range(3 * at):  # what a session that typed ``at`` coups holds
        hist.append_string(("65", "3", "A+4")[k % 3])
    timings: list[float] = []
    screen = io.StringIO()
    output = Vt100_Output(screen, lambda: Size(rows=30, columns=80), term="xterm", enable_cpr=False)
    session = RecordingSession.resume(path)
    try:
        with create_pipe_input() as inp:
            inp.send_text(keys + "/q\r")
            run(session, input=inp, output=output, out=io.StringIO(), width=80, history=hist, timings=timings)
    finally:
        session.close()
    if len(timings) != len(coups):
        raise RuntimeError(f"{len(timings)} coups timed of {len(coups)} typed")
    return timings[WARM:]


def enter_times(
    coups: int = 10_000, window: int = 40, seed: int = 26, directory: str | None = None, compare: bool = False
) -> dict[Any, Any]:
    """Seconds from the Enter that writes a coup to the updated screen, around coup 300
    and coup ``coups`` (median and maximum over ``window`` coups each), in ms."""
    t_start = time.perf_counter()
    rec = _long_partie(coups + window, seed)
    out: dict[Any, Any] = {}  # coup number -> timings, and "seconds"
    for at in (300, coups):
        row: dict[str, Any] = {}
        with tempfile.TemporaryDirectory(dir=directory) as tmp:
            text = write_record(_prefix(rec, at - WARM))
            for how in ("recent", "full") if compare else ("recent",):
                path = str(Path(tmp) / f"{how}.trn")
                Path(path).write_text(text, encoding="utf-8")
                row["terminal" if how == "recent" else "terminal_full_history"] = _ms(
                    _terminal(path, rec, at, window, how)
                )
            path = str(Path(tmp) / "session.trn")
            Path(path).write_text(text, encoding="utf-8")
            timed: list[float] = []
            with RecordingSession.resume(path) as s:
                for c in rec.coups[at - WARM : at + window]:
                    coup_keys(s, c, timed)
            row["session"] = _ms(timed[WARM:])
        out[at] = row
    out["seconds"] = round(time.perf_counter() - t_start, 1)
    return out


def fsync_ms(directory: str | None = None, n: int = 100) -> dict[str, dict[str, float]]:
    """One coup's line appended and synced in ``directory``: fsync, fdatasync (ms)."""
    out = {}
    with tempfile.TemporaryDirectory(dir=directory) as tmp:
        path = os.path.join(tmp, "sync.trn")
        Path(path).write_text("", encoding="utf-8")
        for name, sync in (("fsync", os.fsync), ("fdatasync", getattr(os, "fdatasync", os.fsync))):
            times = []
            for _ in range(n):
                t0 = time.perf_counter()
                fd = os.open(path, os.O_WRONLY | os.O_APPEND)
                try:
                    os.write(fd, b"12. A 6-5 1/7 1/6 A+4\n")
                    sync(fd)
                finally:
                    os.close(fd)
                times.append(time.perf_counter() - t0)
            out[name] = _ms(times)
    return out


_CHILD = """
import os, random, sys
from trictrac.bench.recorder import FIXTURES, ROOT, coup_keys
from trictrac.notation.reader import parse_text
from trictrac.replay.recorder.recording import RecordingSession
rec = parse_text((ROOT / FIXTURES[0]).read_text(encoding="utf-8"))[0][0]
path = sys.argv[1]
if os.path.exists(path):
    s = RecordingSession.resume(path)
else:
    s = RecordingSession.new({k: v for k, v in rec.headers.items() if k != "Result"}, path=path, game_id=False)
done = len(s.record.coups)
print("ready", flush=True)
rng = random.Random(os.getpid())
for coup in rec.coups[done:]:
    coup_keys(s, coup)
    if rng.random() < 0.1:
        s.comment("note")
    if rng.random() < 0.05:
        s.undo(); coup_keys(s, coup)
print("done", flush=True)
"""


def kills(n: int, directory: str | None = None, seed: int = 0) -> dict[str, int]:
    """The fixture partie recorded by a child process killed (SIGKILL) at a random
    moment, ``n`` times, each resuming the file the last left; after each kill the file
    must read without error, end with a whole line, check with no finding, and hold the
    fixture's coups so far (AssertionError otherwise).  ``killed``: kills after the
    child had the file open (the others came before it was ready and are not counted)."""
    from ..replay.verifier.verify import verify_text

    rng = random.Random(seed or n)
    rec = parse_text((ROOT / FIXTURES[0]).read_text(encoding="utf-8"))[0][0]

    def bare(line: str) -> str:  # a comment after a coup of no move is written after "--"
        return line.replace(" {note}", "").removesuffix(" --")

    want = [bare(ln) for ln in write_record(rec).splitlines() if ln[:1].isdigit()]
    killed = finished = 0
    with tempfile.TemporaryDirectory(dir=directory) as tmp:
        path = os.path.join(tmp, "g.trn")
        for _ in range(n):
            proc = subprocess.Popen([sys.executable, "-c", _CHILD, path], stdout=subprocess.PIPE, text=True)
            assert proc.stdout is not None
            line = proc.stdout.readline().strip()
            time.sleep(rng.uniform(0, 0.15))
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            proc.stdout.close()
            if line != "ready":
                continue
            killed += 1
            text = Path(path).read_text(encoding="utf-8")
            _records, diags = parse_text(text)
            assert not [d for d in diags if d.severity == "error"] and text.endswith("\n"), text[-200:]
            rep = verify_text(text)[0]
            assert not rep.findings and not rep.stopped, rep.findings
            coups = [bare(ln) for ln in text.splitlines() if ln[:1].isdigit()]
            assert coups == want[: len(coups)]
            if '[Result "*"]' not in text:
                finished += 1
                os.unlink(path)  # the partie is over: again from the start
    return {"killed": killed, "finished": finished}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m trictrac.bench.recorder", description=__doc__.split("\n\n")[0])
    ap.add_argument("--coups", type=int, default=10_000, help="the far probe (default 10000)")
    ap.add_argument("--window", type=int, default=40, help="coups timed at each probe")
    ap.add_argument("--dir", default=None, help="where the record is written (default: the temporary folder)")
    ap.add_argument("--compare", action="store_true", help="also time prompt_toolkit's default history")
    ap.add_argument("--kills", type=int, default=0, help="run the SIGKILL test this many times")
    args = ap.parse_args(argv)
    k = keystrokes()
    print(
        f"keystrokes per coup on the fixture parties ({k['coups']} coups): median {k['median']}, "
        f"mean {k['mean']:.2f}, max {k['max']}"
    )
    where = args.dir or tempfile.gettempdir()
    sync = fsync_ms(args.dir)
    print(
        f"one coup appended in {where}: fsync median {sync['fsync']['median']} ms (max {sync['fsync']['max']}), "
        f"fdatasync median {sync['fdatasync']['median']} ms (the recorder uses fsync)"
    )
    r = enter_times(args.coups, args.window, directory=args.dir, compare=args.compare)
    for at in (300, args.coups):
        row = r[at]
        line = f"Enter to updated screen at coup {at}: median {row['terminal']['median']} ms, max {row['terminal']['max']} ms"
        line += f" (the session's part: median {row['session']['median']} ms)"
        if "terminal_full_history" in row:
            full = row["terminal_full_history"]
            line += f"; with prompt_toolkit's whole history: median {full['median']} ms, max {full['max']} ms"
        print(line)
    print(f"({r['seconds']} s)")
    if args.kills:
        t0 = time.perf_counter()
        got = kills(args.kills, args.dir)
        print(
            f"SIGKILL test: {got['killed']} kills of {args.kills} after the file was open, every file "
            f"checked clean and resumed ({got['finished']} parties finished; {time.perf_counter() - t0:.0f} s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
