"""The error injector: injected mistakes are exactly what the verifier finds
(replay/inject.py, fixtures/corpus/mistakes*.trn)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from trictrac.notation.reader import iter_records, parse_text
from trictrac.notation.writer import write_record
from trictrac.replay.findings import FINDING_KINDS
from trictrac.replay.inject import COMPACT_KINDS, INJECT_KINDS, InjectError, inject
from trictrac.replay.selfplay import play_partie

CORPUS = Path(__file__).resolve().parent.parent / "fixtures" / "corpus"


def _key(kind: str, index: int, who: str | None) -> tuple[str, int, str | None]:
    return (kind, index, who)


def test_every_kind_is_a_finding_kind() -> None:
    assert set(INJECT_KINDS) <= set(FINDING_KINDS)
    assert set(COMPACT_KINDS) <= set(INJECT_KINDS)


def test_zero_mistakes_is_the_same_record() -> None:
    rec = play_partie(random.Random("same"), "a-ecrire", marques=2)
    again, done = inject(rec, 0, random.Random(1))
    assert done == [] and write_record(again) == write_record(rec)


def test_unknown_kind_and_compact_restrictions() -> None:
    rec = play_partie(random.Random("k"), "douze-trous", compact=True)
    with pytest.raises(InjectError):
        inject(rec, 1, random.Random(1), ["no-such-kind"])
    with pytest.raises(InjectError):
        inject(rec, 1, random.Random(1), ["hole-mismatch"])  # needs marks


def test_injection_is_deterministic() -> None:
    rec = play_partie(random.Random("det"), "douze-trous")
    a = inject(rec, 3, random.Random(5))
    b = inject(rec, 3, random.Random(5))
    assert write_record(a[0]) == write_record(b[0]) and a[1] == b[1]


def test_injected_records_reparse_and_keep_the_prefix() -> None:
    rec = play_partie(random.Random("prefix"), "douze-trous")
    bad, done = inject(rec, 2, random.Random(3), ["illegal-move"])
    assert 1 <= len(done) <= 2 and all(d.kind == "illegal-move" for d in done)
    assert parse_text(write_record(bad))[0] == [bad]
    first = done[0].index
    assert bad.coups[:first] == rec.coups[:first]  # nothing changes before the first mistake
    assert bad.coups[first] != rec.coups[first]


@pytest.mark.parametrize("name", ["mistakes.trn", "mistakes-compact.trn"])
def test_committed_mistakes_are_found_exactly(name: str) -> None:
    """Each injected mistake is reported, at its coup, by whom, and nothing else."""
    verify = pytest.importorskip("trictrac.replay.verify").verify
    truth = json.loads((CORPUS / name.replace(".trn", ".injected.json")).read_text(encoding="utf-8"))
    records = [pr.record for pr in iter_records(CORPUS / name)]
    assert len(records) == len(truth)
    for rec, row in zip(records, truth):
        assert row["injected"], row["kind"]
        expected = sorted(_key(x["kind"], x["index"], x["side"]) for x in row["injected"])
        found = sorted(_key(f.kind, f.index, f.who) for f in verify(rec).findings)
        assert found == expected, row["kind"]


@pytest.mark.parametrize("kind", ["unclaimed-ecole", "ecole-par-trop", "ecole-par-moins", "leave-without-right",
                                  "unplayed-number", "bredouille-lost"])
def test_fresh_injection_is_found(kind: str) -> None:
    verify = pytest.importorskip("trictrac.replay.verify").verify
    rec = play_partie(random.Random(f"fresh:{kind}"), "douze-trous")
    bad, done = inject(rec, 1, random.Random(f"fresh:{kind}"), [kind])
    assert len(done) == 1
    d = done[0]
    findings = verify(parse_text(write_record(bad))[0][0]).findings
    assert [(f.kind, f.index, f.who) for f in findings] == [(d.kind, d.index, d.side)]
    if d.entitled is not None and d.marked is not None and kind in ("unclaimed-ecole", "ecole-par-trop",
                                                                     "ecole-par-moins"):
        assert (findings[0].entitled, findings[0].marked) == (d.entitled, d.marked)
