"""The evaluator: what a game is worth from here to one side (issue 29).

Three layers, as the treatises reason (003 §256-263: the chances of each throw out of
36; art. 293, 331: a play is judged by what the throws that follow may bring):

1. :meth:`Evaluator.static` — the value of a state without looking at any throw: the
   position's worth in points (``position_value``: a linear function of the books'
   features, :mod:`.features`, fitted on self-play by :mod:`.train`) joins the score
   (holes, points, bredouille) in a logistic model of the chance to win the partie
   (or, à écrire, the marqué), also fitted on self-play.
2. :meth:`Evaluator.before_throw` — the value before the side to move throws: the
   average over the 21 throws, simple throws weighted 2/36 and doublets 1/36, of the
   best choice of that throw (each legal play, and s'en aller when the throw completes
   a hole), each choice valued by (1).
3. :meth:`Evaluator.rank` — the choices of one throw, each valued by (2) for the state
   it leaves: the opponent's 21 replies (or one's own next throw after leaving or a
   sortie, which give the primauté), each answered by his best choice by (1).

Values are :class:`Value` pairs from one side's point of view: ``win``, the chance to
win the partie (douze trous) or the marqué being played (à écrire), and ``equity``, the
expected result in the unit the partie is won in: the stake times its multiplier en
douze trous (RULES.md §8.1: ``2·win - 1`` when the partie is played without bredouille,
the default), the marqué's value à écrire (§8.2).  A finished partie (or marqué) is
worth exactly its result.  The choices of a throw are taken from the rules engine
(``replay.rules.moves.legal_plays``, ``replay.rules.game.Game.apply_coup``): the course of a coup,
its marks, holes, bredouille, leave and sortie are the rules' own.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, NamedTuple

from ..replay.rules import course
from ..replay.rules.game import Game
from ..replay.rules.moves import ROLLS, Play
from ..replay.rules.partie import PartieError, marque_value, twelve_hole_multiplier
from ..replay.rules.position import other_side
from .features import POSITION_FEATURES, position_features

__all__ = [
    "Value",
    "Choice",
    "Ranked",
    "Evaluator",
    "SCORE_FEATURES",
    "WEIGHT",
    "load_evaluator",
    "choices",
    "after",
]

#: weight of each of the 21 throws out of 36: a simple throw comes two ways, a doublet one
WEIGHT = {r: (1 if r[0] == r[1] else 2) / 36 for r in ROLLS}

SCORE_FEATURES = ("holes", "mover_points", "other_points", "mover_bredouille", "other_bredouille", "position", "move")


class Value(NamedTuple):
    """Chance to win (0..1) and equity (in the partie's unit), for one side."""

    win: float
    equity: float


class Choice(NamedTuple):
    """One choice of a throw: a play (None when he leaves) and the decision."""

    play: Play | None
    leave: bool


@dataclass(frozen=True, slots=True)
class Ranked:
    """One choice of a throw with its value for the roller."""

    choice: Choice
    value: Value
    points: int  # the roller's gains of the throw with this choice
    given: int  # points the throw gives the opponent
    depth: int  # 0: static without the next throw; 1: static; 2: by the throws that follow
    reply_points: float | None = None  # the opponent's average gains on his reply (depth 2)
    reply_hit: float | None = None  # chance (out of 36) his reply hits à vrai (depth 2)

    def moves(self) -> list[list[int]]:
        return [] if self.choice.play is None else self.choice.play.moves()

    def text(self) -> str:
        if self.choice.leave:
            return "s'en aller"
        return "-" if self.choice.play is None else self.choice.play.text()


def choices(game: Game, roll: tuple[int, int]) -> list[Choice]:
    """Every choice the rules leave the roller (RULES.md §3.6-3.7, §6.1): each legal
    play (staying, when he completes a hole), and leaving when his gains give the right.
    A throw whose gains end a partie en douze trous has one outcome (nothing is played)."""
    if game.kind == course.DOUZE_TROUS and game.ends_on_gains(roll):
        return [Choice(None, False)]
    plays = game.legal(roll).plays
    out = [Choice(p, False) for p in plays] or [Choice(None, False)]
    if game.can_leave(roll, None):
        out.append(Choice(None, True))
    return out


def after(game: Game, roll: tuple[int, int], choice: Choice) -> tuple[Game, Any]:
    """The game after the roller's choice (a copy) and the coup's outcome."""
    g = game.copy()
    out = g.apply_coup(roll, choice.play, leave=choice.leave)
    return g, out


class Evaluator:
    """The evaluator with its fitted weights (:func:`load_evaluator` reads the shipped
    ones; :mod:`.train` fits them)."""

    def __init__(
        self,
        position_weights: Sequence[float],
        score_weights: Sequence[float],
        meta: dict[str, Any] | None = None,
        cheap_weights: Sequence[float] | None = None,
    ) -> None:
        cheap = position_weights if cheap_weights is None else cheap_weights
        if len(position_weights) != len(POSITION_FEATURES) or len(cheap) != len(POSITION_FEATURES):
            raise ValueError("weights do not match the features")
        if len(score_weights) != len(SCORE_FEATURES):
            raise ValueError("weights do not match the features")
        self.pw = [float(x) for x in position_weights]
        self.cw = [float(x) for x in cheap]
        self.sw = [float(x) for x in score_weights]
        self.meta = dict(meta or {})

    # -- (1) static ---------------------------------------------------------------------
    def position_value(self, game: Game, *, throw: bool = True) -> float:
        """The position's worth in points to the side to move (his expected points
        less his opponent's over the coups to come in this relevé).  ``throw`` False:
        without the exact average of the next throw (cheaper; to order choices)."""
        f = position_features(game.position, game.profile, throw=throw)
        return sum(w * x for w, x in zip(self.pw if throw else self.cw, f))

    def mover_win(self, game: Game, vpos: float | None = None, *, throw: bool = True) -> float:
        """The chance that the side to move wins (the partie, or à écrire the marqué)."""
        st = game.ledger.state
        m = game.position.turn
        me, op = st[m], st[other_side(m)]
        target = 12 if game.kind == course.DOUZE_TROUS else game.profile.marque_end_holes
        remaining = max(1, 2 * target - me.holes - op.holes)
        s = 1.0 / math.sqrt(remaining)
        v = self.position_value(game, throw=throw) if vpos is None else vpos
        x = (
            (me.holes - op.holes) * s,
            me.points / 12 * s,
            op.points / 12 * s,
            (me.points / 12 if me.bredouille else 0.0) * s,
            (op.points / 12 if op.bredouille else 0.0) * s,
            v / 12 * s,
            s,
        )
        z = sum(w * xi for w, xi in zip(self.sw, x))
        if z > 40:
            return 1.0
        if z < -40:
            return 0.0
        return 1.0 / (1.0 + math.exp(-z))

    def static(self, game: Game, side: str, marque: int | None = None, *, throw: bool = True) -> Value:
        """The value of ``game`` to ``side`` without looking at any throw but the
        average of the next one (``throw`` False: not even that, to order choices).
        ``marque`` (à écrire): the marqué being judged; once over, its result."""
        end = terminal(game, side, marque)
        if end is not None:
            return end
        p = self.mover_win(game, throw=throw)
        if game.position.turn != side:
            p = 1.0 - p
        return Value(p, equity(game, side, p))

    # -- (2) before the throw -------------------------------------------------------------
    def best_static(self, game: Game, roll: tuple[int, int], marque: int | None = None) -> tuple[Choice, Value, Any]:
        """The roller's best choice of ``roll`` and its :meth:`static` value and outcome.
        The choices are ordered by the static value without the next throw's average
        (cheap); the best of them is then valued with it."""
        roller = game.position.turn
        best: tuple[Choice, Value, Any, Game] | None = None
        for ch in choices(game, roll):
            g, out = after(game, roll, ch)
            v = self.static(g, roller, marque, throw=False)
            if best is None or v.equity > best[1].equity or (v.equity == best[1].equity and v.win > best[1].win):
                best = (ch, v, out, g)
        assert best is not None
        return best[0], self.static(best[3], roller, marque), best[2]

    def before_throw(self, game: Game, side: str, marque: int | None = None) -> Value:
        """The value to ``side`` before the side to move throws: the 1/36- and
        2/36-weighted average over the 21 throws of the roller's best choice."""
        end = terminal(game, side, marque)
        if end is not None:
            return end
        if marque is None and game.kind != course.DOUZE_TROUS:
            marque = game.marque
        roller = game.position.turn
        win = eq = 0.0
        rolls = ((game.pending_roll, 1.0),) if game.pending_roll else WEIGHT.items()
        for roll, w in rolls:
            _, v, _ = self.best_static(game, roll, marque)
            win += w * v.win
            eq += w * v.equity
        if roller != side:
            win, eq = 1.0 - win, -eq
        return Value(win, eq)

    # -- (3) ranking the choices of a throw ----------------------------------------------
    def rank(
        self,
        game: Game,
        roll: tuple[int, int],
        *,
        depth: int = 2,
        keep: int | None = None,
        full: int | None = None,
        must: Sequence[Choice] = (),
    ) -> list[Ranked]:
        """The roller's choices of ``roll``, best first.

        Every choice is first valued by :meth:`static` without the next throw's average
        (cheap); the ``full`` best of them (all when None) are valued by :meth:`static`;
        with ``depth`` 2 the ``keep`` best of those (all when None) are valued again by
        the throws that follow (:meth:`before_throw` of the state left).  Choices in
        ``must`` (the written play) are always valued at ``depth``.  The result lists
        the deepest-valued first (``Ranked.depth`` 2, then 1, then 0), each best first.
        """
        roller = game.position.turn
        marque = None if game.kind == course.DOUZE_TROUS else game.marque
        cheap: list[tuple[Choice, Game, Any, Value]] = []
        for ch in choices(game, roll):
            g, out = after(game, roll, ch)
            cheap.append((ch, g, out, self.static(g, roller, marque, throw=False)))
        cheap.sort(key=lambda t: (-t[3].equity, -t[3].win))
        levels: list[list[Ranked]] = [[], [], []]
        static: list[tuple[Choice, Game, Any, Value]] = []
        for i, (ch, g, out, v) in enumerate(cheap):
            given = 0 if out.left else out.score.other
            if full is None or i < full or ch in must:
                static.append((ch, g, out, self.static(g, roller, marque)))
            else:
                levels[0].append(Ranked(ch, v, out.score.mover, given, 0))
        static.sort(key=lambda t: (-t[3].equity, -t[3].win))
        for i, (ch, g, out, v) in enumerate(static):
            given = 0 if out.left else out.score.other
            if depth >= 2 and (keep is None or i < keep or ch in must):
                v2, rp, rh = self._replies(g, roller, marque)
                levels[2].append(Ranked(ch, v2, out.score.mover, given, 2, rp, rh))
            else:
                levels[1].append(Ranked(ch, v, out.score.mover, given, 1))
        out_list: list[Ranked] = []
        for level in reversed(levels):
            level.sort(key=lambda r: (-r.value.equity, -r.value.win))
            out_list.extend(level)
        return out_list

    def _replies(self, g: Game, side: str, marque: int | None) -> tuple[Value, float | None, float | None]:
        """:meth:`before_throw` of ``g`` for ``side``, with the next roller's average
        gains and his chance (out of 36) to hit à vrai, when he is the opponent."""
        end = terminal(g, side, marque)
        if end is not None:
            return end, 0.0, 0.0
        roller = g.position.turn
        win = eq = pts = hit = 0.0
        rolls = ((g.pending_roll, 1.0),) if g.pending_roll else WEIGHT.items()
        for roll, w in rolls:
            _, v, out = self.best_static(g, roll, marque)
            win += w * v.win
            eq += w * v.equity
            pts += w * out.score.mover
            if any(e.kind == "battre-a-vrai" for e in out.score.events):
                hit += w * 36
        if roller != side:
            return Value(1.0 - win, -eq), pts, hit
        return Value(win, eq), None, None


def terminal(game: Game, side: str, marque: int | None) -> Value | None:
    """The value of a finished partie (or of the marqué ``marque`` once decided)."""
    if game.kind == course.DOUZE_TROUS:
        if not game.finished:
            return None
        st = game.ledger.state
        w = game.winner
        if w is None:
            return Value(0.5, 0.0)
        loser = other_side(w)
        m = twelve_hole_multiplier(max(12, st[w].holes), min(11, st[loser].holes), st[w].pavillon, game.profile)
        return Value(1.0, float(m)) if w == side else Value(0.0, -float(m))
    if marque is None:
        marque = game.marque
    if len(game.marque_results) < marque:
        return None
    mo = game.marque_results[marque - 1]
    if mo.winner is None or mo.value is None:
        return Value(0.5, 0.0)
    return Value(1.0, float(mo.value)) if mo.winner == side else Value(0.0, -float(mo.value))


def equity(game: Game, side: str, p: float) -> float:
    """The expected result to ``side`` who wins with chance ``p``, the multiplier or
    the marqué's value read from the score as it stands (RULES.md §8.1-8.2)."""
    st = game.ledger.state
    me, op = st[side], st[other_side(side)]
    prof = game.profile
    if game.kind == course.DOUZE_TROUS:
        if prof.twelve_hole_multiplier == "none":
            return 2.0 * p - 1.0
        win = twelve_hole_multiplier(12, min(11, op.holes), me.pavillon or op.holes == 0, prof)
        lose = twelve_hole_multiplier(12, min(11, me.holes), op.pavillon or me.holes == 0, prof)
        return p * win - (1.0 - p) * lose
    end = prof.marque_end_holes
    return p * _marque(max(end, me.holes + 1), op.holes, me.pavillon or op.holes == 0, game) - (1.0 - p) * _marque(
        max(end, op.holes + 1), me.holes, op.pavillon or me.holes == 0, game
    )


def _marque(w: int, lo: int, pavillon: bool, game: Game) -> float:
    try:
        return float(marque_value(w, min(lo, w - 1), pavillon, game.refaits, game.profile).value)
    except PartieError:
        return float(w + 2 - lo)


_SHIPPED: Evaluator | None = None


def load_evaluator(path: str | None = None) -> Evaluator:
    """The evaluator with the shipped weights (``weights.json`` beside this module), or
    those of ``path`` (written by ``python -m trictrac.analysis.train``)."""
    global _SHIPPED
    if path is None and _SHIPPED is not None:
        return _SHIPPED
    if path is None:
        text = resources.files(__package__).joinpath("weights.json").read_text(encoding="utf-8")
    else:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    data = json.loads(text)
    ev = Evaluator(
        [data["position"][n] for n in POSITION_FEATURES],
        [data["score"][n] for n in SCORE_FEATURES],
        {k: v for k, v in data.items() if k not in ("position", "score", "cheap")},
        [data["cheap"][n] for n in POSITION_FEATURES] if "cheap" in data else None,
    )
    if path is None:
        _SHIPPED = ev
    return ev
