"""Bots that play whole parties, and the records they write (issue 6).

The bots play legally (they choose among ``legal_plays``, which already enforce the
obligations to play, to fill and to conserve, RULES.md §3.6-3.7) and sensibly, by a
cheap one-ply evaluation of the position each legal play leaves (:func:`evaluate`):

* cases (points with two or more checkers) in each of the three pleins (petit jan,
  grand jan, jan de retour), a large bonus for a made plein, a smaller one for five
  cases — they prefer to fill and to conserve (RULES.md §4.5; 003 §56-60);
* the coin held (003 §66: the coin is "la plus difficile et la plus importante" case,
  to be made "le plus tôt possible");
* lone checkers the opponent may hit à vrai next throw cost what he would score
  (4 in a first table, 2 in a second, RULES.md §4.3 B5), weighted by the chance that
  a die or the sum reaches them; hits by the sum through the bot's own cases are à
  faux and count for it (B4); lone checkers of the opponent the bot may hit count
  for it when à vrai and against it when only à faux (it avoids hitting à faux);
* checkers borne off, so that a relevé nearing its end is finished (the sortie).

A little noise from the game's ``rng`` breaks ties, so that games differ.

**S'en aller or rester** (RULES.md §6; 003 §155, §158-163, §221) — the stated heuristic
(:func:`decide_leave`), after 003 §159 ("un grand avantage à s'en aller, si l'on a un
jeu moins bien disposé que celui de l'adversaire"; stay "si le jeu est mieux disposé
... pour remplir, conserver ou battre"), using ``tenue`` = the evaluation of each
side's own game:

* douze trous, or à écrire when leaving would not end the marqué: stay when the
  roller's game is better than the opponent's by ``STAY_MARGIN`` (he keeps his
  points de reste and his good game), else leave (a fresh relevé with the primauté);
* à écrire, leaving would end the marqué: ahead → leave, unless he has the
  pavillon, fewer than twelve holes and a clearly better game (playing on for the
  grande bredouille, 000 ~l.995); level (a refait) → leave when his game is not
  better, else stay; behind → stay (leaving would lose the marqué).

Records: every coup written with all marks (full records: the roller's
:class:`Mark` with holes and bredouille, or *je ne marque pas*; his
:class:`Decision` when he had the right to leave; the opponent's :class:`Mark` for
points given; the written result of each marqué), or rolls and moves only (compact).
Same seed → same records.  Parties à tourner, à la chouette and à quatre
(:func:`play_partie_multi`) seat the players marqué by marqué as ``replay.rules.partie``
rotates them (RULES.md §8.3).

Known limits of the bots: they never aim at the jan de trois coups (it happens only by
chance), never say *je joue pour tout* unless asked (``pour_tout=True``), and judge
hits one throw ahead only, throw by throw rather than by the exact ways of B3.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping

from ...notation.record import (
    Action,
    Coup,
    Decision,
    Element,
    JouePourTout,
    Mark,
    MarqueResult,
    MarqueStart,
    NeMarquePas,
    Record,
    ReleveStart,
)
from ...notation.visitor import RecordVisitor, visit_element
from ..rules.game import CoupOutcome, Game
from ..rules.moves import Play, PlaySet, play_moves
from ..rules.partie import RECORD_KINDS, MarqueLine, PartieSpec, settle_partie
from ..rules.position import Position
from ..rules.profiles import DEFAULT_PROFILE, Profile

__all__ = [
    "evaluate",
    "tenue",
    "choose_play",
    "decide_leave",
    "play_partie",
    "selfplay",
    "play_moves",
    "partie_header",
    "RecordBuilder",
    "bot_coup",
    "result_text",
    "STAY_MARGIN",
    "MULTI",
    "play_partie_multi",
]

STAY_MARGIN = 6.0
MAX_COUPS = 6000  # coups per marqué (or per douze trous): never reached; guards a bot bug

# chance (out of 36) that a die or the sum reaches a distance: 1..6 direct, 7..12 by sum
_REACH = (0.0,) + tuple(11 / 36 for _ in range(6)) + (6 / 36, 5 / 36, 4 / 36, 3 / 36, 2 / 36, 1 / 36)
_TABLES = ((1, 7), (7, 13), (19, 25))  # petit jan (talon counts), grand jan, jan de retour


def _value(p: int) -> int:
    """Points of a hit on point ``p`` (first tables 4, second tables 2; RULES.md §4.3 B5)."""
    return 4 if p <= 6 or p >= 19 else 2


def tenue(me: tuple[int, ...]) -> float:
    """How good one side's own game is (its counts in its own frame): pleins and coin."""
    v = 0.0
    for lo, hi in _TABLES:
        cases = 0
        for p in range(lo, hi):
            if me[p] >= 2:
                cases += 1
        v += cases * 1.5
        if cases == 6:
            v += 14.0
        elif cases == 5:
            v += 4.0
    if me[12] >= 2:
        v += 5.0
    return v


def _danger(opp_mf: tuple[int, ...]) -> list[float]:
    """What a lone checker of the mover on each point may cost next throw by a direct
    hit (one die: always à vrai, RULES.md §4.3 B4): the points of a hit there (B5)
    times the chance one of the opponent's checkers reaches it (his checkers move from
    24 down to 1 in the mover's frame).  Hits by the sum are judged per play
    (:func:`_by_sum`), since the mover's own cases decide whether they are à faux."""
    out = [0.0] * 26
    occupied = [r for r in range(2, 25) if opp_mf[r]]
    for p in range(2, 25):
        risk = 0.0
        for r in occupied:
            d = r - p
            if 0 < d <= 6:
                risk += _REACH[d]
        if risk:
            out[p] = _value(p) * (risk if risk < 1.0 else 1.0)
    return out


#: (a, b, chance) of the throws whose sum is d, for d = 7..12 (doublets count once)
_SPLITS = {
    d: tuple((a, d - a, (1 if a == d - a else 2) / 36) for a in range(max(1, d - 6), d // 2 + 1)) for d in range(2, 13)
}


def _by_sum(src: int, d: int, step: int, blocker: tuple[int, ...]) -> tuple[float, float]:
    """Chances (à vrai, à faux) of a hit by the sum over distance ``d`` from ``src``
    moving by ``step`` (+1 or -1); a repos holding two or more of ``blocker``'s
    checkers is closed (RULES.md §4.3 B4)."""
    vrai = faux = 0.0
    for a, b, ch in _SPLITS[d]:
        if blocker[src + step * a] < 2 or (a != b and blocker[src + step * b] < 2):
            vrai += ch
        else:
            faux += ch
    return vrai, faux


def evaluate(
    me: tuple[int, ...],
    opp_mf: tuple[int, ...],
    danger: list[float] | None = None,
    opp_blots: list[int] | None = None,
) -> float:
    """One-ply value of the mover's counts ``me`` against ``opp_mf`` (the opponent's
    counts re-indexed in the mover's frame).  ``danger`` / ``opp_blots`` may be passed
    precomputed (they depend on the opponent only).

    His hits on my lone checkers cost me when à vrai and pay me when à faux; my hits
    on his pay me à vrai and cost me à faux (RULES.md §4.3 B4-B5)."""
    if danger is None:
        danger = _danger(opp_mf)
    if opp_blots is None:
        opp_blots = [q for q in range(2, 25) if opp_mf[q] == 1]
    v = tenue(me) + me[25] * 0.6
    for p in range(2, 25):
        if me[p] == 1:
            v -= danger[p]
            lo, hi = p + 7, min(p + 12, 24)
            vrai = faux = 0.0
            for r in range(lo, hi + 1):
                if opp_mf[r]:
                    x, y = _by_sum(r, r - p, -1, me)
                    vrai += x
                    faux += y
            if vrai or faux:
                v += _value(p) * ((faux if faux < 1.0 else 1.0) - (vrai if vrai < 1.0 else 1.0))
    for q in opp_blots:  # his lone checkers I may hit next time
        reach = faux = 0.0
        for s_ in range(q - 1, max(0, q - 13), -1):
            if me[s_]:
                d = q - s_
                if d <= 6:
                    reach += _REACH[d]
                else:
                    x, y = _by_sum(s_, d, 1, opp_mf)
                    reach += x
                    faux += y
        if reach or faux:
            v += 0.5 * _value(q) * ((reach if reach < 1.0 else 1.0) - (faux if faux < 1.0 else 1.0))
    return v


def choose_play(pos: Position, plays: tuple[Play, ...], rng: random.Random) -> Play:
    """The bot's play: the best :func:`evaluate` value, a little noise to vary games."""
    if len(plays) == 1:
        return plays[0]
    opp = pos.other_in_mover_frame()
    danger = _danger(opp)
    blots = [q for q in range(2, 25) if opp[q] == 1]
    best, best_v = plays[0], -1e9
    for play in plays:
        v = evaluate(play.result, opp, danger, blots) + rng.random() * 0.8
        if v > best_v:
            best, best_v = play, v
    return best


def decide_leave(game: Game, roll: tuple[int, int], play: Play | None) -> bool:
    """S'en aller (True) or rester (False), by the heuristic of the module docstring.

    Called only when the roller's own gains complete a hole (RULES.md §6.1)."""
    pos = game.position
    roller = pos.turn
    me = play.result if play is not None else pos.mover
    diff = tenue(me) - tenue(pos.other)
    if game.kind == "a-ecrire":
        state, _ = game.after_gains(roll, None)
        mine, theirs = state[roller].holes, state["B" if roller == "A" else "A"].holes
        if max(mine, theirs) >= game.profile.marque_end_holes:
            if mine > theirs:  # leaving wins the marqué; play on for the grande bredouille?
                return not (state[roller].pavillon and mine < 12 and diff >= STAY_MARGIN)
            if mine == theirs:  # leaving makes a refait
                return diff <= 0
            return False  # leaving would lose the marqué
    return diff < STAY_MARGIN


# --- records -----------------------------------------------------------------------


def _mark(who: str, points: int, holes: int, double: tuple[bool, ...], bred: bool | None) -> Mark:
    """A mark as a perfect player makes it: points, holes moved (None when none) and
    bredouille (a double hole, or points standing in bredouille; RULES.md §5.2)."""
    if holes:
        return Mark(who, points, holes, any(double))
    return Mark(who, points, None, bool(bred))


def coup_element(number: int, out: CoupOutcome, unplayable: tuple[int, ...], *, compact: bool) -> Coup:
    """One coup of the record from what the flow did (full: every mark; compact: moves)."""
    moves = () if not out.played else play_moves(out.play, unplayable)
    if compact:
        return Coup(number, out.side, out.roll, moves)
    before: list[Action] = []
    opp = "B" if out.side == "A" else "A"
    if out.ne_marque_pas:
        before.append(NeMarquePas(out.side))
    elif out.gains:
        before.append(_mark(out.side, out.gains, out.holes, out.double, out.bredouille))
    if out.could_leave:
        before.append(Decision(out.side, out.left))
    if out.pour_tout:
        before.append(JouePourTout(out.side))
    after: list[Action] = []
    if out.receipts:
        after.append(_mark(opp, out.receipts, out.other_holes, out.other_double, out.other_bredouille))
    return Coup(number, out.side, out.roll, moves, tuple(before), tuple(after))


def partie_header(kind: str, marques: int) -> str:
    """The ``Partie`` header value of a kind of partie."""
    return "douze-trous" if kind == "douze-trous" else f"a-ecrire {marques}"


class RecordBuilder:
    """Writes a record as a :class:`Game` goes: the sections (marqué, relevé, result)
    and one :class:`Coup` per outcome (the error injector shares it)."""

    def __init__(self, game: Game, headers: dict[str, str], *, compact: bool) -> None:
        self.game = game
        self.compact = compact
        self.record = Record(headers=dict(headers))
        h = self.record.headers
        h.setdefault("Event", "selfplay")
        h.setdefault("A", "Bot A")
        h.setdefault("B", "Bot B")
        h["Partie"] = partie_header(game.kind, game.marques)
        h["Profile"] = game.profile.name
        h["Record"] = "compact" if compact else "full"
        if game.kind == "a-ecrire":
            self.record.elements.append(MarqueStart(game.marque))
        self.record.elements.append(ReleveStart(game.releve))
        self.number = 0

    def coup(self, out: CoupOutcome, unplayable: tuple[int, ...]) -> Coup:
        """A coup element for ``out`` (not yet added)."""
        self.number += 1
        return coup_element(self.number, out, unplayable, compact=self.compact)

    def add(self, coup: Coup, out: CoupOutcome) -> None:
        """Append the coup and the sections that follow it."""
        els = self.record.elements
        els.append(coup)
        game = self.game
        if out.marque_ended is not None:
            m = out.marque_ended
            if not self.compact:
                els.append(MarqueResult(m.winner, m.winner_holes, m.loser_holes, m.bredouille, m.refait, m.value))
            if not game.finished:
                els.append(MarqueStart(game.marque))
                els.append(ReleveStart(game.releve))
                self.number = 0
        elif out.releve_ended and not game.finished:
            els.append(ReleveStart(game.releve))
            self.number = 0

    def finish(self) -> Record:
        self.record.headers["Result"] = result_text(self.game)
        return self.record


def bot_coup(
    game: Game, rng: random.Random, *, pour_tout: bool = False, dice: random.Random | None = None
) -> tuple[tuple[int, int], PlaySet, Play | None, bool, bool]:
    """The bot's throw and choices: ``(roll, legal plays, play, leave, pour_tout)``.

    ``dice`` throws the dice (default ``rng``, which also breaks the bot's ties); a
    separate generator keeps the dice of a seed the same whatever the bots choose.
    ``play`` is None when it leaves (it does not play, RULES.md §6.2)."""
    roll = game.pending_roll or _throw(dice or rng)
    ps = game.legal(roll)
    play = choose_play(game.position, ps.plays, rng)
    leave = game.can_leave(roll, None) and decide_leave(game, roll, play)
    say = pour_tout and not leave and play.result[25] == 15 and roll[0] == roll[1]
    return roll, ps, None if leave else play, leave, say


#: a bot: ``(game, rng, *, pour_tout, dice) -> (roll, legal plays, play, leave, pour_tout)``
BotCoup = Callable[..., tuple[tuple[int, int], PlaySet, Play | None, bool, bool]]


def play_partie(
    rng: random.Random,
    kind: str = "douze-trous",
    profile: Profile = DEFAULT_PROFILE,
    *,
    compact: bool = False,
    marques: int = 4,
    first: str | None = None,
    headers: dict[str, str] | None = None,
    pour_tout: bool = False,
    bots: Mapping[str, BotCoup] | None = None,
) -> Record:
    """Play one whole partie between two bots and return its record.

    ``rng`` throws the dice (and breaks the bots' ties): the same generator state gives
    the same record.  ``first`` = who has the primauté (thrown for when None, 003 §28).
    ``pour_tout``: a bot that bears off first with a doublet says *je joue pour tout*
    (RULES.md §6.5; full records only, a compact record cannot show it).
    ``bots``: seat -> a function like :func:`bot_coup` that plays that seat (default
    :func:`bot_coup` for both; ``trictrac.analysis.player`` has others).
    """
    if first is None:
        first = "A" if rng.random() < 0.5 else "B"
    dice, rng = _split(rng)
    game = Game(kind, profile, first=first, marques=marques)
    rb = RecordBuilder(game, headers or {}, compact=compact)
    while not game.finished:
        # bounded by the game: a partie à écrire of N marqués (refaits included) may take N times a marqué
        if game.coups > MAX_COUPS * (len(game.marque_results) + 1):
            raise RuntimeError("selfplay: partie did not end (bot bug)")
        bot = bot_coup if bots is None else bots[game.turn]
        roll, ps, play, leave, say = bot(game, rng, pour_tout=pour_tout and not compact, dice=dice)
        out = game.apply_coup(roll, play, leave=leave, pour_tout=say)
        rb.add(rb.coup(out, ps.unplayable), out)
    return rb.finish()


def result_text(game: Game) -> str:
    """The ``Result`` header: ``A 12-7`` (douze trous: winner, holes) or the marqués won."""
    st = game.score
    if game.kind == "douze-trous":
        return f"{game.winner} {st[game.winner or 'A'].holes}-{st['B' if game.winner == 'A' else 'A'].holes}"
    won = {"A": 0, "B": 0}
    for m in game.marque_results:
        if m.winner:
            won[m.winner] += 1
    return f"{game.winner or '='} {won['A']}-{won['B']}"


def _split(rng: random.Random) -> tuple[random.Random, random.Random]:
    """Two generators from one: the dice, and the bots' tie-breaks."""
    return random.Random(rng.getrandbits(64)), random.Random(rng.getrandbits(64))


def _throw(rng: random.Random) -> tuple[int, int]:
    a, b = rng.randint(1, 6), rng.randint(1, 6)
    return (a, b) if a >= b else (b, a)


def selfplay(
    n: int,
    seed: int = 0,
    kind: str = "douze-trous",
    compact: bool = False,
    profile: Profile = DEFAULT_PROFILE,
    *,
    marques: int | None = None,
    bots: Mapping[str, BotCoup] | None = None,
    start: int = 0,
) -> Iterator[Record]:
    """``n`` parties from one seed (game ``i`` uses its own generator seeded from
    ``(seed, i)``, so a game does not depend on the ones before it; ``start``: the first
    game's index, so that an archive made in parts is the archive made at once).  ``kind``:
    ``douze-trous``, ``a-ecrire`` (``marques`` default 4), or a partie of three or four
    players (:data:`MULTI`: ``a-tourner``, ``chouette``, ``a-quatre``)."""
    if kind not in ("douze-trous", "a-ecrire") and kind not in MULTI:
        raise ValueError(f"unknown kind of partie {kind!r}")
    for i in range(start, start + n):
        rng = random.Random(f"{seed}:{i}:{kind}")
        if kind in MULTI:
            rec = play_partie_multi(rng, kind, profile, compact=compact, marques=marques)
        else:
            rec = play_partie(rng, kind, profile, compact=compact, marques=marques or 4, bots=bots)
        rec.headers["Round"] = str(i + 1)
        yield rec


# --- parties of three and four players (RULES.md §8.3) ---------------------------------------

#: kind -> (replay.rules.partie kind, players, default number of marqués)
_DEFAULT_MARQUES = {"a-tourner": 9, "chouette": 6, "a-quatre": 8}  # 003 §243: 9, 12 or 15
MULTI: dict[str, tuple[str, tuple[str, ...], int]] = {
    k: (pk, players, _DEFAULT_MARQUES[k]) for k, (pk, players) in RECORD_KINDS.items()
}


def _relabel(action: object, seats: dict[str, str]) -> object:
    """An action with its seat letter(s) replaced by the player's letter."""
    from dataclasses import fields, replace

    names = {f.name for f in fields(action)}  # type: ignore[arg-type]
    for name in ("who", "claimant"):
        if name in names:
            return replace(action, **{name: seats[getattr(action, name)]})  # type: ignore[type-var]
    return action


def _play_marque(game: Game, rng: random.Random, dice: random.Random, compact: bool) -> tuple[RecordBuilder, str]:
    """One marqué (with its refaits) played by the bots in seats A / B: its record, and
    the seat of the last leaver."""
    rb = RecordBuilder(game, {}, compact=compact)
    leaver = "A"
    while not game.finished:
        if game.coups > MAX_COUPS:
            raise RuntimeError("selfplay: marqué did not end (bot bug)")
        roll, ps, play, leave, say = bot_coup(game, rng, dice=dice)
        out = game.apply_coup(roll, play, leave=leave, pour_tout=say)
        if out.left:
            leaver = out.side
        rb.add(rb.coup(out, ps.unplayable), out)
    return rb, leaver


def _marque_lines(game: Game, seats: dict[str, str], leaver: str) -> list[MarqueLine]:
    """The marqués a game played, as ``replay.rules.partie`` rotates the players on them."""
    x, y = seats["A"], seats["B"]
    out = []
    for mo in game.marque_results:
        if mo.refait:
            out.append(MarqueLine(refait_holes=mo.winner_holes))
            continue
        w = seats[mo.winner or "A"]
        out.append(
            MarqueLine(
                winner=w,
                holes=(mo.winner_holes, mo.loser_holes),
                pavillon=mo.bredouille != "none",
                loser=y if w == x else x,
                leaver=seats[leaver],
            )
        )
    return out


class _Seated(RecordVisitor[Element]):
    """The elements of one marqué played in seats ``A`` / ``B``, in the players' letters,
    its marqué numbered on from ``number`` (RULES.md §8.3); other elements unchanged."""

    def __init__(self, seats: dict[str, str], number: int) -> None:
        self.seats = seats
        self.number = number

    def visit_marque_start(self, start: MarqueStart) -> Element:
        self.number += 1
        return MarqueStart(self.number, (self.seats["A"], self.seats["B"]))

    def visit_coup(self, coup: Coup) -> Element:
        seats = self.seats
        return Coup(
            coup.number,
            seats[coup.side],
            coup.roll,
            coup.moves,
            tuple(_relabel(a, seats) for a in coup.before),  # type: ignore[misc]
            tuple(_relabel(a, seats) for a in coup.after),  # type: ignore[misc]
        )

    def visit_marque_result(self, result: MarqueResult) -> Element:
        winner = self.seats[result.winner] if result.winner else None
        return MarqueResult(
            winner, result.winner_holes, result.loser_holes, result.bredouille, result.refait, result.value
        )


def _seated(element: Element, seated: _Seated) -> Element:
    """``element`` as :class:`_Seated` rewrites it (relevés and comments as they are)."""
    new = visit_element(element, seated)
    return element if new is None else new


def play_partie_multi(
    rng: random.Random,
    kind: str,
    profile: Profile = DEFAULT_PROFILE,
    *,
    compact: bool = False,
    marques: int | None = None,
    headers: dict[str, str] | None = None,
) -> Record:
    """A partie à tourner, à la chouette or à quatre between bots (RULES.md §8.3).

    Who plays each marqué and who has its primauté come from ``replay.rules.partie``
    (:func:`~trictrac.replay.rules.partie.settle_partie` on the results so far; 003 §239-246);
    each marqué is played by the game flow between the two seated players, written
    as ``marqué N X-Y`` with the players' own letters.
    """
    if kind not in MULTI:
        raise ValueError(f"unknown kind {kind!r}; known: {', '.join(MULTI)}")
    pk, players, default = MULTI[kind]
    m = marques or default
    first = None if pk == "chouette" else rng.choice(players[:1] + (players[2] if pk == "quatre" else players[1],))
    spec = PartieSpec(kind=pk, players=players, marques=m, primaute=first)
    dice, rng = _split(rng)
    rec = Record(headers=dict(headers or {}))
    h = rec.headers
    h.setdefault("Event", "selfplay")
    for p in players:
        h.setdefault(p, f"Bot {p}")
    h["Partie"] = f"{kind} {m}"
    h["Profile"] = profile.name
    h["Record"] = "compact" if compact else "full"
    lines: list[MarqueLine] = []
    won = {p: 0 for p in players}
    number = decided = 0
    while decided < m:
        det = settle_partie(spec, lines + [MarqueLine()], profile).detail[-1]
        x, y = det["players"]
        prim = det["primaute"] or x
        seats = {"A": x, "B": y}
        game = Game("a-ecrire", profile, first="A" if prim == x else "B", marques=1)
        rb, leaver = _play_marque(game, rng, dice, compact)
        seated = _Seated(seats, number)
        rec.elements.extend(_seated(el, seated) for el in rb.record.elements)
        number = seated.number
        for line in _marque_lines(game, seats, leaver):
            lines.append(line)
            if line.winner is not None:
                won[line.winner] += 1
        decided += 1
    h["Result"] = " ".join(f"{p}:{won[p]}" for p in players)
    return rec
