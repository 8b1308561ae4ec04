"""The ``Replay`` action: a table remedy, the throw played again (RULES.md §9.5;
003 §211, §216; docs/notation.md).  ``B:fait-jouer(1/6 1/5)`` when the opponent
imposes the play, ``A:rejoue(1/7 1/6)`` when the roller replays his own throw."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from notation_strategies import coups, moves, parse_both, replays

from trictrac.notation.reader import MAX_DIAGNOSTICS, iter_records, parse_text
from trictrac.notation.record import (
    OFF,
    CannotPlay,
    Comment,
    Correction,
    Coup,
    Ecole,
    Mark,
    Move,
    NeMarquePas,
    Pavillon,
    Record,
    Replay,
)
from trictrac.notation.writer import write_action, write_coup, write_record, write_records

HEAD = '[A "x"]\n[B "y"]\n\n'


def read(body: str, tags: str = HEAD) -> tuple[Record, list]:
    recs, diags = parse_text(tags + body + "\n")
    assert len(recs) == 1
    return recs[0], diags


def coup(line: str) -> tuple[Coup, list]:
    r, d = read(line)
    c = r.elements[0]
    assert isinstance(c, Coup)
    return c, d


def codes(diags: list) -> list[tuple[str, str, int, int]]:
    return [(d.code, d.severity, d.span.line, d.span.col) for d in diags]


# --- the books' cases ------------------------------------------------------------------


def test_fausse_case_003_216_opponent_has_the_checkers_played_his_way() -> None:
    """With 5-4 A sets two checkers together on his point 6, but the four brings one only
    to 5 (fausse case); once they are released B may have them played to his best
    advantage, here spread (RULES.md §9.5; 003 §216; 001 r.23, r.27)."""
    c, d = coup("3. A 5-4 1/6 1/6 B:fait-jouer(1/6 1/5)")
    assert d == []
    assert c.moves == (Move(1, 6), Move(1, 6))
    assert c.before == ()
    assert c.after == (Replay("B", (Move(1, 6), Move(1, 5))),)
    assert write_coup(c) == "3. A 5-4 1/6 1/6 B:fait-jouer(1/6 1/5)"


def test_dame_mal_posee_003_211_put_right_by_the_opponent() -> None:
    """A checker set short of its point: the opponent may put it right (003 §211)."""
    c, d = coup("3. A 5-4 1/4 1/5 B:fait-jouer(1/6 1/5)")
    assert d == []
    assert c.moves == (Move(1, 4), Move(1, 5))
    assert c.after == (Replay("B", (Move(1, 6), Move(1, 5))),)


def test_dame_mal_posee_003_211_whole_throw_tout_d_une() -> None:
    """A checker released beyond the larger number's point: the opponent may make the
    whole throw be played tout d'une with it (RULES.md §9.5; 003 §211; 001 r.22)."""
    c, d = coup("7. A 4-2 1/9 B:fait-jouer(1/7)")
    assert d == []
    assert c.moves == (Move(1, 9),)
    assert c.after == (Replay("B", (Move(1, 7),)),)


def test_roller_corrects_his_own_play_before_releasing_003_216() -> None:
    """Noticed before the checkers are released, the player still plays them but
    correctly (003 §216); written with ``rejoue`` by the roller."""
    c, d = coup("4. B 6-1 1/7 1/2 B:rejoue(1/7 -1) A+2")
    assert d == []
    assert c.after == (Replay("B", (Move(1, 7), CannotPlay(1))), Mark("A", 2))
    assert write_coup(c) == "4. B 6-1 1/7 1/2 B:rejoue(1/7 -1) A+2"


# --- spellings and canonical writing ---------------------------------------------------

SPELLINGS = ["fait-jouer", "fait-rejouer", "impose", "remedy", "rejoue", "rejoué", "replay", "Fait-Jouer", "REJOUE"]


@pytest.mark.parametrize("word", SPELLINGS)
@pytest.mark.parametrize("who", ["A", "B"])
def test_every_spelling_builds_the_same_replay(word: str, who: str) -> None:
    c, d = coup(f"3. A 6-5 1/7 1/6 {who}:{word}(1/12)")
    assert d == []
    assert c.after == (Replay(who, (Move(1, 12),)),)
    # the writer picks the word by who decided, whatever was written
    want = "rejoue" if who == "A" else "fait-jouer"
    assert write_coup(c) == f"3. A 6-5 1/7 1/6 {who}:{want}(1/12)"


def test_canonical_word_follows_the_roller_with_four_players() -> None:
    c = Coup(
        2,
        "C",
        (4, 2),
        (Move(1, 5), Move(1, 3)),
        (),
        (Replay("C", (Move(1, 7),)), Replay("D", (Move(1, 5), Move(1, 3))), Replay("A", ())),
    )
    assert write_coup(c) == "2. C 4-2 1/5 1/3 C:rejoue(1/7) D:fait-jouer(1/5 1/3) A:fait-jouer(--)"
    assert write_action(Replay("B", (Move(19, OFF),))) == "B:fait-jouer(19/off)"  # roller unknown
    assert write_action(Replay("B", (Move(19, OFF),)), "B") == "B:rejoue(19/off)"


def test_move_spellings_inside_the_parentheses() -> None:
    c, d = coup("9. A 6-5 19/off 20/off B:fait-jouer(19/bande 20/25 x5 18/o -6 24/OFF)")
    assert d == []
    (r,) = c.after
    assert r.moves == (Move(19, OFF), Move(20, OFF), CannotPlay(5), Move(18, OFF), CannotPlay(6), Move(24, OFF))
    assert write_action(r, "A") == "B:fait-jouer(19/off 20/off -5 18/off -6 24/off)"


def test_no_checker_moved_is_double_dash() -> None:
    c, d = coup("5. A 6-6 1/7 1/7 B:fait-jouer(--)")
    assert d == [] and c.after == (Replay("B", ()),)
    assert write_coup(c).endswith("B:fait-jouer(--)")
    c, d = coup("5. A 6-6 1/7 1/7 B:fait-jouer(  --\t)")
    assert d == [] and c.after == (Replay("B", ()),)


def test_extra_spaces_inside_are_accepted_and_written_single() -> None:
    c, d = coup("3. A 5-4 1/4 1/5 B:fait-jouer(  1/6\t 1/5 )")
    assert d == []
    assert c.after == (Replay("B", (Move(1, 6), Move(1, 5))),)
    assert write_coup(c) == "3. A 5-4 1/4 1/5 B:fait-jouer(1/6 1/5)"


# --- where it stands -----------------------------------------------------------------


def test_written_before_the_moves_it_stays_before() -> None:
    c, d = coup("3. A 6-5 B:fait-jouer(1/12) 1/7 1/6")
    assert d == []
    assert c.before == (Replay("B", (Move(1, 12),)),) and c.after == ()
    assert c.moves == (Move(1, 7), Move(1, 6))
    assert write_coup(c) == "3. A 6-5 B:fait-jouer(1/12) 1/7 1/6"


def test_it_ends_the_moves_like_other_after_actions() -> None:
    """A move after it is out of order (the play it gives is inside it)."""
    c, d = coup("3. A 6-5 1/7 B:fait-jouer(1/12) 1/6")
    assert codes(d) == [("move-after-marks", "error", 4, 33)]
    assert c.moves == (Move(1, 7), Move(1, 6))


def test_on_a_continuation_line_it_extends_the_coup() -> None:
    r, d = read("3. A 5-4 1/4 1/5\n   B:fait-jouer(1/6 1/5) B+2\n4. B 2-1 1/3 1/2")
    assert d == []
    c1, c2 = r.elements
    assert c1.after == (Replay("B", (Move(1, 6), Move(1, 5))), Mark("B", 2))
    assert c1.after[0].span[:2] == (5, 4) and c1.after[0].moves[1].span[:2] == (5, 21)
    assert c2.number == 4


def test_with_a_glyph_and_a_comment_glued_after() -> None:
    c, d = coup("3. A 5-4 1/4 1/5 B:fait-jouer(1/6 1/5)! {fausse case}")
    assert d == []
    assert [type(a).__name__ for a in c.after] == ["Replay", "Glyph", "Comment"]


# --- spans -----------------------------------------------------------------------------


def test_spans_of_the_action_and_of_each_inner_move() -> None:
    line = "3. A 5-4 1/4 1/5 B:fait-jouer(1/6 -4)"
    text = HEAD + "{x}\n" + line + "\n"
    (r,), d = parse_text(text)
    assert d == []
    (rep,) = r.elements[1].after
    s = rep.span
    assert (s.line, s.col, s.end_line, s.end_col) == (5, 18, 5, 38)
    assert text[s.offset : s.offset + s.end_col - s.col] == "B:fait-jouer(1/6 -4)"
    got = [
        (m.span.line, m.span.col, m.span.end_col, text[m.span.offset : m.span.offset + m.span.end_col - m.span.col])
        for m in rep.moves
    ]
    assert got == [(5, 31, 34, "1/6"), (5, 35, 37, "-4")]
    assert r.elements[1].span.end_col == 38  # the coup ends with it


def test_offsets_in_a_file_with_accents(tmp_path) -> None:
    """Offsets count characters within the game (record.Span), columns too."""
    p = tmp_path / "r.trn"
    text = '[Event "Cercle de la Défense"]\n\n{très}\n3. A 5-4 1/4 1/5 A:rejoué(1/9)\n'
    p.write_text(text, encoding="utf-8")
    (pr,) = list(iter_records(p))
    assert pr.diagnostics == []
    (rep,) = pr.record.coups[0].after
    assert text[rep.span.offset : rep.span.offset + rep.span.end_col - rep.span.col] == "A:rejoué(1/9)"
    assert (rep.span.line, rep.span.col, rep.span.end_col) == (4, 18, 31)
    m = rep.moves[0].span
    assert text[m.offset : m.offset + 3] == "1/9" and (m.line, m.col, m.end_col) == (4, 27, 30)


# --- diagnostics ---------------------------------------------------------------------

LINE = "3. A 5-4 1/4 1/5 "  # the action starts at column 18 of line 4


@pytest.mark.parametrize(
    "tail,want",
    [
        ("B:fait-jouer()", [("bad-action", "error", 4, 18)]),
        ("B:fait-jouer(  )", [("bad-action", "error", 4, 18)]),
        ("B:fait-jouer", [("bad-action", "error", 4, 18)]),
        ("A:rejoue", [("bad-action", "error", 4, 18)]),
        ("B:fait-jouer(1/6 hop)", [("bad-move", "error", 4, 35)]),
        ("B:fait-jouer(0/6 1/5)", [("bad-move", "error", 4, 31)]),
        ("B:fait-jouer(1/26)", [("bad-move", "error", 4, 31)]),
        ("B:fait-jouer(25/off)", [("bad-move", "error", 4, 31)]),
        ("B:fait-jouer(1/6 -7)", [("bad-move", "error", 4, 35)]),
        ("B:fait-jouer(1/6 x0)", [("bad-move", "error", 4, 35)]),
        ("B:fait-jouer(1/6 B+2)", [("bad-move", "error", 4, 35)]),
        ("B:fait-jouer(1/6,1/5)", [("bad-move", "error", 4, 31)]),
        ("B:fait-jouer(1/6 \\) )", [("bad-move", "error", 4, 35)]),
        ("B:fait-jouer(1/6 --)", [("bad-move", "error", 4, 35)]),
        ("B:fait-jouer(-- 1/6)", [("bad-move", "error", 4, 31)]),
        ("B:fait-jouer(-- --)", [("bad-move", "error", 4, 34)]),
        (
            "B:fait-jouer(hop 0/3 -9)",
            [("bad-move", "error", 4, 31), ("bad-move", "error", 4, 35), ("bad-move", "error", 4, 39)],
        ),
        ("B:fait-jouer(1/6 1/5", [("bad-action", "error", 4, 18)]),
        ("B:fait-jouer(1/6 1/5)x", [("bad-action", "error", 4, 18)]),
        ("B:fait-jouerie(1/6)", [("unknown-keyword", "error", 4, 20)]),
    ],
)
def test_bad_contents_drop_the_action_with_a_diagnostic(tail: str, want: list) -> None:
    c, d = coup(LINE + tail)
    assert codes(d) == want
    assert c.moves == (Move(1, 4), Move(1, 5))  # nothing inside leaks into the coup's moves
    assert not any(isinstance(a, Replay) for a in c.before + c.after)


def test_a_number_is_a_warning_and_the_replay_is_kept() -> None:
    c, d = coup(LINE + "B:fait-jouer+2(1/12)")
    assert codes(d) == [("bad-action", "warning", 4, 18)]
    assert c.after == (Replay("B", (Move(1, 12),)),)


def test_reading_goes_on_after_a_bad_replay() -> None:
    r, d = read(LINE + "B:fait-jouer(1/6 zz) B+2 {ok}\n4. B 2-1 1/3 1/2\n5. A 1-1 A:rejoue(\n6. B 3-1 1/4 1/2")
    assert codes(d) == [("bad-move", "error", 4, 35), ("bad-action", "error", 6, 10)]
    c3, c4, c5, c6 = r.elements
    assert c3.after == (Mark("B", 2), Comment("ok"))
    assert [c4.number, c5.number, c6.number] == [4, 5, 6]
    assert c5.before == c5.after == () and c6.moves == (Move(1, 4), Move(1, 2))


def test_unclosed_parenthesis_stops_before_a_comment() -> None:
    c, d = coup(LINE + "B:fait-jouer(1/6 1/5 {note}")
    assert codes(d) == [("bad-action", "error", 4, 18)]
    assert d[0].span.end_col == 39
    assert c.after == (Comment("note"),)


def test_strict_makes_the_number_warning_an_error() -> None:
    _, d = parse_text(HEAD + LINE + "B:fait-jouer+2(1/12)\n", strict=True)
    assert codes(d) == [("bad-action", "error", 4, 18)]


# --- compact records -------------------------------------------------------------------


def test_a_replay_is_not_a_mark_in_a_compact_record() -> None:
    tags = '[A "x"]\n[B "y"]\n[Record "compact"]\n\n'
    r, d = read("relevé 1\n1. A 5-4 1/4 1/5 B:fait-jouer(1/6 1/5)\n2. B 2-1 A:rejoue(--) 1/3 1/2", tags)
    assert d == []
    assert r.mode == "compact"
    assert r.coups[0].after == (Replay("B", (Move(1, 6), Move(1, 5))),)
    assert r.coups[1].before == (Replay("A", ()),)
    _, d = read("relevé 1\n1. A 5-4 1/4 1/5 B:fait-jouer(1/6 1/5) B+2", tags)
    assert codes(d) == [("marks-in-compact-record", "warning", 6, 40)]


# --- round trips and fuzz ------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(coups, replays, st.booleans())
def test_coup_with_a_replay_round_trips(c: Coup, rep: Replay, first: bool) -> None:
    after = (rep, *c.after) if first else (*c.after, rep)
    c2 = Coup(c.number, c.side, c.roll, c.moves, c.before, after)
    text = write_coup(c2)
    word = "rejoue" if rep.who == c.side else "fait-jouer"
    assert f"{rep.who}:{word}(" in text
    r = Record({"A": "x", "B": "y", "Record": "compact"}, [c2])
    back, d = parse_text(write_record(r))
    assert back == [r]
    marks = [a for a in c2.before + c2.after if isinstance(a, (Mark, NeMarquePas, Ecole, Correction, Pavillon))]
    assert any(x.code == "marks-in-compact-record" for x in d) == bool(marks)
    assert write_record(back[0]) == write_record(r)


@settings(max_examples=200, deadline=None)
@given(st.lists(moves, max_size=4), st.sampled_from(SPELLINGS), st.sampled_from("ABCD"))
def test_any_written_play_reads_back(ms: list, word: str, who: str) -> None:
    body = " ".join(write_action(m) for m in ms) or "--"
    c, d = coup(f"1. A 3-2 1/4 1/3 {who}:{word}({body})")
    assert d == [] and c.after == (Replay(who, tuple(ms)),)


_inner = st.text(st.sampled_from("0123456789/-xXoff bande()\\{}\t!?$é"), max_size=25)


@settings(max_examples=300, deadline=None)
@given(_inner, st.sampled_from(["fait-jouer", "rejoue", "impose"]), st.sampled_from(["", " B+2", "\n4. B 2-1 1/3 1/2"]))
def test_any_contents_never_raise_and_rewrite_stably(inner: str, word: str, tail: str) -> None:
    text = f"{HEAD}3. A 5-4 1/4 1/5 B:{word}({inner}){tail}\n"
    recs, diags = parse_text(text)
    assert len(diags) <= MAX_DIAGNOSTICS + 1
    assert all(x.span.line >= 4 and x.span.col >= 1 for x in diags)
    once = write_records(recs)
    again, _ = parse_text(once)
    assert write_records(again) == once
    reps = [a for c in recs[0].coups for a in c.before + c.after if isinstance(a, Replay)]
    bad = [x for x in diags if x.code in ("bad-move", "bad-action") and x.span.line == 4]
    assert bool(reps) != bool(bad) or "(" in inner or ")" in inner  # dropped iff diagnosed


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "1. A 6-5 ",
                "1/7 ",
                "B:fait-jouer(",
                "A:rejoue(",
                "1/12",
                ")",
                " ",
                "--",
                "-6",
                "\n",
                "{c}",
                "(",
                "B+2 ",
            ]
        ),
        max_size=30,
    ).map("".join)
)
def test_replay_soup_never_raises_and_both_paths_agree(text: str) -> None:
    text = HEAD + text
    fast, slow = parse_both(text)
    assert fast[0] == slow[0]
    assert [(x.code, x.span) for x in fast[1]] == [(x.code, x.span) for x in slow[1]]
    list(iter_records(io.BytesIO(text.encode())))
