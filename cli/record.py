"""``trictrac record``: write a game coup by coup as it is played (issue 16).

Wiring only: the session (``replay.recorder.recording``) knows the rules and writes the file;
this module is the terminal front end, with prompt_toolkit (completion of the throws
and plays, validation as you type, key bindings, a toolbar).  docs/recorder.md.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
import shutil
import sys
import textwrap
import time
from collections import deque
from collections.abc import Callable
from typing import Any, TextIO

import click

from ..notation.textio import terminal_safe
from ..replay.recorder.recording import RecordingError, RecordingSession, State, Step
from ..words import Said, Words, words
from .common import BadInput, lang_option, os_refusal
from .helptext import Command

#: the recorder's own words are the catalogue's ``rec.cli.*`` (``words/``); the rules'
#: words come from the session (``replay.recorder.recording``: findings, claims, worth)
_ASKED = ("A", "B", "Event", "Partie")
#: a bare Enter accepts what its prompt shows (the only play, the rules' marks); one
#: typed before that prompt was drawn, or sooner after than anyone reads it, is the
#: typist's Enter for the entry taken as typed just before (``65`` then Enter): dropped,
#: so that nothing is written that nobody saw.  Seconds: under a person's reaction time.
READ_PROMPT_S = 0.25
_DEFAULTS = {"A": "A", "B": "B", "Event": "", "Partie": "douze-trous"}


def wrap(text: str, width: int) -> str:
    """``text`` wrapped at spaces only (never inside a word), each line within ``width``."""
    out: list[str] = []
    # French puts a space before « : » and « ; »: never break there (a line that
    # begins with a colon reads as a fault)
    text = re.sub(r" ([:;?!])", "\u00a0\\1", text)
    for line in text.splitlines() or [""]:
        if len(line) <= width:
            out.append(line)
            continue
        indent = " " * min(len(line) - len(line.lstrip(" ")) + 3, width // 3)
        out.extend(
            textwrap.wrap(
                line,
                width,
                subsequent_indent=indent,
                break_long_words=False,
                break_on_hyphens=False,
            )
        )
    return "\n".join(out).replace("\u00a0", " ")


def screen(state: State, width: int = 80) -> str:
    """What is shown before an entry: the écoles that may be marked (at the throw), the
    throw's worth and the numbered plays (at the play), every point in the roller's
    frame, labelled; lines wrapped at ``width`` (at least 60) between words."""
    width = max(60, width)
    W = words(state.lang)
    lines: list[str] = []
    if state.stage == "roll" and state.claims:
        lines.append(W("rec.cli.claims"))
        lines.extend(f"  {c}" for c in state.claims)
    if state.stage != "play":
        return wrap("\n".join(lines), width)
    roll = state.roll or (0, 0)
    lines.append(W("rec.cli.frame", side=state.side, a=roll[0], b=roll[1]))
    lines.extend(state.worth)
    if len(state.plays) > 1 or state.can_leave:
        lines.append(W("rec.cli.plays", side=state.side))
        cells = [f"{i:>2}. {p}" for i, p in enumerate(state.plays, 1)]
        if state.can_leave:
            cells.append(" " + W("rec.cli.leave"))
        cell = max(len(c) for c in cells) + 2
        per = max(1, width // cell)
        for k in range(0, len(cells), per):
            lines.append("".join(c.ljust(cell) for c in cells[k : k + per]).rstrip())
    elif state.plays:
        lines.append(W("rec.cli.only", play=state.plays[0]))
    return wrap("\n".join(lines), width)


def ask_headers(
    headers: dict[str, str | None], ask: Callable[[str, str], str], lang: str = "fr"
) -> dict[str, str | None]:
    """The header fields not given (players, event, kind of partie) asked one by one:
    ``ask(label, default)`` returns the answer (Enter: the default)."""
    out = dict(headers)
    for tag in _ASKED:
        if not out.get(tag):
            answer = ask(words(lang)(f"rec.ask.{tag}"), _DEFAULTS[tag]).strip()
            out[tag] = answer or _DEFAULTS[tag] or None
    return out


def recent_history(keep: int = 100) -> Any:
    """The entries' history (Up recalls them), its last ``keep`` only: prompt_toolkit
    copies the whole history at every Enter and loads it again at every prompt, which
    at coup 10,000 of a recording (30,000 entries) cost more than the coup itself."""
    from prompt_toolkit.history import History

    class _Recent(History):
        def __init__(self) -> None:
            super().__init__()
            self._items: deque[str] = deque(maxlen=keep)

        def load_history_strings(self) -> Any:
            yield from reversed(self._items)

        def store_string(self, string: str) -> None:
            self._items.append(string)

        def append_string(self, string: str) -> None:
            self._loaded_strings.insert(0, string)
            del self._loaded_strings[keep:]
            self.store_string(string)

    return _Recent()


def _prompt_parts(session: RecordingSession, stamp: list[float]) -> Any:
    from prompt_toolkit.completion import Completer, Completion
    from prompt_toolkit.validation import ValidationError, Validator

    class _Completer(Completer):
        def get_completions(self, document: Any, complete_event: Any) -> Any:
            text = document.text_before_cursor
            for c in session.completions(text):
                yield Completion(c, start_position=-len(text))

    class _Validator(Validator):
        def validate(self, document: Any) -> None:
            stamp[0] = time.perf_counter()  # the Enter (timings)
            if document.text.lstrip().startswith("/"):
                return  # a command (/b /s /u /c /q)
            msg = session.check(document.text)
            if msg and not session.completions(document.text):
                raise ValidationError(message=msg, cursor_position=len(document.text))

    return _Completer(), _Validator()


def run(
    session: RecordingSession,
    *,
    input: Any = None,
    output: Any = None,
    out: TextIO | None = None,
    width: int | None = None,
    history: Any = None,
    timings: list[float] | None = None,
    read_prompt_s: float | None = None,
) -> int:
    """The entry loop; returns the number of coups written.  ``input``/``output`` are
    prompt_toolkit's (pipe input and dummy output in the tests); ``width`` the
    terminal's columns (default: asked of the terminal); ``history`` the entries'
    (default :func:`recent_history`); ``timings`` gets, for every entry that wrote a
    coup, the seconds from its Enter to the next prompt drawn (``bench.recorder``).
    ``read_prompt_s``: a bare Enter sooner than this after its prompt was drawn accepts
    nothing (:data:`READ_PROMPT_S` at a terminal; 0 for keys read from a pipe, a script
    whose every key is meant for the prompt it reaches)."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.filters import Condition
    from prompt_toolkit.key_binding import KeyBindings

    out = out or sys.stdout
    W = session.W
    help_line = W("rec.cli.help")

    def columns() -> int:
        return width or shutil.get_terminal_size((80, 24)).columns

    def say(text: str) -> None:
        if text:
            out.write(terminal_safe(wrap(text, max(60, columns()))) + "\n")
            out.flush()

    shown_at = [0.0]  # when the current prompt was first drawn (0: not yet)
    if read_prompt_s is None:
        read_prompt_s = READ_PROMPT_S if input is None and sys.stdin.isatty() else 0.0
    kb = KeyBindings()
    for key, command in (("f2", "/b"), ("f3", "/s"), ("f4", "/u")):
        kb.add(key)(lambda event, c=command: event.app.exit(result=c))

    @kb.add("escape", eager=True)
    def _clear(event: Any) -> None:
        event.app.current_buffer.reset()

    def typed_ahead() -> bool:
        """A bare Enter sooner than its prompt could be read (READ_PROMPT_S)."""
        if not read_prompt_s or session.state.stage == "roll" or ps.default_buffer.text.strip():
            return False
        return not shown_at[0] or time.perf_counter() - shown_at[0] < read_prompt_s

    @kb.add("enter", filter=Condition(typed_ahead))
    def _ignore(event: Any) -> None:
        pass  # it accepts nothing: the prompt stays

    stamp = [0.0]
    completer, validator = _prompt_parts(session, stamp)
    ps: PromptSession[str] = PromptSession(
        input=input,
        output=output,
        key_bindings=kb,
        completer=completer,
        validator=validator,
        validate_while_typing=False,
        complete_while_typing=True,
        history=history if history is not None else recent_history(),
    )
    entered = [0.0]  # when the last coup's Enter was taken (timings)

    def drawn(_app: Any) -> None:
        shown_at[0] = shown_at[0] or time.perf_counter()
        if timings is not None and entered[0]:
            timings.append(time.perf_counter() - entered[0])
            entered[0] = 0.0

    ps.app.after_render += drawn

    def auto_submit(buffer: Any) -> None:
        if session.complete(buffer.text):
            buffer.validate_and_handle()

    def toolbar() -> str:
        text = ps.default_buffer.text
        line = session.hint(text) if text and not text.startswith("/") else help_line
        return terminal_safe(_fit(line, max(60, columns()) - 1))

    for notice in session.notices:
        say(notice)
    say(session.score_text())
    written = 0
    quit_warned = False
    while not session.state.finished:
        st = session.state
        say(screen(st, columns()))
        shown_at[0] = 0.0
        try:
            text = ps.prompt(
                st.prompt,
                bottom_toolbar=toolbar,
                pre_run=lambda: ps.default_buffer.on_text_changed.add_handler(auto_submit),
            )
        except KeyboardInterrupt:
            say(W("rec.cli.aborted"))
            continue
        except EOFError:
            text = "/q"
        finally:
            ps.default_buffer.on_text_changed.remove_handler(auto_submit)
        t_enter, stamp[0] = stamp[0] or time.perf_counter(), 0.0
        text = text.strip()
        if not text and st.stage == "roll":
            continue
        try:
            if text.startswith("/"):
                cmd, _, arg = text[1:].partition(" ")
                if cmd in ("q", "quit", "q!"):
                    if session.flush() or cmd == "q!" or quit_warned:
                        break
                    say(W("rec.cli.unsaved", n=session.unsaved))
                    quit_warned = True
                    continue
                if cmd in ("b", "board"):
                    say(session.board_text())
                elif cmd in ("s", "score"):
                    say(session.score_text())
                elif cmd in ("u", "undo"):
                    say("\n".join(session.undo().messages))
                elif cmd in ("c", "comment"):
                    say("\n".join(session.comment(arg).messages))
                else:
                    say(help_line)
                continue
            step: Step = session.enter(text)
        except RecordingError as err:
            say(W("rec.cli.refused", error=err))
            continue
        if step.appended:
            written += 1
            entered[0] = t_enter
            say(step.appended.rstrip("\n"))
        say("\n".join(f"! {m}" for m in step.messages))
    if session.state.finished:
        session.flush()
        say(W("rec.cli.over", result=session.state.result))
    elif session.path:
        say(W("rec.cli.resume", path=session.path))
    return written


def _fit(line: str, width: int) -> str:
    """One toolbar line within ``width``: cut at a space, with an ellipsis."""
    if len(line) <= width:
        return line
    cut = line.rfind(" ", 0, width - 1)
    return line[: cut if cut > 0 else width - 1] + "…"


@click.command("record", cls=Command)
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=str))
@click.option(
    "--resume",
    "resume",
    type=click.Path(dir_okay=False, exists=True, path_type=str),
    help="Continue the partly written record in this file.",
)
@click.option("-a", "--player-a", "a", default=None, help="Player of seat A (asked when not given).")
@click.option("-b", "--player-b", "b", default=None, help="Player of seat B (asked when not given).")
@click.option("--event", default=None, help="Event (club evening, tournament).")
@click.option("--site", "--club", "site", default=None, help="Club or place.")
@click.option("--date", default=None, help="Date YYYY.MM.DD (default: today).")
@click.option("--round", "round_", default=None, help="Round of a tournament.")
@click.option("--partie", default=None, help="douze-trous, or 'a-ecrire N' (N marqués); asked when not given.")
@click.option(
    "--ask/--no-ask",
    default=None,
    help="Ask the players, event and partie not given (default: when the input is a terminal).",
)
@click.option(
    "--profile",
    default="lelasseux-1852",
    show_default=True,
    help="Rules profile: where the treatises differ (docs/rules-reference.md).",
)
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
@lang_option
def record(
    file: str | None,
    resume: str | None,
    a: str | None,
    b: str | None,
    event: str | None,
    site: str | None,
    date: str | None,
    round_: str | None,
    partie: str | None,
    ask: bool | None,
    profile: str,
    first: str,
    position: str | None,
    db: str | None,
    lang: Words,
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
    from ..replay.recorder.record_file import RecordFileError
    from ..replay.rules.game import GameFlowError

    try:
        if resume:
            if file and os.path.abspath(file) != os.path.abspath(resume):
                raise BadInput(lang("cli.record.file_or_resume"))
            session = RecordingSession.resume(resume, lang=lang.lang)
            path = resume
        else:
            path = file or f"partie-{_dt.datetime.now():%Y%m%d-%H%M}.trn"
            if os.path.exists(path):
                raise BadInput(lang("cli.record.exists", path=path))
            given: dict[str, str | None] = {"A": a, "B": b, "Event": event, "Partie": partie}
            if ask if ask is not None else sys.stdin.isatty():
                given = ask_headers(
                    given, lambda label, default: click.prompt(label, default=default, err=True), lang.lang
                )
            headers = {
                "Event": given["Event"],
                "Site": site,
                "Date": date or f"{_dt.date.today():%Y.%m.%d}",
                "Round": round_,
                "A": given["A"] or "A",
                "B": given["B"] or "B",
                "Partie": given["Partie"] or "douze-trous",
                "Profile": profile,
                "Record": "full",
                "Position": position,
                "Result": "*",
            }
            session = RecordingSession.new(
                {k: v for k, v in headers.items() if v}, path=path, first=first, lang=lang.lang
            )
    except (RecordFileError, RecordingError, GameFlowError, ValueError) as err:
        raise BadInput(err.say(lang) if isinstance(err, Said) else str(err)) from None
    except OSError as err:
        raise os_refusal(err) from None
    click.echo(wrap(f"{path} — {lang('rec.cli.help')}", max(60, shutil.get_terminal_size((80, 24)).columns)), err=True)
    try:
        run(session)
    finally:
        session.close()
    if db and session.state.finished:
        from ..club.db import import_records

        report = import_records(db, [path], lang=lang.lang)  # the rows in the recorder's language
        said = (
            lang.n("dbcli.imported", report.imported),
            lang.n("dbcli.unchanged", report.unchanged),
            lang.n("cli.findings", report.findings),
            lang.n("dbcli.failed", report.failed),
        )
        click.echo(lang("cli.record.stored", db=db, counts=", ".join(said)), err=True)
        if report.failures:
            raise BadInput(lang("club.err.in_db", path=db, why=report.failures[0].render(lang)))
