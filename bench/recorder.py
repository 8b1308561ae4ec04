"""The recorder's response time (issue 26): from the Enter that writes a coup to the
updated state, at coup 300 and at coup 10,000 of one record (target: 20 ms both).

A partie à écrire of many marqués is self-played (``replay.generate.selfplay``) and re-entered
coup by coup through a :class:`~trictrac.replay.recorder.recording.RecordingSession` writing a
file (lock, append, fsync included); around each probe the Enter that completes a
coup is timed with everything the terminal then shows (``state``, ``screen``, the
score line).  Also the keystrokes per coup on the fixture parties (median, target 4).

    python -m trictrac.bench.recorder [--coups 10000] [--window 40]

API: :func:`run` ``(coups, window) -> dict`` (plain data).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ..notation.reader import parse_text
from ..notation.record import Coup, Decision, Record
from ..notation.writer import write_action
from ..replay.generate.selfplay import play_partie
from ..replay.recorder.recording import RecordingSession
from ..replay.rules.game import moves_text

__all__ = ["keystrokes", "run"]

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ("fixtures/corpus/douze-trous.trn", "fixtures/corpus/a-ecrire.trn")


def _long_partie(coups: int, seed: int) -> Record:
    """A self-played partie à écrire of enough marqués to hold ``coups`` coups."""
    marques = max(4, coups // 150 + 4)  # about 200 coups a marqué
    while True:
        rec = play_partie(random.Random(seed), "a-ecrire", marques=marques)
        if len(rec.coups) >= coups:
            return rec
        marques *= 2


def _enter_coup(session: RecordingSession, coup: Coup) -> tuple[float, int]:
    """Type ``coup``; the seconds of its last Enter with the display after it, and the
    keys typed."""
    from ..cli.record import screen

    keys = 0

    def enter(text: str) -> float:
        nonlocal keys
        keys += len(text) + (0 if session.complete(text) else 1)
        t0 = time.perf_counter()
        session.enter(text)
        screen(session.state, 80)
        session.score_text()
        return time.perf_counter() - t0

    last = enter(f"{coup.roll[0]}{coup.roll[1]}")
    st = session.state
    if st.stage == "play":
        want = moves_text(coup.moves)
        leave = any(isinstance(a, Decision) and a.leave for a in coup.before) and not coup.moves
        if leave:
            last = enter("v")
        elif want in st.plays:
            last = enter("" if len(st.plays) == 1 else str(st.plays.index(want) + 1))
        else:
            last = enter(" ".join(write_action(m) for m in coup.moves))
    if session.state.stage == "marks":
        marks = " ".join(write_action(a, coup.side) for a in coup.before + coup.after)
        last = enter("" if marks == session.state.default_marks else marks)
    return last, keys


def keystrokes() -> dict[str, float]:
    """Keys per coup re-entering the fixture parties (first games)."""
    counts = []
    for name in FIXTURES:
        rec = parse_text((ROOT / name).read_text(encoding="utf-8"))[0][0]
        s = RecordingSession.new({k: v for k, v in rec.headers.items() if k != "Result"}, game_id=False)
        counts += [_enter_coup(s, c)[1] for c in rec.coups]
    return {
        "coups": len(counts),
        "median": statistics.median(counts),
        "mean": statistics.mean(counts),
        "max": max(counts),
    }


def run(coups: int = 10_000, window: int = 40, seed: int = 26) -> dict[str, Any]:
    """Milliseconds from the Enter that writes a coup to the updated display, around
    coup 300 and coup ``coups`` (median and maximum over ``window`` coups each)."""
    rec = _long_partie(coups + window, seed)
    probes: dict[int, list[float]] = {300: [], coups: []}
    with tempfile.TemporaryDirectory() as tmp:
        s = RecordingSession.new(
            {k: v for k, v in rec.headers.items() if k != "Result"},
            path=str(Path(tmp) / "bench.trn"),
            game_id=False,
            first=rec.coups[0].side,
        )
        t_start = time.perf_counter()
        for n, coup in enumerate(rec.coups[: coups + window], 1):
            if s.state.finished:
                raise RuntimeError(f"the session ended the partie at coup {n} of {len(rec.coups)}")
            seconds, _ = _enter_coup(s, coup)
            for at, times in probes.items():
                if at <= n < at + window:
                    times.append(seconds * 1000)
        total = time.perf_counter() - t_start
        s.close()
    out: dict[str, Any] = {"coups_entered": coups + window, "seconds_total": round(total, 1)}
    for at, times in probes.items():
        out[f"enter_ms_at_{at}"] = {"median": round(statistics.median(times), 2), "max": round(max(times), 2)}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m trictrac.bench.recorder", description=__doc__.split("\n\n")[0])
    ap.add_argument("--coups", type=int, default=10_000)
    ap.add_argument("--window", type=int, default=40)
    args = ap.parse_args(argv)
    k = keystrokes()
    print(
        f"keystrokes per coup on the fixture parties ({k['coups']} coups): median {k['median']}, "
        f"mean {k['mean']:.2f}, max {k['max']}"
    )
    r = run(args.coups, args.window)
    for key, v in r.items():
        if key.startswith("enter_ms_at_"):
            print(f"Enter to updated display at coup {key[12:]}: median {v['median']} ms, max {v['max']} ms")
    print(f"({r['coups_entered']} coups entered in {r['seconds_total']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
