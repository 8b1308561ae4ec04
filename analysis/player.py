"""Players for ``trictrac selfplay --bot NAME`` and the match (:mod:`.match`).

* ``heuristic`` — the project's bot (``replay.generate.selfplay.bot_coup``: a one-throw
  evaluation of the pleins, the coin and the checkers exposed, and a stated rule for
  s'en aller / rester);
* ``random`` — a legal play drawn at random, leaving at random when it may;
* ``analyse`` — the evaluator (:mod:`.evaluator`): every choice of the throw (each
  legal play, and leaving when the throw completes a hole) valued by the evaluator's
  static value of the state it leaves (first without the average of the next throw,
  then, for the best :data:`FULL`, with it); the best few are valued again one throw
  deeper (the opponent's 21 replies) when ``deep`` > 0.

Each is a function with :func:`~trictrac.replay.generate.selfplay.bot_coup`'s signature.
"""

from __future__ import annotations

import random
from typing import Any

from ..replay.generate.selfplay import BotCoup, bot_coup
from ..replay.rules.game import Game
from ..replay.rules.moves import Play, PlaySet
from .evaluator import Evaluator, load_evaluator

__all__ = ["BOTS", "make_bot", "analyse_bot", "random_bot", "throw"]

BOTS = ("heuristic", "random", "analyse")

#: choices valued with the next throw's exact average (the others: without it)
FULL = 3


def throw(rng: random.Random) -> tuple[int, int]:
    """Two dice, larger first (the same draws as ``replay.generate.selfplay``)."""
    a, b = rng.randint(1, 6), rng.randint(1, 6)
    return (a, b) if a >= b else (b, a)


def random_bot(
    game: Game, rng: random.Random, *, pour_tout: bool = False, dice: random.Random | None = None
) -> tuple[tuple[int, int], PlaySet, Play | None, bool, bool]:
    roll = game.pending_roll or throw(dice or rng)
    ps = game.legal(roll)
    play = rng.choice(ps.plays) if ps.plays else None
    leave = game.can_leave(roll, None) and rng.random() < 0.5
    return roll, ps, None if leave else play, leave, False


def analyse_bot(evaluator: Evaluator | None = None, *, deep: int = 0) -> BotCoup:
    """The evaluator's player; ``deep`` = how many of the best choices by the static
    value are valued again by the 21 replies (0: none, the fast player of the match)."""
    ev = evaluator or load_evaluator()

    def coup(
        game: Game, rng: random.Random, *, pour_tout: bool = False, dice: random.Random | None = None
    ) -> tuple[tuple[int, int], PlaySet, Play | None, bool, bool]:
        roll = game.pending_roll or throw(dice or rng)
        ps = game.legal(roll)
        if deep:
            best = ev.rank(game, roll, depth=2, keep=deep, full=max(deep, FULL))[0].choice
        else:
            best = ev.rank(game, roll, depth=1, full=FULL)[0].choice
        return roll, ps, best.play, best.leave, False

    return coup


def make_bot(name: str, **options: Any) -> BotCoup:
    """The bot called ``name`` (:data:`BOTS`)."""
    if name == "heuristic":
        return bot_coup
    if name == "random":
        return random_bot
    if name == "analyse":
        return analyse_bot(**options)
    raise ValueError(f"unknown bot {name!r}; known: {', '.join(BOTS)}")
