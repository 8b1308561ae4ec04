"""The game flow for perfect players (replay/rules/game.py; RULES.md §4.1, §5-§6, §8.1-8.2)."""

from __future__ import annotations

import random

import pytest

from trictrac.replay.generate.selfplay import coup_element, play_partie
from trictrac.replay.rules.game import Game, GameFlowError, marque_bredouille, partie_kind, replay_record
from trictrac.replay.rules.ledger import PlayerScore, ScoreState
from trictrac.replay.rules.position import Position, start_position
from trictrac.replay.rules.profiles import DEFAULT_PROFILE, find_profile

_FRESH = PlayerScore()  # frozen: one value serves every default


def _score(a: PlayerScore = _FRESH, b: PlayerScore = _FRESH) -> ScoreState:
    return ScoreState(a, b)


# --- E35 (003 §163): leaving or staying at the sortie -----------------------------------


def test_E35_003_163_sortie_sonnez_stay_keeps_four_points() -> None:
    pos = Position.from_points({19: 2}, {1: 15}, mover_off=13, turn="A")
    g = Game("douze-trous", start=pos, score=_score(PlayerScore(points=10)))
    assert g.entitled((6, 6)).mover == 6  # sortie by a doublet (RULES.md §4.9)
    assert g.can_leave((6, 6))
    out = g.apply_coup((6, 6), g.legal((6, 6)).plays[0], leave=False)
    assert out.could_leave and not out.left and out.sortie and out.releve_ended
    assert (out.gains, out.holes) == (6, 1)
    st = g.score
    assert (st.a.holes, st.a.points) == (1, 4)  # points and holes kept after the sortie
    assert g.position == start_position("A")  # new relevé, the first out has the primauté
    assert g.releve == 2


def test_E35_003_163_sortie_three_two_leave_erases_the_rest() -> None:
    pos = Position.from_points({22: 1, 23: 1}, {1: 15}, mover_off=13, turn="A")
    g = Game("douze-trous", start=pos, score=_score(PlayerScore(points=10), PlayerScore(points=6)))
    assert g.entitled((3, 2)).mover == 4
    out = g.apply_coup((3, 2), None, leave=True)
    assert out.left and not out.played and out.holes == 1
    st = g.score
    assert (st.a.holes, st.a.points, st.b.points) == (1, 0, 0)  # RULES.md §6.2
    assert g.turn == "A" and g.position == start_position("A")


# --- s'en aller -----------------------------------------------------------------------------


def _hit_position() -> Position:
    """A on his talon; a lone B checker on A's 7 (B's 18): 6-1 hits it à vrai from the
    talon, a second-table hit worth 2 (RULES.md §4.3 B5)."""
    return Position.from_points({1: 15}, {1: 14, 18: 1}, turn="A")


def test_leave_without_right_raises() -> None:
    g = Game("douze-trous", start=_hit_position())
    assert g.entitled((6, 1)).mover == 2
    assert not g.can_leave((6, 1))
    with pytest.raises(GameFlowError):
        g.apply_coup((6, 1), None, leave=True)


def test_leave_gives_primaute_and_opponent_marks_nothing() -> None:
    g = Game("douze-trous", start=_hit_position(), score=_score(PlayerScore(points=10), PlayerScore(points=8)))
    out = g.apply_coup((6, 1), None, leave=True)
    assert out.left and out.receipts == 0 and out.holes == 1
    assert g.score.b.points == 0 and g.score.a.points == 0
    assert g.turn == "A" and g.releve == 2


def test_stay_plays_and_keeps_rest() -> None:
    g = Game("douze-trous", start=_hit_position(), score=_score(PlayerScore(points=10)))
    play = g.legal((6, 1)).plays[0]
    out = g.apply_coup((6, 1), play, leave=False)
    assert out.could_leave and not out.left and out.played
    assert g.turn == "B" and g.score.a.holes == 1


# --- partie à écrire: the end of a marqué (RULES.md §8.2; 003 §221-226) ----------------------


def test_leave_with_six_holes_ends_the_marque_003_221() -> None:
    g = Game(
        "a-ecrire",
        start=_hit_position(),
        marques=2,
        score=_score(PlayerScore(points=10, holes=5), PlayerScore(holes=3)),
    )
    out = g.apply_coup((6, 1), None, leave=True)
    m = out.marque_ended
    assert m is not None and not m.refait
    assert (m.winner, m.winner_holes, m.loser_holes, m.bredouille, m.value) == ("A", 6, 3, "none", 5)  # 6 + 2 - 3
    assert g.marque == 2 and g.score.a.holes == 0 and g.score.b.holes == 0  # a fresh marqué
    assert g.turn == "A"  # the winner has the primauté of the next marqué (003 §221)
    assert not g.finished


def test_refait_keeps_the_marque_primaute_003_226() -> None:
    g = Game(
        "a-ecrire",
        start=_hit_position(),
        marques=2,
        score=_score(PlayerScore(points=10, holes=5), PlayerScore(holes=6)),
    )
    g.marque_primaute = "B"  # B threw first in this marqué
    out = g.apply_coup((6, 1), None, leave=True)
    m = out.marque_ended
    assert m is not None and m.refait and m.winner is None and (m.winner_holes, m.loser_holes) == (6, 6)
    assert g.refaits == 1 and g.turn == "B"


def test_last_marque_ends_the_partie() -> None:
    g = Game("a-ecrire", start=_hit_position(), marques=1, score=_score(PlayerScore(points=10, holes=7, pavillon=True)))
    out = g.apply_coup((6, 1), None, leave=True)
    assert out.game_over and g.finished and g.winner == "A"
    m = out.marque_ended
    assert m is not None and m.bredouille == "petite" and m.value == 2 * (8 + 2) - 0  # E48-style, ×2


def test_leave_below_six_holes_does_not_end_the_marque() -> None:
    g = Game("a-ecrire", start=_hit_position(), score=_score(PlayerScore(points=10, holes=2)))
    out = g.apply_coup((6, 1), None, leave=True)
    assert out.marque_ended is None and g.marque == 1 and g.score.a.holes == 3


def test_marque_bredouille_from_factor() -> None:
    assert marque_bredouille(9, False, DEFAULT_PROFILE) == "none"
    assert marque_bredouille(9, True, DEFAULT_PROFILE) == "petite"
    assert marque_bredouille(12, True, DEFAULT_PROFILE) == "grande"


# --- partie en douze trous ends at twelve holes, even on points given ------------------------


def _impuissance_position() -> Position:
    """E17-like (003 §107): jan de retour made and the coin held; B on his own 7..12."""
    return Position.from_points(
        {12: 2, 24: 2, 23: 2, 22: 2, 21: 2, 20: 2, 19: 3},
        {7: 3, 8: 2, 9: 2, 10: 2, 11: 2, 12: 4},
        turn="A",
    )


def test_douze_trous_ends_on_receipts_with_je_ne_marque_pas() -> None:
    g0 = Game("douze-trous", start=_impuissance_position())
    found = None
    for a in range(1, 7):
        for b in range(1, a + 1):
            cs = g0.entitled((a, b))
            if cs.mover and 2 <= cs.other <= 10:
                found = (a, b), cs
                break
        if found:
            break
    assert found, "a throw that gains A points and gives B some"
    roll, cs = found
    g = Game(
        "douze-trous",
        start=_impuissance_position(),
        score=_score(PlayerScore(), PlayerScore(points=12 - cs.other, holes=11)),
    )
    play = g.legal(roll).plays[0]
    out = g.apply_coup(roll, play)
    # A's gains make no hole and B's receipts complete B's hole: "je ne marque pas" (§5.3)
    assert out.ne_marque_pas and out.gains == 0
    assert out.other_holes == 1 and out.game_over and g.winner == "B"
    with pytest.raises(GameFlowError):
        g.apply_coup(roll, play)


def test_douze_trous_ends_on_gains_without_playing() -> None:
    g = Game("douze-trous", start=_hit_position(), score=_score(PlayerScore(points=10, holes=11)))
    out = g.apply_coup((6, 1), g.legal((6, 1)).plays[0])
    assert out.game_over and not out.played and g.winner == "A" and g.score.a.holes == 12


# --- je joue pour tout (RULES.md §6.5) ------------------------------------------------------


def test_pour_tout_requires_the_same_throw() -> None:
    pos = Position.from_points({19: 2}, {1: 15}, mover_off=13, turn="A")
    g = Game("douze-trous", start=pos)
    out = g.apply_coup((6, 6), g.legal((6, 6)).plays[0], pour_tout=True)
    assert out.pour_tout and g.pending_roll == (6, 6) and g.turn == "A"
    with pytest.raises(GameFlowError):
        g.apply_coup((5, 4), None)
    g.apply_coup((6, 6), g.legal((6, 6)).plays[0])
    assert g.pending_roll is None


# --- whole games ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["douze-trous", "a-ecrire"])
def test_replay_record_marks_as_written(kind: str) -> None:
    """Replaying a bot's full record through the flow gives back every mark it wrote."""
    rec = play_partie(random.Random(f"flow:{kind}"), kind, marques=2)
    coups = rec.coups
    seen = 0
    holes_before = {"A": 0, "B": 0}
    for coup, out, game in replay_record(rec):
        again = coup_element(coup.number, out, game_unplayable(coup), compact=False)
        assert again == coup
        seen += 1
        if kind == "douze-trous":  # holes only grow within a partie en douze trous
            st = game.score
            assert st.a.holes >= holes_before["A"] and st.b.holes >= holes_before["B"]
            holes_before = {"A": st.a.holes, "B": st.b.holes}
    assert seen == len(coups) and game.finished
    if kind == "douze-trous":
        assert max(game.score.a.holes, game.score.b.holes) >= 12


def game_unplayable(coup: object) -> tuple[int, ...]:
    from trictrac.notation.record import CannotPlay

    return tuple(m.number for m in coup.moves if isinstance(m, CannotPlay))  # type: ignore[attr-defined]


def test_partie_kind_reads_headers() -> None:
    assert partie_kind("douze-trous") == ("douze-trous", 4)
    assert partie_kind("a-ecrire 8") == ("a-ecrire", 8)
    assert partie_kind("à écrire 6") == ("a-ecrire", 6)
    assert partie_kind(None) == ("douze-trous", 4)


def test_game_rejects_bad_kind_and_roll() -> None:
    with pytest.raises(GameFlowError):
        Game("poule")
    with pytest.raises(GameFlowError):
        Game().apply_coup((7, 1), None)


def test_profile_primaute_after_marque_leave_leaver() -> None:
    """D21: under primaute_after_marque_leave="leaver" the leaver keeps it (003 §155)."""
    from dataclasses import replace

    prof = replace(find_profile(None), primaute_after_marque_leave="leaver")
    g = Game(
        "a-ecrire",
        prof,
        start=_hit_position(),
        marques=3,
        score=_score(PlayerScore(points=10, holes=2), PlayerScore(holes=6)),
    )
    out = g.apply_coup((6, 1), None, leave=True)
    assert out.marque_ended is not None and out.marque_ended.winner == "B"
    assert g.turn == "A"


# --- properties over whole bot games (hypothesis chooses the dice seed) ----------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as hst  # noqa: E402

from trictrac.replay.generate.selfplay import bot_coup  # noqa: E402


@settings(max_examples=6, deadline=None)
@given(seed=hst.integers(0, 10**9), kind=hst.sampled_from(["douze-trous", "a-ecrire"]))
def test_flow_invariants_over_whole_games(seed: int, kind: str) -> None:
    rng = random.Random(seed)
    g = Game(kind, marques=1, first="A" if seed % 2 else "B")
    holes = (0, 0)
    while not g.finished:
        roller = g.turn
        marque = g.marque
        roll, ps, play, leave, say = bot_coup(g, rng, pour_tout=True)
        out = g.apply_coup(roll, play, leave=leave, pour_tout=say)
        st = g.score
        for ps_ in (st.a, st.b):
            assert 0 <= ps_.points < 12 and ps_.points % 2 == 0  # RULES.md §4.1, §5.1
        if g.marque == marque:  # holes only grow within a partie / a marqué (RULES.md §5.4)
            assert st.a.holes >= holes[0] and st.b.holes >= holes[1]
        holes = (st.a.holes, st.b.holes)
        if out.ne_marque_pas:  # RULES.md §5.3
            assert out.gains == 0 and out.other_holes >= 1
        if out.left:  # RULES.md §6.2
            assert out.could_leave and out.receipts == 0 and not out.played
            if not out.game_over:
                assert st.a.points == 0 and st.b.points == 0
                assert g.position == start_position(g.turn)
        assert out.game_over == g.finished
        if not (out.releve_ended or out.game_over):
            assert g.turn != roller
        elif out.releve_ended and out.marque_ended is None and not out.game_over:
            assert g.turn == roller  # primauté to the leaver / the first out (RULES.md §4.9, §6.2)
    if kind == "douze-trous":
        assert max(g.score.a.holes, g.score.b.holes) >= 12
    else:
        assert len([m for m in g.marque_results if not m.refait]) == 1


def test_E35_003_163_from_a_record_with_a_position_header() -> None:
    """A book problem: the record starts from its ``Position`` header (score included)."""
    from trictrac.notation.reader import parse_text

    text = (
        '[Partie "douze-trous"]\n[Position "A{19:2,25:13} B{1:15} points=10/0"]\n\n'
        "relevé 1\n1. A 6-6 A+6t1s A:reste 19/off 19/off\n"
    )
    (rec,), diags = parse_text(text)
    assert diags == []
    ((coup, out, game),) = list(replay_record(rec))
    assert (out.gains, out.holes, out.sortie, out.could_leave, out.left) == (6, 1, True, True, False)
    assert (game.score.a.points, game.score.a.holes) == (4, 1)
