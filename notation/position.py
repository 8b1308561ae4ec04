"""The one-line position notation (issue 2, "Position notation"; docs/notation.md).

A position is written on one line as space-separated fields::

    A{1:13,12:2} B{1:15} turn=B coups=1/1 coin=1/0 jans=deux-tables/- points=4b/0 holes=2p/0

``A{…}`` and ``B{…}`` always come first: ``point:count`` pairs in that side's own frame
(RULES.md §2.2: 1 = own talon, 12 = own coin, 13 = opponent's coin, 24 = opponent's
talon, 25 = borne off).  Unlisted checkers do not exist; each side must total 15
(RULES.md §2.1).  The other fields appear only when not at their default, in the
order ``turn coups coin jans points holes``; each ``x/y`` pair gives A then B.
``b`` after points = in bredouille (RULES.md §5.2), ``p`` after holes = pavillon
(hole-bredouille, RULES.md §5.4).  ``jans`` lists the special jans already scored
in this relevé (RULES.md §4.6) by their short names, ``+``-joined, ``-`` for none.

This module knows text, not rules: it checks only what makes a position impossible
to set up (15 checkers, no lone checker on a coin, nobody on the opponent's coin, no
point held by both sides — RULES.md §3.3 L1-L3).  It never raises on bad text:
errors come back as :class:`Diagnostic` values with the column of the fault.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import limits as L
from .record import Diagnostic, Span

__all__ = ["PositionSpec", "parse_position", "write_position", "JAN_NAMES", "START_SPEC"]

#: short name in the notation -> scoring-event kind (RULES.md §4.6; architecture.md)
JAN_NAMES: dict[str, str] = {
    "trois-coups": "jan-de-trois-coups",
    "deux-tables": "jan-de-deux-tables",
    "contre-deux-tables": "contre-jan-de-deux-tables",
    "mezeas": "jan-de-mezeas",
    "contre-mezeas": "contre-jan-de-mezeas",
    # not a special jan: the grand jan was made this relevé (opens the table under the
    # lebrun-1828 reading "until his grand jan is broken", RULES.md §10 D14)
    "grand-jan": "grand-jan",
}
_JAN_ALIASES: dict[str, str] = {**{k: k for k in JAN_NAMES}, **{v: k for k, v in JAN_NAMES.items()}}
_JAN_ALIASES.update({"mézéas": "mezeas", "contre-mézéas": "contre-mezeas"})

_KEY_ORDER = ("turn", "coups", "coin", "jans", "points", "holes")
_MAX_POINTS = 11  # 12 points make a hole and are never left on the jetons (RULES.md §5.1)
_MAX_HOLES = L.MAX_HOLES  # parties à écrire may run past twelve in a marqué's count


@dataclass(frozen=True, slots=True)
class PositionSpec:
    """A whole position and score state as written in the one-line notation.

    ``a`` / ``b``: 26 counts each in that side's own frame (``[0]`` = 0, ``[25]`` =
    borne off).  Pairs are (A, B).  ``jans`` holds short names (see ``JAN_NAMES``).
    """

    a: tuple[int, ...]
    b: tuple[int, ...]
    turn: str = "A"
    coups: tuple[int, int] = (0, 0)
    coin_taken: tuple[bool, bool] = (False, False)
    jans: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
    points: tuple[int, int] = (0, 0)
    bredouille: tuple[bool, bool] = (False, False)
    holes: tuple[int, int] = (0, 0)
    pavillon: tuple[bool, bool] = (False, False)


_START = (0, 15) + (0,) * 24
START_SPEC = PositionSpec(_START, _START)

# A field is a side block (may hold spaces inside its braces) or any other run of
# non-blank characters.
_FIELD = re.compile(r"[A-Za-z]\{[^}\n]*\}?|\S+")
_SIDE = re.compile(r"([A-Za-z])\{([^}]*)(\}?)\Z")
_PAIR = re.compile(r"\s*([0-9]+)\s*:\s*([0-9]+)\s*\Z")
_INT = re.compile(r"[0-9]{1,6}\Z")


def _fmt_side(c: tuple[int, ...]) -> str:
    return ",".join(f"{p}:{c[p]}" for p in range(1, 26) if c[p])


def write_position(spec: PositionSpec) -> str:
    """The canonical one-line text of ``spec`` (defaults omitted)."""
    out = [f"A{{{_fmt_side(spec.a)}}}", f"B{{{_fmt_side(spec.b)}}}"]
    if spec.turn != "A":
        out.append(f"turn={spec.turn}")
    if spec.coups != (0, 0):
        out.append(f"coups={spec.coups[0]}/{spec.coups[1]}")
    if spec.coin_taken != (False, False):
        out.append(f"coin={int(spec.coin_taken[0])}/{int(spec.coin_taken[1])}")
    if spec.jans != (frozenset(), frozenset()):
        out.append("jans=" + "/".join("+".join(sorted(j)) or "-" for j in spec.jans))
    if spec.points != (0, 0) or spec.bredouille != (False, False):
        out.append("points=" + "/".join(f"{n}{'b' if f else ''}" for n, f in zip(spec.points, spec.bredouille)))
    if spec.holes != (0, 0) or spec.pavillon != (False, False):
        out.append("holes=" + "/".join(f"{n}{'p' if f else ''}" for n, f in zip(spec.holes, spec.pavillon)))
    return " ".join(out)


class _Parser:
    def __init__(self, text: str, file: str | None, line: int, col: int) -> None:
        self.text = text
        self.file = file
        self.line = line
        self.col = col
        self.diags: list[Diagnostic] = []

    def err(self, code: str, at: int, length: int, message: str, severity: str = "error") -> None:
        snippet = self.text[at : at + max(length, 1)]
        c = self.col + at
        span = Span(self.line, c, self.line, c + max(length, 1), at)
        self.diags.append(Diagnostic(code, severity, span, message, snippet, self.file))  # type: ignore[arg-type]

    # -- fields ---------------------------------------------------------------------
    def side(self, body: str, at: int) -> list[int] | None:
        counts = [0] * 26
        ok = True
        if body.strip() == "":
            return counts
        pos = 0
        for part in body.split(","):
            p_at = at + pos
            pos += len(part) + 1
            m = _PAIR.match(part)
            if not m or len(m.group(1)) > 6 or len(m.group(2)) > 6:
                self.err("position-bad-number", p_at, len(part), f"expected point:count, found {part.strip()!r}")
                ok = False
                continue
            p, n = int(m.group(1)), int(m.group(2))
            if not 1 <= p <= 25:
                self.err("position-bad-number", p_at, len(part), f"point {p} outside 1..25 (25 = borne off)")
                ok = False
            elif n == 0:
                self.err("position-bad-number", p_at, len(part), f"count 0 on point {p}: leave the point out")
                ok = False
            elif counts[p]:
                self.err("position-duplicate", p_at, len(part), f"point {p} listed twice")
                ok = False
            else:
                counts[p] = n
        return counts if ok else None

    def pair(self, value: str, at: int, key: str, suffix: str = "") -> tuple[tuple[int, int], tuple[bool, bool]] | None:
        halves = value.split("/")
        if len(halves) != 2:
            self.err("position-bad-value", at, len(value), f"{key}= needs two values A/B, found {value!r}")
            return None
        nums: list[int] = []
        flags: list[bool] = []
        off = at
        for h in halves:
            flag = bool(suffix) and h.endswith(suffix)
            digits = h[:-1] if flag else h
            if not _INT.match(digits):
                self.err("position-bad-number", off, len(h), f"{key}=: bad number {h!r}")
                return None
            nums.append(int(digits))
            flags.append(flag)
            off += len(h) + 1
        return (nums[0], nums[1]), (flags[0], flags[1])

    def parse(self) -> PositionSpec | None:
        text = self.text
        sides: dict[str, tuple[int, ...]] = {}
        vals: dict[str, object] = {}
        for m in _FIELD.finditer(text):
            tok, at = m.group(), m.start()
            sm = _SIDE.match(tok)
            if sm:
                letter = sm.group(1)
                if letter not in ("A", "B"):
                    self.err("position-unknown-token", at, len(tok), f"unknown side {letter!r} (A or B)")
                    continue
                if not sm.group(3):
                    self.err("position-unclosed", at, len(tok), f"{letter}{{ is not closed by }}")
                    continue
                if letter in sides:
                    self.err("position-duplicate", at, len(tok), f"side {letter} given twice")
                    continue
                c = self.side(sm.group(2), at + 2)
                sides[letter] = tuple(c) if c is not None else ()
                continue
            key, eq, value = tok.partition("=")
            if not eq:
                self.err("position-unknown-token", at, len(tok), f"unknown token {tok!r}")
                continue
            key = key.lower()
            if key not in _KEY_ORDER:
                self.err("position-unknown-key", at, len(key), f"unknown key {key!r} (one of {', '.join(_KEY_ORDER)})")
                continue
            if key in vals:
                self.err("position-duplicate", at, len(tok), f"{key}= given twice")
                continue
            vat = at + len(key) + 1
            vals[key] = self.value(key, value, vat)
        for letter in ("A", "B"):
            if letter not in sides:
                self.err("position-missing-side", len(text.rstrip()), 0, f"side {letter}{{…}} is missing")
        a, b = sides.get("A", ()), sides.get("B", ())
        if a and b:  # both sides read: check the board even if other fields are wrong
            self.check_board(a, b, text)
        if any(d.severity == "error" for d in self.diags):
            return None
        spec = PositionSpec(a, b)
        kw: dict[str, object] = {}
        for key, v in vals.items():
            if key == "turn":
                kw["turn"] = v
            elif key == "coups":
                kw["coups"] = v[0]  # type: ignore[index]
            elif key == "coin":
                kw["coin_taken"] = v
            elif key == "jans":
                kw["jans"] = v
            elif key == "points":
                kw["points"], kw["bredouille"] = v  # type: ignore[misc]
            elif key == "holes":
                kw["holes"], kw["pavillon"] = v  # type: ignore[misc]
        return PositionSpec(a, b, **kw) if kw else spec  # type: ignore[arg-type]

    def value(self, key: str, value: str, at: int) -> object:
        if key == "turn":
            if value.upper() not in ("A", "B"):
                self.err("position-bad-value", at, len(value), f"turn= must be A or B, found {value!r}")
                return None
            return value.upper()
        if key == "jans":
            halves = value.split("/")
            if len(halves) != 2:
                self.err("position-bad-value", at, len(value), f"jans= needs two lists A/B, found {value!r}")
                return None
            out: list[frozenset[str]] = []
            off = at
            for h in halves:
                names: set[str] = set()
                if h != "-":
                    noff = off
                    for name in h.split("+"):
                        short = _JAN_ALIASES.get(name.lower())
                        if short is None:
                            self.err(
                                "position-unknown-jan",
                                noff,
                                len(name),
                                f"unknown jan {name!r} (one of {', '.join(JAN_NAMES)})",
                            )
                        else:
                            names.add(short)
                        noff += len(name) + 1
                out.append(frozenset(names))
                off += len(h) + 1
            return (out[0], out[1])
        suffix = {"points": "b", "holes": "p"}.get(key, "")
        r = self.pair(value, at, key, suffix)
        if r is None:
            return None
        nums, flags = r
        if key == "coin":
            if any(n > 1 for n in nums):
                self.err("position-bad-number", at, len(value), "coin= takes 0 or 1 for each side")
                return None
            return (bool(nums[0]), bool(nums[1]))
        if key == "points" and max(nums) > _MAX_POINTS:
            self.err("position-bad-number", at, len(value), f"points run 0..{_MAX_POINTS} (12 make a hole)")
            return None
        if key == "coups" and max(nums) > L.MAX_COUP_NUMBER:
            self.err("position-bad-number", at, len(value), f"coups run 0..{L.MAX_COUP_NUMBER}")
            return None
        if key == "holes" and max(nums) > _MAX_HOLES:
            self.err("position-bad-number", at, len(value), f"holes run 0..{_MAX_HOLES}")
            return None
        return r

    def check_board(self, a: tuple[int, ...], b: tuple[int, ...], text: str) -> None:
        """RULES.md §2.1 (15 checkers), §3.3 L1 (no shared point), L2 (opponent's coin),
        L3 (no lone checker on a coin)."""

        def where(letter: str, point: int | None = None) -> tuple[int, int]:
            start = text.find(letter + "{")
            end = text.find("}", start) + 1
            if point is not None:
                m = re.search(rf"(?<![0-9]){point}\s*:", text[start:end])
                if m:
                    seg = text[start + m.start() : end]
                    n = re.match(r"[^,}]*", seg)
                    return start + m.start(), len(n.group()) if n else 1
            return start, end - start

        for letter, c in (("A", a), ("B", b)):
            total = sum(c)
            if total != 15:
                at, n = where(letter)
                self.err("position-checker-count", at, n, f"side {letter} has {total} checkers, not 15")
            if c[12] == 1:
                at, n = where(letter, 12)
                self.err("position-lone-coin", at, n, f"side {letter} has a lone checker on its coin (point 12)")
            if c[13]:
                at, n = where(letter, 13)
                self.err(
                    "position-opponent-coin", at, n, f"side {letter} has checkers on the opponent's coin (point 13)"
                )
        for p in range(1, 25):
            if a[p] and b[25 - p]:
                at, n = where("B", 25 - p)
                self.err(
                    "position-point-shared",
                    at,
                    n,
                    f"A's point {p} and B's point {25 - p} are the same flèche, held by both sides",
                )


def parse_position(
    text: str, *, file: str | None = None, line: int = 1, col: int = 1
) -> tuple[PositionSpec | None, list[Diagnostic]]:
    """Parse the one-line position notation.  Returns ``(spec, diagnostics)``; ``spec``
    is None when there is any error.  ``line``/``col`` place ``text`` in its file so
    that diagnostic columns point into the file (e.g. inside a ``[Position "…"]`` tag).
    Never raises on bad text."""
    if not isinstance(text, str):
        raise TypeError("parse_position takes a str")
    p = _Parser(text, file, line, col)
    if "\n" in text or "\r" in text:
        nl = min(i for i in (text.find("\n"), text.find("\r")) if i >= 0)
        p.err("position-multiline", nl, 1, "a position is one line of text")
        return None, p.diags
    try:
        spec = p.parse()
    except (ValueError, IndexError, TypeError) as e:  # defensive: text never raises
        p.err("position-invalid", 0, len(text), f"unreadable position: {e}")
        return None, p.diags
    return spec, p.diags
