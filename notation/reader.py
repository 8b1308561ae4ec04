"""Reading ``.trn`` records: a streaming, never-failing parser (docs/notation.md).

A file holds any number of games.  A game starts with a block of ``[Tag "value"]``
lines; the next tag line that follows movetext starts the next game, so a broken game
never eats its neighbours.  Each game is decoded (UTF-8, else Latin-1 with a warning)
and tokenized in one pass by one regular expression; every token carries a
:class:`Span`.  Faults become :class:`Diagnostic` values; the parser recovers at the
next coup, section or game.  Nothing in the text can make it raise.

This module knows the *text* (RULES.md §9.8 event model: who marked what, in which
order, RULES.md §4.1 O1-O5), not the rules: an illegal move or a wrong mark parses.
"""

from __future__ import annotations

import functools
import gc
import io
import os
import re
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any, NamedTuple, Protocol, TypeVar

from . import limits as L
from .action_reader import ACTION_WORDS as _ACTION_WORDS
from .action_reader import KEYWORDS_HINT as _KEYWORDS_HINT
from .action_reader import read_action
from .dates import parse_date
from .position import parse_position
from .record import (
    OFF,
    TAG_ROSTER,
    Action,
    CannotPlay,
    Comment,
    Correction,
    Coup,
    Decision,
    Diagnostic,
    Ecole,
    Element,
    FaitMarquer,
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
    Remet,
    Span,
)
from .textio import open_file

__all__ = [
    "ParsedRecord",
    "iter_records",
    "parse_text",
    "index_records",
    "read_record_at",
    "parse_partie",
    "DOUBLET_NAMES",
    "MAX_DIAGNOSTICS",
]

#: a game stops collecting diagnostics after this many (one more says so)
MAX_DIAGNOSTICS = 200
#: a line longer than this gets a warning (the reader holds one game and one block in memory)
MAX_LINE = 1 << 26  # 64 MiB
_TEXT_CLIP = 60  # characters of offending text kept in a diagnostic

#: doublet names (RULES.md §1.2; 003 §17; 000 ~l.391-401) -> number, lower case
DOUBLET_NAMES: dict[str, int] = {
    "bezet": 1,
    "beset": 1,
    "besas": 1,
    "ambesas": 1,
    "double-as": 1,
    "double-deux": 2,
    "doubledeux": 2,
    "double-2": 2,
    "terne": 3,
    "ternes": 3,
    "carme": 4,
    "carmes": 4,
    "carne": 4,
    "quaterne": 4,
    "quaternes": 4,
    "quine": 5,
    "quines": 5,
    "sonnez": 6,
    "sonnes": 6,
    "sonnés": 6,
    "sonne": 6,
}


_BREDOUILLE = {"petite-bredouille": "petite", "petite": "petite", "grande-bredouille": "grande", "grande": "grande"}

# Repeated groups are possessive (``*+``, Python 3.11+): the regex engine then keeps no
# backtracking state per repetition, so a tag value of 500,000 escapes or a comment of
# 500,000 lines costs constant memory, not 400 MB (issue 27 row 1).  Each such group is
# written so that giving a repetition back could never lead to a match (what it repeats
# excludes what follows it), so possessive and greedy read the same tokens;
# tests/test_resilience_bounds.py walks every pattern of notation/ for unbounded repeats
# of groups that are not possessive.  Hence Python 3.11 at least (pyproject.toml, README).
_PO = "+"
_W = r"(?=[\s{}]|\Z)"  # end of a word
_WG = r"(?=[\s{}!?$]|\Z)"  # end of a word that a glyph may follow directly

_TOKEN = re.compile(
    r"[^\S\n]*(?:"
    r"(?P<nl>\n)"
    rf"|(?P<move>(?P<mv_a>[0-9]{{1,9}})/(?P<mv_b>[0-9]{{1,9}}|[oO][fF][fF]|[bB]ande|[oO])){_WG}"
    rf"|(?P<mark>(?P<mk_who>[A-D])\+(?P<mk_pts>[0-9]{{1,9}})(?:t(?P<mk_holes>[0-9]{{1,9}}))?(?P<mk_bs>[bs])?){_WG}"
    rf"|(?P<head>(?P<hd_num>[0-9]{{1,9}})\.[ \t]*(?P<hd_side>[A-Da-d])[ \t]+"
    rf"(?:(?P<hd_r1>[0-9])-(?P<hd_r2>[0-9])|(?P<hd_name>[^\W\d_][\w-]*))){_WG}"
    rf"|(?P<com>\{{[^}}\\\n]*{_PO}(?:(?:\\.|\n(?![^\S\n]*\n))[^}}\\\n]*{_PO})*{_PO}\}})"
    rf"|(?P<act>(?P<ac_who>[A-D]):(?P<ac_word>[^\W\d_][\w'’]*{_PO}(?:-[^\W\d_][\w'’]*{_PO})*{_PO})(?P<ac_num>[+-][0-9]{{1,9}})?"
    rf"(?:t(?P<ac_holes>[+-][0-9]{{1,9}}))?(?:\((?P<ac_reason>[^\\)\n]*{_PO}(?:\\.[^\\)\n]*{_PO})*{_PO})\))?){_WG}"
    rf"|(?P<gly>!!|\?\?|!\?|\?!|!|\?|\$[0-9]{{1,9}}){_W}"
    rf"|(?P<cant>[-xX](?P<ct_n>[0-9]{{1,9}})){_WG}"
    rf"|(?P<none>--){_W}"
    rf"|(?P<tag>\[[ \t]*(?P<tg_name>[A-Za-z][A-Za-z0-9_-]*)[ \t]+\"(?P<tg_value>[^\"\\\n]*{_PO}(?:\\.[^\"\\\n]*{_PO})*{_PO})\"[ \t]*\])"
    r"(?=[^\S\n]*(?:\n|\Z))"
    rf"|(?P<rel>(?i:relev[eé]|deal)[ \t]+(?P<rl_n>[0-9]{{1,9}})){_W}"
    rf"|(?P<mq>(?i:marqu[eé])[ \t]+(?P<mq_n>[0-9]{{1,9}})(?:[ \t]+(?P<mq_p1>[A-D])-(?P<mq_p2>[A-D]))?){_W}"
    r"|(?P<res>(?i:r[eé]sultat|result)[ \t]+(?:(?P<rs_w>[A-D])|(?i:refait|void))[ \t]+(?P<rs_wh>[0-9]{1,9})-(?P<rs_lh>[0-9]{1,9})"
    r"(?:[ \t]+(?P<rs_bred>(?i:petite-bredouille|grande-bredouille|petite|grande)))?"
    rf"(?:[ \t]+(?i:valeur|value)[ \t]+(?P<rs_val>[0-9]{{1,9}}))?){_W}"
    r"|(?P<ucom>\{[^\n]*)"
    r"|(?P<line>\[[^\n]*|(?i:r[eé]sultat|result|relev[eé]|marqu[eé])(?=[\s{]|\Z)[^\n]*)"
    r"|(?P<junk>[^\s{}]+|\})"
    r"|(?P<end>\Z)"
    r")"
)

# the characters of moves and cannot-plays: after a coup's fifth move the rest of such a
# run on the line is skipped in one C call (back to a token boundary)
_MOVE_RUN = re.compile(r"[ \t0-9/oOfFbBaAnNdDeExX-]*")
# a comment's body up to where it stops (at '}' if closed): a '{' found before the stop of
# an unclosed one is unclosed too (the parser then skips the rescan: linear, not quadratic)
_COM_BODY = re.compile(rf"\{{[^}}\\\n]*{_PO}(?:(?:\\.|\n(?![^\S\n]*\n))[^}}\\\n]*{_PO})*{_PO}").match
_UCOM = re.compile(r"[^\S\n]*(?P<ucom>\{[^\n]*)").match
_OPEN_BRACE = re.compile(r"[^\S\n]*\{").match
_PAREN_KEYWORD = re.compile(
    rf"[A-D]:([^\W\d_][\w'’]*{_PO}(?:-[^\W\d_][\w'’]*{_PO})*{_PO})(?:[+-][0-9]{{1,9}})?(?:t[+-][0-9]{{1,9}})?\("
).match

_UNESC_COMMENT = re.compile(r"\\([\\}\[])")
_UNESC_TAG = re.compile(r"\\([\\\"])")
_STRIP_ACCENTS = str.maketrans("àâäéèêëîïôöùûüç", "aaaeeeeiioouuuc")
_PARTIE = re.compile(r"(douze-trous|a-ecrire|a-quatre|chouette|a-tourner)(?:[- ]?([0-9]{1,4}))?\Z")
_PARTIE_ALIASES = {
    "12-trous": "douze-trous",
    "douze": "douze-trous",
    "ecrire": "a-ecrire",
    "quatre": "a-quatre",
    "tourner": "a-tourner",
}


_G = _TOKEN.groupindex
_MV_A, _MV_B = _G["mv_a"], _G["mv_b"]
_MK_WHO, _MK_PTS, _MK_HOLES, _MK_BS = _G["mk_who"], _G["mk_pts"], _G["mk_holes"], _G["mk_bs"]
_HD_NUM, _HD_SIDE, _HD_R1, _HD_R2, _HD_NAME = _G["hd_num"], _G["hd_side"], _G["hd_r1"], _G["hd_r2"], _G["hd_name"]
_CT_N, _TG_NAME, _TG_VALUE, _RL_N = _G["ct_n"], _G["tg_name"], _G["tg_value"], _G["rl_n"]
_MQ_N, _MQ_P1, _MQ_P2 = _G["mq_n"], _G["mq_p1"], _G["mq_p2"]
_RS_W, _RS_WH, _RS_LH, _RS_BRED, _RS_VAL = _G["rs_w"], _G["rs_wh"], _G["rs_lh"], _G["rs_bred"], _G["rs_val"]
# The fast path reads a whole coup line written with single spaces and tokens of this
# table (the canonical form), without the regular expression: (kind, values).
_FAST_TOK: dict[str, tuple[Any, ...]] = {}
for _a in range(1, 25):
    for _t in range(1, 26):
        _k = f"{_a}/{_t if _t < OFF else 'off'}"
        _FAST_TOK[_k] = (0, len(_k), _a, _t)
for _n in range(1, 7):
    _FAST_TOK[f"-{_n}"] = (1, 2, _n)
for _w in "ABCD":
    for _p in range(0, 49):  # more is rare (the token path reads it alike): a smaller table loads faster
        for _h in (None, 1, 2, 3, 4):
            for _bf, _bv in (("", None), ("b", True), ("s", False)):
                _k = f"{_w}+{_p}{'' if _h is None else f't{_h}'}{_bf}"
                _FAST_TOK[_k] = (2, len(_k), _w, _p, _h, _bv)
    for _k, _v in (
        (f"{_w}:reste", (Decision, _w, False)),
        (f"{_w}:s'en-va", (Decision, _w, True)),
        (f"{_w}:ne-marque-pas", (NeMarquePas, _w)),
        (f"{_w}:joue-pour-tout", (JouePourTout, _w)),
        (f"{_w}:pavillon", (Pavillon, _w)),
    ):
        _FAST_TOK[_k] = (4, len(_k), *_v)
for _g in ("!", "?", "!!", "??", "!?", "?!", *(f"${_i}" for _i in range(1, 256))):
    _FAST_TOK[_g] = (3, len(_g), _g)
_HEADNUM = {f"{_i}.": _i for _i in range(1, 1000)}
_ROLL_TEXT = {f"{_a}-{_b}": (max(_a, _b), min(_a, _b)) for _a in range(1, 7) for _b in range(1, 7)}
_SIDES = frozenset("ABCD")
_CONTINUE = frozenset(("move", "mark", "act", "gly", "cant", "none"))
_IN_COUP = frozenset(("mark", "act", "gly", "cant", "none"))  # tokens of an open coup, bar moves
_SECTIONS = frozenset(("rel", "mq", "res"))
_READ_COUP, _READ_RELEVE = 1, 2  # what the fast path read last
# a token out of its place: (code, message)
_MISPLACED = {
    "move": ("move-outside-coup", "a move must follow a coup head like '3. A 6-5'"),
    "mark": ("action-outside-coup", "a mark belongs to a coup"),
    "act": ("action-outside-coup", "this belongs to a coup"),
    "gly": ("glyph-outside-coup", "a glyph annotates a coup"),
    "cant": ("move-outside-coup", "'cannot play' belongs to a coup"),
    "none": ("move-outside-coup", "'--' (no checker moved) belongs to a coup"),
    "tag": ("misplaced-tag", "tags belong before the movetext"),
}
_BAD_MOVE = {
    "move": "a move goes from a point 1..24 to a point 1..24 or 'off'",
    "cant": "'cannot play' names a die number 1..6",
}
_FAST_OFF = False
_MAXM, _MAXC = L.MAX_MOVES, L.MAX_CANNOT
#: the sides as PGN names them -> the notation's seat letters (a "did you mean")
_ENGLISH_SIDES = {"white": "A", "black": "B"}
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*\Z").match
_ROLL_LIKE = re.compile(r"[0-9]-[0-9]\Z")
# a digit of another script (Arabic-Indic, fullwidth...): \d takes them, int() reads them
_FOREIGN_DIGIT = re.compile(r"(?![0-9])\d").search
_tuple_new = tuple.__new__
_obj_new = object.__new__
_T = TypeVar("_T")


class _New(Protocol):
    """The type of ``object.__new__``: an instance of ``cls`` without ``__init__``."""

    def __call__(self, cls: type[_T], /) -> _T: ...


def _new_move(a: int, t: int, span: Span) -> Move:
    o = _obj_new(Move)
    _MOVE_SET[0](o, a)
    _MOVE_SET[1](o, t)
    _MOVE_SET[2](o, span)
    return o


def _new_coup(
    number: int,
    side: str,
    roll: tuple[int, int],
    moves: tuple[Move | CannotPlay, ...],
    before: tuple[Action, ...],
    after: tuple[Action, ...],
    span: Span,
) -> Coup:
    o = _obj_new(Coup)
    s = _COUP_SET
    s[0](o, number)
    s[1](o, side)
    s[2](o, roll)
    s[3](o, moves)
    s[4](o, before)
    s[5](o, after)
    s[6](o, span)
    s[7](o, None)  # a coup of the token path: the writer writes its line (Coup.canonical_line)
    return o


_MOVE_SET = [vars(Move)[f].__set__ for f in ("from_", "to", "span")]
_MARK_SET = [vars(Mark)[f].__set__ for f in ("who", "points", "holes", "bredouille", "span")]
_COUP_SET = [
    vars(Coup)[f].__set__ for f in ("number", "side", "roll", "moves", "before", "after", "span", "canonical_line")
]


class ParsedRecord(NamedTuple):
    """One game as read: the record and the diagnostics about its text."""

    record: Record
    diagnostics: list[Diagnostic]


def parse_partie(value: str) -> tuple[str, int | None] | None:
    """Read a ``Partie`` tag: ``(kind, marqués)`` or None if not understood.

    Kinds (RULES.md §8): ``douze-trous``, ``a-ecrire`` (with the number of marqués),
    ``a-quatre``, ``chouette``, ``a-tourner``.  Accepts accents and spaces:
    ``"à écrire 8"`` -> ``("a-ecrire", 8)``.
    """
    v = " ".join(value.lower().translate(_STRIP_ACCENTS).split())
    v = re.sub(r"^(a|en) ", r"\1-", v).replace("douze trous", "douze-trous").replace("12 trous", "douze-trous")
    head, _, tail = v.partition(" ")
    head = _PARTIE_ALIASES.get(head, head)
    m = _PARTIE.match(f"{head} {tail}".strip() if tail else head)
    if not m or (m.group(2) and int(m.group(2)) > L.MAX_MARQUES):
        return None
    return m.group(1), int(m.group(2)) if m.group(2) else None


@functools.lru_cache(maxsize=256)
def _canonical_partie(value: str) -> str | None:
    p = parse_partie(value)
    if p is None:
        return None
    return p[0] if p[1] is None else f"{p[0]} {p[1]}"


def _full(items: list[Any], kind: type, bound: int) -> bool:
    """``items`` (a coup's moves so far, at most a few) already hold ``bound`` of ``kind``."""
    return sum(1 for x in items if type(x) is kind) >= bound


def _enter_moves(
    coup: list[Any], diag: Callable[..., None], line: int, col: int, ecol: int, offset: int, text: str
) -> None:
    """A coup's phases run marks-before → moves → marks-after (coup[6] = 0, 1, 2); a move
    after the marks that follow the moves is out of order."""
    ph = coup[6]
    if ph == 0:
        coup[6] = 1
    elif ph == 2:
        diag(
            "move-after-marks",
            "error",
            line,
            col,
            ecol,
            offset,
            "checker moves must come before the marks that follow them",
            text,
        )


# --- the game parser ----------------------------------------------------------------


def _built_coup(c: list[Any]) -> Coup:
    """The coup of an open-coup list (see ``_Game._run``)."""
    s0 = c[7]
    e = c[8]
    span = _tuple_new(Span, (s0[0], s0[1], e[0], e[1], s0[2]))
    return _new_coup(c[0], c[1], c[2], tuple(c[3]), tuple(c[4]), tuple(c[5]), span)


def _reopen(c: Element) -> list[Any]:
    """The open-coup list of a coup read by the fast path, which a continuation line extends."""
    assert isinstance(c, Coup)  # fast_open: the last element is a fast-path coup
    sp = c.span
    return [
        c.number,
        c.side,
        c.roll,
        list(c.moves),
        list(c.before),
        list(c.after),
        2 if c.after else (1 if c.moves else 0),
        (sp[0], sp[1], sp[4]),
        (sp[2], sp[3]),
    ]


def _paren_stop(text: str, pos: int) -> int:
    """Where a keyword's unclosed '(' content ends: after the ')' on the line (and any
    text glued to it), else at a '{' or the line's end."""
    e = text.find("\n", pos)
    e = len(text) if e < 0 else e
    k = text.find(")", pos, e)
    b = text.find("{", pos, e)
    if k >= 0 and (b < 0 or k < b):
        stop = k + 1
        while stop < e and not text[stop].isspace() and text[stop] not in "{}":
            stop += 1  # text glued after ')' belongs to the bad token
        return stop
    return b if b >= 0 else e


class _GameSink:
    """One game as the parser builds it: its headers, elements and diagnostics, and the
    reading of its tags.  Line numbers and offsets are shifted to the file."""

    __slots__ = ("file", "line0", "off0", "strict", "diags", "headers", "elements", "ndiag")

    def __init__(self, file: str | None, line0: int, off0: int, strict: bool) -> None:
        self.file = file
        self.line0 = line0  # file line number of the game's first line
        self.off0 = off0
        self.strict = strict
        self.diags: list[Diagnostic] = []
        self.ndiag = 0
        self.headers: dict[str, str] = {}
        self.elements: list[Element] = []

    def diag(
        self, code: str, severity: str, line: int, col: int, end_col: int, offset: int, message: str, text: str = ""
    ) -> None:
        self.ndiag += 1
        if self.ndiag > MAX_DIAGNOSTICS:
            if self.ndiag == MAX_DIAGNOSTICS + 1:
                self.diags.append(
                    Diagnostic(
                        "too-many-diagnostics",
                        "error",
                        Span(line, col, line, end_col, offset),
                        f"more than {MAX_DIAGNOSTICS} problems in this game; the rest are not listed",
                        "",
                        self.file,
                    )
                )
            return
        if self.strict:
            severity = "error"
        if len(text) > _TEXT_CLIP:
            text = text[:_TEXT_CLIP] + "…"
        self.diags.append(Diagnostic(code, severity, Span(line, col, line, end_col, offset), message, text, self.file))  # type: ignore[arg-type]

    def _big(self, value: int, bound: int, what: str, line: int, col: int, end_col: int, off: int, text: str) -> bool:
        """True (and a diagnostic naming the bound) when ``value`` is past ``bound``
        (notation/limits.py): no number can make the replayer work in proportion to it."""
        if value <= bound:
            return False
        self.diag(
            "number-too-large",
            "error",
            line,
            col,
            end_col,
            off,
            f"{what} is at most {bound} (docs/resilience.md); this token is ignored",
            text,
        )
        return True

    def _too_many_moves(self, text: str, s: int, pos: int, line: int, col: int, ls: int) -> int:
        """A coup's fifth move: one diagnostic, and the rest of the run of moves on the
        line skipped at once (a line of millions of moves builds nothing)."""
        run = _MOVE_RUN.match(text, pos)
        assert run is not None  # the pattern matches the empty string
        end = run.end()
        if end < len(text) and not text[end].isspace() and text[end] not in "{}":
            end = max(pos, text.rfind(" ", pos, end), text.rfind("\t", pos, end))  # keep a token cut in two
        self.diag(
            "too-many-moves",
            "error",
            line,
            col,
            end - ls + 1,
            self.off0 + s,
            f"a coup has at most {L.MAX_MOVES} moves and {L.MAX_CANNOT} cannot-plays "
            "(a throw is two numbers, RULES.md §3.1); "
            "the extra moves are ignored",
            text[s : min(end, s + 60)],
        )
        return end

    def _fast_tag(self, ln: str, line: int, base: int) -> bool:
        """A tag line in canonical form (``[Name "value"]``, no escapes), read without
        the regex; False sends it to the token path."""
        if ln[-2:] != '"]':
            return False
        k = ln.find(' "')
        if k < 2:
            return False
        name = ln[1:k]
        value = ln[k + 2 : -2]
        if '"' in value or "\\" in value or not _TAG_NAME(name):
            return False
        self._tag(name, value, line, k + 3, 1, len(ln) + 1, base)
        return True

    def _tag(self, name: str, value: str, line: int, vcol: int, col: int, end_col: int, off: int) -> None:
        if name in self.headers:
            self.diag(
                "duplicate-tag",
                "warning",
                line,
                col,
                end_col,
                off,
                f"tag {name} given twice; the last one is kept",
                name,
            )
        side = _ENGLISH_SIDES.get(name.lower())
        if side is not None:  # a PGN habit: the notation names the players by seat
            self.diag(
                "english-tag",
                "warning",
                line,
                col,
                end_col,
                off,
                f'tag {name} is not read: the players are tags A and B (did you mean [{side} "{value}"]?)',
                name,
            )
        if name == "Position":
            spec, pd = parse_position(value, file=self.file, line=line, col=vcol)
            for d in pd:
                self.diag(
                    d.code,
                    d.severity,
                    d.span.line,
                    d.span.col,
                    d.span.end_col,
                    off + (d.span.col - col),
                    d.message,
                    d.text,
                )
        elif name == "Date":
            why = parse_date(value)[1]
            if why is not None:
                self.diag("bad-date", "warning", line, vcol, end_col, off, f"{why}; the game has no date", value)
        elif name == "Record":
            low = value.strip().lower()
            if low in ("full", "compact"):
                value = low
            else:
                self.diag("bad-record-tag", "warning", line, vcol, end_col, off, 'Record is "full" or "compact"', value)
        elif name == "Partie":
            canon = _canonical_partie(value)
            if canon is None:
                self.diag(
                    "unknown-partie",
                    "warning",
                    line,
                    vcol,
                    end_col,
                    off,
                    'Partie is "douze-trous", "a-ecrire N", "a-quatre N", "chouette N" or "a-tourner N" '
                    f"(N at most {L.MAX_MARQUES})",
                    value,
                )
            else:
                value = canon
        self.headers[name] = value

    @staticmethod
    def _ordered(headers: dict[str, str]) -> dict[str, str]:
        out = {k: headers[k] for k in TAG_ROSTER if k in headers}
        for k, v in headers.items():
            if k not in out:
                out[k] = v
        return out


class _GameTokens(_GameSink):
    """The token families of the general path, one method each; the token loop
    (``_Game._run``) keeps the open coup and the line position."""

    __slots__ = ()

    def _misplaced(self, m: re.Match[str], line: int, col: int, end_col: int, s: int) -> None:
        """A token out of its place: a coup's token with no coup open, a tag after the movetext."""
        kind = m.lastgroup
        assert kind is not None  # a match always has its last group
        code, message = _MISPLACED[kind]
        self.diag(code, "error", line, col, end_col, self.off0 + s, message, m.group(kind))

    def _bad_move(self, m: re.Match[str], line: int, col: int, end_col: int, s: int) -> None:
        """A move or cannot-play naming a point or die out of range."""
        kind = m.lastgroup
        assert kind is not None  # a match always has its last group
        self.diag("bad-move", "error", line, col, end_col, self.off0 + s, _BAD_MOVE[kind], m.group(kind))

    def _coup_head(self, m: re.Match[str], line: int, col: int, end_col: int, s: int) -> list[Any] | None:
        """The open coup a head like '3. A 6-5' starts, or None (diagnosed) when its number
        or roll is bad: the coup's tokens are then skipped."""
        off = self.off0 + s
        if self._big(
            int(m.group(_HD_NUM)), L.MAX_COUP_NUMBER, "a coup number", line, col, end_col, off, m.group("head")
        ):
            return None
        r2 = m.group(_HD_R2)
        if r2 is not None:
            r1, r2 = int(m.group(_HD_R1)), int(r2)
            if not (0 < r1 < 7 and 0 < r2 < 7):
                rs = m.start(_HD_R1)
                roll_text = m.string[rs : m.end("head")]
                self.diag(
                    "bad-roll", "error", line, rs - s + col, end_col, self.off0 + rs, "each die shows 1..6", roll_text
                )
                return None
            if r1 < r2:
                r1, r2 = r2, r1
        else:
            d = DOUBLET_NAMES.get(m.group(_HD_NAME).lower())
            if d is None:
                rs = m.start(_HD_NAME)
                self.diag(
                    "bad-roll",
                    "error",
                    line,
                    rs - s + col,
                    end_col,
                    self.off0 + rs,
                    "a roll is two numbers like 6-5 or a doublet name (bezet, double-deux, terne, carme, quine, sonnez)",
                    m.group(_HD_NAME),
                )
                return None
            r1 = r2 = d
        side = m.group(_HD_SIDE)
        number = int(m.group(_HD_NUM))
        return [
            number,
            side if side < "a" else side.upper(),
            (r1, r2),
            [],
            [],
            [],
            0,
            (line, col, off),
            (line, end_col),
        ]

    def _comment(self, m: re.Match[str], line: int, col: int, s: int) -> tuple[Comment, int]:
        """A closed comment '{…}' and the number of line breaks inside it."""
        raw = m.group("com")
        body = raw[1:-1]
        if "\\" in body:
            body = _UNESC_COMMENT.sub(r"\1", body)
        nls = raw.count("\n")
        if nls:
            span = (line, col, line + nls, len(raw) - raw.rindex("\n"), self.off0 + s)
        else:
            span = (line, col, line, col + len(raw), self.off0 + s)
        return Comment(body.replace("\r", "") if "\r" in body else body, _tuple_new(Span, span)), nls

    def _cannot_play(self, coup: list[Any], m: re.Match[str], line: int, ls: int, text: str) -> int:
        """A cannot-play '-N' entered in the open ``coup``; returns where the scan resumes."""
        s, pos = m.span("cant")
        col, ecol, off = s - ls + 1, pos - ls + 1, self.off0 + s
        num = int(m.group(_CT_N))
        if not 1 <= num <= 6:
            self._bad_move(m, line, col, ecol, s)
            return pos
        if len(coup[3]) >= L.MAX_CANNOT and _full(coup[3], CannotPlay, L.MAX_CANNOT):
            return self._too_many_moves(text, s, pos, line, col, ls)
        _enter_moves(coup, self.diag, line, col, ecol, off, text[s:pos])
        coup[3].append(CannotPlay(num, _tuple_new(Span, (line, col, line, ecol, off))))
        coup[8] = (line, ecol)
        return pos

    def _annotate(self, coup: list[Any], m: re.Match[str], line: int, col: int, end_col: int, s: int) -> None:
        """A mark, an action, a glyph or '--' entered in the open ``coup``."""
        kind = m.lastgroup
        off = self.off0 + s
        if kind == "gly":
            g = m.group(kind)
            if g[0] == "$":
                if self._big(int(g[1:]), L.MAX_GLYPH, "a numbered glyph", line, col, end_col, off, g):
                    return
                g = "$" + str(int(g[1:]))
            coup[4 if coup[6] == 0 else 5].append(Glyph(g, _tuple_new(Span, (line, col, line, end_col, off))))
            coup[8] = (line, end_col)
            return
        if kind == "none":
            if coup[3]:
                message = "'--' says no checker moved, but moves are written"
                self.diag("move-after-marks", "error", line, col, end_col, off, message, "--")
            coup[6] = 2
            coup[8] = (line, end_col)
            return
        act = self._mark(m, line, col, end_col, s) if kind == "mark" else read_action(self, m, line, col, end_col, off)
        if act is None:
            return
        if coup[6] == 0:
            coup[4].append(act)
        else:
            coup[5].append(act)
            coup[6] = 2
        coup[8] = (line, end_col)

    def _mark(self, m: re.Match[str], line: int, col: int, end_col: int, s: int) -> Mark | None:
        """A mark 'A+4t1b', or None (diagnosed) when a number is past its bound."""
        off = self.off0 + s
        raw = m.group("mark")
        h = m.group(_MK_HOLES)
        bf = m.group(_MK_BS)
        if self._big(int(m.group(_MK_PTS)), L.MAX_MARK_POINTS, "a mark's points", line, col, end_col, off, raw) or (
            h is not None and self._big(int(h), L.MAX_MARK_HOLES, "a mark's holes", line, col, end_col, off, raw)
        ):
            return None
        return Mark(
            m.group(_MK_WHO),
            int(m.group(_MK_PTS)),
            int(h) if h is not None else None,
            None if bf is None else bf == "b",
            _tuple_new(Span, (line, col, line, end_col, off)),
        )

    def _tag_token(self, m: re.Match[str], line: int, col: int, end_col: int, s: int) -> None:
        """A tag '[Name "value"]' read by the general path."""
        value = m.group(_TG_VALUE)
        if "\\" in value:
            value = _UNESC_TAG.sub(r"\1", value)
        vcol = m.start(_TG_VALUE) - s + col
        self._tag(m.group(_TG_NAME), value, line, vcol, col, end_col, self.off0 + s)

    def _section(self, m: re.Match[str], line: int, col: int, end_col: int, s: int) -> bool:
        """A relevé, a marqué or a result appended to the elements; True when a number is
        past its bound (diagnosed): the tokens up to the next coup or section are skipped."""
        kind = m.lastgroup
        assert kind is not None  # a match always has its last group
        off = self.off0 + s
        raw = m.group(kind)
        span = _tuple_new(Span, (line, col, line, end_col, off))
        if kind == "rel":
            n = int(m.group(_RL_N))
            if self._big(n, L.MAX_RELEVE, "a relevé number", line, col, end_col, off, raw):
                return True
            self.elements.append(ReleveStart(n, span))
            return False
        if kind == "mq":
            n = int(m.group(_MQ_N))
            if self._big(n, L.MAX_MARQUES, "a marqué number", line, col, end_col, off, raw):
                return True
            p1 = m.group(_MQ_P1)
            players = (p1, m.group(_MQ_P2)) if p1 else None
            if players is not None and players[0] == players[1]:
                ps = m.start(_MQ_P1)
                message = "a marqué is played by two different players"
                self.diag("bad-section", "error", line, ps - s + col, end_col, self.off0 + ps, message, f"{p1}-{p1}")
            self.elements.append(MarqueStart(n, players, span))
            return False
        return self._result(m, line, col, end_col, s)

    def _result(self, m: re.Match[str], line: int, col: int, end_col: int, s: int) -> bool:
        """A result 'résultat A 8-3 …' appended to the elements; True when a number is past
        its bound (diagnosed)."""
        off = self.off0 + s
        raw = m.group("res")
        winner = m.group(_RS_W)
        refait = winner is None
        wh, lh = int(m.group(_RS_WH)), int(m.group(_RS_LH))
        bred = _BREDOUILLE.get((m.group(_RS_BRED) or "").lower(), "none")
        val = m.group(_RS_VAL)
        if self._big(max(wh, lh), L.MAX_HOLES, "a result's holes", line, col, end_col, off, raw) or (
            val is not None
            and self._big(int(val), L.MAX_RESULT_VALUE, "a marqué's value", line, col, end_col, off, raw)
        ):
            return True
        if refait and wh != lh:
            hs = m.start(_RS_WH)
            message = "a refait has equal holes (RULES.md §8.2)"
            self.diag("bad-result", "warning", line, hs - s + col, end_col, self.off0 + hs, message, f"{wh}-{lh}")
        span = _tuple_new(Span, (line, col, line, end_col, off))
        value = int(val) if val is not None else None
        self.elements.append(MarqueResult(None if refait else winner, wh, lh, bred, refait, value, span))  # type: ignore[arg-type]
        return False

    def _unclosed_comment(self, m: re.Match[str], line: int, col: int, end_col: int, s: int) -> Comment:
        """A '{' not closed before a blank line: diagnosed, the comment ends with its line."""
        raw = m.group("ucom")
        self.diag(
            "unclosed-comment",
            "error",
            line,
            col,
            end_col,
            self.off0 + s,
            "'{' is not closed by '}' before a blank line or the next game; the comment ends at the end of this line",
            raw,
        )
        return Comment(raw[1:].rstrip("\r"), _tuple_new(Span, (line, col, line, end_col, self.off0 + s)))

    def _bad_line(self, m: re.Match[str], line: int, col: int, end_col: int, s: int) -> bool:
        """A malformed tag, section or result line (diagnosed); True for a section or a
        result: the tokens up to the next coup or section are skipped."""
        raw = m.group("line")
        off = self.off0 + s
        if raw[0] == "[":
            self.diag("bad-tag", "error", line, col, end_col, off, 'a tag line reads [Name "value"]', raw)
            return False
        word = raw.split(None, 1)[0].lower().translate(_STRIP_ACCENTS)
        if word in ("resultat", "result"):
            message = (
                "a result reads 'résultat A 8-3 [petite-bredouille|grande-bredouille] [valeur N]' "
                "or 'résultat refait 7-7'"
            )
            self.diag("bad-result", "error", line, col, end_col, off, message, raw)
        else:
            message = "a section reads 'relevé N' or 'marqué N [A-B]'"
            self.diag("bad-section", "error", line, col, end_col, off, message, raw)
        return True

    def _junk(self, m: re.Match[str], line: int, col: int, s: int, text: str) -> int | None:
        """A word of no token kind, diagnosed; returns where the scan resumes, or None for
        a bad coup head 'N.' (the coup's tokens are then skipped)."""
        raw = m.group("junk")
        pos = m.end("junk")
        ls = s - col + 1
        ecol = pos - ls + 1
        off = self.off0 + s
        foreign = None if raw.isascii() else _FOREIGN_DIGIT(raw)
        if foreign is not None:  # '١.', 'B+４': numbers are read in 0-9 only
            message = f"numbers are written with the digits 0-9: {foreign[0]!r} is not read as one"
            self.diag("non-ascii-digit", "error", line, col, ecol, off, message, raw)
            return None if raw.endswith(".") else pos
        if raw[0].isdigit() and raw.endswith(".") and raw[:-1].isdigit():
            message = "a coup reads 'N. A 6-5 …': number, side letter, roll"
            said = text[pos : pos + 12].split(None, 1)
            side = _ENGLISH_SIDES.get(said[0].lower()) if said else None
            if side is not None:  # '1. White 6-1': the side is a seat letter
                message += f" (did you mean '{raw} {side}' for '{raw} {said[0]}'?)"
            self.diag("bad-coup", "error", line, col, ecol, off, message, raw)
            return None
        if raw == "}":
            self.diag("stray-brace", "error", line, col, ecol, off, "'}' without '{'", raw)
            return pos
        if raw[1:2] == ":" and raw[0] in "ABCD":
            kw = _PAREN_KEYWORD(raw)
            if kw is not None and kw.group(1).lower() in _ACTION_WORDS:
                # a known keyword whose '(' does not close on this line: what
                # follows up to ')' (or the line's end) is its content, not moves
                if ")" not in raw:
                    pos = max(pos, _paren_stop(text, pos))
                    ecol = pos - ls + 1
                message = "the parentheses must close on the same line, followed by a space: 'B:fait-jouer(1/6 1/5)'"
                self.diag("bad-action", "error", line, col, ecol, off, message, text[s:pos])
                return pos
            msg = "unknown keyword after '" + raw[:2] + "' (" + _KEYWORDS_HINT + ")"
            code = "unknown-keyword"
        elif raw.lower() in DOUBLET_NAMES or _ROLL_LIKE.match(raw):
            msg, code = "a roll must follow a coup number and side: 'N. A 6-5'", "misplaced-roll"
        else:
            msg, code = "not a coup, move, mark or keyword of the notation", "unknown-token"
        self.diag(code, "error", line, col, ecol, off, msg, raw)
        return pos


class _Game(_GameTokens):
    """Parses one game's text: the fast path for canonical lines, the token loop for
    the rest.  Line numbers and offsets are shifted to the file."""

    __slots__ = ("lines",)

    def run(self, text: str) -> Record:
        """Parse ``text``.  The cyclic garbage collector is paused meanwhile: the parser
        makes many small acyclic objects, and collections during the parse cost ~10 %."""
        self.lines = text.split("\n")  # for the fast path, which resumes at many line starts
        was = gc.isenabled()
        gc.disable()
        try:
            return self._run(text)
        finally:
            if was:
                gc.enable()

    def _run(self, text: str) -> Record:
        """Tokenize and build in one pass.  This is the hot loop: locals, numeric group
        indices, spans built as bare tuples.  The hot token states (moves, coup heads,
        comments) stay inline; every other token family is a method of _GameTokens."""
        match = _TOKEN.match
        diag = self.diag
        headers = self.headers
        elements = self.elements
        append = elements.append
        mkspan = _tuple_new
        off0 = self.off0
        line = self.line0
        ls = 0  # index in ``text`` of the current line's start
        pos = 0
        # the open coup: None, or [number, side, roll, moves, before, after, phase,
        # (line, col, offset), (end_line, end_col)]; phase 0 = before the moves,
        # 1 = in the moves, 2 = after them
        coup: list[Any] | None = None
        skipping = False  # after a bad coup head: ignore tokens until the next coup/section
        seen_movetext = False
        fast_open = False  # the last element is a coup read by the fast path
        com_fail = 0  # a '{' before this index cannot start a closed comment
        fast_off = _FAST_OFF  # tests turn the fast path off to compare both paths

        def close() -> None:
            nonlocal coup
            if coup is not None:
                append(_built_coup(coup))
                coup = None

        misplaced = self._misplaced
        fast_lines = self._fast_lines
        ntext = len(text)
        while True:
            if pos == ls and not fast_off:
                # at a line start: canonical lines are read by the fast path
                pos, line, read = fast_lines(text, pos, line, coup, seen_movetext)
                ls = pos
                if read:
                    coup = None  # closed by the fast path
                    seen_movetext = True
                    skipping = False
                    fast_open = read == _READ_COUP
                if pos > ntext:
                    break
            if pos < com_fail and _OPEN_BRACE(text, pos, com_fail):
                # a '{' inside the stretch where a comment already failed to close: it
                # cannot close either (no '}' before the same blank line), so no rescan
                m = _UCOM(text, pos)
            else:
                m = match(text, pos)
            if m is None:  # unreachable: the last alternatives always match
                break
            kind = m.lastgroup
            s, pos = m.span(kind)  # type: ignore[arg-type]
            if kind == "nl":
                line += 1
                ls = pos
                continue
            col = s - ls + 1
            ecol = pos - ls + 1
            if fast_open:
                # a token that may extend the coup of a fast line (continuation lines)
                fast_open = False
                if coup is None and not skipping and kind in _CONTINUE:
                    coup = _reopen(elements.pop())
            if kind == "move":
                if coup is None or skipping:
                    if not skipping:
                        misplaced(m, line, col, ecol, s)
                    continue
                a = int(m.group(_MV_A))
                b = m.group(_MV_B)
                t = int(b) if b.isdigit() else OFF
                if a > 24 or not a or not t or t > OFF:
                    self._bad_move(m, line, col, ecol, s)
                    continue
                if len(coup[3]) >= L.MAX_MOVES and _full(coup[3], Move, L.MAX_MOVES):
                    pos = self._too_many_moves(text, s, pos, line, col, ls)
                    continue
                _enter_moves(coup, diag, line, col, ecol, off0 + s, text[s:pos])
                coup[3].append(_new_move(a, t, mkspan(Span, (line, col, line, ecol, off0 + s))))
                coup[8] = (line, ecol)
            elif kind == "head":
                seen_movetext = True
                if coup is not None:
                    close()
                coup = self._coup_head(m, line, col, ecol, s)
                skipping = coup is None
            elif kind == "com":
                c, nls = self._comment(m, line, col, s)
                if nls:
                    line += nls
                    ls = s + m.group(kind).rindex("\n") + 1
                    ecol = pos - ls + 1
                # a token before it on this line (tokens are never blank: no slice of the line)
                if coup is not None and not skipping and m.start() > s - col + 1:
                    coup[4 if coup[6] == 0 else 5].append(c)
                    coup[8] = (line, ecol)
                else:  # a comment that starts a line is a remark on the game
                    close()
                    append(c)
            elif kind in _IN_COUP:  # mark, act, gly, cant, none
                if coup is None or skipping:
                    if not skipping:
                        misplaced(m, line, col, ecol, s)
                    continue
                if kind == "cant":
                    pos = self._cannot_play(coup, m, line, ls, text)
                else:
                    self._annotate(coup, m, line, col, ecol, s)
            elif kind == "tag":
                if seen_movetext or coup is not None:
                    misplaced(m, line, col, ecol, s)
                else:
                    self._tag_token(m, line, col, ecol, s)
            elif kind in _SECTIONS:  # rel, mq, res
                seen_movetext = True
                close()
                skipping = self._section(m, line, col, ecol, s)
            elif kind == "ucom":
                if com_fail <= s:
                    cm = _COM_BODY(text, s)
                    assert cm is not None  # the pattern matches the '{' at s at least
                    com_fail = cm.end()
                c = self._unclosed_comment(m, line, col, ecol, s)
                if coup is not None and not skipping and m.start() > ls:
                    coup[4 if coup[6] == 0 else 5].append(c)
                else:
                    close()
                    append(c)
            elif kind == "line":
                if self._bad_line(m, line, col, ecol, s):
                    close()
                    skipping = True
            elif kind == "end":
                break
            elif not skipping:  # junk
                stop = self._junk(m, line, col, s, text)
                if stop is None:
                    close()
                    skipping = True
                else:
                    pos = stop
        close()
        return Record(self._ordered(headers), elements)

    def _fast_lines(
        self, text: str, pos: int, line: int, coup: list[Any] | None, seen_movetext: bool
    ) -> tuple[int, int, int]:
        """Read canonical lines (coups, tags, relevés) from the line start ``pos`` by the
        fast path, without the regex, up to a line it cannot read; the open ``coup`` is
        closed before the first movetext read.  Returns the next line's start and number
        and what was read last: 0 (no movetext), _READ_COUP or _READ_RELEVE."""
        append = self.elements.append
        fast_line = self._fast_line
        fast_tag = self._fast_tag
        fast = _FAST_TOK
        off0 = self.off0
        read = 0
        lines = self.lines
        k = line - self.line0  # the token path counts every "\n": the index of the line at pos
        nlines = len(lines)
        while k < nlines:
            ln = lines[k]
            eol = pos + len(ln)
            if ln[-1:] == "\r":
                ln = ln[:-1]
            c: Element | None = fast_line(ln, line, off0 + pos, fast)
            if c is not None:
                if coup is not None:
                    append(_built_coup(coup))
                    coup = None
                append(c)
                read = _READ_COUP
                seen_movetext = True
            elif ln[:1] == "[":
                if coup is not None or seen_movetext or not fast_tag(ln, line, off0 + pos):
                    return pos, line, read
            elif ln[:7] == "relevé " and ln[7:].isdigit() and ln[7:].isascii() and len(ln) < 11:
                if coup is not None:
                    append(_built_coup(coup))
                    coup = None
                append(ReleveStart(int(ln[7:]), _tuple_new(Span, (line, 1, line, len(ln) + 1, off0 + pos))))
                read = _READ_RELEVE
                seen_movetext = True
            else:
                return pos, line, read
            line += 1
            k += 1
            pos = eol + 1
        return pos, line, read

    def _fast_line(
        self,
        ln: str,
        line: int,
        base: int,
        fast: dict[str, tuple[Any, ...]],
        _new: _New = object.__new__,
        _mk: Callable[..., Any] = tuple.__new__,
        _Span: type[Span] = Span,
        _Move: type[Move] = Move,
        _Coup: type[Coup] = Coup,
        _Mark: type[Mark] = Mark,
        _heads: Any = _HEADNUM,
        _rolls: Any = _ROLL_TEXT,
        _sides: Any = _SIDES,
        _mset: Any = _MOVE_SET,
        _cset: Any = _COUP_SET,
        _kset: Any = _MARK_SET,
    ) -> Coup | None:
        """Read a coup line in canonical form (single spaces, table tokens, at most a
        final one-line comment) without the regex; None sends it to the token path,
        which gives the same result for such lines (tests/test_notation_reader.py).
        Hot: objects are built through their slot descriptors; the tables are bound as
        defaults, locals of the function."""
        comment = None
        if ln[-1:] == "}":  # a final comment; any other brace fails the token table
            k = ln.find(" {")
            if k < 0:
                return None
            body = ln[k + 2 : -1]
            if "{" in body or "}" in body or "\\" in body or "\r" in body:
                return None
            comment = (body, k + 1)
            ln = ln[:k]
        if ln.count(" ") > 40:  # longer than any canonical coup: the token path bounds it
            return None
        parts = ln.split(" ")
        if len(parts) < 3:
            return None
        num = _heads.get(parts[0])
        roll_text = parts[2]
        roll = _rolls.get(roll_text)
        side = parts[1]
        if num is None or roll is None or side not in _sides:
            return None
        j = len(parts[0]) + len(side) + 5  # end of the roll (always 3 characters)
        before: list[Action] | None = None
        moves: list[Move | CannotPlay] = []
        after: list[Action] | None = None
        ph = 0
        mf, mt, ms = _mset
        nm = nc = 0  # moves and cannot-plays so far (notation/limits.py)
        o: Move | Coup
        act: Action
        del parts[:3]
        for tok in parts:
            spec = fast.get(tok)
            if spec is None:
                return None
            i = j + 1
            j = i + spec[1]
            sp = _mk(_Span, (line, i + 1, line, j + 1, base + i))
            k = spec[0]
            if k == 0:
                if ph == 2 or nm == _MAXM:  # a fifth move: the token path reports it
                    return None
                nm += 1
                ph = 1
                o = _new(_Move)
                mf(o, spec[2])
                mt(o, spec[3])
                ms(o, sp)
                moves.append(o)
            elif k == 2:
                act = _new(_Mark)
                kw, kp, kh, kb, ks = _kset
                kw(act, spec[2])
                kp(act, spec[3])
                kh(act, spec[4])
                kb(act, spec[5])
                ks(act, sp)
                if ph == 0:
                    if before is None:
                        before = [act]
                    else:
                        before.append(act)
                else:
                    if after is None:
                        after = [act]
                    else:
                        after.append(act)
                    ph = 2
            elif k == 1:
                if ph == 2 or nc == _MAXC:
                    return None
                nc += 1
                ph = 1
                moves.append(CannotPlay(spec[2], sp))
            elif k == 3:
                act = Glyph(spec[2], sp)
                if ph == 0:
                    before = [act] if before is None else before + [act]
                else:
                    after = [act] if after is None else after + [act]
            else:
                act = spec[2](*spec[3:], sp)
                if ph == 0:
                    before = [act] if before is None else before + [act]
                else:
                    after = [act] if after is None else after + [act]
                    ph = 2
        if comment is not None:
            i = comment[1]
            j = len(ln) + 2 + len(comment[0]) + 1
            act = Comment(comment[0], _mk(_Span, (line, i + 1, line, j + 1, base + i)))
            if ph == 0:
                before = [act] if before is None else before + [act]
            else:
                after = [act] if after is None else after + [act]
        o = _new(_Coup)
        s0, s1, s2, s3, s4, s5, s6, s7 = _cset
        s0(o, num)
        s1(o, side)
        s2(o, roll)
        s3(o, tuple(moves))
        s4(o, () if before is None else tuple(before))
        s5(o, () if after is None else tuple(after))
        s6(o, _mk(_Span, (line, 1, line, j + 1, base)))
        # the line is the writer's own when the coup is plain (head, roll larger die first,
        # moves: each token the writer's text, tests/test_reader_writer_speed_identity.py);
        # not with a comment (it was cut off ``ln``) nor a roll written smaller die first
        s7(o, ln if before is None and after is None and roll_text[0] >= roll_text[2] else None)
        return o


def _finish(g: _Game, record: Record, nlines: int, length: int) -> ParsedRecord:
    record.span = Span(g.line0, 1, g.line0 + nlines - 1, 1, g.off0)
    if record.headers.get("Record") == "compact":
        for c in record.elements:
            if type(c) is Coup and (c.before or c.after):
                for a in c.before + c.after:
                    # score marks the compact replayer makes itself; a decision and
                    # joue-pour-tout are choices it reads, so they stay silent
                    if isinstance(a, (Mark, NeMarquePas, Ecole, Correction, Pavillon, FaitMarquer, Remet)):
                        s = a.span
                        g.diag(
                            "marks-in-compact-record",
                            "warning",
                            s.line,
                            s.col,
                            s.end_col,
                            s.offset,
                            "a compact record holds rolls and moves only; marks are ignored by the replayer",
                        )
                        break
    g.diags.sort(key=_diag_key)
    return ParsedRecord(record, g.diags)


def _diag_key(d: Diagnostic) -> tuple[int, int]:
    return (d.span.line, d.span.col)


# --- splitting a stream into games ---------------------------------------------------


def _split(
    lines: Iterable[str], bracket: str, brace: str, blanks: tuple[str, ...]
) -> Iterator[tuple[int, int, list[str], bool]]:
    """Yield ``(offset, first_line, lines, cut)`` per game (bytes or str lines).

    A game's tag block is a run of tag lines (first non-blank character ``[``).  Any
    other line after the block — movetext or a blank line — closes it, and the next
    tag line starts the next game.  Before any tag, comment lines (``{``) and blank
    lines are a preamble of the coming game; other text is a game without tags.
    """
    buf: list[str] = []
    start = 0
    first = 1
    off = 0
    lineno = 0
    has_tags = False
    closed = False
    cut = False
    for raw in lines:
        lineno += 1
        c = raw[:1]
        if c == bracket or (c in blanks and raw.lstrip()[:1] == bracket):
            if closed:
                # comment lines right above the tags belong to the coming game
                k = len(buf)
                while k > 1 and _is_comment_line(buf[k - 1], brace):
                    k -= 1
                moved = buf[k:]
                yield start, first, buf[:k], cut
                buf = moved
                start = off - sum(map(len, moved))
                first = lineno - len(moved)
                has_tags = closed = cut = False
            has_tags = True
        elif has_tags:
            closed = True
        elif not closed:
            t = raw.strip()
            if t and t[:1] != brace:
                closed = True
        n = len(raw)
        if n >= MAX_LINE and raw[-1:] != _NL[type(raw)]:
            cut = True
        buf.append(raw)
        off += n
    if buf and any(x.strip() for x in buf):
        yield start, first, buf, cut


_NL: dict[type, bytes | str] = {bytes: b"\n", str: "\n"}
_COMMENT_LINE: dict[type, Callable[[Any], re.Match[Any] | None]] = {
    str: re.compile(r"[ \t]*\{[^{}\n]*\}[ \t\r]*\n?\Z").match,
    bytes: re.compile(rb"[ \t]*\{[^{}\n]*\}[ \t\r]*\n?\Z").match,
}


def _is_comment_line(raw: str | bytes, brace: str | bytes) -> bool:
    """A line holding one whole comment and nothing else (a preamble of the next game)."""
    return raw.lstrip()[:1] == brace and _COMMENT_LINE[type(raw)](raw) is not None


_TAGLINE = re.compile(rb"^(?:[ \t][ \t\r\x0b\x0c]*)?\[", re.M)
_PREAMBLE_TEXT = re.compile(rb"^[ \t\r\x0b\x0c]*[^\s{]", re.M)
_CHUNK = 1 << 20


def _split_bytes(stream: IO[bytes], base: int = 0) -> Iterator[tuple[int, int, bytes]]:
    """Yield ``(byte_offset, first_line, data)`` per game of a binary stream, by blocks:
    the same rule as :func:`_split`, with the tag lines found by a regular expression
    so that the movetext lines are never looked at one by one in Python.  Only the
    current game and one block are held in memory."""
    buf = b""
    gstart = base  # file offset of the current game
    gline = 1
    has_tags = False
    prev_tag_end = -1
    scan = 0  # index in buf where the search for tag lines resumes (a line start)
    eof = False
    read = stream.read
    bom = base == 0  # a UTF-8 byte-order mark before the first tag is no text of the game
    while not eof:
        chunk = read(_CHUNK)
        if bom:
            bom = False
            if chunk.startswith(b"\xef\xbb\xbf"):
                chunk = chunk[3:]
                base = gstart = 3
        if chunk:
            buf += chunk
            limit = buf.rfind(b"\n") + 1
        else:
            eof = True
            limit = len(buf)
        if limit <= scan:
            continue
        for m in _TAGLINE.finditer(buf, scan, limit):
            p = m.start()
            P = base + p
            if has_tags:
                new_game = P != prev_tag_end
            else:  # a preamble of blank and comment lines belongs to the coming game
                new_game = _PREAMBLE_TEXT.search(buf, gstart - base, p) is not None
            if new_game:
                g0 = gstart - base
                q = p  # comment lines right above the tags belong to the coming game
                while q > g0:
                    ls = buf.rfind(b"\n", g0, q - 1) + 1
                    if ls <= g0 or not _is_comment_line(buf[ls:q], b"{"):
                        break
                    q = ls
                yield gstart, gline, buf[g0:q]
                gline += buf.count(b"\n", g0, q)
                gstart = base + q
            has_tags = True
            e = buf.find(b"\n", p, limit)
            prev_tag_end = base + (limit if e < 0 else e + 1)
        scan = limit
        g0 = gstart - base
        if g0:
            buf = buf[g0:]
            scan -= g0
            base = gstart
    if buf.strip():
        yield gstart, gline, buf


def _split_text(stream: Iterable[str]) -> Iterator[tuple[int, int, list[str], bool]]:
    return _split(_no_bom(stream), "[", "{", (" ", "\t"))


def _no_bom(lines: Iterable[str]) -> Iterator[str]:
    """The lines with a byte-order mark dropped from the first (it would hide a tag line)."""
    it = iter(lines)
    for first in it:
        yield first[1:] if first[:1] == "\ufeff" else first
        break
    yield from it


def _text_lines(text: str) -> Iterator[str]:
    """Split on ``\\n`` only (never on the other Unicode line breaks)."""
    i = 0
    n = len(text)
    while i < n:
        j = text.find("\n", i)
        if j < 0:
            yield text[i:]
            return
        yield text[i : j + 1]
        i = j + 1


def _parse_game(
    text: str,
    file: str | None,
    line0: int,
    off0: int,
    strict: bool,
    nlines: int,
    length: int,
    pre: list[tuple[str, str, str]] | None = None,
) -> ParsedRecord:
    g = _Game(file, line0, off0, strict)
    if pre:
        for code, sev, msg in pre:
            g.diag(code, sev, line0, 1, 2, off0, msg)
    try:
        rec = g.run(text)
    except RecursionError:  # pragma: no cover - the parser has no recursion
        rec = Record(g._ordered(g.headers), g.elements)
        g.diag("unreadable", "error", line0, 1, 2, off0, "this game could not be read")
    return _finish(g, rec, nlines, length)


def _decode(data: bytes) -> tuple[str, list[tuple[str, str, str]]]:
    pre: list[tuple[str, str, str]] = []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        text = data.decode("latin-1")
        pre.append(("encoding", "warning", f"not UTF-8 (byte {e.start} of this game); read as Latin-1"))
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\x00" in text:
        pre.append(("binary", "error", "NUL bytes: this looks like a binary file, not a record"))
    return text, pre


def _iter_bytes(
    stream: IO[bytes], file: str | None, strict: bool, base: int = 0, line: int = 1
) -> Iterator[ParsedRecord]:
    for off, first, data in _split_bytes(stream, base):
        text, pre = _decode(data)
        if len(data) > MAX_LINE and max(map(len, data.split(b"\n"))) > MAX_LINE:
            pre.append(("line-too-long", "warning", f"a line is longer than {MAX_LINE} bytes"))
        nlines = data.count(b"\n") + (not data.endswith(b"\n"))
        yield _parse_game(text, file, first + line - 1, off, strict, nlines, len(data), pre)


def _iter_str(lines: Iterable[str], file: str | None, strict: bool) -> Iterator[ParsedRecord]:
    for off, first, glines, _ in _split_text(lines):
        text = "".join(glines)
        pre: list[tuple[str, str, str]] = []
        if text.startswith("\ufeff"):
            text = text[1:]
        if "\x00" in text:
            pre.append(("binary", "error", "NUL bytes: this looks like a binary file, not a record"))
        yield _parse_game(text, file, first, off, strict, len(glines), len(text), pre)


def iter_records(
    path_or_stream: str | os.PathLike[str] | IO[bytes] | IO[str], *, file: str | None = None, strict: bool = False
) -> Iterator[ParsedRecord]:
    """Yield ``ParsedRecord(record, diagnostics)`` game by game, streaming.

    Accepts a path, a binary stream (bytes are decoded per game: UTF-8, else Latin-1
    with a warning) or a text stream.  ``strict`` turns every warning into an error.
    Only opening a path can raise (``OSError``); no content can.
    """
    if isinstance(path_or_stream, (str, os.PathLike)):
        name: str | None = file if file is not None else os.fspath(path_or_stream)
        with open_file(path_or_stream) as f:
            yield from _iter_bytes(f, name, strict)
        return
    stream = path_or_stream
    name = file if file is not None else getattr(stream, "name", None)
    if not isinstance(name, str):
        name = None
    if isinstance(stream, io.TextIOBase):
        yield from _iter_str(stream, name, strict)
        return
    probe = stream.read(0)
    if isinstance(probe, str):
        yield from _iter_str(stream, name, strict)  # type: ignore[arg-type]
    else:
        yield from _iter_bytes(stream, name, strict)  # type: ignore[arg-type]


def parse_text(text: str, *, file: str | None = None, strict: bool = False) -> tuple[list[Record], list[Diagnostic]]:
    """Parse a whole text: every record and every diagnostic (offsets in characters)."""
    records: list[Record] = []
    diags: list[Diagnostic] = []
    for pr in _iter_str(_text_lines(text), file, strict):
        records.append(pr.record)
        diags.extend(pr.diagnostics)
    return records, diags


def index_records(path: str | os.PathLike[str]) -> list[tuple[int, int]]:
    """``(byte_offset, byte_length)`` of every game in the file, without parsing them."""
    with open_file(path) as f:
        return [(off, len(data)) for off, _first, data in _split_bytes(f)]


def read_record_at(
    path: str | os.PathLike[str], offset: int, *, line: int = 1, strict: bool = False
) -> ParsedRecord | None:
    """Read the one game that starts at ``offset`` (from :func:`index_records`).
    ``line`` is the file line number of its first line, if known (for diagnostics).
    None if there is no game there."""
    with open_file(path) as f:
        f.seek(offset)
        for pr in _iter_bytes(f, os.fspath(path), strict, base=offset, line=line):
            return pr
    return None


def source_lines(path: str | os.PathLike[str], wanted: Iterable[int], *, width: int = 200) -> dict[int, str]:
    """The text of the wanted line numbers (1-based) of a file, read in one pass and
    clipped to ``width`` characters (for diagnostics with a caret)."""
    want = set(wanted)
    out: dict[int, str] = {}
    if not want:
        return out
    last = max(want)
    try:
        with open_file(path) as f:
            for n, raw in enumerate(iter(lambda: f.readline(MAX_LINE), b""), 1):
                if n in want:
                    try:
                        t = raw.decode("utf-8")
                    except UnicodeDecodeError:
                        t = raw.decode("latin-1")
                    out[n] = t.rstrip("\r\n")[:width]
                if n >= last:
                    break
    except OSError:
        pass
    return out


def format_diagnostic(d: Diagnostic, line_text: str | None = None, file: str | None = None) -> str:
    """``file:line:col: severity: code: message``, then the source line and a caret
    under the offending text (when the line is known)."""
    head = d.render(file)
    if line_text is None:
        return head
    shown = "".join(ch if ch.isprintable() or ch == "\t" else "?" for ch in line_text)
    col = max(d.span.col, 1)
    width = 1
    if d.span.end_line in (0, d.span.line) and d.span.end_col > col:
        width = d.span.end_col - col
    width = max(1, min(width, len(shown) - col + 1 if len(shown) >= col else 1))
    pad = "".join("\t" if ch == "\t" else " " for ch in shown[: col - 1])
    return f"{head}\n    {shown}\n    {pad}{'^' * width}"
