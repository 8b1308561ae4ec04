"""Mistakes of the record itself: one finding, and the walk goes on (issue 14 §2).

A coup the record cannot mean as written — a move the throw cannot make, a move from
an empty point, a move the reader could not read (``61/12``), a coup written for the
side that is not to move (a side letter mistyped, or the coup before it left out) — is
a typo, not a mistake at the table.  :class:`RecoveryJudge` lists what the writer may
have meant (the legal plays nearest to what is written; the other side's letter; a
missing coup: each of the 21 throws of the side to move and its legal plays that make
the coup as written legal), tries each on a copy of the verifier over the next coups,
and goes on from the one the rest of the record agrees with best: the fewest findings
in the coups that follow (their marks and moves were written from what really happened),
then the nearest text.  One finding says what was written and what the walk took
instead; the later findings that only followed from the typo are never made.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..notation.record import CannotPlay, Comment, Coup, Move
from .judges.play import plays_by_distance
from .judges.table import TableState, Where, moves_of
from .moves import judge_play, legal_plays
from .position import Position, start_position
from .scoring import play_outcome
from .selfplay import play_moves

if TYPE_CHECKING:  # pragma: no cover
    from ..notation.record import Diagnostic
    from .moves import Play

LOOKAHEAD = 12  # coups of the record tried after a candidate (its evidence)
LOOKAHEAD_MISSING = 40  # the marks of a coup left out show only at the next holes
NEAREST = 8  # legal plays tried for a play the record cannot make
MISSING_TRIED = 21  # candidate coups tried for a coup left out
MISSING_SCREENED = 150  # ... after a first screen on the written coup's own marks
AGREEING = (3, 12, 40, 400)  # coups played from candidate positions, further each round
ROLLS = tuple((a, b) for a in range(6, 0, -1) for b in range(a, 0, -1))  # the 21 throws


@dataclass(slots=True)
class Candidate:
    """What the writer may have meant: the coup(s) to walk instead of the written one."""

    coups: tuple[Coup, ...]  # a missing coup and the written one, or the written one put right
    what: str  # "play", "side", "missing" or "as-written"
    text: str  # the proposal as the record would write it
    prior: int  # distance from what is written (ties of the evidence)
    compact_first: bool = False  # the first coup is a missing one: perfect marks


def _allowed(roll: tuple[int, int]) -> frozenset[int]:
    a, b = roll
    if a == b:
        return frozenset((a, 2 * a, 3 * a, 4 * a, a - 1))
    return frozenset((a, b, a + b, a - 1, b - 1))


def plausible(pos: Position, roll: tuple[int, int], pairs: list[tuple[int, int]]) -> bool:
    """A cheap test that the written moves can be made (the hot path): forward, from a
    point holding a checker, a distance the throw can give (or a bear-off)."""
    counts = list(pos.mover)
    allowed = _allowed(roll)
    for p, q in pairs:
        if not (1 <= p < q <= 25) or counts[p] <= 0 or (q != 25 and q - p not in allowed):
            return False
        counts[p] -= 1
        counts[q] += 1
    return True


def ranked_plays(written: str, plays: Sequence[Play]) -> list[Play]:
    """Legal plays, nearest first to a written one (edit distance over the text, its
    moves in either order, from/to exchanged; as :func:`judges.play.nearest_plays`)."""
    return [p for _, p in plays_by_distance(written, plays)]


class RecoveryJudge(TableState):
    """Mixin of the verifier: a coup the record cannot mean is tried against the coups
    that follow it (see the module's docstring)."""

    recover: bool
    roll_cache: dict[tuple[Any, ...], Any]  # the play judge's, shared by the trial copies
    pos: Position | None
    index: int
    compact: bool
    diagnostics: list[Diagnostic]
    _bad_tokens: dict[int, list[Diagnostic]] | None = None

    if TYPE_CHECKING:  # the verifier's walk (replay/verify.py)

        def _coup(self, coup: Coup, nxt: object, last: bool) -> None: ...
        def _element(self, i: int) -> None: ...
        def _next_coup_after(self, i: int) -> object: ...

    def _unread_moves(self, coup: Coup) -> list[Diagnostic]:
        """Moves of this coup's line the reader could not read (``61/12``)."""
        if self._bad_tokens is None:
            self._bad_tokens = {}
            for d in self.diagnostics:
                if d.code == "bad-move" and "/" in d.text:
                    self._bad_tokens.setdefault(d.span.line, []).append(d)
        return self._bad_tokens.get(coup.span.line, []) if self._bad_tokens else []

    def _recovered(self, i: int, coup: Coup, nxt: object, last: bool) -> bool:
        """Walk this coup as the record most likely meant it when it cannot mean what is
        written; False when it can (the ordinary course then walks it)."""
        if coup.side not in self.seat_of:
            return False
        roller = self.seat_of[coup.side]
        pos = self.pos or start_position(roller)  # the first coup of a relevé: its play only
        unread = self._unread_moves(coup)
        doubt = False  # a play that can be made but is illegal: a typo only on strong evidence
        first = self._first_expected() if self.pos is None else None
        again = isinstance(nxt, Coup) and nxt.side == coup.side  # then a mistyped letter (verify.py)
        if first is not None and first != coup.side and first in self.seat_of and not again:
            # the relevé's first coup is not the primauté's: its first coup left out?
            cands = self._missing_candidates(i, coup, start_position(self.seat_of[first]), first)
            if not cands:
                return False
            cands.append(Candidate((coup,), "as-written", coup.side, 99))
            pos = start_position(self.seat_of[first])
        elif self.pos is not None and pos.turn != roller:
            cands = self._side_candidates(i, coup, pos)
        elif unread or not self._makeable(pos, coup):
            cands = self._play_candidates(coup, pos, unread)
        elif self._short(coup) and not judge_play(pos, coup.roll, moves_of(coup.moves), self.profile).legal:
            cands, doubt = self._play_candidates(coup, pos, unread), True
        else:
            return False
        if not cands:
            return False
        reach = LOOKAHEAD
        if len(cands) > MISSING_TRIED:  # many coups left out agree with the moves: their marks first
            short = sorted(((self._trial(i, c, 1), c.prior), k) for k, c in enumerate(cands))
            cands = [cands[k] for _, k in short[:MISSING_TRIED]]
        if any(c.what == "missing" for c in cands):
            reach = LOOKAHEAD_MISSING
        scored = sorted(((self._trial(i, c, reach), c.prior), k) for k, c in enumerate(cands))
        best = cands[scored[0][1]]
        if best.what == "as-written":
            return False
        if doubt:  # a misplay at the table is written with marks that agree with it
            (stop, found), _ = scored[0][0]
            as_written = next((t for (t, _), k in scored if cands[k].what == "as-written"), (1, 0))
            if stop or (not as_written[0] and found + 2 > as_written[1]):
                return False
        for d in unread:
            self.diagnostics.remove(d)  # the finding says it: one mistake, one report
        self._say_recovered(coup, pos, best, cands, unread)
        self._walk(best, nxt, last)
        return True

    def _first_expected(self) -> str | None:
        """The letter the primauté gives the first throw of a relevé (RULES.md §9.3)."""
        if self.multi is not None and self.marque_fresh:  # type: ignore[attr-defined]
            return self.multi_expected  # type: ignore[attr-defined,no-any-return]
        primaute = self.primaute  # type: ignore[attr-defined]
        return self._letter(primaute) if primaute is not None else None

    @staticmethod
    def _short(coup: Coup) -> bool:
        """Cheap: the written moves do not cover the throw (one number left unplayed and
        not said so), the usual shape of a digit typed wrong into a makeable move."""
        a, b = coup.roll
        covered = 0
        if not any(isinstance(m, Move) for m in coup.moves):
            return False  # he left, or wrote that nothing moved: the course judges that
        for m in coup.moves:
            if isinstance(m, Move):
                if m.to >= 25:
                    return False
                covered += m.to - m.from_
            else:
                covered += m.number
        return covered not in (a + b, a + b - 2)

    def _makeable(self, pos: Position, coup: Coup) -> bool:
        pairs = [(m.from_, m.to) for m in coup.moves if isinstance(m, Move)]
        if plausible(pos, coup.roll, pairs):
            return True
        j = judge_play(pos, coup.roll, moves_of(coup.moves), self.profile)
        return j.play is not None and j.violation != "wrong-distance"

    # -- candidates -------------------------------------------------------------------
    def _written_text(self, coup: Coup, unread: list[Diagnostic]) -> str:
        toks = [(m.span.col, f"{m.from_}/{'off' if m.to == 25 else m.to}") for m in coup.moves if isinstance(m, Move)]
        toks += [(d.span.col, d.text) for d in unread]
        return " ".join(t for _, t in sorted(toks))

    def _play_candidates(self, coup: Coup, pos: Position, unread: list[Diagnostic]) -> list[Candidate]:
        written = self._written_text(coup, unread)
        plays = legal_plays(pos, coup.roll, self.profile)
        near = ranked_plays(written, plays.plays)[:NEAREST]
        cannot = tuple(m for m in coup.moves if isinstance(m, CannotPlay))
        out = [
            Candidate((replace(coup, moves=play_moves(p, ()) + cannot),), "play", p.text(), k)
            for k, p in enumerate(near)
        ]
        out.append(Candidate((coup,), "as-written", written, len(out)))
        return out

    def _side_candidates(self, i: int, coup: Coup, pos: Position) -> list[Candidate]:
        meant = self._letter(pos.turn)
        out = [Candidate((coup,), "as-written", coup.side, 99)]
        nxt = self._next_coup_after(i)
        # a mistyped letter leaves the next coup written for the same letter again
        again = not isinstance(nxt, Coup) or nxt.side == coup.side
        moves = moves_of(coup.moves)
        if again and (not moves or judge_play(pos, coup.roll, moves, self.profile).legal):
            out.append(Candidate((replace(coup, side=meant),), "side", meant, 0))
        out += self._missing_candidates(i, coup, pos, meant)
        return out

    def _missing_candidates(self, i: int, coup: Coup, pos: Position, meant: str) -> list[Candidate]:
        """A coup of ``meant`` left out before ``coup``: the throws and plays after which
        the most coups that follow, ``coup`` first, can be played as written (counted
        further and further for the plays still in the running)."""
        found: dict[Any, tuple[tuple[int, int], Play, tuple[int, ...], Position]] = {}
        for roll in ROLLS:
            ps = legal_plays(pos, roll, self.profile)
            for play in ps.plays or ():
                _, after = play_outcome(pos, roll, play, self.profile)
                found.setdefault((after.mover, after.other, roll), (roll, play, ps.unplayable, after))
        running = list(found.values())
        for reach in AGREEING:
            agree = [self._coups_agreeing(i, c[3], reach) for c in running]
            best = max(agree, default=0)
            running = [c for c, n in zip(running, agree, strict=True) if n == best]
            if best < reach or len(running) <= 1:
                break
        # the likelier throws first: a double is half as likely as another throw
        running.sort(key=lambda c: (c[0][0] == c[0][1], ROLLS.index(c[0])))
        out = []
        for k, (roll, play, unplayable, _) in enumerate(running[:MISSING_SCREENED]):
            missing = Coup(max(coup.number - 1, 1), meant, roll, play_moves(play, unplayable), span=coup.span)
            out.append(
                Candidate((missing, coup), "missing", f"{roll[0]}-{roll[1]} {play.text()}", 1 + k, compact_first=True)
            )
        return out

    def _coups_agreeing(self, i: int, pos: Position, reach: int) -> int:
        """How many coups from element ``i`` on (at most ``reach``) can be played as
        written from ``pos``; a coup without moves counts and ends the count (the
        relevé ends or nothing moved), as does a new section."""
        els = self.rec.elements  # type: ignore[attr-defined]
        n = 0
        for el in els[i:]:
            if n >= reach or not isinstance(el, (Coup, Comment)):
                break
            if isinstance(el, Comment):
                continue
            if self.seat_of.get(el.side) != pos.turn:
                break
            moves = moves_of(el.moves)
            if not moves:
                return n + 1
            j = judge_play(pos, el.roll, moves, self.profile)
            if not j.legal or j.play is None:
                break
            _, pos = play_outcome(pos, el.roll, j.play, self.profile)
            n += 1
        return n

    # -- trying a candidate ---------------------------------------------------------------
    def _clone(self) -> RecoveryJudge:
        memo: dict[int, Any] = {
            id(self.rec): self.rec,
            id(self.profile): self.profile,
            id(self.roll_cache): self.roll_cache,
        }
        twin = copy.deepcopy(self, memo)
        twin.recover = False  # a second mistake in the look-ahead stops the trial
        twin.keep_trace = False  # type: ignore[attr-defined]
        return twin

    def _trial(self, i: int, cand: Candidate, reach: int) -> tuple[int, int]:
        """(stopped, findings) when the record goes on from ``cand`` for a few coups."""
        twin = self._clone()
        before = len(twin.findings)
        twin._walk(cand, twin._next_coup_after(i), False)
        els = self.rec.elements  # type: ignore[attr-defined]
        j, coups = i + 1, 0
        while j < len(els) and coups < reach and not twin.stopped:
            coups += isinstance(els[j], Coup)
            twin._element(j)
            j += 1
        return int(twin.stopped), len(twin.findings) - before

    def _walk(self, cand: Candidate, nxt: object, last: bool) -> None:
        *first, coup = cand.coups
        for extra in first:
            compact, self.compact = self.compact, self.compact or cand.compact_first
            self._coup(extra, coup, False)
            self.compact = compact
            if self.stopped:
                return
            self.index += 1
        self._coup(coup, nxt, last)

    def _say_recovered(
        self, coup: Coup, pos: Position, best: Candidate, cands: list[Candidate], unread: list[Diagnostic]
    ) -> None:
        where = Where(self.game, self.marque, self.releve, coup.number, self.index, coup.span)  # type: ignore[attr-defined]
        seat = self.seat_of[coup.side]
        others = tuple(c.text for c in cands if c.what == best.what and c is not best)
        alts = (best.text, *others[:7])
        if best.what == "missing":
            meant = self._letter(pos.turn)
            self._finding(
                "out-of-turn",
                where,
                f"{coup.side} throws but it is {meant}'s turn: a coup of {meant} is "
                f"missing; the record continues as if {meant} had played {best.text}",
                who=pos.turn,
                detail="missing-coup",
                alternatives=alts,
                consequence=f"a mistake of the record: verification goes on as if {meant} had thrown "
                f"{best.text} (the play after which the next coups are legal as written)",
            )
        elif best.what == "side":
            self._finding(
                "out-of-turn",
                where,
                f"{coup.side} throws but it is {best.text}'s turn; did you mean {best.text}?",
                who=pos.turn,
                detail="did-you-mean",
                alternatives=(best.text,),
                consequence=f"a mistake of the record: the coup is {best.text}'s; verification goes on with "
                f"{best.text}",
            )
        else:
            kind, head, rule = self._what_is_wrong(pos, coup, unread)
            self._finding(
                kind,
                where,
                f"{head}; did you mean {best.text}?",
                who=seat,
                detail="did-you-mean",
                alternatives=alts,
                consequence=f"a mistake of the record: verification goes on from {best.text}, the legal play "
                f"nearest to what is written that the next coups agree with (RULES.md {rule})",
            )

    def _what_is_wrong(self, pos: Position, coup: Coup, unread: list[Diagnostic]) -> tuple[str, str, str]:
        """(finding kind, message, rule) of a play the record cannot mean."""
        written = self._written_text(coup, unread)
        if unread:
            return "illegal-move", f"{coup.side} plays {written}: {unread[0].text} is not a move", "§2.2, §3.1"
        counts = list(pos.mover)
        for m in coup.moves:
            if isinstance(m, Move):
                if 1 <= m.from_ < m.to and counts[m.from_] <= 0:
                    to = "off" if m.to == 25 else m.to
                    return (
                        "missing-checker",
                        f"{coup.side} moves {m.from_}/{to} but has no checker on {m.from_}",
                        "§9.6",
                    )
                counts[m.from_] -= 1
                counts[min(m.to, 25)] += 1
        return (
            "illegal-move",
            f"{coup.side} plays {written}: the throw {coup.roll[0]}-{coup.roll[1]} cannot make it",
            "§3.1",
        )


__all__ = ["Candidate", "RecoveryJudge", "plausible", "ranked_plays"]
