"""A game's identity and readable name, from its header tags (pure functions).

A corrected record must replace the version stored before it (issue 15), so a game
is known by who played it, where and when, not by its text: :func:`game_id` is the
value of a ``Game-Id`` tag (the writer adds it when missing, from the same tags), and
:func:`game_key` the key the club database stores in ``games.game_key``.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Mapping

__all__ = ["IDENTITY_TAGS", "ID_TAGS", "game_id", "game_key", "game_label"]

# The explicit identity tag, as spelt in issue 15 and as the reader accepts it today
# (its tag names are letters, digits and "_": ``Game-Id`` is refused, ``GameId`` read).
ID_TAGS = ("Game-Id", "GameId", "Game_Id")
# The tags that say which game a record is: the same game has the same values.
IDENTITY_TAGS = ("Event", "Date", "Round", "A", "B", "C", "D")


def _norm(text: str) -> str:
    # Case, accents' composition and spacing do not make another game.
    return re.sub(r"\s+", " ", unicodedata.normalize("NFC", text)).strip().casefold()


def game_id(headers: Mapping[str, str]) -> str | None:
    """The game's identity as a ``Game-Id`` tag value.

    An explicit ``Game-Id`` tag wins (kept as written, spaces trimmed); otherwise 16 hex
    digits of the SHA-256 of Event, Date, Round and the players, once both players and
    a Date or a Round are written; None when the tags cannot tell two games apart."""
    explicit = next((v.strip() for t in ID_TAGS if (v := headers.get(t) or "").strip()), "")
    if explicit:
        return explicit
    vals = {t: _norm(headers.get(t) or "") for t in IDENTITY_TAGS}
    if not (vals["A"] and vals["B"] and (vals["Date"].strip("?.-/ ") or vals["Round"])):
        return None
    text = "\x1f".join(vals[t] for t in IDENTITY_TAGS)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def game_key(headers: Mapping[str, str], content_id: str) -> str:
    """The key of ``games.game_key``: ``tag:`` + :func:`game_id`, or ``text:`` + the content
    id when the tags do not identify the game (such a game is only ever unchanged or added)."""
    gid = game_id(headers)
    return f"tag:{gid}" if gid is not None else f"text:{content_id}"


def game_label(headers: Mapping[str, str], date_iso: str | None) -> str:
    """A readable name: ``2024-03-15 Dupont – Martin, r. 3`` (Event when there is no Round)."""
    players = " – ".join(n.strip() for n in (headers.get(s, "") for s in ("A", "B", "C", "D")) if n.strip())
    out = f"{date_iso or (headers.get('Date') or '?').strip()} {players or '?'}"
    rnd = (headers.get("Round") or "").strip()
    if rnd:
        out += f", r. {rnd}"
    elif (headers.get("Event") or "").strip():
        out += f", {headers['Event'].strip()}"
    return out
