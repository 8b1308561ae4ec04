"""The benchmark's inputs: self-played parties, slices of them, and a PGN of random
chess games with as many plies as the parties have coups (the python-chess
comparison of issue 17).  Every input is deterministic given its seed."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterable
from typing import Any

from .common import Row, cpu_seconds, row

__all__ = ["chess_pgn", "count_games_and_coups", "generate_corpus", "head", "repeated"]


def _game_text(task: tuple[int, int, str]) -> tuple[str, int]:
    from ..notation.writer import write_record
    from ..replay.generate.selfplay import play_partie

    seed, i, kind = task
    rec = play_partie(random.Random(f"{seed}:{i}:{kind}"), kind)
    rec.headers["Round"] = str(i + 1)
    return write_record(rec), len(rec.coups)


def generate_corpus(
    path: str, n: int, seed: int = 1, *, kinds: Iterable[str] = ("douze-trous", "a-ecrire"), jobs: int = 1
) -> Row:
    """Write ``n`` self-played parties to ``path`` (kinds in turn, full records); the
    row gives games/s of the bots and, in ``coups``, the coups written.

    Game ``i`` depends only on ``(seed, i)``; ``jobs > 1`` plays them in a process pool
    and writes the same file."""
    kinds = tuple(kinds)
    c0 = cpu_seconds()
    t0 = time.perf_counter()
    tasks = [(seed, i, kinds[i % len(kinds)]) for i in range(n)]
    coups = 0
    with open(path, "w", encoding="utf-8") as out:
        if jobs > 1:
            import multiprocessing as mp

            ctx = mp.get_context("fork") if hasattr(os, "fork") else mp.get_context()
            with ctx.Pool(jobs) as pool:
                texts: Iterable[tuple[str, int]] = pool.imap(_game_text, tasks, chunksize=8)
                for i, (text, nc) in enumerate(texts):
                    out.write(("\n" if i else "") + text)
                    coups += nc
        else:
            for i, task in enumerate(tasks):
                text, nc = _game_text(task)
                out.write(("\n" if i else "") + text)
                coups += nc
    r = row(
        "generate", n, "games", time.perf_counter() - t0, cpu=cpu_seconds() - c0, note=f"{coups} coups, {jobs} job(s)"
    )
    r["coups"] = coups
    return r


def count_games_and_coups(path: str) -> tuple[int, int]:
    """Games and coups of a ``.trn`` file (the streaming reader)."""
    from ..notation.reader import iter_records

    games = coups = 0
    for pr in iter_records(path):
        games += 1
        coups += len(pr.record.coups)
    return games, coups


def _copy(path: str, out: str, n: int) -> int:
    """``n`` games of ``path`` (from the start, again and again when it has fewer)."""
    from ..notation.reader import index_records

    index = index_records(path)
    if not index:
        raise ValueError(f"{path}: no game")
    with open(path, "rb") as f, open(out, "wb") as o:
        for i in range(n):
            off, length = index[i % len(index)]
            f.seek(off)
            o.write(f.read(length))
            o.write(b"\n")
    return n


def head(path: str, n: int, out: str) -> str:
    """The first ``n`` games of ``path`` (at most all of them) as a file of their own."""
    from ..notation.reader import index_records

    _copy(path, out, min(n, len(index_records(path))))
    return out


def repeated(path: str, n: int, out: str) -> str:
    """``n`` games: the games of ``path`` repeated (an archive of any size from a small
    corpus; the verifier's memory depends on the number of games, not on their variety)."""
    _copy(path, out, n)
    return out


def chess_pgn(path: str, plies: int, seed: int = 1, max_game: int = 300) -> dict[str, Any]:
    """A PGN of random legal chess games (``random.Random(seed)``, each until the game
    ends or ``max_game`` plies) holding exactly ``plies`` plies in all."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    left = plies
    games = 0
    with open(path, "w", encoding="utf-8") as out:
        while left > 0:
            board = chess.Board()
            while left > 0 and not board.is_game_over() and board.ply() < max_game:
                board.push(rng.choice(list(board.legal_moves)))
                left -= 1
            game = chess.pgn.Game.from_board(board)
            game.headers["Round"] = str(games + 1)
            out.write(str(game) + "\n\n")
            games += 1
    return {"games": games, "plies": plies, "chess": chess.__version__}
