"""The club database stores the ``Replay`` action (a table remedy, RULES.md §9.5) and
migrates a version-1 file, whose ``marks.kind`` CHECK did not allow it, on open
(club/db.py, club/schema.py, docs/database.md)."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from club_helpers import content, orphans, selfplay_records, v4_file, write_archive
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trictrac.club import migrations, schema
from trictrac.club.db import DatabaseMissing, open_db
from trictrac.club.importer import import_records
from trictrac.club.rows import game_id_of
from trictrac.notation.reader import parse_text
from trictrac.notation.record import CannotPlay, Coup, Move, Record, Replay
from trictrac.notation.writer import write_coup, write_record

ROOT = Path(__file__).resolve().parent.parent
FINDINGS = ROOT / "fixtures" / "findings"
REMEDIES = sorted(p for p in FINDINGS.glob("*.trn") if re.search(r"fait-jouer|rejoue", p.read_text("utf-8")))

# The marks table as version 1 of the schema created it (before 'replay').
V1_MARKS = """CREATE TABLE IF NOT EXISTS marks (
    id              INTEGER PRIMARY KEY,
    game_id         TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    coup_id         INTEGER NOT NULL REFERENCES coups(id) ON DELETE CASCADE,
    seq             INTEGER NOT NULL,         -- order within the coup (before, then after)
    phase           TEXT NOT NULL CHECK (phase IN ('before', 'after')),
    kind            TEXT NOT NULL CHECK (kind IN ('mark', 'ne-marque-pas', 'decision', 'ecole',
                                        'correction', 'joue-pour-tout', 'comment', 'glyph')),
    who             TEXT,                     -- seat letter (claimant for an école)
    player_id       INTEGER REFERENCES players(id),
    against         TEXT,                     -- école: the seat who made it (claimant's opponent)
    against_id      INTEGER REFERENCES players(id),
    points          INTEGER,
    holes           INTEGER,
    bredouille      INTEGER CHECK (bredouille IN (0, 1)),
    leave           INTEGER CHECK (leave IN (0, 1)),
    reason          TEXT,
    text            TEXT,                     -- comment text or glyph
    token           TEXT NOT NULL,            -- the action in canonical notation: A+4t1b, B:école+8
    line            INTEGER,
    col             INTEGER,
    UNIQUE (coup_id, seq)
)"""

# Tables filled by an import, parents first (for copying rows into a v1 file).
DATA_TABLES = (
    "meta",
    "players",
    "games",
    "game_players",
    "marques",
    "releves",
    "coups",
    "marks",
    "comments",
    "findings",
    "results",
    "import_failures",
)


# --- rebuilding a game from its rows ----------------------------------------------------------


def coup_lines(conn: sqlite3.Connection, gid: str) -> list[str]:
    """Each coup of a stored game written back from its rows: number, side, roll, the
    ``before`` tokens, the moves, the ``after`` tokens (``--`` for no move written)."""
    out = []
    for cid, number, side, d1, d2, moves in conn.execute(
        "SELECT seq, number, side, die1, die2, moves FROM coups WHERE game_id = (SELECT id FROM games WHERE sha256 = ?) ORDER BY seq",
        (gid,),
    ):
        marks = conn.execute(
            "SELECT phase, token FROM marks WHERE game_id = (SELECT id FROM games WHERE sha256 = ?) AND coup_seq = ? ORDER BY seq",
            (gid, cid),
        ).fetchall()
        before = [t for p, t in marks if p == "before"]
        after = [t for p, t in marks if p == "after"]
        played = [moves] if moves != "-" else ["--"] if after else []
        out.append(" ".join([f"{number}. {side} {d1}-{d2}", *before, *played, *after]))
    return out


def rebuilt_record(conn: sqlite3.Connection, gid: str) -> Record:
    """A game of coups only (no sections, no comments between coups) from its rows."""
    headers = json.loads(conn.execute("SELECT headers FROM games WHERE sha256 = ?", (gid,)).fetchone()[0])
    (rec,), diags = parse_text("\n".join(coup_lines(conn, gid)) + "\n")
    assert [d for d in diags if d.severity == "error"] == []
    return Record(headers=headers, elements=rec.elements)


# --- storing a replay --------------------------------------------------------------------------


def test_E59_003_216_fait_jouer_is_a_replay_row(tmp_path: Path) -> None:
    """003 §216 (E59): A sets 5-4 as 5/9 6/9; B has it played 5/9 6/11.  The row says B
    decided, holds the moves, and its token is the canonical ``B:fait-jouer(…)``."""
    db_path = tmp_path / "c.db"
    rep = import_records(
        db_path, [FINDINGS / "remedy-fausse-case-spread.trn", FINDINGS / "remedy-rejoue-fausse-case.trn"]
    )
    assert rep.failures == [] and rep.imported == 2
    conn = sqlite3.connect(db_path)
    rows = conn.execute(
        "SELECT m.who, p.name, m.text, m.token, m.phase, m.line, m.col, c.number, c.moves FROM marks m "
        "JOIN coups c ON c.game_id = m.game_id AND c.seq = m.coup_seq LEFT JOIN players p ON p.id = m.player_id "
        "WHERE m.kind = 'replay' ORDER BY m.id"
    ).fetchall()
    assert rows == [
        ("B", "B", "5/9 6/11", "B:fait-jouer(5/9 6/11)", "after", 8, 18, 1, "5/9 6/9"),
        # 003 §216 first sentence: the roller replays before releasing his checkers
        ("A", "A", "5/10 6/10", "A:rejoue(5/10 6/10)", "after", 8, 18, 1, "5/9 6/9"),
    ]
    # the finding names the remedy; it is stored at the coup the replay belongs to
    kinds = conn.execute(
        "SELECT f.kind, c.number FROM findings f JOIN coups c ON c.game_id = f.game_id AND c.seq = f.coup_seq "
        "WHERE f.game_id = (SELECT id FROM games WHERE sha256 = ?)",
        (rep.game_ids[0],),
    ).fetchall()
    assert kinds == [("illegal-move", 1)]  # as `trictrac check` judges it: the table's fault, remedied (003 §216)
    assert orphans(db_path) == []


@pytest.mark.parametrize("path", REMEDIES, ids=lambda p: p.stem)
def test_remedy_fixtures_round_trip_through_the_rows(tmp_path: Path, path: Path) -> None:
    """Every book fixture with a replay: the rows give back the coups as the canonical
    writer writes them, and the whole game (same text, same content id)."""
    (orig,), _ = parse_text(path.read_text("utf-8"))
    db_path = tmp_path / "c.db"
    rep = import_records(db_path, [path])
    assert rep.failures == [] and rep.imported == 1
    gid = rep.game_ids[0]
    conn = sqlite3.connect(db_path)
    assert coup_lines(conn, gid) == [write_coup(c) for c in orig.coups]
    n = conn.execute(
        "SELECT COUNT(*) FROM marks WHERE game_id = (SELECT id FROM games WHERE sha256 = ?) AND kind = 'replay'", (gid,)
    ).fetchone()[0]
    assert n == sum(isinstance(a, Replay) for c in orig.coups for a in c.after) >= 1
    back = rebuilt_record(conn, gid)
    assert back == orig
    assert game_id_of(write_record(back)) == gid
    assert conn.execute("SELECT canonical FROM games WHERE sha256 = ?", (gid,)).fetchone()[0] == write_record(orig)


def test_importing_twice_stays_idempotent(tmp_path: Path) -> None:
    db_path = tmp_path / "c.db"
    first = import_records(db_path, REMEDIES)
    before = sqlite3.connect(db_path).execute("SELECT * FROM marks ORDER BY id").fetchall()
    second = import_records(db_path, REMEDIES)
    assert second.imported == 0 and second.unchanged == first.imported == len(REMEDIES)
    assert sqlite3.connect(db_path).execute("SELECT * FROM marks ORDER BY id").fetchall() == before


_moves = st.lists(
    st.one_of(st.builds(Move, st.integers(1, 24), st.integers(2, 25)), st.builds(CannotPlay, st.integers(1, 6))),
    max_size=4,
).map(tuple)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_replay_round_trips(tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    """Replays by either seat (``rejoue`` when the roller, ``fait-jouer`` otherwise),
    any moves, on any coup of a bot game: the rows write the coups back unchanged."""
    rec = selfplay_records(1)[0]
    coup_at = [i for i, e in enumerate(rec.elements) if isinstance(e, Coup)]
    picks = data.draw(st.lists(st.sampled_from(coup_at[:40]), min_size=1, max_size=3, unique=True))
    els = list(rec.elements)
    for i in picks:
        c = els[i]
        who = data.draw(st.sampled_from(("A", "B")))
        els[i] = Coup(c.number, c.side, c.roll, c.moves, c.before, (*c.after, Replay(who, data.draw(_moves))))
    rec = Record(headers=dict(rec.headers), elements=els)
    db_path = tmp_path_factory.mktemp("h") / "c.db"
    path = write_archive(db_path.with_suffix(".trn"), [rec])
    rep = import_records(db_path, [path], verify=False)  # the rows, not the rules
    assert rep.failures == []
    conn = sqlite3.connect(db_path)
    assert coup_lines(conn, rep.game_ids[0]) == [write_coup(c) for c in rec.coups]
    kinds = conn.execute("SELECT who, token, text FROM marks WHERE kind = 'replay' ORDER BY id").fetchall()
    assert len(kinds) == len(picks)
    for i, (who, token, text) in zip(sorted(picks), kinds):
        side = els[i].side
        assert token == f"{who}:{'rejoue' if who == side else 'fait-jouer'}({text})"


# --- migrating a version-1 file ----------------------------------------------------------------


def make_v1_file(path: Path, source: Path | None = None) -> None:
    """A club file as version 1 made it: a file today's main made (version 4, with the club's
    own indexes) taken back to the old ``marks`` DDL and schema_version 1; every step 1 -> 5
    runs on it.  (``source`` is not used any more: the file holds its games.)"""
    v4_file(path)
    conn = sqlite3.connect(path)
    saved = [
        sql
        for (sql,) in conn.execute(
            "SELECT sql FROM sqlite_master WHERE tbl_name = 'marks' AND type IN ('index', 'trigger') AND sql IS NOT NULL"
        )
    ]
    conn.execute("PRAGMA legacy_alter_table = ON")
    conn.execute("ALTER TABLE marks RENAME TO marks_v4")
    conn.execute(
        V1_MARKS.replace(
            "'correction', 'joue-pour-tout', 'comment', 'glyph'", "'correction', 'joue-pour-tout', 'comment', 'glyph'"
        )
    )
    conn.execute("INSERT INTO marks SELECT * FROM marks_v4")
    conn.execute("DROP TABLE marks_v4")
    for sql in saved:
        conn.execute(sql)
    conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()


def snapshot(path: Path) -> dict[str, list[tuple]]:
    return content(path)


def schema_of(path: Path, kind: str, table: str | None = None) -> dict[str, str]:
    conn = sqlite3.connect(path)
    try:
        q = "SELECT name, sql FROM sqlite_master WHERE type = ?" + (" AND tbl_name = ?" if table else "")
        return dict(conn.execute(q, (kind, table) if table else (kind,)).fetchall())
    finally:
        conn.close()


def version_of(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
    finally:
        conn.close()


@pytest.fixture(scope="module")
def v2_source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A file of games without replays (écoles, marks, comments, findings), imported today."""
    p = tmp_path_factory.mktemp("src") / "src.db"
    files = [
        FINDINGS / f"{n}.trn"
        for n in (
            "e20-unclaimed-ecole",
            "e28-credited-ecole",
            "e41-fausse-ecole",
            "e44-bredouille-lost",
            "e58-illegal-move",
        )
    ]
    rep = import_records(p, files)
    assert rep.failures == [] and rep.imported == len(files)
    conn = sqlite3.connect(p)
    assert conn.execute("SELECT COUNT(*) FROM marks WHERE kind = 'ecole'").fetchone()[0] >= 2
    assert conn.execute("SELECT COUNT(*) FROM findings").fetchone()[0] >= 5
    conn.close()
    return p


def test_v1_file_refuses_a_replay(tmp_path: Path) -> None:
    """The reason for version 2: the old CHECK rejects the row."""
    p = tmp_path / "v1.db"
    make_v1_file(p)
    conn = sqlite3.connect(p)
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        conn.execute(
            "INSERT INTO marks (game_id, coup_id, seq, phase, kind, token) "
            "VALUES ('g', 1, 0, 'after', 'replay', 'B:fait-jouer(1/6 1/5)')"
        )


@pytest.mark.parametrize("create", [True, False], ids=["import", "query"])
def test_v1_file_is_migrated_on_open_and_keeps_its_rows(tmp_path: Path, v2_source: Path, create: bool) -> None:
    p = tmp_path / "v1.db"
    make_v1_file(p, v2_source)
    rows = snapshot(p)
    views = schema_of(p, "view")
    assert version_of(p) == "1"

    open_db(p, create=create).close()

    assert version_of(p) == schema.SCHEMA_VERSION == "7"
    assert snapshot(p) == rows  # every row, with its values
    conn = sqlite3.connect(p)
    assert {v for v in schema_of(p, "view")} == set(views)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    assert (
        conn.execute("SELECT name FROM sqlite_master WHERE name LIKE '%_v4' OR name LIKE 'marks_v%'").fetchall() == []
    )
    conn.close()
    # the same schema as a file made new today: marks DDL, its indexes, the views
    fresh = tmp_path / "fresh.db"
    open_db(fresh).close()
    assert schema_of(p, "table", "marks") == schema_of(fresh, "table", "marks")
    assert "'replay'" in schema_of(p, "table", "marks")["marks"]
    indexes = schema_of(p, "index", "marks")
    assert indexes.pop("club_marks_token") == "CREATE INDEX club_marks_token ON marks(token)"
    assert indexes == schema_of(fresh, "index", "marks")
    assert set(indexes) >= {"idx_marks_ecole_claimant", "idx_marks_ecole_made_by", "idx_marks_ecole_game"}
    assert schema_of(p, "view") == schema_of(fresh, "view")
    # foreign keys still hold: deleting a game cascades to its marks
    conn = sqlite3.connect(p)
    conn.execute("PRAGMA foreign_keys = ON")
    gno = conn.execute("SELECT id FROM games WHERE n_coups > 0 ORDER BY id").fetchone()[0]
    assert conn.execute("SELECT COUNT(*) FROM marks WHERE game_id = ?", (gno,)).fetchone()[0] > 0
    conn.execute("DELETE FROM games WHERE id = ?", (gno,))
    assert conn.execute("SELECT COUNT(*) FROM marks WHERE game_id = ?", (gno,)).fetchone()[0] == 0
    conn.rollback()
    conn.close()
    # now it takes replays; importing the old games again changes nothing
    rep = import_records(p, [FINDINGS / "remedy-fausse-case-spread.trn"])
    assert rep.imported == 1 and rep.failures == []
    again = import_records(p, [FINDINGS / "remedy-fausse-case-spread.trn", FINDINGS / "e20-unclaimed-ecole.trn"])
    assert again.imported == 0 and again.unchanged == 2
    assert orphans(p) == []


def test_migration_is_idempotent(tmp_path: Path, v2_source: Path) -> None:
    p = tmp_path / "v1.db"
    make_v1_file(p, v2_source)
    conn = sqlite3.connect(p)
    assert schema.upgrade_schema(conn) is True
    assert schema.upgrade_schema(conn) is False
    schema.create_schema(conn)  # what open_db does: nothing left to migrate
    conn.close()
    before = snapshot(p)
    open_db(p).close()
    open_db(p, create=False).close()
    assert snapshot(p) == before and version_of(p) == schema.SCHEMA_VERSION


def test_a_failed_migration_leaves_version_1_intact(
    tmp_path: Path, v2_source: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An error after the table was rebuilt and the rows copied: the transaction rolls
    back, the file is version 1 as it was."""
    p = tmp_path / "v1.db"
    make_v1_file(p, v2_source)
    rows, ddl = snapshot(p), schema_of(p, "table")
    step = migrations.MIGRATIONS["1"]

    def boom(conn: sqlite3.Connection) -> str:
        step(conn)
        raise RuntimeError("power cut")

    monkeypatch.setitem(migrations.MIGRATIONS, "1", boom)
    with pytest.raises(RuntimeError, match="power cut"):
        open_db(p)
    assert version_of(p) == "1" and snapshot(p) == rows and schema_of(p, "table") == ddl
    monkeypatch.setitem(migrations.MIGRATIONS, "1", step)
    open_db(p).close()
    assert version_of(p) == schema.SCHEMA_VERSION and snapshot(p) == rows


CRASH = """
import os, sys
from trictrac.club import migrations, schema
from trictrac.club.db import open_db
step = migrations.MIGRATIONS["1"]
def crash(conn):
    step(conn)
    os._exit(3)  # the process dies inside the transaction: no rollback, no close
migrations.MIGRATIONS["1"] = crash
open_db(sys.argv[1])
"""


def test_a_crash_during_migration_leaves_version_1_intact(tmp_path: Path, v2_source: Path) -> None:
    p = tmp_path / "v1.db"
    make_v1_file(p, v2_source)
    rows, ddl = snapshot(p), schema_of(p, "table")
    r = subprocess.run([sys.executable, "-c", CRASH, str(p)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 3, r.stderr
    assert version_of(p) == "1" and snapshot(p) == rows and schema_of(p, "table") == ddl
    open_db(p).close()
    assert version_of(p) == schema.SCHEMA_VERSION and snapshot(p) == rows


def test_processes_opening_a_v1_file_at_once_migrate_it_once(tmp_path: Path, v2_source: Path) -> None:
    """The migration takes the write lock first and re-reads the version under it."""
    p = tmp_path / "v1.db"
    make_v1_file(p, v2_source)
    rows = snapshot(p)
    code = "import sys; from trictrac.club.db import open_db; open_db(sys.argv[1], create=sys.argv[2] == '1').close()"
    procs = [
        subprocess.Popen([sys.executable, "-c", code, str(p), str(i % 2)], stderr=subprocess.PIPE, text=True)
        for i in range(3)
    ]
    errs = [pr.communicate(timeout=60)[1] for pr in procs]
    assert [pr.returncode for pr in procs] == [0, 0, 0], errs
    assert version_of(p) == schema.SCHEMA_VERSION and snapshot(p) == rows
    assert "'replay'" in schema_of(p, "table", "marks")["marks"]


def test_a_read_only_v1_file_is_still_read(tmp_path: Path, v2_source: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The query commands open read-only; a file they cannot write (read-only mount) is read
    through a copy migrated in memory, and left as it is.  (The tests run as root, so the
    file system's refusal is simulated.)"""
    from trictrac.club import db as clubdb
    from trictrac.club.queries import list_games

    p = tmp_path / "v1.db"
    make_v1_file(p, v2_source)
    before = p.read_bytes()
    monkeypatch.setattr(clubdb.os, "access", lambda path, mode: False)
    db = open_db(p, create=False, readonly=True)
    assert len(list_games(db)) == 9
    db.close()
    assert p.read_bytes() == before and version_of(p) == "1"
    assert version_of(p) == "1"


def test_a_newer_file_is_refused_clearly(tmp_path: Path) -> None:
    p = tmp_path / "new.db"
    open_db(p).close()
    conn = sqlite3.connect(p)
    conn.execute("UPDATE meta SET value = '9' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    for create in (True, False):
        with pytest.raises(DatabaseMissing, match="schema version '9'"):
            open_db(p, create=create)
    assert version_of(p) == "9"
    from click.testing import CliRunner

    from trictrac.cli.main import cli

    for args in (["db", "import", str(p), str(FINDINGS / "e20-leave-no-hole.trn")], ["db", "games", str(p)]):
        r = CliRunner().invoke(cli, args)
        assert r.exit_code == 2 and "schema version '9'" in r.output, r.output
        assert not isinstance(r.exception, DatabaseMissing)  # a message, not a traceback
    assert version_of(p) == "9"


def test_docs_list_every_mark_kind_and_the_version() -> None:
    doc = (ROOT / "docs" / "database.md").read_text(encoding="utf-8")
    check = re.search(r"kind\s+TEXT NOT NULL CHECK \((kind = .*?)\),", schema.TABLES, re.S)  # a chain of OR (v7)
    kinds = re.findall(r"kind = '([^']+)'", check.group(1))
    assert "replay" in kinds
    row = next(ln for ln in doc.splitlines() if ln.startswith("| `kind` | `mark`"))
    assert re.findall(r"`([^`]+)`", row)[1:] == kinds
    assert f"schema version {schema.SCHEMA_VERSION}" in doc.lower()
    assert "| 2 | `marks.kind` allows `replay`" in doc  # the version that brought it
    assert f"| {schema.SCHEMA_VERSION} |" in doc


# --- storing a pavillon (RULES.md §5.4) ---------------------------------------------------------

PAVILLON_GAME = """[Event "Pavillon"]
[A "Dupont"]
[B "Martin"]
[Partie "a-ecrire 8"]

marqué 1 A-B
relevé 1
1. A 6-4 1/7 1/5
2. B 5-3 B:prend-le-pavillon 1/6 1/4 B:FLAG
3. A 2-1 -- A:pavillon
"""


def test_pavillon_is_a_row_of_its_own_kind(tmp_path: Path) -> None:
    """``B:pavillon`` (any spelling) is stored as kind ``pavillon``: who, his player, the
    canonical token, the phase and position; the rows give the coups back."""
    src = tmp_path / "p.trn"
    src.write_text(PAVILLON_GAME, encoding="utf-8")
    db_path = tmp_path / "c.db"
    rep = import_records(db_path, [src])
    assert rep.failures == [] and rep.imported == 1
    conn = sqlite3.connect(db_path)
    rows = conn.execute(
        "SELECT m.who, p.name, m.token, m.phase, m.line, m.col, c.number, m.points, m.holes, m.text FROM marks m "
        "JOIN coups c ON c.game_id = m.game_id AND c.seq = m.coup_seq LEFT JOIN players p ON p.id = m.player_id "
        "WHERE m.kind = 'pavillon' ORDER BY m.id"
    ).fetchall()
    assert rows == [
        ("B", "Martin", "B:pavillon", "before", 9, 10, 2, None, None, None),
        ("B", "Martin", "B:pavillon", "after", 9, 38, 2, None, None, None),
        ("A", "Dupont", "A:pavillon", "after", 10, 13, 3, None, None, None),
    ]
    (orig,), _ = parse_text(PAVILLON_GAME)
    assert coup_lines(conn, rep.game_ids[0]) == [write_coup(c) for c in orig.coups]
    assert rebuilt_record(conn, rep.game_ids[0]).coups == orig.coups
    assert orphans(db_path) == []


def test_v1_file_refuses_a_pavillon_and_takes_it_once_migrated(tmp_path: Path) -> None:
    """The version-2 DDL (new files and the v1→v2 migration alike) allows ``pavillon``."""
    p = tmp_path / "v1.db"
    make_v1_file(p)
    conn = sqlite3.connect(p)
    insert = (
        "INSERT INTO marks (game_id, coup_id, seq, phase, kind, token) "
        "VALUES ('g', 1, 0, 'before', 'pavillon', 'B:pavillon')"
    )
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        conn.execute(insert)
    conn.close()
    open_db(p, create=False).close()
    assert version_of(p) == schema.SCHEMA_VERSION
    assert "'pavillon'" in schema_of(p, "table", "marks")["marks"]
    conn = sqlite3.connect(p)  # foreign keys off: only the CHECK is tried here
    conn.execute(insert.replace("coup_id", "coup_seq"))
    conn.rollback()
    conn.close()
