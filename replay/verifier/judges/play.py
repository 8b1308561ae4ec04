"""Judge of the play: is the written play legal, and the table's remedies
(RULES.md §3, §9.4-9.6; 003 §211-216).

The engine is asked one question per coup — :func:`~trictrac.replay.rules.moves.judge_play`:
is this written play legal, and if not, which are the legal ones.  Entry points:
:func:`judge_written_play`, :func:`judge_illegal_play`, :func:`judge_remedy`,
:func:`judge_replay_forced`; each takes the table's state, the coup's facts and the
findings sink.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING

from ....notation.record import Move
from ...rules.direct import judge_direct
from ...rules.moves import Play, PlayJudgement, judge_play, legal_plays
from ...rules.remedies import RemedyCase, case_problems
from ...rules.scoring import play_outcome, score_roll
from .table import ROLL_CACHE, ROLL_CACHE_MAX, VIOLATION_KIND, CoupFacts, Remedy, TableState, moves_of, pairs_text

if TYPE_CHECKING:  # pragma: no cover
    from ....notation.record import Replay
    from ...rules.position import Position
    from ...rules.scoring import CoupScore
    from ..findings import Findings

__all__ = [
    "ROLL_CACHE",
    "edit_distance",
    "judge_illegal_play",
    "judge_remedy",
    "judge_replay_forced",
    "judge_written_play",
    "nearest_plays",
    "plays_by_distance",
    "roll_score",
    "written_forms",
]


@lru_cache(maxsize=4096)
def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance with adjacent transpositions (a digit off, two digits swapped);
    kept per pair of texts: the same plays and written forms come back coup after coup."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for k, cb in enumerate(b, 1):
            cur[k] = min(prev[k] + 1, cur[k - 1] + 1, prev[k - 1] + (ca != cb))
            if i > 1 and k > 1 and ca == b[k - 2] and a[i - 2] == cb:
                cur[k] = min(cur[k], prev2[k - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]


def written_forms(text: str) -> tuple[str, ...]:
    """A written play, its moves in the other order, and from/to exchanged."""
    moves = text.split()
    swapped = " ".join(reversed(moves))
    flipped = " ".join("/".join(reversed(m.split("/"))) for m in moves)
    return (text, swapped, flipped)


def nearest_plays(written: str, plays: Sequence[Play]) -> tuple[list[Play], bool]:
    """The legal plays nearest to a written one (edit distance over its text, the moves
    in either order, from/to exchanged) and whether one is clearly nearest (alone at a
    distance of at most 2).  Only plays within 3 edits are proposed.

    Kept per (written text, play set) for the play sets that live on (the opening's,
    ``moves.legal_plays``): every game starts there, and a file's games repeat their
    first coups' typos.  Keyed by the set's identity, checked, so never stale."""
    key = (written, id(plays))
    kept = _NEAREST.get(key)
    if kept is not None and kept[0] is plays:
        near, clear = kept[1]
        return list(near), clear
    found = _nearest_plays(written, plays)
    if len(_NEAREST) >= _NEAREST_MAX:
        _NEAREST.clear()
    _NEAREST[key] = (plays, (tuple(found[0]), found[1]))
    return found


#: (written, id(play set)) -> (play set, (nearest, clear)); a few dozen entries at most
_NEAREST: dict[tuple[str, int], tuple[Sequence[Play], tuple[tuple[Play, ...], bool]]] = {}
_NEAREST_MAX = 64


def _nearest_plays(written: str, plays: Sequence[Play]) -> tuple[list[Play], bool]:
    ranked = plays_by_distance(written, plays)
    if not ranked:
        return [], False
    best = ranked[0][0]
    near = [p for d, p in ranked if d == best] if best <= 3 else []
    return near, len(near) == 1 and best <= 2


def plays_by_distance(written: str, plays: Sequence[Play]) -> list[tuple[int, Play]]:
    """(edit distance, play) of each legal play to a written one, nearest first (ties in
    the plays' order): the distance is the least over the written text's forms."""
    forms = written_forms(written)
    texts = [p.text() for p in plays]
    scored = sorted((min(edit_distance(w, t) for w in forms), i) for i, t in enumerate(texts))
    return [(d, plays[i]) for d, i in scored]


def judge_written_play(
    table: TableState, facts: CoupFacts, found: Findings, judged: PlayJudgement | None = None
) -> bool:
    """Judge ``facts.moves`` from ``facts.position``: fills the judgement, the play, its score,
    the score of the roll and the position after; False when a checker does not
    exist (the record cannot go on, RULES.md §9.6) and no legal play is near enough
    to what is written to go on from (``table.recover``; issue 14 §2).  ``judged``: the
    judgement of ``facts.moves`` when it is known (the legal play proposed for a typo)."""
    pos, roll, profile = facts.position, facts.roll, table.profile
    assert pos is not None
    j = (
        judged
        if judged is not None
        else (judge_direct if table.direct_judge else judge_play)(pos, roll, facts.moves, profile)
    )
    if facts.acts.forces:
        j = _forced_by_demand(table, facts, j, found)
    if table.recover and j.violation == "wrong-distance" and facts.acts.replay is None:
        # a move the roll cannot make: a mistake of the record, not of the table — unless
        # the table had it played again (a fausse case, a dame mal posée: 003 §216), which
        # says the record wrote what was played
        proposed = _go_on_from_nearest(table, facts, "illegal-move", found)
        if proposed is not None:
            return judge_written_play(table, facts, found, proposed)
    played = j.play
    if played is None:
        # not executable: a checker that does not exist, or a dame mal posée (§9.5)
        play, problem = _play_as_written(facts)
        if problem is not None:
            proposed = _go_on_from_nearest(table, facts, problem[0], found) if table.recover else None
            if proposed is None:
                kind, detail = problem
                found.add(
                    kind,
                    facts.where,
                    who=table.seat_of.get(facts.side, facts.side),
                    detail=detail,
                    outcome="stopped",
                )
                table.stopped = True
                return False
            return judge_written_play(table, facts, found, proposed)
        assert play is not None  # no problem: the checkers moved as written
        played = play
        j = j._replace(play=play)
    facts.judgement, facts.play = j, played
    facts.score, facts.position_after = play_outcome(pos, roll, played, profile)
    # what a legal play would give: needed only to measure a plein not made (§7.7)
    facts.score_of_roll = facts.score if j.legal else roll_score(table, pos, roll)
    return True


def _forced_by_demand(table: TableState, facts: CoupFacts, j: PlayJudgement, found: Findings) -> PlayJudgement:
    """``A:force(14/20)``: the opponent makes the checker entered inadvertently into his
    second table pass into his first (RULES.md §3.8 P5; 003 §213: « vous l'obligez à
    jouer le six avec la dame qu'il a à votre dixième flèche, et de rompre pour jouer
    le cinq »).  The throw is judged among the plays that contain the forced moves:
    when no legal play does, the fill or conservation it forbids is no duty (M10-M11),
    so the break it forces is no école."""
    forced = [(m.from_, m.to) for d in facts.acts.forces for m in d.moves if isinstance(m, Move)]
    # from the opponent's second table (the roller's 13..18) into his first (19..24)
    if not forced or not all(13 <= a <= 18 < b <= 24 for a, b in forced):
        d = facts.acts.forces[0]
        found.add(
            "remedy-not-allowed",
            replace(facts.where, span=d.span if d.span.line else facts.where.span),
            who=facts.other,
            detail="force",
        )
        return j
    if j.violation not in ("must-fill", "must-conserve"):
        return j
    if j.play is None or not all(m in j.play.steps for m in forced):
        return j
    assert facts.position is not None
    if any(all(m in p.steps for m in forced) for p in j.alternatives):
        return j  # a legal play obeys the demand: the duty to fill or conserve stands
    return j._replace(legal=True, violation=None, rule=None)


def _play_as_written(facts: CoupFacts) -> tuple[Play | None, tuple[str, str | None] | None]:
    """The checkers moved as written, legal or not; or the problem (kind, detail) of a
    move that goes backwards (RULES.md §3.1, §9.6) or starts from an empty point (§9.6)."""
    assert facts.position is not None
    counts = list(facts.position.mover)
    for p, q in facts.pairs:
        if not (1 <= p < q <= 25):
            return None, ("illegal-move", "wrong-distance")
        if counts[p] <= 0:
            return None, ("missing-checker", None)
        counts[p] -= 1
        counts[q] += 1
    steps = tuple(facts.pairs)
    return Play(steps, tuple(q - p for p, q in steps), tuple(counts), 0), None


def _go_on_from_nearest(table: TableState, facts: CoupFacts, kind: str, found: Findings) -> PlayJudgement | None:
    """A move the record cannot make, taken as a typo: one finding with the legal play
    nearest to what is written ("did you mean"), and the walk goes on from it.  Returns
    the proposal's judgement (a legal play of the set: judged as ``judge_play`` judges
    it, without proving it again), None when no play is near enough."""
    assert facts.position is not None
    written = pairs_text(facts.moves)
    legal = legal_plays(facts.position, facts.roll, table.profile).plays
    nearest, _clear = nearest_plays(written, legal)
    if not nearest:
        return None
    proposal = nearest[0]
    found.add(
        kind,
        facts.where,
        who=table.seat_of.get(facts.side, facts.side),
        detail="did-you-mean",
        alternatives=tuple(p.text() for p in nearest[:8]),
    )
    facts.moves = tuple(proposal.steps)
    facts.pairs = list(proposal.steps)
    return PlayJudgement(True, proposal, True, None, None, legal)


def roll_score(table: TableState, pos: Position, roll: tuple[int, int]) -> CoupScore:
    """What the roll entitles when played legally (``scoring.score_roll``), cached."""
    key = (pos, roll)
    cache = table.roll_cache
    cs = cache.get(key)
    if cs is None:
        if len(cache) >= ROLL_CACHE_MAX:
            cache.clear()
        cs = cache[key] = score_roll(pos, roll, table.profile)
    return cs


def judge_illegal_play(
    table: TableState, facts: CoupFacts, found: Findings, remedy_by: tuple[str, str] | None = None
) -> None:
    """The finding of an illegal play (a plein not made is reported with its école)."""
    j = facts.judgement
    assert j is not None
    v = j.violation or "illegal"
    kind = VIOLATION_KIND.get(v, "illegal-move")
    if kind in ("must-fill", "must-conserve"):
        return  # reported with its école (RULES.md §7.7)
    alts = tuple(p.text() for p in j.alternatives[:8])
    found.add(
        kind,
        facts.where,
        who=facts.roller,
        detail=v,
        alternatives=alts,
        outcome=None if remedy_by is None else "remedied",
        remedy=remedy_by,
    )


def judge_remedy(table: TableState, facts: CoupFacts, rep: Replay, found: Findings) -> Remedy | None:
    """The throw played again (``B:fait-jouer`` / ``A:rejoue``): judged by
    :func:`replay.rules.remedies.case_problems` (RULES.md §9.4-9.5, §7.7); returns ``(play,
    score, position after, seat of who decided)`` — or None when the replay cannot be
    played at all (the written play stands)."""
    pos, roll, side, profile = facts.position, facts.roll, facts.side, table.profile
    assert pos is not None
    rmoves = moves_of(rep.moves)
    rw = replace(facts.where, span=rep.span if rep.span.line else facts.where.span)
    by = table.seat_of.get(rep.who, rep.who)
    if by not in ("A", "B"):
        by = facts.other
    rj = judge_play(pos, roll, rmoves, profile)
    rplay = rj.play
    if rplay is None:
        found.add(
            "remedy-not-allowed",
            rw,
            who=by,
            detail="not-executable",
        )
        return None
    assert facts.judgement is not None  # the first play was judged before its replay
    case = RemedyCase(pos, roll, facts.pairs, facts.judgement, rj, by == facts.roller, facts.forced_stay, profile, side)
    problems = case_problems(case)
    if problems:
        found.add(
            "remedy-not-allowed",
            rw,
            who=by,
            detail=problems[0][0],
            alternatives=tuple(pl.text() for pl in rj.alternatives[:8]),
        )
    cs_r, pos_r = play_outcome(pos, roll, rplay, profile)
    return (rplay, cs_r, pos_r, by)


def judge_replay_forced(
    table: TableState, facts: CoupFacts, judgement: PlayJudgement, found: Findings
) -> PlayJudgement:
    """The opponent made the roller stay and chose his play (003 §170; 001 r.63): the
    choice is the opponent's, so only an illegal choice other than a plein is his fault."""
    if not judgement.legal:
        if judgement.violation not in ("must-fill", "must-conserve"):
            assert facts.play is not None
            found.add(
                "remedy-not-allowed",
                facts.where,
                who=facts.other,
                detail="illegal",
                alternatives=tuple(x.text() for x in judgement.alternatives[:8]),
            )
        judgement = judgement._replace(legal=True, violation=None)
    return judgement
