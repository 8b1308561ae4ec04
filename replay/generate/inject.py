"""The error injector: realistic table mistakes put into correct records, with the truth.

:func:`inject` takes a correct record (from the bots, ``replay.generate.selfplay``) and
returns a new record with ``k`` mistakes of stated kinds, and one :class:`Injected`
per mistake saying where it is (coup index and number, marqué, relevé), who made it,
and what the rules entitled against what was marked.  ``kind`` is the finding kind
the verifier (``replay.verifier.verify``, :data:`~trictrac.replay.verifier.findings.FINDING_KINDS`)
must report for it.

The game is replayed through the game flow (``replay.rules.game``).  Up to the first
mistake the new record is the old one; a mistake that changes the score or the
position *stands at the table* (nobody claimed it, or the claim moved the points as
RULES.md §7 says) and the rest of the partie is played on from the table's score by
the same bots, so that every later mark is right for the score as it stood — one
mistake gives exactly one finding.  Mistakes that change nothing at the table (a
decision word, a fichet or jeton corrected, a written marqué result) keep the rest of
the record as it was.

Kinds (``variant`` in brackets):

* ``unclaimed-ecole`` — the roller marks too much [``par-trop``], too little
  [``par-moins``] or nothing [``dropped``], or the opponent marks his receipts wrong
  [``receipts-par-trop``, ``receipts-par-moins``]; nobody claims it (RULES.md §7.1-7.3;
  003 §164-167, §182; 001 r.47);
* ``ecole-par-trop`` / ``ecole-par-moins`` — the same, claimed by the opponent with
  an école (``Ecole``) after the coup: the excess is erased and he marks the
  difference for himself (RULES.md §7.1, §7.3; 003 §164-165, §186);
* ``illegal-move`` — an executable play the movement laws forbid, accepted by the
  opponent (RULES.md §3.3-3.10, §9.5) [the violation id of ``moves.judge_play``];
* ``unplayed-number`` — a number left unplayed when both could be played, or the
  smaller played (RULES.md §3.6 M6-M7, M9: the opponent takes 2 per number);
* ``must-fill`` / ``must-conserve`` — a missed fill / a broken plein, marked as the
  play stands (RULES.md §3.7 M10-M11, §7.7; 003 §192);
* ``ecole-plein-not-made`` — the fill marked, then not made (RULES.md §7.7; 003 §192);
* ``leave-without-right`` — *je m'en vais* without a hole of his own throw; both
  take up their checkers, so it stands (RULES.md §6.4; 003 §170, §180);
* ``stay-after-leave`` — *je m'en vais* said, then he plays (RULES.md §6.1; 003 §156);
* ``hole-mismatch`` — the fichet moved one hole too many (RULES.md §7.5: put right,
  no école; 003 §184);
* ``bredouille-lost`` — points marked in bredouille (two jetons) when his points
  were interrupted (RULES.md §5.2, §5.5; 003 §144: the extra jeton is removed);
* ``marque-result-mismatch`` — the written value of a marqué is wrong (RULES.md §8.2);
* ``ecole-claimed-wrongly`` — a fausse école: the opponent claims an école after a
  coup marked right; it stands [``stands``], or the roller takes it back for himself
  [``claimed-back``] (RULES.md §7.4; 003 §183; 001 r.60);
* ``ecole-partial`` — a wrong mark claimed for part of its value (RULES.md §7.3;
  003 §187; 001 r.46); the wrong mark is also found, claimed (``also``);
* ``ecole-too-late`` — a wrong mark left unclaimed, then claimed by the opponent on
  his own next coup, after he threw (RULES.md §7.2; 003 §167, §186; 001 r.34); the
  wrong mark is also found, unclaimed (``also``);
* ``ecole-impossible`` — less marked than due on a throw that could not be played at
  all; the points are lost, no école (RULES.md §7.8; 001 r.62; 003 §197); needs such
  a throw with points, which generated games seldom have: often no injection;
* ``ecole-deux-jetons`` — the roller marks his gains with a second jeton, abandoning
  his old points, and the opponent claims them as an école des deux jetons: an école
  under ``rigueur`` / ``lebrun-1828`` (the old points erased and marked by him, 001
  r.65; 000 ~l.758), a fausse école elsewhere (003 §195; also found:
  ``ecole-claimed-wrongly``) (RULES.md §7.6, §10 D7);
* ``leave-at-sortie`` — *je m'en vais* at a sortie whose throw makes no hole of his
  own; both take up their checkers, so it stands (RULES.md §6.5; 003 §163, §180);
* ``missing-checker`` — the scribe writes a move from a point one away, where the
  player has no checker (RULES.md §9.6): the verifier stops there, so it is only ever
  the last mistake of a record;
* ``out-of-turn`` — the player who has just thrown throws again [``alternation``], or
  the wrong player opens a relevé [``primaute``]; the coup stands (RULES.md §9.3; 003
  §28);
* ``releve-without-leave`` — the checkers are taken up and a new relevé begun though
  nobody left and nobody bore off; points and holes stand (RULES.md §1.7, §6.1; 003
  §155, §162); index -1 (a section, as the verifier reports it), side None.

``Injected.also`` lists the other findings (kind, index, side) one mistake brings with
it (:func:`expected_findings`).  A fausse école and a deux jetons claim are made only
where the verifier, which marks a claim matched to no mistake before the roller's gains,
reaches the same score and bredouille as the table, and never repeat an earlier école's
(claimant, points), which it would read as a late claim (/work/briefs/s2/h4_verifier_issues.md).  Full records get every kind; compact records (no
marks) only ``illegal-move``, ``unplayed-number``, ``missing-checker``,
``out-of-turn`` and ``releve-without-leave``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, NamedTuple, TypeVar

from ...notation.compiled import mypyc_attr
from ...notation.record import Action, CannotPlay, Coup, Decision, Ecole, Mark, MarqueResult, Move, Record, ReleveStart
from ...notation.visitor import ActionVisitor, RecordVisitor, visit_action, visit_element
from ...words import SaidError
from ..rules.game import CoupOutcome, Game, GameFlowError, partie_kind, replay_record
from ..rules.ledger import Ledger
from ..rules.moves import Play, PlaySet, judge_play, play_moves
from ..rules.position import Position, start_position
from ..rules.profiles import Profile, find_profile
from ..rules.scoring import score_play
from ..verifier.findings import FINDING_KINDS
from .selfplay import RecordBuilder, bot_coup, choose_play

__all__ = ["Injected", "inject", "expected_findings", "INJECT_KINDS", "COMPACT_KINDS", "InjectError"]

#: kinds of mistake the injector makes, each a verifier finding kind
INJECT_KINDS: tuple[str, ...] = (
    "unclaimed-ecole",
    "ecole-par-trop",
    "ecole-par-moins",
    "illegal-move",
    "unplayed-number",
    "must-fill",
    "must-conserve",
    "ecole-plein-not-made",
    "leave-without-right",
    "stay-after-leave",
    "hole-mismatch",
    "bredouille-lost",
    "marque-result-mismatch",
    "ecole-claimed-wrongly",
    "ecole-partial",
    "ecole-too-late",
    "ecole-impossible",
    "ecole-deux-jetons",
    "leave-at-sortie",
    "missing-checker",
    "out-of-turn",
    "releve-without-leave",
)
COMPACT_KINDS: tuple[str, ...] = (
    "illegal-move",
    "unplayed-number",
    "missing-checker",
    "out-of-turn",
    "releve-without-leave",
)
#: kinds planned by a method ``_<kind>`` of the injector, in full records only
_TABLE_SLIPS = (
    "ecole-claimed-wrongly",
    "ecole-partial",
    "ecole-too-late",
    "ecole-impossible",
    "ecole-deux-jetons",
    "leave-at-sortie",
    "leave-without-right",
    "stay-after-leave",
    "hole-mismatch",
    "bredouille-lost",
)
#: kinds made before the coup is thrown (they change who throws, or the checkers)
_BEFORE_THROW = ("out-of-turn", "releve-without-leave")
assert all(k in FINDING_KINDS for k in INJECT_KINDS)

#: coups kept between two mistakes so that claim windows never overlap (RULES.md §7.2)
SPACING = 4
_HOLE = 12


@mypyc_attr(native_class=False)  # its base, words.SaidError, is interpreted
class InjectError(SaidError):
    """API misuse: unknown kind, a record perfect play cannot explain: the catalogue's
    ``w6.inject.*`` and its fields (``str(e)`` its English, ``e.say(lang)``)."""


@dataclass(frozen=True, slots=True)
class Injected:
    """One mistake put into a record: what the verifier must find, and where.

    ``index``: 0-based index of the coup in ``record.coups`` (-1 for a marqué's written
    result or a relevé header); ``coup`` / ``marque`` / ``releve``: the numbers as
    written (0 = none).  ``side``: who made the mistake (None for a written marqué
    result or a relevé begun by both).  ``entitled`` / ``marked``: points due and
    points marked (None when not a marking matter).  ``claimed``: the opponent claimed
    it with an école.  ``also``: the other findings (kind, index, side) the same
    mistake brings (an école claimed in part or too late is also a wrong mark).
    """

    kind: str
    variant: str
    index: int
    coup: int
    marque: int
    releve: int
    side: str | None
    entitled: int | None = None
    marked: int | None = None
    claimed: bool = False
    detail: str = ""
    also: tuple[tuple[str, int, str | None], ...] = ()

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["also"] = [list(x) for x in self.also]
        return d


def expected_findings(injected: Sequence[Injected | dict[str, Any]]) -> list[tuple[str, int, str | None]]:
    """Every finding (kind, index, side) the verifier must report for these mistakes,
    sorted; takes :class:`Injected` or their ``as_dict()`` (a ``.injected.json`` row)."""
    out: list[tuple[str, int, str | None]] = []
    for x in injected:
        d = x.as_dict() if isinstance(x, Injected) else x
        out.append((d["kind"], d["index"], d["side"]))
        out.extend((k, i, w) for k, i, w in d.get("also", ()))
    return sorted(out, key=lambda t: (t[0], t[1], t[2] or ""))


@dataclass(slots=True)
class _Plan:
    """How one mistake is made at the table (internal)."""

    kind: str
    variant: str
    side: str
    play: Play | None
    leave: bool = False
    marked: int | None = None
    received: int | None = None
    ecoles: tuple[tuple[str, int], ...] = ()
    force_leave: bool = False
    unplayable: tuple[int, ...] | None = None
    entitled: int | None = None
    marked_written: int | None = None  # the written roller's mark when it differs from ``marked``
    written_bred: bool = False  # bredouille of that written mark (RULES.md §5.2)
    claimed: bool = False
    detail: str = ""
    state_change: bool = True
    edit: str = ""  # "decision-leave", "holes+1", "bredouille", "ecole", "claims", "sortie-leave", "moves"
    shown: int | None = None  # the points marked as the finding reports them, when not the roller's mark
    claims: tuple[tuple[str, int, str | None], ...] = ()  # écoles written after the coup (edit "claims")
    moves: tuple[Move | CannotPlay, ...] = ()  # the moves as written (edits "sortie-leave", "moves")
    pre_ops: tuple[tuple[str, str, int], ...] = ()  # ("mark"|"erase", side, points) before the gains
    post_ops: tuple[tuple[str, str, int], ...] = ()  # the same after the receipts (écoles of this coup)
    also: tuple[tuple[str, str | None], ...] = ()  # (kind, side) also found at this coup
    late: int = 0  # école too late: points the opponent claims on his next coup
    stop: bool = False  # the verifier stops at this mistake: no later one


def _other(side: str) -> str:
    return "B" if side == "A" else "A"


class _Throw(NamedTuple):
    """A throw and what is done with it: (roll, legal plays, play, leave, *je joue pour tout*)."""

    roll: tuple[int, int]
    ps: PlaySet
    play: Play | None
    leave: bool
    say: bool


@dataclass(slots=True)
class _Walk:
    """The injector's walk through a partie (internal): the new game and record, the
    original coups' outcomes and the position before each, where mistakes go and what
    happened so far."""

    game: Game
    rb: RecordBuilder
    orig: list[CoupOutcome]
    before: list[Position]
    targets: list[int]  # coup indexes at which a mistake is due, in order
    kinds: list[str]
    out_list: list[Injected] = field(default_factory=list)
    turn: int = 0  # kinds tried in turn from this one
    synced: bool = True  # the new game still follows the original coup by coup
    last: int = -SPACING  # index of the last mistake
    i: int = 0  # index of the coup being played
    marque_edit_pending: bool = False
    late: tuple[str, int, Injected] | None = None  # an école to claim too late on the next coup
    prev: CoupOutcome | None = None  # the last coup's outcome
    stopped: bool = False  # after a missing checker the verifier stops: no later mistake


class _Base:
    """What every planner of a mistake shares: the record, the generator, the profile, the
    écoles already claimed, and the plain facts of a coup's marks (internal)."""

    def __init__(self, record: Record, k: int, rng: random.Random, kinds: Sequence[str], profile: Profile) -> None:
        self.record = record
        self.k = k
        self.rng = rng
        self.kinds = list(kinds)
        self.profile = profile
        self.compact = record.mode == "compact"
        # écoles the verifier has seen closed: a later claim of the same (claimant, points)
        # would read as a late claim of it (RULES.md §7.2), so no fausse école repeats one
        self.past_claims: set[tuple[str, int]] = set()
        self.any_claim: set[str] = set()  # claimants of écoles of points not known here

    def _marks(self, game: Game, roll: tuple[int, int], play: Play | None) -> tuple[int, int, int, int] | None:
        """(gains, receipts, roller points, opponent points after the gains) for a coup
        that is played and marked plainly (no hole, no *je ne marque pas*, no end)."""
        if play is None or game.pending_roll is not None:
            return None
        pos = game.position
        roller = pos.turn
        cs = score_play(pos, roll, play, self.profile)
        st = game.score
        pr, po = st[roller].points, st[_other(roller)].points
        if pr + cs.mover >= _HOLE or po + cs.other >= _HOLE:
            return None
        return cs.mover, cs.other, pr, po

    def _wrong_mark(
        self, game: Game, roll: tuple[int, int], play: Play | None, leave: bool, d_min: int
    ) -> tuple[str, int, int, int, int, int] | None:
        """A wrong mark of the roller's own gains, by ``d >= d_min`` points (no hole either
        way, a play with moves so that the omission is consummated, RULES.md §7.2):
        (variant, d, written, gains, receipts, roller's points), or None."""
        m = None if leave or play is None or not play.steps else self._marks(game, roll, play)
        if m is None:
            return None
        gains, receipts, pr, po = m
        choices = [("par-trop", d) for d in (2, 4) if d >= d_min and pr + gains + d < _HOLE]
        if gains >= d_min:
            choices.append(("dropped", gains))
        if gains > d_min:
            choices.append(("par-moins", d_min))
        if not choices:
            return None
        variant, d = self.rng.choice(choices)
        wrote = gains + d if variant == "par-trop" else gains - d
        return variant, d, wrote, gains, receipts, pr

    def _apply_ops(self, led: Ledger, ops: tuple[tuple[str, str, int], ...]) -> Ledger:
        """Marks and erasures of écoles (RULES.md §7.3): ``("mark", side, n)`` marks n
        points (not his own throw's), ``("erase", side, n)`` erases n of his points —
        his bredouille goes with all his points, as the verifier erases them."""
        for op, side, n in ops:
            if op == "mark":
                led.mark(side, n)
                continue
            st = led.state
            ps = st[side]
            pts = max(0, ps.points - n)
            new = replace(ps, points=pts, bredouille=ps.bredouille and pts > 0)
            fresh = Ledger(
                self.profile, replace(st, a=new) if side == "A" else replace(st, b=new), primaute=led.primaute
            )
            fresh.releve = led.releve
            led = fresh
        return led

    def _order_free(
        self,
        game: Game,
        roller: str,
        gains: int,
        receipts: int,
        pre: tuple[tuple[str, str, int], ...],
        post: tuple[tuple[str, str, int], ...],
        verifier: tuple[tuple[tuple[str, str, int], ...], tuple[tuple[str, str, int], ...]],
    ) -> bool:
        """Do the table's order of the écoles (``pre`` before the roller's gains, ``post``
        after the receipts) and the verifier's (``verifier`` = its pre, post) give the
        same score and the same bredouille on the written marks?  The verifier marks an
        école matched to no mistake of this coup before the roller's gains (see
        /work/briefs/s2/h4_verifier_issues.md); where the order changes a bredouille the
        mistake is not made here."""
        seen = []
        for before, after in ((pre, post), verifier):
            led = self._apply_ops(game.ledger.copy(), before)
            flags = []
            if gains:
                flags.append(led.mark(roller, gains, own=True).bredouille_after)
            led.stay(roller)
            if receipts:
                flags.append(led.mark(_other(roller), receipts).bredouille_after)
            led = self._apply_ops(led, after)
            seen.append((led.state, flags))
        return seen[0] == seen[1]

    def _edit(self, c: Coup, plan: _Plan, out: Any) -> tuple[Coup, int | None]:
        """Write the mistake into the coup; returns (coup, points marked)."""
        side = plan.side
        marked = plan.marked if plan.marked_written is None else plan.marked_written
        if plan.received is not None:
            marked = plan.received
        if plan.shown is not None:
            marked = plan.shown
        before, after = c.before, c.after
        if plan.edit == "ecole":
            before = _rewritten(before, _DropMarksOf(c.side))
            if plan.marked_written:
                before = (Mark(c.side, plan.marked_written, None, plan.written_bred),) + before
            after += (Ecole(plan.ecoles[0][0], plan.ecoles[0][1], None),)
        elif plan.edit == "claims":
            after += tuple(Ecole(who, n, why) for who, n, why in plan.claims)
        elif plan.edit in ("sortie-leave", "decision-leave"):
            before = _rewritten(before, _DropDecisions()) + (Decision(side, True),)
        elif plan.edit in ("holes+1", "bredouille"):
            first = _FirstMarkOf(side, plan.edit)
            before = _rewritten(before, first)
            marked = marked if first.points is None else first.points
        moves = c.moves
        if plan.edit in ("sortie-leave", "moves"):
            moves = plan.moves
        elif plan.kind in ("illegal-move", "unplayed-number") and plan.play is not None:
            moves = _rewritten(moves, _DropCannotPlay())
        return replace(c, before=before, after=after, moves=moves), marked

    def _edit_marque(self, rb: RecordBuilder, out: Any, i: int, c: Coup, out_list: list[Injected]) -> None:
        els = rb.record.elements
        finder = _MarqueResultFinder()
        for j in range(len(els) - 1, -1, -1):
            e = visit_element(els[j], finder)
            if e is not None:
                wrong = (e.value or 0) + self.rng.choice((2, 4, -2))
                fixed = replace(e, value=max(1, wrong) if wrong != e.value else wrong + 2)
                els[j] = fixed
                m = out.marque_ended
                # a score-sheet matter, not a coup's: index -1 (as the verifier reports it)
                out_list.append(
                    Injected(
                        "marque-result-mismatch",
                        "value",
                        -1,
                        0,
                        m.number,
                        0,
                        None,
                        e.value,
                        fixed.value,
                        False,
                        f"written value of marqué {m.number} (after coup index {i})",
                    )
                )
                return


class _EcolePlans(_Base):
    """Mistakes of marking and the écoles about them (RULES.md §7)."""

    def _wrong_marking(self, kind: str, game: Game, roll: tuple[int, int], play: Play | None) -> _Plan | None:
        """The roller's gains or the opponent's receipts marked wrong, unclaimed or claimed
        at once (RULES.md §7.1-7.3)."""
        m = self._marks(game, roll, play)
        if m is None:
            return None
        gains, receipts, pr, po = m
        claimed = kind != "unclaimed-ecole"
        choices = []
        if kind in ("unclaimed-ecole", "ecole-par-trop"):
            for d in (2, 4):
                if pr + gains + d < _HOLE:
                    choices.append(("par-trop", d))
        if kind in ("unclaimed-ecole", "ecole-par-moins") and gains:
            choices.append(("par-moins", 2) if gains > 2 else ("dropped", gains))
            choices.append(("dropped", gains))
        if kind == "unclaimed-ecole":
            for d in (2, 4):
                if po + receipts + d < _HOLE:
                    choices.append(("receipts-par-trop", d))
            if receipts:
                choices.append(("receipts-par-moins", 2))
        if claimed and receipts:
            return None  # keep the order of the claim and the receipts plain
        if not choices:
            return None
        variant, d = self.rng.choice(choices)
        roller = game.position.turn
        if variant.startswith("receipts"):
            got = receipts + d if variant.endswith("trop") else receipts - d
            return _Plan(kind, variant, _other(roller), play, received=got, entitled=receipts, detail=variant)
        wrote = gains + d if variant == "par-trop" else gains - d
        if not claimed:
            return _Plan(kind, variant, roller, play, marked=wrote, entitled=gains, detail=variant)
        # claimed at once: the excess is erased / the missing points go to him (§7.3)
        bred = game.ledger.copy().mark(roller, wrote, own=True).bredouille_after if wrote else False
        return _Plan(
            kind,
            variant,
            roller,
            play,
            marked=gains if variant == "par-trop" else wrote,
            ecoles=((_other(roller), d),),
            entitled=gains,
            marked_written=wrote,
            written_bred=bred,
            claimed=True,
            detail=variant,
            edit="ecole",
        )

    def _ecole_claimed_wrongly(
        self, game: Game, roll: tuple[int, int], ps: PlaySet, play: Play | None, leave: bool
    ) -> _Plan | None:
        """A fausse école: the opponent claims ``n`` after a coup marked right; it stands,
        or the roller claims it back (RULES.md §7.4; 003 §183 2°; 001 r.60)."""
        m = None if leave else self._marks(game, roll, play)
        if m is None:
            return None
        gains, receipts, pr, po = m
        roller = game.position.turn
        opp = _other(roller)
        ns = [
            n
            for n in (2, 4)
            if po + receipts + n < _HOLE and (opp, n) not in self.past_claims and opp not in self.any_claim
        ]  # else the verifier may read it as a late claim of that école
        if not ns:
            return None
        n = self.rng.choice(ns)
        claims: tuple[tuple[str, int, str | None], ...] = ((opp, n, None),)
        post: tuple[tuple[str, str, int], ...] = (("mark", opp, n),)
        variant = "stands"
        if pr + gains + n < _HOLE and self.rng.random() < 0.5:
            # the fausse école is itself an école: his points erased, the roller marks them (E41)
            claims += ((roller, n, None),)
            post += (("erase", opp, n), ("mark", roller, n))
            variant = "claimed-back"
        # the verifier marks a claim matched to no mistake before the roller's gains
        if not self._order_free(game, roller, gains, receipts, (), post, ((post[0],), post[1:])):
            return None
        return _Plan(
            "ecole-claimed-wrongly",
            variant,
            opp,
            play,
            post_ops=post,
            entitled=0,
            shown=n,
            claimed=len(claims) > 1,
            edit="claims",
            claims=claims,
            detail=f"{opp} claims {n} after a coup marked right",
        )

    def _ecole_partial(
        self, game: Game, roll: tuple[int, int], ps: PlaySet, play: Play | None, leave: bool
    ) -> _Plan | None:
        """A wrong mark of ``d`` claimed for ``d - 2`` only (RULES.md §7.3; 003 §187; 001
        r.46): the claim is marked as made, the excess (par trop) erased (§7.3)."""
        w = self._wrong_mark(game, roll, play, leave, 4)
        if w is None:
            return None
        variant, d, wrote, gains, receipts, pr = w
        if receipts:
            return None  # keep the order of the claim and the receipts plain
        roller = game.position.turn
        opp = _other(roller)
        n = d - 2
        if game.score[opp].points + n >= _HOLE:
            return None
        bred = game.ledger.copy().mark(roller, wrote, own=True).bredouille_after if wrote else False
        par = "ecole-par-trop" if variant == "par-trop" else "ecole-par-moins"
        return _Plan(
            "ecole-partial",
            variant,
            opp,
            play,
            marked=gains if variant == "par-trop" else wrote,
            ecoles=((opp, n),),
            entitled=d,
            marked_written=wrote,
            written_bred=bred,
            claimed=True,
            shown=n,
            edit="ecole",
            also=((par, roller),),
            detail=f"{opp} claims {n} of an école of {d}",
        )

    def _ecole_too_late(
        self, game: Game, roll: tuple[int, int], ps: PlaySet, play: Play | None, leave: bool
    ) -> _Plan | None:
        """A wrong mark left unclaimed; the opponent claims it on his next coup, after
        throwing (RULES.md §7.2; 003 §167, §186; 001 r.34) — see :meth:`_late_claim`."""
        w = self._wrong_mark(game, roll, play, leave, 2)
        if w is None:
            return None
        variant, d, wrote, gains, receipts, pr = w
        if play is None or play.result[25] == 15:
            return None  # after a sortie he throws again: the claimant's next coup is not next
        return _Plan(
            "unclaimed-ecole", variant, game.position.turn, play, marked=wrote, entitled=gains, late=d, detail=variant
        )

    def _ecole_impossible(
        self, game: Game, roll: tuple[int, int], ps: PlaySet, play: Play | None, leave: bool
    ) -> _Plan | None:
        """Less marked than due on a throw that cannot be played at all: no école, the
        points are lost once he throws again (RULES.md §7.8; 001 r.62; 003 §197)."""
        if leave or play is None or play.steps or len(ps.plays) != 1:
            return None
        m = self._marks(game, roll, play)
        if m is None or not m[0]:
            return None
        gains = m[0]
        wrote = self.rng.choice((0, gains - 2)) if gains > 2 else 0
        return _Plan(
            "ecole-impossible",
            "dropped" if not wrote else "par-moins",
            game.position.turn,
            play,
            marked=wrote,
            entitled=gains,
            detail=f"marked {wrote} of {gains}, the throw cannot be played",
        )

    def _ecole_deux_jetons(
        self, game: Game, roll: tuple[int, int], ps: PlaySet, play: Play | None, leave: bool
    ) -> _Plan | None:
        """He marks his gains with a second jeton, his old ``p`` points abandoned; the
        opponent claims ``p`` as an école des deux jetons (RULES.md §7.6, §10 D7): under
        ``ecole_deux_jetons == "ecole"`` the old points are erased and the claimant marks
        them (001 r.65; 000 ~l.758), else the claim is a fausse école that stands (003
        §195; 001 III on r.65; RULES.md §7.4).  At the table the old points go before the
        new are marked (a jeton taken off), the claim comes after the receipts."""
        m = None if leave else self._marks(game, roll, play)
        if m is None or not m[0] or not m[2]:
            return None
        gains, receipts, pr, po = m
        roller = game.position.turn
        opp = _other(roller)
        if po + pr + receipts >= _HOLE:
            return None
        ok = self.profile.ecole_deux_jetons == "ecole"
        if not ok and ((opp, pr) in self.past_claims or opp in self.any_claim):
            return None
        pre: tuple[tuple[str, str, int], ...] = (("erase", roller, pr),) if ok else ()
        post = (("mark", opp, pr),)
        if not self._order_free(game, roller, gains, receipts, pre, post, (pre + post, ())):
            return None
        return _Plan(
            "ecole-deux-jetons",
            self.profile.ecole_deux_jetons,
            roller,
            play,
            entitled=pr if ok else 0,
            shown=pr,
            claimed=True,
            edit="claims",
            claims=((opp, pr, "deux jetons"),),
            pre_ops=pre,
            post_ops=post,
            also=() if ok else (("ecole-claimed-wrongly", opp),),
            detail=f"{pr} old points left with a second jeton",
        )


class _PlayPlans(_Base):
    """Mistakes of play and decision, and the scribe's and the table's slips (RULES.md §3,
    §6, §5.5, §7.5, §9.6)."""

    def _leave_without_right(
        self, game: Game, roll: tuple[int, int], ps: PlaySet, play: Play | None, leave: bool
    ) -> _Plan | None:
        """*Je m'en vais* without a hole of his own throw; it stands (RULES.md §6.4; 003 §180)."""
        if game.can_leave(roll, None) or leave:
            return None
        if game.kind == "a-ecrire" and max(game.holes("A"), game.holes("B")) >= self.profile.marque_end_holes:
            return None
        if self._marks(game, roll, play) is None:
            return None
        return _Plan(
            "leave-without-right",
            "no-hole",
            game.position.turn,
            None,
            leave=True,
            force_leave=True,
            entitled=game.entitled(roll).mover,
            marked=None,
            detail="no hole of his own throw",
            edit="decision-leave",
        )

    def _stay_after_leave(
        self, game: Game, roll: tuple[int, int], ps: PlaySet, play: Play | None, leave: bool
    ) -> _Plan | None:
        """*Je m'en vais* said, then he plays (RULES.md §6.1; 003 §156)."""
        if not game.can_leave(roll, None):
            return None
        p = play if play is not None else choose_play(game.position, ps.plays, self.rng)
        if not game.can_leave(roll, p) or p.result[25] == 15:
            return None  # at the sortie he may bear off and leave (RULES.md §6.5; 003 §163)
        return _Plan(
            "stay-after-leave",
            "played",
            game.position.turn,
            p,
            state_change=leave,
            edit="decision-leave",
            detail="said je m'en vais, then played",
        )

    def _hole_mismatch(
        self, game: Game, roll: tuple[int, int], ps: PlaySet, play: Play | None, leave: bool
    ) -> _Plan | None:
        """The fichet moved one hole too many (RULES.md §7.5; 003 §184)."""
        if leave or play is None:
            return None
        _state, holes = game.after_gains(roll, play)
        if not holes:
            return None
        return _Plan(
            "hole-mismatch",
            "one-too-many",
            game.position.turn,
            play,
            state_change=False,
            edit="holes+1",
            detail="fichet moved one hole too many",
        )

    def _bredouille_lost(
        self, game: Game, roll: tuple[int, int], ps: PlaySet, play: Play | None, leave: bool
    ) -> _Plan | None:
        """Points marked in bredouille when his points were interrupted (RULES.md §5.2, §5.5)."""
        if leave:
            return None
        m = self._marks(game, roll, play)
        if m is None or not m[0]:
            return None
        roller = game.position.turn
        state, _ = game.after_gains(roll, play)
        if state[roller].bredouille:
            return None
        return _Plan(
            "bredouille-lost",
            "extra-jeton",
            roller,
            play,
            state_change=False,
            edit="bredouille",
            detail="marked in bredouille, points interrupted",
        )

    def _leave_at_sortie(
        self, game: Game, roll: tuple[int, int], ps: PlaySet, play: Play | None, leave: bool
    ) -> _Plan | None:
        """*Je m'en vais* at a sortie whose throw completes no hole of his: both take up
        their checkers, all points erased, so it stands (RULES.md §6.5; 003 §163, §180)."""
        if leave or game.pending_roll is not None:
            return None
        outs = [p for p in ps.plays if p.result[25] == 15]
        if not outs:
            return None
        p = play if play is not None and play in outs else self.rng.choice(outs)
        if game.can_leave(roll, p):
            return None
        if game.kind == "a-ecrire" and max(game.holes("A"), game.holes("B")) >= self.profile.marque_end_holes:
            return None  # the leave would end the marqué
        pos = game.position
        gains = score_play(pos, roll, p, self.profile).mover
        if game.score[pos.turn].points + gains >= _HOLE:
            return None
        return _Plan(
            "leave-at-sortie",
            "no-hole",
            pos.turn,
            None,
            leave=True,
            force_leave=True,
            marked=gains,
            entitled=gains,
            edit="sortie-leave",
            moves=play_moves(p, ps.unplayable),
            detail=f"bore off with {p.text()} and left without a hole",
        )

    def _missing_checker(
        self, game: Game, roll: tuple[int, int], ps: PlaySet, play: Play | None, leave: bool
    ) -> _Plan | None:
        """The scribe writes the first move from a point one away, where the player has no
        checker (RULES.md §9.6): the table played right, the record cannot go on."""
        if leave or play is None or not play.steps or game.pending_roll is not None:
            return None
        moves = play_moves(play, ps.unplayable)
        first = moves[0]
        assert isinstance(first, Move)
        me = game.position.mover
        d = first.to - first.from_
        slips = [p for p in (first.from_ - 1, first.from_ + 1) if 1 <= p and p + d <= 25 and not me[p]]
        if not slips:
            return None
        p = self.rng.choice(slips)
        wrong = (Move(p, p + d),) + moves[1:]
        return _Plan(
            "missing-checker",
            "one-point-off",
            game.position.turn,
            play,
            state_change=False,
            edit="moves",
            moves=wrong,
            stop=True,
            detail=f"{first.from_}/{first.to} written {p}/{p + d}",
        )

    def _illegal(self, game: Game, roll: tuple[int, int], ps: PlaySet) -> _Plan | None:
        pos = game.position
        ent = game.entitled(roll)
        a, b = roll
        me = pos.mover
        cands = []
        for x, y in ((a, b), (b, a)) if a != b else ((a, a),):
            for p in range(1, 25):
                if not me[p] or p + x > 25:
                    continue
                for q in range(1, 25):
                    if not me[q] or (q == p and me[p] < 2) or q + y > 25 or q == p + x:
                        continue
                    cands.append(((p, p + x), (q, q + y)))
        self.rng.shuffle(cands)
        for moves in cands[:400]:
            j = judge_play(pos, roll, list(moves), self.profile)
            if (
                j.legal
                or not j.executable
                or j.play is None
                or j.violation in ("must-fill", "must-conserve", "both-numbers", "larger-number", None)
            ):
                continue
            after = Position(j.play.result, pos.other, pos.turn)
            if after.problems():
                continue
            cs = score_play(pos, roll, j.play, self.profile)
            if cs.mover != ent.mover or cs.other != ent.other:
                continue
            return _Plan(
                "illegal-move", j.violation, pos.turn, j.play, unplayable=(), entitled=ent.mover, detail=j.violation
            )
        return None

    def _unplayed(self, game: Game, roll: tuple[int, int]) -> _Plan | None:
        """One number played when both could be (M6), or the smaller alone (M7)."""
        pos = game.position
        ent = game.entitled(roll)
        st = game.score
        me = pos.mover
        cands = [(p, x) for x in set(roll) for p in range(1, 25) if me[p] and p + x <= 25]
        self.rng.shuffle(cands)
        for p, x in cands[:60]:
            j = judge_play(pos, roll, [(p, p + x)], self.profile)
            if j.legal or not j.executable or j.play is None or j.violation not in ("both-numbers", "larger-number"):
                continue
            if Position(j.play.result, pos.other, pos.turn).problems():
                continue
            cs = score_play(pos, roll, j.play, self.profile)
            if cs.mover != ent.mover or st[pos.turn].points + cs.mover >= _HOLE:
                continue
            if st[_other(pos.turn)].points + cs.other >= _HOLE:
                continue
            return _Plan(
                "unplayed-number", j.violation, pos.turn, j.play, unplayable=(), entitled=ent.mover, detail=j.violation
            )
        return None

    def _excluded(self, kind: str, game: Game, roll: tuple[int, int], ps: PlaySet) -> _Plan | None:
        want = {
            "must-fill": ("must-fill",),
            "must-conserve": ("must-conserve",),
            "ecole-plein-not-made": ("must-fill",),
        }[kind]
        if self.compact:
            return None
        pos = game.position
        ent = game.entitled(roll)
        st = game.score
        roller = pos.turn
        opts = [p for p, why in ps.excluded() if why in want and p.steps]
        if not opts:
            return None
        play = self.rng.choice(opts)
        cs = score_play(pos, roll, play, self.profile)
        po = st[_other(roller)].points
        if st[roller].points + ent.mover >= _HOLE or po + max(cs.other, ent.other) >= _HOLE:
            return None  # no hole on either side: the école stays a plain matter of points
        if kind == "ecole-plein-not-made":
            if ent.mover <= cs.mover:
                return None
            return _Plan(
                kind,
                "marked-then-not-made",
                roller,
                play,
                marked=ent.mover,
                entitled=cs.mover,
                unplayable=(),
                detail=f"marked {ent.mover} with the plein, played {play.text()}",
            )
        if ent.mover <= cs.mover:
            return None
        return _Plan(
            kind,
            "missed",
            roller,
            play,
            marked=cs.mover,
            entitled=ent.mover,
            unplayable=(),
            detail=f"could {'fill' if kind == 'must-fill' else 'keep'}; played {play.text()}",
        )


class _Injector(_EcolePlans, _PlayPlans):
    """Plays the record's partie again with ``k`` mistakes (:func:`inject`)."""

    def plan(
        self, kind: str, game: Game, roll: tuple[int, int], ps: PlaySet, play: Play | None, leave: bool
    ) -> _Plan | None:
        """How to make a mistake of ``kind`` at this coup (None: not here)."""
        if game.ends_on_gains(roll, None):
            return None
        if kind in ("unclaimed-ecole", "ecole-par-trop", "ecole-par-moins"):
            return None if leave else self._wrong_marking(kind, game, roll, play)
        if kind == "illegal-move":
            return self._illegal(game, roll, ps)
        if kind == "unplayed-number":
            return self._unplayed(game, roll)
        if kind in ("must-fill", "must-conserve", "ecole-plein-not-made"):
            return self._excluded(kind, game, roll, ps)
        if kind == "missing-checker":
            return self._missing_checker(game, roll, ps, play, leave)
        if self.compact or kind not in _TABLE_SLIPS:
            return None
        plan: Callable[..., _Plan | None] = getattr(self, "_" + kind.replace("-", "_"))
        return plan(game, roll, ps, play, leave)

    def run(self) -> tuple[Record, list[Injected]]:
        w = self._start_walk()
        if w is None:
            return self.record, []
        while not w.game.finished:
            if w.i > 20000:
                raise InjectError("w6.inject.no_end")
            ch = self._next_throw(w)
            marque = w.game.marque if w.game.kind == "a-ecrire" else 0
            if w.late is not None and self._claim_late(w, marque):
                continue
            before_throw, plan = self._pick(w, ch)
            if before_throw is not None:
                out = self._coup_after_slip(w, before_throw, marque)
            elif plan is not None:
                out = self._planned_coup(w, plan, ch, marque)
            else:
                out = self._plain_coup(w, ch)
            w.prev = out
            w.i += 1
        return w.rb.finish(), w.out_list

    def _start_walk(self) -> _Walk | None:
        """The original game replayed (its coups and the position before each), and a new
        game to play it again with mistakes (None: the record has no coup)."""
        kind, marques = partie_kind(self.record.headers.get("Partie"))
        coups = self.record.coups
        if not coups:
            return None
        first = coups[0].side
        before = [Game(kind, self.profile, first=first, marques=marques).position]
        orig = []
        for _c, o, g in replay_record(self.record, self.profile):
            orig.append(o)
            before.append(g.position)  # the game object is shared: read its position now
        game = Game(kind, self.profile, first=first, marques=marques)
        rb = RecordBuilder(game, dict(self.record.headers), compact=self.compact)
        # targets in the first two thirds, so that the partie does not end before them
        span = range(1, max(2, (2 * len(orig)) // 3))
        targets = sorted(self.rng.sample(span, min(self.k, len(span)))) if self.k else []
        kinds = self.kinds[:]
        self.rng.shuffle(kinds)
        edit = "marque-result-mismatch" in kinds and not self.compact
        return _Walk(game, rb, orig, before, targets, kinds, marque_edit_pending=edit)

    def _bot_throw(self, game: Game) -> _Throw:
        roll, ps, play, leave, say = bot_coup(game, self.rng)
        if not leave and play is None:
            play = choose_play(game.position, ps.plays, self.rng)
        return _Throw(roll, ps, play, leave, say)

    def _next_throw(self, w: _Walk) -> _Throw:
        """The original coup while the game follows the original, else the bots' throw."""
        game = w.game
        if w.synced and (w.i >= len(w.orig) or game.position != w.before[w.i]):
            w.synced = False
        if not w.synced:
            return self._bot_throw(game)
        o = w.orig[w.i]
        ps = game.legal(o.roll)
        if o.left:
            if game.can_leave(o.roll, None):
                return _Throw(o.roll, ps, None, True, False)
        elif not o.played:
            if game.ends_on_gains(o.roll, None):
                return _Throw(o.roll, ps, o.play, False, False)
        else:
            return _Throw(o.roll, ps, o.play, False, o.pour_tout)
        w.synced = False
        return self._bot_throw(game)

    def _claim_late(self, w: _Walk, marque: int) -> bool:
        """The école left unclaimed on the last coup, claimed by the opponent after his
        throw (``ecole-too-late``); False when no throw allows it (it stays unclaimed)."""
        assert w.late is not None
        claimant, d, base = w.late
        w.late = None
        game, i = w.game, w.i
        got = self._late_throw(game, claimant, d)
        if got is None:
            return False
        roll, ps, play = got
        out = game.apply_coup(roll, play, ecoles=((claimant, d),))
        c = w.rb.coup(out, ps.unplayable)
        w.rb.add(replace(c, after=c.after + (Ecole(claimant, d, None),)), out)
        w.out_list[-1] = Injected(
            "ecole-too-late",
            base.variant,
            i,
            c.number,
            marque,
            game.releve,
            claimant,
            0,
            d,
            False,
            f"{claimant} claims {d} after throwing (the école of coup index {base.index})",
            also=(("unclaimed-ecole", base.index, base.side),),
        )
        self._note(w.out_list[-1])
        w.last, w.prev = i, out
        w.i += 1
        return True

    def _pick(self, w: _Walk, ch: _Throw) -> tuple[str | None, _Plan | None]:
        """The mistake made at this coup, if it is a target: a kind made before the throw,
        or the plan of one made in it; the kinds are tried in turn."""
        due = w.targets and w.i >= w.targets[0] and w.i - w.last >= SPACING
        if w.stopped or len(w.out_list) >= self.k or not due:
            return None, None
        kinds = w.kinds
        for kd in kinds[w.turn % len(kinds) :] + kinds[: w.turn % len(kinds)]:
            if kd == "marque-result-mismatch" or (kd == "missing-checker" and len(w.out_list) < self.k - 1):
                continue
            if kd in _BEFORE_THROW:
                if self._before_throw_ok(kd, w.game, w.rb, w.prev):
                    w.turn += 1
                    return kd, None
                continue
            plan = self.plan(kd, w.game, ch.roll, ch.ps, ch.play, ch.leave)
            if plan is not None:
                w.turn += 1
                return None, plan
        return None, None

    def _coup_after_slip(self, w: _Walk, kind: str, marque: int) -> CoupOutcome:
        """A mistake made before the throw (:meth:`_before_throw`), then the bots' coup."""
        game, rb = w.game, w.rb
        w.out_list.append(self._before_throw(kind, game, rb, w.i, marque))
        w.synced = False
        ch = self._bot_throw(game)
        out = game.apply_coup(ch.roll, ch.play, leave=ch.leave, pour_tout=ch.say)
        c = rb.coup(out, ch.ps.unplayable)
        rb.add(c, out)
        if w.out_list[-1].kind == "out-of-turn":
            w.out_list[-1] = replace(w.out_list[-1], coup=c.number)
        w.targets.pop(0)
        w.last = w.i
        return out

    def _planned_coup(self, w: _Walk, plan: _Plan, ch: _Throw, marque: int) -> CoupOutcome:
        """The coup played with the mistake of ``plan`` at the table and in the record."""
        game, i = w.game, w.i
        releve = game.releve
        game.ledger = self._apply_ops(game.ledger, plan.pre_ops)
        out = game.apply_coup(
            ch.roll,
            plan.play,
            leave=plan.leave,
            marked=plan.marked,
            received=plan.received,
            ecoles=plan.ecoles,
            force_leave=plan.force_leave,
        )
        game.ledger = self._apply_ops(game.ledger, plan.post_ops)
        c = w.rb.coup(out, plan.unplayable if plan.unplayable is not None else ch.ps.unplayable)
        c, marked = self._edit(c, plan, out)
        w.rb.add(c, out)
        also = tuple((k, i, who) for k, who in plan.also)
        w.out_list.append(
            Injected(
                plan.kind,
                plan.variant,
                i,
                c.number,
                marque,
                releve,
                plan.side,
                plan.entitled,
                marked,
                plan.claimed,
                plan.detail,
                also,
            )
        )
        self._note(w.out_list[-1])
        w.targets.pop(0)
        w.last = i
        if plan.state_change:
            w.synced = False
        if plan.late:
            w.late = (_other(plan.side), plan.late, w.out_list[-1])
        w.stopped = plan.stop
        return out

    def _plain_coup(self, w: _Walk, ch: _Throw) -> CoupOutcome:
        """A coup played right; after it, perhaps a marqué's written result made wrong."""
        out = w.game.apply_coup(ch.roll, ch.play, leave=ch.leave, pour_tout=ch.say)
        c = w.rb.coup(out, ch.ps.unplayable)
        w.rb.add(c, out)
        ended = out.marque_ended
        due = w.targets and w.i >= w.targets[0] and len(w.out_list) < self.k
        if w.marque_edit_pending and ended is not None and not ended.refait and not w.stopped and due:
            self._edit_marque(w.rb, out, w.i, c, w.out_list)
            w.targets.pop(0)
            w.marque_edit_pending = False
        return out

    def _note(self, x: Injected) -> None:
        """Remember who may claim an école of how much for mistake ``x`` (see __init__)."""
        k = x.kind
        if k in ("unclaimed-ecole", "ecole-par-trop", "ecole-par-moins", "ecole-claimed-wrongly"):
            if x.entitled is not None and x.marked is not None and x.side is not None:
                self.past_claims.add((_other(x.side), abs(x.entitled - x.marked)))
        elif k == "ecole-partial" and x.side is not None and x.entitled is not None:
            self.past_claims.add((x.side, x.entitled))
        elif k == "ecole-too-late" and x.side is not None and x.marked is not None:
            self.past_claims.add((_other(x.side), x.marked))
        elif k == "ecole-deux-jetons" and x.also and x.side is not None and x.marked is not None:
            self.past_claims.add((x.side, x.marked))
        elif k in ("must-fill", "must-conserve", "ecole-plein-not-made", "ecole-impossible") and x.side:
            self.any_claim.add(_other(x.side))

    def _late_throw(self, game: Game, claimant: str, d: int) -> tuple[tuple[int, int], PlaySet, Play] | None:
        """A throw for ``claimant``'s next coup on which he marks plainly (no hole, no
        leave) and his late claim of ``d`` makes no hole either; None if none."""
        if game.finished or game.turn != claimant or game.pending_roll is not None:
            return None
        rolls = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
        self.rng.shuffle(rolls)
        for roll in rolls:
            if game.can_leave(roll, None) or game.ends_on_gains(roll, None):
                continue
            ps = game.legal(roll)
            play = choose_play(game.position, ps.plays, self.rng)
            m = self._marks(game, roll, play)
            if m is not None and m[2] + m[0] + d < _HOLE and play.result[25] != 15:
                return roll, ps, play
        return None

    def _before_throw_ok(self, kind: str, game: Game, rb: RecordBuilder, prev: Any) -> bool:
        """Can ``kind`` be made before this throw?  Out of turn: inside a relevé, or at
        the start of one after a leave or a sortie (the primauté is known, RULES.md §9.3;
        not at a new marqué).  Relevé without leave: after a coup with moves (so that a
        compact record cannot read it as a leave) inside a relevé."""
        if prev is None or game.pending_roll is not None or game.finished:
            return False
        if kind == "out-of-turn":
            return rb.number >= 1 or (prev.releve_ended and prev.marque_ended is None)
        return rb.number >= 1 and prev.play is not None and bool(prev.play.steps)

    def _before_throw(self, kind: str, game: Game, rb: RecordBuilder, i: int, marque: int) -> Injected:
        """Make ``kind`` at the table before coup ``i`` is thrown."""
        if kind == "out-of-turn":
            # the one who has just thrown (or who has not the primauté) throws: it stands (003 §28)
            variant = "alternation" if rb.number else "primaute"
            game.position = game.position.swapped()
            return Injected(
                kind,
                variant,
                i,
                0,
                marque,
                game.releve,
                game.position.turn,
                detail=f"{game.position.turn} throws out of turn ({variant})",
            )
        # the checkers taken up though nobody left or bore off; the score stands (003 §155, §162)
        game.position = start_position(game.position.turn)
        game.releve += 1
        rb.record.elements.append(ReleveStart(game.releve))
        rb.number = 0
        return Injected(
            kind,
            "taken-up",
            -1,
            0,
            marque,
            game.releve,
            None,
            detail=f"relevé {game.releve} begun before coup index {i}: nobody left, nobody bore off",
        )


# --- rewriting a coup's tokens and finding elements, through notation's visitor ---------

_Tok = TypeVar("_Tok")


def _rewritten(tokens: tuple[_Tok, ...], visitor: ActionVisitor[tuple[_Tok, ...]]) -> tuple[_Tok, ...]:
    """The tokens of a coup, each replaced by what ``visitor`` returns for it (``()``
    drops it); a token the visitor returns None for is kept."""
    out: list[_Tok] = []
    for token in tokens:
        new = visit_action(token, visitor)
        out.extend((token,) if new is None else new)
    return tuple(out)


class _DropMarksOf(ActionVisitor[tuple[Action, ...]]):
    """Drops the marks of one side (an école rewrites the roller's mark)."""

    def __init__(self, side: str) -> None:
        self.side = side

    def visit_mark(self, mark: Mark) -> tuple[Action, ...] | None:
        return () if mark.who == self.side else None


class _DropDecisions(ActionVisitor[tuple[Action, ...]]):
    """Drops the decisions (a leave is written in their place)."""

    def visit_decision(self, decision: Decision) -> tuple[Action, ...]:
        return ()


class _FirstMarkOf(ActionVisitor[tuple[Action, ...]]):
    """Changes the first mark of ``side``: ``"holes+1"`` the first with holes moves the
    fichet one hole too many (RULES.md §7.5), ``"bredouille"`` the first is written in
    bredouille (§5.5).  ``points`` = the points of the mark changed (None: none was)."""

    def __init__(self, side: str, edit: str) -> None:
        self.side = side
        self.edit = edit
        self.points: int | None = None

    def visit_mark(self, mark: Mark) -> tuple[Action, ...] | None:
        if self.points is not None or mark.who != self.side:
            return None
        if self.edit == "holes+1":
            if not mark.holes:
                return None
            self.points = mark.points
            return (replace(mark, holes=mark.holes + 1),)
        self.points = mark.points
        return (replace(mark, bredouille=True),)


class _DropCannotPlay(ActionVisitor[tuple[Move | CannotPlay, ...]]):
    """Drops the *cannot play* tokens (an illegal play is written as played)."""

    def visit_cannot_play(self, token: CannotPlay) -> tuple[Move | CannotPlay, ...]:
        return ()


class _MarqueResultFinder(RecordVisitor[MarqueResult]):
    """Finds a marqué's written result among the elements of a record."""

    def visit_marque_result(self, result: MarqueResult) -> MarqueResult:
        return result


def inject(
    record: Record,
    k: int,
    rng: random.Random,
    kinds: Sequence[str] | None = None,
    profile: Profile | None = None,
) -> tuple[Record, list[Injected]]:
    """Put ``k`` table mistakes into a correct ``record`` (see the module docstring).

    ``kinds`` restricts the kinds (default: all the record's mode allows); the kinds
    are used in turn, each where the game allows it, at least :data:`SPACING` coups
    apart.  Fewer than ``k`` mistakes are made when the partie ends first.

    :raises InjectError: an unknown kind, or a record perfect play cannot explain.
    """
    allowed = COMPACT_KINDS if record.mode == "compact" else INJECT_KINDS
    if kinds is None:
        kinds = allowed
    for kd in kinds:
        if kd not in INJECT_KINDS:
            raise InjectError("w6.inject.unknown_kind", kind=repr(kd), known=", ".join(INJECT_KINDS))
    kinds = [kd for kd in kinds if kd in allowed]
    if not kinds:
        raise InjectError("w6.inject.none_fits", mode=record.mode)
    if k < 0:
        raise InjectError("w6.inject.negative")
    from ...notation.reader import parse_partie

    parsed = parse_partie(record.headers.get("Partie") or "douze-trous")
    if parsed is not None and parsed[0] not in ("douze-trous", "a-ecrire"):
        raise InjectError("w6.inject.partie_kind", kind=parsed[0])
    if profile is None:
        name = record.headers.get("Profile")
        profile = find_profile(name) if name else find_profile(None)
    try:
        return _Injector(record, k, rng, kinds, profile).run()
    except GameFlowError as e:
        raise InjectError("w6.inject.not_perfect", error=e) from None
