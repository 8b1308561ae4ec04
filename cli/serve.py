"""``trictrac serve CLUB.db``: the club evening in a browser (wiring to ``trictrac.serve``;
docs/serve.md)."""

from __future__ import annotations

import click

from ..words import Said
from .common import BadInput, command_words, os_refusal
from .helptext import Command


@click.command("serve", cls=Command)
@click.argument("database", type=click.Path(dir_okay=False))
@click.option(
    "--host", default="127.0.0.1", show_default=True, help="Address to listen on (beyond this machine: a password)."
)
@click.option("--port", default=8000, show_default=True, type=int, help="Port to listen on.")
@click.option(
    "--password",
    envvar="TRICTRAC_SERVE_PASSWORD",
    default=None,
    help="The club password (asked for when --host is not a loopback address and none is given).",
)
@click.option("--club", default=None, help="The club's name, on every page and in the records' Site tag.")
@click.option("--event", default=None, help="The records' Event tag (e.g. 'Soirée du jeudi').")
@click.option("--no-publish", is_flag=True, help="Do not publish the club's pages when a game ends.")
def serve(
    database: str, host: str, port: int, password: str | None, club: str | None, event: str | None, no_publish: bool
) -> None:
    """Serve the club evening: start games, record them at the table from a phone,
    follow them live, and see the standings as games end.

    \b
    Games in progress are kept in DATABASE.games/ (one record file each, written after
    every coup) and resume after a restart; a finished game is stored in DATABASE as
    `trictrac db import` stores it, and the club's pages are published again.

    \b
    Examples:
      trictrac serve club.db --club "Cercle de Lyon"
      trictrac serve club.db --host 0.0.0.0 --port 8080      # asks for the club password
    """
    try:
        import uvicorn  # noqa: F401  (the extra's server, imported by run_server)

        from ..serve.app import ServeConfig, create_app, run_server
        from ..serve.security import is_loopback
    except ImportError as err:  # the extra is not installed
        raise BadInput(command_words()("cli.serve.needs_extra", name=err.name)) from None
    if not is_loopback(host) and not password:
        password = click.prompt(command_words()("w6.serve.password"), hide_input=True, confirmation_prompt=True)
    try:
        cfg = ServeConfig(
            database, host=host, password=password or None, club=club, event=event, publish=not no_publish
        )
        app = create_app(cfg)
    except (ValueError, OSError) as err:
        W = command_words()
        raise (
            os_refusal(err)
            if isinstance(err, OSError) and not isinstance(err, Said)
            else BadInput(err.say(W) if isinstance(err, Said) else str(err))
        ) from None
    click.echo(command_words()("w6.serve.listening", host=host, port=port, folder=cfg.folder), err=True)
    run_server(app, host, port)
