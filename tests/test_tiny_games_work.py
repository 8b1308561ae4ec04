"""A file of many tiny games (issue 27's last input over the bound: 5,126 one-coup games,
each a typo from the opening) costs per game only what is its own: held in work, not in
seconds.  What every game repeated is done once: the opening's play sets and outcomes
(``moves.legal_plays``, ``scoring.play_outcome``), the nearest plays of a written form
from one of those sets (``judges.play.nearest_plays``), and ``check`` writes its reports
by chunks, not a write and a flush per game."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fuzz.harness import grow

from trictrac.notation.reader import iter_records
from trictrac.notation.record import Coup
from trictrac.replay.rules import moves, scoring
from trictrac.replay.verifier import verify as V
from trictrac.replay.verifier.judges import play as P
from trictrac.replay.verifier.verify import verify

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "fixtures" / "fuzz" / "over-bound" / "d5cce909a3a7a4ec.raw"


def _clear() -> None:
    moves.clear_cache()
    scoring.clear_cache()
    V.clear_cache()
    P._NEAREST.clear()


def _counted(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[int]:
    calls = [0]
    real = getattr(module, name)

    def counting(*args: Any, **kw: Any) -> Any:
        calls[0] += 1
        return real(*args, **kw)

    monkeypatch.setattr(module, name, counting)
    return calls


def _tiny_games(n: int) -> bytes:
    data, shape = grow(TINY.read_bytes())
    assert shape == "finding-dense"
    return b"\n[\n".join(data.split(b"\n[\n")[:n])  # the header's game and n - 1 tiny ones


def test_the_opening_is_worked_out_once_per_roll_not_once_per_game(monkeypatch: pytest.MonkeyPatch):
    games = list(iter_records(io.BytesIO(_tiny_games(600)), file="tiny"))
    firsts = [next(el for el in pr.record.elements if isinstance(el, Coup)) for pr in games]
    assert len(firsts) == 600
    # each game's one coup: from the opening, a move the throw cannot make ("did you mean")
    throws = {(c.side, tuple(sorted(c.roll))) for c in firsts}
    assert len(throws) <= 2
    _clear()
    enumerated = _counted(monkeypatch, moves, "_legal_plays")
    scored = _counted(monkeypatch, scoring, "_score_one")
    ranked = _counted(monkeypatch, P, "_nearest_plays")
    reports = [
        verify(pr.record, None, file="tiny", game=i, trace=False, diagnostics=pr.diagnostics, recover=True)
        for i, pr in enumerate(games)
    ]
    assert all(r.findings and r.findings[0].detail == "did-you-mean" for r in reports[1:])
    # before: one enumeration, one scoring and one ranking of the nearest plays per game
    assert enumerated[0] <= len(throws)
    assert scored[0] <= len(throws)
    assert ranked[0] <= len(throws)


@pytest.mark.parametrize("name", ["records", "findings", "books"])
def test_the_opening_values_shared_between_games_say_what_fresh_ones_say(name: str):
    """Every game verified after the caches are emptied says what it says when the
    opening's play sets, outcomes and nearest plays come from the games before it."""
    files = sorted((ROOT / "fixtures" / name).glob("*.trn"))
    assert files
    texts = [f.read_bytes() for f in files] + [_tiny_games(40)]
    for text in texts:
        games = list(iter_records(io.BytesIO(text), file="x"))
        for i, pr in enumerate(games):
            warm = verify(pr.record, None, file="x", game=i, trace=True, diagnostics=pr.diagnostics, recover=True)
            _clear()
            fresh = verify(pr.record, None, file="x", game=i, trace=True, diagnostics=pr.diagnostics, recover=True)
            assert warm.as_dict() == fresh.as_dict()
            assert warm.trace == fresh.trace


def test_check_writes_its_reports_by_chunks_not_once_per_game(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    from trictrac.cli import check as C
    from trictrac.cli.main import cli

    path = tmp_path / "tiny.trn"
    path.write_bytes(_tiny_games(2_000))
    writes = _counted(monkeypatch, C.click, "echo")
    result = CliRunner().invoke(cli, ["check", str(path), "--lang", "en"])
    assert result.exit_code == 1
    out = result.stdout
    assert out.count(": game ") == 2_000
    # before: one click.echo (a stream lookup, a colour test, a flush) per game
    assert writes[0] <= len(out) // C._Batch.CHUNK + 2
