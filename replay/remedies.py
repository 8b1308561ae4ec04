"""The table's remedies after a misplay (RULES.md §9.4-9.5, §7.7): what the opponent —
or the roller himself — may have a throw played again as.

One rule, written once: the verifier (``replay.verify``) judges every ``Replay`` of a
record with :func:`remedy_problems`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .profiles import Profile

if TYPE_CHECKING:
    from .moves import Play, PlayJudgement
    from .position import Position

__all__ = ["remedy_problems"]


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
    """What is wrong with a throw played again (``B:fait-jouer`` / ``A:rejoue``): a list
    of ``(detail, explanation)``, empty when the table's law gives this remedy.

    ``pairs`` are the moves as first written, ``j`` their judgement and ``rj`` the
    replay's (``moves.judge_play``); ``by_roller`` says who decided; ``forced_stay``
    that the roller said *je m'en vais* without the right and was made to stay.

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
    rplay = rj.play
    # the caller judges the first play, and a replay that cannot be played, itself
    assert j is not None and rplay is not None
    problems: list[tuple[str, str]] = []
    alts = rj.alternatives
    w_orig = sorted(p for p, _q in pairs)
    r_orig = _origins(rplay)
    fill_only = rj.violation in ("must-fill", "must-conserve")
    # the opponent may prevent the fill or conservation he could force (003 §192, not
    # when the fault was an unplayed number: §216 "ne peut faire rompre"), and chooses
    # freely in a forced stay (003 §170; 001 r.63)
    fill_fault = j.violation in ("must-fill", "must-conserve")
    if not rj.legal and not (not by_roller and fill_only and (fill_fault or forced_stay)):
        problems.append(
            (
                "illegal",
                f"{rplay.text()} is itself illegal: {(rj.violation or '').replace('-', ' ')} "
                f"(RULES.md {rj.rule or '§3'})",
            )
        )
    elif forced_stay and not by_roller:
        pass  # he plays the checkers the opponent chooses (003 §170; 001 r.63)
    elif j.legal:
        assert j.play is not None  # a legal play is one of the legal plays
        if not by_roller:
            problems.append(
                (
                    "no-fault",
                    f"{side}'s play {j.play.text()} was legal: nothing to remedy "
                    "(dame touchée, dame jouée: 003 §46, §212)",
                )
            )
        elif profile.touch_strict and not _within(w_orig, r_orig) and any(_within(w_orig, _origins(pl)) for pl in alts):
            problems.append(("touched-checker", "a touched checker must be played (003 §46, §212; 001 r.17)"))
    elif j.violation == "wrong-distance":
        fausse = len(pairs) == 2 and pairs[0][1] == pairs[1][1]
        # the checker played correctly (one number, or the whole throw tout d'une) is not at
        # the opponent's disposal (003 §201, §216); if it was played first, no tout d'une
        # can be demanded (003 §211 last sentence)
        good = -1
        if not fausse and len(pairs) == 2:
            d = [q - p for p, q in pairs]
            for i in (0, 1):
                other = roll[1] if d[i] == roll[0] else roll[0]
                if (d[i] in roll and d[1 - i] != other) or d[i] == roll[0] + roll[1]:
                    good = i
                    break
        beyond = any(q - p > roll[0] for p, q in pairs)
        if good >= 0 and not (good == 1 and rplay.is_tout_d_une() and not by_roller):
            as_written = j.play.result if j.play is not None else _execute(pos.mover, pairs)
            if rplay.result not in (_keep_good(pos.mover, pairs, roll, good), as_written):
                what = "the whole throw cannot be made tout d'une; " if rplay.is_tout_d_une() and good == 0 else ""
                problems.append(
                    (
                        "first-number",
                        f"{pairs[good][0]}/{pairs[good][1]} was played correctly and "
                        f"stays; {what}only the misplaced checker may be put right "
                        "(003 §201, §211, §216)",
                    )
                )
        elif rplay.is_tout_d_une() and not by_roller:
            if fausse:
                allowed = profile.fausse_case_penalty == "opponent-disposes"
                source = "000 ~l.1047" if profile.fausse_case_penalty == "none" else "001 III on r.23, r.27"
            else:
                allowed, source = profile.misplaced_beyond_tout_d_une, "001 III on r.22"
            if not beyond:
                problems.append(
                    (
                        "tout-d-une",
                        f"no checker went beyond the larger number ({roll[0]}): "
                        "no tout d'une can be demanded (003 §211, §216)",
                    )
                )
            elif not allowed:
                problems.append(("tout-d-une", f"no tout d'une under {profile.name} ({source})"))
            elif rplay.steps[0][0] not in w_orig:
                problems.append(
                    ("other-checkers", "the tout d'une is played with one of the misplaced checkers (003 §211, §216)")
                )
        else:
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
            if (
                (not by_roller or profile.touch_strict or fausse)
                and w_orig != r_orig
                and any(_origins(pl) == w_orig for pl in alts)
            ):
                problems.append(
                    (
                        "other-checkers",
                        "the misplaced checkers, and only they, are played again (003 §211, §216; 001 r.23, r.27)",
                    )
                )
    elif j.violation == "puissance-when-direct":
        takes_coin = pos.mover[12] == 0 and rplay.result[12] >= 2
        must_take = all(pl.result[12] >= 2 for pl in alts)  # 003 §199: play the throw if possible
        if not profile.puissance_when_direct_penalty:
            if not by_roller and not takes_coin and any(pl.result[12] >= 2 for pl in alts):
                problems.append(
                    (
                        "designation",
                        f"no penalty for the puissance under {profile.name}: he "
                        "takes his coin directly or plays as he likes (001 III on r.26)",
                    )
                )
        elif rplay.is_tout_d_une() and not by_roller:
            if rplay.steps[-1][1] < 13:
                problems.append(("tout-d-une", "the tout d'une demanded must pass to the retour (003 §216)"))
        elif takes_coin and not must_take:
            problems.append(
                (
                    "coin",
                    "after taking his coin par puissance when he could take it directly, "
                    "he may not take it this throw (003 §216; 001 r.26)",
                )
            )
    elif (
        by_roller
        and profile.touch_strict
        and not _within(w_orig, r_orig)
        and any(_within(w_orig, _origins(pl)) for pl in alts)
    ):
        problems.append(("touched-checker", "a touched checker must be played (003 §46, §212; 001 r.17)"))
    return problems


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
