"""Players' names as keys: one normaliser, and names that only look alike (pure text).

A name written in a record is a key wherever players are counted (the club database's
``players``, standings, the published player pages, a game's identity): two spellings a
reader cannot tell apart must not make two players, so every key goes through
:func:`player_name` (Unicode NFC, spaces trimmed, runs of white space made one space).
Names that stay distinct but *look* the same — a Cyrillic ``о`` for a Latin ``o``, a
fullwidth ``Ｄ``, a zero-width space, another case — are not merged (they may be two
people); :func:`lookalikes` finds them so that the club is told (issue 27 row 7), after a
*skeleton* in the spirit of Unicode TR39 (a small built-in table of the common look-alikes,
not the whole confusables file).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

__all__ = ["player_name", "skeleton", "lookalikes", "oddities", "describe_oddities", "one_line"]

_SPACES = re.compile(r"\s+")


def player_name(text: str) -> str:
    """The key of a player's name: NFC, trimmed, internal white space collapsed to one space
    (``"Lefe\\u0300vre "`` → ``"Lefèvre"``).  Letters and case are kept as written."""
    # a club's few hundred names are read for every game: kept (issue 30), but only names of
    # a name's length, so that a hostile file's long tags cannot fill the memory
    return _known_name(text) if len(text) <= 80 else _player_name(text)


def _player_name(text: str) -> str:
    return _SPACES.sub(" ", unicodedata.normalize("NFC", text)).strip()


_known_name = lru_cache(maxsize=4096)(_player_name)


# Common look-alikes of Latin letters (Cyrillic, Greek, Latin variants): a subset of TR39's
# confusables, the letters names are forged or mistyped with.
_CONFUSABLES = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "е": "e", "ё": "ë", "і": "i", "ї": "ï", "ј": "j", "к": "k", "м": "m",
        "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "ԁ": "d",
        "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l",
        "А": "A", "В": "B", "Е": "E", "Ё": "Ë", "І": "I", "Ї": "Ï", "Ј": "J", "К": "K", "М": "M",
        "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "У": "Y", "Х": "X", "Ѕ": "S", "Ԁ": "D",
        "Ԛ": "Q", "Ԝ": "W", "Һ": "H", "Ӏ": "I",
        # Greek
        "α": "a", "ο": "o", "ν": "v", "ι": "i", "κ": "k", "ρ": "p", "τ": "t", "υ": "u", "χ": "x",
        "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
        "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
        # Latin variants and digits read as letters
        "ı": "i", "ŀ": "l", "ℓ": "l", "0": "O", "1": "l", "|": "l",
    }
)  # fmt: skip


def _invisible(ch: str) -> bool:
    # format characters (zero-width space, joiners, bidi marks, soft hyphen) and other invisibles
    return unicodedata.category(ch) in ("Cf", "Cc")


def skeleton(name: str) -> str:
    """What ``name`` looks like: compatibility forms folded (NFKC: fullwidth ``Ｄ`` → ``D``),
    invisible characters dropped, common Cyrillic and Greek look-alikes mapped to Latin
    letters, case folded.  Two names with one skeleton look alike."""
    text = unicodedata.normalize("NFKC", player_name(name))
    text = "".join(ch for ch in text if not _invisible(ch)).translate(_CONFUSABLES)
    return _SPACES.sub(" ", text).strip().casefold()


def lookalikes(names: Iterable[str]) -> list[list[str]]:
    """The groups (two names or more, sorted) of distinct names that look alike (one
    :func:`skeleton`), in the order of their first name."""
    groups: dict[str, set[str]] = {}
    for n in names:
        groups.setdefault(skeleton(n), set()).add(n)
    return sorted((sorted(g) for g in groups.values() if len(g) > 1), key=lambda g: g[0])


#: the kinds of character :func:`oddities` tells apart (the catalogue's ``names.odd.<kind>``)
ODDITY_KINDS = ("invisible", "cyrillic", "greek", "fullwidth", "other")


def oddities(name: str) -> list[tuple[str, str, str]]:
    """The characters of ``name`` that are not what they seem, as data for the caller to
    word in its language: ``(code, kind, looks like)`` each, e.g. ``("U+043E", "cyrillic",
    "o")`` or ``("U+200B", "invisible", "")`` (``kind``: one of :data:`ODDITY_KINDS`)."""
    odd = []
    for ch in dict.fromkeys(name):
        if ord(ch) < 128:
            continue
        folded = unicodedata.normalize("NFKC", ch).translate(_CONFUSABLES)
        code = f"U+{ord(ch):04X}"
        if _invisible(ch):
            odd.append((code, "invisible", ""))
        elif folded != ch and folded.isascii():
            script = unicodedata.name(ch, "").split(" ")[0].lower()
            odd.append((code, script if script in ODDITY_KINDS else "other", folded))
    return odd


def describe_oddities(name: str) -> str:
    """The characters of ``name`` that are not what they seem, named (``U+043E CYRILLIC SMALL
    LETTER O``, Unicode's own names), or ``""``: for a log; a user is told :func:`oddities` in
    words of the catalogue."""
    odd = []
    for ch in dict.fromkeys(name):
        if ord(ch) < 128:
            continue
        folded = unicodedata.normalize("NFKC", ch).translate(_CONFUSABLES)
        if _invisible(ch) or folded != ch and folded.isascii():
            odd.append(f"U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed')}")
    return ", ".join(odd)


_BREAKS = str.maketrans({"\n": "\\n", "\r": "\\r", "\t": "\\t"})


def one_line(text: str) -> str:
    """``text`` as one cell of a printed table: every control character escaped as the
    terminal output escapes them (``textio.terminal_safe``), line breaks and tabs too, so that a
    name cannot forge lines or columns of a table (issue 27 row 14)."""
    from .textio import terminal_safe

    return terminal_safe(text.translate(_BREAKS))
