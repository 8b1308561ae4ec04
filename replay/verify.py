"""The verifier: re-play a record coup by coup and say where it departs from the rules.

:func:`verify` walks a :class:`~trictrac.notation.record.Record` through the rules
engine (``moves``, ``scoring``) and two score ledgers (``ledger``):

* the **entitled** ledger — the score had every player marked exactly what the rules
  give for the plays as made (and every school owed for a play been marked);
* the **standing** ledger — the score as it stood at the table: the marks as written,
  the écoles claimed, and every mistake not claimed in time left standing (RULES.md
  §7.3: an unclaimed école par trop keeps its points, 001 r.47; an unclaimed école
  par moins loses them, 003 §182).  The game goes on from this score.

Law of timing (RULES.md §7.2; 003 §167, §171, §186-189; 001 r.34, r.41-43): a wrong
mark becomes claimable when it is consummated — over-marking when the jeton is
released, the roller's under-marking when he touches a checker, the receiver's
under-marking when he throws the dice — and the adversary may claim it until he
throws his own dice.  Every mistake is therefore kept *pending* with its claimant and
closed at the claimant's next throw: claimed (``ecole-par-trop`` / ``ecole-par-moins``,
points moved as §7 says), erased, or unclaimed (``unclaimed-ecole``: the mistake
stands; there is no école of an école, 003 §182; 001 r.43).

The record's order of events is what tells.  Within one coup the ledger applies, in
the usual order (RULES.md §4.1 O2-O5, §5.2; 003 §200, §207): écoles claimed on earlier
coups (they were acquired before the throw, 003 §200; 001 r.64), the roller's gains,
his decision, the opponent's receipts, écoles on this coup, counter-claims,
corrections.  ``GameReport.notes`` says when this assumption was needed.

Compact records (``Record: compact``, no marks): the verifier marks the score as
perfect players would (``replay.game`` order; RULES.md §4.1, §5.3, §6) and reads each
s'en aller from the record (a new relevé after a coup whose own gains made a hole).
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from trictrac.notation.record import (
    NO_SPAN,
    CannotPlay,
    Comment,
    Correction,
    Coup,
    Decision,
    Diagnostic,
    Ecole,
    JouePourTout,
    Mark,
    MarqueResult,
    MarqueStart,
    Move,
    NeMarquePas,
    Record,
    Pavillon,
    ReleveStart,
    Replay,
    Span,
)
from trictrac.replay.findings import FINDING_KINDS, Finding
from trictrac.replay.remedies import remedy_problems
from trictrac.replay.profiles import DEFAULT_PROFILE, Profile, find_profile

if TYPE_CHECKING:  # pragma: no cover
    from trictrac.replay.ledger import Ledger, ScoreState
    from trictrac.replay.position import Position
    from trictrac.replay.scoring import CoupScore, ScoringEvent

__all__ = [
    "CoupTrace",
    "GameReport",
    "verify",
    "verify_file",
    "verify_text",
    "quiet_gc",
    "VerifyError",
]

PLEIN_KINDS = frozenset(("petit-jan", "grand-jan", "jan-de-retour"))
ALL_OFF = 15
HOLE = 12
#: pending kinds whose claim erases the offender's over-marked points (RULES.md §7.3)
_ERASING = frozenset(("par-trop", "fausse", "too-late", "plein"))
#: violation ids of ``moves.judge_play`` that have their own finding kind
_VIOLATION_KIND = {
    "must-fill": "must-fill",
    "must-conserve": "must-conserve",
    "both-numbers": "unplayed-number",
    "larger-number": "unplayed-number",
}


class VerifyError(ValueError):
    """API misuse of the verifier (not a fault of the record: those are findings)."""


# ------------------------------------------------------------------------------------
# results
# ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CoupTrace:
    """One coup as replayed: the position and both scores after it, its scoring events.

    ``side`` is the player letter; ``entitled`` = (roller's gains, opponent's receipts)
    the rules give for the play as made; ``marked`` = what the record shows marked
    (None in a compact record); ``play`` the canonical move text; ``left`` = the roller
    left (s'en aller); ``releve_ended`` = the relevé ended after this coup (leave or sortie).
    """

    index: int
    releve: int
    marque: int
    coup_number: int
    side: str
    roll: tuple[int, int]
    position_after: "Position"
    score_entitled: "ScoreState"
    score_standing: "ScoreState"
    events: tuple["ScoringEvent", ...]
    span: Span = NO_SPAN
    entitled: tuple[int, int] = (0, 0)
    marked: tuple[int | None, int | None] = (None, None)
    play: str = "-"
    left: bool = False
    releve_ended: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "marque": self.marque,
            "releve": self.releve,
            "coup": self.coup_number,
            "side": self.side,
            "roll": list(self.roll),
            "play": self.play,
            "left": self.left,
            "entitled": {"roller": self.entitled[0], "other": self.entitled[1]},
            "marked": {"roller": self.marked[0], "other": self.marked[1]},
            "events": [e.as_dict() for e in self.events],
            "score": self.score_standing.as_dict(),
            "score_entitled": self.score_entitled.as_dict(),
            "line": self.span.line,
        }


@dataclass(slots=True)
class GameReport:
    """What :func:`verify` found in one game.

    ``final_score`` is the standing score at the end (what the table ended with),
    ``entitled_score`` the score had every mark been right.  ``stopped`` is True when
    the record could not go on (``missing-checker``).  ``notes`` state the assumptions
    the verifier made where the record does not say (law of timing).
    """

    findings: list[Finding]
    final_score: "ScoreState | None"
    trace: list[CoupTrace]
    diagnostics: list[Diagnostic]
    profile_name: str
    coups_verified: int
    entitled_score: "ScoreState | None" = None
    game: int = 0
    file: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    stopped: bool = False
    notes: list[str] = field(default_factory=list)
    marques: list[dict[str, Any]] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.findings and not any(d.severity == "error" for d in self.diagnostics)

    def summary(self) -> str:
        who = " - ".join(x for x in (self.headers.get("A"), self.headers.get("B")) if x) or "game"
        st = self.final_score
        score = ""
        if st is not None:
            score = f"A {st.a.holes} holes {st.a.points} pts, B {st.b.holes} holes {st.b.points} pts"
        n = len(self.findings)
        errors = sum(1 for d in self.diagnostics if d.severity == "error")
        status = "clean" if n == 0 else f"{n} finding{'s' if n > 1 else ''}"
        if errors:
            status += f", {errors} text error{'s' if errors > 1 else ''}"
        stop = " (stopped)" if self.stopped else ""
        return f"game {self.game + 1} ({who}): {self.coups_verified} coups, {status}{stop}; {score} [{self.profile_name}]"

    def as_dict(self, *, trace: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "file": self.file,
            "headers": dict(self.headers),
            "profile": self.profile_name,
            "coups_verified": self.coups_verified,
            "stopped": self.stopped,
            "findings": [f.as_dict() for f in self.findings],
            "final_score": self.final_score.as_dict() if self.final_score is not None else None,
            "entitled_score": self.entitled_score.as_dict() if self.entitled_score is not None else None,
            "marques": list(self.marques),
            "diagnostics": [d.as_dict() for d in self.diagnostics],
            "notes": list(self.notes),
        }
        if trace:
            out["trace"] = [t.as_dict() for t in self.trace]
        return out


# ------------------------------------------------------------------------------------
# engine access (imported lazily: findings and reports are usable without the engine)
# ------------------------------------------------------------------------------------


class _Eng:
    __slots__ = (
        "judge_play", "score_play", "score_roll", "next_position", "play_outcome", "legal_plays", "Play",
        "Ledger", "ScoreState", "PlayerScore", "start_position", "Position", "marque_value",
        "clear_moves_cache", "marque_outcome", "twelve_hole_winner",
    )

    def __init__(self) -> None:
        from trictrac.replay import ledger, moves, position, scoring

        self.judge_play = moves.judge_play
        self.legal_plays = moves.legal_plays
        self.clear_moves_cache = moves.clear_cache
        self.Play = moves.Play
        self.score_play = scoring.score_play
        self.score_roll = scoring.score_roll
        self.next_position = scoring.next_position
        self.play_outcome = scoring.play_outcome
        self.Ledger = ledger.Ledger
        self.ScoreState = ledger.ScoreState
        self.PlayerScore = ledger.PlayerScore
        self.start_position = position.start_position
        self.Position = position.Position
        from trictrac.replay.partie import marque_outcome, marque_value, twelve_hole_winner

        self.marque_value = marque_value
        self.marque_outcome = marque_outcome
        self.twelve_hole_winner = twelve_hole_winner


_ENG: _Eng | None = None


def _eng() -> _Eng:
    global _ENG
    if _ENG is None:
        _ENG = _Eng()
    return _ENG


# Per-process cache of the score of a roll, one dict per profile (hashing a Profile
# costs ~2 µs): (position, roll) -> score (no-play coups and illegal plays only).
# Coups themselves are not cached: real games seldom repeat a position, even in the
# opening (measured: a cache of (position, roll, moves) gave nothing on cold runs and
# cost garbage-collector time).
_ROLL_CACHE: dict[Profile, dict[tuple, "CoupScore"]] = {}
_ROLL_CACHE_MAX = 4096


def clear_cache() -> None:
    _ROLL_CACHE.clear()


# ------------------------------------------------------------------------------------
# pending écoles (law of timing)
# ------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Where:
    game: int
    marque: int
    releve: int
    coup: int
    index: int
    span: Span


@dataclass(slots=True)
class _Pending:
    """A mistake the adversary may claim until he throws (RULES.md §7.2-7.3).

    kind: par-trop | par-moins | nmp | plein | must-fill | must-conserve | fausse |
    too-late | impossible.  ``offender`` / ``claimant`` are seats, ``amount`` the
    points the claimant may mark, ``erase`` the offender's points a claim erases.
    """

    kind: str
    offender: str
    claimant: str
    amount: int
    where: _Where
    entitled: int | None
    marked: int | None
    message: str
    erase: int = 0
    detail: str | None = None
    alternatives: tuple[str, ...] = ()
    status: str = "open"  # open | claimed | erased | closed
    claimed: int = 0
    this_coup: bool = False
    closed_at: int = -1  # index of the coup whose throw closed the claim window


# ------------------------------------------------------------------------------------
# the verifier
# ------------------------------------------------------------------------------------


def _moves_of(coup: Coup) -> tuple:
    return _moves_of_list(coup.moves)


def _profile_for(record: Record, profile: Profile | None, notes: list[str]) -> Profile:
    if profile is not None:
        return profile
    name = record.headers.get("Profile")
    if name:
        try:
            return find_profile(name)
        except ValueError as e:
            notes.append(f"{e}; using {DEFAULT_PROFILE.name}")
    return DEFAULT_PROFILE


class _Verifier:
    """One game's replay (internal; :func:`verify` is the API)."""

    def __init__(self, record: Record, profile: Profile, game: int, file: str | None, keep_trace: bool) -> None:
        self.e = _eng()
        self._roll_cache = _ROLL_CACHE.setdefault(profile, {})
        self.rec = record
        self.profile = profile
        self.game = game
        self.file = file
        self.keep_trace = keep_trace
        self.compact = record.mode == "compact"
        self.findings: list[Finding] = []
        self.notes: list[str] = []
        self.diagnostics: list[Diagnostic] = []
        self.trace: list[CoupTrace] = []
        self.pending: list[_Pending] = []
        self.marques: list[dict[str, Any]] = []
        self.seat_of: dict[str, str] = {"A": "A", "B": "B"}
        self.letter_of: dict[str, str] = {"A": "A", "B": "B"}
        self.marque = 0
        self.releve = 0
        self.index = 0
        self.stopped = False
        self.pos: Position | None = None
        self.primaute: str | None = None
        self.marque_first: str | None = None  # who threw first in this marqué (003 §226)
        # parties of several players: who has the primauté of each marqué follows the
        # rotation of replay.partie (RULES.md §8.3; 003 §241-244), in player letters
        from trictrac.notation.reader import parse_partie
        from trictrac.replay.partie import RECORD_KINDS

        kind = parse_partie(record.headers.get("Partie", "")) if record.headers.get("Partie") else None
        self.multi = RECORD_KINDS.get(kind[0]) if kind else None
        self.partie_kind = kind[0] if kind else None
        self.partie_marques = kind[1] if kind else None  # marqués of a partie à écrire
        self.over: str | None = None  # why the partie or the marqué is over (RULES.md §8.1-8.2)
        self.over_reported = False
        # the pavillon of the written game, checked when the record writes it (001 r.58)
        self.pav_check = (self.partie_kind == "a-ecrire" or self.multi is not None) and any(
            isinstance(a, Pavillon) for c in record.coups for a in c.before + c.after)
        self.pav_due: dict[str, _Where] = {}  # seat -> where he earned a pavillon not yet taken
        self.pav_lost: set[str] = set()  # seats whose pavillon was lost for want of taking it
        self.winners: list[tuple[str | None, int]] = []  # (winner, value) of every marqué (Result check)
        self.over_state: "ScoreState | None" = None  # the score when the partie ended
        self.marque_open = False  # a marqué whose result is not written yet
        self.multi_lines: list[Any] = []
        self.multi_first: str | None = None  # the drawn primauté of the first marqué
        self.multi_expected: str | None = None  # player letter expected to throw first
        self.marque_fresh = False
        self.releve_over = True  # a relevé may start (start of game)
        self.leave_said: str | None = None
        self.ordering_noted = False
        self.refaits = 0
        self._closed: list[_Pending] = []  # mistakes whose claim window has closed
        std_state = None
        if record.start:
            self.pos, std_state = self._start_from_header(record.start)
            self.releve_over = False
        self.std: Ledger = self.e.Ledger(profile, std_state)
        self.ent: Ledger = self.e.Ledger(profile, std_state)
        self.in_sync = True  # standing == entitled (the fast path keeps them so)

    # -- helpers --------------------------------------------------------------------
    def _start_from_header(self, text: str) -> tuple["Position | None", "ScoreState | None"]:
        from trictrac.notation.position import parse_position

        spec, diags = parse_position(text)
        self.diagnostics.extend(diags)
        if spec is None:
            self.notes.append("the Position header could not be read; starting from the talons")
            return None, None
        pos = None
        from_spec = getattr(self.e.Position, "from_spec", None)
        if from_spec is not None:
            pos = from_spec(spec)
        else:  # pragma: no cover - before the engine has from_spec
            a, b = spec.a, spec.b
            ta = spec.turn == "A"
            i, j = (0, 1) if ta else (1, 0)
            pos = self.e.Position(
                a if ta else b, b if ta else a, spec.turn, spec.coups[i], spec.coups[j],
                spec.coin_taken[i], spec.coin_taken[j],
            )
        return pos, self.e.ScoreState.from_spec(spec)

    def _where(self, coup: Coup | None, span: Span | None = None) -> _Where:
        if coup is None:
            return _Where(self.game, self.marque, self.releve, 0, -1, span or NO_SPAN)
        return _Where(self.game, self.marque, self.releve, coup.number, self.index, span or coup.span)

    def _finding(
        self,
        kind: str,
        where: _Where,
        message: str,
        *,
        who: str | None = None,
        entitled: int | None = None,
        marked: int | None = None,
        consequence: str = "",
        detail: str | None = None,
        alternatives: tuple[str, ...] = (),
    ) -> None:
        sp = where.span
        self.findings.append(
            Finding(
                kind=kind, message=message, game=where.game, releve=where.releve, marque=where.marque,
                coup=where.coup, index=where.index, line=sp.line, col=sp.col,
                who=self.letter_of.get(who, who) if who else None,
                entitled=entitled, marked=marked, consequence=consequence,
                rule=FINDING_KINDS[kind][0], detail=detail, alternatives=alternatives, file=self.file,
            )
        )

    def _L(self, seat: str) -> str:
        return self.letter_of.get(seat, seat)

    # -- the walk -------------------------------------------------------------------
    def run(self) -> GameReport:
        els = self.rec.elements
        n = len(els)
        last_coup = max((i for i, el in enumerate(els) if isinstance(el, Coup)), default=-1)
        for i, el in enumerate(els):
            if self.stopped:
                break
            if isinstance(el, Coup):
                j = i + 1
                while j < n and isinstance(els[j], Comment):
                    j += 1
                nxt = els[j] if j < n else None
                self._coup(el, nxt, last=i == last_coup and not isinstance(nxt, (ReleveStart, MarqueStart)))
                if not self.stopped:
                    self.index += 1
            elif isinstance(el, ReleveStart):
                self._releve_start(el)
            elif isinstance(el, MarqueStart):
                self._marque_start(el)
            elif isinstance(el, MarqueResult):
                self._marque_result(el)
        # the record ends: windows still open close now
        for p in self.pending:
            if p.status == "open":
                self._close(p, end=True)
        if not self.stopped and self.rec.headers.get("Result"):
            self._check_result(self.rec.headers["Result"])
        self.findings.sort(key=lambda f: (f.index if f.index >= 0 else 1 << 30, f.line, f.col))
        return GameReport(
            findings=self.findings,
            final_score=self.std.state,
            trace=self.trace,
            diagnostics=self.diagnostics,
            profile_name=self.profile.name,
            coups_verified=self.index,
            entitled_score=self.ent.state,
            game=self.game,
            file=self.file,
            headers=dict(self.rec.headers),
            stopped=self.stopped,
            notes=self.notes,
            marques=self.marques,
        )

    def _check_result(self, text: str) -> None:
        """The ``Result`` header against the record (RULES.md §8.1-8.2).

        Understood forms (those ``trictrac selfplay`` writes): ``*`` (unfinished);
        douze trous ``A`` or ``A 12-7`` (winner, his holes - the loser's); a partie à
        écrire ``A 3-1`` (marqués won by A - by B; ``=`` for no winner); several players
        ``A:2 B:1 C:0``.  Anything else is free text, noted and not checked.
        """
        import re

        v = text.strip()
        st = self.std.state
        where = _Where(self.game, self.marque, self.releve, 0, -1, self.rec.span)
        problems: list[str] = []
        if self.marque_open and self.index > 0:
            self._unwritten_result()
            self.marque_open = False
        won: dict[str, int] = {}
        values: dict[str, int] = {}
        for w, val in self.winners:
            if w:
                won[w] = won.get(w, 0) + 1
                values[w] = values.get(w, 0) + val
        kind = self.partie_kind
        if kind == "douze-trous":
            st = self.over_state or st  # coups after the end do not count
            winner = self.e.twelve_hole_winner(st)
            wl = self._L(winner) if winner else None
            m = re.fullmatch(r"([A-D])(?:\s+(\d+)-(\d+))?", v)
            if v == "*":
                if winner:
                    problems.append(f"written unfinished, but {wl} has {st[winner].holes} holes")
            elif m:
                if winner is None:
                    problems.append(f"{m.group(1)} is written the winner, but nobody has twelve holes "
                                    f"({st.a.holes}-{st.b.holes})")
                elif m.group(1) != wl:
                    problems.append(f"{m.group(1)} is written the winner, but {wl} has twelve holes")
                elif m.group(2) is not None:
                    lo = st.b.holes if winner == "A" else st.a.holes
                    if (int(m.group(2)), int(m.group(3))) != (st[winner].holes, lo):
                        problems.append(f"the holes are {st[winner].holes}-{lo}, written {m.group(2)}-{m.group(3)}")
            else:
                self.notes.append(f"Result {v!r}: free text, not checked")
        elif kind == "a-ecrire" and not self.rec.start:
            total = self.partie_marques
            decided = sum(1 for w, _v in self.winners if w)
            m = re.fullmatch(r"([A-D]|=)\s+(\d+)-(\d+)", v)
            if v == "*":
                if total and decided >= total:
                    problems.append(f"written unfinished, but the {total} marqués are decided")
            elif m:
                got = (int(m.group(2)), int(m.group(3)))
                real = (won.get("A", 0), won.get("B", 0))
                if got != real:
                    problems.append(f"the marqués won are {real[0]}-{real[1]}, written {got[0]}-{got[1]}")
                if total and decided < total:
                    problems.append(f"only {decided} of the {total} marqués are decided")
                else:
                    # the partie goes to the larger sum of marqué values (RULES.md §8.2)
                    va, vb = values.get("A", 0), values.get("B", 0)
                    best = "=" if va == vb else ("A" if va > vb else "B")
                    if m.group(1) != best:
                        problems.append(f"the marqués' values are {va}-{vb}: the winner is {best}, "
                                        f"written {m.group(1)}")
            else:
                self.notes.append(f"Result {v!r}: free text, not checked")
        elif self.multi is not None and not self.rec.start:
            pairs = re.findall(r"([A-D]):(\d+)", v)
            if pairs and " ".join(f"{p}:{n}" for p, n in pairs) == " ".join(v.split()):
                for p, n in pairs:
                    if int(n) != won.get(p, 0):
                        problems.append(f"{p} won {won.get(p, 0)} marqués, written {n}")
            elif v != "*":
                self.notes.append(f"Result {v!r}: free text, not checked")
        if problems:
            self._finding(
                "result-mismatch", where, f"Result \"{v}\": " + "; ".join(problems),
                consequence="the Result header must follow the record (RULES.md §8.1-8.2)",
            )

    # -- sections -------------------------------------------------------------------
    def _pavillon(self, holes0: tuple[int, int], claims: list[Pavillon], where: _Where) -> None:
        """The pavillon of the written game (RULES.md §5.4; 001 r.58): the second player
        to take holes, while the first took none in between, sets it; it must be taken
        before the next hole is marked by either player, or it is lost (bonne compagnie:
        always acknowledged, 001 III on r.58)."""
        h1 = (self.std.holes("A"), self.std.holes("B"))
        hole_now = h1 != holes0
        claimed = set()
        for c in claims:
            seat = self.seat_of.get(c.who, c.who)
            claimed.add(seat)
            if seat in self.pav_due:
                del self.pav_due[seat]
            elif seat in self.pav_lost:
                self.notes.append(f"coup {where.coup}: {c.who} takes his pavillon too late (001 r.58)")
            elif seat not in ("A", "B") or not self.std[seat].pavillon:
                w = replace(where, span=c.span if c.span.line else where.span)
                self._finding(
                    "bredouille-lost", w, f"{c.who} takes the pavillon, but his holes are not uninterrupted",
                    who=seat, detail="pavillon-not-due",
                    consequence="the pavillon is taken off, no école (RULES.md §5.4; 003 §223)",
                )
        # a hole taken now ends the time to take a pavillon earned earlier (001 r.58)
        if hole_now:
            for seat, w in list(self.pav_due.items()):
                if w.index == where.index:
                    continue
                del self.pav_due[seat]
                if self.profile.pavillon_deadline:
                    self._finding(
                        "bredouille-lost", w, f"{self._L(seat)} did not take the pavillon his hole earned "
                        "before the next hole was marked", who=seat, detail="pavillon",
                        consequence="the pavillon is lost, no école (001 r.58)",
                    )
                    self._correct(seat, 0, 0, pavillon=False)
                    self.pav_lost.add(seat)
                    self.in_sync = False
                else:
                    self.notes.append(f"{self._L(seat)}'s pavillon, not taken in time, is acknowledged "
                                      "(001 III on r.58)")
        # a pavillon earned now: his first hole while the opponent has holes (RULES.md §5.4)
        for i, seat in enumerate(("A", "B")):
            if holes0[i] == 0 and h1[i] > 0 and holes0[1 - i] > 0 and self.std[seat].pavillon:
                if seat not in claimed:
                    self.pav_due[seat] = where

    def _after_end(self, where: _Where) -> None:
        """Coups or relevés after the end (RULES.md §8.1-8.2): reported once."""
        if self.over_reported or self.over is None:
            return
        self.over_reported = True
        marque = "marqué" in self.over
        self._finding(
            "play-after-end", where, f"play goes on although {self.over}",
            detail="marque" if marque else "partie",
            consequence=("a marqué ends when someone leaves while someone has six holes: its result "
                         "should be written here (RULES.md §8.2)" if marque else
                         "the first to twelve holes wins; later coups do not count (RULES.md §8.1)"),
        )

    def _releve_start(self, el: ReleveStart) -> None:
        if self.over is not None:
            self._after_end(self._where(None, el.span))
        if not self.releve_over and self.index > 0:
            self._finding(
                "releve-without-leave", self._where(None, el.span),
                f"relevé {el.number} starts but nobody left and nobody bore off",
                consequence="the checkers should still be in play (RULES.md §6.1)",
            )
        self.releve = el.number
        self.releve_over = False
        self.pos = None  # set by the first coup (its side has the primauté)

    def _marque_start(self, el: MarqueStart) -> None:
        if self.marque_open and self.index > 0:
            self._unwritten_result()
        self.pav_due.clear()  # not lost: no hole followed it in that marqué
        self.pav_lost.clear()
        if self.over is not None and self.partie_kind == "douze-trous":
            self._after_end(self._where(None, el.span))
        elif self.over is not None and "marqué" in self.over:
            self.over, self.over_reported = None, False
        self.marque_open = True
        self.marque = el.number
        self.marque_fresh = True
        if el.players:
            a, b = el.players
            self.seat_of = {a: "A", b: "B"}
            self.letter_of = {"A": a, "B": b}
        if self.index > 0:  # a new marqué: fresh score and checkers (RULES.md §8.2)
            self.std = self.e.Ledger(self.profile)
            self.ent = self.e.Ledger(self.profile)
            self.in_sync = True
            self.releve_over = True
            self.pos = None

    def _multi_after(self, winner: str | None, ha: int, hb: int, st: "ScoreState") -> None:
        """The next marqué's primauté in a partie of several players, from the rotation of
        ``replay.partie`` (RULES.md §8.3): 003 §241, §244 (the one who stays), 003 §242 (the
        chouette, then alternately), 003 §226 (after a refait, whoever had it)."""
        from trictrac.replay.partie import MarqueLine, PartieSpec, settle_partie

        kind, players = self.multi  # type: ignore[misc]
        if winner is None:
            self.multi_lines.append(MarqueLine(refait_holes=ha))
        else:
            seat = "A" if ha > hb else "B"
            loser = self._L("B" if seat == "A" else "A")
            leaver = self._L(self.primaute) if self.primaute is not None else None
            self.multi_lines.append(MarqueLine(
                winner=winner, holes=(max(ha, hb), min(ha, hb)), pavillon=st[seat].pavillon,
                loser=loser, leaver=leaver,
            ))
        spec = PartieSpec(kind=kind, players=players, marques=len(self.multi_lines) + 1,
                          primaute=self.multi_first)
        try:
            det = settle_partie(spec, self.multi_lines + [MarqueLine()], self.profile).detail[-1]
        except ValueError:  # results that do not fit the rotation: no expectation
            self.multi_expected = None
            return
        self.multi_expected = det.get("primaute")

    def _unwritten_result(self) -> None:
        """A marqué that ended (a leave with six holes) without a written result (compact
        records); one that never ended is not counted (RULES.md §8.2; 003 §221)."""
        if self.over is None or "marqué" not in self.over:
            return
        st = self.std.state
        if st.a.holes == st.b.holes:
            self.winners.append((None, 0))
            self.refaits += 1
            return
        seat = "A" if st.a.holes > st.b.holes else "B"
        self.winners.append((self._L(seat), self._value_of(st, seat)))
        self.refaits = 0

    def _value_of(self, st: "ScoreState", seat: str) -> int:
        w, lo = st[seat].holes, st["B" if seat == "A" else "A"].holes
        try:
            return self.e.marque_value(w, lo, pavillon=st[seat].pavillon, refaits=self.refaits,
                                       profile=self.profile).value
        except ValueError:
            return 0

    def _marque_result(self, el: MarqueResult) -> None:
        if self.over is not None and "marqué" in self.over:
            self.over, self.over_reported = None, False
        self.marque_open = False
        st = self.std.state
        ha, hb = st.a.holes, st.b.holes
        where = self._where(None, el.span)
        problems: list[str] = []
        if ha == hb:
            exp_winner, w, lo = None, ha, hb
            if not el.refait:
                problems.append(f"the holes are equal ({ha}-{hb}): a refait (003 §226)")
        else:
            seat = "A" if ha > hb else "B"
            exp_winner = self._L(seat)
            w, lo = max(ha, hb), min(ha, hb)
            if el.refait or el.winner != exp_winner:
                problems.append(f"the winner is {exp_winner} ({w}-{lo})")
            if (el.winner_holes, el.loser_holes) != (w, lo):
                problems.append(f"the holes are {w}-{lo}, written {el.winner_holes}-{el.loser_holes}")
            from trictrac.replay.game import marque_bredouille

            bred = marque_bredouille(w, st[seat].pavillon, self.profile)
            if el.bredouille != bred:
                problems.append(f"bredouille is {bred}, written {el.bredouille}")
            if el.value is not None:
                try:
                    val = self.e.marque_value(w, lo, pavillon=st[seat].pavillon,
                                              refaits=self.refaits, profile=self.profile).value
                except ValueError:
                    val = None
                if val is not None and val != el.value:
                    problems.append(f"the value is {val}, written {el.value}")
        # primauté of the next marqué: the winner (003 §221) or the leaver (D21); after a
        # refait whoever had it keeps it (003 §226)
        if ha == hb:
            self.primaute = self.marque_first
        elif self.profile.primaute_after_marque_leave == "winner":
            self.primaute = "A" if ha > hb else "B"
        if self.multi is not None:
            self._multi_after(exp_winner, ha, hb, st)
        self.marque_first = None
        # the value counts the refaits before this marqué (003 §226): taken before the reset
        self.winners.append((exp_winner, self._value_of(st, "A" if ha > hb else "B") if exp_winner else 0))
        self.refaits = self.refaits + 1 if (ha == hb) else 0
        self.marques.append({"number": self.marque, "winner": exp_winner, "holes": [ha, hb]})
        if problems:
            self._finding(
                "marque-result-mismatch", where, "; ".join(problems),
                consequence="the score sheet must follow the holes of the record (RULES.md §8.2)",
            )
        self.releve_over = True

    # -- one coup -------------------------------------------------------------------
    def _coup(self, coup: Coup, nxt: object, last: bool) -> None:  # noqa: C901 - the rules are long
        e, profile = self.e, self.profile
        side = coup.side
        X = self.seat_of.get(side)
        if X is None:
            X = side if side in ("A", "B") else "A"
            self.notes.append(f"player {side} is not seated in this marqué; taken as seat {X}")
        Y = "B" if X == "A" else "A"
        roll = coup.roll
        where = _Where(self.game, self.marque, self.releve, coup.number, self.index, coup.span)
        if self.over is not None:
            self._after_end(where)
        # new relevé: the first coup's side has the primauté
        if self.pos is None:
            if self.multi is not None and self.marque_fresh:
                expected = self.multi_expected
                if self.multi_first is None:
                    self.multi_first = side
            else:
                expected = self._L(self.primaute) if self.primaute is not None else None
            self.marque_fresh = False
            if expected is not None and side != expected and self.releve_over is False and self.index > 0:
                self._finding(
                    "out-of-turn", where, f"{side} throws first but {expected} has the primauté",
                    who=X, consequence="the primauté belongs to the leaver, the first out, or the marqué's "
                    "rotation (RULES.md §9.3, §8.3)",
                )
            self.pos = e.start_position(X)
            if self.marque_first is None:
                self.marque_first = X
        elif self.pos.turn != X:
            self._finding(
                "out-of-turn", where, f"{side} throws but it is {self._L(self.pos.turn)}'s turn",
                who=X, consequence="replayed with the record's side to move",
            )
            self.pos = self.pos.swapped()
        self.primaute = None
        self.releve_over = False
        pos = self.pos

        # 1. the throw closes the roller's claim windows (003 §167, §186; 001 r.34)
        if self.pending:
            for p in self.pending:
                p.this_coup = False  # from now on a mistake of an earlier coup (003 §200)
                # an école impossible stays open until its offender throws again (001 r.62)
                if p.status == "open" and (p.offender == X if p.kind == "impossible" else p.claimant == X):
                    p.closed_at = self.index
                    self._close(p)
            self.pending = [p for p in self.pending if p.status == "open"]

        # 2. the actions as written
        x_before: list[Mark] = []
        x_after: list[Mark] = []
        y_marks: list[Mark] = []
        claims_x: list[Ecole] = []
        claims_y: list[Ecole] = []
        claims: list[Ecole] = []  # both sides', in the order written (003 §194)
        corrections: list[Correction] = []
        nmp = False
        leave: bool | None = None
        leave_span = coup.span
        pour_tout = False
        replay: Replay | None = None
        n_replays = 0
        pav_claims: list[Pavillon] = []
        holes0 = (self.std.holes("A"), self.std.holes("B")) if self.pav_check else (0, 0)
        for part, acts in ((0, coup.before), (1, coup.after)):
            if not acts:
                continue
            for a in acts:
                if isinstance(a, Mark):
                    s = self.seat_of.get(a.who, a.who)
                    if s == X:
                        (x_before if part == 0 else x_after).append(a)
                    else:
                        y_marks.append(a)
                elif isinstance(a, Ecole):
                    (claims_x if self.seat_of.get(a.claimant, a.claimant) == X else claims_y).append(a)
                    claims.append(a)
                elif isinstance(a, NeMarquePas):
                    if self.seat_of.get(a.who, a.who) == X:
                        nmp = True
                elif isinstance(a, Decision):
                    if self.seat_of.get(a.who, a.who) == X:
                        leave = a.leave
                        leave_span = a.span
                elif isinstance(a, Correction):
                    if (part == 0 and a.points < 0 and not a.holes and self.seat_of.get(a.who, a.who) == X
                            and self.profile.ecole_par_trop_when == "after-play"):
                        # bonne compagnie: the jeton may go back until he plays (001 III on r.41)
                        x_before.append(Mark(a.who, a.points, span=a.span))
                        continue
                    corrections.append(a)
                elif isinstance(a, JouePourTout):
                    pour_tout = True
                elif isinstance(a, Pavillon):
                    pav_claims.append(a)
                elif isinstance(a, Replay):
                    replay = a
                    n_replays += 1
        moves = _moves_of(coup)
        forced_by_replay = False
        if replay is not None:
            if n_replays > 1:
                self.notes.append(f"coup {coup.number}: {n_replays} replays written; the last one stands")
            if replay.who not in self.seat_of:
                self.notes.append(f"coup {coup.number}: {replay.who} does not play this game; his replay is "
                                  "taken as the opponent's")
            if leave is True and not moves and self.seat_of.get(replay.who, replay.who) != X:
                # "je m'en vais" and the opponent makes him stay and play the checkers he
                # chooses (001 r.63; 003 §170): the replay is the play
                moves, replay, forced_by_replay = _moves_of_list(replay.moves), None, True
        pairs = [m for m in moves if not isinstance(m, int)]

        # compact records: a s'en aller is read from the record (a new relevé after a hole)
        inferred_leave = False
        if leave is None and not moves and isinstance(nxt, (ReleveStart, MarqueStart, MarqueResult)):
            inferred_leave = True

        # 3. the play (not when he left, or when his gains ended the partie)
        no_play = not moves and (leave is True or inferred_leave or last or self._gains_end_partie(X, pos, roll))
        judgement = play = remedy = None
        forced_stay = False
        if no_play and replay is not None:
            self.notes.append(f"coup {coup.number}: the replay is ignored: nothing was played in this coup")
        if no_play:
            cs_roll = self._score_roll(pos, roll)
            cs = cs_play = cs_roll
            pos_after = pos
            would_hole = self.std.points(X) + cs_roll.mover >= HOLE
            if (last and leave is None and would_hole and self.partie_kind is not None
                    and self.partie_kind != "douze-trous"):
                inferred_leave = True  # the written game's last coup: he left on his hole (003 §221)
            if inferred_leave and not would_hole:
                inferred_leave = False  # no right to leave: the relevé check reports it
                no_play = last and not moves
            # he left, or his gains ended the partie: the opponent marks nothing (003 §157)
            R, O = cs_roll.mover, 0
        if not no_play:
            cached = self._judge(pos, roll, moves, where, side)
            if cached is None:  # the record cannot go on
                return
            judgement, play, cs_play, cs_roll, pos_after = cached
            cs = cs_play
            R, O = cs_play.mover, cs_play.other
            if forced_by_replay:
                # the play is the opponent's choice, his punishment (003 §170; 001 r.63): the
                # roller's gains are those of his throw, and a plein the chosen play does not
                # make is no école of his
                R = self._score_roll(pos, roll).mover
                if not judgement.legal:
                    if judgement.violation not in ("must-fill", "must-conserve"):
                        self._finding(
                            "remedy-not-allowed", where,
                            f"{self._L(Y)} made {side} stay and play {play.text()}, which is illegal: "
                            f"{(judgement.violation or '').replace('-', ' ')} (RULES.md {judgement.rule or '§3'})",
                            who=Y, detail="illegal", alternatives=tuple(x.text() for x in judgement.alternatives[:8]),
                            consequence="the game goes on from the play as the table made it (RULES.md §9.5)",
                        )
                    judgement = judgement._replace(legal=True, violation=None)
            if leave is True and moves and play.result[25] != ALL_OFF:
                # he had no right to leave: the opponent made him stay and play (003 §170,
                # §193; 001 r.54, r.63) — a leave-without-right, not a broken word
                forced_stay = self._leave_forfeited(X, R, x_before + x_after)
            if replay is not None:
                remedy = self._remedy(pos, roll, pairs, judgement, replay, X, side, where, forced_stay)
            if not judgement.legal:
                self._illegal(judgement, where, X, side,
                              remedy_by=None if remedy is None else (self._L(remedy[3]), remedy[0].text()))
            inferred_leave = False
        left = bool(leave) or inferred_leave
        sortie = play is not None and not no_play and play.result[25] == ALL_OFF
        if leave is True and moves and not sortie:
            left = False
            if forced_by_replay and not forced_stay:
                self._finding(
                    "remedy-not-allowed", self._where(coup, leave_span),
                    f"{self._L(Y)} made {side} stay and play {play.text() if play else '--'}, but his own "
                    "gains gave him a hole: he had the right to leave",
                    who=Y, detail="right-to-leave",
                    consequence="the game goes on as the table played it (RULES.md §6.1; 003 §155)",
                )
            elif not forced_stay:
                self._finding(
                    "stay-after-leave", self._where(coup, leave_span),
                    f"{side} said \"je m'en vais\" and then played {play.text() if play else 'his checkers'}",
                    who=X, consequence="words bind: the opponent may force him to leave (003 §156; 001 r.36)",
                )
        plein_lost = 0
        if not no_play and judgement is not None and not judgement.legal:
            plein_lost = _points_of(cs_roll, PLEIN_KINDS, "mover") - _points_of(cs_play, PLEIN_KINDS, "mover")
            if plein_lost < 0:
                plein_lost = 0
        if (not no_play and remedy is None and judgement is not None and not judgement.legal
                and judgement.violation in ("both-numbers", "larger-number")
                and not profile.missed_retour_passage_penalty):
            # bonne compagnie: no two points for the number left unplayed (001 III on r.68)
            O = O - _points_of(cs_play, _IMPUISSANCE, "other") + _points_of(cs_roll, _IMPUISSANCE, "other")
        if not no_play and remedy is not None:
            # the throw is judged as first played (the école does not change, 003 §192); the
            # points for a number left unplayed go to the opponent only if he lets the play
            # stand (003 §216); the game goes on from the play the remedy gave
            play, cs_r, pos_after = remedy[0], remedy[1], remedy[2]
            O = cs_r.other - _points_of(cs_r, _IMPUISSANCE, "other") + _points_of(cs_roll, _IMPUISSANCE, "other")
            if play.result[25] == ALL_OFF and not sortie:
                R += _points_of(cs_r, _SORTIE, "mover")  # he bore off by the replay (RULES.md §4.9)
            sortie = play.result[25] == ALL_OFF

        if self.compact and not (x_before or x_after or y_marks or claims_x or claims_y or nmp):
            if forced_stay:
                self._check_leave(coup, X, R, R, self.std.state, leave_span, where, [])
            self._compact_marks(X, Y, R, O, cs, left, no_play, where, side, coup)
        else:
            self._full_marks(
                coup, X, Y, R, O, cs_roll, judgement, plein_lost, left, no_play, pairs,
                x_before, x_after, y_marks, claims_x, claims_y, corrections, nmp, where, leave_span,
                claims, forced_stay,
            )

        # 4. the position after the coup; the relevé ends by a leave or a sortie
        releve_ended = False
        if left:
            self.pos = None
            self.primaute = X
            releve_ended = True
        elif no_play or play is None:
            self.pos = pos
        else:
            self.pos = pos_after
            if play.result[25] == ALL_OFF:
                self.std.new_releve_after_sortie(X)
                self.ent.new_releve_after_sortie(X)
                self.pos = None
                self.primaute = X
                releve_ended = True
                if pour_tout:
                    self.notes.append(
                        f"coup {coup.number} of relevé {self.releve}: je joue pour tout — the same throw "
                        "opens the next relevé (RULES.md §6.5)"
                    )
        if self.pav_check:
            self._pavillon(holes0, pav_claims, where)
        if self.over is None and self.partie_kind is not None and (
                left or self.std.holes("A") >= 12 or self.std.holes("B") >= 12):
            st = self.std.state
            if self.partie_kind == "douze-trous":
                if self.e.twelve_hole_winner(st) is not None:
                    self.over = f"the partie ended at coup {coup.number} ({st.a.holes}-{st.b.holes} holes, 003 §218)"
                    self.over_state = st
            elif left and self.e.marque_outcome(st, self.profile) is not None:
                self.over = (f"the marqué ended when {side} left at coup {coup.number} with "
                             f"{st.a.holes}-{st.b.holes} holes (003 §221)")
        if releve_ended:
            self.releve_over = True
        elif isinstance(nxt, (ReleveStart, MarqueStart)):
            # a new relevé after a coup that neither left nor bore off
            self.releve_over = False
        if self.keep_trace:
            mx = sum(m.points for m in x_before) + sum(m.points for m in x_after)
            my = sum(m.points for m in y_marks)
            self.trace.append(
                CoupTrace(
                    index=self.index, releve=self.releve, marque=self.marque, coup_number=coup.number,
                    side=side, roll=roll,
                    position_after=self.pos if self.pos is not None else e.start_position(X),
                    score_entitled=self.ent.state, score_standing=self.std.state, events=cs.events,
                    span=coup.span, entitled=(R, O),
                    marked=(None, None) if self.compact and not (x_before or y_marks) else (mx, my),
                    play=play.text() if play is not None and not no_play else "-",
                    left=left, releve_ended=releve_ended,
                )
            )

    # -- the play -------------------------------------------------------------------
    def _judge(self, pos: "Position", roll: tuple[int, int], moves: tuple, where: _Where, side: str) -> tuple | None:
        """(judgement, play, score of the play, score of the roll, position after) or None
        when a checker does not exist (the record cannot go on, RULES.md §9.6)."""
        e, profile = self.e, self.profile
        pairs = [m for m in moves if not isinstance(m, int)]
        j = e.judge_play(pos, roll, moves, profile)
        play = j.play
        if play is None:
            # not executable: a checker that does not exist, or a dame mal posée (§9.5)
            counts = list(pos.mover)
            for p, q in pairs:
                if not (1 <= p < q <= 25):
                    self._finding(
                        "illegal-move", where,
                        f"{side} moves {p}/{q}: checkers only move forward from 1..24 to 2..24 or off; "
                        "the record cannot go on",
                        who=self.seat_of.get(side, side), detail="wrong-distance",
                        consequence="verification of this game stops here (RULES.md §3.1, §9.6)",
                    )
                    self.stopped = True
                    return None
                if counts[p] <= 0:
                    self._finding(
                        "missing-checker", where,
                        f"{side} moves {p}/{q if q != 25 else 'off'} but has no checker on {p}: "
                        "the record cannot go on",
                        who=self.seat_of.get(side, side),
                        consequence="verification of this game stops here (RULES.md §9.6)",
                    )
                    self.stopped = True
                    return None
                counts[p] -= 1
                counts[q] += 1
            steps = tuple(pairs)
            play = e.Play(steps, tuple(q - p for p, q in steps), tuple(counts), 0)
            j = j._replace(play=play)
        cs_play, pos_after = e.play_outcome(pos, roll, play, profile)
        # what a legal play would give: needed only to measure a plein not made (§7.7)
        cs_roll = cs_play if j.legal else self._score_roll(pos, roll)
        return (j, play, cs_play, cs_roll, pos_after)

    def _score_roll(self, pos: "Position", roll: tuple[int, int]) -> "CoupScore":
        key = (pos, roll)
        cache = self._roll_cache
        cs = cache.get(key)
        if cs is None:
            if len(cache) >= _ROLL_CACHE_MAX:
                cache.clear()
            cs = cache[key] = self.e.score_roll(pos, roll, self.profile)
        return cs

    def _illegal(self, j: Any, where: _Where, X: str, side: str,
                 remedy_by: tuple[str, str] | None = None) -> None:
        v = j.violation or "illegal"
        kind = _VIOLATION_KIND.get(v, "illegal-move")
        if kind in ("must-fill", "must-conserve"):
            return  # reported with its école (RULES.md §7.7)
        if remedy_by is None:
            consequence = "the play stands unless the opponent had it corrected (RULES.md §9.5; 003 §211-216)"
        else:
            consequence = f"played again as {remedy_by[1]} at {remedy_by[0]}'s demand (RULES.md §9.5; 003 §211-216)"
        alts = tuple(p.text() for p in j.alternatives[:8])
        more = f" (+{len(j.alternatives) - 8} more)" if len(j.alternatives) > 8 else ""
        played = j.play.text() if j.play is not None else "?"
        self._finding(
            kind, where,
            f"{side} plays {played}: {v.replace('-', ' ')} (RULES.md {j.rule or '§3'}); "
            f"legal: {', '.join(alts) or 'none'}{more}",
            who=X, detail=v, alternatives=alts, consequence=consequence,
        )

    # -- table remedies (RULES.md §9.4-9.5, §7.7) ------------------------------------------
    def _remedy(self, pos: "Position", roll: tuple[int, int], pairs: list, j: Any, rep: Replay,
                X: str, side: str, where: _Where, forced_stay: bool = False) -> tuple | None:
        """The throw played again (``B:fait-jouer`` / ``A:rejoue``): judged by
        :func:`replay.remedies.remedy_problems` (RULES.md §9.4-9.5, §7.7); returns ``(play,
        score, position after, seat of who decided)`` — or None when the replay cannot be
        played at all (the written play stands)."""
        e, profile = self.e, self.profile
        rmoves = _moves_of_list(rep.moves)
        rw = replace(where, span=rep.span if rep.span.line else where.span)
        by = self.seat_of.get(rep.who, rep.who)
        if by not in ("A", "B"):
            by = "B" if X == "A" else "A"
        who = self._L(by)
        head = f"{side} replays his throw as" if by == X else f"{who} has {side}'s throw played again as"
        rj = e.judge_play(pos, roll, rmoves, profile)
        rplay = rj.play
        if rplay is None:
            self._finding(
                "remedy-not-allowed", rw,
                f"{head} {_pairs_text(rmoves)}, which cannot be played "
                f"({(rj.violation or 'illegal').replace('-', ' ')})",
                who=by, detail="not-executable",
                consequence="the play as first written stands (RULES.md §9.5)",
            )
            return None
        problems = remedy_problems(pos, roll, pairs, j, rj, by_roller=by == X, forced_stay=forced_stay,
                                   profile=profile, side=side)
        alts = rj.alternatives
        if problems:
            self._finding(
                "remedy-not-allowed", rw,
                f"{head} {rplay.text()}: " + "; ".join(t for _d, t in problems),
                who=by, detail=problems[0][0], alternatives=tuple(pl.text() for pl in alts[:8]),
                consequence="the game goes on from the replay as the table played it (RULES.md §9.5)",
            )
        cs_r, pos_r = e.play_outcome(pos, roll, rplay, profile)
        return (rplay, cs_r, pos_r, by)

    # -- compact records: perfect marking -------------------------------------------------
    def _compact_marks(self, X: str, Y: str, R: int, O: int, cs: "CoupScore", left: bool, no_play: bool,
                       where: _Where, side: str, coup: Coup) -> None:
        """Mark as perfect players would (replay.game order; RULES.md §4.1, §5.3, §6)."""
        for led in (self.std, self.ent):
            st = led.state
            if R and O and st[X].points + R < HOLE and st[Y].points + O >= HOLE:
                led.ne_marque_pas(X)  # RULES.md §5.3; 003 §150, §176
            elif R:
                led.mark(X, R, own=True)
            if left:
                led.leave(X, force=True)
            elif O:
                led.stay(X)
                led.mark(Y, O)

    # -- full records: marks against entitlement -------------------------------------------
    def _full_marks(  # noqa: C901
        self, coup: Coup, X: str, Y: str, R: int, O: int, cs_roll: "CoupScore", judgement: Any,
        plein_lost: int, left: bool, no_play: bool, pairs: list,
        x_before: list[Mark], x_after: list[Mark], y_marks: list[Mark],
        claims_x: list[Ecole], claims_y: list[Ecole], corrections: list[Correction],
        nmp: bool, where: _Where, leave_span: Span, claims: list[Ecole], forced_stay: bool,
    ) -> None:
        profile = self.profile
        side = coup.side
        mb = ma = MY = 0  # loops, not sum(generator): this runs on every coup
        for m in x_before:
            mb += m.points
        for m in x_after:
            ma += m.points
        M = mb + ma
        for m in y_marks:
            MY += m.points
        if (M == R and MY == O and not ma and not left and not nmp and not plein_lost
                and not claims_x and not claims_y and not corrections and not forced_stay):
            # fast path: everything marked as entitled (the usual coup of a clean record)
            if self._fast_marks(X, Y, R, O, x_before, y_marks, side, where):
                return
        st0 = self.std.state
        moved = bool(pairs)
        new: list[_Pending] = []
        violation = judgement.violation if judgement is not None and not judgement.legal else None

        def pend(kind: str, amount: int, message: str, *, entitled: int | None, marked: int | None,
                 erase: int = 0, detail: str | None = None, offender: str = X, claimant: str = Y) -> _Pending:
            p = _Pending(kind, offender, claimant, amount, where, entitled, marked, message, erase, detail,
                         this_coup=True)
            new.append(p)
            return p

        # -- the roller's own gains (RULES.md §7.1-7.2, §7.7, §7.8, §5.3) --------------------
        nmp_legit = False
        if nmp:
            nmp_legit = bool(O) and st0[Y].points + O >= HOLE and st0[X].points + R < HOLE
            if not nmp_legit and R:
                if st0[X].points + R >= HOLE:
                    pend("nmp", R, f"{side} said \"je ne marque pas\" but his own {R} points make his hole",
                         entitled=R, marked=0, detail="ne-marque-pas")
                else:
                    self.notes.append(
                        f"coup {coup.number}: {side} said \"je ne marque pas\" wrongly; his {R} points are "
                        "lost without école (003 §176)"
                    )
        elif plein_lost and M >= R + plein_lost:
            excess = M - R
            value = {"single": excess, "double": excess + plein_lost, "correct": 0}[profile.remplir_error_ecole]
            msg = (f"{side} marked {M} including {plein_lost} for a plein, then played "
                   f"{judgement.play.text()} which does not make it")
            if value:
                pend("plein", value, msg, entitled=R, marked=M, erase=excess, detail=profile.remplir_error_ecole)
            else:
                self._finding("ecole-plein-not-made", where, msg, who=X, entitled=R, marked=M,
                              consequence="bonne compagnie: he corrects his marks, no école (001 III on r.59)")
        else:
            if plein_lost:
                kind = "must-conserve" if violation == "must-conserve" else "must-fill"
                value = 0 if profile.remplir_error_ecole == "correct" else plein_lost
                what = "keep" if kind == "must-conserve" else "fill"
                msg = (f"{side} could {what} a plein ({plein_lost} points) and played "
                       f"{judgement.play.text()} instead")
                if value:
                    p = pend(kind, value, msg, entitled=R + plein_lost, marked=M, detail=violation)
                    p.alternatives = tuple(x.text() for x in judgement.alternatives[:8])
                else:
                    self._finding(kind, where, msg, who=X, entitled=R + plein_lost, marked=M,
                                  consequence="bonne compagnie: he may correct (001 III on r.59)")
            elif violation in ("must-fill", "must-conserve"):
                self._finding(_VIOLATION_KIND[violation], where,
                              f"{side} plays {judgement.play.text()}: {violation.replace('-', ' ')}",
                              who=X, detail=violation,
                              alternatives=tuple(x.text() for x in judgement.alternatives[:8]))
            if left and M != R:
                # leaving: the jetons go back to the rail, so points de reste over- or
                # under-marked are no école (003 §157, §169; 001 r.45); holes count
                # (RULES.md §6.4; 003 §173; 001 r.53-54)
                hw = [m.holes for m in x_before + x_after if m.holes is not None]
                h_marked = sum(hw) if hw else self._holes_of(st0, X, M)
                h_due = self._holes_of(st0, X, R)
                if h_marked > h_due and M > R:
                    pend("par-trop", M - R, f"{side} marked {M} ({h_marked} holes) for a throw worth {R} "
                         f"({h_due}) and left", entitled=R, marked=M, erase=M - R)
                elif h_marked < h_due:
                    self._finding(
                        "hole-mismatch", where,
                        f"{side} marked {h_marked} hole{'s' if h_marked != 1 else ''} and left; his throw made {h_due}",
                        who=X, entitled=h_due, marked=h_marked, detail="left",
                        consequence="no école: he only loses the holes he did not mark (003 §173, §191)",
                    )
                else:
                    self.notes.append(f"coup {coup.number}: {side}'s points de reste are taken off as he leaves; "
                                      "no école (003 §169; 001 r.45)")
            elif moved and ma and mb < R:
                # law of timing: the omission was consummated when he touched a checker
                pend("par-moins", R - mb, f"{side} marked {mb} of his {R} before touching a checker",
                     entitled=R, marked=mb, detail="marked-after-touching")
                pend("par-trop", ma, f"{side} marked {ma} more after touching a checker",
                     entitled=0, marked=ma, erase=ma)
            elif M > R:
                pend("par-trop", M - R, f"{side} marked {M} for a throw worth {R} to him",
                     entitled=R, marked=M, erase=M - R)
            elif M < R:
                if not moved and not left:
                    # école impossible (RULES.md §7.8; 001 r.62; 003 §197)
                    self._finding(
                        "ecole-impossible", where,
                        f"{side} marked {M} of his {R} on a throw he could not play",
                        who=X, entitled=R, marked=M,
                        consequence=f"no école: he may still mark the {R - M} until he throws again (001 r.62)",
                    )
                    pend("impossible", R - M, "", entitled=R, marked=M)
                elif M == 0 and R == HOLE and profile.unmarked_whole_hole != "ecole":
                    # D10: a forgotten trou sans bouger is no école under lebrun-1828 (000 ~l.760)
                    # nor bonne-compagnie (001 III on r.50); 003 §184 schools it
                    self.notes.append(
                        f"coup {coup.number}: {side} did not mark his hole (12 points); no école under "
                        f"{profile.name} (RULES.md §7.5, §10 D10)"
                    )
                    pend("impossible", R, "", entitled=R, marked=M)
                else:
                    pend("par-moins", R - M, f"{side} marked {M} for a throw worth {R} to him",
                         entitled=R, marked=M)

        # -- the receiver's marks (RULES.md §4.1 O4; 001 r.55: credited to what is owed first) --
        credit: list[int] = []  # points of each claim of Y credited to his receipts
        if MY < O and claims_y:
            short = O - MY
            for c in claims_y:
                t = min(short, c.points)
                credit.append(t)
                short -= t
        else:
            credit = [0] * len(claims_y)
        MY_eff = MY + sum(credit)
        late = 0
        if MY_eff > O and not left:
            # points missing from the receiver's own unplayable throw, added before he throws
            # again: no école, they are his (RULES.md §7.8; 001 r.62; 003 §197)
            for p in self.pending:
                if p.status == "open" and p.kind == "impossible" and p.offender == Y and p.amount > 0:
                    t = min(MY_eff - O, p.amount)
                    late += t
                    p.amount -= t
                    if not p.amount:
                        p.status = "closed"
            MY_eff -= late
        if left:
            if MY:
                pend("par-trop", MY, f"{self._L(Y)} marked {MY} from a throw after which {side} left",
                     entitled=0, marked=MY, erase=0, offender=Y, claimant=X, detail="after-leave")
        elif MY_eff > O:
            pend("par-trop", MY_eff - O, f"{self._L(Y)} marked {MY_eff} for {O} given",
                 entitled=O, marked=MY_eff, erase=MY_eff - O, offender=Y, claimant=X)
        elif MY_eff < O:
            p = pend("par-moins", O - MY_eff, f"{self._L(Y)} marked {MY_eff} of the {O} points given",
                     entitled=O, marked=MY_eff, offender=Y, claimant=X)
            if sum(credit):
                p.detail = "credited"  # 001 r.55: his école claim counted against his receipts

        # -- match the claims (RULES.md §7.3-7.4) -------------------------------------
        old = [p for p in self.pending if p.status == "open"]
        self.pending.extend(new)
        y_old: list[tuple[Ecole, int, _Pending | None]] = []
        y_new: list[tuple[Ecole, int, _Pending | None]] = []
        y_on_x_claims: list[tuple[Ecole, int, _Pending | None]] = []
        x_claims: list[tuple[Ecole, _Pending | None]] = []
        x_erase_now = 0
        y_credit = {id(c): cr for c, cr in zip(claims_y, credit)}
        for c in claims:
            if id(c) not in y_credit:  # the roller's claim, matched where it was written
                x_claims.append((c, self._match(c, c.points, X, Y, where)))
                continue
            n = c.points - y_credit[id(c)]
            if n <= 0:
                continue
            p = self._match(c, n, Y, X, where)
            if p is not None and p.this_coup and p.offender == X and p.kind == "fausse":
                y_on_x_claims.append((c, n, p))  # undoes the roller's own école claim (003 §194)
            elif p is not None and p.this_coup and p.offender == X:
                y_new.append((c, n, p))
                if p.kind in _ERASING:
                    x_erase_now += min(p.erase, M)
            elif p is None or p.this_coup:
                # a claim that answers no earlier mistake is made now, after the receipts
                y_new.append((c, n, p))
            else:
                y_old.append((c, n, p))
        if (y_old or claims_x) and not self.ordering_noted:
            self.ordering_noted = True
            self.notes.append(
                "écoles on earlier coups are marked before the roller's gains, écoles on a coup "
                "after its receipts (RULES.md §5.2; 003 §200; 001 r.64) — the usual order, assumed"
            )

        # -- the standing ledger, in the usual order ------------------------------------
        for c, n, p in y_old:
            if p is not None and p.kind in _ERASING and p.erase:
                self._erase(p.offender, min(p.erase, n))
            self.std.mark(Y, _even(n))
        x_eff = max(0, M - x_erase_now)
        holes_written = [m.holes for m in x_before + x_after if m.holes is not None]
        bred_written = [m.bredouille for m in x_before + x_after if m.bredouille is not None]
        if nmp:
            self.std.ne_marque_pas(X)
        elif x_eff:
            res = self.std.mark(X, _even(x_eff), own=True)
            self._check_holes(res, M, x_eff, holes_written, bred_written, X, side, where, st0)
        # the decision (RULES.md §6)
        if left or forced_stay:
            self._check_leave(coup, X, R, M, st0, leave_span, where, x_before + x_after)
        if left:
            self.std.leave(X, force=True)
        else:
            self.std.stay(X)
            if late:
                self.std.mark(Y, _even(late), own=True)
                self.notes.append(f"coup {coup.number}: {self._L(Y)} adds the {late} points missing from his "
                                  "unplayable throw before throwing again (001 r.62)")
            if MY_eff:
                res = self.std.mark(Y, _even(MY_eff))
                yh = [m.holes for m in y_marks if m.holes is not None]
                yb = [m.bredouille for m in y_marks if m.bredouille is not None]
                self._check_holes(res, MY_eff, MY_eff, yh, yb, Y, self._L(Y), where, st0)
        for c, n, p in y_new:
            if p is not None and p.kind in _ERASING and p.erase and p.offender != X:
                self._erase(p.offender, min(p.erase, n))
            self.std.mark(Y, _even(n))
        for c, p in x_claims:
            if p is not None and p.kind in _ERASING and p.erase:
                self._erase(p.offender, min(p.erase, c.points))
            self.std.mark(X, _even(c.points))
        for c, n, p in y_on_x_claims:
            if p is not None and p.erase:
                self._erase(X, min(p.erase, n))
            self.std.mark(Y, _even(n))
        for c in corrections:
            s = self.seat_of.get(c.who, c.who)
            self._correct(s, c.points, c.holes)
            for p in self.pending:
                if p.status == "open" and p.offender == s and p.kind in ("par-trop", "fausse") and -c.points == p.amount:
                    p.status = "erased"
                    self._close(p, erased=True)
                elif p.status == "open" and p.offender == s and p.kind in ("par-moins", "impossible") and c.points == p.amount:
                    p.status = "closed"  # corrected in time: no mistake left
        # -- the entitled ledger ------------------------------------------------------
        ent = self.ent
        est = ent.state
        if R and O and est[X].points + R < HOLE and est[Y].points + O >= HOLE:
            ent.ne_marque_pas(X)
        elif R:
            ent.mark(X, R, own=True)
        if left:
            ent.leave(X, force=True)
        else:
            due = O + sum(p.amount for p in new if p.kind in ("must-fill", "must-conserve"))
            if due:
                ent.mark(Y, _even(due))
        self.in_sync = self.std.state == ent.state

    def _fast_marks(self, X: str, Y: str, R: int, O: int, x_marks: list[Mark], y_marks: list[Mark],
                    side: str, where: _Where) -> bool:
        """Marks exactly as entitled: both ledgers move alike (False = take the long way)."""
        if not self.in_sync:
            return False
        std, ent = self.std, self.ent
        st0 = None  # not needed: the written marks are the entitled ones
        if R:
            r2 = R - (R & 1)  # _even(R), R > 0
            res = std.mark(X, r2, own=True)
            ent.mark(X, r2, own=True)
            if _hole_words(x_marks):
                self._check_holes(res, R, R, [m.holes for m in x_marks if m.holes is not None],
                                  [m.bredouille for m in x_marks if m.bredouille is not None], X, side, where, st0)
                std = self.std  # a bredouille lost at the table replaces the standing ledger
        std.stay(X)
        ent.stay(X)
        if O:
            o2 = O - (O & 1)  # _even(O), O > 0
            res = std.mark(Y, o2)
            ent.mark(Y, o2)
            if _hole_words(y_marks):
                self._check_holes(res, O, O, [m.holes for m in y_marks if m.holes is not None],
                                  [m.bredouille for m in y_marks if m.bredouille is not None], Y, self._L(Y),
                                  where, st0)
        return True

    def _match(self, c: Ecole, n: int, C: str, O: str, where: _Where) -> _Pending | None:
        """Which pending école a claim of ``n`` points by ``C`` takes (RULES.md §7.3-7.4)."""
        who = self._L(C)
        reason = (c.reason or "").lower()
        cw = _Where(where.game, where.marque, where.releve, where.coup, where.index, c.span if c.span.line else where.span)
        if "deux" in reason and "jeton" in reason:
            ok = self.profile.ecole_deux_jetons == "ecole"
            self._finding(
                "ecole-deux-jetons", cw,
                f"{who} schools {self._L(O)}'s deux jetons for {n}",
                who=O, entitled=n if ok else 0, marked=n,
                consequence=("école of the abandoned points (001 r.65; 000 ~l.758)" if ok else
                             "no école under this profile: the adversary only removes one mark "
                             "(003 §195; 001 III on r.65)"),
            )
            if ok:
                self._erase(O, n)
            else:
                p = _Pending("fausse", C, O, n, cw, 0, n, f"{who} marked {n} for an école des deux jetons", n,
                             this_coup=True)
                self.pending.append(p)
            return None
        open_ = [p for p in self.pending if p.status == "open" and p.claimant == C]
        real = [p for p in open_ if p.kind != "impossible"]
        exact = [p for p in real if p.amount == n or (p.kind == "nmp" and n <= p.amount)]
        if exact:
            p = exact[0]
            return self._claim(p, n, cw)
        if len(real) > 1 and sum(p.amount for p in real) == n:
            for p in real:
                self._claim(p, p.amount, cw)
            return real[-1]
        bigger = [p for p in open_ if p.amount > n and p.kind != "impossible"]
        if bigger:
            p = bigger[0]
            self._finding(
                "ecole-partial", cw, f"{who} claims {n} of an école of {p.amount}",
                who=C, entitled=p.amount, marked=n,
                consequence=f"an école is indivisible: {self._L(p.offender)} may force him to mark all "
                            f"{p.amount} (003 §187; 001 r.46)",
            )
            return self._claim(p, n, cw)
        if real:
            p = max(real, key=lambda q: q.amount)
            self._claim(p, p.amount, cw)
            extra = n - p.amount
            self.pending.append(_Pending(
                "fausse", C, O, extra, cw, p.amount, n,
                f"{who} claims {n} for an école of {p.amount}", extra, this_coup=True))
            return p
        imp = [p for p in open_ if p.kind == "impossible"]
        # too late: a window closed by the claimant's own last throw (this coup's, or the
        # previous one when he is not the roller)
        late = [q for q in self._closed if q.claimant == C and q.amount == n and q.status == "closed"
                and q.closed_at >= self.index - 1]
        if imp:
            imp[0].status = "claimed"
            self.pending.append(_Pending(
                "fausse", C, O, n, cw, 0, n,
                f"{who} claims {n} for an école impossible (001 r.62; 003 §197)", n,
                detail="ecole-impossible", this_coup=True))
        elif late:
            self.pending.append(_Pending(
                "too-late", C, O, n, cw, 0, n,
                f"{who} claims {n} after throwing his dice (the école of coup {late[-1].where.coup})", n, this_coup=True))
        else:
            self.pending.append(_Pending(
                "fausse", C, O, n, cw, 0, n, f"{who} claims an école of {n} that was not made", n,
                this_coup=True))
        return None

    def _claim(self, p: _Pending, n: int, cw: _Where) -> _Pending:
        p.status = "claimed"
        p.claimed = n
        self._close(p, claimed=True)
        return p

    def _close(self, p: _Pending, *, claimed: bool = False, erased: bool = False, end: bool = False) -> None:
        """Turn a pending mistake into its one finding (RULES.md §7.2-7.4)."""
        if p.status == "open":
            p.status = "closed"
        self._closed.append(p)
        w = p.where
        off, cl = self._L(p.offender), self._L(p.claimant)
        tail = " (the record ends before his claim window closed)" if end else ""
        if p.kind == "impossible":
            return
        if p.kind in ("par-trop", "par-moins", "nmp"):
            if claimed:
                kind = "ecole-par-trop" if p.kind == "par-trop" else "ecole-par-moins"
                cons = f"claimed by {cl}: {cl} marks {p.claimed} for himself"
                if p.kind == "par-trop":
                    cons += f" and {off}'s excess is erased"
            elif erased:
                kind = "ecole-par-trop"
                cons = "the excess was erased without école (003 §187; 001 r.56)"
            else:
                kind = "unclaimed-ecole"
                if p.kind == "par-trop" and p.detail == "after-leave":
                    cons = (f"not claimed by {cl}; the leave takes every jeton back, so the {p.amount} points "
                            f"do not stand (003 §155, §157){tail}")
                elif p.kind == "par-trop":
                    if self.profile.keep_unschooled_wrong_points:
                        cons = (f"not claimed by {cl} before he threw: {off} keeps the {p.amount} points "
                                f"(001 r.47; 003 §167){tail}")
                        if self.std.points(p.offender) < p.amount:
                            cons += "; a hole or a leave has since taken them off"
                    else:
                        # D26: wrongly marked points are never kept (001 III on r.47)
                        cons = (f"not claimed by {cl} before he threw: no école, but {off} gives the "
                                f"{p.amount} points back (001 III on r.47){tail}")
                        # only points still on his jeton: a hole or a leave may have taken them
                        back = min(p.erase or p.amount, self.std.points(p.offender))
                        if back:
                            self._erase(p.offender, back)
                            self.in_sync = self.std.state == self.ent.state
                else:
                    cons = (f"not claimed by {cl} before he threw: the {p.amount} points are lost; "
                            f"no école of an école (003 §182; 001 r.43){tail}")
            self._finding(kind, w, p.message, who=p.offender, entitled=p.entitled, marked=p.marked,
                          consequence=cons, detail=p.detail or p.kind)
            return
        kind = {"plein": "ecole-plein-not-made", "must-fill": "must-fill", "must-conserve": "must-conserve",
                "fausse": "ecole-claimed-wrongly", "too-late": "ecole-too-late"}[p.kind]
        if claimed:
            cons = f"claimed by {cl}: {cl} marks {p.claimed}"
        else:
            cons = f"{cl} could have marked {p.amount} and did not: it stands{tail}"
        if p.kind == "plein":
            rule = "001 r.59 double école" if p.detail == "double" else "003 §192"
            cons = f"école of {p.amount} ({rule}); " + cons
        elif p.kind in ("must-fill", "must-conserve"):
            cons = f"école of {p.amount} (003 §192); " + cons
        self._finding(kind, w, p.message, who=p.offender, entitled=p.entitled, marked=p.marked,
                      consequence=cons, detail=p.detail, alternatives=p.alternatives)

    # -- ledger adjustments ------------------------------------------------------------
    def _erase(self, seat: str, n: int) -> None:
        """Erase ``n`` over-marked points of ``seat`` (a claimed école par trop, §7.3)."""
        self._correct(seat, -n, 0)

    def _correct(self, seat: str, dpoints: int, dholes: int, *, bredouille: bool | None = None,
                 pavillon: bool | None = None) -> None:
        e = self.e
        st = self.std.state
        ps = st[seat]
        pts, holes = ps.points + dpoints, ps.holes + dholes
        while pts < 0 and holes > 0:
            holes -= 1
            pts += HOLE
        while pts >= HOLE:
            holes += 1
            pts -= HOLE
        pts = max(0, pts)
        holes = max(0, holes)
        keep = ps.bredouille if bredouille is None else bredouille
        pav = ps.pavillon if pavillon is None else pavillon
        new = replace(ps, points=pts, holes=holes, bredouille=keep and pts > 0,
                      pavillon=pav and holes > 0)
        state = replace(st, a=new) if seat == "A" else replace(st, b=new)
        led = e.Ledger(self.profile, state, primaute=self.std.primaute)
        led.releve = self.std.releve
        self.std = led

    # -- checks --------------------------------------------------------------------------
    def _check_holes(self, res: Any, written: int, applied: int, holes_written: list, bred_written: list,
                     seat: str, who: str, where: _Where, st0: "ScoreState") -> None:
        """Holes and bredouille as written against what the points make (RULES.md §5.2,
        §5.5, §7.5: corrected, never schooled; 003 §145, §184; 001 r.51)."""
        if not holes_written and not bred_written:
            return
        if written != applied:  # the holes follow the points as written
            led = self.e.Ledger(self.profile, st0)
            res = led.mark(seat, _even(written))
        made = sum(n for n, _ in res.holes)
        lost_ok = written == applied and self.profile.late_bredouille_correction != "always"
        if holes_written:
            h = sum(holes_written)
            doubles = sum(1 for _n, d in res.holes if d)
            if h < made and made - h == doubles and bred_written[-1:] != [True]:
                # a double hole marked simple: lost once he plays or throws (RULES.md §5.5;
                # 003 §145, §191); bonne compagnie always corrects (001 III on r.48)
                self._finding(
                    "bredouille-lost", where,
                    f"{who} marked {'his double holes' if doubles > 1 else 'his double hole'} simple "
                    f"({h} for {made})",
                    who=seat, entitled=None, marked=None, detail="double-hole-marked-simple",
                    consequence=("the bredouille is lost once he plays or throws, no école (003 §145, §191)"
                                 if lost_ok else "corrected (001 III on r.48)"),
                )
                if lost_ok:
                    self._correct(seat, 0, -doubles)
                    self.in_sync = False
                return
            if h != made:
                self._finding(
                    "hole-mismatch", where,
                    f"{who} moved his fichet {h} hole{'s' if h != 1 else ''} for {written} points, which make {made}",
                    who=seat, entitled=made, marked=h,
                    consequence="the holes are put right, no école (003 §184; 001 r.51)",
                )
                return
        if bred_written:
            b = bred_written[-1]
            due = any(d for _, d in res.holes) if res.holes else res.bredouille_after
            if b != due:
                why = ("his points were interrupted" if b else "it was due")
                if b and self._ecole_before(seat):
                    why = "his own école, marked before the opponent's gain, interrupted it (001 r.64; 003 §200)"
                self._finding(
                    "bredouille-lost", where,
                    f"{who} marked {'in' if b else 'without'} bredouille but {why}",
                    who=seat, consequence=("the extra jeton is removed, no école (003 §144)" if b else
                                           "the bredouille is lost once he plays or throws, no école (003 §145)"
                                           if lost_ok else "corrected (001 III on r.48)"),
                )
                if not b and lost_ok:
                    # the table goes on without it (RULES.md §5.5; 003 §145; 001 r.48)
                    doubles = sum(1 for _n, d in res.holes if d)
                    if doubles:
                        self._correct(seat, 0, -doubles)
                    else:
                        self._correct(seat, 0, 0, bredouille=False)
                    self.in_sync = False

    def _ecole_before(self, seat: str) -> bool:
        """Did ``seat`` claim an école on this or the previous coup (001 r.64; 003 §200)?"""
        return any(
            p.claimant == seat and p.status == "claimed" and self.index - 1 <= p.where.index <= self.index
            for p in self._closed
        )

    def _gains_end_partie(self, X: str, pos: "Position", roll: tuple[int, int]) -> bool:
        """Do the roller's gains give him his twelfth hole (the partie en douze trous ends
        on them and nothing is played, RULES.md §8.1; 003 §218)?"""
        if self.partie_kind != "douze-trous":
            return False
        st = self.std.state
        return st[X].holes + self._holes_of(st, X, self._score_roll(pos, roll).mover) >= 12

    def _holes_of(self, st0: "ScoreState", seat: str, points: int) -> int:
        """Holes (double ones count 2) that ``points`` of ``seat``'s own make from ``st0``."""
        if points <= 1:
            return 0
        return self.e.Ledger(self.profile, st0).mark(seat, _even(points), own=True).holes_won

    def _holes_over(self, st0: "ScoreState", seat: str, R: int, marks: list[Mark]) -> bool:
        """Did the marks make more holes than the gains (RULES.md §6.4; 003 §173; 001 r.54)?"""
        if not marks:
            return False
        hw = [m.holes for m in marks if m.holes is not None]
        M = sum(m.points for m in marks)
        h = sum(hw) if hw else self._holes_of(st0, seat, M)
        return h > self._holes_of(st0, seat, R)

    def _leave_forfeited(self, X: str, R: int, marks: list[Mark]) -> bool:
        """No right to leave: no hole of his own throw, or holes over-marked (RULES.md §6.1, §6.4)."""
        st0 = self.std.state
        return st0[X].points + R < HOLE or self._holes_over(st0, X, R, marks)

    def _check_leave(self, coup: Coup, X: str, R: int, M: int, st0: "ScoreState", span: Span, where: _Where,
                     marks: list[Mark] | None = None) -> None:
        """S'en aller: own gains must complete a hole, and the holes must not be
        over-marked (RULES.md §6.1, §6.4, §6.5; 003 §170, §173; 001 r.54)."""
        side = coup.side
        own_hole = st0[X].points + R >= HOLE
        w = self._where(coup, span)
        sortie = any(isinstance(m, Move) and m.to == 25 for m in coup.moves)
        if not own_hole:
            kind = "leave-at-sortie" if sortie else "leave-without-right"
            self._finding(
                kind, w, f"{side} leaves with {st0[X].points} points and a gain of {R}: no hole of his own throw",
                who=X, entitled=R, marked=M,
                consequence="école as soon as he lifts a checker; the opponent may make him stay and "
                            "play the lifted checkers (003 §170; 001 r.25)",
            )
        elif M > R and self._holes_over(st0, X, R, marks or []):
            self._finding(
                "leave-without-right", w,
                f"{side} leaves after marking {M} for a gain of {R}: over-marking his holes forfeits the right "
                "to leave",
                who=X, entitled=R, marked=M, detail="over-marked",
                consequence="the opponent may force him to stay and school the excess (003 §173; 001 r.54)",
            )


def _moves_of_list(moves: Sequence[Any]) -> tuple:
    out: list = []
    for m in moves:
        if isinstance(m, Move):
            out.append((m.from_, m.to))
        elif isinstance(m, CannotPlay):
            out.append(m.number)
    return tuple(out)


def _pairs_text(moves: tuple) -> str:
    return " ".join(f"{m[0]}/{'off' if m[1] == 25 else m[1]}" if not isinstance(m, int) else f"-{m}"
                    for m in moves) or "--"


def _points_of(cs: "CoupScore", kinds: frozenset[str], side: str) -> int:
    """Points of the events of these kinds for ``side`` ("mover" / "other")."""
    return sum(ev.points for ev in cs.events if ev.side == side and ev.kind in kinds)


_IMPUISSANCE = frozenset(("impuissance",))
_SORTIE = frozenset(("sortie",))


def _hole_words(marks: list[Mark]) -> bool:
    """Does a mark write holes or a bredouille (a plain loop: hot path)?"""
    for m in marks:
        if m.holes is not None or m.bredouille is not None:
            return True
    return False


def _even(n: int) -> int:
    """Points are even (003 §140); an odd written mark is taken one lower."""
    return n - (n & 1) if n > 0 else 0


# ------------------------------------------------------------------------------------
# API
# ------------------------------------------------------------------------------------


def verify(
    record: Record,
    profile: Profile | None = None,
    *,
    file: str | None = None,
    game: int = 0,
    trace: bool = True,
    diagnostics: Sequence[Diagnostic] = (),
) -> GameReport:
    """Verify one game (RULES.md §3-§9): findings, final score, per-coup trace.

    ``profile`` overrides the record's ``Profile`` header (RULES.md §10.2); None = the
    header's profile, else ``lelasseux-1852``.  Never raises on a bad record: its
    faults are findings; ``trace=False`` skips the per-coup trace (faster).
    """
    if not isinstance(record, Record):
        raise VerifyError(f"verify() needs a Record, not {type(record).__name__}")
    notes: list[str] = []
    prof = _profile_for(record, profile, notes)
    with quiet_gc():
        v = _Verifier(record, prof, game, file, trace)
        v.notes[:0] = notes
        v.diagnostics[:0] = list(diagnostics)
        report = v.run()
        # A game's positions are seldom seen again: the play sets it left in the
        # engine's cache only cost collector passes and memory traffic in the next
        # game (measured on selfplay games: ~19k -> ~24k coups/s).  Results do not
        # depend on the cache.
        v.e.clear_moves_cache()
        return report


@contextmanager
def quiet_gc() -> Iterator[None]:
    """No cyclic garbage collection while one game is verified, restored after.

    A game allocates many small containers that live until its end and make no
    reference cycles worth collecting; the collector's passes over them cost about a
    third of the run (measured: 10.9k -> 16k coups/s).  Reference counting still frees
    everything; the collector runs again as soon as the game is done.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def verify_text(text: str, profile: Profile | None = None, *, file: str | None = None,
                trace: bool = True) -> list[GameReport]:
    """Parse ``text`` and verify every game in it (diagnostics attached to their game)."""
    from trictrac.notation.reader import _iter_str, _text_lines  # noqa: PLC2701 - same project

    return [
        verify(pr.record, profile, file=file, game=i, trace=trace, diagnostics=pr.diagnostics)
        for i, pr in enumerate(_iter_str(_text_lines(text), file, False))
    ]


def _verify_chunk(args: tuple) -> list[GameReport]:
    """Worker: verify the games starting at ``offsets`` (byte offset, first line)."""
    from trictrac.notation.reader import read_record_at

    path, games, first_game, profile, trace = args
    out = []
    for k, (off, line) in enumerate(games):
        pr = read_record_at(path, off, line=line)
        if pr is None:  # pragma: no cover - the index said a game starts here
            continue
        out.append(verify(pr.record, profile, file=path, game=first_game + k, trace=trace,
                          diagnostics=pr.diagnostics))
    return out


def verify_file(path: str, profile: Profile | None = None, jobs: int = 1, *, trace: bool = False,
                chunk_games: int = 50) -> Iterator[GameReport]:
    """Verify every game of a ``.trn`` file, streaming one :class:`GameReport` per game.

    ``jobs > 1``: the games are indexed (``notation.reader.index_records``: byte offsets,
    no parsing) and verified in chunks by a process pool; reports come in file order.
    A file that cannot be opened raises ``OSError`` (the CLI turns it into exit 2).
    """
    from trictrac.notation import reader

    if jobs <= 1:
        for i, pr in enumerate(reader.iter_records(path, file=path)):
            yield verify(pr.record, profile, file=path, game=i, trace=trace, diagnostics=pr.diagnostics)
        return
    index = reader.index_records(path)
    with open(path, "rb") as fh:
        data = fh.read()
    games: list[tuple[int, int]] = []
    line, prev = 1, 0
    for off, _length in index:
        line += data.count(b"\n", prev, off)
        prev = off
        games.append((off, line))
    del data
    tasks = [
        (path, games[k:k + chunk_games], k, profile, trace) for k in range(0, len(games), chunk_games)
    ]
    import multiprocessing as mp
    import os

    ctx = mp.get_context("fork") if hasattr(os, "fork") else mp.get_context()
    with ctx.Pool(jobs) as pool:
        for reports in pool.imap(_verify_chunk, tasks):
            yield from reports
