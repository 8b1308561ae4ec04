"""Resilience, second round (issue 27; docs/resilience.md): the memory bound on every
input (rows 1-3), each test built from the issue's reproducer.  The outputs and the
inputs (rows 4-15) are in tests/test_resilience_io.py."""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import trictrac.notation
from trictrac.cli.main import cli
from trictrac.notation import limits as L
from trictrac.notation.reader import parse_text

HEAD = '[A "Dupont"]\n[B "Martin"]\n[Partie "douze-trous"]\n[Result "*"]\n\n'
#: the address space a command gets in the memory tests: the interpreter and its imports
#: take about 100 MB of it; the old patterns needed 500 MB more for one 1 MB game
_AS_LIMIT = 260 * 1024 * 1024


def run(*args: str, input: bytes | str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (_AS_LIMIT, _AS_LIMIT))


def _trictrac_limited(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "trictrac.cli", *args],
        capture_output=True,
        text=True,
        preexec_fn=_limited,
        timeout=120,
    )


# --- row 1: no backtracking state per repetition ----------------------------------------


def _unbounded_group_repeats(pattern: re.Pattern[str] | re.Pattern[bytes]) -> list[str]:
    """The unbounded greedy or lazy repeats of ``pattern`` whose body is more than one
    character class: the sre engine keeps state for each of their repetitions."""
    from re import _constants as C  # type: ignore[attr-defined]
    from re import _parser as P

    single = {C.LITERAL, C.NOT_LITERAL, C.IN, C.ANY, C.CATEGORY}
    found: list[str] = []

    def walk(items) -> None:
        for op, av in items:
            if op in (C.MAX_REPEAT, C.MIN_REPEAT):
                body = av[2]
                if av[1] == C.MAXREPEAT and not (len(body) == 1 and body[0][0] in single):
                    found.append(str(body)[:100])
                walk(body)
            elif op == C.POSSESSIVE_REPEAT:
                walk(av[2])
            elif op == C.SUBPATTERN:
                walk(av[-1])
            elif op == C.BRANCH:
                for branch in av[1]:
                    walk(branch)
            elif op in (C.ASSERT, C.ASSERT_NOT):
                walk(av[1])
            elif op == C.ATOMIC_GROUP:
                walk(av)

    walk(P.parse(pattern.pattern, pattern.flags))
    return found


def _notation_patterns():
    for info in pkgutil.iter_modules(trictrac.notation.__path__):
        module = importlib.import_module(f"trictrac.notation.{info.name}")
        for name, value in vars(module).items():
            pat = value if isinstance(value, re.Pattern) else getattr(value, "__self__", None)
            if isinstance(pat, re.Pattern):
                yield f"{info.name}.{name}", pat


def test_python_3_11_is_required_and_said_why():
    """The possessive repeats need Python 3.11: the package says so, and the README why
    (a 3.10 fallback to greedy repeats would break the memory bound of row 1)."""
    import tomllib

    root = Path(__file__).resolve().parent.parent
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["requires-python"].replace(" ", "") == ">=3.11"
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert "Python 3.11" in readme and "possessive" in readme
    assert sys.version_info >= (3, 11)
    assert re.compile(r"a*+").fullmatch("aaa")  # the syntax the reader's patterns use


def test_no_pattern_of_the_notation_keeps_state_per_repetition():
    patterns = dict(_notation_patterns())
    assert "reader._TOKEN" in patterns and len(patterns) > 10
    bad = {name: found for name, pat in patterns.items() if (found := _unbounded_group_repeats(pat))}
    assert not bad
    # the walker finds the shape it forbids
    assert _unbounded_group_repeats(re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"'))
    assert not _unbounded_group_repeats(re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"'))


ROW1 = {  # the reproducers: 1 MB each
    "tag": '[Event "' + "\\a" * 500_000 + '"]\n' + HEAD + "1. A 2-1 1/3 1/2\n",
    "comment": HEAD + "{" + "a\n" * 500_000 + "}\n1. A 2-1 1/3 1/2\n",
    "reason": HEAD + "1. A 2-1 1/3 1/2 B:école+2(" + "\\)" * 500_000 + ")\n",
}


@pytest.mark.parametrize("shape", sorted(ROW1))
@pytest.mark.parametrize("command", ["check", "fmt"])
def test_a_megabyte_of_escapes_or_lines_fits_the_bound(tmp_path: Path, shape: str, command: str):
    path = tmp_path / "big.trn"
    path.write_text(ROW1[shape], encoding="utf-8")
    out = _trictrac_limited(command, str(path))
    assert "MemoryError" not in out.stderr and "Traceback" not in out.stderr
    assert out.returncode in (0, 1), out.stderr[-500:]


@pytest.mark.slow
@pytest.mark.parametrize("shape", sorted(ROW1))
@pytest.mark.parametrize("command", ["db import", "publish"])
def test_a_megabyte_of_escapes_or_lines_is_imported_and_published_within_the_bound(
    tmp_path: Path, shape: str, command: str
):
    """Row 1's other two commands (``db import``, ``publish`` died with a MemoryError
    traceback, exit 1, under ``ulimit -v``): the same address space as check's test."""
    path = tmp_path / "big.trn"
    path.write_text(ROW1[shape], encoding="utf-8")
    argv = ["db", "import", str(tmp_path / "c.db"), str(path)] if command == "db import" else []
    argv = argv or ["publish", str(path), "-o", str(tmp_path / "site")]
    out = _trictrac_limited(*argv)
    assert "MemoryError" not in out.stderr and "Traceback" not in out.stderr
    assert out.returncode == 0, out.stderr[-500:]


def test_the_escapes_still_read_as_before():
    recs, diags = parse_text(
        '[Event "a \\"b\\" \\\\ c"]\n'
        + HEAD
        + "{x \\} y\nz}\n1. A 2-1 1/3 1/2 B:école+2(dit \\) non)\n2. B 2-1 1/3 1/2 A:reste-ici-bas\n"
    )
    # the hyphenated word is read whole (one unknown keyword, not pieces)
    assert [(d.code, d.text) for d in diags if d.severity == "error"] == [("unknown-keyword", "reste-ici-bas")]
    rec = recs[0]
    assert rec.headers["Event"] == 'a "b" \\ c'
    # a tag whose value holds an unescaped quote is not a tag, as before
    _, diags = parse_text('[Event "a "b" c"]\n' + HEAD)
    assert diags and diags[0].span.line == 1


def test_out_of_memory_is_one_line_and_exit_2(tmp_path: Path, monkeypatch):
    import trictrac.cli.check as check_cli

    def starved(*a, **k):
        raise MemoryError

    monkeypatch.setattr(check_cli, "_streamed", starved)
    path = tmp_path / "g.trn"
    path.write_text(HEAD + "1. A 2-1 1/3 1/2\n", encoding="utf-8")
    res = run("check", str(path))
    assert res.exit_code == 2
    assert res.output.strip().splitlines() == ["Error: out of memory: the input is too large for the memory limit"]


# --- row 2: a finding-dense game costs what a real one does -----------------------------


def _dense(coups: int) -> str:
    return HEAD + "relevé 1\n" + "".join(f"{(i % 2) + 1}. {'AB'[i % 2]} 2-1\n" for i in range(coups))


def test_findings_past_the_cap_are_counted_by_kind(tmp_path: Path):
    path = tmp_path / "dense.trn"
    path.write_text(_dense(3_000), encoding="utf-8")
    res = run("check", str(path))
    assert res.exit_code == 1
    lines = res.output.splitlines()
    listed = [x for x in lines if ": unplayed-number: " in x or ": unclaimed-ecole: " in x]
    assert len(listed) == L.MAX_FINDINGS
    more = [x for x in lines if "more findings of kind" in x]
    assert [x.split(" of kind ")[1].split()[0] for x in more] == ["unclaimed-ecole", "unplayed-number"]
    counted = sum(int(x.split("… ")[1].split()[0]) for x in more)
    summary = next(x for x in lines if ": game 1 (" in x)
    total = int(summary.split("coups, ")[1].split()[0])
    assert total == L.MAX_FINDINGS + counted and total >= L.MAX_FINDINGS_JUDGED
    # the cost cap: the verification stopped, and says where
    coups = int(summary.split("): ")[1].split()[0])
    assert "(stopped)" in summary and coups < 3_000
    (note,) = [x for x in lines if "verification stopped after" in x]
    assert f"the last {3_000 - coups} coups are not verified" in note

    data = json.loads(run("check", "--json", str(path)).output)
    (game,) = data
    assert len(game["findings"]) == L.MAX_FINDINGS
    assert sum(game["more_findings"].values()) == counted and game["stopped"] is True


@pytest.mark.parametrize("body", ["2-1 1/5 1/6", "2-1 61/12", "2-1 A+3", "2-1 1/3 A+3"])
def test_the_typo_recovery_spends_a_budget_proportional_to_the_game(body: str):
    """A game wrong on every coup (each a "typo" for the recovery) earns the recovery
    nothing: it judges at most ``RECOVERY_START`` coups (and the one trial that crossed
    it), whatever the game's size, not a few thousand; past it a note says so."""
    from trictrac.replay.verifier import recover
    from trictrac.replay.verifier.verify import _Verifier

    text = HEAD + "relevé 1\n" + "".join(f"{i % 2 + 1}. {'AB'[i % 2]} {body}\n" for i in range(260))
    (rec,), diags = parse_text(text)
    spent = []
    real_run = _Verifier.run

    def run(self):
        report = real_run(self)
        spent.append((self.recoveries, recover._budget(self)))
        return report

    _Verifier.run = run  # type: ignore[method-assign]
    try:
        from trictrac.replay.verifier.verify import verify

        verify(rec, diagnostics=diags, trace=False, recover=True)
    finally:
        _Verifier.run = real_run  # type: ignore[method-assign]
    ((used, budget),) = spent
    # at most the start, and one trial over it (the one that crossed it)
    assert used <= L.RECOVERY_START + recover.LOOKAHEAD_MISSING + 2
    assert budget <= L.RECOVERY_START  # the findings took the clean coups' earning back


def test_a_clean_game_has_no_more_findings(tmp_path: Path):
    path = Path(__file__).resolve().parent.parent / "fixtures" / "records" / "douze_trous.trn"
    (game, *_) = json.loads(run("check", "--json", str(path)).output)
    assert game["more_findings"] == {}
    assert "more findings" not in run("check", str(path)).output


def test_a_published_dense_game_lists_the_cap_and_counts_the_rest(tmp_path: Path):
    path = tmp_path / "dense.trn"
    path.write_text(_dense(3_000), encoding="utf-8")
    res = run("publish", str(path), "-o", str(tmp_path / "site"), "--lang", "en")
    assert res.exit_code == 0, res.output
    (page,) = (tmp_path / "site").glob("0001-*.html")
    html = page.read_text(encoding="utf-8")
    assert html.count('<li class="more">') == 2
    assert "more findings of kind unplayed-number (not listed)" in html
    assert page.stat().st_size < 2_000_000


# --- row 3: many players: crosstables capped, every pair in --json ----------------------


def test_many_players_cap_the_crosstables_and_keep_every_pair_in_json(tmp_path: Path):
    """The reproducer, smaller: one-coup games, a new pair of players each game (the
    issue's 2,000 games of 4,000 players made a 145 MB standings.html and printed 68 MB)."""
    from fuzz.growth import games_text

    from trictrac.club.standings import CROSSTABLE_PLAYERS

    games = 120
    src = tmp_path / "many.trn"
    src.write_text(games_text(games, None), encoding="utf-8")
    db = tmp_path / "club.db"
    assert run("db", "import", str(db), str(src)).exit_code == 0
    res = run("standings", str(db), "--lang", "fr")
    assert res.exit_code == 0, res.output
    grid = res.output.split("ableau croisé", 1)[1].splitlines()
    assert f"(les {CROSSTABLE_PLAYERS} premiers des {2 * games} joueurs" in grid[1]
    rows = [x for x in grid[2:] if re.match(r"\s*\|?\s*\d+\. Joueur", x)]
    assert len(rows) == CROSSTABLE_PLAYERS
    data = json.loads(run("standings", str(db), "--json").stdout)
    (table,) = data["tables"].values()
    assert len(table["players"]) == len(table["crosstable"]["players"]) == 2 * games
    pairs = {(a, b) for a, row in table["crosstable"]["cells"].items() for b in row}
    assert len(pairs) == 2 * games  # each game's pair, both ways
    site = tmp_path / "site"
    res = run("publish", str(src), "-o", str(site), "--lang", "en")
    assert res.exit_code == 0, res.output
    html = (site / "standings.html").read_text(encoding="utf-8")
    assert f"The {CROSSTABLE_PLAYERS} best ranked of the {2 * games} players only." in html
    assert html.count('<th scope="row">') <= 2 * games + CROSSTABLE_PLAYERS  # the ranking, the capped grid
    assert len(html) < 400_000
