"""Writing records back as canonical ``.trn`` text (docs/notation.md).

One spelling per keyword, tags in ``TAG_ROSTER`` order then the others as read, one
element per line.  ``parse_text(write_record(r))`` gives back ``r`` and writing is
idempotent (tests/test_notation_roundtrip.py).

Text that the format cannot hold is made safe rather than refused, so that writing
never fails: a blank line inside a comment is dropped (a comment never crosses a blank
line), line breaks in tag values and reasons become spaces.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final, TextIO

from .record import (
    OFF,
    TAG_ROSTER,
    CannotPlay,
    Comment,
    Correction,
    Coup,
    Decision,
    Ecole,
    FaitMarquer,
    Force,
    Glyph,
    JouePourTout,
    Mark,
    MarqueResult,
    MarqueStart,
    Move,
    NeMarquePas,
    Pavillon,
    Record,
    ReleveStart,
    Remet,
    Replay,
)
from .visitor import RecordVisitor, visit_action, visit_element

__all__ = [
    "COUP_WIDTH",
    "CoupValue",
    "MarkRow",
    "write_action",
    "write_coup",
    "write_element",
    "write_moves",
    "write_record",
    "write_records",
]

_LEAVE: Final = "s'en-va"
_BLANK_LINES = re.compile(r"\n[^\S\n]*(?=\n)")  # a blank line would end the comment (a last "\n" before "}" does not)
_TAG_START = re.compile(r"(^|\n)([^\S\n]*)\[")


def _comment(text: str) -> str:
    t = text.replace("\r", "").replace("\\", "\\\\").replace("}", "\\}")
    if "\n" in t:
        t = _BLANK_LINES.sub("", t)
        t = _TAG_START.sub(r"\1\2\\[", t)
    return "{" + t + "}"


def _reason(reason: str | None) -> str:
    if reason is None:
        return ""
    r = reason.replace("\r", " ").replace("\n", " ").replace("\\", "\\\\").replace(")", "\\)")
    return f"({r})"


def _change(points: int, holes: int) -> str:
    """A signed change of a jeton (and of the fichet when holes move): ``-2``, ``+0t-1``."""
    return f"{points:+d}t{holes:+d}" if holes else f"{points:+d}"


def _tag_value(v: str) -> str:
    return v.replace("\r", " ").replace("\n", " ").replace("\\", "\\\\").replace('"', '\\"')


class _Writer(RecordVisitor[str]):
    """The canonical text of each token (a visitor of :mod:`trictrac.notation.visitor`).

    ``side`` is the roller of the coup being written: a :class:`Replay` by the roller is
    written ``A:rejoue(…)``, one by anybody else (or with ``side`` unknown)
    ``B:fait-jouer(…)``, so that the written form says who decided (RULES.md §9.5)."""

    __slots__ = ("side",)

    def __init__(self, side: str | None = None) -> None:
        self.side = side

    def visit_move(self, move: Move) -> str:
        return _move_text(move.from_, move.to)

    def visit_mark(self, mark: Mark) -> str:
        return _mark_text(mark.who, mark.points, mark.holes, mark.bredouille)

    def visit_cannot_play(self, token: CannotPlay) -> str:
        return f"-{token.number}"

    def visit_comment(self, comment: Comment) -> str:
        return _comment(comment.text)

    def visit_glyph(self, glyph: Glyph) -> str:
        return glyph.glyph

    def visit_decision(self, decision: Decision) -> str:
        return f"{decision.who}:{_LEAVE if decision.leave else 'reste'}"

    def visit_ne_marque_pas(self, token: NeMarquePas) -> str:
        return f"{token.who}:ne-marque-pas"

    def visit_joue_pour_tout(self, token: JouePourTout) -> str:
        return f"{token.who}:joue-pour-tout"

    def visit_pavillon(self, token: Pavillon) -> str:
        return f"{token.who}:pavillon"

    def visit_ecole(self, ecole: Ecole) -> str:
        return f"{ecole.claimant}:école{ecole.points:+d}{_reason(ecole.reason)}"

    def visit_correction(self, correction: Correction) -> str:
        return f"{correction.who}:correction{_change(correction.points, correction.holes)}{_reason(correction.reason)}"

    def visit_replay(self, replay: Replay) -> str:
        word = "rejoue" if replay.who == self.side else "fait-jouer"
        body = " ".join(self._text(m) for m in replay.moves) or "--"
        return f"{replay.who}:{word}({body})"

    def visit_force(self, force: Force) -> str:
        return f"{force.who}:force({' '.join(self._text(m) for m in force.moves)})"

    def visit_fait_marquer(self, token: FaitMarquer) -> str:
        return f"{token.who}:fait-marquer({self.visit_mark(token.mark)})"

    def visit_remet(self, remet: Remet) -> str:
        return f"{remet.who}:remet({remet.target}{_change(remet.points, remet.holes)})"

    def visit_coup(self, coup: Coup) -> str:
        return _coup_text(coup)

    def visit_releve_start(self, start: ReleveStart) -> str:
        return f"relevé {start.number}"

    def visit_marque_start(self, start: MarqueStart) -> str:
        s = f"marqué {start.number}"
        if start.players:
            s += f" {start.players[0]}-{start.players[1]}"
        return s

    def visit_marque_result(self, result: MarqueResult) -> str:
        s = "résultat " + ("refait" if result.refait or result.winner is None else result.winner)
        s += f" {result.winner_holes}-{result.loser_holes}"
        if result.bredouille != "none":
            s += f" {result.bredouille}-bredouille"
        if result.value is not None:
            s += f" valeur {result.value}"
        return s

    def _text(self, token: object) -> str:
        return visit_action(token, self) or ""


def _move_text(from_: int, to: int) -> str:
    return f"{from_}/{'off' if to == OFF else to}"


def _mark_text(who: str, points: int, holes: int | None, bredouille: bool | None) -> str:
    s = f"{who}+{points}"
    if holes is not None:
        s += f"t{holes}"
    if bredouille is not None:
        s += "b" if bredouille else "s"
    return s


_PLAIN: Final = _Writer()

# The hot tokens' texts, looked up rather than formatted (write_record is ~2/3 of its
# time formatting them): the visitor's own strings; a value out of a table goes through
# the visitor.  The keys are the fields' values, so a field of another type than the
# record's (a bool for an int) may read as its equal.  Made from the fields, no record
# made per entry (a few ms of ``db import``'s start-up: issue 30).  ``Final``: compiled, each is
# a constant of the extension, not a name looked up in the module's dictionary at each use
# (seven lookups a coup; issue 30, eighth pass); so are the record classes the writer tests for.
_MOVE: Final = Move
_MARK: Final = Mark
_COUP: Final = Coup
_DECISION: Final = Decision
_NO_TEXT: Final[dict[int, str]] = {}
_MOVE_TEXT: Final[dict[int, dict[int, str]]] = {
    a: {t: _move_text(a, t) for t in range(1, OFF + 1)} for a in range(1, OFF)
}
_MARK_TEXT: Final[dict[tuple[str, int, int | None, bool | None], str]] = {
    (w, p, h, b): _mark_text(w, p, h, b)
    for w in "ABCD"
    for p in range(49)
    for h in (None, 1, 2, 3, 4)
    for b in (None, True, False)
}
_CANNOT_TEXT: Final = {n: _PLAIN.visit_cannot_play(CannotPlay(n)) for n in range(1, 7)}
_HEAD_TEXT: Final = {n: f"{n}. " for n in range(1, 1000)}
_ROLL_TEXT: Final = {(a, b): f" {a}-{b}" for a in range(1, 7) for b in range(1, 7)}


def _put(parts: list[str], tokens: tuple[object, ...], side: str) -> None:
    """Append the text of a coup's ``tokens`` (the coup's roller: ``side``)."""
    append = parts.append
    moves = _MOVE_TEXT
    writer = None
    for a in tokens:
        t = type(a)
        text = None
        if t is _MOVE:
            text = moves.get(a.from_, _NO_TEXT).get(a.to)  # type: ignore[attr-defined]
        elif t is _MARK:
            text = _MARK_TEXT.get((a.who, a.points, a.holes, a.bredouille))  # type: ignore[attr-defined]
        elif t is _DECISION:  # s'en aller or rester: not through the visitor's dispatch
            text = _PLAIN.visit_decision(a)  # type: ignore[arg-type]
        elif t is CannotPlay:
            text = _CANNOT_TEXT.get(a.number)  # type: ignore[attr-defined]
        if text is None:
            if writer is None:
                writer = _Writer(side)
            text = visit_action(a, writer) or ""
        append(text)


def _coup_text(coup: Coup, moves_out: list[str] | None = None) -> str:
    """The canonical line of a coup (as the visitor would write it, token by token);
    ``moves_out`` given: the text of its moves alone is appended to it (``-`` when none is
    written), the club database's ``coups.moves`` written with the line (issue 30)."""
    line, moves = _line(coup.number, coup.side, coup.roll, coup.moves, coup.before, coup.after)
    if moves_out is not None:
        moves_out.append(moves)
    return line


def _line(
    number: int,
    side: str,
    roll: tuple[int, int],
    moves: tuple[object, ...],
    before: tuple[object, ...],
    after: tuple[object, ...],
) -> tuple[str, str]:
    """A coup's canonical line and the text of its moves alone (``-`` when none is written)."""
    head = _HEAD_TEXT.get(number)
    roll_text = _ROLL_TEXT.get(roll) if type(roll) is tuple else None
    if head is None or roll_text is None:
        head, roll_text = f"{number}. ", f" {roll[0]}-{roll[1]}"
    # each line built in one piece (one string, not one a "+"): a coup's line is most of
    # the text the club's import writes for every game (issue 30)
    text = "-"
    if moves:
        table = _MOVE_TEXT
        m = moves[0]
        text_ = table.get(m.from_, _NO_TEXT).get(m.to) if type(m) is _MOVE else None  # type: ignore[attr-defined]
        if len(moves) == 2 and text_ is not None:  # most coups: two moves, looked up
            m = moves[1]
            second = table.get(m.from_, _NO_TEXT).get(m.to) if type(m) is _MOVE else None  # type: ignore[attr-defined]
            text_ = None if second is None else f"{text_} {second}"
        elif len(moves) != 1:
            text_ = None
        if text_ is None:
            texts: list[str] = []
            for m in moves:
                t = table.get(m.from_, _NO_TEXT).get(m.to) if type(m) is _MOVE else None  # type: ignore[attr-defined]
                if t is None:
                    _put(texts, (m,), side)
                else:
                    texts.append(t)
            text_ = " ".join(texts)
        text = text_
        if not before and not after:
            return f"{head}{side}{roll_text} {text}", text
    elif not before and not after:
        return f"{head}{side}{roll_text}", text
    parts = [f"{head}{side}{roll_text}"]
    if before:
        _put(parts, before, side)
    if moves:
        parts.append(text)
    elif after:
        parts.append("--")  # no checker moved: what follows is after the (absent) play
    if after:
        _put(parts, after, side)
    return " ".join(parts), text


def write_action(a: object, side: str | None = None) -> str:
    """The canonical token of one action or move (``side``: the coup's roller, see
    :class:`_Writer`)."""
    if type(a) is _MARK:  # most actions: looked up (the club's import writes one a mark row)
        text = _MARK_TEXT.get((a.who, a.points, a.holes, a.bredouille))
        if text is not None:
            return text
    return visit_action(a, _Writer(side) if side is not None else _PLAIN) or ""


def write_coup(c: Coup) -> str:
    return _coup_text(c)


def write_element(e: object) -> str:
    return _coup_text(e) if type(e) is _COUP else visit_element(e, _PLAIN) or ""  # type: ignore[arg-type]


#: a coup's values in :func:`write_record`'s ``coups_out``, one after the other (a flat list:
#: no tuple a coup, the store binds slices of it; issue 30)
COUP_WIDTH: Final = 9
#: one of them (``coups_out`` holds :data:`COUP_WIDTH` a coup)
CoupValue = int | str | None
#: a mark's row of :func:`write_record`'s ``marks_out``: its points, holes, bredouille and leave
#: :data:`NO_VALUE` when it has none
MarkRow = tuple[int, int, int, str, str, str, int, int, int, int, str, int | None, int | None]
#: an empty column of a :data:`MarkRow` (points, holes, bredouille, leave: never negative when
#: given): the store binds it and SQLite stores NULL (``NULLIF``), a ``None`` bound from Python
#: costing the ``sqlite3`` module ten times an integer (issue 30)
NO_VALUE: Final = -1


def write_record(
    record: Record,
    moves_out: list[str] | None = None,
    coups_out: list[CoupValue] | None = None,
    marks_out: list[MarkRow] | None = None,
    others_out: list[tuple[int, int, int]] | None = None,
) -> str:
    """The canonical text of one game, ending with a newline ("" for an empty record:
    no tags and no movetext, e.g. a junk-only game the reader kept for its diagnostics).
    ``moves_out`` given: the moves of each coup in order are appended to it as
    :func:`write_moves` writes them (the club's import writes both at once).

    The club database's rows of the coups and of their marks, built in the same pass as the
    text (issue 30), with ``coups_out``, ``marks_out`` and ``others_out`` all given:

    * ``coups_out``: each coup's :data:`COUP_WIDTH` values ``relevé, index, number, side, die1,
      die2, moves, line, col``, one coup after the other: the ordinal of the relevé it is
      written in (1 for the game's first ``relevé``; None before the first one and from a
      ``marqué`` line to the next ``relevé``), its 0-based
      index among the game's coups, its number and side as written, its dice, its moves as
      :func:`write_moves` writes them, where it was read (None: unknown);
    * ``marks_out``: each :class:`Mark` and :class:`Decision` of a coup (nearly every action),
      ``(id, coup index, order in the coup, phase, kind, who, points, holes, bredouille, leave,
      token, line, col)``: its ordinal among the game's actions (1-based), its coup's index, its
      order among the coup's actions (``before`` then ``after``), ``"before"`` or ``"after"``,
      ``"mark"`` or ``"decision"``, its fields (:data:`NO_VALUE`: not a field of its kind, or not
      written; bredouille and leave 1 or 0), its token as :func:`write_action` writes it, where it was
      read;
    * ``others_out``: the rest to read, in order, ``(element index, coup index, id of the coup's
      first action)``: each element that is not a coup (coup index -1) and each coup with
      another action."""
    h = record.headers
    if not h and not record.elements:
        return ""
    lines = [f'[{k} "{_tag_value(h[k])}"]' for k in TAG_ROSTER if k in h]
    lines.extend(f'[{k} "{_tag_value(v)}"]' for k, v in h.items() if k not in TAG_ROSTER)
    if record.elements:
        if lines:
            lines.append("")
        coup_text = _coup_text
        if coups_out is not None and marks_out is not None and others_out is not None:
            _write_with_rows(record, lines, moves_out, coups_out, marks_out, others_out)
        elif moves_out is None:
            lines.extend([coup_text(e) if type(e) is _COUP else write_element(e) for e in record.elements])  # type: ignore[arg-type]
        else:
            lines.extend(
                [coup_text(e, moves_out) if type(e) is _COUP else write_element(e) for e in record.elements]  # type: ignore[arg-type]
            )
    return "\n".join(lines) + "\n"


def _write_with_rows(
    record: Record,
    lines: list[str],
    moves_out: list[str] | None,
    coups_out: list[CoupValue],
    marks_out: list[MarkRow],
    others_out: list[tuple[int, int, int]],
) -> None:
    """:func:`write_record`'s movetext lines and the rows of its coups and marks."""
    releve: int | None = None
    releves = 0
    n = 0  # the coup's index in the game
    actions = 0  # the game's actions so far
    append = lines.append
    for i, e in enumerate(record.elements):
        if type(e) is _COUP:
            number, side, roll, span = e.number, e.side, e.roll, e.span
            line = e.canonical_line
            if line is None:
                before, after = e.before, e.after
                line, moves = _line(number, side, roll, e.moves, before, after)
            else:
                # the line as read is the one _line writes (Coup.canonical_line, issue 30): a
                # plain coup, "N. S a-b" then its moves, if any; nothing before or after them
                before = after = ()
                k = line.find(" ") + 7
                moves = line[k:] if len(line) > k else "-"
            append(line)
            if moves_out is not None:
                moves_out.append(moves)
            # the coup's COUP_WIDTH values appended one by one: no tuple made and unpacked again
            coups_out.append(releve)
            coups_out.append(n)
            coups_out.append(number)
            coups_out.append(side)
            coups_out.append(roll[0])
            coups_out.append(roll[1])
            coups_out.append(moves)
            coups_out.append(span[0] or None)
            coups_out.append(span[1] or None)
            if before or after:
                first, marks = actions + 1, len(marks_out)
                actions = _mark_rows(n, side, before, "before", actions, 0, marks_out)
                actions = _mark_rows(n, side, after, "after", actions, len(before), marks_out)
                if len(marks_out) - marks < len(before) + len(after):  # another action
                    others_out.append((i, n, first))
            n += 1
        else:
            if type(e) is ReleveStart:
                releves += 1
                releve = releves
            elif type(e) is MarqueStart:
                releve = None
            others_out.append((i, -1, 0))
            append(write_element(e))


def _mark_rows(
    n: int, side: str, tokens: tuple[object, ...], phase: str, actions: int, k: int, out: list[MarkRow]
) -> int:
    """The rows of the :class:`Mark` and :class:`Decision` actions among ``tokens`` (the coup's
    ``phase``, its index ``n``; its actions before them: ``k``, the game's: ``actions``); the
    game's actions after them."""
    for a in tokens:
        actions += 1
        if type(a) is _MARK:
            who, points, holes, bredouille = a.who, a.points, a.holes, a.bredouille
            text = _MARK_TEXT.get((who, points, holes, bredouille))
            if text is None:
                text = visit_action(a, _Writer(side)) or ""
            span = a.span
            h = NO_VALUE if holes is None else holes
            b = NO_VALUE if bredouille is None else int(bredouille)
            out.append(
                (actions, n, k, phase, "mark", who, points, h, b, NO_VALUE, text, span[0] or None, span[1] or None)
            )
        elif type(a) is _DECISION:
            who, leave = a.who, a.leave
            span = a.span
            text = _PLAIN.visit_decision(a)
            out.append(
                (
                    actions,
                    n,
                    k,
                    phase,
                    "decision",
                    who,
                    NO_VALUE,
                    NO_VALUE,
                    NO_VALUE,
                    int(leave),
                    text,
                    span[0] or None,
                    span[1] or None,
                )
            )
        k += 1
    return actions


def write_moves(coup: Coup) -> str:
    """The coup's checker moves alone, as its line writes them: ``1/7 1/6``, ``19/off``,
    ``-5`` (cannot play a 5); ``-`` when none is written."""
    out: list[str] = []
    _coup_text(coup, out)
    return out[0]


def write_records(records: Iterable[Record], out: TextIO | None = None) -> str | None:
    """Canonical text of many games, separated by a blank line.  With ``out``, write
    game by game to the stream (for archives) and return None."""
    texts = (t for t in map(write_record, records) if t)
    if out is None:
        return "\n".join(texts)
    first = True
    for t in texts:
        if not first:
            out.write("\n")
        out.write(t)
        first = False
    return None
