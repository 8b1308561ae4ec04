"""``trictrac bench``: every speed figure of issue 17, measured in one run.

:func:`run_bench` takes :class:`Options` and returns a dict, printed by
:func:`format_text` or written as JSON by ``trictrac bench --json``.  The JSON shape
is a public interface (version 1)::

    {
      "version": 1,
      "machine": {"cores": int, "python": "3.x.y", "chess": "1.11.2" | null,
                  "byte_compiled": int,    # trictrac folders byte-compiled first (as pip does)
                  "compiled_core": bool},  # the optional mypyc build in use (compile_core)
      "corpus": {"file": str, "games": int, "coups": int, "bytes": int},
      "options": {...the sizes used...},
      "rows": [ {"step": str, "items": number, "unit": str,
                 "seconds": float,                 # wall clock
                 "cpu_seconds": float | null,      # this process, or the child's own
                 "rate": float | null,             # items per wall second
                 "rate_per_cpu_second": float | null,
                 "peak_mb": float | null,          # the child's peak RSS
                 "note": str}, ... ],
      "figures": {                                 # issue 17's table; a key is absent
        "check_coups_per_s": float,                #   when its step did not run
        "chess_plies_per_s": float,
        "check_vs_chess": float,                   # ratio of the two above (target >= 1)
        "check_j2_speedup": float,                 # check per CPU s vs check -j 2 per wall s
        "check_peak_mb": {"<games>": float, ...},  # check on archives of growing size
        "db_import_games_per_s": float,
        "db_import_j2_speedup": float,
        "publish_pages_per_s": float,              # a site of publish_sample parties
        "publish_site_parties": int,               #   (generated en douze trous, ~300
        "publish_site_cpu_s": float,               #   coups each, or FILE's first ones):
        "publish_check_share": float,              #   its CPU s; check of them / publish
        "analyse_ms": float,                       # one position, all 21 throws
        "judge_us_direct": float,                  # written play judged directly ...
        "judge_us_enumeration": float,             # ... and by enumeration
        "judge_us_proof": float,                   # the direct proof alone, where it decides
        "judge_decided_directly": float,           # share of coups, 0..1
        "typo_to_the_end": float,                  # issue 14 §2: share of games with one typo
        "typo_proposal_original": float,           #   verified to the end with that finding
                                                   #   only (target 0.95), proposal = original
                                                   #   text (target 0.80); "typo": per kind
        "engine": {...}, "moves": {...}, "parse": {...}   # the figures of each step
      },
      "skipped": {"<step>": "reason", ...},
      "peak_memory": {"self_mb": float, "children_mb": float}
    }

Rates of one process are per CPU second of that process (``rate_per_cpu_second``): a
machine shared with other work disturbs them less than the wall clock; a ``-j 2``
speed-up is the rate of ``-j 2`` per wall second over the one-core rate per CPU second
(what one idle core gives), so it needs an otherwise idle machine.  Every step is in :data:`STEPS`.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import asdict, dataclass, field
from typing import Any

from ..notation.compiled import active as compiled_core_active
from . import engine, judge, parse, pipeline, typo_bench
from . import moves as moves_bench
from .common import Row, byte_compile_package, peak_memory, progress
from .corpus import count_games_and_coups, generate_corpus, head

__all__ = ["STEPS", "Options", "format_text", "run_bench"]

#: every step, in the order they run
STEPS: tuple[str, ...] = (
    "parse",
    "engine",
    "moves",
    "judge",
    "verify",
    "check",
    "chess",
    "check-j2",
    "memory",
    "import",
    "import-j2",
    "publish",
    "typo",
)


@dataclass
class Options:
    """What to measure and on how much (defaults: a few minutes on one core)."""

    file: str | None = None  # a .trn archive; None = generate ``parties`` self-played parties
    parties: int = 300
    seed: int = 1
    only: tuple[str, ...] = STEPS
    memory_sizes: tuple[int, ...] = (100, 400)  # issue 17's table: 500, 4000
    import_sample: int = 100
    publish_sample: int = 200  # issue 15: a site of 200 parties in under 5 CPU s
    positions: int = 500  # engine and moves steps
    games: int = 5  # moves step: self-played games in game order
    judge_coups: int = 5000
    parse_games: int = 2000  # synthetic archive of the parse step
    typo_games: int = 1000  # typo step: generated games with one typo each (issue 14 §2)
    extra: dict[str, Any] = field(default_factory=dict)


def _chess_version() -> str | None:
    try:
        import chess
    except ImportError:
        return None
    return str(chess.__version__)


def run_bench(opt: Options) -> dict[str, Any]:
    """Run the steps of ``opt.only`` (see the module docstring for the result)."""
    unknown = [s for s in opt.only if s not in STEPS]
    if unknown:
        raise ValueError(f"unknown step {unknown[0]!r}; steps: {', '.join(STEPS)}")
    rows: list[Row] = []
    figures: dict[str, Any] = {}
    skipped: dict[str, str] = {}
    want = set(opt.only)
    compiled = byte_compile_package()  # the children then start as an installed package does
    with tempfile.TemporaryDirectory(prefix="trictrac-bench-") as tmp:
        if opt.file is None:
            path = os.path.join(tmp, "corpus.trn")
            progress(f"generating {opt.parties} parties")
            gen = generate_corpus(path, opt.parties, opt.seed)
            games, coups = opt.parties, gen.pop("coups")
            rows.append(gen)
        else:
            path = opt.file
            games, coups = count_games_and_coups(path)
        corpus = {
            "file": opt.file or f"<generated: {opt.parties} parties, seed {opt.seed}>",
            "games": games,
            "coups": coups,
            "bytes": os.path.getsize(path),
        }
        for step in STEPS:
            if step not in want:
                continue
            progress(step)
            try:
                _step(step, opt, path, games, coups, tmp, rows, figures)
            except (LookupError, RuntimeError, OSError) as e:
                skipped[step] = str(e)
    _headline(rows, figures)
    return {
        "version": 1,
        "machine": {
            "cores": os.cpu_count(),
            "python": pipeline.python_version(),
            "chess": _chess_version(),
            "byte_compiled": compiled,
            "compiled_core": compiled_core_active(),
        },
        "corpus": corpus,
        "options": {k: v for k, v in asdict(opt).items() if k not in ("file", "extra")},
        "rows": rows,
        "figures": figures,
        "skipped": skipped,
        "peak_memory": peak_memory(),
    }


def _step(
    step: str, opt: Options, path: str, games: int, coups: int, tmp: str, rows: list[Row], figures: dict[str, Any]
) -> None:
    if step == "parse":
        rows.extend(pipeline.parse_corpus(path))
        figures["parse"] = {
            k: round(v, 3) if isinstance(v, float) else v
            for k, v in parse.run(opt.parse_games, opt.seed, repeat=1).items()
        }
    elif step == "engine":
        res = engine.run(opt.positions)
        res.pop("profile")
        figures["engine"] = res
        figures["analyse_ms"] = round(1000 / res["analyse_positions_per_second"], 3)
    elif step == "moves":
        res = moves_bench.run(opt.positions)
        if opt.games:
            res.update(moves_bench.run_games(opt.games))
        figures["moves"] = {k: round(v, 3) if isinstance(v, float) else v for k, v in res.items()}
    elif step == "judge":
        res = judge.run(opt.judge_coups)
        figures["judge"] = res
        figures["judge_us_direct"] = res["us_per_coup_direct"]
        figures["judge_us_enumeration"] = res["us_per_coup_enumeration"]
        figures["judge_decided_directly"] = res["decided_directly"]
        if res["us_per_decided_coup"] is not None:
            figures["judge_us_proof"] = res["us_per_decided_coup"]
    elif step == "verify":
        rows.append(pipeline.verify_in_process(path))
    elif step == "check":
        rows.append(pipeline.check(path, coups))
    elif step == "chess":
        if _chess_version() is None:
            raise LookupError("python-chess not installed (pip install -e '.[bench]')")
        rows.append(pipeline.chess_replay(coups, tmp, opt.seed))
    elif step == "check-j2":
        rows.append(pipeline.check(path, coups, jobs=2, step="check -j 2"))
    elif step == "memory":
        rows.extend(pipeline.memory(path, list(opt.memory_sizes), tmp))
    elif step in ("import", "import-j2"):
        n = opt.import_sample
        sample = head(path, n, os.path.join(tmp, f"sample-{step}.trn"))
        rows.append(pipeline.db_import(sample, min(n, games), tmp, jobs=2 if step == "import-j2" else 1))
    elif step == "publish":
        sample, n = _publish_sample(opt, path, games, tmp)
        rows.extend(pipeline.publish(sample, n, tmp))
    elif step == "typo":
        res = typo_bench.bench(opt.typo_games, opt.seed)
        res.pop("text")
        figures["typo"] = res
        figures["typo_to_the_end"] = res["to_the_end"]
        figures["typo_proposal_original"] = res["proposal_original"]


def _publish_sample(opt: Options, path: str, games: int, tmp: str) -> tuple[str, int]:
    """The parties ``publish`` makes a site of: the first ``publish_sample`` of FILE,
    or as many generated parties en douze trous (about 300 coups each, issue 15's
    "site of 200 generated parties")."""
    sample = os.path.join(tmp, "sample-publish.trn")
    n = opt.publish_sample
    if opt.file is None:
        progress(f"generating {n} parties en douze trous to publish")
        generate_corpus(sample, n, opt.seed, kinds=("douze-trous",))
        return sample, n
    head(path, n, sample)
    return sample, min(n, games)


def _rate(rows: list[Row], step: str, cpu: bool = True) -> float | None:
    for r in rows:
        if r["step"] == step:
            rate: float | None = r["rate_per_cpu_second"] if cpu and r["rate_per_cpu_second"] else r["rate"]
            return rate
    return None


def _headline(rows: list[Row], figures: dict[str, Any]) -> None:
    """Issue 17's table from the rows."""
    pairs = (
        ("check_coups_per_s", "check"),
        ("chess_plies_per_s", "chess"),
        ("db_import_games_per_s", "db import"),
        ("publish_pages_per_s", "publish"),
    )
    for key, step in pairs:
        v = _rate(rows, step)
        if v is not None:
            figures[key] = v
    if "check_coups_per_s" in figures and "chess_plies_per_s" in figures:
        figures["check_vs_chess"] = round(figures["check_coups_per_s"] / figures["chess_plies_per_s"], 3)
    for key, one, two in (
        ("check_j2_speedup", "check", "check -j 2"),
        ("db_import_j2_speedup", "db import", "db import -j 2"),
    ):
        # one core's rate per CPU second (what an idle core gives) against -j 2's wall rate
        a, b = _rate(rows, one), _rate(rows, two, cpu=False)
        if a and b:
            figures[key] = round(b / a, 2)
    for r in rows:
        if r["step"] == "publish" and r["cpu_seconds"]:
            figures["publish_site_parties"] = r["items"]
            figures["publish_site_cpu_s"] = r["cpu_seconds"]
        elif r["step"] == "publish: check" and r["cpu_seconds"] and figures.get("publish_site_cpu_s"):
            figures["publish_check_share"] = round(r["cpu_seconds"] / figures["publish_site_cpu_s"], 3)
    mem = {r["step"].rsplit(" ", 1)[1]: r["peak_mb"] for r in rows if r["step"].startswith("check memory ")}
    if mem:
        figures["check_peak_mb"] = mem


def format_text(result: dict[str, Any]) -> str:
    """The rows as a table, then issue 17's figures."""
    c = result["corpus"]
    lines = [
        (
            f"{c['file']}: {c['games']} games, {c['coups']} coups, {c['bytes'] / 1e6:.1f} MB; "
            f"{result['machine']['cores']} cores, Python {result['machine']['python']}"
            + (", compiled core (mypyc)" if result["machine"].get("compiled_core") else ", pure Python")
        ),
        f"{'step':<20}{'items':>10} {'unit':<6}{'seconds':>9}{'rate/s':>11}{'rate/cpu s':>12}{'peak MB':>9}  note",
    ]
    for r in result["rows"]:
        rate = "-" if r["rate"] is None else f"{r['rate']:,.1f}"
        rc = "-" if r["rate_per_cpu_second"] is None else f"{r['rate_per_cpu_second']:,.1f}"
        pm = "-" if r["peak_mb"] is None else f"{r['peak_mb']:.1f}"
        lines.append(
            f"{r['step']:<20}{r['items']:>10} {r['unit']:<6}{r['seconds']:>9.2f}{rate:>11}{rc:>12}{pm:>9}  {r['note']}"
        )
    f = result["figures"]
    labels = (
        ("check_coups_per_s", "check, coups per CPU second (one core, whole process)"),
        ("chess_plies_per_s", "python-chess, plies per CPU second (read_game + push)"),
        ("check_vs_chess", "ratio check / python-chess (target >= 1.0)"),
        ("check_j2_speedup", "check -j 2 speed-up (target >= 1.8)"),
        ("check_peak_mb", "check peak memory by archive size, MB (target: flat)"),
        ("db_import_games_per_s", "db import, games per CPU second (target >= 300)"),
        ("db_import_j2_speedup", "db import -j 2 speed-up (target >= 1.8)"),
        ("publish_pages_per_s", "publish, pages per CPU second (target >= 40)"),
        ("publish_site_cpu_s", "publish, site of the sample's parties, CPU s (target < 5 for 200 parties)"),
        ("publish_check_share", "share of publish spent reading and verifying (check of the same parties)"),
        ("analyse_ms", "analyse one position, all 21 throws, ms (target <= 2)"),
        ("judge_us_direct", "written play judged directly, us per coup"),
        ("judge_us_enumeration", "written play judged by enumeration, us per coup"),
        ("judge_us_proof", "the direct proof alone, us per coup it decides"),
        ("judge_decided_directly", "share of coups decided without enumeration"),
        ("typo_to_the_end", "games with one typo verified to the end with that finding only (target >= 0.95)"),
        ("typo_proposal_original", "typos whose proposal is the original text (target >= 0.80)"),
    )
    lines.append("")
    for key, label in labels:
        if key in f:
            lines.append(f"{label}: {f[key]}")
    for step, why in result["skipped"].items():
        lines.append(f"skipped {step}: {why}")
    pm = result["peak_memory"]
    lines.append(f"peak memory of the bench itself: {pm['self_mb']} MB; largest child: {pm['children_mb']} MB")
    return "\n".join(lines)
