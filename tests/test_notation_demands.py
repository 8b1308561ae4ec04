"""The demands of the other player: force(…), fait-marquer(…), remet(…) (docs/notation.md;
003 §187, §213): read, written back, visited, and their mistakes diagnosed."""

from __future__ import annotations

import pytest

from trictrac.notation.reader import parse_text
from trictrac.notation.record import FaitMarquer, Force, Mark, Move, Remet
from trictrac.notation.visitor import ActionVisitor, visit_action
from trictrac.notation.writer import write_record


def _coup(line: str):
    recs, diags = parse_text(f'[Event "x"]\n\n{line}\n')
    return recs[0].elements[0], diags


def test_the_three_demands_are_read():
    coup, diags = _coup("1. B 6-5 A:oblige(14/20) 14/20 7/12 A:fait-marquer(B+4t1) B:remet(A-2) A:remet-a(A+2t-1)")
    assert [d for d in diags if d.severity == "error"] == []
    force = coup.before[0]
    assert isinstance(force, Force) and force.who == "A" and force.moves == (Move(14, 20),)
    fm, r1, r2 = coup.after
    assert isinstance(fm, FaitMarquer) and fm.mark == Mark("B", 4, 1, None)
    assert r1 == Remet("B", "A", -2, 0) and r2 == Remet("A", "A", 2, -1)


@pytest.mark.parametrize(
    "line",
    [
        "1. B 6-5 A:force(14/20) 14/20 7/12",
        "1. A 4-3 A+4 1/8 A:fait-marquer(B+4t1)",
        "1. B 2-1 B+2 1/3 1/2 A:école+2 B:remet(A-2) A:remet(B-4t-1)",
    ],
)
def test_written_back_canonically(line):
    recs, diags = parse_text(f'[Event "x"]\n\n{line}\n')
    assert not diags
    assert write_record(recs[0]).strip().splitlines()[-1] == line


@pytest.mark.parametrize(
    "token",
    [
        "A:force()",
        "A:force(14/x)",
        "A:fait-marquer(4)",
        "A:fait-marquer(B-4)",
        "B:remet(2)",
        "B:remet(A)",
        "B:efface(A+2)",
    ],
)
def test_a_bad_demand_is_a_bad_action(token):
    _coup_, diags = _coup(f"1. A 4-3 1/8 {token}")
    assert [d.code for d in diags if d.severity == "error"][:1] in (["bad-action"], ["bad-move"])


def test_each_demand_has_its_visit_method():
    class Names(ActionVisitor[str]):
        def visit_force(self, force):
            return "force"

        def visit_fait_marquer(self, token):
            return "fait-marquer"

        def visit_remet(self, remet):
            return "remet"

    coup, _ = _coup("1. B 6-5 A:force(14/20) 14/20 7/12 A:fait-marquer(B+2) A:remet(B-4)")
    assert [visit_action(a, Names()) for a in coup.before + coup.after] == ["force", "fait-marquer", "remet"]
