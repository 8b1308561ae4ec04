"""The site's standings page (``standings.html``): the club's standings as
:func:`trictrac.club.standings.compute_standings` makes them, one printable sheet per
kind of partie (douze trous, RULES.md §8.1; à écrire, §8.2) with its crosstable.

The rows come either from the games being published (:func:`trictrac.club.db.standing_game`
on each verified report: the numbers the club database would store) or from the club
database itself (``publish --db CLUB.db``).  Every word comes from ``publish.i18n``;
every name goes through ``publish.markup.esc``.
"""

from __future__ import annotations

from typing import Any

from ..club.standings import CROSSTABLE_PLAYERS
from .html import page
from .i18n import Labels, labels
from .markup import clean, esc, safe_href

__all__ = ["STANDINGS", "render_standings"]

STANDINGS = "standings.html"

# The columns of each table, as keys of compute_standings' rows (labels: "st_" + key).
COLUMNS: dict[str, tuple[str, ...]] = {
    "douze-trous": (
        "rank",
        "player",
        "games",
        "wins",
        "losses",
        "draws",
        "unfinished",
        "holes_for",
        "holes_against",
        "ecoles_made",
        "ecoles_claimed",
    ),
    "a-ecrire": (
        "rank",
        "player",
        "games",
        "marques_won",
        "marques_lost",
        "bredouilles_won",
        "value_won",
        "value_lost",
        "net_value",
        "ecoles_made",
        "ecoles_claimed",
    ),
}


def _player(name: str, player_pages: dict[str, str] | None) -> str:
    href = safe_href((player_pages or {}).get(name, "") or "")
    return f'<a href="{href}">{esc(name)}</a>' if href else esc(name)


def _table(kind: str, t: dict[str, Any], L: Labels, player_pages: dict[str, str] | None) -> str:
    cols = COLUMNS[kind]
    out = ['<table class="index standings"><thead><tr>']
    out += [f'<th scope="col">{esc(L("st_" + c))}</th>' for c in cols]
    out.append("</tr></thead><tbody>")
    for r in t["players"]:
        cells = []
        for c in cols:
            if c == "player":
                cells.append(f'<th scope="row">{_player(r[c], player_pages)}</th>')
            elif c == "net_value":
                cells.append(f"<td>{r[c]:+d}</td>")
            else:
                cells.append(f"<td>{esc(r[c])}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _crosstable(kind: str, t: dict[str, Any], L: Labels) -> str:
    order: list[str] = t["crosstable"]["players"]
    cells: dict[str, dict[str, dict[str, int]]] = t["crosstable"]["cells"]
    note = L("st_cross_douze" if kind == "douze-trous" else "st_cross_ecrire")
    if len(order) > CROSSTABLE_PLAYERS:  # the grid grows as players²: the best ranked only (issue 27)
        note += " " + L("st_cross_capped", n=CROSSTABLE_PLAYERS, players=len(order))
        order = order[:CROSSTABLE_PLAYERS]
    out = [
        f'<h3>{esc(L("st_cross"))}</h3><p class="numbering">{esc(note)}</p>',
        '<table class="index crosstable"><thead><tr><th scope="col"></th>',
    ]
    out += [f'<th scope="col" title="{esc(b)}">{i + 1}</th>' for i, b in enumerate(order)]
    out.append("</tr></thead><tbody>")
    for i, a in enumerate(order):
        row = [f'<th scope="row">{i + 1}. {esc(a)}</th>']
        for b in order:
            c = cells.get(a, {}).get(b)
            if a == b:
                text = L("st_self")
            elif c is None:
                text = ""
            elif kind == "douze-trous":
                text = f"{c['wins']}–{c['losses']}"
            else:
                text = f"{c['net_value']:+d}"
            row.append(f"<td>{esc(text)}</td>")
        out.append("<tr>" + "".join(row) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def render_standings(
    st: dict[str, Any],
    *,
    lang: str | Labels = "fr",
    club: str | None = None,
    title: str | None = None,
    from_db: bool = False,
    index_href: str = "index.html",
    player_pages: dict[str, str] | None = None,
) -> str:
    """The standings page of ``st`` (the dict of ``compute_standings``): per kind of partie
    a sheet (printed one a page) with the ranked table and the crosstable."""
    L = labels(lang)
    heading = title or L("standings_title")
    body = [f'<nav><a href="{safe_href(index_href) or ""}">{esc(L("back_index"))}</a></nav>']
    head = "".join(
        (
            f'<p class="club">{esc(club)}</p>' if club else "",
            f"<h1>{esc(heading)}</h1>",
            f"<p>{esc(L.n('standings_from_db' if from_db else 'standings_from', st['games']))}</p>",
        )
    )
    if not st["tables"]:
        body.append(f'<section class="feuille">{head}<p>{esc(L("standings_none"))}</p></section>')
    for kind, t in st["tables"].items():
        body.append(
            f'<section class="feuille" id="{kind}">{head}'
            f"<h2>{esc(L('st_' + kind))} ({esc(L.n('st_games_kind', t['games']))})</h2>"
            f"{_table(kind, t, L, player_pages)}{_crosstable(kind, t, L)}</section>"
        )
    return page(esc(clean(f"{club} – {heading}" if club else heading)), body, L)
