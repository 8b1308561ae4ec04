"""Property tests of the legal-play generator against the slow reference (RULES.md §3)."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from moves_helpers import reachable, reachable_positions, rolls
from moves_reference import reference_legal

from trictrac.replay.rules.moves import (
    ROLLS,
    TABLE_BITS,
    TABLES,
    VIOLATIONS,
    apply_play,
    judge_play,
    legal_plays,
    plein_made,
)
from trictrac.replay.rules.position import Position
from trictrac.replay.rules.profiles import DEFAULT_PROFILE, find_profile

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

SWITCHED = [
    replace(DEFAULT_PROFILE, rest_on_own_empty_coin=True),
    replace(DEFAULT_PROFILE, sortant_must_bear_off=True),
    replace(DEFAULT_PROFILE, defaillant_rearmost=True),
    replace(DEFAULT_PROFILE, bear_off_while_plein_possible=False),
    find_profile("lebrun-1828"),
]


def _check_against_reference(pos: Position, roll: tuple[int, int], profile=DEFAULT_PROFILE) -> None:
    ps = legal_plays(pos, roll, profile)
    ref = reference_legal(pos, roll, profile)
    mine = {p.result: p.filled for p in ps.plays}
    assert len(mine) == len(ps.plays), "one play per resulting position"
    assert set(mine) == set(ref.plays), "same resulting positions"
    assert mine == ref.plays, "same pleins filled"
    assert ps.unplayable == ref.unplayable
    assert ps.fills == ref.fills and ps.conserves == ref.conserves


@SETTINGS
@given(reachable(), rolls)
def test_plays_match_reference(pos: Position, roll: tuple[int, int]) -> None:
    _check_against_reference(pos, roll)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reachable(), rolls)
def test_plays_match_reference_under_every_switch(pos: Position, roll: tuple[int, int]) -> None:
    for profile in SWITCHED:
        _check_against_reference(pos, roll, profile)


def test_reference_agrees_on_a_fixed_corpus() -> None:
    """Deterministic sweep: deep games (retour, bearing off, pleins made and kept)."""
    rng = random.Random(7)
    for pos in reachable_positions(11, 2, 260, greedy=0.6)[::3]:
        _check_against_reference(pos, rng.choice(ROLLS))


@SETTINGS
@given(reachable(), rolls)
def test_plays_keep_fifteen_checkers_and_a_valid_board(pos: Position, roll: tuple[int, int]) -> None:
    ps = legal_plays(pos, roll)
    assert ps.plays, "there is always a play (possibly '-')"
    numbers = {len(p.numbers) for p in ps.plays}
    assert len(numbers) == 1 and numbers.pop() + len(ps.unplayable) == 2
    for play in ps.plays:
        after = apply_play(pos, play)
        assert sum(after.mover) == 15 and after.mover[0] == 0
        assert after.problems() == []
        assert len(play.steps) == len(play.numbers)
        for (p, q), n in zip(play.steps, play.numbers):
            assert p < q <= 25
            assert q - p == n or q == 25 or play.is_puissance()


@SETTINGS
@given(reachable(), rolls)
def test_written_plays_are_judged_legal(pos: Position, roll: tuple[int, int]) -> None:
    """The canonical text of every legal play, read back as written moves, is legal."""
    ps = legal_plays(pos, roll)
    for play in ps.plays:
        written: list = []
        for part in play.text().split():
            if part == "-":
                continue
            a, b = part.split("/")
            written.append((int(a), 25 if b == "off" else int(b)))
        written += list(ps.unplayable)
        j = judge_play(pos, roll, written)
        assert j.legal and j.play == play, (play.text(), j)
    for play, why in ps.excluded():
        j = judge_play(pos, roll, list(play.steps))
        assert not j.legal and j.violation == why and j.executable


@SETTINGS
@given(reachable(), rolls)
def test_excluded_plays_are_movement_legal(pos: Position, roll: tuple[int, int]) -> None:
    """Plays removed by an obligation are distinct from the legal ones and named."""
    ps = legal_plays(pos, roll)
    legal = {p.result for p in ps.plays}
    seen = set()
    for play, why in ps.excluded():
        assert why in {"both-numbers", "larger-number", "must-fill", "must-conserve"}
        assert play.result not in legal and play.result not in seen
        seen.add(play.result)
        if why == "must-fill":
            assert ps.fills and not play.filled
        if why == "must-conserve":  # a made plein, or the one just filled (M11, M13)
            assert ps.conserves or (ps.fills and play.filled and not _keeps_filled(play))


def _keeps_filled(play) -> bool:
    return all(plein_made(play.result, TABLES[name]) for name, bit in TABLE_BITS.items() if play.filled & bit)


def test_fill_and_keep_beats_remplir_en_passant() -> None:
    """M13 reading (003 §60, §62, §82): a fill en passant only when no play fills and keeps."""
    for pos in reachable_positions(21, 3, 200, greedy=0.8):
        for roll in ROLLS:
            ps = legal_plays(pos, roll)
            if ps.fills:
                kept = [_keeps_filled(p) for p in ps.plays]
                assert all(kept) or not any(kept)


def test_cache_returns_the_same_object() -> None:
    pos = reachable_positions(3, 1, 40)[-1]
    assert legal_plays(pos, (5, 2)) is legal_plays(pos, (5, 2))
    assert legal_plays(pos, (2, 5)).plays == legal_plays(pos, (5, 2)).plays


@SETTINGS
@given(reachable(), rolls, st.randoms(use_true_random=False))
def test_random_written_plays_are_judged_like_the_reference(pos: Position, roll, rnd) -> None:
    """Random moves at the dice's distances: legal iff the reference has that position."""
    a, b = roll
    occ = [p for p in range(1, 25) if pos.mover[p]]
    ref = reference_legal(pos, roll, DEFAULT_PROFILE)
    for _ in range(6):
        kind = rnd.randrange(3)
        p1, p2 = rnd.choice(occ), rnd.choice(occ)
        if kind == 0:
            written = [(p1, min(p1 + a, 25)), (p2, min(p2 + b, 25))]
        elif kind == 1:
            written = [(p1, min(p1 + a + b, 25))]
        else:
            written = [(p1, min(p1 + a, 25)), b]
        j = judge_play(pos, roll, written)
        if not j.executable:
            assert not j.legal and j.violation in ("no-checker", "wrong-distance")
            continue
        assert j.legal == (j.play.result in ref.plays), (written, j)
        if not j.legal:
            assert j.violation in VIOLATIONS and j.rule == VIOLATIONS[j.violation]


LEBRUN = find_profile("lebrun-1828")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reachable(LEBRUN), rolls)
def test_until_broken_games_match_reference(pos: Position, roll: tuple[int, int]) -> None:
    """000 ~l.508 (D14): games where a made grand jan is remembered and then broken."""
    _check_against_reference(pos, roll, LEBRUN)
