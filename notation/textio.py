"""Files and terminals: one reader of input files, writing whole files only, and text
that cannot drive a terminal.

:func:`open_input` is the one door every command reads a FILE argument through: a path
or ``-`` (standard input); a UTF-16 or UTF-32 byte-order mark is recognised and the text
decoded; a directory, a missing or unreadable file, an empty file and a binary file
(NUL bytes, control bytes, bytes that are neither UTF-8 nor plausible Latin-1 text) are
refused with one line that names the file and the reason (:class:`InputError`; the CLI
exits 2 and writes nothing).

Every file a command writes goes through :func:`atomic_write_text` or
:func:`atomic_write_bytes`: the data goes to a temporary file in the target's directory,
is flushed to disk, then renamed over the target, so a failure or a kill leaves either the
old file or the new one, never half of one (issue 18).

:func:`terminal_safe` escapes the control characters a record may carry (ESC, BEL, NUL,
bidi overrides...) before they reach a terminal, so a player's name cannot clear the screen
or retitle the window of whoever checks the file.
"""

from __future__ import annotations

import codecs
import errno
import io
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TextIO

from ..words import Said, SaidError, Words, words

__all__ = [
    "STDIN",
    "TREE_MANIFEST",
    "Input",
    "InputError",
    "NotARecordFile",
    "OSReason",
    "OutputError",
    "OutputTree",
    "atomic_write_bytes",
    "atomic_write_text",
    "atomic_writer",
    "open_input",
    "output_tree",
    "sweep_stale",
    "terminal_safe",
    "write_inside",
]

#: the FILE argument that means standard input
STDIN = "-"
_PROBE = 1 << 16  # bytes looked at for control bytes and the encoding
_CHUNK = 1 << 20
# control bytes that no text file holds (tab, LF, VT, FF, CR and ESC are left out: a
# record may carry a stray escape, which outputs escape in turn)
_CONTROL_BYTES = bytes(range(1, 9)) + bytes(range(0x0E, 0x1B)) + bytes(range(0x1C, 0x20))
_BOMS = (  # longest first: the UTF-32 LE mark starts with the UTF-16 LE one
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"),
)


class _WithReason(Said):
    """A refusal of a file whose ``why`` field is its reason alone, as words (a :class:`Said`)."""

    @property
    def _why(self) -> Said:
        why = self.fields["why"]
        assert isinstance(why, Said)
        return why

    def why(self, lang: str | Words = "en") -> str:
        """The reason alone, in ``lang``."""
        return self._why.say(lang)


class InputError(_WithReason, SaidError):
    """A FILE argument that holds no readable record: words as data
    (:class:`trictrac.words.SaidError`, ``dbcli.input.said``: the FILE and why, the why
    ``dbcli.input.<code>`` and its fields); ``str(e)`` is ``"FILE: reason"`` (English),
    :meth:`say` says it in another language.  Made by :meth:`of`."""

    @classmethod
    def of(cls, code: str, name: str, **fields: object) -> InputError:
        return cls("dbcli.input.said", name=name, why=Said(f"dbcli.input.{code}", where=None, **fields))

    @property
    def code(self) -> str:
        return self._why.key.removeprefix("dbcli.input.")

    @property
    def name(self) -> str:
        return str(self.fields["name"])


@dataclass(frozen=True)
class OSReason:
    """An operating system's reason (``e.strerror``, English) kept as data: said in
    English as the system said it, in another language by its errno (or, for
    :func:`open_file`'s refusal of a file that is not a regular one, by its kind)."""

    english: str
    errno: int = 0
    kind: str | None = None

    @classmethod
    def of(cls, e: OSError) -> OSReason:
        return cls(e.strerror or str(e), e.errno or 0, getattr(e, "kind", None))

    def __str__(self) -> str:
        return self.english

    def say(self, lang: str | Words = "en") -> str:
        W = words(lang)
        return self.english if W.lang == "en" else said_os_reason(W, self.errno, self.english, self.kind)


def said_os_reason(W: Any, errno_: int, english: str, kind: str | None = None) -> str:
    """An operating system's reason (``e.strerror``, English) in ``W``'s language: the
    catalogue's ``cli.oserror.<ENOENT…>``, else the system's own words; a file that is
    not a regular one (:func:`open_file`, :class:`NotARecordFile`) by its ``kind``,
    ``cli.notrecord.<fifo…>``."""
    if kind is not None:
        return str(W.get(f"cli.notrecord.{kind}", english))
    name = errno.errorcode.get(errno_) if errno_ else None
    return str(W.get(f"cli.oserror.{name}", english)) if name else english


@dataclass(frozen=True)
class Input:
    """A FILE argument that passed :func:`open_input`.

    ``path`` is set when the reader may open the file itself (streaming, ``--jobs``);
    ``data`` holds bytes already in memory (tests); ``opener`` gives the bytes as a
    stream when they are not the file's own: standard input (read once, as it comes)
    or a UTF-16/UTF-32 file re-encoded as UTF-8 while it is read.  Nothing is ever read
    whole into memory (issue 27 row 9)."""

    name: str
    path: str | None = None
    data: bytes | None = None
    opener: Callable[[], IO[bytes]] | None = None

    def stream(self) -> IO[bytes]:
        """The bytes to read, for ``notation.reader.iter_records``."""
        if self.data is not None:
            return io.BytesIO(self.data)
        if self.opener is not None:
            return self.opener()
        assert self.path is not None
        return open_file(self.path)

    @contextmanager
    def as_path(self) -> Iterator[str]:
        """A real file holding the input, for APIs that take paths (a temporary copy,
        written chunk by chunk, for standard input or a re-encoded UTF-16 file, removed
        afterwards)."""
        if self.data is None and self.opener is None and self.path is not None:
            yield self.path
            return
        import shutil
        import tempfile  # only for standard input and atomic writes: not on check's start

        fd, tmp = tempfile.mkstemp(prefix="trictrac-input-", suffix=".trn")
        try:
            with os.fdopen(fd, "wb") as fh, self.stream() as src:
                shutil.copyfileobj(src, fh, _CHUNK)
            yield tmp
        finally:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass


_KINDS = (  # (test, the catalogue's cli.notrecord.<kind>)
    (stat.S_ISFIFO, "fifo"),
    (stat.S_ISCHR, "chardev"),
    (stat.S_ISBLK, "blockdev"),
    (stat.S_ISSOCK, "socket"),
    (stat.S_ISDIR, "directory"),
)
#: each kind's English (``strerror``); said in the user's language by its kind
_NOT_RECORD_ENGLISH = {
    "fifo": "a named pipe (FIFO), not a record file",
    "chardev": "a character device, not a record file",
    "blockdev": "a block device, not a record file",
    "socket": "a socket, not a record file",
    "directory": "a directory, not a record file",
    "other": "not a regular file, not a record file",
}


class NotARecordFile(OSError):
    """:func:`open_file`'s refusal of a file that is not a regular one: ``kind`` names
    its words (``cli.notrecord.<kind>``), ``strerror`` is their English."""

    def __init__(self, kind: str, path: str | os.PathLike[str]) -> None:
        super().__init__(errno.EINVAL, _NOT_RECORD_ENGLISH[kind], os.fspath(path))
        self.kind = kind

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.kind, self.filename))


def open_file(path: str | os.PathLike[str]) -> IO[bytes]:
    """Open ``path`` for reading, a regular file only: a FIFO, a device, a socket or a
    directory is refused (an ``OSError`` whose ``strerror`` says which) without ever
    blocking on it (issue 27 row 8).  Every reader of a record file opens it here."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotARecordFile(next((kind for test, kind in _KINDS if test(mode)), "other"), path)
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


class _Chained(io.RawIOBase):
    """``head`` then the rest of ``rest``, read as it comes (standard input after its probe)."""

    def __init__(self, head: bytes, rest: IO[bytes]) -> None:
        self._head = memoryview(head)
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self._head:
            n = min(len(buffer), len(self._head))
            buffer[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        data = self._rest.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


class _CrLines(io.RawIOBase):
    """A file of old Mac line endings (CR only) given with LF (issue 27 row 15)."""

    def __init__(self, raw: IO[bytes]) -> None:
        self._raw = raw

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._raw.read(len(buffer)).replace(b"\r", b"\n")
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        self._raw.close()
        super().close()


def _cr_only(head: bytes) -> bool:
    return b"\r" in head and b"\n" not in head


class _Recoded(io.RawIOBase):
    """A UTF-16/UTF-32 stream given as UTF-8 bytes, decoded chunk by chunk."""

    def __init__(self, raw: IO[bytes], codec: str, skip: int) -> None:
        raw.read(skip)  # the byte-order mark
        self._raw = raw
        self._dec = codecs.getincrementaldecoder(codec)(errors="replace")
        self._out = b""
        self._eof = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self._out and not self._eof:
            chunk = self._raw.read(_CHUNK)
            self._eof = not chunk
            self._out = self._dec.decode(chunk, final=self._eof).encode("utf-8")
        n = min(len(buffer), len(self._out))
        buffer[:n] = self._out[:n]
        self._out = self._out[n:]
        return n

    def close(self) -> None:
        self._raw.close()
        super().close()


_STRAY = re.compile("[\udc80-\udcff]")  # bytes that are not UTF-8, as surrogateescape gives them


def _refusal(head: bytes) -> tuple[str, str, dict[str, object]] | None:
    """Why ``head`` (the start of a file, BOM removed) is not text (the English, its
    code and fields for the catalogue), or None."""
    if not head.strip():
        return "empty file (no record in it)", "empty", {}
    controls = len(head) - len(head.translate(None, _CONTROL_BYTES))
    if controls > max(8, len(head) // 50):
        return (
            f"binary file ({controls} control bytes in the first {len(head)} bytes), not a record",
            "controls",
            {"controls": controls, "size": len(head)},
        )
    dec = codecs.getincrementaldecoder("utf-8")()
    try:
        dec.decode(head, final=False)
    except UnicodeDecodeError as e:
        high = len(head) - len(head.translate(None, bytes(range(0x80, 0x100))))
        # UTF-8 with a few stray bytes (a Latin-1 letter pasted into a Cyrillic file) is
        # read game by game, the game holding them as Latin-1 (issue 27 row 11)
        stray = len(_STRAY.findall(head.decode("utf-8", "surrogateescape")))
        if high * 4 > len(head) and stray * 50 > high:  # legacy 8-bit text has a few accented letters, not this
            return f"invalid UTF-8 (byte {e.start}) and not Latin-1 text either", "not-text", {"byte": e.start}
    return None


def _check(name: str, head: bytes, nul: bool) -> None:
    if nul:
        raise InputError.of("binary", name)
    why = _refusal(head)
    if why:
        raise InputError.of(why[1], name, **why[2])


def _bom_of(head: bytes) -> tuple[bytes, str, str] | None:
    for bom, codec, label in _BOMS:
        if head.startswith(bom):
            return bom, codec, label
    return None


def _read_head(src: IO[bytes]) -> bytes:
    """Up to ``_PROBE`` bytes of a pipe (which gives them a few at a time)."""
    parts: list[bytes] = []
    got = 0
    while got < _PROBE:
        chunk = src.read(_PROBE - got)
        if not chunk:
            break
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def _decoded_head(name: str, head: bytes, bom: tuple[bytes, str, str], final: bool) -> bytes:
    dec = codecs.getincrementaldecoder(bom[1])()
    try:
        return dec.decode(head[len(bom[0]) :], final=final).encode("utf-8")
    except UnicodeDecodeError as e:
        at = e.start + len(bom[0])
        raise InputError.of("bad-encoding", name, label=bom[2], byte=at) from None


def open_input(name: str, *, stdin: IO[bytes] | None = None) -> Input:
    """Check the FILE argument ``name`` (a path, or ``-`` for standard input).

    :raises InputError: missing, a directory, a FIFO or a device, unreadable, empty,
        binary (see the module docstring); the message is one line, ``"FILE: reason"``.
    """
    if name == STDIN:
        src = stdin if stdin is not None else sys.stdin.buffer
        label = "<stdin>"
        head = _read_head(src)
        bom = _bom_of(head)
        if bom is not None:
            text = _decoded_head(label, head, bom, len(head) < _PROBE)
            _check(label, text[:_PROBE], b"\0" in text)
            joined = io.BufferedReader(_Chained(head, src), _CHUNK)
            codec, skip = bom[1], len(bom[0])
            return Input(label, opener=lambda: io.BufferedReader(_Recoded(joined, codec, skip), _CHUNK))
        _check(label, head, b"\0" in head)  # a NUL further on is the reader's error, game by game
        if _cr_only(head):
            return Input(
                label, opener=lambda: io.BufferedReader(_CrLines(io.BufferedReader(_Chained(head, src))), _CHUNK)
            )
        return Input(label, opener=lambda: io.BufferedReader(_Chained(head, src), _CHUNK))
    p = Path(name)
    if p.is_dir():
        raise InputError.of("directory", name)
    if not p.exists():
        raise InputError.of("missing", name)
    try:
        with open_file(p) as fh:
            head = fh.read(_PROBE)
            bom = _bom_of(head)
            if bom is not None:
                _, codec, label = bom
                dec = codecs.getincrementaldecoder(codec)()
                fh.seek(len(bom[0]))
                first = b""
                nul = False
                while True:  # the whole file decoded once, chunk by chunk, nothing kept
                    chunk = fh.read(_CHUNK)
                    try:
                        text = dec.decode(chunk, final=not chunk).encode("utf-8")
                    except UnicodeDecodeError as e:
                        at = fh.tell() - len(chunk) + e.start
                        raise InputError.of("bad-encoding", name, label=label, byte=at) from None
                    if len(first) < _PROBE:
                        first += text[: _PROBE - len(first)]
                    nul = nul or b"\0" in text
                    if not chunk:
                        break
                _check(name, first, nul)
                path = os.fspath(p)
                return Input(
                    name, opener=lambda: io.BufferedReader(_Recoded(open_file(path), codec, len(bom[0])), _CHUNK)
                )
            nul = b"\0" in head
            while not nul:
                chunk = fh.read(_CHUNK)
                if not chunk:
                    break
                nul = b"\0" in chunk
    except OSError as e:
        raise InputError.of("cannot-read", name, reason=OSReason.of(e)) from None
    _check(name, head, nul)
    if _cr_only(head):
        path = os.fspath(p)
        return Input(name, opener=lambda: io.BufferedReader(_CrLines(open_file(path)), _CHUNK))
    return Input(name, os.fspath(p), None)


class OutputError(_WithReason, OSError):
    """An output that could not be written: words as data (:class:`trictrac.words.Said`,
    ``cli.output.said``: the OUTPUT and why, the why ``cli.output.<code>`` and its
    fields), an ``OSError`` all the same; ``str(e)`` is ``"OUTPUT: reason"`` (English: it
    names the file written, never the input; the CLI exits 2 and nothing is left
    half-written), :meth:`say` says it in another language.  Made by :meth:`of`."""

    def __init__(self, key: str, /, *, where: tuple[str, int] | None = None, **fields: object) -> None:
        Said.__init__(self, key, where=where, **fields)
        errno_ = fields.get("errno", 0)
        OSError.__init__(self, errno_ if isinstance(errno_, int) else 0, self.why("en"))
        self.output = str(fields.get("output", ""))
        self.filename = self.output

    __eq__ = OSError.__eq__  # an error is itself, as every exception
    __hash__ = OSError.__hash__

    @classmethod
    def of(cls, output: str | os.PathLike[str], code: str, errno_: int = 0, **fields: object) -> OutputError:
        return cls(
            "cli.output.said",
            output=os.fspath(output),
            why=Said(f"cli.output.{code}", where=None, **fields),
            errno=errno_,
        )

    def __str__(self) -> str:
        return self.say("en")

    @property
    def code(self) -> str:
        return self._why.key.removeprefix("cli.output.")

    @property
    def reason(self) -> Said:
        """The reason alone, as data (``cli.output.<code>`` and its fields)."""
        return self._why

    @classmethod
    def cannot_write(cls, output: str | os.PathLike[str], e: OSError) -> OutputError:
        """``OUTPUT: cannot write: <the system's reason>``."""
        return cls.of(output, "cannot-write", e.errno or 0, reason=OSReason.of(e))


def _umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


def _default_mode() -> int:
    """0o666 less the umask: the mode of a new file, set explicitly (``mkstemp`` gives 0600)."""
    return 0o666 & ~_umask()


def _folder_mode() -> int:
    return 0o777 & ~_umask()


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _stale(name: str, stem: str) -> bool:
    """``name`` is a temporary ``.<stem>.<pid>.…`` of a process that is gone (a SIGKILL)."""
    if not name.startswith(f".{stem}."):
        return False
    pid = name[len(stem) + 2 :].split(".", 1)[0].split("-", 1)[0]
    return pid.isdigit() and int(pid) != os.getpid() and not _pid_alive(int(pid))


def sweep_stale(directory: str | os.PathLike[str], stem: str) -> int:
    """Remove the temporaries of ``stem`` left in ``directory`` by a killed run (their
    process is gone); the number removed.  Temporaries are named ``.<stem>.<pid>.…``."""
    import shutil

    removed = 0
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return 0
    for entry in entries:
        if _stale(entry.name, stem):
            try:
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path)
                else:
                    os.unlink(entry.path)
                removed += 1
            except OSError:
                pass
    return removed


def _final_target(path: str | os.PathLike[str]) -> Path:
    """The file a write to ``path`` replaces: a symbolic link named by the user is
    followed (``fmt --write link.trn`` rewrites the file it points to, as ``>`` would)."""
    target = Path(path)
    if target.is_symlink():
        return Path(os.path.realpath(target))
    return target


def atomic_writer(path: str | os.PathLike[str], encoding: str = "utf-8") -> AbstractContextManager[TextIO]:
    """A text handle whose content replaces ``path`` whole when the block ends without
    an exception (temporary file, fsync, rename); on an exception nothing is changed.
    For output too large to hold in memory (``selfplay -o``)."""
    return _replacing(path, "w", encoding)


@contextmanager
def _replacing(path: str | os.PathLike[str], mode: str, encoding: str | None = None) -> Iterator[Any]:
    """The file handle of a temporary file beside ``path``, flushed to disk and renamed
    over ``path`` when the block ends normally, removed when it raises.  A failure of
    the write is an :class:`OutputError` naming ``path``."""
    named = os.fspath(path)
    target = _final_target(path)
    directory = target.parent if str(target.parent) else Path(".")
    import tempfile

    sweep_stale(directory, target.name)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=directory)
    except OSError as e:
        raise OutputError.cannot_write(named, e) from None
    try:
        with os.fdopen(fd, mode, encoding=encoding, newline="" if encoding else None) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        _set_mode(tmp, target)
        os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(e, OSError) and not isinstance(e, OutputError):
            raise OutputError.cannot_write(named, e) from None
        raise


def _set_mode(tmp: str, target: Path) -> None:
    """The temporary file takes the target's mode (the file it replaces, never through a
    link: ``target`` is already the final file), or the umask's default for a new file."""
    if target.exists() and not target.is_symlink():
        os.chmod(tmp, target.stat().st_mode & 0o7777)
    else:
        os.chmod(tmp, _default_mode())


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (temporary file, fsync, rename)."""
    with _replacing(path, "wb") as handle:
        handle.write(data)


def atomic_write_text(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` whole or not at all (see :func:`atomic_write_bytes`)."""
    atomic_write_bytes(path, text.encode(encoding))


def write_inside(root: str | os.PathLike[str], relative: str, text: str) -> Path:
    """Write ``text`` to ``root/relative`` whole or not at all, never through a symbolic
    link below ``root`` (a linked folder or file there is refused: :class:`OutputError`),
    with the default mode; ``root`` itself may be a link the user made."""
    base = Path(root)
    rel = Path(relative)
    if rel.is_absolute() or ".." in rel.parts or not rel.parts:
        raise OutputError.of(base / rel, "outside")
    at = base
    for part in rel.parts:
        at = at / part
        if at.is_symlink():
            raise OutputError.of(at, "symlink")
    at.parent.mkdir(parents=True, exist_ok=True)
    tmp = at.with_name(f".{at.name}.{os.getpid()}.tmp")
    _write_new(tmp, text.encode("utf-8"), at)
    try:
        os.replace(tmp, at)
    except OSError as e:
        os.unlink(tmp)
        raise OutputError.cannot_write(at, e) from None
    return at


def _write_new(path: Path, data: bytes, named: Path, *, sync: bool = True) -> None:
    """Create ``path`` (never an existing file or a link), write ``data``, set the mode;
    a failure removes it and is an :class:`OutputError` naming ``named``."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, 0o600)
    except OSError as e:
        raise OutputError.cannot_write(named, e) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if sync:
                os.fsync(fh.fileno())
            os.fchmod(fh.fileno(), _default_mode())
    except OSError as e:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        raise OutputError.cannot_write(named, e) from None


class OutputTree:
    """A folder of output built aside and put in place whole (:func:`output_tree`)."""

    def __init__(self, final: Path, build: Path) -> None:
        self.final = final
        self.build = build
        self.written: list[str] = []
        self._dirs: set[str] = set()

    def write_text(self, relative: str, text: str) -> Path:
        """Write ``relative`` (a path inside the tree, e.g. ``joueurs/x.html``); the
        path it will have once in place is returned."""
        rel = Path(relative)
        if rel.is_absolute() or ".." in rel.parts or not rel.parts or rel.as_posix() in self.written:
            raise OutputError.of(self.final / rel, "not-new")
        parent = rel.parent.as_posix()
        if parent != "." and parent not in self._dirs:
            d = self.build
            for part in rel.parent.parts:
                d = d / part
                try:
                    d.mkdir()
                    os.chmod(d, _folder_mode())
                except FileExistsError:
                    pass
                except OSError as e:
                    raise OutputError.cannot_write(self.final / rel.parent, e) from None
            self._dirs.add(parent)
        _write_new(self.build / rel, text.encode("utf-8"), self.final / rel, sync=False)
        self.written.append(rel.as_posix())
        return self.final / rel


#: the list of the files a tree holds, written in it: the next build knows which entries
#: of the old folder were its own (replaced) and which were put there by someone else (kept)
TREE_MANIFEST = "published-files.txt"


@contextmanager
def output_tree(out_dir: str | os.PathLike[str], *, ours: Callable[[str], bool] | None = None) -> Iterator[OutputTree]:
    """Build a folder of output (a site, a set of sheets) in a temporary folder beside
    ``out_dir`` and swap it into place whole when the block ends normally, so a reader
    sees the old folder or the new one, never a mix (issue 27 rows 4-6):

    * nothing is written through a link (the tree is new; a link the old folder held is
      not followed); ``out_dir`` itself may be a link the user made (its target is built);
    * modes are set explicitly: files 0666, folders 0777, less the umask;
    * the entries of the old folder that the new one does not hold are kept when they
      are not the old tree's own (listed in its manifest, or ``ours(name)`` for a tree
      written before manifests);
    * on an exception the temporary folder is removed and the old one is untouched; the
      temporaries a killed run left (``.<name>.<pid>.build``) are removed at the next run.
    """
    import shutil
    import tempfile

    final = Path(os.path.realpath(out_dir)) if Path(out_dir).is_symlink() else Path(os.path.abspath(out_dir))
    parent = final.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OutputError.of(out_dir, "cannot-create-folder", e.errno or 0, reason=OSReason.of(e)) from None
    sweep_stale(parent, final.name)
    try:
        build = Path(tempfile.mkdtemp(prefix=f".{final.name}.{os.getpid()}.", suffix=".build", dir=parent))
        os.chmod(build, _folder_mode())
    except OSError as e:
        raise OutputError.of(out_dir, "cannot-build-beside", e.errno or 0, reason=OSReason.of(e)) from None
    tree = OutputTree(final, build)
    try:
        yield tree
        _write_new(build / TREE_MANIFEST, "".join(f"{w}\n" for w in tree.written).encode(), final / TREE_MANIFEST)
        if final.is_dir():
            _keep_foreign(final, build, ours)
        os.sync()  # the new tree on disk before it replaces the old one (one call, not one per file)
        _swap(build, final)
    except BaseException as e:
        shutil.rmtree(build, ignore_errors=True)
        if isinstance(e, OSError) and not isinstance(e, OutputError):
            raise OutputError.cannot_write(out_dir, e) from None
        raise


def _keep_foreign(old: Path, new: Path, ours: Callable[[str], bool] | None) -> None:
    """Move into ``new`` the entries of ``old`` the old tree did not write itself."""
    try:
        listed = {line.split("/", 1)[0] for line in (old / TREE_MANIFEST).read_text(encoding="utf-8").splitlines()}
        had_manifest = True
    except (OSError, UnicodeDecodeError):
        listed, had_manifest = set(), False
    for entry in os.scandir(old):
        name = entry.name
        if name == TREE_MANIFEST or name in listed or (new / name).exists() or (new / name).is_symlink():
            continue
        if not had_manifest and ours is not None and ours(name):
            continue
        if name.startswith(".") and name.endswith((".tmp", ".build", ".old")):
            continue  # a temporary of an earlier run (killed): never carried over
        os.rename(entry.path, new / name)


def _swap(build: Path, final: Path) -> None:
    """Put ``build`` at ``final``: one atomic exchange where the system has one
    (Linux ``renameat2``), else two renames; the old folder is then removed."""
    import shutil

    if not final.exists() and not final.is_symlink():
        os.rename(build, final)
        return
    if not final.is_dir() or final.is_symlink():
        raise OutputError.of(final, "not-a-folder")
    if _exchange(build, final):
        shutil.rmtree(build, ignore_errors=True)  # build now holds the old tree
        return
    old = final.with_name(f".{final.name}.{os.getpid()}.old")
    os.rename(final, old)
    os.rename(build, final)
    shutil.rmtree(old, ignore_errors=True)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically (Linux renameat2 RENAME_EXCHANGE); False when unavailable."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    rc = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange)
    return bool(rc == 0)


# C0 controls but tab and newline, DEL, C1 controls, and the bidi overrides and isolates
# (U+202A-U+202E, U+2066-U+2069) that can reorder what a reader sees.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_safe(text: str) -> str:
    """``text`` with every control character written as an escape (``\\x1b``, ``\\u202e``)."""
    if text.isprintable():  # every character _UNSAFE matches is a Cc or Cf, never printable
        return text
    return _UNSAFE.sub(_escape, text)
