"""Every count is the verdict's (issue 25 §3): ``trictrac stats`` counts from the
same replay ``trictrac check`` reports, so its figures equal the counts derived from
``trictrac replay --json`` coup by coup, on every fixture."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from trictrac.cli.main import cli
from trictrac.notation.reader import iter_records
from trictrac.replay.verifier.stats import corpus_stats

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(p for d in ("records", "findings", "books", "corpus") for p in (ROOT / "fixtures" / d).glob("*.trn"))


def _from_replay_json(path: Path) -> dict[str, object]:
    res = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    assert res.exit_code == 0, res.output
    games = json.loads(res.output)
    c: Counter[str] = Counter()
    for g in games:
        coups = g["coups"]
        if not coups:
            continue
        c["games"] += 1
        for t in coups:
            c["coups"] += 1
            c["leaves"] += t["left"]
            c["sorties"] += t["releve_ended"] and not t["left"]
            c["could_leave"] += t["could_leave"]
            c["stayed"] += t["could_leave"] and not t["left"]
            c["pour_tout"] += t["pour_tout"]
            c["ne_marque_pas"] += t["ne_marque_pas"]
            c["holes"] += sum(2 if h["hole"] == "double" else 1 for h in t["holes"])
            c["double_holes"] += sum(h["hole"] == "double" for h in t["holes"])
            c["releves"] += t["releve_ended"]
        c["releves"] += not coups[-1]["releve_ended"]
        c["findings"] += len(g["findings"])
        c["partie_finished"] += g["partie"] is not None
    return c


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_stats_equal_the_counts_of_replay_json(path: Path) -> None:
    recs = [pr.record for pr in iter_records(path, file=str(path))]
    st = corpus_stats(recs)
    want = _from_replay_json(path)
    got = {k: st[k] for k in ("coups", "leaves", "sorties", "could_leave", "stayed", "pour_tout", "ne_marque_pas")}
    got |= {"holes": st["holes"], "double_holes": st["double_holes"], "releves": st["releves"]}
    assert got == {k: want.get(k, 0) for k in got}
    assert st["games"] == want.get("games", 0)
    assert st["findings"]["findings"] == want.get("findings", 0)
    assert st["douze_trous"]["finished"] == want.get("partie_finished", 0)


def test_a_double_hole_then_je_reste_is_one_stay_and_one_double_hole() -> None:
    """The club's case (``A+4t2b A:reste``): one could-leave, one stay, no leave, and one
    double hole, which is two holes — as ``check`` says the score."""
    path = ROOT / "fixtures" / "records" / "comments_glyphs_ecoles.trn"
    st = corpus_stats([pr.record for pr in iter_records(path, file=str(path))])
    assert (st["could_leave"], st["stayed"], st["leaves"]) == (1, 1, 0)
    assert (st["holes"], st["double_holes"]) == (2, 1)
    res = CliRunner().invoke(cli, ["check", "--json", str(path)])
    kinds = Counter(f["kind"] for g in json.loads(res.output) for f in g["findings"])
    assert st["findings"]["by_kind"] == dict(kinds) and st["findings"]["ecoles"] == sum(kinds.values())
