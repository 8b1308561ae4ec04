"""Optional mypyc build of the rules engine, the verifier, the reader and the club's import, in place.

    python -m trictrac.bench.compile_core            # build (needs mypy, a C compiler, Python headers)
    python -m trictrac.bench.compile_core --clean    # back to pure Python
    TRICTRAC_PURE=1 trictrac check ...               # pure Python with a build in place

The modules are compiled as one group (one shared library, ``replay/core__mypyc*``, and
a small extension next to each ``.py``) from the same source as the pure-Python
package, which stays the reference: same API, same verdicts; a source edited after the
build makes every module fall back to its ``.py`` (``notation/compiled.py``).  Only for
a source checkout (an editable install): the extensions land next to the sources.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from ..notation.compiled import MANIFEST, manifest_entry

ROOT = Path(__file__).resolve().parent.parent
#: what stays Python: the package markers, this build's selector, the record classes
#: (the public data model), the visitors' bases (subclassed by club/, publish/, tests:
#: an interpreted class cannot inherit from a compiled one) and the injector (its
#: classes inherit from two bases, which mypyc cannot compile)
KEEP_PYTHON = {
    "__init__.py",
    "notation/compiled.py",
    "notation/record.py",
    "notation/visitor.py",
    "replay/generate/inject.py",
}
#: the club import's own work on every game (issue 30): its rows built, stored, and the
#: pipeline that reads, writes and verifies each game; compiled with the core (the rest of
#: ``club/`` is queries, migrations and Datasette's glue: it stays Python)
CLUB_IMPORT = (
    "club/rows.py",
    "club/store.py",
    "club/workers.py",
)
#: the folders the build compiles from (``club/``: :data:`CLUB_IMPORT` only)
PARTS = ("notation", "replay", "club")
#: ``--hot``: the verifier's hot path only (half the build time, the same check speed;
#: docs/performance.md), and what ``db import`` runs for every game besides (issue 30): the
#: writer (every game's canonical text, with its rows), the game's identity and its players'
#: and date's keys, its result, and the club's import (:data:`CLUB_IMPORT`)
HOT = (
    "notation/dates.py",
    "notation/identity.py",
    "notation/names.py",
    "notation/reader.py",
    "notation/writer.py",
    "replay/rules/direct.py",
    "replay/rules/ledger.py",
    "replay/rules/moves.py",
    "replay/rules/position.py",
    "replay/rules/scoring.py",
    "replay/verifier/plain.py",
    "replay/verifier/result.py",
    "replay/verifier/verify.py",
    *CLUB_IMPORT,
)


def sources() -> list[str]:
    """The sources compiled, relative to the repository (``replay/rules/direct.py``, ...)."""
    found = sorted(str(p.relative_to(ROOT)) for part in ("notation", "replay") for p in (ROOT / part).rglob("*.py"))
    return [s for s in found if s not in KEEP_PYTHON and Path(s).name not in KEEP_PYTHON] + list(CLUB_IMPORT)


def hot_sources() -> list[str]:
    """:data:`HOT` and the judges (``replay/verifier/judges/*.py``)."""
    return [*HOT, *(s for s in sources() if s.startswith("replay/verifier/judges/"))]


def built_files() -> list[Path]:
    """The build's files in the source folders (extensions and manifest)."""
    found = [p for part in PARTS for p in (ROOT / part).rglob("*.so")]
    return found + [p for p in (ROOT / "replay").glob(MANIFEST)]


def clean() -> int:
    files = built_files()
    for f in files:
        f.unlink()
    return len(files)


def build(modules: list[str], opt_level: str = "3") -> float:
    """Compile ``modules`` (paths relative to the repository) in place; seconds taken."""
    from mypyc.build import mypycify  # the build's own tools: imported only here
    from setuptools import setup

    t0 = time.perf_counter()
    clean()
    with tempfile.TemporaryDirectory(prefix="trictrac-mypyc-") as tmp:
        tree = Path(tmp)
        # mypy must see the modules under their installed names: trictrac/<part> -> <part>/
        (tree / "trictrac").mkdir()
        for part in (*PARTS, "words"):  # words: the catalogue the findings are said from
            os.symlink(ROOT / part, tree / "trictrac" / part)
        cwd = os.getcwd()
        os.chdir(tree)
        try:
            config = ["--config-file", str(ROOT / "pyproject.toml"), "--namespace-packages", "--explicit-package-bases"]
            config.append("--no-warn-unused-configs")  # the config's sections of the parts not compiled
            exts = mypycify(
                [*config, *(f"trictrac/{m}" for m in modules)],
                opt_level=opt_level,
                group_name="trictrac.replay.core",
                target_dir=str(tree / "c"),
            )
            args = ["-q", "build_ext", "--build-lib", str(tree / "lib"), "--build-temp", str(tree / "tmp")]
            setup(name="trictrac-core", ext_modules=exts, script_args=args)
        finally:
            os.chdir(cwd)
        for so in (tree / "lib" / "trictrac").rglob("*.so"):
            shutil.copy(so, ROOT / so.relative_to(tree / "lib" / "trictrac"))
    manifest = {m: manifest_entry(ROOT / m) for m in modules}
    (ROOT / "replay" / MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m trictrac.bench.compile_core", description=__doc__.split("\n")[0])
    ap.add_argument("--clean", action="store_true", help="remove the build: pure Python again")
    ap.add_argument("--only", help="comma-separated sources to compile (default: all but KEEP_PYTHON)")
    ap.add_argument("--hot", action="store_true", help="only the verifier's hot path (HOT and the judges)")
    ap.add_argument("--opt-level", default="3", help="C optimisation level (default 3)")
    args = ap.parse_args(argv)
    if args.clean:
        print(f"removed {clean()} files", file=sys.stderr)
        return 0
    modules = args.only.split(",") if args.only else hot_sources() if args.hot else sources()
    seconds = build(modules, args.opt_level)
    size = sum(f.stat().st_size for f in built_files())
    print(f"compiled {len(modules)} modules in {seconds:.1f} s, {size / 1e6:.1f} MB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
