"""The club database: import, content ids, idempotence, isolation of bad games,
concurrent imports, and the schema (club/db.py, club/schema.py, docs/database.md)."""

from __future__ import annotations

import dataclasses
import sqlite3
import subprocess
import sys
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
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trictrac.club import db as clubdb
from trictrac.club import importer, workers
from trictrac.club import rows as club_rows
from trictrac.club.db import open_db
from trictrac.club.importer import import_records
from trictrac.club.rows import game_id_of, parse_date, season_of
from trictrac.club.schema import SCHEMA_VERSION
from trictrac.notation.compiled import compiled_module
from trictrac.notation.record import Coup, Mark, NeMarquePas

pytest.importorskip("trictrac.notation.writer")
from trictrac.notation.writer import write_record  # noqa: E402

#: a test that swaps a function of the import for another: compiled, the import calls its own
#: functions directly and never sees the swap (the pure-Python suite runs these tests)
patches_the_import = pytest.mark.skipif(
    compiled_module(workers.__file__) or compiled_module(club_rows.__file__),
    reason="patches a function the compiled import calls directly",
)

ROOT = Path(__file__).resolve().parent.parent


def _records(n: int = 4):
    recs = selfplay_records(6)
    return [copy_record(r, Date=f"2024.0{i + 1}.1{i}", Round=str(i + 1)) for i, r in enumerate(recs[:n])]


@pytest.fixture()
def archive(tmp_path: Path) -> Path:
    return write_archive(tmp_path / "soiree.trn", _records())


# --- a plain import ---------------------------------------------------------------------


def test_import_stores_every_part_of_each_game(tmp_path: Path, archive: Path) -> None:
    recs = _records()
    db_path = tmp_path / "club.db"
    rep = import_records(db_path, [archive])
    assert (rep.read, rep.imported, rep.unchanged, rep.failures) == (4, 4, 0, [])
    c = counts(db_path)
    assert c["games"] == 4 and c["players"] == 2 and c["game_players"] == 8 and c["results"] == 8
    assert c["coups"] == sum(len(r.coups) for r in recs)
    assert c["marks"] == sum(len(k.before) + len(k.after) for r in recs for k in r.coups)
    assert c["releves"] == sum(1 for r in recs for e in r.elements if type(e).__name__ == "ReleveStart")
    assert orphans(db_path) == []
    # the id is the hash of the canonical text, and the canonical text is stored
    ids = [game_id_of(write_record(r)) for r in recs]
    assert rep.game_ids == ids
    conn = sqlite3.connect(db_path)
    assert sorted(r[0] for r in conn.execute("SELECT sha256 FROM games")) == sorted(ids)
    canon = conn.execute("SELECT canonical, source, season, date_iso FROM games WHERE sha256 = ?", (ids[1],)).fetchone()
    assert canon[0] == write_record(recs[1])
    assert canon[1] is None  # read as written canonically: the text is stored once (schema 5)
    assert canon[2] == "2024" and canon[3] == "2024-02-11"
    # marks keep the order of the actions and who made them
    first = recs[0]
    k = next(c for c in first.coups if c.before or c.after)
    acts = list(k.before) + list(k.after)
    rows = conn.execute(
        "SELECT m.kind, m.who, m.points FROM marks m JOIN coups c ON c.game_id = m.game_id AND c.seq = m.coup_seq "
        "WHERE c.game_id = (SELECT id FROM games WHERE sha256 = ?) AND c.seq = ? ORDER BY m.seq",
        (ids[0], first.coups.index(k)),
    ).fetchall()
    want = [
        (
            "mark" if isinstance(a, Mark) else "ne-marque-pas" if isinstance(a, NeMarquePas) else rows[i][0],
            getattr(a, "who", None),
            getattr(a, "points", None),
        )
        for i, a in enumerate(acts)
    ]
    assert rows == want
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_coup_rows_match_the_record(tmp_path: Path) -> None:
    rec = _records(1)[0]
    path = write_archive(tmp_path / "one.trn", [rec])
    import_records(tmp_path / "c.db", [path])
    conn = sqlite3.connect(tmp_path / "c.db")
    rows = conn.execute("SELECT number, side, die1, die2, moves FROM coups ORDER BY seq").fetchall()
    assert len(rows) == len(rec.coups)
    for row, coup in zip(rows, rec.coups):
        assert row[:4] == (coup.number, coup.side, *coup.roll)
        assert row[4] == club_rows.moves_text(coup)


def test_reimport_changes_nothing(tmp_path: Path, archive: Path) -> None:
    db_path = tmp_path / "club.db"
    import_records(db_path, [archive])
    before = counts(db_path)
    rep = import_records(db_path, [archive])
    assert (rep.imported, rep.unchanged) == (0, 4)
    assert counts(db_path) == before
    # the same games in another file, spelt the same canonically: still unchanged
    other = write_archive(tmp_path / "copy.trn", list(reversed(_records())))
    rep = import_records(db_path, [other])
    assert (rep.imported, rep.unchanged) == (0, 4)
    assert counts(db_path) == before


def test_a_changed_game_is_another_game(tmp_path: Path, archive: Path) -> None:
    """A record with other tags (another round) is another game: added beside the rest."""
    db_path = tmp_path / "club.db"
    import_records(db_path, [archive])
    other = with_table_talk(copy_record(_records(1)[0], Round="99"), comments=[(0, "une remarque")])
    rep = import_records(db_path, [write_archive(tmp_path / "x.trn", [other])])
    assert (rep.imported, rep.added, rep.replaced) == (1, 1, 0)
    assert counts(db_path)["games"] == 5


def test_a_corrected_game_replaces_the_earlier_version(tmp_path: Path, archive: Path) -> None:
    """Same Event, Date, Round and players, another text (issue 15): the new version
    replaces the stored one, which is kept in game_history; nothing of it is left."""
    db_path = tmp_path / "club.db"
    import_records(db_path, [archive])
    before = counts(db_path)
    old_id = game_id_of(write_record(_records(1)[0]))
    changed = with_table_talk(_records(1)[0], comments=[(0, "une remarque")])
    rep = import_records(db_path, [write_archive(tmp_path / "x.trn", [changed])])
    assert (rep.imported, rep.added, rep.replaced) == (1, 0, 1)
    assert rep.per_file == {str(tmp_path / "x.trn"): {"added": 0, "replaced": 1, "unchanged": 0, "refused": 0}}
    after = counts(db_path)
    assert after["games"] == 4 and after["comments"] == before["comments"] + 1
    assert orphans(db_path) == []
    conn = sqlite3.connect(db_path)
    assert (
        conn.execute(
            "SELECT COUNT(*) FROM coups WHERE game_id = (SELECT id FROM games WHERE sha256 = ?)", (old_id,)
        ).fetchone()[0]
        == 0
    )
    hist = conn.execute("SELECT game_id, action, replaced_by, canonical FROM game_history").fetchall()
    assert hist == [(old_id, "replaced", game_id_of(write_record(changed)), write_record(_records(1)[0]))]
    # the history of either version lists both, oldest first
    db = open_db(db_path, create=False)
    versions = clubdb.game_history(db, old_id[:10])
    assert [(v["game_id"], v["action"]) for v in versions] == [
        (old_id, "replaced"),
        (game_id_of(write_record(changed)), "current"),
    ]
    db.close()
    # importing the correction again changes nothing; the old version comes back as a replacement
    assert import_records(db_path, [tmp_path / "x.trn"]).unchanged == 1
    back = import_records(db_path, [archive])
    assert (back.replaced, back.unchanged) == (1, 3)
    assert counts(db_path)["games"] == 4


def test_an_explicit_game_id_wins_over_the_tags(tmp_path: Path) -> None:
    """A Game-Id tag names the game whatever its other tags say (a player's name corrected)."""
    rec = copy_record(_records(1)[0], GameId="club-2024-17")
    fixed = copy_record(rec, A="Jean Dupont")
    db_path = tmp_path / "g.db"
    import_records(db_path, [write_archive(tmp_path / "a.trn", [rec])])
    rep = import_records(db_path, [write_archive(tmp_path / "b.trn", [fixed])])
    assert (rep.added, rep.replaced) == (0, 1)
    conn = sqlite3.connect(db_path)
    assert conn.execute("SELECT game_key, label FROM games").fetchall() == [
        ("tag:club-2024-17", f"2024-01-10 Jean Dupont – {rec.headers['B']}, r. 1")
    ]


def test_same_tags_twice_in_one_import_keeps_both(tmp_path: Path) -> None:
    """Two different games with the same tags in one run: neither erases the other."""
    a, b = _records(2)
    b = copy_record(b, Date=a.headers["Date"], Round=a.headers["Round"])
    db_path = tmp_path / "t.db"
    rep = import_records(db_path, [write_archive(tmp_path / "t.trn", [a, b])])
    assert (rep.added, rep.replaced) == (2, 0) and counts(db_path)["games"] == 2
    assert import_records(db_path, [write_archive(tmp_path / "t2.trn", [a, b])]).unchanged == 2


def test_delete_keeps_the_game_in_history(tmp_path: Path, archive: Path) -> None:
    db_path = tmp_path / "d.db"
    import_records(db_path, [archive])
    gid = game_id_of(write_record(_records()[2]))
    out = clubdb.delete_game(db_path, gid[:8])
    assert out["id"] == gid
    conn = sqlite3.connect(db_path)
    assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 3
    assert conn.execute("SELECT action FROM game_history WHERE game_id = ?", (gid,)).fetchall() == [("deleted",)]
    assert orphans(db_path) == []
    with pytest.raises(clubdb.GameNotFound):
        clubdb.delete_game(db_path, gid[:8])
    # the file is imported again in full: the deleted game comes back (no stale "unchanged file")
    rep = import_records(db_path, [archive])
    assert (rep.added, rep.unchanged) == (1, 3)


@patches_the_import
def test_an_unchanged_file_is_not_read_again(tmp_path: Path, archive: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file whose bytes were imported before (every game still stored) is skipped by its
    content hash: no parsing, no verifying."""
    db_path = tmp_path / "u.db"
    first = import_records(db_path, [archive])

    def no_verify():
        raise AssertionError("verified again")

    monkeypatch.setattr(workers, "_verifier", no_verify)
    rep = import_records(db_path, [archive])
    assert (rep.read, rep.unchanged, rep.game_ids) == (4, 4, first.game_ids)


# --- a bad game among good ones -------------------------------------------------------------


def test_broken_game_among_good_ones(tmp_path: Path) -> None:
    recs = _records(3)
    good = [write_record(r).rstrip("\n") for r in recs]
    broken = '[Event "broken"]\n[A "X"]\n[B "Y"]\n\n1. A 9-9 zz/qq {never closed\n'
    text = good[0] + "\n\n" + broken + "\n" + good[1] + "\n\n" + good[2] + "\n"
    path = tmp_path / "mixed.trn"
    path.write_text(text, encoding="utf-8")
    db_path = tmp_path / "club.db"
    rep = import_records(db_path, [path])
    assert rep.imported == 3 and rep.failed == 1
    f = rep.failures[0]
    assert (f.reason, f.game_index) == ("parse-error", 1)
    assert f.line == good[0].count("\n") + 3
    c = counts(db_path)
    assert c["games"] == 3 and c["import_failures"] == 1
    assert orphans(db_path) == []
    conn = sqlite3.connect(db_path)
    row = conn.execute("SELECT source_file, game_index, line, reason FROM import_failures").fetchone()
    assert row == (str(path), 1, f.line, "parse-error")
    # re-importing logs the failure once and stores nothing twice
    import_records(db_path, [path])
    assert counts(db_path) == c


@patches_the_import
def test_failure_while_storing_writes_nothing_of_that_game(
    tmp_path: Path, archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game that fails half-way through its inserts is rolled back whole."""
    real = club_rows._walk

    def bad_marks(rec, rows, gid, written=None):
        sections = real(rec, rows, gid, written)
        marks = [i for i, m in enumerate(rows.marks) if m[4] == "mark"]
        if gid == target and marks:  # bredouille 5 violates the CHECK constraint of marks.bredouille
            m = rows.marks[marks[-1]]
            rows.marks[marks[-1]] = (*m[:8], 5, *m[9:])
        return sections

    target = game_id_of(write_record(_records()[2]))
    monkeypatch.setattr(club_rows, "_walk", bad_marks)
    db_path = tmp_path / "club.db"
    rep = import_records(db_path, [archive])
    assert rep.imported == 3 and rep.failed == 1
    assert rep.failures[0].reason == "store-error" and rep.failures[0].game_id == target
    assert "CHECK" in rep.failures[0].message
    conn = sqlite3.connect(db_path)
    for t in ("games", "coups", "marks", "results", "game_players", "releves"):
        col = "id" if t == "games" else "game_id"
        assert conn.execute(f"SELECT COUNT(*) FROM {t} WHERE {col} = ?", (target,)).fetchone()[0] == 0, t
    assert orphans(db_path) == []
    # fixed, the game imports on the next run
    monkeypatch.setattr(club_rows, "_walk", real)
    rep = import_records(db_path, [archive])
    assert (rep.imported, rep.unchanged) == (1, 3)


@patches_the_import
def test_verifier_failure_is_that_games_failure(tmp_path: Path, archive: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = _records()[1].headers["Round"]

    def verify(rec, profile=None, **kwargs):
        if rec.headers.get("Round") == target:
            raise RuntimeError("engine exploded")
        return None

    monkeypatch.setattr(workers, "_verifier", lambda: verify)
    rep = import_records(tmp_path / "v.db", [archive])
    assert rep.imported == 3 and [f.reason for f in rep.failures] == ["verify-error"]
    assert "engine exploded" in rep.failures[0].message


def test_unreadable_and_empty_files(tmp_path: Path, archive: Path) -> None:
    empty = tmp_path / "empty.trn"
    empty.write_text("\n\n", encoding="utf-8")
    rep = import_records(tmp_path / "c.db", [tmp_path / "missing.trn", empty, archive])
    assert rep.imported == 4
    assert rep.unreadable == [str(tmp_path / "missing.trn"), str(empty)]
    assert rep.failed == 0


def test_binary_junk_is_a_failure_not_a_crash(tmp_path: Path, archive: Path) -> None:
    junk = tmp_path / "junk.trn"
    junk.write_bytes(bytes(range(256)) * 40)
    rep = import_records(tmp_path / "c.db", [junk, archive])
    assert rep.imported == 4
    assert rep.failures and all(f.source_file == str(junk) for f in rep.failures)
    assert orphans(tmp_path / "c.db") == []


# --- concurrency -------------------------------------------------------------------------------

_IMPORTER = """
import sys, time
from trictrac.club.importer import import_records
t0 = time.time()
rep = import_records(sys.argv[1], sys.argv[2:])
print(rep.imported, rep.unchanged, len(rep.failures), t0, time.time())
"""


def test_two_processes_import_into_one_file(tmp_path: Path) -> None:
    recs = [copy_record(r, Round=str(i)) for i, r in enumerate(selfplay_records(6))]
    more = [copy_record(r, Round=f"x{i}", Event="second") for i, r in enumerate(selfplay_records(6))]
    a = write_archive(tmp_path / "a.trn", recs + more[:3])
    b = write_archive(tmp_path / "b.trn", more + recs[:3])  # 6 games shared with a
    db_path = tmp_path / "club.db"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _IMPORTER, str(db_path), str(p)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for p in (a, b)
    ]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    done = [tuple(map(float, o[0].split())) for o in outs]
    assert max(d[3] for d in done) < min(d[4] for d in done), "the two imports did not overlap"
    assert all(d[2] == 0 for d in done)
    assert sum(d[0] for d in done) == 12  # every distinct game stored exactly once
    assert sum(d[1] for d in done) == 6
    c = counts(db_path)
    assert c["games"] == 12 and c["players"] == 2 and c["results"] == 24
    assert c["coups"] == 2 * sum(len(r.coups) for r in recs)
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert orphans(db_path) == []


def test_schema_creation_is_idempotent(tmp_path: Path) -> None:
    p = tmp_path / "s.db"
    open_db(p).close()
    open_db(p).close()
    conn = sqlite3.connect(p)
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert {
        "games",
        "players_fts",
        "comments_fts",
        "game_list",
        "player_games",
        "marque_results",
        "ecoles",
        "idx_findings_kind",
    } <= names
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (SCHEMA_VERSION,)


def test_every_table_and_column_is_documented() -> None:
    doc = (ROOT / "docs" / "database.md").read_text(encoding="utf-8")
    conn = sqlite3.connect(":memory:")
    from trictrac.club.schema import create_schema

    create_schema(conn)
    tables = [
        r[0]
        for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%_fts%' AND name != 'sqlite_sequence'"
        )
    ]
    for t in tables:
        assert f"### `{t}`" in doc, t
        for col in (r[1] for r in conn.execute(f"PRAGMA table_info({t})")):
            assert f"`{col}`" in doc, (t, col)
    for v in (r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'view'")):
        assert f"`{v}`" in doc, v


# --- dates and seasons --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, iso",
    [
        ("2024.03.15", "2024-03-15"),
        ("2024-3-5", "2024-03-05"),
        ("15/03/2024", "2024-03-15"),
        ("2024.??.??", "2024"),
        ("1852", "1852"),
        ("soirée d'hiver", None),
        (None, None),
        ("2024.13.01", None),  # no half dates (issue 27)
        ("2024.02.30", None),
        ("\u0662\u0660\u0662\u0664.\u0660\u0661.\u0660\u0661", None),
        ("99999999999999999999", None),
    ],
)
def test_parse_date(text: str | None, iso: str | None) -> None:
    assert parse_date(text) == iso


def test_season_rules() -> None:
    assert season_of("2024-03-15") == "2024"
    assert season_of("2024-09-01", 9) == "2024-2025"
    assert season_of("2025-08-31", 9) == "2024-2025"
    assert season_of("2024", 9) == "2024-2025"
    assert season_of(None, 9) is None


@given(st.dates(), st.integers(1, 12))
def test_season_contains_its_dates(d, start: int) -> None:
    s = season_of(d.isoformat(), start)
    if start == 1:
        assert s == str(d.year)
    else:
        first, second = map(int, s.split("-"))
        assert second == first + 1 and d.year in (first, second)
        assert (d.year == first) == (d.month >= start)


# --- with the verifier ----------------------------------------------------------------------------


def test_findings_are_stored_at_their_coup(tmp_path: Path) -> None:
    """A roller's mark changed by +2 (an école par trop the opponent did not claim):
    the stored findings are the verifier's, at the coup it names."""
    pytest.importorskip("trictrac.replay.verifier.verify")
    from trictrac.notation.reader import iter_records
    from trictrac.replay.verifier.verify import verify

    rec = _records(1)[0]
    els = list(rec.elements)
    i, coup = next(
        (i, e)
        for i, e in enumerate(els)
        if isinstance(e, Coup) and any(isinstance(a, Mark) and a.who == e.side for a in e.before)
    )
    before = tuple(
        Mark(a.who, a.points + 2, a.holes, a.bredouille) if isinstance(a, Mark) and a.who == coup.side else a
        for a in coup.before
    )
    els[i] = dataclasses.replace(coup, before=before)
    bad = copy_record(rec)
    bad.elements = els
    path = write_archive(tmp_path / "bad.trn", [bad])
    expected = verify(next(iter_records(path)).record)
    assert expected.findings, "the verifier should see the changed mark"
    import_records(tmp_path / "f.db", [path])
    conn = sqlite3.connect(tmp_path / "f.db")
    rows = conn.execute(
        "SELECT f.kind, f.who, c.number, f.rule, f.message FROM findings f "
        "LEFT JOIN coups c ON c.game_id = f.game_id AND c.seq = f.coup_seq ORDER BY f.seq"
    ).fetchall()
    assert [(r[0], r[1], r[2]) for r in rows] == [(f.kind, f.who, f.coup or None) for f in expected.findings]
    assert rows[0][2] == coup.number
    assert all(r[3] and r[4] for r in rows)
    assert conn.execute("SELECT n_findings, verified FROM games").fetchone() == (len(rows), 1)


# --- the project's fixtures -------------------------------------------------------------------


def _fixture_files() -> list[Path]:
    fx = ROOT / "fixtures"
    files = sorted((fx / "findings").glob("*.trn")) + sorted((fx / "records").glob("*.trn"))
    files += sorted((fx / "broken").glob("broken*.trn"))
    files += [fx / "corpus" / n for n in ("mistakes.trn", "a-ecrire.trn") if (fx / "corpus" / n).exists()]
    return files


def test_import_the_fixtures_as_the_verifier_sees_them(tmp_path: Path) -> None:
    """Every fixture record is stored (broken ones listed as failures), with exactly the
    findings and final score the verifier gives for it."""
    pytest.importorskip("trictrac.replay.verifier.verify")
    from trictrac.notation.reader import iter_records
    from trictrac.replay.verifier.verify import verify

    files = _fixture_files()
    if not files:
        pytest.skip("no fixture records yet")
    db_path = tmp_path / "fx.db"
    rep = import_records(db_path, files)
    expected: dict[str, tuple] = {}
    broken = 0
    for f in files:
        for i, pr in enumerate(iter_records(f)):
            if any(d.severity == "error" for d in pr.diagnostics):
                broken += 1
                continue
            gr = verify(pr.record, file=str(f), game=i, trace=False, recover=True)  # as `check` judges
            gid = game_id_of(write_record(pr.record))
            fs = gr.final_score
            expected[gid] = (
                [(x.kind, x.who, x.line, x.entitled, x.marked) for x in gr.findings],
                None if fs is None else (fs.a.holes, fs.b.holes, fs.a.points, fs.b.points),
            )
    assert rep.failed == broken and all("broken" in f.source_file or f.reason == "parse-error" for f in rep.failures)
    assert set(rep.game_ids) == set(expected)
    conn = sqlite3.connect(db_path)
    for gid, (findings, score) in expected.items():
        got = conn.execute(
            "SELECT kind, who, line, entitled, marked FROM findings WHERE game_id = (SELECT id FROM games WHERE sha256 = ?) ORDER BY seq",
            (gid,),
        ).fetchall()
        assert got == [tuple(None if (v == 0 and k == 2) else v for k, v in enumerate(f)) for f in findings], gid
        res = dict(
            conn.execute(
                "SELECT seat, holes FROM results WHERE game_id = (SELECT id FROM games WHERE sha256 = ?)", (gid,)
            ).fetchall()
        )
        pts = dict(
            conn.execute(
                "SELECT seat, points FROM results WHERE game_id = (SELECT id FROM games WHERE sha256 = ?)", (gid,)
            ).fetchall()
        )
        if score is not None and set(res) == {"A", "B"}:  # with three or four seats: no final score
            assert (res["A"], res["B"], pts["A"], pts["B"]) == score
    assert orphans(db_path) == []
    # findings point at the coup the verifier names
    bad = conn.execute(
        "SELECT COUNT(*) FROM findings f JOIN coups c ON c.game_id = f.game_id AND c.seq = f.coup_seq "
        "WHERE f.coup IS NOT NULL AND c.number != f.coup"
    ).fetchone()[0]
    assert bad == 0


@pytest.mark.slow
def test_import_speed_on_a_generated_archive(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Games per second: storing only, with the verifier, and a re-import (all unchanged)."""
    recs = selfplay_records(40, seed=99)
    path = write_archive(tmp_path / "bench.trn", recs)
    coups = sum(len(r.coups) for r in recs)
    store_only = import_records(tmp_path / "a.db", [path], verify=False)
    verified = import_records(tmp_path / "b.db", [path], jobs=1)
    again = import_records(tmp_path / "b.db", [path])
    assert (store_only.imported, verified.imported, again.unchanged) == (40, 40, 40)
    with capsys.disabled():
        for name, r in (("store only", store_only), ("verified", verified), ("re-import", again)):
            print(f"\n{name}: {r.read / r.seconds:.1f} games/s, {coups / r.seconds:.0f} coups/s")
    assert store_only.read / store_only.seconds > 5


@settings(max_examples=8, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 2)), min_size=1, max_size=10))
def test_import_order_and_batches_do_not_matter(
    tmp_path_factory: pytest.TempPathFactory, plan: list[tuple[int, int]]
) -> None:
    """Importing games in any order, any batches, with repeats, stores the same games
    with the same rows as importing each once."""
    pool = _records(6)
    tmp = tmp_path_factory.mktemp("order")
    db_path = tmp / "o.db"
    batches: dict[int, list] = {}
    for game, batch in plan:
        batches.setdefault(batch, []).append(pool[game])
    for b, recs in sorted(batches.items()):
        import_records(db_path, [write_archive(tmp / f"b{b}.trn", recs)], verify=False)
    wanted = sorted({g for g, _ in plan})
    ref = tmp / "ref.db"
    import_records(ref, [write_archive(tmp / "ref.trn", [pool[g] for g in wanted])], verify=False)
    got, exp = counts(db_path), counts(ref)
    assert got == exp
    conn, rconn = sqlite3.connect(db_path), sqlite3.connect(ref)
    q = (
        "SELECT g.sha256, c.seq, c.number, c.moves, m.seq, m.token FROM coups c JOIN games g ON g.id = c.game_id "
        "LEFT JOIN marks m ON m.game_id = c.game_id AND m.coup_seq = c.seq"
    )
    assert sorted(conn.execute(q).fetchall(), key=repr) == sorted(rconn.execute(q).fetchall(), key=repr)
    assert orphans(db_path) == []


def test_reverify_replaces_findings_in_place(tmp_path: Path, archive: Path) -> None:
    pytest.importorskip("trictrac.replay.verifier.verify")
    db_path = tmp_path / "r.db"
    import_records(db_path, [archive], verify=False)
    before = counts(db_path)
    conn = sqlite3.connect(db_path)
    assert conn.execute("SELECT SUM(verified) FROM games").fetchone()[0] == 0
    src = dict(conn.execute("SELECT id, source FROM games").fetchall())
    rep = importer.reverify(db_path)
    assert (rep.imported, rep.failures) == (4, [])
    assert conn.execute("SELECT SUM(verified) FROM games").fetchone()[0] == 4
    assert dict(conn.execute("SELECT id, source FROM games").fetchall()) == src
    after = counts(db_path)
    assert {k: v for k, v in after.items() if k != "findings"} == {k: v for k, v in before.items() if k != "findings"}
    # the verifier's holes now stand in the results (the Result headers agree with them)
    assert conn.execute("SELECT COUNT(*) FROM results WHERE holes IS NULL").fetchone()[0] == 0
    assert orphans(db_path) == []
    again = importer.reverify(db_path)
    assert (again.imported, again.unchanged) == (0, 4)
    assert counts(db_path) == after
    assert importer.reverify(db_path, everything=True).imported == 4
    assert counts(db_path) == after


def test_sloppy_and_canonical_spellings_are_one_game(tmp_path: Path) -> None:
    """The notation fixtures' sloppy spellings write to the same canonical text as the
    canonical ones: importing both stores each game once."""
    rec_dir = ROOT / "fixtures" / "records"
    pairs = [(p, p.with_name(p.name.replace("_sloppy", ""))) for p in sorted(rec_dir.glob("*_sloppy.trn"))]
    pairs = [(s, c) for s, c in pairs if c.exists()]
    if not pairs:
        pytest.skip("no sloppy/canonical fixture pairs yet")
    for sloppy, canonical in pairs:
        db_path = tmp_path / f"{canonical.stem}.db"
        first = import_records(db_path, [canonical])
        second = import_records(db_path, [sloppy])
        assert first.imported >= 1 and first.failures == []
        assert (second.imported, second.unchanged) == (0, first.imported), sloppy.name
        assert second.game_ids == first.game_ids
