"""The direct proof of a coin taken par puissance and of a made plein broken
(``replay/rules/direct.py``, issue 17) against enumeration.

RULES.md §3.5 C3-C5: the written coin par puissance is the play ``legal_plays`` lists
when the throw cannot take the coin directly.  §3.7 M11: a play that breaks a made plein
is legal when no play of both numbers keeps it (``direct._keep_possible``).  On
self-played positions where either is at stake, under four profiles, for every one of
the 21 throws, every written form (the legal plays, the plays an obligation excluded,
each legal play with a step dropped, nothing played, the mistakes of
``direct_helpers.mistakes``) gets from ``direct_play`` the very verdict of
``judge_play``.  ``TRICTRAC_SLOW=1`` runs several times more.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace

from direct_helpers import (
    PROFILES,
    Moves,
    compare_with_reference,
    listed_forms,
    mistakes,
    position_of,
    reference,
    self_played_positions,
)

from trictrac.replay.rules.direct import UNDECIDED, _keep_possible, direct_play
from trictrac.replay.rules.moves import ROLLS, Play, legal_plays
from trictrac.replay.rules.position import Position
from trictrac.replay.rules.profiles import DEFAULT_PROFILE, Profile


def _made(m: tuple[int, ...]) -> list[int]:
    """First points of the pleins made (RULES.md §4.5 F1)."""
    return [lo for lo in (1, 7, 19) if all(m[p] >= 2 for p in range(lo, lo + 6))]


def _puissance_ground(pos: Position) -> bool:
    """Both coins empty: a coin par puissance may be possible (C3-C4)."""
    return pos.mover[12] == 0 and pos.other[12] == 0


def _positions(n: int, seed: int, wanted: Callable[[Position], bool]) -> Iterator[tuple[Position, Profile]]:
    """``n`` distinct self-played positions (no checker able to bear off) ``wanted`` keeps."""
    return self_played_positions(n, seed, PROFILES, lambda pos: sum(pos.mover[1:19]) >= 2 and wanted(pos))


def _forms(pos: Position, roll: tuple[int, int], profile: Profile, rng: random.Random) -> list[Moves]:
    ps, forms = listed_forms(pos, roll, profile)
    a, b = roll
    m = pos.mover
    if m[13 - a] and m[13 - b] and (a != b or m[13 - a] > 1):
        forms.append([(13 - a, 12), (13 - b, 12)])  # par puissance, allowed or not (C3-C5)
    return forms + mistakes(pos, roll, ps.plays[0], rng, profile)


def _compare(cases: Iterator[tuple[Position, Profile]], seed: int) -> Counter:
    rng = random.Random(seed)
    seen: Counter = Counter()
    for pos, profile in cases:
        made = _made(pos.mover)
        for roll in ROLLS:
            for moves in _forms(pos, roll, profile, rng):
                got, ref = compare_with_reference(pos, roll, moves, profile, seen)
                if isinstance(got, Play) and got.is_puissance():
                    seen["puissance decided"] += 1
                if isinstance(got, Play) and made and not _made(got.result):
                    seen["broken decided"] += 1
                if ref is not None and made and not _made(ref.result):
                    seen["broken legal"] += 1
                if ref is not None and ref.is_puissance():
                    seen["puissance legal"] += 1
    return seen


def _own_coin_empty(pos: Position) -> bool:
    return pos.mover[12] == 0


def test_coin_par_puissance_as_the_enumeration() -> None:
    """RULES.md §3.5 C3-C5: same verdict, same Play, one's own coin empty (the
    opponent's empty or held, C4)."""
    seen = _compare(_positions(35, 3, _own_coin_empty), 3)
    assert seen["coups"] >= 10_000 and seen["illegal"] > 1000
    assert seen["puissance legal"] > 20 and seen["puissance decided"] == seen["puissance legal"]
    if os.environ.get("TRICTRAC_SLOW"):
        assert _compare(_positions(300, 1852, _own_coin_empty), 1852)["coups"] >= 100_000


def test_made_plein_broken_as_the_enumeration() -> None:
    """RULES.md §3.7 M11: same verdict, same Play, a plein made before the throw; most
    legal plays that break it are decided without enumeration."""
    seen = _compare(_positions(40, 5, lambda pos: bool(_made(pos.mover))), 5)
    assert seen["coups"] >= 10_000 and seen["illegal"] > 1000
    assert seen["broken legal"] > 100 and seen["broken decided"] > seen["broken legal"] // 2
    if os.environ.get("TRICTRAC_SLOW"):
        assert _compare(_positions(300, 1852, lambda pos: bool(_made(pos.mover))), 1852)["coups"] >= 100_000


def test_keep_possible_exactly_when_a_play_keeps() -> None:
    """RULES.md §3.7 M11: ``_keep_possible`` says False only when no play of both numbers
    keeps the made plein (``legal_plays(...).conserves``), and away from the coin (a lone
    checker there, a coin par puissance possible) it says True exactly when one does."""
    seen: Counter = Counter()
    for pos, profile in _positions(60, 9, lambda pos: bool(_made(pos.mover))):
        (lo,) = _made(pos.mover)
        exact = pos.mover[12] != 1 and not _puissance_ground(pos)
        for roll in ROLLS:
            ps = legal_plays(pos, roll, profile)
            if len(ps.plays[0].numbers) < 2:
                continue
            keep = _keep_possible(pos, profile, roll[0], roll[1], lo)
            assert keep or not ps.conserves, (pos, roll, profile.name)
            if exact:
                assert keep == ps.conserves, (pos, roll, profile.name)
                seen["exact"] += 1
            seen["keep" if keep else "none keeps"] += 1
    assert seen["exact"] > 500 and seen["none keeps"] > 50 and seen["keep"] > 200


def test_grand_jan_kept_when_it_can_be() -> None:
    """RULES.md §3.7 M11 (003 §60, §196): a grand jan made, the coin held by three — 6-5
    can keep it (the coin's surplus checker plays the 6, a checker of the talon the 5),
    so breaking it is excluded; with no surplus anywhere it cannot, and a play breaking
    it is legal, proven directly."""
    grand = {7: 2, 8: 2, 9: 2, 10: 2, 11: 2}
    pos = position_of({**grand, 12: 3, 1: 2}, {20: 10})  # his 20 is the mover's 5
    assert _keep_possible(pos, DEFAULT_PROFILE, 6, 5, 7)
    breaks = [(7, 12), (8, 14)]
    assert direct_play(pos, (6, 5), breaks) is UNDECIDED
    assert reference(pos, (6, 5), breaks, DEFAULT_PROFILE) is None
    keeps = [(12, 18), (1, 6)]
    assert direct_play(pos, (6, 5), keeps) == reference(pos, (6, 5), keeps, DEFAULT_PROFILE) is not None
    bare = position_of({**grand, 12: 2, 24: 3}, {20: 10})
    assert not _keep_possible(bare, DEFAULT_PROFILE, 6, 5, 7)
    play = direct_play(bare, (6, 5), [(8, 14), (9, 14)])
    assert isinstance(play, Play) and play == reference(bare, (6, 5), [(8, 14), (9, 14)], DEFAULT_PROFILE)


def test_fill_en_passant_of_another_play_is_left_to_the_enumeration() -> None:
    """RULES.md §10 D33: with ``score_remplir_en_passant`` another play that fills the
    petit jan en passant (the ace onto 6, the 4 then breaking it) obliges, so a play that
    does not fill is excluded ("must-fill"); the proof does not call it legal."""
    pos = position_of({1: 2, 2: 2, 3: 2, 4: 2, 5: 3, 6: 1, 14: 3}, {10: 2, 7: 2})
    passant = replace(DEFAULT_PROFILE, score_remplir_en_passant=True)
    moves = [(3, 7), (6, 7)]
    assert reference(pos, (4, 1), moves, passant) is None
    assert direct_play(pos, (4, 1), moves, passant) is UNDECIDED
    assert isinstance(direct_play(pos, (4, 1), moves), Play)  # no fill by default (M13)
