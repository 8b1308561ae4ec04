"""The ledger against every worked example of the sources on points, holes and
bredouille (RULES.md §5-§6, §11 E29-E36, E44; 003 §143-163, §176, §200, §207, §225,
§331; 000 ~l.530-542, ~l.710-728, ~l.826-832)."""

from __future__ import annotations

import pytest

from trictrac.replay.rules.ledger import Ledger, LedgerError, PlayerScore, ScoreState


def ledger(*events: tuple[str, int]) -> Ledger:
    lg = Ledger()
    for side, n in events:
        lg.mark(side, n)
    return lg


# -- 003 §143-147 / RULES.md E29-E30 ----------------------------------------------------


def test_003_143_twelve_uninterrupted_points_make_a_double_hole() -> None:
    lg = ledger(("A", 4), ("A", 8))
    assert lg.state.a == PlayerScore(points=0, bredouille=False, holes=2, pavillon=True)


def test_003_143_interrupted_points_make_a_simple_hole() -> None:
    lg = ledger(("A", 4), ("B", 2), ("A", 8))
    assert lg.state.a.holes == 1
    assert lg.state.b.points == 0  # erased by the hole (003 §148)


def test_E29_003_146_one_simple_hole_for_sixteen_uninterrupted_points() -> None:
    lg = ledger(("A", 4), ("B", 4))
    assert lg.state.b.bredouille and not lg.state.a.bredouille
    r = lg.mark("A", 16, own=True)
    assert r.holes == ((1, False),)
    assert r.erased == 4
    assert lg.state.as_dict() == {
        "A": {"points": 8, "holes": 1, "bredouille": True, "pavillon": True},
        "B": {"points": 0, "holes": 0, "bredouille": False, "pavillon": False},
    }


def test_E30_003_147_rentrer_en_bredouille_eighteen_points() -> None:
    lg = ledger(("A", 8), ("B", 8))  # A 8 simple, B 8 in bredouille
    r = lg.mark("A", 18, own=True)
    # "un trou simple et un double, un, deux et trois"
    assert r.holes == ((1, False), (2, True))
    assert (lg.state.a.holes, lg.state.a.points) == (3, 2)
    assert lg.state.b.points == 0


def test_E30_003_147_thirty_six_points_make_five_holes() -> None:
    lg = ledger(("A", 8), ("B", 8))
    r = lg.mark("A", 36, own=True)
    assert r.holes == ((1, False), (2, True), (2, True))
    assert (lg.state.a.holes, lg.state.a.points) == (5, 8)


def test_000_l538_eight_simple_eight_bredouille_eighteen() -> None:
    # 000 ~l.538: "vous marqueriez partie, une, deux et trois, et deux points sur l'autre"
    lg = ledger(("A", 8), ("B", 8))
    lg.mark("A", 18, own=True)
    assert lg.state.a == PlayerScore(points=2, bredouille=True, holes=3, pavillon=True)


# -- 000 Charles / Jules (~l.534-540) -------------------------------------------------


def test_E31_000_l534_trou_sans_bouger() -> None:
    # you gain 4; my sonnez gains me 6 and gives you 12 (two checkers hit à faux)
    lg = ledger(("A", 4))
    t = lg.mark_throw("B", 6, 12)
    assert t.gained is not None and t.gained.points_after == 6
    assert t.given is not None and t.given.holes == ((1, False),)  # one simple hole
    assert t.given.sans_bouger  # "sans bouger": the jeton stays on 4
    assert lg.state.a.points == 4 and lg.state.b.points == 0
    # the four points left "sont censés être restés des douze derniers": in bredouille
    assert lg.state.a.bredouille


def test_000_l540_charles_one_jeton_jules_two_then_debredouille() -> None:
    lg = ledger(("A", 2))  # Charles first: one jeton, in bredouille
    assert lg.state.a.bredouille
    lg.mark("B", 2)  # Jules interrupts: two jetons
    assert lg.state.b.bredouille and not lg.state.a.bredouille
    lg.mark("A", 2)  # Charles again: Jules is débredouillé
    assert not lg.state.b.bredouille and not lg.state.a.bredouille
    lg.mark("B", 10)  # "le premier qui achèvera la partie la marquera simple"
    assert lg.state.b.holes == 1


def test_003_144_one_jeton_on_the_rail_means_nobody_has_the_bredouille() -> None:
    lg = ledger(("A", 4), ("B", 2), ("A", 2))
    s = lg.state
    assert s.a.points and s.b.points and not s.a.bredouille and not s.b.bredouille


# -- order of marking: 003 §149, §158, §207, §331 --------------------------------------


def test_E32_003_331_simple_and_double_then_opponent_double() -> None:
    lg = ledger(("A", 8), ("B", 10))  # A 8 not in bredouille, B 10
    assert not lg.state.a.bredouille
    stay = lg.copy()
    t = stay.mark_throw("A", 26, 12)
    assert t.gained is not None and t.gained.holes == ((1, False), (2, True))
    assert t.given is not None and t.given.holes == ((2, True),)  # a fresh series: double
    assert stay.state == ScoreState(PlayerScore(0, False, 3, False), PlayerScore(0, False, 2, True))
    # had A left, B would have marked nothing (003 §157)
    left = lg.copy()
    t = left.mark_throw("A", 26, 12, leave=True)
    assert t.left and t.given is None
    assert left.state == ScoreState(PlayerScore(0, False, 3, True), PlayerScore())
    assert left.primaute == "A"


def test_E33a_003_207_gains_before_receipts_hit_a_vrai_and_a_faux() -> None:
    lg = ledger(("A", 10), ("B", 10))
    lg.mark_throw("A", 2, 2)
    s = lg.state
    assert (s.a.holes, s.a.points) == (1, 0)
    assert s.b == PlayerScore(points=2, bredouille=True)  # B's 10 erased, 2 in bredouille


def test_E33b_003_207_conserver_par_impuissance() -> None:
    lg = ledger(("A", 10), ("B", 10))
    lg.mark_throw("A", 4, 2)
    s = lg.state
    assert (s.a.holes, s.a.points) == (1, 2)
    assert s.b.points == 2
    # 003 §158: "il marque ses points en bredouille, avec deux jetons, si l'autre joueur
    # a des points de reste"
    assert s.b.bredouille and not s.a.bredouille


def test_003_158_staying_opponent_loses_old_points_marks_new_holes() -> None:
    lg = ledger(("B", 8))
    lg.mark_throw("A", 12, 14)
    s = lg.state
    assert s.a.holes == 2  # A's own 12 uninterrupted (first to mark): double
    assert (s.b.holes, s.b.points) == (2, 2)  # B's 8 erased; 14 fresh = double + 2


# -- je ne marque pas: 003 §150, §176; RULES.md E34 -------------------------------------


def test_E34_003_176_announcement_takes_the_bredouille() -> None:
    lg = ledger(("A", 4), ("B", 8))
    assert lg.state.b.bredouille
    plain = lg.copy()
    lg.ne_marque_pas("A")
    r = lg.mark("B", 4)  # B schools the 4 A failed to mark
    assert r.holes == ((1, False),)  # "trou simple, à cause de l'avertissement"
    assert lg.state.a.points == 0
    # without the announcement B's twelve would have been a double hole
    assert plain.mark("B", 4).holes == ((2, True),)


def test_003_176_wrong_announcement_opponent_keeps_his_bredouille() -> None:
    lg = ledger(("A", 4), ("B", 6))
    lg.ne_marque_pas("A")
    r = lg.mark("B", 2)  # no hole after all
    assert r.holes == ()
    assert lg.state.b == PlayerScore(points=8, bredouille=True)
    assert lg.state.a.points == 4  # he cannot take back the unmarked points


def test_003_150_announcement_with_opponent_at_zero_changes_nothing() -> None:
    # equivalent to marking the gain first: the opponent's twelve still come after it
    lg = ledger(("A", 4))
    lg.ne_marque_pas("A")
    assert lg.mark("B", 12).holes == ((2, True),)


# -- écoles and bredouille: 001 r.64, 003 §200; RULES.md E44 ---------------------------


def test_E44_003_200_ecole_then_a_vrai_and_a_faux_not_in_bredouille() -> None:
    lg = Ledger()
    lg.mark("A", 4)  # A marks B's école: A 4 in bredouille
    assert lg.state.a.bredouille
    lg.mark_throw("B", 4, 4)  # B gains 4, gives A 4
    assert lg.state.a == PlayerScore(points=8, bredouille=False)
    # had A not schooled, his 4 from the à faux would be in bredouille
    lg2 = Ledger()
    lg2.mark_throw("B", 4, 4)
    assert lg2.state.a == PlayerScore(points=4, bredouille=True)


def test_003_200_second_example_ecole_gives_priority() -> None:
    # each has 8; the école (4) is marked before the offender's next gain
    lg = ledger(("A", 8), ("B", 8))
    lg.mark("A", 4)  # the école: A's hole, B's 8 erased
    assert lg.state.a.holes == 1 and lg.state.b.points == 0


# -- leaving: 003 §155-163; RULES.md E35-E36 -----------------------------------------------


def test_003_155_right_to_leave_only_on_own_gain() -> None:
    lg = ledger(("A", 10))
    r = lg.mark("A", 2, own=True)
    assert r.gives_right_to_leave and lg.can_leave("A") and not lg.can_leave("B")
    lg2 = ledger(("A", 10))
    lg2.mark("A", 2)  # given by the opponent (hit à faux): no right (000 ~l.726)
    assert not lg2.can_leave("A")
    with pytest.raises(LedgerError):
        lg2.leave("A")


def test_003_156_right_lost_by_staying_or_by_the_next_mark() -> None:
    lg = ledger(("A", 10))
    lg.mark("A", 4, own=True)
    lg.stay("A")  # "je reste", or he marked his points de reste, or touched a checker
    assert not lg.can_leave("A")
    lg = ledger(("A", 10))
    lg.mark_throw("A", 4, 2)  # he stayed and the opponent marked
    assert not lg.can_leave("A")


def test_003_157_leave_erases_all_three_jetons() -> None:
    lg = ledger(("A", 8), ("B", 6))
    lg.mark("A", 6, own=True)  # a simple hole and 2 points de reste
    lg.leave("A")
    s = lg.state
    assert (s.a.points, s.b.points, s.a.holes) == (0, 0, 1)
    assert lg.primaute == "A" and lg.releve == 2


def test_E35_003_163_sortie_six_six_stay() -> None:
    lg = ledger(("A", 10))
    r = lg.mark("A", 6, own=True)  # sortie by a doublet: 6
    assert r.holes == ((2, True),) and r.points_after == 4
    assert lg.can_leave("A")
    lg.stay("A")
    lg.new_releve_after_sortie("A")
    assert lg.state.a.points == 4 and lg.primaute == "A"


def test_E35_003_163_sortie_three_two_leave() -> None:
    lg = ledger(("A", 10))
    r = lg.mark("A", 4, own=True)  # sortie by a simple throw: 4
    assert r.points_after == 2
    lg.leave("A")
    assert lg.state.a == PlayerScore(points=0, bredouille=False, holes=2, pavillon=True)


def test_E36_003_300_points_survive_a_sortie() -> None:
    lg = Ledger()
    lg.mark("A", 4, own=True)  # first out: 4
    lg.new_releve_after_sortie("A")
    lg.mark("A", 4, own=True)  # jan de trois coups of the new relevé
    assert lg.state.a.points == 8


# -- pavillon: 003 §223-225; 000 ~l.828-832; 002 -----------------------------------------


def test_000_l830_pavillon_first_taker_needs_no_mark_second_holds_it() -> None:
    lg = ledger(("A", 12))  # A's first holes (double)
    assert lg.state.a.pavillon
    lg.mark("B", 12)  # B takes holes second, A took none in between
    assert lg.state.b.pavillon and not lg.state.a.pavillon
    lg.mark("A", 12)  # A again: both débredouillés
    assert not lg.state.a.pavillon and not lg.state.b.pavillon


def test_E50_003_225_twelve_holes_running_without_pavillon() -> None:
    # A took 2 holes, then B 5: nobody holds the pavillon
    lg2 = Ledger(state=ScoreState(PlayerScore(holes=2), PlayerScore(holes=5)))
    for _ in range(8):
        lg2.mark("A", 12)  # sixteen more holes, uninterrupted
    assert lg2.state.a.holes == 18
    assert not lg2.state.a.pavillon  # no re-entering hole-bredouille (003 §225)


def test_grande_bredouille_twelve_holes_uninterrupted() -> None:
    lg = Ledger()
    for _ in range(6):
        lg.mark("A", 12)
    assert lg.state.a.holes == 12 and lg.grande_bredouille("A")


# -- conversions -----------------------------------------------------------------------


def test_score_state_round_trips_through_the_position_notation() -> None:
    from trictrac.notation.position import parse_position, write_position

    spec, diags = parse_position("A{1:15} B{1:15} points=4b/8 holes=2p/1")
    assert spec is not None and not diags
    st = ScoreState.from_spec(spec)
    assert st == ScoreState(PlayerScore(4, True, 2, True), PlayerScore(8, False, 1, False))
    lg = Ledger(state=st)
    lg.mark("A", 8, own=True)  # 4 + 8: a double hole (A in bredouille)
    out = lg.state.apply_to_spec(spec)
    assert out.points == (0, 0) and out.holes == (4, 1) and out.pavillon == (True, False)
    assert write_position(out) == "A{1:15} B{1:15} holes=4p/1"


def test_misuse_raises_ledger_error() -> None:
    lg = Ledger()
    for bad in (("C", 2), ("A", 3), ("A", -2)):
        with pytest.raises(LedgerError):
            lg.mark(*bad)
    with pytest.raises(ValueError):
        Ledger(state=ScoreState(PlayerScore(points=12)))


def test_mark_throw_refused_leave_marks_nothing() -> None:
    lg = ledger(("A", 4))
    with pytest.raises(LedgerError):
        lg.mark_throw("A", 4, 2, leave=True)  # no hole: no right to leave
    assert lg.state == ScoreState(PlayerScore(4, True, 0, False), PlayerScore())
