"""Schema version 6 -> 7 (issue 30): ``marks.kind``'s CHECK a chain of OR instead of an IN list
(the same kinds; SQLite built the list into a table each time an insert statement ran), the
table's SQL rewritten in place (or the table rebuilt when a club changed it).  Tested on a file
today's main made (tests/data/club_v6.db.gz, tests/data/make_v6_fixtures.py): every
row kept with its id, the club's own indexes and the full-text triggers survive, foreign keys
hold, the kinds allowed are the same, a failure leaves the file at version 6, and a migrated
file is not touched again."""

from __future__ import annotations

import gzip
import re
import shutil
import sqlite3
from pathlib import Path

import pytest
from club_helpers import DATA, content, copy_record, orphans, selfplay_records, write_archive

from trictrac.club import migrations, queries, schema
from trictrac.club.db import delete_game, open_db
from trictrac.club.importer import import_records


def v6_file(dest: Path) -> Path:
    with gzip.open(DATA / "club_v6.db.gz", "rb") as src, open(dest, "wb") as out:
        shutil.copyfileobj(src, out)
    return dest


def _rows(path: Path, sql: str) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return sorted(conn.execute(sql).fetchall(), key=repr)
    finally:
        conn.close()


def _marks_sql(path: Path) -> str:
    return _rows(path, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'marks'")[0][0]


def _kinds(ddl: str) -> set[str]:
    """The kinds a ``marks`` table's CHECK allows, IN list or OR chain."""
    check = re.search(r"kind\s+TEXT NOT NULL CHECK \((.*?)\),\s", ddl, re.S)
    assert check is not None
    return set(re.findall(r"'([a-z-]+)'", check.group(1)))


MARK_ROWS = (
    "SELECT id, game_id, coup_seq, seq, phase, kind, who, player_id, against, against_id, points, token FROM marks"
)


@pytest.mark.parametrize("way", ["sql rewritten", "table rebuilt"])
def test_a_version_6_file_made_by_main_is_migrated_keeping_every_row(tmp_path: Path, monkeypatch, way: str) -> None:
    p = v6_file(tmp_path / "club.db")
    if way == "table rebuilt":  # a marks table whose SQL is not version 6's (a club changed it)
        monkeypatch.setattr(migrations, "V6_KIND_CHECK", "CHECK (kind IN ('something else'))")
    pages = _rows(p, "PRAGMA page_count")
    assert _rows(p, "SELECT value FROM meta WHERE key = 'schema_version'") == [("6",)]
    before, marks = content(p), _rows(p, MARK_ROWS)
    fts = _rows(p, "SELECT rowid, terms, reason FROM ecoles_fts")
    old_kinds = _kinds(_marks_sql(p))
    assert " IN (" in _marks_sql(p) and len(old_kinds) == 13 and len(marks) > 100 and fts

    db = open_db(p, create=False)
    assert db.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1  # back on after the migration
    db.close()

    assert _rows(p, "SELECT value FROM meta WHERE key = 'schema_version'") == [("7",)]
    assert content(p) == before and _rows(p, MARK_ROWS) == marks  # the ids too: ecoles_fts names them
    assert _rows(p, "SELECT rowid, terms, reason FROM ecoles_fts") == fts
    ddl = _marks_sql(p)
    assert "kind IN" not in ddl and _kinds(ddl) == old_kinds  # the same kinds, as a chain of OR
    assert orphans(p) == []
    names = {r[0] for r in _rows(p, "SELECT name FROM sqlite_master WHERE type IN ('index', 'trigger')")}
    assert {"club_games_site", "club_marks_token", "ecoles_fts_ad", "idx_marks_ecole_claimant"} <= names
    if way == "sql rewritten":  # no row moved: a federation's file does not grow
        assert _rows(p, "PRAGMA page_count") == pages
    conn = sqlite3.connect(p)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert "marks_v6" not in {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    conn.close()


def test_the_migrated_marks_take_every_kind_and_refuse_others(tmp_path: Path) -> None:
    p = v6_file(tmp_path / "club.db")
    kinds = _kinds(_marks_sql(p))
    open_db(p, create=False).close()
    conn = sqlite3.connect(p, isolation_level=None)
    gno, seq = conn.execute("SELECT game_id, seq FROM coups LIMIT 1").fetchone()
    conn.execute("BEGIN")
    for k, kind in enumerate(sorted(kinds)):
        conn.execute(
            "INSERT INTO marks (game_id, coup_seq, seq, phase, kind, token) VALUES (?, ?, ?, 'after', ?, 't')",
            (gno, seq, 1000 + k, kind),
        )
    for kind in ("nonsense", "Mark", "", None):
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute(
                "INSERT INTO marks (game_id, coup_seq, seq, phase, kind, token) VALUES (?, ?, 999, 'after', ?, 't')",
                (gno, seq, kind),
            )
    conn.execute("ROLLBACK")
    conn.close()


def test_the_migrated_file_answers_the_queries_and_takes_imports_and_deletions(tmp_path: Path) -> None:
    p = v6_file(tmp_path / "club.db")
    db = open_db(p, create=False)
    try:
        games = queries.list_games(db)
        assert len(games) == 15 and all(len(g["id"]) == 64 for g in games)
        claimed = [h for h in queries.search(db, "ecole") if h["kind"] == "ecole"]
        assert claimed  # the école claimed, found through ecoles_fts
        victim = claimed[0]["game_id"]
    finally:
        db.close()
    recs = [copy_record(r, Date="2025.03.04", Round=str(i + 9)) for i, r in enumerate(selfplay_records(2, seed=8))]
    rep = import_records(p, [write_archive(tmp_path / "n.trn", recs)])
    assert rep.added == 2 and not rep.failures and orphans(p) == []
    delete_game(p, victim)  # its marks go with it (cascade), its claim out of ecoles_fts (trigger)
    assert _rows(p, f"SELECT COUNT(*) FROM games WHERE sha256 = '{victim}'") == [(0,)]
    assert _rows(p, "SELECT COUNT(*) FROM ecoles_fts WHERE rowid NOT IN (SELECT id FROM marks)") == [(0,)]
    assert orphans(p) == []


def test_the_migration_is_done_once(tmp_path: Path) -> None:
    p = v6_file(tmp_path / "club.db")
    conn = sqlite3.connect(p)
    assert schema.upgrade_schema(conn) is True
    assert schema.upgrade_schema(conn) is False  # at version 7: nothing to do, no write lock
    total = conn.total_changes
    schema.create_schema(conn)
    assert conn.total_changes == total  # nothing rewritten
    conn.close()


def test_a_failed_migration_leaves_the_version_6_file_as_it_was(tmp_path: Path, monkeypatch) -> None:
    p = v6_file(tmp_path / "club.db")
    before = content(p)
    master = _rows(p, "SELECT type, name, sql FROM sqlite_master")
    step = migrations.MIGRATIONS["6"]

    def half_then_fail(conn: sqlite3.Connection) -> str:
        step(conn)  # marks rebuilt ...
        raise sqlite3.OperationalError("disk I/O error (simulated)")  # ... and then the disk fails

    monkeypatch.setitem(migrations.MIGRATIONS, "6", half_then_fail)
    with pytest.raises(sqlite3.OperationalError):
        open_db(p, create=False)
    assert _rows(p, "SELECT value FROM meta WHERE key = 'schema_version'") == [("6",)]
    assert content(p) == before
    assert _rows(p, "SELECT type, name, sql FROM sqlite_master") == master
