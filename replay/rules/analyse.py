"""The analyser: legal plays and scoring events of every roll in a position.

:func:`analyse` returns a plain dict (the JSON of issue 2; ``trictrac analyse --json``
prints it unchanged)::

    {"rolls": [{"roll": "6-5",
                "plays": [[[1, 7], [1, 6]], ...],       # [from, to] in the mover's frame
                "moves": ["1/7 1/6", ...],              # canonical move texts
                "events": [{"side": "mover", "kind": "battre-a-vrai", "ways": 2,
                            "points": 8, "target": 19}, ...],
                "points": {"mover": 8, "other": 0}}, ...],
     "chances": {"battre-a-vrai": 20, ...}}             # out of 36

A play is one distinct resulting position; a tout d'une is two chained moves; ``to``
= 25 bears off.  ``chances`` counts the 36 ordered outcomes of two dice (a simple roll
twice, a doublet once) in which an event of that kind occurs (RULES.md §1.2; 003
§256-263); always over all 21 rolls, also when one roll is asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...words import Words, words
from .moves import ROLLS, legal_plays
from .position import Position
from .profiles import DEFAULT_PROFILE, Profile
from .scoring import KINDS, CoupScore, _norm, _score

__all__ = ["analyse", "render_text", "roll_text", "parse_roll", "chances"]

_KIND_ORDER = {k: i for i, k in enumerate(KINDS)}


def roll_text(roll: Sequence[int]) -> str:
    """``(6, 5)`` → ``"6-5"`` (larger number first, 003 §17)."""
    a, b = _norm(roll)
    return f"{a}-{b}"


def parse_roll(text: str) -> tuple[int, int]:
    """``"5-4"``, ``"4-5"``, ``"54"``, ``"5,4"`` → ``(5, 4)``.

    :raises ValueError: not two numbers 1..6.
    """
    digits = [ch for ch in text if not ch.isspace() and ch not in "-,/x"]
    if len(digits) != 2 or not all(ch in "123456" for ch in digits):
        raise ValueError(f"bad roll {text!r}: write two numbers 1..6, e.g. 5-4")
    return _norm((int(digits[0]), int(digits[1])))


def _roll_score(pos: Position, roll: tuple[int, int], profile: Profile) -> tuple[Any, CoupScore]:
    ps = legal_plays(pos, roll, profile)
    return ps, _score(pos, roll[0], roll[1], profile, ps, None)


def chances(scores: dict[tuple[int, int], CoupScore]) -> dict[str, int]:
    """Outcomes out of 36 in which each kind occurs (simple rolls weigh 2, doublets 1)."""
    out: dict[str, int] = {}
    for (a, b), sc in scores.items():
        w = 1 if a == b else 2
        for kind in {e.kind for e in sc.events}:
            out[kind] = out.get(kind, 0) + w
    return dict(sorted(out.items(), key=lambda kv: _KIND_ORDER.get(kv[0], 99)))


def analyse(pos: Position, profile: Profile = DEFAULT_PROFILE, roll: Sequence[int] | None = None) -> dict[str, Any]:
    """Legal plays and scoring events of ``roll`` (or of each of the 21 rolls), the
    totals of each side, and the chances out of 36 of each kind of event."""
    want = None if roll is None else _norm(roll)
    rolls: list[dict[str, Any]] = []
    scores: dict[tuple[int, int], CoupScore] = {}
    for r in ROLLS:
        ps, sc = _roll_score(pos, r, profile)
        scores[r] = sc
        if want is not None and r != want:
            continue
        plays = ps.plays
        rolls.append(
            {
                "roll": f"{r[0]}-{r[1]}",
                "plays": [[[p, q] for p, q in pl.steps] for pl in plays],
                "moves": [pl.text() for pl in plays],
                "events": [e.as_dict() for e in sc.events],
                "points": {"mover": sc.mover, "other": sc.other},
            }
        )
    return {"rolls": rolls, "chances": chances(scores)}


def _event_text(e: dict[str, Any], W: Words) -> str:
    """An event: who, its points, its kind's id (as the JSON), how, its target, its ways."""
    said = [e["kind"]]
    if "how" in e:
        said.append(f"({e['how']})")
    if "target" in e:
        said.append(W("an.t.on", target=e["target"]))
    if e["ways"] > 1:
        said[-1] += ","
        said.append(W.n("an.t.ways", e["ways"]))
    side = W("an.t.roller" if e["side"] == "mover" else "an.t.opponent")
    return W("an.t.event", side=side, points=e["points"], said=" ".join(said))


def render_text(result: dict[str, Any], *, max_moves: int = 12, lang: str | Words = "en") -> str:
    """A human rendering of :func:`analyse`'s dict, in ``lang``'s words: one block per
    roll, then the chances of each kind (and, over all 21 rolls, of hitting each target)."""
    W = words(lang)
    lines: list[str] = []
    for r in result["rolls"]:
        pts = r["points"]
        lines.append(W("an.t.roll", roll=r["roll"], mover=pts["mover"], other=pts["other"]))
        moves = r["moves"]
        shown = ", ".join(moves[:max_moves])
        more = W("an.t.more", n=len(moves) - max_moves) if len(moves) > max_moves else ""
        lines.append("  " + W("an.t.plays", n=len(moves), shown=shown, more=more))
        for e in r["events"]:
            lines.append(f"  {_event_text(e, W)}")
    ch = result["chances"]
    per_target: dict[tuple[str, int], int] = {}
    if len(result["rolls"]) == len(ROLLS):
        for r in result["rolls"]:
            w = 1 if r["roll"][0] == r["roll"][2] else 2
            for kind, t in {(e["kind"], e["target"]) for e in r["events"] if "target" in e}:
                per_target[(kind, t)] = per_target.get((kind, t), 0) + w
    if ch:
        lines.append(W("an.t.chances"))
        for kind, n in ch.items():
            lines.append("  " + W("an.t.count", what=kind, n=n))
            for (k, t), n_t in sorted(per_target.items()):
                if k == kind and kind != "battre-le-coin":
                    lines.append("    " + W("an.t.count", what=W("an.t.on", target=t), n=n_t))
    else:
        lines.append(W("an.t.no_event"))
    return "\n".join(lines)
