"""The club database: import recorded games into SQLite and keep them by content.

``import_records(db_path, paths)`` reads ``.trn`` files game by game
(``notation.reader.iter_records``), writes each game canonically
(``notation.writer.write_record``) and keys it by the SHA-256 of that text, verifies
it (``replay.verify.verify``) and stores the game, its players, marqués, relevés,
coups, every action of every coup, comments, the verifier's findings and the result
of each seat.  The schema is in :mod:`trictrac.club.schema` and ``docs/database.md``.

Transactions (STYLE.md §6): the CPU work (parse, write, hash, verify, rows) is done
outside any transaction; the games read are then written a few at a time (up to
:data:`BATCH_GAMES`, or as soon as the workers of ``-j`` have nothing ready) in one
``BEGIN IMMEDIATE`` transaction that takes the write lock at once, so two importers
never deadlock on a lock upgrade, and a game is either wholly stored or not at all.
If such a batch fails, it is rolled back and its games are written one transaction
each, so that only the game at fault fails.  A game is reported once committed.  WAL
mode and a busy timeout let several processes import into the same file at once.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import os
import re
import sqlite3
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from ..notation.dates import parse_date as _parse_date
from ..notation.record import (
    OFF,
    Comment,
    Correction,
    Coup,
    Decision,
    Ecole,
    Glyph,
    JouePourTout,
    Mark,
    MarqueResult,
    MarqueStart,
    Move,
    NeMarquePas,
    Pavillon,
    Record,
    ReleveStart,
    Replay,
)
from ..notation.textio import open_file
from ..notation.visitor import ActionVisitor, RecordVisitor, visit_action, visit_element
from ..notation.writer import write_action
from ..replay.profiles import DEFAULT_PROFILE, Profile, find_profile
from .identity import game_key, game_label
from .schema import SCHEMA_VERSION, SchemaError, create_schema, free_label, stored_version, upgrade_schema
from .standings import MarqueRow, SeatRow, StandingGame

if TYPE_CHECKING:
    from sqlite_utils import Database

__all__ = [
    "BUSY_TIMEOUT_MS",
    "ENGINE_VERSION",
    "GameNotFound",
    "SchemaTooNew",
    "ImportFailure",
    "ImportReport",
    "ImportStep",
    "game_id_of",
    "import_records",
    "open_db",
    "reverify",
    "season_of",
    "standing_game",
]

BUSY_TIMEOUT_MS = 60_000  # a concurrent importer holds the lock for one batch (8 games) at a time
SEATS = ("A", "B", "C", "D")


class GameNotFound(ValueError):
    """No stored game has this id (or id prefix), or the prefix is ambiguous."""


# --- report ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ImportFailure:
    """One game (or file) that could not be stored, with why."""

    source_file: str
    game_index: int | None
    line: int | None
    reason: str  # unreadable-file | parse-error | verify-error | store-error
    message: str
    game_id: str | None = None
    diagnostics: tuple[dict[str, Any], ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "file": self.source_file,
            "game_index": self.game_index,
            "line": self.line,
            "reason": self.reason,
            "message": self.message,
            "game_id": self.game_id,
            "diagnostics": list(self.diagnostics),
        }

    def render(self) -> str:
        where = f"{self.source_file}:{self.line}" if self.line else self.source_file
        game = f" (game {self.game_index + 1})" if self.game_index is not None else ""
        return f"{where}{game}: {self.reason}: {self.message}"


@dataclass(frozen=True, slots=True)
class ImportStep:
    """What ``progress`` receives after each game: ``status`` is added, replaced, unchanged or failed.

    ``offset`` is where the game starts in its file (0 for a failed file)."""

    path: str
    game_index: int
    offset: int
    status: str
    game_id: str | None


@dataclass(slots=True)
class ImportReport:
    """``imported`` = ``added`` + ``replaced`` (a corrected version of a stored game);
    ``per_file``: for each file, its counts of added / replaced / unchanged / refused."""

    files: list[str] = field(default_factory=list)
    read: int = 0
    imported: int = 0
    added: int = 0
    replaced: int = 0
    unchanged: int = 0
    per_file: dict[str, dict[str, int]] = field(default_factory=dict)
    findings: int = 0
    failures: list[ImportFailure] = field(default_factory=list)
    game_ids: list[str] = field(default_factory=list)  # every game read and stored, in order
    seconds: float = 0.0

    @property
    def failed(self) -> int:
        return sum(1 for f in self.failures if f.reason != "unreadable-file")

    @property
    def unreadable(self) -> list[str]:
        return [f.source_file for f in self.failures if f.reason == "unreadable-file"]

    def as_dict(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "read": self.read,
            "imported": self.imported,
            "added": self.added,
            "replaced": self.replaced,
            "unchanged": self.unchanged,
            "per_file": self.per_file,
            "failed": self.failed,
            "unreadable": self.unreadable,
            "findings": self.findings,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.read / self.seconds, 1) if self.seconds else None,
            "game_ids": self.game_ids,
            "failures": [f.as_dict() for f in self.failures],
        }


# --- opening ---------------------------------------------------------------------------


def readonly_uri(path: str | Path, *, writable_dir: bool | None = None, writable_file: bool | None = None) -> str:
    """The SQLite URI that reads ``path`` without writing anything (issue 18).

    * directory not writable: ``mode=ro&immutable=1`` — a WAL-mode reader would otherwise
      have to create the ``-shm`` (and ``-wal``) files beside the database.  An immutable
      open does not read a ``-wal`` file left beside it: only what was checkpointed into
      the file is seen (an archived copy has no other).
    * file not writable: ``mode=ro``.
    * both writable: ``mode=rw``, and the connection is made ``PRAGMA query_only``: a
      read-only connection could not remove the ``-wal``/``-shm`` files it makes, this one
      removes them on close like any last SQLite connection.

    ``writable_dir`` / ``writable_file`` None: ask the file system."""
    p = Path(path).resolve()
    if writable_dir is None:
        writable_dir = os.access(p.parent, os.W_OK)
    if writable_file is None:
        writable_file = os.access(p, os.W_OK)
    uri = f"file:{quote(str(p))}"
    if not writable_dir:
        return uri + "?mode=ro&immutable=1"
    return uri + ("?mode=rw" if writable_file else "?mode=ro")


def open_db(
    db_path: str | Path, *, season_start_month: int = 1, create: bool = True, readonly: bool = False
) -> Database:
    """Open (and create if needed) a club database: WAL, busy timeout, foreign keys on.

    ``create=False`` refuses a file that does not exist or has no ``games`` table
    (:class:`DatabaseMissing`, a ValueError); a file that is not SQLite raises
    ``sqlite3.DatabaseError`` at the first query.  A file of an older schema version
    is migrated in place, in one transaction (``club.schema.upgrade_schema``); a
    read-only one is left as it is (reading it works; storing a replay would not).
    """
    path = Path(db_path)
    if not create and not path.exists():
        raise DatabaseMissing(f"no database file {path}")
    if readonly:
        return _open_readonly(path)
    return _as_database(_connect_writer(path, season_start_month, create))


def _as_database(conn: sqlite3.Connection) -> Database:
    # sqlite_utils is loaded only here: the import does without it (issue 17: its load
    # was a quarter of the serial start of ``db import -j``)
    from sqlite_utils import Database

    return Database(conn, execute_plugins=False)


def _connect_writer(path: Path, season_start_month: int, create: bool) -> sqlite3.Connection:
    """:func:`open_db`'s connection for writing, schema made or migrated."""
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA foreign_keys = ON")
    if create:
        if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            _retry_locked(lambda: conn.execute("PRAGMA journal_mode = WAL"))
        conn.execute("PRAGMA synchronous = NORMAL")  # safe with WAL: durable up to the last checkpoint
        try:
            create_schema(conn, season_start_month=season_start_month)
        except SchemaError as e:  # a file of a newer trictrac: not one this toolkit writes
            conn.close()
            raise SchemaTooNew(f"{path}: {e}") from None
    elif not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone():
        conn.close()
        raise DatabaseMissing(f"{path} is not a club database (no games table)")
    else:
        try:
            upgrade_schema(conn)
        except SchemaError as e:
            conn.close()
            raise SchemaTooNew(f"{path}: {e}") from None
        except sqlite3.OperationalError as e:
            if "readonly" not in str(e).replace("-", "").replace(" ", ""):
                conn.close()
                raise
    return conn


def _connect_readonly(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(readonly_uri(path), uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA query_only = ON")
    return conn


def _open_readonly(path: Path) -> Database:
    """For the commands that only read (``db games``, ``db stats``, ``standings`` …): no
    migration, no journal change, nothing written beside the file (:func:`readonly_uri`)."""
    if not path.is_file():
        raise DatabaseMissing(f"{path} is not a file")
    conn = _connect_readonly(path)
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone():
        conn.close()
        raise DatabaseMissing(f"{path} is not a club database (no games table)")
    try:
        version = stored_version(conn)
        if (
            version is not None
            and version.isdigit()
            and int(version) < int(SCHEMA_VERSION)
            and os.access(path, os.W_OK)
            and os.access(path.parent, os.W_OK)
        ):
            # An older file we may write: migrate it once, then read it as usual.
            conn.close()
            open_db(path, create=False).close()
            conn = _connect_readonly(path)
        elif version is not None and version.isdigit() and int(version) > int(SCHEMA_VERSION):
            raise SchemaTooNew(
                f"{path}: club database schema version {version!r}: this trictrac reads "
                f"versions up to {SCHEMA_VERSION} (a newer trictrac made the file?)"
            )
    except SchemaTooNew:
        conn.close()
        raise
    return _as_database(conn)


def _retry_locked(step: Callable[[], object], seconds: float = BUSY_TIMEOUT_MS / 1000) -> object:
    """Run ``step``, retrying while another process holds the file: switching the journal
    to WAL needs an exclusive lock, and SQLite answers "database is locked" at once instead
    of waiting in the busy handler when two processes create the same file together."""
    deadline = time.monotonic() + seconds
    delay = 0.01
    while True:
        try:
            return step()
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() > deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.5)


class DatabaseMissing(ValueError):
    """The file is not a club database."""


class SchemaTooNew(DatabaseMissing, sqlite3.DatabaseError):
    """The file's schema version is newer than this toolkit's (or unknown): neither
    read nor written.  Also an ``sqlite3.DatabaseError`` so that callers that report
    unusable database files (``trictrac db import``) report this one."""


# --- helpers -----------------------------------------------------------------------------


def game_id_of(canonical: str) -> str:
    """The game id: SHA-256 (hex) of the canonical text, so a game has one id wherever it
    was read from."""
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def parse_date(text: str | None) -> str | None:
    """``YYYY[-MM[-DD]]`` from a Date header (``2024.03.15``, ``2024-03-15``,
    ``15/03/2024``, ``2024.??.??``); None when it holds no real date in ASCII digits
    (read once: :func:`trictrac.notation.dates.parse_date`, issue 27)."""
    return _parse_date(text)[0]


def season_of(date_iso: str | None, start_month: int = 1) -> str | None:
    """The club season of a date.

    ``start_month == 1`` (the default rule): the season is the calendar year, ``"2024"``.
    Otherwise a season runs from ``start_month`` to the month before it in the next year
    and is named by both years, ``"2024-2025"``; a date without a month belongs to the
    season that starts in its year.
    """
    if not date_iso:
        return None
    year = int(date_iso[:4])
    if start_month == 1:
        return f"{year}"
    month = int(date_iso[5:7]) if len(date_iso) >= 7 else start_month
    first = year if month >= start_month else year - 1
    return f"{first}-{first + 1}"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def moves_text(coup: Coup) -> str:
    """The coup's checker moves in canonical notation (``notation.writer``): ``1/7 1/6``,
    ``19/off``, ``-5`` for "cannot play a 5"; ``-`` when no move is written."""
    return " ".join(map(_move_text, coup.moves)) if coup.moves else "-"


def _move_text(m: object) -> str:
    # a plain move spelled here as the writer does (its visitor costs ~10 % of the rows)
    if type(m) is Move:
        return f"{m.from_}/{'off' if m.to == OFF else m.to}"
    return write_action(m)


def _b(v: bool | None) -> int | None:
    return None if v is None else int(v)


def _diag_dict(d: Any) -> dict[str, Any]:
    if hasattr(d, "as_dict"):
        return d.as_dict()
    if isinstance(d, dict):
        return d
    return {"message": str(d)}


def _score_of(final_score: Any, seat: str) -> Any:
    """A seat's PlayerScore in the verifier's final score (ScoreState or dict), or None."""
    if final_score is None:
        return None
    try:
        return final_score[seat]
    except (KeyError, IndexError, TypeError, ValueError):
        return getattr(final_score, seat.lower(), None)


def _get(obj: Any, name: str) -> Any:
    return obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)


# --- building the rows of one game ---------------------------------------------------------

# Each table's rows use *local* ids 1..n; the store adds the table's current max id.
_ID_TABLES = ("marques", "releves", "coups", "marks", "comments", "findings")


@dataclass(slots=True)
class _GameRows:
    game: dict[str, Any]
    names: dict[str, str]  # seat -> player name
    marques: list[list[Any]] = field(default_factory=list)
    releves: list[list[Any]] = field(default_factory=list)
    coups: list[list[Any]] = field(default_factory=list)
    marks: list[list[Any]] = field(default_factory=list)
    comments: list[list[Any]] = field(default_factory=list)
    findings: list[list[Any]] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)


class _RowsWalker(RecordVisitor[None]):
    """One walk over a record's movetext (``notation.visitor``) filling the ``marques``,
    ``releves``, ``coups``, ``marks`` and ``comments`` rows of ``rows``."""

    def __init__(self, rows: _GameRows, gid: str) -> None:
        self.rows, self.gid = rows, gid
        self.seq = 0  # the element's index in the movetext
        self.pair: tuple[str, str] = ("A", "B")  # who plays the current marqué
        self.marque: list[Any] | None = None  # current marqué row
        self.releve_id: int | None = None

    def opponent(self, seat: str) -> str | None:
        pair = self.pair
        return pair[1] if seat == pair[0] else pair[0] if seat == pair[1] else None

    def _new_marque(self, number: int, players: tuple[str, str] | None, span: Any) -> list[Any]:
        row = [
            len(self.rows.marques) + 1,
            self.gid,
            number,
            self.seq,
            *(players or ("A", "B")),
            None,
            None,
            None,
            None,
            None,
            None,
            span.line or None,
            span.col or None,
        ]
        self.rows.marques.append(row)
        return row

    def visit_marque_start(self, start: MarqueStart) -> None:
        self.marque = self._new_marque(start.number, start.players, start.span)
        self.pair = start.players or ("A", "B")
        self.releve_id = None

    def visit_marque_result(self, result: MarqueResult) -> None:
        if self.marque is None or self.marque[10] is not None:  # a result without its start
            self.marque = self._new_marque(len(self.rows.marques) + 1, None, result.span)
        self.marque[6:12] = [
            result.winner,
            result.winner_holes,
            result.loser_holes,
            result.bredouille,
            int(result.refait),
            result.value,
        ]

    def visit_releve_start(self, start: ReleveStart) -> None:
        self.releve_id = len(self.rows.releves) + 1
        self.rows.releves.append(
            [
                self.releve_id,
                self.gid,
                self.marque[0] if self.marque else None,
                start.number,
                self.seq,
                start.span.line or None,
                start.span.col or None,
            ]
        )

    def visit_coup(self, coup: Coup) -> None:
        # ~290 coups a game: one row list, no per-coup bookkeeping (_coup_index builds
        # the keys of findings from these rows, only for a game that has findings)
        coups, marque = self.rows.coups, self.marque
        cid = len(coups) + 1
        side, roll, moves, span = coup.side, coup.roll, coup.moves, coup.span
        coups.append(
            [
                cid,
                self.gid,
                self.releve_id,
                marque[0] if marque else None,
                cid - 1,
                coup.number,
                side,
                side,
                roll[0],
                roll[1],
                " ".join(map(_move_text, moves)) if moves else "-",
                span.line or None,
                span.col or None,
            ]
        )
        if coup.before or coup.after:
            self._actions(coup, cid)

    def _actions(self, coup: Coup, cid: int) -> None:
        marks = self.rows.marks
        k = 0
        for phase, actions in (("before", coup.before), ("after", coup.after)):
            for a in actions:
                marks.append(_mark_row(len(marks) + 1, self.gid, cid, k, phase, a, coup.side, self.opponent))
                if type(a) is Comment:
                    self._comment(a, cid)
                k += 1

    def visit_comment(self, comment: Comment) -> None:
        self._comment(comment, None)

    def _comment(self, comment: Comment, cid: int | None) -> None:
        self.rows.comments.append(
            [
                len(self.rows.comments) + 1,
                self.gid,
                cid,
                comment.text,
                comment.span.line or None,
                comment.span.col or None,
            ]
        )


def _build_rows(
    rec: Record,
    gid: str,
    canonical: str,
    report: Any,
    *,
    profile_name: str,
    parse_diagnostics: Sequence[Any],
    source_file: str | None,
    source: str | None,
    season_start_month: int,
    engine_version: str,
) -> _GameRows:
    h = rec.headers
    names = {s: h[s].strip() for s in SEATS if h.get(s, "").strip()}
    date_iso = parse_date(h.get("Date"))
    findings = list(_get(report, "findings") or ()) if report is not None else []
    diags = [_diag_dict(d) for d in parse_diagnostics]
    if report is not None:
        diags += [_diag_dict(d) for d in (_get(report, "diagnostics") or ())]
    rows = _GameRows(
        game={
            "id": gid,
            "label": game_label(h, date_iso),
            "game_key": game_key(h, gid),
            "event": h.get("Event"),
            "site": h.get("Site"),
            "date": h.get("Date"),
            "date_iso": date_iso,
            "season": season_of(date_iso, season_start_month),
            "round": h.get("Round"),
            "partie": h.get("Partie"),
            "profile": profile_name,
            "mode": rec.mode,
            "start_position": rec.start,
            "result": h.get("Result"),
            "annotator": h.get("Annotator"),
            "n_releves": 0,  # set below, from the walk
            "n_marques": 0,
            "n_coups": 0,
            "n_findings": len(findings),
            "verified": int(report is not None),
            "stopped": _bool_int(_get(report, "stopped")) if report is not None else None,
            "notes": json.dumps(
                [str(n) for n in (_get(report, "notes") or ())] if report is not None else [], ensure_ascii=False
            ),
            "headers": json.dumps(h, ensure_ascii=False),
            "diagnostics": json.dumps(diags, ensure_ascii=False),
            "canonical": canonical,
            "source": source,
            "source_file": source_file,
            "source_line": rec.span.line or None,
            "engine_version": engine_version,
            "imported_at": _now(),
        },
        names=names,
    )

    _walk(rec, rows, gid)
    g = rows.game
    g["n_releves"], g["n_marques"], g["n_coups"] = len(rows.releves), len(rows.marques), len(rows.coups)
    if findings:
        rows.findings = _finding_rows(findings, rows, gid)
    rows.results = _results(rec, names, rows.marques, _get(report, "final_score") if report is not None else None)
    return rows


def _walk(rec: Record, rows: _GameRows, gid: str) -> None:
    """Fill the movetext rows of ``rows`` in one walk (:class:`_RowsWalker`)."""
    walker = _RowsWalker(rows, gid)
    visit_coup = walker.visit_coup
    for seq, el in enumerate(rec.elements):
        if type(el) is Coup:  # nearly every element: no dispatch
            visit_coup(el)
        else:
            walker.seq = seq
            visit_element(el, walker)


def _coup_index(rows: _GameRows) -> tuple[dict[tuple[int, int, int], int], list[tuple[int, int]]]:
    """The coups of ``rows`` by (marqué, relevé, number) (the first one of each) and
    their (line, local id) in order: where a finding points."""
    marques, releves = rows.marques, rows.releves
    keys: dict[tuple[int, int, int], int] = {}
    lines = []
    for c in rows.coups:  # _COUP_COLS: id 0, releve_id 2, marque_id 3, number 5, line 11
        mnum = marques[c[3] - 1][2] if c[3] else 0
        rnum = releves[c[2] - 1][3] if c[2] else 0
        keys.setdefault((mnum, rnum, c[5]), c[0])
        lines.append((c[11], c[0]))
    return keys, lines


def _finding_rows(findings: list[Any], rows: _GameRows, gid: str) -> list[list[Any]]:
    """The ``findings`` rows (columns of ``_FINDING_COLS``), each tied to its coup."""
    coup_keys, coup_lines = _coup_index(rows)
    out: list[list[Any]] = []
    for i, f in enumerate(findings):
        # The finding's coup: its 0-based index in the game, else (marqué, relevé, number),
        # else the last coup written before its line.
        key = (_get(f, "marque") or 0, _get(f, "releve") or 0, _get(f, "coup") or 0)
        index = _get(f, "index")
        cid = index + 1 if isinstance(index, int) and 0 <= index < len(coup_lines) else coup_keys.get(key)
        line = _get(f, "line") or None
        if cid is None and line and key[2]:
            before = [c for ln, c in coup_lines if ln and ln <= line]
            cid = before[-1] if before else None
        ent, mk = _get(f, "entitled"), _get(f, "marked")
        alts = _get(f, "alternatives")
        out.append(
            [
                len(out) + 1,
                gid,
                cid,
                i,
                key[1] or None,
                key[0] or None,
                key[2] or None,
                line,
                _get(f, "col") or None,
                _get(f, "who"),
                _get(f, "who"),
                str(_get(f, "kind")),
                _int(ent),
                _int(mk),
                _str_or_none(_get(f, "consequence")) or None,
                _str_or_none(_get(f, "rule")) or None,
                _str_or_none(_get(f, "detail")),
                json.dumps(list(alts), ensure_ascii=False) if alts else None,
                str(_get(f, "message") or ""),
            ]
        )
    return out


def standing_game(rec: Record, report: Any, key: str) -> StandingGame:
    """The row :func:`trictrac.club.standings.compute_standings` takes for one verified
    game (``key`` names it), from the very rows :func:`import_records` stores: a
    published site's standings and the database's agree."""
    rows = _build_rows(
        rec,
        key,
        "",
        report,
        profile_name="",
        parse_diagnostics=(),
        source_file=None,
        source=None,
        season_start_month=1,
        engine_version="",
    )
    names = rows.names
    ecoles: dict[str, list[int]] = {}
    for m in rows.marks:  # _MARK_COLS: kind at 5, claimant seat at 7, the seat that made it at 9
        if m[5] != "ecole":
            continue
        points = m[10] or 0
        if m[9] in names:
            e = ecoles.setdefault(m[9], [0, 0, 0, 0])
            e[0] += 1
            e[1] += points
        if m[7] in names:
            e = ecoles.setdefault(m[7], [0, 0, 0, 0])
            e[2] += 1
            e[3] += points
    seats = tuple(
        SeatRow(names[r["seat"]], r["holes"], r["outcome"], *ecoles.get(r["seat"], (0, 0, 0, 0)))
        for r in rows.results
        if r["seat"] in names
    )
    marques = []
    for m in rows.marques:  # _MARQUE_COLS: seat_x 4, seat_y 5, winner 6, bredouille 9, value 11
        winner, x, y = m[6], m[4], m[5]
        loser = y if winner == x else x if winner == y else None
        if loser is not None and winner in names and loser in names:
            marques.append(MarqueRow(names[winner], names[loser], m[11], m[9] or "none"))
    g = rows.game
    return StandingGame(
        key,
        g["label"],
        g["date_iso"],
        g["season"],
        "a-ecrire" if rows.marques else "douze-trous",
        seats,
        tuple(marques),
    )


def _str_or_none(v: Any) -> str | None:
    return None if v is None else str(v)


def _mark_row(
    mid: int, gid: str, cid: int, k: int, phase: str, a: Any, side: str, opponent: Callable[[str], str | None]
) -> list[Any]:
    """One action of a coup as a ``marks`` row (columns of ``_MARK_COLS``)."""
    return _MarkRow(mid, gid, cid, k, phase, side, opponent).of(a)


class _MarkRow(ActionVisitor[list[Any]]):
    """One action of a coup as a ``marks`` row (columns of ``_MARK_COLS``); ``side`` is
    the coup's roller (the token of a replay says whether he or his opponent decided)."""

    def __init__(
        self, mid: int, gid: str, cid: int, k: int, phase: str, side: str, opponent: Callable[[str], str | None]
    ) -> None:
        self.base: list[Any] = [mid, gid, cid, k, phase]
        self.side, self.opponent = side, opponent
        self.tail: list[Any] = []

    def of(self, a: Any) -> list[Any]:
        self.tail = [write_action(a, self.side), a.span.line or None, a.span.col or None]
        row = visit_action(a, self)
        if row is None:  # a move is no action of a marks row
            raise TypeError(f"unknown action {type(a).__name__}")
        return row

    def _row(
        self,
        kind: str,
        who: str | None,
        against: str | None = None,
        points: int | None = None,
        holes: int | None = None,
        bredouille: int | None = None,
        leave: int | None = None,
        reason: str | None = None,
        text: str | None = None,
    ) -> list[Any]:
        return [
            *self.base,
            kind,
            who,
            who,
            against,
            against,
            points,
            holes,
            bredouille,
            leave,
            reason,
            text,
            *self.tail,
        ]

    def visit_mark(self, mark: Mark) -> list[Any]:
        return self._row("mark", mark.who, points=mark.points, holes=mark.holes, bredouille=_b(mark.bredouille))

    def visit_ne_marque_pas(self, token: NeMarquePas) -> list[Any]:
        return self._row("ne-marque-pas", token.who)

    def visit_decision(self, decision: Decision) -> list[Any]:
        return self._row("decision", decision.who, leave=int(decision.leave))

    def visit_ecole(self, ecole: Ecole) -> list[Any]:
        # The école is claimed against the claimant's opponent, who made it (RULES.md §7).
        return self._row(
            "ecole", ecole.claimant, self.opponent(ecole.claimant), points=ecole.points, reason=ecole.reason
        )

    def visit_correction(self, correction: Correction) -> list[Any]:
        return self._row(
            "correction", correction.who, points=correction.points, holes=correction.holes, reason=correction.reason
        )

    def visit_joue_pour_tout(self, token: JouePourTout) -> list[Any]:
        return self._row("joue-pour-tout", token.who)

    def visit_pavillon(self, token: Pavillon) -> list[Any]:
        # prendre le pavillon: ``who`` sets the mark of hole-bredouille (RULES.md §5.4; 001 r.58)
        return self._row("pavillon", token.who)

    def visit_replay(self, replay: Replay) -> list[Any]:
        # A table remedy (RULES.md §9.5; 003 §192, §211, §216): ``who`` decided it, ``text``
        # holds the moves played again as written between the parentheses.
        moves = " ".join(map(write_action, replay.moves)) or "--"
        return self._row("replay", replay.who, text=moves)

    def visit_comment(self, comment: Comment) -> list[Any]:
        return self._row("comment", None, text=comment.text)

    def visit_glyph(self, glyph: Glyph) -> list[Any]:
        return self._row("glyph", None, text=glyph.glyph)


def _results(rec: Record, names: dict[str, str], marques: list[list[Any]], final_score: Any) -> list[dict[str, Any]]:
    """One row per seat: final score, marqués won/lost and the outcome.

    Outcome: with marqués (partie à écrire, RULES.md §8.2) by the net written value of
    the marqués (by the number won when no value is written); otherwise (partie en douze
    trous, RULES.md §8.1) the seat with more holes wins once someone has twelve; a game
    that stops before (a book problem, an unfinished evening) has no outcome.
    """
    # marqué row layout: id, game, number, seq, seat_x, seat_y, winner, winner_holes,
    # loser_holes, bredouille, refait, value, line, col
    seats = set(names) | {"A", "B"}
    for m in marques:
        seats.update((m[4], m[5]))
    seats = {s for s in seats if s in SEATS}
    two = seats <= {"A", "B"}
    out: dict[str, dict[str, Any]] = {}
    for s in sorted(seats):
        # The verifier's score has two sides; with more seats it is the last marqué's pair.
        sc = _score_of(final_score, s) if two else None
        out[s] = {
            "seat": s,
            "name": names.get(s),
            "opponent_seat": ("B" if s == "A" else "A") if two else None,
            "holes": _int(_get(sc, "holes")) if sc is not None else None,
            "points": _int(_get(sc, "points")) if sc is not None else None,
            "bredouille": _bool_int(_get(sc, "bredouille")) if sc is not None else None,
            "pavillon": _bool_int(_get(sc, "pavillon")) if sc is not None else None,
            "marques_won": 0,
            "marques_lost": 0,
            "marque_value": 0,
            "outcome": None,
        }
    played = [m for m in marques if m[10] is not None]  # a result was written
    if played:
        any_value = False
        for m in played:
            winner, x, y, value = m[6], m[4], m[5], m[11]
            if winner not in (x, y):
                continue
            loser = y if winner == x else x
            out[winner]["marques_won"] += 1
            out[loser]["marques_lost"] += 1
            if value is not None:
                any_value = True
                out[winner]["marque_value"] += value
                out[loser]["marque_value"] -= value
        for r in out.values():
            net = r["marque_value"] if any_value else r["marques_won"] - r["marques_lost"]
            if r["marques_won"] or r["marques_lost"]:
                r["outcome"] = "win" if net > 0 else "loss" if net < 0 else "draw"
    elif two and out["A"]["holes"] is not None and out["B"]["holes"] is not None:
        ha, hb = out["A"]["holes"], out["B"]["holes"]
        if max(ha, hb) >= 12 and ha != hb:
            out["A"]["outcome"] = "win" if ha > hb else "loss"
            out["B"]["outcome"] = "loss" if ha > hb else "win"
    elif two and final_score is None:
        # Not verified: the Result header ("A 12-7": winner, his holes, the other's).
        res = _RESULT.fullmatch(rec.headers.get("Result", "").strip())
        if res and res.group(1) in ("A", "B"):
            w, lo = res.group(1), "B" if res.group(1) == "A" else "A"
            out[w]["outcome"], out[lo]["outcome"] = "win", "loss"
            out[w]["holes"], out[lo]["holes"] = int(res.group(2)), int(res.group(3))
    return list(out.values())


_RESULT = re.compile(r"([AB=])\s+(\d+)\s*-\s*(\d+)")


def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _bool_int(v: Any) -> int | None:
    return int(v) if isinstance(v, bool) else None


# --- storing one game -----------------------------------------------------------------------

_MARQUE_COLS = (
    "id, game_id, number, seq, seat_x, seat_y, winner, winner_holes, loser_holes, bredouille, refait, value, line, col"
)
_RELEVE_COLS = "id, game_id, marque_id, number, seq, line, col"
_COUP_COLS = "id, game_id, releve_id, marque_id, seq, number, side, player_id, die1, die2, moves, line, col"
_MARK_COLS = (
    "id, game_id, coup_id, seq, phase, kind, who, player_id, against, against_id, points, holes, "
    "bredouille, leave, reason, text, token, line, col"
)
_COMMENT_COLS = "id, game_id, coup_id, text, line, col"
_FINDING_COLS = (
    "id, game_id, coup_id, seq, releve, marque, coup, line, col, who, player_id, kind, entitled, "
    "marked, consequence, rule, detail, alternatives, message"
)


def _insert_sql(table: str, cols: str) -> str:
    n = cols.count(",") + 1
    return f"INSERT INTO {table} ({cols}) VALUES ({', '.join('?' * n)})"


_SQL = {
    "marques": _insert_sql("marques", _MARQUE_COLS),
    "releves": _insert_sql("releves", _RELEVE_COLS),
    "coups": _insert_sql("coups", _COUP_COLS),
    "marks": _insert_sql("marks", _MARK_COLS),
    "comments": _insert_sql("comments", _COMMENT_COLS),
    "findings": _insert_sql("findings", _FINDING_COLS),
    "results": _insert_sql(
        "results",
        "game_id, seat, player_id, opponent_seat, holes, points, bredouille, pavillon, "
        "marques_won, marques_lost, marque_value, outcome",
    ),
}


def _off(v: int | None, b: int) -> int | None:
    return None if v is None else v + b


def _insert_rows(conn: sqlite3.Connection, rows: _GameRows, pid: dict[str, int]) -> None:
    """Every row of one game but the ``games`` and ``game_players`` ones, local ids made
    global (inside the caller's transaction).  Measured: the copies cost ~5 % of the
    storing, SQLite's inserts (indexes, foreign keys, FTS triggers) the rest (issue 17)."""
    base = dict(zip(_ID_TABLES, conn.execute(_MAX_IDS).fetchone()))
    bm, br, bc, bk = base["marques"], base["releves"], base["coups"], base["marks"]
    get = pid.get
    conn.executemany(_SQL["marques"], [[r[0] + bm, *r[1:]] for r in rows.marques])
    conn.executemany(_SQL["releves"], [[r[0] + br, r[1], _off(r[2], bm), *r[3:]] for r in rows.releves])
    # ~290 coups a game: unpacked, their ids made global inline (local ids start at 1)
    conn.executemany(
        _SQL["coups"],
        [
            (cid + bc, g, rel and rel + br, mq and mq + bm, seq, num, side, get(seat), d1, d2, moves, line, col)
            for cid, g, rel, mq, seq, num, side, seat, d1, d2, moves, line, col in rows.coups
        ],
    )
    conn.executemany(
        _SQL["marks"],
        [[r[0] + bk, r[1], r[2] + bc, *r[3:7], get(r[7]), r[8], get(r[9]), *r[10:]] for r in rows.marks],
    )
    conn.executemany(_SQL["comments"], [[r[0] + base["comments"], r[1], _off(r[2], bc), *r[3:]] for r in rows.comments])
    bf = base["findings"]
    conn.executemany(
        _SQL["findings"],
        [[r[0] + bf, r[1], _off(r[2], bc), *r[3:10], get(r[10]), *r[11:]] for r in rows.findings],
    )
    gid = rows.game["id"]
    conn.executemany(
        _SQL["results"],
        [
            (gid, r["seat"], get(r["seat"]), r["opponent_seat"], r["holes"], r["points"], r["bredouille"])
            + (r["pavillon"], r["marques_won"], r["marques_lost"], r["marque_value"], r["outcome"])
            for r in rows.results
        ],
    )


_MAX_IDS = "SELECT " + ", ".join(f"(SELECT COALESCE(MAX(id), 0) FROM {t})" for t in _ID_TABLES)


def _to_history(conn: sqlite3.Connection, gid: str, action: str, replaced_by: str | None) -> None:
    """Copy a stored game into ``game_history`` and delete it (its rows cascade); inside the
    caller's transaction."""
    conn.execute(
        "INSERT INTO game_history (game_id, game_key, label, action, replaced_by, at, imported_at, n_findings, "
        "headers, canonical, source, source_file) SELECT id, game_key, label, ?, ?, ?, imported_at, n_findings, "
        "headers, canonical, source, source_file FROM games WHERE id = ?",
        (action, replaced_by, _now(), gid),
    )
    conn.execute("DELETE FROM games WHERE id = ?", (gid,))


def delete_game(db_path: str | Path, game: str) -> dict[str, Any]:
    """Delete one stored game (id, unique id prefix or label), keeping it in ``game_history``;
    one transaction.  Returns the deleted game's id and label.  In the CLI: ``db delete``."""
    database = open_db(db_path, create=False)
    conn = database.conn
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            gid = resolve_game(conn, game)
            label = conn.execute("SELECT label FROM games WHERE id = ?", (gid,)).fetchone()[0]
            _to_history(conn, gid, "deleted", None)
            conn.execute("DELETE FROM source_files WHERE game_ids LIKE ?", (f'%"{gid}"%',))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    finally:
        database.close()
    return {"id": gid, "label": label}


def resolve_game(conn: sqlite3.Connection, game: str) -> str:
    """The id of a stored game from its id, a unique prefix of it (4+ hex digits), its
    label, or its ``Game-Id``; :class:`GameNotFound` otherwise."""
    text = game.strip()
    low = text.lower()
    if re.fullmatch(r"[0-9a-f]{4,64}", low):
        rows = conn.execute("SELECT id FROM games WHERE id >= ? AND id < ? LIMIT 2", (low, low + "g")).fetchall()
        if len(rows) == 1:
            return rows[0][0]
        if len(rows) > 1:
            raise GameNotFound(f"game id prefix {game} is ambiguous")
    rows = conn.execute(
        "SELECT id FROM games WHERE label = ? OR game_key = ? OR game_key = ? LIMIT 2", (text, f"tag:{text}", text)
    ).fetchall()
    if len(rows) == 1:
        return rows[0][0]
    if len(rows) > 1:
        raise GameNotFound(f"{game!r} names several games: give the id")
    raise GameNotFound(f"no game with id or label {game}")


def game_history(db: Database, game: str) -> list[dict[str, Any]]:
    """Every version of a game, oldest first: those in ``game_history`` (replaced or
    deleted) and the stored one (``action`` = ``current``).  ``game``: the id (or prefix)
    of any version, a label or a Game-Id.  In the CLI: ``db history``."""
    conn = db.conn
    try:
        key = conn.execute("SELECT game_key FROM games WHERE id = ?", (resolve_game(conn, game),)).fetchone()[0]
    except GameNotFound:
        low = game.strip().lower()
        row = conn.execute(
            "SELECT game_key FROM game_history WHERE game_id >= ? AND game_id < ? OR label = ? "
            "ORDER BY id DESC LIMIT 1",
            (low, low + "g", game.strip()),
        ).fetchone()
        if row is None:
            raise
        key = row[0]
    cols = "game_id, label, action, replaced_by, at, imported_at, n_findings, source_file"
    cur = conn.execute(f"SELECT {cols} FROM game_history WHERE game_key = ? ORDER BY id", (key,))
    names = [d[0] for d in cur.description]
    out = [dict(zip(names, r)) for r in cur.fetchall()]
    cur = conn.execute(
        "SELECT id, label, 'current', NULL, NULL, imported_at, n_findings, source_file FROM games WHERE game_key = ?",
        (key,),
    )
    out += [dict(zip(names, r)) for r in cur.fetchall()]
    return out


class _Store:
    """Writes games into one connection; caches player ids that are committed."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.players: dict[str, int] = {}

    def exists(self, gid: str) -> bool:
        return self.conn.execute("SELECT 1 FROM games WHERE id = ?", (gid,)).fetchone() is not None

    def _player(self, name: str, pending: dict[str, int]) -> int:
        pid = self.players.get(name) or pending.get(name)
        if pid is None:
            row = self.conn.execute("SELECT id FROM players WHERE name = ?", (name,)).fetchone()
            new = row[0] if row else self.conn.execute("INSERT INTO players(name) VALUES (?)", (name,)).lastrowid
            assert new is not None  # an INSERT gives its row id
            pid = pending[name] = int(new)
        return pid

    def store(self, rows: _GameRows, *, replace: bool = False) -> str:
        """Write one game in its own transaction: ``added``, ``replaced`` (a game with the
        same ``game_key`` and another text was there: it goes to ``game_history``) or
        ``unchanged`` (this very text was there).  ``replace``: rewrite the stored game of
        this id in place (re-verification), in the same transaction."""
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        pending: dict[str, int] = {}
        try:
            status = self._write(rows, replace, pending)
            conn.execute("ROLLBACK" if status == "unchanged" else "COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        self.players.update(pending)
        return status

    def store_batch(self, games: Sequence[_GameRows]) -> list[str]:
        """Write several games in one transaction (one commit instead of one a game: the
        WAL pages they share are written once), each as :meth:`store` would: their
        statuses in order.  Any error rolls the whole batch back and is raised: the
        caller stores the games one by one then, to know which game failed."""
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        pending: dict[str, int] = {}
        try:
            statuses = [self._write(rows, False, pending) for rows in games]
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        self.players.update(pending)
        return statuses

    def _write(self, rows: _GameRows, replace: bool, pending: dict[str, int]) -> str:
        """One game's rows, inside the caller's transaction (nothing written when the
        status is ``unchanged``); new players' ids go to ``pending`` until the commit."""
        conn = self.conn
        g = rows.game
        status = "added"
        if replace:
            conn.execute("DELETE FROM games WHERE id = ?", (g["id"],))
        elif self.exists(g["id"]):
            return "unchanged"
        else:
            old = conn.execute("SELECT id FROM games WHERE game_key = ?", (g["game_key"],)).fetchone()
            if old is not None:
                _to_history(conn, old[0], "replaced", g["id"])
                status = "replaced"
        pid = {seat: self._player(name, pending) for seat, name in rows.names.items()}
        values = {**g, "label": free_label(conn, g["label"], g["id"])}  # the primary key: unique
        conn.execute(
            f"INSERT INTO games ({', '.join(values)}) VALUES ({', '.join('?' * len(values))})", tuple(values.values())
        )
        conn.executemany(
            "INSERT INTO game_players(game_id, seat, player_id) VALUES (?, ?, ?)",
            [(g["id"], s, p) for s, p in pid.items()],
        )
        _insert_rows(conn, rows, pid)
        return status

    def known_file(self, digest: str) -> list[str] | None:
        return _known_file(self.conn, digest)

    def remember_file(self, digest: str, path: str, ids: list[str]) -> None:
        with self.conn:
            self.conn.execute(
                "INSERT OR REPLACE INTO source_files (sha256, path, game_ids, imported_at) VALUES (?, ?, ?, ?)",
                (digest, path, json.dumps(ids), _now()),
            )

    def fail(self, f: ImportFailure) -> None:
        """Log a failure (once per file, line, reason and message) in its own transaction."""
        fid = hashlib.sha256("\0".join(map(str, (f.source_file, f.line, f.reason, f.message))).encode()).hexdigest()[
            :32
        ]
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            self.conn.execute(
                "INSERT OR IGNORE INTO import_failures (id, source_file, game_index, line, game_id, reason, message, "
                "diagnostics, attempted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    fid,
                    f.source_file,
                    f.game_index,
                    f.line,
                    f.game_id,
                    f.reason,
                    f.message,
                    json.dumps(list(f.diagnostics), ensure_ascii=False),
                    _now(),
                ),
            )
            self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise


def _known_file(conn: sqlite3.Connection, digest: str) -> list[str] | None:
    """The games of a file imported before with these bytes, if every one is still stored."""
    row = conn.execute("SELECT game_ids FROM source_files WHERE sha256 = ?", (digest,)).fetchone()
    if row is None:
        return None
    ids = json.loads(row[0])
    n = conn.execute("SELECT COUNT(*) FROM games WHERE id IN (SELECT value FROM json_each(?))", (row[0],)).fetchone()[0]
    return ids if n == len(set(ids)) else None


# --- import ---------------------------------------------------------------------------------


def _engine_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("trictrac-records")
    except PackageNotFoundError:  # a bare checkout, not installed
        return "unknown"


ENGINE_VERSION = _engine_version()  # stored with each game: re-verify when it changes


def _resolve_profile(profile: Profile | str | None) -> Profile | None:
    if profile is None or isinstance(profile, Profile):
        return profile
    return find_profile(profile)


def _verifier() -> Callable[..., Any] | None:
    """``replay.verify.verify`` when it is built; None stores games without findings."""
    try:
        from ..replay.verify import verify
    except ModuleNotFoundError as e:
        if e.name != "trictrac.replay.verify":
            raise
        return None
    return verify


def import_records(
    db_path: str | Path,
    paths: Iterable[str | Path],
    *,
    profile: Profile | str | None = None,
    progress: Callable[[ImportStep], None] | None = None,
    season_start_month: int = 1,
    verify: bool = True,
    jobs: int = 1,
) -> ImportReport:
    """Import every game of ``paths`` into the database at ``db_path`` (created if needed).

    ``profile`` overrides each record's ``Profile`` header for verification.  A game
    whose canonical text is already stored is counted ``unchanged`` and not touched
    (nor verified again).  A game that cannot be parsed without errors, verified or
    stored is not written at all; it is listed in ``report.failures`` and in the
    ``import_failures`` table, and the import goes on with the next game.  A file that
    cannot be read (or holds no game) is a failure with reason ``unreadable-file``.
    ``season_start_month`` is the club season rule, fixed when the file is created.
    ``jobs`` > 1: worker processes read, parse, write, hash and verify chunks of
    games and send back the rows to store; this process only stores them, in file
    order.  ``verify=False`` stores games without findings.

    In the CLI: ``trictrac db import``.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    prof = _resolve_profile(profile)
    t0 = time.perf_counter()
    report = ImportReport()
    files = [str(p) for p in paths]
    pool = None
    if jobs > 1:
        from ..replay.verify import fork_pool

        pool = fork_pool(jobs)  # forked now, before the database connection exists
    try:
        readers = _Readers(str(db_path), pool, jobs, _Work(prof, verify, season_start_month, ENGINE_VERSION))
        early = readers.start_early(files[0]) if pool is not None and files else None
        conn = _connect_writer(Path(db_path), season_start_month, True)
        try:
            rule = int(conn.execute("SELECT value FROM meta WHERE key = 'season_start_month'").fetchone()[0])
            readers.use_season_rule(rule)
            ctx = _Context(_Store(conn), report, progress, readers)
            for k, path in enumerate(files):
                report.files.append(path)
                ctx.import_file(path, early if k == 0 else None)
        finally:
            conn.close()
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    report.seconds = time.perf_counter() - t0
    return report


def _profile_name(rec: Record, prof: Profile | None) -> str:
    if prof is not None:
        return prof.name
    try:
        return find_profile(rec.headers.get("Profile")).name if rec.headers.get("Profile") else DEFAULT_PROFILE.name
    except ValueError:
        return rec.headers.get("Profile") or DEFAULT_PROFILE.name


def _source_text(raw: Any, rec: Record, base: int = 0) -> str | None:
    """The game as it stands in its file: from its byte offset to its last line
    (``raw`` holds the file's bytes from offset ``base``)."""
    if not rec.span.line or rec.span.end_line < rec.span.line:
        return None
    raw.seek(rec.span.offset - base)
    data = b"".join(raw.readline() for _ in range(rec.span.end_line - rec.span.line + 1))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")  # as the reader does


def _file_digest(path: str) -> str | None:
    """SHA-256 of the file's bytes, read by blocks (flat memory); None if unreadable."""
    h = hashlib.sha256()
    try:
        with open_file(path) as fh:
            while block := fh.read(1 << 20):
                h.update(block)
    except OSError:
        return None
    return h.hexdigest()


@dataclass(frozen=True, slots=True)
class _Task:
    """A game read, written and hashed, not stored yet: to verify and turn into rows."""

    path: str
    index: int
    offset: int
    line: int | None
    record: Record
    diagnostics: tuple[Any, ...]
    gid: str
    canonical: str
    source: str | None
    key: str = ""


@dataclass(slots=True)
class _Outcome:
    """One game read: its place in the file and either rows to store, a failure, or
    nothing (``gid`` set: that very text is stored already).  ``key``: its game key as
    read, before this run's duplicates are told apart."""

    index: int
    offset: int
    gid: str | None = None
    key: str = ""
    rows: _GameRows | None = None
    failure: ImportFailure | None = None


@dataclass(frozen=True, slots=True)
class _Work:
    """Verify a game and build its rows (runs in a worker process with ``jobs`` > 1)."""

    profile: Profile | None
    verify: bool
    season_rule: int
    engine: str

    def __call__(self, t: _Task) -> _GameRows | ImportFailure:
        stage = "verify-error"
        # One bad game must not stop the archive: any exception is that game's failure.
        try:
            report = None
            verify_fn = _verifier() if self.verify else None
            if verify_fn is not None:
                report = verify_fn(t.record, self.profile, file=t.path, game=t.index, trace=False)
            stage = "store-error"
            return _build_rows(
                t.record,
                t.gid,
                t.canonical,
                report,
                profile_name=_get(report, "profile_name") or _profile_name(t.record, self.profile),
                parse_diagnostics=t.diagnostics,
                source_file=t.path,
                source=t.source,
                season_start_month=self.season_rule,
                engine_version=self.engine,
            )
        except Exception as e:  # noqa: BLE001 - isolation boundary, reported as data
            return ImportFailure(t.path, t.index, t.line, stage, f"{type(e).__name__}: {e}", t.gid)

    def read_game(self, game: _Read, parsed: Any, stored: Callable[[str], bool]) -> _Outcome:
        """Parse checks, canonical text, id, then (unless ``stored(id)``) verification
        and rows: everything but the storing."""
        from ..notation.writer import write_record

        path, index = game.path, game.index
        rec: Record | None = _get(parsed, "record")
        diags = tuple(_get(parsed, "diagnostics") or ())
        offset = rec.span.offset if rec is not None else 0
        line = (rec.span.line or None) if rec is not None else (diags[0].span.line if diags else None)
        errors = [d for d in diags if getattr(d, "severity", "error") == "error"]
        if rec is None or errors:
            msg = "; ".join(f"{d.span.line}:{d.span.col}: {d.code}: {d.message}" for d in errors[:3]) or "no record"
            f = ImportFailure(path, index, line, "parse-error", msg, None, tuple(_diag_dict(d) for d in diags))
            return _Outcome(index, offset, failure=f)
        try:
            canonical = write_record(rec)
        except Exception as e:  # noqa: BLE001 - isolation boundary, reported as data
            msg = f"cannot write canonically: {type(e).__name__}: {e}"
            return _Outcome(index, offset, failure=ImportFailure(path, index, line, "store-error", msg))
        gid = game_id_of(canonical)
        key = game_key(rec.headers, gid)
        if stored(gid):
            return _Outcome(index, offset, gid, key)
        source = _source_text(game.raw, rec, game.base)
        out = self(_Task(path, index, offset, line, rec, diags, gid, canonical, source, key))
        if isinstance(out, ImportFailure):
            return _Outcome(index, offset, gid, key, failure=out)
        return _Outcome(index, offset, gid, key, rows=out)


@dataclass(slots=True)
class _Read:
    """Where a game is read from: its file, index there, and the bytes it is in
    (``raw`` from file offset ``base``) for its source text."""

    path: str
    index: int
    raw: Any
    base: int = 0


#: a worker's read connections to the database, by path (to skip games stored already)
_STORED: dict[str, Callable[[str], bool]] = {}


def _stored_in(db_path: str) -> Callable[[str], bool]:
    """``stored(gid)`` for a worker process: its own read-only connection (WAL lets it
    read while the main process writes); on any trouble, "not stored" (the store
    itself says ``unchanged`` then, only the verification is wasted)."""
    if db_path in _STORED:
        return _STORED[db_path]
    try:
        conn = sqlite3.connect(f"file:{quote(str(Path(db_path).resolve()))}?mode=ro", uri=True, timeout=5)
    except sqlite3.Error:
        return lambda gid: False

    def stored(gid: str) -> bool:
        try:
            return conn.execute("SELECT 1 FROM games WHERE id = ?", (gid,)).fetchone() is not None
        except sqlite3.Error:
            return False

    _STORED[db_path] = stored
    return stored


def _import_chunk(args: tuple[_Work, Any, str]) -> list[_Outcome]:
    """Worker: read, parse, write, hash and verify one chunk of games (one read of
    the file), and build their rows; the main process only stores them."""
    from ..replay.verify import chunk_records, quiet_gc

    work, chunk, db_path = args
    stored = _stored_in(db_path)
    data, records = chunk_records(chunk)
    with io.BytesIO(data) as raw, quiet_gc():
        return [
            work.read_game(_Read(chunk.path, chunk.game + k, raw, chunk.start), parsed, stored)
            for k, parsed in enumerate(records)
        ]


class _Readers:
    """How games are read: in this process, or by a pool of ``jobs`` workers."""

    __slots__ = ("db_path", "pool", "jobs", "work", "_early")

    def __init__(self, db_path: str, pool: Any, jobs: int, work: _Work) -> None:
        self.db_path, self.pool, self.jobs, self.work = db_path, pool, jobs, work
        # the first file's chunks sent before the database was opened: (path, chunks, in flight)
        self._early: tuple[str, Iterator[Any], deque[tuple[tuple[_Work, Any, str], Any]]] | None = None

    def start_early(self, path: str) -> str | None:
        """With workers, before the database is opened for writing (its schema made):
        send the first chunks of ``path``, so that the workers start at once instead of
        waiting for this process's set-up (issue 17: the serial start of ``db import
        -j``).  Only for a file not imported before, the database read-only peeked at
        for that and for its season rule.  The file's digest, or None if nothing was sent."""
        digest = _file_digest(path) if os.path.isfile(path) else None
        rule = _peek_season_rule(self.db_path, digest, self.work.season_rule) if digest else None
        if rule is None:
            return None
        self.use_season_rule(rule)
        chunks = _game_chunks(path)
        inflight: deque[tuple[tuple[_Work, Any, str], Any]] = deque()
        for chunk in itertools.islice(chunks, 3 * self.jobs):
            task = (self.work, chunk, self.db_path)
            inflight.append((task, self.pool.submit(_import_chunk, task)))
        self._early = (path, chunks, inflight)
        return digest

    def use_season_rule(self, rule: int) -> None:
        """The season rule the database holds: chunks sent with another one are dropped."""
        if rule != self.work.season_rule:
            self.discard()
            self.work = replace(self.work, season_rule=rule)

    def discard(self) -> None:
        """Drop the chunks sent early (the file is not read after all)."""
        if self._early is not None:
            for _, future in self._early[2]:
                future.cancel()
            self._early = None

    def outcomes(self, path: str, stored: Callable[[str], bool]) -> Iterator[_Outcome | None]:
        """Every game of ``path`` read (and verified when not ``stored``), in file order;
        with workers, None when the next one is not back yet (store what is held meanwhile)."""
        if self.pool is None:
            from ..notation.reader import iter_records

            with open_file(path) as raw:
                for index, parsed in enumerate(iter_records(path, file=path)):
                    yield self.work.read_game(_Read(path, index, raw), parsed, stored)
            return
        # As replay.verify.ordered_results, at most 3 chunks a worker in flight (flat
        # memory), but saying when the oldest is not done: this process then stores
        # instead of waiting, and holds no game back once the workers are done.
        if self._early is not None and self._early[0] == path:
            _, chunks, inflight = self._early
            self._early = None
        else:
            chunks, inflight = _game_chunks(path), deque()
        for chunk in chunks:
            task = (self.work, chunk, self.db_path)
            inflight.append((task, self.pool.submit(_import_chunk, task)))
            if len(inflight) >= 3 * self.jobs:
                yield from _oldest(inflight)
        while inflight:
            yield from _oldest(inflight)


def _game_chunks(path: str) -> Iterator[Any]:
    from ..replay.verify import game_chunks

    return game_chunks(path)


def _peek_season_rule(db_path: str, digest: str, default: int) -> int | None:
    """The season rule of the database at ``db_path`` (``default`` if there is no file
    yet), read without writing and without waiting; None if the file cannot be read so
    (a directory that may not be entered, a lock held: the writer's opening then says
    why, as without this peek) or already holds the file of this ``digest`` (see
    :meth:`_Store.known_file`)."""
    path = Path(db_path)
    try:
        if not path.exists():
            return default
        conn = sqlite3.connect(readonly_uri(path), uri=True, timeout=0)  # busy: no peek, no wait
    except (OSError, sqlite3.Error):
        return None
    try:
        conn.execute("PRAGMA query_only = ON")
        row = conn.execute("SELECT value FROM meta WHERE key = 'season_start_month'").fetchone()
        if row is None or _known_file(conn, digest) is not None:
            return None
        return int(row[0])
    except (sqlite3.Error, ValueError, TypeError):
        return None
    finally:
        conn.close()


def _oldest(inflight: deque[tuple[tuple[_Work, Any, str], Any]]) -> Iterator[_Outcome | None]:
    """The outcomes of the oldest chunk in flight, after a None if it is not done yet."""
    task, future = inflight[0]
    if not future.done():
        yield None
    inflight.popleft()
    try:
        outcomes: list[_Outcome] = future.result()
    except Exception as e:  # noqa: BLE001 - a worker that raised or died: its chunk failed
        outcomes = _chunk_failed(task, e)
    yield from outcomes


def _chunk_failed(task: tuple[_Work, Any, str], e: Exception) -> list[_Outcome]:
    """A worker that raised or died (e.g. out of memory): its chunk is one failure."""
    chunk = task[1]
    msg = f"{type(e).__name__}: {e} (the games from line {chunk.line} on to byte {chunk.end})"
    return [
        _Outcome(
            chunk.game, chunk.start, failure=ImportFailure(chunk.path, chunk.game, chunk.line, "verify-error", msg)
        )
    ]


#: games stored in one transaction at most, and the longest a read game waits to be stored
BATCH_GAMES = 8  # measured: 8 games a commit store faster than 1 (one commit a game) or 16
BATCH_SECONDS = 0.25
_END = _Outcome(-1, -1)  # no more games in the file


@dataclass(slots=True)
class _Batch:
    """Games read and not stored yet (rows to store, or ``unchanged`` ones behind them):
    stored together, in one transaction, once there are :data:`BATCH_GAMES` or the first
    waited :data:`BATCH_SECONDS`.  The reading, verifying and row building stay outside
    any transaction; the write lock is held only while the batch is written."""

    outcomes: list[_Outcome] = field(default_factory=list)
    games: int = 0
    since: float = 0.0

    def add(self, out: _Outcome) -> bool:
        """Queue ``out``; True when the batch is due."""
        if not self.outcomes:
            self.since = time.monotonic()
        self.outcomes.append(out)
        if out.rows is not None:
            self.games += 1
        return self.games >= BATCH_GAMES or time.monotonic() - self.since >= BATCH_SECONDS

    def take(self) -> list[_Outcome]:
        outs, self.outcomes, self.games = self.outcomes, [], 0
        return outs


def _unusable(e: sqlite3.OperationalError) -> bool:
    """Locked or busy: not a game's fault, the database cannot be written (stop loudly)."""
    return "locked" in str(e) or "busy" in str(e)


class _Context:
    """One import run: reads files (:class:`_Readers`), stores their games in order."""

    def __init__(
        self, store: _Store, report: ImportReport, progress: Callable[[ImportStep], None] | None, readers: _Readers
    ) -> None:
        self.store, self.report, self.progress, self.readers = store, report, progress, readers
        self.keys: dict[str, str] = {}  # game_key -> content id, for the games read in this run

    def _step(self, path: str, index: int, offset: int, status: str, gid: str | None) -> None:
        counts = self.report.per_file.setdefault(path, dict.fromkeys(("added", "replaced", "unchanged", "refused"), 0))
        counts["refused" if status == "failed" else status] += 1
        if status in ("added", "replaced"):
            self.report.imported += 1
            setattr(self.report, status, getattr(self.report, status) + 1)
        elif status == "unchanged":
            self.report.unchanged += 1
        if gid is not None and status != "failed":
            self.report.game_ids.append(gid)
        if self.progress:
            self.progress(ImportStep(path, index, offset, status, gid))

    def failed(self, f: ImportFailure, index: int, offset: int) -> None:
        self.report.failures.append(f)
        self.store.fail(f)
        self._step(f.source_file, index, offset, "failed", f.game_id)

    def import_file(self, path: str, digest: str | None = None) -> None:
        """Read and store the games of ``path`` (``digest``: its SHA-256, if known)."""
        if not Path(path).is_file():
            self.readers.discard()
            self.failed(ImportFailure(path, None, None, "unreadable-file", "no such file"), 0, 0)
            return
        digest = digest or _file_digest(path)
        known = self.store.known_file(digest) if digest else None
        if known is not None:  # the very same bytes, every game still stored: nothing to read
            self.readers.discard()
            self.report.read += len(known)
            for i, gid in enumerate(known):
                self._step(path, i, 0, "unchanged", gid)
            return
        failures = len(self.report.failures)
        first = len(self.report.game_ids)
        self._read_file(path)
        if digest and len(self.report.failures) == failures and len(self.report.game_ids) > first:
            self.store.remember_file(digest, path, self.report.game_ids[first:])

    def _read_file(self, path: str) -> None:
        from ..replay.verify import quiet_gc

        games = 0
        outcomes = self.readers.outcomes(path, self.store.exists)
        batch = _Batch()
        try:
            while True:
                # a game's objects die with it: no collector passes over them (~10 % faster)
                with quiet_gc():
                    out = next(outcomes, _END)
                    if out is _END:
                        break
                    if out is None:  # the workers are not done: store what is held
                        self._flush(path, batch)
                        continue
                    games += 1
                    self.report.read += 1
                    self._take(path, out, batch)
        except OSError as e:
            with quiet_gc():
                self._flush(path, batch)
            self.failed(ImportFailure(path, None, None, "unreadable-file", f"cannot read: {e}"), max(games - 1, 0), 0)
        with quiet_gc():
            self._flush(path, batch)
        if not games:
            self.failed(ImportFailure(path, None, None, "unreadable-file", "no game found in the file"), 0, 0)

    def _take(self, path: str, out: _Outcome, batch: _Batch) -> None:
        """One game read: its key told apart from this run's others, then queued to be
        stored with the next ones; a failure is reported after the games before it."""
        gid = out.gid
        if gid is not None:
            key = out.key
            if key in self.keys and self.keys[key] != gid:
                # Two games of this run with the same tags: neither replaces the other.
                key = game_key({}, gid)
            self.keys[key] = gid
            if out.rows is not None:
                out.rows.game["game_key"] = key
        if out.failure is not None:
            self._flush(path, batch)
            self.failed(out.failure, out.index, out.offset)
        elif out.rows is None and not batch.outcomes:
            self._step(path, out.index, out.offset, "unchanged", gid)
        elif batch.add(out):
            self._flush(path, batch)

    def _flush(self, path: str, batch: _Batch) -> None:
        """Store the queued games in one transaction and report each, in file order; if
        that fails, store them one by one (one transaction a game, as ever)."""
        outs = batch.take()
        games = [o.rows for o in outs if o.rows is not None]
        statuses = self._store_batch(games) if len(games) > 1 else None
        if statuses is None:
            for out in outs:
                if out.rows is None:
                    self._step(path, out.index, out.offset, "unchanged", out.gid)
                else:
                    self._store(path, out, out.rows)
            return
        stored = iter(statuses)
        for out in outs:
            if out.rows is None:
                self._step(path, out.index, out.offset, "unchanged", out.gid)
            else:
                self._stored(path, out, out.rows, next(stored))

    def _store_batch(self, games: list[_GameRows]) -> list[str] | None:
        """The games' statuses, stored in one transaction; None when that failed (rolled
        back: nothing of them is written)."""
        try:
            return self.store.store_batch(games)
        except sqlite3.OperationalError as e:
            if _unusable(e):
                raise
        except sqlite3.Error:
            pass
        return None

    def _store(self, path: str, out: _Outcome, rows: _GameRows) -> None:
        try:
            stored = self.store.store(rows)
        except sqlite3.OperationalError as e:
            if _unusable(e):
                raise
            self._store_failed(path, out, e)
            return
        except sqlite3.Error as e:
            self._store_failed(path, out, e)
            return
        self._stored(path, out, rows, stored)

    def _stored(self, path: str, out: _Outcome, rows: _GameRows, status: str) -> None:
        if status != "unchanged":
            self.report.findings += len(rows.findings)
        self._step(path, out.index, out.offset, status, out.gid)

    def _store_failed(self, path: str, out: _Outcome, e: Exception) -> None:
        line = out.rows.game["source_line"] if out.rows is not None else None
        f = ImportFailure(path, out.index, line, "store-error", f"{type(e).__name__}: {e}", out.gid)
        self.failed(f, out.index, out.offset)


def reverify(
    db_path: str | Path,
    *,
    profile: Profile | str | None = None,
    everything: bool = False,
    progress: Callable[[ImportStep], None] | None = None,
) -> ImportReport:
    """Verify stored games again, from their canonical text (a stored judgement is only as
    good as the rules engine that made it: re-verify when the engine changes).

    By default only games verified by another engine version (or not verified);
    ``everything=True`` re-verifies all.  Each game's findings, results and rows are
    replaced in one transaction; its id, source and import time are kept.  In the
    report, ``imported`` counts the games re-verified and ``unchanged`` those skipped.

    In the CLI: ``trictrac db reverify``.
    """
    from ..notation.reader import parse_text

    prof = _resolve_profile(profile)
    t0 = time.perf_counter()
    report = ImportReport()
    db = open_db(db_path, create=False)
    try:
        conn = db.conn
        season_rule = int(conn.execute("SELECT value FROM meta WHERE key = 'season_start_month'").fetchone()[0])
        work = _Work(prof, True, season_rule, ENGINE_VERSION)
        store = _Store(conn)
        todo = conn.execute(
            "SELECT id, engine_version, verified, canonical, source, source_file, source_line, "
            "imported_at, game_key FROM games ORDER BY rowid"
        ).fetchall()
        for index, (gid, engine, verified, canonical, source, source_file, line, imported_at, key) in enumerate(todo):
            report.read += 1
            if not everything and verified and engine == ENGINE_VERSION and prof is None:
                report.unchanged += 1
                continue
            records, diags = parse_text(canonical, file=source_file)
            if len(records) != 1 or any(d.severity == "error" for d in diags):
                f = ImportFailure(
                    source_file or "<db>", index, line, "parse-error", "the stored canonical text no longer parses", gid
                )
                report.failures.append(f)
                continue
            out = work(_Task(source_file or "<db>", index, 0, line, records[0], tuple(diags), gid, canonical, source))
            if isinstance(out, ImportFailure):
                report.failures.append(out)
                continue
            out.game.update(source_file=source_file, source_line=line, imported_at=imported_at, game_key=key)
            store.store(out, replace=True)
            report.imported += 1
            report.findings += len(out.findings)
            report.game_ids.append(gid)
            if progress:
                progress(ImportStep(source_file or "<db>", index, index, "imported", gid))
    finally:
        db.close()
    report.seconds = time.perf_counter() - t0
    return report
