"""Positions of Grand Trictrac, always seen from the side to move.

Frame (RULES.md §2.2): each side counts its own points ``1..24`` — 1 = own talon,
12 = own coin de repos, 13 = the opponent's coin, 24 = the opponent's talon — and
``25`` = borne off.  An opposing checker on the mover's point ``p`` stands on the
opponent's own point ``25 - p`` (RULES.md §2.2).

A :class:`Position` is frozen and hashable so that the engine can cache legal plays
and scoring on ``(position, roll, profile)``.  It stores the board as two count
tuples of length 26 (index 0 unused and always 0, 1..24 points, 25 borne off):
``mover`` in the mover's frame and ``other`` in the other side's own frame.
``turn`` says which player letter (``"A"`` or ``"B"``) the mover is.

Relevé facts needed by the special jans (RULES.md §4.6) travel with the position:
coups played by each side in the relevé, whether each side has taken its coin in
this relevé, and the special jans each side has already scored.

The score (points, holes, bredouille, pavillon) is *not* part of a Position: it
lives in the ledger (``replay.rules.ledger``); the one-line position notation carries both
(``notation.position.PositionSpec``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # notation imports nothing of replay; replay may import notation
    from ...notation.position import PositionSpec

__all__ = ["Position", "Side", "other_side", "EMPTY", "is_start", "start_position"]

Side = str  # "A" or "B"

#: counts of a side with nothing anywhere (never valid alone, used to build)
EMPTY: tuple[int, ...] = (0,) * 26

TALON = 1
COIN = 12
OPPONENT_COIN = 13
OFF = 25


def other_side(side: Side) -> Side:
    return "B" if side == "A" else "A"


def _counts(points: Mapping[int, int] | Iterable[tuple[int, int]]) -> tuple[int, ...]:
    items = points.items() if isinstance(points, Mapping) else points
    c = [0] * 26
    for p, n in items:
        p = int(p)
        if not 1 <= p <= 25:
            raise ValueError(f"point {p} outside 1..25")
        c[p] += int(n)
    return tuple(c)


@dataclass(frozen=True, slots=True)
class Position:
    """A position from the mover's side (RULES.md §2.2, §4.6)."""

    mover: tuple[int, ...]
    other: tuple[int, ...]
    turn: Side = "A"
    mover_coups: int = 0
    other_coups: int = 0
    mover_coin_taken: bool = False
    other_coin_taken: bool = False
    mover_jans: frozenset[str] = frozenset()
    other_jans: frozenset[str] = frozenset()

    # -- building -----------------------------------------------------------------
    @classmethod
    def from_points(
        cls,
        mover: Mapping[int, int] | Iterable[tuple[int, int]],
        other: Mapping[int, int] | Iterable[tuple[int, int]],
        *,
        mover_off: int | None = None,
        other_off: int | None = None,
        **facts: object,
    ) -> Position:
        """Build from ``{point: count}`` dicts, each in its side's own frame.

        Unlisted checkers are not invented: pass ``mover_off`` / ``other_off`` (or
        point 25) for borne-off checkers.  RULES.md §11 examples that list only some
        checkers are completed by the tests themselves.
        """
        m = list(_counts(mover))
        o = list(_counts(other))
        if mover_off is not None:
            m[OFF] += mover_off
        if other_off is not None:
            o[OFF] += other_off
        return cls(tuple(m), tuple(o), **facts)  # type: ignore[arg-type]

    @classmethod
    def from_spec(cls, spec: PositionSpec) -> Position:
        """The position of a one-line notation value, seen from ``spec.turn``.

        Jans are converted from the notation's short names (``deux-tables``) to the
        scoring-event kinds (``jan-de-deux-tables``, RULES.md §4.6); the score
        (points, holes, bredouille, pavillon) is left to the ledger.
        """
        from ...notation.position import JAN_NAMES

        def kinds(js: frozenset[str]) -> frozenset[str]:
            return frozenset(JAN_NAMES.get(j, j) for j in js)

        if spec.turn not in ("A", "B"):
            raise ValueError(f"turn must be 'A' or 'B', not {spec.turn!r}")
        i, j = (0, 1) if spec.turn == "A" else (1, 0)
        sides = (tuple(spec.a), tuple(spec.b))
        return cls(
            sides[i],
            sides[j],
            spec.turn,
            spec.coups[i],
            spec.coups[j],
            bool(spec.coin_taken[i]),
            bool(spec.coin_taken[j]),
            kinds(spec.jans[i]),
            kinds(spec.jans[j]),
        )

    def to_spec(self, score: Any = None) -> PositionSpec:
        """The notation value of this position; ``score``: an optional score state with
        ``.a`` / ``.b`` each having ``points``, ``bredouille``, ``holes``, ``pavillon``
        (``replay.rules.ledger.ScoreState``); zero score when omitted."""
        from ...notation.position import JAN_NAMES, PositionSpec

        short = {v: k for k, v in JAN_NAMES.items()}

        def names(js: frozenset[str]) -> frozenset[str]:
            return frozenset(short.get(j, j) for j in js)

        a_first = self.turn == "A"

        def pair(mine: Any, theirs: Any) -> tuple[Any, Any]:
            return (mine, theirs) if a_first else (theirs, mine)

        kw: dict[str, Any] = {}
        if score is not None:
            sa, sb = score.a, score.b
            kw = {
                "points": (sa.points, sb.points),
                "bredouille": (bool(sa.bredouille), bool(sb.bredouille)),
                "holes": (sa.holes, sb.holes),
                "pavillon": (bool(sa.pavillon), bool(sb.pavillon)),
            }
        a, b = pair(self.mover, self.other)
        return PositionSpec(
            a,
            b,
            self.turn,
            pair(self.mover_coups, self.other_coups),
            pair(self.mover_coin_taken, self.other_coin_taken),
            pair(names(self.mover_jans), names(self.other_jans)),
            **kw,
        )

    # -- views ----------------------------------------------------------------------
    def other_in_mover_frame(self) -> tuple[int, ...]:
        """The other side's counts re-indexed in the mover's frame (index 25-q ← q)."""
        o = self.other
        return (0,) + tuple(o[25 - p] for p in range(1, 25)) + (o[OFF],)

    def __deepcopy__(self, memo: dict[int, object]) -> Position:
        return self  # frozen: a copy of the verifier's state shares it (the typo recovery's trials)

    def swapped(self) -> Position:
        """The same position with the other side to move (turn passes)."""
        return Position(
            self.other,
            self.mover,
            other_side(self.turn),
            self.other_coups,
            self.mover_coups,
            self.other_coin_taken,
            self.mover_coin_taken,
            self.other_jans,
            self.mover_jans,
        )

    def side_counts(self, side: Side) -> tuple[int, ...]:
        return self.mover if side == self.turn else self.other

    def with_mover(self, mover: tuple[int, ...], **facts: object) -> Position:
        return replace(self, mover=mover, **facts)  # type: ignore[arg-type]

    def problems(self) -> list[str]:
        """Structural problems (empty list = a possible position).

        Checks: 15 checkers a side (RULES.md §2.1), no lone checker on a coin (L3,
        RULES.md §3.3), nobody on the opponent's coin (L2), no point held by both sides
        (L1).  Returned as plain messages; ``status``-like, never raises.
        """
        out: list[str] = []
        for name, c in (("mover", self.mover), ("other", self.other)):
            if len(c) != 26 or c[0] != 0 or any(n < 0 for n in c):
                out.append(f"{name}: counts must be 26 non-negative entries with index 0 empty")
                continue
            total = sum(c)
            if total != 15:
                out.append(f"{name} has {total} checkers, not 15")
            if c[COIN] == 1:
                out.append(f"{name} has a lone checker on his coin (point 12)")
            if c[OPPONENT_COIN]:
                out.append(f"{name} has checkers on the opponent's coin (point 13)")
        if not out:
            for p in range(1, 25):
                if self.mover[p] and self.other[25 - p]:
                    out.append(f"point {p} (mover's frame) holds checkers of both sides")
        return out

    def __repr__(self) -> str:
        def fmt(c: tuple[int, ...]) -> str:
            return "{" + ", ".join(f"{p}: {n}" for p, n in enumerate(c) if n) + "}"

        return (
            f"Position.from_points({fmt(self.mover)}, {fmt(self.other)}, turn={self.turn!r}, "
            f"mover_coups={self.mover_coups}, other_coups={self.other_coups})"
        )


def start_position(turn: Side = "A") -> Position:
    """Both sides' 15 checkers on their talons, a fresh relevé (RULES.md §3.11; 003 §25):
    one frozen value per side to move, built once."""
    pos = _STARTS.get(turn)
    if pos is None:
        talon = _counts({TALON: 15})
        pos = Position(talon, talon, turn)
        if turn in ("A", "B"):
            _STARTS[turn] = pos
    return pos


_STARTS: dict[str, Position] = {}


def is_start(pos: Position) -> bool:
    """``pos`` is the frozen opening value of :func:`start_position` (by identity)."""
    return _STARTS.get(pos.turn) is pos


#: ``object.__new__`` in Python; the class's own allocator when compiled (mypyc)
_new_position = Position.__new__
#: the slots' setters, in field order: a frozen dataclass's ``__init__`` goes through
#: ``object.__setattr__`` for each field, the descriptors directly (about twice as fast)
_SET = tuple(vars(Position)[f.name].__set__ for f in fields(Position))


def after_play(pos: Position, result: tuple[int, ...], mover_jans: frozenset[str]) -> Position:
    """The position after the mover played to ``result``, the other side to move: his
    coups count grows by one, his coin is recorded as taken once he holds it (RULES.md
    §3.5), ``mover_jans`` his jans now (§4.6).  Equal to the ``Position(...)`` with the
    sides swapped; built through the slots (the verifier's hot path, once per coup)."""
    (s_mover, s_other, s_turn, s_mc, s_oc, s_mct, s_oct, s_mj, s_oj) = _SET
    x = _new_position(Position)
    s_mover(x, pos.other)
    s_other(x, result)
    s_turn(x, "B" if pos.turn == "A" else "A")
    s_mc(x, pos.other_coups)
    s_oc(x, pos.mover_coups + 1)
    s_mct(x, pos.other_coin_taken)
    s_oct(x, pos.mover_coin_taken or result[12] >= 2)
    s_mj(x, pos.other_jans)
    s_oj(x, mover_jans)
    return x
