"""``trictrac bench``: one benchmark of the whole pipeline on a generated corpus
(wiring only; the work is :func:`trictrac.replay.benchmark.run_bench`; this module
passes it the club database import and the publisher as extra stages)."""

from __future__ import annotations

import importlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Callable

import click

from trictrac.cli.common import BadInput
from trictrac.replay.benchmark import format_table, generate_corpus, run_bench


def _head(path: str, n: int, tmp: str) -> str:
    """The first ``n`` games of ``path`` as a file of their own."""
    from trictrac.notation.reader import index_records

    index = index_records(path)[:n]
    out = os.path.join(tmp, "sample.trn")
    with open(path, "rb") as f, open(out, "wb") as o:
        for off, length in index:
            f.seek(off)
            o.write(f.read(length))
            o.write(b"\n")
    return out


def _db_stage(sample: str, tmp: str, n: int) -> Callable[[], int]:
    def run() -> int:
        try:
            db = importlib.import_module("trictrac.club.db")
        except ImportError as e:
            raise LookupError(f"trictrac.club.db not available ({e})") from None
        fn = getattr(db, "import_records", None)
        if fn is None:
            raise LookupError("trictrac.club.db.import_records not available")
        report = fn(os.path.join(tmp, "bench.db"), [sample])
        return int(getattr(report, "imported", n))

    return run


def _publish_stage(sample: str, n: int) -> Callable[[], int]:
    def run() -> int:
        try:
            html = importlib.import_module("trictrac.publish.html")
        except ImportError as e:
            raise LookupError(f"trictrac.publish.html not available ({e})") from None
        fn = getattr(html, "render_game", None)
        if fn is None:
            raise LookupError("trictrac.publish.html.render_game not available")
        from trictrac.notation.reader import iter_records
        from trictrac.replay.verify import verify

        done = 0
        for i, pr in enumerate(iter_records(sample)):
            if i >= n:
                break
            fn(pr.record, verify(pr.record, trace=True), number=i + 1)
            done += 1
        return done

    return run


@click.command("bench")
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("-n", "n", type=click.IntRange(1, None), default=1000, show_default=True,
              help="Games to generate when no FILE is given.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the generated corpus.")
@click.option("--jobs", "-j", type=click.IntRange(1, 256), default=None,
              help="Worker processes for the parallel stages (default: all cores).")
@click.option("--db-sample", type=click.IntRange(0, None), default=200, show_default=True,
              help="Games imported into a scratch club database (0 = skip).")
@click.option("--publish-sample", type=click.IntRange(0, None), default=50, show_default=True,
              help="Games published as HTML pages, verification included (0 = skip).")
@click.option("--json", "json_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the measurements as JSON to this file.")
def bench(file: Path | None, n: int, seed: int, jobs: int | None, db_sample: int, publish_sample: int,
          json_file: Path | None) -> None:
    """Measure the whole pipeline in one run: selfplay games/s (when it generates the
    corpus), parse MB/s, coups verified per second on 1 core and on all cores, club
    database import games/s, published pages/s, and peak memory.

    \b
    Example:
      trictrac bench -n 1000
      python fixtures/make_corpus.py --large 10000 -o corpus/bench.trn
      trictrac bench corpus/bench.trn --json bench.json
    """
    jobs = jobs or (os.cpu_count() or 1)
    with tempfile.TemporaryDirectory(prefix="trictrac-bench-") as tmp:
        generated: dict[str, Any] | None = None
        if file is None:
            path = os.path.join(tmp, "corpus.trn")
            generated = generate_corpus(path, n, seed, jobs=jobs)
        else:
            if not file.is_file():
                raise BadInput(f"no such file: {file}")
            path = str(file)
        stages: dict[str, tuple[str, Callable[[], int]]] = {}
        if db_sample or publish_sample:
            sample = _head(path, max(db_sample, publish_sample), tmp)
            if db_sample:
                stages["db import"] = ("games", _db_stage(sample, tmp, db_sample))
            if publish_sample:
                stages["publish"] = ("pages", _publish_stage(sample, publish_sample))
        result = run_bench(path, jobs=jobs, stages=stages, generated=generated)
    if file is None:
        result["file"] = f"<generated: {n} games, seed {seed}>"
    click.echo(format_table(result))
    if json_file:
        try:
            json_file.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        except OSError as e:
            raise BadInput(f"cannot write {json_file}: {e.strerror}") from None
