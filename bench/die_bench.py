"""How the verifier copes with a die mistyped (issue 25 §2): generated games, one die of
one coup changed so that the written moves are no longer a legal play of the throw.

A game *goes to the end with the typo's one finding* when it is not stopped and its only
finding stands on the typo's line; *the throw proposed* is that finding's first proposal
when it is a throw: the original one, or another throw the same moves fit (a checker
played tout d'une fits every throw of its sum: the record cannot tell them apart).

    python -m trictrac.bench.die_bench [GAMES] [SEED]
    python -m trictrac.bench.die_bench --crowded [PARTIES] [SEED]

``--crowded`` lists the coups where one player has two findings or more, over parties
with injected table mistakes (``replay/generate/inject.py``; those the injector's truth says are
two mistakes are left out) and over the same parties with one typo of each kind of
``bench/typo_bench.py``, marks moved after the moves, and a die changed: each pattern of
kinds with its count and a first example.
"""

from __future__ import annotations

import random
import re
import sys
from collections import Counter

from ..notation.reader import parse_text
from ..notation.record import Move
from ..notation.writer import write_record
from ..replay.generate.selfplay import selfplay
from ..replay.rules.moves import judge_play
from ..replay.verifier.recover import ROLLS
from ..replay.verifier.verify import verify

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


def _marks_moved_after(text: str, rng: random.Random) -> str | None:
    """The roller's marks of one coup moved after its moves (``7. A 5-3 5/10 7/10 A+2b``)."""
    lines = text.split("\n")
    order = list(range(len(lines)))
    rng.shuffle(order)
    for i in order:
        m = re.match(r"^\d+\. ([A-D]) \d-\d ", lines[i])
        if not m:
            continue
        toks = lines[i].split(" ")
        moves = [k for k, t in enumerate(toks) if re.fullmatch(r"\d+/(?:\d+|off)", t)]
        marks = [k for k in range(3, moves[0] if moves else 3) if toks[k].startswith(m.group(1) + "+")]
        if moves and marks:
            rest = [t for k, t in enumerate(toks) if k not in marks]
            at = max(k for k, t in enumerate(rest) if re.fullmatch(r"\d+/(?:\d+|off)", t)) + 1
            lines[i] = " ".join(rest[:at] + [toks[k] for k in marks] + rest[at:])
            return "\n".join(lines)
    return None


def crowded(parties: int = 40, seed: int = 1000) -> tuple[Counter[tuple[str, ...]], dict[tuple[str, ...], str]]:
    """Coups where one player has two findings or more (issue 25 §2): pattern of kinds
    (``kind/detail``) -> count, and a first example (how the record was made, the line)."""
    from ..replay.generate.inject import expected_findings, inject
    from ..replay.generate.selfplay import play_partie
    from .typo_bench import KINDS, make_typo

    patterns: Counter[tuple[str, ...]] = Counter()
    examples: dict[tuple[str, ...], str] = {}

    def look(text: str, how: str, truth: list[tuple[str, int, str | None]]) -> None:
        records, diagnostics = parse_text(text)
        report = verify(records[0], trace=False, diagnostics=diagnostics, recover=True)
        said = Counter((i, w) for _k, i, w in truth)
        groups: dict[tuple[int, str | None], list[str]] = {}
        for f in report.findings:
            if f.index >= 0:
                groups.setdefault((f.index, f.who), []).append(f.kind + (f"/{f.detail}" if f.detail else ""))
        for place, kinds in groups.items():
            if len(kinds) > max(1, said[place]):
                key = tuple(sorted(kinds))
                patterns[key] += 1
                examples.setdefault(key, how)

    for i in range(parties):
        rng = random.Random(seed + i)
        rec = play_partie(rng, "a-ecrire" if i % 2 else "douze-trous")
        bad, done = inject(rec, 8, rng)
        look(write_record(bad), f"partie {i}, injected mistakes", expected_findings(done))
        clean = write_record(rec)
        for kind in KINDS:
            made = make_typo(clean, kind, rng)
            if made is not None:
                look(made[0], f"partie {i}, typo {kind} line {made[1].line}", [])
        moved = _marks_moved_after(clean, rng)
        if moved is not None:
            look(moved, f"partie {i}, marks moved after the moves", [])
    for text, line, _original in die_typos(parties, seed):
        look(text, f"die changed, line {line}", [])
    return patterns, examples


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
    args = sys.argv[1:]
    if args and args[0] == "--crowded":
        n = int(args[1]) if len(args) > 1 else 40
        s = int(args[2]) if len(args) > 2 else 1000
        found, where = crowded(n, s)
        print(f"{sum(found.values())} coups with two findings or more for one player")
        for kinds, count in found.most_common():
            print(f"{count:4d}  {', '.join(kinds)}  ({where[kinds]})")
    else:
        n = int(args[0]) if args else 150
        s = int(args[1]) if len(args) > 1 else 3
        print(dict(run(n, s)))
