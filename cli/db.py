"""``trictrac db``: the club's game database (wiring only; the work is in ``trictrac.club``).

``db import`` ↔ ``club.db.import_records``; ``games`` ↔ ``club.queries.list_games``;
``players`` ↔ ``list_players`` / ``player_results`` / ``head_to_head``; ``show`` ↔
``game_detail``; ``stats`` ↔ ``club_stats``; ``search`` ↔ ``search``; ``ecoles`` ↔
``ecoles``; ``bredouilles`` ↔ ``bredouille_marques``; ``h2h`` ↔ ``head_to_head``;
``reverify`` ↔ ``club.db.reverify``.
"""

from __future__ import annotations

import io
import json
import os
import sqlite3
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from ..club.db import SEARCH_KINDS, DatabaseMissing, GameNotFound, _connect_readonly, delete_game, game_history, open_db
from ..club.importer import import_records, reverify
from ..club.report import ImportReport, ImportStep
from ..club.words import SqliteReason
from ..notation.names import lookalikes, oddities, one_line
from ..notation.textio import terminal_safe
from ..words import Words, words
from .common import (
    BadInput,
    command_words,
    echo_json,
    input_paths,
    jobs_option,
    json_option,
    lang_option,
    os_reason,
    profile_option,
)
from .helptext import Group


@click.group("db", cls=Group)
def db() -> None:
    """The club's game database (a SQLite file, browsable with Datasette).

    \b
    Examples:
      trictrac db import club.db archive/*.trn
      trictrac db games club.db --player "Dupont" --season 2024
      trictrac db players club.db --player "Dupont"
      trictrac db show club.db 3fa2c1
      trictrac db stats club.db --json
      trictrac db search club.db "grande bredouille"
      trictrac db ecoles club.db --player Dupont
      trictrac db h2h club.db Dupont Martin
      datasette club.db
    """


def _open(path: str) -> Any:
    # Every query command only reads: read-only, nothing written beside the file (issue 18).
    try:
        return open_db(path, create=False, readonly=True)
    except DatabaseMissing as e:
        raise BadInput(e.say(command_words())) from None
    except sqlite3.DatabaseError as e:  # a file that is not SQLite
        W = command_words()
        raise BadInput(W("cli.db.not_sqlite", path=path, error=SqliteReason(e).say(W))) from None


def _season(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--season`` of the form ``standings`` takes (``2024``, ``2024-2025``): another is
    refused (one line, exit 2) rather than listing nothing."""
    from .standings import selection_of  # here: ``db import`` does without the queries' modules

    return None if value is None else selection_of(value, None, None).season


def _query(path: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    from ..club.queries import DamagedDatabase, PlayerNotFound
    from ..club.standings import GameSelection, SelectionError

    database = _open(path)
    try:
        if kwargs.get("season") is not None:  # a season of the other rule than this club's
            GameSelection(kwargs["season"]).check_season_rule(database)
        return fn(database, *args, **kwargs)
    except SelectionError as e:
        W = command_words()
        raise BadInput(W("club.err.in_db", path=path, why=e.say(W))) from None
    except (PlayerNotFound, GameNotFound, DamagedDatabase) as e:
        W = command_words()
        raise BadInput(
            W("club.err.in_db", path=path, why=e.say(W)) if isinstance(e, DamagedDatabase) else e.say(W)
        ) from None
    except sqlite3.DatabaseError as e:  # e.g. a file made by another program, without our views
        W = command_words()
        raise BadInput(W("cli.db.not_club", path=path, error=SqliteReason(e).say(W))) from None
    finally:
        database.close()


read_query = _query  # for the other commands that read a club database (``standings``)


def _table(rows: Sequence[dict[str, Any]], columns: Sequence[str] | None = None, lang: Words | None = None) -> None:
    """Print rows as an aligned text table, its headings in ``lang`` (``dbcli.col.<column>``;
    a column the catalogue does not name keeps its name, as JSON and CSV do)."""
    W = lang or _lang()
    if not rows:
        click.echo(W("dbcli.none"))
        return
    cols = list(columns or rows[0].keys())
    heads = [W.get(f"dbcli.col.{c}", c) for c in cols]
    cells = [["" if r.get(c) is None else one_line(_cell(c, r.get(c), W)) for c in cols] for r in rows]
    width = [max(len(h), *(len(row[i]) for row in cells)) for i, h in enumerate(heads)]
    click.echo("  ".join(h.ljust(w) for h, w in zip(heads, width)).rstrip())
    click.echo("  ".join("-" * w for w in width))
    for row in cells:
        click.echo("  ".join(v.ljust(w) for v, w in zip(row, width)).rstrip())


def _cell(column: str, value: object, W: Words) -> str:
    """A table's cell; a hit's kind (``db search``: player, comment, finding, ecole) in the
    reader's words (``dbcli.kind.<kind>``), as JSON and CSV keep the value."""
    text = str(value)
    return W.get(f"dbcli.kind.{text}", text) if column == "kind" else text


def _lang() -> Words:
    """The ``--lang`` of the running command (its locale's language without one)."""
    from ..words import lang_from_env

    ctx = click.get_current_context(silent=True)
    lang = ctx.params.get("lang") if ctx is not None else None
    return lang if isinstance(lang, Words) else words(lang_from_env())


def _csv(rows: Sequence[dict[str, Any]], columns: Sequence[str] | None = None) -> None:
    import csv  # here: ``db import`` does without it (each module loaded costs it, issue 30)

    buf = io.StringIO()
    cols = list(columns or (rows[0].keys() if rows else []))
    w = csv.DictWriter(buf, fieldnames=cols, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    click.echo(buf.getvalue(), nl=False)


def _output(rows: Sequence[dict[str, Any]], fmt: str, columns: Sequence[str] | None = None) -> None:
    if fmt == "json":
        echo_json(list(rows))
    elif fmt == "csv":
        _csv(rows, columns)
    else:
        _table(rows, columns)


def format_option(f: Callable[..., Any]) -> Callable[..., Any]:
    f = click.option("--csv", "fmt", flag_value="csv", help="Print CSV.")(f)
    f = click.option("--json", "fmt", flag_value="json", help="Print JSON.")(f)
    return click.option("--table", "fmt", flag_value="table", default=True, hidden=True)(f)


DB_PATH = click.argument("database", type=click.Path(dir_okay=False))


# --- import -----------------------------------------------------------------------------


def _remove_database(path: str) -> None:
    """A database file this command created, and its journal, removed (a full disk must
    not leave an empty database that later imports would take for a club's)."""
    for suffix in ("", "-journal", "-wal", "-shm"):
        try:
            os.unlink(path + suffix)
        except OSError:
            pass


@db.command("import")
@DB_PATH
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@profile_option
@click.option(
    "--season-start",
    type=click.IntRange(1, 12),
    default=1,
    show_default=True,
    help="Club season rule, set when the file is created: the month a season starts "
    "(1 = seasons are calendar years; 9 = September to August, named 2024-2025).",
)
@click.option(
    "--name",
    "stdin_name",
    default=None,
    metavar="NAME",
    help="The file name stored for the games read from standard input ('-'; default '-').",
)
@jobs_option
@json_option
@lang_option
def import_cmd(
    database: str,
    files: tuple[str, ...],
    profile: Any,
    season_start: int,
    stdin_name: str | None,
    jobs: int,
    as_json: bool,
    lang: Words,
) -> None:
    """Import record files (.trn) into DATABASE (created when missing).

    Each game is verified and stored with its players, marqués, relevés, coups,
    every mark and école, comments, findings and result, in its own transaction.
    A game already stored (same canonical text) is left unchanged.  Games that
    cannot be stored are listed at the end and in the import_failures table.

    \b
    Exit codes: 0 every game stored or already there, 1 some games failed,
    2 a file could not be read (or holds no game).

    \b
    Examples:
      trictrac db import club.db soirees-2024.trn
      trictrac db import club.db archive/*.trn --profile rigueur --json
      trictrac db import club.db big-archive.trn --jobs 4
      trictrac db import club.db new.trn --season-start 9
      ssh club cat soiree.trn | trictrac db import club.db - --name soiree.trn
    """
    given = files
    files = input_paths(files, pass_missing=True)  # the one input reader: '-', BOMs, junk refused (exit 2)
    # each game keeps the name of its file as given (a temporary copy's is not; stdin: --name or '-')
    names = {p: (stdin_name or "-") if f == "-" else f for f, p in zip(given, files) if p != f}
    bar = None
    progress = None
    if not as_json and sys.stderr.isatty():
        sizes = {names.get(f, f): (os.path.getsize(f) if os.path.isfile(f) else 0) for f in files}
        done = dict.fromkeys(sizes, 0)
        bar = click.progressbar(length=max(1, sum(sizes.values())), label=lang("dbcli.importing"), file=sys.stderr)
        bar.__enter__()

        def progress(step: ImportStep) -> None:
            new = min(max(step.offset, done[step.path]), sizes.get(step.path, 0))
            bar.update(new - done[step.path])
            done[step.path] = new

    created = not os.path.lexists(database)  # a database this import makes is removed if it fails
    try:
        report = import_records(
            database,
            files,
            profile=profile,
            progress=progress,
            season_start_month=season_start,
            jobs=jobs,
            names=names,
            lang=_stored_lang(lang),
        )
    except (sqlite3.DatabaseError, OSError) as e:
        if created:
            _remove_database(database)
        if isinstance(e, DatabaseMissing):  # also a DatabaseError (a schema too new): its own words
            why = e.say(lang)
        else:
            why = SqliteReason(e).say(lang) if isinstance(e, sqlite3.DatabaseError) else os_reason(e, lang)
        raise BadInput(
            lang("cli.db.cannot_write_created" if created else "cli.db.cannot_write", path=database, error=why)
        ) from None
    finally:
        if bar is not None:
            bar.update(bar.length or 0)  # steps report where a game starts: finish the last one
            bar.__exit__(None, None, None)
    if as_json:
        echo_json(report.as_dict())
    else:
        _print_report(report, names, lang)
    if report.imported:
        _warn_lookalikes(_player_names(database), lang)
    ctx = click.get_current_context()
    ctx.exit(2 if report.unreadable else 1 if report.failed else 0)


@db.command("reverify")
@DB_PATH
@profile_option
@click.option(
    "--all", "everything", is_flag=True, help="Re-verify every game, not only those verified by another engine version."
)
@json_option
@lang_option
def reverify_cmd(database: str, profile: Any, everything: bool, as_json: bool, lang: Words) -> None:
    """Verify stored games again (after an upgrade of the rules engine, or with --profile).

    Only games verified by another version of trictrac are re-verified, unless --all
    or --profile is given.  Each game's findings and results are replaced in one
    transaction.  Exit 1 if some games could not be re-verified.

    \b
    Examples:
      trictrac db reverify club.db
      trictrac db reverify club.db --all --profile rigueur --json
    """
    try:
        report = reverify(database, profile=profile, everything=everything, lang=_stored_lang(lang))
    except DatabaseMissing as e:
        raise BadInput(e.say(lang)) from None
    except sqlite3.DatabaseError as e:
        raise BadInput(lang("cli.db.cannot_use", path=database, error=SqliteReason(e).say(lang))) from None
    if as_json:
        echo_json(report.as_dict())
    else:
        click.echo(
            lang(
                "dbcli.reverify",
                games=lang.n("cli.games", report.read),
                done=lang.n("dbcli.reverified", report.imported),
                unchanged=lang.n("dbcli.up_to_date", report.unchanged),
                failed=lang.n("dbcli.failed", len(report.failures)),
                findings=lang.n("cli.findings", report.findings),
                seconds=lang.number(f"{report.seconds:.2f}"),
            )
        )
        for f in report.failures:
            click.echo(terminal_safe(f"  {f.render(lang)}"), err=True)
    click.get_current_context().exit(1 if report.failures else 0)


def _stored_lang(lang: Words) -> str:
    """The language of the words an import stores (``findings.message``…): ``--lang``, else
    the locale's, else French, the club's pages' and Datasette's default."""
    from click.core import ParameterSource

    from ..words import lang_from_env

    if click.get_current_context().get_parameter_source("lang") == ParameterSource.COMMANDLINE:
        return lang.lang
    return lang_from_env(default="fr")


def _player_names(path: str) -> list[str]:
    """The stored players' names, read through plain sqlite3 (no sqlite-utils to load after an import)."""
    conn = _connect_readonly(Path(path))
    try:
        return [n for (n,) in conn.execute("SELECT name FROM players")]
    finally:
        conn.close()


def _warn_lookalikes(names: Sequence[str], lang: Words | None = None) -> None:
    """One warning line (stderr) per group of player names that look alike (issue 27 row 7)."""
    W = lang or _lang()
    for group in lookalikes(names):
        odd = "; ".join(
            W(
                "names.odd.list",
                name=one_line(repr(n)),
                odd=", ".join(W(f"names.odd.{k}", code=c, like=like) for c, k, like in o),
            )
            for n in group
            if (o := oddities(n))
        )
        click.echo(
            W("dbcli.lookalikes", names=", ".join(one_line(repr(n)) for n in group), odd=f" ({odd})" if odd else ""),
            err=True,
        )


def _print_report(r: ImportReport, names: dict[str, str] | None = None, lang: Words | None = None) -> None:
    W = lang or _lang()
    rate = W("dbcli.rate", n=f"{r.read / r.seconds:.0f}") if r.seconds and r.read else ""
    for path, c in r.per_file.items():
        click.echo(
            terminal_safe(
                W(
                    "dbcli.import_file",
                    file=(names or {}).get(path, path),
                    added=W.n("dbcli.added", c["added"]),
                    replaced=W.n("dbcli.replaced", c["replaced"]),
                    unchanged=W.n("dbcli.unchanged", c["unchanged"]),
                    refused=W.n("dbcli.refused", c["refused"]),
                )
            )
        )
    click.echo(
        W(
            "dbcli.import_summary",
            read=W.n("dbcli.games_read", r.read),
            imported=W.n("dbcli.imported", r.imported),
            unchanged=W.n("dbcli.unchanged", r.unchanged),
            failed=W.n("dbcli.failed", r.failed),
            added=W.n("dbcli.added", r.added),
            replaced=W.n("dbcli.replaced", r.replaced),
            findings=W.n("dbcli.findings_stored", r.findings),
            seconds=W.number(f"{r.seconds:.2f}"),
            rate=rate,
        )
    )
    if r.failures:
        click.echo(W("dbcli.failures"), err=True)
        for f in r.failures:
            click.echo(terminal_safe("  " + W("dbcli.refused_game", what=f.render(W))), err=True)


@db.command("history")
@DB_PATH
@click.argument("game")
@format_option
@lang_option
def history_cmd(database: str, game: str, fmt: str, lang: Words) -> None:
    """Every version of GAME, oldest first: replaced and deleted ones and the current one.

    GAME is a game id (or a unique prefix, 4+ hex digits) of any version, its label, or
    its Game-Id.  A version's text is kept in the game_history table (column canonical).

    \b
    Examples:
      trictrac db history club.db 3fa2c1
      trictrac db history club.db "2024-03-15 Dupont – Martin, r. 3" --json
    """
    rows = _query(database, game_history, game)
    if fmt == "table":
        rows = [{**r, "game_id": r["game_id"][:12], "replaced_by": (r["replaced_by"] or "")[:12]} for r in rows]
    _output(rows, fmt)


@db.command("delete")
@DB_PATH
@click.argument("game")
@json_option
@lang_option
def delete_cmd(database: str, game: str, as_json: bool, lang: Words) -> None:
    """Remove GAME from the database (its text is kept in game_history).

    \b
    Examples:
      trictrac db delete club.db 3fa2c1
    """
    try:
        out = delete_game(database, game)
    except (DatabaseMissing, GameNotFound) as e:
        raise BadInput(e.say(lang)) from None
    except sqlite3.DatabaseError as e:
        raise BadInput(lang("cli.db.cannot_write", path=database, error=SqliteReason(e).say(lang))) from None
    if as_json:
        echo_json(out)
    else:
        click.echo(terminal_safe(lang("dbcli.deleted", label=out["label"], id=out["id"][:12])))


@db.command("datasette")
@DB_PATH
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    help="Where to write the metadata (default: NAME.metadata.json beside the database).",
)
@click.option("--club", help="The club's name, for the title.")
@click.option(
    "--lang",
    type=click.Choice(["fr", "en"]),
    default="fr",
    show_default=True,
    help="The language of the titles, descriptions and labels (the catalogue's club.ds.* words).",
)
def datasette_cmd(database: str, output: str | None, club: str | None, lang: str) -> None:
    """Write the Datasette metadata of DATABASE: titles, descriptions, column labels,
    readable game labels, search, and canned queries (standings, a player's games, the
    écoles of a game, the games with disputed scores); and beside it NAME.plugins/, a
    plugin that makes the links to a game from the other tables go to its page.

    \b
    Examples:
      trictrac db datasette club.db --club "Cercle de Rouen"
      trictrac db datasette club.db --lang en
      datasette club.db -m club.metadata.json --plugins-dir club.plugins
    """
    from ..club.datasette import plugins_path, write_metadata, write_plugins

    _open(database).close()  # a club database (and migrated when it is an older one)
    try:
        path = write_metadata(database, output, club, lang)
        plugins = write_plugins(database, path.parent / plugins_path(database).name)  # beside the metadata
    except OSError as e:
        W = command_words()  # the user's words (``--lang`` names the metadata's language)
        raise BadInput(W("cli.db.cannot_write_metadata", error=os_reason(e, W))) from None
    import shlex

    q = shlex.quote  # the hint is a command to paste: a path with spaces or quotes stays one word
    click.echo(
        terminal_safe(
            command_words()(
                "dbcli.datasette_wrote",
                path=path,
                command=f"datasette {q(database)} -m {q(str(path))} --plugins-dir {q(str(plugins))}",
            )
        )
    )


# --- queries --------------------------------------------------------------------------------


@db.command("games")
@DB_PATH
@click.option("--player", help="Only games of this player (name or unique prefix).")
@click.option("--season", callback=_season, help="Only games of this season (e.g. 2024, or 2024-2025).")
@click.option("--limit", type=click.IntRange(1), help="At most this many games.")
@format_option
@lang_option
def games_cmd(database: str, player: str | None, season: str | None, limit: int | None, fmt: str, lang: Words) -> None:
    """List stored games: date, season, players, holes, winner, findings, id.

    \b
    Examples:
      trictrac db games club.db
      trictrac db games club.db --player Dupont --season 2024 --csv > dupont.csv
    """
    from ..club import queries

    rows = _query(database, queries.list_games, player=player, season=season, limit=limit)
    cols = None if fmt != "table" else ["game", "season", "holes_a", "holes_b", "winner", "n_coups", "n_findings", "id"]
    if fmt == "table":
        rows = [{**r, "id": r["id"][:12]} for r in rows]
    _output(rows, fmt, cols)


@db.command("players")
@DB_PATH
@click.option("--player", help="Show this player's results and scores by season, and head-to-head.")
@click.option("--season", callback=_season, help="With --player: only this season.")
@format_option
@lang_option
def players_cmd(database: str, player: str | None, season: str | None, fmt: str, lang: Words) -> None:
    """List players with their record, or one player's results by season.

    Without --player: every player with games, wins, losses, unfinished games,
    marqués won and lost, écoles claimed and made.  With --player: his results
    and scores by season (holes for and against, marqués and their value) and
    his head-to-head record against each opponent.

    \b
    Examples:
      trictrac db players club.db
      trictrac db players club.db --player Dupont --json
      trictrac db players club.db --player Dupont --season 2024 --csv
    """
    from ..club import queries

    if player is None:
        rows = _query(database, queries.list_players)
        _warn_lookalikes([r["name"] for r in rows])
        _output(rows, fmt)
        return
    res, h2h = _query(
        database,
        lambda d, season: (
            queries.player_results(d, player, season=season),
            queries.head_to_head(d, player, season=season),
        ),
        season=season,  # given to _query: checked against the club's season rule
    )
    if fmt == "json":
        echo_json({**res, "head_to_head": h2h})
    elif fmt == "csv":
        _csv([{"player": res["player"], **s} for s in res["seasons"]])
    else:
        click.echo(lang("dbcli.by_season", player=one_line(res["player"])))
        _table(res["seasons"])
        click.echo("\n" + lang("dbcli.head_to_head"))
        _table(
            h2h,
            [
                "opponent",
                "games",
                "wins",
                "losses",
                "unfinished",
                "holes_for",
                "holes_against",
                "marques_won",
                "marques_lost",
                "won_in_bredouille",
            ],
        )


@db.command("h2h")
@lang_option
@DB_PATH
@click.argument("player")
@click.argument("opponent", required=False)
@click.option("--season", callback=_season, help="Only this season.")
@format_option
def h2h_cmd(database: str, player: str, opponent: str | None, season: str | None, fmt: str, lang: Words) -> None:
    """Head-to-head record of PLAYER against OPPONENT (or every opponent).

    \b
    Examples:
      trictrac db h2h club.db Dupont Martin
      trictrac db h2h club.db Dupont --season 2024 --json
    """
    from ..club import queries

    _output(_query(database, queries.head_to_head, player, opponent, season=season), fmt)


@db.command("ecoles")
@DB_PATH
@click.option("--player", help="Only écoles this player claimed or made.")
@click.option("--season", callback=_season, help="Only this season.")
@click.option("--list", "as_list", is_flag=True, help="List every école instead of the totals by player.")
@click.option("--found-by-verifier", is_flag=True, help="List the écoles the verifier found, unclaimed ones included.")
@format_option
@lang_option
def ecoles_cmd(
    database: str,
    player: str | None,
    season: str | None,
    as_list: bool,
    found_by_verifier: bool,
    fmt: str,
    lang: Words,
) -> None:
    """Who made and who claimed écoles, and the écoles the verifier found.

    \b
    Examples:
      trictrac db ecoles club.db
      trictrac db ecoles club.db --player Dupont --list --csv
      trictrac db ecoles club.db --found-by-verifier
    """
    from ..club import queries

    res = _query(database, queries.ecoles, player=player, season=season)
    res["found_by_verifier"] = [
        {**r, "message": _row_message(r["kind"], "X", {"X": r["made_by"]} if r["made_by"] else {}, r, lang)}
        for r in res["found_by_verifier"]
    ]
    if found_by_verifier:
        rows = res["found_by_verifier"]
        _output(
            rows, fmt, None if fmt != "table" else ["game", "coup", "kind", "made_by", "entitled", "marked", "message"]
        )
    elif fmt == "json":
        echo_json(res)
    elif as_list:
        rows = res["claimed"]
        _output([{k: v for k, v in r.items() if k != "game_id"} for r in rows] if fmt == "table" else rows, fmt)
    else:
        _output(res["by_player"], fmt)


@db.command("bredouilles")
@DB_PATH
@click.option("--player", help="Only marqués this player won.")
@click.option("--season", callback=_season, help="Only this season.")
@format_option
@lang_option
def bredouilles_cmd(database: str, player: str | None, season: str | None, fmt: str, lang: Words) -> None:
    """Marqués won in bredouille, petite or grande (parties à écrire).

    \b
    Examples:
      trictrac db bredouilles club.db
      trictrac db bredouilles club.db --player Dupont --season 2024 --json
    """
    from ..club import queries

    rows = _query(database, queries.bredouille_marques, player=player, season=season)
    if fmt == "table":  # the game by its label
        rows = [{k: v for k, v in r.items() if k != "game_id"} for r in rows]
    _output(rows, fmt)


@db.command("show")
@DB_PATH
@click.argument("game_id")
@json_option
@lang_option
def show_cmd(database: str, game_id: str, as_json: bool, lang: Words) -> None:
    """Show one game: header, players, results, findings and its canonical text.

    GAME_ID is the id printed by `db games`, any unique prefix of it (4+ hex digits),
    or the game's label (`2024-03-15 Dupont – Martin, r. 3`).

    \b
    Examples:
      trictrac db show club.db 3fa2c1
      trictrac db show club.db 3fa2c1 --json
    """
    from ..club import queries

    g = _query(database, queries.game_detail, game_id)
    if as_json:
        echo_json(g)
        return
    click.echo(lang("dbcli.show_game", id=g["id"]))
    for k, v in g["headers"].items():
        click.echo(terminal_safe(f"  {k}: {v}"))
    lines = f"{g['source_line']}-{g['source_end_line']}" if g.get("source_end_line") else f"{g['source_line']}"
    click.echo(
        terminal_safe(
            "  "
            + lang(
                "dbcli.show_facts",
                season=g["season"],
                profile=g["profile"],
                coups=g["n_coups"],
                findings=g["n_findings"],
                file=g["source_file"],
                lines=lines,
            )
        )
    )
    _table(g["results"])
    said, notes = _said(g, lang)
    for n in notes:
        click.echo(terminal_safe(lang("dbcli.note", note=n)))
    if g["findings"]:
        click.echo(lang("dbcli.show_findings"))
        for f, s in zip(g["findings"], said):
            where = f"{g['source_file']}:{f['line']}:{f['col']}" if g["source_file"] else f"{f['line']}:{f['col']}"
            tail = f" — {s.consequence}" if s.consequence else ""
            click.echo(terminal_safe(f"  {where}: {f['kind']}: {s.message}{tail} [{s.citation}]"))
    click.echo("")
    click.echo(terminal_safe(g["canonical"].rstrip("\n")))


def _row_message(kind: str, who: str | None, names: dict[str, str], r: dict[str, Any], W: Words) -> str:
    """The message of a stored finding row, said in ``W``'s language from its fields."""
    from ..replay.verifier.findings import Finding, say

    try:
        alts = tuple(json.loads(r["alternatives"] or "[]")) if isinstance(r.get("alternatives"), str) else ()
        f = Finding(
            kind, who=who, entitled=r.get("entitled"), marked=r.get("marked"), detail=r.get("detail"), alternatives=alts
        )
    except ValueError:  # a kind this version does not know: the stored words
        return str(r.get("message") or "")
    return say(f, W, names).message


def _reworded(d: Any, hits: list[dict[str, Any]], W: Words) -> list[dict[str, Any]]:
    """Search hits with each finding's message said in ``W``'s language (the index finds
    a finding by its words in either language; the hit says it in the user's)."""
    out = []
    for h in hits:
        if h["kind"] == "finding" and h.get("game_id"):
            kind = str(h["text"]).split(": ", 1)[0]
            cur = d.conn.execute(
                "SELECT f.who, f.entitled, f.marked, f.detail, f.alternatives, f.message FROM findings f "
                "JOIN games g ON g.id = f.game_id WHERE g.sha256 = ? AND f.kind = ? AND f.line IS ? AND f.coup IS ?",
                (h["game_id"], kind, h["line"], h["coup"]),
            )
            row = cur.fetchone()
            if row is not None:
                r = dict(zip([c[0] for c in cur.description], row))
                h = {**h, "text": f"{kind}: {_row_message(kind, r['who'], {}, r, W)}"}
        out.append(h)
    return out


def _said(g: dict[str, Any], W: Words) -> tuple[list[Any], list[str]]:
    """A stored game's findings (:class:`~trictrac.replay.verifier.findings.Said`) and notes in
    ``W``'s language: the game's text verified again as ``check`` verifies it, whose
    findings are the stored rows (same kind, coup and player in the same order); when
    they are not (another engine version), each row is said from its own fields and
    the notes are the stored ones."""
    from ..notation.reader import iter_records
    from ..replay.rules.profiles import find_profile
    from ..replay.verifier.findings import Finding, say
    from ..replay.verifier.verify import verify

    rows = g["findings"]
    try:
        parsed = list(iter_records(io.StringIO(g["source"] or ""), file=g["source_file"] or "-"))
        profile = find_profile(g["profile"]) if g.get("profile") else None
    except ValueError:
        parsed, profile = [], None
    if len(parsed) == 1:
        rep = verify(parsed[0].record, profile, diagnostics=parsed[0].diagnostics, recover=True)
        if [(f.kind, f.coup, f.who) for f in rep.findings] == [(r["kind"], r["coup"] or 0, r["who"]) for r in rows]:
            return [say(f, W) for f in rep.findings], [n.say(W) for n in rep.notes]
    said = [
        say(
            Finding(
                r["kind"],
                coup=r["coup"] or 0,
                who=r["who"],
                entitled=r["entitled"],
                marked=r["marked"],
                detail=r["detail"],
                alternatives=tuple(r["alternatives"] or ()),
            ),
            W,
        )
        for r in rows
    ]
    return said, [str(n) for n in g["notes"]]


@db.command("stats")
@DB_PATH
@profile_option
@click.option("--no-corpus", is_flag=True, help="Club counts only (skip the corpus statistics).")
@json_option
@lang_option
def stats_cmd(database: str, profile: Any, no_corpus: bool, as_json: bool, lang: Words) -> None:
    """Club statistics: counts of games, players, coups, marks, écoles, findings by kind,
    bredouille marqués, seasons; plus the corpus statistics of the stored games.

    \b
    Examples:
      trictrac db stats club.db
      trictrac db stats club.db --json --no-corpus
    """
    from ..club import queries

    res = _query(database, queries.club_stats, profile=profile, corpus=not no_corpus)
    if as_json:
        echo_json(res)
        return
    for k, v in res.items():
        if k in ("seasons", "findings_by_kind", "modes", "corpus"):
            continue
        click.echo(lang("dbcli.stat_line", name=lang.get(f"dbcli.stat.{k}", k.replace("_", " ")), value=v))
    from ..replay.verifier.findings import FINDING_KINDS, kind_name

    modes = ", ".join(f"{lang.get(f'cli.db.mode.{k}', k)} {v}" for k, v in res["modes"].items())
    click.echo(lang("dbcli.stat_modes", modes=modes))
    seasons = ", ".join(f"{s['season'] or lang('cli.db.no_season')} ({s['games']})" for s in res["seasons"])
    click.echo(lang("dbcli.stat_seasons", seasons=seasons))
    if res["findings_by_kind"]:
        click.echo(lang("dbcli.stat_by_kind"))
        for k, v in res["findings_by_kind"].items():
            name = kind_name(k, lang) if k in FINDING_KINDS else k
            click.echo(terminal_safe("  " + lang("cli.db.by_kind", name=name, n=v)))
    if res.get("corpus"):
        from ..replay.verifier.stats import format_stats

        click.echo(lang("dbcli.stat_corpus"))
        click.echo(format_stats(res["corpus"], lang))


@db.command("search")
@DB_PATH
@click.argument("text")
@click.option("--limit", type=click.IntRange(1), default=50, show_default=True, help="Hits per kind.")
@click.option(
    "--only",
    "kinds",
    multiple=True,
    type=click.Choice(SEARCH_KINDS),
    help="Only hits of this kind (repeat for several); default: every kind.",
)
@click.option(
    "--everywhere",
    is_flag=True,
    help="Every kind of hit: names, comments, findings, école reasons (the default now; kept for scripts).",
)
@format_option
@lang_option
def search_cmd(
    database: str, text: str, limit: int, kinds: tuple[str, ...], everywhere: bool, fmt: str, lang: Words
) -> None:
    """Full-text search in player names, comments, the verifier's findings (message and
    detail) and the reasons written with écoles; accents ignored, word prefixes match,
    every word must match.  Each hit says its kind, its text, and its game (label), coup
    and line.

    \b
    Examples:
      trictrac db search club.db dupont
      trictrac db search club.db "ecole par trop" --json
      trictrac db search club.db "marked" --only finding --only ecole
    """
    from ..club import queries

    rows = _query(database, lambda d: _reworded(d, queries.search(d, text, limit=limit, kinds=kinds or None), lang))
    if fmt == "table":
        rows = [{k: v for k, v in r.items() if k != "game_id"} for r in rows]
    _output(rows, fmt)
