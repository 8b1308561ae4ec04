"""The optional mypyc build (bench/compile_core.py) and its pure-Python fallback
(notation/compiled.py): TRICTRAC_PURE=1 or a stale build loads every module from its .py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from trictrac.bench import compile_core
from trictrac.notation import compiled

_WHERE = "import trictrac.replay.rules.direct as d, trictrac.notation.reader as r; print(d.__file__, r.__file__)"


def _files(env: dict[str, str]) -> list[str]:
    out = subprocess.run([sys.executable, "-c", _WHERE], env=env, capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_pure_is_forced_by_the_environment() -> None:
    env = {**os.environ, "TRICTRAC_PURE": "1"}
    assert all(f.endswith(".py") for f in _files(env))


def test_the_build_is_used_when_present_and_fresh() -> None:
    env = {k: v for k, v in os.environ.items() if k != "TRICTRAC_PURE"}
    files = _files(env)
    if not (compile_core.ROOT / "replay" / compiled.MANIFEST).exists():
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
    env = {k: v for k, v in os.environ.items() if k != "TRICTRAC_PURE"}
    if pure:
        env["TRICTRAC_PURE"] = "1"
    cmd = [sys.executable, "-c", "from trictrac.cli.main import cli; cli()", "check", *args]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Generated games and the fixtures' mistakes: clean and faulty games alike."""
    path = tmp_path_factory.mktemp("compiled") / "a.trn"
    made = subprocess.run(
        [sys.executable, "-c", "from trictrac.cli.main import cli; cli()", "selfplay", "-n", "6", "-o", str(path)],
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
