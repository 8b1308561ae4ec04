"""Ledger.mark turns points into holes in closed form (issue 18): the same results as the
hole-by-hole loop it replaced, for every small sequence of events, and no work in
proportion to the points."""

from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st

from trictrac.replay.rules.ledger import POINTS_PER_HOLE, Ledger, MarkResult


class LoopLedger(Ledger):
    """The ledger with the former hole-by-hole loop of ``mark`` (the reference)."""

    __slots__ = ()

    def mark(self, side: str, points: int, *, own: bool = False) -> MarkResult:
        x = "AB".index(side)
        if points == 0:
            return MarkResult(side, 0, own, (), self._pts[x], self._bred[x] and self._pts[x] > 0)
        y = 1 - x
        pts, bred = self._pts, self._bred
        nmp = self._nmp == y
        self._nmp = None
        self._leave_right = None
        if pts[x] == 0:
            bred[x] = True
        elif nmp and pts[x] + points >= POINTS_PER_HOLE:
            bred[x] = False
        if pts[y] > 0:
            bred[y] = False
        g = points
        holes: list[tuple[int, bool]] = []
        erased = 0
        while pts[x] + g >= POINTS_PER_HOLE:
            g -= POINTS_PER_HOLE - pts[x]
            n = 2 if bred[x] else 1
            self._add_holes(x, n)
            holes.append((n, n == 2))
            if pts[y]:
                erased = pts[y]
            pts[y] = 0
            bred[y] = False
            pts[x] = 0
            bred[x] = True
        pts[x] += g
        if holes and own:
            self._leave_right = x
        return MarkResult(side, points, own, tuple(holes), pts[x], bred[x] and pts[x] > 0, erased)


_event = st.tuples(
    st.sampled_from(["mark", "mark", "mark", "nmp", "leave", "stay"]),
    st.sampled_from("AB"),
    st.integers(0, 40).map(lambda n: 2 * n),
    st.booleans(),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_event, max_size=30), st.tuples(st.integers(0, 13), st.integers(0, 13)))
def test_closed_form_equals_the_hole_by_hole_loop(events, holes0):
    new, old = Ledger(), LoopLedger()
    new.set_holes(holes0)
    old.set_holes(holes0)
    for kind, side, points, own in events:
        if kind == "mark":
            assert new.mark(side, points, own=own) == old.mark(side, points, own=own)
        elif kind == "nmp":
            new.ne_marque_pas(side)
            old.ne_marque_pas(side)
        elif kind == "stay":
            new.stay(side)
            old.stay(side)
        elif new.can_leave(side):
            assert old.can_leave(side)
            new.leave(side)
            old.leave(side)
        assert new.state == old.state
        assert new.can_leave("A") == old.can_leave("A") and new.can_leave("B") == old.can_leave("B")


def test_a_big_mark_costs_nothing_more_than_a_small_one():
    """Two million holes in one event: one divmod, no loop over holes."""
    led = Ledger()
    t = time.perf_counter()
    r = led.mark("A", 12 * 1_000_000, own=True)
    assert time.perf_counter() - t < 1.0
    assert r.holes_won == 2 * 1_000_000 and led.holes("A") == 2 * 1_000_000
    assert led.points("A") == 0 and led.can_leave("A")
