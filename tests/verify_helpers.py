"""Helpers for the verifier tests (issue 5): fixtures and generated records."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from trictrac.notation.reader import parse_text
from trictrac.notation.record import Record

FINDINGS_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "findings"


def fixture_paths() -> list[Path]:
    return sorted(FINDINGS_DIR.glob("*.trn"))


def expected(path: Path) -> list[dict]:
    return json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))["findings"]


def one_record(text: str) -> Record:
    records, diags = parse_text(text)
    assert len(records) == 1, diags
    assert not [d for d in diags if d.severity == "error"], diags
    return records[0]


def brief(findings) -> list[dict]:
    return [
        {"kind": f.kind, "coup": f.coup, "who": f.who, "entitled": f.entitled, "marked": f.marked} for f in findings
    ]


@cache
def generated(n: int, seed: int, kind: str, compact: bool, marques: int = 2) -> tuple[Record, ...]:
    from trictrac.replay.generate.selfplay import selfplay

    return tuple(selfplay(n, seed=seed, kind=kind, compact=compact, marques=marques))
