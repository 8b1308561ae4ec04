"""Options and errors shared by every command (defined once, used everywhere)."""

from __future__ import annotations

import json
import sys
from typing import Any, Callable

import click

from trictrac.replay.profiles import Profile, find_profile, profile_names


class BadInput(click.ClickException):
    """Bad input: one clear line on stderr and exit code 2 (never a traceback)."""

    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"Error: {self.format_message()}", err=True)


def _profile_callback(ctx: click.Context, param: click.Parameter, value: str | None) -> Profile | None:
    if value is None:
        return None
    try:
        return find_profile(value)
    except ValueError as e:
        raise click.BadParameter(str(e)) from None


def profile_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--profile",
        "profile",
        default=None,
        callback=_profile_callback,
        help=f"Rules profile (RULES.md §10.2): {', '.join(profile_names())}. "
        "Default: the record's Profile header, else lelasseux-1852.",
    )(f)


def json_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")(f)


def jobs_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--jobs", "-j", type=click.IntRange(1, 256), default=1, show_default=True,
        help="Worker processes for large archives.",
    )(f)


def echo_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False))


def use_colour() -> bool:
    """Colour only on a terminal."""
    return sys.stdout.isatty()
