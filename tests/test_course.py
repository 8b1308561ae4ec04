"""The course of a coup (replay/rules/course.py), step by step, with RULES.md §11 examples."""

from __future__ import annotations

import dataclasses

from trictrac.notation.record import Record
from trictrac.notation.writer import write_record
from trictrac.replay.recorder.recording import RecordingSession
from trictrac.replay.rules import course
from trictrac.replay.rules.course import Marked, MarqueOutcome
from trictrac.replay.rules.game import Game
from trictrac.replay.rules.ledger import Ledger, PlayerScore, ScoreState
from trictrac.replay.rules.partie import MarqueOutcome as MarqueEnd
from trictrac.replay.rules.position import Position, start_position
from trictrac.replay.rules.profiles import DEFAULT_PROFILE
from trictrac.replay.verifier.judges.table import MarqueWon
from trictrac.replay.verifier.verify import verify

LEAVER = dataclasses.replace(DEFAULT_PROFILE, primaute_after_marque_leave="leaver")  # D21 other reading


_FRESH = PlayerScore()  # frozen: one value serves every default


def _score(a: PlayerScore = _FRESH, b: PlayerScore = _FRESH) -> ScoreState:
    return ScoreState(a, b)


# --- gains and je ne marque pas (RULES.md §4.1 O1-O2, §5.3) ---------------------------


def test_ne_marque_pas_when_the_gift_completes_his_hole_E34() -> None:
    # E34 (003 §176): A 4, B 8; A's throw gains him 4 and gives B 4: B's hole comes anyway
    st = _score(PlayerScore(points=4), PlayerScore(points=8, bredouille=True))
    assert course.says_ne_marque_pas(st, "A", 4, 4)
    assert not course.says_ne_marque_pas(st, "A", 8, 4)  # his own hole: he marks it
    assert not course.says_ne_marque_pas(st, "A", 4, 2)  # B's hole does not come
    assert not course.says_ne_marque_pas(st, "A", 0, 4)  # nothing to announce


def test_ne_marque_pas_takes_the_opponents_bredouille_E34() -> None:
    def b_hole_after(announce: bool) -> int:
        ledger = Ledger(DEFAULT_PROFILE, _score(b=PlayerScore(points=8, bredouille=True)))
        gains = course.roller_gains(ledger, "A", 4 if announce else 0, 4)
        assert gains.ne_marque_pas is announce and gains.marked == course.NOTHING
        assert ledger.state.a.points == 0  # nothing marked either way
        return course.mark_points(ledger, "B", 4).holes

    assert b_hole_after(announce=False) == 2  # his 12 uninterrupted: a double hole (§5.2)
    assert b_hole_after(announce=True) == 1  # the announcement counts as marking: simple


def test_roller_gains_marks_holes_and_bredouille() -> None:
    ledger = Ledger(DEFAULT_PROFILE, _score(PlayerScore(points=10, bredouille=True)))
    gains = course.roller_gains(ledger, "A", 4, 0)
    assert gains.marked == Marked(4, 2, (True,), True)  # double hole, 2 de reste in bredouille
    assert ledger.state.a == PlayerScore(points=2, bredouille=True, holes=2, pavillon=True)
    wrong = Ledger(DEFAULT_PROFILE, _score(PlayerScore(points=10)))
    assert course.roller_gains(wrong, "A", 4, 0, marked=0).marked == course.NOTHING  # a mistake stands


# --- the end of a partie en douze trous, the right to leave (§8.1, §6.1, §6.6) ---------


def test_twelve_reached_only_in_douze_trous() -> None:
    st = _score(PlayerScore(holes=12), PlayerScore(holes=11))
    assert course.twelve_reached("douze-trous", st, "A")
    assert not course.twelve_reached("douze-trous", st, "B")
    assert not course.twelve_reached("a-ecrire", st, "A")  # a marqué ends only on a leave (§8.2)


def test_gains_end_partie_previews_without_marking() -> None:
    ledger = Ledger(DEFAULT_PROFILE, _score(PlayerScore(points=10, holes=11)))
    assert course.gains_end_partie("douze-trous", ledger, "A", 2)
    assert not course.gains_end_partie("douze-trous", ledger, "A", 0)
    assert not course.gains_end_partie("a-ecrire", ledger, "A", 2)
    assert ledger.state.a == PlayerScore(points=10, holes=11)


def test_no_right_to_leave_on_the_twelfth_hole() -> None:
    assert course.right_to_leave("douze-trous", _score(PlayerScore(holes=11)), "A", 1)
    assert not course.right_to_leave("douze-trous", _score(PlayerScore(holes=12)), "A", 1)
    assert course.right_to_leave("a-ecrire", _score(PlayerScore(holes=12)), "A", 1)
    assert not course.right_to_leave("a-ecrire", _score(), "A", 0)


# --- the end of a relevé (§6.2, §4.9, §6.5) -------------------------------------------


def test_after_leave_new_releve_or_end_of_marque() -> None:
    five = _score(PlayerScore(holes=5), PlayerScore(holes=2))
    assert course.after_leave("a-ecrire", five, "B", DEFAULT_PROFILE) == course.ReleveEnd("B")
    six = _score(PlayerScore(holes=6, pavillon=True), PlayerScore(holes=0))
    end = course.after_leave("a-ecrire", six, "A", DEFAULT_PROFILE)
    assert end.primaute == "A" and end.marque == MarqueEnd("A", "B", 6, 0, True)
    assert course.after_leave("douze-trous", six, "A", DEFAULT_PROFILE).marque is None


def test_after_sortie_je_joue_pour_tout() -> None:
    assert course.after_sortie("B", (6, 6), pour_tout=True) == course.ReleveEnd("B", None, (6, 6))
    assert course.after_sortie("B", (6, 6), pour_tout=False).replay_roll is None


# --- the end of a marqué (§8.2; D21; 003 §226) and of a partie à écrire ----------------


def test_close_marque_values_E47_E48_E52() -> None:
    def value(w: int, lo: int, pavillon: bool, refaits: int) -> int | None:
        ended = MarqueEnd("A", "B", w, lo, pavillon)
        return course.close_marque(1, ended, "A", "A", refaits, DEFAULT_PROFILE).outcome.value

    assert value(9, 8, False, 0) == 3  # E47: the smallest marqué
    assert value(9, 8, True, 0) == 14  # E48: petite bredouille 2 × (9 + 2) − 8
    assert value(7, 4, False, 1) == 7  # E52: after one refait the consolation is 4
    assert value(7, 4, True, 1) == 18
    assert value(12, 0, True, 2) == 72  # E52: grande bredouille after two refaits


def test_a_refait_keeps_the_primaute_and_counts_003_226() -> None:
    ended = MarqueEnd(None, None, 6, 6, False)
    closed = course.close_marque(3, ended, "A", "B", 1, DEFAULT_PROFILE)
    assert closed.outcome == MarqueOutcome(3, None, 6, 6, "none", True, 1, None)
    assert closed.primaute == "B"  # whoever had it in the void marqué, not the leaver
    assert closed.refaits == 2
    won = course.close_marque(4, MarqueEnd("A", "B", 7, 4, False), "A", "B", 2, DEFAULT_PROFILE)
    assert won.refaits == 0 and won.outcome.refaits_before == 2


def test_d21_winner_or_leaver_has_the_next_primaute() -> None:
    # B leaves with fewer holes: A wins the marqué (003 §221) but B left (003 §155)
    ended = MarqueEnd("A", "B", 7, 6, False)
    assert course.close_marque(1, ended, "B", "B", 0, DEFAULT_PROFILE).primaute == "A"
    assert course.close_marque(1, ended, "B", "B", 0, LEAVER).primaute == "B"
    assert course.primaute_after_marque(None, "A", "B", LEAVER) == "B"  # a refait: 003 §226
    assert course.primaute_after_marque(None, "A", None, LEAVER) is None  # first thrower unknown


def test_partie_over_counts_decided_marques_and_a_tie_has_no_winner() -> None:
    a5 = MarqueOutcome(1, "A", 6, 3, "none", False, 0, 5)
    refait = MarqueOutcome(2, None, 6, 6, "none", True, 0, None)
    b5 = MarqueOutcome(3, "B", 6, 3, "none", False, 0, 5)
    assert not course.partie_over([a5, refait], 2)
    assert course.partie_over([a5, refait, b5], 2)
    assert course.partie_winner([a5, refait, b5]) is None  # equal values: a tie
    assert course.partie_winner([a5, refait, dataclasses.replace(b5, value=7)]) == "B"


def test_settle_marque_and_refaits_after_003_226() -> None:
    won = course.settle_marque(2, MarqueEnd("B", "A", 9, 8, True), 0, DEFAULT_PROFILE)
    assert won == MarqueOutcome(2, "B", 9, 8, "petite", False, 0, 14)  # E48
    refait = course.settle_marque(3, MarqueEnd(None, None, 6, 6, False), 1, DEFAULT_PROFILE)
    assert refait.refait and refait.value is None and refait.refaits_before == 1
    assert course.refaits_after(True, 1) == 2
    assert course.refaits_after(False, 3) == 0


def test_gains_end_partie_when_twelve_holes_are_already_there() -> None:
    # the verifier asks on coups written after the end too: twelve holes end it (§8.1)
    ledger = Ledger(DEFAULT_PROFILE, _score(PlayerScore(points=2, holes=12)))
    assert course.gains_end_partie("douze-trous", ledger, "A", 0)
    assert course.gains_end_partie("douze-trous", ledger, "A", 4)
    assert not course.gains_end_partie("douze-trous", ledger, "B", 4)


def test_verifier_results_are_marque_lines() -> None:
    lines = [MarqueWon("A", 5), MarqueWon(None, 0), MarqueWon("B", 7)]
    assert [m.refait for m in lines] == [False, True, False]
    assert course.partie_over(lines, 2) and not course.partie_over(lines, 3)
    assert course.partie_winner(lines) == "B"
    assert course.partie_winner(lines[:2] + [MarqueWon("B", 5)]) is None


# --- the same steps through the game flow ----------------------------------------------


def _b_leaves_behind(profile: object, holes: tuple[int, int]) -> Game:
    """B to play 6-1 from his talon, 10 points: a hit à vrai on A's lone checker gives
    him a hole of his own throw; he leaves (RULES.md §6.1-6.2)."""
    pos = Position.from_points({1: 15}, {1: 14, 18: 1}, turn="B")
    score = _score(PlayerScore(holes=holes[0]), PlayerScore(points=10, holes=holes[1]))
    g = Game("a-ecrire", profile, start=pos, score=score, marques=2)  # type: ignore[arg-type]
    g.marque_primaute = "A"
    assert g.can_leave((6, 1))
    return g


def test_game_d21_primaute_after_a_lost_marque() -> None:
    for profile, first in ((DEFAULT_PROFILE, "A"), (LEAVER, "B")):
        g = _b_leaves_behind(profile, (8, 5))
        out = g.apply_coup((6, 1), None, leave=True)
        assert out.marque_ended is not None and out.marque_ended.winner == "A"
        assert g.turn == first and g.position == start_position(first) and g.marque == 2


def test_game_tie_in_a_partie_a_ecrire() -> None:
    g = _b_leaves_behind(DEFAULT_PROFILE, (3, 5))  # B: 5 holes + his hole = 6 against 3
    g.marque_results.append(MarqueOutcome(1, "A", 6, 3, "none", False, 0, 5))
    g.marque = 2
    out = g.apply_coup((6, 1), None, leave=True)
    assert out.marque_ended is not None and (out.marque_ended.winner, out.marque_ended.value) == ("B", 5)
    assert out.game_over and g.finished and g.winner is None  # 5 against 5
    assert g.result is not None and g.result["winner"] is None


# --- the recorder writes the same course ------------------------------------------------

_BEFORE_LEAVE = "A{1:11,2:1,3:1,4:1,5:1} B{1:11,2:1,3:1,4:1,5:1} coups=2/2 points=0/10 holes=%d/5"


def _recorded(holes_a: int, profile: object = DEFAULT_PROFILE) -> RecordingSession:
    """A throws 1-1 (nothing marked), then B's 6-5 completes his sixth hole and he leaves."""
    headers = {"Partie": "a-ecrire 2", "Position": _BEFORE_LEAVE % holes_a}
    s = RecordingSession(Record(headers=headers), profile=profile)  # type: ignore[arg-type]
    for entry in ("11", "1", "65", "v", ""):
        s.enter(entry)
    assert verify(s.record, profile).findings == []  # type: ignore[arg-type]
    return s


def test_recorder_refait_keeps_the_first_throwers_primaute() -> None:
    s = _recorded(6)
    assert "résultat refait 6-6\nmarqué 2" in write_record(s.record)
    assert s.state.side == "A"  # the first thrower of the void marqué, not the leaver B (003 §226)


def test_recorder_d21_winner_or_leaver() -> None:
    assert "résultat A 8-6 valeur 4" in write_record(_recorded(8).record)
    assert _recorded(8).state.side == "A"  # the marqué's winner (003 §221)
    assert _recorded(8, LEAVER).state.side == "B"  # the leaver (003 §155)
