"""Escaping for the string-built pages (the pages are templates, not lxml trees:
building a tree per page cost more than the verification).

Every text that comes from a record goes through :func:`esc` (element text and
quoted attribute values alike): ``& < > " '`` become references, and characters
no HTML or XML document may hold (NUL, C0/C1 controls but tab and newline,
lone surrogates, U+FFFE/U+FFFF) are dropped; a text with bidi controls (U+202A-U+202E,
U+2066-U+2069) is closed and isolated (FSI ... PDI), so it cannot reorder what follows.  Links from outside the program go
through :func:`safe_href` (relative links and http(s) only: no ``javascript:``).
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["esc", "clean", "safe_href", "json_for_script"]

_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_ESC = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})
_SAFE = re.compile(r"[^&<>\"'\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff\u202a-\u202e\u2066-\u2069]*")
_EMBEDS = re.compile("[\u202a-\u202e]")  # LRE RLE PDF LRO RLO: closed by PDF (U+202C)
_ISOLATES = re.compile("[\u2066-\u2069]")  # LRI RLI FSI PDI: closed by PDI (U+2069)


def _isolated(s: str) -> str:
    """A text holding bidi controls, closed and isolated (FSI … PDI): an override in a
    player's name cannot reorder the page around it (issue 27 row 15)."""
    if not (_EMBEDS.search(s) or _ISOLATES.search(s)):
        return s
    embeds = sum(1 for c in _EMBEDS.findall(s) if c != "\u202c") - s.count("\u202c")
    isolates = sum(1 for c in _ISOLATES.findall(s) if c != "\u2069") - s.count("\u2069")
    return "\u2068" + s + "\u202c" * max(0, embeds) + "\u2069" * max(0, isolates) + "\u2069"


def clean(text: str) -> str:
    """The text without the characters a document cannot hold."""
    return _BAD.sub("", text)


def esc(text: Any) -> str:
    """Text for element content or a double-quoted attribute value."""
    s = text if text.__class__ is str else str(text)
    if _SAFE.fullmatch(s):  # the common case: nothing to do
        return s
    return _isolated(_BAD.sub("", s).translate(_ESC))


_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def safe_href(url: str) -> str | None:
    """An escaped link target, or None for a scheme other than http(s) (after
    dropping the controls and spaces a browser ignores in a scheme)."""
    u = re.sub(r"[\x00-\x20\x7f-\x9f]", "", url)
    if _SCHEME.match(u) and not u.lower().startswith(("http:", "https:")):
        return None
    return esc(u)


def json_for_script(data: Any) -> str:
    """JSON for a ``<script type="application/json">``: no ``<``, ``>`` or ``&`` so
    that no ``</script>`` can end it."""
    return (
        json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )
