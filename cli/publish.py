"""``trictrac publish``: static HTML pages of annotated games (wiring to
``trictrac.publish.site.publish_files``)."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..publish.i18n import LANGS
from ..publish.site import PublishError, publish_files
from .common import BadInput, echo_json, input_paths, json_option, profile_option


def _count_games(files: tuple[str, ...]) -> int:
    """Games in the files, by the reader's fast index (for the progress bar)."""
    from ..notation.reader import index_records

    total = 0
    for f in files:
        try:
            total += len(index_records(f))
        except OSError:
            pass
    return max(total, 1)


@click.command("publish")
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option(
    "-o",
    "--output",
    "out_dir",
    required=True,
    type=click.Path(file_okay=False),
    help="Directory to write index.html and the game pages into (created if needed).",
)
@click.option(
    "--lang",
    type=click.Choice(LANGS),
    default="fr",
    show_default=True,
    help="Language of the pages (the game's French words by default).",
)
@click.option("--club", default=None, help="The club's name, at the head of the index.")
@click.option("--title", default=None, help='The index\'s title (default: "Parties de trictrac").')
@click.option(
    "--standings-href",
    default=None,
    metavar="URL",
    help="Link the index to this standings page instead of the site's own standings.html.",
)
@click.option(
    "--db",
    "db_path",
    default=None,
    type=click.Path(dir_okay=False),
    metavar="CLUB.db",
    help="Rank the club's games of this database on standings.html (default: the games published).",
)
@profile_option
@json_option
def publish(
    files: tuple[str, ...],
    out_dir: str,
    lang: str,
    club: str | None,
    title: str | None,
    standings_href: str | None,
    db_path: str | None,
    profile: object,
    as_json: bool,
) -> None:
    """Publish the games of FILE… as static HTML: the club's index, a page per
    player, and per game a page with the header, the findings, the board after
    every coup (from either player's side, with the dice), the coups by relevé, a
    chart of points and holes and the feuille de marque (the part that prints, one
    sheet a page); and standings.html, the standings of the games published (of
    the club database with --db), one printed sheet per kind of partie.  See
    docs/publishing.md.

    \b
    Examples:
      trictrac publish fixtures/records/*.trn -o site/
      trictrac publish club-2025.trn -o www --club "Cercle de Lyon" --db club.db
      trictrac publish club-2025.trn -o www/games --profile rigueur --lang en --json

    Exit codes: 0 published (whatever the games' findings; games that could not
    be verified are published unverified and listed), 2 unreadable input or an
    output path that is not a directory.
    """
    files = input_paths(files)  # junk refused before anything is written (exit 2)
    standings = None
    if db_path is not None:  # a bad database is refused before anything is written (exit 2)
        from ..club.standings import compute_standings, standing_games
        from .db import read_query

        standings = read_query(db_path, lambda db: compute_standings(standing_games(db)))
    show_bar = sys.stderr.isatty() and not as_json
    opts: dict[str, Any] = {
        "lang": lang,
        "club": club,
        "title": title,
        "standings_href": standings_href,
        "standings": standings,
    }
    try:
        if show_bar:
            shown: Any = click.progressbar(
                length=_count_games(files),
                label="Publishing",
                file=sys.stderr,
                item_show_func=lambda n: f"game {n}" if n else "",
            )
            with shown as bar:
                rep = publish_files(files, out_dir, profile=profile, on_game=lambda n: bar.update(1, n), **opts)
        else:
            rep = publish_files(files, out_dir, profile=profile, **opts)
    except PublishError as e:
        raise BadInput(str(e)) from None
    if as_json:
        echo_json(rep.as_dict())
    else:
        rate = f", {len(rep.pages) / rep.seconds:.1f} pages/s" if rep.seconds else ""
        click.echo(
            f"{len(rep.pages)} page{'s' if len(rep.pages) != 1 else ''} written to {rep.index}{rate}; "
            f"{rep.findings} finding{'s' if rep.findings != 1 else ''}"
        )
        for f, g, m in rep.failures:
            click.echo(f"{f}: game {g + 1}: not verified: {m}", err=True)
        for d in rep.diagnostics:
            if d.severity == "error":
                click.echo(d.render(), err=True)
    for f, m in rep.unreadable:
        click.echo(f"Error: {f}: {m}", err=True)
    if rep.unreadable:
        sys.exit(2)
