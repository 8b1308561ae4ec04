"""``trictrac check`` / ``annotate`` / ``replay`` wiring (issue 5)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from verify_helpers import FINDINGS_DIR, expected, generated

from trictrac.cli.main import cli
from trictrac.notation.reader import parse_text
from trictrac.notation.writer import write_record, write_records
from trictrac.replay.verifier.verify import verify_text

E40 = str(FINDINGS_DIR / "e40-ecole-par-trop.trn")


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_check_prints_one_line_per_finding_and_exits_1():
    r = run("check", E40)
    assert r.exit_code == 1
    lines = r.output.splitlines()
    assert lines[0].startswith(f"{E40}:8:1: ecole-par-trop: A marks 10")
    assert "1 finding" in lines[1]


def test_check_clean_file_exits_0(tmp_path):
    p = tmp_path / "clean.trn"
    p.write_text(write_records(generated(2, 7, "douze-trous", False)), encoding="utf-8")
    r = run("check", str(p))
    assert r.exit_code == 0, r.output
    assert r.output.count(" coups, clean;") == 2


def test_check_unreadable_exits_2(tmp_path):
    r = run("check", str(tmp_path / "nope.trn"))
    assert r.exit_code == 2
    assert "Error:" in r.output and "Traceback" not in r.output
    empty = tmp_path / "empty.trn"
    empty.write_text("", encoding="utf-8")
    assert run("check", str(empty)).exit_code == 2


def test_check_json_matches_the_fixture():
    r = run("check", E40, "--json")
    assert r.exit_code == 1
    data = json.loads(r.output)
    got = [{k: f[k] for k in ("kind", "coup", "who", "entitled", "marked")} for f in data[0]["findings"]]
    assert got == expected(FINDINGS_DIR / "e40-ecole-par-trop.trn")
    assert data[0]["final_score"]["B"]["points"] == 8


def test_check_profile_option_overrides_the_header():
    p = str(FINDINGS_DIR / "e46-rigueur-double-ecole.trn")
    r = run("check", p, "--profile", "lelasseux-1852", "--json")
    kinds = [f["kind"] for f in json.loads(r.output)[0]["findings"]]
    assert kinds == ["ecole-plein-not-made", "ecole-claimed-wrongly"]
    assert run("check", p, "--profile", "nosuch").exit_code == 2


def test_check_jobs_gives_the_same_findings(tmp_path):
    files = sorted(FINDINGS_DIR.glob("*.trn"))
    p = tmp_path / "all.trn"
    p.write_text("\n".join(f.read_text(encoding="utf-8") for f in files), encoding="utf-8")
    one = json.loads(run("check", str(p), "--json").output)
    two = json.loads(run("check", str(p), "--json", "--jobs", "2").output)
    assert [g["findings"] for g in one] == [g["findings"] for g in two]
    assert len(one) == len(files)


def test_annotate_output_parses_and_round_trips(tmp_path):
    out = tmp_path / "out.trn"
    src = FINDINGS_DIR / "e44-bredouille-lost.trn"
    before = src.read_text(encoding="utf-8")
    r = run("annotate", str(src), "-o", str(out), "--explain")
    assert r.exit_code == 0  # annotate did its job: findings do not change its exit (issue 15)
    text = out.read_text(encoding="utf-8")
    assert "{bredouille-lost:" in text and "{entitled: roller" in text and " ?" in text
    records, diags = parse_text(text)
    assert not [d for d in diags if d.severity == "error"]
    assert write_record(records[0]) == text
    assert src.read_text(encoding="utf-8") == before
    # the annotations are comments and glyphs: the verdict does not change
    assert [f.kind for f in verify_text(text)[0].findings] == ["ecole-par-trop", "bredouille-lost"]


def test_annotate_section_findings(tmp_path):
    out = tmp_path / "out.trn"
    r = run("annotate", str(FINDINGS_DIR / "releve-without-leave.trn"), "-o", str(out))
    assert r.exit_code == 0  # annotate did its job: findings do not change its exit (issue 15)
    assert "{releve-without-leave:" in out.read_text(encoding="utf-8")


def test_annotate_in_french_says_the_findings_in_the_game_words(tmp_path):
    """``--lang fr``: the comments as the French pages say them (publish.messages), the
    kind's id kept; the record still parses, round-trips and keeps its verdict."""
    from trictrac.publish.messages import finding_consequence, finding_message

    src = FINDINGS_DIR / "e44-bredouille-lost.trn"
    out_fr, out_en = tmp_path / "fr.trn", tmp_path / "en.trn"
    assert run("annotate", str(src), "-o", str(out_fr), "--explain", "--lang", "fr").exit_code == 0
    assert run("annotate", str(src), "-o", str(out_en), "--explain").exit_code == 0
    fr, en = out_fr.read_text(encoding="utf-8"), out_en.read_text(encoding="utf-8")
    rec = parse_text(src.read_text(encoding="utf-8"))[0][0]
    names = {s: rec.headers[s] for s in "AB"}
    for f in verify_text(src.read_text(encoding="utf-8"))[0].findings:
        said = f"{{{f.kind}: {finding_message(f, 'fr', names)}"
        assert said in fr and f.message not in fr
        if f.consequence:
            assert finding_consequence(f, "fr", names) in fr
        assert f"{{{f.kind}: {f.message}" in en
    assert "{la règle donne : " in fr and "{entitled: roller" not in fr
    records, diags = parse_text(fr)
    assert not [d for d in diags if d.severity == "error"] and write_record(records[0]) == fr
    assert [f.kind for f in verify_text(fr)[0].findings] == ["ecole-par-trop", "bredouille-lost"]


def test_replay_json_positions_and_events():
    r = run("replay", E40, "--json")
    assert r.exit_code == 0
    coups = json.loads(r.output)[0]["coups"]
    assert coups[0]["position"].startswith("A{1:8,6:1,8:1,9:1,11:2,12:2} B{1:14,10:1} turn=B")
    assert coups[0]["events"] == [{"side": "mover", "kind": "battre-a-vrai", "ways": 1, "points": 2, "target": 15}]
    assert coups[0]["score"]["A"]["points"] == 6


def test_annotate_injected_records_round_trip(tmp_path):
    """Annotated records parse again, round-trip, and keep their findings."""
    import random

    from trictrac.replay.generate.inject import inject

    rec = generated(2, 7, "douze-trous", False)[0]
    new, injs = inject(rec, 3, random.Random(5))
    src = tmp_path / "in.trn"
    src.write_text(write_record(new), encoding="utf-8")
    out = tmp_path / "out.trn"
    r = run("annotate", str(src), "-o", str(out), "--explain")
    assert r.exit_code == 0  # annotate did its job: findings do not change its exit (issue 15)
    text = out.read_text(encoding="utf-8")
    records, diags = parse_text(text)
    assert not [d for d in diags if d.severity == "error"]
    assert write_record(records[0]) == text
    got = [(f.kind, f.index) for f in verify_text(text)[0].findings]
    assert got == [(i.kind, i.index) for i in injs]
    assert text.count("{entitled: roller") == len(new.coups)


def test_check_tunes_the_collector_only_while_it_runs() -> None:
    """``check`` walks an archive with the collector tuned (cli/common.py:
    ``batch_collector``, issue 17) and gives it back as it found it, even when the
    command exits with findings; inside, the young generation is larger and the loaded
    modules are frozen out of its passes."""
    import gc

    from trictrac.cli.common import batch_collector

    before = (gc.get_threshold(), gc.get_freeze_count())
    seen: list[tuple[tuple[int, int, int], int]] = []

    @batch_collector()
    def inside() -> None:
        seen.append((gc.get_threshold(), gc.get_freeze_count()))
        raise SystemExit(1)

    with pytest.raises(SystemExit):
        inside()
    assert seen[0][0][0] == 10_000 and seen[0][1] > 0
    assert (gc.get_threshold(), gc.get_freeze_count()) == before
    res = run("check", E40)
    assert res.exit_code == 1, res.output
    assert (gc.get_threshold(), gc.get_freeze_count()) == before
