"""Files and terminals: writing whole files only, and text that cannot drive a terminal.

Every file a command writes goes through :func:`atomic_write_text` or
:func:`atomic_write_bytes`: the data goes to a temporary file in the target's directory,
is flushed to disk, then renamed over the target, so a failure or a kill leaves either the
old file or the new one, never half of one (issue 18).

:func:`terminal_safe` escapes the control characters a record may carry (ESC, BEL, NUL,
bidi overrides...) before they reach a terminal, so a player's name cannot clear the screen
or retitle the window of whoever checks the file.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

__all__ = ["atomic_write_bytes", "atomic_write_text", "terminal_safe"]


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (temporary file, fsync, rename)."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix="." + target.name + ".", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


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
