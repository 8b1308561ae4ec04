"""A federation-size club database, and the queries a club runs on it, timed (issue 30).

``python -m trictrac.bench.federation -n 10000 --players 200 --seasons 3 -o fed.trn --db fed.db``
self-plays ``n`` parties (``replay.generate.selfplay``) between ``players`` named players over
``seasons`` calendar years (one game in ``--inject-every`` gets one table mistake, so
that findings, écoles and their words are there to search), imports them
(``club.importer.import_records``), then times each query (best of a few runs) and
prints its ``EXPLAIN QUERY PLAN``.  Not part of the test suite; tests/test_club_federation.py
runs a small version and asserts that every plan uses an index.
"""

from __future__ import annotations

import argparse
import random
import re
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..notation.record import Record
from .common import remove_db

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
    ``Round`` set); one in ``inject_every`` carries one table mistake (``replay.generate.inject``)."""
    from ..replay.generate.inject import InjectError, inject
    from ..replay.generate.selfplay import selfplay

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


#: tables too small to need an index (a club has a few hundred players)
SMALL_TABLES = frozenset({"players", "meta", "json_each", "CONSTANT ROW"})
_SCAN = re.compile(r"\bSCAN (?:main\.)?(\w+)(?: AS \w+)?(.*)$")


_ALIAS = re.compile(
    r"\b(?:FROM|JOIN)\s+\[?(\w+)\]?(?:\s+AS)?\s+(?!ON\b|WHERE\b|JOIN\b|LEFT\b|GROUP\b|ORDER\b)(\w+)", re.I
)


def unindexed(plan: list[str], sql: str = "") -> list[str]:
    """The lines of an ``EXPLAIN QUERY PLAN`` that read a whole table of the club's rows
    without an index (a full-text index's own tables or a small table is no such line);
    ``sql`` names the tables behind the aliases the plan shows."""
    alias = {a: t for t, a in _ALIAS.findall(sql)}
    made = {d.split()[-1] for d in plan if d.startswith("MATERIALIZE ")}  # a subquery's own rows
    bad = []
    for detail in plan:
        m = _SCAN.search(detail)
        if not m or "VIRTUAL TABLE" in detail or "USING" in m.group(2):
            continue
        table = str(alias.get(m.group(1), m.group(1)))
        if table in SMALL_TABLES or table in made or "_fts" in table:
            continue
        bad.append(detail)
    return bad


@dataclass(slots=True)
class Timed:
    """One query a club runs: its best wall time (ms), the statements it ran and their plans."""

    name: str
    ms: float
    statements: list[tuple[str, list[str]]] = field(default_factory=list)

    @property
    def unindexed(self) -> list[str]:
        return [d for sql, plan in self.statements for d in unindexed(plan, sql)]


def _plans(conn: sqlite3.Connection, statements: list[str]) -> list[tuple[str, list[str]]]:
    out = []
    for sql in dict.fromkeys(statements):
        if not sql.lstrip().upper().startswith(("SELECT", "WITH")):
            continue
        try:
            rows = conn.execute("EXPLAIN QUERY PLAN " + sql).fetchall()
        except sqlite3.Error:
            continue
        out.append((sql, [r[3] for r in rows]))
    return out


def time_query(conn: sqlite3.Connection, name: str, run: Callable[[], object], rounds: int = 3) -> Timed:
    """``run`` timed (best of ``rounds``, ms) and every SELECT it sent to ``conn`` explained."""
    seen: list[str] = []
    conn.set_trace_callback(seen.append)
    try:
        run()
    finally:
        conn.set_trace_callback(None)
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - t0)
    return Timed(name, best * 1000, _plans(conn, seen))


def club_queries(db: Any) -> list[tuple[str, Callable[[], object]]]:
    """The queries a club and a federation run, as the CLI runs them (``club.queries``,
    ``club.standings``) and as Datasette runs them for a game's page and the canned queries."""
    from ..club import queries as q
    from ..club.datasette import CANNED_QUERIES
    from ..club.standings import compute_standings, standing_games

    conn = db.conn
    season = conn.execute("SELECT season FROM games WHERE season IS NOT NULL ORDER BY season DESC LIMIT 1").fetchone()[
        0
    ]
    player = conn.execute(
        "SELECT p.name FROM players p JOIN game_players gp ON gp.player_id = p.id GROUP BY p.id ORDER BY COUNT(*) DESC"
    ).fetchone()[0]
    gno, label, sha = conn.execute("SELECT id, label, sha256 FROM games ORDER BY id DESC LIMIT 1").fetchone()
    refs = [
        (t, fk[3])
        for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        for fk in conn.execute(f"PRAGMA foreign_key_list({t})").fetchall()
        if fk[2] == "games"
    ]

    def game_page() -> object:  # what Datasette reads for /db/games/<id>: the row, the rows naming it
        conn.execute("SELECT * FROM games WHERE id = ?", (gno,)).fetchall()
        return [conn.execute(f"SELECT COUNT(*) FROM [{t}] WHERE [{c}] = ?", (gno,)).fetchone() for t, c in refs]

    def canned(name: str, **params: object) -> Callable[[], object]:
        return lambda: conn.execute(CANNED_QUERIES[name]["sql"], params).fetchall()

    return [
        (f"standings of season {season}", lambda: compute_standings(standing_games(db, season=season))),
        (f"a player's page ({player})", lambda: (q.player_results(db, player), q.head_to_head(db, player))),
        (f"db games --player --season {season}", lambda: q.list_games(db, player=player, season=season)),
        ("db search ecole", lambda: q.search(db, "ecole")),
        ("db search par trop", lambda: q.search(db, "par trop")),
        (f"db search {player.split()[-1]}", lambda: q.search(db, player.split()[-1])),
        ("db ecoles --player", lambda: q.ecoles(db, player=player)),
        ("db show (id prefix)", lambda: q.game_detail(db, sha[:8])),
        ("db players", lambda: q.list_players(db)),
        ("Datasette game page (SQL)", game_page),
        ("Datasette canned: standings", canned("standings", season=season)),
        ("Datasette canned: player_games", canned("player_games", player=player)),
        ("Datasette canned: game_ecoles", canned("game_ecoles", game=label)),
        ("Datasette canned: disputed_scores", canned("disputed_scores")),
    ]


def time_club_queries(db_path: Path, rounds: int = 3) -> list[Timed]:
    """Every query of :func:`club_queries` on the database at ``db_path``, timed and explained."""
    from ..club.db import open_db

    db = open_db(db_path, create=False, readonly=True)
    try:
        return [time_query(db.conn, name, run, rounds) for name, run in club_queries(db)]
    finally:
        db.close()


def datasette_pages(db_path: Path, rounds: int = 3) -> list[tuple[str, float, int]]:
    """Datasette's own pages (game page, canned queries), through its in-process client:
    ``(path, best ms, HTTP status)``; empty when Datasette is not installed."""
    try:
        from datasette.app import Datasette
    except ImportError:
        return []
    import asyncio

    from ..club.datasette import datasette_metadata

    name = db_path.stem
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    season = conn.execute("SELECT MAX(season) FROM games").fetchone()[0]
    gno, label = conn.execute("SELECT id, label FROM games ORDER BY id DESC LIMIT 1").fetchone()
    player = conn.execute("SELECT name FROM players ORDER BY id LIMIT 1").fetchone()[0]
    conn.close()
    from urllib.parse import quote

    paths = [
        f"/{name}/games/{gno}",
        f"/{name}/standings?season={season}",
        f"/{name}/player_games?player={quote(player)}",
        f"/{name}/game_ecoles?game={quote(label)}",
        f"/{name}/disputed_scores",
        f"/{name}/findings?_search=ecole",
    ]
    ds = Datasette([str(db_path)], immutables=[], metadata=datasette_metadata(name))

    async def fetch() -> list[tuple[str, float, int]]:
        out = []
        for path in paths:
            best, status = float("inf"), 0
            for _ in range(rounds + 1):  # the first warms the caches
                t0 = time.perf_counter()
                r = await ds.client.get(path)
                best, status = min(best, time.perf_counter() - t0), r.status_code
            out.append((path, best * 1000, status))
        return out

    return asyncio.run(fetch())


def import_archive(archive: Path, db_path: Path, jobs: int = 1) -> dict[str, float]:
    """``import_records`` of ``archive`` into a new ``db_path``: games, CPU s (this process and
    its workers), wall s, the database's bytes and bytes per KB of records."""
    import resource

    from ..club.importer import import_records

    remove_db(db_path)
    ru0 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    rep = import_records(db_path, [archive], jobs=jobs)
    wall = time.perf_counter() - t0
    ru1 = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = sum(b.ru_utime + b.ru_stime - a.ru_utime - a.ru_stime for a, b in zip(ru0, ru1))
    conn = sqlite3.connect(db_path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    size = db_path.stat().st_size
    return {
        "games": rep.read,
        "failed": rep.failed,
        "cpu_s": round(cpu, 2),
        "wall_s": round(wall, 2),
        "games_per_cpu_s": round(rep.read / cpu, 1) if cpu else 0.0,
        "db_bytes": size,
        "bytes_per_kb": round(size / (archive.stat().st_size / 1024), 2),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m trictrac.bench.federation", description=(__doc__ or "").split("\n\n")[0]
    )
    p.add_argument("-n", type=int, default=10_000, help="parties (default 10000)")
    p.add_argument("--players", type=int, default=200)
    p.add_argument("--seasons", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--inject-every", type=int, default=5, help="one game in N gets a table mistake (0: none)")
    p.add_argument("-o", "--archive", type=Path, required=True, help="the .trn archive (generated if missing)")
    p.add_argument("--db", type=Path, default=None, help="the club database (default: ARCHIVE.db)")
    p.add_argument("--jobs", type=int, default=1, help="import with this many worker processes")
    p.add_argument("--no-import", action="store_true", help="time the queries on an existing --db")
    p.add_argument("--generate-only", action="store_true")
    p.add_argument("--plans", action="store_true", help="print every statement's EXPLAIN QUERY PLAN")
    args = p.parse_args(argv)
    if not args.archive.exists():
        t0 = time.process_time()
        write_archive(args.archive, args.n, args.players, args.seasons, args.seed, args.inject_every)
        print(f"{args.n} parties -> {args.archive} ({time.process_time() - t0:.1f} CPU s)", file=sys.stderr)
    if args.generate_only:
        return 0
    db_path = args.db or args.archive.with_suffix(".db")
    if not args.no_import:
        figures = import_archive(args.archive, db_path, args.jobs)
        print("import: " + ", ".join(f"{k} {v}" for k, v in figures.items()))
    bad = 0
    print(f"{'query':<45} {'ms':>8}  plan")
    for t in time_club_queries(db_path):
        flag = "index" if not t.unindexed else "SCAN: " + "; ".join(t.unindexed)
        bad += bool(t.unindexed)
        print(f"{t.name:<45} {t.ms:8.1f}  {flag}")
        if args.plans:
            for sql, plan in t.statements:
                print("    " + " ".join(sql.split())[:160])
                for d in plan:
                    print("      " + d)
    for path, ms, status in datasette_pages(db_path):
        print(f"{'Datasette ' + path[:35]:<45} {ms:8.1f}  HTTP {status}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
