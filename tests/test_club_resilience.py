"""The club database under kills, concurrent corrections and read-only files (issues 15, 18):
an import killed with SIGKILL leaves whole games only and a rerun completes it; two
imports of the same corrections lose and duplicate nothing; a WAL file in a directory
nobody may write is read without leaving anything beside it."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from club_helpers import (
    copy_record,
    counts,
    orphans,
    selfplay_records,
    with_table_talk,
    write_archive,
)

from trictrac.club.db import open_db, readonly_uri
from trictrac.club.importer import import_records

N = 12

# Prints one line per stored game, so the parent can kill it at a chosen moment.
_STEPPER = """
import sys
from trictrac.club.importer import import_records
def step(s):
    print(s.status, flush=True)
import_records(sys.argv[1], sys.argv[2:], progress=step)
print("done", flush=True)
"""


def _games(n: int = N):
    return [copy_record(r, Round=str(i + 1), Date="2024.05.04") for i, r in enumerate(selfplay_records(n, seed=3))]


def _whole_games_only(db_path: Path) -> None:
    """Every stored game has all its rows, and nothing belongs to a game not stored."""
    assert orphans(db_path) == []
    conn = sqlite3.connect(db_path)
    try:
        torn = conn.execute(
            "SELECT g.id FROM games g WHERE g.n_coups != (SELECT COUNT(*) FROM coups c WHERE c.game_id = g.id)"
        ).fetchall()
        assert torn == []
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        dup = conn.execute("SELECT game_key FROM games GROUP BY game_key HAVING COUNT(*) > 1").fetchall()
        assert dup == []
    finally:
        conn.close()


def _kill_after(db_path: Path, src: Path, lines: int) -> int:
    """Run an import and SIGKILL it once it reported ``lines`` stored games; their number."""
    p = subprocess.Popen(
        [sys.executable, "-c", _STEPPER, str(db_path), str(src)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen = 0
    try:
        while seen < lines:
            line = p.stdout.readline()
            if not line or line.strip() == "done":
                break
            seen += 1
    finally:
        p.send_signal(signal.SIGKILL)
        p.communicate(timeout=60)
    return seen


@pytest.mark.parametrize("moment", [0, 1, 5])
def test_an_import_killed_leaves_whole_games_and_a_rerun_completes_it(tmp_path: Path, moment: int) -> None:
    """Killed before the first game, after one, in the middle: whole games only; then the
    same with corrected versions (a kill between the history row and the new rows would
    lose a game: there is none)."""
    games = _games()
    src = write_archive(tmp_path / "soiree.trn", games)
    db_path = tmp_path / "club.db"
    stored = _kill_after(db_path, src, moment)
    if db_path.exists():
        _whole_games_only(db_path)
        assert counts(db_path)["games"] >= stored
    rep = import_records(db_path, [src])
    assert rep.failures == [] and rep.added + rep.unchanged == N
    assert counts(db_path)["games"] == N
    _whole_games_only(db_path)
    # corrections of every game, killed again
    fixed = write_archive(
        tmp_path / "corrige.trn", [with_table_talk(g, comments=[(1, f"corrigé {i}")]) for i, g in enumerate(games)]
    )
    _kill_after(db_path, fixed, moment + 2)
    _whole_games_only(db_path)
    conn = sqlite3.connect(db_path)
    assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == N  # each game once, old or new
    history = conn.execute("SELECT COUNT(*) FROM game_history").fetchone()[0]
    replaced = conn.execute(
        "SELECT COUNT(*) FROM games WHERE sha256 IN (SELECT replaced_by FROM game_history)"
    ).fetchone()[0]
    assert history == replaced  # every replaced version is in the history, once
    conn.close()
    rep = import_records(db_path, [fixed])
    assert rep.failures == [] and rep.replaced + rep.unchanged == N
    conn = sqlite3.connect(db_path)
    assert conn.execute("SELECT COUNT(*) FROM game_history").fetchone()[0] == N
    assert conn.execute("SELECT COUNT(*) FROM comments WHERE text LIKE 'corrigé%'").fetchone()[0] == N
    conn.close()
    _whole_games_only(db_path)


_IMPORTER = """
import sys
from trictrac.club.importer import import_records
rep = import_records(sys.argv[1], sys.argv[2:])
print(rep.added, rep.replaced, rep.unchanged, len(rep.failures))
"""


def test_two_imports_of_the_same_corrections_lose_and_duplicate_nothing(tmp_path: Path) -> None:
    games = _games()
    db_path = tmp_path / "club.db"
    import_records(db_path, [write_archive(tmp_path / "a.trn", games)])
    fixed = [with_table_talk(g, comments=[(0, "corrigé")]) for g in games]
    # one file in order, the other reversed: the two processes meet in the middle
    srcs = [write_archive(tmp_path / "f1.trn", fixed), write_archive(tmp_path / "f2.trn", fixed[::-1])]
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _IMPORTER, str(db_path), str(s)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for s in srcs
    ]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    nums = [tuple(map(int, o[0].split())) for o in outs]
    assert all(n[0] == 0 and n[3] == 0 for n in nums)
    assert sum(n[1] for n in nums) == N and sum(n[2] for n in nums) == N  # each replaced exactly once
    conn = sqlite3.connect(db_path)
    assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == N
    assert conn.execute("SELECT COUNT(*) FROM game_history").fetchone()[0] == N
    assert conn.execute("SELECT COUNT(*) FROM comments WHERE text = 'corrigé'").fetchone()[0] == N
    conn.close()
    _whole_games_only(db_path)


# --- read-only databases (issue 18) ------------------------------------------------------------


def test_readonly_uri_adds_immutable_only_for_an_unwritable_directory(tmp_path: Path) -> None:
    p = tmp_path / "club db?.db"
    base = f"file:{tmp_path.resolve().as_posix()}/club%20db%3F.db"
    assert readonly_uri(p, writable_dir=True, writable_file=False) == base + "?mode=ro"
    assert readonly_uri(p, writable_dir=True, writable_file=True) == base + "?mode=rw"
    assert readonly_uri(p, writable_dir=False, writable_file=True) == base + "?mode=ro&immutable=1"
    assert readonly_uri(p, writable_dir=False) == base + "?mode=ro&immutable=1"


def _wal_db(directory: Path) -> Path:
    db_path = directory / "club.db"
    import_records(db_path, [write_archive(directory / "g.trn", _games(3))])
    (directory / "g.trn").unlink()
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
    return db_path


def test_reading_in_a_writable_directory_leaves_nothing_new(tmp_path: Path) -> None:
    db_path = _wal_db(tmp_path)
    before = sorted(os.listdir(tmp_path))
    db = open_db(db_path, create=False, readonly=True)
    assert db.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 3
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        db.conn.execute("DELETE FROM games")
    db.close()
    assert sorted(os.listdir(tmp_path)) == before


_READER = """
import json, os, sys
from click.testing import CliRunner
from trictrac.cli.main import cli as main
main.load_all()  # the commands are imported on first use: before nobody, who cannot read root's Python
import sqlite_utils  # loaded on first use too (``db import`` does without it)
os.setgid(65534); os.setuid(65534)  # nobody: cannot write the directory
assert not os.access(sys.argv[1], os.W_OK)
out = {}
for args in (["db", "games", "--json"], ["db", "stats", "--json", "--no-corpus"], ["standings", "--json"]):
    res = CliRunner().invoke(main, [args[0], args[1], sys.argv[2], *args[2:]] if args[0] == "db"
                             else [args[0], sys.argv[2], *args[1:]])
    out[" ".join(args[:2])] = [res.exit_code, res.output[-300:]]
print(json.dumps(out))
"""


@pytest.mark.skipif(not hasattr(os, "setuid") or os.geteuid() != 0, reason="needs root to become nobody")
def test_a_wal_database_in_a_directory_nobody_may_write_is_read(tmp_path: Path) -> None:
    """As root chmod stops nothing: the reader runs as ``nobody`` (setuid in a subprocess)
    on a WAL file in a directory owned by root, mode 755."""
    import json

    d = Path(tempfile.mkdtemp(prefix="trictrac-ro-"))
    try:
        db_path = _wal_db(d)
        os.chmod(d, 0o755)
        os.chmod(db_path, 0o644)
        before = sorted(os.listdir(d))
        r = subprocess.run(
            [sys.executable, "-c", _READER, str(d), str(db_path)],
            check=False,
            capture_output=True,
            text=True,
            timeout=120,
            cwd="/",
        )
        assert r.returncode == 0, r.stderr
        out = json.loads(r.stdout.strip().splitlines()[-1])
        for cmd, (code, text) in out.items():
            assert code == 0, (cmd, text)
        assert '"games": 3' in out["db stats"][1]
        assert sorted(os.listdir(d)) == before  # no -wal, no -shm left beside the file
    finally:
        shutil.rmtree(d, ignore_errors=True)
