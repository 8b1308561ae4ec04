"""A slow, independent reference for RULES.md §3.8 P3: can a side still fill a table?

Used only by the tests, to check :func:`trictrac.replay.rules.moves.can_still_make_plein`
(a running count: 2k checkers on or behind the k-th point).  This one shares no code
with it: it *searches* the side's future moves, ignoring dice, until the six points of
the table hold two checkers each or no move is left.

What a move is here (one checker, forward only — RULES.md §2.1; 003 §90 "quand vous
avez rompu votre grand jan, et que vous ne pouvez plus le refaire"):

* a checker moves forward by one or more points (no dice: any distance);
* the other side's checkers are no obstacle: they are either passing through (his
  second table) or may not be there at all while the plein is possible, and one
  wrongly entered does not make the plein impossible: "Si une dame est dans la
  première table, où le plein est possible, elle y restera nécessairement" (003 §213);
* one's own coin (point 12, in the grand jan) is taken by two checkers arriving
  together and never holds one alone (RULES.md §3.5 C1, L3; 003 §43).

Two reductions keep the search small, both sound without reference to P3's count:
checkers behind the table are pooled (each of them can reach any point of the table
in one move, so which point it stands on does not matter), and no checker is moved
past the table (a checker that leaves the table never comes back, and a plein with
more checkers available is never harder to make).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

COIN = 12


def can_fill_by_search(counts: Sequence[int], first: int) -> bool:
    """Search over the moves of the side whose ``counts`` (own frame, index 1..24) are
    given, for the table ``first..first+5``: can its plein be made?"""
    table = tuple(range(first, first + 6))
    start = (sum(counts[1:first]),) + tuple(counts[p] for p in table)
    return _solvable(start, table)


@cache
def _solvable(s: tuple[int, ...], table: tuple[int, ...]) -> bool:
    """The plein is made now or after some move (memoised: the states of many
    positions meet; every move advances a checker, so the recursion ends)."""
    if all(n >= 2 for n in s[1:]):
        return True
    return any(_solvable(t, table) for t in _moves(s, table))


def _moves(s: tuple[int, ...], table: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every state one move (or one coin taking, two checkers) away: sources are the
    pool (index 0) and the table points (index i = point table[i - 1])."""
    out = []
    for src in range(7):
        if s[src] == 0:
            continue
        for dst in range(max(src + 1, 1), 7):
            if table[dst - 1] == COIN and s[dst] == 0:
                continue  # C1: the coin is taken by two checkers at once (below)
            if src >= 1 and table[src - 1] == COIN and s[src] == 2:
                continue  # C2: its last two leave together (past the table: never useful)
            t = list(s)
            t[src] -= 1
            t[dst] += 1
            out.append(tuple(t))
    if COIN in table:
        c = table.index(COIN) + 1
        if s[c] == 0:
            for i in range(c):
                for j in range(i, c):
                    if s[i] - (i == j) >= 1 and s[j] >= 1:
                        t = list(s)
                        t[i] -= 1
                        t[j] -= 1
                        t[c] += 2
                        out.append(tuple(t))
    return out
