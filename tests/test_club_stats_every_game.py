"""Statistics count every game (issue 15): a game with table mistakes is counted from the
verifier's judgement instead of being skipped, and the games and coups with findings are
reported apart (replay/verifier/stats.py, cli/stats.py, club/queries.py club_stats)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from trictrac.cli.main import cli as main
from trictrac.club.importer import import_records
from trictrac.notation.reader import iter_records
from trictrac.replay.verifier.stats import corpus_stats
from trictrac.replay.verifier.verify import verify

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "fixtures" / "findings"


def _records(paths):
    out = []
    for p in paths:
        out += [x.record for x in iter_records(p, file=str(p)) if not any(d.severity == "error" for d in x.diagnostics)]
    return out


def test_games_with_illegal_moves_are_counted_not_skipped() -> None:
    files = sorted(FIX.glob("*.trn"))
    recs = _records(files)
    st = corpus_stats(recs)
    assert st["skipped"] == [] and st["games"] == len(recs)
    reports = [verify(r, trace=True, recover=True) for r in recs]
    # each game counts every coup the verifier judged
    assert st["coups"] == sum(len(rep.trace) for rep in reports)
    f = st["findings"]
    assert f["games_with_findings"] == sum(1 for rep in reports if rep.findings)
    assert f["findings"] == sum(len(rep.findings) for rep in reports)
    assert 0 < f["coups_with_findings"] <= f["findings"]


def test_a_mistake_changes_only_its_own_game() -> None:
    """Stats of clean games plus one game with an illegal move = the clean stats plus that
    game's coups and events: nothing else is lost."""
    from club_helpers import selfplay_records

    clean = list(selfplay_records(3))
    bad = (
        _records([FIX / "e58-illegal-move.trn"])
        if (FIX / "e58-illegal-move.trn").exists()
        else [
            r for r in _records(sorted(FIX.glob("*.trn"))) if any(f.kind == "illegal-move" for f in verify(r).findings)
        ][:1]
    )
    assert bad
    a = corpus_stats(clean)
    b = corpus_stats(clean + bad)
    assert b["games"] == a["games"] + 1 and b["coups"] == a["coups"] + len(verify(bad[0]).trace)
    assert a["findings"]["games_with_findings"] == 0 and b["findings"]["games_with_findings"] == 1


def test_cli_stats_and_db_stats_report_the_findings(tmp_path: Path) -> None:
    files = sorted(FIX.glob("*.trn"))
    runner = CliRunner()
    res = runner.invoke(main, ["stats", *map(str, files), "--json"])
    assert res.exit_code == 0, res.output
    st = json.loads(res.output)
    assert st["skipped"] == [] and st["games"] == len(_records(files))
    text = runner.invoke(main, ["stats", *map(str, files)]).output
    assert f"in {st['findings']['games_with_findings']} of {st['games']} games" in text
    db_path = tmp_path / "f.db"
    rep = import_records(db_path, files)
    res = runner.invoke(main, ["db", "stats", str(db_path), "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    assert d["corpus"]["games"] == d["games"] == rep.imported + rep.unchanged
    assert d["corpus"]["skipped"] == []
    assert d["corpus"]["findings"]["games_with_findings"] == d["games_with_findings"] > 0
    assert 0 < d["coups_with_findings"] <= d["findings"]
