"""Judge of the end: of a partie en douze trous, of a marqué, of a partie à écrire or of
several players, and of the ``Result`` header (RULES.md §8; 003 §218-226, §241-244).
Entry points: :func:`partie_over_after` (after each coup), :func:`after_end`,
:func:`judge_marque_result`, :func:`check_result` (the header, at the end)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ...rules.course import (
    A_ECRIRE,
    DOUZE_TROUS,
    MarqueOutcome,
    after_leave,
    marque_bredouille,
    partie_over,
    partie_winner,
    primaute_after_marque,
    refaits_after,
    settle_marque,
)
from ...rules.partie import (
    MarqueLine,
    PartieSpec,
    marque_outcome,
    settle_partie,
    twelve_hole_multiplier,
    twelve_hole_winner,
    twelve_reached,
)
from ..findings import Note, Where
from .table import MarqueWon, TableState

if TYPE_CHECKING:  # pragma: no cover
    from ....notation.record import MarqueResult
    from ...rules.ledger import ScoreState
    from ..findings import Findings


def douze_trous_outcome(table: TableState) -> dict[str, Any] | None:
    """A finished partie en douze trous: its winner (player letter), the holes
    (winner's, loser's) and the stake multiplier of the profile (RULES.md §8.1, §10 D1;
    002 « Partie en douze trous »); coups after the end do not count."""
    if table.partie.kind != DOUZE_TROUS:
        return None
    st = table.partie.over_state or table.std.state
    winner = table.partie.over_winner or twelve_hole_winner(st)
    if winner is None:
        return None
    loser = "B" if winner == "A" else "A"
    w, lo = st[winner].holes, st[loser].holes
    try:
        mult = twelve_hole_multiplier(w, lo, st[winner].pavillon, table.profile)
    except ValueError:
        return None
    return {
        "winner": table.letter(winner),
        "holes": [w, lo],
        "multiplier": mult,
        "rule": table.profile.twelve_hole_multiplier,
        "pavillon": st[winner].pavillon,
    }


# -- the Result header ---------------------------------------------------------------
def check_result(table: TableState, text: str, found: Findings) -> None:
    """The ``Result`` header against the record (RULES.md §8.1-8.2).

    Understood forms (those ``trictrac selfplay`` writes): ``*`` (unfinished);
    douze trous ``A`` or ``A 12-7`` (winner, his holes - the loser's); a partie à
    écrire ``A 3-1`` (marqués won by A - by B; ``=`` for no winner); several players
    ``A:2 B:1 C:0``.  Anything else is free text, noted and not checked.
    """
    v = text.strip()
    where = Where(table.game, table.marque, table.releve, 0, -1, table.rec.span)
    if table.partie.marque_open and table.index > 0:
        unwritten_result(table)
        table.partie.marque_open = False
    problems: list[Fact] | None
    if table.partie.kind == DOUZE_TROUS:
        problems = _douze_trous_result(table, v)
    elif table.partie.kind == A_ECRIRE and not table.rec.start:
        problems = _a_ecrire_result(table, v)
    elif table.partie.multi is not None and not table.rec.start:
        problems = _players_result(table, v)
    else:
        return  # nothing the record can be checked against
    if problems is None:
        table.notes.append(Note.of("free-result", text=v))
    elif problems:
        found.add(
            "result-mismatch",
            where,
            facts=tuple(problems),
        )


def _won(table: TableState) -> tuple[dict[str, int], dict[str, int]]:
    """Marqués won and their values, by player letter."""
    won: dict[str, int] = {}
    values: dict[str, int] = {}
    for w, val in table.partie.winners:
        if w:
            won[w] = won.get(w, 0) + 1
            values[w] = values.get(w, 0) + val
    return won, values


#: a problem of a written result: (aspect, what the record gives, what is written), said
#: by the catalogue's ``fact.<aspect>`` (Finding.facts)
Fact = tuple[str, str, str]


def _douze_trous_result(table: TableState, v: str) -> list[Fact] | None:
    st = table.partie.over_state or table.std.state  # coups after the end do not count
    winner = table.partie.over_winner or twelve_hole_winner(st)
    wl = table.letter(winner) if winner else None
    m = re.fullmatch(r"([A-D])(?:\s+(\d+)-(\d+))?", v)
    if v == "*":
        return [("unfinished-douze", f"{wl} {st[winner].holes}", v)] if winner else []
    if not m:
        return None
    if winner is None:
        return [("nobody-twelve", f"{st.a.holes}-{st.b.holes}", m.group(1))]
    if m.group(1) != wl:
        return [("winner", str(wl), m.group(1))]
    lo = st.b.holes if winner == "A" else st.a.holes
    if m.group(2) is not None and (int(m.group(2)), int(m.group(3))) != (st[winner].holes, lo):
        return [("holes", f"{st[winner].holes}-{lo}", f"{m.group(2)}-{m.group(3)}")]
    return []


def _a_ecrire_result(table: TableState, v: str) -> list[Fact] | None:
    total = table.partie.marques_total
    results = table.partie.winners
    over = bool(total) and partie_over(results, total or 0)  # course.partie_over (RULES.md §8.2)
    m = re.fullmatch(r"([A-D]|=)\s+(\d+)-(\d+)", v)
    if v == "*":
        return [("unfinished-marques", str(total), v)] if over else []
    if not m:
        return None
    won, values = _won(table)
    problems: list[Fact] = []
    got = (int(m.group(2)), int(m.group(3)))
    real = (won.get("A", 0), won.get("B", 0))
    if got != real:
        problems.append(("marques-won", f"{real[0]}-{real[1]}", f"{got[0]}-{got[1]}"))
    if total and not over:
        decided = sum(1 for r in results if not r.refait)
        problems.append(("undecided", str(decided), str(total)))
    else:
        # the partie goes to the larger sum of marqué values (course.partie_winner, RULES.md §8.2)
        va, vb = values.get("A", 0), values.get("B", 0)
        best = partie_winner(results) or "="
        if m.group(1) != best:
            problems.append(("values-winner", f"{best} ({va}-{vb})", m.group(1)))
    return problems


def _players_result(table: TableState, v: str) -> list[Fact] | None:
    pairs = re.findall(r"([A-D]):(\d+)", v)
    if pairs and " ".join(f"{p}:{n}" for p, n in pairs) == " ".join(v.split()):
        won, _values = _won(table)
        return [("player-marques", f"{p}:{won.get(p, 0)}", f"{p}:{n}") for p, n in pairs if int(n) != won.get(p, 0)]
    return [] if v == "*" else None


# -- the end of a partie or a marqué ----------------------------------------------------
def after_end(table: TableState, where: Where, found: Findings) -> None:
    """Coups or relevés after the end (RULES.md §8.1-8.2): reported once."""
    if table.partie.over_reported or table.partie.over is None:
        return
    table.partie.over_reported = True
    marque = "marqué" in table.partie.over
    found.add(
        "play-after-end",
        where,
        detail="marque" if marque else "partie",
    )


def unwritten_result(table: TableState) -> None:
    """A marqué that ended (a leave with six holes) without a written result (compact
    records); one that never ended is not counted (RULES.md §8.2; 003 §221)."""
    if table.partie.over is None or "marqué" not in table.partie.over:
        return
    st = table.std.state
    seat = _holes_winner(st)
    table.partie.winners.append(MarqueWon(table.letter(seat) if seat else None, _value_of(table, st, seat)))
    table.partie.refaits = refaits_after(seat is None, table.partie.refaits)


def _holes_winner(st: ScoreState) -> str | None:
    """The seat with more holes, None when they are equal (a refait, 003 §226)."""
    ha, hb = st.a.holes, st.b.holes
    return None if ha == hb else ("A" if ha > hb else "B")


def _settled(table: TableState, st: ScoreState) -> MarqueOutcome | None:
    """The marqué's result as the course settles it (``course.settle_marque``; RULES.md
    §8.2, 003 §221-226), the refaits before counted; None when the holes end no marqué
    (a result written too early) or fall outside the profile's values."""
    ended = marque_outcome(st, table.profile)
    if ended is None:
        return None
    try:
        return settle_marque(table.marque, ended, table.partie.refaits, table.profile)
    except ValueError:
        return None


def _value_of(table: TableState, st: ScoreState, seat: str | None) -> int:
    """The value of a marqué ``seat`` won (0 for a refait or holes that end no marqué)."""
    if seat is None:
        return 0
    settled = _settled(table, st)
    return settled.value if settled is not None and settled.value is not None else 0


def judge_marque_result(table: TableState, el: MarqueResult, found: Findings) -> None:
    if table.partie.over is not None and "marqué" in table.partie.over:
        table.partie.over, table.partie.over_reported = None, False
    table.partie.marque_open = False
    st = table.std.state
    ha, hb = st.a.holes, st.b.holes
    settled = _settled(table, st)
    problems = _marque_result_problems(table, el, st, settled)
    seat = _holes_winner(st)
    exp_winner = table.letter(seat) if seat else None
    # primauté of the next marqué (course.primaute_after_marque: RULES.md §8.2, D21);
    # table.primaute is the leaver's, since the leave
    table.primaute = primaute_after_marque(seat, table.primaute, table.marque_first, table.profile)
    if table.partie.multi is not None:
        _multi_after(table, exp_winner, ha, hb, st)
    table.marque_first = None
    # the value counts the refaits before this marqué (003 §226), so it is taken first
    value = settled.value if seat and settled is not None and settled.value is not None else 0
    table.partie.winners.append(MarqueWon(exp_winner, value))
    table.partie.refaits = refaits_after(seat is None, table.partie.refaits)
    table.marques.append(
        {
            "number": table.marque,
            "seats": [table.letter("A"), table.letter("B")],  # who played it (parties of three, four)
            "winner": exp_winner,
            "holes": [ha, hb],
            "value": value,
            "bredouille": settled.bredouille if settled is not None else None,
            "refait": bool(settled is not None and settled.refait),
        }
    )
    if problems:
        found.add(
            "marque-result-mismatch",
            table.where(None, el.span),
            facts=tuple(problems),
        )
    table.releve_over = True


def _marque_result_problems(
    table: TableState, el: MarqueResult, st: ScoreState, settled: MarqueOutcome | None
) -> list[Fact]:
    """The written result of a marqué against its holes and the course's result
    (``settled``; RULES.md §8.2; 003 §221-226)."""
    ha, hb = st.a.holes, st.b.holes
    if ha == hb:
        return [] if el.refait else [("refait", f"{ha}-{hb}", str(el.winner or ""))]
    problems: list[Fact] = []
    seat = "A" if ha > hb else "B"
    exp_winner = table.letter(seat)
    w, lo = max(ha, hb), min(ha, hb)
    if el.refait or el.winner != exp_winner:
        problems.append(("winner", f"{exp_winner} ({w}-{lo})", "=" if el.refait else str(el.winner)))
    if (el.winner_holes, el.loser_holes) != (w, lo):
        problems.append(("holes", f"{w}-{lo}", f"{el.winner_holes}-{el.loser_holes}"))
    if settled is not None:
        bred, val = settled.bredouille, settled.value
    else:  # holes that end no marqué: no value (RULES.md §8.2)
        bred, val = marque_bredouille(w, st[seat].pavillon, table.profile), None
    if el.bredouille != bred:
        problems.append(("bredouille", str(bred), str(el.bredouille)))
    if el.value is not None and val is not None and val != el.value:
        problems.append(("value", str(val), str(el.value)))
    return problems


def _multi_after(table: TableState, winner: str | None, ha: int, hb: int, st: ScoreState) -> None:
    """The next marqué's primauté in a partie of several players, from the rotation of
    ``replay.rules.partie`` (RULES.md §8.3): 003 §241, §244 (the one who stays), 003 §242 (the
    chouette, then alternately), 003 §226 (after a refait, whoever had it)."""
    assert table.partie.multi is not None
    kind, players = table.partie.multi
    if winner is None:
        table.partie.multi_lines.append(MarqueLine(refait_holes=ha))
    else:
        seat = "A" if ha > hb else "B"
        loser = table.letter("B" if seat == "A" else "A")
        leaver = table.letter(table.primaute) if table.primaute is not None else None
        table.partie.multi_lines.append(
            MarqueLine(
                winner=winner,
                holes=(max(ha, hb), min(ha, hb)),
                pavillon=st[seat].pavillon,
                loser=loser,
                leaver=leaver,
            )
        )
    spec = PartieSpec(
        kind=kind, players=players, marques=len(table.partie.multi_lines) + 1, primaute=table.partie.multi_first
    )
    try:
        det = settle_partie(spec, table.partie.multi_lines + [MarqueLine()], table.profile).detail[-1]
    except ValueError:  # results that do not fit the rotation: no expectation
        table.partie.multi_expected = None
        return
    table.partie.multi_expected = det.get("primaute")


def partie_over_after(table: TableState, side: str, coup_number: int, left: bool) -> None:
    """Has this coup ended the partie (twelve holes) or the marqué (a leave with six
    holes)?  (RULES.md §8.1-8.2; 003 §218, §221)"""
    course = table.partie
    # the coup's first twelfth hole (TableState._first_to_twelve), read once
    first, first_state = course.twelve_first, course.twelve_state
    if course.twelve_at != table.index:
        first = first_state = None  # set by an earlier coup
    course.twelve_first = course.twelve_state = None
    if course.over is not None or course.kind is None:
        return
    if not left and table.std.most_holes() < 12:
        return
    st = table.std.state
    kind = course.kind
    if kind == DOUZE_TROUS:
        # the first to twelve holes in the coup's order of marking wins (003 §207, §218),
        # if a claim or a correction of the same coup has not taken his twelfth hole back
        winner: str | None = None
        if first is not None and first_state is not None and twelve_reached(st, first):
            winner, st = first, first_state
        else:
            winner = twelve_hole_winner(st)
        if winner is not None:
            course.over = f"the partie ended at coup {coup_number} ({st.a.holes}-{st.b.holes} holes, 003 §218)"
            course.over_state = st
            course.over_winner = winner
    elif left and after_leave(A_ECRIRE, st, side, table.profile).marque is not None:
        # every kind but douze trous is played by marqués à écrire (RULES.md §8.2-8.3)
        table.partie.over = (
            f"the marqué ended when {side} left at coup {coup_number} with {st.a.holes}-{st.b.holes} holes (003 §221)"
        )
