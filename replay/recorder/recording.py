"""A recording session: a game written coup by coup as it is played (issue 16).

UI-free, so that ``trictrac record`` (``cli/record.py``) and a later web front end share
it.  A :class:`RecordingSession` holds the record written so far; everything else (the
position, the score, whose turn, what the next throw is worth) is derived from that
record by the verifier (``replay.verifier.verify``), which is therefore the one authority on
the score as it stands at the table, mistakes included (RULES.md §7.3).  Entries are
text, one per stage of a coup:

* ``roll``:  ``6-5``, ``65``, ``5-6`` or a doublet name (``sonnez``);
* ``play``:  the number of a legal play as listed, the moves (``1/7 1/6``, illegal
  ones too: they are written as played and flagged), ``v`` for *je m'en vais* when
  the roller's own gains completed a hole (RULES.md §6.1), or Enter (empty) for the
  only play.  Marks typed after the play (``3 B+2``) replace the default marks;
* ``marks``: Enter accepts what the rules give (shown as the default), or the marks as
  really made, in notation (``A+2 B+4 B:école+2 A:ne-marque-pas``…): the roller's
  marks and decision go before the moves, the rest after (docs/notation.md).

:meth:`RecordingSession.enter` returns a :class:`Step`: the new :class:`State`, the
text appended to the record (``""`` when the coup is not complete yet) and messages,
among them the mistakes flagged at once in the game's words.  :meth:`undo`,
:meth:`comment`, :meth:`board_text` and :meth:`score_text` complete the API.

With a ``path`` the record is written after every coup: the new lines are appended,
flushed and fsync'ed, so the file is always the canonical text of the game so far
(``trictrac fmt --check`` passes, ``trictrac check`` reads it); an undo, a comment or
the final ``Result`` rewrite the whole file atomically (``notation.textio``).
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from ...notation.identity import GAME_ID_TAG, explicit_game_id
from ...notation.reader import DOUBLET_NAMES, parse_text
from ...notation.record import (
    Action,
    CannotPlay,
    Comment,
    Coup,
    Decision,
    Diagnostic,
    Element,
    JouePourTout,
    Mark,
    MarqueResult,
    MarqueStart,
    Move,
    NeMarquePas,
    Pavillon,
    Record,
    ReleveStart,
)
from ...notation.writer import write_action, write_element, write_record
from ...words import SaidError, Words, words
from ..generate.selfplay import coup_element, evaluate, play_moves
from ..rules.course import after_leave, close_marque, partie_over, primaute_after_marque
from ..rules.game import Game, find_play, moves_text, partie_kind, start_of
from ..rules.ledger import ScoreState
from ..rules.moves import Play, PlaySet, judge_play
from ..rules.partie import twelve_hole_winner
from ..rules.position import Position, other_side, start_position
from ..rules.profiles import DEFAULT_PROFILE, Profile, find_profile
from ..rules.scoring import CoupScore, ScoringEvent
from ..verifier.findings import Finding, say
from ..verifier.verify import CoupTrace, GameReport, LiveVerifier, OpenClaim
from .record_file import RecordFile, RecordFileError, read_record_text

__all__ = [
    "ROLLS",
    "RecordingError",
    "RecordingSession",
    "claim_text",
    "finding_text",
    "State",
    "Step",
    "event_words",
    "marks_of",
    "parse_roll",
    "type_coup",
]

#: the 21 throws, larger number first (completion list)
ROLLS: tuple[str, ...] = tuple(f"{a}-{b}" for a in range(6, 0, -1) for b in range(a, 0, -1))

_ROLL = re.compile(r"^\s*([1-6])\s*-?\s*([1-6])\s*$")
_MOVE = re.compile(r"^(\d{1,2})/(\d{1,2}|off|o|bande)$")
_CANNOT = re.compile(r"^[-x]([1-6])$")


class RecordingError(SaidError):
    """An entry the session cannot take: a catalogue key and its fields
    (:class:`trictrac.words.SaidError`); ``str(e)`` says why in one line in the
    session's language ``lang``, and :meth:`say` words it in another (a viewer of the
    server's pages)."""

    def __init__(
        self, key: str, /, *, where: tuple[str, int] | None = None, lang: str | Words = "en", **fields: object
    ) -> None:
        super().__init__(key, where=where, **fields)
        self.lang = words(lang).lang
        self.args = (self.say(self.lang),)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_recording_error, (type(self), self.key, self.where, self.fields, self.lang))

    @classmethod
    def said(cls, W: Words, key: str, **fields: object) -> RecordingError:
        """The refusal ``key`` in ``W``'s language, its words kept for :meth:`say`."""
        return cls(key, where=None, lang=W, **fields)

    @classmethod
    def unreadable(cls, d: Diagnostic, name: str, lang: str | Words = "en") -> RecordingError:
        """A record the reader refused: its first error (``file:line:col: error: code:
        message``), said in the language."""
        return cls("w6.rec.diag", lang=lang, name=name, line=d.span.line, col=d.span.col, code=d.code, diag=d)


def _recording_error(
    cls: type[RecordingError], key: str, where: tuple[str, int] | None, fields: dict[str, object], lang: str
) -> RecordingError:
    return cls(key, where=where, lang=lang, **fields)


def parse_roll(text: str) -> tuple[int, int] | None:
    """``(larger, smaller)`` from ``6-5``, ``65``, ``5-6`` or a doublet name; None if not a roll."""
    m = _ROLL.match(text)
    if m:
        a, b = int(m.group(1)), int(m.group(2))
        return (a, b) if a >= b else (b, a)
    d = DOUBLET_NAMES.get(text.strip().lower())
    return (d, d) if d else None


def event_words(e: ScoringEvent, lang: str | Words = "fr") -> str:
    """One scoring event in the catalogue's words, its value apart from the point it
    names: ``battre à vrai sur la 7 (2 façons) = 8`` (the point in the roller's frame)."""
    W = words(lang)
    s = W.get(f"event.{e.kind}", e.kind)
    if e.how:
        s = W("event.said", kind=s, how=e.how)
    if e.target is not None:
        s = W("rec.event.target", event=s, n=e.target)
    if e.ways > 1:
        s = W("rec.event.ways", event=s, n=e.ways)
    return W("rec.event.value", event=s, points=e.points)


def _words(cs: CoupScore, side: str, W: Words) -> str:
    return ", ".join(event_words(e, W) for e in cs.events if e.side == side) or W("rec.nothing")


@dataclass(frozen=True, slots=True)
class State:
    """What a front end shows before the next entry (immutable).

    ``stage`` is ``"roll"``, ``"play"``, ``"marks"`` or ``"over"``; ``side`` throws
    and every point number shown is in his frame (his talon is 1; RULES.md §2.2).  ``plays`` are the
    legal plays numbered from 1 (most plausible first), ``default_marks`` the marks the
    rules give for the chosen play (the ``marks`` stage's Enter), ``worth`` lines
    saying what the throw is worth to each side.
    """

    stage: str
    side: str
    number: int
    roll: tuple[int, int] | None = None
    plays: tuple[str, ...] = ()
    can_leave: bool = False
    default_marks: str = ""
    worth: tuple[str, ...] = ()
    finished: bool = False
    result: str = "*"
    #: the écoles that may still be marked (RULES.md §7.2), in words: at the throw's
    #: prompt a claim typed (``B:école+4``) goes to the last coup, in time
    claims: tuple[str, ...] = ()
    #: the language of the words (``fr`` or ``en``, the catalogue's)
    lang: str = "fr"

    @property
    def prompt(self) -> str:
        W = words(self.lang)
        if self.stage == "roll":
            return W("rec.prompt.roll", n=self.number, side=self.side) + " "
        if self.stage == "play":
            roll = self.roll
            assert roll is not None  # the play stage follows the throw
            return W("rec.prompt.play", n=self.number, side=self.side, roll=f"{roll[0]}-{roll[1]}") + " "
        if self.stage == "marks":
            return W("rec.prompt.marks", n=self.number, side=self.side, marks=self.default_marks or "—") + " "
        return W("rec.prompt.over") + " "


@dataclass(frozen=True, slots=True)
class Step:
    """The result of one entry: the new state, the text appended to the record, messages."""

    state: State
    appended: str = ""
    messages: tuple[str, ...] = ()


@dataclass(slots=True)
class _Entry:
    """The coup being entered (internal)."""

    roll: tuple[int, int]
    game: Game
    plays: tuple[Play, ...]
    playset: PlaySet
    can_leave: bool
    ends: bool
    worth: tuple[str, ...]
    moves: tuple[Move | CannotPlay, ...] = ()
    leave: bool = False
    defaults: Coup | None = None


#: marks typed, as (before the checker moves, after them)
_Marks = tuple[tuple[Action, ...], tuple[Action, ...]]


class _Played(NamedTuple):
    """The play typed at the play stage (internal)."""

    moves: tuple[Move | CannotPlay, ...]
    leave: bool
    marks: _Marks | None  # marks typed after the play, if any
    problem: str | None  # why the play is illegal (written as is), None when legal


@dataclass(slots=True)
class _Table:
    """The table before the next coup, derived from the record (internal)."""

    position: Position
    score: ScoreState
    number: int
    finished: bool
    winner: str | None
    forced_roll: tuple[int, int] | None = None
    releve: int = 1
    marque: int = 1


@dataclass(frozen=True, slots=True)
class _Agreement:
    """What the record's tags fix for the whole game (internal): the kind of partie,
    its marqués, the profile, and who throws first when the record holds no coup and no
    ``Position``."""

    kind: str
    marques: int
    profile: Profile
    first: str


# -- the table, derived from the record ---------------------------------------------------


class _Tally:
    """The marqués begun (their indices) and the marqué results of the record, kept as
    it grows: an entry costs the same at coup 10 and at coup 10,000 (internal).  A
    record changed before its end (an undo, a comment) is counted again."""

    def __init__(self) -> None:
        self.n = 0
        self.last: object = None
        self.starts: list[int] = []
        self.results: list[MarqueResult] = []

    def of(self, els: list[Element]) -> _Tally:
        n = self.n
        if n > len(els) or (n and els[n - 1] is not self.last):
            self.__init__()  # type: ignore[misc]
            n = 0
        for i in range(n, len(els)):
            e = els[i]
            if isinstance(e, MarqueStart):
                self.starts.append(i)
            elif isinstance(e, MarqueResult):
                self.results.append(e)
        self.n = len(els)
        self.last = els[-1] if els else None
        return self


def _derive_table(record: Record, trace: list[CoupTrace], rules: _Agreement, tally: _Tally | None = None) -> _Table:
    """The table before the next coup: position, score, numbers, the end of the partie,
    a throw played again (RULES.md §6.5, §8.1-8.2)."""
    els = record.elements
    tally = (tally or _Tally()).of(els)
    marque = max(1, len(tally.starts))
    releve = next((e.number for e in reversed(els) if isinstance(e, ReleveStart)), 1)  # within the marqué
    number = _next_coup_number(els)
    if not trace:
        if record.start:
            pos, score = start_of(record.start)
            number = pos.mover_coups + pos.other_coups + 1 if number == 1 else number
        else:
            pos, score = start_position(rules.first), ScoreState()
        return _Table(pos, score, number, False, None, None, releve, marque)
    last = trace[-1]
    pos, score = last.position_after, last.score_standing
    if isinstance(els[-1], ReleveStart) and any(isinstance(e, MarqueStart) for e in els[-2:]):
        score = ScoreState()  # a new marqué: fresh score (RULES.md §8.2)
        pos = start_position(_marque_primaute(els, rules.profile, tally))
    if last.releve_ended:
        number = 1
    winner = None
    if rules.kind == "douze-trous":
        winner = twelve_hole_winner(last.score_standing)
        finished = winner is not None
    else:
        finished = sum(1 for e in tally.results if not e.refait) >= rules.marques
    forced = None
    last_coup = next(e for e in reversed(els) if isinstance(e, Coup))
    if last.releve_ended and not last.left and any(isinstance(a, JouePourTout) for a in last_coup.before):
        forced = last_coup.roll  # je joue pour tout (RULES.md §6.5)
    return _Table(pos, score, number, finished, winner, forced, releve, marque)


def _next_coup_number(els: list[Element]) -> int:
    """The number of the next coup in the relevé the record ends in."""
    for e in reversed(els):
        if isinstance(e, Coup):
            return e.number + 1
        if isinstance(e, (ReleveStart, MarqueStart)):
            break
    return 1


def _marque_primaute(els: list[Element], profile: Profile, tally: _Tally) -> str:
    """Who throws first in the new marqué (``course.primaute_after_marque``: the winner
    or the leaver by the profile, RULES.md §8.2 D21; after a refait whoever threw
    first in it, 003 §226)."""
    result = next(e for e in reversed(els) if isinstance(e, MarqueResult))
    leaver = next(e for e in reversed(els) if isinstance(e, Coup)).side
    starts = tally.starts
    first = _first_thrower(els, starts[-2] if len(starts) >= 2 else -1, leaver)
    winner = None if result.refait else (result.winner or leaver)
    return primaute_after_marque(winner, leaver, first, profile)


def _first_thrower(els: list[Element], start: int, default: str) -> str:
    """Who threw first in the marqué whose ``MarqueStart`` is element ``start``."""
    return next((e.side for e in els[start + 1 :] if isinstance(e, Coup)), default)


def _sections_after(
    trace: CoupTrace, els: list[Element], table: _Table, rules: _Agreement, tally: _Tally | None = None
) -> list[Element]:
    """The sections after a coup that ended its relevé (RULES.md §6.2, §8.1-8.2)."""
    st = trace.score_standing
    out: list[Element] = []
    if rules.kind == "douze-trous":
        if twelve_hole_winner(st) is None:
            out.append(ReleveStart(table.releve + 1))
        return out
    leaver = trace.side
    mo = after_leave(rules.kind, st, leaver, rules.profile).marque if trace.left else None
    if mo is None:
        out.append(ReleveStart(table.releve + 1))
        return out
    tally = (tally or _Tally()).of(els)
    refaits = 0
    for e in reversed(tally.results):
        if not e.refait:
            break
        refaits += 1
    starts = tally.starts
    first = _first_thrower(els, starts[-1] if starts else -1, leaver)
    m = close_marque(table.marque, mo, leaver, first, refaits, rules.profile).outcome
    out.append(MarqueResult(m.winner, m.winner_holes, m.loser_holes, m.bredouille, m.refait, m.value))
    results = [*tally.results, *(e for e in out if isinstance(e, MarqueResult))]
    if not partie_over(results, rules.marques):
        out.append(MarqueStart(table.marque + 1))
        out.append(ReleveStart(1))
    return out


# -- the coup being entered --------------------------------------------------------------


def _start_entry(table: _Table, rules: _Agreement, roll: tuple[int, int], W: Words) -> _Entry:
    """The coup of ``roll``: its legal plays (most plausible first) and what it is worth."""
    g = Game(rules.kind, rules.profile, start=table.position, score=table.score, marques=max(1, rules.marques))
    ps = g.legal(roll)
    cs = g.entitled(roll)
    state, holes = g.after_gains(roll)
    can_leave = g.can_leave(roll)
    ends = rules.kind == "douze-trous" and holes > 0 and state[g.turn].holes >= 12
    worth = _worth_lines(g.turn, cs, (state, holes), can_leave, ends, W)
    opp_mf = g.position.other_in_mover_frame()
    plays = tuple(sorted(ps.plays, key=lambda p: (-evaluate(p.result, opp_mf), p.text())))
    return _Entry(roll, g, plays, ps, can_leave, ends, worth)


def _worth_lines(
    side: str, cs: CoupScore, after_gains: tuple[ScoreState, int], can_leave: bool, ends: bool, W: Words
) -> tuple[str, ...]:
    """What the throw is worth to each side, in the catalogue's words (RULES.md §4-§6):
    ``cs`` what it entitles, ``after_gains`` the roller's score and holes after his gains."""
    state, holes = after_gains
    worth = [W("rec.worth.side", side=side, events=_words(cs, "mover", W), total=cs.mover)]
    if holes:
        line = W.n("rec.worth.holes", holes)
        if can_leave:
            line = W("rec.worth.can_leave", text=line)
        if ends:
            line = W("rec.worth.ends", text=line)
        worth.append("   " + line)
    elif cs.mover and state[side].bredouille:
        worth.append("   " + W("rec.worth.bredouille"))
    worth.append(W("rec.worth.side", side=other_side(side), events=_words(cs, "other", W), total=cs.other))
    return tuple(worth)


def _default_coup(e: _Entry, number: int) -> Coup:
    """The coup as perfect players mark it (``selfplay.coup_element``)."""
    g = e.game.copy()
    play = None if (e.leave or e.ends) else (find_play(e.playset, e.moves) if e.moves else None)
    if play is None and not (e.leave or e.ends) and e.moves:
        # an illegal play: nothing is due from it here; the verifier judges it
        return Coup(number, g.turn, e.roll, e.moves)
    if play is None and not (e.leave or e.ends) and len(e.plays) == 1:
        play = e.plays[0]
    out = g.apply_coup(e.roll, play, leave=e.leave)
    c = coup_element(number, out, e.playset.unplayable, compact=False)
    return replace(c, moves=e.moves) if e.moves else c


def _marks_text(c: Coup) -> str:
    return " ".join(write_action(a, c.side) for a in c.before + c.after)


def _with_marks(e: _Entry, marks: _Marks) -> Coup:
    """The default coup with the marks as typed (the roller's decision kept unless he
    typed one)."""
    before, after = marks
    d = e.defaults
    assert d is not None
    decided = [a for a in d.before if isinstance(a, Decision)]
    if decided and not any(isinstance(a, Decision) for a in before):
        before = before + tuple(decided)
    return Coup(d.number, d.side, d.roll, d.moves, before, after)


# -- reading the entries -----------------------------------------------------------------


def _read_roll(t: str, forced_roll: tuple[int, int] | None, W: Words) -> tuple[int, int]:
    """The throw typed (a throw played again must be the same, RULES.md §6.5)."""
    roll = parse_roll(t)
    if roll is None:
        raise RecordingError.said(W, "rec.err.roll")
    if forced_roll and roll != forced_roll:
        f = forced_roll
        raise RecordingError.said(W, "rec.err.pour_tout", roll=f"{f[0]}-{f[1]}")
    return roll


def _read_play(t: str, e: _Entry, side: str, profile: Profile, W: Words) -> _Played:
    """The play typed: a number, the moves (illegal ones written as played), ``v`` or
    Enter for the only play, then marks if any."""
    toks = t.split()
    play_toks = [x for x in toks if not ("+" in x or ":" in x or x.startswith("{"))]
    mark_toks = toks[len(play_toks) :] if toks[: len(play_toks)] == play_toks else None
    if mark_toks is None:
        raise RecordingError.said(W, "rec.err.play_then_marks")
    marks = _read_marks(" ".join(mark_toks), side, W) if mark_toks else None
    if e.ends:
        if play_toks:
            raise RecordingError.said(W, "rec.err.ends")
        return _Played((), False, marks, None)
    if not play_toks:
        if len(e.plays) == 1:
            return _Played(play_moves(e.plays[0], e.playset.unplayable), False, marks, None)
        raise RecordingError.said(W, "rec.err.plays", n=len(e.plays))
    if play_toks == ["v"]:
        if not e.can_leave:
            raise RecordingError.said(W, "rec.err.no_leave")
        return _Played((), True, marks, None)
    if len(play_toks) == 1 and play_toks[0].isdigit() and "/" not in play_toks[0]:
        n = int(play_toks[0])
        if not 1 <= n <= len(e.plays):
            raise RecordingError.said(W, "rec.err.no_play", n=n, last=len(e.plays))
        return _Played(play_moves(e.plays[n - 1], e.playset.unplayable), False, marks, None)
    moves = _read_moves(play_toks, W)
    if not moves:
        raise RecordingError.said(W, "rec.err.plays", n=len(e.plays))
    _check_checkers(e.game.position, moves, W)
    j = judge_play(e.game.position, e.roll, moves, profile)
    if j.legal and j.play is not None:
        return _Played(play_moves(j.play, e.playset.unplayable), False, marks, None)
    written = tuple(Move(mv[0], mv[1]) if isinstance(mv, tuple) else CannotPlay(mv) for mv in moves)
    problem = W.get(f"why.{j.violation or 'illegal'}", "") or W("why.illegal")
    return _Played(written, False, marks, problem)


def _read_moves(play_toks: list[str], W: Words) -> list[tuple[int, int] | int]:
    """The moves typed: ``1/7``, ``19/off``, ``-6`` (a number that cannot be played)."""
    moves: list[tuple[int, int] | int] = []
    for x in play_toks:
        m = _MOVE.match(x)
        c = _CANNOT.match(x)
        if m:
            a = int(m.group(1))
            b = 25 if not m.group(2).isdigit() else int(m.group(2))
            if not (1 <= a <= 24 and a < b <= 25):
                raise RecordingError.said(W, "rec.err.move", text=x)
            moves.append((a, b))
        elif c:
            moves.append(int(c.group(1)))
        elif x == "--":
            continue
        else:
            raise RecordingError.said(W, "rec.err.token", text=x)
    return moves


def _check_checkers(position: Position, moves: list[tuple[int, int] | int], W: Words) -> None:
    """Every move starts from a checker of his (RULES.md §9.6): the record could not go on."""
    counts = list(position.mover)
    for mv in moves:
        if isinstance(mv, tuple):
            if counts[mv[0]] <= 0:
                raise RecordingError.said(W, "rec.err.no_checker", n=mv[0])
            counts[mv[0]] -= 1
            counts[mv[1]] += 1


def _read_marks(t: str, side: str, W: Words) -> _Marks:
    """The actions typed (notation tokens) as ``(before, after)``."""
    if not t:
        return ((), ())
    recs, diags = parse_text(f"1. {side} 1-1 -- {t}\n")
    errors = [d for d in diags if d.severity == "error"]
    if errors or not recs or not recs[0].coups:
        raise RecordingError.said(W, "rec.err.marks")
    acts = recs[0].coups[0].after
    before = tuple(
        a
        for a in acts
        if isinstance(a, (Mark, NeMarquePas, Decision, JouePourTout, Pavillon)) and getattr(a, "who", None) == side
    )
    after = tuple(a for a in acts if not any(a is b for b in before))
    return before, after


# -- messages ----------------------------------------------------------------------------
# Every word the session says is here, in these functions (issue 25's catalogue swaps
# them): the verifier's findings rendered by one function, the open claims by another.

_Flag = tuple[int, str, str]  # (coup index, who, message) of a finding


def finding_text(f: Finding, lang: str = "fr") -> str:
    """A finding of the verifier as the recorder shows it (one line), in the catalogue's
    words (the recorder speaks French, as the table does)."""
    said = say(f, lang)
    text = words(lang)("rec.finding", name=said.name, coup=f.coup, message=said.message)
    return text + (f" — {said.consequence}" if said.consequence else "")


#: a pending mistake's kind (``judges.claims``) -> the kind of finding it becomes
_PENDING_KINDS = {
    "par-trop": "ecole-par-trop",
    "par-moins": "ecole-par-moins",
    "nmp": "ecole-par-moins",
    "plein": "ecole-plein-not-made",
    "must-fill": "must-fill",
    "must-conserve": "must-conserve",
    "fausse": "ecole-claimed-wrongly",
    "too-late": "ecole-too-late",
}


def claim_finding(c: OpenClaim) -> Finding:
    """The finding an open claim's mistake is (its words: ``findings.say``)."""
    return Finding(_PENDING_KINDS.get(c.kind, "ecole-par-moins"), who=c.offender, detail=c.kind)


def claim_text(c: OpenClaim, lang: str = "fr") -> str:
    """An école its adversary may still mark (RULES.md §7.2: until he throws)."""
    said = say(claim_finding(c), lang).message
    W = words(lang)
    return W("rec.claim", points=W.n("rec.points", c.amount), said=said, claimant=c.claimant, amount=c.amount)


def _provisional(f: Finding) -> bool:
    """A finding the record's end gave: a claim window still open (shown as a claim)."""
    return f.claim_open


def _say(key: str, lang: str | Words = "fr", **kw: object) -> str:
    """The session's other messages (the catalogue's ``rec.msg.*``)."""
    return words(lang)(f"rec.msg.{key}", **kw)


# -- views -------------------------------------------------------------------------------


def _score_line(table: _Table, headers: dict[str, str], kind: str, W: Words) -> str:
    """The score as it stands at the table (RULES.md §5)."""
    st = table.score
    parts = []
    for s in ("A", "B"):
        p = st[s]
        holes = W.n("rec.holes", p.holes)
        if p.pavillon:
            holes = W("rec.score.pavillon", holes=holes)
        points = W.n("rec.points", p.points)
        if p.bredouille:
            points = W("rec.score.bredouille", points=points)
        parts.append(W("rec.score.side", side=s, name=headers.get(s, s), holes=holes, points=points))
    where = W("rec.score.releve", n=table.releve)
    if kind == "a-ecrire":
        where = W("rec.score.marque", where=where, n=table.marque)
    return f"{' | '.join(parts)} — " + W("rec.score.turn", where=where, n=table.number, side=table.position.turn)


def _board_diagram(pos: Position, W: Words) -> str:
    """A text diagram of the position in the frame of the side to throw, the frame of
    the moves and of every point number the recorder shows (his point p is the other's
    25-p; RULES.md §2.2)."""
    me, them = pos.turn, other_side(pos.turn)
    a, b = pos.side_counts(me), pos.side_counts(them)

    def cell(p: int) -> str:
        if a[p]:
            return f"{a[p]}{me}".rjust(4)
        return f"{b[25 - p]}{them}".rjust(4) if b[25 - p] else "   ."

    label = W("rec.board.points", side=me)
    width = max(len(label), 11)  # 11 + 48 columns: within 60
    label = label.ljust(width)
    top = "".join(f"{p:>4}" for p in range(13, 25))
    bottom = "".join(f"{p:>4}" for p in range(12, 0, -1))
    pad = " " * width
    off = W("rec.board.off", side=me, n=a[25], other=them, m=b[25])
    return "\n".join(
        [
            label + top,
            pad + "".join(cell(p) for p in range(13, 25)),
            pad + "".join(cell(p) for p in range(12, 0, -1)),
            label + bottom,
            off,
        ]
    )


def _result_tag(table: _Table, els: list[Element], kind: str) -> str:
    """The ``Result`` tag: ``B 12-5`` (douze trous) or the marqués won (à écrire)."""
    if not table.finished:
        return "*"
    if kind == "douze-trous":
        st = table.score
        w = table.winner or "A"
        return f"{w} {st[w].holes}-{st[other_side(w)].holes}"
    won = {"A": 0, "B": 0}
    value = {"A": 0, "B": 0}
    for e in els:
        if isinstance(e, MarqueResult) and e.winner in won:
            won[e.winner] += 1
            value[e.winner] += e.value or 0
    w = "=" if value["A"] == value["B"] else ("A" if value["A"] > value["B"] else "B")
    return f"{w} {won['A']}-{won['B']}"


class RecordingSession:
    """A game being recorded (module docstring).  ``record`` may already hold coups
    (``--resume``); ``first`` is who throws first when it holds none and has no
    ``Position`` tag.  With a ``path`` the session locks the record for its whole life
    (:class:`~.record_file.RecordFile`; :meth:`close` gives it back) and writes every
    coup to it.  The table and the entries' reading are the module's functions; the
    session holds the record, the verifier that follows it (:class:`~.verify.LiveVerifier`)
    and the coup being entered."""

    def __init__(
        self,
        record: Record,
        *,
        path: str | None = None,
        profile: Profile | None = None,
        first: str = "A",
        file: RecordFile | None = None,
        on_disk: bool = False,
        lang: str = "fr",
    ) -> None:
        self.lang = lang
        self.W = words(lang)
        self.record = Record(headers=dict(record.headers), elements=list(record.elements))
        h = self.record.headers
        self.profile = profile or (find_profile(h["Profile"]) if h.get("Profile") else DEFAULT_PROFILE)
        h.setdefault("Profile", self.profile.name)
        h.setdefault("Partie", "douze-trous")
        h.setdefault("Record", "full")
        h.setdefault("Result", "*")
        if self.record.mode != "full":
            raise RecordingError.said(self.W, "rec.err.full")
        self.kind, self.marques = partie_kind(h["Partie"])
        if h["Partie"].split()[0] not in ("douze-trous", "a-ecrire"):
            raise RecordingError.said(self.W, "rec.err.kind")
        if self.record.start:
            start_of(self.record.start)  # raises GameFlowError on a bad Position
        self.rules = _Agreement(self.kind, self.marques, self.profile, first)
        self.path = path
        if not self.record.elements and not self.record.start:
            if self.kind == "a-ecrire":
                self.record.elements.append(MarqueStart(1))
            self.record.elements.append(ReleveStart(1))
        elif self.record.start and not self.record.elements and self.kind == "a-ecrire":
            self.record.elements.append(MarqueStart(1))
        self.live = LiveVerifier(self.record, self.profile, recover=True)
        self._tally = _Tally()
        self._refresh()
        self._entry: _Entry | None = None
        #: the sections typed after the last coup (``enter_line``), None until one is
        self._typed_sections: list[Element] | None = None
        self._file: RecordFile | None = None
        #: the file holds the record as the session would write it (else: rewrite whole)
        self._in_step = on_disk
        self.unsaved = 0  # coups entered that a failed write kept from the disk
        self.notices: list[str] = []  # said once by the front end (a repaired file...)
        self._notice: list[str] = []  # said with the next step (a write that failed...)
        if path is not None:
            self._file = file or RecordFile(path)
            if not os.path.exists(path) or not os.path.getsize(path):
                try:
                    self._file.rewrite(self.text())
                except RecordFileError:
                    self.close()
                    raise
                self._in_step = True

    # -- construction -------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        headers: dict[str, str],
        *,
        path: str | None = None,
        first: str = "A",
        game_id: bool = True,
        lang: str = "fr",
    ) -> RecordingSession:
        """A new record; it gets a ``GameId`` tag (every party its own game in the club
        database, issue 26) unless it has an identity tag or ``game_id`` is False.  A
        ``path`` that exists is refused (resume it)."""
        h = dict(headers)
        if game_id and not explicit_game_id(h):
            h[GAME_ID_TAG] = secrets.token_hex(8)
        file = None
        if path is not None:
            file = RecordFile(path)
            if os.path.exists(path) and os.path.getsize(path):
                file.close()
                raise RecordFileError("exists", path=path)
        try:
            return cls(Record(headers=h), path=path, first=first, file=file, lang=lang)
        except BaseException:
            if file is not None:
                file.close()
            raise

    @classmethod
    def resume(cls, path: str, *, lang: str = "fr") -> RecordingSession:
        """Continue the record in ``path`` (its last game), locked for the session.

        The file is read as ``trictrac check`` reads it (UTF-16, Latin-1…) and is not
        rewritten until a coup, an undo or a comment is entered (then whole, in UTF-8,
        canonical); a last line a crash cut (no newline, not readable) is left out and
        the file rewritten without it at once, saying so (``notices``)."""
        file = RecordFile(path)
        try:
            read = read_record_text(path)
            text, notices = read.text, []
            records, errors = _parsed(text, path)
            torn = ""
            if text and not text.endswith("\n"):
                cut = text.rfind("\n") + 1
                if errors or not _parsed(text + "\n", path)[0]:
                    kept, kept_errors = _parsed(text[:cut], path)
                    if kept and not kept_errors:
                        torn, text, records, errors = text[cut:], text[:cut], kept, kept_errors
            if not records or errors:
                if errors:
                    raise RecordingError.unreadable(errors[0], errors[0].file or path, lang)
                raise RecordingError.said(words(lang), "rec.err.no_game", path=path)
            if len(records) > 1:
                raise RecordingError.said(words(lang), "rec.err.games", path=path, n=len(records))
            session = cls(records[0], path=path, file=file, lang=lang)
        except BaseException:
            file.close()
            raise
        session._in_step = read.utf8 and write_record(session.record) == text and not torn
        if torn:
            session._write_whole()
            notices.append(_say("torn", session.W, path=path, line=repr(torn)))
        if not read.utf8:
            notices.append(_say("converted", session.W, path=path, was=read.encoding_note))
        session.notices = notices
        return session

    def close(self) -> None:
        """Give the record's lock back (the front end calls it when it quits)."""
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> RecordingSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- derived state ------------------------------------------------------------------
    def _verify(self) -> GameReport:
        return self.live.report()

    def _refresh(self) -> None:
        self.report = self._verify()
        self.table = _derive_table(self.record, self.report.trace, self.rules, self._tally)

    @property
    def findings(self) -> list[Finding]:
        """The verifier's findings on the record so far (``trictrac check`` on the file
        finds these), a claim window still open included as the record's end closes it."""
        return list(self.report.findings)

    @property
    def flags(self) -> list[_Flag]:
        """``(coup index, who, message)`` of every finding so far but the claims still open."""
        return [(f.index, f.who or "", finding_text(f, self.lang)) for f in self.report.findings if not _provisional(f)]

    @property
    def open_claims(self) -> tuple[OpenClaim, ...]:
        """The écoles that may still be marked, and by whom (RULES.md §7.2)."""
        return self.live.open_claims

    @property
    def state(self) -> State:
        t = self.table
        claims = tuple(claim_text(c, self.lang) for c in self.open_claims)
        if t.finished:
            return State(
                "over",
                t.position.turn,
                t.number,
                finished=True,
                result=self.result_text(),
                claims=claims,
                lang=self.lang,
            )
        e = self._entry
        if e is None:
            return State("roll", t.position.turn, t.number, claims=claims, lang=self.lang)
        plays = tuple(p.text() for p in e.plays)
        if e.defaults is None:
            return State(
                "play",
                t.position.turn,
                t.number,
                e.roll,
                plays,
                e.can_leave,
                "",
                e.worth,
                claims=claims,
                lang=self.lang,
            )
        marks = _marks_text(e.defaults)
        return State(
            "marks",
            t.position.turn,
            t.number,
            e.roll,
            plays,
            e.can_leave,
            marks,
            e.worth,
            claims=claims,
            lang=self.lang,
        )

    # -- entries ------------------------------------------------------------------------
    def complete(self, text: str) -> bool:
        """Is ``text`` a whole entry nothing longer could change (auto-submit as typed)?

        A throw of two digits; a play number only when no longer number and no move
        could follow it (no checker of his on a point its digits begin, RULES.md §9.6),
        so that moves being typed are never taken for a number (issue 26)."""
        st = self.state
        t = text.strip()
        if st.stage == "roll":
            return bool(re.fullmatch(r"[1-6][1-6]", t))
        if st.stage == "play" and t.isdigit() and t == text:
            n = int(t)
            if not (1 <= n <= len(st.plays)) or n * 10 <= len(st.plays):
                return False
            mover = self.table.position.mover
            return not any(mover[p] > 0 and str(p).startswith(t) for p in range(1, 25))
        return False

    def check(self, text: str) -> str | None:
        """A validation message for ``text`` at the current stage (None = acceptable)."""
        try:
            self._parse(text)
        except RecordingError as err:
            return str(err)
        return None

    def hint(self, text: str) -> str:
        """One line for the toolbar as ``text`` is typed: the fault, or what it means
        (the play a number names, the moves as they will be written)."""
        st = self.state
        t = text.strip()
        W = self.W
        try:
            if st.stage in ("roll", "over") and is_line(t):
                return W("rec.hint.line", line=write_element(self._parse_line(t)))
            if st.stage == "roll":
                if _is_marks(t):
                    return W("rec.hint.claim", text=t)
                roll = self._parse_roll(t)
                return W("rec.hint.roll", a=roll[0], b=roll[1])
            if st.stage == "play":
                played = self._parse_play(t)
                if played.leave:
                    return W("rec.hint.leave")
                written = " ".join(write_action(m) for m in played.moves) or "--"
                problem = played.problem
                if problem:
                    return W("rec.hint.illegal", written=written, problem=problem)
                head = t.split()[0] if t else ""
                if head.isdigit():
                    return W("rec.hint.number", n=int(head), written=written)
                return written
            self._parse(text)
        except RecordingError as err:
            return f"? {err}"
        return W("rec.hint.marks", marks=text.strip() or st.default_marks or W("rec.nothing"))

    def completions(self, text: str) -> list[str]:
        """Throws (doublet names too: ``so`` → ``sonnez``) or plays starting with ``text``."""
        st = self.state
        t = text.strip()
        if st.stage == "roll":
            rolls = [r for r in ROLLS if r.startswith(t) or r.replace("-", "").startswith(t)]
            names = [n for n in DOUBLET_NAMES if t and n.startswith(t.lower())]
            return rolls + names
        if st.stage == "play":
            opts = [f"{i}" for i in range(1, len(st.plays) + 1)] + list(st.plays)
            if st.can_leave:
                opts.append("v")
            return [o for o in opts if o.startswith(t)]
        return []

    def _parse(self, text: str) -> tuple[int, int] | _Played | _Marks | Element:
        """``text`` read at the current stage (RecordingError when it does not fit)."""
        st = self.state
        t = text.strip()
        if st.stage in ("roll", "over") and is_line(t):
            return self._parse_line(t)
        self._refuse_over()
        if st.stage == "roll":
            if _is_marks(t):
                return self._parse_marks(t)
            return self._parse_roll(t)
        if st.stage == "play":
            return self._parse_play(t)
        return self._parse_marks(t)

    def _parse_line(self, t: str) -> Element:
        if re.match(r"^[A-Da-d]\s", t):
            t = f"{self.table.number}. {t[0].upper()}{t[1:]}"
        recs, diags = parse_text(t + "\n")
        errors = [d for d in diags if d.severity == "error"]
        els = recs[0].elements if recs else []
        if errors or len(els) != 1 or not isinstance(els[0], (Coup, ReleveStart, MarqueStart, MarqueResult)):
            raise RecordingError.said(self.W, "rec.err.line", error=errors[0].say(self.W.lang) if errors else t)
        return els[0]

    def _refuse_over(self) -> None:
        if self.state.stage == "over":
            raise RecordingError.said(self.W, "rec.err.over")

    def _parse_roll(self, t: str) -> tuple[int, int]:
        return _read_roll(t, self.table.forced_roll, self.W)

    def _parse_play(self, t: str) -> _Played:
        assert self._entry is not None
        return _read_play(t, self._entry, self.table.position.turn, self.profile, self.W)

    def _parse_marks(self, t: str) -> _Marks:
        return _read_marks(t, self.table.position.turn, self.W)

    def enter(self, text: str) -> Step:
        """Take one entry at the current stage (module docstring).  At the throw's
        prompt, marks (``B:école+4``) are added to the last coup: a claim made before
        the claimant throws (RULES.md §7.2); a line of notation (a whole coup, a
        section) is written as typed (:meth:`enter_line`)."""
        st = self.state
        t = text.strip()
        if st.stage in ("roll", "over") and is_line(t):
            return self.enter_line(t)
        if st.stage == "roll":
            if _is_marks(t):
                return self.add_to_last_coup(t)
            new = self._entry = _start_entry(self.table, self.rules, self._parse_roll(t), self.W)
            if new.ends:
                new.defaults = _default_coup(new, self.table.number)
                return Step(self.state, "", (_say("ends", self.W),))
            if not new.plays or (len(new.plays) == 1 and not new.plays[0].steps and not new.can_leave):
                return self.enter("")  # nothing to choose: impuissance
            return Step(self.state)
        if st.stage == "play":
            played = self._parse_play(t)
            e = self._entry
            assert e is not None
            e.moves, e.leave = played.moves, played.leave
            defaults = e.defaults = _default_coup(e, self.table.number)
            if played.marks is not None:
                return self._commit(_with_marks(e, played.marks))
            if not (defaults.before or defaults.after) and not self._open_ecole():
                return self._commit(defaults)
            return Step(self.state)
        self._refuse_over()
        marks = self._parse_marks(t)
        e = self._entry
        assert e is not None and e.defaults is not None
        coup = e.defaults if not t else _with_marks(e, marks)
        return self._commit(coup)

    def peek(self, roll: str, play: str | None = None, lang: str | None = None) -> State | None:
        """What the throw ``roll`` (then ``play``, if given) would bring, as :meth:`enter`
        takes them, without taking them: the state at the play or the marks stage, or
        None when the coup would be written with nothing more to say.  The session is left
        as it was (a front end shows the plays and the marks of an entry it holds itself;
        the one course of the game, no copy of it).  ``lang``: the language of the worth
        lines, when the one looking is not the session's (a follower of another language)."""
        self._refuse_over()
        if self._entry is not None:
            raise RecordingError.said(self.W, "rec.err.entry_in_progress")
        try:
            W = self.W if lang is None else words(lang)
            e = self._entry = _start_entry(self.table, self.rules, self._parse_roll(roll), W)
            if e.ends:
                e.defaults = _default_coup(e, self.table.number)
                return self.state
            if not e.plays or (len(e.plays) == 1 and not e.plays[0].steps and not e.can_leave):
                play = ""  # nothing to choose: impuissance, as enter() takes it
            if play is None:
                return self.state
            played = self._parse_play(play.strip())
            e.moves, e.leave = played.moves, played.leave
            defaults = e.defaults = _default_coup(e, self.table.number)
            if played.marks is not None or (not (defaults.before or defaults.after) and not self._open_ecole()):
                return None
            return self.state
        finally:
            self._entry = None

    def enter_line(self, text: str) -> Step:
        """A line of notation written as typed, for what the table did that the guided
        entry does not write: a coup of the side not to throw, a throw other than the
        one played again, marks in another order, a move from an empty point, a coup
        after the end (``12. B 6-5 A+4 1/7 1/6``; the number may be left out: ``B 6-5
        …``); or the sections after the last coup (``relevé 2``, ``marqué 3``,
        ``résultat A 9-5 valeur 6``): the first typed replaces those the session wrote
        there, the next ones follow.  The verifier judges it as ``check`` judges the
        file (typed = written)."""
        el = self._parse_line(text.strip())
        self._entry = None
        if isinstance(el, Coup):
            return self._commit(el, verbatim=True)
        return self.set_sections([*(self._typed_sections or []), el])

    def set_sections(self, sections: list[Element]) -> Step:
        """The elements after the last coup (sections, remarks) are ``sections``: the
        session's own (``_sections_after``) replaced as the table wrote them."""
        els = self.record.elements
        k = max((i for i, e in enumerate(els) if isinstance(e, Coup)), default=-1)
        seen = self._seen()
        del els[k + 1 :]
        els.extend(sections)
        self._typed_sections = list(sections)
        self.live.changed(k + 1)
        self._refresh()
        self._entry = None
        self._write_whole()
        return Step(self.state, "", tuple(self._new_flags(seen) + self._saved_notice()))

    def set_result(self, text: str) -> Step:
        """The ``Result`` tag as the table wrote it (the verifier checks it)."""
        seen = self._seen()
        self.record.headers["Result"] = text.strip() or "*"
        self.report = self._verify()
        self._write_whole()
        return Step(self.state, "", tuple(self._new_flags(seen) + self._saved_notice()))

    def _open_ecole(self) -> bool:
        """May someone but the roller still mark an école (the roller's throw closed his)?"""
        roller = self.table.position.turn
        return any(c.claimant != roller for c in self.open_claims)

    def add_to_last_coup(self, text: str) -> Step:
        """Marks typed before the next throw (a claim, a late mark) written after the last
        coup's own actions; the verifier judges them where they stand."""
        self._refuse_over()
        before, after = self._parse_marks(text)
        els = self.record.elements
        k = max((i for i, e in enumerate(els) if isinstance(e, Coup)), default=-1)
        if k < 0:
            raise RecordingError.said(self.W, "rec.err.no_coup")
        c = els[k]
        assert isinstance(c, Coup)  # k is the last coup
        seen = self._seen()
        els[k] = replace(c, after=c.after + before + after)
        self.live.changed(k)
        self._refresh()
        msgs = [_say("claim", self.W, number=c.number, text=text.strip()), *self._new_flags(seen)]
        self._write_whole()
        return Step(self.state, "", tuple(msgs + self._saved_notice()))

    def _seen(self) -> set[tuple[int, str, str | None, str]]:
        return {(f.index, f.kind, f.who, f.message) for f in self.report.findings if not _provisional(f)}

    def _new_flags(self, seen: set[tuple[int, str, str | None, str]]) -> list[str]:
        """The findings the last entry made, then the écoles it opened."""
        msgs = [
            finding_text(f, self.lang)
            for f in self.report.findings
            if not _provisional(f) and (f.index, f.kind, f.who, f.message) not in seen
        ]
        msgs.extend(claim_text(c, self.lang) for c in self.open_claims if c.index >= self.report.coups_verified - 1)
        return msgs

    def _commit(self, coup: Coup, verbatim: bool = False) -> Step:
        seen = self._seen()
        els = self.record.elements
        n0 = len(els)
        els.append(coup)
        self._typed_sections = None
        report = self._verify()
        if report.stopped and not verbatim:
            del els[n0:]
            self.live.changed(n0)
            self.report = self._verify()
            raise RecordingError.said(self.W, "rec.err.cannot_go_on")
        judged = bool(report.trace) and report.trace[-1].index == report.coups_verified - 1 and not report.stopped
        trace = report.trace[-1] if judged else None
        added: list[Element] = [coup]
        if trace is not None and trace.releve_ended and not self.table.finished:
            sections = _sections_after(trace, els, self.table, self.rules, self._tally)
            els.extend(sections)
            added.extend(sections)
            if sections:
                report = self._verify()
        self.report = report
        was_over = self.table.finished
        self.table = _derive_table(self.record, report.trace, self.rules, self._tally)
        self._entry = None
        if self.table.finished and not was_over:
            self.record.headers["Result"] = self.result_text()
            self.report = self._verify()
        msgs = self._new_flags(seen)
        appended = "\n".join(write_element(x) for x in added) + "\n"
        if (self.table.finished and not was_over) or n0 == 0 or not self._in_step or self.unsaved:
            self._write_whole(coups=1)  # the Result tag, the blank line after the tags, a retry
        else:
            self._write_append(appended)
        if self.table.finished and not was_over:
            msgs.append(_say("over", self.W, result=self.result_text()))
        return Step(self.state, appended, tuple(msgs + self._saved_notice()))

    # -- undo, comments, views -------------------------------------------------------------
    def undo(self) -> Step:
        """Forget the coup being entered, or else the last coup written (and its sections)."""
        if self._entry is not None:
            self._entry = None
            return Step(self.state, "", (_say("cancelled", self.W),))
        els = self.record.elements
        k = max((i for i, e in enumerate(els) if isinstance(e, Coup)), default=-1)
        if k < 0:
            raise RecordingError.said(self.W, "rec.err.nothing_to_undo")
        gone = els[k]
        del els[k:]
        self.live.changed(k)
        self.record.headers["Result"] = "*"
        self._refresh()
        self.unsaved = max(0, self.unsaved - 1)
        self._write_whole()
        return Step(self.state, "", (_say("undone", self.W, text=write_element(gone)), *self._saved_notice()))

    def comment(self, text: str) -> Step:
        """A remark on the last coup written (or on the game when none is written yet)."""
        text = text.strip()
        if not text:
            raise RecordingError.said(self.W, "rec.err.empty_comment")
        els = self.record.elements
        k = max((i for i, e in enumerate(els) if isinstance(e, Coup)), default=-1)
        if k < 0:
            els.append(Comment(text))
            self.live.changed(len(els) - 1)
        else:
            c = els[k]
            assert isinstance(c, Coup)  # k is the last coup
            els[k] = replace(c, after=c.after + (Comment(text),))
            self.live.changed(k)
        self.report = self._verify()
        self._write_whole()
        return Step(self.state, "", (_say("comment", self.W), *self._saved_notice()))

    def score_text(self) -> str:
        """The score as it stands at the table (RULES.md §5)."""
        return _score_line(self.table, self.record.headers, self.kind, self.W)

    def board_text(self) -> str:
        """A text diagram of the position in the frame of the side to throw (the frame of
        the moves typed and of every point number shown, RULES.md §2.2)."""
        return _board_diagram(self.table.position, self.W)

    def result_text(self) -> str:
        """The ``Result`` tag: ``B 12-5`` (douze trous) or the marqués won (à écrire)."""
        return _result_tag(self.table, self.record.elements, self.kind)

    def text(self) -> str:
        return write_record(self.record)

    # -- the file -----------------------------------------------------------------------------
    def _saved_notice(self) -> list[str]:
        notice, self._notice = self._notice, []
        return notice

    def _write_whole(self, coups: int = 0) -> None:
        """Rewrite the file whole (atomic); on failure keep everything in memory."""
        if self._file is None:
            return
        try:
            self._file.rewrite(self.text())
        except RecordFileError as err:
            self.unsaved += coups
            self._in_step = False
            self._notice = [_say("unsaved", self.W, error=err.say(self.W), n=max(1, self.unsaved))]
            return
        if self.unsaved:
            self._notice = [_say("saved", self.W, path=self.path)]
        self.unsaved = 0
        self._in_step = True

    def _write_append(self, text: str) -> None:
        """Append the new lines whole or not at all (``RecordFile.append``)."""
        if self._file is None:
            return
        try:
            self._file.append(text)
        except RecordFileError as err:
            self.unsaved += 1
            self._in_step = False
            self._notice = [_say("unsaved", self.W, error=err.say(self.W), n=self.unsaved)]

    def flush(self) -> bool:
        """Write what a failed write kept in memory; True when the file holds everything."""
        if self.unsaved:
            self._write_whole()
        return not self.unsaved


def marks_of(coup: Coup, *, comments: bool = True) -> str:
    """A written coup's marks and decisions as typed at the marks prompt (its comments
    too unless ``comments`` is False: a front end that takes remarks apart)."""
    return " ".join(
        write_action(a, coup.side) for a in coup.before + coup.after if comments or not isinstance(a, Comment)
    )


def type_coup(
    session: RecordingSession,
    coup: Coup,
    enter: Callable[[str], object] | None = None,
    *,
    by_number: bool = True,
) -> None:
    """Type a written ``coup`` into ``session`` as a player does, each entry given to
    ``enter`` (``session.enter`` when None; a test or a bench passes one that counts the
    keys or times the Enter, then calls ``session.enter``): the throw; the play, ``v``
    for a leave, else its number among the plays listed (nothing when it is the only
    one) when ``by_number`` and the play is listed, else its moves; the marks (nothing
    when they are those proposed).  Raises :class:`RecordingError` where the guided entry
    refuses what the record says (then a coup is written as a line: :meth:`enter_line`)."""
    put: Callable[[str], object] = enter or session.enter
    put(f"{coup.roll[0]}{coup.roll[1]}")
    st = session.state
    if st.stage == "play":
        want = moves_text(coup.moves)
        leave = any(isinstance(a, Decision) and a.leave for a in coup.before) and not coup.moves
        if leave:
            put("v")
        elif by_number and want in st.plays:
            put("" if len(st.plays) == 1 else str(st.plays.index(want) + 1))
        else:
            put(" ".join(write_action(m) for m in coup.moves))
    if session.state.stage == "marks":
        marks = marks_of(coup)
        put("" if marks == session.state.default_marks else marks)


_LINE = re.compile(r"^(\d+\.\s*[A-Da-d]\s|[A-Da-d]\s+\S|(relev|marqu|r[ée]sultat)\S*\s)", re.IGNORECASE)


def is_line(t: str) -> bool:
    """A line of notation (a whole coup ``12. B 6-5 …`` or ``B 6-5 …``, a section
    ``relevé 2``), taken as written at the throw's prompt."""
    return bool(_LINE.match(t.strip()))


def _is_marks(t: str) -> bool:
    """Marks in notation (``B:école+4``, ``A+2``, ``{remark}``), not a throw."""
    return bool(t) and ("+" in t or ":" in t or t.startswith("{"))


def _parsed(text: str, path: str) -> tuple[list[Record], list[Any]]:
    records, diags = parse_text(text, file=path)
    return records, [d for d in diags if d.severity == "error"]
