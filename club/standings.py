"""Standings a club can post: per player and per kind of partie, with a crosstable.

:func:`compute_standings` is pure: it takes plain per-game rows (:class:`StandingGame`)
and returns plain dicts (the ``--json`` shape of ``trictrac standings``, documented in
docs/database.md), so a publisher can build a standings page from the same rows.
:func:`standing_games` reads those rows from the club database.

Two tables, because the two parties are scored differently:

* **partie en douze trous** (RULES.md §8.1): games, wins, losses, draws, unfinished,
  holes for and against; ranked by wins, then wins minus losses, then holes difference.
* **partie à écrire** (RULES.md §8.2): each marqué counts between the two players who
  played it (so parties à tourner, à la chouette and à quatre count too): marqués won
  and lost, the value written for them (won, lost, net: the settlement in jetons);
  ranked by net value, then marqués won.

In both, écoles made (the player's mistakes the opponent claimed) and claimed (RULES.md
§7), counts and points; and a crosstable of each pair.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..notation.names import one_line
from ..words import Words, words
from .words import ClubError

if TYPE_CHECKING:  # only named in annotations: publishing loads this module without sqlite-utils
    from sqlite_utils import Database

__all__ = [
    "GameSelection",
    "MarqueRow",
    "SeatRow",
    "SelectionError",
    "StandingGame",
    "compute_standings",
    "format_standings",
    "selected_games",
    "standing_games",
]

KINDS = ("douze-trous", "a-ecrire")


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One player in one game."""

    player: str
    holes: int | None = None  # final holes (partie en douze trous)
    outcome: str | None = None  # win | loss | draw | None (unfinished)
    ecoles_made: int = 0
    ecoles_made_points: int = 0
    ecoles_claimed: int = 0
    ecoles_claimed_points: int = 0


@dataclass(frozen=True, slots=True)
class MarqueRow:
    """One marqué played to its end (a refait has no winner and is not listed)."""

    winner: str
    loser: str
    value: int | None = None  # value written on the score sheet
    bredouille: str = "none"  # none | petite | grande


@dataclass(frozen=True, slots=True)
class StandingGame:
    game_id: str
    label: str
    date: str | None
    season: str | None
    kind: str  # douze-trous | a-ecrire
    seats: tuple[SeatRow, ...]
    marques: tuple[MarqueRow, ...] = ()


def _zero(kind: str) -> dict[str, int]:
    base = {"games": 0, "ecoles_made": 0, "ecoles_made_points": 0, "ecoles_claimed": 0, "ecoles_claimed_points": 0}
    if kind == "douze-trous":
        return {**base, "wins": 0, "losses": 0, "draws": 0, "unfinished": 0, "holes_for": 0, "holes_against": 0}
    return {
        **base,
        "marques_won": 0,
        "marques_lost": 0,
        "bredouilles_won": 0,
        "value_won": 0,
        "value_lost": 0,
        "net_value": 0,
        "wins": 0,
        "losses": 0,
        "draws": 0,
        "unfinished": 0,
    }


def _rank(rows: list[dict[str, Any]], key: Any) -> list[dict[str, Any]]:
    """Sort by ``key`` (best first, then name); equal keys share a rank (1, 2, 2, 4)."""
    rows = sorted(rows, key=lambda r: (key(r), r["player"].casefold()))
    out: list[dict[str, Any]] = []
    prev = None
    for i, r in enumerate(rows):
        k = key(r)
        rank = out[-1]["rank"] if out and k == prev else i + 1
        out.append({"rank": rank, **r})
        prev = k
    return out


def _douze_key(r: dict[str, Any]) -> tuple[int, ...]:
    # partie en douze trous: wins, then wins minus losses, then the holes' difference
    return (-r["wins"], -(r["wins"] - r["losses"]), -(r["holes_for"] - r["holes_against"]))


def _ecrire_key(r: dict[str, Any]) -> tuple[int, ...]:
    # partie à écrire: the net value in jetons, then marqués won, then fewest lost
    return (-r["net_value"], -r["marques_won"], r["marques_lost"])


def compute_standings(games: Iterable[StandingGame]) -> dict[str, Any]:
    """Standings of ``games``: ``{"games": n, "tables": {kind: {"games", "players", "crosstable"}}}``
    for each kind present (see the module docstring and docs/database.md)."""
    per: dict[str, dict[str, dict[str, int]]] = {k: {} for k in KINDS}
    cross: dict[str, dict[str, dict[str, dict[str, int]]]] = {k: {} for k in KINDS}
    n_games = {k: 0 for k in KINDS}
    total = 0
    for g in games:
        kind = g.kind if g.kind in KINDS else "a-ecrire" if g.marques else "douze-trous"
        total += 1
        n_games[kind] += 1
        table = per[kind]
        for s in g.seats:
            row = table.setdefault(s.player, _zero(kind))
            row["games"] += 1
            for k in ("ecoles_made", "ecoles_made_points", "ecoles_claimed", "ecoles_claimed_points"):
                row[k] += getattr(s, k)
            row[{"win": "wins", "loss": "losses", "draw": "draws"}.get(s.outcome or "", "unfinished")] += 1
        if kind == "douze-trous":
            two = list(g.seats)
            for s in two:
                others = [o for o in two if o is not s]
                if len(others) != 1:
                    continue
                o = others[0]
                row = table[s.player]
                row["holes_for"] += s.holes or 0
                row["holes_against"] += o.holes or 0
                cell = (
                    cross[kind]
                    .setdefault(s.player, {})
                    .setdefault(
                        o.player, {"games": 0, "wins": 0, "losses": 0, "draws": 0, "holes_for": 0, "holes_against": 0}
                    )
                )
                cell["games"] += 1
                cell["holes_for"] += s.holes or 0
                cell["holes_against"] += o.holes or 0
                if s.outcome in ("win", "loss", "draw"):
                    cell[{"win": "wins", "loss": "losses", "draw": "draws"}[s.outcome]] += 1
        else:
            for m in g.marques:
                v = m.value or 0
                w = table.setdefault(m.winner, _zero(kind))
                lo = table.setdefault(m.loser, _zero(kind))
                w["marques_won"] += 1
                w["bredouilles_won"] += m.bredouille in ("petite", "grande")
                w["value_won"] += v
                w["net_value"] += v
                lo["marques_lost"] += 1
                lo["value_lost"] += v
                lo["net_value"] -= v
                for a, b, sign in ((m.winner, m.loser, 1), (m.loser, m.winner, -1)):
                    cell = (
                        cross[kind]
                        .setdefault(a, {})
                        .setdefault(b, {"marques_won": 0, "marques_lost": 0, "net_value": 0})
                    )
                    cell["marques_won" if sign > 0 else "marques_lost"] += 1
                    cell["net_value"] += sign * v
    tables: dict[str, Any] = {}
    for kind in KINDS:
        rows = [{"player": p, **r} for p, r in per[kind].items()]
        if not rows:
            continue
        ranked = _rank(rows, _douze_key if kind == "douze-trous" else _ecrire_key)
        order = [r["player"] for r in ranked]
        place = {p: i for i, p in enumerate(order)}  # cells sorted by rank: linear in pairs, not players²
        tables[kind] = {
            "games": n_games[kind],
            "players": ranked,
            "crosstable": {
                "players": order,
                "cells": {
                    a: {b: cross[kind][a][b] for b in sorted(cross[kind][a], key=place.__getitem__)}
                    for a in order
                    if a in cross[kind]
                },
            },
        }
    return {"games": total, "tables": tables}


# --- reading the rows from the club database ------------------------------------------------------


class SelectionError(ClubError):
    """A season or date the club database cannot select by (its message is one line)."""


_SEASON = re.compile(r"([0-9]{4})(?:-([0-9]{4}))?")  # [0-9]: \d takes every script's digits
_DATE = re.compile(r"([0-9]{4})(?:-([0-9]{2})(?:-([0-9]{2}))?)?")


@dataclass(frozen=True, slots=True)
class GameSelection:
    """The games of a season and/or a date range, as ``trictrac standings`` and
    ``trictrac publish --db`` choose them.

    ``season``: ``2024`` (a club whose seasons are calendar years) or ``2024-2025`` (a
    season starting in another month; ``meta.season_start_month``, club.db.season_of).
    ``date_from`` / ``date_to``: ``YYYY[-MM[-DD]]``, both ends included; a date given to
    the month or the year covers it whole.  A game without a readable date is in no
    date range.  Checked when made: :class:`SelectionError` on a bad form."""

    season: str | None = None
    date_from: str | None = None
    date_to: str | None = None

    def __post_init__(self) -> None:
        if self.season is not None:
            m = _SEASON.fullmatch(self.season)
            if not m or (m.group(2) and int(m.group(2)) != int(m.group(1)) + 1):
                raise SelectionError("bad_season", season=self.season)
        for name, value in (("from", self.date_from), ("to", self.date_to)):
            d = _DATE.fullmatch(value) if value is not None else None
            if value is not None and (
                not d
                or (d.group(2) and not 1 <= int(d.group(2)) <= 12)
                or (d.group(3) and not 1 <= int(d.group(3)) <= 31)
            ):
                raise SelectionError("bad_date", name=name, value=value)
        if self.date_from and self.date_to and self.date_from[: len(self.date_to)] > self.date_to:
            raise SelectionError("from_after_to", start=self.date_from, end=self.date_to)

    @property
    def everything(self) -> bool:
        return self.season is None and self.date_from is None and self.date_to is None

    def where(self, alias: str = "g") -> tuple[str, list[str]]:
        """The SQL condition on ``games`` (as ``alias``), `` WHERE …`` or empty, and its parameters."""
        where, params = [], []
        if self.season is not None:
            where.append(f"{alias}.season = ?")
            params.append(self.season)
        if self.date_from is not None:
            where.append(f"{alias}.date_iso >= ?")
            params.append(self.date_from)
        if self.date_to is not None:
            where.append(f"{alias}.date_iso < ?")
            params.append(self.date_to + "\uffff")  # 2024-03 covers 2024-03-31
        return ((" WHERE " + " AND ".join(where)) if where else ""), params

    def check_season_rule(self, db: Database) -> None:
        """:class:`SelectionError` when the season is not of the form this club's seasons have."""
        if self.season is None:
            return
        row = db.conn.execute("SELECT value FROM meta WHERE key = 'season_start_month'").fetchone()
        start = int(row[0]) if row else 1
        if (start == 1) != ("-" not in self.season):
            raise SelectionError("season_is_year" if start == 1 else "season_is_years", season=self.season, start=start)

    def describe(self, lang: str | Words = "fr") -> str:
        """``saison 2024 du 2024-09 au …`` (empty for every game), in ``lang``."""
        W = words(lang)
        out = W("dbcli.sel.season", season=self.season) if self.season else ""
        if self.date_from or self.date_to:
            out += " " + W("dbcli.sel.dates", start=self.date_from or "…", end=self.date_to or "…")
        return out.strip()

    def as_dict(self) -> dict[str, str | None]:
        return {"season": self.season, "from": self.date_from, "to": self.date_to}


def selected_games(db: Database, selection: GameSelection | None = None) -> list[tuple[str, str, str]]:
    """``(id, label, text)`` of the selected games, oldest first: the text as read in its
    file (the stored canonical text when there is none), ready to be published."""
    sel = selection or GameSelection()
    sel.check_season_rule(db)
    w, params = sel.where()
    return db.conn.execute(
        f"SELECT g.sha256, g.label, COALESCE(g.source, g.canonical) FROM games g{w} "
        f"ORDER BY g.date_iso IS NULL, g.date_iso, g.label",
        params,
    ).fetchall()


def selected_sources(
    db: Database, selection: GameSelection | None = None
) -> list[tuple[str, str, str, str | None, int | None]]:
    """``(id, label, text, source_file, source_line)`` of the selected games, oldest first: as
    :func:`selected_games`, with the file each game was read from (as named on the command line,
    ``-`` for standard input) and its first line there, so that what is published from the
    database cites the secretary's file and lines (issue 25 item 5)."""
    sel = selection or GameSelection()
    sel.check_season_rule(db)
    w, params = sel.where()
    return db.conn.execute(
        f"SELECT g.sha256, g.label, COALESCE(g.source, g.canonical), g.source_file, g.source_line FROM games g{w} "
        f"ORDER BY g.date_iso IS NULL, g.date_iso, g.label",
        params,
    ).fetchall()


def standing_games(
    db: Database,
    selection: GameSelection | None = None,
    *,
    season: str | None = None,
    date_from: str | None = None,
    date_to: str | None = None,
) -> list[StandingGame]:
    """The games of ``selection`` (or of ``season``, ``date_from``, ``date_to``: see
    :class:`GameSelection`) as :class:`StandingGame` rows."""
    chosen = selection if selection is not None else GameSelection(season, date_from, date_to)
    chosen.check_season_rule(db)
    w, params = chosen.where()
    conn = db.conn
    games = conn.execute(
        f"SELECT g.id, g.sha256, g.label, g.date_iso, g.season, g.kind FROM games g{w} "
        f"ORDER BY g.date_iso IS NULL, g.date_iso, g.sha256",
        params,
    ).fetchall()
    if not games:
        return []
    seats: dict[int, list[tuple]] = {}
    ecoles: dict[tuple[int, int], list[int]] = {}
    marques: dict[int, list[MarqueRow]] = {}
    # the games chosen, as a subquery on games' indexes (a read-only connection makes no temp table)
    chosen_ids = f"SELECT g.id FROM games g{w}"
    for gid, pid, name, holes, outcome in conn.execute(
        "SELECT r.game_id, r.player_id, p.name, r.holes, r.outcome FROM results r JOIN players p ON p.id = "
        f"r.player_id WHERE r.game_id IN ({chosen_ids}) ORDER BY r.game_id, r.seat",
        params,
    ):
        seats.setdefault(gid, []).append((pid, name, holes, outcome))
    for gid, claimant, made_by, points in conn.execute(
        "SELECT game_id, player_id, against_id, COALESCE(points, 0) FROM marks WHERE kind = 'ecole' "
        f"AND game_id IN ({chosen_ids})",
        params,
    ):
        if made_by is not None:
            e = ecoles.setdefault((gid, made_by), [0, 0, 0, 0])
            e[0] += 1
            e[1] += points
        if claimant is not None:
            e = ecoles.setdefault((gid, claimant), [0, 0, 0, 0])
            e[2] += 1
            e[3] += points
    for gid, winner, loser, value, bred in conn.execute(
        "SELECT game_ref, winner, loser, value, bredouille FROM marque_results WHERE winner IS NOT NULL AND "
        f"loser IS NOT NULL AND game_ref IN ({chosen_ids}) ORDER BY game_ref, number, id",
        params,
    ):
        marques.setdefault(gid, []).append(MarqueRow(winner, loser, value, bred or "none"))
    out = []
    for gid, sha, label, date, game_season, kind in games:
        rows = tuple(
            SeatRow(name, holes, outcome, *ecoles.get((gid, pid), (0, 0, 0, 0)))
            for pid, name, holes, outcome in seats.get(gid, [])
        )
        out.append(
            StandingGame(
                sha,
                label,
                date,
                game_season,
                "douze-trous" if kind == "douze-trous" else "a-ecrire",
                rows,
                tuple(marques.get(gid, ())),
            )
        )
    return out


# --- text -----------------------------------------------------------------------------------------------

#: the columns of the text standings, each named by the catalogue's ``st_<column>``
#: (the standings page's words); ``rank`` is ``#``
_COLUMNS = {
    "douze-trous": (
        "rank", "player", "games", "wins", "losses", "draws", "unfinished",
        "holes_for", "holes_against", "ecoles_made", "ecoles_claimed",
    ),
    "a-ecrire": (
        "rank", "player", "games", "wins", "losses", "marques_won", "marques_lost", "bredouilles_won",
        "value_won", "value_lost", "net_value", "ecoles_made", "ecoles_claimed",
    ),
}  # fmt: skip
_NUMBER = re.compile(r"[+-]?\d+(-\d+)?").fullmatch


def _grid(header: list[str], rows: list[list[str]]) -> list[str]:
    width = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(header)]

    def fmt(cells: list[str]) -> str:
        return "  ".join(
            c.rjust(w) if i and _NUMBER(c) else c.ljust(w) for i, (c, w) in enumerate(zip(cells, width))
        ).rstrip()

    return [fmt(header), "  ".join("-" * w for w in width), *(fmt(r) for r in rows)]


#: players shown in a crosstable's grid (the best ranked): 4,000 players would make a grid
#: of 16 million cells (145 MB of HTML, issue 27 row 3); every pair stays in ``--json``
CROSSTABLE_PLAYERS = 40


def crosstable_note(players: int, lang: str | Words = "fr") -> str:
    """The line under a capped crosstable's title, in ``lang``."""
    return words(lang)("dbcli.cross_capped", n=CROSSTABLE_PLAYERS, players=players)


def format_standings(st: dict[str, Any], title: str | None = None, lang: str | Words = "fr") -> str:
    """The standings as plain text in ``lang``: a table per kind of partie, then its
    crosstable (douze trous: wins-losses of the row player against the column player;
    à écrire: the row player's net value against him)."""
    W = words(lang)
    head = one_line(title if title is not None else W("standings_title"))
    lines = [W("dbcli.standings_head", title=head, games=W.n("cli.games", st["games"]))]
    for kind, t in st["tables"].items():
        cols = _COLUMNS[kind]
        lines += ["", W("dbcli.standings_table", title=W(f"st_{kind}"), games=W.n("cli.games", t["games"]))]
        header = ["#" if c == "rank" else W(f"st_{c}") for c in cols]
        lines += _grid(header, [[one_line(str(r[c])) for c in cols] for r in t["players"]])
        order = t["crosstable"]["players"]
        cells = t["crosstable"]["cells"]
        lines += ["", W("st_cross")]
        if len(order) > CROSSTABLE_PLAYERS:  # a grid grows as players²: the best ranked only
            lines.append(crosstable_note(len(order), W))
            order = order[:CROSSTABLE_PLAYERS]
        rows = []
        for i, a in enumerate(order):
            row = [f"{i + 1}. {one_line(a)}"]
            for b in order:
                c = cells.get(a, {}).get(b)
                if a == b:
                    row.append("×")
                elif c is None:
                    row.append("")
                elif kind == "douze-trous":
                    row.append(f"{c['wins']}-{c['losses']}")
                else:
                    row.append(f"{c['net_value']:+d}")
            rows.append(row)
        lines += _grid(["", *(str(i + 1) for i in range(len(order)))], rows)
    return "\n".join(lines)
