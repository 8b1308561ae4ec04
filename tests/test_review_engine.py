"""Rules review of replay/rules/moves.py and replay/rules/scoring.py: one test per bug found.

Every test here states the rule (RULES.md section and the French source) and a
minimal position; it failed on the engine as first reviewed (09:50 UTC) and passes
once the bug is fixed (both were fixed in the working tree at 10:07 UTC: scoring.py
next_position, moves.py _finish).  Positions are in each side's own frame (RULES.md
§2.2); checkers a rule does not need are put on a talon or borne off, as each
docstring says.
"""

from __future__ import annotations

from dataclasses import replace

from trictrac.replay.rules.moves import PETIT_JAN, legal_plays, plein_made
from trictrac.replay.rules.position import Position
from trictrac.replay.rules.profiles import find_profile
from trictrac.replay.rules.scoring import next_position

LEBRUN = find_profile("lebrun-1828")
B_AWAY = {14: 3, 15: 3, 16: 3, 17: 3, 18: 3}


def make(mover: dict[int, int], other: dict[int, int], **kw: object) -> Position:
    pos = Position.from_points(mover, other, **kw)
    assert not pos.problems(), pos.problems()
    return pos


def test_D14_lebrun_until_broken_second_table_opens_once_the_grand_jan_is_broken() -> None:
    """Profile lebrun-1828, switch ``opponent_table_closed="until-broken"`` (RULES.md
    §3.8 P3, §10 D14; 000 ~l.508: one may not enter "dans le grand jan de votre
    adversaire avant qu'il fût rompu").  B (to move) has his grand jan (7..12 ×2) and
    three checkers on his 19 (A's 6), stuck because A can still make his petit jan
    (A: talon 12, coin 3); B's 2-1 can only be played inside his grand jan, so he
    breaks it (7→9, 7→8) while keeping 12 checkers on his 1..12.  His grand jan was made and is now broken: A may
    stop in B's second table, e.g. 12→18 (B's empty 7) with the 6 of 6-1.

    Bug (fixed 10:07): ``opponent_table_closed`` reads the history from ``"grand-jan"
    in pos.other_jans``; ``scoring.next_position`` recorded it only when the throw's
    *result* has the grand jan made, so a grand jan made before the throw (here: a
    position given directly, as the one-line notation gives it — it has no token
    for this history) and broken by it was never recorded, and B's second table stayed
    closed to A for the rest of the relevé."""
    pos = make({7: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 2, 19: 3}, {1: 12, 12: 3}, turn="B")
    ps = legal_plays(pos, (2, 1), LEBRUN)
    broke = [p for p in ps.plays if p.result[7] == 0 and p.result[8] == 3 and p.result[9] == 3]
    assert broke, [p.text() for p in ps.plays]
    after = next_position(pos, (2, 1), broke[0], LEBRUN)  # A to move
    assert after.turn == "A" and after.other[7] == 0
    plays = legal_plays(after, (6, 1), LEBRUN).plays
    assert any(p.result[18] == 1 for p in plays), [p.text() for p in plays]


def test_M13_003_82_remplir_en_passant_only_when_the_other_number_forces_the_break() -> None:
    """RULES.md §3.7 M13: "A fill that *forces* the other number to break the same plein
    still counts (remplir en passant)".  003 §82: "un des deux nombres amenés remplit
    et l'autre fait rompre", and rompre is defined as being obliged to play one of
    the twelve ("Rompre, c'est ne pas conserver, c'est être obligé de jouer une des
    douze dames qui font le plein", 003 §62); 003 §60 "il faut donc conserver aussi
    long-temps qu'il est possible"; 003 §192: having marked the fill, lifting a
    checker that "force de rompre" is an école.  So when the throw can fill AND leave
    the plein made, a play that fills and then breaks is not a legal way to play it.

    Lelasseux fig. 8 (P12), 4-1: 2→6 with the 4 fills and the ace can then be played
    2→3 or 4→5 keeping the petit jan (and talon→6 tout d'une fills too).  The engine
    also offered 2/7 (= 2→6, 6→7), 2→6 3→4 and 2→6 5→6, which break a point of the
    plein they have just made (fixed 10:07).  Black on his talon."""
    pos = make({1: 3, 2: 4, 3: 2, 4: 3, 5: 2, 6: 1}, {1: 15})
    ps = legal_plays(pos, (4, 1))
    assert ps.fills
    broken = [p.text() for p in ps.plays if not plein_made(p.result, PETIT_JAN)]
    assert broken == []


def test_M13_003_114_forced_en_passant_stays_legal() -> None:
    """The companion of the test above: E16, 003 §114 — A{24:4, 23:3, 22:2, 21:2, 20:1,
    19:2, 17:1}, 6-3: the 3 17→20 fills, then everything is in and the 6 can only bear
    off from 19, breaking: remplir en passant.  Corrected for M13 as RULES.md now
    reads it (003 §398: "il faut que l'autre nombre puisse se jouer sans rompre"):
    not a fill, so still legal but no longer the only legal play; the former reading
    (the only legal play, a fill) is switch D33.  Black away in his own second table."""
    pos = make({24: 4, 23: 3, 22: 2, 21: 2, 20: 1, 19: 2, 17: 1}, B_AWAY)
    ps = legal_plays(pos, (6, 3))
    assert "17/20 19/off" in [p.text() for p in ps.plays]
    assert not ps.fills
    ps = legal_plays(pos, (6, 3), replace(find_profile(None), score_remplir_en_passant=True))
    assert [p.text() for p in ps.plays] == ["17/20 19/off"]
    assert ps.fills
