"""Findings: where a recorded game departs from the rules (issues 5 and 25).

A :class:`Finding` is data only (STYLE.md §6): the kind, the place (game, marqué,
relevé, coup, ``line:col``), who made the mistake, the points the rules entitle
against the points marked (and claimed), a variant (``detail``: the sub-reason of an
illegal play, how a leave was lost, ``did-you-mean`` for a mistake of the record),
the proposal where the record itself is wrong (``alternatives``), and the rule.  The
verifier (:mod:`trictrac.replay.verifier.verify`) returns them; every surface — ``check``,
``annotate``, the recorder, the pages, the club database — says them through
:func:`say`, in French or English, from the one catalogue (:mod:`trictrac.words`).

A kind is declared once, as a member of :class:`FindingKind` with its RULES.md
section (for the code) and its treatise references (for the user); its words are the
catalogue's ``finding.<kind>.name``, ``finding.<kind>.message[.<variant>]`` and
``finding.<kind>.consequence[.<variant>]`` entries (a test fails when one is
missing in either language).

One mistake gives one finding.  A wrong mark is ``ecole-par-trop`` /
``ecole-par-moins`` when the opponent claimed it, ``unclaimed-ecole`` when he let
the claim window close (the mistake then stands: RULES.md §7.3, 001 r.47, 003 §182).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from enum import Enum
from string import Formatter
from typing import TYPE_CHECKING, Any

from ...notation.compiled import mypyc_attr
from ...notation.limits import MAX_FINDINGS
from ...words import Words, words
from .rulebook import rule_for_finding

if TYPE_CHECKING:  # pragma: no cover
    from ...notation.record import Span

__all__ = [
    "FindingKind",
    "FINDING_KINDS",
    "RECORD_MISTAKE_DETAILS",
    "Finding",
    "Findings",
    "Said",
    "finding_rule",
    "kind_name",
    "say",
    "Note",
]


class FindingKind(str, Enum):
    """Every kind of finding: its stable id (never renamed) and its RULES.md section (for
    the code).  The rule a user reads is the rules reference's
    (:func:`.rulebook.rule_for_kind`: its title, statement and the treatises' articles);
    the words are the catalogue's ``finding.<kind>.*``."""

    rule: str

    def __new__(cls, kind: str, rule: str) -> FindingKind:
        member = str.__new__(cls, kind)
        member._value_ = kind
        member.rule = rule
        return member

    # --- marking (écoles) ---------------------------------------------------------------
    ECOLE_PAR_MOINS = ("ecole-par-moins", "§7.1, §7.2")
    ECOLE_PAR_TROP = ("ecole-par-trop", "§7.1, §7.2")
    UNCLAIMED_ECOLE = ("unclaimed-ecole", "§7.3, §7.4")
    ECOLE_CLAIMED_WRONGLY = ("ecole-claimed-wrongly", "§7.4")
    ECOLE_PARTIAL = ("ecole-partial", "§7.3")
    ECOLE_TOO_LATE = ("ecole-too-late", "§7.2 claim window")
    ECOLE_IMPOSSIBLE = ("ecole-impossible", "§7.8")
    ECOLE_DEUX_JETONS = ("ecole-deux-jetons", "§7.6")
    ECOLE_PLEIN_NOT_MADE = ("ecole-plein-not-made", "§7.7")
    BREDOUILLE_LOST = ("bredouille-lost", "§5.2, §5.5, §7.9")
    HOLE_MISMATCH = ("hole-mismatch", "§7.5")
    # --- moves --------------------------------------------------------------------------
    ILLEGAL_MOVE = ("illegal-move", "§3 (see the sub-reason), §9.5")
    MUST_FILL = ("must-fill", "§3.7 M10, §7.7")
    MUST_CONSERVE = ("must-conserve", "§3.7 M11, §7.7")
    UNPLAYED_NUMBER = ("unplayed-number", "§3.6 M6-M7")
    REMEDY_NOT_ALLOWED = ("remedy-not-allowed", "§9.4, §9.5, §7.7")
    MISSING_CHECKER = ("missing-checker", "§9.6")
    OUT_OF_TURN = ("out-of-turn", "§9.3")
    # --- decisions ----------------------------------------------------------------------
    LEAVE_WITHOUT_RIGHT = ("leave-without-right", "§6.1, §6.4")
    STAY_AFTER_LEAVE = ("stay-after-leave", "§6.1")
    LEAVE_AT_SORTIE = ("leave-at-sortie", "§6.5")
    RELEVE_WITHOUT_LEAVE = ("releve-without-leave", "§1.7, §6.1")
    MARQUE_RESULT_MISMATCH = ("marque-result-mismatch", "§8.2")
    PLAY_AFTER_END = ("play-after-end", "§8.1, §8.2")
    RESULT_MISMATCH = ("result-mismatch", "§8.1, §8.2")


#: kind id -> RULES.md section, for the code and the docs.
FINDING_KINDS: dict[str, str] = {k.value: k.rule for k in FindingKind}
_KINDS: dict[str, FindingKind] = {k.value: k for k in FindingKind}

#: the variants (``detail``) of a finding that is a mistake of the record, not of the
#: player: a typo the verifier recovered from, with its proposal (issue 14, 25 §2)
RECORD_MISTAKE_DETAILS = frozenset({"did-you-mean", "missing-coup"})


def finding_rule(kind: str) -> str:
    """The RULES.md section for ``kind`` (ValueError on an unknown kind)."""
    try:
        return _KINDS[kind].rule
    except KeyError:
        raise ValueError(f"unknown finding kind {kind!r}") from None


@dataclass(slots=True)
class Where:
    """The place of a finding: game, marqué, relevé and coup numbers, the element's index
    in the record and its span in the text."""

    game: int
    marque: int
    releve: int
    coup: int
    index: int
    span: Span


@dataclass(frozen=True, slots=True)
class Finding:
    """One departure from the rules, at one coup.

    ``game`` is the 0-based index of the game in its file, ``marque`` / ``releve`` the
    section numbers as counted by the record (0 = none written), ``coup`` the coup
    number as written (0 = not at a coup, e.g. a section or result), ``index`` the
    0-based index of the coup in the game (position in ``GameReport.trace``; -1 = none).
    ``who`` is the player letter who made the mistake.  ``entitled`` / ``marked`` are
    points (None = not a marking matter); ``claimed`` the points the claimant took.
    ``detail`` is the variant of the mistake (e.g. the ``violation`` of
    ``moves.judge_play``, or ``did-you-mean``), ``alternatives`` legal plays as move
    texts (the first is the proposal of a mistake of the record).  ``outcome`` is what
    followed at the table when it is not the kind's usual consequence (``claimed``,
    ``unclaimed``, ``kept``, ``given-back``, ``correct`` under bonne compagnie,
    ``remedied``, ``stopped``), ``remedy`` the play as the table had it played again
    and by whom (``("B", "6/8 1/2")``); ``facts`` what a written result gets wrong, as
    ``(aspect, what the record gives, what is written)``; ``claim_open`` a mistake whose
    claim window the record's end cut while it was still open at the table (the
    opponent may still claim it: the recorder shows it so).  The words are :func:`say`'s.
    """

    kind: str
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
    detail: str | None = None
    alternatives: tuple[str, ...] = field(default=())
    file: str | None = None
    claimed: int | None = None
    outcome: str | None = None
    remedy: tuple[str, str] | None = None
    facts: tuple[tuple[str, str, str], ...] = ()
    claim_open: bool = False

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise ValueError(f"unknown finding kind {self.kind!r}")

    @property
    def rule(self) -> str:
        """The RULES.md section the kind applies (for the code; users read :func:`citation`)."""
        return _KINDS[self.kind].rule

    @property
    def record_mistake(self) -> bool:
        """A mistake of the record (a typo recovered), not of the player."""
        return self.detail in RECORD_MISTAKE_DETAILS

    @property
    def proposal(self) -> str | None:
        """What the record probably meant, for a mistake of the record."""
        return self.alternatives[0] if self.record_mistake and self.alternatives else None

    @property
    def message(self) -> str:
        """The message in English (:func:`say` for another language or the players' names)."""
        return say(self, "en").message

    @property
    def consequence(self) -> str:
        return say(self, "en").consequence

    def render(self, file: str | None = None, lang: str | Words = "en", names: dict[str, str] | None = None) -> str:
        """``file:line:col: kind: message — consequence [citation]`` (one line, like a compiler)."""
        name = file or self.file or "<input>"
        s = say(self, lang, names)
        text = f"{name}:{self.line}:{self.col}: {self.kind}: {s.message}"
        if s.consequence:
            text += f" — {s.consequence}"
        return text + f" [{s.citation}]"

    def as_dict(self, lang: str | Words = "en", names: dict[str, str] | None = None) -> dict[str, Any]:
        """The finding as JSON (docs/findings.md): its fields and its words in ``lang``."""
        s = say(self, lang, names)
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
            "claimed": self.claimed,
            "detail": self.detail,
            "outcome": self.outcome,
            "remedy": list(self.remedy) if self.remedy else None,
            "facts": [{"aspect": a, "expected": e, "written": w} for a, e, w in self.facts],
            "alternatives": list(self.alternatives),
            "record_mistake": self.record_mistake,
            "claim_open": self.claim_open,
            "proposal": self.proposal,
            "name": s.name,
            "message": s.message,
            "consequence": s.consequence,
            "rule": s.citation,
            "rule_anchor": s.anchor,
        }


# --- words ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Said:
    """A finding in words: the kind's name, the message, the consequence at the table,
    the rule it applies as the rules reference names and cites it (« École par trop :
    Lelasseux-Lafosse 1852, art. 164-167, 172 ») and that rule's anchor in the reference
    (``regles.html#<anchor>``)."""

    name: str
    message: str
    consequence: str
    citation: str
    anchor: str


_FORMATTER = Formatter()


def kind_name(kind: str, lang: str | Words = "en") -> str:
    """The kind's name in ``lang`` ("école par trop", "illegal play"…)."""
    return words(lang)(f"finding.{kind}.name")


def _player(letter: str | None, names: dict[str, str] | None) -> str | None:
    if not letter:
        return None
    return (names or {}).get(letter) or letter


def _e_only(f: Finding, W: Words, names: dict[str, str] | None) -> str | None:
    e = f.entitled
    return None if e is None else (W("f_nothing") if e == 0 else W("f_only", n=e))


def _m_only(f: Finding, W: Words, names: dict[str, str] | None) -> str | None:
    m = f.marked
    return None if m is None else (W("f_nothing") if m == 0 else W("f_only", n=m))


def _m_holes(f: Finding, W: Words, names: dict[str, str] | None) -> str | None:
    m = f.marked
    return None if m is None else (W("f_no_hole") if m == 0 else W.n("f_holes", m))


def _facts(f: Finding, W: Words, names: dict[str, str] | None) -> str | None:
    return W("sep").join(W(f"fact.{a}", expected=e, written=w) for a, e, w in f.facts) or None


_Field = Callable[[Finding, Words, dict[str, str] | None], Any]

#: the values a template may name, all from the finding's fields; each computed only
#: when a template names it (a finding-dense game says thousands of findings)
_FIELDS: dict[str, _Field] = {
    "who": lambda f, W, names: _player(f.who, names) or W("f_a_player"),
    "e": lambda f, W, names: f.entitled,
    "m": lambda f, W, names: f.marked,
    "c": lambda f, W, names: f.claimed,
    "over": lambda f, W, names: None if f.entitled is None or f.marked is None else f.marked - f.entitled,
    "under": lambda f, W, names: None if f.entitled is None or f.marked is None else f.entitled - f.marked,
    "e_only": _e_only,
    "m_only": _m_only,
    "m_holes": _m_holes,
    "why": lambda f, W, names: W.get(f"why.{f.detail or ''}", "") or None,
    "alt": lambda f, W, names: f.alternatives[0] if f.alternatives else None,
    "alt_who": lambda f, W, names: _player(f.alternatives[0], names) if f.alternatives else None,
    "releve": lambda f, W, names: f.releve or None,
    "marque": lambda f, W, names: f.marque or None,
    "remedy_who": lambda f, W, names: _player(f.remedy[0], names) if f.remedy else None,
    "remedy_play": lambda f, W, names: f.remedy[1] if f.remedy else None,
    "facts": _facts,
}

#: (language, stem, detail, entitled to nothing, outcome) -> the templates to try in
#: order, each with the fields it names: the catalogue is read once per variant
_CHAINS: dict[tuple[str, str, str | None, bool, str | None], tuple[tuple[str, tuple[str, ...]], ...]] = {}
#: (language, kind, detail, record mistake) -> the name, the citation and its anchor
_HEADS: dict[tuple[str, str, str | None, bool], tuple[str, str, str]] = {}


def _chain(
    W: Words, stem: str, detail: str | None, zero: bool, outcome: str | None
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The templates of ``stem`` in the order :func:`_render` tries them: by outcome
    (consequences only), variant (``detail``), then ``zero`` (entitled to nothing), the
    kind's default, and its ``-`` form, which names no number; each may have fallbacks
    ``~2``, ``~3``."""
    memo = (W.lang, stem, detail, zero, outcome)
    chain = _CHAINS.get(memo)
    if chain is None:
        keys: list[str] = [f"{stem}.{outcome}"] if outcome else []
        if detail:
            keys.append(f"{stem}.{detail}")
        if zero:
            keys.append(f"{stem}.zero")
        keys += [stem, f"{stem}.-"]
        found: list[tuple[str, tuple[str, ...]]] = []
        for key in keys:
            for i in range(1, 4):
                k = key if i == 1 else f"{key}~{i}"
                if not W.has(k):
                    break
                template = W(k)
                needed = tuple(dict.fromkeys(fld for _lit, fld, _spec, _conv in _FORMATTER.parse(template) if fld))
                found.append((template, needed))
        chain = _CHAINS[memo] = tuple(found)
    return chain


def _render(
    W: Words,
    stem: str,
    f: Finding,
    values: dict[str, Any],
    names: dict[str, str] | None,
    outcome: str | None = None,
) -> str:
    """The first template of ``stem`` for ``f`` whose fields are all known (:func:`_chain`);
    ``values``: the fields computed so far for ``f`` (filled in as templates name them)."""
    for template, needed in _chain(W, stem, f.detail, f.entitled == 0, outcome):
        for fld in needed:
            if fld not in values:
                compute = _FIELDS.get(fld)
                values[fld] = None if compute is None else compute(f, W, names)
            if values[fld] is None:
                break
        else:
            return template.format(**{fld: values[fld] for fld in needed})
    return ""


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _head(W: Words, f: Finding) -> tuple[str, str, str]:
    """The finding's name, its rule's citation and anchor in ``W``'s language: the same
    for every finding of a kind and variant, said once."""
    mistake = f.record_mistake
    memo = (W.lang, f.kind, f.detail, mistake)
    head = _HEADS.get(memo)
    if head is None:
        rule = rule_for_finding(f.kind, f.detail)
        head = _HEADS[memo] = (
            # a typo of the secretary is named as one, whatever kind of fault it first looked like
            W("finding.record-mistake.name") if mistake else W(f"finding.{f.kind}.name"),
            W("rule.cited", title=rule.title(W.lang), cite=rule.cite(W.lang)),
            rule.anchor,
        )
    return head


def say(f: Finding, lang: str | Words = "en", names: dict[str, str] | None = None) -> Said:
    """The finding in words, in ``lang``; ``names``: letter -> the player's name."""
    W = words(lang)
    values: dict[str, Any] = {}
    stem = f"finding.{f.kind}"
    name, citation, anchor = _head(W, f)
    return Said(
        name=name,
        message=_sentence(_render(W, f"{stem}.message", f, values, names)),
        consequence=_render(W, f"{stem}.consequence", f, values, names, f.outcome),
        citation=citation,
        anchor=anchor,
    )


@dataclass(frozen=True, slots=True)
class Note:
    """An assumption the verifier made where the record does not say (the law of
    timing, a free-text result…): data, said by :meth:`say` from the catalogue's
    ``note.<key>`` in French or English; ``str()`` is the English."""

    key: str
    fields: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, key: str, **fields: Any) -> Note:
        return cls(key, tuple(fields.items()))

    def say(self, lang: str | Words = "en") -> str:
        return words(lang)(f"note.{self.key}", **dict(self.fields))

    def __str__(self) -> str:
        return self.say("en")


_new_finding = Finding.__new__  # object.__new__ in Python; the allocator when compiled (mypyc)
#: the setters of Finding's slots in the order ``Findings.add`` gives the values
_FINDING_FIELDS = (
    *("kind", "game", "releve", "marque", "coup", "index", "line", "col"),
    *("who", "entitled", "marked", "detail", "alternatives", "file"),
    *("claimed", "outcome", "remedy", "facts", "claim_open"),
)
if sorted(f.name for f in fields(Finding)) != sorted(_FINDING_FIELDS):  # pragma: no cover - a field added
    raise AssertionError("Findings.add must set every field of Finding")
_SET_FINDING = tuple(vars(Finding)[name].__set__ for name in _FINDING_FIELDS)


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

    def add(
        self,
        kind: str,
        where: Where,
        *,
        who: str | None = None,
        entitled: int | None = None,
        marked: int | None = None,
        claimed: int | None = None,
        detail: str | None = None,
        outcome: str | None = None,
        remedy: tuple[str, str] | None = None,
        facts: tuple[tuple[str, str, str], ...] = (),
        claim_open: bool = False,
        alternatives: tuple[str, ...] = (),
    ) -> None:
        """Record one finding (the fields of :class:`Finding`): data only, the words users
        read are the catalogue's (:func:`say`). Past ``MAX_FINDINGS`` it is only counted."""
        if len(self.items) >= MAX_FINDINGS:
            self.more[kind] = self.more.get(kind, 0) + 1
            return
        if kind not in _KINDS:  # Finding.__post_init__'s check
            raise ValueError(f"unknown finding kind {kind!r}")
        sp = where.span
        # through the slots: a frozen dataclass's __init__ sets each of its 19 fields
        # through object.__setattr__ (a finding a coup in a finding-dense record)
        f = _new_finding(Finding)
        letter = self.letter_of.get(who, who) if who else None
        values: tuple[object, ...] = (
            *(kind, where.game, where.releve, where.marque, where.coup, where.index, sp.line, sp.col),
            *(letter, entitled, marked, detail, alternatives, self.file),
            *(claimed, outcome, remedy, facts, claim_open),
        )
        for set_field, value in zip(_SET_FINDING, values):
            set_field(f, value)
        self.items.append(f)
