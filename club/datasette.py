"""Datasette metadata for a club database: titles, descriptions, column labels, readable
labels for foreign keys, full-text search and the club's canned queries (issue 15).

``trictrac db datasette club.db`` writes ``club.metadata.json`` and the plugin
``club.plugins/trictrac_links.py`` (:mod:`.datasette_links`: links to a game from the
other tables) beside the file; browse with
``datasette club.db -m club.metadata.json --plugins-dir club.plugins``.  The content is
described in docs/database.md ("Datasette").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..words import Words, words
from .queries import ECOLE_FINDINGS

__all__ = ["CANNED_QUERIES", "datasette_metadata", "metadata_path", "plugins_path", "write_metadata", "write_plugins"]

_SCORE_FINDINGS = (
    "(f.kind GLOB 'ecole*' OR f.kind IN ('unclaimed-ecole', 'hole-mismatch', 'bredouille-lost', "
    "'marque-result-mismatch', 'result-mismatch'))"
)

# An empty parameter means "every season" / "any date".
CANNED_QUERIES: dict[str, dict[str, Any]] = {
    "standings": {
        "sql": """SELECT p.name AS player, COUNT(*) AS games,
       SUM(r.outcome IS 'win') AS wins, SUM(r.outcome IS 'loss') AS losses, SUM(r.outcome IS 'draw') AS draws,
       SUM(r.outcome IS NULL) AS unfinished,
       CAST(TOTAL(CASE WHEN g.kind = 'douze-trous' THEN r.holes END) AS INTEGER) AS holes_for,
       CAST(TOTAL(CASE WHEN g.kind = 'douze-trous' THEN ro.holes END) AS INTEGER) AS holes_against,
       SUM(r.marques_won) AS marques_won, SUM(r.marques_lost) AS marques_lost, SUM(r.marque_value) AS net_value,
       (SELECT COUNT(*) FROM marks k JOIN games g2 ON g2.id = k.game_id WHERE k.kind = 'ecole'
          AND k.against_id = p.id AND (:season = '' OR g2.season = :season)) AS ecoles_made,
       (SELECT COUNT(*) FROM marks k JOIN games g2 ON g2.id = k.game_id WHERE k.kind = 'ecole'
          AND k.player_id = p.id AND (:season = '' OR g2.season = :season)) AS ecoles_claimed
FROM (SELECT id FROM games WHERE season = :season UNION ALL SELECT id FROM games WHERE :season = '') c
JOIN results r ON r.game_id = c.id
JOIN players p ON p.id = r.player_id
JOIN games g ON g.id = r.game_id
LEFT JOIN results ro ON ro.game_id = r.game_id AND ro.seat = r.opponent_seat
GROUP BY p.id
ORDER BY wins DESC, net_value DESC, p.name""",
    },
    "player_games": {
        "sql": """SELECT game, date, season, event, partie, seat, opponent, outcome, holes, holes_against,
       marques_won, marques_lost, marque_value, game_id
FROM player_games WHERE player = :player ORDER BY date IS NULL, date, game_id""",
    },
    "game_ecoles": {
        "sql": f"""SELECT 'claimed' AS source, e.coup, e.line, e.claimant, e.made_by, e.points, e.reason AS detail
FROM ecoles e JOIN games g ON g.id = e.game_ref WHERE g.label = :game OR g.sha256 = :game
UNION ALL
SELECT 'verifier: ' || f.kind, f.coup, f.line, NULL, p.name, f.entitled, f.message
FROM findings f JOIN games g ON g.id = f.game_id LEFT JOIN players p ON p.id = f.player_id
WHERE (g.label = :game OR g.sha256 = :game) AND {ECOLE_FINDINGS}
ORDER BY line""",
    },
    "disputed_scores": {
        "sql": "SELECT * FROM disputed_games ORDER BY date IS NULL, date, game",
    },
}

#: each table and view Datasette shows: what it needs besides words (label column, search, sort)
#: and the columns labelled; every title, description and label is the catalogue's
#: ``club.ds.<table>.title`` / ``.description`` / ``.col.<column>``, in the language asked
_TABLES: dict[str, dict[str, Any]] = {
    "games": {
        "label_column": "label",
        "sort_desc": "date_iso",
        "columns": (
            "label",
            "id",
            "sha256",
            "game_key",
            "date_iso",
            "partie",
            "kind",
            "finished",
            "winner",
            "n_findings",
            "n_coups",
            "canonical",
            "source",
            "source_file",
            "source_line",
            "source_end_line",
        ),
    },  # fmt: skip
    "players": {"label_column": "name", "columns": ("name",)},
    "coups": {"columns": ("number", "side", "die1", "die2", "moves")},
    "marks": {
        "fts_table": "ecoles_fts",
        "fts_pk": "id",
        "columns": ("who", "against", "points", "holes", "leave", "reason", "token"),
    },
    "findings": {
        "fts_table": "findings_fts",
        "fts_pk": "id",
        "columns": ("kind", "entitled", "marked", "rule", "message"),
    },
    "marques": {},
    "releves": {},
    "comments": {},
    "results": {"columns": ("marque_value", "outcome")},
    "game_history": {"label_column": "label"},
    "import_failures": {},
    "game_list": {},
    "player_games": {},
    "marque_results": {},
    "ecoles": {"fts_table": "ecoles_fts", "fts_pk": "id"},
    "disputed_games": {},
}


def _tables(W: Words) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for table, spec in _TABLES.items():
        key = f"club.ds.{table}"
        t: dict[str, Any] = {"title": W(f"{key}.title")}
        if W.has(f"{key}.description"):
            t["description"] = W(f"{key}.description")
        t.update({k: v for k, v in spec.items() if k != "columns"})
        if spec.get("columns"):
            t["columns"] = {c: W(f"{key}.col.{c}") for c in spec["columns"]}
        out[table] = t
    return out


def _queries(W: Words) -> dict[str, dict[str, Any]]:
    return {
        name: {
            "title": W(f"club.ds.query.{name}.title"),
            "description": W(f"club.ds.query.{name}.description"),
            "sql": q["sql"],
        }
        for name, q in CANNED_QUERIES.items()
    }


def datasette_metadata(db_name: str, club: str | None = None, lang: str = "fr") -> dict[str, Any]:
    """The metadata for a database that Datasette names ``db_name`` (the file's stem), its
    words in ``lang`` (``fr``, the default, or ``en``) from the catalogue."""
    W = words(lang)
    title = W("club.ds.site.title_club", club=club) if club else W("club.ds.site.title")
    return {
        "title": title,
        "description": W("club.ds.site.description"),
        "license": W("club.ds.site.license"),
        "databases": {db_name: {"title": title, "tables": _tables(W), "queries": _queries(W)}},
    }


def metadata_path(db_path: str | Path) -> Path:
    p = Path(db_path)
    return p.with_name(p.stem + ".metadata.json")


def write_metadata(
    db_path: str | Path, out: str | Path | None = None, club: str | None = None, lang: str = "fr"
) -> Path:
    """Write the metadata for ``db_path`` (default ``<stem>.metadata.json`` beside it), whole or not at all,
    in ``lang``."""
    from ..notation.textio import atomic_write_text

    target = Path(out) if out is not None else metadata_path(db_path)
    atomic_write_text(
        target, json.dumps(datasette_metadata(Path(db_path).stem, club, lang), ensure_ascii=False, indent=2) + "\n"
    )
    return target


def plugins_path(db_path: str | Path) -> Path:
    p = Path(db_path)
    return p.with_name(p.stem + ".plugins")


def write_plugins(db_path: str | Path, out: str | Path | None = None) -> Path:
    """Copy the plugin :mod:`.datasette_links` into ``out`` (default ``<stem>.plugins`` beside
    ``db_path``), for ``datasette --plugins-dir``; returns the directory."""
    from importlib.resources import files

    from ..notation.textio import write_inside

    target = Path(out) if out is not None else plugins_path(db_path)
    source = files(__package__).joinpath("datasette_links.py").read_text(encoding="utf-8")
    # never through a link: a linked NAME.plugins would have it written anywhere (issue 27)
    write_inside(target.parent, f"{target.name}/trictrac_links.py", source)
    return target
