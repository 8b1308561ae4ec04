"""The table's remedies after a misplay (RULES.md §9.4-9.5, §7.7): what the opponent —
or the roller himself — may have a throw played again as.

One rule, written once: the verifier (``replay.verifier.verify``) judges every ``Replay`` of a
record with :func:`remedy_problems` (a :class:`RemedyCase`, judged by :func:`case_problems`,
one function per case of the rule).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .profiles import Profile

if TYPE_CHECKING:
    from .moves import Play, PlayJudgement
    from .position import Position

__all__ = ["RemedyCase", "case_problems", "remedy_problems"]


@dataclass(frozen=True)
class RemedyCase:
    """A throw played again, as the table sees it: the position and ``roll`` before the
    throw, ``pairs`` the moves as first written and ``first`` their judgement, ``again``
    the replay's judgement (``moves.judge_play``, its play executable), ``by_roller``
    who decided, ``forced_stay`` that the roller said *je m'en vais* without the right
    and was made to stay (RULES.md §9.4-9.5, §7.7)."""

    pos: Position
    roll: tuple[int, int]
    pairs: list[tuple[int, int]]
    first: PlayJudgement
    again: PlayJudgement
    by_roller: bool
    forced_stay: bool
    profile: Profile
    side: str = "the roller"

    @property
    def replay(self) -> Play:
        """The play demanded (the caller judges a replay that cannot be played itself)."""
        assert self.again.play is not None
        return self.again.play

    @property
    def written_origins(self) -> list[int]:
        """The points the written moves start from."""
        return sorted(p for p, _q in self.pairs)

    @property
    def demanded_by_opponent_tout_d_une(self) -> bool:
        """The opponent has the throw played tout d'une."""
        return self.replay.is_tout_d_une() and not self.by_roller


def remedy_problems(
    pos: Position,
    roll: tuple[int, int],
    pairs: list[tuple[int, int]],
    j: PlayJudgement | None,
    rj: PlayJudgement,
    *,
    by_roller: bool,
    forced_stay: bool,
    profile: Profile,
    side: str = "the roller",
) -> list[tuple[str, str]]:
    """:func:`case_problems` of a :class:`RemedyCase` built from these arguments (the
    signature the play judge calls, ``j`` the first play's judgement and ``rj`` the
    replay's)."""
    # the caller judges the first play, and a replay that cannot be played, itself
    assert j is not None and rj.play is not None
    return case_problems(RemedyCase(pos, roll, pairs, j, rj, by_roller, forced_stay, profile, side))


def case_problems(case: RemedyCase) -> list[tuple[str, str]]:
    """What is wrong with a throw played again (``B:fait-jouer`` / ``A:rejoue``): a list
    of ``(detail, explanation)``, empty when the table's law gives this remedy.

    One function per case below, in the order the table looks at them.

    * Dame mal posée (003 §211; 001 r.22): the opponent leaves the checker, puts it
      right, or has the whole throw played tout d'une with it — only if it went beyond
      the larger number's point and no number had first been played correctly
      (003 §201); a checker played correctly stays, whatever the order (003 §216);
      bonne compagnie drops the tout d'une (001 III on r.22).
    * Fausse case (003 §216; 001 r.23, r.27): both checkers are at the opponent's
      disposal: played as he likes with the same checkers, tout d'une with one of them
      only if one went beyond the larger number.  The roller noticing it before
      releasing must still play the same checkers (003 §216).  Bonne compagnie: he
      plays the displaced checkers himself, the opponent designates nothing (001 III on
      r.27); Lebrun: he may no longer correct it himself (000 ~l.1047).
    * A forgotten fill or conservation, an unplayed number (003 §192, §216): the
      opponent may force or prevent the fill ("obliger ou empêcher"), or have the throw
      played again; the école does not change (003 §192).
    * A coin taken par puissance when it could be taken directly (003 §216): tout
      d'une if a checker can pass to the retour, otherwise no coin this throw — unless
      taking it is the only play (003 §199).  Bonne compagnie: no penalty, he plays the
      coin directly or as he likes (001 III on r.26).
    * A forced stay after a wrongful leave: the opponent has him play the checkers he
      chooses (003 §170; 001 r.63).
    * A legal play is not played again at the opponent's demand, and the roller's own
      touched checkers must be played (dame touchée, dame jouée: 003 §46, §212).
    """
    first, again = case.first, case.again
    if not again.legal and not _fill_choice_excused(case):
        return [
            (
                "illegal",
                f"{case.replay.text()} is itself illegal: {(again.violation or '').replace('-', ' ')} "
                f"(RULES.md {again.rule or '§3'})",
            )
        ]
    if case.forced_stay and not case.by_roller:
        return []  # he plays the checkers the opponent chooses (003 §170; 001 r.63)
    if first.legal:
        return _after_legal_play(case)
    if first.violation == "wrong-distance":
        return _misplaced(case)
    if first.violation == "puissance-when-direct":
        return _puissance_when_direct(case)
    return _touched_checker(case) if case.by_roller else []


def _fill_choice_excused(case: RemedyCase) -> bool:
    """An illegal replay the opponent may still demand: he may prevent the fill or
    conservation he could force (003 §192, not when the fault was an unplayed number:
    §216 "ne peut faire rompre"), and chooses freely in a forced stay (003 §170; 001 r.63)."""
    fill_only = case.again.violation in ("must-fill", "must-conserve")
    fill_fault = case.first.violation in ("must-fill", "must-conserve")
    return not case.by_roller and fill_only and (fill_fault or case.forced_stay)


def _touched_checker(case: RemedyCase) -> list[tuple[str, str]]:
    """The roller's own touched checkers must be played, when a play with them exists
    (dame touchée, dame jouée: 003 §46, §212; 001 r.17)."""
    w_orig = case.written_origins
    if (
        case.profile.touch_strict
        and not _within(w_orig, _origins(case.replay))
        and any(_within(w_orig, _origins(pl)) for pl in case.again.alternatives)
    ):
        return [("touched-checker", "a touched checker must be played (003 §46, §212; 001 r.17)")]
    return []


def _after_legal_play(case: RemedyCase) -> list[tuple[str, str]]:
    """A legal play is not played again at the opponent's demand (003 §46, §212)."""
    played = case.first.play
    assert played is not None  # a legal play is one of the legal plays
    if case.by_roller:
        return _touched_checker(case)
    return [
        (
            "no-fault",
            f"{case.side}'s play {played.text()} was legal: nothing to remedy "
            "(dame touchée, dame jouée: 003 §46, §212)",
        )
    ]


def _misplaced(case: RemedyCase) -> list[tuple[str, str]]:
    """A dame mal posée or a fausse case (003 §201, §211, §216; 001 r.22, r.23, r.27)."""
    pairs = case.pairs
    fausse = len(pairs) == 2 and pairs[0][1] == pairs[1][1]
    good = -1 if fausse else _correct_move(pairs, case.roll)
    # if the correct move was played first, no tout d'une can be demanded (003 §211 last sentence)
    if good >= 0 and not (good == 1 and case.demanded_by_opponent_tout_d_une):
        return _correct_move_stays(case, good)
    if case.demanded_by_opponent_tout_d_une:
        return _misplaced_tout_d_une(case, fausse)
    return _misplaced_played_again(case, fausse)


def _correct_move(pairs: list[tuple[int, int]], roll: tuple[int, int]) -> int:
    """The index of the move played correctly (one number, or the whole throw tout
    d'une), which is not at the opponent's disposal (003 §201, §216); -1 if none."""
    if len(pairs) != 2:
        return -1
    d = [q - p for p, q in pairs]
    for i in (0, 1):
        other = roll[1] if d[i] == roll[0] else roll[0]
        if (d[i] in roll and d[1 - i] != other) or d[i] == roll[0] + roll[1]:
            return i
    return -1


def _correct_move_stays(case: RemedyCase, good: int) -> list[tuple[str, str]]:
    """Only the misplaced checker may be put right, or the play left as written
    (003 §201, §211, §216)."""
    pairs, mover, rplay = case.pairs, case.pos.mover, case.replay
    as_written = case.first.play.result if case.first.play is not None else _execute(mover, pairs)
    if rplay.result in (_keep_good(mover, pairs, case.roll, good), as_written):
        return []
    what = "the whole throw cannot be made tout d'une; " if rplay.is_tout_d_une() and good == 0 else ""
    return [
        (
            "first-number",
            f"{pairs[good][0]}/{pairs[good][1]} was played correctly and "
            f"stays; {what}only the misplaced checker may be put right "
            "(003 §201, §211, §216)",
        )
    ]


def _misplaced_tout_d_une(case: RemedyCase, fausse: bool) -> list[tuple[str, str]]:
    """The opponent demands the throw tout d'une: only if a checker went beyond the
    larger number, with one of the misplaced checkers, and the profile allows it."""
    profile, roll = case.profile, case.roll
    if fausse:
        allowed = profile.fausse_case_penalty == "opponent-disposes"
        source = "000 ~l.1047" if profile.fausse_case_penalty == "none" else "001 III on r.23, r.27"
    else:
        allowed, source = profile.misplaced_beyond_tout_d_une, "001 III on r.22"
    if not any(q - p > roll[0] for p, q in case.pairs):
        return [
            (
                "tout-d-une",
                f"no checker went beyond the larger number ({roll[0]}): no tout d'une can be demanded (003 §211, §216)",
            )
        ]
    if not allowed:
        return [("tout-d-une", f"no tout d'une under {profile.name} ({source})")]
    if case.replay.steps[0][0] not in case.written_origins:
        return [("other-checkers", "the tout d'une is played with one of the misplaced checkers (003 §211, §216)")]
    return []


def _misplaced_played_again(case: RemedyCase, fausse: bool) -> list[tuple[str, str]]:
    """The misplaced checkers, and only they, are played again; under bonne compagnie
    he plays a fausse case's checkers himself, under Lebrun he may not correct it."""
    profile, by_roller = case.profile, case.by_roller
    problems: list[tuple[str, str]] = []
    if fausse and not by_roller and profile.fausse_case_penalty == "replay-displaced":
        problems.append(
            (
                "designation",
                f"under {profile.name} he plays the displaced checkers "
                "himself; the opponent designates nothing (001 III on r.27)",
            )
        )
    elif fausse and by_roller and profile.fausse_case_penalty == "none":
        problems.append(
            ("self-correction", "after a fausse case he may no longer play it correctly himself (000 ~l.1047)")
        )
    w_orig = case.written_origins
    if (
        (not by_roller or profile.touch_strict or fausse)
        and w_orig != _origins(case.replay)
        and any(_origins(pl) == w_orig for pl in case.again.alternatives)
    ):
        problems.append(
            (
                "other-checkers",
                "the misplaced checkers, and only they, are played again (003 §211, §216; 001 r.23, r.27)",
            )
        )
    return problems


def _puissance_when_direct(case: RemedyCase) -> list[tuple[str, str]]:
    """A coin taken par puissance when it could be taken directly (003 §199, §216;
    001 r.26, III on r.26)."""
    profile, rplay, alts = case.profile, case.replay, case.again.alternatives
    takes_coin = case.pos.mover[12] == 0 and rplay.result[12] >= 2
    if not profile.puissance_when_direct_penalty:
        if not case.by_roller and not takes_coin and any(pl.result[12] >= 2 for pl in alts):
            return [
                (
                    "designation",
                    f"no penalty for the puissance under {profile.name}: he "
                    "takes his coin directly or plays as he likes (001 III on r.26)",
                )
            ]
        return []
    if case.demanded_by_opponent_tout_d_une:
        if rplay.steps[-1][1] < 13:
            return [("tout-d-une", "the tout d'une demanded must pass to the retour (003 §216)")]
        return []
    must_take = all(pl.result[12] >= 2 for pl in alts)  # 003 §199: play the throw if possible
    if takes_coin and not must_take:
        return [
            (
                "coin",
                "after taking his coin par puissance when he could take it directly, "
                "he may not take it this throw (003 §216; 001 r.26)",
            )
        ]
    return []


def _keep_good(
    counts: tuple[int, ...], pairs: list[tuple[int, int]], roll: tuple[int, int], good: int
) -> tuple[int, ...] | None:
    """The mover's counts when the correctly played move ``pairs[good]`` stands and the
    misplaced checker plays the number left (none after a tout d'une): the one correction
    003 §201 leaves besides letting the play stand."""
    m = list(counts)
    p, q = pairs[good]
    m[p] -= 1
    m[q] += 1
    d = q - p
    if d in roll:
        rest = roll[1] if d == roll[0] else roll[0]
        p2 = pairs[1 - good][0]
        if m[p2] <= 0:
            return None
        m[p2] -= 1
        m[min(p2 + rest, 25)] += 1
    return tuple(m)


def _execute(counts: tuple[int, ...], pairs: list[tuple[int, int]]) -> tuple[int, ...]:
    """The mover's counts after the written moves, as physically made."""
    m = list(counts)
    for p, q in pairs:
        m[p] -= 1
        m[q] += 1
    return tuple(m)


def _origins(play: Play) -> list[int]:
    """The points the checkers of a play start from (a tout d'une's second step continues
    the same checker)."""
    out: list[int] = []
    prev = None
    for p, q in play.steps:
        if p != prev:
            out.append(p)
        prev = q
    return sorted(out)


def _within(small: list[int], big: list[int]) -> bool:
    """Is the multiset ``small`` contained in ``big``?"""
    rest = list(big)
    for x in small:
        if x in rest:
            rest.remove(x)
        else:
            return False
    return True
