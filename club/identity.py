"""A game's identity and readable name, from its header tags (pure functions).

A corrected record must replace the version stored before it (issue 15), so a game
is known by who played it, where and when, not by its text: :func:`game_id` is the
value of a ``GameId`` tag or a hash of the identifying tags (``notation.identity``, where
``trictrac fmt --add-id`` finds the value it adds), and :func:`game_key` the key the club
database stores in ``games.game_key``.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..notation.identity import ID_TAGS, IDENTITY_TAGS, game_id

__all__ = ["IDENTITY_TAGS", "ID_TAGS", "game_id", "game_key", "game_label"]


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
