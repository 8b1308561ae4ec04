"""A federation-size club database, and the queries a club runs on it, timed (issue 30).

``python -m trictrac.bench.federation -n 10000 --players 200 --seasons 3 -o fed.trn --db fed.db``
self-plays ``n`` parties (``replay.selfplay``) between ``players`` named players over
``seasons`` calendar years (one game in ``--inject-every`` gets one table mistake, so
that findings, écoles and their words are there to search), imports them
(``club.importer.import_records``), then times each query (best of a few runs) and
prints its ``EXPLAIN QUERY PLAN``.  Not part of the test suite; tests/test_club_federation.py
runs a small version and asserts that every plan uses an index.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..notation.record import Record

#: first and last names the players are drawn from (200 players: 20 × 10)
_FIRST = ("Jean", "Marie", "Pierre", "Anne", "Louis", "Claire", "Paul", "Sophie", "Jacques", "Hélène",
          "Henri", "Lucie", "Michel", "Élise", "André", "Juliette", "René", "Cécile", "Émile", "Odile")  # fmt: skip
_LAST = ("Dupont", "Martin", "Lefèvre", "Moreau", "Girard", "Bonnet", "Mercier", "Faure", "Rousseau", "Blanc")


def player_names(n: int) -> list[str]:
    """``n`` distinct names (``Jean Dupont``, … ``Jean Dupont 2`` past 200)."""
    base = [f"{f} {last}" for last in _LAST for f in _FIRST]
    return [base[i % len(base)] + (f" {i // len(base) + 1}" if i >= len(base) else "") for i in range(n)]


def parties(n: int, players: int, seasons: int, seed: int = 1, inject_every: int = 5) -> Iterator[Record]:
    """``n`` self-played parties en douze trous, each between two of ``players`` players
    on a date of one of ``seasons`` years from 2024 (``Event``, ``Date``, ``A``, ``B``,
    ``Round`` set); one in ``inject_every`` carries one table mistake (``replay.inject``)."""
    from ..replay.inject import InjectError, inject
    from ..replay.selfplay import selfplay

    names = player_names(players)
    rng = random.Random(f"federation:{seed}")
    for i, rec in enumerate(selfplay(n, seed)):
        a, b = rng.sample(names, 2)
        year = 2024 + rng.randrange(seasons)
        month, day = rng.randint(1, 12), rng.randint(1, 28)
        rec.headers.update(
            Event=f"Championnat {year}",
            Date=f"{year}.{month:02d}.{day:02d}",
            A=a,
            B=b,
            Round=str(i + 1),
        )
        if inject_every and i % inject_every == 0:
            try:
                rec, _ = inject(rec, 1, rng)
            except InjectError:
                pass
        yield rec


def write_archive(path: Path, n: int, players: int, seasons: int, seed: int = 1, inject_every: int = 5) -> None:
    """The parties of :func:`parties`, written one after the other to ``path``."""
    from ..notation.textio import atomic_writer
    from ..notation.writer import write_record

    with atomic_writer(path) as out:
        for i, rec in enumerate(parties(n, players, seasons, seed, inject_every)):
            if i:
                out.write("\n")
            out.write(write_record(rec))


@dataclass(frozen=True, slots=True)
class Query:
    """One query a club runs: its name, SQL and parameters (as the CLI or Datasette sends it)."""

    name: str
    sql: str
    params: tuple[object, ...] | dict[str, object] = ()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m trictrac.bench.federation", description=__doc__.split("\n\n")[0])
    p.add_argument("-n", type=int, default=10_000, help="parties (default 10000)")
    p.add_argument("--players", type=int, default=200)
    p.add_argument("--seasons", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--inject-every", type=int, default=5, help="one game in N gets a table mistake (0: none)")
    p.add_argument("-o", "--archive", type=Path, required=True, help="the .trn archive (generated if missing)")
    p.add_argument("--generate-only", action="store_true")
    args = p.parse_args(argv)
    if not args.archive.exists():
        t0 = time.process_time()
        write_archive(args.archive, args.n, args.players, args.seasons, args.seed, args.inject_every)
        print(f"{args.n} parties -> {args.archive} ({time.process_time() - t0:.1f} CPU s)", file=sys.stderr)
    if args.generate_only:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
