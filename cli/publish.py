"""``trictrac publish``: static HTML pages of annotated games (wiring to
``trictrac.publish.site.publish_files``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from ..publish.i18n import LANGS
from ..publish.site import PublishError, publish_files
from .common import (
    BadInput,
    command_words,
    echo_json,
    input_paths,
    json_option,
    name_option,
    profile_option,
    said_diagnostic,
    stdin_names,
)
from .helptext import Command
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

    from ..club.standings import compute_standings, selected_sources, standing_games
    from .standings import read_selection

    standings, chosen = read_selection(
        db_path,
        selection,
        lambda db: (compute_standings(standing_games(db, selection)), [] if files else selected_sources(db, selection)),
    )
    if files:
        return files, standings
    span = selection.describe()
    if not chosen:
        W = command_words()
        raise BadInput(W("cli.publish.no-game", path=db_path) + (f" ({selection.describe(W)})" if span else ""))
    tmp = tempfile.TemporaryDirectory(prefix="trictrac-publish-")
    click.get_current_context().call_on_close(tmp.cleanup)
    stem = Path(db_path).stem + (f"-{selection.season}" if selection.season else "")
    return tuple(str(p) for p in _as_their_files(Path(tmp.name), chosen, f"{stem}.trn")), standings


def _as_their_files(tmp: Path, chosen: list[tuple[Any, ...]], default: str) -> list[Path]:
    """The games of the database written back as the files they were read from: each under its
    file's name (``default`` when unknown), on its own lines (blank lines before it), so that the
    pages cite the secretary's file and line numbers; games whose lines overlap (two versions of
    a file) go to another file of the same name."""
    files: dict[tuple[str | None, int], list[str]] = {}
    ends: dict[tuple[str | None, int], int] = {}  # lines written so far in each file
    for _, _, text, source_file, line in sorted(chosen, key=lambda c: (c[3] or "", c[4] or 0)):
        body = text.rstrip("\n") + "\n"
        n = 0
        while line is not None and ends.get((source_file, n), 0) >= line:
            n += 1  # its lines are taken (another version of the file): a file of the same name
        key = (source_file, n)
        written = ends.get(key, 0)
        first = line if line is not None and line > written else written + 2
        files.setdefault(key, []).append("\n" * (first - written - 1) + body)
        ends[key] = first + body.count("\n") - 1
    out = []
    for k, ((source_file, _), parts) in enumerate(files.items()):
        name = Path(source_file).name if source_file and source_file != "-" else default
        if source_file == "-":
            name = "stdin.trn"
        target = tmp / str(k) / name
        target.parent.mkdir()
        target.write_text("".join(parts), encoding="utf-8")
        out.append(target)
    return out


@click.command("publish", cls=Command)
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
@name_option
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
    stdin_name: str | None,
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
        raise BadInput(command_words()("cli.publish.selection-needs-db"))
    if db_path is None and not files:
        raise BadInput(command_words()("cli.publish.nothing"))
    given = files
    files = input_paths(files)  # junk refused before anything is written (exit 2)
    names = stdin_names(given, files, stdin_name)  # standard input's name, not its temporary copy's
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
        "names": names,
    }
    if analyse_play:  # issue 29
        opts["analyse"] = True
    W = command_words()
    try:
        if show_bar:
            shown: Any = click.progressbar(
                length=_count_games(files),
                label=W("w6.pub.progress"),
                file=sys.stderr,
                item_show_func=lambda n: W("w6.pub.game", n=n) if n else "",
            )
            with shown as bar:
                rep = publish_files(files, out_dir, profile=profile, on_game=lambda n: bar.update(1, n), **opts)
        else:
            rep = publish_files(files, out_dir, profile=profile, **opts)
    except PublishError as e:
        raise BadInput(e.say(command_words().lang)) from None
    if as_json:
        echo_json(rep.as_dict())
    else:
        rate = W("w6.pub.rate", rate=W.number(f"{len(rep.pages) / rep.seconds:.1f}")) if rep.seconds else ""
        click.echo(
            W(
                "w6.pub.summary",
                files=W.n("w6.pub.files", len(rep.files)),
                out=rep.out_dir,
                pages=W.n("w6.pub.pages", len(rep.pages)),
                index=rep.index,
                rate=rate,
                findings=W.n("cli.findings", rep.findings),
            )
        )
        for i, (f, g, _m) in enumerate(rep.failures):
            click.echo(W("w6.pub.not_verified", file=f, game=g + 1, why=rep.say_failure(i, W)), err=True)
        for d in rep.diagnostics:
            if d.severity == "error":
                click.echo(said_diagnostic(d, d.file or "-", W), err=True)
    for i, (f, _m) in enumerate(rep.unreadable):
        click.echo(
            W("dbcli.input.error", message=W("dbcli.input.said", name=f, why=rep.say_unreadable(i, W))), err=True
        )
    if rep.unreadable:
        sys.exit(2)
