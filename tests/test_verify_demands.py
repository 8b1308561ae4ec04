"""Edges of the issue 13 §3 verdicts beyond the book cases (tests/test_book_cases.py):
the right to leave followed in order, and the fait-marquer demand not owed."""

from __future__ import annotations

from trictrac.replay.verifier.verify import verify_text

_HEAD = (
    '[Partie "douze-trous"]\n[Profile "lelasseux-1852"]\n'
    '[Position "A{1:9,8:1,9:1,11:2,12:2} B{1:14,10:1} coin=1/0 coups=5/5 points=10/0"]\n\n'
)


def _kinds(movetext: str) -> list[tuple[str, str | None, str | None]]:
    reps = verify_text(_HEAD + movetext + "\n")
    assert len(reps) == 1
    return [(f.kind, f.who, f.detail) for f in reps[0].findings]


def test_a_hole_completed_by_the_second_mark_keeps_the_right_to_leave():
    # 2 then 2 with the hole: no reste laid after the hole (003 §161)
    assert _kinds("1. A 3-1 A+2 A+2t1 A:s'en-va") == []


def test_the_reste_laid_after_the_hole_forfeits_it():
    assert _kinds("1. A 3-1 A+2t1 A+2 A:s'en-va") == [("leave-without-right", "A", "reste-marked")]


def test_je_reste_said_by_the_other_player_is_no_finding():
    assert _kinds("1. A 3-1 A+4t1 8/11 9/10 B:reste") == []


def test_leave_said_before_playing_is_still_a_broken_word():
    # the leave precedes the moves: words bind (003 §156; 001 r.36), not a lost right
    assert _kinds("1. A 3-1 A+4t1 A:s'en-va 8/11 9/10") == [("stay-after-leave", "A", None)]


def test_fait_marquer_of_points_not_owed_is_not_allowed():
    found = _kinds("1. A 3-1 A+4t1 8/11 9/10 A:fait-marquer(B+2)")
    assert ("remedy-not-allowed", "A", "fait-marquer") in found


def test_a_force_outside_the_opponents_second_table_is_not_allowed():
    found = _kinds("1. A 3-1 A+4t1 B:force(8/11) 8/11 9/10")
    assert ("remedy-not-allowed", "B", "force") in found
