"""Schema version 4 -> 5 (issue 30): ``games.id`` an INTEGER key named by every other table, the
hash ``games.sha256`` the public id, coups keyed by (game, seq), the indexes of version 5 only.
Tested on a file today's main made (tests/data/club_v4.db.gz): every row is kept with its
values, the club's own indexes survive, foreign keys hold, a failure leaves the file at version 4,
and a migrated file is not touched again."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from club_helpers import content, copy_record, orphans, selfplay_records, v4_file, with_table_talk, write_archive

from trictrac.club import migrations, queries, schema
from trictrac.club.db import open_db
from trictrac.club.importer import import_records


def _rows(path: Path, sql: str) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return sorted(conn.execute(sql).fetchall(), key=repr)
    finally:
        conn.close()


def test_a_version_4_file_made_by_main_is_migrated_keeping_every_row(tmp_path: Path) -> None:
    p = v4_file(tmp_path / "club.db")
    assert _rows(p, "SELECT value FROM meta WHERE key = 'schema_version'") == [("4",)]
    before = content(p)
    assert len(before["coups"]) > 1000 and before["findings"] and before["game_history"] and before["comments"]
    assert any(r[3] == "ecole" for r in before["marks"])
    sources = dict(_rows(p, "SELECT id, source FROM games"))

    db = open_db(p, create=False)
    assert db.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1  # back on after the migration
    db.close()

    assert _rows(p, "SELECT value FROM meta WHERE key = 'schema_version'") == [(schema.SCHEMA_VERSION,)]
    assert content(p) == before
    assert orphans(p) == []
    conn = sqlite3.connect(p)
    cols = {r[1]: (r[2], r[5]) for r in conn.execute("PRAGMA table_info(games)")}
    assert cols["id"] == ("INTEGER", 1) and cols["sha256"][0] == "TEXT" and "source_end_line" in cols
    assert "id" not in {r[1] for r in conn.execute("PRAGMA table_info(coups)")}
    # the source kept where it differs from the canonical text, and the game's last line counted
    for sha, source, canonical, first, last in conn.execute(
        "SELECT sha256, source, canonical, source_line, source_end_line FROM games"
    ):
        old = sources[sha]
        assert (source or canonical).rstrip("\n") == old.rstrip("\n")
        assert last == first + old.rstrip("\n").count("\n")
    indexes = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert {"club_games_site", "club_marks_token", "club_coups_moves"} <= indexes  # the club's own
    assert "idx_coups_player" not in indexes and "idx_marks_kind" not in indexes  # version 4's only
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    conn.close()


def test_the_migrated_file_answers_the_queries_and_takes_corrections(tmp_path: Path) -> None:
    p = v4_file(tmp_path / "club.db")
    db = open_db(p, create=False)
    try:
        games = queries.list_games(db)
        assert len(games) == 9 and all(len(g["id"]) == 64 for g in games)
        shown = queries.game_detail(db, games[0]["id"][:8])
        assert shown["id"] == games[0]["id"] and shown["coups"] and shown["source_file"]
        assert [h["kind"] for h in queries.search(db, "petit jan")] == ["ecole"]  # the reason, indexed anew
        kinds = {h["kind"] for h in queries.search(db, "ecole")}
        assert {"finding", "ecole"} <= kinds  # the finding kinds' words, indexed by the migration
        assert queries.ecoles(db)["found_by_verifier"]
    finally:
        db.close()
    # the first version of the corrected game comes back: a correction replaces, rows cascade
    rec = copy_record(selfplay_records(4, seed=5)[1], Date="2025.02.03", Round="2")
    rep = import_records(p, [write_archive(tmp_path / "b.trn", [rec])], verify=False)
    assert (rep.added, rep.replaced) == (0, 1) and orphans(p) == []
    assert _rows(p, "SELECT COUNT(*) FROM game_history") == [(2,)]
    rep = import_records(p, [write_archive(tmp_path / "c.trn", [with_table_talk(rec, comments=[(0, "vu")])])])
    assert rep.replaced == 1 and orphans(p) == []


def test_the_migration_is_done_once(tmp_path: Path) -> None:
    p = v4_file(tmp_path / "club.db")
    conn = sqlite3.connect(p)
    assert schema.upgrade_schema(conn) is True
    assert schema.upgrade_schema(conn) is False  # at version 5: nothing to do, no write lock
    total = conn.total_changes
    schema.create_schema(conn)
    assert conn.total_changes == total  # nothing rewritten
    conn.close()


def test_a_failed_migration_leaves_the_version_4_file_as_it_was(tmp_path: Path, monkeypatch) -> None:
    p = v4_file(tmp_path / "club.db")
    before = content(p)
    master = _rows(p, "SELECT type, name, sql FROM sqlite_master")
    step = migrations.MIGRATIONS["4"]

    def half_then_fail(conn: sqlite3.Connection) -> str:
        step(conn)  # every table rebuilt ...
        raise sqlite3.OperationalError("disk I/O error (simulated)")  # ... and then the disk fails

    monkeypatch.setitem(migrations.MIGRATIONS, "4", half_then_fail)
    with pytest.raises(sqlite3.OperationalError):
        open_db(p, create=False)
    assert _rows(p, "SELECT value FROM meta WHERE key = 'schema_version'") == [("4",)]
    assert content(p) == before
    assert _rows(p, "SELECT type, name, sql FROM sqlite_master") == master
