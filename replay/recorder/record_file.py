"""The recorder's file: the only copy of a game being recorded (issue 26).

:class:`RecordFile` holds, for the whole session, an exclusive lock on the record
(``fcntl.flock`` on a lock file beside it, ``.NAME.lock``: the record itself is replaced
by a rename at every rewrite, so a lock on it would not outlive the first one); a
second recorder on the same file is refused (:class:`RecordLocked`).  A target that
cannot be written (a read-only file, a directory that refuses new files) is refused
when the session starts (:class:`RecordFileError`), not at the first coup.

Every coup reaches the disk whole or not at all: its lines are appended by one
``write`` on a descriptor opened for appending, then ``fsync``; a write that fails
(a full disk) is cut back to the length the file had (``ftruncate``) and raises
:class:`RecordFileError`, and the caller keeps the coup in memory and writes the whole
record (atomically, ``notation.textio``) at its next chance.  Files are read through
the shared reader (``notation.textio.open_input``: UTF-16
with its byte-order mark, Latin-1 text), exactly as ``trictrac check`` reads them.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
from pathlib import Path

from ...notation.textio import InputError, OSReason, OutputError, atomic_write_text, open_input
from ...words import Said

__all__ = ["RecordFile", "RecordFileError", "RecordLocked", "RecordText", "read_record_text"]


class RecordFileError(Said, OSError):
    """The record cannot be written: words as data (:class:`trictrac.words.Said`, the
    catalogue's ``w6.recfile.<key>`` and its fields, an ``OSError`` all the same);
    ``str(e)`` says why in one line in English, :meth:`say` in the reader's language."""

    def __init__(self, key: str, /, *, where: tuple[str, int] | None = None, **fields: object) -> None:
        Said.__init__(self, key if key.startswith("w6.") else f"w6.recfile.{key}", where=where, **fields)
        OSError.__init__(self, self.say("en"))

    def __str__(self) -> str:
        return self.say("en")

    __eq__ = OSError.__eq__  # an error is itself, as every exception
    __hash__ = OSError.__hash__


def _why(e: OSError) -> object:
    """The reason of a failed write, as data (said in the reader's language)."""
    return e.reason if isinstance(e, OutputError) else OSReason.of(e)


class RecordLocked(RecordFileError):
    """Another recorder holds the record."""


class RecordText:
    """A record file as read: its text, whether it is stored as the recorder writes
    (UTF-8) and else in what (``encoding_note``)."""

    __slots__ = ("encoding_note", "text", "utf8")

    def __init__(self, text: str, utf8: bool, encoding_note: str) -> None:
        self.text = text
        self.utf8 = utf8
        self.encoding_note = encoding_note


def read_record_text(path: str) -> RecordText:
    """The text of ``path`` through the shared reader (the checks and encodings of
    ``trictrac check``)."""
    try:
        inp = open_input(path)
    except InputError as e:
        raise RecordFileError("input", error=e) from None
    note = ""
    with inp.stream() as fh:  # decoded to UTF-8 by the reader when the file is UTF-16/32
        raw = fh.read()
    utf8 = True
    if raw != Path(path).read_bytes():
        utf8, note = False, "UTF-16/32"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text, utf8, note = raw.decode("latin-1"), False, "Latin-1"
    return RecordText(text, utf8, note)


def _lock_path(path: str) -> str:
    p = Path(path)
    return str(p.with_name(f".{p.name}.lock"))


class RecordFile:
    """The record at ``path``, locked for this session (module docstring).  ``exists``:
    the file is expected to be there (``--resume``), else it must not be."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._lock_fd = -1
        self._lock()
        try:
            self._check_writable()
        except BaseException:
            self.close()
            raise

    # -- the lock ---------------------------------------------------------------------
    def _lock(self) -> None:
        lock = _lock_path(self.path)
        while True:
            try:
                fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as e:
                raise RecordFileError("beside", path=self.path, reason=OSReason.of(e)) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as e:
                os.close(fd)
                if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise RecordLocked("locked", path=self.path) from None
                raise RecordFileError("cannot_lock", path=self.path, reason=OSReason.of(e)) from None
            # the lock file may have been removed by a session that just ended: lock the one on disk
            try:
                same = os.fstat(fd).st_ino == os.stat(lock).st_ino
            except FileNotFoundError:
                same = False
            if same:
                self._lock_fd = fd
                return
            os.close(fd)

    def close(self) -> None:
        """Give the lock back (the lock file is removed while it is held)."""
        if self._lock_fd >= 0:
            try:
                os.unlink(_lock_path(self.path))
            except OSError:
                pass
            os.close(self._lock_fd)
            self._lock_fd = -1

    def __del__(self) -> None:
        self.close()

    def __enter__(self) -> RecordFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ----------------------------------------------------------------------
    def _check_writable(self) -> None:
        """Refuse at once what would fail at the first coup: a read-only record, a
        directory that takes no new file (the atomic rewrite needs one)."""
        p = Path(self.path)
        if p.exists():
            st = p.stat()
            if not stat.S_ISREG(st.st_mode):
                raise RecordFileError("not_regular", path=self.path)
            if not st.st_mode & stat.S_IWUSR or not os.access(self.path, os.W_OK):
                raise RecordFileError("read_only", path=self.path)
            try:
                os.close(os.open(self.path, os.O_WRONLY | os.O_APPEND))
            except OSError as e:
                raise RecordFileError("cannot_write", path=self.path, reason=OSReason.of(e)) from None
        directory = str(p.parent) if str(p.parent) else "."
        if not os.access(directory, os.W_OK | os.X_OK):
            raise RecordFileError("folder", path=self.path)

    def append(self, text: str) -> None:
        """Append ``text`` whole or not at all (one write, fsync; cut back on failure)."""
        data = text.encode("utf-8")
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        except OSError as e:
            raise RecordFileError("os", path=self.path, reason=OSReason.of(e)) from None
        try:
            size = os.fstat(fd).st_size
            try:
                n = os.write(fd, data)
                if n != len(data):
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                os.fsync(fd)
            except OSError as e:
                try:
                    os.ftruncate(fd, size)
                    os.fsync(fd)
                except OSError:
                    pass
                raise RecordFileError("os", path=self.path, reason=OSReason.of(e)) from None
        finally:
            os.close(fd)

    def rewrite(self, text: str) -> None:
        """Replace the record whole (``notation.textio``: temporary file, fsync, rename)."""
        try:
            atomic_write_text(self.path, text)
        except OSError as e:
            raise RecordFileError("os", path=self.path, reason=_why(e)) from None
