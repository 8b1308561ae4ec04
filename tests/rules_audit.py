"""How much the corrected P3 and M13 (issue 13 §1-§2) change the engine's answers.

Plays self-play games (the bots of :mod:`trictrac.replay.generate.selfplay`, moving with the
engine named by ``--games-by``), keeps the middle-game positions (each side past
its fourth coup of the relevé) and compares, throw by throw (the 36 outcomes of two
dice, a simple roll weighing 2, a doublet 1):

* ``old``: the engine before the correction, ``replay/rules/moves.py`` and
  ``replay/rules/scoring.py`` of commit ``d23f60d`` loaded as separate modules;
* ``new``: this working tree (lelasseux-1852);
* ``new+D33``: this tree with ``score_remplir_en_passant`` on — it differs from
  ``old`` by P3 alone, and from ``new`` by M13 alone.

A throw counts as *plays differ* when the set of resulting positions of its legal
plays differs, *points differ* when the points of either side (``score_roll``)
differ.  Run::

    python tests/rules_audit.py [--games 60] [--seed 1] [--games-by new|old]
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import subprocess
import sys
import types
from dataclasses import replace
from pathlib import Path

from trictrac.replay.generate.selfplay import choose_play
from trictrac.replay.rules import moves as new_moves
from trictrac.replay.rules import scoring as new_scoring
from trictrac.replay.rules.position import Position, start_position
from trictrac.replay.rules.profiles import DEFAULT_PROFILE

ROOT = Path(__file__).resolve().parents[1]
OLD_COMMIT = "d23f60d"


def _load(name: str, source: str) -> types.ModuleType:
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # NamedTuple and dataclasses look their module up
    exec(compile(source, f"<{OLD_COMMIT}:{name}>", "exec"), mod.__dict__)
    return mod


def old_engine(commit: str = OLD_COMMIT) -> tuple[types.ModuleType, types.ModuleType]:
    """``(moves, scoring)`` of ``commit``, its scoring wired to its own moves."""

    def show(path: str) -> str:
        return subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{commit}:{path}"], check=True, capture_output=True, text=True
        ).stdout

    moves = _load("_audit_old_moves", show("replay/rules/moves.py"))
    src = show("replay/rules/scoring.py").replace(
        "from trictrac.replay.rules.moves import", "from _audit_old_moves import"
    )
    return moves, _load("_audit_old_scoring", src)


def positions(games: int, seed: int, moves_mod, scoring_mod, plies: int = 400) -> list[Position]:
    """Middle-game positions of self-play relevés (both sides past their 4th coup)."""
    rng = random.Random(seed)
    out: list[Position] = []
    for _ in range(games):
        pos = start_position(rng.choice("AB"))
        for _ in range(plies):
            a, b = rng.randint(1, 6), rng.randint(1, 6)
            roll = (max(a, b), min(a, b))
            ps = moves_mod.legal_plays(pos, roll, DEFAULT_PROFILE)
            play = choose_play(pos, ps.plays, rng) if ps.plays else None
            if play is None or play.result[25] == 15:
                break
            pos = scoring_mod.next_position(pos, roll, play, DEFAULT_PROFILE)
            if pos.mover_coups >= 4 and pos.other_coups >= 4:
                out.append(pos)
    return out


def compare(positions_: list[Position], left, right) -> tuple[int, int, int]:
    """(throws, plays differ, points differ), weighted out of 36 per position.
    ``left``/``right``: ``(moves module, scoring module, profile)``."""
    total = plays = points = 0
    for pos in positions_:
        for roll in new_moves.ROLLS:
            w = 1 if roll[0] == roll[1] else 2
            total += w
            sides = []
            for mv, sc, prof in (left, right):
                ps = mv.legal_plays(pos, roll, prof)
                s = sc.score_roll(pos, roll, prof)
                sides.append(({p.result for p in ps.plays}, (s.mover, s.other)))
            if sides[0][0] != sides[1][0]:
                plays += w
            if sides[0][1] != sides[1][1]:
                points += w
    return total, plays, points


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games-by", choices=("new", "old"), default="new")
    args = ap.parse_args(argv)
    try:
        old_m, old_s = old_engine()
    except (subprocess.CalledProcessError, FileNotFoundError) as e:
        print(f"rules_audit: cannot read commit {OLD_COMMIT} with git: {e}", file=sys.stderr)
        return 2
    new = (new_moves, new_scoring, DEFAULT_PROFILE)
    d33 = (new_moves, new_scoring, replace(DEFAULT_PROFILE, score_remplir_en_passant=True))
    old = (old_m, old_s, DEFAULT_PROFILE)
    by = (new_moves, new_scoring) if args.games_by == "new" else (old_m, old_s)
    pos = positions(args.games, args.seed, *by)
    print(
        f"{len(pos)} middle-game positions from {args.games} self-play relevés "
        f"(seed {args.seed}, moved by the {args.games_by} engine); shares of throws:"
    )
    for label, l, r in (
        ("old vs new (P3 + M13)", old, new),
        ("old vs new+D33 (P3 only)", old, d33),
        ("new+D33 vs new (M13 only)", d33, new),
    ):
        t, p, s = compare(pos, l, r)
        print(f"  {label:28} plays differ {100 * p / t:5.2f} %   points differ {100 * s / t:5.2f} %")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
