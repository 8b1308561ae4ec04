"""The table's own law in the verifier (issue 5): remedies after a misplay, the late
école impossible, bredouilles lost by marking, the end of a partie or marqué, and the
``Result`` header.  Positions come from the books' examples (RULES.md §11)."""

from __future__ import annotations

import dataclasses

import pytest
from verify_helpers import generated

from trictrac.replay.rules.profiles import find_profile
from trictrac.replay.verifier.verify import verify, verify_text

# E58 (003 §201): A holds 2-1 with checkers on 5, 6, 7, 8 and the talon
E58 = '[Partie "douze-trous"]\n[Position "A{1:5,5:1,6:2,7:2,8:1,11:2,12:2} B{1:13,12:2} coin=1/1 coups=9/9"]\n\n'
# E20 (003 §135): A's 3-1 hits à vrai for 4
E20 = '[Partie "{partie}"]\n[Position "A{{1:9,8:1,9:1,11:2,12:2}} B{{1:14,10:1}} coin=1/0 coups=5/5 {score}"]\n\n'
# B's first throw, A's checker on B's 20: playing only 1/3 leaves the ace playable
FIRST = '[Partie "douze-trous"]\n[Position "A{1:14,5:1} B{1:15} turn=B coups=1/0"]\n\n'
# E45 (001 r.62): A's sonnez cannot be played; it conserves (6) and hits two checkers (8)
E45 = (
    '[Partie "douze-trous"]\n[Position "A{7:2,8:2,9:2,10:3,11:3,12:3} B{1:5,7:2,8:2,9:2,10:1,11:1,12:2} '
    'coin=1/1 coups=20/20"]\n\n'
)


def one(text: str, profile: str | None = None):
    reps = verify_text(text, find_profile(profile) if profile else None)
    assert len(reps) == 1
    return reps[0]


def kinds(rep) -> list[tuple[str, str | None]]:
    return [(f.kind, f.detail) for f in rep.findings]


# -- remedies (RULES.md §9.5) -----------------------------------------------------------


def test_E58_003_201_opponent_puts_the_misplaced_ace_right():
    rep = one(E58 + "1. A 2-1 6/8 1/3 B:fait-jouer(6/8 1/2)\n")
    assert kinds(rep) == [("illegal-move", "wrong-distance")]
    assert "played again as 6/8 1/2 at B's demand" in rep.findings[0].consequence
    after = rep.trace[0].position_after  # seen from B, the next to move
    assert after.other[1] == 4 and after.other[2] == 1 and after.other[8] == 2 and after.other[6] == 1


def test_E58_003_201_the_correct_first_checker_stays():
    rep = one(E58 + "1. A 2-1 6/8 1/3 B:fait-jouer(5/7 6/7)\n")
    assert ("remedy-not-allowed", "first-number") in kinds(rep)
    f = next(f for f in rep.findings if f.kind == "remedy-not-allowed")
    assert f.who == "B" and f.col > 1  # points at the replay token, not the coup
    # the game goes on from the replay as the table played it
    assert rep.trace[0].position_after.other[7] == 4


def test_E58_003_211_no_tout_d_une_after_a_correct_first_number():
    rep = one(E58 + "1. A 2-1 6/8 1/3 B:fait-jouer(1/4)\n")
    assert ("remedy-not-allowed", "first-number") in kinds(rep)
    # said: the first number stays, only the misplaced checker is taken back (no tout d'une)
    assert (
        "the first number was played right" in next(f for f in rep.findings if f.kind == "remedy-not-allowed").message
    )


def test_a_legal_play_is_not_replayed_at_the_opponents_demand():
    rep = one(E58 + "1. A 2-1 1/3 1/2 B:fait-jouer(1/4)\n")
    assert kinds(rep) == [("remedy-not-allowed", "no-fault")]


def test_the_roller_may_replay_his_legal_play_with_the_same_checkers():
    assert kinds(one(E58 + "1. A 2-1 1/3 1/2 A:rejoue(1/2 1/3)\n")) == []
    rep = one(E58 + "1. A 2-1 1/3 1/2 A:rejoue(6/8 7/8)\n")
    assert kinds(rep) == [("remedy-not-allowed", "touched-checker")]
    # bonne compagnie drops the strict touch rules (001 III on r.17)
    assert kinds(one(E58 + "1. A 2-1 1/3 1/2 A:rejoue(6/8 7/8)\n", "bonne-compagnie")) == []


def test_an_illegal_replay_is_reported_with_the_legal_alternatives():
    rep = one(E58 + "1. A 2-1 6/8 1/3 B:fait-jouer(11/13 1/2)\n")  # onto B's coin
    f = next(f for f in rep.findings if f.kind == "remedy-not-allowed")
    assert f.detail == "illegal" and "against the rules" in f.message and "1/3 1/2" in f.alternatives


def test_a_replay_that_cannot_be_played_leaves_the_written_play():
    rep = one(E58 + "1. A 2-1 6/8 1/3 B:fait-jouer(3/5 6/7)\n")
    assert ("remedy-not-allowed", "not-executable") in kinds(rep)
    assert rep.trace[0].position_after.other[3] == 1  # the checker stays on 3


def test_003_216_unplayed_number_left_standing_gives_two_points():
    rep = one(FIRST + "1. B 2-1 1/3 A+2\n")
    assert kinds(rep) == [("unplayed-number", "both-numbers")]
    assert rep.final_score.a.points == 2


def test_003_216_unplayed_number_replayed_gives_nothing():
    rep = one(FIRST + "1. B 2-1 1/3 A:fait-jouer(1/3 1/2)\n")
    assert kinds(rep) == [("unplayed-number", "both-numbers")]
    assert rep.final_score.a.points == 0
    rep = one(FIRST + "1. B 2-1 1/3 A+2 A:fait-jouer(1/3 1/2)\n")
    assert [f.kind for f in rep.findings] == ["unplayed-number", "unclaimed-ecole"]
    assert rep.findings[1].who == "A" and rep.findings[1].marked == 2 and rep.findings[1].entitled == 0


# -- école impossible completed late (RULES.md §7.8; 001 r.62) ------------------------------


def test_E45_001_r62_missing_points_added_during_the_opponents_coup():
    rep = one(E45 + "1. A 6-6 A+8 -6 -6 B+4\n2. B 2-1 A+6 1/3 1/2\n")
    assert kinds(rep) == [("ecole-impossible", None)]
    assert (rep.final_score.a.holes, rep.final_score.a.points) == (1, 2)
    assert any("Lepeintre 1818, rule 63" in str(n) for n in rep.notes)


def test_E45_001_r62_after_throwing_again_the_omission_is_established():
    # A's 2-1 is worth 10 to him; his 6 count for this throw, not for the sonnez
    text = E45 + "1. A 6-6 A+8 -6 -6 B+4\n2. B 2-1 1/3 1/2\n3. A 2-1 A+6 10/12 11/12\n"
    rep = one(text)
    assert [f.kind for f in rep.findings] == ["ecole-impossible", "unclaimed-ecole"]
    f = rep.findings[1]
    assert (f.coup, f.who, f.entitled, f.marked) == (3, "A", 10, 6)


# -- bredouille lost by the marks (RULES.md §5.5; 003 §145, §191) ---------------------------


@pytest.mark.parametrize("mark", ["A+4t1", "A+4t1s"])
def test_003_145_double_hole_marked_simple_is_lost_once_played(mark):
    text = E20.format(partie="douze-trous", score="points=10b/0") + f"1. A 3-1 {mark} 8/11 9/10\n"
    rep = one(text)
    assert [(f.kind, f.who) for f in rep.findings] == [("bredouille-lost", "A")]
    assert rep.final_score.a.holes == 1 and rep.entitled_score.a.holes == 2
    # bonne compagnie always corrects (001 III on r.48)
    assert one(text, "bonne-compagnie").final_score.a.holes == 2


def test_003_145_points_marked_without_the_second_jeton_lose_the_bredouille():
    text = E20.format(partie="douze-trous", score="points=2b/0") + "1. A 3-1 A+4s 8/11 9/10\n"
    rep = one(text)
    assert [f.kind for f in rep.findings] == ["bredouille-lost"]
    assert rep.final_score.a.points == 6 and not rep.final_score.a.bredouille
    assert rep.entitled_score.a.bredouille


def test_a_simple_hole_marked_double_is_corrected_not_kept():
    text = E20.format(partie="douze-trous", score="points=10/0") + "1. A 3-1 A+4t2b 8/11 9/10\n"
    rep = one(text)
    assert [f.kind for f in rep.findings] == ["hole-mismatch"]
    assert rep.final_score.a.holes == 1


# -- the end of the partie / marqué (RULES.md §8.1-8.2) ------------------------------------


def test_003_218_coups_after_the_twelfth_hole():
    text = (
        E20.format(partie="douze-trous", score="points=10/0 holes=11/3")
        + "1. A 3-1 A+4t1 8/11 9/10\n2. B 6-4 1/7 1/5\n3. A 6-5 1/7 1/6\n"
    )
    rep = one(text)
    ends = [(f.kind, f.coup, f.detail) for f in rep.findings if f.kind == "play-after-end"]
    assert ends == [("play-after-end", 2, "partie")]  # reported once
    assert rep.findings[0].kind == "play-after-end"


def test_003_221_a_relevé_after_the_marque_ended():
    text = (
        E20.format(partie="a-ecrire 2", score="points=10/0 holes=6/2")
        + "1. A 3-1 A+4t1 A:s'en-va\nrelevé 2\n1. A 6-5 1/7 1/6\n"
    )
    rep = one(text)
    assert [(f.kind, f.detail, f.line) for f in rep.findings] == [("play-after-end", "marque", 5)]


def test_003_221_leaving_below_six_holes_does_not_end_the_marque():
    text = (
        E20.format(partie="a-ecrire 2", score="points=10/0 holes=4/2")
        + "1. A 3-1 A+4t1 A:s'en-va\nrelevé 2\n1. A 6-5 1/7 1/6\n"
    )
    assert one(text).findings == []


# -- the Result header --------------------------------------------------------------------


@pytest.mark.parametrize(
    "result,bad",
    [
        ("A", False),
        ("A 12-3", False),
        ("B", True),
        ("A 12-4", True),
        ("*", True),
        ("A gagne", False),
    ],
)
def test_003_218_result_header_of_a_douze_trous(result, bad):
    text = (
        E20.format(partie="douze-trous", score="points=10/0 holes=11/3").replace(
            "\n\n", f'\n[Result "{result}"]\n\n', 1
        )
        + "1. A 3-1 A+4t1\n"
    )
    rep = one(text)
    assert ([f.kind for f in rep.findings] == ["result-mismatch"]) is bad
    if result == "A gagne":
        assert any("free text" in str(n) for n in rep.notes)


def test_result_header_while_nobody_has_twelve_holes():
    text = (
        E20.format(partie="douze-trous", score="points=4/0 holes=3/3").replace("\n\n", '\n[Result "A"]\n\n', 1)
        + "1. A 3-1 A+4 8/11 9/10\n"
    )
    assert [f.kind for f in one(text).findings] == ["result-mismatch"]


@pytest.mark.parametrize("compact", [False, True])
def test_result_header_of_a_partie_a_ecrire_counts_the_marques(compact):
    rec = generated(1, 8, "a-ecrire", compact, 2)[0]
    assert verify(rec).findings == []
    winner, counts = rec.headers["Result"].split()
    a, b = map(int, counts.split("-"))
    wrong = dataclasses.replace(rec, headers={**rec.headers, "Result": f"{winner} {a + 1}-{b}"})
    found = verify(wrong).findings
    assert [f.kind for f in found] == ["result-mismatch"]
    assert f"{a}-{b}" in found[0].message


# -- remedies under the other profiles (RULES.md §10.3; 001 III; 000 ~l.1047) ------------------

FIX = "fixtures/findings/"


@pytest.mark.parametrize(
    "name,profile,expected",
    [
        # 001 III on r.22: no tout d'une after a dame mal posée
        ("remedy-mal-posee-tout-d-une", "bonne-compagnie", [("illegal-move", "A"), ("remedy-not-allowed", "B")]),
        # 001 III on r.23, r.27 / 000 ~l.1047: no tout d'une after a fausse case
        ("remedy-fausse-case-tout-d-une", "bonne-compagnie", [("illegal-move", "A"), ("remedy-not-allowed", "B")]),
        ("remedy-fausse-case-tout-d-une", "lebrun-1828", [("illegal-move", "A"), ("remedy-not-allowed", "B")]),
        ("remedy-fausse-case-tout-d-une", "rigueur", [("illegal-move", "A")]),
        # 001 III on r.27: "vous faire jouer les dames déplacées" — still the displaced checkers
        ("remedy-rejoue-other-checkers", "bonne-compagnie", [("illegal-move", "A"), ("remedy-not-allowed", "A")]),
        # ... "sans vous désigner l'une plus que l'autre": the opponent designates nothing
        ("remedy-fausse-case-spread", "bonne-compagnie", [("illegal-move", "A"), ("remedy-not-allowed", "B")]),
        # 000 ~l.1047: after a fausse case he may no longer play it correctly himself
        ("remedy-rejoue-fausse-case", "lebrun-1828", [("illegal-move", "A"), ("remedy-not-allowed", "A")]),
        # 001 III on r.26: no penalty for the puissance, no tout d'une to demand, the coin may be taken
        ("remedy-puissance-tout-d-une", "bonne-compagnie", [("illegal-move", "A"), ("remedy-not-allowed", "B")]),
        ("remedy-puissance-coin-retaken", "bonne-compagnie", [("illegal-move", "A")]),
        # 003 §199: taking the coin directly is the only play, so it is compulsory in every profile
        ("s199-puissance-when-direct", "lelasseux-1852", [("illegal-move", "A")]),
    ],
)
def test_remedies_follow_the_profile(name, profile, expected):
    from trictrac.replay.verifier.verify import verify_file

    rep = list(verify_file(FIX + name + ".trn", find_profile(profile)))[0]
    assert [(f.kind, f.who) for f in rep.findings] == expected


def test_001_III_r68_no_two_points_for_the_missed_passage_under_bonne_compagnie():
    from trictrac.replay.verifier.verify import verify_file

    path = FIX + "remedy-retour-passage-leave.trn"
    strict = list(verify_file(path))[0]
    assert [f.kind for f in strict.findings] == ["unplayed-number"] and strict.final_score.b.points == 2
    bc = list(verify_file(path, find_profile("bonne-compagnie")))[0]
    assert [f.kind for f in bc.findings] == ["unplayed-number", "unclaimed-ecole"]
    # D26 under bonne compagnie: unschooled wrong points are given back (001 III on r.47)
    assert bc.final_score.b.points == 0


# -- second reading (review of this work) ---------------------------------------------------


def _pos(position: str, partie: str = "douze-trous") -> str:
    return f'[Partie "{partie}"]\n[Position "{position}"]\n\n'


def test_D26_points_given_back_never_borrow_a_hole():
    # A over-marks 2; B's hole (from A's unplayable 4) takes them off before the window closes
    text = (
        _pos("A{7:1,11:1,12:2,22:6,23:5} B{1:2,9:2,10:2,19:3,20:3,21:3} coin=1/1 coups=25/25 points=0/10 holes=3/0")
        + "1. A 5-4 A+2 7/12 -4 B+2t1\n2. B 2-1 9/11 10/11\n"
    )
    for profile in ("lelasseux-1852", "bonne-compagnie"):
        st = one(text, profile).final_score
        assert (st.a.holes, st.a.points, st.b.holes) == (3, 0, 1), profile


def test_003_170_001_r63_forced_stay_the_opponent_chooses_the_play():
    # E39's over-marked holes: B makes A stay and play the checkers B chooses
    text = (
        _pos("A{1:4,2:3,3:2,4:3,5:2,6:1} B{1:11,5:2,6:2} coups=5/5 points=10/4")
        + "1. A 2-2 A+14t3 A:s'en-va B:école+2 B:fait-jouer(1/3 1/3)\n2. B 6-5 1/7 1/6\n"
    )
    rep = one(text)
    assert [(f.kind, f.who) for f in rep.findings] == [("ecole-par-trop", "A"), ("leave-without-right", "A")]
    assert rep.trace[0].position_after.other[3] == 4  # the replay is the play (seen from B)
    assert (rep.final_score.a.holes, rep.final_score.a.points) == (1, 10)  # he stayed with his 10


def test_a_player_with_the_right_to_leave_cannot_be_made_to_stay():
    text = E20.format(partie="douze-trous", score="points=10/0") + "1. A 3-1 A+4t1 A:s'en-va B:fait-jouer(8/11 9/10)\n"
    rep = one(text)
    assert [(f.kind, f.detail, f.who) for f in rep.findings] == [("remedy-not-allowed", "right-to-leave", "B")]


def test_003_192_the_opponent_may_prevent_the_fill():
    text = (
        _pos("A{1:2,2:1,6:1,7:2,8:1,9:2,10:2,11:2,12:2} B{1:13,12:2} coin=1/1 coups=9/9")
        + "1. A 4-2 1/7 B:école+8 B:fait-jouer(1/5 1/3)\n"
    )
    rep = one(text)
    assert [f.kind for f in rep.findings] == ["must-fill"] and rep.final_score.b.points == 8


def test_a_replay_that_bears_off_the_last_checkers_scores_the_sortie():
    text = (
        _pos("A{19:1,23:1,25:13} B{1:14,10:1} coin=0/0 coups=40/40 points=10/0 holes=10/3")
        + "1. A 6-5 A+4t1 19/off B:fait-jouer(19/off 23/off)\nrelevé 2\n1. A 6-5 1/7 1/6\n"
    )
    rep = one(text)
    assert [f.kind for f in rep.findings] == ["unplayed-number"]
    assert (rep.final_score.a.holes, rep.final_score.a.points) == (11, 2)


def test_an_imposed_illegal_replay_gives_no_points_for_its_unplayed_number():
    text = (
        _pos("A{1:9,5:1,6:1,7:2,12:2} B{1:7,4:2,5:2,6:2,12:2} coin=1/1 coups=9/9")
        + "1. A 5-4 5/9 6/9 B:fait-jouer(5/9) B+2\n"
    )
    rep = one(text)
    assert ("unclaimed-ecole", "B") in [(f.kind, f.who) for f in rep.findings]
    assert next(f for f in rep.findings if f.kind == "unclaimed-ecole").entitled == 0


@pytest.mark.parametrize("moves", ["1/4 5/10", "5/10 1/4"])
def test_003_216_a_checker_played_correctly_stays_whatever_the_order(moves):
    text = _pos("A{1:9,5:1,6:1,7:2,12:2} B{1:7,4:2,5:2,6:2,12:2} coin=1/1 coups=9/9")
    bad = one(text + f"1. A 6-5 {moves} B:fait-jouer(1/6 5/11)\n")
    assert [(f.kind, f.detail) for f in bad.findings][-1] == ("remedy-not-allowed", "first-number")
    good = one(text + f"1. A 6-5 {moves} B:fait-jouer(1/7 5/10)\n")
    assert [f.kind for f in good.findings] == ["illegal-move"]


def test_001_III_r26_no_penalty_so_the_opponent_cannot_forbid_the_coin():
    text = _pos("A{1:10,5:1,7:1,8:1,9:1,10:1} B{1:11,2:2,3:2} coups=6/6") + "1. A 5-4 8/12 9/12 B:fait-jouer(1/6 1/5)\n"
    assert [f.kind for f in one(text).findings] == ["illegal-move"]  # 003 §216: deprived of the coin
    assert [(f.kind, f.detail) for f in one(text, "bonne-compagnie").findings] == [
        ("illegal-move", "puissance-when-direct"),
        ("remedy-not-allowed", "designation"),
    ]


def test_several_replays_the_last_stands_and_it_is_noted():
    rep = one(E58 + "1. A 2-1 6/8 1/3 B:fait-jouer(6/8 1/2) B:fait-jouer(6/8 1/3)\n")
    assert rep.trace[0].position_after.other[3] == 1
    assert any("2 replays" in str(n) for n in rep.notes)


@pytest.mark.parametrize("marques,cut", [(1, False), (2, True)])
def test_result_of_a_partie_a_ecrire_names_the_winner_by_values(marques, cut):
    rec = generated(1, 5, "a-ecrire", True, marques)[0]
    assert verify(rec).findings == []
    result = rec.headers["Result"]
    flipped = ("B" if result[0] == "A" else "A") + result[1:]
    assert [f.kind for f in verify(dataclasses.replace(rec, headers={**rec.headers, "Result": flipped})).findings] == [
        "result-mismatch"
    ]
    if cut:  # the last marqué unfinished: its leader has not won it
        from trictrac.notation.record import MarqueStart

        last = max(i for i, el in enumerate(rec.elements) if isinstance(el, MarqueStart))
        short = dataclasses.replace(rec, elements=rec.elements[: last + 20])
        found = verify(short).findings
        assert [f.kind for f in found] == ["result-mismatch"] and "decided" in found[0].message
        assert verify(dataclasses.replace(short, headers={**rec.headers, "Result": "*"})).findings == []


# -- the pavillon of the written game (RULES.md §5.4; 001 r.58) ----------------------------------


def _pavillon_cases(seed: int):
    """A generated partie à écrire, and every (who, coup where he earns the pavillon — his
    first hole while the opponent has holes —, coup of the next hole of that marqué)."""
    rec = generated(2, seed, "a-ecrire", False, 2)[0]
    tr = verify(rec).trace
    hol = [(t.score_standing.a.holes, t.score_standing.b.holes) for t in tr]
    cases = []
    for i in range(1, len(tr)):
        for s, o in ((0, 1), (1, 0)):
            if tr[i].marque == tr[i - 1].marque and hol[i - 1][s] == 0 and hol[i][s] > 0 and hol[i - 1][o] > 0:
                k = next((k for k in range(i + 1, len(tr)) if hol[k] != hol[k - 1]), None)
                if k is not None and tr[k].marque == tr[i].marque:
                    cases.append(("AB"[s], i, k))
    assert cases, "no pavillon earned"
    return rec, cases


def _with_pavillon(rec, claims: dict[int, str]):
    from trictrac.notation.record import Coup, Pavillon

    els, n = [], -1
    for el in rec.elements:
        if isinstance(el, Coup):
            n += 1
            if n in claims:
                el = dataclasses.replace(el, after=el.after + (Pavillon(claims[n]),))
        els.append(el)
    return dataclasses.replace(rec, elements=els)


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_001_r58_the_pavillon_taken_with_its_hole_stands(seed):
    rec, cases = _pavillon_cases(seed)
    rep = verify(_with_pavillon(rec, {i: who for who, i, _k in cases}))
    assert rep.findings == []
    assert rep.final_score == rep.entitled_score


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_001_r58_the_pavillon_not_taken_before_the_next_hole_is_lost(seed):
    rec, cases = _pavillon_cases(seed)
    who, i, k = cases[0]
    claims = {i2: w2 for w2, i2, _k2 in cases[1:]}
    claims[k + 1] = who
    late = _with_pavillon(rec, claims)
    rep = verify(late)
    lost = [f for f in rep.findings if f.kind == "bredouille-lost"]
    assert [(f.detail, f.who, f.index) for f in lost] == [("pavillon", who, i)]
    # the rest follows from it: the marqué's result and the partie's Result written with it
    assert {f.kind for f in rep.findings} <= {"bredouille-lost", "marque-result-mismatch", "result-mismatch"}
    assert any("too late" in str(n) for n in rep.notes)
    # bonne compagnie: always acknowledged (001 III on r.58)
    from trictrac.replay.rules.profiles import find_profile

    bc = verify(late, find_profile("bonne-compagnie"))
    assert not [f for f in bc.findings if f.detail == "pavillon"]


def test_a_pavillon_taken_with_interrupted_holes_is_taken_off():
    rec, cases = _pavillon_cases(5)
    claims = {i: w for w, i, _k in cases}
    who, i, _k = cases[0]
    other = "B" if who == "A" else "A"
    rep = verify(_with_pavillon(_with_pavillon(rec, claims), {i: other}))
    assert [(f.kind, f.detail, f.who) for f in rep.findings] == [("bredouille-lost", "pavillon-not-due", other)]


# -- mutations of generated parties: the end and the Result header ------------------------------


@pytest.mark.parametrize("i", range(3))
def test_a_coup_appended_after_the_twelfth_hole_is_play_after_end(i):
    from trictrac.notation.record import Coup, Move
    from trictrac.replay.rules.moves import legal_plays

    rec = generated(3, 7, "douze-trous", False)[i]
    rep = verify(rec)
    assert rep.findings == []
    last = rep.trace[-1]
    pos = last.position_after  # the side to move next
    roll = (6, 5)
    play = legal_plays(pos, roll).plays[0]
    moves = tuple(Move(p, q) for p, q in play.steps)
    side = pos.turn
    extra = Coup(last.coup_number + 1, side, roll, moves)
    found = verify(dataclasses.replace(rec, elements=rec.elements + [extra])).findings
    assert [(f.kind, f.index) for f in found][:1] == [("play-after-end", len(rep.trace))]
    assert "play-after-end" not in [f.kind for f in found[1:]]  # reported once


@pytest.mark.parametrize("i", range(3))
def test_a_wrong_result_header_of_a_douze_trous_is_found(i):
    rec = generated(3, 7, "douze-trous", False)[i]
    winner, holes = rec.headers["Result"].split()
    w, lo = map(int, holes.split("-"))
    for wrong in (("B" if winner == "A" else "A") + f" {holes}", f"{winner} {w}-{lo + 1}", "*"):
        found = verify(dataclasses.replace(rec, headers={**rec.headers, "Result": wrong})).findings
        assert [f.kind for f in found] == ["result-mismatch"], wrong


def test_remedy_problems_is_the_one_rule_the_verifier_applies():
    """``replay.rules.remedies.remedy_problems`` on E58 (003 §201), called directly."""
    from trictrac.notation.position import parse_position
    from trictrac.replay.rules.moves import judge_play
    from trictrac.replay.rules.position import Position
    from trictrac.replay.rules.profiles import DEFAULT_PROFILE
    from trictrac.replay.rules.remedies import remedy_problems

    spec, _ = parse_position("A{1:5,5:1,6:2,7:2,8:1,11:2,12:2} B{1:13,12:2} coin=1/1 coups=9/9")
    pos = Position.from_spec(spec)
    written = [(6, 8), (1, 3)]
    j = judge_play(pos, (2, 1), written)

    def problems(replay, by_roller=False):
        return [
            d
            for d, _t in remedy_problems(
                pos,
                (2, 1),
                written,
                j,
                judge_play(pos, (2, 1), replay),
                by_roller=by_roller,
                forced_stay=False,
                profile=DEFAULT_PROFILE,
            )
        ]

    assert problems([(6, 8), (1, 2)]) == []  # the misplaced ace put right
    assert problems([(6, 9)]) == ["first-number"]  # no tout d'une after a number played first
    assert problems([(5, 7), (6, 7)]) == ["first-number"]  # the well-played checker stays
    assert problems([(11, 13), (1, 2)])[0] == "illegal"  # onto the opponent's coin
