"""The ``Pavillon`` action, ``B:pavillon``: *prendre le pavillon* in a partie à écrire
(RULES.md §5.4; 003 §223; 001 r.58; docs/notation.md).  A keyword with no number, read
and written like ``A:joue-pour-tout``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from notation_strategies import coups, parse_both, records

from trictrac.notation import reader
from trictrac.notation.reader import parse_text
from trictrac.notation.record import Coup, JouePourTout, Mark, Move, Pavillon, Span
from trictrac.notation.writer import write_action, write_coup, write_record, write_records

ROOT = Path(__file__).resolve().parent.parent
A_ECRIRE = '[Partie "a-ecrire 8"]\n\nmarqué 1 A-B\nrelevé 1\n'


def coup(line: str, head: str = A_ECRIRE) -> tuple[Coup, list]:
    (r,), d = parse_text(head + line + "\n")
    c = r.elements[-1]
    assert isinstance(c, Coup)
    return c, d


def test_pavillon_with_the_hole_that_earns_it_before_the_moves() -> None:
    """RULES.md §5.4 (003 §223): B, second to take holes, sets the pavillon with his hole."""
    c, d = coup("7. B 6-4 B+6t1 B:pavillon 1/7 1/5")
    assert d == []
    assert c.before == (Mark("B", 6, 1), Pavillon("B"))
    assert c.moves == (Move(1, 7), Move(1, 5)) and c.after == ()
    assert c.before[1].span == Span(5, 16, 5, 26, len(A_ECRIRE) + 15)


def test_pavillon_after_the_moves_and_by_the_opponent() -> None:
    """The hole may be the opponent's, marked after the roller's moves (points given)."""
    c, d = coup("8. A 6-5 1/7 1/6 B+2t1 B:pavillon")
    assert d == []
    assert c.before == () and c.after == (Mark("B", 2, 1), Pavillon("B"))
    c, d = coup("8. A 6-5 -- B:pavillon")
    assert d == [] and c.moves == () and c.after == (Pavillon("B"),)


@pytest.mark.parametrize(
    "word", ["pavillon", "prend-le-pavillon", "flag", "Pavillon", "PAVILLON", "Prend-Le-Pavillon", "FLAG", "Flag"]
)
def test_accepted_spellings_in_any_case(word: str) -> None:
    c, d = coup(f"3. C 5-2 C+4t1 C:{word} 1/6 1/3")
    assert d == []
    assert c.before == (Mark("C", 4, 1), Pavillon("C"))
    assert write_coup(c) == "3. C 5-2 C+4t1 C:pavillon 1/6 1/3"


@pytest.mark.parametrize("tail", ["+2", "-1", "+0t+1", "(oublié)", "+2(tard)"])
def test_a_number_or_reason_is_a_bad_action_warning(tail: str) -> None:
    """Like every keyword that takes no number: a warning, the action still read."""
    c, d = coup(f"7. B 6-4 B+6t1 B:pavillon{tail} 1/7 1/5")
    assert c.before == (Mark("B", 6, 1), Pavillon("B"))
    assert [(x.code, x.severity, x.span.col, x.text) for x in d] == [("bad-action", "warning", 16, f"B:pavillon{tail}")]
    assert "'pavillon' takes no number or reason" in d[0].message
    # the same words as joue-pour-tout
    c2, d2 = coup(f"7. B 6-4 B:joue-pour-tout{tail} 1/7 1/5")
    assert c2.before == (JouePourTout("B"),)
    assert [(x.code, x.severity) for x in d2] == [("bad-action", "warning")]


def test_near_misses_are_unknown_keywords_and_the_hint_names_pavillon() -> None:
    for word in ("pavilion", "prend-pavillon", "drapeau"):
        c, d = coup(f"7. B 6-4 B:{word} 1/7")
        assert c.before == ()
        assert [x.code for x in d] == ["unknown-keyword"]
        assert "pavillon" in d[0].message


def test_outside_a_coup_is_an_error() -> None:
    (r,), d = parse_text(A_ECRIRE + "B:pavillon\n")
    assert [x.code for x in d] == ["action-outside-coup"]


def test_after_the_opponents_marks_moves_are_still_out_of_order() -> None:
    """B:pavillon after the moves puts the coup in its ``after`` phase, like any mark."""
    _, d = coup("8. A 6-5 1/7 B:pavillon 1/6")
    assert [x.code for x in d] == ["move-after-marks"]


def test_compact_record_warns_like_for_marks_not_like_joue_pour_tout() -> None:
    """In a ``Record "compact"`` game the replayer keeps the score (and the pavillon)
    itself: a written pavillon is ignored, so it is warned like ``A+N``; joue-pour-tout
    is a choice the replayer reads (replay.rules.game), so it is not."""
    head = '[Record "compact"]\n\n'
    _, d = coup("7. B 6-4 B:pavillon 1/7 1/5", head)
    assert [(x.code, x.severity, x.span.line, x.span.col) for x in d] == [("marks-in-compact-record", "warning", 3, 10)]
    _, d = coup("7. B 6-4 1/7 1/5 B:flag", head)
    assert [(x.code, x.span.col) for x in d] == [("marks-in-compact-record", 18)]
    _, d = coup("7. B 6-4 B:joue-pour-tout 1/7 1/5", head)
    assert d == []
    _, d = coup("7. B 6-4 B:pavillon 1/7 1/5", '[Record "full"]\n\n')
    assert d == []


def test_writer_and_docs() -> None:
    assert write_action(Pavillon("D")) == "D:pavillon"
    doc = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
    assert "| prendre le pavillon | `B:pavillon` |" in doc
    assert "| `B:pavillon` | `B:prend-le-pavillon`, `B:flag` |" in doc
    assert '| "pavillon"' in re.search(r"keyword\s+= side[^;]*;", doc).group(0)
    assert "7. B 6-4 B+6t1 B:pavillon 1/7 1/5" in doc
    # every spelling the docs list is one the reader knows, and no more
    words = {w for w, k in reader._ACTION_WORDS.items() if k == "pavillon"}
    assert words == {"pavillon", "prend-le-pavillon", "flag"}


def test_fast_path_and_general_path_agree_on_the_canonical_line() -> None:
    text = A_ECRIRE + "7. B 6-4 B+6t1 B:pavillon 1/7 1/5 B:pavillon ! {pris}\n"
    (fast, df), (slow, ds) = parse_both(text)
    assert fast == slow and df == ds == []
    f, s = fast[0].elements[-1], slow[0].elements[-1]
    assert [a.span for a in f.before + f.after] == [a.span for a in s.before + s.after]
    assert f.after[0] == Pavillon("B")
    assert "B:pavillon" in reader._FAST_TOK  # the canonical line does take the fast path


_with_pavillon = st.lists(coups, min_size=1, max_size=4).filter(
    lambda cs: any(type(a) is Pavillon for c in cs for a in c.before + c.after)
)


@settings(max_examples=120, deadline=None)
@given(_with_pavillon)
def test_coups_with_a_pavillon_round_trip_on_both_paths(cs: list[Coup]) -> None:
    text = '[A "x"]\n\n' + "".join(write_coup(c) + "\n" for c in cs)
    (fast, df), (slow, ds) = parse_both(text)
    assert fast[0].elements == cs == slow[0].elements
    assert [(x.code, x.span) for x in df] == [(x.code, x.span) for x in ds]
    for a, b in zip(fast[0].elements, slow[0].elements):
        assert [x.span for x in a.before + a.after] == [x.span for x in b.before + b.after]


@settings(max_examples=60, deadline=None)
@given(st.lists(records, min_size=1, max_size=2))
def test_records_round_trip(rs) -> None:
    text = write_records(rs)
    recs, _ = parse_text(text)
    assert recs == rs
    assert write_records(recs) == text
    assert all(write_record(r) == write_record(x) for r, x in zip(recs, rs))
