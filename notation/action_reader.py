"""Reading a coup's action token (``A:reste``, ``B:école+4``, ``B:fait-jouer(1/6 1/5)``…)
for the notation parser (notation/reader.py, docs/notation.md).

The parser hands over the token's match and where it stands; faults are reported
through the parser's ``diag`` and ``_big`` (a number past its bound, notation/limits.py).
"""

from __future__ import annotations

import re
from typing import NamedTuple, Protocol

from . import limits as L
from .record import (
    OFF,
    Action,
    CannotPlay,
    Correction,
    Decision,
    Ecole,
    FaitMarquer,
    Force,
    JouePourTout,
    Mark,
    Move,
    NeMarquePas,
    Pavillon,
    Remet,
    Replay,
    Span,
)

# keyword after "X:" -> action kind (canonical spellings first; see docs/notation.md)
ACTION_WORDS: dict[str, str] = {}
for _kind, _words in {
    "reste": ("reste", "tiens", "je-reste", "je-tiens", "stay", "stays", "hold"),
    "va": (
        "s'en-va",
        "s’en-va",
        "sen-va",
        "s-en-va",
        "m'en-vais",
        "je-m'en-vais",
        "men-vais",
        "va",
        "part",
        "leave",
        "leaves",
        "go",
        "goes",
    ),
    "nmp": ("ne-marque-pas", "je-ne-marque-pas", "nmp", "no-mark", "pass"),
    "tout": ("joue-pour-tout", "je-joue-pour-tout", "pour-tout", "jpt", "play-for-all"),
    "pavillon": ("pavillon", "prend-le-pavillon", "flag"),
    "ecole": ("école", "ecole", "school"),
    "corr": ("correction", "corr", "fix"),
    # both build a Replay; the canonical word says who decided (docs/notation.md)
    "replay": ("fait-jouer", "fait-rejouer", "impose", "remedy", "rejoue", "rejoué", "replay"),
    # demands of the other player (docs/notation.md; 003 §187, §213)
    "force": ("force", "oblige"),
    "fait-marquer": ("fait-marquer", "oblige-a-marquer"),
    "remet": ("remet", "remet-a", "efface"),
}.items():
    for _w in _words:
        ACTION_WORDS[_w] = _kind

KEYWORDS_HINT = (
    "reste, s'en-va, ne-marque-pas, joue-pour-tout, pavillon, école+N, correction±N, fait-jouer(…), "
    "rejoue(…), force(…), fait-marquer(…), remet(…)"
)
# one token inside the parentheses of a replay: a move, a cannot-play or "--"
_REPLAY_TOKEN = re.compile(r"([0-9]{1,9})/([0-9]{1,9}|[oO][fF][fF]|[bB]ande|[oO])|[-xX]([0-9]{1,9})|(--)").fullmatch
_REPLAY_SPLIT = re.compile(r"\S+").finditer
# the body of fait-marquer(B+4t1) and of remet(A-2t-1)
_DEMAND_MARK = re.compile(r"([A-D])\+([0-9]{1,9})(?:t([0-9]{1,9}))?([bs])?").fullmatch
_DEMAND_REMET = re.compile(r"([A-D])([+-][0-9]{1,9})(?:t([+-][0-9]{1,9}))?").fullmatch
_UNESC_REASON = re.compile(r"\\([\\)])")
_tuple_new = tuple.__new__

_MOVE_RANGE = "a move goes from a point 1..24 to a point 1..24 or 'off'"
_DIE_RANGE = "'cannot play' names a die number 1..6"


class Diagnoser(Protocol):
    """The parser's game (notation/reader.py ``_Game``) as this module reports to it."""

    def diag(
        self, code: str, severity: str, line: int, col: int, end_col: int, offset: int, message: str, text: str = ""
    ) -> None: ...

    def _big(
        self, value: int, bound: int, what: str, line: int, col: int, end_col: int, off: int, text: str
    ) -> bool: ...


class _ActionToken(NamedTuple):
    """One action token: its side and keyword, its text and where it stands."""

    who: str
    word: str
    raw: str
    line: int
    col: int
    end_col: int
    off: int
    span: Span


def read_action(g: Diagnoser, m: re.Match[str], line: int, col: int, end_col: int, off: int) -> Action | None:
    """The action of the token ``m`` (group ``act`` of the parser's pattern), or None
    (diagnosed) when it cannot be read."""
    word = m.group("ac_word")
    kind = ACTION_WORDS.get(word.lower())
    span = Span(line, col, line, end_col, off)
    token = _ActionToken(m.group("ac_who"), word, m.group("act"), line, col, end_col, off, span)
    num, holes, reason = m.group("ac_num"), m.group("ac_holes"), m.group("ac_reason")
    if reason is not None and "\\" in reason:
        reason = _UNESC_REASON.sub(r"\1", reason)
    if kind is None:
        g.diag(
            "unknown-keyword", "error", line, col + 2, end_col, off + 2, "unknown keyword (" + KEYWORDS_HINT + ")", word
        )
        return None
    numbered = num is not None or holes is not None
    if kind in ("replay", "force"):
        r = _replay(g, m, token, numbered, kind == "force")
        return Force(r.who, r.moves, span) if kind == "force" and r is not None else r
    if kind in ("fait-marquer", "remet"):
        return _demand(g, token, kind, (reason or "").strip(), numbered)
    if kind == "ecole":
        return _ecole(g, token, num, holes, reason)
    if kind == "corr":
        return _correction(g, token, num, holes, reason)
    if numbered or reason is not None:
        message = f"'{word}' takes no number or reason; ignored"
        g.diag("bad-action", "warning", line, col, end_col, off, message, token.raw)
    return _plain(kind, token.who, span)


def _plain(kind: str, who: str, span: Span) -> Action:
    """An action of a bare keyword: a decision, ne-marque-pas, pavillon, joue-pour-tout."""
    if kind == "reste":
        return Decision(who, False, span)
    if kind == "va":
        return Decision(who, True, span)
    if kind == "nmp":
        return NeMarquePas(who, span)
    if kind == "pavillon":  # prendre le pavillon (RULES.md §5.4; 001 r.58)
        return Pavillon(who, span)
    return JouePourTout(who, span)


def _ecole(g: Diagnoser, token: _ActionToken, num: str | None, holes: str | None, reason: str | None) -> Ecole | None:
    """``A:école+4``: points marked by école (RULES.md §7.5)."""
    line, col, end_col, off, raw = token.line, token.col, token.end_col, token.off, token.raw
    if num is None:
        g.diag("bad-action", "error", line, col, end_col, off, "an école states its points: 'A:école+4'", raw)
        return None
    if holes is not None:
        message = "an école is counted in points, not holes (RULES.md §7.5)"
        g.diag("bad-action", "error", line, col, end_col, off, message, raw)
    if g._big(abs(int(num)), L.MAX_ECOLE_POINTS, "an école", line, col, end_col, off, raw):
        return None
    return Ecole(token.who, int(num), reason, token.span)


def _correction(
    g: Diagnoser, token: _ActionToken, num: str | None, holes: str | None, reason: str | None
) -> Correction | None:
    """``A:correction-2`` / ``A:correction+0t-1``: a change of a side's points and holes."""
    line, col, end_col, off, raw = token.line, token.col, token.end_col, token.off, token.raw
    if num is None and holes is None:
        message = "a correction states its change: 'A:correction-2' or 'A:correction+0t-1'"
        g.diag("bad-action", "error", line, col, end_col, off, message, raw)
        return None
    points, hole_change = int(num or 0), int(holes or 0)
    if g._big(abs(points), L.MAX_CORRECTION_POINTS, "a correction's points", line, col, end_col, off, raw) or g._big(
        abs(hole_change), L.MAX_CORRECTION_HOLES, "a correction's holes", line, col, end_col, off, raw
    ):
        return None
    return Correction(token.who, points, hole_change, reason, token.span)


def _demand(g: Diagnoser, token: _ActionToken, kind: str, body: str, numbered: bool) -> FaitMarquer | Remet | None:
    """``A:fait-marquer(B+4t1)`` (003 §185-187) and ``B:remet(A-2)`` (003 §187): a mark
    or a signed change of a side's jeton (and fichet) in the parentheses."""
    word = token.word.lower()
    line, col, end_col, off, raw, span = token.line, token.col, token.end_col, token.off, token.raw, token.span
    if kind == "fait-marquer":
        x = _DEMAND_MARK(body)
        ok = x is not None
        hint = "fait-marquer states the mark in parentheses: 'A:fait-marquer(B+4t1)'"
    else:
        x = _DEMAND_REMET(body)
        ok = x is not None and not (word == "efface" and int(x.group(2)) > 0)
        hint = "remet states a side and a signed number: 'B:remet(A-2)', 'A:remet(A+2t1)'"
    if not ok:
        g.diag("bad-action", "error", line, col, end_col, off, hint, raw)
        return None
    assert x is not None
    if numbered:
        message = f"'{word}' takes its number in parentheses; ignored"
        g.diag("bad-action", "warning", line, col, end_col, off, message, raw)
    if kind == "fait-marquer":
        bred = None if x.group(4) is None else x.group(4) == "b"
        mark = Mark(x.group(1), int(x.group(2)), None if x.group(3) is None else int(x.group(3)), bred, span)
        return FaitMarquer(token.who, mark, span)
    return Remet(token.who, x.group(1), int(x.group(2)), int(x.group(3) or 0), span)


def _replay(g: Diagnoser, m: re.Match[str], token: _ActionToken, numbered: bool, force: bool) -> Replay | None:
    """``B:fait-jouer(1/6 1/5)`` / ``A:rejoue(…)``: the throw played again, a table
    remedy (RULES.md §9.5; 003 §211, §216); ``force``: the same body for ``A:force(…)``
    (003 §213).  The contents are read like a coup's moves, each with its own span;
    any bad token drops the whole action."""
    line, col, end_col, off, raw = token.line, token.col, token.end_col, token.off, token.raw
    body = m.group("ac_reason")  # raw (escapes kept): a backslash is a bad move
    if body is None or not body.strip():
        if force:
            message = "a force states the moves it imposes: 'A:force(14/20)'"
        else:
            message = (
                "a replay states the play in parentheses: 'B:fait-jouer(1/12)', "
                "'A:rejoue(1/7 1/6)', '(--)' if no checker moves"
            )
        g.diag("bad-action", "error", line, col, end_col, off, message, raw)
        return None
    if numbered:
        g.diag("bad-action", "warning", line, col, end_col, off, "a replay takes no number; ignored", raw)
    base = col + m.start("ac_reason") - m.start("act")  # column of the body's first character
    moves = _replay_moves(g, token, body, base)
    return None if moves is None else Replay(token.who, tuple(moves), token.span)


def _replay_moves(g: Diagnoser, token: _ActionToken, body: str, base: int) -> list[Move | CannotPlay] | None:
    """The moves of a replay's ``body`` (its first character at column ``base``), or None
    when any is bad (each diagnosed)."""
    line = token.line
    moves: list[Move | CannotPlay] = []
    none_at = 0  # column of a "--"
    ok = True
    for t in _REPLAY_SPLIT(body):
        text = t.group()
        c = base + t.start()
        e = c + len(text)
        o = token.off + c - token.col
        x = _REPLAY_TOKEN(text)
        if len(moves) >= L.MAX_MOVES + L.MAX_CANNOT:
            message = (
                f"a replay has at most {L.MAX_MOVES} moves and {L.MAX_CANNOT} cannot-plays "
                "(a throw is two numbers, RULES.md §3.1)"
            )
            g.diag("too-many-moves", "error", line, c, e, o, message, text)
            ok = False
            break
        if x is not None and x.group(4) is not None:  # "--"
            if none_at:
                g.diag("bad-move", "error", line, c, e, o, "'--' written twice", text)
                ok = False
            none_at = c
            continue
        item, message = _replay_item(x, _tuple_new(Span, (line, c, line, e, o)))
        if item is None:
            g.diag("bad-move", "error", line, c, e, o, message, text)
            ok = False
        else:
            moves.append(item)
    if none_at and moves:
        message = "'--' says no checker moved, but moves are written"
        g.diag("bad-move", "error", line, none_at, none_at + 2, token.off + none_at - token.col, message, "--")
        ok = False
    return moves if ok else None


def _replay_item(x: re.Match[str] | None, span: Span) -> tuple[Move | CannotPlay | None, str]:
    """The move or cannot-play of one replay token ``x`` (not '--'), else None and why."""
    if x is None:
        return None, "a replay holds moves only: 'from/to', '-N' (cannot play) or '--' (no checker moved)"
    if x.group(3) is not None:
        n = int(x.group(3))
        return (CannotPlay(n, span), "") if 1 <= n <= 6 else (None, _DIE_RANGE)
    a = int(x.group(1))
    b = x.group(2)
    to = int(b) if b.isdigit() else OFF
    return (Move(a, to, span), "") if 0 < a < 25 and 0 < to <= OFF else (None, _MOVE_RANGE)
