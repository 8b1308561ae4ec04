"""The optional mypyc build (bench/compile_core.py) and its pure-Python fallback
(notation/compiled.py): TRICTRAC_PURE=1 or a stale build loads every module from its .py."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from trictrac.bench import compile_core
from trictrac.notation import compiled

_WHERE = (
    "import trictrac.replay.rules.direct as d, trictrac.notation.reader as r, trictrac.club.store as s; "
    "print(d.__file__, r.__file__, s.__file__)"
)


#: the build's manifest, there when a build is in place
_BUILT = compile_core.ROOT / "replay" / compiled.MANIFEST
#: the command line's entry point, run by ``python -c`` in a fresh process
_CLI = "from trictrac.cli.main import cli; cli()"


def _env(pure: bool) -> dict[str, str]:
    """This process's environment, pure Python forced or not (then the build, if any, is used)."""
    env = {k: v for k, v in os.environ.items() if k != "TRICTRAC_PURE"}
    if pure:
        env["TRICTRAC_PURE"] = "1"
    return env


def _files(env: dict[str, str], code: str = _WHERE) -> list[str]:
    """The files of the modules ``code`` imports and prints, in a fresh process."""
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_pure_is_forced_by_the_environment() -> None:
    assert all(f.endswith(".py") for f in _files(_env(True)))


def test_pure_is_forced_for_the_club_import_imported_first() -> None:
    """The club's package selects the build too: its import imported before the engine is
    pure Python when asked (a compiled module chosen before the choice would stay)."""
    club_first = "import trictrac.club.workers as w, trictrac.club.rows as r; print(w.__file__, r.__file__)"
    assert [f.endswith(".py") for f in _files(_env(True), club_first)] == [True, True]


def test_the_build_is_used_when_present_and_fresh() -> None:
    files = _files(_env(False))
    if not _BUILT.exists():
        assert all(f.endswith(".py") for f in files)  # no build: the sources
    elif not compiled._stale():
        assert all(f.endswith(".so") for f in files)


def test_a_changed_source_makes_the_build_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "replay").mkdir()
    src = tmp_path / "replay" / "x.py"
    src.write_text("A = 1\n", encoding="utf-8")
    (tmp_path / "replay" / compiled.MANIFEST).write_text(
        json.dumps({"replay/x.py": compiled.manifest_entry(src)}), encoding="utf-8"
    )
    monkeypatch.setattr(compiled, "_ROOT", tmp_path)
    assert not compiled._stale()
    src.write_text("A = 2  # edited after the build\n", encoding="utf-8")
    assert compiled._stale()


def test_the_compiled_set_leaves_out_the_extension_points() -> None:
    mods = compile_core.sources()
    assert (
        "replay/rules/direct.py" in mods and "replay/verifier/judges/play.py" in mods and "notation/reader.py" in mods
    )
    for kept in ("notation/visitor.py", "notation/record.py", "notation/compiled.py", "replay/generate/inject.py"):
        assert kept not in mods
    assert not any(m.endswith("__init__.py") for m in mods)


def _check(args: list[str], pure: bool) -> subprocess.CompletedProcess[str]:
    """``trictrac check`` in a fresh process (the build, if any, loaded from scratch)."""
    cmd = [sys.executable, "-c", _CLI, "check", *args]
    return subprocess.run(cmd, env=_env(pure), capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Generated games and the fixtures' mistakes: clean and faulty games alike."""
    path = tmp_path_factory.mktemp("compiled") / "a.trn"
    made = subprocess.run(
        [sys.executable, "-c", _CLI, "selfplay", "-n", "6", "-o", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert made.returncode == 0
    mistakes = (compile_core.ROOT / "fixtures" / "corpus" / "mistakes.trn").read_text(encoding="utf-8")
    path.write_text(path.read_text(encoding="utf-8").rstrip("\n") + "\n\n" + mistakes, encoding="utf-8")
    return path


def test_workers_of_a_fresh_process_give_one_process_verdicts(archive: Path) -> None:
    """``-j 2`` pickles the chunks and reports (the compiled classes' reducers must be
    registered however the modules were first imported)."""
    one, two = _check(["--json", str(archive)], False), _check(["--json", "-j", "2", str(archive)], False)
    assert (one.returncode, two.returncode) == (1, 1), two.stderr[-2000:]
    assert one.stdout == two.stdout and '"kind": ' in one.stdout


def test_pure_and_compiled_verdicts_are_identical(archive: Path) -> None:
    """Without a build both runs are pure Python (still two fresh processes)."""
    pure, built = _check(["--json", str(archive)], True), _check(["--json", str(archive)], False)
    assert (pure.returncode, built.returncode) == (1, 1), built.stderr[-2000:]
    assert pure.stdout == built.stdout


def test_the_hot_set_is_compilable_sources_with_every_judge() -> None:
    hot = compile_core.hot_sources()
    assert set(hot) <= set(compile_core.sources()) and len(set(hot)) == len(hot)
    assert (
        "replay/verifier/verify.py" in hot
        and "replay/verifier/judges/play.py" in hot
        and "replay/rules/game.py" not in hot
    )


def _import(db: Path, files: list[Path], pure: bool, jobs: int = 1) -> str:
    """``trictrac db import`` in a fresh process, each file its own command (a hostile
    file refused whole does not stop the others): each file's exit code."""
    env = _env(pure)
    out = []
    for f in files:
        cmd = [sys.executable, "-c", _CLI, "db", "import", "-j", str(jobs)]
        done = subprocess.run([*cmd, str(db), str(f)], env=env, capture_output=True, text=True, timeout=300)
        out.append(f"{f.name} {done.returncode}\n")
    return "".join(out)


def _rows(db: Path) -> list[tuple[object, ...]]:
    """Every row of every table but the full-text indexes' own, without the times of the run
    (``*_at``) and the temporary name a standard-input copy is read under."""
    conn = sqlite3.connect(db)
    try:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                "AND name NOT LIKE '%_fts%' ORDER BY name"
            )
        ]
        out: list[tuple[object, ...]] = []
        for t in tables:
            cols = [r[1] for r in conn.execute(f"PRAGMA table_info({t})") if r[1] != "at" and not r[1].endswith("_at")]
            for row in conn.execute(f"SELECT {', '.join(cols)} FROM {t} ORDER BY 1, 2"):
                out.append((t, *(re.sub(r"trictrac-input-\w+", "", v) if isinstance(v, str) else v for v in row)))
        return out
    finally:
        conn.close()


@pytest.mark.skipif(
    not _BUILT.exists() or compiled._stale(),
    reason="no current build: both sides would be pure Python (.ci/run's compiled step runs it)",
)
def test_pure_and_compiled_imports_store_the_same_rows(archive: Path, tmp_path: Path) -> None:
    """The club's import is compiled with the core (issue 30): on generated games, the
    fixtures' mistakes, the books' cases and the hostile inputs, the compiled import (serial
    and with ``-j 2``, its rows pickled back from the workers) stores what the pure one
    stores, row for row, and exits alike on every file."""
    fixtures = compile_core.ROOT / "fixtures"
    files = [archive, *sorted((fixtures / "books").glob("*.trn"))[:12], *sorted((fixtures / "hostile").glob("*.trn"))]
    files += sorted((fixtures / "records").glob("*.trn"))
    pure, built, two = tmp_path / "p.db", tmp_path / "c.db", tmp_path / "j.db"
    codes = _import(pure, files, True)
    assert _import(built, files, False) == codes and _import(two, files, False, 2) == codes and " 0\n" in codes
    rows = _rows(pure)
    assert len(rows) > 1000 and any(r[0] == "marks" for r in rows) and any(r[0] == "findings" for r in rows)
    assert _rows(built) == rows
    assert _rows(two) == rows
