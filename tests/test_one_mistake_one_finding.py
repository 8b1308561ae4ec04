"""A mistake of the record is said as one, and one mistake gives one finding (issue 25 §2).

* Injected table mistakes (``replay/generate/inject.py``), verified as ``trictrac check`` does
  (``recover=True``): at most one finding per (coup, who) unless the injector's truth
  says two were made there, and exactly the truth.
* Marks written after the moves: one école (003 §167, §172, §174), not "the 2 points
  are lost" and "A keeps the 2 points" on one line.
* A die mistyped: the throw the written moves fit is proposed ("did you mean 4-1?"),
  one finding, and the walk goes on with it; a throw is never invented.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from trictrac.notation.reader import parse_text
from trictrac.notation.record import Move
from trictrac.notation.writer import write_record
from trictrac.replay.generate.inject import expected_findings, inject
from trictrac.replay.generate.selfplay import play_partie, selfplay
from trictrac.replay.rules.moves import judge_play
from trictrac.replay.rules.profiles import find_profile
from trictrac.replay.verifier.recover import ROLLS
from trictrac.replay.verifier.verify import verify, verify_text

HEAD = '[A "A"]\n[B "B"]\n[Partie "douze-trous"]\n'


# -- injected mistakes ------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(1000, 1006))
def test_one_injected_mistake_gives_one_finding_per_coup_and_player(seed: int) -> None:
    rng = random.Random(seed)
    rec = play_partie(rng, "a-ecrire" if seed % 2 else "douze-trous")
    bad, done = inject(rec, 8, rng)
    truth = expected_findings(done)
    records, diags = parse_text(write_record(bad))
    rep = verify(records[0], trace=False, diagnostics=diags, recover=True)  # as `trictrac check`
    said = Counter((i, w) for _k, i, w in truth)
    per_place = Counter((f.index, f.who) for f in rep.findings)
    several = {place: n for place, n in per_place.items() if n > max(1, said[place])}
    assert not several, f"one mistake, several findings at (index, who): {several}"
    found = sorted(((f.kind, f.index, f.who) for f in rep.findings), key=lambda t: (t[0], t[1], t[2] or ""))
    assert found == truth


# -- marks written after the moves --------------------------------------------------------
LATE = HEAD + (
    '[Position "A{1:9,8:2,10:2,12:2} B{1:13,5:1,6:1} coin=1/0 coups=9/9 points=2/2"]\n\n'
    "1. A 5-3 1/6 1/4 A+8@CLAIM@\n2. B 2-1 1/3 1/2\n3. A 2-1 1/3 1/2\n"
)


def test_marks_after_the_moves_are_one_ecole_unclaimed() -> None:
    """A marks his 8 after playing: the omission was made when he touched a checker
    (003 §167, §172); B does not school it: one finding, and A keeps what he marked
    late (001 r.47; 003 §167) — not also "the 8 points are lost"."""
    (rep,) = verify_text(LATE.replace("@CLAIM@", ""))
    assert [(f.kind, f.coup, f.who, f.entitled, f.marked) for f in rep.findings] == [("unclaimed-ecole", 1, "A", 8, 0)]
    f = rep.findings[0]
    assert f.outcome == "late-kept" and "he keeps the points he marked after touching" in f.consequence
    assert "lost" not in f.consequence
    assert rep.final_score.a.points == 10


def test_marks_after_the_moves_schooled_erase_the_late_mark() -> None:
    (rep,) = verify_text(LATE.replace("@CLAIM@", " B:école+8"))
    assert [(f.kind, f.who) for f in rep.findings] == [("ecole-par-moins", "A")]
    assert (rep.final_score.a.points, rep.final_score.b.points) == (2, 10)


def test_marks_after_the_moves_given_back_in_bonne_compagnie() -> None:
    """001 III on r.47: points wrongly marked are never kept."""
    (rep,) = verify_text(LATE.replace("@CLAIM@", ""), profile=find_profile("bonne-compagnie"))
    assert len(rep.findings) == 1 and "gives back the points he marked" in rep.findings[0].consequence
    assert rep.final_score.a.points == 2


def test_marks_partly_after_the_moves_beyond_the_throw_are_two_mistakes() -> None:
    """Marked late and more than the throw gave: the late mark (par moins) and the
    excess (par trop) are two écoles, each claimable alone (003 §187)."""
    text = LATE.replace("@CLAIM@", "").replace("A+8\n", "A+10\n")
    (rep,) = verify_text(text)
    assert sorted(f.marked for f in rep.findings) == [0, 10]


# -- a die mistyped ---------------------------------------------------------------------------
def test_a_wrong_die_proposes_the_throw_the_moves_fit() -> None:
    """« did you mean 4-1? »: 1/5 1/2 is the play of 4-1 and of no other throw."""
    text = HEAD + "\n1. A 4-2 1/5 1/2\n2. B 6-5 1/7 1/6\n3. A 3-3 1/7\n"
    (rep,) = verify_text(text, recover=True)
    assert len(rep.findings) == 1
    f = rep.findings[0]
    assert (f.kind, f.detail, f.coup, f.who) == ("illegal-move", "did-you-mean", 1, "A")
    assert f.alternatives == ("4-1",) and "did you mean 4-1?" in f.message
    assert "mistake of the record" in f.message and f.record_mistake and f.proposal == "4-1"
    assert not rep.stopped and rep.coups_verified == 3


def test_a_throw_is_never_invented() -> None:
    """Moves no throw makes are put right, never given a throw of our own making."""
    text = HEAD + "\n1. A 4-2 1/5 1/9\n2. B 6-5 1/7 1/6\n3. A 3-3 1/7\n"
    (rep,) = verify_text(text, recover=True)
    assert rep.findings and all("/" in a for f in rep.findings for a in f.alternatives)


def _die_typos(games: int, seed: int):
    """(text, line, original throw) for coups whose moves fit their throw and no other,
    with one die changed so that they fit none."""
    rng = random.Random(seed)
    for generated in selfplay(games, seed, "douze-trous"):
        text = write_record(generated)
        rec = parse_text(text)[0][0]  # the spans of the text
        reports = verify(rec, trace=True)
        lines = text.split("\n")
        coups = [c for c in rec.elements if hasattr(c, "roll") and any(isinstance(m, Move) for m in c.moves)]
        positions = {}
        for t in reports.trace:
            positions[t.index + 1] = t.position_after
        order = list(range(1, len(coups)))
        rng.shuffle(order)
        for k in order:
            pos, c = positions.get(k), coups[k]
            if pos is None or pos.turn != c.side:
                continue
            moves = tuple((m.from_, m.to) if isinstance(m, Move) else m.number for m in c.moves)
            fits = [r for r in ROLLS if judge_play(pos, r, moves).legal]
            if fits != [c.roll]:
                continue
            a, b = c.roll
            wrong = (a, 7 - b if 7 - b != b else (b % 6) + 1)
            wrong = (max(wrong), min(wrong))
            if judge_play(pos, wrong, moves).legal:
                continue
            line = c.span.line
            new = re.sub(r"^(\d+\. [A-D] )\d-\d", rf"\g<1>{wrong[0]}-{wrong[1]}", lines[line - 1])
            yield "\n".join(lines[: line - 1] + [new] + lines[line:]), line, f"{a}-{b}"
            break


def test_a_mistyped_die_is_one_finding_with_the_original_throw() -> None:
    cases = list(_die_typos(6, 11))
    assert len(cases) >= 4
    for text, line, original in cases:
        (rep,) = verify_text(text, recover=True, trace=False)
        assert not rep.stopped
        assert [(f.line, f.alternatives[:1]) for f in rep.findings] == [(line, (original,))], original
