"""One verdict everywhere (issue 25): for every fixture, the injected-mistake corpus
and a thousand one-typo games, the set of (coup, who, kind) is the same in
``check --json``, ``annotate`` (its comments, read back), the published page (each
finding's ``data-*``), and the club database's findings rows."""

from __future__ import annotations

import dataclasses
import io
import json
import os
import random
import re
import sqlite3
from collections import Counter
from functools import cache
from pathlib import Path

import lxml.html
import pytest
from click.testing import CliRunner

from trictrac.bench.typo_bench import KINDS as TYPO_KINDS
from trictrac.bench.typo_bench import make_typo
from trictrac.cli.main import cli
from trictrac.notation.reader import iter_records
from trictrac.notation.record import Coup, Record
from trictrac.notation.writer import write_record
from trictrac.publish.html import render_game
from trictrac.replay.generate.selfplay import selfplay
from trictrac.replay.verifier.findings import FINDING_KINDS
from trictrac.replay.verifier.verify import verify

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = sorted(p for d in ("records", "findings", "books", "corpus") for p in (ROOT / "fixtures" / d).glob("*.trn"))
Key = tuple[int, int, str | None, str]  # (game, coup, who, kind)
_KIND = re.compile(r"^(" + "|".join(map(re.escape, sorted(FINDING_KINDS, key=len, reverse=True))) + r"): ")


def _check_json(path: Path) -> Counter[Key]:
    res = CliRunner().invoke(cli, ["check", "--json", str(path)])
    assert res.exit_code in (0, 1), res.output
    return Counter((g["game"], f["coup"], f["who"], f["kind"]) for g in json.loads(res.output) for f in g["findings"])


def _annotated(path: Path, lang: str) -> Counter[Key]:
    """The findings annotate writes as comments, read back from its output: a comment
    after a coup is at that coup, one on its own line at coup 0 (a section, the result)."""
    res = CliRunner().invoke(cli, ["annotate", str(path), "-o", "-", "--lang", lang])
    assert res.exit_code == 0, res.output
    out: Counter[Key] = Counter()
    for game, pr in enumerate(iter_records(io.StringIO(res.output), file="-")):
        from trictrac.notation.record import Comment, Coup

        for el in pr.record.elements:
            if isinstance(el, Coup):
                for a in el.after:
                    if isinstance(a, Comment) and (m := _KIND.match(a.text)):
                        out[(game, el.number, _who(a.text, pr.record, lang), m.group(1))] += 1
            elif isinstance(el, Comment) and (m := _KIND.match(el.text)):
                out[(game, 0, _who(el.text, pr.record, lang), m.group(1))] += 1
    return out


def _who(text: str, record: object, lang: str) -> str | None:
    return None  # annotate says who in words; compared without it below


def _page(path: Path) -> Counter[Key]:
    out: Counter[Key] = Counter()
    for game, pr in enumerate(iter_records(path, file=str(path))):
        rep = verify(pr.record, file=str(path), game=game, diagnostics=pr.diagnostics, recover=True)
        doc = lxml.html.fromstring(render_game(pr.record, rep, lang="fr"))
        for el in doc.xpath("//section[@class='findings-summary']//li[@data-kind]"):
            out[(game, int(el.get("data-coup")), el.get("data-who") or None, el.get("data-kind"))] += 1
    return out


def _db(paths: list[Path], tmp: Path) -> dict[str, Counter[Key]]:
    db = tmp / "club.db"
    res = CliRunner().invoke(cli, ["db", "import", str(db), *map(str, paths)])
    assert res.exit_code == 0, res.output
    con = sqlite3.connect(db)
    out: dict[str, Counter[Key]] = {}
    rows = con.execute(
        "SELECT g.source_file, g.source_index, f.coup, f.who, f.kind FROM findings f JOIN games g ON g.id = f.game_id"
    ).fetchall()
    for src, idx, coup, who, kind in rows:
        out.setdefault(Path(src).name, Counter())[(idx, coup, who, kind)] += 1
    return out


def _without_who(c: Counter[Key]) -> Counter[tuple[int, int, str]]:
    out: Counter[tuple[int, int, str]] = Counter()
    for (g, coup, _w, kind), n in c.items():
        out[(g, coup, kind)] += n
    return out


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_check_annotate_and_page_agree_on_every_fixture(path: Path) -> None:
    checked = _check_json(path)
    assert _page(path) == checked
    for lang in ("fr", "en"):
        assert _without_who(_annotated(path, lang)) == _without_who(checked)


def _opening(rec: Record, coups: int) -> Record:
    """The record's first ``coups`` coups (an unfinished game, as an evening may leave one)."""
    n = 0
    for i, el in enumerate(rec.elements):
        n += isinstance(el, Coup)
        if n > coups:
            return dataclasses.replace(rec, elements=rec.elements[:i], headers={**rec.headers, "Result": "*"})
    return rec


@cache
def _typo_games(n: int, seed: int) -> tuple[str, ...]:
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


#: one-typo games compared: 1,000 on demand (TRICTRAC_SLOW=1, about 10 minutes), 150 in
#: the default suite (the pages draw a board per coup: 0.1-0.4 s a game)
TYPO_GAMES = 1000 if os.environ.get("TRICTRAC_SLOW") else 150


# 1,000 games outlast the default timeout on a busy machine
@pytest.mark.timeout(3600 if os.environ.get("TRICTRAC_SLOW") else 600)
def test_one_typo_games_give_the_same_findings_on_every_surface(tmp_path: Path) -> None:
    """One-typo games in one file: check --json, the pages and annotate agree."""
    games = _typo_games(TYPO_GAMES, 25)
    assert len(games) == TYPO_GAMES
    path = tmp_path / "typos.trn"
    path.write_text("\n".join(games), encoding="utf-8")
    checked = _check_json(path)
    assert sum(checked.values()) >= len(games) * 0.9, "each typo gives a finding"
    assert _page(path) == checked
    assert _without_who(_annotated(path, "fr")) == _without_who(checked)


def test_the_database_stores_what_check_says(tmp_path: Path) -> None:
    """Every fixture imported: each stored game's findings rows are check's (coup, who,
    kind), the game found by its original file and first line (issue 25 §5)."""
    db = tmp_path / "club.db"
    res = CliRunner().invoke(cli, ["db", "import", str(db), *map(str, FIXTURES)])
    assert res.exit_code == 0, res.output
    start: dict[tuple[str, int], int] = {}  # (file, first line) -> game index
    for path in FIXTURES:
        for g, pr in enumerate(iter_records(path, file=str(path))):
            start[(str(path), pr.record.span.line)] = g
    con = sqlite3.connect(db)
    stored: dict[tuple[str, int], Counter[Key]] = {}
    for gid, src, line in con.execute("SELECT id, source_file, source_line FROM games"):
        g = start[(src, line)]
        rows = con.execute("SELECT coup, who, kind FROM findings WHERE game_id = ?", (gid,)).fetchall()
        # a finding at no coup (a section, the result): coup 0 in check --json, NULL in the rows
        stored[(src, g)] = Counter((g, coup or 0, who, kind) for coup, who, kind in rows)
    assert len(stored) >= 150
    for path in FIXTURES:
        checked = _check_json(path)
        for (src, g), found in stored.items():
            if src == str(path):
                assert found == Counter({k: n for k, n in checked.items() if k[0] == g}), (src, g)
