"""The fast legal-play generator against the slow reference, on game positions.

``replay/rules/moves.py`` works on cached per-side facts, interned steps and candidates
that are not kept (``excluded()`` generates them again); these tests pin that the
results are those of the independent reference (``tests/moves_reference.py``,
written from RULES.md §3) on a fixed corpus of positions from whole games, and that
caching, cache clearing and the regenerated ``excluded()`` never change an answer.
"""

from __future__ import annotations

import random
from dataclasses import replace

from moves_helpers import reachable_positions
from moves_reference import reference_legal

from trictrac.replay.rules import moves
from trictrac.replay.rules.moves import ROLLS, judge_play, legal_plays
from trictrac.replay.rules.position import Position
from trictrac.replay.rules.profiles import DEFAULT_PROFILE, Profile, find_profile

PROFILES: list[Profile] = [
    DEFAULT_PROFILE,
    replace(DEFAULT_PROFILE, rest_on_own_empty_coin=True),
    replace(DEFAULT_PROFILE, sortant_must_bear_off=True, defaillant_rearmost=True),
    replace(DEFAULT_PROFILE, bear_off_while_plein_possible=False),
    find_profile("lebrun-1828"),
]


def _corpus() -> list[tuple[Position, tuple[int, int], Profile]]:
    """About 2,000 (position, roll, profile) from 8 deep games (pleins, retour, sortie)."""
    rng = random.Random(20261121)
    positions = reachable_positions(1852, 8, 330, greedy=0.6)
    out = []
    for pos in positions[::1]:
        out.append((pos, rng.choice(ROLLS), rng.choice(PROFILES)))
    return out[:2000]


def _snapshot(pos: Position, roll: tuple[int, int], profile: Profile) -> tuple:
    ps = legal_plays(pos, roll, profile)
    return (tuple(ps.plays), ps.unplayable, ps.fills, ps.conserves, ps.excluded())


def test_game_positions_match_the_reference() -> None:
    """RULES.md §3.12: same resulting positions, pleins filled (M13), impuissance,
    fill (M10) and conserve (M11) flags as the reference, pair by pair."""
    corpus = _corpus()
    assert len(corpus) == 2000
    kinds = set()
    for pos, roll, profile in corpus:
        moves.clear_cache()
        ps = legal_plays(pos, roll, profile)
        ref = reference_legal(pos, roll, profile)
        mine = {p.result: p.filled for p in ps.plays}
        assert len(mine) == len(ps.plays), (pos, roll)
        assert mine == ref.plays, (pos, roll, profile.name)
        assert ps.unplayable == ref.unplayable, (pos, roll)
        assert (ps.fills, ps.conserves) == (ref.fills, ref.conserves), (pos, roll)
        kinds.add((bool(ps.fills), bool(ps.conserves), len(ps.unplayable), pos.mover[25] > 0))
    # the corpus reaches fills, conservations, impuissance and bearing off
    assert any(k[0] for k in kinds) and any(k[1] for k in kinds)
    assert any(k[2] for k in kinds) and any(k[3] for k in kinds)


def test_caches_never_change_an_answer() -> None:
    """Cold, warm (dict cache), last-call (identity) and rebuilt-after-clear answers
    are equal, and the excluded plays are the same each time they are generated."""
    corpus = _corpus()[::4]
    moves.clear_cache()
    cold = [_snapshot(*c) for c in corpus]
    warm = [_snapshot(*c) for c in corpus]
    assert cold == warm
    for c, snap in zip(corpus, cold):
        moves.clear_cache()
        assert _snapshot(*c) == snap
        assert legal_plays(*c) is legal_plays(*c)  # identity fast path: the same object
        # an equal position (not the same object) with the roll written the other way
        pos, (a, b), profile = c
        again = Position(
            pos.mover,
            pos.other,
            pos.turn,
            pos.mover_coups,
            pos.other_coups,
            pos.mover_coin_taken,
            pos.other_coin_taken,
            pos.mover_jans,
            pos.other_jans,
        )
        assert _snapshot(again, (b, a), profile) == snap


def test_every_roll_judged_consistently() -> None:
    """Each legal play is judged legal, each excluded play illegal with its obligation
    (M6, M7, M10, M11), for the 21 rolls of game positions (RULES.md §3.6-§3.7)."""
    # every 10th, not 15th: with the corrected P3 (RULES.md §3.8) the games differ and
    # every 15th position no longer meets an M7 exclusion
    positions = reachable_positions(77, 3, 300, greedy=0.6)[::10]
    seen_reasons = set()
    for pos in positions:
        for roll in ROLLS:
            ps = legal_plays(pos, roll, DEFAULT_PROFILE)
            for play in ps.plays:
                j = judge_play(pos, roll, play.steps + tuple(ps.unplayable), DEFAULT_PROFILE)
                assert j.legal and j.play == play and j.alternatives == ps.plays
            for play, why in ps.excluded():
                j = judge_play(pos, roll, play.steps, DEFAULT_PROFILE)
                assert not j.legal and j.violation == why and j.play == play
                seen_reasons.add(why)
    assert {"both-numbers", "larger-number"} <= seen_reasons
