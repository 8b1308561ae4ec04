"""Hypothesis strategies that generate :class:`Record` values (reusable by other tests).

Every record generated here can be written and read back unchanged
(``parse_text(write_record(r)) == r``): texts avoid what the format cannot hold
(blank lines inside comments, ``\\r``), header names are identifiers.

    from notation_strategies import records, coups
"""

from __future__ import annotations

from hypothesis import strategies as st

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
    Pavillon,
    Record,
    ReleveStart,
    Replay,
)

SIDES = st.sampled_from("AB")
SIDES4 = st.sampled_from("ABCD")
small = st.integers(0, 40)

# printable text, including braces, backslashes, quotes, accents and odd spaces
_alphabet = st.characters(
    blacklist_categories=("Cs", "Cc"),
    blacklist_characters="\r\n\u2028\u2029\x85",
) | st.sampled_from('{}\\"()[]é ')
line_text = st.text(_alphabet, max_size=30)


@st.composite
def comment_texts(draw: st.DrawFn) -> str:
    """One or more non-blank lines (a comment never holds a blank line)."""
    first = draw(line_text)
    more = draw(st.lists(line_text.filter(lambda s: s.strip() != ""), max_size=2))
    if not more:
        return first
    if first.strip() == "":
        first = "x" + first
    return "\n".join([first, *more])


comments = st.builds(Comment, comment_texts())
glyphs = st.builds(Glyph, st.sampled_from(["!", "?", "!!", "??", "!?", "?!", "$1", "$14", "$201"]))
reasons = st.none() | line_text

moves = st.one_of(
    st.builds(Move, st.integers(1, 24), st.integers(1, 24)),
    st.builds(Move, st.integers(1, 24), st.just(OFF)),
    st.builds(CannotPlay, st.integers(1, 6)),
)
# a table remedy (RULES.md §9.5): by the roller (rejoue) or the opponent (fait-jouer);
# no moves is written "(--)"
replays = st.builds(Replay, SIDES4, st.lists(moves, max_size=3).map(tuple))

marks = st.builds(Mark, SIDES4, small, st.none() | st.integers(0, 6), st.none() | st.booleans())
actions = st.one_of(
    marks,
    st.builds(NeMarquePas, SIDES4),
    st.builds(Decision, SIDES4, st.booleans()),
    st.builds(Ecole, SIDES4, small, reasons),
    st.builds(Correction, SIDES4, st.integers(-20, 20), st.integers(-3, 3), reasons),
    st.builds(JouePourTout, SIDES4),
    st.builds(Pavillon, SIDES4),  # prendre le pavillon (RULES.md §5.4)
    replays,
    comments,
    glyphs,
)


@st.composite
def rolls(draw: st.DrawFn) -> tuple[int, int]:
    a, b = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    return (max(a, b), min(a, b))


coups = st.builds(
    Coup,
    st.integers(1, 200),
    SIDES4,
    rolls(),
    st.lists(moves, max_size=3).map(tuple),
    st.lists(actions, max_size=3).map(tuple),
    st.lists(actions, max_size=3).map(tuple),
)


@st.composite
def results(draw: st.DrawFn) -> MarqueResult:
    if draw(st.booleans()):
        h = draw(st.integers(6, 12))
        return MarqueResult(None, h, h, "none", True, draw(st.none() | small))
    return MarqueResult(
        draw(SIDES4),
        draw(st.integers(0, 20)),
        draw(st.integers(0, 20)),
        draw(st.sampled_from(["none", "petite", "grande"])),
        False,
        draw(st.none() | small),
    )


elements = st.one_of(
    coups,
    coups,
    coups,
    st.builds(ReleveStart, st.integers(1, 30)),
    st.builds(
        MarqueStart, st.integers(1, 12), st.none() | st.sampled_from([("A", "B"), ("A", "C"), ("B", "D"), ("C", "A")])
    ),
    results(),
    comments,
)

_tag_names = st.from_regex(r"[A-Z][A-Za-z0-9_]{0,8}", fullmatch=True).filter(
    lambda n: n not in ("Record", "Partie", "Position", "White", "Black")  # tags the reader diagnoses
)
_tag_values = st.text(_alphabet, max_size=25)


@st.composite
def headers(draw: st.DrawFn) -> dict[str, str]:
    h: dict[str, str] = {}
    if draw(st.booleans()):
        h["Event"] = draw(_tag_values)
    h["A"] = draw(_tag_values)
    h["B"] = draw(_tag_values)
    if draw(st.booleans()):
        h["Partie"] = draw(st.sampled_from(["douze-trous", "a-ecrire 8", "a-quatre 8", "chouette 6", "a-tourner 9"]))
    if draw(st.booleans()):
        h["Record"] = draw(st.sampled_from(["full", "compact"]))
    if draw(st.booleans()):
        h["Position"] = draw(st.sampled_from(["A{1:15} B{1:15}", "A{1:13,12:2} B{1:15} turn=B coups=1/1 coin=1/0"]))
    for k, v in draw(st.dictionaries(_tag_names, _tag_values, max_size=3)).items():
        h.setdefault(k, v)
    return h


records = st.builds(Record, headers(), st.lists(elements, max_size=12))


def parse_both(text: str):
    """``parse_text`` by the fast path and by the general path (``reader._FAST_OFF``)."""
    import trictrac.notation.reader as reader

    fast = reader.parse_text(text)
    reader._FAST_OFF = True
    try:
        slow = reader.parse_text(text)
    finally:
        reader._FAST_OFF = False
    return fast, slow
