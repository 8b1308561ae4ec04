"""How the verifier copes with a die mistyped (issue 25 §2): generated games, one die of
one coup changed so that the written moves are no longer a legal play of the throw.

A game *goes to the end with the typo's one finding* when it is not stopped and its only
finding stands on the typo's line; *the throw proposed* is that finding's first proposal
when it is a throw: the original one, or another throw the same moves fit (a checker
played tout d'une fits every throw of its sum: the record cannot tell them apart).

    python -m trictrac.replay.die_bench [GAMES] [SEED]
"""

from __future__ import annotations

import random
import re
import sys
from collections import Counter

from ..notation.reader import parse_text
from ..notation.record import Move
from ..notation.writer import write_record
from .moves import judge_play
from .recover import ROLLS
from .selfplay import selfplay
from .verify import verify

_COUP = re.compile(r"^(\d+\. [A-D] )(\d)-(\d)")


def die_typos(games: int, seed: int) -> list[tuple[str, int, str]]:
    """(text, line, original throw): one coup with moves per game, one die changed to a
    throw of which the written moves are not a legal play."""
    rng = random.Random(f"die:{seed}")
    out = []
    for generated in selfplay(games, seed, "douze-trous"):
        text = write_record(generated)
        rec = parse_text(text)[0][0]
        trace = verify(rec, trace=True).trace
        lines = text.split("\n")
        before = {t.index + 1: t.position_after for t in trace if not t.releve_ended}
        coups = [(k, c) for k, c in enumerate(rec.coups) if any(isinstance(m, Move) for m in c.moves)]
        rng.shuffle(coups)
        for k, c in coups:
            pos = before.get(k)
            if pos is None or pos.turn != c.side:
                continue
            moves = tuple((m.from_, m.to) if isinstance(m, Move) else m.number for m in c.moves)
            dice = list(c.roll)
            j = rng.randrange(2)
            dice[j] = rng.choice([d for d in range(1, 7) if d != dice[j]])
            wrong = (max(dice), min(dice))
            if wrong not in ROLLS or judge_play(pos, wrong, moves).legal:
                continue
            m = _COUP.match(lines[c.span.line - 1])
            if m is None:
                continue
            lines[c.span.line - 1] = _COUP.sub(rf"\g<1>{wrong[0]}-{wrong[1]}", lines[c.span.line - 1], count=1)
            out.append(("\n".join(lines), c.span.line, f"{c.roll[0]}-{c.roll[1]}"))
            break
    return out


def run(games: int = 150, seed: int = 3) -> Counter[str]:
    figures: Counter[str] = Counter()
    for text, line, original in die_typos(games, seed):
        records, diagnostics = parse_text(text)
        report = verify(records[0], trace=False, diagnostics=diagnostics, recover=True)
        at = [f for f in report.findings if f.line == line]
        alone = not report.stopped and len(report.findings) == len(at) == 1
        first = at[0].alternatives[0] if at and at[0].alternatives else ""
        figures["games"] += 1
        figures["to the end, one finding"] += alone
        figures["the original throw proposed"] += alone and first == original
        figures["another throw the moves fit proposed"] += alone and "/" not in first and first not in ("", original)
    return figures


if __name__ == "__main__":  # pragma: no cover
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 150
    s = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    print(dict(run(n, s)))
