"""Fit the evaluator's weights on self-play (``python -m trictrac.analysis.train``).

Reproducible: the same options give the same ``weights.json`` (the parties are played
from ``--seed``; numpy's least squares and the logistic fit are deterministic).

* **Games.**  Round 1: the project's heuristic bot (``replay.generate.selfplay.bot_coup``)
  plays both sides of ``--games`` parties en douze trous; each further round
  (``--rounds``) plays them again with the evaluator just fitted (the ``analyse``
  player, static value), so that the positions and the leaves are those of better play.
* **The position's worth** (stage A, a TD(1)-like regression): for every state before
  a throw, the points the side to move will mark less those his opponent will mark,
  coup after coup until the relevé ends, each coup discounted by ``--gamma``; least
  squares (ridge ``--ridge``) of that on the features of :mod:`.features` — once with
  all of them, once without the next throw's average (the cheap value that orders the
  choices before the best are valued fully).
* **The chance to win** (stage B): a logistic regression of "the side to move won the
  partie" on the score (holes, points, bredouille) and the position's worth, each
  divided by the square root of the holes still to play (a race to twelve narrows as
  it nears its end), fitted by Newton's method (IRLS).

Writes ``analysis/weights.json`` (``-o`` elsewhere) with the options, the number of
states, and the fit's measures.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from ..notation.textio import atomic_write_text
from ..replay.generate.selfplay import BotCoup, bot_coup
from ..replay.rules.game import Game
from ..replay.rules.position import other_side
from .evaluator import SCORE_FEATURES, Evaluator
from .features import POSITION_FEATURES, THROW_FEATURES, position_features
from .player import analyse_bot

__all__ = ["collect", "fit_position", "fit_win", "train", "main"]

#: 1 for the features the cheap value uses (all but the next throw's average)
_CHEAP_MASK = np.array([0.0 if n in THROW_FEATURES else 1.0 for n in POSITION_FEATURES])


def collect(games: int, seed: int, bot: BotCoup, *, offset: int = 0) -> dict[str, np.ndarray]:
    """States before each throw of ``games`` parties en douze trous played by ``bot``:
    features, score, the discounted net points are filled in by :func:`fit_position`."""
    feats: list[list[float]] = []
    score: list[tuple[float, ...]] = []
    net: list[float] = []  # the coup's points, side to move's less his opponent's
    releve: list[int] = []  # a number per relevé (the discounted sum stops at its end)
    won: list[float] = []
    rid = 0
    for i in range(games):
        rng = random.Random(f"train:{seed}:{i + offset}")
        dice = random.Random(rng.getrandbits(64))
        game = Game("douze-trous", first="A" if rng.random() < 0.5 else "B")
        movers: list[str] = []
        while not game.finished:
            st = game.ledger.state
            m = game.position.turn
            me, op = st[m], st[other_side(m)]
            feats.append(position_features(game.position))
            score.append((me.holes, op.holes, me.points, op.points, float(me.bredouille), float(op.bredouille)))
            movers.append(m)
            releve.append(rid)
            roll, _ps, play, leave, _say = bot(game, rng, dice=dice)
            out = game.apply_coup(roll, play, leave=leave)
            net.append(float(out.gains - out.receipts))
            if out.releve_ended or out.marque_ended is not None:
                rid += 1
            if game.coups > 5000:
                raise RuntimeError("train: a partie did not end")
        rid += 1
        won.extend(1.0 if m == game.winner else 0.0 for m in movers)
    return {
        "features": np.array(feats),
        "score": np.array(score),
        "net": np.array(net),
        "releve": np.array(releve),
        "won": np.array(won),
    }


def discounted(net: np.ndarray, releve: np.ndarray, gamma: float) -> np.ndarray:
    """For each state, the coup's net points and those of the coups after it in the
    same relevé, discounted by ``gamma`` a coup and seen from each mover in turn (the
    opponent's net is the negative of one's own: the sides alternate, except after a
    leave or a sortie, which end the relevé)."""
    out = np.zeros(len(net))
    acc = 0.0
    for t in range(len(net) - 1, -1, -1):
        if t == len(net) - 1 or releve[t + 1] != releve[t]:
            acc = 0.0
        acc = net[t] - gamma * acc  # the next state is the opponent's
        out[t] = acc
    return out


def fit_position(data: dict[str, np.ndarray], gamma: float, ridge: float) -> tuple[np.ndarray, dict[str, float]]:
    """Stage A: least squares of the discounted net points on the features."""
    x = data["features"]
    y = discounted(data["net"], data["releve"], gamma)
    a = x.T @ x + ridge * np.eye(x.shape[1])
    w = np.linalg.solve(a, x.T @ y)
    pred = x @ w
    r2 = 1.0 - float(np.var(y - pred)) / float(np.var(y))
    return w, {"r2": round(r2, 4), "target_sd": round(float(np.std(y)), 3)}


def score_matrix(score: np.ndarray, vpos: np.ndarray) -> np.ndarray:
    """The logistic model's inputs (:data:`SCORE_FEATURES`), as
    :meth:`Evaluator.mover_win` computes them."""
    hm, ho, pm, po, bm, bo = (score[:, i] for i in range(6))
    s = 1.0 / np.sqrt(np.maximum(1.0, 24.0 - hm - ho))
    return np.stack([(hm - ho) * s, pm / 12 * s, po / 12 * s, bm * pm / 12 * s, bo * po / 12 * s, vpos / 12 * s, s], 1)


def fit_win(x: np.ndarray, y: np.ndarray, iterations: int = 30) -> tuple[np.ndarray, dict[str, float]]:
    """Stage B: logistic regression by Newton's method (a small ridge keeps it stable)."""
    w = np.zeros(x.shape[1])
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        g = x.T @ (y - p) - 1e-3 * w
        h = (x * (p * (1 - p))[:, None]).T @ x + 1e-3 * np.eye(x.shape[1])
        step = np.linalg.solve(h, g)
        w = w + step
        if float(np.max(np.abs(step))) < 1e-9:
            break
    p = np.clip(1.0 / (1.0 + np.exp(-(x @ w))), 1e-9, 1 - 1e-9)
    loss = float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
    return w, {"log_loss": round(loss, 4), "brier": round(float(np.mean((p - y) ** 2)), 4)}


def train(
    games: int, seed: int, rounds: int = 2, gamma: float = 0.9, ridge: float = 1.0, log: Any = None
) -> dict[str, Any]:
    """Play, fit, play again with the fit: the weights as ``weights.json`` stores them."""
    bot: BotCoup = bot_coup
    out: dict[str, Any] = {}
    for rnd in range(1, rounds + 1):
        t0 = time.perf_counter()
        data = collect(games, seed, bot, offset=(rnd - 1) * games)
        pw, a_fit = fit_position(data, gamma, ridge)
        # the cheap value (to order choices): the same fit without the next throw's average
        cheap_data = dict(data)
        cheap_data["features"] = data["features"] * _CHEAP_MASK
        cw, c_fit = fit_position(cheap_data, gamma, ridge)
        vpos = data["features"] @ pw
        sw, b_fit = fit_win(score_matrix(data["score"], vpos), data["won"])
        out = {
            "version": 1,
            "command": f"python -m trictrac.analysis.train --games {games} --seed {seed} --rounds {rounds}"
            + (f" --gamma {gamma}" if gamma != 0.9 else "")
            + (f" --ridge {ridge}" if ridge != 1.0 else ""),
            "games_per_round": games,
            "states": int(len(data["won"])),
            "position_fit": a_fit,
            "cheap_fit": c_fit,
            "win_fit": b_fit,
            "position": {n: round(float(v), 6) for n, v in zip(POSITION_FEATURES, pw)},
            "cheap": {n: round(float(v), 6) for n, v in zip(POSITION_FEATURES, cw)},
            "score": {n: round(float(v), 6) for n, v in zip(SCORE_FEATURES, sw)},
        }
        if log:
            print(
                f"round {rnd}: {len(data['won'])} states, {a_fit}, {b_fit}, {time.perf_counter() - t0:.0f} s", file=log
            )
        ev = Evaluator([out["position"][n] for n in POSITION_FEATURES], [out["score"][n] for n in SCORE_FEATURES], out)
        bot = analyse_bot(ev)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m trictrac.analysis.train", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1500, help="parties per round (default 1500)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=2, help="rounds of play and fit (default 2)")
    ap.add_argument("--gamma", type=float, default=0.9, help="discount per coup of the points to come")
    ap.add_argument("--ridge", type=float, default=1.0)
    ap.add_argument("-o", "--output", type=Path, default=Path(__file__).with_name("weights.json"))
    a = ap.parse_args(argv)
    if a.games < 1 or a.rounds < 1 or not (0.0 < a.gamma <= 1.0) or math.isnan(a.ridge):
        print("train: --games and --rounds must be >= 1, --gamma in (0, 1]", file=sys.stderr)
        return 2
    weights = train(a.games, a.seed, a.rounds, a.gamma, a.ridge, log=sys.stderr)
    atomic_write_text(a.output, json.dumps(weights, indent=1) + "\n")
    print(f"weights -> {a.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
