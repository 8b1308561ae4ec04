"""The record model: what a written trictrac game *says*, not what the rules entitle.

A :class:`Record` holds the header tags and the movetext as an ordered list of
elements (sections, coups, comments).  Everything is a *claim* as written at the
table: rolls, checker moves, marks, écoles, decisions.  Positions and scores are
never stored; the replayer derives them (``replay.verifier.verify``).

Sides are player letters: ``"A"`` and ``"B"`` for the two seats of a two-player
game; games of three or four players (à tourner, chouette, à quatre) use ``"C"``
and ``"D"`` too, and each marqué section says which two letters play it.

All elements are frozen dataclasses with a :class:`Span` (where they were read; a
default span for records built in code).  Equality ignores spans so that
``parse(write(r)) == r`` compares content.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, NamedTuple

__all__ = [
    "Span",
    "NO_SPAN",
    "Diagnostic",
    "Move",
    "CannotPlay",
    "Mark",
    "NeMarquePas",
    "Decision",
    "Ecole",
    "Correction",
    "JouePourTout",
    "Replay",
    "Force",
    "FaitMarquer",
    "Remet",
    "Pavillon",
    "Comment",
    "Glyph",
    "Action",
    "Coup",
    "ReleveStart",
    "MarqueStart",
    "MarqueResult",
    "Element",
    "Record",
    "OFF",
    "TAG_ROSTER",
]

OFF = 25  # "to" of a move that bears a checker off (onto the bande)

Severity = Literal["error", "warning"]


class Span(NamedTuple):
    """Where a token stands in the source: 1-based line and column, 0-based offset.

    A named tuple (not a dataclass) because the reader makes one per token and tuples
    are several times cheaper to build.  ``offset`` is counted from the start of the
    source: for a file, the game's byte offset plus the character offset of the token
    within the game (equal to bytes for ASCII text); for a ``str`` source, characters.
    """

    line: int = 0
    col: int = 0
    end_line: int = 0
    end_col: int = 0
    offset: int = 0


NO_SPAN = Span()


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A fault in the *text* (not in the rules): data, never an exception.

    ``code`` is a stable kebab-case identifier (e.g. ``unclosed-comment``).
    """

    code: str
    severity: Severity
    span: Span
    message: str
    text: str = ""
    file: str | None = None

    def render(self, file: str | None = None) -> str:
        name = file or self.file or "<input>"
        return f"{name}:{self.span.line}:{self.span.col}: {self.severity}: {self.code}: {self.message}"

    def say(self, lang: str = "en") -> str:
        """The fault in ``lang``: the reader's own words in English; in another language
        the catalogue's name of the code (``diag.<code>``) and the text it was about."""
        if lang == "en":
            return self.message
        from ..words import words

        W = words(lang)
        what = W.get(f"diag.{self.code}", self.code)
        return W("diag.said", what=what, text=self.text) if self.text else what

    def as_dict(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.span.line,
            "col": self.span.col,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "text": self.text,
        }


def _span() -> Span:
    return NO_SPAN


# --- actions inside a coup ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Move:
    """One checker move as written, in the mover's own frame (RULES.md §2.2).

    ``to == 25`` bears off onto the bande.  A tout d'une is written as one move whose
    distance is the sum of the dice; tout à bas as two moves.
    """

    from_: int
    to: int
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class CannotPlay:
    """An explicit "cannot play" for one number of the roll (impuissance, RULES.md §4.8)."""

    number: int
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Mark:
    """Points (and holes) a player marked, as he marked them.

    ``points`` is the number of points marked with this gesture (its gain as marked).
    ``holes`` is the number of holes he moved his fichet by (None = not stated: the
    holes follow from the points).  ``bredouille`` is True when he marked in
    bredouille (two jetons / a double hole), False when he said it was not, None when
    the record does not say.
    """

    who: str
    points: int
    holes: int | None = None
    bredouille: bool | None = None
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class NeMarquePas:
    """*Je ne marque pas* (RULES.md §5.3; 003 §150, §176)."""

    who: str
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Decision:
    """*Je m'en vais* (``leave=True``) or *je reste* (``leave=False``) (RULES.md §6)."""

    who: str
    leave: bool
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Ecole:
    """An école claimed: ``claimant`` marks ``points`` for himself (RULES.md §7)."""

    claimant: str
    points: int
    reason: str | None = None
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Correction:
    """A correction the players agreed on: ``who``'s points/holes changed by these deltas."""

    who: str
    points: int = 0
    holes: int = 0
    reason: str | None = None
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class JouePourTout:
    """*Je joue pour tout* said with the last throw of a bear-off (RULES.md §6.5)."""

    who: str
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Replay:
    """The throw played again as ``moves``: a table remedy (RULES.md §9.5).

    Written ``B:fait-jouer(1/12)`` when the opponent imposes it (the choice the laws give
    him after a fausse case, a dame mal posée, a forgotten fill or conservation, an
    unplayed number: 003 §192, §211, §216) and ``A:rejoue(1/7 1/6)`` when the roller
    corrects his own play (before releasing his checkers, 003 §216; bonne compagnie,
    001 III on r.34).  It stands in the coup's ``after`` list; the play it gives is the
    one the game goes on from.  ``moves`` holds ``Move`` and ``CannotPlay`` like
    :attr:`Coup.moves`.
    """

    who: str
    moves: tuple[Move | CannotPlay, ...]
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Force:
    """``A:force(14/20)``: the opponent ``who`` obliges the roller to play these moves
    (roller's frame) with this throw — a checker entered inadvertently into ``who``'s
    second table passes into his first (RULES.md §3.8 P5; 003 §213).  Written before
    the roller's moves."""

    who: str
    moves: tuple[Move | CannotPlay, ...]
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class FaitMarquer:
    """``A:fait-marquer(B+4t1)``: ``who`` obliges the other player to mark ``mark`` —
    points he omitted, a hole he would rather not take, the rest of an école marked
    short (RULES.md §7.3; 003 §185-187; 001 r.46)."""

    who: str
    mark: Mark
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Remet:
    """``B:remet(A-2)``: ``who`` puts ``target``'s jeton back (or forward) by ``points``
    and his fichet by ``holes``, apart from any claim of his own; unlike a correction it
    is one player's act, and judged (003 §187, §177; 001 r.56, r.67)."""

    who: str
    target: str
    points: int
    holes: int = 0
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Pavillon:
    """*Prendre le pavillon*: ``who`` sets the pavillon, the mark of hole-bredouille of the
    written game (RULES.md §5.4).  It must be taken before the next hole is marked by
    either player, or it is lost (001 r.58; bonne compagnie: always acknowledged, 001 III).
    Written ``B:pavillon``, usually with the hole that earns it."""

    who: str
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Comment:
    """A ``{…}`` comment, kept as written (without the braces)."""

    text: str
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class Glyph:
    """An annotation glyph: ``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!`` or ``$n``."""

    glyph: str
    span: Span = field(default=NO_SPAN, compare=False)


Action = (
    Mark
    | NeMarquePas
    | Decision
    | Ecole
    | Correction
    | JouePourTout
    | Replay
    | Force
    | FaitMarquer
    | Remet
    | Pavillon
    | Comment
    | Glyph
)


@dataclass(frozen=True, slots=True)
class Coup:
    """One throw and everything that happened at the table around it, in order.

    ``before`` are the actions written before the checker moves (the roller's marks,
    *je ne marque pas*, his decision), ``moves`` the checker moves (``Move`` and
    ``CannotPlay``), ``after`` what followed (the opponent's marks for points given,
    écoles claimed by either side, corrections, comments, glyphs).  ``moves`` is
    empty with ``left`` semantics when the roller left (he does not play).

    ``canonical_line`` is the coup's line as the reader read it, when that line is the
    one the writer writes for this coup (a plain coup: no action before or after its
    moves, the roll larger die first, single spaces); None otherwise, and for every coup
    built in code.  Not a field of the constructor, nor compared, nor copied by
    ``dataclasses.replace``: a coup changed is a new coup, without it.  The club's import
    writes such a coup's line as read (issue 30; the tests prove the two texts equal).
    """

    number: int
    side: str
    roll: tuple[int, int]  # (larger, smaller)
    moves: tuple[Move | CannotPlay, ...] = ()
    before: tuple[Action, ...] = ()
    after: tuple[Action, ...] = ()
    span: Span = field(default=NO_SPAN, compare=False)
    canonical_line: str | None = field(default=None, init=False, compare=False, repr=False)


# --- sections ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReleveStart:
    """Start of a relevé (all checkers on the talons).  ``number`` counts within the game
    (or within the marqué of a partie à écrire)."""

    number: int
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class MarqueStart:
    """Start of a marqué of a partie à écrire; ``players`` = the two letters seated
    (first = seat A's frame owner… i.e. who plays; None = the two header players)."""

    number: int
    players: tuple[str, str] | None = None
    span: Span = field(default=NO_SPAN, compare=False)


@dataclass(frozen=True, slots=True)
class MarqueResult:
    """The result of a marqué as written on the score sheet (RULES.md §8.2).

    ``winner`` None with ``refait=True`` for a void marqué.
    """

    winner: str | None
    winner_holes: int
    loser_holes: int
    bredouille: Literal["none", "petite", "grande"] = "none"
    refait: bool = False
    value: int | None = None
    span: Span = field(default=NO_SPAN, compare=False)


Element = ReleveStart | MarqueStart | MarqueResult | Coup | Comment

# Header tags written first, in this order, by the canonical writer; others follow in
# the order read.
TAG_ROSTER = (
    "Event",
    "Site",
    "Date",
    "Round",
    "A",
    "B",
    "C",
    "D",
    "Partie",
    "Profile",
    "Record",
    "Position",
    "Result",
    "Annotator",
)


@dataclass(slots=True)
class Record:
    """A whole game (partie) as written.

    ``headers`` keeps every tag, known and unknown, in canonical order for known tags.
    ``mode`` comes from the ``Record`` tag: ``"full"`` (every mark written: a missing
    mark means nothing was marked) or ``"compact"`` (rolls and moves only).
    ``start`` is the text of the ``Position`` tag (one-line position notation) or None.
    ``span`` covers the whole game in the file (``offset`` = byte/char offset of its
    first line) so an archive can be indexed and re-read game by game.
    """

    headers: dict[str, str] = field(default_factory=dict)
    elements: list[Element] = field(default_factory=list)
    span: Span = field(default=NO_SPAN, compare=False)

    @property
    def mode(self) -> Literal["full", "compact"]:
        return "compact" if self.headers.get("Record", "full").lower() == "compact" else "full"

    @property
    def start(self) -> str | None:
        return self.headers.get("Position")

    @property
    def coups(self) -> list[Coup]:
        return [e for e in self.elements if isinstance(e, Coup)]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Record):
            return NotImplemented
        return self.headers == other.headers and self.elements == other.elements
