"""The club database's import pipeline: import recorded games into SQLite and keep them by content.

``import_records(db_path, paths)`` reads ``.trn`` files game by game
(``notation.reader.iter_records``), writes each game canonically
(``notation.writer.write_record``) and keys it by the SHA-256 of that text, verifies
it (``replay.verifier.verify.verify``) and stores the game, its players, marqués, relevés,
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

import io
import sqlite3
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..replay.rules.profiles import Profile
from .db import _connect_writer, open_db
from .identity import game_key
from .report import ImportFailure, ImportReport, ImportStep
from .rows import G_IMPORTED_AT, G_KEY, G_SOURCE_END, G_SOURCE_FILE, G_SOURCE_LINE, _GameRows
from .store import _Store
from .workers import ENGINE_VERSION, _file_digest, _Outcome, _Readers, _resolve_profile, _Task, _Work


def import_records(
    db_path: str | Path,
    paths: Iterable[str | Path],
    *,
    profile: Profile | str | None = None,
    progress: Callable[[ImportStep], None] | None = None,
    season_start_month: int = 1,
    verify: bool = True,
    jobs: int = 1,
    names: Mapping[str, str] | None = None,
    lang: str = "fr",
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
    order.  ``verify=False`` stores games without findings.  ``names``: the name to store as
    a game's file (``games.source_file``) for a path read, e.g. ``-`` (or the ``--name`` given)
    for the temporary copy of standard input; by default the path as given.  ``lang``: the
    language of the words stored (``findings.message``, ``import_failures.message``),
    French by default as the pages and Datasette's labels.

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
        from ..replay.verifier.verify import fork_pool

        pool = fork_pool(jobs)  # forked now, before the database connection exists
    try:
        readers = _Readers(
            str(db_path),
            pool,
            jobs,
            _Work(prof, verify, season_start_month, ENGINE_VERSION, tuple((names or {}).items()), lang),
        )
        early = readers.start_early(files[0]) if pool is not None and files else None
        conn = _connect_writer(Path(db_path), season_start_month, True)
        try:
            rule = int(conn.execute("SELECT value FROM meta WHERE key = 'season_start_month'").fetchone()[0])
            readers.use_season_rule(rule)
            ctx = _Context(_Store(conn), report, progress, readers, lang)
            for k, path in enumerate(files):
                report.files.append((names or {}).get(path, path))  # as the user named it
                ctx.import_file(path, early if k == 0 else None)
        finally:
            conn.close()
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    report.seconds = time.perf_counter() - t0
    return report


#: games stored in one transaction at most, and the longest a read game waits to be stored
BATCH_GAMES = 8  # measured: 8 games a commit store faster than 1 (one commit a game) or 16
BATCH_SECONDS = 0.25
#: games read between two passes of the cyclic garbage collector, at most (:meth:`_Context._read_file`)
GC_GAMES = 64
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


def _stored_nowhere(gid: str) -> bool:
    return False


def _unusable(e: sqlite3.OperationalError) -> bool:
    """Locked or busy: not a game's fault, the database cannot be written (stop loudly)."""
    return "locked" in str(e) or "busy" in str(e)


class _Context:
    """One import run: reads files (:class:`_Readers`), stores their games in order."""

    def __init__(
        self,
        store: _Store,
        report: ImportReport,
        progress: Callable[[ImportStep], None] | None,
        readers: _Readers,
        lang: str = "fr",
    ) -> None:
        self.store, self.report, self.progress, self.readers = store, report, progress, readers
        self.lang = lang
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
        self.store.fail(f, self.lang)
        self._step(f.source_file, index, offset, "failed", f.game_id)

    def import_file(self, path: str, digest: str | None = None) -> None:
        """Read and store the games of ``path`` (``digest``: its SHA-256, if known)."""
        if not Path(path).is_file():
            self.readers.discard()
            self.failed(ImportFailure.of(path, None, None, "unreadable-file", "no_such_file"), 0, 0)
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
            # the file as the user named it (standard input: --name or '-'), not a temporary copy
            shown = dict(self.readers.work.names).get(path, path)
            self.store.remember_file(digest, shown, self.report.game_ids[first:])

    def _read_file(self, path: str) -> None:
        from ..replay.verifier.verify import quiet_gc

        games = 0
        # a database without games (a new one: the usual first import) holds none of the
        # file's, none is looked for; a game stored meanwhile (a concurrent importer, the
        # same text twice in the file) is found by the store, which counts it unchanged
        outcomes = self.readers.outcomes(path, self.store.exists if self.store.has_games() else _stored_nowhere)
        batch = _Batch()
        try:
            done = False
            collect_at = GC_GAMES
            while not done:
                # a game's objects die with it, its rows once stored: the collector runs only
                # between batches, not over the rows a batch holds (issue 30: a tenth of
                # the store, ~10 % of the verification before that), and only every
                # GC_GAMES games (each pass goes over the game being read, ~4,000 objects:
                # one a batch was ~1 % of the import)
                with quiet_gc():
                    while True:
                        out = next(outcomes, _END)
                        if out is _END:
                            done = True
                            break
                        if out is None:  # the workers are not done: store what is held
                            self._flush(path, batch)
                            break
                        games += 1
                        self.report.read += 1
                        self._take(path, out, batch)
                        if not batch.outcomes and games >= collect_at:  # nothing held
                            collect_at = games + GC_GAMES
                            break
        except OSError as e:
            with quiet_gc():
                self._flush(path, batch)
            f = ImportFailure.of(path, None, None, "unreadable-file", "cannot_read", error=str(e))
            self.failed(f, max(games - 1, 0), 0)
        with quiet_gc():
            self._flush(path, batch)
        if not games:
            self.failed(ImportFailure.of(path, None, None, "unreadable-file", "no_game"), 0, 0)

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
                out.rows.game[G_KEY] = key
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
        line = out.rows.game[G_SOURCE_LINE] if out.rows is not None else None
        f = ImportFailure.of_error(path, out.index, line, "store-error", e, out.gid)
        self.failed(f, out.index, out.offset)


def _parse_stored(text: str, file: str | None, line: int) -> tuple[list[Any], list[Any]]:
    """A stored game's text parsed as it stood in its file, from its first ``line``: the
    rows keep the file's line numbers (issue 25 item 5)."""
    from ..notation.reader import _iter_bytes

    records, diags = [], []
    for parsed in _iter_bytes(io.BytesIO(text.encode("utf-8")), file, False, 0, line):
        records.append(parsed.record)
        diags.extend(parsed.diagnostics)
    return records, diags


def reverify(
    db_path: str | Path,
    *,
    profile: Profile | str | None = None,
    everything: bool = False,
    progress: Callable[[ImportStep], None] | None = None,
    lang: str = "fr",
) -> ImportReport:
    """Verify stored games again, from their canonical text (a stored judgement is only as
    good as the rules engine that made it: re-verify when the engine changes).

    By default only games verified by another engine version (or not verified);
    ``everything=True`` re-verifies all.  Each game's findings, results and rows are
    replaced in one transaction; its id, source and import time are kept.  In the
    report, ``imported`` counts the games re-verified and ``unchanged`` those skipped.
    ``lang``: the language of the findings' messages stored (as :func:`import_records`).

    In the CLI: ``trictrac db reverify``.
    """
    prof = _resolve_profile(profile)
    t0 = time.perf_counter()
    report = ImportReport()
    db = open_db(db_path, create=False)
    try:
        conn = db.conn
        season_rule = int(conn.execute("SELECT value FROM meta WHERE key = 'season_start_month'").fetchone()[0])
        work = _Work(prof, True, season_rule, ENGINE_VERSION, lang=lang)
        store = _Store(conn)
        todo = conn.execute(
            "SELECT sha256, engine_version, verified, canonical, source, source_file, source_line, "
            "source_end_line, imported_at, game_key FROM games ORDER BY id"
        ).fetchall()
        for index, row in enumerate(todo):
            gid, engine, verified, canonical, source, source_file, line, end_line, imported_at, key = row
            report.read += 1
            if not everything and verified and engine == ENGINE_VERSION and prof is None:
                report.unchanged += 1
                continue
            # the game's text as read (its lines are the file's: the rows keep pointing there)
            text = source if source is not None else canonical
            records, diags = _parse_stored(text, source_file, line or 1)
            if len(records) != 1 or any(d.severity == "error" for d in diags):
                f = ImportFailure.of(source_file or "<db>", index, line, "parse-error", "no_longer_parses", game_id=gid)
                report.failures.append(f)
                continue
            out = work(_Task(source_file or "<db>", index, 0, line, records[0], tuple(diags), gid, canonical, source))
            if isinstance(out, ImportFailure):
                report.failures.append(out)
                continue
            g = out.game
            g[G_SOURCE_FILE], g[G_SOURCE_LINE], g[G_SOURCE_END] = source_file, line, end_line
            g[G_IMPORTED_AT], g[G_KEY] = imported_at, key
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
