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
import io
import os
import re
import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TextIO

__all__ = [
    "STDIN",
    "Input",
    "InputError",
    "atomic_write_bytes",
    "atomic_write_text",
    "atomic_writer",
    "open_input",
    "terminal_safe",
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


class InputError(ValueError):
    """A FILE argument that holds no readable record: ``str(e)`` is ``"FILE: reason"``."""


@dataclass(frozen=True)
class Input:
    """A FILE argument that passed :func:`open_input`.

    ``path`` is set when the reader may open the file itself (streaming, ``--jobs``);
    ``data`` holds the bytes (UTF-8, or the file's own 8-bit text) when they had to be
    read first: standard input, or a UTF-16/UTF-32 file decoded."""

    name: str
    path: str | None = None
    data: bytes | None = None

    def stream(self) -> IO[bytes]:
        """The bytes to read, for ``notation.reader.iter_records``."""
        if self.data is not None:
            return io.BytesIO(self.data)
        assert self.path is not None
        return open(self.path, "rb")

    @contextmanager
    def as_path(self) -> Iterator[str]:
        """A real file holding the input, for APIs that take paths (a temporary copy
        for standard input or a decoded UTF-16 file, removed afterwards)."""
        if self.data is None and self.path is not None:
            yield self.path
            return
        import tempfile  # only for standard input and atomic writes: not on check's start

        fd, tmp = tempfile.mkstemp(prefix="trictrac-input-", suffix=".trn")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(self.data or b"")
            yield tmp
        finally:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass


def _refusal(head: bytes) -> str | None:
    """Why ``head`` (the start of a file, BOM removed) is not text, or None."""
    if not head.strip():
        return "empty file (no record in it)"
    controls = len(head) - len(head.translate(None, _CONTROL_BYTES))
    if controls > max(8, len(head) // 50):
        return f"binary file ({controls} control bytes in the first {len(head)} bytes), not a record"
    dec = codecs.getincrementaldecoder("utf-8")()
    try:
        dec.decode(head, final=False)
    except UnicodeDecodeError as e:
        high = len(head) - len(head.translate(None, bytes(range(0x80, 0x100))))
        if high * 4 > len(head):  # legacy 8-bit text has a few accented letters, not this
            return f"invalid UTF-8 (byte {e.start}) and not Latin-1 text either"
    return None


def _check(name: str, head: bytes, nul: bool) -> None:
    if nul:
        raise InputError(f"{name}: NUL bytes: a binary file (or UTF-16 without a byte-order mark), not a record")
    why = _refusal(head)
    if why:
        raise InputError(f"{name}: {why}")


def _decode_bom(name: str, data: bytes) -> bytes | None:
    """``data`` re-encoded as UTF-8 when it starts with a UTF-16/32 mark, else None."""
    for bom, codec, label in _BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom) :].decode(codec).encode("utf-8")
            except UnicodeDecodeError as e:
                raise InputError(f"{name}: invalid {label} (byte {e.start + len(bom)})") from None
    return None


def open_input(name: str, *, stdin: IO[bytes] | None = None) -> Input:
    """Check the FILE argument ``name`` (a path, or ``-`` for standard input).

    :raises InputError: missing, a directory, unreadable, empty, binary (see the module
        docstring); the message is one line, ``"FILE: reason"``.
    """
    if name == STDIN:
        src = stdin if stdin is not None else sys.stdin.buffer
        data = src.read()
        label = "<stdin>"
        decoded = _decode_bom(label, data)
        if decoded is not None:
            data = decoded
        _check(label, data[:_PROBE], b"\0" in data)
        return Input(label, None, data)
    p = Path(name)
    if p.is_dir():
        raise InputError(f"{name}: a directory, not a record file")
    if not p.exists():
        raise InputError(f"{name}: cannot read: no such file")
    try:
        with open(p, "rb") as fh:
            head = fh.read(_PROBE)
            if head[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE) or head[:4] == codecs.BOM_UTF32_BE:
                data = _decode_bom(name, head + fh.read())
                if data is not None:
                    _check(name, data[:_PROBE], b"\0" in data)
                    return Input(name, None, data)
            nul = b"\0" in head
            while not nul:
                chunk = fh.read(_CHUNK)
                if not chunk:
                    break
                nul = b"\0" in chunk
    except OSError as e:
        raise InputError(f"{name}: cannot read: {e.strerror or e}") from None
    _check(name, head, nul)
    return Input(name, os.fspath(p), None)


def atomic_writer(path: str | os.PathLike[str], encoding: str = "utf-8") -> AbstractContextManager[TextIO]:
    """A text handle whose content replaces ``path`` whole when the block ends without
    an exception (temporary file, fsync, rename); on an exception nothing is changed.
    For output too large to hold in memory (``selfplay -o``)."""
    return _replacing(path, "w", encoding)


@contextmanager
def _replacing(path: str | os.PathLike[str], mode: str, encoding: str | None = None) -> Iterator[Any]:
    """The file handle of a temporary file beside ``path``, flushed to disk and renamed
    over ``path`` when the block ends normally, removed when it raises."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    import tempfile

    fd, tmp = tempfile.mkstemp(prefix="." + target.name + ".", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, mode, encoding=encoding, newline="" if encoding else None) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        _set_mode(tmp, target)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def _set_mode(tmp: str, target: Path) -> None:
    """The temporary file takes the target's mode, or the umask's default for a new file."""
    if target.exists():
        os.chmod(tmp, target.stat().st_mode & 0o7777)
    else:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (temporary file, fsync, rename)."""
    with _replacing(path, "wb") as handle:
        handle.write(data)


def atomic_write_text(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` whole or not at all (see :func:`atomic_write_bytes`)."""
    atomic_write_bytes(path, text.encode(encoding))


# C0 controls but tab and newline, DEL, C1 controls, and the bidi overrides and isolates
# (U+202A-U+202E, U+2066-U+2069) that can reorder what a reader sees.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_safe(text: str) -> str:
    """``text`` with every control character written as an escape (``\\x1b``, ``\\u202e``)."""
    return _UNSAFE.sub(_escape, text)
