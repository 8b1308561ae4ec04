"""``trictrac standings``: the club's standings from its database (wiring only; the work
is :func:`trictrac.club.standings.compute_standings` on :func:`standing_games`).

:func:`selection_options` and :func:`read_selection` are the ``--season``/``--from``/``--to``
options, shared with ``trictrac publish --db`` (one meaning, :class:`GameSelection`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from ..words import Words
from .common import BadInput, command_words, echo_json, json_option, lang_option
from .helptext import Command

if TYPE_CHECKING:  # the club modules load sqlite-utils: imported when a command runs
    from ..club.standings import GameSelection


def selection_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--season``, ``--from``, ``--to`` (see :class:`GameSelection`)."""
    f = click.option("--to", "date_to", help="To this date (YYYY[-MM[-DD]], included).")(f)
    f = click.option("--from", "date_from", help="From this date (YYYY[-MM[-DD]], included).")(f)
    return click.option("--season", help="Only this season (e.g. 2024, or 2024-2025 when seasons start in autumn).")(f)


def selection_of(season: str | None, date_from: str | None, date_to: str | None) -> GameSelection:
    """The selection of the options; a bad form is one line and exit 2."""
    from ..club.standings import GameSelection, SelectionError

    try:
        return GameSelection(season, date_from, date_to)
    except SelectionError as e:
        raise BadInput(e.say(command_words())) from None


def read_selection(database: str, selection: GameSelection, read: Callable[[Any], Any]) -> Any:
    """``read(db)`` on the club database, a season of the wrong form for this club refused (exit 2)."""
    from ..club.standings import SelectionError
    from .db import read_query

    def checked(db: Any) -> Any:
        try:
            selection.check_season_rule(db)
        except SelectionError as e:
            W = command_words()
            raise BadInput(W("club.err.in_db", path=database, why=e.say(W))) from None
        return read(db)

    return read_query(database, checked)


@click.command("standings", cls=Command)
@click.argument("database", type=click.Path(dir_okay=False))
@selection_options
@json_option
@lang_option
def standings(
    database: str, season: str | None, date_from: str | None, date_to: str | None, as_json: bool, lang: Words
) -> None:
    """Standings of the club from DATABASE: per player, games, wins, holes, marqués won
    and their value, écoles made and claimed, and a crosstable; one table for the
    parties en douze trous, one for the parties à écrire.  Read-only.

    Exit codes: 0 printed (no game selected included), 2 a missing or unreadable
    database, or a season or date of the wrong form.

    \b
    Examples:
      trictrac standings club.db --season 2024
      trictrac standings club.db --from 2024-09 --to 2025-06 --json
      trictrac standings club.db --lang fr
    """
    from ..club.standings import compute_standings, format_standings, standing_games
    from ..notation.textio import terminal_safe

    sel = selection_of(season, date_from, date_to)
    st = read_selection(database, sel, lambda db: compute_standings(standing_games(db, sel)))
    st["filter"] = sel.as_dict()
    if as_json:
        echo_json(st)
        return
    title = f"{lang('standings_title')} {sel.describe(lang)}".strip()
    click.echo(terminal_safe(format_standings(st, title, lang)))
