"""Property tests of the score ledger (RULES.md §5.1-§5.4, §6.2)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from trictrac.replay.rules.ledger import Ledger

SIDE = st.sampled_from(["A", "B"])
# one scoring event: a side and an even number of points (a big throw can reach 40+)
EVENT = st.tuples(SIDE, st.integers(1, 24).map(lambda n: 2 * n))
ACTION = st.one_of(
    EVENT.map(lambda e: ("mark", e[0], e[1])),
    SIDE.map(lambda s: ("nmp", s, 0)),
    SIDE.map(lambda s: ("leave", s, 0)),
    st.tuples(SIDE, st.integers(0, 20).map(lambda n: 2 * n), st.integers(0, 20).map(lambda n: 2 * n)).map(
        lambda t: ("throw", t[0], (t[1], t[2]))
    ),
)


def run(lg: Ledger, action: tuple) -> None:
    what, side, n = action
    if what == "mark":
        lg.mark(side, n)
    elif what == "nmp":
        lg.ne_marque_pas(side)
    elif what == "leave":
        lg.leave(side, force=True)
    else:
        gained, giv = n
        # leave whenever the right is there and the gain is a multiple of 4 (an arbitrary choice)
        may = lg.copy().mark(side, gained, own=True).gives_right_to_leave
        lg.mark_throw(side, gained, giv, leave=may and gained % 4 == 0)


@given(st.lists(ACTION, max_size=60))
def test_points_never_exceed_ten_and_holes_only_grow(actions: list) -> None:
    """'Points never exceed 10 on a jeton after marking' (issue 3); the total of holes
    only grows within a partie (holes are never erased, RULES.md §5.4)."""
    lg = Ledger()
    prev = (0, 0)
    for a in actions:
        run(lg, a)
        s = lg.state
        for p in (s.a, s.b):
            assert 0 <= p.points <= 10 and p.points % 2 == 0
            assert not p.bredouille or p.points > 0
            assert not p.pavillon or p.holes > 0
        assert s.a.holes >= prev[0] and s.b.holes >= prev[1]
        prev = (s.a.holes, s.b.holes)


@given(st.lists(EVENT, max_size=40))
def test_every_point_is_accounted_for(events: list) -> None:
    """12 points a hole, the earliest points consumed first: points before + gain =
    12 × holes completed + points after; a completed hole erases the opponent."""
    lg = Ledger()
    for side, n in events:
        before = lg.points(side)
        opp = "B" if side == "A" else "A"
        r = lg.mark(side, n)
        assert before + n == 12 * len(r.holes) + r.points_after
        if r.holes:
            assert lg.points(opp) == 0
            # only the first hole can be simple (rentrer en bredouille, 003 §147)
            assert all(d for _, d in r.holes[1:])


@given(st.lists(EVENT, max_size=40))
def test_at_most_one_bredouille_and_one_pavillon(events: list) -> None:
    """Two jetons or none on the rail: someone has the bredouille; one: nobody
    (003 §144) — never both.  Likewise the pavillon (003 §223)."""
    lg = Ledger()
    for side, n in events:
        lg.mark(side, n)
        s = lg.state
        assert not (s.a.bredouille and s.b.bredouille)
        assert not (s.a.pavillon and s.b.pavillon)
        if s.a.holes and not s.b.holes:
            assert s.a.pavillon
        if s.b.holes and not s.a.holes:
            assert s.b.pavillon


@given(st.lists(EVENT, max_size=30), st.lists(EVENT, max_size=10))
def test_copy_is_independent(first: list, then: list) -> None:
    lg = Ledger()
    for side, n in first:
        lg.mark(side, n)
    snap = lg.state
    cp = lg.copy()
    for side, n in then:
        cp.mark(side, n)
    assert lg.state == snap
    replay = Ledger()
    for side, n in first + then:
        replay.mark(side, n)
    assert replay.state == cp.state


@given(st.lists(EVENT, min_size=1, max_size=30))
def test_one_big_event_equals_its_hole_arithmetic(events: list) -> None:
    """Uninterrupted points of one side are the same whether marked in one event or
    several (only the opponent's points interrupt, 003 §143)."""
    side = events[0][0]
    ns = [n for _, n in events]
    lg1, lg2 = Ledger(), Ledger()
    for n in ns:
        lg1.mark(side, n)
    lg2.mark(side, sum(ns))
    assert lg1.state == lg2.state
