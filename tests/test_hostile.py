"""The hostile corpus (fixtures/hostile/, issue 18 §3) through every output: the terminal
(check, replay, stats, fmt, db games/show), JSON, HTML (publish), file names and the
database.  What a stranger's record holds may be shown, never obeyed."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from trictrac.cli.main import cli

HOSTILE = Path(__file__).resolve().parent.parent / "fixtures" / "hostile"
REFUSED = {"nul.trn", "control_chars.trn"}  # junk: one line, exit 2
READABLE = sorted(p for p in HOSTILE.glob("*.trn") if p.name not in REFUSED)
# what must never reach a terminal raw: C0 but tab and newline, DEL, C1, bidi overrides
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def run(*args: str):
    """The command's result; an exception other than its exit is a crash (a traceback)."""
    r = CliRunner().invoke(cli, list(args))
    crashed = r.exception is not None and not isinstance(r.exception, SystemExit)
    return r if not crashed else _Crash(r)


class _Crash:
    def __init__(self, r) -> None:
        self.exit_code = "crash: " + repr(r.exception)
        self.output = self.stderr = "Traceback " + repr(r.exception)


def test_the_corpus_is_what_the_generator_writes():
    from importlib.util import module_from_spec, spec_from_file_location

    spec = spec_from_file_location("make_hostile", HOSTILE / "make_hostile.py")
    mod = module_from_spec(spec)
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    for name, data in mod.FILES.items():
        assert (HOSTILE / name).read_bytes() == data, name
    assert {p.name for p in HOSTILE.glob("*.trn")} == set(mod.FILES)


@pytest.mark.parametrize("path", READABLE, ids=lambda p: p.name)
@pytest.mark.parametrize("command", [["check"], ["replay"], ["stats"], ["fmt"]], ids=lambda c: c[0])
def test_terminal_output_is_safe(path: Path, command: list[str]):
    r = run(*command, str(path))
    assert r.exit_code in (0, 1, 2) and "Traceback" not in r.output
    out = r.stderr if command == ["fmt"] else r.output  # fmt's stdout is the record (a file)
    assert not UNSAFE.search(out), UNSAFE.search(out)


def test_escapes_are_shown_escaped_not_dropped():
    r = run("check", str(HOSTILE / "terminal_escapes.trn"))
    assert r.exit_code == 0
    assert "Dupont\\x1b]0;pwned\\x07\\x1b[2J" in r.output and "\x1b" not in r.output


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_junk_is_refused_in_one_line(tmp_path: Path, name: str):
    path = str(HOSTILE / name)
    for args in (
        ["check", path],
        ["fmt", path],
        ["stats", path],
        ["replay", path],
        ["annotate", path, "-o", str(tmp_path / "a.trn")],
        ["publish", path, "-o", str(tmp_path / "site")],
        ["db", "import", str(tmp_path / "c.db"), path],
    ):
        r = run(*args)
        assert r.exit_code == 2, (args, r.output)
        assert "Traceback" not in r.output and name in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_json_keeps_the_text_and_escapes_controls():
    path = HOSTILE / "terminal_escapes.trn"
    r = run("check", "--json", str(path))
    assert r.exit_code == 0
    assert not re.search("[\x00-\x1f]", r.output.replace("\n", ""))
    game = json.loads(r.output)[0]
    assert game["headers"]["A"] == "Dupont\x1b]0;pwned\x07\x1b[2J\x1b[31m A"


def test_utf16_is_decoded():
    r = run("check", "--json", str(HOSTILE / "utf16_bom.trn"))
    assert r.exit_code == 0
    assert json.loads(r.output)[0]["headers"]["A"].startswith("Lefèvre\x1b")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("hostile") / "site"
    readable_in_html = [str(p) for p in READABLE if p.name not in ("terminal_escapes.trn", "utf16_bom.trn")]
    r = run("publish", *readable_in_html, "-o", str(out))
    assert r.exit_code in (0, 1), r.output
    return out


def test_html_holds_no_live_markup_from_records(site: Path):
    from lxml import html as lhtml

    pages = sorted(site.rglob("*.html"))
    assert len(pages) >= len(READABLE) - 1
    for page in pages:
        raw = page.read_text(encoding="utf-8")
        assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", raw), page
        doc = lhtml.fromstring(raw)
        for el in doc.iter():
            if not isinstance(el.tag, str):
                continue
            if el.tag == "script":
                assert "alert" not in (el.text or ""), page
            for attr, value in el.attrib.items():
                assert not attr.lower().startswith("on"), (page, attr)
                if attr.lower().split("}")[-1] in ("href", "src", "action", "formaction", "data"):
                    assert not value.strip().lower().startswith(("javascript:", "data:")), (page, attr, value)
            assert el.tag != "img" or "onerror" not in el.attrib
        assert "<script>alert('x')</script>" not in raw


def test_file_names_stay_in_the_output_directory(site: Path):
    root = site.resolve()
    for f in site.rglob("*"):
        rel = f.resolve().relative_to(root)  # raises when a file escaped the directory
        assert ".." not in rel.parts and not rel.name.startswith(".")
        assert re.fullmatch(r"[A-Za-z0-9._/-]+", str(rel)), rel
    assert not (root.parent / "etc").exists()


def test_html_drops_control_characters(tmp_path: Path):
    """Names, tags, comments and finding messages reach every page (game, players,
    sheets, index) without a control character: lxml and browsers refuse them."""
    r = run("publish", str(HOSTILE / "terminal_escapes.trn"), "-o", str(tmp_path / "site"))
    assert r.exit_code in (0, 1) and "Traceback" not in r.output
    pages = list((tmp_path / "site").rglob("*.html"))
    assert len(pages) >= 4  # index, the game, a player's page, the sheets
    controls = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
    texts = [page.read_text(encoding="utf-8") for page in pages]
    for page, text in zip(pages, texts):
        assert not controls.search(text), page
    assert any("Dupont]0;pwned" in t for t in texts)  # the name is kept, only its controls dropped


def test_database_keeps_the_text_and_prints_it_safely(tmp_path: Path):
    db = tmp_path / "club.db"
    r = run("db", "import", str(db), *map(str, READABLE))
    assert r.exit_code in (0, 1) and "Traceback" not in r.output, r.output
    with sqlite3.connect(db) as con:
        names = {row[0] for row in con.execute("select name from players")}
    assert "Dupont\x1b]0;pwned\x07\x1b[2J\x1b[31m A" in names  # stored as written
    r = run("db", "games", str(db))
    assert r.exit_code == 0 and "Dupont" in r.output
    assert not UNSAFE.search(r.output), UNSAFE.search(r.output)
