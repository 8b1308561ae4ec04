"""The import's workers: read, parse, write canonically, hash, verify a game and build its
rows (everything but the storing), in this process or in forked workers (``db import -j``)."""

from __future__ import annotations

import hashlib
import io
import itertools
import os
import sqlite3
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..notation.record import (
    Record,
)
from ..notation.textio import open_file
from ..replay.rules.profiles import DEFAULT_PROFILE, Profile, find_profile
from .db import readonly_uri
from .identity import game_key
from .report import ImportFailure
from .rows import Written, _build_rows, _diag_dict, _GameRows, _get, game_id_of, write_with_rows
from .store import _known_file

# --- import ---------------------------------------------------------------------------------


def _engine_version() -> str:
    # The installed METADATA's Version line, found on sys.path as importlib.metadata finds it,
    # without loading importlib.metadata (and the email package with it) in every import.
    import sys

    for entry in sys.path:
        try:  # the folder's names filtered by hand: a glob's pattern costs every start ~5 ms (issue 30)
            with os.scandir(entry or ".") as names:
                found = sorted(
                    Path(d.path) / "METADATA"
                    for d in names
                    if d.name.startswith("trictrac_records-") and d.name.endswith(".dist-info")
                )
        except OSError:
            continue
        for meta in found:
            try:
                with open(meta, encoding="utf-8") as fh:
                    for line in fh:
                        if line.startswith("Version:"):
                            return line.split(":", 1)[1].strip()
                        if not line.strip():
                            break
            except OSError:
                continue
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
    """``replay.verifier.verify.verify`` when it is built; None stores games without findings."""
    try:
        from ..replay.verifier.verify import verify
    except ModuleNotFoundError as e:
        if e.name != "trictrac.replay.verifier.verify":
            raise
        return None
    return verify


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
    data = b"".join(itertools.islice(raw, rec.span.end_line - rec.span.line + 1))  # the lines, read in C
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
    written: Written | None = None  # the rows of the coups and marks, written with the canonical text


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
    names: tuple[tuple[str, str], ...] = ()  # (path read, the name the user gave): '-' for stdin
    lang: str = "fr"  # of the findings' messages stored

    def __call__(self, t: _Task) -> _GameRows | ImportFailure:
        stage = "verify-error"
        # One bad game must not stop the archive: any exception is that game's failure.
        try:
            report = None
            verify_fn = _verifier() if self.verify else None
            if verify_fn is not None:
                # as `check` judges it (its default: a record's own mistake recovered from), one verdict
                report = verify_fn(t.record, self.profile, file=t.path, game=t.index, trace=False, recover=True)
            stage = "store-error"
            return _build_rows(
                t.record,
                t.gid,
                t.canonical,
                report,
                profile_name=_get(report, "profile_name") or _profile_name(t.record, self.profile),
                parse_diagnostics=t.diagnostics,
                source_file=dict(self.names).get(t.path, t.path) if self.names else t.path,
                source=t.source,
                season_start_month=self.season_rule,
                engine_version=self.engine,
                key=t.key or None,
                lang=self.lang,
                written=t.written,
            )
        except Exception as e:  # noqa: BLE001 - isolation boundary, reported as data
            return ImportFailure.of_error(t.path, t.index, t.line, stage, e, t.gid)

    def read_game(self, game: _Read, parsed: Any, stored: Callable[[str], bool]) -> _Outcome:
        """Parse checks, canonical text, id, then (unless ``stored(id)``) verification
        and rows: everything but the storing."""
        path, index = game.path, game.index
        rec: Record | None = _get(parsed, "record")
        diags = tuple(_get(parsed, "diagnostics") or ())
        offset = rec.span.offset if rec is not None else 0
        line = (rec.span.line or None) if rec is not None else (diags[0].span.line if diags else None)
        errors = [d for d in diags if getattr(d, "severity", "error") == "error"]
        if rec is None or errors:
            said = tuple(_diag_dict(d) for d in diags)
            msg = "; ".join(f"{d.span.line}:{d.span.col}: {d.code}: {d.message}" for d in errors[:3])
            f = (
                ImportFailure(path, index, line, "parse-error", msg, None, said)
                if msg
                else ImportFailure.of(path, index, line, "parse-error", "no_record", diagnostics=said)
            )
            return _Outcome(index, offset, failure=f)
        try:  # the rows of the coups and marks written with the text (issue 30)
            canonical, written = write_with_rows(rec)
        except Exception as e:  # noqa: BLE001 - isolation boundary, reported as data
            f = ImportFailure.of(path, index, line, "store-error", "cannot_write", error=f"{type(e).__name__}: {e}")
            return _Outcome(index, offset, failure=f)
        gid = game_id_of(canonical)
        key = game_key(rec.headers, gid)
        if stored(gid):
            return _Outcome(index, offset, gid, key)
        source = _source_text(game.raw, rec, game.base)
        out = self(_Task(path, index, offset, line, rec, diags, gid, canonical, source, key, written))
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
            return conn.execute("SELECT 1 FROM games WHERE sha256 = ?", (gid,)).fetchone() is not None
        except sqlite3.Error:
            return False

    _STORED[db_path] = stored
    return stored


def _import_chunk(args: tuple[_Work, Any, str]) -> list[_Outcome]:
    """Worker: read, parse, write, hash and verify one chunk of games (one read of
    the file), and build their rows; the main process only stores them."""
    from ..replay.verifier.verify import chunk_records, quiet_gc

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
        # As replay.verifier.verify.ordered_results, at most 3 chunks a worker in flight (flat
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
    from ..replay.verifier.verify import game_chunks

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
    f = ImportFailure.of(
        chunk.path,
        chunk.game,
        chunk.line,
        "verify-error",
        "chunk",
        error=f"{type(e).__name__}: {e}",
        from_line=chunk.line,
        end=chunk.end,
    )
    return [_Outcome(chunk.game, chunk.start, failure=f)]
