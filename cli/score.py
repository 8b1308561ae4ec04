"""``trictrac score``: the club score keeper's calculator (docs/score.md).

Wiring only: the rules are in ``replay.rules.ledger`` (points, holes, bredouille) and
``replay.rules.partie`` (marqués, payments, kinds of partie).
"""

from __future__ import annotations

import re
from typing import Any

import click

from ..notation.limits import MAX_ECOLE_POINTS, MAX_HOLES
from ..notation.textio import OSReason, terminal_safe
from ..replay.rules.ledger import Ledger, LedgerError, PlayerScore, ScoreState
from ..replay.rules.partie import (
    PartieError,
    marque_value,
    settle_text,
    twelve_hole_multiplier,
    twelve_hole_winner,
)
from ..replay.rules.profiles import DEFAULT_PROFILE, Profile
from ..words import Words, words
from .common import BadInput, command_words, echo_json, json_option, lang_option, profile_option, read_input
from .helptext import Group

_EVENT = re.compile(r"([ABab])\s*(?:\+\s*(\d+)|:\s*(nmp|leave))\Z")
_HOLES = re.compile(r"\s*([ABab])\s*=\s*(\d+)\s*\Z")


@click.group("score", cls=Group)
def score() -> None:
    """The score keeper's calculator: points and holes, a marqué's value, a whole partie.

    \b
    trictrac score events "A+4 B+4 A+16"
    trictrac score marque 12 6 --bredouille grande
    trictrac score partie fixtures/parties/ecrire_003_234.txt
    """


def _parse_events(text: str) -> list[tuple[str, str, int]]:
    out = []
    for tok in text.replace(",", " ").split():
        m = _EVENT.match(tok)
        if not m:
            raise BadInput(command_words()("sc.cannot_read_event", token=tok))
        side = m.group(1).upper()
        if m.group(2) is not None:
            if len(m.group(2)) > 6 or int(m.group(2)) > MAX_ECOLE_POINTS:
                raise BadInput(command_words()("sc.event_too_big", token=tok, most=MAX_ECOLE_POINTS))
            out.append(("mark", side, int(m.group(2))))
        else:
            out.append((m.group(3), side, 0))
    return out


def _parse_holes(text: str | None, option: str = "--holes") -> tuple[int, int]:
    holes = [0, 0]
    if not text:
        return (0, 0)
    for part in text.split(","):
        m = _HOLES.match(part)
        if not m:
            raise BadInput(command_words()("sc.cannot_read_holes", option=option, text=text))
        if len(m.group(2)) > 6 or (option == "--holes" and int(m.group(2)) > MAX_HOLES):
            raise BadInput(command_words()("sc.too_many_holes", option=option, text=text, most=MAX_HOLES))
        holes["AB".index(m.group(1).upper())] = int(m.group(2))
    return (holes[0], holes[1])


def _start_state(points: tuple[int, int], bredouille: str | None) -> ScoreState:
    """Points and points-bredouille to start from (RULES.md §5.2): ``bredouille`` is
    "A", "B", "A,B" or "none"; by default a player's points are in bredouille when the
    other has none (nobody has marked since)."""
    pa, pb = points
    for side, n in (("A", pa), ("B", pb)):
        if n > 11:
            raise BadInput(command_words()("sc.points_over", side=side, n=n))
    if bredouille is None:
        bred = (pa > 0 and pb == 0, pb > 0 and pa == 0)
    else:
        sides = {s.strip().upper() for s in bredouille.split(",") if s.strip()}
        if not sides <= {"A", "B", "NONE"} or ("NONE" in sides and len(sides) > 1):
            raise BadInput(command_words()("sc.cannot_read_bredouille", text=bredouille))
        bred = ("A" in sides, "B" in sides)
        for side, n, b in (("A", pa, bred[0]), ("B", pb, bred[1])):
            if b and n == 0:
                raise BadInput(command_words()("sc.bredouille_no_points", side=side))
    return ScoreState(PlayerScore(pa, bred[0]), PlayerScore(pb, bred[1]))


def douze_trous_result(state: ScoreState, profile: Profile, lang: str | Words = "en") -> str | None:
    """The result line of a finished partie en douze trous, with the stake multiplier of
    the profile (RULES.md §8.1, §10 D1; 002: Partie en douze trous), or None."""
    w = twelve_hole_winner(state)
    if w is None:
        return None
    win, lose = state[w], state["B" if w == "A" else "A"]
    x = twelve_hole_multiplier(win.holes, lose.holes, win.pavillon, profile)
    return words(lang)("sc.douze_result", side=w, w=win.holes, lo=lose.holes, x=x, how=profile.twelve_hole_multiplier)


@score.command("events")
@click.argument("events")
@click.option("--holes", "holes_text", default=None, help="Holes already held, e.g. A=3,B=5.")
@click.option(
    "--pavillon",
    type=click.Choice(["A", "B", "none"], case_sensitive=False),
    default=None,
    help="Whose held holes are uninterrupted (implied when only one side has holes).",
)
@click.option("--points", "points_text", default=None, help="Points already marked, e.g. A=4,B=0 (0..11).")
@click.option(
    "--bredouille",
    default=None,
    help="Whose points are in bredouille: A, B, A,B or none (default: a player's points when the other has none).",
)
@profile_option
@json_option
@lang_option
def events(
    events: str,
    holes_text: str | None,
    pavillon: str | None,
    points_text: str | None,
    bredouille: str | None,
    profile: Profile | None,
    as_json: bool,
    lang: Words,
) -> None:
    """Points, holes, bredouille and pavillon after scoring EVENTS, from a fresh relevé or
    from the given points, holes, bredouille and pavillon.

    Each event is one throw's gains, one throw's receipts or one école:
    "A+4 B+4 A+16".  Also A:nmp (A says "je ne marque pas") and A:leave (A
    leaves: all points erased).

    \b
    Examples:
      trictrac score events "A+4 B+4 A+16" --json  # Lelasseux-Lafosse 1852, art. 146
      trictrac score events "B+6 A+18" --holes A=3,B=5 --pavillon B
      trictrac score events "A+8" --points A=6,B=2 --bredouille A --holes A=11,B=0

    When a player reaches twelve holes the partie en douze trous is over: its
    result is shown with the stake multiplier of the profile (Guiton, chapter VIII;
    docs/rules-reference.md).
    """
    evs = _parse_events(events)
    ha, hb = _parse_holes(holes_text)
    profile = profile or DEFAULT_PROFILE
    ledger = Ledger(profile, _start_state(_parse_holes(points_text, "--points"), bredouille))
    pav = None if pavillon in (None, "none") else pavillon.upper()
    if pav is not None and (ha, hb)[0 if pav == "A" else 1] == 0:
        raise BadInput(lang("sc.pavillon_no_holes", side=pav))
    if pavillon == "none" and (ha == 0) != (hb == 0):
        raise BadInput(lang("sc.pavillon_none"))
    try:
        ledger.set_holes((ha, hb), pav)
        trace: list[dict[str, Any]] = []
        for what, side, n in evs:
            if what == "mark":
                r = ledger.mark(side, n)
                trace.append({"event": f"{side}+{n}", "holes": [[h, d] for h, d in r.holes], **ledger.state.as_dict()})
            elif what == "nmp":
                ledger.ne_marque_pas(side)
                trace.append({"event": f"{side}:nmp", **ledger.state.as_dict()})
            else:
                ledger.leave(side, force=True)
                trace.append({"event": f"{side}:leave", **ledger.state.as_dict()})
    except LedgerError as e:
        raise BadInput(e.say(lang)) from None
    st: ScoreState = ledger.state
    result = douze_trous_result(st, profile, lang)
    if as_json:
        out = st.as_dict()
        w = twelve_hole_winner(st)
        if w is not None:
            win, lose = st[w], st["B" if w == "A" else "A"]
            out["douze_trous"] = {
                "winner": w,
                "multiplier": twelve_hole_multiplier(win.holes, lose.holes, win.pavillon, profile),
            }
        echo_json(out)
        return
    for row in trace:
        made = row.get("holes")
        extra = ""
        if made:
            extra = "  (" + ", ".join(lang("sc.double_hole" if d else "sc.simple_hole") for _, d in made) + ")"
        click.echo(f"{row['event']:>10}:  A {_fmt(row['A'], lang)}   B {_fmt(row['B'], lang)}{extra}")
    click.echo(lang("sc.side_said", side="A", text=_long(st.a.as_dict(), lang)))
    click.echo(lang("sc.side_said", side="B", text=_long(st.b.as_dict(), lang)))
    if result:
        click.echo(result)


def _fmt(p: dict[str, Any], W: Words) -> str:
    """A side's score in a trace row: ``4b pts 1p holes`` (b: in bredouille, p: the pavillon)."""
    return W(
        "sc.trace_side",
        points=p["points"],
        b="b" if p["bredouille"] else "",
        holes=p["holes"],
        p="p" if p["pavillon"] else "",
    )


def _long(p: dict[str, Any], W: Words) -> str:
    pts = W.n("sc.long_points_bredouille" if p["bredouille"] else "sc.long_points", p["points"])
    holes = W.n("sc.long_holes_pavillon" if p["pavillon"] else "sc.long_holes", p["holes"])
    return W("sc.long", points=pts, holes=holes)


@score.command("marque")
@click.argument("winner", type=int)
@click.argument("loser", type=int)
@click.option(
    "--bredouille",
    type=click.Choice(["none", "petite", "grande"], case_sensitive=False),
    default="none",
    show_default=True,
    help="Winner's holes uninterrupted: petite (< 12 holes) or grande (12 or more).",
)
@click.option(
    "--refaits",
    type=click.IntRange(0, None),
    default=0,
    show_default=True,
    help="Refaits just before this marqué (consolation 4, 6 …).",
)
@profile_option
@json_option
@lang_option
def marque(
    winner: int, loser: int, bredouille: str, refaits: int, profile: Profile | None, as_json: bool, lang: Words
) -> None:
    """Value of a marqué won with WINNER holes against LOSER holes (Lelasseux-Lafosse
    1852, art. 221-226).

    \b
    Examples:
      trictrac score marque 9 8  # 3 (Lelasseux-Lafosse 1852, art. 222)
      trictrac score marque 18 6 --bredouille grande  # 74 (Lelasseux-Lafosse 1852, art. 224)
      trictrac score marque 7 4 --refaits 1 --json
    """
    p = profile or DEFAULT_PROFILE
    bred = bredouille.lower()
    if bred == "petite" and winner >= 12:
        raise BadInput(lang("sc.petite_under_12", n=winner))
    if bred == "grande" and winner < 12:
        raise BadInput(lang("sc.grande_needs_12", n=winner))
    try:
        mv = marque_value(winner, loser, bred != "none", refaits, p)
    except PartieError as e:
        raise BadInput(e.say(lang)) from None
    if bred == "petite" and mv.factor == 1:
        raise BadInput(lang("sc.no_petite", n=winner, profile=p.name, need=p.petite_bredouille_min_holes))
    if as_json:
        echo_json({"value": mv.value})
    else:
        click.echo(mv.formula())


@score.command("partie")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--method",
    type=click.Choice(["jetons", "papier"]),
    default=None,
    help="Which method gives the final accounts (default: the file's, else jetons).",
)
@profile_option
@json_option
@lang_option
def partie(file: str, method: str | None, profile: Profile | None, as_json: bool, lang: Words) -> None:
    """Settle a whole partie from FILE, a list of marqué results (docs/score.md).

    \b
    Examples:
      trictrac score partie fixtures/parties/ecrire_003_234.txt
      trictrac score partie fixtures/parties/tourner_12.txt --json
    """
    inp = read_input(file)  # the one input reader: '-', BOMs, FIFOs and junk refused (issue 27 row 10)
    try:
        with inp.stream() as fh:
            data = fh.read(_MAX_PARTIE_BYTES + 1)
    except OSError as e:
        why = lang("dbcli.input.cannot-read", reason=OSReason.of(e).say(lang))
        raise BadInput(terminal_safe(lang("dbcli.input.said", name=inp.name, why=why))) from None
    if len(data) > _MAX_PARTIE_BYTES:
        too_big = lang("sc.partie_too_big", mb=_MAX_PARTIE_BYTES // 1_000_000)
        raise BadInput(terminal_safe(lang("dbcli.input.said", name=inp.name, why=too_big)))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")  # as the record reader: legacy 8-bit text
    try:
        result = settle_text(text, profile, method)
    except PartieError as e:
        raise BadInput(terminal_safe(lang("dbcli.input.said", name=inp.name, why=e.say(lang)))) from None
    if as_json:
        echo_json(result)
        return
    _print_partie(result, lang)


def _say(text: str) -> None:
    """A line of the settlement: names come from the file, never drive the terminal."""
    click.echo(terminal_safe(text))


#: a list of marqués is a few KB; a larger file is refused, not read into memory
_MAX_PARTIE_BYTES = 10_000_000


def _print_partie(r: dict, W: Words) -> None:
    """The settlement as text, in ``W``'s words; names, kinds and numbers as the JSON has them."""

    def accounts(d: dict[str, int]) -> str:
        return ", ".join(f"{k} {v:+d}" for k, v in d.items())

    kind = r["kind"]
    if kind == "poule":
        for i, g in enumerate(r["games"], 1):
            _say(W("sc.p.poule_game", i=i, winner=g["winner"], loser=g["loser"]))
        _say(W("sc.p.pot", pot=r["pot"], paid=", ".join(f"{k} {v}" for k, v in r["paid"].items())))
        _say(
            W("sc.p.poule_winner", name=r["winner"])
            if r["winner"]
            else W("sc.p.next_game", table=" v ".join(r["next"]))
        )
        _say(W("sc.p.accounts", accounts=accounts(r["accounts"])))
        return
    if kind == "douze":
        for i, g in enumerate(r["parties"], 1):
            _say(
                W(
                    "sc.p.douze_partie",
                    i=i,
                    winner=g["winner"],
                    w=g["holes"][0],
                    lo=g["holes"][1],
                    x=g["multiplier"],
                    value=g["value"],
                )
            )
        _say(W("sc.p.accounts", accounts=accounts(r["accounts"])))
        return
    for m in r["marques_detail"]:
        who = " v ".join(m["players"])
        prim = W("sc.p.primaute", name=m["primaute"]) if m["primaute"] else ""
        if m.get("refait"):
            _say(W("sc.p.marque_refait", n=m["n"], who=who, prim=prim))
            continue
        how = m.get("formula", str(m["value"]))
        idle = W("sc.p.idle", name=m["idle"], c=m["idle_consolation"]) if m.get("idle") else ""
        _say(W("sc.p.marque_won", n=m["n"], who=who, prim=prim, winner=m["winner"], how=how, idle=idle))
    lost = ", ".join(f"{k} {v}" for k, v in r["marques_lost"].items())
    _say(W("sc.p.marques_lost", lost=lost, share=r["share"]))
    if not r["complete"]:
        _say(W("sc.p.not_finished", n=r["marques"]))
    for p in r["postillons"]:
        _say(W("sc.p.postillons", payer=p["payer"], payee=p["payee"], count=p["count"], jetons=p["jetons"]))
    q = r["queue_des_jetons"]
    if r["complete"]:
        _say(W("sc.p.queue_des_jetons", pool=q["pool"], winners=W("sc.p.and").join(q["winners"])))
        if r["queue"]["jetons"]:
            _say(W("sc.p.queue", jetons=r["queue"]["jetons"], winner=r["queue"]["winner"] or W("sc.p.nobody")))
    for name, m in r["methods"].items():
        nets = ", ".join(
            W("sc.p.net", name=a, net=f"{m['net'][a]:+d}", fiches=f"{m['fiches'][a]:+d}") for a in m["net"]
        )
        _say(W("sc.p.method", method=name, nets=nets))
    for x, a in r["players"].items():
        _say(W("sc.p.player", name=x, jetons=f"{a['jetons']:+}", fiches=f"{a['fiches']:+}"))
