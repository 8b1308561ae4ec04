"""A game's result, said once (issue 25 item 3): who won, the holes of each side, whether
the partie is finished, and its kind — from the verifier's replay of the record.

Every surface reads it: ``check --json`` (``"result"``), the club database (stored at import
in ``games.kind``, ``games.finished``, ``games.winner`` and the ``results`` rows: standings,
``db`` commands, Datasette's views and canned queries read what is stored), the published
front page and standings.  Nothing else derives a result.

* **Partie en douze trous** (RULES.md §8.1): finished when one side completes twelve holes
  (the verifier's ``partie``: the first to reach twelve in the table's order wins); the
  holes are those at the end (coups written after it do not count), else the final score.
* **Partie à écrire**, à tourner, à la chouette, à quatre (RULES.md §8.2, §8.3): each
  marqué as the verifier settled it from its holes (winner, value; a refait counts for
  nobody); finished after the agreed number of decided marqués (``Partie`` header, default
  4); the winner of a two-seat partie by the net value of the marqués won (by their number
  when no value is known).  With three or four seats there is no single winner: each seat's
  marqués won, lost and their net value.
* **Not verified** (``report`` None): the record's written marqué results and its
  ``Result`` header (``A 12-7``) stand in for the replay.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ...notation.reader import parse_partie
from ...notation.record import MarqueResult, MarqueStart

SEATS = ("A", "B", "C", "D")
_RESULT = re.compile(r"([AB=])\s+(\d+)\s*-\s*(\d+)")


@dataclass(slots=True)
class SeatResult:
    """One seat's part of the result: holes (two seats; None with more), marqués won and
    lost and their net written value, and the outcome (``win``, ``loss``, ``draw``; None
    while the partie is not finished)."""

    holes: int | None = None
    marques_won: int = 0
    marques_lost: int = 0
    marque_value: int = 0
    outcome: str | None = None


@dataclass(slots=True)
class GameResult:
    """A game's result (see the module's docstring)."""

    kind: str  # douze-trous, a-ecrire, a-tourner, chouette, a-quatre
    finished: bool
    winner: str | None  # seat letter; None: not finished, drawn, or more than two seats
    seats: dict[str, SeatResult] = field(default_factory=dict)
    verified: bool = True

    @property
    def two_seats(self) -> bool:
        return set(self.seats) <= {"A", "B"}

    @property
    def douze_trous(self) -> bool:
        return self.kind == "douze-trous"

    def holes(self, seat: str) -> int | None:
        s = self.seats.get(seat)
        return None if s is None else s.holes

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape (``check --json``'s ``result``; docs/database.md)."""
        return {
            "kind": self.kind,
            "finished": self.finished,
            "winner": self.winner,
            "verified": self.verified,
            "seats": {
                s: {
                    "holes": r.holes,
                    "marques_won": r.marques_won,
                    "marques_lost": r.marques_lost,
                    "marque_value": r.marque_value,
                    "outcome": r.outcome,
                }
                for s, r in self.seats.items()
            },
        }

    def text(self, say: Any) -> str:
        """The result in words (``say``: a catalogue lookup, ``words.words(lang)``):
        ``A 12–7 trous``, ``A 3–1 marqués``, ``inachevée, 5–2 trous``, ``partie nulle``."""
        if self.douze_trous:
            ha, hb = self.holes("A"), self.holes("B")
            score = say("holes_result", a=ha or 0, b=hb or 0) if ha is not None or hb is not None else ""
        elif self.two_seats:
            sa, sb = self.seats.get("A"), self.seats.get("B")
            score = say("club.result.marques", a=sa.marques_won if sa else 0, b=sb.marques_won if sb else 0)
        else:
            score = ", ".join(
                say("club.result.seat_value", seat=s, value=f"{r.marque_value:+d}") for s, r in self.seats.items()
            )
        if not self.finished:
            return str(say("club.result.unfinished", score=score) if score else say("club.result.unfinished_bare"))
        if self.winner is not None:
            return f"{self.winner} {score}".strip()
        if self.two_seats:
            return str(say("club.result.draw", score=score))
        return score


def game_result(report: Any, record: Any = None) -> GameResult:
    """The result of one game from the verifier's ``report`` (``replay.verifier.verify.GameReport``);
    ``record`` (``notation.record.Record``) gives the seats of each marqué of a partie of
    three or four (and the written results when ``report`` is None: not verified)."""
    headers = dict(getattr(report, "headers", None) or {}) if report is not None else {}
    if record is not None:
        headers = {**record.headers, **headers}
    parsed = parse_partie(headers["Partie"]) if headers.get("Partie") else None
    kind = parsed[0] if parsed is not None else "douze-trous"
    agreed = (parsed[1] if parsed is not None else None) or 4
    seats = _seats(headers, record)
    out = GameResult(kind, False, None, {s: SeatResult() for s in seats}, report is not None)
    two = set(seats) <= {"A", "B"}
    if kind == "douze-trous":
        _douze_trous(out, report, headers)
    else:
        _a_ecrire(out, report, record, agreed, two)
    return out


def _seats(headers: dict[str, str], record: Any) -> list[str]:
    seats = {"A", "B"} | {s for s in SEATS if headers.get(s)}
    if record is not None:
        for el in record.elements:
            if type(el) is MarqueStart and el.players:
                seats.update(s for s in el.players if s in SEATS)
    return sorted(seats)


def _douze_trous(out: GameResult, report: Any, headers: dict[str, str]) -> None:
    if report is None:  # not verified: the Result header ("A 12-7": winner, his holes, the other's)
        m = _RESULT.fullmatch(headers.get("Result", "").strip())
        if m and m.group(1) in ("A", "B"):
            w, lo = m.group(1), "B" if m.group(1) == "A" else "A"
            out.seats[w].holes, out.seats[lo].holes = int(m.group(2)), int(m.group(3))
            out.finished, out.winner = True, w
            out.seats[w].outcome, out.seats[lo].outcome = "win", "loss"
        return
    fs = report.final_score
    if fs is not None:
        out.seats["A"].holes, out.seats["B"].holes = fs.a.holes, fs.b.holes
    p = report.partie
    if p is not None and p.get("winner") in ("A", "B"):
        w = p["winner"]
        lo = "B" if w == "A" else "A"
        out.seats[w].holes, out.seats[lo].holes = p["holes"][0], p["holes"][1]
        out.finished, out.winner = True, w
        out.seats[w].outcome, out.seats[lo].outcome = "win", "loss"


def _a_ecrire(out: GameResult, report: Any, record: Any, agreed: int, two: bool) -> None:
    # each marqué: (winner seat, loser seat, value, refait)
    pairs: list[tuple[str, str]] = []
    written: list[Any] = []
    if record is not None:
        pair = ("A", "B")
        for el in record.elements:
            if type(el) is MarqueStart:
                pair = tuple(el.players) if el.players else ("A", "B")  # type: ignore[assignment]
            elif type(el) is MarqueResult:
                pairs.append(pair)
                written.append(el)
    if report is not None:
        settled = [(m.get("winner"), m.get("value"), bool(m.get("refait"))) for m in report.marques]
        pairs = [tuple(m["seats"]) if m.get("seats") else ("A", "B") for m in report.marques]  # type: ignore[misc]
        fs = report.final_score
        if two and fs is not None:
            out.seats["A"].holes, out.seats["B"].holes = fs.a.holes, fs.b.holes
    else:
        settled = [(m.winner, m.value, bool(m.refait)) for m in written]
    any_value = False
    decided = 0
    for i, (winner, value, refait) in enumerate(settled):
        x, y = pairs[i] if i < len(pairs) else ("A", "B")
        if refait or winner not in (x, y):
            continue
        decided += 1
        loser = y if winner == x else x
        for s in (winner, loser):
            out.seats.setdefault(s, SeatResult())
        out.seats[winner].marques_won += 1
        out.seats[loser].marques_lost += 1
        if value is not None:
            any_value = any_value or bool(value)
            out.seats[winner].marque_value += value
            out.seats[loser].marque_value -= value
    out.finished = decided >= agreed
    if not out.finished:
        return
    for r in out.seats.values():
        net = r.marque_value if any_value else r.marques_won - r.marques_lost
        r.outcome = "win" if net > 0 else "loss" if net < 0 else "draw"
    if two:
        a, b = out.seats["A"], out.seats["B"]
        out.winner = "A" if a.outcome == "win" else "B" if b.outcome == "win" else None
