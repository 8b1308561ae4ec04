"""Helpers for the club database tests: generated records and row counts."""

from __future__ import annotations

import dataclasses
import sqlite3
from functools import cache
from pathlib import Path

from trictrac.notation.record import (
    Comment,
    Coup,
    Ecole,
    MarqueResult,
    MarqueStart,
    Record,
    ReleveStart,
)

TABLES = (
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
    "players_fts",
    "comments_fts",
)

# Tables whose rows belong to a game (every row must point at a stored game).
GAME_TABLES = ("game_players", "marques", "releves", "coups", "marks", "comments", "findings", "results")


@cache
def selfplay_records(n: int, seed: int = 7, compact: bool = False) -> tuple[Record, ...]:
    """``n`` bot games (douze trous), generated once per session."""
    from trictrac.replay.generate.selfplay import selfplay

    return tuple(selfplay(n, seed=seed, compact=compact))


def copy_record(rec: Record, **headers: str) -> Record:
    """A copy of ``rec`` with some headers replaced."""
    return Record(headers={**rec.headers, **headers}, elements=list(rec.elements))


def write_archive(path: Path, records: list[Record] | tuple[Record, ...]) -> Path:
    """Write records with the canonical writer, one after the other."""
    from trictrac.notation.writer import write_record

    path.write_text("".join(write_record(r).rstrip("\n") + "\n\n" for r in records), encoding="utf-8")
    return path


def counts(db_path: Path) -> dict[str, int]:
    conn = sqlite3.connect(str(db_path))
    try:
        return {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in TABLES}
    finally:
        conn.close()


def orphans(db_path: Path) -> list[tuple]:
    """Foreign-key violations plus rows of a game that is not stored (must be empty)."""
    conn = sqlite3.connect(str(db_path))
    try:
        bad = list(conn.execute("PRAGMA foreign_key_check"))
        for t in GAME_TABLES:
            bad += [
                (t, r[0]) for r in conn.execute(f"SELECT game_id FROM {t} WHERE game_id NOT IN (SELECT id FROM games)")
            ]
        bad += [
            ("games-without-players", r[0])
            for r in conn.execute("SELECT id FROM games WHERE id NOT IN (SELECT game_id FROM results)")
        ]
        return bad
    finally:
        conn.close()


def with_table_talk(
    rec: Record, *, ecoles: list[tuple[int, str, int, str | None]] = (), comments: list[tuple[int, str]] = ()
) -> Record:
    """``rec`` with écoles claimed and comments added after some coups.

    ``ecoles``: (coup index, claimant, points, reason); ``comments``: (coup index, text).
    """
    coups = [i for i, e in enumerate(rec.elements) if isinstance(e, Coup)]
    els = list(rec.elements)
    for ci, claimant, points, reason in ecoles:
        i = coups[ci]
        els[i] = dataclasses.replace(els[i], after=els[i].after + (Ecole(claimant, points, reason),))
    for ci, text in comments:
        i = coups[ci]
        els[i] = dataclasses.replace(els[i], after=els[i].after + (Comment(text),))
    return Record(headers=dict(rec.headers), elements=els)


def as_marques(rec: Record, results: list[MarqueResult]) -> Record:
    """``rec``'s relevés grouped into marqués that end with the given written results
    (a partie à écrire shape: the verifier may disagree, the store does not care)."""
    releves = [i for i, e in enumerate(rec.elements) if isinstance(e, ReleveStart)]
    n = len(results)
    per = max(1, len(releves) // n)
    els: list = []
    cuts = [releves[k * per] for k in range(n)] + [len(rec.elements)]
    for k, res in enumerate(results):
        els.append(MarqueStart(k + 1))
        els.extend(rec.elements[cuts[k] : cuts[k + 1]])
        els.append(res)
    h = dict(rec.headers)
    h["Partie"] = f"a-ecrire {n}"
    h.pop("Result", None)
    return Record(headers=h, elements=els)


DUPONT, MARTIN, BERARD = "Jean Dupont", "Marie Martin", "Élise Bérard"


def result_of(rec: Record) -> tuple[str, int, int]:
    """(winner seat, winner's holes, loser's holes) from a bot game's ``Result`` header."""
    w, score = rec.headers["Result"].split()
    a, b = score.split("-")
    return w, int(a), int(b)


def _seats(rec: Record, winner: str, loser: str) -> dict[str, str]:
    """Seat the players so that ``winner`` wins ``rec`` as the bots played it."""
    w = result_of(rec)[0]
    return {w: winner, ("B" if w == "A" else "A"): loser}


def _seat_of(seats: dict[str, str], name: str) -> str:
    return next(s for s, n in seats.items() if n == name)


def club_games() -> list[Record]:
    """The bot games the club is made of (douze trous, each with a winner)."""
    return list(selfplay_records(6)[:4])


def club_records() -> list[Record]:
    """A small club, 2023-2024: Dupont beats Martin (g1, 2023) and again (g2), Bérard
    beats Dupont (g3), with écoles and comments; and a partie à écrire Dupont-Martin of
    three marqués (one petite, one grande bredouille) that Dupont loses by value."""
    r = club_games()
    s1, s2, s3 = _seats(r[0], DUPONT, MARTIN), _seats(r[1], DUPONT, MARTIN), _seats(r[2], BERARD, DUPONT)
    g1 = with_table_talk(
        copy_record(r[0], **s1, Date="2023.11.05"),
        ecoles=[(3, _seat_of(s1, DUPONT), 4, "par trop")],
        comments=[(5, "Belle école de Jean")],
    )
    g2 = with_table_talk(
        copy_record(r[1], **s2, Date="2024.02.10"),
        ecoles=[(4, _seat_of(s2, DUPONT), 2, None)],
        comments=[(2, "grande bredouille manquée")],
    )
    g3 = with_table_talk(copy_record(r[2], **s3, Date="2024.03.01"), ecoles=[(6, _seat_of(s3, BERARD), 4, "par moins")])
    g4 = as_marques(
        copy_record(r[3], A=DUPONT, B=MARTIN, Date="2024.05.01"),
        [
            MarqueResult("A", 8, 2, "petite", value=12),
            MarqueResult("B", 6, 0, "grande", value=24),
            MarqueResult("A", 7, 5, "none", value=5),
        ],
    )
    return [g1, g2, g3, g4]


# ``games`` as schema version 3 made it: the content hash is the primary key, first.
V3_GAMES = """CREATE TABLE games_v3 (
    id TEXT PRIMARY KEY, label TEXT, game_key TEXT, event TEXT, site TEXT, date TEXT, date_iso TEXT,
    season TEXT, round TEXT, partie TEXT, profile TEXT NOT NULL,
    mode TEXT NOT NULL CHECK (mode IN ('full', 'compact')), start_position TEXT, result TEXT, annotator TEXT,
    n_releves INTEGER NOT NULL, n_marques INTEGER NOT NULL, n_coups INTEGER NOT NULL, n_findings INTEGER NOT NULL,
    verified INTEGER NOT NULL CHECK (verified IN (0, 1)), stopped INTEGER CHECK (stopped IN (0, 1)),
    notes TEXT NOT NULL, headers TEXT NOT NULL, diagnostics TEXT NOT NULL, canonical TEXT NOT NULL, source TEXT,
    source_file TEXT, source_line INTEGER, engine_version TEXT NOT NULL, imported_at TEXT NOT NULL)"""


def as_v3(path: Path) -> None:
    """Take a file of today back to what schema version 3 had: ``games`` keyed by its hash."""
    conn = sqlite3.connect(str(path))  # foreign keys off: rebuilding games keeps the other tables' rows
    try:
        views = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'view'").fetchall()
        for name, _ in views:
            conn.execute(f"DROP VIEW {name}")
        indexes = [
            sql for (sql,) in conn.execute("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'games'")
        ]
        conn.execute(V3_GAMES)
        cols = ", ".join(r[1] for r in conn.execute("PRAGMA table_info(games_v3)"))
        conn.execute(f"INSERT INTO games_v3 ({cols}) SELECT {cols} FROM games ORDER BY rowid")
        conn.execute("DROP TABLE games")
        conn.execute("PRAGMA legacy_alter_table = ON")
        conn.execute("ALTER TABLE games_v3 RENAME TO games")
        for sql in indexes:
            if sql:
                conn.execute(sql)
        for _, sql in views:
            conn.execute(sql)
        conn.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")
        conn.commit()
    finally:
        conn.close()


DATA = Path(__file__).resolve().parent / "data"


def v4_file(dest: Path) -> Path:
    """A schema-4 club database made by main at 42e2fd0 (tests/data/make_v4_fixtures.py):
    five self-played games (one corrected: a history row; an école claimed, comments), the
    findings fixtures e20, e28, e41, e44, e58, and a club's own indexes on games, marks, coups."""
    import gzip
    import shutil

    with gzip.open(DATA / "club_v4.db.gz", "rb") as src, open(dest, "wb") as out:
        shutil.copyfileobj(src, out)
    return dest


# (table, query) giving the same rows before (version 4: games named by hash) and after
V4_CONTENT = {
    "games": "SELECT id, label, game_key, season, canonical, source_file, source_line, n_coups FROM games",
    "coups": "SELECT game_id, seq, number, side, die1, die2, moves, line, col, releve_id FROM coups",
    "marks": "SELECT m.game_id, c.seq, m.seq, m.kind, m.token, m.player_id, m.against_id, m.reason, m.line "
    "FROM marks m JOIN coups c ON c.id = m.coup_id",
    "comments": "SELECT m.game_id, c.seq, m.text, m.line FROM comments m LEFT JOIN coups c ON c.id = m.coup_id",
    "findings": "SELECT m.game_id, c.seq, m.seq, m.kind, m.message, m.line, m.player_id "
    "FROM findings m LEFT JOIN coups c ON c.id = m.coup_id",
    "results": "SELECT game_id, seat, player_id, holes, outcome, marques_won FROM results",
    "game_players": "SELECT game_id, seat, player_id FROM game_players",
    "marques": "SELECT id, game_id, number, winner, value FROM marques",
    "releves": "SELECT id, game_id, marque_id, number, line FROM releves",
    "game_history": "SELECT game_id, game_key, label, action, canonical FROM game_history",
    "players": "SELECT id, name FROM players",
}
V5_CONTENT = {
    "games": "SELECT sha256, label, game_key, season, canonical, source_file, source_line, n_coups FROM games",
    "coups": "SELECT g.sha256, seq, number, side, die1, die2, moves, line, col, releve_id "
    "FROM coups c JOIN games g ON g.id = c.game_id",
    "marks": "SELECT g.sha256, m.coup_seq, m.seq, m.kind, m.token, m.player_id, m.against_id, m.reason, m.line "
    "FROM marks m JOIN games g ON g.id = m.game_id",
    "comments": "SELECT g.sha256, m.coup_seq, m.text, m.line FROM comments m JOIN games g ON g.id = m.game_id",
    "findings": "SELECT g.sha256, m.coup_seq, m.seq, m.kind, m.message, m.line, m.player_id "
    "FROM findings m JOIN games g ON g.id = m.game_id",
    "results": "SELECT g.sha256, seat, player_id, holes, outcome, marques_won FROM results r "
    "JOIN games g ON g.id = r.game_id",
    "game_players": "SELECT g.sha256, seat, player_id FROM game_players r JOIN games g ON g.id = r.game_id",
    "marques": "SELECT m.id, g.sha256, number, m.winner, value FROM marques m JOIN games g ON g.id = m.game_id",
    "releves": "SELECT m.id, g.sha256, marque_id, number, line FROM releves m JOIN games g ON g.id = m.game_id",
    "game_history": V4_CONTENT["game_history"],
    "players": V4_CONTENT["players"],
}


def content(path: Path) -> dict[str, list[tuple]]:
    """Every row of a club file that a migration must keep, each game named by its content
    hash (version 4 and before: ``games.id``; version 5: ``games.sha256``), sorted."""
    conn = sqlite3.connect(str(path))
    try:
        v5 = "sha256" in {r[1] for r in conn.execute("PRAGMA table_info(games)")}
        return {t: sorted(conn.execute(q).fetchall(), key=repr) for t, q in (V5_CONTENT if v5 else V4_CONTENT).items()}
    finally:
        conn.close()


def rows_corpus(n: int, seed: int) -> list[Record]:
    """Games with every kind of stored row: ``n`` self-played ones, the club's, one with
    écoles claimed and comments, and every game of ``fixtures/findings`` and ``fixtures/parties``."""
    from trictrac.notation.reader import iter_records

    fixtures = Path(__file__).resolve().parent.parent / "fixtures"
    out: list[Record] = list(selfplay_records(n, seed=seed)) + list(club_records())
    out.append(with_table_talk(selfplay_records(1, seed=3)[0], ecoles=[(2, "A", 2, "par trop")], comments=[(1, "x")]))
    for path in sorted((fixtures / "findings").glob("*.trn")) + sorted((fixtures / "parties").glob("*.trn")):
        out.extend(pr.record for pr in iter_records(str(path), file=str(path)) if pr.record is not None)
    return out
