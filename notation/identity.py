"""A game's identity from its header tags (pure functions, no database).

A corrected record must replace the version a club stored before it (issue 15), so a
game is known by who played it, where and when, not by its text: :func:`game_id` is the
value of its ``GameId`` tag, or a hash of the tags that say which game it is.
:func:`add_game_id` writes that value into a record that has no such tag
(``trictrac fmt --add-id``), so that later corrections of the event, date, round or
players still name the same game.  The club database keys games by it
(``club.identity.game_key``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, MutableMapping

from .names import player_name

__all__ = ["GAME_ID_TAG", "IDENTITY_TAGS", "ID_TAGS", "add_game_id", "game_id"]

# The tag added: the reader's tag names are letters, digits and "_", so issue 15's
# ``Game-Id`` is spelt ``GameId``; the other spellings are read as the same tag.
GAME_ID_TAG = "GameId"
ID_TAGS = ("Game-Id", GAME_ID_TAG, "Game_Id")
# The tags that say which game a record is: the same game has the same values.
IDENTITY_TAGS = ("Event", "Date", "Round", "A", "B", "C", "D")


def _norm(text: str) -> str:
    # Case, accents' composition and spacing do not make another game.
    return player_name(text).casefold()


def explicit_game_id(headers: Mapping[str, str]) -> str | None:
    """The value of the record's own identity tag (spaces trimmed), if it has one."""
    return next((v.strip() for t in ID_TAGS if (v := headers.get(t) or "").strip()), None)


def game_id(headers: Mapping[str, str]) -> str | None:
    """The game's identity as a ``GameId`` tag value.

    An explicit identity tag wins (kept as written, spaces trimmed); otherwise 16 hex
    digits of the SHA-256 of Event, Date, Round and the players, once both players and
    a Date or a Round are written; None when the tags cannot tell two games apart."""
    explicit = explicit_game_id(headers)
    if explicit:
        return explicit
    vals = {t: _norm(headers.get(t) or "") for t in IDENTITY_TAGS}
    if not (vals["A"] and vals["B"] and (vals["Date"].strip("?.-/ ") or vals["Round"])):
        return None
    text = "\x1f".join(vals[t] for t in IDENTITY_TAGS)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def add_game_id(headers: MutableMapping[str, str]) -> str | None:
    """Write ``GameId`` into ``headers`` when they have no identity tag and their tags
    identify the game; return the value added (None: nothing added)."""
    if explicit_game_id(headers):
        return None
    value = game_id(headers)
    if value is not None:
        headers[GAME_ID_TAG] = value
    return value
