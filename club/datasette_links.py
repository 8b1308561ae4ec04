"""A Datasette plugin for club databases: a link to a game from another table (a coup, a
finding, a mark…) goes to the game's page.

The other tables name a game by its hash (``game_id`` → ``games.id``), but the key of
``games`` is its readable ``label`` (schema version 4, so that Datasette shows it first),
and Datasette builds such a link from the hash: ``/club/games/<hash>``, a page that does
not exist.  This plugin makes it ``/club/games/<label>``.  It acts only on a column
whose foreign key names ``games`` in a database whose ``games`` is keyed by ``label``.

``trictrac db datasette club.db`` copies this file to ``club.plugins/`` beside the
metadata; ``datasette club.db -m club.metadata.json --plugins-dir club.plugins``.
"""

from __future__ import annotations

from typing import Any

from datasette import hookimpl
from datasette.utils import tilde_encode
from markupsafe import Markup, escape


@hookimpl
def render_cell(value: Any, column: str, table: str | None, database: str, datasette: Any) -> Any:
    if table is None or not isinstance(value, dict) or not value.get("label"):
        return None  # not a foreign key Datasette labelled

    async def game_link() -> Any:
        db = datasette.get_database(database)
        if await db.primary_keys("games") != ["label"]:
            return None
        fks = await db.foreign_keys_for_table(table)
        if not any(fk["column"] == column and fk["other_table"] == "games" for fk in fks):
            return None
        href = datasette.urls.row(database, "games", tilde_encode(str(value["label"])))
        return Markup(f'<a href="{escape(href)}">{escape(value["label"])}</a>')

    return game_link
