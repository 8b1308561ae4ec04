"""Mutation tests (issue 5): correct generated records give no finding; one injected
mistake gives exactly that finding, at that coup.

Records come from the bots (``replay.generate.selfplay``); mistakes from ``replay.generate.inject``,
which states the finding kind, the coup index and who made it, and the findings the
same mistake brings along (``Injected.also``: a partial or late claim is also the wrong
mark it answers; a deux jetons claim under lelasseux-1852 is also a fausse école).
"""

from __future__ import annotations

import random

import pytest
from verify_helpers import generated

from trictrac.notation.reader import parse_text
from trictrac.notation.writer import write_record
from trictrac.replay.generate.inject import COMPACT_KINDS, INJECT_KINDS, expected_findings, inject
from trictrac.replay.verifier.verify import verify

FULL = generated(3, 7, "douze-trous", False) + generated(2, 8, "a-ecrire", False, 1)
COMPACT = generated(2, 7, "douze-trous", True) + generated(1, 8, "a-ecrire", True, 1)
#: kinds whose occasion is rare in a game (a throw that cannot be played at all with points;
#: a sortie without a hole): searched in more games
RARE = ("ecole-impossible", "leave-at-sortie")


def _records(kind: str) -> tuple:
    return FULL + generated(10, 7, "douze-trous", False)[3:] if kind in RARE else FULL


def _same(findings, injected) -> bool:
    """The findings are exactly the injected ones: kind and coup index, and who when both
    say (a written marqué result or a relevé header has no one)."""
    got = sorted(((f.kind, f.index, f.who) for f in findings), key=lambda t: (t[0], t[1], t[2] or ""))
    want = expected_findings(injected)
    return len(got) == len(want) and all(
        g[:2] == w[:2] and (g[2] is None or w[2] is None or g[2] == w[2]) for g, w in zip(got, want)
    )


@pytest.mark.parametrize("i", range(len(FULL)))
def test_correct_full_records_give_no_finding(i):
    rep = verify(FULL[i])
    assert rep.findings == [], [f.render() for f in rep.findings[:3]]
    assert rep.final_score == rep.entitled_score
    assert rep.coups_verified == len(FULL[i].coups)


@pytest.mark.parametrize("i", range(len(COMPACT)))
def test_correct_compact_records_give_no_finding(i):
    rep = verify(COMPACT[i])
    assert rep.findings == []
    assert rep.coups_verified == len(COMPACT[i].coups)


def test_compact_and_full_records_end_with_the_same_score():
    full = generated(2, 7, "douze-trous", False)
    for f, c in zip(full, COMPACT[:2]):
        assert verify(f).final_score == verify(c).final_score


def test_text_round_trip_gives_the_same_report():
    rec = FULL[0]
    records, _ = parse_text(write_record(rec))
    a, b = verify(rec, trace=False), verify(records[0], trace=False)
    assert a.final_score == b.final_score and a.findings == b.findings == []


def _one_mistake(rec, kind: str, seed: str):
    new, injs = inject(rec, 1, random.Random(seed), kinds=[kind])
    if not injs:
        return None
    inj = injs[0]
    if kind == "stay-after-leave":
        # our reading of 003 §163: leaving at the sortie after bearing off is allowed
        coup = new.coups[inj.index]
        if any(getattr(m, "to", 0) == 25 for m in coup.moves):
            return None
    return new, inj


@pytest.mark.parametrize("kind", INJECT_KINDS)
def test_one_injected_mistake_gives_exactly_that_finding(kind):
    seen = 0
    for i, rec in enumerate(_records(kind)):
        got = _one_mistake(rec, kind, f"{i}:{kind}")
        if got is None:
            continue
        new, inj = got
        rep = verify(new, trace=False)
        assert _same(rep.findings, [inj]), (inj, [f.render() for f in rep.findings[:3]])
        seen += 1
    assert seen >= 1


@pytest.mark.parametrize("kind", COMPACT_KINDS)
def test_one_injected_mistake_in_a_compact_record(kind):
    seen = 0
    for i, rec in enumerate(COMPACT):
        got = _one_mistake(rec, kind, f"c{i}:{kind}")
        if got is None:
            continue
        new, inj = got
        rep = verify(new, trace=False)
        assert _same(rep.findings, [inj]), inj
        seen += 1
    assert seen >= 1


def test_verify_never_mutates_the_record():
    rec = FULL[1]
    before = write_record(rec)
    verify(rec)
    assert write_record(rec) == before


@pytest.mark.slow
def test_many_injected_mistakes_slow():
    recs = generated(12, 21, "douze-trous", False) + generated(6, 22, "a-ecrire", False, 2)
    for i, rec in enumerate(recs):
        for kind in INJECT_KINDS:
            got = _one_mistake(rec, kind, f"s{i}:{kind}")
            if got is None:
                continue
            new, inj = got
            rep = verify(new, trace=False)
            assert _same(rep.findings, [inj]), inj


def test_generated_corpus_with_mistakes_matches_its_truth():
    """``fixtures/corpus/mistakes*.trn`` (the generator's corpus) with the injector's truth."""
    import json
    from pathlib import Path

    from trictrac.replay.verifier.verify import verify_file

    root = Path(__file__).resolve().parent.parent / "fixtures" / "corpus"
    names = [n for n in ("mistakes", "mistakes-compact") if (root / f"{n}.injected.json").exists()]
    if not names:
        pytest.skip("generated corpus not built")
    for name in names:
        truth = json.loads((root / f"{name}.injected.json").read_text(encoding="utf-8"))
        reports = list(verify_file(str(root / f"{name}.trn")))
        for g in truth:
            got = sorted((f.kind, f.index) for f in reports[g["game"]].findings)
            assert got == sorted(x[:2] for x in expected_findings(g["injected"])), (name, g["game"])
