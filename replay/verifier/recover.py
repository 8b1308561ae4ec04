"""Mistakes of the record itself: one finding, and the walk goes on (issue 14 §2).

A coup the record cannot mean as written — a move the throw cannot make, a move from
an empty point, a move the reader could not read (``61/12``), a coup written for the
side that is not to move (a side letter mistyped, or the coup before it left out) — is
a typo, not a mistake at the table.  :func:`recovered` lists what the writer may
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
from typing import TYPE_CHECKING, Any, Protocol

from ...notation.limits import RECOVERY_COUPS_PER_COUP, RECOVERY_START
from ...notation.record import CannotPlay, Comment, Coup, Move
from ..rules.direct import judge_direct
from ..rules.moves import judge_play, legal_plays, play_moves
from ..rules.position import Position, start_position
from ..rules.scoring import play_outcome
from .findings import Note, Where
from .judges.play import plays_by_distance
from .judges.table import TableState, moves_of

if TYPE_CHECKING:  # pragma: no cover
    from ...notation.record import Diagnostic
    from ..rules.moves import Play
    from .findings import Findings

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
    what: str  # "play", "throw", "side", "missing" or "as-written"
    text: str  # the proposal as the record would write it
    prior: int  # distance from what is written (ties of the evidence)
    compact_first: bool = False  # the first coup is a missing one: perfect marks


def _allowed(roll: tuple[int, int]) -> frozenset[int]:
    a, b = roll
    if a == b:
        return frozenset((a, 2 * a, 3 * a, 4 * a, a - 1))
    return frozenset((a, b, a + b, a - 1, b - 1))


#: the distances each throw can give a checker (a coin par puissance one less)
_ALLOWED = {roll: _allowed(roll) for roll in ROLLS}


def plausible(pos: Position, roll: tuple[int, int], pairs: list[tuple[int, int]]) -> bool:
    """A cheap test that the written moves can be made (the hot path): forward, from a
    point holding a checker, a distance the throw can give (or a bear-off)."""
    counts = list(pos.mover)
    allowed = _ALLOWED.get(roll) or _allowed(roll)
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


class Walk(Protocol):
    """The verifier's walk as recovery drives it (``verify._Verifier``): the table's
    state, the findings sink, and the course of one coup or element."""

    table: TableState
    found: Findings
    after_of: list[object]  # per element, the next one (comments skipped): read-only
    trace: list[Any]  # the coups walked (CoupTrace): copied empty for a trial
    recoveries: int  # coups judged by this game's recoveries (at most _budget)
    suspects: int  # coups that needed a recovery (they earn no budget)
    proven: int  # coups up to which a recovery's trials found the record clean (they earn ahead)

    def coup(self, coup: Coup, nxt: object, last: bool) -> None: ...
    def element(self, i: int) -> None: ...
    def next_coup_after(self, i: int) -> object: ...


def _judge(table: TableState, pos: Position, roll: tuple[int, int], moves: Any) -> Any:
    """``judge_play``'s judgement, proven directly first as the verifier does (the same
    answer without enumerating every legal play; ``verify(direct=False)`` enumerates)."""
    return (judge_direct if table.direct_judge else judge_play)(pos, roll, moves, table.profile)


def _could_be_legal(pos: Position, roll: tuple[int, int], moves: Sequence[Any]) -> bool:
    """A cheap necessary test of a legal play, in any order of its moves: each forward,
    a distance the throw can give (or a bear-off), and no point left with fewer than no
    checkers once all are moved.  Most positions a coup left out might have led to fail
    it at once, before the engine enumerates their plays."""
    allowed = _ALLOWED.get(roll) or _allowed(roll)
    delta: dict[int, int] = {}
    for mv in moves:
        if isinstance(mv, tuple):
            p, q = mv
            if not (1 <= p < q <= 25) or (q != 25 and q - p not in allowed):
                return False
            delta[p] = delta.get(p, 0) - 1
            delta[q] = delta.get(q, 0) + 1
    mover = pos.mover
    return all(p >= 25 or mover[p] + d >= 0 for p, d in delta.items())


def _fits(pos: Position, coup: Coup) -> bool:
    """The per-coup pre-check, one pass over the written moves: they can be made
    (:func:`plausible`) and cover the throw (not :func:`_short`).  True for nearly every
    coup of a clean record, which then needs nothing more from recovery."""
    moves, roll = coup.moves, coup.roll
    allowed = _ALLOWED.get(roll) or _allowed(roll)
    total = roll[0] + roll[1]
    if len(moves) == 2 and type(moves[0]) is Move and type(moves[1]) is Move:
        # the usual coup, without a copy of the counts: the second checker is on its
        # point once the first has moved
        p1, q1, p2, q2 = moves[0].from_, moves[0].to, moves[1].from_, moves[1].to
        mover = pos.mover
        if not (1 <= p1 < q1 <= 25 and 1 <= p2 < q2 <= 25):
            return False
        if mover[p1] <= 0 or mover[p2] - (p1 == p2) + (q1 == p2) <= 0:
            return False
        if (q1 != 25 and q1 - p1 not in allowed) or (q2 != 25 and q2 - p2 not in allowed):
            return False
        return q1 == 25 or q2 == 25 or q1 - p1 + q2 - p2 in (total, total - 2)
    counts = list(pos.mover)
    covered = 0
    moved = off = False
    for m in moves:
        if isinstance(m, Move):
            p, q = m.from_, m.to
            if not (1 <= p < q <= 25) or counts[p] <= 0 or (q != 25 and q - p not in allowed):
                return False
            counts[p] -= 1
            counts[q] += 1
            moved = True
            off = off or q >= 25
            covered += q - p
        else:
            covered += m.number
    return not moved or off or covered in (total, total - 2)


def bad_tokens(table: TableState) -> dict[int, list[Diagnostic]]:
    """The moves the reader could not read (``61/12``), by line (indexed once a game)."""
    if table.bad_tokens is None:
        table.bad_tokens = {}
        for d in table.diagnostics:
            if d.code == "bad-move" and "/" in d.text:
                table.bad_tokens.setdefault(d.span.line, []).append(d)
    return table.bad_tokens


def recovered(flow: Walk, i: int, coup: Coup, nxt: object, last: bool) -> bool:
    """Walk this coup as the record most likely meant it when it cannot mean what is
    written; False when it can (the ordinary course then walks it)."""
    table = flow.table
    pos = table.pos
    bad = table.bad_tokens if table.bad_tokens is not None else bad_tokens(table)
    if pos is not None and not bad and table.seat_of.get(coup.side) == pos.turn and _fits(pos, coup):
        if not _illegal(table, pos, coup):
            return False  # the usual coup: nothing the record can have mistyped
    if coup.side not in table.seat_of:
        return False
    if nxt is None and table.index == 0:
        # the game's only coup: no coup around it can tell a typo from a misplay, so it
        # is read as written (and a file of one-coup games pays no trials per game)
        return False
    if flow.recoveries >= _budget(flow):
        # spent: read as written before the costlier tests, which a record wrong on every
        # coup would pay on every coup (a coup that reaches here earns nothing)
        flow.suspects += 1
        _out_of_budget(flow)
        return False
    unread = bad.get(coup.span.line, []) if bad else []
    try:
        found = _candidates(flow, i, coup, nxt, unread)
        if found is None:
            return False
        cands, pos, doubt = found
        best = _best_candidate(flow, i, cands, doubt)
    except _OutOfBudget:
        _out_of_budget(flow)
        return False
    if best is None:
        return False
    for d in unread:
        table.diagnostics.remove(d)  # the finding says it: one mistake, one report
    _say_recovered(flow, coup, pos, (best, cands), unread)
    _walk(flow, best, nxt, last)
    return True


def _candidates(
    flow: Walk, i: int, coup: Coup, nxt: object, unread: list[Diagnostic]
) -> tuple[list[Candidate], Position, bool] | None:
    """What the writer may have meant, the position they start from, and whether the
    written play could be made (then only strong evidence makes it a typo); None when
    the coup can mean what is written."""
    table = flow.table
    roller = table.seat_of[coup.side]
    pos = table.pos or start_position(roller)  # the first coup of a relevé: its play only
    doubt = False  # a play that can be made but is illegal: a typo only on strong evidence
    first = first_expected(table) if table.pos is None else None
    again = isinstance(nxt, Coup) and nxt.side == coup.side  # then a mistyped letter (verify.py)
    if first is not None and first != coup.side and first in table.seat_of and not again:
        # the relevé's first coup is not the primauté's: its first coup left out?
        _suspect(flow)
        cands = _missing_candidates(flow, i, coup, start_position(table.seat_of[first]), first)
        if not cands:
            return None
        cands.append(Candidate((coup,), "as-written", coup.side, 99))
        pos = start_position(table.seat_of[first])
    elif table.pos is not None and pos.turn != roller:
        _suspect(flow)
        cands = _side_candidates(flow, i, coup, pos)
    elif unread or not _makeable(table, pos, coup):
        _suspect(flow)
        cands = _throw_candidates(table, coup, pos, unread) + _play_candidates(table, coup, pos, unread)
    elif _short(coup) and not _judge(table, pos, coup.roll, moves_of(coup.moves)).legal:
        _suspect(flow)
        cands = _throw_candidates(table, coup, pos, unread) + _play_candidates(table, coup, pos, unread)
        doubt = True
    elif _illegal(table, pos, coup):
        # a play that can be made but is illegal: a misplay at the table, or a digit or a
        # die mistyped (the marks were written from the real play); only strong evidence
        # makes it a typo
        _suspect(flow)
        cands = _throw_candidates(table, coup, pos, unread, only=True) + _play_candidates(table, coup, pos, unread)
        doubt = True
    else:
        return None
    return (cands, pos, doubt) if cands else None


def _best_candidate(flow: Walk, i: int, cands: list[Candidate], doubt: bool) -> Candidate | None:
    """The candidate the next coups agree with best; None when it is the record as written."""
    reach = LOOKAHEAD
    if len(cands) > MISSING_TRIED:  # many coups left out agree with the moves: their marks first
        short = sorted(((_trial(flow, i, c, 1), c.prior), k) for k, c in enumerate(cands))
        kept = [cands[k] for _, k in short[:MISSING_TRIED]]
        # the record as written stays in the running (never invent a coup on a tie)
        cands = kept + [c for c in cands if c.what == "as-written" and c not in kept]
    if any(c.what == "missing" for c in cands):
        reach = LOOKAHEAD_MISSING
    scored = _scored(flow, i, cands, reach)
    best = cands[scored[0][1]]
    if best.what == "missing" and _as_written_as_good(scored, cands):
        return None
    if best.what == "as-written":
        return None
    if doubt:  # a misplay at the table is written with marks that agree with it
        (stop, found), _ = scored[0][0]
        as_written = next((t for (t, _), k in scored if cands[k].what == "as-written"), (1, 0))
        # moves that are exactly the legal play of one other throw are evidence already:
        # that throw needs only fewer findings than the record as written
        margin = 1 if best.what == "throw" else 2
        if stop or (not as_written[0] and found + margin > as_written[1]):
            return None
    return best


def _scored(flow: Walk, i: int, cands: list[Candidate], reach: int) -> list[tuple[tuple[tuple[int, int], int], int]]:
    """Each candidate's ((stopped, findings), prior), index; sorted.  Branch and bound:
    the candidates are tried in the order they win ties, and a trial stops as soon as it
    cannot beat the best so far (its findings only grow), so the best one's score is
    exact and the others' only as far as they matter; the record as written, tried last,
    is walked until it is three findings past the best (the tests of
    :func:`_as_written_as_good` and of doubt look no further).  On a record wrong on
    every coup most trials stop after a coup or two."""
    order = sorted(range(len(cands)), key=lambda k: (cands[k].what == "as-written", cands[k].prior, k))
    best: tuple[int, int] | None = None
    scored = []
    for k in order:
        c = cands[k]
        if best is None:
            limit = None
        elif c.what == "as-written":
            limit = (best[0], best[1] + 3)
        else:
            limit = best
        score = _trial(flow, i, c, reach, limit)
        if c.what != "as-written" and (best is None or score < best):
            best = score
        scored.append(((score, c.prior), k))
    return sorted(scored)


def _as_written_as_good(scored: list[tuple[tuple[tuple[int, int], int], int]], cands: list[Candidate]) -> bool:
    """A coup left out is never invented on a tie (issue 25 §2): the record as written —
    a coup thrown out of turn at the table, one finding — explains the next coups as well
    once its own finding is set aside (a trial of the record as written counts it, a
    trial of a candidate does not count the one finding the candidate will make)."""
    (best_stop, best_found), _ = scored[0][0]
    for key, k in scored:
        if cands[k].what == "as-written":
            (stop, found), _prior = key
            return stop == best_stop and found - 1 <= best_found
    return False


def first_expected(table: TableState) -> str | None:
    """The letter the primauté gives the first throw of a relevé (RULES.md §9.3)."""
    if table.partie.multi is not None and table.partie.marque_fresh:
        return table.partie.multi_expected
    primaute = table.primaute
    return table.letter(primaute) if primaute is not None else None


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


def _makeable(table: TableState, pos: Position, coup: Coup) -> bool:
    pairs = [(m.from_, m.to) for m in coup.moves if isinstance(m, Move)]
    if plausible(pos, coup.roll, pairs):
        return True
    j = _judge(table, pos, coup.roll, moves_of(coup.moves))
    return j.play is not None and j.violation != "wrong-distance"


# -- candidates -------------------------------------------------------------------
def _written_text(coup: Coup, unread: list[Diagnostic]) -> str:
    toks = [(m.span.col, f"{m.from_}/{'off' if m.to == 25 else m.to}") for m in coup.moves if isinstance(m, Move)]
    toks += [(d.span.col, d.text) for d in unread]
    return " ".join(t for _, t in sorted(toks))


def _play_candidates(table: TableState, coup: Coup, pos: Position, unread: list[Diagnostic]) -> list[Candidate]:

    written = _written_text(coup, unread)
    plays = legal_plays(pos, coup.roll, table.profile)
    near = ranked_plays(written, plays.plays)[:NEAREST]
    cannot = tuple(m for m in coup.moves if isinstance(m, CannotPlay))
    out = [
        Candidate((replace(coup, moves=play_moves(p, ()) + cannot),), "play", p.text(), k) for k, p in enumerate(near)
    ]
    out.append(Candidate((coup,), "as-written", written, len(out)))
    return out


def _other_throws(table: TableState, pos: Position, coup: Coup) -> list[tuple[int, int]]:
    """The throws other than the written one of which the written moves are a legal play
    (none when nothing is moved: any throw may leave nothing to play)."""
    if not any(isinstance(m, Move) for m in coup.moves):
        return []
    moves = moves_of(coup.moves)
    written = (max(coup.roll), min(coup.roll))
    return [r for r in ROLLS if r != written and _judge(table, pos, r, moves).legal]


def _illegal(table: TableState, pos: Position, coup: Coup) -> bool:
    """The written play breaks a movement law (asked only of coups that are not plain:
    the plain walk proved the others legal)."""
    return bool(coup.moves) and not _judge(table, pos, coup.roll, moves_of(coup.moves)).legal


def _throw_candidates(
    table: TableState, coup: Coup, pos: Position, unread: list[Diagnostic], only: bool = False
) -> list[Candidate]:
    """A die mistyped: the throws of which the written moves are a legal play (issue 25
    §2).  A throw is never invented: none when the moves fit no other throw.  When they
    fit several (a checker played tout d'une fits each throw of its sum), each is a
    candidate and the coups that follow rank them like the moves' proposals (the marks
    of this coup first), ties in the order of the 21 throws; ``only``: a candidate only
    when they fit exactly one."""
    if unread:
        return []
    fits = _other_throws(table, pos, coup)
    if only and len(fits) != 1:
        return []
    return [Candidate((replace(coup, roll=r),), "throw", f"{r[0]}-{r[1]}", k) for k, r in enumerate(fits)]


def _side_candidates(flow: Walk, i: int, coup: Coup, pos: Position) -> list[Candidate]:
    table = flow.table
    meant = table.letter(pos.turn)
    out = [Candidate((coup,), "as-written", coup.side, 99)]
    nxt = flow.next_coup_after(i)
    # a mistyped letter leaves the next coup written for the same letter again
    again = not isinstance(nxt, Coup) or nxt.side == coup.side
    moves = moves_of(coup.moves)
    if again and (not moves or _judge(table, pos, coup.roll, moves).legal):
        out.append(Candidate((replace(coup, side=meant),), "side", meant, 0))
    out += _missing_candidates(flow, i, coup, pos, meant)
    return out


def _missing_candidates(flow: Walk, i: int, coup: Coup, pos: Position, meant: str) -> list[Candidate]:
    """A coup of ``meant`` left out before ``coup``: the throws and plays after which
    the most coups that follow, ``coup`` first, can be played as written (counted
    further and further for the plays still in the running)."""

    table = flow.table
    profile = table.profile
    after_each: dict[Any, tuple[tuple[int, int], Play, tuple[int, ...], Position]] = {}
    for roll in ROLLS:
        ps = legal_plays(pos, roll, profile)
        for play in ps.plays or ():
            _, after = play_outcome(pos, roll, play, profile)
            after_each.setdefault((after.mover, after.other, roll), (roll, play, ps.unplayable, after))
    _spend(flow, len(ROLLS))
    running = list(after_each.values())
    # how far each position agrees with the coups that follow, carried on from one reach
    # to the next; one count per position (two throws may leave the same one)
    agreeing: dict[tuple[Any, Any], list[Any]] = {}
    for reach in AGREEING:
        agree = []
        for c in running:
            key = (c[3].mover, c[3].other)
            state = agreeing.setdefault(key, [0, c[3], i, False, 0])
            if not state[3] and state[0] < reach:
                judged = _coups_agreeing(table, state, reach)
                _proven(flow, 1 + state[4])  # the coup left out, and the coups played after it
                _spend(flow, (judged + 1) // 2)  # a play judged costs half a coup walked
            agree.append(state[0])
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


def _coups_agreeing(table: TableState, state: list[Any], reach: int) -> int:
    """Carry on ``state`` = [coups agreeing, position, element, ended, coups played]:
    how many coups from the element on (at most ``reach``) can be played as written from
    the position; a coup without moves counts and ends the count (the relevé ends or
    nothing moved), as does a new section.  The coups judged."""
    n, pos, j, _, played = state
    els = table.rec.elements
    judged = 0
    while j < len(els) and n < reach:
        el = els[j]
        if isinstance(el, Comment):
            j += 1
            continue
        if not isinstance(el, Coup) or table.seat_of.get(el.side) != pos.turn:
            state[3] = True
            break
        moves = moves_of(el.moves)
        if not moves:
            n += 1
            state[3] = True
            break
        if not _could_be_legal(pos, el.roll, moves):
            state[3] = True
            break
        judged += 1
        judgement = _judge(table, pos, el.roll, moves)
        if not judgement.legal or judgement.play is None:
            state[3] = True
            break
        _, pos = play_outcome(pos, el.roll, judgement.play, table.profile)
        n += 1
        played += 1
        j += 1
    else:
        state[3] = state[3] or j >= len(els)
    state[0], state[1], state[2], state[4] = n, pos, j, played
    return judged


# -- trying a candidate ---------------------------------------------------------------
def _clone(flow: Walk) -> Walk:
    table = flow.table
    memo: dict[int, Any] = {
        id(table.rec): table.rec,
        id(table.profile): table.profile,
        id(table.roll_cache): table.roll_cache,
        id(flow.after_of): flow.after_of,
        # the trial counts new findings and reads no trace: the lists that only grow are
        # copied shallow (the recorder's live verifier keeps them long, issue 26)
        id(flow.trace): [],
        id(flow.found.items): list(flow.found.items),
        id(table.closed): list(table.closed),
        id(table.notes): list(table.notes),
        # the reader's diagnostics are frozen and only added to; the unread moves are
        # read by recovery alone, which a trial does not do: neither is copied deep (a
        # record of unread moves on every line made each trial copy them all)
        id(table.diagnostics): list(table.diagnostics),
    }
    if table.bad_tokens is not None:
        memo[id(table.bad_tokens)] = table.bad_tokens
    trace = getattr(flow, "trace", None)
    if isinstance(trace, list):
        memo[id(trace)] = trace
    twin = copy.deepcopy(flow, memo)
    twin.table.recover = False  # a second mistake in the look-ahead stops the trial
    twin.table.keep_trace = False
    return twin


def _trial(flow: Walk, i: int, cand: Candidate, reach: int, limit: tuple[int, int] | None = None) -> tuple[int, int]:
    """(stopped, findings) when the record goes on from ``cand`` for a few coups; cut
    short once (stopped, findings) reaches ``limit`` (it can only grow)."""
    twin = _clone(flow)
    before = len(twin.found)
    _walk(twin, cand, twin.next_coup_after(i), False)
    els = flow.table.rec.elements
    j, coups = i + 1, 0
    clean = -1 if len(twin.found) > before or twin.table.stopped else None  # coups walked clean
    while j < len(els) and coups < reach and not twin.table.stopped:
        if limit is not None and (0, len(twin.found) - before) >= limit:
            break
        coups += isinstance(els[j], Coup)
        twin.element(j)
        if clean is None and (len(twin.found) > before or twin.table.stopped):
            clean = coups - 1
        j += 1
    if clean != -1:
        _proven(flow, len(cand.coups) + (coups if clean is None else clean))
    _spend(flow, coups + len(cand.coups))
    return int(twin.table.stopped), len(twin.found) - before


class _OutOfBudget(Exception):
    """A recovery would spend more than the game's budget: the coup is read as written."""


def _budget(flow: Walk) -> int:
    """Coups a game's recoveries may judge so far (``notation.limits``): proportional to
    the game's clean coups, the evidence a typo needs — those walked, and those a
    recovery's trials found clean ahead (a typo of the first coups is judged by those
    that follow; they earn before they are walked) — plus a small start.  A record wrong
    on every coup earns nothing: its recoveries cost the start and no more, a few
    coups' judging, whatever its size (issue 27)."""
    table = flow.table
    clean = table.index - flow.suspects - 5 * len(flow.found)  # a finding takes back five coups' earning
    ahead = max(0, flow.proven - table.index)
    return RECOVERY_START + RECOVERY_COUPS_PER_COUP * max(0, clean + ahead)


def _proven(flow: Walk, coups: int) -> None:
    """``coups`` coups from the one being recovered on (the candidate's own first) were
    found clean by a trial: they earn the budget now."""
    flow.proven = max(flow.proven, flow.table.index + coups)


def _suspect(flow: Walk) -> None:
    """A coup the record may have mistyped: it earns no budget, and is read as written
    when the budget is spent (the cost cap: each try walks copies of the game)."""
    flow.suspects += 1
    if flow.recoveries >= _budget(flow):
        raise _OutOfBudget


def _spend(flow: Walk, coups: int) -> None:
    flow.recoveries += coups
    if flow.recoveries > _budget(flow):
        raise _OutOfBudget


def _out_of_budget(flow: Walk) -> None:
    """The note once a game: past here a coup that needs a recovery is read as written."""
    if not getattr(flow, "_budget_noted", False):
        flow._budget_noted = True  # type: ignore[attr-defined]
        flow.table.notes.append(Note.of("recovery-budget"))


def _walk(flow: Walk, cand: Candidate, nxt: object, last: bool) -> None:
    table = flow.table
    *first, coup = cand.coups
    for extra in first:
        compact, table.compact = table.compact, table.compact or cand.compact_first
        flow.coup(extra, coup, False)
        table.compact = compact
        if table.stopped:
            return
        table.index += 1
    flow.coup(coup, nxt, last)


def _say_recovered(
    flow: Walk, coup: Coup, pos: Position, choice: tuple[Candidate, list[Candidate]], unread: list[Diagnostic]
) -> None:
    """The one finding of a recovered typo; ``choice`` = (the best candidate, all of them)."""
    table, found = flow.table, flow.found
    best, cands = choice
    where = Where(table.game, table.marque, table.releve, coup.number, table.index, coup.span)
    seat = table.seat_of[coup.side]
    others = tuple(c.text for c in cands if c.what == best.what and c is not best)
    alts = (best.text, *others[:7])
    if best.what == "missing":
        found.add(
            "out-of-turn",
            where,
            who=pos.turn,
            detail="missing-coup",
            alternatives=alts,
        )
    elif best.what == "side":
        found.add(
            "out-of-turn",
            where,
            who=pos.turn,
            detail="did-you-mean",
            alternatives=(best.text,),
        )
    elif best.what == "throw":
        found.add(
            "illegal-move",
            where,
            who=seat,
            detail="did-you-mean",
            alternatives=alts,
        )
    else:
        kind = _what_is_wrong(pos, coup, unread)
        found.add(
            kind,
            where,
            who=seat,
            detail="did-you-mean",
            alternatives=alts,
        )


def _what_is_wrong(pos: Position, coup: Coup, unread: list[Diagnostic]) -> str:
    """The finding kind of a play the record cannot mean: a checker that is not there
    (RULES.md §9.6), else a play the throw cannot make (§2.2, §3.1)."""
    if unread:
        return "illegal-move"
    counts = list(pos.mover)
    for m in coup.moves:
        if isinstance(m, Move):
            if 1 <= m.from_ < m.to and counts[m.from_] <= 0:
                return "missing-checker"
            counts[m.from_] -= 1
            counts[min(m.to, 25)] += 1
    return "illegal-move"


__all__ = ["Candidate", "Walk", "bad_tokens", "first_expected", "plausible", "ranked_plays", "recovered"]
