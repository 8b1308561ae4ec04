"""The treatises' own narrated cases, replayed by the verifier (issue 13 §3-§4).

Each ``fixtures/books/X.trn`` is a case the books narrate throw by throw; its
``X.expected.json`` holds the findings the book's ruling implies (same shape as
``fixtures/findings``) and, under ``book``, the reference, the passage and every
figure the book states (points, holes, bredouille after a coup or at the end).

The tokens of ``docs/notation-proposals.md`` (``force``, ``fait-marquer``, ``remet``)
are read since issue 13 §3-§4; every case here is a plain test.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from verify_helpers import brief

from trictrac.replay.rules.partie import twelve_hole_multiplier
from trictrac.replay.rules.profiles import find_profile
from trictrac.replay.verifier.verify import verify_file, verify_text

BOOKS = Path(__file__).resolve().parent.parent / "fixtures" / "books"


def expected(name: str) -> dict:
    return json.loads((BOOKS / f"{name}.expected.json").read_text(encoding="utf-8"))


def check(name: str):
    """Verify the fixture; assert the reader knows every token, the findings, and the
    book's figures.  Returns the report."""
    path = BOOKS / f"{name}.trn"
    reports = list(verify_file(str(path), trace=True))
    assert len(reports) == 1
    rep = reports[0]
    errors = [f"{d.span.line}:{d.span.col} {d.code}" for d in rep.diagnostics if d.severity == "error"]
    assert errors == [], f"the reader does not read {name}: {errors}"
    exp = expected(name)
    assert brief(rep.findings) == exp["findings"]
    for fig in exp["book"]["score"]:
        at = fig["after"]
        st = rep.final_score if at == "final" else rep.trace[at].score_standing
        for side in ("A", "B"):
            for key, value in fig.get(side, {}).items():
                assert getattr(st[side], key) == value, f"{side} {key} after {at}"
    return rep


# -- inadvertent entry into the opponent's table (RULES.md §3.8 P5) ------------------------


def test_003_213_entree_par_inadvertance():
    """« vous l'obligez à jouer le six avec la dame qu'il a à votre dixième flèche, et de
    rompre pour jouer le cinq » (003 §213).  B's 4-2 must break; he marks 4 and enters A's
    second table; A throws without objecting (the play stands, B keeps his 4 unclaimed);
    at B's 6-5 A forces 14/20, so B breaks: no école of conservation."""
    rep = check("003-213-entree-par-inadvertance")
    assert rep.trace[2].play == "14/20 7/12"


# -- points marked on an illegal play (RULES.md §7.7; 003 §192) -----------------------------


def test_003_192_conservation_marked_on_an_illegal_play():
    """« Si l'on marque des points croyant remplir ou conserver, quoiqu'on ne remplisse pas
    ou qu'on ne conserve pas, on fait école des points marqués » (003 §192).  Every legal
    play of B's 4-2 breaks; the 4 he marked are A's."""
    check("003-192-conservation-marquee-coup-illegal")


def test_003_192_conservation_lost_by_an_illegal_play():
    """« pouvant conserver, on ne conserve pas, l'adversaire marque autant de points qu'on
    aurait dû en marquer » (003 §192).  2-1 conserves from the talon; 7/11 1/2 breaks."""
    check("003-192-conservation-perdue-coup-illegal")


# -- the right to leave (RULES.md §6.1; 003 §155-156, §161; 001 r.36, r.40) ------------------


def test_003_155_leaving_takes_the_reste_off():
    """« Si l'on se détermine à s'en aller, on met son jeton au talon » (003 §161).  A with
    10 gains 4: one hole, his 2 de reste go with the leave; he throws first."""
    rep = check("003-155-s-en-va")
    assert rep.trace[0].left and rep.trace[1].side == "A"


def test_003_156_reste_marked_then_leave():
    """« Quand on a marqué les points qu'on a de reste, on est obligé de rester » (001 r.40;
    003 §156: « n'avoir pas marqué les points de reste »)."""
    check("003-156-reste-marque-puis-s-en-va")


def test_003_156_je_reste_then_leave():
    """« on est forcé de rester, si l'on a dit qu'on restait » (001 r.36; 003 §156: « ne pas
    avoir dit : Je reste »)."""
    check("003-156-je-reste-puis-s-en-va")


def test_003_156_played_then_leave():
    """« On ne doit toucher aucune de ses dames, car cela ôterait le droit de s'en aller »
    (003 §155)."""
    check("003-156-joue-puis-s-en-va")


def test_003_156_leave_by_the_player_who_did_not_throw():
    """« Pour avoir le droit de s'en aller, il faut achever le trou de son coup » (003 §156)."""
    check("003-156-s-en-va-sans-avoir-jete")


def test_003_163_leaving_at_the_sortie_after_playing():
    """« qui arrive à douze points par ce coup, a le droit de s'en aller, ou de rester, après
    avoir jeté les dés » (003 §163).  3-2 with
    10: he plays his sortie and leaves — moves before the leave are no fault here."""
    rep = check("003-163-sortie-s-en-va")
    assert rep.trace[0].releve_ended and rep.trace[1].side == "A"


def test_003_163_staying_at_the_sortie_keeps_the_reste():
    """« s'il amène 6-6, il doit rester, car il aura quatre points de reste et la somme
    douze à jouer » (003 §163; 001 r.73: je joue pour tout)."""
    check("003-163-sortie-reste")


def test_003_180_a_hole_taken_by_mistake_stands_when_both_take_up():
    """« si l'adversaire, partageant l'erreur, rompt aussi, le trou est bien acquis »
    (003 §180; §170: il ne peut ni mettre à l'école … ni le forcer de rester)."""
    check("003-180-trou-pris-par-erreur")


# -- école impossible (RULES.md §7.8; 003 §197; 001 r.62) ------------------------------------


def test_003_197_a_playable_throw_left_unplayed_is_no_ecole_impossible():
    """« Lorsqu'on amène des dés qu'on ne peut jouer par impuissance, on ne peut être envoyé
    à l'école » (001 r.62).  A's 3-1 could be played: his omission is an école."""
    check("003-197-coup-jouable-non-joue")


# -- je ne marque pas (RULES.md §5.3; 003 §176-177) ------------------------------------------


def test_003_176_ne_marque_pas_gives_a_simple_hole():
    """« Cet avertissement suffit pour priver l'adversaire de la bredouille des jetons, s'il
    l'a, et alors il ne peut marquer que le trou simple » (003 §176)."""
    check("003-176-ne-marque-pas-donne-le-trou")


def test_003_176_wrong_warning_loses_the_points_and_keeps_his_bredouille():
    """« il n'a pas le droit … de reprendre les points qu'il n'a pas marqués. Si
    l'adversaire a la bredouille des jetons, il la conserve » (003 §176)."""
    check("003-176-ne-marque-pas-a-tort")


def test_003_177_the_warner_may_not_school_the_hole_he_announced():
    """« le lui faire effacer en le réduisant aux points qu'il avait ; mais il ne peut
    marquer l'école » (003 §177; 001 r.57)."""
    check("003-177-avertissement-a-tort")


def test_003_186_the_opponent_obliges_him_to_mark_the_hole():
    """« L'école est volontaire ou non, mais il faut l'empêcher, et obliger l'adversaire à
    marquer le trou » (003 §186; E27)."""
    check("003-186-obliger-a-marquer-le-trou")


def test_003_186_a_hole_received_gives_no_right_to_leave():
    """« il a déjà huit points, cela lui donne le trou et l'empêche de s'en aller »
    (003 §186; 003 §217: on ne peut s'en aller que lorsque l'on gagne le trou par un de ses coups)."""
    check("003-186-trou-recu-pas-de-depart")


# -- claims are whole; two écoles are two claims (RULES.md §7.3; 003 §187; 001 r.46) -----------


def test_003_187_the_whole_ecole_forced_on_the_claimant():
    """« il croit qu'elle n'est que de deux points, et les marque : on l'oblige à marquer le
    trou, en marquant l'école entière » (003 §187)."""
    check("003-187-ecole-entiere-forcee")


def test_003_187_jeton_put_back_and_erased():
    """« l'adversaire vous remet à huit points, et en marque quatre. On se contente
    d'effacer ces quatre points, et l'on se remet à dix » (003 §187)."""
    check("003-187-deux-ecoles-remet")


def test_003_187_one_ecole_taken_the_other_declined():
    """« deux écoles de deux points chacune ; on a le droit de marquer la première et de ne
    pas marquer la deuxième » (003 §187)."""
    check("003-187-une-ecole-prise-l-autre-non")


# -- the partie en douze trous with 002's multipliers ---------------------------------------

# A has 10 points and 11 holes; 3-1 hits à vrai for 4 (E20): his twelfth hole
_DOUZE = (
    '[Partie "douze-trous"]\n[Position "A{{1:9,8:1,9:1,11:2,12:2}} B{{1:14,10:1}} coin=1/0 '
    'coups=5/5 points=10/0 holes=11{pav}/{loser}"]\n\n1. A 3-1 A+4t1 8/11 9/10\n'
)


@pytest.mark.parametrize("loser,pav,factor", [(0, "", 4), (3, "p", 3), (5, "", 2), (7, "", 1)])
def test_002_douze_trous_multipliers(loser, pav, factor):
    """« sans que l'adversaire ait pris un seul trou, il gagne la partie quadruple » ; avec
    le pavillon « la partie triple » ; puis « double … et simple » (002, Partie en douze
    trous)."""
    reps = verify_text(_DOUZE.format(pav=pav, loser=loser))
    assert len(reps) == 1 and reps[0].findings == []
    st = reps[0].final_score
    assert (st.a.holes, st.b.holes, st.a.pavillon) == (12, loser, bool(pav))
    guiton = dataclasses.replace(find_profile("lelasseux-1852"), twelve_hole_multiplier="guiton")
    assert twelve_hole_multiplier(st.a.holes, st.b.holes, st.a.pavillon, guiton) == factor
    # every result the verifier shows carries the multiplier (issue 13 §4): report, JSON, summary
    (rep,) = verify_text(_DOUZE.format(pav=pav, loser=loser), guiton)
    assert rep.partie == {
        "winner": "A",
        "holes": [12, loser],
        "multiplier": factor,
        "rule": "guiton",
        "pavillon": bool(pav),
    }
    assert rep.as_dict()["partie"] == rep.partie
    assert f"A wins 12-{loser}, stake x{factor}" in rep.summary()
    assert reps[0].partie is not None and reps[0].partie["multiplier"] == 1  # lelasseux: no detail (003 §218)


# -- the fixtures themselves ---------------------------------------------------------------


def test_every_book_fixture_has_its_figures_and_a_test():
    names = sorted(p.stem for p in BOOKS.glob("*.trn"))
    source = Path(__file__).read_text(encoding="utf-8")
    assert names
    for name in names:
        exp = expected(name)
        assert exp["book"]["ref"] and exp["book"]["score"], name
        assert len(re.findall(r"\S+", exp["book"]["passage"])) <= 25, name
        assert f'check("{name}")' in source, f"{name} has no test"


# -- one rule, one reading (issue 25 §7) ------------------------------------------------


def test_003_218_the_first_to_twelve_holes_wins_the_roller_gains_first():
    """« le prix convenu acquis à celui qui arrive le premier à douze trous » (003 §218);
    « Les points gagnés se marquent avant les points donnés » (003 §207).  Both at eleven
    holes, A's gains give him his twelfth hole before B's receipts could give B his: A
    wins 12-11, and B's 14 written from that throw do not count."""
    rep = check("003-218-les-deux-a-douze-trous")
    assert rep.partie is not None and rep.partie["winner"] == "A" and rep.partie["holes"] == [12, 11]
    assert not [f for f in rep.findings if f.kind == "result-mismatch"]


def test_003_181_erasing_the_opponent_is_no_ecole():
    """« Si, croyant que l'adversaire fait école, on efface ses points, sans les marquer,
    on ne fait pas école » (003 §181; profile lelasseux-1852, switch D34 off)."""
    rep = check("003-181-points-effaces")
    assert any("Lelasseux-Lafosse 1852, art. 181" in str(n) for n in rep.notes)


def test_001_r67_erasing_the_opponent_is_an_ecole_under_rigueur():
    """« Si vous effacez mal-à-propos votre adversaire ... vous êtes à l'école de tous les
    points dont vous l'avez privé » (001 r.67; rigueur).  A's claim, written after the
    erasure, is judged after it and takes the école it made."""
    check("001-r67-effacer-l-adversaire")


def test_001_r67_the_written_order_decides_claim_then_erasure():
    """The same actions with the claim written first: A's claim answers no école (a fausse
    école, 001 r.60) and B's erasure takes the points wrongly marked, which is his right
    and no école (001 r.56)."""
    check("001-r67-ecole-avant-l-effacement")


@pytest.mark.parametrize("profile", ["lelasseux-1852", "rigueur", "bonne-compagnie", "lebrun-1828", "innovations"])
def test_d34_erasure_follows_the_profile(profile):
    """The books' disagreement is the profile switch ``erasing_opponent_ecole`` (RULES.md
    §10 D34): the same record is an école of the eraser only where the profile says so."""
    text = (BOOKS / "003-181-points-effaces.trn").read_text(encoding="utf-8").rstrip("\n") + " A:école+4\n"
    (rep,) = verify_text(text, profile=find_profile(profile))
    eraser = [f for f in rep.findings if f.kind == "ecole-claimed-wrongly" and f.who == "B"]
    claimant = [f for f in rep.findings if f.kind == "ecole-claimed-wrongly" and f.who == "A"]
    if find_profile(profile).erasing_opponent_ecole:
        assert len(eraser) == 1 and not claimant and rep.final_score.a.points == 6
    else:
        assert not eraser and len(claimant) == 1  # no école made: A's claim is a fausse école


def test_003_187_an_erasure_before_the_erasers_own_claim_is_part_of_it():
    """003 §187 (last example) under rigueur: B puts A back and marks 4 — the erasure is
    part of his (false) claim, not a second école (003 §194)."""
    text = (BOOKS / "003-187-deux-ecoles-remet.trn").read_text(encoding="utf-8")
    (rep,) = verify_text(text, profile=find_profile("rigueur"))
    assert brief(rep.findings) == expected("003-187-deux-ecoles-remet")["findings"]


def test_003_176_187_a_claim_short_of_the_ne_marque_pas_ecole_is_partial():
    """003 §176: after a wrong *je ne marque pas* (A with 4 gains 8, believing he gives B,
    at 8, his hole), « l'adversaire a le droit de marquer quatre points d'école, qui lui
    donnent le trou, trou simple, à cause de l'avertissement »; 003 §187: « on ne peut le
    faire partiellement ».  B marks 2: partial; A obliges him to mark the whole école:
    B's hole, simple."""
    rep = check("003-176-187-ne-marque-pas-ecole-partielle")
    assert rep.double_holes == {"A": 0, "B": 0}


@pytest.mark.parametrize(("claim", "partial"), [(2, True), (4, False), (6, False), (8, False)])
def test_003_176_the_ne_marque_pas_ecole_is_at_least_what_gives_the_hole(claim, partial):
    """The école of a wrong announcement is the points he believed given: at least the 4
    that give B his hole (003 §176), at most his whole gain of 8."""
    text = (BOOKS / "003-176-187-ne-marque-pas-ecole-partielle.trn").read_text(encoding="utf-8")
    text = text.replace("B:école+2 A:fait-marquer(B+2)", f"B:école+{claim}")
    (rep,) = verify_text(text)
    kinds = sorted(f.kind for f in rep.findings)
    assert kinds == (["ecole-par-moins", "ecole-partial"] if partial else ["ecole-par-moins"])
