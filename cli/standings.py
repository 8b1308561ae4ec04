"""``trictrac standings``: the club's standings from its database (wiring only; the work
is :func:`trictrac.club.standings.compute_standings` on :func:`standing_games`)."""

from __future__ import annotations

import re

import click

from ..club.standings import compute_standings, format_standings, standing_games
from ..notation.textio import terminal_safe
from .common import echo_json, json_option
from .db import read_query

_DATE = re.compile(r"\d{4}(-\d{2}(-\d{2})?)?")


def _date(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None and not _DATE.fullmatch(value):
        raise click.BadParameter(f"{value!r} is not a date YYYY, YYYY-MM or YYYY-MM-DD")
    return value


@click.command("standings")
@click.argument("database", type=click.Path(dir_okay=False))
@click.option("--season", help="Only this season (e.g. 2024, or 2024-2025).")
@click.option("--from", "date_from", callback=_date, help="From this date (YYYY[-MM[-DD]], included).")
@click.option("--to", "date_to", callback=_date, help="To this date (YYYY[-MM[-DD]], included).")
@json_option
def standings(database: str, season: str | None, date_from: str | None, date_to: str | None, as_json: bool) -> None:
    """Standings of the club from DATABASE: per player, games, wins, holes, marqués won
    and their value, écoles made and claimed, and a crosstable; one table for the
    parties en douze trous, one for the parties à écrire.  Read-only.

    \b
    Examples:
      trictrac standings club.db --season 2024
      trictrac standings club.db --from 2024-09 --to 2025-06 --json
    """
    st = read_query(
        database, lambda db: compute_standings(standing_games(db, season=season, date_from=date_from, date_to=date_to))
    )
    st["filter"] = {"season": season, "from": date_from, "to": date_to}
    if as_json:
        echo_json(st)
        return
    span = f"saison {season}" if season else ""
    if date_from or date_to:
        span += f" du {date_from or '…'} au {date_to or '…'}"
    click.echo(terminal_safe(format_standings(st, f"Classement {span}".strip())))
