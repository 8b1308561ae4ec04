"""Resilience (issue 18; docs/resilience.md): every number bounded where it is read, cost
bounded by the input, adversarial inputs, a bad Position reported once, junk refused in
one line, '-' for standard input, nothing half-written, a comment above the tags."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from trictrac.cli.main import cli
from trictrac.notation import limits as L
from trictrac.notation.position import parse_position
from trictrac.notation.reader import iter_records, parse_text
from trictrac.notation.textio import InputError, open_input

ROOT = Path(__file__).resolve().parent.parent
DOUZE = ROOT / "fixtures" / "records" / "douze_trous.trn"
HEAD = '[A "x"]\n[B "y"]\n\n'


def run(*args: str, input: bytes | str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


def codes(text: str) -> list[str]:
    return [d.code for d in parse_text(text)[1]]


# --- every number bounded where it is read -----------------------------------------------

BOUNDS = [  # (text with N, the largest N allowed)
    ("1. A 6-5 A+N 1/7 1/6", L.MAX_MARK_POINTS),
    ("1. A 6-5 A+12tN 1/7 1/6", L.MAX_MARK_HOLES),
    ("1. A 6-5 1/7 1/6 B:école+N", L.MAX_ECOLE_POINTS),
    ("1. A 6-5 1/7 1/6 B:école-N", L.MAX_ECOLE_POINTS),
    ("1. A 6-5 1/7 1/6 A:correction-N", L.MAX_CORRECTION_POINTS),
    ("1. A 6-5 1/7 1/6 A:correction+0t-N", L.MAX_CORRECTION_HOLES),
    ("N. A 6-5 1/7 1/6", L.MAX_COUP_NUMBER),
    ("relevé N\n1. A 6-5 1/7 1/6", L.MAX_RELEVE),
    ("marqué N\n1. A 6-5 1/7 1/6", L.MAX_MARQUES),
    ("résultat A N-3", L.MAX_HOLES),
    ("résultat A 8-3 valeur N", L.MAX_RESULT_VALUE),
    ("1. A 6-5 1/7 1/6 $N", L.MAX_GLYPH),
]


@pytest.mark.parametrize("template,bound", BOUNDS, ids=[t for t, _ in BOUNDS])
def test_largest_number_allowed_and_one_past(template: str, bound: int):
    at = HEAD + template.replace("N", str(bound)) + "\n"
    past = HEAD + template.replace("N", str(bound + 1)) + "\n"
    assert "number-too-large" not in codes(at)
    (d,) = [d for d in parse_text(past)[1] if d.code == "number-too-large"]
    assert f"at most {bound}" in d.message and d.severity == "error" and d.span.line >= 4
    # reading goes on: the coup after the bad token is read
    recs, _ = parse_text(past + "2. B 6-5 1/7 1/6\n")
    assert any(getattr(e, "number", None) == 2 for e in recs[0].elements)


def test_bounded_partie_and_position_numbers():
    assert "unknown-partie" not in codes(f'[Partie "a-ecrire {L.MAX_MARQUES}"]\n')
    assert "unknown-partie" in codes(f'[Partie "a-ecrire {L.MAX_MARQUES + 1}"]\n')
    ok = f"A{{1:15}} B{{1:15}} coups={L.MAX_COUP_NUMBER}/0 holes={L.MAX_HOLES}/0"
    assert parse_position(ok)[0] is not None
    for bad in (
        f"A{{1:15}} B{{1:15}} coups={L.MAX_COUP_NUMBER + 1}/0",
        f"A{{1:15}} B{{1:15}} holes={L.MAX_HOLES + 1}/0",
    ):
        spec, diags = parse_position(bad)
        assert spec is None and [d.code for d in diags] == ["position-bad-number"]


def test_score_events_are_bounded():
    r = run("score", "events", "A+1000000000000000000000000000000")
    assert r.exit_code == 2 and f"at most {L.MAX_ECOLE_POINTS} points" in r.output
    assert run("score", "events", f"A+{L.MAX_ECOLE_POINTS}").exit_code == 0
    assert run("score", "events", "A+4", "--holes", "A=100").exit_code == 2


# --- the reproducers of issue 18 ------------------------------------------------------------


@pytest.mark.parametrize("token", ["A+999999999 ", "B:école+999999999 "])
def test_a_big_mark_costs_nothing(tmp_path: Path, token: str):
    text = DOUZE.read_text(encoding="utf-8").replace("A+4 ", token)
    p = tmp_path / "m.trn"
    p.write_text(text, encoding="utf-8")
    t = time.perf_counter()
    r = run("check", str(p))
    assert time.perf_counter() - t < 10
    assert r.exit_code == 1 and "number-too-large" in r.output


# The child's own peak (VmHWM of its new address space): Linux's ru_maxrss of a forked
# child keeps the parent's peak, which is the whole test session's.
_HWM = "int(next(x for x in open('/proc/self/status') if x.startswith('VmHWM')).split()[1]) / 1024"


def _peak(code: str) -> tuple[float, float]:
    """(seconds, peak MB) of ``code`` run in a fresh interpreter."""
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import time\nt = time.perf_counter()\n" + code + f"\nprint(time.perf_counter() - t, {_HWM})",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    s, mb = out.stdout.split()[-2:]
    return float(s), float(mb)


def test_a_line_of_a_million_moves_is_cheap(tmp_path: Path):
    """4 MB on one line (1 M moves): the fifth move is refused at once, the rest skipped."""
    p = tmp_path / "moves.trn"
    p.write_text(HEAD + "1. A 2-1" + " 1/3" * 1_000_000 + " B+2\n", encoding="utf-8")
    s, mb = _peak(f"""
from trictrac.notation.reader import iter_records
(pr,) = iter_records({str(p)!r})
(c,) = pr.record.elements
assert len(c.moves) == 4 and [a.points for a in c.after] == [2], c.after
assert [d.code for d in pr.diagnostics] == ["too-many-moves"]""")
    assert s < 5 and mb < 200, (s, mb)


@pytest.mark.parametrize(
    "body",
    [
        "{ open\n" * 20_000,  # 20,000 unclosed comments, no blank line
        "{" * 200_000 + "\n",  # deep braces
        "(" * 200_000 + ")" * 200_000 + "\n",  # deep parentheses
        "1. A 6-5 A:école+4(" + "(" * 200_000 + "\n",
        "[" * 200_000 + "\n",
        "}" * 50_000 + "\n",
        "2. B 6-5 1/7 1/6" + " {c}" * 100_000 + "\n",  # a long line of comments: no slice per token
    ],
)
def test_adversarial_text_is_linear(body: str):
    t = time.perf_counter()
    _recs, diags = parse_text(HEAD + "1. A 2-1 1/3 1/2\n" + body)
    assert time.perf_counter() - t < 5
    assert len(diags) <= 201  # capped per game


def test_thousands_of_releves_in_one_game():
    body = "".join(f"relevé {1 + i % L.MAX_RELEVE}\n1. A 2-1 1/3 1/2\n2. B 2-1 1/3 1/2\n" for i in range(3000))
    t = time.perf_counter()
    r = run("check", "-", input=HEAD + body)
    assert time.perf_counter() - t < 60
    # every relevé is a finding here: the cost cap (issue 27) stops the game at
    # MAX_FINDINGS_JUDGED findings and says how many coups it left unverified
    (summary,) = [x for x in r.output.splitlines() if ": game 1 (" in x]
    verified = int(summary.split("): ")[1].split()[0])
    assert r.exit_code == 1 and "(stopped)" in summary
    assert f"the last {6000 - verified} coups are not verified" in r.output


# --- a bad Position reported once ---------------------------------------------------------


def test_a_bad_position_tag_is_reported_once():
    r = run("check", str(ROOT / "fixtures" / "broken" / "broken_position.trn"))
    lines = [x for x in r.output.splitlines() if "position-" in x]
    assert len(lines) == 5 and all(":4:" in x for x in lines)
    assert "5 text errors" in r.output


# --- one input reader -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "data,reason",
    [
        (b"", "empty file"),
        (b"  \n\n\t\n", "empty file"),
        (b'[A "x"]\n\x00\n', "NUL bytes"),
        (bytes(range(1, 32)) * 20, "binary file"),
        (bytes(range(128, 256)) * 20, "invalid UTF-8"),
        (b"\xff\xfe[\x00A\x00\x00\xd8", "invalid UTF-16"),
    ],
)
def test_junk_is_refused_with_its_reason(tmp_path: Path, data: bytes, reason: str):
    p = tmp_path / "junk.trn"
    p.write_bytes(data)
    with pytest.raises(InputError, match=reason):
        open_input(str(p))
    for cmd in (["check"], ["fmt"], ["stats"], ["replay"], ["annotate", "-o", str(tmp_path / "o.trn")]):
        r = run(cmd[0], str(p), *cmd[1:])
        assert r.exit_code == 2 and reason in r.stderr and len(r.stderr.splitlines()) == 1, (cmd, r.output)
    assert not (tmp_path / "o.trn").exists()


def test_directory_missing_and_unreadable(tmp_path: Path):
    with pytest.raises(InputError, match="a directory"):
        open_input(str(tmp_path))
    with pytest.raises(InputError, match="no such file"):
        open_input(str(tmp_path / "nope.trn"))
    if os.geteuid() != 0:  # root reads everything
        p = tmp_path / "locked.trn"
        p.write_text(DOUZE.read_text(encoding="utf-8"))
        p.chmod(0)
        with pytest.raises(InputError, match="cannot read"):
            open_input(str(p))


def test_utf16_and_latin1_are_read(tmp_path: Path):
    text = DOUZE.read_text(encoding="utf-8")
    for enc in ("utf-16", "utf-16-be", "utf-32"):
        p = tmp_path / f"{enc}.trn"
        p.write_bytes((("\ufeff" if enc == "utf-16-be" else "") + text).encode(enc))
        inp = open_input(str(p))
        with inp.stream() as fh:  # re-encoded as UTF-8 while read, never held whole
            assert inp.path is None and fh.read().decode("utf-8") == text
        r = run("check", str(p))
        assert r.exit_code == 0 and "Dupont - Martin" in r.output
    p = tmp_path / "latin1.trn"
    p.write_bytes(text.encode("latin-1", "replace"))
    assert open_input(str(p)).path == str(p)


def test_dash_is_standard_input_everywhere(tmp_path: Path):
    text = DOUZE.read_text(encoding="utf-8")
    assert run("check", "-", input=text).exit_code == 0
    assert run("fmt", "-", input=text).stdout == text
    assert run("fmt", "--check", "-", input=text).exit_code == 0
    assert "games 1" in run("stats", "-", input=text).output
    assert run("replay", "-", "--json", input=text).exit_code == 0
    r = run("annotate", "-", "-o", str(tmp_path / "a.trn"), input=text)
    assert r.exit_code == 0 and (tmp_path / "a.trn").read_text(encoding="utf-8") == text
    assert run("check", "-", input=b"\x00\x01").exit_code == 2


def test_check_goes_on_past_bad_files_and_sums_up(tmp_path: Path):
    r = run("check", str(tmp_path / "nope.trn"), str(DOUZE), str(tmp_path), str(DOUZE))
    assert r.exit_code == 2
    assert r.output.count("game 1 (Dupont - Martin)") == 2
    assert r.stdout.splitlines()[-1] == "4 files (2 unreadable), 2 games, 12 coups, 0 findings"
    assert "nope.trn: cannot read: no such file" in r.stderr and "a directory" in r.stderr


def test_no_color(monkeypatch):
    from trictrac.cli import common

    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert common.use_colour()
    monkeypatch.setenv("NO_COLOR", "1")
    assert not common.use_colour()


# --- nothing half-written -------------------------------------------------------------------


def test_fmt_write_rewrites_in_place_and_never_a_file_with_errors(tmp_path: Path):
    sloppy = tmp_path / "s.trn"
    sloppy.write_bytes((ROOT / "fixtures" / "records" / "douze_trous_sloppy.trn").read_bytes())
    bad = tmp_path / "bad.trn"
    bad.write_text(HEAD + "1. A 6-5 1/7 hop\n", encoding="utf-8")
    before = bad.read_bytes()
    r = run("fmt", "--write", str(sloppy), str(bad))
    assert r.exit_code == 2
    assert sloppy.read_bytes() == DOUZE.read_bytes() and bad.read_bytes() == before
    assert run("fmt", "--check", str(sloppy)).exit_code == 0
    assert sorted(x.name for x in tmp_path.iterdir()) == ["bad.trn", "s.trn"]  # no temporary left


def test_a_failed_write_leaves_the_old_file(tmp_path: Path, monkeypatch):
    from trictrac.notation import textio

    out = tmp_path / "out.trn"
    out.write_text("old\n")

    def boom(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(textio.os, "fsync", boom)
    r = run("annotate", str(DOUZE), "-o", str(out))
    assert r.exit_code == 2 and "No space left" in r.output
    assert out.read_text() == "old\n" and [x.name for x in tmp_path.iterdir()] == ["out.trn"]


def test_selfplay_that_fails_leaves_the_old_file(tmp_path: Path, monkeypatch):
    from trictrac.cli import selfplay as sp

    out = tmp_path / "games.trn"
    out.write_text("old\n")

    def games(*a, **k):
        from trictrac.notation.reader import parse_text as pt

        yield pt(DOUZE.read_text(encoding="utf-8"))[0][0]
        raise RuntimeError("partie did not end (bot bug)")

    monkeypatch.setattr(sp, "generate", games)
    r = run("selfplay", "-n", "3", "-o", str(out))
    assert r.exit_code != 0
    assert out.read_text() == "old\n" and [x.name for x in tmp_path.iterdir()] == ["games.trn"]


# --- a comment above the tags belongs to the next game (issue 13 §4) -------------------------


def test_a_comment_above_the_tags_belongs_to_the_next_game():
    text = (
        '{sur la partie 1}\n[A "1"]\n\n1. A 2-1 1/3 1/2\n{fin de la partie 1}\n\n'
        '{sur la partie 2}\n[A "2"]\n\n1. A 2-1 1/3 1/2\n'
    )
    by_text = [[getattr(e, "text", "coup") for e in r.elements] for r in parse_text(text)[0]]
    by_bytes = [
        [getattr(e, "text", "coup") for e in pr.record.elements] for pr in iter_records(io.BytesIO(text.encode()))
    ]
    assert by_text == by_bytes == [["sur la partie 1", "coup", "fin de la partie 1"], ["sur la partie 2", "coup"]]


def test_progress_bars_only_on_a_terminal(monkeypatch):
    from trictrac.cli import common

    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    assert isinstance(common.progress(100, "x"), common._NoBar)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert not isinstance(common.progress(100, "x"), common._NoBar)
