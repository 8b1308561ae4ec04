"""Judge of écoles claimed and of the law of timing (RULES.md §7.2-7.4).

A wrong mark becomes claimable when it is consummated and the adversary may claim it
until he throws his own dice (003 §167, §171, §186-189; 001 r.34, r.41-43).  Every
mistake waits as a :class:`~.table.Pending` until then: claimed, erased, or unclaimed,
and each ends in exactly one finding (:func:`close_mistake`).  Entry points:
:func:`close_windows_of` (at each throw), :func:`match_claim` (a claim written),
:func:`close_mistake`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..findings import Where
from .table import Pending, TableState

if TYPE_CHECKING:  # pragma: no cover
    from ....notation.record import Ecole
    from ..findings import Findings


def close_windows_of(table: TableState, roller: str, found: Findings) -> None:
    """The throw closes the roller's claim windows (003 §167, §186; 001 r.34)."""
    for p in table.pending:
        p.this_coup = False  # from now on a mistake of an earlier coup (003 §200)
        # an école impossible stays open until its offender throws again (001 r.62)
        if p.status == "open" and (p.offender == roller if p.kind == "impossible" else p.claimant == roller):
            p.closed_at = table.index
            close_mistake(table, p, found)
    table.pending = [p for p in table.pending if p.status == "open"]


def match_claim(
    table: TableState, c: Ecole, n: int, sides: tuple[str, str], where: Where, found: Findings
) -> Pending | None:
    """Which pending école a claim of ``n`` points takes (RULES.md §7.3-7.4); ``sides`` =
    (claimant, offender), seats."""
    claimant = sides[0]
    cw = Where(where.game, where.marque, where.releve, where.coup, where.index, c.span if c.span.line else where.span)
    reason = (c.reason or "").lower()
    if "deux" in reason and "jeton" in reason:
        _deux_jetons(table, n, sides, cw, found)
        return None
    open_ = [p for p in table.pending if p.status == "open" and p.claimant == claimant]
    real = [p for p in open_ if p.kind != "impossible"]
    exact = [p for p in real if p.amount == n or _nmp_whole(p, n) or n in p.parts]
    if exact:
        return _claim(table, exact[0], n, found)
    if len(real) > 1 and sum(p.amount for p in real) == n:
        for p in real:
            _claim(table, p, p.amount, found)
        return real[-1]
    bigger = [p for p in open_ if p.amount > n and p.kind != "impossible"]
    if bigger:
        p = bigger[0]
        found.add(
            "ecole-partial",
            cw,
            who=claimant,
            entitled=p.amount,
            marked=n,
        )
        return _claim(table, p, n, found)
    if real:
        p = max(real, key=lambda q: q.amount)
        _claim(table, p, p.amount, found)
        extra = n - p.amount
        fausse = _false_claim(table, sides, extra, cw)
        fausse.entitled, fausse.marked = p.amount, n
        return p
    _claim_of_nothing(table, n, sides, cw, [p for p in open_ if p.kind == "impossible"], found)
    return None


def _nmp_whole(p: Pending, n: int) -> bool:
    """A claim after a wrong "je ne marque pas" takes the whole école when it is at least
    the least école the announcement implies and at most his whole gain (RULES.md §5.3;
    003 §176, §187; ``gains._nmp_ecole``)."""
    return p.kind == "nmp" and p.amount <= n <= (p.entitled or p.amount)


def _deux_jetons(table: TableState, n: int, sides: tuple[str, str], cw: Where, found: Findings) -> None:
    """An école des deux jetons: a profile value (RULES.md §10; 001 r.65; 003 §195)."""
    ok = table.profile.ecole_deux_jetons == "ecole"
    offender = sides[1]
    found.add(
        "ecole-deux-jetons",
        cw,
        who=offender,
        entitled=n if ok else 0,
        marked=n,
    )
    if ok:
        table.erase(offender, n)
    else:
        _false_claim(table, sides, n, cw)


def _claim_of_nothing(
    table: TableState, n: int, sides: tuple[str, str], cw: Where, impossible: list[Pending], found: Findings
) -> None:
    """A claim no open mistake answers: an école impossible, too late, or false."""
    claimant = sides[0]
    # too late: a window closed by the claimant's own last throw (this coup's, or the
    # previous one when he is not the roller)
    late = [
        q
        for q in table.closed
        if q.claimant == claimant and q.amount == n and q.status == "closed" and q.closed_at >= table.index - 1
    ]
    if impossible:
        impossible[0].status = "claimed"
        fausse = _false_claim(table, sides, n, cw)
        fausse.detail = "ecole-impossible"
    elif late:
        _false_claim(table, sides, n, cw).kind = "too-late"
    else:
        parts = _two_ecoles(table, claimant, n)
        _false_claim(table, sides, n, cw).parts = parts


def _false_claim(table: TableState, sides: tuple[str, str], amount: int, cw: Where) -> Pending:
    """Open the mistake of a claim that answers nothing (or too much): ``sides`` =
    (claimant, offender), the claimant made it, the offender may school it for
    ``amount``, which a claim also erases (RULES.md §7.4).  A fausse école by default:
    the caller sets its kind, counts or parts after."""
    p = Pending("fausse", sides[0], sides[1], amount, cw, 0, amount, amount, this_coup=True)
    table.pending.append(p)
    return p


def _two_ecoles(table: TableState, claimant: str, n: int) -> tuple[int, ...]:
    """A false claim by a player whose over-mark was just schooled: his points over-
    marked again and a pretended fausse école — two écoles, each claimable alone
    (003 §187: « deux écoles de deux points chacune ; on a le droit de marquer la
    première et de ne pas marquer la deuxième »; §194)."""
    for p in table.closed:
        if (
            p.kind == "par-trop"
            and p.status == "claimed"
            and p.offender == claimant
            and p.where.index >= table.index - 1
            and p.amount < n
        ):
            return (p.amount, n - p.amount)
    return ()


def _claim(table: TableState, p: Pending, n: int, found: Findings) -> Pending:
    p.status = "claimed"
    p.claimed = n
    close_mistake(table, p, found, claimed=True)
    return p


def close_mistake(
    table: TableState, p: Pending, found: Findings, *, claimed: bool = False, erased: bool = False, end: bool = False
) -> None:
    """Turn a pending mistake into its one finding (RULES.md §7.2-7.4)."""
    if p.status == "open":
        p.status = "closed"
    table.closed.append(p)
    if p.kind == "impossible":
        return
    tail = " (the record ends before his claim window closed)" if end else ""
    if p.kind in ("par-trop", "par-moins", "nmp"):
        _close_mark(table, p, claimed, erased, tail, found)
        return
    cl = table.letter(p.claimant)
    kind = {
        "plein": "ecole-plein-not-made",
        "must-fill": "must-fill",
        "must-conserve": "must-conserve",
        "fausse": "ecole-claimed-wrongly",
        "too-late": "ecole-too-late",
    }[p.kind]
    if claimed:
        cons = f"claimed by {cl}: {cl} marks {p.claimed}"
    elif erased:
        cons = f"{cl} erased the {p.amount} points without école (003 §187; 001 r.56)"
    else:
        cons = f"{cl} could have marked {p.amount} and did not: it stands{tail}"
    if p.kind == "plein":
        rule = "001 r.59 double école" if p.detail == "double" else "003 §192"
        cons = f"école of {p.amount} ({rule}); " + cons
    elif p.kind in ("must-fill", "must-conserve"):
        cons = f"école of {p.amount} (003 §192); " + cons
    outcome = "claimed" if claimed else "unclaimed"
    _report_closed(
        found, kind, p, cons, p.detail, p.alternatives, outcome=outcome, claimed=p.claimed if claimed else None, end=end
    )


def _close_mark(table: TableState, p: Pending, claimed: bool, erased: bool, tail: str, found: Findings) -> None:
    """A wrong mark (par trop, par moins, a wrong "je ne marque pas") closed."""
    off, cl = table.letter(p.offender), table.letter(p.claimant)
    outcome: str | None = None
    if claimed:
        kind = "ecole-par-trop" if p.kind == "par-trop" else "ecole-par-moins"
        cons = f"claimed by {cl}: {cl} marks {p.claimed} for himself"
        outcome = "claimed"
        if p.kind == "par-trop":
            cons += f" and {off}'s excess is erased"
        elif p.detail == "marked-after-touching" and p.erase:
            cons += f" and the {p.erase} points {off} marked after touching a checker are erased"
    elif erased:
        kind = "ecole-par-trop"
        cons = "the excess was erased without école (003 §187; 001 r.56)"
        outcome = "erased"
    else:
        kind = "unclaimed-ecole"
        cons, outcome = _unclaimed(table, p, off, cl, tail)
    _report_closed(
        found,
        kind,
        p,
        cons,
        p.detail or p.kind,
        outcome=outcome,
        claimed=p.claimed if claimed else None,
        end=bool(tail),
    )


def _report_closed(
    found: Findings,
    kind: str,
    p: Pending,
    consequence: str,
    detail: str | None,
    alternatives: tuple[str, ...] = (),
    *,
    outcome: str | None = None,
    claimed: int | None = None,
    end: bool = False,
) -> None:
    """The finding of a mistake whose claim window has closed, at its place (``end``:
    closed by the record's end, the window still open at the table)."""
    found.add(
        kind,
        p.where,
        who=p.offender,
        entitled=p.entitled,
        marked=p.marked,
        claimed=claimed,
        detail=detail,
        outcome=outcome,
        alternatives=alternatives,
        claim_open=end,
    )


def _unclaimed(table: TableState, p: Pending, off: str, cl: str, tail: str) -> tuple[str, str]:
    """What an unclaimed wrong mark leaves at the table (RULES.md §7.3), and its outcome."""
    if p.kind == "par-trop" and p.detail == "after-leave":
        return (
            f"not claimed by {cl}; the leave takes every jeton back, so the {p.amount} points "
            f"do not stand (003 §155, §157){tail}"
        ), "after-leave"
    if p.detail == "marked-after-touching" and p.erase:
        return _late_mark_stands(table, p, off, cl, tail)
    if p.kind != "par-trop":
        lost = p.entitled if p.kind == "nmp" and p.entitled else p.amount  # all his unmarked gains
        return (
            f"not claimed by {cl} before he threw: the {lost} points are lost; "
            f"no école of an école (003 §182; 001 r.43){tail}"
        ), "lost"
    if table.profile.keep_unschooled_wrong_points:
        cons = f"not claimed by {cl} before he threw: {off} keeps the {p.amount} points (001 r.47; 003 §167){tail}"
        if table.std.points(p.offender) < p.amount:
            cons += "; a hole or a leave has since taken them off"
        return cons, "kept"
    # D26: wrongly marked points are never kept (001 III on r.47); only points still
    # on his jeton: a hole or a leave may have taken them
    back = min(p.erase or p.amount, table.std.points(p.offender))
    if back:
        table.erase(p.offender, back)
        table.in_sync = table.std.state == table.ent.state
    return (
        f"not claimed by {cl} before he threw: no école, but {off} gives the "
        f"{p.amount} points back (001 III on r.47){tail}"
    ), "given-back"


def _late_mark_stands(table: TableState, p: Pending, off: str, cl: str, tail: str) -> tuple[str, str]:
    """An omission he made up for after touching a checker, not schooled in time: the
    late mark is a wrong mark, kept or given back as the profile says (RULES.md §7.3,
    D26; 001 r.47, 001 III on r.47)."""
    if table.profile.keep_unschooled_wrong_points:
        return (
            f"not claimed by {cl} before he threw: {off} keeps the {p.erase} points he marked "
            f"after touching a checker (001 r.47; 003 §167){tail}"
        ), "late-kept"
    back = min(p.erase, table.std.points(p.offender))
    if back:
        table.erase(p.offender, back)
        table.in_sync = table.std.state == table.ent.state
    return (
        f"not claimed by {cl} before he threw: no école, but {off} gives back the {p.erase} "
        f"points he marked after touching a checker (001 III on r.47){tail}"
    ), "late-given-back"


def ecole_before(table: TableState, seat: str) -> bool:
    """Did ``seat`` claim an école on this or the previous coup (001 r.64; 003 §200)?"""
    return any(
        p.claimant == seat and p.status == "claimed" and table.index - 1 <= p.where.index <= table.index
        for p in table.closed
    )
