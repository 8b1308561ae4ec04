"""The evening's games: one recording session per game, its file on disk, entries taken
once each.

The folder ``CLUB.db.games/`` beside the database holds, per game, ``<GameId>.trn`` (the
record, written by the session after every coup: a coup is acknowledged only once it is
there) and ``<GameId>.json`` (the table's name, who throws first, whether the finished
game is stored in the club database).  At start every game of the folder is resumed from
its file.

The server holds no coup half entered: a coup arrives whole (throw, play, marks) with its
sequence number in the game (1 for the first coup written), and is taken under the
game's lock by the session's own ``enter`` calls, so the session stays the one course of
the game and its findings are those of ``check``.  The same coup sent again (a page that
lost the answer, a queue re-sent after a dropped wifi) is acknowledged without being
taken twice; another coup under a number already written is a conflict, never a second
version.  What the page shows while a coup is being entered (the plays of a throw, the
marks a play gives) comes from a *preview*: the same entries on a copy of the session
that writes no file (:meth:`LiveGame.preview`).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import re
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..notation.reader import parse_text
from ..notation.record import Comment, Coup, MarqueStart, Record, ReleveStart
from ..notation.textio import atomic_write_text
from ..notation.writer import write_element
from ..replay.recorder.recording import RecordingError, RecordingSession, claim_finding, parse_roll
from ..replay.verifier.findings import say as say_finding
from ..words import words
from .words import DEFAULT_LANG, Speaker, error_said, say

#: what follows a change of a game, off the request that made it (its answer goes first)
_AFTER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="trictrac-after")

__all__ = ["GameStore", "LiveGame", "Outcome", "Submission", "StartError", "board_of"]

_ID = re.compile(r"^[0-9a-f]{16}$")


class StartError(ValueError):
    """A game that cannot be started: :meth:`say` gives why in the viewer's language
    (the cause's own catalogue words when it has them: RecordingError, GameFlowError)."""

    def __init__(self, cause: Exception | str) -> None:
        super().__init__(str(cause))
        self.cause = cause

    def say(self, lang: str) -> str:
        say = getattr(self.cause, "say", None)
        return str(say(lang)) if callable(say) else str(self.cause)


@dataclass(frozen=True, slots=True)
class Submission:
    """One coup as the page sends it: ``play`` a play's number in the list, the moves,
    ``v`` or empty for the only play; ``marks`` empty for what the rules give, else the
    marks as made in notation (``--``: nothing marked)."""

    roll: str
    play: str = ""
    marks: str = ""

    def key(self) -> tuple[str, str, str]:
        r = parse_roll(self.roll)
        return (f"{r[0]}{r[1]}" if r else self.roll.strip(), " ".join(self.play.split()), " ".join(self.marks.split()))


@dataclass(slots=True)
class Outcome:
    """What a request did: ``status`` is ``ok``, ``duplicate`` (already written),
    ``conflict`` (another coup under that number) or ``error`` (the session refused the
    entry; ``message`` says why)."""

    status: str
    written: int
    message: str = ""
    messages: tuple[str, ...] = ()
    coup: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "written": self.written,
            "next": self.written + 1,
            "message": self.message,
            "messages": list(self.messages),
            "coup": self.coup,
        }


def _coup_text(c: Coup) -> str:
    return write_element(c).strip()


@dataclass(slots=True)
class LiveGame:
    """A game of the evening: its session (which writes ``path``), its table, its lock."""

    gid: str
    path: Path
    meta: dict[str, Any]
    session: RecordingSession
    lock: threading.Lock = field(default_factory=threading.Lock)
    version: int = 0
    acks: dict[int, tuple[str, str, str]] = field(default_factory=dict)
    claimed: set[tuple[int, str]] = field(default_factory=set)  # (seq, marks) of the claims taken
    #: what the last change said, as data said in each page's language (:meth:`said`)
    news: tuple[tuple[Any, ...], ...] = ()
    views: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)  # per language, for ``version``

    # -- reading ------------------------------------------------------------------------
    @property
    def headers(self) -> dict[str, str]:
        return self.session.record.headers

    @property
    def written(self) -> int:
        return len(self.session.record.coups)

    @property
    def finished(self) -> bool:
        return self.session.state.finished

    @property
    def table(self) -> str:
        return str(self.meta.get("table") or "")

    # -- previews -------------------------------------------------------------------------
    def preview(self, seq: int, roll: str, play: str | None = None, lang: str = DEFAULT_LANG) -> dict[str, Any]:
        """What the page shows after a throw (``play`` None) or after the play: the stage
        reached (``play``, ``marks``, or ``commit`` when the coup would be written with
        nothing more to say), the plays, what the throw is worth, the proposed marks and
        the board with the chosen play drawn.  Asked of the session itself
        (``RecordingSession.peek``), which takes nothing and writes nothing."""
        with self.lock:
            if seq != self.written + 1:
                return {"stage": "stale", "next": self.written + 1}
            s = self.session
            try:
                st = s.peek(roll, play, lang)  # the worth lines in the viewer's language
            except RecordingError as err:
                return {"stage": "error", "message": err.say(lang)}  # the viewer's language
            if st is None:  # nothing left to choose: the coup is whole
                return {"stage": "commit"}
            moves: tuple[tuple[int, int], ...] = ()
            chosen = ""
            if play is not None:
                moves = _chosen_moves(s, st, play)
                chosen = (
                    say("leave", lang)
                    if play.strip() == "v"
                    else " ".join(f"{a}/{'off' if b == 25 else b}" for a, b in moves)
                )
            board = board_of(self, moves=moves, side=st.side, lang=lang)
        return {
            "chosen": chosen,
            "stage": st.stage,
            "side": st.side,
            "plays": list(st.plays),
            "worth": _worth(st.worth),
            "can_leave": st.can_leave,
            "default_marks": st.default_marks,
            "board": board,
        }

    # -- writing --------------------------------------------------------------------------
    def submit(self, seq: int, sub: Submission, lang: str = DEFAULT_LANG) -> Outcome:
        """Take the coup ``seq`` once (module docstring)."""
        with self.lock:
            return self._submit(seq, sub, lang)

    def submit_now(self, seq: int, sub: Submission, lang: str = DEFAULT_LANG) -> Outcome | None:
        """:meth:`submit` when the game's lock is free at once, else None (the event loop
        takes a coup itself only when it need not wait for a preview, a view or a store)."""
        if not self.lock.acquire(blocking=False):
            return None
        try:
            return self._submit(seq, sub, lang)
        finally:
            self.lock.release()

    def _submit(self, seq: int, sub: Submission, lang: str) -> Outcome:
        """The coup ``seq`` taken once, the game's lock held."""
        s = self.session
        n = self.written
        key = sub.key()
        if seq <= n:
            stored = s.record.coups[seq - 1] if seq >= 1 else None
            text = _coup_text(stored) if stored else ""
            known = self.acks.get(seq)
            same = known == key if known is not None else (stored is not None and _roll_key(stored) == key[0])
            return Outcome("duplicate" if same else "conflict", n, coup=text)
        if seq > n + 1:
            return Outcome("conflict", n, message=say("expected", lang, seq=seq, next=n + 1))
        if s.state.finished:
            return Outcome("error", n, message=say("over_short", lang))
        seen = _finding_keys(s)
        try:
            s.enter(sub.roll)
            marks = " ".join(sub.marks.split())
            if s.state.stage == "play" and self.written == n:
                text = sub.play.strip()
                if marks and marks != "--":
                    text = f"{text} {marks}".strip()  # marks typed after the play replace the rules'
                    marks = ""
                s.enter(text)
            if s.state.stage == "marks" and self.written == n:
                s.enter(marks)
            if self.written == n:
                raise RecordingError("srv.incomplete", lang=lang)
        except RecordingError as err:
            if self.written == n and s.state.stage in ("play", "marks"):
                s.undo()
            return Outcome("error", n, message=err.say(lang))
        self.acks[seq] = key
        self.version += 1
        self.news = self._news(seen)
        return Outcome("ok", self.written, messages=tuple(self.said(lang)), coup=_coup_text(s.record.coups[seq - 1]))

    def _news(self, seen: set[tuple[Any, ...]], *first: tuple[Any, ...]) -> tuple[tuple[Any, ...], ...]:
        """What a change brought: the findings it made, the end of the game."""
        s = self.session
        out = list(first)
        out += [("finding", f) for f in s.report.findings if not f.claim_open and _finding_key(f) not in seen]
        if s.state.finished:
            out.append(("over", s.state.result))
        return tuple(out)

    def said(self, lang: str = DEFAULT_LANG) -> list[str]:
        """The last change's news in ``lang``: the catalogue's words for the findings."""
        S = Speaker(lang)
        names = _seat_names(self.session)
        out = []
        for item in self.news:
            if item[0] == "finding":
                f = item[1]
                w = say_finding(f, S.lang, names)
                line = S("finding_line", name=w.name, n=f.coup, message=w.message)
                out.append(f"{line} — {w.consequence}" if w.consequence else line)
            elif item[0] == "over":
                out.append(S("game_over_msg", result=item[1]))
            elif item[0] == "undone":
                out.append(S("undone", coup=item[1]))
            elif item[0] == "comment":
                out.append(S("commented"))
            elif item[0] == "claimed":
                out.append(S("claimed", n=item[1], marks=item[2]))
        return out

    def claims(self, lang: str = DEFAULT_LANG) -> list[dict[str, str]]:
        """The écoles that may still be marked (RULES.md §7.2: until the claimant throws),
        in the catalogue's words, each with the marks that claim it."""
        S = Speaker(lang)
        names = _seat_names(self.session)
        out = []
        for c in self.session.open_claims:
            marks = f"{c.claimant}:école+{c.amount}"
            message = say_finding(claim_finding(c), S.lang, names).message
            points = words(S.lang).n("rep.points", c.amount)
            name = names.get(c.claimant, c.claimant)
            who = c.claimant if name == c.claimant else f"{c.claimant} ({name})"
            out.append(
                {
                    "text": S("claim", points=points, message=message, claimant=who, marks=marks),
                    "marks": marks,
                    "button": S("claim_button", who=who, n=c.amount),
                }
            )
        return out

    def claim(self, seq: int, marks: str, lang: str = DEFAULT_LANG) -> Outcome:
        """An école marked before the claimant throws (``B:école+2``), written on the last
        coup, once: the same claim sent again (by its coup number) is a duplicate."""
        marks = " ".join(marks.split())
        with self.lock:
            n = self.written
            if (seq, marks) in self.claimed:
                return Outcome("duplicate", n)
            if seq != n + 1 or n == 0:
                return Outcome("conflict", n, message=say("expected", lang, seq=seq, next=n + 1))
            if not _CLAIM.match(marks):
                return Outcome("error", n, message=say("incomplete", lang))
            seen = _finding_keys(self.session)
            try:
                self.session.add_to_last_coup(marks)
            except RecordingError as err:
                return Outcome("error", n, message=err.say(lang))
            self.claimed.add((seq, marks))
            self.version += 1
            self.news = self._news(seen, ("claimed", n, marks))
            return Outcome("ok", n, messages=tuple(self.said(lang)), coup=_coup_text(self.session.record.coups[-1]))

    def undo(self, seq: int, lang: str = DEFAULT_LANG) -> Outcome:
        """Undo the last coup written when it is still coup ``seq - 1`` (what the page saw)."""
        with self.lock:
            n = self.written
            if seq != n + 1 or n == 0:
                return Outcome("conflict", n, message=say("expected", lang, seq=seq, next=n + 1))
            gone = _coup_text(self.session.record.coups[-1])
            self.session.undo()
            for k in [k for k in self.acks if k > self.written]:
                del self.acks[k]
            self.claimed = {c for c in self.claimed if c[0] <= self.written + 1}
            self.version += 1
            self.news = (("undone", gone),)
            if self.meta.get("stored"):
                self.meta["stored"] = None  # the corrected game is stored again when it ends
            return Outcome("ok", self.written, messages=tuple(self.said(lang)))

    def comment(self, seq: int, text: str, lang: str = DEFAULT_LANG) -> Outcome:
        with self.lock:
            n = self.written
            if seq != n + 1:
                return Outcome("conflict", n, message=say("expected", lang, seq=seq, next=n + 1))
            try:
                self.session.comment(text)
            except RecordingError as err:
                return Outcome("error", n, message=err.say(lang))
            self.version += 1
            self.news = (("comment",),)
            return Outcome("ok", n, messages=tuple(self.said(lang)))


_CLAIM = re.compile(r"^[AB]:école\+\d{1,2}$")


def _finding_key(f: Any) -> tuple[Any, ...]:
    return (f.index, f.kind, f.who, f.message)


def _finding_keys(s: RecordingSession) -> set[tuple[Any, ...]]:
    return {_finding_key(f) for f in s.report.findings if not f.claim_open}


def _seat_names(s: RecordingSession) -> dict[str, str]:
    h = s.record.headers
    return {side: h.get(side, "") or side for side in ("A", "B")}


def _worth(lines: tuple[str, ...]) -> list[str]:
    """The session's worth lines, a continuation (indented: holes, bredouille) joined to
    its side's line; its key hint ``(v)`` dropped (the page has a button)."""
    out: list[str] = []
    for w in lines:
        text = w.strip().replace(" (v)", "")
        if w.startswith(" ") and out:
            out[-1] += " — " + text
        else:
            out.append(text)
    return out


def _roll_key(c: Coup) -> str:
    return f"{c.roll[0]}{c.roll[1]}"


_MOVE = re.compile(r"(\d{1,2})/(\d{1,2}|off)")


def _chosen_moves(s: RecordingSession, st: Any, play: str) -> tuple[tuple[int, int], ...]:
    """The moves of the play chosen at the preview (a number in the list, or moves)."""
    p = play.strip()
    if p.isdigit() and 1 <= int(p) <= len(st.plays):
        p = st.plays[int(p) - 1]
    elif not p and len(st.plays) == 1:
        p = st.plays[0]
    return tuple((int(a), 25 if b == "off" else int(b)) for a, b in _MOVE.findall(p))


def board_of(
    game: LiveGame, *, moves: tuple[tuple[int, int], ...] = (), side: str | None = None, lang: str = DEFAULT_LANG
) -> str:
    """The tablier as inline SVG (``publish.board``): the position before the next coup,
    the chosen play drawn; with no play, the last coup written drawn on the position
    after it.  The position is the session's table (``serve.games.table_of``)."""
    from ..publish.board import board_svg, svg_text

    position, score = table_of(game.session)
    names = (game.headers.get("A", "A"), game.headers.get("B", "B"))
    last: tuple[str, tuple[tuple[int, int], ...]] | None = None
    if moves and side:
        last = (side, moves)
    else:
        coups = game.session.record.coups
        if coups:
            c = coups[-1]
            steps = tuple((m.from_, m.to) for m in c.moves if hasattr(m, "from_") and hasattr(m, "to"))
            # drawn on the position after it only while that coup's side is not to move again
            if steps and position.turn != c.side:
                last = (c.side, steps)
    title = say("board_title", lang, name=names[0 if position.turn == "A" else 1])
    try:
        svg = board_svg(position, score, last_move=last, names=names, defs=False, title=title)
    except ValueError:
        svg = board_svg(position, score, names=names, defs=False, title=title)
    # the board's description (what a screen reader says) in the page's language
    a, b = score["A"], score["B"]
    desc = say("board_desc", lang, a=names[0], b=names[1], ah=a.holes, ap=a.points, bh=b.holes, bp=b.points)
    for el in svg:
        if isinstance(el.tag, str) and el.tag.rsplit("}", 1)[-1] == "desc":
            el.text = desc
    return svg_text(svg, xml_declaration=False)


_DEFS: list[str] = []


def board_defs_html() -> str:
    """The boards' shared definitions, once on every page (``publish.board.board_defs``):
    each board then draws only its checkers, score and arrows (a tenth of the work)."""
    if not _DEFS:
        from ..publish.board import board_defs, svg_text

        _DEFS.append(svg_text(board_defs(), xml_declaration=False))
    return _DEFS[0]


def table_of(session: RecordingSession) -> tuple[Any, Any]:
    """The position and the score before the next coup.  The session exposes them as its
    ``table`` (what ``board_text`` and ``score_text`` read); the adapter stands here so
    that a change of that attribute is mended in one place."""
    t = session.table
    return t.position, t.score


def _today() -> str:
    return f"{_dt.date.today():%Y.%m.%d}"


class GameStore:
    """The games of the club folder, by GameId (module docstring).  ``on_change(gid)`` is
    called after every change (the live pages); ``on_finish(game)`` when a game ends."""

    def __init__(self, folder: Path, *, club: str | None = None, event: str | None = None) -> None:
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.club = club
        self.event = event
        self.games: dict[str, LiveGame] = {}
        self.unreadable: dict[str, object] = {}
        self.errors: list[object] = []  # said in each viewer's language (words.said_in)
        self.lock = threading.Lock()
        self.on_change: Callable[[str], None] = lambda gid: None
        self.on_finish: Callable[[LiveGame], None] = lambda game: None
        self._load()

    def _load(self) -> None:
        for path in sorted(self.folder.glob("*.trn")):
            gid = path.stem
            if not _ID.match(gid):
                continue
            meta = self._read_meta(gid)
            try:
                text = path.read_text(encoding="utf-8")
                records, diags = parse_text(text, file=str(path))
                errors = [d for d in diags if d.severity == "error"]
                if len(records) != 1 or errors:
                    if errors:
                        raise RecordingError.unreadable(errors[0], errors[0].file or str(path))
                    raise RecordingError("w6.rec.not_one_game", path=str(path))
                session = RecordingSession(records[0], path=str(path), first=str(meta.get("first") or "A"))
            except (OSError, ValueError) as err:
                self.unreadable[gid] = error_said(err)
                continue
            self.games[gid] = LiveGame(gid, path, meta, session)

    def _read_meta(self, gid: str) -> dict[str, Any]:
        try:
            data = json.loads((self.folder / f"{gid}.json").read_text(encoding="utf-8"))
            return data if isinstance(data, dict) else {}
        except (OSError, ValueError):
            return {}

    def save_meta(self, game: LiveGame) -> None:
        atomic_write_text(self.folder / f"{game.gid}.json", json.dumps(game.meta, ensure_ascii=False, indent=1))

    def get(self, gid: str) -> LiveGame | None:
        return self.games.get(gid) if _ID.match(gid) else None

    def in_progress(self) -> list[LiveGame]:
        return sorted((g for g in self.games.values() if not g.finished), key=lambda g: g.meta.get("created", ""))

    def finished(self) -> list[LiveGame]:
        return sorted((g for g in self.games.values() if g.finished), key=lambda g: g.meta.get("created", ""))

    def start(
        self,
        a: str,
        b: str,
        *,
        partie: str = "douze-trous",
        profile: str = "lelasseux-1852",
        table: str = "",
        first: str = "A",
        event: str | None = None,
        position: str | None = None,
        remark: str | None = None,
        lang: str = DEFAULT_LANG,
    ) -> LiveGame:
        """A new game with its GameId, its file written at once."""
        a, b = " ".join(a.split()), " ".join(b.split())
        if not a or not b:
            raise StartError(say("name_needed", lang))
        if a.casefold() == b.casefold():
            raise StartError(say("same_players", lang))
        if first not in ("A", "B"):
            raise StartError(say("first_a_or_b", lang))
        created = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
        gid = hashlib.sha256(f"{a}\x1f{b}\x1f{created}\x1f{secrets.token_hex(8)}".encode()).hexdigest()[:16]
        headers = {
            "Event": event or self.event or "",
            "Site": self.club or "",
            "Date": _today(),
            "A": a,
            "B": b,
            "Partie": partie,
            "Profile": profile,
            "Record": "full",
            "Position": position or "",
            "GameId": gid,
            "Table": " ".join(table.split()),
            "Result": "*",
        }
        path = self.folder / f"{gid}.trn"
        try:
            tags = {k: v for k, v in headers.items() if v}
            if remark and remark.strip():  # a remark on the whole game stands before its first relevé
                els: list[Any] = [Comment(" ".join(remark.split()))]
                if not position:
                    els += [MarqueStart(1)] if partie.startswith("a-ecrire") else []
                    els.append(ReleveStart(1))
                session = RecordingSession(Record(headers=tags, elements=els), path=str(path), first=first)
            else:
                session = RecordingSession.new(tags, path=str(path), first=first)
        except ValueError as err:  # RecordingError, GameFlowError, an unknown profile
            raise StartError(err) from None
        meta = {"table": headers["Table"], "first": first, "created": created, "stored": None}
        game = LiveGame(gid, path, meta, session)
        with self.lock:
            self.games[gid] = game
        self.save_meta(game)
        return game

    def changed(self, game: LiveGame) -> None:
        """After a coup, an undo or a comment, off the request (its answer goes first):
        tell the pages (``on_change``: the app makes the pages' view, then tells), store
        a game that ended."""
        _AFTER.submit(self._after_change, game)

    def _after_change(self, game: LiveGame) -> None:
        try:
            self.on_change(game.gid)
            if game.finished and not game.meta.get("stored"):
                self.on_finish(game)
        except Exception as err:  # shown on the club screen; the evening goes on
            self.errors.append(error_said(err, game.gid))


def wait_until(predicate: Callable[[], bool], seconds: float) -> bool:
    """Poll ``predicate`` until true or ``seconds`` pass (tests and the load command)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def remove_file(path: Path) -> None:
    try:
        os.remove(path)
    except FileNotFoundError:
        pass
