"""The rows of one game (``games``, ``marques``, ``releves``, ``coups``, ``marks``,
``comments``, ``findings``, ``results``) built from its record and its verifier report, outside
any transaction; :mod:`trictrac.club.store` writes them.  Pure: no database here."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import cache
from typing import TYPE_CHECKING, Any

from ..notation.dates import parse_date as _parse_date
from ..notation.names import player_name
from ..notation.record import (
    Comment,
    Correction,
    Coup,
    Decision,
    Ecole,
    FaitMarquer,
    Force,
    Glyph,
    JouePourTout,
    Mark,
    MarqueResult,
    MarqueStart,
    NeMarquePas,
    Pavillon,
    Record,
    ReleveStart,
    Remet,
    Replay,
)
from ..notation.visitor import ActionVisitor, RecordVisitor, visit_action, visit_element
from ..notation.writer import COUP_WIDTH, CoupValue, MarkRow, write_action, write_moves, write_record
from ..replay.verifier.findings import FINDING_KINDS
from ..replay.verifier.result import GameResult, game_result
from .identity import game_key, game_label

if TYPE_CHECKING:  # loaded by standing_game only: an import does without it (its load, issue 30)
    from .standings import StandingGame

SEATS = ("A", "B", "C", "D")


# --- helpers -----------------------------------------------------------------------------


def game_id_of(canonical: str) -> str:
    """The game id: SHA-256 (hex) of the canonical text, so a game has one id wherever it
    was read from."""
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def parse_date(text: str | None) -> str | None:
    """``YYYY[-MM[-DD]]`` from a Date header (``2024.03.15``, ``2024-03-15``,
    ``15/03/2024``, ``2024.??.??``); None when it holds no real date in ASCII digits
    (read once: :func:`trictrac.notation.dates.parse_date`, issue 27)."""
    return _parse_date(text)[0]


def season_of(date_iso: str | None, start_month: int = 1) -> str | None:
    """The club season of a date.

    ``start_month == 1`` (the default rule): the season is the calendar year, ``"2024"``.
    Otherwise a season runs from ``start_month`` to the month before it in the next year
    and is named by both years, ``"2024-2025"``; a date without a month belongs to the
    season that starts in its year.
    """
    if not date_iso:
        return None
    year = int(date_iso[:4])
    if start_month == 1:
        return f"{year}"
    month = int(date_iso[5:7]) if len(date_iso) >= 7 else start_month
    first = year if month >= start_month else year - 1
    return f"{first}-{first + 1}"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def moves_text(coup: Coup) -> str:
    """The coup's checker moves in canonical notation (``notation.writer``): ``1/7 1/6``,
    ``19/off``, ``-5`` for "cannot play a 5"; ``-`` when no move is written."""
    return write_moves(coup)


def _diag_dict(d: Any) -> dict[str, Any]:
    if hasattr(d, "as_dict"):
        return d.as_dict()
    if isinstance(d, dict):
        return d
    return {"message": str(d)}


def _score_of(final_score: Any, seat: str) -> Any:
    """A seat's PlayerScore in the verifier's final score (ScoreState or dict), or None."""
    if final_score is None:
        return None
    try:
        return final_score[seat]
    except (KeyError, IndexError, TypeError, ValueError):
        return getattr(final_score, seat.lower(), None)


def _get(obj: Any, name: str) -> Any:
    return obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)


# --- building the rows of one game ---------------------------------------------------------

# Each table's rows use *local* ids 1..n; the store adds the table's current max id.
_ID_TABLES = ("marques", "releves", "marks", "comments", "findings")  # coups: keyed (game, seq)


#: the columns of a ``games`` row as built (``games.id`` is given by the store)
GAME_COLS = (
    "sha256", "label", "game_key", "event", "site", "date", "date_iso", "season", "round", "partie",
    "profile", "mode", "start_position", "result", "annotator", "n_releves", "n_marques", "n_coups",
    "n_findings", "verified", "stopped", "notes", "headers", "diagnostics", "canonical", "source",
    "source_file", "source_line", "source_end_line", "engine_version", "imported_at",
    "kind", "finished", "winner",
)  # fmt: skip
G_SHA256, G_LABEL, G_KEY, G_DATE_ISO, G_SEASON = 0, 1, 2, 6, 7
G_N_RELEVES, G_N_COUPS = 15, 17
G_SOURCE_FILE, G_SOURCE_LINE, G_SOURCE_END = 26, 27, 28
G_IMPORTED_AT, G_KIND = 30, 31
assert [GAME_COLS[i] for i in (G_KEY, G_SEASON, G_N_COUPS, G_SOURCE_END, G_IMPORTED_AT)] == [
    "game_key", "season", "n_coups", "source_end_line", "imported_at"
]  # fmt: skip


@dataclass(slots=True)
class _GameRows:
    game: list[Any]  # GAME_COLS
    names: dict[str, str]  # seat -> player name
    marques: list[list[Any]] = field(default_factory=list)
    releves: list[list[Any]] = field(default_factory=list)
    coups: list[CoupValue] = field(default_factory=list)  # notation.writer.write_record's coups_out (flat)
    marks: list[tuple[Any, ...]] = field(default_factory=list)  # in id order, MARK_SHAPES
    comments: list[list[Any]] = field(default_factory=list)
    findings: list[list[Any]] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)


class _RowsWalker(RecordVisitor[None]):
    """One walk over a record's movetext (``notation.visitor``) filling the ``marques``,
    ``releves``, ``marks`` and ``comments`` rows of ``rows`` (its coups: :func:`_walk`)."""

    def __init__(self, rows: _GameRows, gid: str) -> None:
        self.rows, self.gid = rows, gid
        self.seq = 0  # the element's index in the movetext
        self.marque: list[Any] | None = None  # current marqué row
        self.releve_id: int | None = None
        # one visitor, reused; it holds the marqué's pair itself, not a method of this walker:
        # no reference cycle, so the game's rows are freed as soon as they are stored, not
        # left to the cyclic collector (issue 30: ~300 objects a game)
        self.mark_rows = _MarkRow("A")
        self.action_rows: list[tuple[Any, ...]] = []  # the marks rows of the actions that are not marks

    def _new_marque(self, number: int, players: tuple[str, str] | None, span: Any) -> list[Any]:
        row = [
            len(self.rows.marques) + 1,
            self.gid,
            number,
            self.seq,
            *(players or ("A", "B")),
            None,
            None,
            None,
            None,
            None,
            None,
            span.line or None,
            span.col or None,
        ]
        self.rows.marques.append(row)
        return row

    def visit_marque_start(self, start: MarqueStart) -> None:
        self.marque = self._new_marque(start.number, start.players, start.span)
        self.mark_rows.pair = start.players or ("A", "B")
        self.releve_id = None

    def visit_marque_result(self, result: MarqueResult) -> None:
        if self.marque is None or self.marque[10] is not None:  # a result without its start
            self.marque = self._new_marque(len(self.rows.marques) + 1, None, result.span)
        self.marque[6:12] = [
            result.winner,
            result.winner_holes,
            result.loser_holes,
            result.bredouille,
            int(result.refait),
            result.value,
        ]

    def visit_releve_start(self, start: ReleveStart) -> None:
        self.releve_id = len(self.rows.releves) + 1
        self.rows.releves.append(
            [
                self.releve_id,
                self.gid,
                self.marque[0] if self.marque else None,
                start.number,
                self.seq,
                start.span.line or None,
                start.span.col or None,
            ]
        )

    def _actions(self, coup: Coup, seq: int, first: int) -> None:
        """The marks rows (:data:`MARK_SHAPES`) of a coup's actions but its marks and decisions
        (``notation.writer`` wrote those): ``seq`` the coup's index, ``first`` the id of its
        first action."""
        append = self.action_rows.append
        visitor = self.mark_rows
        side = visitor.side = coup.side
        for k, (phase, a) in enumerate([*(("before", a) for a in coup.before), *(("after", a) for a in coup.after)]):
            if type(a) is Mark or type(a) is Decision:  # written with the text
                continue
            kind, fields = visitor.of(a)
            if type(a) is Comment:
                self._comment(a, seq + 1)
            span = a.span
            append(
                (first + k, seq, k, phase, kind, *fields, write_action(a, side), span.line or None, span.col or None)
            )

    def visit_comment(self, comment: Comment) -> None:
        self._comment(comment, None)

    def _comment(self, comment: Comment, cid: int | None) -> None:
        self.rows.comments.append(
            [
                len(self.rows.comments) + 1,
                self.gid,
                cid,
                comment.text,
                comment.span.line or None,
                comment.span.col or None,
            ]
        )


def _build_rows(
    rec: Record,
    gid: str,
    canonical: str,
    report: Any,
    *,
    profile_name: str,
    parse_diagnostics: Sequence[Any],
    source_file: str | None,
    source: str | None,
    season_start_month: int,
    engine_version: str,
    key: str | None = None,
    lang: str = "fr",
    written: Written | None = None,
) -> _GameRows:
    h = rec.headers
    names = {s: name for s in SEATS if (name := player_name(h.get(s, "")))}
    date_iso = parse_date(h.get("Date"))
    findings = list(_get(report, "findings") or ()) if report is not None else []
    diags = [_diag_dict(d) for d in parse_diagnostics]
    if report is not None:
        diags += [_diag_dict(d) for d in (_get(report, "diagnostics") or ())]
    # the verifier's assumptions in the import's language, as the findings' messages
    said = (_get(report, "notes") or ()) if report is not None else ()
    notes = [n.say(lang) if hasattr(n, "say") else str(n) for n in said]
    span = rec.span
    rows = _GameRows(
        game=[  # GAME_COLS
            gid,
            game_label(h, date_iso),
            key or game_key(h, gid),
            h.get("Event"),
            h.get("Site"),
            h.get("Date"),
            date_iso,
            season_of(date_iso, season_start_month),
            h.get("Round"),
            h.get("Partie"),
            profile_name,
            rec.mode,
            rec.start,
            h.get("Result"),
            h.get("Annotator"),
            0,  # n_releves, n_marques, n_coups: set below, from the walk
            0,
            0,
            len(findings),
            int(report is not None),
            _bool_int(_get(report, "stopped")) if report is not None else None,
            json.dumps(notes, ensure_ascii=False),
            json.dumps(h, ensure_ascii=False),
            json.dumps(diags, ensure_ascii=False),
            canonical,
            None if source is None or source.rstrip("\n") == canonical.rstrip("\n") else source,
            source_file,
            span.line or None,
            _last_line(span, source),
            engine_version,
            _now(),
            None,  # kind, finished, winner: set below, from the result
            0,
            None,
        ],
        names=names,
    )

    sections = _walk(rec, rows, gid, written)
    rows.game[G_N_RELEVES : G_N_COUPS + 1] = [len(rows.releves), len(rows.marques), len(rows.coups) // COUP_WIDTH]
    if findings:
        rows.findings = _finding_rows(findings, rows, gid, lang)
    result = game_result(report, _Sections(rec.headers, sections))  # what it reads of the record
    rows.game[G_KIND:] = [result.kind, int(result.finished), result.winner]
    rows.results = _results(result, names, _get(report, "final_score") if report is not None else None)
    return rows


def _last_line(span: Any, source: str | None) -> int | None:
    """The game's last line in its file: its first line and the lines of its text as read
    (blank lines after it are not the game's)."""
    if not span.line:
        return None
    if source is not None:
        return int(span.line + source.rstrip("\n").count("\n"))
    return span.end_line or None


def _walk(rec: Record, rows: _GameRows, gid: str, written: Written | None = None) -> list[Any]:
    """Fill the movetext rows of ``rows`` in one walk (:class:`_RowsWalker`); ``written``: the
    rows of the coups and marks written with the canonical text (:func:`write_with_rows`).
    The record's elements that are not coups, in order."""
    walker = _RowsWalker(rows, gid)
    if written is None:
        written = write_with_rows(rec)[1]
    # ~290 coups a game and their marks, one tuple each in the order of the store's columns
    # (it binds them as they are: club.store), built by the writer with the text (compiled with
    # it); here only the other elements and the coups' other actions
    # (_coup_index builds the keys of findings from these rows, only for a game with findings)
    rows.coups, marks, others = written
    elements = rec.elements
    sections = []
    for i, seq, first in others:
        el = elements[i]
        if seq >= 0:
            walker._actions(el, seq, first)  # type: ignore[arg-type]
        else:
            walker.seq = i
            visit_element(el, walker)
            sections.append(el)
    if walker.action_rows:  # in id order, the game's actions' (stored in that order: no page split)
        rows.marks = sorted([*marks, *walker.action_rows])
    else:
        rows.marks = marks
    return sections


@dataclass(frozen=True, slots=True)
class _Sections:
    """A record's headers and its elements that are not coups: all that
    ``replay.verifier.result.game_result`` reads of a record (its seats, its marqués and
    their results), without a pass over its ~290 coups (issue 30)."""

    headers: dict[str, str]
    elements: list[Any]


#: what :func:`write_with_rows` gives beside the text: the rows of the coups, of their marks,
#: and the other elements to read (``notation.writer.write_record``'s outputs)
Written = tuple[list[CoupValue], list[MarkRow], list[tuple[int, int, int]]]


def write_with_rows(rec: Record) -> tuple[str, Written]:
    """A record's canonical text and the rows of its coups and marks, written in one pass."""
    coups: list[CoupValue] = []
    marks: list[MarkRow] = []
    others: list[tuple[int, int, int]] = []
    return write_record(rec, None, coups, marks, others), (coups, marks, others)


def _coup_index(rows: _GameRows) -> tuple[dict[tuple[int, int, int], int], list[tuple[int | None, int]]]:
    """The coups of ``rows`` by (marqué, relevé, number) (the first one of each) and
    their (line, local id) in order: where a finding points."""
    marques, releves = rows.marques, rows.releves
    keys: dict[tuple[int, int, int], int] = {}
    lines = []
    flat = rows.coups
    for i in range(0, len(flat), COUP_WIDTH):  # releve_id 0, seq 1, number 2, line 7; local id: seq + 1
        c: list[Any] = flat[i : i + COUP_WIDTH]
        rel = releves[c[0] - 1] if c[0] else None
        mloc = rel[2] if rel else None  # the relevé's marqué
        mnum = marques[mloc - 1][2] if mloc else 0
        keys.setdefault((mnum, rel[3] if rel else 0, c[2]), c[1] + 1)
        lines.append((c[7], c[1] + 1))
    return keys, lines


def _finding_rows(findings: list[Any], rows: _GameRows, gid: str, lang: str = "fr") -> list[list[Any]]:
    """The ``findings`` rows (columns of ``_FINDING_COLS``), each tied to its coup, its
    message in ``lang`` (said once a finding, by the catalogue)."""
    from ..replay.verifier.findings import Finding, say

    index_of: tuple[dict[tuple[int, int, int], int], list[tuple[int | None, int]]] | None = None  # built if needed
    n_coups = len(rows.coups) // COUP_WIDTH
    out: list[list[Any]] = []
    for i, f in enumerate(findings):
        # The finding's coup: its 0-based index in the game, else (marqué, relevé, number),
        # else the last coup written before its line.
        key = (_get(f, "marque") or 0, _get(f, "releve") or 0, _get(f, "coup") or 0)
        index = _get(f, "index")
        cid = index + 1 if isinstance(index, int) and 0 <= index < n_coups else None
        if cid is not None and key[2] and rows.coups[(cid - 1) * COUP_WIDTH + 2] != key[2]:
            cid = None  # the verifier counted a coup the record left out (recovered from): by number
        if cid is None:  # the coups by key and by line, for the findings the verifier did not place
            index_of = index_of or _coup_index(rows)
            cid = index_of[0].get(key)
        line = _get(f, "line") or None
        if cid is None and line and key[2]:
            before = [c for ln, c in (index_of or _coup_index(rows))[1] if ln and ln <= line]
            cid = before[-1] if before else None
        ent, mk = _get(f, "entitled"), _get(f, "marked")
        alts = _get(f, "alternatives")
        out.append(
            [
                len(out) + 1,
                gid,
                cid,
                i,
                key[1] or None,
                key[0] or None,
                key[2] or None,
                line,
                _get(f, "col") or None,
                _get(f, "who"),
                _get(f, "who"),
                str(_get(f, "kind")),
                _int(ent),
                _int(mk),
                _str_or_none(_get(f, "consequence")) or None,
                _str_or_none(_get(f, "rule")) or None,
                _str_or_none(_get(f, "detail")),
                json.dumps(list(alts), ensure_ascii=False) if alts else None,
                say(f, lang).message if isinstance(f, Finding) else str(_get(f, "message") or ""),
            ]
        )
    return out


def standing_game(rec: Record, report: Any, key: str) -> StandingGame:
    """The row :func:`trictrac.club.standings.compute_standings` takes for one verified
    game (``key`` names it), from the very rows :func:`import_records` stores: a
    published site's standings and the database's agree."""
    from .standings import MarqueRow, SeatRow, StandingGame

    rows = _build_rows(
        rec,
        key,
        "",
        report,
        profile_name="",
        parse_diagnostics=(),
        source_file=None,
        source=None,
        season_start_month=1,
        engine_version="",
    )
    names = rows.names
    ecoles: dict[str, list[int]] = {}
    for k in rows.marks:  # MARK_SHAPES: kind at 4, claimant seat at 5, the seat that made it 6, points 7
        if k[4] != "ecole":
            continue
        points = k[7] or 0
        if k[6] in names:
            e = ecoles.setdefault(k[6], [0, 0, 0, 0])
            e[0] += 1
            e[1] += points
        if k[5] in names:
            e = ecoles.setdefault(k[5], [0, 0, 0, 0])
            e[2] += 1
            e[3] += points
    seats = tuple(
        SeatRow(names[r["seat"]], r["holes"], r["outcome"], *ecoles.get(r["seat"], (0, 0, 0, 0)))
        for r in rows.results
        if r["seat"] in names
    )
    marques = []
    for m in rows.marques:  # _MARQUE_COLS: seat_x 4, seat_y 5, winner 6, bredouille 9, value 11
        winner, x, y = m[6], m[4], m[5]
        loser = y if winner == x else x if winner == y else None
        if loser is not None and winner in names and loser in names:
            marques.append(MarqueRow(names[winner], names[loser], m[11], m[9] or "none"))
    g = rows.game
    return StandingGame(
        key,
        g[G_LABEL],
        g[G_DATE_ISO],
        g[G_SEASON],
        "douze-trous" if g[G_KIND] == "douze-trous" else "a-ecrire",
        seats,
        tuple(marques),
    )


def _str_or_none(v: Any) -> str | None:
    return None if v is None else str(v)


#: the two shapes of a ``marks`` row as built: ``(id, coup seq, seq, phase, kind, *columns, token,
#: line, col)`` (``id`` local to the game: the action's ordinal in it).  A mark or a decision
#: (nearly every action) fills the short one: the columns it leaves empty are not bound (a
#: NULL bound from Python costs the ``sqlite3`` module ten times an integer: issue 30); every
#: other kind the long one.  ``who`` and ``against`` are seats: the store writes their players'
#: ids beside them.
MARK_SHAPES: tuple[tuple[str, ...], tuple[str, ...]] = (
    ("who", "points", "holes", "bredouille", "leave"),
    ("who", "against", "points", "holes", "bredouille", "leave", "reason", "text"),
)
MARK_HEAD = 5  # id, coup seq, seq, phase, kind: then the shape's columns, then token, line, col
_BOOL_INT: dict[bool | None, int | None] = {None: None, True: 1, False: 0}


class _MarkRow(ActionVisitor[tuple[str, tuple[Any, ...]]]):
    """One action of a coup (not a :class:`Mark` nor a :class:`Decision`: ``notation.writer``
    writes their rows with the text) as its kind and the values of its columns (:data:`MARK_SHAPES`); ``side`` is the coup's
    roller (the token of a replay says whether he or his opponent decided), ``pair`` the two
    seats of the marqué (an école's claimant's opponent made it)."""

    def __init__(self, side: str) -> None:
        self.side = side
        self.pair: tuple[str, str] = ("A", "B")  # who plays the current marqué

    def opponent(self, seat: str) -> str | None:
        pair = self.pair
        return pair[1] if seat == pair[0] else pair[0] if seat == pair[1] else None

    def of(self, a: Any) -> tuple[str, tuple[Any, ...]]:
        row = visit_action(a, self)
        if row is None:  # a move is no action of a marks row
            raise TypeError(f"unknown action {type(a).__name__}")
        return row

    def _long(
        self,
        kind: str,
        who: str | None,
        against: str | None = None,
        points: int | None = None,
        holes: int | None = None,
        bredouille: bool | None = None,
        reason: str | None = None,
        text: str | None = None,
    ) -> tuple[str, tuple[Any, ...]]:
        return kind, (who, against, points, holes, _BOOL_INT[bredouille], None, reason, text)

    def visit_ne_marque_pas(self, token: NeMarquePas) -> tuple[str, tuple[Any, ...]]:
        return self._long("ne-marque-pas", token.who)

    def visit_ecole(self, ecole: Ecole) -> tuple[str, tuple[Any, ...]]:
        # The école is claimed against the claimant's opponent, who made it (RULES.md §7).
        return self._long("ecole", ecole.claimant, self.opponent(ecole.claimant), ecole.points, reason=ecole.reason)

    def visit_correction(self, correction: Correction) -> tuple[str, tuple[Any, ...]]:
        return self._long(
            "correction", correction.who, None, correction.points, correction.holes, reason=correction.reason
        )

    def visit_joue_pour_tout(self, token: JouePourTout) -> tuple[str, tuple[Any, ...]]:
        return self._long("joue-pour-tout", token.who)

    def visit_pavillon(self, token: Pavillon) -> tuple[str, tuple[Any, ...]]:
        # prendre le pavillon: ``who`` sets the mark of hole-bredouille (RULES.md §5.4; 001 r.58)
        return self._long("pavillon", token.who)

    def visit_replay(self, replay: Replay) -> tuple[str, tuple[Any, ...]]:
        # A table remedy (RULES.md §9.5; 003 §192, §211, §216): ``who`` decided it, ``text``
        # holds the moves played again as written between the parentheses.
        return self._long("replay", replay.who, text=" ".join(map(write_action, replay.moves)) or "--")

    def visit_force(self, force: Force) -> tuple[str, tuple[Any, ...]]:
        # the opponent obliges the roller to play these moves (RULES.md §3.8 P5; 003 §213)
        moves = " ".join(map(write_action, force.moves)) or "--"
        return self._long("force", force.who, self.side if force.who != self.side else None, text=moves)

    def visit_fait_marquer(self, token: FaitMarquer) -> tuple[str, tuple[Any, ...]]:
        # ``who`` obliges the other player to mark (003 §186)
        m = token.mark
        return self._long("fait-marquer", token.who, m.who, m.points, m.holes, m.bredouille)

    def visit_remet(self, remet: Remet) -> tuple[str, tuple[Any, ...]]:
        # ``who`` puts ``target``'s jeton back by ``points`` (003 §181, §187; 001 r.56, r.67)
        return self._long("remet", remet.who, remet.target, remet.points, remet.holes)

    def visit_comment(self, comment: Comment) -> tuple[str, tuple[Any, ...]]:
        return self._long("comment", None, text=comment.text)

    def visit_glyph(self, glyph: Glyph) -> tuple[str, tuple[Any, ...]]:
        return self._long("glyph", None, text=glyph.glyph)


def _results(result: GameResult, names: dict[str, str], final_score: Any) -> list[dict[str, Any]]:
    """One row per seat, from the game's one result (:func:`trictrac.replay.verifier.result.game_result`):
    holes, marqués won and lost and their net value, the outcome (None while the partie is not
    finished); the points, bredouille and pavillon of the final score (two seats)."""
    two = result.two_seats
    out = []
    for s, r in result.seats.items():
        sc = _score_of(final_score, s) if two else None
        out.append(
            {
                "seat": s,
                "name": names.get(s),
                "opponent_seat": ("B" if s == "A" else "A") if two else None,
                "holes": r.holes if two else None,
                "points": _int(_get(sc, "points")) if sc is not None else None,
                "bredouille": _bool_int(_get(sc, "bredouille")) if sc is not None else None,
                "pavillon": _bool_int(_get(sc, "pavillon")) if sc is not None else None,
                "marques_won": r.marques_won,
                "marques_lost": r.marques_lost,
                "marque_value": r.marque_value,
                "outcome": r.outcome,
            }
        )
    return out


def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _bool_int(v: Any) -> int | None:
    return int(v) if isinstance(v, bool) else None


# --- the words the full-text indexes hold -------------------------------------------------------

#: the finding kinds that are écoles (RULES.md §7; ``queries.ECOLE_FINDINGS`` in SQL)
ECOLE_KINDS_EXTRA = frozenset(("unclaimed-ecole", "fausse-ecole", "must-fill", "must-conserve"))

#: what an école claimed is called, in French and English (``ecoles_fts.terms``)
ECOLE_CLAIM_TERMS = "école réclamée école claimed"


def is_ecole_kind(kind: str) -> bool:
    return kind.startswith("ecole") or kind in ECOLE_KINDS_EXTRA


@cache
def kind_terms(kind: str) -> str:
    """The words ``findings_fts.terms`` holds for a kind of finding: its id spelled with spaces
    (``ecole par trop``), its names in the catalogue's languages (``école par trop``,
    ``école par trop (over-marked)``), and ``école`` for every kind that is one, so that a
    club finds it in either language, accents or not (the tokenizer folds them)."""
    from ..replay.verifier.findings import kind_name
    from ..words import LANGS

    words = [kind.replace("-", " ")]
    if kind in FINDING_KINDS:
        words += [kind_name(kind, lang) for lang in LANGS]
    if is_ecole_kind(kind):
        words.append("école")
    return " ".join(w for w in words if w)


def finding_fts_rows(findings: Iterable[Sequence[Any]]) -> list[tuple[Any, str, Any, Any]]:
    """``findings_fts`` rows ``(rowid, terms, message, detail)`` of ``(id, kind, message, detail)``."""
    return [(fid, kind_terms(kind), message, detail) for fid, kind, message, detail in findings]


def ecole_fts_rows(claims: Iterable[Sequence[Any]]) -> list[tuple[Any, str, Any]]:
    """``ecoles_fts`` rows ``(rowid, terms, reason)`` of école marks ``(id, token, reason)``."""
    return [(mid, f"{token} {ECOLE_CLAIM_TERMS}", reason) for mid, token, reason in claims]
