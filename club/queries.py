"""What a club asks its database: results by season, écoles, bredouilles, head-to-head, search.

Every function takes an open :class:`sqlite_utils.Database` (``club.db.open_db``) and
returns plain dicts and lists, ready for ``--json``.  The CLI (``trictrac db …``) prints
them; Datasette shows the same data through the views of ``club.schema``.

Seasons follow the rule stored in ``meta.season_start_month`` (``club.db.season_of``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .db import SEARCH_KINDS, GameNotFound, resolve_game  # noqa: F401 - GameNotFound re-exported
from .words import ClubError

if TYPE_CHECKING:  # only named in annotations: ``db import`` runs without loading sqlite-utils
    from sqlite_utils import Database

__all__ = [
    "SEARCH_KINDS",
    "DamagedDatabase",
    "PlayerNotFound",
    "bredouille_marques",
    "club_stats",
    "ecoles",
    "find_player",
    "game_detail",
    "head_to_head",
    "list_games",
    "list_players",
    "player_results",
    "search",
]


class PlayerNotFound(ClubError):
    """No stored player has this name."""


class DamagedDatabase(ClubError):
    """A stored value is not what the schema says (e.g. ``games.headers`` not JSON)."""


def _rows(db: Database, sql: str, params: Any = ()) -> list[dict[str, Any]]:
    cur = db.conn.execute(sql, params)
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r)) for r in cur.fetchall()]


def find_player(db: Database, name: str) -> dict[str, Any]:
    """The player called ``name``: the exact name, else case-insensitive, else a unique
    prefix of the name, else the one player whose name has these words (full-text,
    accents folded: ``berard`` finds *Élise Bérard*)."""
    for sql, arg in (
        ("SELECT id, name FROM players WHERE name = ?", name),
        ("SELECT id, name FROM players WHERE name = ? COLLATE NOCASE", name),
        ("SELECT id, name FROM players WHERE name LIKE ? ESCAPE '\\'", _like_prefix(name)),
        (
            "SELECT p.id, p.name FROM players_fts JOIN players p ON p.id = players_fts.rowid WHERE players_fts MATCH ?",
            _fts_query(name),
        ),
    ):
        if not arg:
            continue
        rows = _rows(db, sql, (arg,))
        if len(rows) == 1:
            return rows[0]
        if len(rows) > 1:
            raise PlayerNotFound("player_ambiguous", name=name, names=", ".join(r["name"] for r in rows[:10]))
    raise PlayerNotFound("no_player", name=name)


def _like_prefix(text: str) -> str:
    return re.sub(r"([%_\\])", r"\\\1", text) + "%"


def _filters(
    player_id: int | None, season: str | None, *, player_col: str, season_col: str = "season"
) -> tuple[str, list[Any]]:
    where: list[str] = []
    params: list[Any] = []
    if player_id is not None:
        where.append(f"{player_col} = ?")
        params.append(player_id)
    if season is not None:
        where.append(f"{season_col} = ?")
        params.append(season)
    return (" WHERE " + " AND ".join(where) if where else ""), params


# --- games and players ------------------------------------------------------------------------


# game_list's columns but its integer key (the JSON shape of ``db games``)
_GAME_LIST_COLS = (
    "game, date, season, event, site, partie, player_a, player_b, holes_a, holes_b, winner, result, "
    "n_coups, n_findings, mode, profile, round, id"
)


def list_games(
    db: Database, *, player: str | None = None, season: str | None = None, limit: int | None = None
) -> list[dict[str, Any]]:
    """Stored games, oldest first: date, season, event, players, holes, winner, findings.

    In the CLI: ``trictrac db games``."""
    sql = f"SELECT {_GAME_LIST_COLS} FROM game_list"
    where, params = [], []
    if player is not None:
        pid = find_player(db, player)["id"]
        where.append("game_ref IN (SELECT game_id FROM game_players WHERE player_id = ?)")
        params.append(pid)
    if season is not None:
        where.append("season = ?")
        params.append(season)
    if where:
        sql += " WHERE " + " AND ".join(where)
    sql += " ORDER BY date IS NULL, date, event, id"
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    return _rows(db, sql, params)


def list_players(db: Database) -> list[dict[str, Any]]:
    """Every player with games played, won, lost, unfinished, marqués and écoles.

    In the CLI: ``trictrac db players``."""
    return _rows(
        db,
        """
        SELECT p.name,
               COUNT(r.game_id) AS games,
               COALESCE(SUM(r.outcome = 'win'), 0) AS wins,
               COALESCE(SUM(r.outcome = 'loss'), 0) AS losses,
               COALESCE(SUM(r.outcome = 'draw'), 0) AS draws,
               COALESCE(SUM(r.outcome IS NULL AND r.game_id IS NOT NULL), 0) AS unfinished,
               COALESCE(SUM(r.marques_won), 0) AS marques_won,
               COALESCE(SUM(r.marques_lost), 0) AS marques_lost,
               (SELECT COUNT(*) FROM marks k WHERE k.kind = 'ecole' AND k.player_id = p.id) AS ecoles_claimed,
               (SELECT COUNT(*) FROM marks k WHERE k.kind = 'ecole' AND k.against_id = p.id) AS ecoles_made,
               MIN(g.date_iso) AS first_date, MAX(g.date_iso) AS last_date
        FROM players p
        LEFT JOIN results r ON r.player_id = p.id
        LEFT JOIN games g ON g.id = r.game_id
        GROUP BY p.id ORDER BY p.name""",
    )


def resolve_game_id(db: Database, game_id: str) -> str:
    """The full id of a game from its id, a unique prefix (at least 4 hex digits), its
    label or its GameId (``club.db.resolve_game``)."""
    return resolve_game(db.conn, game_id)


def game_detail(db: Database, game_id: str) -> dict[str, Any]:
    """One game with everything stored about it: header, players, results, marqués,
    relevés, coups with their actions in order, comments and findings.

    In the CLI: ``trictrac db show``."""
    sha = resolve_game_id(db, game_id)
    game = _rows(db, "SELECT * FROM games WHERE sha256 = ?", (sha,))[0]
    gid = game.pop("id")  # the integer key the rows name; the public id is the hash
    game = {"id": game.pop("sha256"), **game}
    if game["source"] is None:  # stored once when the game was read as written canonically
        game["source"] = game["canonical"]
    try:
        game["headers"] = json.loads(game["headers"])
    except (TypeError, ValueError):
        raise DamagedDatabase("bad_headers", game=sha[:12]) from None
    try:
        game["diagnostics"] = json.loads(game["diagnostics"])
        game["notes"] = json.loads(game["notes"])
    except (TypeError, ValueError):
        raise DamagedDatabase("bad_notes", game=sha[:12]) from None
    game["players"] = {
        r["seat"]: r["name"]
        for r in _rows(
            db,
            "SELECT gp.seat, p.name FROM game_players gp JOIN players p ON p.id = gp.player_id "
            "WHERE gp.game_id = ? ORDER BY gp.seat",
            (gid,),
        )
    }
    game["results"] = _rows(
        db,
        "SELECT seat, holes, points, bredouille, pavillon, marques_won, marques_lost, "
        "marque_value, outcome FROM results WHERE game_id = ? ORDER BY seat",
        (gid,),
    )
    game["marques"] = _rows(
        db,
        "SELECT id, number, seat_x, seat_y, winner, winner_holes, loser_holes, bredouille, "
        "refait, value, line FROM marques WHERE game_id = ? ORDER BY seq",
        (gid,),
    )
    game["releves"] = _rows(
        db, "SELECT id, marque_id, number, line FROM releves WHERE game_id = ? ORDER BY seq", (gid,)
    )
    coups = _rows(
        db,
        "SELECT c.seq AS id, c.releve_id, r.marque_id, c.number, c.side, c.die1, c.die2, c.moves, c.line, c.col "
        "FROM coups c LEFT JOIN releves r ON r.id = c.releve_id WHERE c.game_id = ? ORDER BY c.seq",
        (gid,),
    )
    actions: dict[int, list[dict[str, Any]]] = {}
    for m in _rows(
        db,
        "SELECT coup_seq AS coup_id, phase, kind, who, against, points, holes, bredouille, leave, reason, text, "
        "line, col FROM marks WHERE game_id = ? ORDER BY coup_seq, seq",
        (gid,),
    ):
        cid = m.pop("coup_id")
        actions.setdefault(cid, []).append({k: v for k, v in m.items() if v is not None})
    for c in coups:
        c["roll"] = f"{c.pop('die1')}-{c.pop('die2')}"
        c["actions"] = actions.get(c["id"], [])
    game["coups"] = coups
    game["comments"] = _rows(
        db, "SELECT coup_seq AS coup_id, text, line, col FROM comments WHERE game_id = ? ORDER BY id", (gid,)
    )
    game["findings"] = _rows(
        db,
        "SELECT coup_seq AS coup_id, releve, marque, coup, line, col, who, kind, entitled, marked, "
        "consequence, rule, detail, alternatives, message FROM findings "
        "WHERE game_id = ? ORDER BY seq",
        (gid,),
    )
    for f in game["findings"]:
        f["alternatives"] = json.loads(f["alternatives"]) if f["alternatives"] else []
    return game


# --- what a club asks ---------------------------------------------------------------------------


def player_results(db: Database, player: str, *, season: str | None = None) -> dict[str, Any]:
    """A player's results and scores by season: games, wins, losses, holes won and
    conceded, marqués won and lost with their net value, and the games themselves.

    In the CLI: ``trictrac db games --player X`` (the games) and ``db players``."""
    p = find_player(db, player)
    where, params = _filters(p["id"], season, player_col="player_id")
    seasons = _rows(
        db,
        f"""
        SELECT season, COUNT(*) AS games,
               SUM(outcome = 'win') AS wins, SUM(outcome = 'loss') AS losses,
               SUM(outcome = 'draw') AS draws, SUM(outcome IS NULL) AS unfinished,
               SUM(holes) AS holes_for, SUM(holes_against) AS holes_against,
               SUM(marques_won) AS marques_won, SUM(marques_lost) AS marques_lost,
               SUM(marque_value) AS marque_value
        FROM player_games{where} GROUP BY season ORDER BY season IS NULL, season""",
        params,
    )
    games = _rows(
        db,
        f"SELECT game_id, date, season, event, partie, seat, opponent, outcome, holes, holes_against, "
        f"marques_won, marques_lost, marque_value FROM player_games{where} "
        f"ORDER BY date IS NULL, date, game_id",
        params,
    )
    return {"player": p["name"], "seasons": seasons, "games": games}


# The verifier's findings that are écoles (RULES.md §7): claimed or not (``unclaimed-ecole``),
# wrongly claimed, and the écoles of a plein not filled or not kept (§7.7).
ECOLE_FINDINGS = "(f.kind GLOB 'ecole*' OR f.kind IN ('unclaimed-ecole', 'fausse-ecole', 'must-fill', 'must-conserve'))"


def ecoles(db: Database, *, player: str | None = None, season: str | None = None) -> dict[str, Any]:
    """Who made and who claimed écoles (RULES.md §7).

    ``claimed``: every école written in the records (claimant, the player who made it,
    points, reason).  ``found_by_verifier``: every école finding of the verifier (kinds
    :data:`ECOLE_FINDINGS`), unclaimed écoles included, with who made it.  ``by_player``: per player the écoles claimed and made (count and
    points), and the école findings of the verifier charged to him (mistakes the
    opponent did or did not claim: kinds ``ecole-*``, ``fausse-ecole``).  With
    ``player`` only the écoles he claimed or made."""
    pid = find_player(db, player)["id"] if player is not None else None
    where, params = [], []
    if pid is not None:
        where.append("(claimant_id = ? OR made_by_id = ?)")
        params += [pid, pid]
    if season is not None:
        where.append("season = ?")
        params.append(season)
    w = " WHERE " + " AND ".join(where) if where else ""
    claimed = _rows(
        db,
        f"SELECT game, game_id, date, season, coup, line, claimant, made_by, points, reason "
        f"FROM ecoles{w} ORDER BY date IS NULL, date, game_id, id",
        params,
    )
    sw = " AND g.season = ?" if season is not None else ""
    sp = [season] if season is not None else []
    by_player = _rows(
        db,
        f"""
        SELECT p.name AS player,
          (SELECT COUNT(*) FROM marks k JOIN games g ON g.id = k.game_id
             WHERE k.kind = 'ecole' AND k.player_id = p.id{sw}) AS claimed,
          (SELECT COALESCE(SUM(k.points), 0) FROM marks k JOIN games g ON g.id = k.game_id
             WHERE k.kind = 'ecole' AND k.player_id = p.id{sw}) AS claimed_points,
          (SELECT COUNT(*) FROM marks k JOIN games g ON g.id = k.game_id
             WHERE k.kind = 'ecole' AND k.against_id = p.id{sw}) AS made,
          (SELECT COALESCE(SUM(k.points), 0) FROM marks k JOIN games g ON g.id = k.game_id
             WHERE k.kind = 'ecole' AND k.against_id = p.id{sw}) AS made_points,
          (SELECT COUNT(*) FROM findings f JOIN games g ON g.id = f.game_id
             WHERE f.player_id = p.id AND {ECOLE_FINDINGS}{sw}) AS found_by_verifier
        FROM players p {"WHERE p.id = ?" if pid is not None else ""} ORDER BY p.name""",
        sp * 5 + ([pid] if pid is not None else []),
    )
    by_player = [r for r in by_player if r["claimed"] or r["made"] or r["found_by_verifier"] or pid is not None]
    fw = " AND (f.player_id = ?)" if pid is not None else ""
    found = _rows(
        db,
        f"""
        SELECT g.label AS game, g.sha256 AS game_id, g.date_iso AS date, g.season, f.coup, f.line, f.kind,
               p.name AS made_by, f.entitled, f.marked, f.consequence, f.message
        FROM findings f JOIN games g ON g.id = f.game_id LEFT JOIN players p ON p.id = f.player_id
        WHERE {ECOLE_FINDINGS}{sw}{fw} ORDER BY g.date_iso IS NULL, g.date_iso, f.game_id, f.seq""",
        sp + ([pid] if pid is not None else []),
    )
    return {"claimed": claimed, "by_player": by_player, "found_by_verifier": found}


def bredouille_marques(db: Database, *, player: str | None = None, season: str | None = None) -> list[dict[str, Any]]:
    """Marqués won in bredouille, petite or grande (RULES.md §8.2), oldest first.
    With ``player``: the ones he won."""
    pid = find_player(db, player)["id"] if player is not None else None
    where, params = _filters(pid, season, player_col="winner_id")
    where = (where + " AND " if where else " WHERE ") + "bredouille IN ('petite', 'grande')"
    return _rows(
        db,
        f"SELECT game, game_id, date, season, number, winner, loser, winner_holes, loser_holes, bredouille, "
        f"value FROM marque_results{where} ORDER BY date IS NULL, date, game_id, number",
        params,
    )


def head_to_head(
    db: Database, player: str, opponent: str | None = None, *, season: str | None = None
) -> list[dict[str, Any]]:
    """A player's record against each opponent: two-player games (won, lost, unfinished,
    holes for and against) and marqués played against him in any partie."""
    p = find_player(db, player)
    op = find_player(db, opponent) if opponent is not None else None
    sw = " AND season = ?" if season is not None else ""
    sp = [season] if season is not None else []
    games = _rows(
        db,
        f"""
        SELECT opponent, opponent_id, COUNT(*) AS games, SUM(outcome = 'win') AS wins,
               SUM(outcome = 'loss') AS losses, SUM(outcome IS NULL) AS unfinished,
               SUM(holes) AS holes_for, SUM(holes_against) AS holes_against
        FROM player_games WHERE player_id = ? AND opponent_id IS NOT NULL{sw}
        GROUP BY opponent_id""",
        [p["id"], *sp],
    )
    marques = _rows(
        db,
        f"""
        SELECT CASE WHEN winner_id = ? THEN loser_id ELSE winner_id END AS opponent_id,
               SUM(winner_id = ?) AS marques_won, SUM(loser_id = ?) AS marques_lost,
               SUM(winner_id = ? AND bredouille != 'none') AS won_in_bredouille,
               SUM(loser_id = ? AND bredouille != 'none') AS lost_in_bredouille
        FROM marque_results WHERE game_ref IN (SELECT game_id FROM game_players WHERE player_id = ?)
          AND (winner_id = ? OR loser_id = ?){sw}
        GROUP BY 1""",
        [p["id"]] * 8 + sp,
    )
    table: dict[int, dict[str, Any]] = {}
    names = {r["id"]: r["name"] for r in _rows(db, "SELECT id, name FROM players")}
    zero = {
        "games": 0,
        "wins": 0,
        "losses": 0,
        "unfinished": 0,
        "holes_for": 0,
        "holes_against": 0,
        "marques_won": 0,
        "marques_lost": 0,
        "won_in_bredouille": 0,
        "lost_in_bredouille": 0,
    }
    for r in games + marques:
        oid = r["opponent_id"]
        if oid is None:
            continue
        row = table.setdefault(oid, {"player": p["name"], "opponent": names.get(oid), **zero})
        for k, v in r.items():
            if k in zero and v is not None:
                row[k] += v
    out = [r for oid, r in table.items() if op is None or oid == op["id"]]
    if op is not None and not out:
        out = [{"player": p["name"], "opponent": op["name"], **zero}]
    return sorted(out, key=lambda r: r["opponent"] or "")


def _fts_query(text: str) -> str:
    """Each word of ``text`` as a quoted FTS5 prefix term (all must match)."""
    words = re.findall(r"\w+", text)
    return " ".join(f'"{w}"*' for w in words)


# One full-text query per kind of hit: (kind, text, game label, game id, coup number, line, games).
_SEARCH_SQL = {
    "player": """
        SELECT 'player' AS kind, p.name AS text, NULL AS game, NULL AS game_id, NULL AS coup, NULL AS line,
               (SELECT COUNT(*) FROM game_players gp WHERE gp.player_id = p.id) AS games
        FROM players_fts JOIN players p ON p.id = players_fts.rowid
        WHERE players_fts MATCH ? ORDER BY rank LIMIT ?""",
    "comment": """
        SELECT 'comment' AS kind, c.text, g.label AS game, g.sha256 AS game_id, k.number AS coup, c.line,
               NULL AS games
        FROM comments_fts JOIN comments c ON c.id = comments_fts.rowid JOIN games g ON g.id = c.game_id
        LEFT JOIN coups k ON k.game_id = c.game_id AND k.seq = c.coup_seq
        WHERE comments_fts MATCH ? ORDER BY rank LIMIT ?""",
    "finding": """
        SELECT 'finding' AS kind, f.kind || ': ' || f.message AS text, g.label AS game, g.sha256 AS game_id,
               f.coup, f.line, NULL AS games
        FROM findings_fts JOIN findings f ON f.id = findings_fts.rowid JOIN games g ON g.id = f.game_id
        WHERE findings_fts MATCH ? ORDER BY rank LIMIT ?""",
    "ecole": """
        SELECT 'ecole' AS kind, k.token || COALESCE(' ' || k.reason, '') AS text, g.label AS game,
               g.sha256 AS game_id, c.number AS coup, k.line, NULL AS games
        FROM ecoles_fts JOIN marks k ON k.id = ecoles_fts.rowid JOIN games g ON g.id = k.game_id
        LEFT JOIN coups c ON c.game_id = k.game_id AND c.seq = k.coup_seq
        WHERE ecoles_fts MATCH ? ORDER BY rank LIMIT ?""",
}


def search(
    db: Database, text: str, *, limit: int = 50, everywhere: bool = True, kinds: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """Full-text search (accents folded, prefixes match, every word must match) over player
    names, comments, the verifier's findings (message and detail) and the reasons written
    with écoles; at most ``limit`` hits of each kind, in that order.

    Each hit has its ``kind`` (``player``, ``comment``, ``finding``, ``ecole``), ``text``,
    and for the last three its ``game`` (label), ``game_id``, ``coup`` and ``line``;
    a player has his number of ``games``.  ``kinds``: only these kinds
    (:data:`SEARCH_KINDS`); ``everywhere=False``: names and comments only (what the
    search once was).  In the CLI: ``trictrac db search`` (``--only``)."""
    wanted = tuple(kinds) if kinds is not None else SEARCH_KINDS if everywhere else ("player", "comment")
    unknown = [k for k in wanted if k not in _SEARCH_SQL]
    if unknown:
        raise ValueError(f"unknown kind of hit {unknown[0]!r}: one of {', '.join(SEARCH_KINDS)}")
    q = _fts_query(text)
    if not q:
        return []
    return [hit for kind in SEARCH_KINDS if kind in wanted for hit in _rows(db, _SEARCH_SQL[kind], (q, limit))]


# --- statistics --------------------------------------------------------------------------------


def club_stats(db: Database, *, profile: Any = None, corpus: bool = True) -> dict[str, Any]:
    """Club-level counts (games, players, coups, marks, écoles, findings by kind,
    bredouille marqués, seasons, import failures) and, when ``replay.verifier.stats`` is built,
    the corpus statistics of the stored games (re-read from their canonical text).

    In the CLI: ``trictrac db stats``."""
    one = lambda sql: db.conn.execute(sql).fetchone()[0]  # noqa: E731
    out: dict[str, Any] = {
        "games": one("SELECT COUNT(*) FROM games"),
        "players": one("SELECT COUNT(*) FROM players"),
        "coups": one("SELECT COUNT(*) FROM coups"),
        "marks": one("SELECT COUNT(*) FROM marks"),
        "marques": one("SELECT COUNT(*) FROM marques"),
        "releves": one("SELECT COUNT(*) FROM releves"),
        "comments": one("SELECT COUNT(*) FROM comments"),
        "ecoles_claimed": one("SELECT COUNT(*) FROM marks WHERE kind = 'ecole'"),
        "findings": one("SELECT COUNT(*) FROM findings"),
        "games_with_findings": one("SELECT COUNT(*) FROM games WHERE n_findings > 0"),
        "coups_with_findings": one(
            "SELECT COUNT(*) FROM (SELECT DISTINCT game_id, coup_seq FROM findings WHERE coup_seq IS NOT NULL)"
        ),
        "bredouille_marques": one("SELECT COUNT(*) FROM marques WHERE bredouille IN ('petite', 'grande')"),
        "import_failures": one("SELECT COUNT(*) FROM import_failures"),
        "findings_by_kind": {
            r["kind"]: r["n"]
            for r in _rows(db, "SELECT kind, COUNT(*) AS n FROM findings GROUP BY kind ORDER BY n DESC, kind")
        },
        "seasons": _rows(
            db, "SELECT season, COUNT(*) AS games FROM games GROUP BY season ORDER BY season IS NULL, season"
        ),
        "modes": {r["mode"]: r["n"] for r in _rows(db, "SELECT mode, COUNT(*) AS n FROM games GROUP BY mode")},
    }
    if corpus:
        out["corpus"] = _corpus_stats(db, profile)
        if out["corpus"] is not None:  # the findings stored at import, not verified again
            out["corpus"]["findings"] = {
                "counted": True,
                "findings": out["findings"],
                "games_with_findings": out["games_with_findings"],
                "coups_with_findings": out["coups_with_findings"],
            }
    return out


def _corpus_stats(db: Database, profile: Any) -> Any:
    try:
        from ..replay.verifier.stats import corpus_stats
    except ModuleNotFoundError as e:
        if e.name != "trictrac.replay.verifier.stats":
            raise
        return None
    from ..notation.reader import parse_text

    def records() -> Any:
        for (text,) in db.conn.execute("SELECT canonical FROM games ORDER BY rowid"):
            recs, _ = parse_text(text)
            yield from recs

    return corpus_stats(records(), profile, count_findings=False)  # None: each record's Profile header
