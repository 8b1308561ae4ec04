"""Fuzzing as a habit (issue 18): a grammar-aware hypothesis strategy writes valid-looking
records with random mistakes and drives read -> verify -> write -> read again and the
position parser (tests/fuzz/harness.py); a short atheris run when atheris is installed
(the long run: ``python tests/fuzz/fuzz_records.py -atheris_runs=1000000``,
docs/resilience.md); and every crash the fuzzers found, kept as a fixture."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from fuzz.harness import SHAPES, exercise, grow
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from notation_strategies import records

from trictrac.notation.writer import write_record

ROOT = Path(__file__).resolve().parent.parent
CRASHES = ROOT / "fixtures" / "fuzz"

# pieces of the notation, right and wrong, that a mistake inserts or swaps in
_PIECES = [
    "1/7",
    "19/off",
    "25/1",
    "0/3",
    "-6",
    "x7",
    "--",
    "A+4",
    "B+12t2b",
    "A+251",
    "A+250",
    "A+99999999",
    "A+16t43",
    "B:école+4",
    "B:école+501",
    "A:correction-2t-1",
    "A:correction+501",
    "A:s'en-va",
    "B:reste",
    "A:fait-jouer(1/6 1/5)",
    "B:rejoue(1/7 1/6 1/5 1/4 1/3)",
    "A:pavillon",
    "{note}",
    "{open",
    "}",
    "!",
    "$256",
    "$12",
    "relevé 2",
    "relevé 1000",
    "marqué 3 A-B",
    "marqué 100",
    "résultat A 8-3 valeur 10",
    "résultat A 100-3",
    "résultat refait 7-7",
    "1000. A 6-5",
    "12. B 6-6",
    "3. C sonnez",
    '[Event "x"]',
    '[Position "A{1:15} B{1:15}"]',
    '[Position "A{1:14,12:1} B{1:16} coups=1000/0"]',
    '[Partie "a-ecrire 100"]',
    "\n",
    "\n\n",
    "\t",
    "\x1b[2J",
    "\u202e",
    "\x00",
    "\ufeff",
    "é",
    "\\",
    '"',
    "(",
    ")",
    "((((",
    "{{{{",
    "1/3 " * 8,
]


@st.composite
def mutated_records(draw: st.DrawFn) -> bytes:
    """A written record (tests/notation_strategies.py) with a few random mistakes:
    pieces inserted, tokens deleted, swapped or cut."""
    text = write_record(draw(records))
    words = text.split(" ")
    for _ in range(draw(st.integers(0, 6))):
        op = draw(st.sampled_from(["insert", "delete", "replace", "cut", "dup"]))
        i = draw(st.integers(0, max(0, len(words) - 1)))
        if op == "insert":
            words.insert(i, draw(st.sampled_from(_PIECES)))
        elif op == "delete" and len(words) > 1:
            del words[i]
        elif op == "replace":
            words[i] = draw(st.sampled_from(_PIECES))
        elif op == "cut" and words[i]:
            words[i] = words[i][: draw(st.integers(0, len(words[i])))]
        elif op == "dup":
            words.insert(i, words[i])
    enc = draw(st.sampled_from(["utf-8", "utf-8", "latin-1"]))
    return " ".join(words).encode(enc, "replace")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_records())
def test_mutated_records_go_through_the_pipeline(data: bytes) -> None:
    exercise(data)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_go_through_the_pipeline(data: bytes) -> None:
    exercise(data)


@pytest.mark.parametrize("path", sorted(CRASHES.glob("*.trn")), ids=lambda p: p.name)
def test_inputs_that_once_crashed(path: Path) -> None:
    """Inputs the fuzzers found crashing, kept as fixtures (fixtures/fuzz/)."""
    exercise(path.read_bytes())


def test_short_atheris_run(tmp_path: Path) -> None:
    """The coverage-guided target runs and reports its figures (skipped without atheris)."""
    pytest.importorskip("atheris")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "tests")}
    corpus = tmp_path / "corpus"  # libFuzzer adds its new inputs to this folder: never the fixtures
    corpus.mkdir()
    for p in (ROOT / "fixtures" / "records").glob("*.trn"):
        (corpus / p.name).write_bytes(p.read_bytes())
    r = subprocess.run(
        [
            sys.executable,
            str(ROOT / "tests" / "fuzz" / "fuzz_records.py"),
            "-atheris_runs=300",
            f"-crash_dir={tmp_path / 'crashes'}",
            str(corpus),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )
    assert "fuzz summary:" in r.stdout, r.stdout[-2000:] + r.stderr[-2000:]
    summary = r.stdout.split("fuzz summary:")[-1]
    assert " 0 crashes" in summary and r.returncode == 0, summary


@pytest.mark.parametrize("k", range(6), ids=lambda k: SHAPES[k])
def test_every_grown_shape_goes_through_the_pipeline(k: int) -> None:
    """Issue 27's shapes, small, through the harness as the atheris target runs them (the
    ranked ones with the standings: a renamed import once made each of them a crash)."""
    data, shape = grow(bytes([0xF0 + k, 0x00, 0x05]) + "Dupont é".encode())
    assert shape == SHAPES[k]
    games = exercise(data, standings=shape in ("many-players", "look-alikes"))
    assert games == (6 if shape in ("many-players", "look-alikes") else 1)


def test_the_bound_measures_a_command_and_holds_on_a_real_record() -> None:
    """tests/fuzz/bound.py, which measures the fuzzer's suspects again: a real record holds
    the bound, and a cost over it is called so."""
    from fuzz.bound import Cost, cost

    record = max((ROOT / "fixtures" / "corpus").glob("*.trn"), key=lambda p: p.stat().st_size).read_bytes()
    c = cost(record, "check", runs=1)
    assert c.kb > 1 and c.seconds > 0 and c.holds, c.text()
    assert not Cost("check", 1.0, 0.5, 0.0).holds and not Cost("publish", 1.0, 0.0, 50.0).holds
    assert Cost("publish", 1.0, 0.5, 0.0).holds  # publish: its memory is held, its time reported
