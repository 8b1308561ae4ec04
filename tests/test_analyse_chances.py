"""The analyser's dict (issue 2 JSON shape) and its chances out of 36."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scoring_helpers import ALL_ROLLS, make, random_positions, weight

from trictrac.replay.rules.analyse import analyse, parse_roll, render_text, roll_text
from trictrac.replay.rules.position import start_position
from trictrac.replay.rules.profiles import DEFAULT_PROFILE
from trictrac.replay.rules.scoring import KINDS

ROLL_KEYS = {"roll", "plays", "moves", "events", "points"}


def _check_shape(res: dict) -> None:
    assert set(res) == {"rolls", "chances"}
    for r in res["rolls"]:
        assert set(r) == ROLL_KEYS
        assert len(r["plays"]) == len(r["moves"]) >= 1
        for play in r["plays"]:
            assert all(isinstance(mv, list) and len(mv) == 2 and 1 <= mv[0] < mv[1] <= 25 for mv in play)
        for e in r["events"]:
            assert {"side", "kind", "ways", "points"} <= set(e) <= {"side", "kind", "ways", "points", "target", "how"}
            assert e["side"] in ("mover", "other") and e["kind"] in KINDS
            assert ("target" in e) == e["kind"].startswith("battre")
            assert ("how" in e) == (e["kind"] in ("petit-jan", "grand-jan", "jan-de-retour"))
        assert r["points"] == {
            "mover": sum(e["points"] for e in r["events"] if e["side"] == "mover"),
            "other": sum(e["points"] for e in r["events"] if e["side"] == "other"),
        }
    json.dumps(res)  # plain data


@given(st.integers(0, 10**9), st.integers(0, 150))
def test_chances_sum_over_36_outcomes(seed: int, n: int) -> None:
    pos = random_positions(seed, n)[-1]
    res = analyse(pos, DEFAULT_PROFILE)
    _check_shape(res)
    assert [r["roll"] for r in res["rolls"]] == [f"{a}-{b}" for a, b in ALL_ROLLS]
    assert sum(weight(r) for r in ALL_ROLLS) == 36
    expected: dict[str, int] = {}
    for (a, b), r in zip(ALL_ROLLS, res["rolls"]):
        for kind in {e["kind"] for e in r["events"]}:
            expected[kind] = expected.get(kind, 0) + weight((a, b))
    assert res["chances"] == expected
    assert all(0 < n <= 36 for n in res["chances"].values())
    # one distinct resulting position per play
    for r in res["rolls"]:
        results = set()
        for play in r["plays"]:
            c = list(pos.mover)
            for p, q in play:
                c[p] -= 1
                c[q] += 1
            results.add(tuple(c))
        assert len(results) == len(r["plays"])


def test_one_roll_keeps_all_chances() -> None:
    pos = make({1: 4, 2: 3, 3: 2, 4: 3, 5: 2, 6: 1}, {1: 15})  # E10
    full = analyse(pos)
    one = analyse(pos, roll=(4, 5))
    assert [r["roll"] for r in one["rolls"]] == ["5-4"]
    assert one["chances"] == full["chances"] == {"petit-jan": 30}
    assert one["rolls"][0] == full["rolls"][[r["roll"] for r in full["rolls"]].index("5-4")]
    assert one["rolls"][0]["events"] == [
        {"side": "mover", "kind": "petit-jan", "ways": 2, "points": 8, "how": "remplir"}
    ]


def test_start_position_tout_d_une_as_two_moves() -> None:
    res = analyse(start_position(), roll=(6, 4))
    r = res["rolls"][0]
    assert r["roll"] == "6-4" and r["events"] == [] and r["points"] == {"mover": 0, "other": 0}
    assert sorted(r["moves"]) == ["1/11", "1/7 1/5"]  # never a lone checker on the coin
    tout = r["plays"][r["moves"].index("1/11")]
    assert len(tout) == 2 and tout[0][1] == tout[1][0] and tout[0][0] == 1 and tout[1][1] == 11
    assert res["chances"] == {}


def test_bear_off_written_as_25() -> None:
    pos = make({22: 1, 23: 1}, {19: 3, 20: 3, 21: 3, 22: 3, 23: 3}, mover_off=13)
    r = analyse(pos, roll=(3, 2))["rolls"][0]
    assert [[22, 25], [23, 25]] in r["plays"] or [[23, 25], [22, 25]] in r["plays"]
    assert {"side": "mover", "kind": "sortie", "ways": 1, "points": 4} in r["events"]


def test_render_text() -> None:
    pos = make({1: 13, 12: 2}, {1: 15})  # E8
    text = render_text(analyse(pos))
    assert "6-1: roller +4, opponent +0" in text
    assert "jan-de-mezeas: 11" in text


@pytest.mark.parametrize("text,roll", [("5-4", (5, 4)), ("4-5", (5, 4)), ("66", (6, 6)), ("1,3", (3, 1))])
def test_parse_roll(text: str, roll: tuple[int, int]) -> None:
    assert parse_roll(text) == roll and roll_text(roll) == f"{roll[0]}-{roll[1]}"


@pytest.mark.parametrize("text", ["7-1", "5", "a-b", "5-4-3", ""])
def test_parse_roll_bad(text: str) -> None:
    with pytest.raises(ValueError):
        parse_roll(text)
