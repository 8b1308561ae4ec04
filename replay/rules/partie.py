"""Kinds of partie and their payments (RULES.md §8).

* :func:`marque_value` — the value of one marqué of the partie à écrire: simple,
  petite bredouille ×2, grande bredouille ×4 (and ×8, ×16 … under the switch
  ``marque_beyond_12``), with the consolation growing after refaits (RULES.md §8.2).
* :func:`twelve_hole_multiplier` — the stake multiplier of the partie en douze trous
  (switch ``twelve_hole_multiplier``: none / lebrun / guiton; RULES.md §8.1, §10 D1).
* :func:`marque_outcome` — does a leave end the marqué, who wins, or is it a refait.
* :func:`settle_partie` — a whole partie à écrire (two players, à quatre, chouette,
  à tourner) from the list of marqué results: who plays each marqué and with the
  primauté, the payments, the postillons, the queue des jetons, the queue, and each
  player's final account by the paper method and by the jeton method (RULES.md §8.2,
  §8.3; 003 §220-247; 002; 000 ~l.989-1031).
* :class:`Poule` — the poule (RULES.md §8.3; 003 §219; 002: La poule).

Amounts are in jetons; a fiche is 10 jetons (003 §222).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from ...notation.compiled import mypyc_attr
from ...words import SaidError
from .ledger import ScoreState
from .profiles import DEFAULT_PROFILE, Profile

__all__ = [
    "PartieError",
    "JETONS_PER_FICHE",
    "KINDS",
    "MarqueValue",
    "marque_factor",
    "marque_value",
    "twelve_hole_multiplier",
    "twelve_hole_winner",
    "twelve_reached",
    "TWELVE_HOLES",
    "marque_outcome",
    "MarqueOutcome",
    "MarqueLine",
    "PartieSpec",
    "Settlement",
    "settle_partie",
    "to_fiches",
    "postillon_cost",
    "Poule",
]

JETONS_PER_FICHE = 10  # 003 §222
START_JETONS = 20  # 003 §222, §243
KINDS = ("ecrire", "quatre", "chouette", "tourner")


@mypyc_attr(native_class=False)  # its base, words.SaidError, is interpreted
class PartieError(SaidError):
    """Impossible marqué or partie (API misuse / bad input): a catalogue key
    (``sc.err.*``) and its fields; ``str(e)`` its English, ``e.say("fr")`` its French."""


# ---------------------------------------------------------------------------------
# one marqué


@dataclass(frozen=True, slots=True)
class MarqueValue:
    """``value = factor·(winner + consolation) − loser`` (RULES.md §8.2)."""

    winner_holes: int
    loser_holes: int
    factor: int  # 1 simple, 2 petite bredouille, 4 grande (8, 16 … beyond 12)
    consolation: int  # before the factor: 2, then 4, 6 after refaits
    value: int

    @property
    def idle_consolation(self) -> int:
        """What the loser also pays the idle player at à tourner (003 §245)."""
        return self.factor * self.consolation

    def formula(self) -> str:
        w, c, l, m = self.winner_holes, self.consolation, self.loser_holes, self.factor
        body = f"({w} + {c})" if m != 1 else f"{w} + {c}"
        head = f"{m} × {body}" if m != 1 else body
        return f"{head} − {l} = {self.value}"


def marque_factor(winner_holes: int, pavillon: bool, profile: Profile = DEFAULT_PROFILE) -> int:
    """Bredouille factor of a marqué (RULES.md §8.2; 003 §223-224; 002; 000 ~l.1011).

    ``pavillon``: the winner's holes were all taken uninterrupted (the loser had none,
    or the winner holds the pavillon, RULES.md §5.4).  Petite bredouille ×2 from
    ``petite_bredouille_min_holes`` (D2) below 12; grande ×4 from 12; with
    ``marque_beyond_12`` (D3, 000 ~l.1011) ×8 from 18, ×16 from 24 ….
    """
    if not pavillon or winner_holes < profile.petite_bredouille_min_holes:
        return 1
    if winner_holes < 12:
        return 2
    if not profile.marque_beyond_12:
        return 4
    return 4 << ((winner_holes - 12) // 6)


def marque_value(
    winner_holes: int,
    loser_holes: int,
    pavillon: bool = False,
    refaits: int = 0,
    profile: Profile = DEFAULT_PROFILE,
) -> MarqueValue:
    """Value of a marqué: ``m·(W + c·(r + 1)) − L`` (RULES.md §8.2; 003 §222-226).

    :raises PartieError: not a decided marqué (``W <= L``, or nobody reached the
        ``marque_end_holes`` of the profile), negative numbers.
    """
    w, lo, r = winner_holes, loser_holes, refaits
    if min(w, lo, r) < 0:
        raise PartieError("sc.err.negative")
    if w == lo:
        raise PartieError("sc.err.equal_holes", w=w, lo=lo)
    if w < lo:
        raise PartieError("sc.err.winner_fewer", w=w, lo=lo)
    if w < profile.marque_end_holes:
        raise PartieError("sc.err.marque_not_over", end=profile.marque_end_holes, w=w, lo=lo)
    m = marque_factor(w, pavillon, profile)
    c = profile.consolation * (r + 1)
    return MarqueValue(w, lo, m, c, m * (w + c) - lo)


@dataclass(frozen=True, slots=True)
class MarqueOutcome:
    """A leave that ends a marqué: ``winner`` None for a refait (003 §221, §226)."""

    winner: str | None
    loser: str | None
    winner_holes: int
    loser_holes: int
    pavillon: bool

    @property
    def refait(self) -> bool:
        return self.winner is None


def marque_outcome(state: ScoreState, profile: Profile = DEFAULT_PROFILE) -> MarqueOutcome | None:
    """Called when someone leaves: does it end the marqué?  It does when one or the
    other has at least ``marque_end_holes`` holes; equal holes make a refait
    (RULES.md §8.2; 003 §221, §226; 002).  ``None``: play on."""
    a, b = state.a, state.b
    if max(a.holes, b.holes) < profile.marque_end_holes:
        return None
    if a.holes == b.holes:
        return MarqueOutcome(None, None, a.holes, b.holes, False)
    w, lo = ("A", "B") if a.holes > b.holes else ("B", "A")
    ws, ls = state[w], state[lo]
    return MarqueOutcome(w, lo, ws.holes, ls.holes, ws.pavillon)


# ---------------------------------------------------------------------------------
# partie en douze trous


#: holes that win a partie en douze trous (RULES.md §8.1; 003 §218)
TWELVE_HOLES = 12


def twelve_reached(state: ScoreState, side: str) -> bool:
    """Has ``side`` the twelve holes that end a partie en douze trous (RULES.md §8.1;
    003 §162 « jusqu'à ce qu'un joueur complète douze trous », §218)?  Whatever the
    points came from, given ones too (003 §217).  The one test: the course asks it
    after each step of a coup (``course.twelve_reached``), the verifier after each hole
    it marks (``judges.table.TableState``), so the first to reach twelve holes in the
    table's order of marking wins (the roller's gains before the opponent's receipts,
    003 §149, §207)."""
    return state[side].holes >= TWELVE_HOLES


def twelve_hole_winner(state: ScoreState) -> str | None:
    """The winner of a partie en douze trous told from a score alone: the one player with
    twelve holes (:func:`twelve_reached`).  The partie ends at the first twelfth hole,
    so a score in which both have twelve holes cannot say who won: None (the verifier
    keeps who reached twelve first, in the order of the coup)."""
    a, b = twelve_reached(state, "A"), twelve_reached(state, "B")
    if a != b:
        return "A" if a else "B"
    return None


def twelve_hole_multiplier(
    winner_holes: int,
    loser_holes: int,
    pavillon: bool,
    profile: Profile = DEFAULT_PROFILE,
) -> int:
    """Stake multiplier of the partie en douze trous (RULES.md §8.1, §10 D1).

    * ``none`` (003 §218 gives no detail): 1.
    * ``lebrun`` (000 ~l.826-832): 2 for the *grande bredouille*, the twelve holes
      won without interruption, i.e. the winner holds the pavillon.
    * ``guiton`` (002: Partie en douze trous): 4 if the loser has no hole; 3 if the
      winner took his holes second and reached 12 with the pavillon; otherwise 2 if
      the loser has fewer than six holes, 1 if six or more.
    """
    if winner_holes < 12 or loser_holes < 0 or loser_holes >= 12:
        raise PartieError("sc.err.douze_not_over", w=winner_holes, lo=loser_holes)
    how = profile.twelve_hole_multiplier
    if how == "none":
        return 1
    if how == "lebrun":
        return 2 if pavillon or loser_holes == 0 else 1
    if loser_holes == 0:
        return 4
    if pavillon:
        return 3
    return 2 if loser_holes < 6 else 1


# ---------------------------------------------------------------------------------
# payments


def to_fiches(jetons: int, round_five: bool = True) -> int:
    """Fiches for an amount of jetons: tens are fiches; with a cheap fiche five jetons
    or more count as a fiche for the winner, fewer are dropped (003 §230, §233; 002:
    Cinq jetons; 000 ~l.1009).  Signed: a loss rounds like the matching gain."""
    n = abs(jetons)
    f = n // JETONS_PER_FICHE + (1 if round_five and n % JETONS_PER_FICHE >= 5 else 0)
    return f if jetons >= 0 else -f


def postillon_cost(n: int, profile: Profile = DEFAULT_PROFILE) -> int:
    """``n`` postillons between the same two players: 28 for the first, 8 for each
    further (003 §227; 002: Paris et postillon; 000 ~l.1003)."""
    if n <= 0:
        return 0
    return profile.postillon_first + (n - 1) * profile.postillon_next


@dataclass(frozen=True, slots=True)
class MarqueLine:
    """One line of a partie's result list: a decided marqué or a refait.

    ``winner``: a player or side name (None for a refait).  ``holes``: (W, L) when
    known; ``value``: the marqué's value when only that is known (a paper sheet).
    ``loser``: needed only to check à tourner.  ``leaver``: who left, when the
    profile gives the primauté to the leaver (D21)."""

    winner: str | None = None
    holes: tuple[int, int] | None = None
    pavillon: bool = False
    value: int | None = None
    loser: str | None = None
    leaver: str | None = None
    refait_holes: int | None = None
    line: int = 0  # source line, for messages

    @property
    def refait(self) -> bool:
        return self.winner is None


#: ``Partie`` header kinds of several players -> (kind of :class:`PartieSpec`, the players'
#: letters in the order :class:`PartieSpec` wants them) (RULES.md §8.3).
RECORD_KINDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "a-tourner": ("tourner", ("A", "B", "C")),
    "chouette": ("chouette", ("A", "B", "C")),  # A is the chouette (003 §242)
    "a-quatre": ("quatre", ("A", "B", "C", "D")),  # A+B against C+D (003 §239-241)
}


@dataclass(frozen=True, slots=True)
class PartieSpec:
    """What the players agreed before starting (003 §220, §229, §243).

    ``players``: for ``ecrire`` the two players; ``tourner`` the three, the first two
    playing the first marqué; ``chouette`` the chouette then the two partners in the
    order they play; ``quatre`` ``(X1, X2, Y1, Y2)``: X1 and Y1 start.
    ``queue`` in jetons (10 = one fiche).  ``primaute``: who has the dice in the
    first marqué (drawn, 003 §28); ``None`` = unknown."""

    kind: str = "ecrire"
    players: tuple[str, ...] = ("A", "B")
    marques: int = 8
    queue: int = 0
    primaute: str | None = None
    jetons_per_marque: int | None = None  # None → the profile's
    round_five: bool = True


@dataclass
class Settlement:
    """The result of :func:`settle_partie`; :meth:`as_dict` is the JSON."""

    kind: str
    profile: str
    marques: int
    share: int
    complete: bool
    accounts: dict[str, list[str]]  # account → its players
    detail: list[dict[str, Any]]  # per marqué
    lost: dict[str, list[int]]  # values of the marqués each account lost (paper columns)
    marques_lost: dict[str, int]
    postillons: list[dict[str, Any]]
    queue_des_jetons: dict[str, Any]
    queue: dict[str, Any]
    methods: dict[str, dict[str, Any]]
    players: dict[str, dict[str, Any]]
    flows: list[tuple[str, str, str, int]] = field(default_factory=list)  # (kind, payer, payee, jetons)

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "profile": self.profile,
            "marques": self.marques,
            "share": self.share,
            "complete": self.complete,
            "accounts": self.accounts,
            "marques_detail": self.detail,
            "lost": self.lost,
            "marques_lost": self.marques_lost,
            "postillons": self.postillons,
            "queue_des_jetons": self.queue_des_jetons,
            "queue": self.queue,
            "methods": self.methods,
            "players": self.players,
        }


class _Rotation:
    """Who plays each marqué and who has the primauté (RULES.md §8.3)."""

    def __init__(self, spec: PartieSpec, profile: Profile) -> None:
        self.kind, self.profile = spec.kind, profile
        p = spec.players
        if spec.kind == "ecrire":
            self.accounts = {p[0]: [p[0]], p[1]: [p[1]]}
            self.active = [p[0], p[1]]
        elif spec.kind == "tourner":
            self.accounts = {x: [x] for x in p}
            self.active = [p[0], p[1]]
            self.idle: deque[str] = deque([p[2]])
        elif spec.kind == "chouette":
            self.accounts = {p[0]: [p[0]], f"{p[1]}+{p[2]}": [p[1], p[2]]}
            self.active = [p[0], p[1]]
            self.pair_pos = 0  # 0: first of the partner's two marqués, 1: second
        elif spec.kind == "quatre":
            self.accounts = {f"{p[0]}+{p[1]}": [p[0], p[1]], f"{p[2]}+{p[3]}": [p[2], p[3]]}
            self.active = [p[0], p[2]]
        self.account_of = {x: a for a, ms in self.accounts.items() for x in ms}
        for a in self.accounts:
            self.account_of.setdefault(a, a)
        self.count = {x: 0 for x in p}  # marqués played running
        self.decided = 0
        self.primaute = spec.primaute
        if spec.kind == "chouette" and self.primaute is None:
            self.primaute = p[0]  # the chouette starts (003 §242; 002)

    def after(self, winner: str | None, loser: str | None, leaver: str | None) -> None:
        """Advance after one marqué (a refait changes nothing: replayed by the same
        players, the same primauté, 003 §226)."""
        if winner is None or loser is None:  # a refait: both None
            return
        self.decided += 1
        for x in self.active:
            self.count[x] += 1
        k = self.kind
        if k == "ecrire":
            if self.profile.primaute_after_marque_leave == "leaver" and leaver:
                self.primaute = leaver
            else:
                self.primaute = winner  # 003 §221
            return
        if k == "chouette":
            c, partner = self.active
            p1, p2 = self.accounts[self.account_of[partner]]
            self.pair_pos ^= 1
            if self.pair_pos == 0:  # each partner plays two marqués (003 §242)
                self.active = [c, p2 if partner == p1 else p1]
            if self.profile.chouette_primaute == "lebrun":
                # 000 ~l.1021: the chouette in the partner's first marqué, he in his second
                self.primaute = c if self.pair_pos == 0 else self.active[1]
            else:  # 003 §242: the chouette first, then alternately
                self.primaute = c if self.decided % 2 == 0 else self.active[1]
            return
        # quatre / tourner: someone gives way; the primauté to the one who stays
        if self.decided == 1 or (k == "tourner" and self.profile.tourner_rotation == "loser-out"):
            out = loser
        else:
            out = next(x for x in self.active if self.count[x] >= 2)
        stay = next(x for x in self.active if x != out)
        if k == "quatre":
            team = self.accounts[self.account_of[out]]
            new = team[1] if out == team[0] else team[0]
        else:
            self.idle.append(out)
            new = self.idle.popleft()
        self.count[out] = 0
        self.count[new] = 0
        self.active = [stay, new]
        self.primaute = stay  # 003 §241, §244


def _pay(flows: list[tuple[str, str, str, int]], kind: str, payer: str, payee: str, n: int) -> None:
    if n and payer != payee:
        flows.append((kind, payer, payee, n))


def _nets(accounts: Iterable[str], flows: Iterable[tuple[str, str, str, int]]) -> dict[str, int]:
    net = {a: 0 for a in accounts}
    for _, payer, payee, n in flows:
        net[payer] -= n
        net[payee] += n
    return net


def _pairwise_fiches(accounts: list[str], flows: list[tuple[str, str, str, int]], round_five: bool) -> dict[str, int]:
    """Fiches per account: each pair's balance rounded (003 §230), so the fiches stay
    zero-sum even at three."""
    bal: dict[tuple[str, str], int] = {}
    for _, payer, payee, n in flows:
        key = (payer, payee) if payer < payee else (payee, payer)
        bal[key] = bal.get(key, 0) + (n if payer == key[0] else -n)  # > 0: key[0] owes key[1]
    fiches = {a: 0 for a in accounts}
    for (x, y), b in bal.items():
        f = to_fiches(b, round_five)
        fiches[x] -= f
        fiches[y] += f
    return fiches


def _number(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else float(x)


_Flow = tuple[str, str, str, int]  # (kind, payer, payee, jetons)


def settle_partie(
    spec: PartieSpec,
    results: Sequence[MarqueLine],
    profile: Profile = DEFAULT_PROFILE,
    method: str = "jetons",
) -> Settlement:
    """Settle a partie à écrire from its marqué results (RULES.md §8.2-§8.3).

    Payments per marqué (003 §222-226, §245); postillons (§227, §246); the jetons
    des marqués set aside, ``jetons_per_marque`` per marqué lost, go before the
    postillons to whoever then has more jetons, shared if equal (§228; 002); then
    the postillons; then the queue to the final winner (§229; 002: La queue).
    ``method``: "jetons" (the counters, 003 §220 "le plus ordinaire") or "papier"
    (003 §233: no queue des jetons) decides ``players``; both are in ``methods``.
    An incomplete partie gets no postillons, queue des jetons nor queue.

    :raises PartieError: bad spec or a result that cannot happen (e.g. the idle
        player winning at à tourner).
    """
    st = _Settling.start(spec, profile, method)
    for i, r in enumerate(results, 1):
        st.marque(i, r)
    marques_lost = {a: len(v) for a, v in st.lost.items()}
    complete = st.rot.decided == spec.marques
    k = st.jetons_per_marque
    postillons: list[dict[str, Any]] = []
    qdj: dict[str, Any] = {"jetons_per_marque": k, "pool": k * st.rot.decided, "winners": [], "from": {}}
    queue: dict[str, Any] = {"jetons": spec.queue, "winner": None}
    if complete:
        postillons, pflows = _postillons(st, marques_lost)
        jflows = _queue_des_jetons(st, marques_lost, qdj)
        methods = {
            name: _with_queue(st, st.flows + extra) for name, extra in (("papier", pflows), ("jetons", jflows + pflows))
        }
        queue["winner"] = methods[method]["queue_winner"]
    else:
        methods = {name: _method(st, list(st.flows), None) for name in ("papier", "jetons")}
    chosen = methods[method]
    out_methods = {
        name: {"net": m["net"], "fiches": m["fiches"], "queue_winner": m["queue_winner"]} for name, m in methods.items()
    }
    return Settlement(
        kind=spec.kind,
        profile=profile.name,
        marques=spec.marques,
        share=st.share,
        complete=complete,
        accounts=st.rot.accounts,
        detail=st.detail,
        lost=st.lost,
        marques_lost=marques_lost,
        postillons=postillons,
        queue_des_jetons=qdj,
        queue=queue,
        methods=out_methods,
        players=_player_shares(st.rot.accounts, chosen),
        flows=chosen["flows"],
    )


@dataclass
class _Settling:
    """A partie being settled: the agreement, the rotation of the players, and what
    the marqués played so far paid (``flows``), with their detail and the values each
    account lost (the paper columns)."""

    spec: PartieSpec
    profile: Profile
    rot: _Rotation
    share: int  # marqués each account should lose (003 §227)
    jetons_per_marque: int  # the jetons des marqués (003 §228)
    flows: list[_Flow] = field(default_factory=list)
    detail: list[dict[str, Any]] = field(default_factory=list)
    lost: dict[str, list[int]] = field(default_factory=dict)
    refaits: int = 0  # refaits running since the last decided marqué (003 §226)

    @classmethod
    def start(cls, spec: PartieSpec, profile: Profile, method: str) -> _Settling:
        """Check the agreement and start the settlement.

        :raises PartieError: unknown kind or method, wrong players, marqués or primauté.
        """
        if spec.kind not in KINDS:
            raise PartieError("sc.err.unknown_partie_kind", kind=spec.kind, known=", ".join(KINDS))
        need = {"ecrire": 2, "tourner": 3, "chouette": 3, "quatre": 4}[spec.kind]
        if len(spec.players) != need or len(set(spec.players)) != need:
            raise PartieError("sc.err.players_needed", kind=spec.kind, need=need, got=list(spec.players))
        if method not in ("jetons", "papier"):
            raise PartieError("sc.err.unknown_method", method=method)
        rot = _Rotation(spec, profile)
        n_acc = len(rot.accounts)
        if spec.marques <= 0 or spec.marques % n_acc:
            raise PartieError("sc.err.marques_multiple", marques=spec.marques, n=n_acc)
        if spec.primaute is not None and spec.primaute not in spec.players:
            raise PartieError("sc.err.primaute_not_player", name=spec.primaute)
        k = profile.jetons_per_marque_lost if spec.jetons_per_marque is None else spec.jetons_per_marque
        return cls(spec, profile, rot, spec.marques // n_acc, k, lost={a: [] for a in rot.accounts})

    @property
    def accounts(self) -> list[str]:
        return list(self.rot.accounts)

    def marque(self, i: int, r: MarqueLine) -> None:
        """Settle the ``i``-th result line: a refait, or a decided marqué's payments."""
        where = ("sc.where.line", r.line) if r.line else ("sc.where.marque", i)
        playing = list(self.rot.active)
        entry: dict[str, Any] = {"n": i, "players": playing, "primaute": self.rot.primaute}
        if self.rot.decided >= self.spec.marques:
            raise PartieError("sc.err.too_many_results", where=where, marques=self.spec.marques)
        if r.refait:
            end = self.profile.marque_end_holes
            if r.refait_holes is not None and r.refait_holes < end:
                raise PartieError("sc.err.refait_holes", where=where, end=end)
            self.refaits += 1
            entry.update(refait=True, holes=r.refait_holes)
            self.detail.append(entry)
            self.rot.after(None, None, None)
            return
        wp, lp = self._winner_and_loser(r, playing, where)
        value, idle_c = self._value(r, where, entry)
        w_acc, l_acc = self.rot.account_of[wp], self.rot.account_of[lp]
        entry.update(winner=wp, loser=lp, refaits=self.refaits, value=value)
        _pay(self.flows, "marque", l_acc, w_acc, value)
        self.lost[l_acc].append(value)
        if self.spec.kind == "tourner":
            idle = next(a for a in self.accounts if a not in (w_acc, l_acc))
            entry.update(idle=idle, idle_consolation=idle_c)
            _pay(self.flows, "consolation", l_acc, idle, idle_c)  # 003 §245
        self.detail.append(entry)
        self.refaits = 0
        self.rot.after(wp, lp, r.leaver)

    def _winner_and_loser(self, r: MarqueLine, playing: list[str], where: tuple[str, int]) -> tuple[str, str]:
        """The winning and losing *players* of this marqué (a line may name an account)."""
        account_of = self.rot.account_of
        w_acc = account_of.get(r.winner or "")
        if w_acc is None:
            raise PartieError("sc.err.unknown_winner", where=where, name=r.winner)
        if r.winner in playing:
            wp = r.winner
        elif r.winner in self.spec.players:
            raise PartieError("sc.err.not_playing_marque", where=where, name=r.winner, table=" v ".join(playing))
        else:
            cand = [x for x in playing if account_of[x] == w_acc]
            if not cand:
                raise PartieError("sc.err.not_playing_marque", where=where, name=r.winner, table=" v ".join(playing))
            wp = cand[0]
        lp = next(x for x in playing if x != wp)
        if r.loser is not None and r.loser != lp and account_of.get(r.loser) != account_of[lp]:
            raise PartieError("sc.err.loser_must_be", where=where, name=lp, table=" v ".join(playing))
        if r.leaver is not None and r.leaver not in playing:
            raise PartieError("sc.err.leaver_not_playing", where=where, name=r.leaver)
        return wp, lp

    def _value(self, r: MarqueLine, where: tuple[str, int], entry: dict[str, Any]) -> tuple[int, int]:
        """The marqué's value and, at à tourner, the idle player's consolation, from the
        holes (recorded in ``entry``) or a value as written (RULES.md §8.2; 003 §245)."""
        if r.holes is not None:
            try:
                mv = marque_value(r.holes[0], r.holes[1], r.pavillon, self.refaits, self.profile)
            except PartieError as e:
                raise PartieError(e.key, where=where, **e.fields) from None
            entry.update(
                holes=list(r.holes),
                pavillon=r.pavillon,
                factor=mv.factor,
                consolation=mv.consolation,
                formula=mv.formula(),
            )
            return mv.value, mv.idle_consolation
        if r.value is not None and r.value > 0:
            if self.spec.kind == "tourner":
                raise PartieError("sc.err.tourner_needs_holes", where=where)
            return r.value, 0
        raise PartieError("sc.err.holes_or_value", where=where)


def _postillons(st: _Settling, marques_lost: dict[str, int]) -> tuple[list[dict[str, Any]], list[_Flow]]:
    """The postillons: each marqué lost beyond the share, paid to who lost fewer
    (003 §227, §246); their detail and payments."""
    accounts, share = st.accounts, st.share
    excess = {a: marques_lost[a] - share for a in accounts if marques_lost[a] > share}
    deficit = {a: share - marques_lost[a] for a in accounts if marques_lost[a] < share}
    pairs: dict[tuple[str, str], int] = {}
    for over in excess:
        for under in deficit:
            t = min(excess[over], deficit[under])
            if t:
                pairs[(over, under)] = pairs.get((over, under), 0) + t
                excess[over] -= t
                deficit[under] -= t
    postillons: list[dict[str, Any]] = []
    pflows: list[_Flow] = []
    for (payer, payee), n in pairs.items():
        cost = postillon_cost(n, st.profile)
        postillons.append({"payer": payer, "payee": payee, "count": n, "jetons": cost})
        _pay(pflows, "postillon", payer, payee, cost)
    return postillons, pflows


def _queue_des_jetons(st: _Settling, marques_lost: dict[str, int], qdj: dict[str, Any]) -> list[_Flow]:
    """The jetons des marqués, before the postillons, to whoever then holds more
    jetons, shared if equal (003 §228; 002: À qui appartiennent); fills ``qdj``."""
    accounts, k = st.accounts, st.jetons_per_marque
    before = _nets(accounts, st.flows)
    held = {a: before[a] - k * marques_lost[a] for a in accounts}
    top = max(held.values())
    winners = [a for a in accounts if held[a] == top]
    qdj["held_before"] = held
    qdj["winners"] = winners
    jflows: list[_Flow] = []
    for a in accounts:
        put = k * marques_lost[a]
        if not put:
            continue
        each, extra = divmod(put, len(winners))
        for j, wa in enumerate(winners):  # shared if equal; an odd jeton to the first seat
            _pay(jflows, "jetons-des-marques", a, wa, each + (1 if j < extra else 0))
        qdj["from"][a] = put
    return jflows


def _with_queue(st: _Settling, flows: list[_Flow]) -> dict[str, Any]:
    """One method's account with the queue, after the postillons, to the single final
    winner (003 §229, §247)."""
    accounts = st.accounts
    net = _nets(accounts, flows)
    best = max(net.values())
    qf: list[_Flow] = []
    qwin = None
    if st.spec.queue and best > 0 and list(net.values()).count(best) == 1:
        qwin = next(a for a in accounts if net[a] == best)
        for a in accounts:
            _pay(qf, "queue", a, qwin, st.spec.queue)
    return _method(st, flows + qf, qwin)


def _method(st: _Settling, flows: list[_Flow], queue_winner: str | None) -> dict[str, Any]:
    """One method's net jetons, fiches, queue winner and payments."""
    return {
        "net": _nets(st.accounts, flows),
        "fiches": _pairwise_fiches(st.accounts, flows, st.spec.round_five),
        "queue_winner": queue_winner,
        "flows": flows,
    }


def _player_shares(accounts: dict[str, list[str]], chosen: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each player's share of his account's jetons and fiches (a team splits them)."""
    players: dict[str, dict[str, Any]] = {}
    for a, members in accounts.items():
        for x in members:
            players[x] = {
                "account": a,
                "jetons": _number(Fraction(chosen["net"][a], len(members))),
                "fiches": _number(Fraction(chosen["fiches"][a], len(members))),
            }
    return players


# ---------------------------------------------------------------------------------
# the poule


class Poule:
    """The poule (RULES.md §8.3; 003 §219; 002: La poule): 3-5 players in the order of
    their throws; the first two play; every player pays ``stake`` each time he
    enters; the loser of each game goes to the back of the line and the next enters;
    the pot goes to whoever beats all the others running (n − 1 wins in a row)."""

    def __init__(self, players: Sequence[str], stake: int) -> None:
        if not 3 <= len(players) <= 5 or len(set(players)) != len(players):
            raise PartieError("sc.err.poule_players")
        if stake <= 0:
            raise PartieError("sc.err.stake_positive")
        self.players = tuple(players)
        self.stake = stake
        self.paid = {p: stake if i < 2 else 0 for i, p in enumerate(players)}
        self.pot = 2 * stake
        self.table = [players[0], players[1]]  # holder (the one who stays), challenger
        self.waiting: deque[str] = deque(players[2:])
        self.streak = 0
        self.winner: str | None = None
        self.games: list[tuple[str, str]] = []  # (winner, loser)

    @property
    def needed(self) -> int:
        return len(self.players) - 1

    def play(self, winner: str) -> None:
        """Record one game won by ``winner`` (one of the two at the table)."""
        if self.winner is not None:
            raise PartieError("sc.err.poule_over", name=self.winner)
        if winner not in self.table:
            raise PartieError("sc.err.not_playing", name=winner, table=f"{self.table[0]} v {self.table[1]}")
        loser = self.table[1] if winner == self.table[0] else self.table[0]
        self.streak = self.streak + 1 if (winner == self.table[0] and self.games) else 1
        self.games.append((winner, loser))
        if self.streak >= self.needed:
            self.winner = winner
            self.table = [winner, loser]
            return
        self.waiting.append(loser)
        new = self.waiting.popleft()
        self.paid[new] += self.stake
        self.pot += self.stake
        self.table = [winner, new]

    def accounts(self) -> dict[str, int]:
        """Each player's balance: the pot to the winner, minus what each paid in
        (zero-sum once the poule is won)."""
        return {p: (self.pot if p == self.winner else 0) - self.paid[p] for p in self.players}


# ---------------------------------------------------------------------------------
# the partie file of ``trictrac score partie`` (docs/score.md)

_KEYS = (
    "kind",
    "players",
    "marques",
    "queue",
    "primaute",
    "jetons-per-marque",
    "profile",
    "method",
    "round",
    "stake",
    "multiplier",
)
_ALL_KINDS = KINDS + ("douze", "poule")


@dataclass
class PartieFile:
    """A parsed partie file: the header as given and the result lines."""

    header: dict[str, str]
    lines: list[tuple[int, list[str]]]  # (line number, tokens)


def read_partie(text: str) -> PartieFile:
    """Split a partie file into ``key: value`` header lines and result lines.

    :raises PartieError: unknown key, a header after the results, empty file.
    """
    header: dict[str, str] = {}
    lines: list[tuple[int, list[str]]] = []
    for no, raw in enumerate(text.split("\n"), 1):  # the reader's lines: not at U+2028, U+0085
        s = raw.split("#", 1)[0].strip()
        if not s:
            continue
        if ":" in s:  # result lines never hold a colon
            key, _, val = s.partition(":")
            key = key.strip().lower().replace("_", "-")
            if key not in _KEYS:
                raise PartieError("sc.err.unknown_key", where=("sc.where.line", no), header=key, known=", ".join(_KEYS))
            if lines:
                raise PartieError("sc.err.header_after", where=("sc.where.line", no), header=key)
            header[key] = val.strip()
        else:
            lines.append((no, s.split()))
    if not header and not lines:
        raise PartieError("sc.err.empty")
    return PartieFile(header, lines)


def _at_line(no: int | None) -> tuple[str, int] | None:
    return ("sc.where.line", no) if no else None


def _what(what: str) -> dict[str, str]:
    """``what`` is a catalogue key (``sc.what.holes``: words) or a key of the file (data)."""
    return {"what_key": what} if what.startswith("sc.what.") else {"what": what}


def _int(v: str, what: str, no: int | None = None) -> int:
    try:
        n = int(v)
    except ValueError:
        raise PartieError("sc.err.not_whole", where=_at_line(no), **_what(what), v=v) from None
    if n < 0:
        raise PartieError("sc.err.not_positive", where=_at_line(no), **_what(what), n=n)
    return n


def parse_result(no: int, toks: list[str], names: Sequence[str]) -> MarqueLine:
    """One result line: ``refait [H]`` or ``WINNER [LOSER] W-L|=VALUE [pavillon] [leaver=X]``."""
    if toks[0].lower() == "refait":
        if len(toks) > 2:
            raise PartieError("sc.err.refait_args", where=("sc.where.line", no))
        return MarqueLine(refait_holes=_int(toks[1], "sc.what.refait_holes", no) if len(toks) == 2 else None, line=no)
    winner, rest = toks[0], toks[1:]
    if winner not in names:
        raise PartieError("sc.err.unknown_player", where=("sc.where.line", no), name=winner, names=", ".join(names))
    loser = None
    if rest and rest[0] in names:
        loser, rest = rest[0], rest[1:]
    holes = value = leaver = None
    pavillon = False
    for t in rest:
        low = t.lower()
        if low in ("pavillon", "bredouille", "p"):
            pavillon = True
        elif low.startswith("leaver="):
            leaver = t.split("=", 1)[1]
            if leaver not in names:
                raise PartieError("sc.err.unknown_leaver", where=("sc.where.line", no), name=leaver)
        elif t.startswith("="):
            value = _int(t[1:], "sc.what.value", no)
        elif "-" in t:
            w, _, lo = t.partition("-")
            holes = (_int(w, "sc.what.holes", no), _int(lo, "sc.what.holes", no))
        else:
            raise PartieError("sc.err.cannot_read_token", where=("sc.where.line", no), token=t)
    if holes is None and value is None:
        raise PartieError("sc.err.holes_or_equals", where=("sc.where.line", no))
    if holes is not None and value is not None:
        raise PartieError("sc.err.holes_and_equals", where=("sc.where.line", no))
    if value is not None and pavillon:
        raise PartieError("sc.err.pavillon_needs_holes", where=("sc.where.line", no))
    return MarqueLine(winner, holes, pavillon, value, loser, leaver, line=no)


def settle_text(text: str, profile: Profile | None = None, method: str | None = None) -> dict[str, Any]:
    """Settle a partie file (``trictrac score partie``); returns the JSON dict.

    :raises PartieError: bad file (message with the line number).
    """
    from .profiles import find_profile, profile_names

    pf = read_partie(text)
    header, lines = pf.header, pf.lines
    kind = header.get("kind", "ecrire").lower().replace("é", "e")
    kind = {"a-ecrire": "ecrire", "a-quatre": "quatre", "a-tourner": "tourner", "douze-trous": "douze"}.get(kind, kind)
    if kind not in _ALL_KINDS:
        raise PartieError("sc.err.unknown_kind", kind=kind, known=", ".join(_ALL_KINDS))
    if profile is None:
        try:
            profile = find_profile(header.get("profile"))
        except ValueError:
            raise PartieError(
                "cli.unknown_profile", name=header.get("profile"), known=", ".join(profile_names())
            ) from None
    players = tuple(header.get("players", "A B").replace("/", " ").split())
    if kind == "poule":
        return _settle_poule(header, lines, players)
    if kind == "douze":
        return _settle_douze(pf, players, profile)
    spec = PartieSpec(
        kind=kind,
        players=players,
        marques=_int(header.get("marques", "8"), "marques"),
        queue=_int(header.get("queue", "0"), "queue"),
        primaute=header.get("primaute") or None,
        jetons_per_marque=_int(header["jetons-per-marque"], "jetons-per-marque")
        if "jetons-per-marque" in header
        else None,
        round_five=header.get("round", "five").lower() != "none",
    )
    names = list(players)
    results = [parse_result(no, toks, names + _team_names(kind, players)) for no, toks in lines]
    s = settle_partie(spec, results, profile, method or header.get("method", "jetons"))
    return s.as_dict()


def _settle_poule(
    header: dict[str, str], lines: list[tuple[int, list[str]]], players: tuple[str, ...]
) -> dict[str, Any]:
    """A poule file: one winner's name a line (RULES.md §8.3; 003 §219)."""
    poule = Poule(players, _int(header.get("stake", "1"), "stake"))
    for no, toks in lines:
        if len(toks) != 1:
            raise PartieError("sc.err.poule_line", where=("sc.where.line", no))
        try:
            poule.play(toks[0])
        except PartieError as e:
            raise PartieError(e.key, where=("sc.where.line", no), **e.fields) from None
    return {
        "kind": "poule",
        "players": list(players),
        "stake": poule.stake,
        "pot": poule.pot,
        "games": [{"winner": w, "loser": lo} for w, lo in poule.games],
        "next": None if poule.winner else list(poule.table),
        "winner": poule.winner,
        "paid": poule.paid,
        "accounts": poule.accounts(),
    }


def _settle_douze(pf: PartieFile, players: tuple[str, ...], profile: Profile) -> dict[str, Any]:
    """Parties en douze trous, each paid the stake times its multiplier (RULES.md §8.1,
    §10 D1; 003 §238)."""
    header = pf.header
    if len(players) != 2:
        raise PartieError("sc.err.douze_two")
    stake = _int(header.get("stake", "1"), "stake")
    if "multiplier" in header:  # switch twelve_hole_multiplier (RULES.md §10 D1)
        how = header["multiplier"].lower()
        if how not in ("none", "lebrun", "guiton"):
            raise PartieError("sc.err.multiplier", how=how)
        profile = replace(profile, twelve_hole_multiplier=how)  # type: ignore[arg-type]
    parties, net = [], {p: 0 for p in players}
    for no, toks in pf.lines:
        r = parse_result(no, toks, players)
        if r.holes is None:
            raise PartieError("sc.err.douze_give_holes", where=("sc.where.line", no), name=players[0])
        try:
            m = twelve_hole_multiplier(r.holes[0], r.holes[1], r.pavillon, profile)
        except PartieError as e:
            raise PartieError(e.key, where=("sc.where.line", no), **e.fields) from None
        lo = players[1] if r.winner == players[0] else players[0]
        net[r.winner] += m * stake  # type: ignore[index]
        net[lo] -= m * stake
        parties.append(
            {
                "winner": r.winner,
                "holes": list(r.holes),
                "pavillon": r.pavillon,
                "multiplier": m,
                "value": m * stake,
            }
        )
    return {
        "kind": "douze",
        "profile": profile.name,
        "multiplier": profile.twelve_hole_multiplier,
        "stake": stake,
        "parties": parties,
        "accounts": net,
    }


def _team_names(kind: str, players: tuple[str, ...]) -> list[str]:
    if kind == "quatre" and len(players) == 4:
        return [f"{players[0]}+{players[1]}", f"{players[2]}+{players[3]}"]
    if kind == "chouette" and len(players) == 3:
        return [f"{players[1]}+{players[2]}"]
    return []
