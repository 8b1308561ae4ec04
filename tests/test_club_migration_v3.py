"""Schema version 2 -> 3 (issue 15): an older file opens, gets its games' identities and
labels, the history tables, the new views and search indexes, and keeps every row."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from club_helpers import as_v3, copy_record, counts, selfplay_records, v4_file, write_archive

from trictrac.club import schema
from trictrac.club.db import open_db
from trictrac.club.importer import import_records
from trictrac.club.queries import search


def _as_v2(path: Path) -> None:
    """Take a file of today back to what version 2 had."""
    conn = sqlite3.connect(path)
    views = [sql for (sql,) in conn.execute("SELECT sql FROM sqlite_master WHERE type = 'view'")]  # version 4's
    conn.close()
    as_v3(path)
    conn = sqlite3.connect(path)
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'view'").fetchall():
        conn.execute(f"DROP VIEW {name}")
    conn.execute("DROP INDEX idx_games_key")
    conn.execute("DROP TRIGGER ecole_reasons_ai")
    conn.execute("DROP TRIGGER ecole_reasons_ad")
    conn.execute("DROP TABLE ecole_reasons_fts")
    conn.execute("DROP TABLE game_history")
    conn.execute("DROP TABLE source_files")
    conn.execute("ALTER TABLE games DROP COLUMN label")
    conn.execute("ALTER TABLE games DROP COLUMN game_key")
    conn.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    conn.commit()
    for sql in views:  # the views of version 2 named no label
        if "disputed_games" not in sql:
            conn.execute(sql.replace("g.label AS game, ", "").replace("SELECT g.label AS game, m.id", "SELECT m.id"))
    conn.commit()
    conn.close()


def test_a_version_2_file_is_migrated_and_keeps_its_rows(tmp_path: Path) -> None:
    p = v4_file(tmp_path / "v2.db")
    _as_v2(p)
    before = counts(p)
    conn = sqlite3.connect(p)
    assert "label" not in {r[1] for r in conn.execute("PRAGMA table_info(games)")}
    conn.close()
    db = open_db(p, create=False)
    conn = db.conn
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == schema.SCHEMA_VERSION
    rows = conn.execute("SELECT label, game_key FROM games ORDER BY label").fetchall()
    assert [r[0][:30] for r in rows][:4] == [f"2025-02-03 Bot A – Bot B, r. {i}" for i in (1, 2, 3, 3)]
    assert len({r[0] for r in rows}) == len(rows)  # made unique
    assert sum(k.startswith("tag:") for _, k in rows) == 4 and len({k for _, k in rows}) == len(rows) == 9
    assert [h["kind"] for h in search(db, "petit jan", everywhere=True)] == ["ecole"]  # indexed from the old rows
    assert conn.execute("SELECT COUNT(*) FROM disputed_games").fetchone()[0] >= 1
    db.close()
    assert counts(p) == before
    # and a correction now replaces its stored version
    rec = copy_record(selfplay_records(4, seed=5)[1], Date="2025.02.03", Round="2")
    rep = import_records(p, [write_archive(tmp_path / "b.trn", [rec])], verify=False)
    assert (rep.added, rep.replaced) == (0, 1)
