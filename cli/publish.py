"""``trictrac publish``: static HTML pages of annotated games (wiring to
``trictrac.publish.site.publish_files``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from ..publish.i18n import LANGS
from ..publish.site import PublishError, publish_files
from .common import BadInput, echo_json, input_paths, json_option, profile_option
from .standings import selection_of, selection_options


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


def _club_games(db_path: str, selection: Any, files: tuple[str, ...]) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The standings of the selected games of the club database and, without FILE, those
    games written to a temporary file to publish (removed when the command ends)."""
    import tempfile

    from ..club.standings import compute_standings, selected_games, standing_games
    from .standings import read_selection

    standings, chosen = read_selection(
        db_path,
        selection,
        lambda db: (compute_standings(standing_games(db, selection)), [] if files else selected_games(db, selection)),
    )
    if files:
        return files, standings
    span = selection.describe()
    if not chosen:
        raise BadInput(f"{db_path}: no game to publish{' (' + span + ')' if span else ''}")
    tmp = tempfile.TemporaryDirectory(prefix="trictrac-publish-")
    click.get_current_context().call_on_close(tmp.cleanup)
    stem = Path(db_path).stem + (f"-{selection.season}" if selection.season else "")
    target = Path(tmp.name) / f"{stem}.trn"
    target.write_text("".join(text.rstrip("\n") + "\n\n" for _, _, text in chosen), encoding="utf-8")
    return (str(target),), standings


@click.command("publish")
@click.argument("files", nargs=-1, type=click.Path(allow_dash=True))
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
    help="Rank the club's games of this database on standings.html (default: the games published); "
    "without FILE, publish its games too.",
)
@click.option(
    "--analyse",
    "analyse_play",
    is_flag=True,
    help="Add the play analysis to each game's page (docs/analysis.md; about half a minute a partie).",
)
@selection_options
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
    analyse_play: bool,
    season: str | None,
    date_from: str | None,
    date_to: str | None,
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

    With --db and no FILE the games published are the database's; --season, --from
    and --to (as in `trictrac standings`) choose them, for one season's site, and
    the standings are of the same games.

    \b
    Examples:
      trictrac publish fixtures/records/*.trn -o site/
      trictrac publish club-2025.trn -o www --club "Cercle de Lyon" --db club.db
      trictrac publish --db club.db --season 2024 -o www/2024 --club "Cercle de Lyon"
      trictrac publish club-2025.trn -o www/games --profile rigueur --lang en --json

    Exit codes: 0 published (whatever the games' findings; games that could not
    be verified are published unverified and listed), 2 unreadable input, an
    output path that is not a directory, a season or date of the wrong form, or no
    game selected.
    """
    selection = selection_of(season, date_from, date_to)
    if not selection.everything and (db_path is None or files):
        raise BadInput("--season, --from and --to choose the games of --db CLUB.db: give it and no FILE")
    if db_path is None and not files:
        raise BadInput("nothing to publish: give FILE… or --db CLUB.db")
    files = input_paths(files)  # junk refused before anything is written (exit 2)
    standings = None
    if db_path is not None:  # a bad database is refused before anything is written (exit 2)
        files, standings = _club_games(db_path, selection, files)
    show_bar = sys.stderr.isatty() and not as_json
    opts: dict[str, Any] = {
        "lang": lang,
        "club": club,
        "title": title,
        "standings_href": standings_href,
        "standings": standings,
    }
    if analyse_play:  # issue 29
        opts["analyse"] = True
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
