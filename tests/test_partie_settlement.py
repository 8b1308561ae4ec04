"""Settlement of whole parties (RULES.md §8.2-§8.3, §11 E53-E56; 003 §227-247; 002;
000 ~l.1003-1031)."""

from __future__ import annotations

import itertools
from collections import deque
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trictrac.replay.rules.partie import (
    MarqueLine,
    PartieError,
    PartieSpec,
    Poule,
    postillon_cost,
    settle_partie,
    settle_text,
    to_fiches,
)
from trictrac.replay.rules.profiles import DEFAULT_PROFILE, find_profile


def two_player(a_lost: list[int], b_lost: list[int], marques: int, k: int = 2, queue: int = 0):
    """A's lost marqués (values B won) then B's — the order does not change the money."""
    res = [MarqueLine("B", value=x) for x in a_lost] + [MarqueLine("A", value=x) for x in b_lost]
    return settle_partie(PartieSpec("ecrire", ("A", "B"), marques, queue=queue, jetons_per_marque=k), res)


# -- postillons and rounding: 003 §227, §230; 002 -----------------------------------------


def test_002_postillons_in_eight_marques() -> None:
    # "losing 5 costs one postillon (28); losing all 8, four postillons (28 + 3·8)"
    assert postillon_cost(1) == 28 and postillon_cost(4) == 28 + 3 * 8
    s = two_player([3] * 5, [3] * 3, 8)
    assert s.postillons == [{"payer": "A", "payee": "B", "count": 1, "jetons": 28}]
    s = two_player([3] * 8, [], 8)
    assert s.postillons[0]["count"] == 4 and s.postillons[0]["jetons"] == 52


def test_003_230_five_jetons_make_a_fiche_for_the_winner() -> None:
    assert [to_fiches(n) for n in (4, 5, 12, 15, 17, 57, -57, -4)] == [0, 1, 1, 2, 2, 6, -6, 0]
    assert to_fiches(57, round_five=False) == 5


# -- the two methods: 003 §233-237 (RULES.md E53-E55) ---------------------------------------


def test_E53_003_234_postillonne_player_wins() -> None:
    s = two_player([3, 5, 6, 4, 7, 4, 3], [27, 15, 38], 10)
    assert s.postillons == [{"payer": "A", "payee": "B", "count": 2, "jetons": 36}]
    assert s.lost == {"A": [3, 5, 6, 4, 7, 4, 3], "B": [27, 15, 38]}
    paper = s.methods["papier"]
    assert paper["net"] == {"A": 12, "B": -12}  # 80 − 68
    assert paper["fiches"] == {"A": 1, "B": -1}  # "La perte est douze, une fiche"
    jet = s.methods["jetons"]
    assert jet["fiches"] == {"A": 2, "B": -2}  # "on trouve deux fiches de perte"
    assert s.queue_des_jetons["winners"] == ["A"]
    assert two_player([3, 5, 6, 4, 7, 4, 3], [27, 15, 38], 10, k=1).methods["jetons"]["fiches"]["A"] == 2


def test_E54_003_235_results_of_the_two_methods() -> None:
    one = two_player([19, 69], [51, 14, 5, 7], 6, k=1)
    assert one.methods["papier"]["net"]["A"] == 17  # 105 − 88
    assert one.methods["papier"]["fiches"]["A"] == 2
    assert one.methods["jetons"]["net"]["A"] == 15  # "il reste quinze, deux fiches"
    assert one.methods["jetons"]["fiches"]["A"] == 2
    assert one.queue_des_jetons["winners"] == ["B"]  # the queue des jetons lessens the gain
    two = two_player([19, 69], [51, 14, 5, 7], 6, k=2)
    assert two.methods["jetons"]["net"]["A"] == 13  # "il reste treize, une fiche"
    assert two.methods["jetons"]["fiches"]["A"] == 1


def test_E55_003_236_gagner_au_lieu_de_perdre() -> None:
    paper = two_player([19, 69, 15], [51, 14, 5, 7, 3], 8)
    assert paper.methods["papier"]["net"]["A"] == 5  # 108 − 103
    assert paper.methods["papier"]["fiches"]["A"] == 1
    q = two_player([19, 69, 15], [51, 14, 5, 7, 3], 8, queue=10)
    assert q.methods["papier"]["fiches"]["A"] == 2  # "si la queue est une fiche, il perd deux fiches"
    one = two_player([19, 69, 15], [51, 14, 5, 7, 3], 8, k=1, queue=10)
    # "il ne perd que deux jetons et une fiche de queue"
    assert one.methods["jetons"]["net"]["A"] == 2 + 10
    assert one.methods["jetons"]["queue_winner"] == "A"
    two = two_player([19, 69, 15], [51, 14, 5, 7, 3], 8, k=2, queue=10)
    # "il gagne un jeton, et par conséquent la queue, une fiche"
    assert two.methods["jetons"]["net"]["B"] == 1 + 10
    assert two.methods["jetons"]["queue_winner"] == "B"


def test_E55_003_236_last_marque_fourteen() -> None:
    s = two_player([19, 69, 14], [51, 14, 5, 7, 3], 8, k=2, queue=10)
    assert s.methods["jetons"]["net"] == {"A": 0, "B": 0}  # "ni gain ni perte"
    assert s.methods["jetons"]["queue_winner"] is None
    assert s.methods["papier"]["net"]["A"] == 6 + 10  # "six au lieu de cinq"
    assert s.methods["papier"]["fiches"]["A"] == 2  # "deux fiches avec le papier"


def test_E55_003_237_un_trou_fait_une_fiche() -> None:
    s = two_player([51, 14, 5, 7], [19, 69, 33, 13], 8, k=2)
    assert s.methods["papier"]["net"]["A"] == 57 and s.methods["papier"]["fiches"]["A"] == 6
    assert s.methods["jetons"]["fiches"]["A"] == 7  # "il en perdrait ... sept"
    s = two_player([51, 14, 5, 7], [19, 69, 33, 12], 8, k=2)
    assert s.methods["papier"]["fiches"]["A"] == 6  # "cinquante-six, toujours six fiches"
    assert s.methods["jetons"]["fiches"]["A"] == 6  # "il n'en perdrait que six au lieu de sept"


def test_003_237_after_seven_marques_three_fiches_twenty_six_jetons() -> None:
    # the jeton count of the text: after the 7th marqué A holds 20 + 36 = 3 fiches 26 jetons
    res = [MarqueLine("B", value=x) for x in (51, 14, 5, 7)] + [MarqueLine("A", value=x) for x in (19, 69, 33)]
    s = settle_partie(PartieSpec("ecrire", ("A", "B"), 8, jetons_per_marque=2), res)
    assert not s.complete
    held = 20 + s.methods["jetons"]["net"]["A"] - 2 * s.marques_lost["A"]
    assert held == 3 * 10 + 26


def test_003_228_queue_des_jetons_shared_when_equal() -> None:
    s = two_player([10], [10], 2)
    assert s.queue_des_jetons["winners"] == ["A", "B"]
    assert s.methods["jetons"]["net"] == {"A": 0, "B": 0}


# -- refaits, primauté: 003 §221, §226 ---------------------------------------------------------


def test_003_226_refait_grows_the_next_consolation_and_keeps_the_primaute() -> None:
    res = [
        MarqueLine("A", (9, 8)),
        MarqueLine(refait_holes=7),
        MarqueLine(refait_holes=6),
        MarqueLine("B", (7, 4), pavillon=True),
    ]
    s = settle_partie(PartieSpec("ecrire", ("A", "B"), 2, primaute="B"), res)
    d = s.detail
    assert [m["primaute"] for m in d] == ["B", "A", "A", "A"]  # winner, then kept through refaits
    assert d[3]["consolation"] == 6 and d[3]["value"] == 2 * (7 + 6) - 4


def test_D21_primaute_to_the_leaver() -> None:
    res = [MarqueLine("A", (7, 3), leaver="B"), MarqueLine("B", (6, 0))]
    win = settle_partie(PartieSpec("ecrire", ("A", "B"), 2, primaute="A"), res)
    assert win.detail[1]["primaute"] == "A"
    prof = replace(DEFAULT_PROFILE, primaute_after_marque_leave="leaver")
    lv = settle_partie(PartieSpec("ecrire", ("A", "B"), 2, primaute="A"), res, prof)
    assert lv.detail[1]["primaute"] == "B"


# -- several players: 003 §238-247; 002; 000 ~l.1019-1031 ---------------------------------


def tourner_results(target: dict[str, int], n: int) -> list[MarqueLine]:
    """A winners' sequence giving each player ``target`` marqués lost under the
    loser-out rotation (an independent little simulation)."""
    for bits in itertools.product((0, 1), repeat=n):
        active, idle = ["P", "Q"], deque(["R"])
        lost = dict.fromkeys("PQR", 0)
        seq = []
        for b in bits:
            w, lo = (active[0], active[1]) if b == 0 else (active[1], active[0])
            lost[lo] += 1
            seq.append(w)
            idle.append(lo)
            active = [w, idle.popleft()]
        if lost == target:
            return [MarqueLine(w, (7, 3)) for w in seq]
    raise AssertionError(f"no sequence for {target}")


@pytest.mark.parametrize(
    "target,expected",
    [
        # "celui qui se trouve marqué six fois doit ... payer à chacun vingt-huit jetons"
        ({"P": 3, "Q": 3, "R": 6}, {("R", "P"): (1, 28), ("R", "Q"): (1, 28)}),
        # "les deux postillons appartenant à un seul joueur ... la progression ordinaire"
        ({"P": 2, "Q": 4, "R": 6}, {("R", "P"): (2, 36)}),
        # "chacun des joueurs marqués cinq fois devrait un postillon de vingt-huit"
        ({"P": 5, "Q": 2, "R": 5}, {("P", "Q"): (1, 28), ("R", "Q"): (1, 28)}),
    ],
)
def test_E56_003_246_two_first_postillons_at_tourner(target: dict, expected: dict) -> None:
    s = settle_partie(PartieSpec("tourner", ("P", "Q", "R"), 12), tourner_results(target, 12))
    assert s.marques_lost == target
    got = {(p["payer"], p["payee"]): (p["count"], p["jetons"]) for p in s.postillons}
    assert got == expected


def test_E52_003_245_idle_player_gets_the_consolation() -> None:
    res = [
        MarqueLine("P", (7, 3)),
        MarqueLine(refait_holes=6),
        MarqueLine("P", (7, 4), pavillon=True),
        MarqueLine("Q", (12, 0), pavillon=True),
    ]
    s = settle_partie(PartieSpec("tourner", ("P", "Q", "R"), 9), res)
    d = s.detail
    assert (d[0]["idle"], d[0]["idle_consolation"]) == ("R", 2)
    # after a refait the consolation 4, doubled by the petite bredouille (003 §245)
    assert (d[2]["players"], d[2]["idle"], d[2]["idle_consolation"]) == (["P", "R"], "Q", 8)
    assert (d[3]["players"], d[3]["idle"], d[3]["idle_consolation"], d[3]["value"]) == (["P", "Q"], "R", 8, 4 * 14)


def test_003_244_tourner_rotation_and_primaute() -> None:
    res = [MarqueLine("P", (7, 3)), MarqueLine("R", (8, 2)), MarqueLine("Q", (6, 1))]
    s = settle_partie(PartieSpec("tourner", ("P", "Q", "R"), 9, primaute="Q"), res)
    assert [m["players"] for m in s.detail] == [["P", "Q"], ["P", "R"], ["R", "Q"]]
    assert [m["primaute"] for m in s.detail] == ["Q", "P", "R"]  # "celui qui reste"
    with pytest.raises(PartieError, match="does not play"):
        settle_partie(PartieSpec("tourner", ("P", "Q", "R"), 9), res + [MarqueLine("R", (6, 2))])


def test_000_l1031_tourner_two_marques_running() -> None:
    prof = find_profile("lebrun-1828")
    assert prof.tourner_rotation == "two-each"
    res = [MarqueLine("P", (7, 3)), MarqueLine("P", (8, 2)), MarqueLine("R", (6, 1)), MarqueLine("Q", (6, 1))]
    s = settle_partie(PartieSpec("tourner", ("P", "Q", "R"), 9), res, prof)
    # Q loses the first and gives way; R "joue deux marqués de suite"; P out after two
    assert [m["players"] for m in s.detail] == [["P", "Q"], ["P", "R"], ["R", "Q"], ["Q", "P"]]


def test_003_241_a_quatre_rotation() -> None:
    results = [MarqueLine("X1", (7, 3))] + [MarqueLine("X1+X2", (7, 3))] * 7
    s = settle_partie(PartieSpec("quatre", ("X1", "X2", "Y1", "Y2"), 8, primaute="Y1"), results)
    who = [tuple(m["players"]) for m in s.detail]
    assert who[0] == ("X1", "Y1")
    seats = {p: sum(p in w for w in who) for p in ("X1", "X2", "Y1", "Y2")}
    assert seats == {"X1": 4, "X2": 4, "Y1": 4, "Y2": 4}
    # Y1, who played only the first, plays the last alone (003 §241); each else in pairs
    assert "Y1" in who[-1] and "Y1" not in who[-2]
    assert [m["primaute"] for m in s.detail][:3] == ["Y1", "X1", "Y2"]
    assert s.players["X1"]["jetons"] == s.players["X2"]["jetons"] == -s.players["Y1"]["jetons"]


def test_000_l1023_a_quatre_loser_of_the_first_gives_way() -> None:
    s = settle_partie(PartieSpec("quatre", ("X1", "X2", "Y1", "Y2"), 4), [MarqueLine("Y1", (6, 2))] * 2)
    assert [m["players"] for m in s.detail] == [["X1", "Y1"], ["Y1", "X2"]]


@pytest.mark.parametrize("name", ["lelasseux-1852", "lebrun-1828"])
def test_003_242_chouette_two_marques_each_chouette_first(name: str) -> None:
    s = settle_partie(PartieSpec("chouette", ("C", "P1", "P2"), 6), [MarqueLine("C", (7, 2))] * 6, find_profile(name))
    assert [m["players"][1] for m in s.detail] == ["P1", "P1", "P2", "P2", "P1", "P1"]
    assert [m["primaute"] for m in s.detail] == ["C", "P1", "C", "P2", "C", "P1"]
    assert s.players["C"]["jetons"] == -2 * s.players["P1"]["jetons"]


def test_003_219_poule_of_four() -> None:
    p = Poule(["A", "B", "C", "D"], 5)
    assert p.table == ["A", "B"] and p.pot == 10
    for w in ("A", "C", "C", "B", "B"):
        p.play(w)
        assert p.winner is None
    p.play("B")  # B has beaten C, A and D running
    assert p.winner == "B" and p.pot == 35
    assert p.paid == {"A": 10, "B": 10, "C": 5, "D": 10}
    assert sum(p.accounts().values()) == 0
    with pytest.raises(PartieError):
        p.play("A")


def test_fixture_files_settle() -> None:
    from pathlib import Path

    for f in sorted((Path(__file__).resolve().parent.parent / "fixtures" / "parties").glob("*.txt")):
        r = settle_text(f.read_text(encoding="utf-8"))
        if "methods" in r:
            for m in r["methods"].values():
                assert sum(m["net"].values()) == 0 and sum(m["fiches"].values()) == 0
        else:
            assert sum(r["accounts"].values()) == 0


# -- properties ----------------------------------------------------------------------------

RESULT = st.one_of(
    st.tuples(st.integers(6, 24), st.integers(0, 23), st.booleans()).filter(lambda t: t[1] < t[0]),
    st.just(None),
)


@given(
    st.sampled_from(["ecrire", "quatre", "chouette", "tourner"]),
    st.lists(st.tuples(st.integers(0, 1), RESULT), max_size=14),
    st.integers(0, 30),
    st.sampled_from([1, 2]),
    st.sampled_from(["lelasseux-1852", "lebrun-1828"]),
)
def test_settlement_is_zero_sum(kind: str, raw: list, queue: int, k: int, prof: str) -> None:
    """A partie à écrire's settlement is zero-sum between the players (the queue and the
    queue des jetons included), in jetons and in rounded fiches."""
    players = {
        "ecrire": ("A", "B"),
        "quatre": ("A", "B", "C", "D"),
        "chouette": ("A", "B", "C"),
        "tourner": ("A", "B", "C"),
    }[kind]
    n_acc = 3 if kind == "tourner" else 2
    marques = n_acc * 3
    spec = PartieSpec(kind, players, marques, queue=queue, jetons_per_marque=k)
    profile = find_profile(prof)
    # pick, for each decided marqué, the first or second player at the table as winner
    results: list[MarqueLine] = []
    decided = 0
    for pick, r in raw:
        if decided == marques:
            break
        if r is None:
            results.append(MarqueLine(refait_holes=6))
            continue
        probe = settle_partie(spec, results + [MarqueLine(refait_holes=6)], profile)
        at_table = probe.detail[-1]["players"]
        results.append(MarqueLine(at_table[pick], (r[0], r[1]), pavillon=r[2]))
        decided += 1
    s = settle_partie(spec, results, profile)
    assert s.complete == (decided == marques)
    for m in s.methods.values():
        assert sum(m["net"].values()) == 0
        assert sum(m["fiches"].values()) == 0
    assert sum(p["jetons"] for p in s.players.values()) == 0
    assert sum(s.marques_lost.values()) == decided


@given(st.integers(3, 5), st.lists(st.integers(0, 1), max_size=40))
def test_poule_zero_sum_and_streak(n: int, picks: list) -> None:
    p = Poule([chr(65 + i) for i in range(n)], 3)
    for pick in picks:
        if p.winner:
            break
        p.play(p.table[pick])
    acc = p.accounts()
    assert sum(acc.values()) == (0 if p.winner else -p.pot)
    assert p.pot == 3 * (len(p.games) + 2 - (1 if p.winner else 0))
