"""The verifier on the books' own examples: one fixture per kind of finding (issue 5).

Each ``fixtures/findings/*.trn`` is built from a worked example of RULES.md §11 (the
``Annotator`` header names it) and has a sibling ``*.expected.json`` with the exact
findings: kind, coup, who, points entitled and marked.
"""

from __future__ import annotations

import pytest
from verify_helpers import brief, expected, fixture_paths, one_record

from trictrac.replay.verifier.findings import FINDING_KINDS
from trictrac.replay.verifier.verify import verify, verify_file

PATHS = fixture_paths()


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_fixture_gives_exactly_the_expected_findings(path):
    reports = list(verify_file(str(path)))
    assert len(reports) == 1
    assert brief(reports[0].findings) == expected(path)
    for f in reports[0].findings:
        assert f.line > 0 and f.file == str(path)
        assert f.rule == FINDING_KINDS[f.kind]


def test_every_kind_has_a_fixture():
    kinds = {f["kind"] for p in PATHS for f in expected(p)}
    assert kinds == set(FINDING_KINDS)


def test_E46_001_r59_single_ecole_moves_the_marked_points():
    rep = list(verify_file(str(PATHS[0].parent / "e46-ecole-plein-not-made.trn")))[0]
    st = rep.final_score
    assert (st.a.points, st.b.points) == (0, 8)


def test_E46_001_r59_rigueur_double_ecole_is_16():
    rep = list(verify_file(str(PATHS[0].parent / "e46-rigueur-double-ecole.trn")))[0]
    assert rep.profile_name == "rigueur"
    assert rep.final_score.b.holes == 2 and rep.final_score.b.points == 4  # 16 in bredouille


def test_E46_profile_override_changes_the_ecole():
    from trictrac.replay.rules.profiles import find_profile

    path = str(PATHS[0].parent / "e46-rigueur-double-ecole.trn")
    rep = list(verify_file(path, find_profile("lelasseux-1852")))[0]
    # under 003 §192 the école is 8: a claim of 16 is 8 too many (a fausse école)
    assert [f.kind for f in rep.findings] == ["ecole-plein-not-made", "ecole-claimed-wrongly"]
    assert rep.findings[1].marked == 16 and rep.findings[1].entitled == 8


def test_E40_001_r53_jeton_back_to_six():
    rep = list(verify_file(str(PATHS[0].parent / "e40-ecole-par-trop.trn")))[0]
    assert (rep.final_score.a.points, rep.final_score.a.holes, rep.final_score.b.points) == (6, 0, 8)


def test_E41_003_183_fausse_ecole_A_one_hole_and_six():
    rep = list(verify_file(str(PATHS[0].parent / "e41-fausse-ecole.trn")))[0]
    st = rep.final_score
    assert (st.a.holes, st.a.points, st.b.points) == (1, 6, 0)


def test_E44_001_r64_ecole_costs_the_bredouille():
    rep = list(verify_file(str(PATHS[0].parent / "e44-bredouille-lost.trn")))[0]
    st = rep.final_score
    assert st.a.points == 8 and st.a.bredouille is False


def test_E44_without_the_ecole_the_receipts_stay_in_bredouille():
    text = (PATHS[0].parent / "e44-bredouille-lost.trn").read_text(encoding="utf-8")
    text = text.replace("1. A 1-1 5/7 B+4 A:école+4", "1. A 1-1 5/7")
    rep = verify(one_record(text))
    assert rep.findings == []
    assert rep.final_score.a.points == 4 and rep.final_score.a.bredouille is True


def test_E28_001_r55_claim_counts_against_receipts():
    rep = list(verify_file(str(PATHS[0].parent / "e28-credited-ecole.trn")))[0]
    par_moins = [f for f in rep.findings if f.kind == "ecole-par-moins"][0]
    assert par_moins.who == "A" and par_moins.entitled - par_moins.marked == 2
    assert par_moins.detail == "credited"


def test_E45_ecole_impossible_late_mark_is_allowed():
    text = (PATHS[0].parent / "e45-ecole-impossible.trn").read_text(encoding="utf-8")
    text = text.replace("A+8 -6 -6 B+4 B:école+6", "A+8 -6 -6 B+4 A+6")
    rep = verify(one_record(text))
    assert [f.kind for f in rep.findings] == []


def test_claim_window_closes_at_the_claimants_throw():
    # the same claim one coup earlier (before B throws) is in time
    text = (PATHS[0].parent / "e20-ecole-too-late.trn").read_text(encoding="utf-8")
    text = text.replace("1. A 4-1 1/6\n2. B 3-2 1/6 B:école+2", "1. A 4-1 1/6 B:école+2\n2. B 3-2 1/6")
    rep = verify(one_record(text))
    assert brief(rep.findings) == [{"kind": "ecole-par-moins", "coup": 1, "who": "A", "entitled": 2, "marked": 0}]


def test_missing_checker_stops_one_game_not_the_file(tmp_path):
    bad = (PATHS[0].parent / "missing-checker.trn").read_text(encoding="utf-8")
    good = (PATHS[0].parent / "releve-without-leave.trn").read_text(encoding="utf-8")
    p = tmp_path / "two.trn"
    p.write_text(bad + "\n" + good, encoding="utf-8")
    reps = list(verify_file(str(p)))
    assert [r.stopped for r in reps] == [True, False]
    assert reps[0].coups_verified == 1
    assert [f.kind for f in reps[1].findings] == ["releve-without-leave"]
    assert reps[1].findings[0].line > 10


def test_D25_bonne_compagnie_over_mark_corrected_before_playing_is_no_ecole():
    from trictrac.replay.rules.profiles import find_profile

    text = (PATHS[0].parent / "ecole-par-moins.trn").read_text(encoding="utf-8")
    rec = one_record(text.replace("1. A 3-1 A+2 1/5 B:école+2", "1. A 3-1 A+6 A:correction-2 1/5"))
    strict = verify(rec, find_profile("lelasseux-1852"))
    assert [f.kind for f in strict.findings] == ["ecole-par-trop"]  # jeton released (003 §167)
    assert verify(rec, find_profile("bonne-compagnie")).findings == []  # 001 III on r.41
    assert strict.final_score.a.points == 4


def test_D10_forgotten_trou_sans_bouger_per_profile():
    from trictrac.replay.rules.profiles import find_profile

    # E46's position with B's coin empty: 4-2 fills two ways (8) and hits the coin (4) = 12,
    # a whole hole; A marks nothing (003 §184 vs 000 ~l.760, 001 III on r.50)
    text = (
        '[Event "x"]\n[Position "A{1:2,2:1,6:1,7:2,8:1,9:2,10:2,11:2,12:2} B{1:15} coin=1/0 coups=9/9"]\n\n'
        "1. A 4-2 2/8 B:école+12\n"
    )
    rec = one_record(text)
    kinds = {
        p: [f.kind for f in verify(rec, find_profile(p)).findings]
        for p in ("lelasseux-1852", "lebrun-1828", "bonne-compagnie")
    }
    assert kinds["lelasseux-1852"] == ["ecole-par-moins"]
    assert kinds["lebrun-1828"] == ["ecole-claimed-wrongly"]
    assert kinds["bonne-compagnie"] == ["ecole-claimed-wrongly"]


def test_E34_003_176_ne_marque_pas_school_gives_a_simple_hole():
    rep = list(verify_file(str(PATHS[0].parent / "e34-ne-marque-pas.trn")))[0]
    st = rep.final_score
    assert (st.b.holes, st.b.points, st.a.points) == (1, 0, 0)  # simple, not double
