"""Helpers of the one-verdict tests (issue 25) and of the recorder's judge (issue 26 §2):
the findings of a record as each surface tells them, as ``(game, coup, who, kind)``
counters, and a record typed again into the recording session as the table wrote it.

Surfaces: ``check --json`` (:func:`check_json`), ``annotate`` read back
(:func:`annotated`), the published page's ``data-*`` (:func:`page`), the club
database's findings rows (:func:`db_rows`), the recorder re-entering the record
(:func:`reenter`, :func:`reentered_key`).  Corpora: the fixtures' games
(:func:`fixture_games`), the one-typo games (:func:`typo_games`); the
injected-mistake corpus is ``mistake_corpus.mistaken_records``.
"""

from __future__ import annotations

import dataclasses
import io
import json
import random
import re
import sqlite3
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import lxml.html
from click.testing import CliRunner

from trictrac.bench.typo_bench import KINDS as TYPO_KINDS
from trictrac.bench.typo_bench import make_typo
from trictrac.cli.main import cli
from trictrac.notation.reader import iter_records
from trictrac.notation.record import Comment, Coup, Record
from trictrac.notation.writer import write_element, write_record
from trictrac.publish.html import render_game
from trictrac.replay.generate.selfplay import selfplay
from trictrac.replay.recorder.recording import RecordingError, RecordingSession, type_coup
from trictrac.replay.verifier.findings import FINDING_KINDS, Finding
from trictrac.replay.verifier.verify import verify

ROOT = Path(__file__).resolve().parent.parent
FIXTURE_DIRS = ("records", "findings", "books", "corpus")
FIXTURES = sorted(p for d in FIXTURE_DIRS for p in (ROOT / "fixtures" / d).glob("*.trn"))
Key = tuple[int, int, str | None, str]  # (game, coup, who, kind)
_KIND = re.compile(r"^(" + "|".join(map(re.escape, sorted(FINDING_KINDS, key=len, reverse=True))) + r"): ")


# -- the surfaces -----------------------------------------------------------------------
def check_json(path: Path) -> Counter[Key]:
    res = CliRunner().invoke(cli, ["check", "--json", str(path)])
    assert res.exit_code in (0, 1), res.output
    return Counter((g["game"], f["coup"], f["who"], f["kind"]) for g in json.loads(res.output) for f in g["findings"])


def annotated(path: Path, lang: str) -> Counter[Key]:
    """The findings annotate writes as comments, read back from its output: a comment
    after a coup is at that coup, one on its own line at coup 0 (a section, the result);
    who is the player the comment's sentence begins with (None: it names nobody, as for
    a mistake of the record itself)."""
    res = CliRunner().invoke(cli, ["annotate", str(path), "-o", "-", "--lang", lang])
    assert res.exit_code == 0, res.output
    out: Counter[Key] = Counter()
    for game, pr in enumerate(iter_records(io.StringIO(res.output), file="-")):
        names = _names(pr.record)
        for el in pr.record.elements:
            if isinstance(el, Coup):
                for a in el.after:
                    if isinstance(a, Comment) and (m := _KIND.match(a.text)):
                        out[(game, el.number, _who(a.text[m.end() :], names), m.group(1))] += 1
            elif isinstance(el, Comment) and (m := _KIND.match(el.text)):
                out[(game, 0, _who(el.text[m.end() :], names), m.group(1))] += 1
    return out


def _names(record: Record) -> list[tuple[str, str]]:
    """(name, letter) of the players, the longest name first (one may begin another)."""
    pairs = [(record.headers.get(s) or s, s) for s in ("A", "B", "C", "D") if s in record.headers or s in "AB"]
    return sorted(pairs, key=lambda p: -len(p[0]))


def _who(sentence: str, names: list[tuple[str, str]]) -> str | None:
    for name, letter in names:
        # a name that begins the sentence is capitalised ("l'adversaire" -> "L'adversaire")
        if sentence.startswith((name + " ", name[:1].upper() + name[1:] + " ")):
            return letter
    return None


def page(path: Path) -> Counter[Key]:
    out: Counter[Key] = Counter()
    for game, pr in enumerate(iter_records(path, file=str(path))):
        rep = verify(pr.record, file=str(path), game=game, diagnostics=pr.diagnostics, recover=True)
        doc = lxml.html.fromstring(render_game(pr.record, rep, lang="fr"))
        for el in doc.xpath("//section[@class='findings-summary']//li[@data-kind]"):
            out[(game, int(el.get("data-coup")), el.get("data-who") or None, el.get("data-kind"))] += 1
    return out


@dataclasses.dataclass
class Stored:
    """What the club database holds of some files: the findings rows by original file,
    as (game index in the file, found by its first line; coup, who, kind), and the games
    it refused to store (``import_failures``: (file, game index) -> reason)."""

    rows: dict[str, Counter[Key]]
    refused: dict[tuple[str, int], str]


def db_rows(paths: list[Path], tmp: Path) -> Stored:
    """The files imported into a new database; a finding at no coup (a section, the
    result) is NULL in the rows and coup 0 in check --json."""
    db = tmp / "club.db"
    res = CliRunner().invoke(cli, ["db", "import", str(db), *map(str, paths)])
    assert res.exit_code in (0, 1), res.output  # 1: some games refused (listed in import_failures)
    game_at = {(str(p), pr.record.span.line): g for p in paths for g, pr in enumerate(iter_records(p, file=str(p)))}
    out = Stored({str(p): Counter() for p in paths}, {})
    with sqlite3.connect(db) as con:
        rows = con.execute(
            "SELECT g.source_file, g.source_line, f.coup, f.who, f.kind FROM findings f JOIN games g ON g.id = f.game_id"
        ).fetchall()
        refused = con.execute("SELECT source_file, game_index, reason FROM import_failures").fetchall()
    for src, line, coup, who, kind in rows:
        out.rows.setdefault(src, Counter())[(game_at[(src, line)], coup or 0, who, kind)] += 1
    out.refused = {(src, index): reason for src, index, reason in refused}
    assert res.exit_code == 0 or out.refused, res.output
    return out


def stored_twice(path: Path) -> set[int]:
    """The games of ``path`` whose canonical text an earlier game of it has (the database
    stores such a game once, under the first)."""
    seen: set[str] = set()
    out = set()
    for g, pr in enumerate(iter_records(path, file=str(path))):
        text = write_record(pr.record)
        if text in seen:
            out.add(g)
        seen.add(text)
    return out


def annotate_agrees(told: Counter[Key], checked: Counter[Key]) -> bool:
    """annotate tells ``checked``: the same (game, coup, kind), and each who its
    sentence names is check's (a mistake of the record, the result, name nobody)."""
    named = {k for k in told if k[2] is not None}
    return without_who(told) == without_who(checked) and named <= set(checked)


def without_who(c: Counter[Key]) -> Counter[tuple[int, int, str]]:
    out: Counter[tuple[int, int, str]] = Counter()
    for (g, coup, _w, kind), n in c.items():
        out[(g, coup, kind)] += n
    return out


def findings_key(findings: list[Finding], game: int = 0) -> Counter[Key]:
    """A session's (or a report's) findings as ``(game, coup, who, kind)``."""
    return Counter((game, f.coup, f.who, f.kind) for f in findings)


# -- the corpora ------------------------------------------------------------------------
def fixture_games(dirs: tuple[str, ...] = FIXTURE_DIRS) -> Iterator[tuple[Path, int, Record, str | None]]:
    """Every fixture game: (file, game index, record, why the recorder cannot write it
    or None)."""
    for d in dirs:
        for path in sorted((ROOT / "fixtures" / d).glob("*.trn")):
            for g, pr in enumerate(iter_records(path, file=str(path))):
                yield path, g, pr.record, unrecordable(pr.record, pr.diagnostics)


def unrecordable(rec: Record, diagnostics: object = ()) -> str | None:
    """Why the recording session cannot write ``rec`` (None: it can): it writes full
    records of two players, douze trous or à écrire, every line readable."""
    if rec.mode != "full":
        return "compact notation"
    kind = rec.headers.get("Partie", "douze-trous").split()[0]
    if kind not in ("douze-trous", "a-ecrire"):
        return f"partie {kind} (3 or 4 players)" if kind in ("chouette", "a-tourner", "a-quatre") else f"partie {kind}"
    if diagnostics:
        return "lines the reader does not read (the recorder writes only readable ones)"
    return None


def _opening(rec: Record, coups: int) -> Record:
    """The record's first ``coups`` coups (an unfinished game, as an evening may leave one)."""
    n = 0
    for i, el in enumerate(rec.elements):
        n += isinstance(el, Coup)
        if n > coups:
            return dataclasses.replace(rec, elements=rec.elements[:i], headers={**rec.headers, "Result": "*"})
    return rec


@cache
def typo_games(n: int, seed: int) -> tuple[str, ...]:
    """``n`` one-typo games: the openings (60 coups) of 25 self-played parties, each
    given many single typos in turn (every kind, on lines drawn at random)."""
    rng = random.Random(f"one-verdict:{seed}")
    texts = [write_record(_opening(rec, 60)) for rec in selfplay(25, seed, "douze-trous")]
    out: list[str] = []
    i = 0
    while len(out) < n and i < 50 * n:
        made = make_typo(texts[i % len(texts)], TYPO_KINDS[(i // len(texts)) % len(TYPO_KINDS)], rng)
        i += 1
        if made is not None:
            out.append(made[0])
    return tuple(out)


# -- the recorder re-entering a record ------------------------------------------------------
#: coups compared with a whole verification after every coup, then every STRIDE-th
EVERY = 60
STRIDE = 15


@dataclasses.dataclass
class Reentry:
    """A record typed again: the session, coups through the guided entry and as lines,
    the prefixes compared with a whole verification."""

    session: RecordingSession
    guided: int = 0
    lines: int = 0
    compared: int = 0

    @property
    def coups(self) -> int:
        return self.guided + self.lines


def _prefix_key(findings: list[Finding]) -> Counter[tuple[int, int, str | None, str]]:
    return Counter((f.index, f.coup, f.who, f.kind) for f in findings)


def _lines(els: list) -> list[str]:
    """The elements after a coup (sections, remarks), as the session compares them."""
    return [write_element(e) for e in els]


def reenter(rec: Record, path: str | None, every: int = EVERY, stride: int = STRIDE) -> Reentry:
    """Type ``rec`` into a new session writing ``path``, every coup as the table wrote
    it: through the guided entry (throw, play, marks: :func:`type_coup`) when that
    writes the coup as it stands in the record, else as a line of notation
    (``enter_line``); the sections and remarks after a coup as written when they differ
    from the session's, and the Result tag.  The session's findings are compared with
    ``verify`` on the record so far after each of the first ``every`` coups, then every
    ``stride``-th (issue 26 §2: at each coup the verifier's findings)."""
    headers = {k: v for k, v in rec.headers.items() if k != "Result"}
    els = rec.elements
    at = [i for i, e in enumerate(els) if isinstance(e, Coup)]
    first = els[at[0]].side if at else "A"
    s = RecordingSession.new(headers, path=path, game_id=False, first=first)
    out = Reentry(s)
    before = els[: at[0]] if at else els
    if _lines(s.record.elements) != _lines(before):
        s.set_sections(list(before))
    last = -1
    for n, k in enumerate(at):
        coup = els[k]
        assert isinstance(coup, Coup)
        want = write_element(coup)
        if _typed(s, coup, want):
            out.guided += 1
        else:
            s.enter_line(want)
            out.lines += 1
        last = _last_coup(s, last)
        assert write_element(s.record.elements[last]) == want
        after = els[k + 1 : at[n + 1] if n + 1 < len(at) else len(els)]
        if _lines(s.record.elements[last + 1 :]) != _lines(after):
            s.set_sections(list(after))
        if n < every or n % stride == 0:
            so_far = Record(headers=dict(s.record.headers), elements=list(s.record.elements))
            assert _prefix_key(s.findings) == _prefix_key(verify(so_far, recover=True).findings), (n, want)
            out.compared += 1
    if s.record.headers.get("Result") != rec.headers.get("Result", "*"):
        s.set_result(rec.headers.get("Result", "*"))
    assert _lines(s.record.elements) == _lines(els)
    return out


def _last_coup(s: RecordingSession, hint: int = -1) -> int:
    """The index of the session's last coup (searched back from the end: a coup, its
    sections, at most a few elements)."""
    els = s.record.elements
    return next((i for i in range(len(els) - 1, max(hint, 0) - 1, -1) if isinstance(els[i], Coup)), -1)


def _typed(s: RecordingSession, coup: Coup, want: str) -> bool:
    """Type ``coup`` through the guided entry, as a player would (its moves typed);
    False (and nothing written) when it refuses or would write the coup otherwise than
    ``want``."""
    st = s.state
    if st.stage != "roll" or st.side != coup.side:
        return False
    k0 = _last_coup(s)
    try:
        type_coup(s, coup, by_number=False)
    except RecordingError:
        pass  # the guided entry refuses what the table did
    k = _last_coup(s)
    if k > k0 and write_element(s.record.elements[k]) == want:
        return True
    if k > k0 or s.state.stage not in ("roll", "over"):
        s.undo()  # the coup written otherwise, or the entry in progress
    return False
