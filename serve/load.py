"""A load test of ``trictrac serve`` on loopback (on demand, never in CI):

    python -m trictrac.serve.load [--tables 8] [--followers 20] [--seconds 120] [--think 1.0]

starts ``trictrac serve`` on a free port of 127.0.0.1 with a new club database in a
temporary folder, and for ``--seconds``: ``--tables`` tables each enter the coups of
generated parties (``replay.generate.selfplay``: throw, play, marks as the rules give) one after
the other, ``--think`` seconds apart, sending one coup in ten a second time (an answer
lost on the way: it must come back ``duplicate``); ``--followers`` readers follow, half
through the server-sent events and the club screen, half polling a game's page.  At the
end each stored record is compared with the coups acknowledged: a coup lost or written
twice is counted.  Prints the figures (JSON with ``--json``): coups acknowledged, lost,
doubled, duplicates answered, time to acknowledge a coup (median, 95th percentile, max),
pages read.  Bounded: traffic to 127.0.0.1 only, at most ``--seconds`` (≤ 600) and 64
tables, 200 followers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from ..notation.reader import parse_text
from ..notation.record import Coup, Decision
from ..notation.writer import write_element
from ..replay.generate.selfplay import play_partie
from ..replay.rules.game import moves_text

__all__ = ["main", "run_load"]


@dataclass
class Figures:
    acked: int = 0
    duplicates: int = 0
    refused: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    previews: list[float] = field(default_factory=list)
    take: list[float] = field(default_factory=list)  # the server's own time to take a coup (Server-Timing)
    server_ack: list[float] = field(default_factory=list)  # the server's whole answer to a coup
    take_cpu: list[float] = field(default_factory=list)
    reads: int = 0
    events: int = 0
    games: list[tuple[str, list[str]]] = field(default_factory=list)  # (gid, coups acknowledged)


def _entries(coup: Coup) -> dict[str, str]:
    leave = any(isinstance(a, Decision) and a.leave for a in coup.before) and not coup.moves
    return {"roll": f"{coup.roll[0]}{coup.roll[1]}", "play": "v" if leave else moves_text(coup.moves), "marks": ""}


async def _client(url: str) -> tuple[httpx.AsyncClient, str]:
    c = httpx.AsyncClient(base_url=url, timeout=30)
    r = await c.get("/", headers={"Accept": "text/html"})
    m = re.search(r'<meta name="csrf" content="([^"]+)"', r.text)
    assert m, "no CSRF token on the club screen"
    return c, m.group(1)


async def _table(
    url: str, k: int, parties: list[Any], deadline: float, think: float, seed: int, fig: Figures, previews: bool
) -> None:
    c, csrf = await _client(url)
    rng = random.Random(seed * 1000 + k)
    h = {"X-CSRF-Token": csrf}
    try:
        for rec in parties:
            if time.monotonic() >= deadline:
                break
            r = await c.post(
                "/nouvelle",
                data={"csrf": csrf, "a_new": f"Joueur {k}a", "b_new": f"Joueur {k}b", "table": f"Table {k}"},
            )
            gid = r.headers["location"].split("/")[2]
            done: list[str] = []
            fig.games.append((gid, done))
            for seq, coup in enumerate(rec.coups, 1):
                if time.monotonic() >= deadline:
                    break
                body = {"seq": seq, **_entries(coup)}
                if previews:  # what the page asks while the player taps: the plays, then the marks
                    await asyncio.sleep(think * rng.random())
                    t1 = time.perf_counter()
                    await c.post(f"/g/{gid}/preview", json={"seq": seq, "roll": body["roll"]}, headers=h)
                    await c.post(
                        f"/g/{gid}/preview", json={"seq": seq, "roll": body["roll"], "play": body["play"]}, headers=h
                    )
                    fig.previews.append((time.perf_counter() - t1) / 2)
                t0 = time.perf_counter()
                r = await c.post(f"/g/{gid}/coup", json=body, headers=h)
                fig.latencies.append(time.perf_counter() - t0)
                timing = dict(re.findall(r"(\w+);dur=([\d.]+)", r.headers.get("server-timing", "")))
                if timing:
                    fig.server_ack.append(float(timing.get("ack", "nan")) / 1000)
                    fig.take.append(float(timing["take"]) / 1000)
                    fig.take_cpu.append(float(timing["cpu"]) / 1000)
                out = r.json()
                if out["status"] != "ok":
                    fig.refused.append(f"{gid} coup {seq}: {out}")
                    break
                fig.acked += 1
                done.append(out["coup"])
                if rng.random() < 0.1:  # the answer lost: the page sends it again
                    again = (await c.post(f"/g/{gid}/coup", json=body, headers=h)).json()
                    if again["status"] == "duplicate":
                        fig.duplicates += 1
                    else:
                        fig.refused.append(f"{gid} coup {seq} again: {again}")
                await asyncio.sleep(think * (0.5 + rng.random()))
    finally:
        await c.aclose()


async def _follower(url: str, k: int, deadline: float, fig: Figures) -> None:
    c, _ = await _client(url)
    rng = random.Random(k)
    try:
        if k % 2 == 0:  # the club screen: events, then the cards read again

            async def screen() -> None:
                async with c.stream("GET", "/events", timeout=httpx.Timeout(5, read=None)) as s:
                    async for line in s.aiter_lines():
                        if line.startswith("data:"):
                            fig.events += 1
                            if rng.random() < 0.2:  # a screen does not read every event
                                await c.get("/part/club")
                                fig.reads += 1

            try:
                await asyncio.wait_for(screen(), max(0.0, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                pass
        else:  # a member's phone on one game's page (the games from the club screen)
            games: list[str] = []
            while time.monotonic() < deadline:
                if not games or rng.random() < 0.1:
                    games = _GAME_CARD.findall((await c.get("/part/club")).text)
                    fig.reads += 1
                if games:
                    await c.get(f"/g/{rng.choice(games)}/part")
                    fig.reads += 1
                await asyncio.sleep(1.0)
    except httpx.HTTPError:
        pass
    finally:
        await c.aclose()


_GAME_CARD = re.compile(r'id="card-([0-9a-f]{16})"')


async def _followers(url: str, n: int, seconds: float) -> Figures:
    fig = Figures()
    deadline = time.monotonic() + seconds
    await asyncio.gather(*(_follower(url, k, deadline, fig) for k in range(n)))
    return fig


def _followers_process(url: str, n: int, seconds: float) -> subprocess.Popen[str] | None:
    """The followers in a process of their own, as they are other devices: their reading
    never delays the tables' clock in this one."""
    if not n:
        return None
    cmd = [sys.executable, "-m", "trictrac.serve.load", "--followers-of", url, "--followers", str(n)]
    return subprocess.Popen([*cmd, "--seconds", str(seconds)], stdout=subprocess.PIPE, text=True)


def _quantiles(xs: list[float]) -> dict[str, float | None]:
    if not xs:
        return {"median": None, "p95": None}
    ys = sorted(xs)
    return {"median": round(statistics.median(ys) * 1000, 1), "p95": round(ys[int(0.95 * (len(ys) - 1))] * 1000, 1)}


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux ``/proc``; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def _check(folder: Path, fig: Figures) -> tuple[int, int]:
    """(lost, doubled): coups acknowledged but not in the file, coups in the file twice or
    never acknowledged."""
    lost = doubled = 0
    for gid, acked in fig.games:
        records, _ = parse_text((folder / f"{gid}.trn").read_text(encoding="utf-8"))
        stored = [write_element(c).strip() for c in records[0].coups]
        lost += sum(1 for i, c in enumerate(acked) if i >= len(stored) or stored[i] != c)
        doubled += max(0, len(stored) - len(acked))
    return lost, doubled


async def _run(url: str, tables: int, seconds: float, think: float, seed: int, previews: bool) -> Figures:
    fig = Figures()
    # the parties are played by the bots before the clock starts (a table plays one in
    # about four minutes at one coup a second: two each is plenty)
    count = 1 if seconds / max(think, 0.05) < 60 else 2  # a short run needs one
    parties = {
        k: [play_partie(random.Random(seed * 1000 + k * 10 + i), "douze-trous") for i in range(count)]
        for k in range(1, tables + 1)
    }
    deadline = time.monotonic() + seconds
    await asyncio.gather(
        *(_table(url, k, parties[k], deadline, think, seed, fig, previews) for k in range(1, tables + 1))
    )
    return fig


def run_load(
    *,
    tables: int = 8,
    followers: int = 20,
    seconds: float = 120,
    think: float = 1.0,
    seed: int = 1,
    previews: bool = True,
    server_nice: int = 0,
    server_python: str | None = None,
) -> dict[str, Any]:
    """Run the load test (module docstring) and return its figures."""
    if not (1 <= tables <= 64 and 0 <= followers <= 200 and 0 < seconds <= 600):
        raise ValueError("at most 64 tables, 200 followers and 600 seconds")
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tempfile.TemporaryDirectory(prefix="trictrac-load-") as tmp:
        db = Path(tmp) / "club.db"
        cmd = [
            server_python or sys.executable,
            "-m",
            "trictrac.cli",
            "serve",
            str(db),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ]
        proc = subprocess.Popen(
            cmd,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            preexec_fn=(lambda: os.nice(server_nice)) if server_nice else None,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(200):
                try:
                    httpx.get(url + "/static/style.css", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
            cpu0, load0 = _cpu_seconds(proc.pid), os.getloadavg()[0]
            readers = _followers_process(url, followers, seconds)
            t0 = time.monotonic()
            fig = asyncio.run(_run(url, tables, seconds, think, seed, previews))
            wall = time.monotonic() - t0
            cpu, load1 = _cpu_seconds(proc.pid) - cpu0, os.getloadavg()[0]
            if readers is not None:
                read, _ = readers.communicate(timeout=60)
                seen = json.loads(read or "{}")
                fig.reads, fig.events = seen.get("reads", 0), seen.get("events", 0)
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        lost, doubled = _check(Path(str(db) + ".games"), fig)
    lat = sorted(fig.latencies) or [0.0]
    p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
    return {
        "tables": tables,
        "followers": followers,
        "seconds": round(wall, 1),
        "think_seconds": think,
        "games": len(fig.games),
        "coups_acknowledged": fig.acked,
        "coups_per_second": round(fig.acked / wall, 1) if wall else None,
        "lost": lost,
        "doubled": doubled,
        "duplicates_answered": fig.duplicates,
        "refused": fig.refused[:5],
        "ack_ms": {
            "median": round(statistics.median(lat) * 1000, 1),
            "p95": round(p95 * 1000, 1),
            "max": round(lat[-1] * 1000, 1),
        },
        "server_ack_ms": _quantiles([x for x in fig.server_ack if x == x]),
        "server_take_ms": _quantiles(fig.take),
        "server_take_cpu_ms": _quantiles(fig.take_cpu),
        "preview_ms": {
            "median": round(statistics.median(fig.previews) * 1000, 1) if fig.previews else None,
            "p95": round(sorted(fig.previews)[int(0.95 * len(fig.previews))] * 1000, 1) if fig.previews else None,
        },
        "reads": fig.reads,
        "events": fig.events,
        "server_cpu_seconds": round(cpu, 1),
        "server_cpu_ms_per_coup": round(cpu * 1000 / fig.acked, 1) if fig.acked else None,
        "cpus": os.cpu_count(),
        "load_average": [round(load0, 1), round(load1, 1)],
        "server_nice": server_nice,
        "server_python": server_python or sys.executable,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m trictrac.serve.load", description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=8)
    ap.add_argument("--followers", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=120)
    ap.add_argument("--think", type=float, default=1.0, help="mean seconds between a table's coups")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-preview", action="store_true", help="send the coups whole, as a page offline does")
    ap.add_argument(
        "--server-nice",
        type=int,
        default=0,
        help="the server's niceness (negative: ahead of the other work of a shared machine; root only)",
    )
    ap.add_argument(
        "--server-python",
        metavar="PYTHON",
        help="the interpreter that runs the server (another install of the toolkit: a before/after comparison)",
    )
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--followers-of", metavar="URL", help=argparse.SUPPRESS)  # the followers' own process
    a = ap.parse_args(argv)
    if a.followers_of:
        if not a.followers_of.startswith("http://127.0.0.1:"):
            ap.error("followers read a server on 127.0.0.1 only")
        seen = asyncio.run(_followers(a.followers_of, min(a.followers, 200), min(a.seconds, 600)))
        print(json.dumps({"reads": seen.reads, "events": seen.events}))
        return 0
    out = run_load(
        tables=a.tables,
        followers=a.followers,
        seconds=a.seconds,
        think=a.think,
        seed=a.seed,
        previews=not a.no_preview,
        server_nice=a.server_nice,
        server_python=a.server_python,
    )
    if a.json:
        print(json.dumps(out, indent=1))
    else:
        for k, v in out.items():
            print(f"{k}: {v}")
    ok = out["lost"] == 0 and out["doubled"] == 0 and not out["refused"] and out["ack_ms"]["p95"] <= 100
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
