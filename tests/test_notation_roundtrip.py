"""parse(write(r)) == r, write idempotent, archives split by position (issue 4)."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from notation_strategies import coups, records

from trictrac.notation.reader import index_records, iter_records, parse_text, read_record_at
from trictrac.notation.record import Comment, Coup, Record
from trictrac.notation.writer import write_record, write_records


@settings(max_examples=300, deadline=None)
@given(records)
def test_parse_write_round_trip(r: Record) -> None:
    text = write_record(r)
    back, diags = parse_text(text)
    assert len(back) == 1, (text, diags)
    assert back[0] == r, text
    assert write_record(back[0]) == text  # idempotent


@settings(max_examples=100, deadline=None)
@given(st.lists(records, min_size=1, max_size=4))
def test_many_games_round_trip(rs: list[Record]) -> None:
    text = write_records(rs)
    back, _ = parse_text(text)
    assert back == rs


@settings(max_examples=200, deadline=None)
@given(coups)
def test_coup_line_round_trip(c: Coup) -> None:
    r = Record({"A": "x", "B": "y"}, [c])
    back, _ = parse_text(write_record(r))
    assert back[0].elements == [c]


def test_fmt_is_a_fixed_point_of_sloppy_text() -> None:
    sloppy = (
        '[Partie "à écrire 8"]\n[Record "Full"]\n'
        "marque 1 A-B\nreleve 1\n"
        "1. a 5-6 1/7 1/6 A:replay( 1/12 )\n2. B sonnez A+4B 1/7 1/7\n3. A carme 1/5 1/5 B:ecole+4(oubli) A:stay\n"
        "4. B 3-1 1/bande x1 A:impose(1/o  x1)\n5. A 6-5 A:leave\nresultat refait 6-6\n"
    )
    recs, diags = parse_text(sloppy)
    once = write_records(recs)
    assert "relevé 1" in once and "marqué 1 A-B" in once and "2. B 6-6" in once
    assert "B:école+4(oubli)" in once and "A:reste" in once and "A:s'en-va" in once
    assert "1. A 6-5 1/7 1/6 A:rejoue(1/12)\n" in once and "4. B 3-1 1/off -1 A:fait-jouer(1/off -1)\n" in once
    assert '[Partie "a-ecrire 8"]' in once and '[Record "full"]' in once
    again, _ = parse_text(once)
    assert write_records(again) == once


def test_archive_index_and_random_access(tmp_path) -> None:
    rs = [Record({"Event": f"g{i}", "A": "é" * i, "B": "b"}, [Comment(f"game {i}")]) for i in range(5)]
    p = tmp_path / "archive.trn"
    p.write_text(write_records(rs), encoding="utf-8")
    idx = index_records(p)
    assert len(idx) == 5
    data = p.read_bytes()
    assert sum(n for _, n in idx) == len(data)
    for i, (off, _n) in enumerate(idx):
        assert data[off : off + 1] == b"["
        pr = read_record_at(p, off)
        assert pr is not None and pr.record == rs[i]
    streamed = [pr.record for pr in iter_records(p)]
    assert streamed == rs
    assert [r.span.offset for r in streamed] == [off for off, _ in idx]


def test_streams_text_and_binary() -> None:
    text = write_records([Record({"A": "x", "B": "y"}, [Comment("hé")])] * 2)
    a = [pr.record for pr in iter_records(io.StringIO(text))]
    b = [pr.record for pr in iter_records(io.BytesIO(text.encode()))]
    assert a == b and len(a) == 2


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                '[Event "x"]\n',
                '[A "y"]\n',
                "\n",
                "  \n",
                "{note}\n",
                "1. A 6-5 1/7 1/6\n",
                "relevé 1\n",
                ' [B "z"]\n',
                "junk\n",
                "{a\nb}\n",
                "é\n",
                "\r\n",
            ]
        ),
        max_size=30,
    ).map("".join),
    st.integers(1, 64),
)
def test_block_splitter_agrees_with_the_line_splitter(text: str, chunk: int) -> None:
    """Games are cut at the same places from bytes (by blocks) and from text (by lines),
    whatever the block size."""
    from trictrac.notation import reader

    old = reader._CHUNK
    reader._CHUNK = chunk
    try:
        data = text.encode("utf-8")
        by_blocks = [(first, d.decode("utf-8")) for _off, first, d in reader._split_bytes(io.BytesIO(data))]
    finally:
        reader._CHUNK = old
    by_lines = [(first, "".join(lines)) for _off, first, lines, _ in reader._split_text(reader._text_lines(text))]
    assert by_blocks == by_lines
