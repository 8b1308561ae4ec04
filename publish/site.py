"""Publish record files as a static site: ``index.html`` (the club's front page),
one page per game and one page per player (``joueurs/``).

``publish_files(paths, out_dir, profile=…, lang="fr")`` reads each file game by
game (``notation.reader.iter_records``, streaming), verifies each game
(``replay.verifier.verify.verify``), renders its page (:func:`trictrac.publish.html.render_game`)
and writes the players' pages and the index last.  One game that cannot be
verified is listed in the report and on the index; the others are still
published.  The site is built in a temporary folder beside ``out_dir`` and swapped
into place whole (``notation.textio.output_tree``): a reader, a full disk or a kill
sees the old site or the new one, never a mix; nothing is written through a link;
a write that fails names the output (issue 27 rows 4-6).
"""

from __future__ import annotations

import os
import re
import time
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..club.standings import StandingGame, compute_standings
from ..notation.names import player_name
from ..notation.textio import OSReason, OutputError, output_tree
from ..words import SaidError, Words, words
from .html import GameSummary, _title_of, game_page, page, render_index, render_player
from .i18n import labels
from .markup import esc
from .messages import partie_kind
from .rules_page import render_rules_page, rules_page_name
from .sheet import feuille_head
from .standings import STANDINGS, render_standings

__all__ = ["publish_files", "PublishReport", "page_name", "PublishError"]


class PublishError(SaidError):
    """API misuse (e.g. the output path is a file), or an output that could not be
    written (the message names it; the old site is left as it was): the catalogue's
    ``cli.publish.<code>`` and its fields (:class:`trictrac.words.SaidError`; an
    ``OutputError`` field said in the same language); ``str(e)`` is the English."""


_OURS = re.compile(r"\d{4}-[a-z0-9-]*\.html|index\.html|standings\.html|feuilles\.html|joueurs").fullmatch


def _ours(name: str) -> bool:
    """An entry a site published before manifests wrote (replaced, not kept)."""
    return _OURS(name) is not None


@dataclass(slots=True)
class PublishReport:
    """What :func:`publish_files` wrote."""

    out_dir: Path
    pages: list[Path] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)  # every file written: pages, index, players, sheets…
    games: int = 0
    findings: int = 0
    failures: list[tuple[str, int, str]] = field(default_factory=list)  # (file, game, message)
    diagnostics: list[Any] = field(default_factory=list)
    unreadable: list[tuple[str, str]] = field(default_factory=list)  # (file, message)
    seconds: float = 0.0
    #: each failure's and each unreadable file's why as data (said in the reader's
    #: language by :meth:`say_failure`, :meth:`say_unreadable`; the JSON keeps the English)
    failure_words: list[object] = field(default_factory=list, repr=False)
    unreadable_words: list[object] = field(default_factory=list, repr=False)

    def say_failure(self, i: int, lang: str | Words = "en") -> str:
        return _said(self.failure_words[i], lang) if i < len(self.failure_words) else self.failures[i][2]

    def say_unreadable(self, i: int, lang: str | Words = "en") -> str:
        return _said(self.unreadable_words[i], lang) if i < len(self.unreadable_words) else self.unreadable[i][1]

    @property
    def index(self) -> Path:
        return self.out_dir / "index.html"

    def as_dict(self) -> dict[str, Any]:
        return {
            "out_dir": str(self.out_dir),
            "index": str(self.index),
            "games": self.games,
            "pages": [str(p) for p in self.pages],
            "files": [str(p) for p in self.files],
            "findings": self.findings,
            "failures": [{"file": f, "game": g, "message": m} for f, g, m in self.failures],
            "unreadable": [{"file": f, "message": m} for f, m in self.unreadable],
            "diagnostics": [d.as_dict() for d in self.diagnostics],
            "seconds": round(self.seconds, 3),
            "pages_per_second": round(len(self.pages) / self.seconds, 1) if self.seconds else None,
        }


def _said(x: object, lang: str | Words) -> str:
    """Words as data said in ``lang`` (an error with words, a system's reason), else the text."""
    say = getattr(x, "say", None)
    return str(say(words(lang).lang)) if callable(say) else str(x)


_SLUG = re.compile(r"[^a-z0-9]+")


def _slug(text: str, limit: int = 32) -> str:
    ascii_ = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    return _SLUG.sub("-", ascii_).strip("-")[:limit].strip("-")


def page_name(number: int, headers: dict[str, str]) -> str:
    """A safe file name: ``0007-alice-bob.html`` (number + players, ASCII only,
    never a path separator, never hidden)."""
    parts = [f"{number:04d}"]
    for k in ("A", "B"):
        s = _slug(headers.get(k, ""))
        if s:
            parts.append(s)
    return "-".join(parts) + ".html"


PLAYERS_DIR = "joueurs"
SHEETS = "feuilles.html"


def _result_of(report: Any, record: Any, L: Any) -> str:
    """The game's result in words, from its one result (``replay.verifier.result.game_result``): what
    ``check``, the database and the standings say (a game not verified: its written result)."""
    from ..replay.verifier.result import game_result

    return game_result(report, record).text(L)


def player_pages(names: Iterable[str]) -> dict[str, str]:
    """Each player's page, ``joueurs/<slug>.html``; names that make the same slug
    are told apart by a number."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    last: dict[str, int] = {}  # the last number given to a base: n look-alikes cost n, not n^2
    for name in sorted(set(names), key=lambda n: (n.casefold(), n)):
        base = _slug(name, 48) or "joueur"
        slug, k = base, last.get(base, 1)
        while slug in taken:
            k += 1
            slug = f"{base}-{k}"
        last[base] = k
        taken.add(slug)
        out[name] = f"{PLAYERS_DIR}/{slug}.html"
    return out


def _play_analysis(record: Any, profile: Any) -> dict[str, Any] | None:
    """The play analysis of a record (issue 29; docs/analysis.md)."""
    from ..analysis.review import analyse_record

    return analyse_record(record, profile=profile)


def _build_site(
    tree: Any,
    paths: Iterable[str | os.PathLike[str]],
    rep: PublishReport,
    profile: Any,
    on_game: Callable[[int], None] | None,
    L: Any,
    club: str | None,
    title: str | None,
    standings_href: str | None,
    standings: dict[str, Any] | None,
    names: dict[str, str] | None = None,
    analyse: bool = False,
) -> None:
    """The pages of :func:`publish_files`, written into ``tree`` (an ``OutputTree``)."""
    from ..club.rows import standing_game
    from ..notation.reader import iter_records
    from ..replay.verifier.verify import verify

    summaries: list[GameSummary] = []
    ranked: list[StandingGame] = []  # the published games' standings rows
    sheets: list[str] = []  # every game's feuille de marque, for feuilles.html
    number = 0
    for path in paths:
        name = (names or {}).get(str(path), str(path))
        try:
            stream = iter_records(path, file=name)
            for g, parsed in enumerate(stream):
                number += 1
                record = parsed.record
                rep.diagnostics.extend(parsed.diagnostics)
                rep.games += 1
                fname = page_name(number, record.headers)
                error = None
                try:
                    # as `check` verifies: a mistake of the record is said as one (issue 25 §2)
                    report = verify(record, profile, file=name, game=g, diagnostics=parsed.diagnostics, recover=True)
                except ValueError as e:  # e.g. an unknown Profile header: this game is published unverified
                    report, error = None, _said(e, L.lang)  # on the page, in its language
                    rep.failures.append((name, g, str(e)))
                    rep.failure_words.append(e)
                played = _play_analysis(record, profile) if analyse and report is not None else None  # issue 29
                done = game_page(
                    record,
                    report,
                    profile=profile,
                    number=number,
                    index_href="index.html",
                    not_verified=error,
                    lang=L,
                    analysis=played,
                )
                rep.pages.append(tree.write_text(fname, done.html))
                # the game's sheet, built once: on its page and on the page of all sheets
                sheets.append(feuille_head(L, f"{number}. " + _title_of(record, L)) + done.sheet)
                ranked.append(standing_game(record, report, fname))
                nf = report.finding_count if report is not None else 0
                rep.findings += nf
                summaries.append(
                    GameSummary(
                        fname,
                        number,
                        {k: player_name(v) if k in ("A", "B", "C", "D") else v for k, v in record.headers.items()},
                        len(record.coups),
                        nf,
                        _result_of(report, record, L),
                        f"{Path(name).name}:{record.span.line}" if record.span.line else f"{Path(name).name} #{g + 1}",
                        None if error is None else L("not_verified_short", why=error),
                        partie_kind(record, L),
                    )
                )
                if on_game:
                    on_game(number)
        except OutputError:
            raise  # an output that cannot be written is not an unreadable input
        except OSError as e:
            rep.unreadable.append((name, e.strerror or str(e)))
            rep.unreadable_words.append(OSReason.of(e))
    players = player_pages(g.headers[k] for g in summaries for k in ("A", "B") if g.headers.get(k))
    games_of: dict[str, list[GameSummary]] = {}  # one pass: linear in games, not players x games
    for summary in summaries:
        for k in ("A", "B"):
            who = summary.headers.get(k)
            if who:
                mine = games_of.setdefault(who, [])
                if not mine or mine[-1] is not summary:  # a player on both seats: his game once
                    mine.append(summary)
    for name, href in players.items():
        tree.write_text(href, render_player(name, games_of.get(name, []), lang=L, club=club, player_pages=players))
    # the evening's sheets in one page: printed, one sheet a sheet of paper
    tree.write_text(
        SHEETS,
        page(
            esc(L("sheets")),
            [f'<nav><a href="index.html">{esc(L("back_index"))}</a></nav>', f"<h1>{esc(L('sheets'))}</h1>", *sheets],
            L,
        ),
    )
    from_db = standings is not None
    st = standings if standings is not None else compute_standings(ranked)
    tree.write_text(STANDINGS, render_standings(st, lang=L, club=club, from_db=from_db, player_pages=players))
    tree.write_text(
        "index.html",
        render_index(
            summaries,
            title=title,
            club=club,
            lang=L,
            standings_href=standings_href or STANDINGS,
            player_pages=players,
            sheets_href=SHEETS,
        ),
    )
    # the rules reference the findings link to (issue 25 §6)
    tree.write_text(rules_page_name(L), render_rules_page(L))
    rep.files = [*rep.pages, *(rep.out_dir / h for h in players.values()), rep.out_dir / SHEETS]
    rep.files += [rep.out_dir / STANDINGS, rep.index, rep.out_dir / rules_page_name(L)]


def publish_files(
    paths: Iterable[str | os.PathLike[str]],
    out_dir: str | os.PathLike[str],
    *,
    profile: Any = None,
    on_game: Callable[[int], None] | None = None,
    lang: str = "fr",
    club: str | None = None,
    title: str | None = None,
    standings_href: str | None = None,
    standings: dict[str, Any] | None = None,
    names: dict[str, str] | None = None,
    analyse: bool = False,
) -> PublishReport:
    """Write ``out_dir/index.html``, one page per game of ``paths`` and one per
    player.

    ``profile``: the rules profile (None = each record's ``Profile`` header, else the
    default).  ``on_game(n)`` is called after each game (progress bars).  ``lang``:
    ``"fr"`` or ``"en"``.  ``club`` and ``title`` head the index;
    The site's ``standings.html`` (:mod:`trictrac.publish.standings`) ranks the
    published games, or shows ``standings`` when given (``compute_standings`` of the
    club database: ``publish --db``); the index links it, or ``standings_href`` instead
    when given (a page of the club's own).  ``names``: the name a path is shown under
    when it is not its own (standard input's temporary copy: ``-`` or ``--name``).
    """
    L = labels(lang)
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise PublishError("cli.publish.not-a-directory", out=str(out))
    rep = PublishReport(out)
    t0 = time.perf_counter()
    try:
        with output_tree(out, ours=_ours) as tree:
            _build_site(tree, paths, rep, profile, on_game, L, club, title, standings_href, standings, names, analyse)
    except OutputError as e:
        raise PublishError("cli.publish.nothing-published", why=e) from None
    rep.seconds = time.perf_counter() - t0
    return rep
