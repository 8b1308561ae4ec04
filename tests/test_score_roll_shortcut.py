"""The score of a throw without listing its plays (``scoring.score_roll``, issue 17).

When no plein is at stake, no sortie is possible and some play surely uses both
numbers (``direct.both_numbers_playable``), the throw's score is its position events
alone (RULES.md §4.3-4.4, §4.6; §4.8 M8: no number unplayable).  Compared here with the
score from every legal play, throw by throw, on the positions of self-played parties
(bearing off and the coin included) under several movement laws; and
``both_numbers_playable`` is never True where the legal plays leave a number unplayed.
"""

from __future__ import annotations

import random
from dataclasses import replace

from trictrac.replay.generate.selfplay import play_partie
from trictrac.replay.rules.direct import both_numbers_playable
from trictrac.replay.rules.moves import legal_plays
from trictrac.replay.rules.profiles import DEFAULT_PROFILE, find_profile
from trictrac.replay.rules.scoring import _score, score_roll
from trictrac.replay.verifier.verify import verify

PROFILES = (
    DEFAULT_PROFILE,
    replace(DEFAULT_PROFILE, rest_on_own_empty_coin=True),
    find_profile("lebrun-1828"),
)
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def _positions(parties: int, seed: int) -> list:
    out = []
    for i in range(parties):
        rec = play_partie(random.Random(seed + i), "douze-trous")
        out.extend(t.position_after for t in verify(rec, trace=True).trace)
    return out


def test_the_score_of_a_throw_is_that_of_its_legal_plays() -> None:
    shortcut = compared = 0
    for k, pos in enumerate(_positions(6, 6060)[::2]):
        profile = PROFILES[k % len(PROFILES)]
        for a, b in ROLLS:
            plays = legal_plays(pos, (a, b), profile)
            assert score_roll(pos, (a, b), profile) == _score(pos, a, b, profile, plays, None), (pos, a, b)
            if both_numbers_playable(pos, a, b, profile):
                assert not plays.unplayable and all(len(p.numbers) == 2 for p in plays.plays), (pos, a, b)
                shortcut += 1
            compared += 1
    # things that could be false: enough throws, and the shortcut was taken often
    assert compared >= 10_000, compared
    assert shortcut >= compared // 4, (shortcut, compared)
