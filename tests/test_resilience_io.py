"""Resilience, second round (issue 27; docs/resilience.md): outputs and inputs, each test
built from the issue's reproducer: a site published whole (rows 4-6), every input
through one reader (rows 8-11), dates (row 13), and the rest of row 15."""

from __future__ import annotations

import errno
import io
import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from trictrac.cli.main import cli
from trictrac.notation import textio
from trictrac.notation.reader import parse_text
from trictrac.notation.textio import InputError, OutputError, open_input, output_tree

ROOT = Path(__file__).resolve().parent.parent
DOUZE = ROOT / "fixtures" / "records" / "douze_trous.trn"
HEAD = '[A "Dupont"]\n[B "Martin"]\n[Partie "douze-trous"]\n[Result "*"]\n\n'


def run(*args: str, input: bytes | str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


def _games(n: int) -> str:
    return "".join(
        f'[A "Joueur {2 * i}"]\n[B "Joueur {2 * i + 1}"]\n[Date "2024.01.{i % 28 + 1:02d}"]\n[Result "*"]\n\n'
        "1. A 2-1 1/3 1/2\n\n"
        for i in range(n)
    )


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _siblings(site: Path) -> list[str]:
    return sorted(p.name for p in site.parent.iterdir() if p.name.startswith("." + site.name))


# --- rows 4-6: a site published whole ------------------------------------------------------


def test_a_full_disk_publishes_nothing_and_names_the_output(tmp_path: Path, monkeypatch):
    src = tmp_path / "games.trn"
    src.write_text(_games(20), encoding="utf-8")
    site = tmp_path / "site"
    assert run("publish", str(src), "-o", str(site)).exit_code == 0
    before = _tree(site)
    real = textio._write_new
    count = {"n": 0}

    def full(path, data, named, **kw):
        count["n"] += 1
        if count["n"] > 5:
            raise OutputError.cannot_write(named, OSError(errno.ENOSPC, "No space left on device"))
        return real(path, data, named, **kw)

    monkeypatch.setattr(textio, "_write_new", full)
    res = run("publish", str(src), "-o", str(site))
    assert res.exit_code == 2
    (line,) = res.output.strip().splitlines()
    assert str(site) in line and "No space left on device" in line and "nothing published" in line
    assert "pages written" not in res.output and str(src) not in line
    assert _tree(site) == before  # the old site, whole
    assert _siblings(site) == []  # and no temporary folder beside it


def _publish_killed_after(writes: int, src: Path, site: Path) -> int:
    code = f"""
import os, signal, sys
from trictrac.notation import textio
real = textio._write_new
n = [0]
def dying(*a, **k):
    n[0] += 1
    if n[0] > {writes}:
        os.kill(os.getpid(), signal.SIGKILL)
    return real(*a, **k)
textio._write_new = dying
from trictrac.cli.main import cli
cli(["publish", {str(src)!r}, "-o", {str(site)!r}])
"""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=300).returncode


def test_a_kill_during_a_republish_leaves_the_old_site_and_the_next_run_cleans(tmp_path: Path):
    src = tmp_path / "games.trn"
    src.write_text(_games(4), encoding="utf-8")
    site = tmp_path / "site"
    assert run("publish", str(src), "-o", str(site)).exit_code == 0
    before = _tree(site)
    src.write_text(_games(6), encoding="utf-8")
    assert _publish_killed_after(3, src, site) == -signal.SIGKILL
    assert _tree(site) == before  # the old index beside the old pages: one site, not two
    left = _siblings(site)
    assert left and all(name.endswith(".build") for name in left)  # the killed run's folder
    assert run("publish", str(src), "-o", str(site)).exit_code == 0
    assert _siblings(site) == []  # cleaned at the next run
    assert len(list(site.glob("000*.html"))) == 6
    assert not [p for p in site.rglob(".*")]  # no hidden temporaries in the web root


def test_no_write_goes_through_a_link_in_the_output(tmp_path: Path):
    src = tmp_path / "games.trn"
    src.write_text(_games(2), encoding="utf-8")
    site = tmp_path / "site"
    assert run("publish", str(src), "-o", str(site)).exit_code == 0
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.html"
    secret.write_text("private", encoding="utf-8")
    secret.chmod(0o600)
    import shutil

    shutil.rmtree(site / "joueurs")
    (site / "joueurs").symlink_to("../outside")
    (site / "index.html").unlink()
    (site / "index.html").symlink_to(secret)
    (site / "notes.txt").write_text("the club's own file", encoding="utf-8")
    old_umask = os.umask(0o022)
    try:
        assert run("publish", str(src), "-o", str(site)).exit_code == 0
    finally:
        os.umask(old_umask)
    assert sorted(p.name for p in outside.iterdir()) == ["secret.html"]
    assert secret.read_text(encoding="utf-8") == "private" and (secret.stat().st_mode & 0o777) == 0o600
    index = site / "index.html"
    assert not index.is_symlink() and (index.stat().st_mode & 0o777) == 0o644
    assert (site / "joueurs").is_dir() and not (site / "joueurs").is_symlink()
    assert ((site / "joueurs").stat().st_mode & 0o777) == 0o755
    assert (site / "notes.txt").read_text(encoding="utf-8") == "the club's own file"  # not ours: kept


def test_the_plugins_folder_is_never_written_through_a_link(tmp_path: Path):
    db = tmp_path / "club.db"
    assert run("db", "import", str(db), str(DOUZE)).exit_code == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "club.plugins").symlink_to(elsewhere)
    res = run("db", "datasette", str(db))
    assert res.exit_code == 2 and "symbolic link" in res.output
    assert list(elsewhere.iterdir()) == []


def test_an_output_tree_that_fails_leaves_nothing(tmp_path: Path):
    out = tmp_path / "out"
    with pytest.raises(RuntimeError), output_tree(out) as tree:
        tree.write_text("a.html", "x")
        raise RuntimeError("boom")
    assert not out.exists() and list(tmp_path.iterdir()) == []
    with output_tree(out) as tree:
        with pytest.raises(OutputError):
            tree.write_text("../escape.html", "x")
        tree.write_text("sub/a.html", "x")
    assert (out / "sub" / "a.html").read_text() == "x"


# --- rows 8-11: every input through one reader --------------------------------------------


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.trn"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize(
    "args",
    [
        ("check", "{}"),
        ("fmt", "{}"),
        ("publish", "{}", "-o", "{site}"),
        ("db", "import", "{db}", "{}"),
        ("score", "partie", "{}"),
        ("annotate", "{}", "-o", "{site}.trn"),
    ],
    ids=lambda a: " ".join(a[:2]),
)
@pytest.mark.timeout(60)
def test_a_fifo_is_refused_at_once(fifo: Path, tmp_path: Path, args: tuple[str, ...]):
    argv = [a.format(fifo, site=tmp_path / "site", db=tmp_path / "club.db") for a in args]
    res = run(*argv)
    assert res.exit_code == 2, res.output
    lines = [x for x in res.output.strip().splitlines() if x.strip()]
    assert any("named pipe" in x for x in lines) and len(lines) <= 2, res.output
    assert not (tmp_path / "site").exists() and not (tmp_path / "club.db").exists()
    res = run(*argv, "--lang", "fr")
    assert res.exit_code == 2 and "tube nommé (FIFO), pas un fichier de parties" in res.output, res.output
    assert "named pipe" not in res.output and "not a record" not in res.output


def test_a_device_is_refused():
    with pytest.raises(InputError, match="character device"):
        open_input("/dev/zero")


class _Counting(io.RawIOBase):
    """A stream of ``n`` copies of ``chunk`` that counts what was read."""

    def __init__(self, chunk: bytes, n: int) -> None:
        self.chunk, self.left, self.read_bytes = chunk, n, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if not self.left:
            return 0
        self.left -= 1
        data = self.chunk[: len(buffer)]
        buffer[: len(data)] = data
        self.read_bytes += len(data)
        return len(data)


def test_standard_input_is_streamed_not_read_whole():
    game = (HEAD + "1. A 2-1 1/3 1/2\n\n").encode()
    src = _Counting(game, 200_000)  # 17 MB
    inp = open_input("-", stdin=io.BufferedReader(src, 4096))
    assert src.read_bytes <= 1 << 17  # the probe only
    from trictrac.notation.reader import iter_records

    with inp.stream() as fh:
        for i, _ in enumerate(iter_records(fh)):
            if i == 10:
                break
    assert src.read_bytes < 4 << 20  # ten games read: a few chunks, not the stream


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (300 << 20, 300 << 20))


@pytest.mark.timeout(300)
def test_an_endless_stream_of_tags_fits_the_bound():
    """``yes '[A "x"]' | trictrac check -`` (here 8 MB of it) under a memory limit."""
    data = b'[A "x"]\n' * 1_000_000
    out = subprocess.run(
        [sys.executable, "-m", "trictrac.cli", "check", "-"],
        input=data,
        capture_output=True,
        preexec_fn=_limited,
        timeout=280,
    )
    assert b"MemoryError" not in out.stderr and b"Traceback" not in out.stderr
    assert out.returncode in (0, 1, 2)


def test_score_partie_goes_through_the_reader_and_escapes(tmp_path: Path, fifo: Path):
    src = ROOT / "fixtures" / "parties"
    sample = sorted(src.glob("*.txt"))[0]
    text = sample.read_text(encoding="utf-8")
    plain = run("score", "partie", str(sample))
    assert plain.exit_code == 0
    utf16 = tmp_path / "utf16.txt"
    utf16.write_bytes(text.encode("utf-16"))  # with its byte-order mark
    assert run("score", "partie", str(utf16)).output == plain.output
    # a player named with terminal escapes is printed escaped, never obeyed
    first = next(ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#"))
    evil = tmp_path / "evil.txt"
    word = next(w for w in first.replace(":", " ").split() if w.isalpha() and len(w) > 1)
    evil.write_text(text.replace(word, "\x1b]0;pwned\x07" + word), encoding="utf-8")
    res = run("score", "partie", str(evil))
    assert "\x1b" not in res.output and "\x07" not in res.output
    assert "\\x1b" in res.output or res.exit_code == 2


def test_one_latin1_byte_in_a_cyrillic_file_is_read_game_by_game(tmp_path: Path):
    games = [
        f'[A "Дмитрий {i}"]\n[B "Сергей {i}"]\n[Event "Клуб, вечер {i}"]\n[Result "*"]\n\n'
        "{Партия без ошибок, записанная аккуратно.}\n1. A 2-1 1/3 1/2\n\n"
        for i in range(50)
    ]
    data = "".join(games).encode("utf-8")
    data = data.replace("вечер 0".encode(), "вечер 0".encode() + b" caf\xe9", 1)
    path = tmp_path / "cyr.trn"
    path.write_bytes(data)
    assert open_input(str(path)).path == str(path)  # accepted
    res = run("check", str(path))
    assert res.exit_code == 0, res.output
    assert res.output.count("not UTF-8") == 1  # the one game holding the byte, read as Latin-1
    assert "Дмитрий 49" in res.output


# --- row 13: dates -------------------------------------------------------------------------


@pytest.mark.parametrize("date", ["٢٠٢٤.٠١.٠١", "2024.02.30", "99999999999999999999", "2024.13.01"])
def test_a_date_that_is_not_real_is_diagnosed_and_stored_as_none(tmp_path: Path, date: str):
    text = f'[Date "{date}"]\n' + HEAD + "1. A 2-1 1/3 1/2\n"
    _, diags = parse_text(text)
    assert [d.code for d in diags] == ["bad-date"]
    path = tmp_path / "g.trn"
    path.write_text(text, encoding="utf-8")
    db = tmp_path / "club.db"
    assert run("db", "import", str(db), str(path)).exit_code == 0
    row = sqlite3.connect(db).execute("SELECT date, date_iso, season FROM games").fetchone()
    assert row == (date, None, None)


def test_a_real_date_is_stored():
    _, diags = parse_text('[Date "2024.02.29"]\n' + HEAD)
    assert diags == []


# --- row 15 ------------------------------------------------------------------------------


def test_fmt_write_on_a_link_rewrites_its_target(tmp_path: Path):
    target = tmp_path / "real.trn"
    target.write_text(DOUZE.read_text(encoding="utf-8").replace("1. A 2-1", "1.  A   2-1"), encoding="utf-8")
    link = tmp_path / "link.trn"
    link.symlink_to(target)
    res = run("fmt", "--write", str(link))
    assert res.exit_code == 0, res.output
    assert link.is_symlink() and link.resolve() == target.resolve()
    assert "1. A 2-1" in target.read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def _full_disk() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writes past the limit fail (EFBIG), as on a full disk
    resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192))


def test_an_import_on_a_full_disk_leaves_no_database(tmp_path: Path):
    db = tmp_path / "club.db"
    out = subprocess.run(
        [sys.executable, "-m", "trictrac.cli", "db", "import", str(db), str(DOUZE)],
        capture_output=True,
        text=True,
        preexec_fn=_full_disk,
        timeout=120,
    )
    assert out.returncode == 2
    (line,) = out.stderr.strip().splitlines()
    assert line.startswith(f"Error: {db}: cannot write the database") and "no database created" in line
    assert list(tmp_path.iterdir()) == []


def test_cr_only_line_endings_are_read(tmp_path: Path):
    path = tmp_path / "mac.trn"
    path.write_bytes(DOUZE.read_bytes().replace(b"\n", b"\r"))
    res = run("check", str(path))
    assert res.exit_code == 0 and "Dupont - Martin" in res.output
    assert "Dupont - Martin" in run("check", "-", input=path.read_bytes()).output


@pytest.mark.parametrize("line", ["١. A 2-1 1/3 1/2", "1. A 2-1 1/3 1/2 B+４", "1. A 2-1 １/3 1/2"])
def test_digits_of_other_scripts_are_diagnosed(line: str):
    records, diags = parse_text(HEAD + line + "\n")
    assert "non-ascii-digit" in [d.code for d in diags]


def test_a_megabyte_name_is_shortened_in_the_summary(tmp_path: Path):
    path = tmp_path / "g.trn"
    path.write_text(HEAD.replace("Dupont", "D" * 1_000_000) + "1. A 2-1 1/3 1/2\n", encoding="utf-8")
    res = run("check", str(path))
    (summary,) = [x for x in res.output.splitlines() if ": game 1 (" in x]
    assert len(summary) < 300 and "D" * 59 + "…" in summary


def test_the_datasette_hint_quotes_its_paths(tmp_path: Path):
    folder = tmp_path / "mon club"
    folder.mkdir()
    db = folder / "club d'hiver.db"
    assert run("db", "import", str(db), str(DOUZE)).exit_code == 0
    res = run("db", "datasette", str(db), "--lang", "en")
    assert res.exit_code == 0, res.output
    import shlex

    hint = res.output.split("browse with: ", 1)[1].strip()
    words = shlex.split(hint)
    assert words[:2] == ["datasette", str(db)] and words[3].endswith("club d'hiver.metadata.json")


def test_a_bidi_override_is_isolated_in_the_pages(tmp_path: Path):
    path = tmp_path / "g.trn"
    path.write_text(HEAD.replace("Dupont", "Dupont\u202egnp.exe") + "1. A 2-1 1/3 1/2\n", encoding="utf-8")
    assert run("publish", str(path), "-o", str(tmp_path / "site")).exit_code == 0
    for page in (tmp_path / "site").rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        at = 0
        while (at := html.find("\u202e", at)) >= 0:  # every override closed and isolated
            start = html.rfind("\u2068", 0, at)
            assert start >= 0 and html.find("\u202c\u2069", at) > at, page
            at += 1


def test_the_json_of_check_keeps_its_shape(tmp_path: Path):
    (game,) = json.loads(run("check", "--json", str(DOUZE)).output)
    assert {"findings", "more_findings", "stopped", "notes"} <= set(game)


def test_check_json_keeps_names_with_unicode_line_separators(tmp_path: Path):
    """``check --json`` indents its games line by line: a name holding U+2028, U+2029 or
    U+0085 (lines to ``str.splitlines``, characters in JSON) comes back as typed."""
    names = {"A": "Du\u2028pont", "B": "Mar\x85tin\u2029"}
    path = tmp_path / "sep.trn"
    path.write_text(
        f'[A "{names["A"]}"]\n[B "{names["B"]}"]\n[Result "*"]\n\n1. A 2-1 1/3 1/2\n2. B 6-6\n', encoding="utf-8"
    )
    for args in (["check", "--json", str(path)], ["check", "--json", str(path), str(DOUZE)]):
        games = json.loads(run(*args).output)
        assert {k: games[0]["headers"][k] for k in names} == names
