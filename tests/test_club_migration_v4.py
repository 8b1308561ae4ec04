"""Schema version 3 -> 4 (issue 15, "readable identifiers"): ``games`` is rebuilt with its
readable ``label`` made unique.  Every row of every table is kept, labels are made unique, a
club's own index survives, a failure leaves the file at version 3, and a migrated file is not
touched again.  The version-3 files are a file main made (version 4, tests/data) taken back to 3;
the migration goes on to 5 (tests/test_club_migration_v5.py)."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from club_helpers import (
    as_v3,
    content,
    copy_record,
    counts,
    orphans,
    selfplay_records,
    v4_file,
    with_table_talk,
    write_archive,
)

from trictrac.club import migrations, schema
from trictrac.club.db import open_db
from trictrac.club.importer import import_records

HASH = re.compile(r"[0-9a-f]{64}")


def _archive(tmp_path: Path) -> Path:
    """Four games; the last two share date, players and round but not the event (one label, two keys)."""
    recs = [copy_record(r, Date="2025.02.03", Round=str(i + 1)) for i, r in enumerate(selfplay_records(4, seed=5))]
    recs[2] = copy_record(recs[2], Round="3", Event="Championnat")
    recs[3] = copy_record(recs[3], Round="3", Event="Coupe")
    recs[0] = with_table_talk(recs[0], ecoles=[(1, "B", 2, "oubli du petit jan")], comments=[(3, "beau coup")])
    return write_archive(tmp_path / "a.trn", recs)


def _columns(path: Path) -> list[tuple[str, int]]:
    conn = sqlite3.connect(path)
    try:
        return [(r[1], r[5]) for r in conn.execute("PRAGMA table_info(games)")]  # (name, pk)
    finally:
        conn.close()


def _rows(path: Path, sql: str) -> list[tuple]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def test_import_stores_a_unique_readable_label(tmp_path: Path) -> None:
    p = tmp_path / "c.db"
    rep = import_records(p, [_archive(tmp_path)], verify=False)
    assert rep.added == 4
    labels = [r[0] for r in _rows(p, "SELECT label FROM games ORDER BY id")]
    assert labels[:3] == [f"2025-02-03 Bot A – Bot B, r. {i}" for i in (1, 2, 3)]
    gid = _rows(p, "SELECT sha256 FROM games WHERE event = 'Coupe'")[0][0]
    assert labels[3] == f"2025-02-03 Bot A – Bot B, r. 3 #{gid[:8]}"  # the same name, told apart
    assert not any(HASH.search(label) for label in labels)


def test_a_version_3_file_is_migrated_and_keeps_every_row(tmp_path: Path) -> None:
    p = v4_file(tmp_path / "v3.db")
    as_v3(p)
    conn = sqlite3.connect(p)
    # as a version 3 file had them: the same label twice (version 3 did not tell them apart)
    conn.execute("UPDATE games SET label = '2025-02-03 Bot A – Bot B, r. 3' WHERE event = 'Coupe'")
    conn.commit()
    conn.close()
    assert _columns(p)[0] == ("id", 1)
    before = content(p)
    labels_before = dict(_rows(p, "SELECT id, label FROM games"))

    db = open_db(p, create=False)
    assert db.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1  # back on after the migration
    db.close()

    assert _rows(p, "SELECT value FROM meta WHERE key = 'schema_version'") == [(schema.SCHEMA_VERSION,)]
    after = content(p)
    for t in before:
        if t != "games":
            assert after[t] == before[t], t
    assert [r[:1] + r[2:] for r in after["games"]] == [r[:1] + r[2:] for r in before["games"]]  # but the label
    assert orphans(p) == []
    labels = dict(_rows(p, "SELECT sha256, label FROM games"))
    assert len(set(labels.values())) == len(labels)  # made unique
    told_apart = [sha for sha, lb in labels.items() if lb != labels_before[sha]]
    assert [labels[sha] for sha in told_apart] == [f"2025-02-03 Bot A – Bot B, r. 3 #{told_apart[0][:8]}"]
    indexes = {r[0] for r in _rows(p, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'games'")}
    assert {"club_games_site", "idx_games_key", "idx_games_season", "idx_games_date"} <= indexes
    # the rows of a game still cascade with it, and a correction still replaces
    rec = copy_record(selfplay_records(4, seed=5)[1], Date="2025.02.03", Round="2")
    rep = import_records(p, [write_archive(tmp_path / "b.trn", [rec])], verify=False)
    assert (rep.added, rep.replaced) == (0, 1) and orphans(p) == []
    assert _rows(p, "SELECT COUNT(*) FROM game_history") == [(2,)]


def test_the_migration_is_done_once(tmp_path: Path) -> None:
    p = v4_file(tmp_path / "v3.db")
    as_v3(p)
    conn = sqlite3.connect(p)
    assert schema.upgrade_schema(conn) is True
    assert schema.upgrade_schema(conn) is False  # at version 4: nothing to do, no write lock
    total = conn.total_changes
    schema.create_schema(conn)
    assert conn.total_changes == total  # nothing rewritten
    conn.close()
    assert _columns(p)[0] == ("id", 1)


def test_a_failed_migration_leaves_the_version_3_file_as_it_was(tmp_path: Path, monkeypatch) -> None:
    p = v4_file(tmp_path / "v3.db")
    as_v3(p)
    before = counts(p)
    rows = _rows(p, "SELECT * FROM games ORDER BY rowid")
    calls = []

    def fail_on_the_third(conn, label, gid, *, table="games", hash_col="sha256"):
        calls.append(gid)
        if len(calls) == 3:
            raise sqlite3.OperationalError("disk I/O error")
        return label

    monkeypatch.setattr(migrations, "free_label", fail_on_the_third)
    with pytest.raises(sqlite3.OperationalError):
        open_db(p, create=False)
    assert len(calls) == 3
    assert _rows(p, "SELECT value FROM meta WHERE key = 'schema_version'") == [("3",)]
    assert _columns(p)[0] == ("id", 1) and counts(p) == before
    assert _rows(p, "SELECT * FROM games ORDER BY rowid") == rows
    assert _rows(p, "SELECT name FROM sqlite_master WHERE name = 'games_v4'") == []
    monkeypatch.undo()
    open_db(p, create=False).close()  # the next open migrates it
    assert _columns(p)[0] == ("id", 1) and orphans(p) == []
