"""``trictrac record``: write a game coup by coup as it is played (issue 16).

Wiring only: the session (``replay.recording``) knows the rules and writes the file;
this module is the terminal front end, with prompt_toolkit (completion of the throws
and plays, validation as you type, key bindings, a toolbar).  docs/recorder.md.
"""

from __future__ import annotations

import datetime as _dt
import os
import sys
from typing import Any, TextIO

import click

from ..notation.textio import terminal_safe
from ..replay.recording import RecordingError, RecordingSession, State, Step
from .common import BadInput

HELP = (
    "touches : F2 tablier, F3 score, F4 annuler, Échap efface l'entrée, Ctrl-D quitte ; "
    "commandes : /b /s /u /c texte /q"
)


def screen(state: State) -> str:
    """What is shown before an entry: the throw's worth and the numbered plays."""
    if state.stage != "play":
        return ""
    lines = list(state.worth)
    if len(state.plays) > 1 or state.can_leave:
        cells = [f"{i:>2}. {p}" for i, p in enumerate(state.plays, 1)]
        if state.can_leave:
            cells.append(" v. je m'en vais")
        width = max(len(c) for c in cells) + 2
        per = max(1, 78 // width)
        for k in range(0, len(cells), per):
            lines.append("".join(c.ljust(width) for c in cells[k : k + per]).rstrip())
    elif state.plays:
        lines.append(f"seul jeu : {state.plays[0]} (Entrée)")
    return "\n".join(lines)


def _prompt_parts(session: RecordingSession) -> Any:
    from prompt_toolkit.completion import Completer, Completion
    from prompt_toolkit.validation import ValidationError, Validator

    class _Completer(Completer):
        def get_completions(self, document: Any, complete_event: Any) -> Any:
            text = document.text_before_cursor
            for c in session.completions(text):
                yield Completion(c, start_position=-len(text))

    class _Validator(Validator):
        def validate(self, document: Any) -> None:
            if document.text.lstrip().startswith("/"):
                return  # a command (/b /s /u /c /q)
            msg = session.check(document.text)
            if msg and not session.completions(document.text):
                raise ValidationError(message=msg, cursor_position=len(document.text))

    return _Completer(), _Validator()


def run(session: RecordingSession, *, input: Any = None, output: Any = None, out: TextIO | None = None) -> int:
    """The entry loop; returns the number of coups written.  ``input``/``output`` are
    prompt_toolkit's (pipe input and dummy output in the tests)."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.key_binding import KeyBindings

    out = out or sys.stdout

    def say(text: str) -> None:
        if text:
            out.write(terminal_safe(text) + "\n")
            out.flush()

    kb = KeyBindings()
    for key, command in (("f2", "/b"), ("f3", "/s"), ("f4", "/u")):
        kb.add(key)(lambda event, c=command: event.app.exit(result=c))

    @kb.add("escape", eager=True)
    def _clear(event: Any) -> None:
        event.app.current_buffer.reset()

    completer, validator = _prompt_parts(session)
    ps: PromptSession[str] = PromptSession(
        input=input,
        output=output,
        key_bindings=kb,
        completer=completer,
        validator=validator,
        validate_while_typing=False,
        complete_while_typing=True,
    )

    def auto_submit(buffer: Any) -> None:
        if session.complete(buffer.text):
            buffer.validate_and_handle()

    def toolbar() -> str:
        text = ps.default_buffer.text
        return terminal_safe(session.hint(text) if text and not text.startswith("/") else HELP)

    say(session.score_text())
    written = 0
    while not session.state.finished:
        st = session.state
        say(screen(st))
        try:
            text = ps.prompt(
                st.prompt,
                bottom_toolbar=toolbar,
                pre_run=lambda: ps.default_buffer.on_text_changed.add_handler(auto_submit),
            )
        except KeyboardInterrupt:
            say("entrée abandonnée")
            continue
        except EOFError:
            break
        finally:
            ps.default_buffer.on_text_changed.remove_handler(auto_submit)
        text = text.strip()
        if not text and st.stage == "roll":
            continue
        try:
            if text.startswith("/"):
                cmd, _, arg = text[1:].partition(" ")
                if cmd in ("q", "quit"):
                    break
                if cmd in ("b", "board"):
                    say(session.board_text())
                elif cmd in ("s", "score"):
                    say(session.score_text())
                elif cmd in ("u", "undo"):
                    say("\n".join(session.undo().messages))
                elif cmd in ("c", "comment"):
                    say("\n".join(session.comment(arg).messages))
                else:
                    say(HELP)
                continue
            step: Step = session.enter(text)
        except RecordingError as err:
            say(f"? {err}")
            continue
        if step.appended:
            written += 1
            say(step.appended.rstrip("\n"))
        say("\n".join(f"! {m}" for m in step.messages))
    if session.state.finished:
        say(f"partie finie : {session.state.result}")
    return written


@click.command("record")
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=str))
@click.option(
    "--resume",
    "resume",
    type=click.Path(dir_okay=False, exists=True, path_type=str),
    help="Continue the partly written record in this file.",
)
@click.option("-a", "--player-a", "a", default="A", show_default=True, help="Player of seat A.")
@click.option("-b", "--player-b", "b", default="B", show_default=True, help="Player of seat B.")
@click.option("--event", default=None, help="Event (club evening, tournament).")
@click.option("--site", "--club", "site", default=None, help="Club or place.")
@click.option("--date", default=None, help="Date YYYY.MM.DD (default: today).")
@click.option("--round", "round_", default=None, help="Round of a tournament.")
@click.option("--partie", default="douze-trous", show_default=True, help="douze-trous, or 'a-ecrire N' (N marqués).")
@click.option("--profile", default="lelasseux-1852", show_default=True, help="Rules profile (RULES.md §10.2).")
@click.option(
    "--first", type=click.Choice(["A", "B"]), default="A", show_default=True, help="Who throws first (the primauté)."
)
@click.option("--from", "position", default=None, help="Start from this position (a book problem).")
@click.option(
    "--db",
    "db",
    default=None,
    type=click.Path(dir_okay=False, path_type=str),
    help="Import the finished record into this club database.",
)
def record(
    file: str | None,
    resume: str | None,
    a: str,
    b: str,
    event: str | None,
    site: str | None,
    date: str | None,
    round_: str | None,
    partie: str,
    profile: str,
    first: str,
    position: str | None,
    db: str | None,
) -> None:
    """Record a game as it is played (or read from a score pad) into FILE.

    \b
    Each coup: the throw (65, 6-5, sonnez), then the play (its number in the list,
    the moves, v = je m'en vais, Enter for the only play), then the marks
    (Enter = what the rules give; or type what was really marked: A+2 B:école+4).
    Differences from the rules are flagged at once and written as they happened.
    The file is written after every coup; --resume FILE continues it.

    \b
    Examples:
      trictrac record soiree.trn -a Dupont -b Martin --club "Cercle du Palais-Royal"
      trictrac record ecrire.trn --partie "a-ecrire 4" --db club.db
      trictrac record --resume soiree.trn
    """
    from ..replay.game import GameFlowError

    try:
        if resume:
            if file and os.path.abspath(file) != os.path.abspath(resume):
                raise BadInput("give either FILE or --resume FILE")
            session = RecordingSession.resume(resume)
            path = resume
        else:
            path = file or f"partie-{_dt.datetime.now():%Y%m%d-%H%M}.trn"
            if os.path.exists(path):
                raise BadInput(f"{path} exists; continue it with --resume {path}")
            headers = {
                "Event": event,
                "Site": site,
                "Date": date or f"{_dt.date.today():%Y.%m.%d}",
                "Round": round_,
                "A": a,
                "B": b,
                "Partie": partie,
                "Profile": profile,
                "Record": "full",
                "Position": position,
                "Result": "*",
            }
            session = RecordingSession.new({k: v for k, v in headers.items() if v}, path=path, first=first)
    except (RecordingError, GameFlowError, ValueError) as err:
        raise BadInput(str(err)) from None
    except OSError as err:
        raise BadInput(f"{err.filename}: {err.strerror}") from None
    click.echo(f"{path} ; {HELP}", err=True)
    run(session)
    if db and session.state.finished:
        from ..club.db import import_records

        report = import_records(db, [path])
        click.echo(
            f"{db}: {report.imported} imported, {report.unchanged} unchanged, "
            f"{report.findings} findings, {report.failed} failed",
            err=True,
        )
        if report.failures:
            raise BadInput(f"{db}: {report.failures[0].as_dict()}")
