"""``trictrac selfplay`` writes a club's or a federation's archive (issue 30): players drawn
from a list, dates over seasons, the same file from the same seed, and parts (``--first``)
that joined are the file made at once."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from trictrac.cli.main import cli
from trictrac.notation.reader import iter_records

NAMES = ["Jean Dupont", "Marie Martin", "Élise Faure", "Paul Blanc", "Odile Girard"]


def _run(tmp: Path, *args: str) -> Path:
    out = tmp / f"out{len(list(tmp.glob('out*.trn')))}.trn"
    r = CliRunner().invoke(cli, ["selfplay", "--seed", "4", "--players", str(tmp / "names.txt"), *args, "-o", str(out)])
    assert r.exit_code == 0, r.output
    return out


def test_players_seasons_and_parts(tmp_path: Path) -> None:
    (tmp_path / "names.txt").write_text("# the club\n" + "\n".join(NAMES) + "\n\n", encoding="utf-8")
    whole = _run(
        tmp_path, "-n", "4", "--seasons", "2", "--first-season", "2030", "--inject", "1", "--inject-every", "2"
    )
    recs = [p.record for p in iter_records(whole, file=str(whole))]
    assert len(recs) == 4
    for r in recs:
        assert r.headers["A"] in NAMES and r.headers["B"] in NAMES and r.headers["A"] != r.headers["B"]
        assert (
            r.headers["Date"][:4] in ("2030", "2031") and r.headers["Event"] == f"Championnat {r.headers['Date'][:4]}"
        )
    assert (
        whole.read_text()
        == _run(
            tmp_path, "-n", "4", "--seasons", "2", "--first-season", "2030", "--inject", "1", "--inject-every", "2"
        ).read_text()
    )  # the same seed, the same file
    a = _run(tmp_path, "-n", "2", "--seasons", "2", "--first-season", "2030", "--inject", "1", "--inject-every", "2")
    b = _run(
        tmp_path, "-n", "2", "--first", "2", "--seasons", "2", "--first-season", "2030", "--inject", "1",
        "--inject-every", "2",
    )  # fmt: skip
    assert a.read_text() + "\n" + b.read_text() == whole.read_text()
    assert [r.headers["Round"] for r in recs] == ["1", "2", "3", "4"]


def test_a_list_too_short_is_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "names.txt").write_text("Jean\nMarie\n", encoding="utf-8")
    r = CliRunner().invoke(cli, ["selfplay", "-n", "1", "--players", str(tmp_path / "names.txt")])
    assert r.exit_code == 2 and "at least 4" in r.output and "Traceback" not in r.output
