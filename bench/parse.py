"""Parse speed on a synthetic archive (the ``parse`` step of ``trictrac bench``).

Generates a synthetic archive (records that look like club records — headers, relevés,
coups with moves, marks, écoles, comments — but are not legal games), writes it to a
temporary file, then streams it through :func:`iter_records` and reports records/s,
MB/s and the peak memory of the streaming pass (tracemalloc).
"""

from __future__ import annotations

import os
import random
import tempfile
import time
import tracemalloc
from collections.abc import Iterator

from ..notation.reader import index_records, iter_records
from ..notation.record import (
    OFF,
    CannotPlay,
    Comment,
    Coup,
    Decision,
    Ecole,
    Glyph,
    Mark,
    MarqueResult,
    MarqueStart,
    Move,
    Record,
    ReleveStart,
)
from ..notation.writer import write_record

_NAMES = ["Dupont", "Martin", "Lefèvre", "Moreau", "Girard", "Bonnet", "Roux", "Fournier"]


def synthetic_record(rng: random.Random, index: int) -> Record:
    """One random record (plausible text, not a legal game)."""
    a, b = rng.sample(_NAMES, 2)
    full = rng.random() < 0.8
    headers = {
        "Event": f"Tournoi du cercle {index // 50 + 1}",
        "Site": "Paris",
        "Date": f"1852.{rng.randint(1, 12):02d}.{rng.randint(1, 28):02d}",
        "A": a,
        "B": b,
        "Partie": rng.choice(["douze-trous", "a-ecrire 8"]),
        "Record": "full" if full else "compact",
        "Result": rng.choice(["A", "B"]),
    }
    elements: list = []
    n = 0
    written = headers["Partie"] != "douze-trous"
    if written:
        elements.append(MarqueStart(1, ("A", "B")))
    for rel in range(1, rng.randint(2, 4)):
        elements.append(ReleveStart(rel))
        side = "A"
        for _ in range(rng.randint(20, 40)):
            n += 1
            r1, r2 = rng.randint(1, 6), rng.randint(1, 6)
            if r1 < r2:
                r1, r2 = r2, r1
            f1 = rng.randint(1, 18)
            moves: list = [Move(f1, f1 + r1)]
            if rng.random() < 0.9:
                f2 = rng.randint(1, 18)
                moves.append(Move(f2, f2 + r2))
            elif rng.random() < 0.5:
                moves.append(CannotPlay(r2))
            else:
                moves = [Move(f1, min(f1 + r1 + r2, OFF))]
            before: list = []
            after: list = []
            if full:
                if rng.random() < 0.3:
                    before.append(Mark(side, rng.choice((2, 4, 6)), None, rng.choice((None, True))))
                if rng.random() < 0.05:
                    before.append(Mark(side, 4, 1, False))
                    before.append(Decision(side, False))
                if rng.random() < 0.1:
                    after.append(Mark("B" if side == "A" else "A", 2))
                if rng.random() < 0.02:
                    after.append(Ecole("B" if side == "A" else "A", 4, "oubli"))
            if rng.random() < 0.03:
                after.append(Glyph("?"))
            if rng.random() < 0.05:
                after.append(Comment("bien joué"))
            elements.append(Coup(n, side, (r1, r2), tuple(moves), tuple(before), tuple(after)))
            side = "B" if side == "A" else "A"
    if written:
        elements.append(MarqueResult("A", rng.randint(6, 9), rng.randint(0, 5), "none", False, None))
    return Record(headers, elements)


def generate_archive(n_games: int, seed: int = 1) -> Iterator[str]:
    rng = random.Random(seed)
    for i in range(n_games):
        yield write_record(synthetic_record(rng, i))


def run(n_games: int = 10_000, seed: int = 1, path: str | None = None, repeat: int = 3) -> dict[str, float]:
    """Generate, write, then parse the archive ``repeat`` times; speeds use the best
    CPU time of this process (``time.process_time``: on a shared machine the wall
    clock also counts other processes; both are reported)."""
    own = path is None
    if path is None:
        fd, path = tempfile.mkstemp(suffix=".trn")
        os.close(fd)
    try:
        with open(path, "w", encoding="utf-8") as f:
            for i, text in enumerate(generate_archive(n_games, seed)):
                if i:
                    f.write("\n")
                f.write(text)
        size = os.path.getsize(path)
        best_wall = best_cpu = float("inf")
        for _ in range(repeat):
            t0, c0 = time.perf_counter(), time.process_time()
            count = coups = diags = 0
            for pr in iter_records(path):
                count += 1
                coups += len(pr.record.elements)
                diags += len(pr.diagnostics)
            best_wall = min(best_wall, time.perf_counter() - t0)
            best_cpu = min(best_cpu, time.process_time() - c0)
        t2 = time.perf_counter()
        idx = index_records(path)
        t3 = time.perf_counter()
        tracemalloc.start()
        for _ in iter_records(path):
            pass
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return {
            "games": count,
            "elements": coups,
            "diagnostics": diags,
            "bytes": size,
            "seconds": best_wall,
            "cpu_seconds": best_cpu,
            "records_per_s": count / best_cpu,
            "mb_per_s": size / 1e6 / best_cpu,
            "wall_mb_per_s": size / 1e6 / best_wall,
            "index_mb_per_s": size / 1e6 / (t3 - t2),
            "indexed": len(idx),
            "peak_mb": peak / 1e6,
        }
    finally:
        if own:
            os.unlink(path)
