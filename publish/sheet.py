"""The feuille de marque of a partie: what a club pins on the board after the game.

The holes each player took in each relevé and the totals (RULES.md §5.3, §6: a
relevé ends when a player goes, *s'en va*); for a partie en douze trous the winner
(``replay.rules.partie.twelve_hole_winner``); for a partie à écrire the marqués, their
values and the settlement in jetons and fiches, *papier et crayon* (RULES.md §8.2;
003 §220-233), computed by ``replay.rules.partie.settle_partie`` (never here).

A ``<section class="feuille">``: the page's print style prints only these
sections, one a sheet of paper.
"""

from __future__ import annotations

from typing import Any

from ..notation.record import MarqueResult, MarqueStart, Record
from .i18n import Labels
from .markup import esc

__all__ = ["feuille", "feuille_head", "feuille_body", "releve_holes"]


def releve_holes(trace: list[Any]) -> list[dict[str, Any]]:
    """One line per relevé of the trace: its marqué and number, the holes each side
    took in it and stood at when it ended (as marked at the table), who went."""
    out: list[dict[str, Any]] = []
    key = None
    for t in trace:
        k = (t.marque or 0, t.releve or 0)
        sc = t.score_standing
        holes = (sc.a.holes, sc.b.holes) if sc is not None else (0, 0)
        if k != key:
            prev = out[-1] if out and out[-1]["marque"] == k[0] else None
            out.append(
                {
                    "marque": k[0],
                    "releve": k[1],
                    "start": prev["end"] if prev else (0, 0),
                    "end": holes,
                    "left": None,
                    "ended": False,
                }
            )
            key = k
        line = out[-1]
        line["end"] = holes
        if getattr(t, "left", False):
            line["left"] = t.side
        if getattr(t, "releve_ended", False):
            line["ended"] = True
    for line in out:
        line["gain"] = tuple(max(0, e - s) for e, s in zip(line["end"], line["start"]))
    return out


def _h(text: str, L: Labels) -> str:
    return f'<th scope="col">{esc(text)}</th>'


def feuille(record: Record, report: Any, profile: Any, trace: list[Any], L: Labels, *, title: str | None = None) -> str:
    """The sheet of one partie (see the module docstring); ``title`` heads it when
    sheets of several parties share a page."""
    return feuille_head(L, title) + feuille_body(record, report, profile, trace, L)


def feuille_head(L: Labels, title: str | None = None) -> str:
    """The opening of a sheet: its heading (the page's own sheet, or one of the
    sheets sharing a page, then headed by ``title``)."""
    if title is None:
        return f'<section class="feuille" aria-labelledby="feuille-h"><h2 id="feuille-h">{esc(L("sheet"))}</h2>'
    return f'<section class="feuille"><h2>{esc(L("sheet"))} — {esc(title)}</h2>'


def feuille_body(record: Record, report: Any, profile: Any, trace: list[Any], L: Labels) -> str:
    """The sheet after its heading (:func:`feuille_head`): the same on the game's
    page and on the page of all sheets, so a site builds it once."""
    from .messages import is_a_ecrire, partie_kind, seat_names

    names = seat_names(record)
    h = record.headers
    ecrire = is_a_ecrire(record)
    out: list[str] = []
    meta = [L("partie_of_kind", kind=partie_kind(record, L))]
    for tag in ("Event", "Site", "Date", "Round"):
        if h.get(tag):
            meta.append(h[tag])
    out.append(f"<p>{esc(' · '.join(meta))}</p>")
    out.append(f"<p><b>A</b> {esc(names['A'])} — <b>B</b> {esc(names['B'])}</p>")
    lines = releve_holes(trace)
    if not lines:
        out.append(f"<p>{esc(L('sheet_none'))}</p>")
    else:
        out.append(f'<table class="sheet releves"><caption>{esc(L("sheet_releves"))}</caption><thead><tr>')
        out.append(_h(L("sheet_col_releve"), L))
        for s in "AB":
            out.append(_h(L("sheet_col_gain", side=s), L) + _h(L("sheet_col_total", side=s), L))
        out.append(_h(L("sheet_col_leaves"), L) + "</tr></thead><tbody>")
        final = getattr(report, "final_score", None)
        winner = None
        if not ecrire and final is not None:
            from ..replay.rules.partie import twelve_hole_winner

            winner = twelve_hole_winner(final)
        for k, line in enumerate(lines):
            where = (L("marque_n", n=line["marque"]) + ", " if line["marque"] else "") + L("releve", n=line["releve"])
            end = (
                L("sheet_leaves", who=line["left"])
                if line["left"]
                else L("sheet_ends")
                if line["ended"]
                else L("sheet_over")
                if winner and k == len(lines) - 1
                else L("sheet_going")
            )
            cells = "".join(f"<td>{line['gain'][i]}</td><td>{line['end'][i]}</td>" for i in range(2))
            out.append(f'<tr><th scope="row">{esc(where)}</th>{cells}<td>{esc(end)}</td></tr>')
        out.append("</tbody>")
        if not ecrire:
            tot = (sum(x["gain"][0] for x in lines), sum(x["gain"][1] for x in lines))
            out.append(
                f'<tfoot><tr><th scope="row">{esc(L("sheet_total"))}</th>'
                + "".join(f"<td>{tot[i]}</td><td>{lines[-1]['end'][i]}</td>" for i in range(2))
                + "<td></td></tr></tfoot>"
            )
        out.append("</table>")
        if winner:
            out.append(f"<p><b>{esc(L('sheet_winner12', who=f'{winner} {names.get(winner, winner)}'))}</b></p>")
            partie = getattr(report, "partie", None)
            if partie is not None:  # the stake multiplier of 002 (RULES.md §8.1, §10 D1)
                out.append(f"<p>{esc(L('sheet_stake12', mult=partie['multiplier']))}</p>")
    if ecrire:
        out.append(_marques(record, profile, names, L))
    out.append(f'<p class="signed"><span>A {esc(names["A"])}</span><span>B {esc(names["B"])}</span></p>')
    out.append("</section>")
    return "".join(out)


def _agreed_marques(record: Record, decided: int) -> int:
    """The number of marqués agreed (``Partie`` tag ``a-ecrire 4``), else the
    decided ones rounded up to an even number (003 §220: always even)."""
    from .messages import _partie

    p = _partie(record)
    if p is not None and p[1]:
        return p[1]
    return max(2, decided + decided % 2)


def _marques(record: Record, profile: Any, names: dict[str, str], L: Labels) -> str:
    """The marqués and the *papier et crayon* (RULES.md §8.2; 003 §220-233): under
    each player's name the values of the marqués he lost, the postillons added to
    his account, the column sums and the difference (tens are fiches)."""
    from ..replay.rules.partie import MarqueLine, PartieSpec, settle_partie
    from ..replay.rules.profiles import DEFAULT_PROFILE
    from .messages import marque_result_text

    results = [e for e in record.elements if isinstance(e, MarqueResult)]
    if not results:
        return f"<p>{esc(L('sheet_no_result'))}</p>"

    def as_written(intro: str) -> str:
        return (
            f"<p>{esc(intro)}</p><ul>"
            + "".join(f"<li>{esc(marque_result_text(r, names, L))}</li>" for r in results)
            + "</ul>"
        )

    seats = {x for e in record.elements if isinstance(e, MarqueStart) and e.players for x in e.players}
    seats |= {r.winner for r in results if r.winner}
    if not seats <= {"A", "B"}:  # à quatre, chouette, à tourner: accounts are not one per seat
        return as_written(L("sheet_many"))
    lines = []
    for r in results:
        if r.refait or r.winner is None:
            lines.append(MarqueLine(None, refait_holes=r.winner_holes))
        else:
            loser = "B" if r.winner == "A" else "A"
            lines.append(
                MarqueLine(r.winner, (r.winner_holes, r.loser_holes), pavillon=r.bredouille != "none", loser=loser)
            )
    decided = sum(1 for r in results if not r.refait and r.winner)
    prof = profile if hasattr(profile, "marque_end_holes") else DEFAULT_PROFILE
    try:
        st = settle_partie(
            PartieSpec("ecrire", ("A", "B"), marques=_agreed_marques(record, decided)), lines, prof, method="papier"
        )
    except ValueError as e:  # a result the rules do not allow: say so, show the lines
        return as_written(L("sheet_cannot", e=e))
    out = [f'<table class="sheet marques"><caption>{esc(L("sheet_marques"))} (003 §222-226)</caption><thead><tr>']
    for key in (
        "sheet_col_marque",
        "sheet_col_winner",
        "sheet_col_holes",
        "sheet_col_bredouille",
        "sheet_col_value",
        "sheet_col_written",
    ):
        out.append(_h(L(key), L))
    out.append("</tr></thead><tbody>")
    for d, r in zip(st.detail, results):
        out.append(f"<tr><td>{esc(d.get('n', ''))}</td>")
        if d.get("refait"):
            out.append(
                f"<td>{esc(L('sheet_refait'))}</td><td>{d.get('holes')}–{d.get('holes')}</td><td>–</td>"
                f"<td>{esc(L('sheet_void'))}</td>"
            )
        else:
            w = d.get("winner", "")
            hh = d.get("holes") or ("", "")
            out.append(
                f"<td>{esc(f'{w} {names.get(w, chr(32))}'.strip())}</td><td>{hh[0]}–{hh[1]}</td>"
                f"<td>{esc(r.bredouille if r.bredouille != 'none' else '–')}</td>"
                f'<td class="mono">{esc(d.get("formula", d.get("value", "")))}</td>'
            )
        written = "" if r.value is None else str(r.value)
        ok = r.value is None or d.get("refait") or r.value == d.get("value")
        out.append(
            f"<td>{esc(written)}</td></tr>" if ok else f'<td class="bad">{esc(written + L("sheet_differs"))}</td></tr>'
        )
    out.append("</tbody></table>")

    out.append(f'<table class="sheet paper"><caption>{esc(L("sheet_paper"))} (003 §233)</caption><thead><tr><th></th>')
    for p in ("A", "B"):
        out.append(f'<th scope="col">{esc(f"{p} {names.get(p, chr(32))}".strip())}</th>')
    out.append("</tr></thead><tbody>")
    lost = st.lost
    for k in range(max((len(v) for v in lost.values()), default=0)):
        out.append(f'<tr><th scope="row">{esc(L("sheet_lost", n=k + 1))}</th>')
        for p in ("A", "B"):
            v = lost.get(p, [])
            out.append(f"<td>{v[k] if k < len(v) else ''}</td>")
        out.append("</tr>")
    post = {p: sum(x["jetons"] for x in st.postillons if x.get("payer") == p) for p in ("A", "B")}
    out.append(
        f'<tr><th scope="row">{esc(L("sheet_postillons"))}</th>'
        + "".join(f"<td>{post[p] if post[p] else ''}</td>" for p in "AB")
        + "</tr></tbody><tfoot>"
    )
    out.append(
        f'<tr><th scope="row">{esc(L("sheet_sum"))}</th>'
        + "".join(f"<td>{sum(lost.get(p, [])) + post[p]}</td>" for p in "AB")
        + "</tr>"
    )
    net = st.methods.get("papier", {}).get("net", {})
    fiches = st.methods.get("papier", {}).get("fiches", {})
    out.append(f'<tr><th scope="row">{esc(L("sheet_result"))}</th>')
    for p in ("A", "B"):
        n = net.get(p)
        out.append(f"<td>{'' if n is None else esc(L('sheet_net', n=n, f=fiches.get(p, 0)))}</td>")
    out.append("</tr></tfoot></table>")
    if not st.complete:
        out.append(f"<p>{esc(L('sheet_incomplete'))}</p>")
    return "".join(out)
