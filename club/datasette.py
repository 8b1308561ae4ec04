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

from .queries import ECOLE_FINDINGS

__all__ = ["CANNED_QUERIES", "datasette_metadata", "metadata_path", "plugins_path", "write_metadata", "write_plugins"]

_SCORE_FINDINGS = (
    "(f.kind GLOB 'ecole*' OR f.kind IN ('unclaimed-ecole', 'hole-mismatch', 'bredouille-lost', "
    "'marque-result-mismatch', 'result-mismatch'))"
)

# An empty parameter means "every season" / "any date".
CANNED_QUERIES: dict[str, dict[str, Any]] = {
    "standings": {
        "title": "Classement",
        "description": "Per player: parties, wins, losses, unfinished, holes (parties en douze trous), marqués "
        "won and lost and their net value (parties à écrire), écoles made and claimed. "
        "Leave the season empty for every season. `trictrac standings` adds the crosstable.",
        "sql": """SELECT p.name AS player, COUNT(*) AS games,
       SUM(r.outcome = 'win') AS wins, SUM(r.outcome = 'loss') AS losses, SUM(r.outcome = 'draw') AS draws,
       SUM(r.outcome IS NULL) AS unfinished,
       SUM(CASE WHEN g.n_marques = 0 THEN r.holes END) AS holes_for,
       SUM(CASE WHEN g.n_marques = 0 THEN ro.holes END) AS holes_against,
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
        "title": "Les parties d'un joueur",
        "description": "Every game of one player (his exact name), oldest first: opponent, outcome, holes, marqués.",
        "sql": """SELECT game, date, season, event, partie, seat, opponent, outcome, holes, holes_against,
       marques_won, marques_lost, marque_value, game_id
FROM player_games WHERE player = :player ORDER BY date IS NULL, date, game_id""",
    },
    "game_ecoles": {
        "title": "Les écoles d'une partie",
        "description": "The écoles of one game (its label, as in the first column of the game lists, or its id): "
        "those claimed at the table and those the verifier found, unclaimed ones included.",
        "sql": f"""SELECT 'claimed' AS source, e.coup, e.line, e.claimant, e.made_by, e.points, e.reason AS detail
FROM ecoles e JOIN games g ON g.id = e.game_ref WHERE g.label = :game OR g.sha256 = :game
UNION ALL
SELECT 'verifier: ' || f.kind, f.coup, f.line, NULL, p.name, f.entitled, f.message
FROM findings f JOIN games g ON g.id = f.game_id LEFT JOIN players p ON p.id = f.player_id
WHERE (g.label = :game OR g.sha256 = :game) AND {ECOLE_FINDINGS}
ORDER BY line""",
    },
    "disputed_scores": {
        "title": "Parties au score disputé",
        "description": "Games whose score was disputed: écoles claimed or corrections written at the table, or "
        "score findings of the verifier (écoles, holes, bredouille, marqué and game results).",
        "sql": "SELECT * FROM disputed_games ORDER BY date IS NULL, date, game",
    },
}

_TABLES: dict[str, dict[str, Any]] = {
    "games": {
        "title": "Parties",
        "description": "One row per game, named by its label (date, players, round); id is the key the other "
        "tables name, sha256 (the hash of its canonical text) the game's id on the command line. A corrected "
        "record replaces its earlier version (see game_history).",
        "label_column": "label",
        "sort_desc": "date_iso",
        "columns": {
            "label": "the game: date, players and round",
            "id": "the game's key (named by the other tables)",
            "sha256": "hash of the canonical text: the game's id (trictrac db show ID)",
            "game_key": "identity: Game-Id tag or hash of the tags",
            "date_iso": "date (YYYY-MM-DD)",
            "partie": "kind of partie",
            "n_findings": "findings of the verifier",
            "n_coups": "coups",
            "canonical": "canonical text",
            "source": "text as read in its file (empty: the canonical text)",
            "source_file": "the file it was read from",
            "source_line": "its first line there",
            "source_end_line": "its last line there",
        },
    },
    "players": {"title": "Joueurs", "label_column": "name", "columns": {"name": "name as written in the records"}},
    "coups": {
        "title": "Coups",
        "description": "Every coup: dice, moves (canonical notation).",
        "columns": {
            "number": "coup number as written",
            "side": "seat of the roller",
            "die1": "first die",
            "die2": "second die",
            "moves": "moves (canonical notation)",
        },
    },
    "marks": {
        "title": "Marques et écoles",
        "description": "Every action of a coup, in order: marks, écoles, "
        "decisions (s'en aller / tenir), corrections, comments.",
        "fts_table": "ecoles_fts",
        "fts_pk": "id",
        "columns": {
            "who": "seat (claimant of an école)",
            "against": "école: the seat who made it",
            "points": "points",
            "holes": "trous",
            "leave": "1 = s'en aller, 0 = tenir",
            "reason": "reason written with an école or correction",
            "token": "as written",
        },
    },
    "findings": {
        "title": "Constats du vérificateur",
        "description": "The verifier's findings, with the RULES.md section; searchable (kinds in French and "
        "English, messages).",
        "fts_table": "findings_fts",
        "fts_pk": "id",
        "columns": {
            "kind": "kind (docs/findings.md)",
            "entitled": "points due",
            "marked": "points marked",
            "rule": "RULES.md section",
            "message": "what the verifier says",
        },
    },
    "marques": {"title": "Marqués", "description": "Marqués of parties à écrire: winner, holes, bredouille, value."},
    "releves": {"title": "Relevés"},
    "comments": {"title": "Commentaires"},
    "results": {"title": "Résultats", "columns": {"marque_value": "net value of the marqués (jetons)"}},
    "game_history": {"title": "Versions remplacées ou supprimées", "label_column": "label"},
    "import_failures": {"title": "Imports refusés"},
    "game_list": {"title": "Liste des parties", "description": "One row per game, by its readable label."},
    "player_games": {"title": "Parties par joueur"},
    "marque_results": {"title": "Marqués gagnés et perdus"},
    "ecoles": {
        "title": "Écoles prises",
        "description": "Every école claimed at the table; searchable by reason.",
        "fts_table": "ecoles_fts",
        "fts_pk": "id",
    },
    "disputed_games": {"title": "Parties au score disputé"},
}


def datasette_metadata(db_name: str, club: str | None = None) -> dict[str, Any]:
    """The metadata for a database that Datasette names ``db_name`` (the file's stem)."""
    title = f"Trictrac — {club}" if club else "Trictrac — les parties du club"
    return {
        "title": title,
        "description": "Games of Grand Trictrac recorded by the club, verified by trictrac-records. "
        "Identifiers: each game's label (date, players, round); findings cite RULES.md.",
        "license": "as the club decides",
        "databases": {db_name: {"title": title, "tables": _TABLES, "queries": CANNED_QUERIES}},
    }


def metadata_path(db_path: str | Path) -> Path:
    p = Path(db_path)
    return p.with_name(p.stem + ".metadata.json")


def write_metadata(db_path: str | Path, out: str | Path | None = None, club: str | None = None) -> Path:
    """Write the metadata for ``db_path`` (default ``<stem>.metadata.json`` beside it), whole or not at all."""
    from ..notation.textio import atomic_write_text

    target = Path(out) if out is not None else metadata_path(db_path)
    atomic_write_text(
        target, json.dumps(datasette_metadata(Path(db_path).stem, club), ensure_ascii=False, indent=2) + "\n"
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
