"""The course of one coup, written once: small steps in the rules' order.

Each step is a function of the values it is given — the table's score (a
:class:`~.ledger.Ledger` or its :class:`~.ledger.ScoreState`), the side, the kind of
partie, the profile — and returns what the rules make of them.  The steps that mark
points say so and mark on the ledger they are handed; nothing else is changed.  The
generator's driver (:class:`~.game.Game`, used by ``selfplay``, the error injector and
the recorder) calls them in this order:

.. code-block:: text

    throw ─▶ gains (roller_gains: O1-O2, §5.2, or je ne marque pas §5.3)
              │
              ├─ his twelfth hole (twelve_reached, §8.1) ──────────────▶ end of partie
              ▼
           decision (right_to_leave §6.1) ── s'en va ─▶ after_leave (§6.2)
              │ reste                                      │
              ▼                                            ├─ à écrire, ≥ 6 holes:
            play (O3)                                      │  close_marque (§8.2, D21)
              │                                            │    ├─ partie_over? ─▶ end
              ▼                                            │    └─ new marqué
           receipts (mark_points: O4-O5)                   └─ new relevé, leaver first
              │
           écoles claimed (§7.1, O4)
              ├─ twelfth hole (§8.1, §6.6) ────────────────────────────▶ end of partie
              ▼
           sortie? (after_sortie: §3.10 S8, §4.9, §6.5) ─▶ new relevé, first out first
              │ no                                            (je joue pour tout: same throw)
              ▼
           next coup, the opponent throws

Rules: RULES.md §4.1 (O1-O5), §5.2-5.3, §6.1-6.2, §6.5, §3.10-3.11, §4.9, §8.1-8.2,
§10 D21; 003 §118, §150, §155-157, §176, §217-226.  The verifier
(``replay.verifier.verify`` and its judges) calls the same steps to replay written records
(issue 14); see docs/architecture.md, "replay/rules/course.py — the course of a coup,
written once", for which judge calls which step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple, Protocol, TypeVar

from . import partie
from .ledger import Ledger, MarkResult, ScoreState
from .moves import Play
from .position import Position, other_side
from .profiles import Profile
from .scoring import CoupScore, score_play, score_roll

__all__ = [
    "DOUZE_TROUS",
    "A_ECRIRE",
    "TWELVE",
    "ALL_OFF",
    "Marked",
    "NOTHING",
    "Gains",
    "ReleveEnd",
    "MarqueOutcome",
    "MarqueClosed",
    "MarqueLine",
    "throw_score",
    "mark_points",
    "says_ne_marque_pas",
    "roller_gains",
    "twelve_reached",
    "gains_end_partie",
    "right_to_leave",
    "is_sortie",
    "after_leave",
    "after_sortie",
    "marque_bredouille",
    "primaute_after_marque",
    "settle_marque",
    "refaits_after",
    "close_marque",
    "partie_over",
    "partie_winner",
    "holes_leader",
]

DOUZE_TROUS = "douze-trous"
A_ECRIRE = "a-ecrire"
TWELVE = partie.TWELVE_HOLES  # holes that win a partie en douze trous (RULES.md §8.1; 003 §218)
ALL_OFF = 15  # checkers borne off at the sortie (RULES.md §3.10 S8)
Roll = tuple[int, int]


# -- marking ---------------------------------------------------------------------------


class Marked(NamedTuple):
    """What one side marked with one scoring event (RULES.md §4.1 O5, §5.2); a tuple,
    cheap to build on every mark.

    ``holes``: holes made (a double hole counts 2); ``double``: the bredouille flag of
    each hole-gesture; ``bredouille``: whether his points stand in bredouille after the
    mark (None when no points are left standing).
    """

    points: int
    holes: int = 0
    double: tuple[bool, ...] = ()
    bredouille: bool | None = None


NOTHING = Marked(0)


def mark_points(ledger: Ledger, side: str, points: int, *, own: bool = False) -> Marked:
    """``side`` marks ``points`` on ``ledger`` as one event (RULES.md §5.2); ``own`` = the
    gains of his own throw, which give the right to leave (§6.1).  Marks the ledger."""
    res: MarkResult = ledger.mark(side, points, own=own)
    if not res.holes:  # most marks make no hole (the verifier's hot path)
        return Marked(points, 0, (), res.bredouille_after if res.points_after else None)
    holes = 0
    double: list[bool] = []
    for n, dbl in res.holes:
        holes += n
        double.append(dbl)
    return Marked(points, holes, tuple(double), res.bredouille_after if res.points_after else None)


def throw_score(position: Position, roll: Roll, play: Play | None, profile: Profile) -> CoupScore:
    """The throw's scoring: of ``play``, or what the throw entitles when played legally
    (``play`` None: he leaves, or nothing is played; RULES.md §4.10)."""
    if play is None:
        return score_roll(position, roll, profile)
    return score_play(position, roll, play, profile)


class Gains(NamedTuple):
    """The roller's marking before his decision (RULES.md §4.1 O1-O2): what he
    ``marked`` (nothing with *je ne marque pas*)."""

    marked: Marked
    ne_marque_pas: bool = False


def says_ne_marque_pas(state: ScoreState, roller: str, gains: int, given: int) -> bool:
    """*Je ne marque pas* (RULES.md §5.3; 003 §150, §176): his ``gains`` make no hole and
    what the throw gives the opponent (``given``) completes the opponent's hole, which
    would erase them anyway; the announcement counts as marking (it takes the
    opponent's bredouille)."""
    if not gains or not given:
        return False
    return state[roller].points + gains < TWELVE and state[other_side(roller)].points + given >= TWELVE


def roller_gains(ledger: Ledger, roller: str, gains: int, given: int, marked: int | None = None) -> Gains:
    """Step O1-O2: the roller marks his ``gains`` (RULES.md §4.1, §5.2), or says *je ne
    marque pas* when the ``given`` points complete the opponent's hole (§5.3).
    ``marked``: the points he really marked at the table (a mistake that stands; no
    announcement then).  Marks ``ledger``."""
    if marked is None and gains and given and says_ne_marque_pas(ledger.state, roller, gains, given):
        ledger.ne_marque_pas(roller)
        return _SAID_NMP
    points = gains if marked is None else marked
    if not points:
        return _NO_GAINS
    return Gains(mark_points(ledger, roller, points, own=True))


_SAID_NMP = Gains(NOTHING, True)
_NO_GAINS = Gains(NOTHING)


# -- the end of a partie en douze trous, the right to leave -----------------------------


def twelve_reached(kind: str, state: ScoreState, side: str) -> bool:
    """Has ``side`` the twelve holes that end a partie en douze trous (RULES.md §8.1; 003
    §217-218)?  Whatever the points came from, given ones too (§6.6).  Never in a
    partie à écrire, whose marqués end only on a leave (§8.2)."""
    return kind == DOUZE_TROUS and partie.twelve_reached(state, side)


def gains_end_partie(kind: str, ledger: Ledger, roller: str, gains: int) -> bool:
    """Has the roller twelve holes once ``gains`` points of his own throw are marked
    (RULES.md §8.1; 003 §218)?  Then the partie ends before he plays.  ``ledger`` is not
    changed."""
    if kind != DOUZE_TROUS:
        return False
    me = ledger.state[roller]
    if me.holes + 2 * ((me.points + gains) // TWELVE) < TWELVE:
        return False  # cannot reach twelve holes, even all double
    if not gains:
        return twelve_reached(kind, ledger.state, roller)
    trial = ledger.copy()
    mark_points(trial, roller, gains, own=True)
    return twelve_reached(kind, trial.state, roller)


def right_to_leave(kind: str, state: ScoreState, roller: str, holes: int) -> bool:
    """May the roller leave (RULES.md §6.1; 003 §155)?  His own gains made ``holes``
    (``state`` = the score after them), and they did not end a partie en douze trous
    (nothing is left to decide then)."""
    return holes > 0 and not twelve_reached(kind, state, roller)


def holes_leader(state: ScoreState) -> str:
    """Who wins a partie en douze trous that ends on receipts or écoles: the one with
    more holes (RULES.md §8.1)."""
    return "A" if state["A"].holes > state["B"].holes else "B"


# -- the end of a relevé ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReleveEnd:
    """How a relevé ended and what starts next.

    ``primaute``: who throws first in the next relevé (RULES.md §6.2, §4.9).
    ``marque``: the leave ended the marqué of a partie à écrire (§8.2; then
    :func:`close_marque` says who throws first).  ``replay_roll``: *je joue pour
    tout*, the same throw opens the next relevé (§6.5).
    """

    primaute: str
    marque: partie.MarqueOutcome | None = None
    replay_roll: Roll | None = None


def after_leave(kind: str, state: ScoreState, leaver: str, profile: Profile) -> ReleveEnd:
    """*Je m'en vais* (RULES.md §6.2; 003 §155-157): all points erased, the checkers
    taken up, a new relevé with the primauté to the leaver — in a partie à écrire the
    marqué ends when either has ``profile.marque_end_holes`` holes (§8.2; 003 §221)."""
    marque = partie.marque_outcome(state, profile) if kind == A_ECRIRE else None
    return ReleveEnd(leaver, marque)


def is_sortie(play: Play | None) -> bool:
    """Does ``play`` bear off the roller's last checker (RULES.md §3.10 S8)?"""
    return play is not None and play.result[25] == ALL_OFF


def after_sortie(first_out: str, roll: Roll, pour_tout: bool) -> ReleveEnd:
    """The sortie (RULES.md §3.10 S8, §4.9, §3.11; 003 §118): both take up their
    checkers, points and holes are kept, the first out has the primauté; with *je joue
    pour tout* his throw is also the first of the new relevé (§6.5; 001 r.73-74)."""
    return ReleveEnd(first_out, None, roll if pour_tout else None)


# -- the end of a marqué and of a partie à écrire -----------------------------------------


@dataclass(frozen=True, slots=True)
class MarqueOutcome:
    """The end of a marqué of a partie à écrire (RULES.md §8.2; 003 §221-226).

    ``refait`` when both have the same number of holes (at least six): the marqué is
    void and replayed.  ``bredouille`` is ``"petite"`` / ``"grande"`` when the winner's
    holes were all taken without interruption (the pavillon, RULES.md §5.4).
    ``refaits_before`` = consecutive refaits just before (they raise the consolation).
    ``value`` = the marqué's value (``replay.rules.partie.marque_value``), None for a refait.
    """

    number: int
    winner: str | None
    winner_holes: int
    loser_holes: int
    bredouille: Literal["none", "petite", "grande"]
    refait: bool
    refaits_before: int
    value: int | None


def marque_bredouille(winner_holes: int, pavillon: bool, profile: Profile) -> Literal["none", "petite", "grande"]:
    """Petite / grande bredouille of a marqué from its factor (RULES.md §8.2; 003 §223-225;
    ``replay.rules.partie.marque_factor``): ×2 petite, ×4 or more grande."""
    m = partie.marque_factor(winner_holes, pavillon, profile)
    return "none" if m == 1 else ("petite" if m == 2 else "grande")


_Side = TypeVar("_Side", str, "str | None")


def primaute_after_marque(winner: str | None, leaver: _Side, marque_primaute: _Side, profile: Profile) -> _Side:
    """Who throws first in the next marqué (RULES.md §8.2, §6.2, §10 D21).

    After a refait (``winner`` None) whoever had the primauté of the marqué keeps it
    (003 §226); else the marqué's winner (003 §221) or the leaver (003 §155), as the
    profile's ``primaute_after_marque_leave`` says — they differ only when the leaver
    has fewer holes.  (A reader of a record may not know the leaver or the first
    thrower: None in, None out.)
    """
    if winner is None:
        return marque_primaute
    return winner if profile.primaute_after_marque_leave == "winner" else leaver


@dataclass(frozen=True, slots=True)
class MarqueClosed:
    """A closed marqué: its ``outcome``, who has the ``primaute`` of the next one, and the
    consecutive ``refaits`` the next one counts (RULES.md §8.2; 003 §226)."""

    outcome: MarqueOutcome
    primaute: str
    refaits: int


def settle_marque(number: int, ended: partie.MarqueOutcome, refaits: int, profile: Profile) -> MarqueOutcome:
    """The result of marqué ``number`` that a leave ended (RULES.md §8.2; 003 §221-226):
    the winner, bredouille and value (the consolation counts the ``refaits`` just
    before), or a refait (void, replayed: 003 §226)."""
    w, lo = ended.winner_holes, ended.loser_holes
    if ended.winner is None:
        return MarqueOutcome(number, None, w, lo, "none", True, refaits, None)
    pav = ended.pavillon
    value = partie.marque_value(w, lo, pav, refaits, profile).value
    return MarqueOutcome(number, ended.winner, w, lo, marque_bredouille(w, pav, profile), False, refaits, value)


def refaits_after(refait: bool, refaits: int) -> int:
    """The consecutive refaits the next marqué counts: one more after a refait, none
    after a decided marqué (RULES.md §8.2; 003 §226)."""
    return refaits + 1 if refait else 0


def close_marque(
    number: int, ended: partie.MarqueOutcome, leaver: str, marque_primaute: str, refaits: int, profile: Profile
) -> MarqueClosed:
    """Close marqué ``number`` that a leave ended (:func:`settle_marque`), then who throws
    first in the next marqué (:func:`primaute_after_marque`) and the refaits it counts."""
    out = settle_marque(number, ended, refaits, profile)
    primaute = primaute_after_marque(out.winner, leaver, marque_primaute, profile)
    return MarqueClosed(out, primaute, refaits_after(out.refait, refaits))


class MarqueLine(Protocol):
    """A marqué's result as the flow closes it (:class:`MarqueOutcome`) or as a record
    writes it (``notation.record.MarqueResult``)."""

    @property
    def winner(self) -> str | None: ...

    @property
    def refait(self) -> bool: ...

    @property
    def value(self) -> int | None: ...


def partie_over(results: Sequence[MarqueLine], marques: int) -> bool:
    """A partie à écrire ends after its agreed number of decided marqués; refaits are
    replayed and do not count (RULES.md §8.2; 003 §220, §226)."""
    return sum(1 for m in results if not m.refait) >= marques


def partie_winner(results: Sequence[MarqueLine]) -> str | None:
    """The winner of a partie à écrire between seats ``A`` and ``B``: the greater total
    of marqué values; None on a tie (RULES.md §8.2)."""
    won: dict[str, int] = {}
    for m in results:
        if m.winner:
            won[m.winner] = won.get(m.winner, 0) + (m.value or 0)
    a, b = won.get("A", 0), won.get("B", 0)
    if a == b:
        return None
    return "A" if a > b else "B"
