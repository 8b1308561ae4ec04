"""Findings: where a recorded game departs from the rules (issue 5).

A :class:`Finding` is data, never an exception (STYLE.md §6): the verifier
(:mod:`trictrac.replay.verify`) returns them, ``trictrac check`` prints them, the
publisher and the club database store them.  Each carries the place (game, marqué,
relevé, coup, ``line:col``), who made the mistake, a stable kebab-case ``kind``
(keys of :data:`FINDING_KINDS`), the points the rules entitle against the points
marked, the consequence at the table and the RULES.md section (which cites the books).

One mistake gives one finding.  A wrong mark is ``ecole-par-trop`` /
``ecole-par-moins`` when the opponent claimed it, ``unclaimed-ecole`` when he let
the claim window close (the mistake then stands: RULES.md §7.3, 001 r.47, 003 §182).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..notation.compiled import mypyc_attr
from ..notation.limits import MAX_FINDINGS

if TYPE_CHECKING:  # pragma: no cover
    from .judges.table import Where

__all__ = ["Finding", "FINDING_KINDS", "Findings", "finding_rule"]

#: kind -> (RULES.md section, one-line meaning).  Stable ids: never rename one.
FINDING_KINDS: dict[str, tuple[str, str]] = {
    # --- marking (écoles) -------------------------------------------------------------
    "ecole-par-moins": (
        "§7.1, §7.2 (003 §164-167)",
        "points under-marked, claimed by the opponent: he marks the missing points for himself",
    ),
    "ecole-par-trop": (
        "§7.1, §7.2 (003 §164-167, §172)",
        "points over-marked, claimed by the opponent: the excess is erased and marked by him",
    ),
    "unclaimed-ecole": (
        "§7.3, §7.4 (003 §167, §182; 001 r.43, r.47)",
        "a wrong mark the opponent could have claimed and did not in time: the mistake stands",
    ),
    "ecole-claimed-wrongly": (
        "§7.4 (003 §183; 001 r.60)",
        "fausse école: an école claimed where none (or less) was made; itself an école",
    ),
    "ecole-partial": (
        "§7.3 (003 §187; 001 r.46)",
        "an école claimed for part of its value only: an école is indivisible",
    ),
    "ecole-too-late": (
        "§7.2 claim window (003 §167, §186; 001 r.34)",
        "an école claimed after the claimant threw his own dice: no longer receivable",
    ),
    "ecole-impossible": (
        "§7.8 (001 r.62-63; 003 §197)",
        "an omission on a throw that could not be played: no école can be claimed for it",
    ),
    "ecole-deux-jetons": (
        "§7.6 (003 §195; 001 r.65; 000 ~l.758)",
        "new points marked with a second jeton, the old points abandoned (école per profile)",
    ),
    "ecole-plein-not-made": (
        "§7.7 (003 §192; 001 r.59)",
        "points of a plein marked, then a play that does not fill/conserve (double under rigueur)",
    ),
    "bredouille-lost": (
        "§5.2, §5.5, §7.9 (003 §145, §200; 001 r.64)",
        "marked in bredouille when the bredouille was lost (or forgotten when due)",
    ),
    "hole-mismatch": (
        "§7.5 (003 §184; 001 r.51)",
        "holes marked differ from the holes the points make: corrected, never schooled",
    ),
    # --- moves ------------------------------------------------------------------------
    "illegal-move": (
        "§3 (see the sub-reason), §9.5",
        "a play the movement laws forbid; the legal alternatives are listed",
    ),
    "must-fill": (
        "§3.7 M10, §7.7 (003 §192)",
        "a plein could be filled and was not: école of the points of the fill",
    ),
    "must-conserve": (
        "§3.7 M11, §7.7 (003 §192, §196)",
        "a plein could be kept and was broken: école of the conservation points",
    ),
    "unplayed-number": (
        "§3.6 M6-M7 (003 §36-37)",
        "a number left unplayed (or the smaller played) when the whole throw could be played",
    ),
    "remedy-not-allowed": (
        "§9.4, §9.5, §7.7 (003 §46, §192, §201, §211, §212, §216; 001 r.22-27)",
        "a throw played again in a way the table's law does not give (wrong checkers, tout d'une "
        "without ground, an illegal play, a legal play replayed)",
    ),
    "missing-checker": (
        "§9.6 (001 r.32; 003 §214)",
        "a move from a point holding no checker of his: the record cannot go on",
    ),
    "out-of-turn": (
        "§9.3 (003 §28)",
        "a coup thrown by the side not to move (wrong primauté or alternation)",
    ),
    # --- decisions --------------------------------------------------------------------
    "leave-without-right": (
        "§6.1, §6.4 (003 §155-156, §170, §173; 001 r.25, r.54)",
        "s'en aller without a hole won by one's own throw (or after over-marking it)",
    ),
    "stay-after-leave": (
        "§6.1 (003 §156; 001 r.36)",
        'went on playing after saying "je m\'en vais": words bind',
    ),
    "leave-at-sortie": (
        "§6.5 (003 §163; 001 r.73)",
        "leaving at the sortie without completing a hole by that throw",
    ),
    "releve-without-leave": (
        "§1.7, §6.1 (003 §155, §162)",
        "a new relevé starts although nobody left and nobody bore off",
    ),
    "marque-result-mismatch": (
        "§8.2 (003 §221-226)",
        "the written result of a marqué does not match the holes of the record",
    ),
    "play-after-end": (
        "§8.1, §8.2 (003 §218, §221)",
        "coups recorded after the partie (twelve holes) or the marqué (a leave with six holes) ended",
    ),
    "result-mismatch": (
        "§8.1, §8.2 (003 §218, §221-226)",
        "the Result header does not match the holes or marqués of the record",
    ),
}


def finding_rule(kind: str) -> str:
    """The RULES.md section for ``kind`` (ValueError on an unknown kind)."""
    try:
        return FINDING_KINDS[kind][0]
    except KeyError:
        raise ValueError(f"unknown finding kind {kind!r}") from None


@dataclass(frozen=True, slots=True)
class Finding:
    """One departure from the rules, at one coup.

    ``game`` is the 0-based index of the game in its file, ``marque`` / ``releve`` the
    section numbers as counted by the record (0 = none written), ``coup`` the coup
    number as written (0 = not at a coup, e.g. a section or result), ``index`` the
    0-based index of the coup in the game (position in ``GameReport.trace``; -1 = none).
    ``who`` is the player letter who made the mistake.  ``entitled`` / ``marked`` are
    points (None = not a marking matter).  ``detail`` is a sub-reason (e.g. the
    ``violation`` of ``moves.judge_play``), ``alternatives`` legal plays as move texts.
    """

    kind: str
    message: str
    game: int = 0
    releve: int = 0
    marque: int = 0
    coup: int = 0
    index: int = -1
    line: int = 0
    col: int = 0
    who: str | None = None
    entitled: int | None = None
    marked: int | None = None
    consequence: str = ""
    rule: str = ""
    detail: str | None = None
    alternatives: tuple[str, ...] = field(default=())
    file: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in FINDING_KINDS:
            raise ValueError(f"unknown finding kind {self.kind!r}")
        if not self.rule:
            object.__setattr__(self, "rule", FINDING_KINDS[self.kind][0])

    def render(self, file: str | None = None) -> str:
        """``file:line:col: kind: message`` (one line, like a compiler)."""
        name = file or self.file or "<input>"
        text = f"{name}:{self.line}:{self.col}: {self.kind}: {self.message}"
        if self.consequence:
            text += f" — {self.consequence}"
        return text + f" [RULES.md {self.rule}]"

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "game": self.game,
            "marque": self.marque,
            "releve": self.releve,
            "coup": self.coup,
            "index": self.index,
            "file": self.file,
            "line": self.line,
            "col": self.col,
            "who": self.who,
            "entitled": self.entitled,
            "marked": self.marked,
            "detail": self.detail,
            "alternatives": list(self.alternatives),
            "consequence": self.consequence,
            "rule": self.rule,
            "message": self.message,
        }


@mypyc_attr(native_class=False)  # deep-copied by the typo recovery: a plain class when compiled
class Findings:
    """The sink the verifier's judges report into, one per game: the judges receive it
    with the table's state and the coup's facts, the flow collects ``items`` at the end.

    ``who`` is given as a seat (``"A"`` / ``"B"``) and written as the player letter of
    ``letter_of`` (the table's own mapping, updated in place when a marqué seats other
    players), the place comes from a ``Where``."""

    __slots__ = ("file", "items", "letter_of", "more")

    def __init__(self, file: str | None, letter_of: dict[str, str]) -> None:
        self.file = file
        self.letter_of = letter_of
        self.items: list[Finding] = []
        #: findings past ``MAX_FINDINGS``, counted by kind, not kept (issue 27 row 2)
        self.more: dict[str, int] = {}

    def __len__(self) -> int:
        """Every finding reported, the counted ones too (the typo recovery compares counts)."""
        return len(self.items) + sum(self.more.values())

    def add(self, kind: str, where: Where, message: str, *, who: str | None = None, **details: Any) -> None:
        """Record one finding; ``details``: entitled, marked, consequence, detail,
        alternatives (see :class:`Finding`).  Past ``MAX_FINDINGS`` it is only counted."""
        if len(self.items) >= MAX_FINDINGS:
            self.more[kind] = self.more.get(kind, 0) + 1
            return
        sp = where.span
        self.items.append(
            Finding(
                kind=kind,
                message=message,
                game=where.game,
                releve=where.releve,
                marque=where.marque,
                coup=where.coup,
                index=where.index,
                line=sp.line,
                col=sp.col,
                who=self.letter_of.get(who, who) if who else None,
                entitled=details.get("entitled"),
                marked=details.get("marked"),
                consequence=details.get("consequence", ""),
                rule=FINDING_KINDS[kind][0],
                detail=details.get("detail"),
                alternatives=details.get("alternatives", ()),
                file=self.file,
            )
        )
