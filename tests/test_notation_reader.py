"""The .trn reader: every construct, the fixtures, the broken files, and fuzzing
(issue 4; docs/notation.md)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from notation_strategies import coups, parse_both, records

import trictrac.notation.reader as reader
from trictrac.club.rows import write_with_rows  # the import's writer: text and rows
from trictrac.notation.reader import (
    MAX_DIAGNOSTICS,
    format_diagnostic,
    index_records,
    iter_records,
    parse_partie,
    parse_text,
)
from trictrac.notation.record import (
    OFF,
    CannotPlay,
    Comment,
    Correction,
    Coup,
    Decision,
    Ecole,
    Glyph,
    JouePourTout,
    Mark,
    MarqueResult,
    MarqueStart,
    Move,
    NeMarquePas,
    ReleveStart,
    Replay,
)
from trictrac.notation.writer import write_coup, write_records

FIX = Path(__file__).resolve().parent.parent / "fixtures"
RECORDS = sorted((FIX / "records").glob("*.trn"))
BROKEN = sorted((FIX / "broken").glob("*.trn"))


def one(text: str):
    recs, diags = parse_text(text)
    assert len(recs) == 1
    return recs[0], diags


def coup(line: str) -> tuple[Coup, list]:
    r, d = one('[A "x"]\n\n' + line + "\n")
    c = r.elements[0]
    assert isinstance(c, Coup)
    return c, d


# --- constructs ----------------------------------------------------------------------


def test_coup_with_every_kind_of_action_in_order() -> None:
    c, d = coup(
        "12. A 6-5 A+4 A:reste 1/7 1/12 -5 B+2b B:école+4(oubli) A:correction-2t+1 B:fait-jouer(1/12 -5) ! {bien}"
    )
    assert d == []
    assert (c.number, c.side, c.roll) == (12, "A", (6, 5))
    assert c.before == (Mark("A", 4), Decision("A", False))
    assert c.moves == (Move(1, 7), Move(1, 12), CannotPlay(5))
    assert c.after == (
        Mark("B", 2, None, True),
        Ecole("B", 4, "oubli"),
        Correction("A", -2, 1),
        Replay("B", (Move(1, 12), CannotPlay(5))),
        Glyph("!"),
        Comment("bien"),
    )


def test_mark_with_holes_and_bredouille_flags() -> None:
    c, _ = coup("5. A 6-5 A+16t2b A+4s 1/7")
    assert c.before == (Mark("A", 16, 2, True), Mark("A", 4, None, False))


def test_doublet_names_and_reversed_dice() -> None:
    for name, n in [
        ("bezet", 1),
        ("Beset", 1),
        ("double-deux", 2),
        ("terne", 3),
        ("ternes", 3),
        ("carme", 4),
        ("quaterne", 4),
        ("carne", 4),
        ("quine", 5),
        ("sonnez", 6),
    ]:
        c, d = coup(f"1. A {name} 1/2")
        assert c.roll == (n, n) and d == []
    c, _ = coup("1. b 4-6 1/7")
    assert (c.side, c.roll) == ("B", (6, 4))


def test_bear_off_spellings() -> None:
    c, _ = coup("9. A 6-5 19/off 20/25 24/bande")
    assert c.moves == (Move(19, OFF), Move(20, OFF), Move(24, OFF))


def test_keywords_accept_unaccented_and_english_aliases() -> None:
    c, d = coup("3. A 6-6 A:leave A:stay A:nmp A:school+2 A:ecole+2 A:pour-tout A:je-m'en-vais")
    assert d == []
    assert c.before == (
        Decision("A", True),
        Decision("A", False),
        NeMarquePas("A"),
        Ecole("A", 2),
        Ecole("A", 2),
        JouePourTout("A"),
        Decision("A", True),
    )


def test_no_moves_placeholder_separates_before_and_after() -> None:
    c, _ = coup("4. B 3-3 -- A+2")
    assert c.before == () and c.moves == () and c.after == (Mark("A", 2),)


def test_sections_and_results() -> None:
    r, d = one(
        '[A "x"]\n\nmarqué 2 A-C\nrelevé 3\nrésultat C 9-4 grande-bredouille valeur 40\nresultat refait 7-7\nmarque 3\n'
    )
    assert d == []
    assert r.elements == [
        MarqueStart(2, ("A", "C")),
        ReleveStart(3),
        MarqueResult("C", 9, 4, "grande", False, 40),
        MarqueResult(None, 7, 7, "none", True, None),
        MarqueStart(3),
    ]


def test_comment_on_its_own_line_is_an_element_and_inline_belongs_to_the_coup() -> None:
    r, _ = one('[A "x"]\n\n1. A 6-5 1/7 1/6 {sur la ligne}\n{seul}\n2. B 2-1 1/3 1/2\n   B+2 {suite}\n')
    c1, com, c2 = r.elements
    assert c1.after == (Comment("sur la ligne"),)
    assert com == Comment("seul")
    assert c2.after == (Mark("B", 2), Comment("suite"))  # a continuation line extends the coup


def test_multiline_comment_and_escapes() -> None:
    r, d = one('[A "x"]\n\n{une\nremarque \\} avec accolade}\n')
    assert d == [] and r.elements == [Comment("une\nremarque } avec accolade")]


def test_headers_in_canonical_order_and_unknown_tags_kept() -> None:
    r, _ = one('[Zzz "1"]\n[B "b"]\n[Event "e \\"q\\""]\n[A "a"]\n')
    assert list(r.headers) == ["Event", "A", "B", "Zzz"]
    assert r.headers["Event"] == 'e "q"'


def test_record_mode_and_partie() -> None:
    r, _ = one('[Record "COMPACT"]\n[Partie "à écrire 8"]\n')
    assert r.mode == "compact" and r.headers["Partie"] == "a-ecrire 8"
    assert parse_partie("douze trous") == ("douze-trous", None)
    assert parse_partie("chouette 6") == ("chouette", 6)
    assert parse_partie("A tourner 9") == ("a-tourner", 9)
    assert parse_partie("poker") is None


def test_spans_point_at_the_tokens() -> None:
    r, _ = one('[A "x"]\n\n  7. B 6-5 A+4 1/7\n')
    c = r.elements[0]
    assert (c.span.line, c.span.col) == (3, 3)
    assert (c.before[0].span.line, c.before[0].span.col, c.before[0].span.end_col) == (3, 12, 15)
    assert (c.moves[0].span.col, c.moves[0].span.end_col) == (16, 19)


def test_strict_turns_warnings_into_errors() -> None:
    text = '[A "x"]\n[A "y"]\n'
    _, d = parse_text(text)
    assert [(x.code, x.severity) for x in d] == [("duplicate-tag", "warning")]
    _, d = parse_text(text, strict=True)
    assert [(x.code, x.severity) for x in d] == [("duplicate-tag", "error")]


def test_position_errors_are_placed_inside_the_tag() -> None:
    _, d = parse_text('[A "x"]\n[Position "A{1:15} B{1:15} foo"]\n')
    assert [(x.span.line, x.span.col, x.code) for x in d] == [(2, 28, "position-unknown-token")]


def test_blank_line_ends_a_tag_block() -> None:
    recs, _ = parse_text('[Event "1"]\n\n[Event "2"]\n')
    assert [r.headers["Event"] for r in recs] == ["1", "2"]


def test_diagnostics_are_capped() -> None:
    _, d = parse_text('[A "x"]\n\n' + "zz " * 1000)
    assert len(d) == MAX_DIAGNOSTICS + 1 and d[-1].code == "too-many-diagnostics"


def test_caret_rendering() -> None:
    _, d = parse_text('[A "x"]\n\n1. A 6-5 1/7 hop\n', file="g.trn")
    out = format_diagnostic(d[0], "1. A 6-5 1/7 hop")
    assert out.splitlines() == [
        "g.trn:3:14: error: unknown-token: not a coup, move, mark or keyword of the notation",
        "    1. A 6-5 1/7 hop",
        "                 ^^^",
    ]


# --- fixtures ------------------------------------------------------------------------


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_fixture_records_read_cleanly(path: Path) -> None:
    prs = list(iter_records(path))
    assert prs and all(pr.diagnostics == [] for pr in prs)
    for pr in prs:
        assert pr.record.coups, "every fixture game has coups"
    canonical = "sloppy" not in path.name
    assert (write_records([pr.record for pr in prs]) == path.read_text(encoding="utf-8")) == canonical


@pytest.mark.parametrize("path", [p for p in RECORDS if "sloppy" in p.name], ids=lambda p: p.name)
def test_sloppy_fixture_formats_to_its_canonical_twin(path: Path) -> None:
    twin = path.with_name(path.name.replace("_sloppy", ""))
    recs = [pr.record for pr in iter_records(path)]
    assert write_records(recs) == twin.read_text(encoding="utf-8")


def test_fixtures_cover_every_construct() -> None:
    seen: set[str] = set()
    for path in RECORDS:
        for pr in iter_records(path):
            r = pr.record
            seen.update(k for k in ("Position", "C", "D") if k in r.headers)
            seen.add(r.mode)
            for e in r.elements:
                seen.add(type(e).__name__)
                if isinstance(e, Coup):
                    seen.update(type(a).__name__ for a in e.before + e.moves + e.after)
                    seen.update("holes" for a in e.before if isinstance(a, Mark) and a.holes)
    want = {
        "Position",
        "C",
        "D",
        "full",
        "compact",
        "Coup",
        "Comment",
        "ReleveStart",
        "MarqueStart",
        "MarqueResult",
        "Move",
        "CannotPlay",
        "Mark",
        "holes",
        "Decision",
        "Ecole",
        "Correction",
        "JouePourTout",
        "Replay",
        "Pavillon",
        "Glyph",
    }
    assert want <= seen, want - seen


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.name)
def test_broken_fixture_gives_the_expected_diagnostics(path: Path) -> None:
    got = [f"{d.span.line}:{d.span.col}: {d.severity}: {d.code}" for pr in iter_records(path) for d in pr.diagnostics]
    assert got == path.with_suffix(".expected").read_text().splitlines()


def test_unclosed_comment_does_not_eat_the_next_game() -> None:
    recs = [pr.record for pr in iter_records(FIX / "broken" / "broken_unclosed_comment.trn")]
    assert len(recs) == 2
    assert [c.number for c in recs[0].coups] == [1, 2, 3]
    assert recs[1].headers["Event"] == "La partie suivante est lue"
    assert recs[1].coups[0].after == (Comment("fermé"),)


def test_latin1_file_is_read_with_a_warning() -> None:
    (pr,) = list(iter_records(FIX / "broken" / "broken_latin1.trn"))
    assert pr.record.headers["Event"] == "Cercle de la Défense"
    assert pr.record.coups[0].after == (Comment("très bien"),)


def test_index_matches_games_in_broken_files() -> None:
    for path in BROKEN:
        assert len(index_records(path)) == len(list(iter_records(path)))


# --- never raise ---------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes_never_raise(data: bytes) -> None:
    for pr in iter_records(io.BytesIO(data)):
        assert all(d.span.line >= 1 for d in pr.diagnostics)


_pieces = st.sampled_from(
    [
        "[",
        "]",
        '"',
        "{",
        "}",
        "\n",
        "\n\n",
        " ",
        "1.",
        "12. A ",
        "6-5",
        "sonnez",
        "1/7",
        "19/off",
        "-5",
        "--",
        "A+4",
        "A+4t1b",
        "B:école+2(",
        ")",
        "A:reste",
        "relevé 1",
        "marqué 2 A-C",
        "résultat A 8-3",
        "!",
        "$3",
        '[Event "x"]',
        '[Position "A{1:15} B{1:15}"]',
        "\\",
        "\x00",
        "é",
        "\r\n",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_pieces, max_size=40).map("".join))
def test_random_token_soup_never_raises(text: str) -> None:
    recs, diags = parse_text(text)
    again, _ = parse_text(write_records(recs))
    assert write_records(again) == write_records(recs)  # whatever was read is writable and stable


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_random_text_never_raises(text: str) -> None:
    parse_text(text)


def test_pathological_inputs() -> None:
    cases = [
        "{" * 10_000,
        "[" * 10_000,
        '[A "' + "\\" * 5001 + '"]',
        "1. A 6-5 " + "1/7 " * 50_000,
        "A:école+4(" + "x" * 100_000,
        "\x00" * 10_000,
        '\ufeff[Event "bom"]\n',
        "x" * 10_000_000,  # a 10 MB line
    ]
    for text in cases:
        recs, diags = parse_text(text)
        assert len(diags) <= MAX_DIAGNOSTICS + 1
        list(iter_records(io.BytesIO(text.encode("utf-8", "surrogatepass"))))
    recs, _ = parse_text('\ufeff[Event "bom"]\n')
    assert recs[0].headers == {"Event": "bom"}


def _spans(c: Coup) -> list:
    return [c.span] + [x.span for x in c.before + c.moves + c.after]


@settings(max_examples=300, deadline=None)
@given(st.lists(coups, min_size=1, max_size=3), st.sampled_from(["", "\r", " ", "  {c}"]))
def test_fast_path_reads_like_the_token_path(cs: list[Coup], tail: str) -> None:
    """The fast path for canonical coup lines gives the same coups, spans and
    diagnostics as the token-by-token path."""
    text = '[A "x"]\n\n' + "".join(write_coup(c) + tail + "\n" for c in cs)
    fast, d1 = parse_text(text)
    reader._FAST_OFF = True
    try:
        slow, d2 = parse_text(text)
    finally:
        reader._FAST_OFF = False
    assert fast == slow
    for a, b in zip(fast[0].elements, slow[0].elements):
        assert type(a) is type(b)
        if isinstance(a, Coup):
            assert _spans(a) == _spans(b)
            assert b.canonical_line is None  # the token path keeps no line
            if a.canonical_line is not None:  # kept as read: the writer's own line
                assert a.canonical_line == write_coup(a) and not a.before and not a.after
        else:
            assert a.span == b.span
    assert [(x.code, x.span) for x in d1] == [(x.code, x.span) for x in d2]
    assert write_with_rows(fast[0]) == write_with_rows(slow[0])


_parse_both = parse_both


def _same(fast, slow) -> None:
    (rf, df), (rs, ds) = fast, slow
    assert rf == rs
    for a, b in zip(rf, rs):
        assert a.span == b.span
        for x, y in zip(a.elements, b.elements):
            assert x.span == y.span
            if isinstance(x, Coup):
                assert _spans(x) == _spans(y)
    assert [(x.code, x.severity, x.span, x.text) for x in df] == [(x.code, x.severity, x.span, x.text) for x in ds]
    # the club's import writes the fast path's coups from the lines as read: same text
    # (the game's id is its hash), same rows, as the token path's written by the writer
    for a, b in zip(rf, rs):
        assert write_with_rows(a) == write_with_rows(b)


@settings(max_examples=150, deadline=None)
@given(st.lists(records, min_size=1, max_size=3))
def test_fast_path_reads_whole_records_like_the_token_path(rs) -> None:
    _same(*_parse_both(write_records(rs)))


@pytest.mark.parametrize("path", RECORDS + BROKEN, ids=lambda p: p.name)
def test_fast_path_reads_fixtures_like_the_token_path(path: Path) -> None:
    _same(*_parse_both(path.read_bytes().decode("utf-8", "replace")))
