"""Static HTML pages of annotated games, written as templates (strings) with every
record text escaped by :func:`trictrac.publish.markup.esc`.

``render_game(record, report, profile=…, lang="fr")`` is a pure function of a
record (what was written, ``notation.record``) and the verifier's report (what the
rules say, ``replay.verifier.verify.GameReport``).  The page has the header tags, the
findings, the board after every coup (small ``<use>`` drawings of shared
definitions, ``publish.board.PageBoards``), the coups by relevé (each row links
to its board), a chart of points and holes, and the feuille de marque
(``publish.sheet``; the only thing printed, one sheet a page).

Plain HTML first: without JavaScript every coup's board is reached by its link
(``#step-N``, shown by CSS ``:target``), each board links to the previous and next
one, and the view from the other side is a checkbox read by CSS.  The script only
adds the buttons, the arrow keys and clicking a row.  All words come from
``publish.i18n`` (French by default).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..notation.position import START_SPEC, PositionSpec, parse_position
from ..notation.record import (
    OFF,
    CannotPlay,
    Comment,
    Correction,
    Coup,
    Decision,
    Ecole,
    Glyph,
    JouePourTout,
    Mark,
    MarqueResult,
    MarqueStart,
    Move,
    NeMarquePas,
    Pavillon,
    Record,
    ReleveStart,
    Replay,
)
from ..notation.visitor import ActionVisitor, RecordVisitor, visit_action, visit_element
from ..replay.verifier.findings import say
from .board import BoardScore, PageBoards, score_of_state
from .chart import chart_svg
from .i18n import Labels, labels
from .markup import clean, esc, json_for_script, safe_href
from .messages import (
    event_words,
    finding_consequence,
    finding_kind_name,
    finding_message,
    is_a_ecrire,
    marque_result_text,
    partie_kind,
    seat_names,
)
from .rules_page import rule_href

__all__ = [
    "render_game",
    "game_page",
    "GamePage",
    "render_index",
    "render_player",
    "GameSummary",
    "moves_text",
    "is_a_ecrire",
    "partie_kind",
    "page",
    "CSS",
]

DOCTYPE = "<!DOCTYPE html>"

CSS = """
:root{--ink:#222;--muted:#595959;--line:#ccc;--bad:#a4221a;--badbg:#fdecea;--warn:#7a4f00;--link:#0b57b0}
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--ink);max-width:1150px;margin:0 auto;padding:1rem}
a{color:var(--link)}
h1{font-size:1.5rem;margin:.2rem 0}
header dl{display:grid;grid-template-columns:fit-content(40%) minmax(0,1fr);gap:.1rem 1rem;margin:.5rem 0}
header dt{font-weight:600}
header dd{margin:0;overflow-wrap:break-word}
.final-side{display:inline-block}
@media (max-width:480px){header dl{grid-template-columns:minmax(0,1fr)}header dd{padding-left:1rem;margin-bottom:.2rem}}
@media (max-width:480px){.feuille{padding:.5rem}.sheet{font-size:.82rem}.coups th,.coups td,.sheet th,.sheet td{padding:.2rem .25rem}.coups td:nth-child(n+5){overflow-wrap:break-word;hyphens:auto}.coups-pane{overflow-x:auto}}
.layout{display:flex;flex-wrap:wrap;gap:1.5rem;align-items:flex-start}
.board-pane{flex:0 0 auto;width:min(100%,560px);position:sticky;top:.5rem}
.coups-pane{flex:1 1 420px;min-width:0}
figure{margin:0}
.tt-step svg{width:100%;height:auto;display:block}
figcaption{font-size:.9rem;color:var(--muted);margin:.2rem 0}
figcaption a{margin-right:.8rem}
.side{font-size:.9rem;margin:.2rem 0;overflow-wrap:anywhere}
.side b{font-weight:600}
.flipbox{font-size:.9rem}
.numbering{font-size:.8rem;color:var(--muted);margin:.2rem 0}
.controls{display:flex;gap:.3rem;align-items:center;margin:.4rem 0}
[hidden]{display:none!important}
html:not(.js) .tt-step:target{display:block!important}
.controls button{font-size:1rem;min-width:2.4rem}
.controls output{margin-left:.5rem;font-size:.9rem}
html:not(.js) .board-pane:has(.tt-step:target) .tt-step.last:not(:target){display:none!important}
.board-pane .vB{display:none}
.board-pane:has(#tt-flip:checked) .vB{display:block}
.board-pane:has(#tt-flip:checked) .vA{display:none}
.board-pane:has(#tt-flip:checked) g.m{transform:matrix(1,0,0,-1,0,MIRROR);--fy:-1}
text.f{transform-box:fill-box;transform-origin:center;transform:scaleY(var(--fy,1))}
.last-move line{stroke:#c0392b;stroke-width:4;stroke-opacity:.85;stroke-linecap:round;marker-end:url(#tt-arrowhead)}
table{border-collapse:collapse;width:100%;font-size:.92rem}
th,td{padding:.25rem .4rem;text-align:left;vertical-align:top}
tr{border-bottom:1px solid var(--line)}
thead th{position:sticky;top:0;background:#fff}
.coups td:nth-child(3),.coups td:nth-child(4),.mono{font-family:ui-monospace,monospace}
.js tr.coup{cursor:pointer}
tr.coup:hover{background:#f4f4f4}
tr.current{background:#e7f0ff}
tr.section td{background:#f0ebe0;font-weight:600}
tr.has-finding td{background:var(--badbg)}
tr.finding td{background:var(--badbg);color:var(--bad);font-size:.88rem;border-bottom:2px solid var(--bad)}
.finding .kind{font-weight:600}.kind-id,html[lang=en] .finding .kind{font-family:ui-monospace,monospace}
.rule{color:var(--muted);overflow-wrap:anywhere}
.entitled{color:var(--muted);font-size:.85rem;display:block}
.comment{font-style:italic;color:#444}
.findings-summary li{color:var(--bad)}
.diagnostics li{color:var(--warn)}
.sheet td,.sheet th{text-align:center}
.chart svg{width:100%;max-width:760px;height:auto}
.legend{font-size:.9rem}
.legend .a{color:#8a6100}.legend .b{color:#1f4e8c}
.bad{color:var(--bad)}
.index td{overflow-wrap:anywhere}
nav.site{display:flex;gap:1rem;flex-wrap:wrap;margin:.3rem 0 .8rem}
.feuille{border:1px solid var(--line);padding:.6rem 1rem;margin:1rem 0}
.feuille h2{margin-top:0}
.feuille .signed{margin-top:1.5rem;display:flex;gap:3rem}
.feuille .signed span{flex:1;border-top:1px solid #000;padding-top:.2rem;font-size:.85rem}
@media print{
 @page{size:A4;margin:12mm}
 body{max-width:none;padding:0;font-size:11pt;color:#000}
 body>*:not(.feuille){display:none!important}
 .feuille{display:block!important;border:none;padding:0;margin:0;break-after:page;page-break-after:always}
 .feuille:last-of-type{break-after:auto;page-break-after:auto}
 .feuille table{font-size:10pt}
 thead th{position:static}
 a{color:#000;text-decoration:none}
}
"""

SCRIPT = r"""
(function () {
  "use strict";
  document.documentElement.className += " js";
  var figs = Array.prototype.slice.call(document.querySelectorAll("figure.tt-step"));
  var out = document.getElementById("tt-where");
  var controls = document.getElementById("tt-controls");
  if (!figs.length) { return; }
  var cur = figs.length - 1;
  for (var k = 0; k < figs.length; k++) { if (!figs[k].hidden) { cur = k; } }
  function rowFor(i) { return document.querySelector('tr[data-step="' + i + '"]'); }
  function show(i) {
    if (i < 0) { i = 0; }
    if (i > figs.length - 1) { i = figs.length - 1; }
    var old = rowFor(cur);
    if (old) { old.classList.remove("current"); old.removeAttribute("aria-current"); }
    figs[cur].hidden = true;
    figs[i].hidden = false;
    cur = i;
    var row = rowFor(i);
    if (row) { row.classList.add("current"); row.setAttribute("aria-current", "step"); }
    var cap = figs[i].querySelector("figcaption b");
    out.textContent = (cap ? cap.textContent : "") + " (" + (i + 1) + "/" + figs.length + ")";
    document.body.setAttribute("data-step", String(i));
  }
  function fromHash() {
    var m = /^#step-(\d+)$/.exec(location.hash);
    if (m) { show(parseInt(m[1], 10)); }
  }
  controls.hidden = false;
  document.getElementById("tt-first").addEventListener("click", function () { show(0); });
  document.getElementById("tt-prev").addEventListener("click", function () { show(cur - 1); });
  document.getElementById("tt-next").addEventListener("click", function () { show(cur + 1); });
  document.getElementById("tt-last").addEventListener("click", function () { show(figs.length - 1); });
  document.addEventListener("keydown", function (e) {
    var t = e.target && e.target.tagName;
    if (t === "INPUT" || t === "TEXTAREA") { return; }
    if (e.key === "ArrowRight") { show(cur + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { show(cur - 1); e.preventDefault(); }
    else if (e.key === "Home") { show(0); e.preventDefault(); }
    else if (e.key === "End") { show(figs.length - 1); e.preventDefault(); }
  });
  var rows = document.querySelectorAll("tr[data-step]");
  for (var j = 0; j < rows.length; j++) {
    rows[j].addEventListener("click", function () { show(parseInt(this.getAttribute("data-step"), 10)); });
  }
  window.addEventListener("hashchange", fromHash);
  show(cur);
  fromHash();
})();
"""


def page(title: str, body: Iterable[str], L: Labels, *, script: str = "", mirror: str = "524") -> str:
    """A whole HTML5 document (``title`` and ``body`` already escaped)."""
    return "".join(
        (
            f'{DOCTYPE}\n<html lang="{L.lang}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<meta name="generator" content="trictrac publish"><title>{title}</title>'
            f"<style>{CSS.replace('MIRROR', mirror)}</style></head><body>",
            *body,
            script,
            "</body></html>\n",
        )
    )


# ----------------------------------------------------------------------------------
# record text


def moves_text(moves: Sequence[Move | CannotPlay], L: Labels | None = None) -> str:
    """Moves as written: ``1/7 1/6``, ``19/off``, ``(le 5 ne peut se jouer)``; ``-`` for none."""
    L = L or labels("fr")
    parts = []
    for m in moves:
        if isinstance(m, Move):
            parts.append(f"{m.from_}/{L('off') if m.to == OFF else m.to}")
        else:
            parts.append(L("cannot_play", n=m.number))
    return " ".join(parts) or L("none")


def replay_of(coup: Coup) -> Replay | None:
    """The replay the game goes on from when the throw was played again (a table
    remedy, RULES.md §9.5: the last one written), else None."""
    for a in reversed(coup.after):
        if isinstance(a, Replay):
            return a
    return None


class _ActionWords(ActionVisitor[str]):
    """An action in plain words; ``side`` is the coup's roller (a replay by him is his
    own correction, by anybody else the remedy the opponent imposed: RULES.md §9.5;
    003 §192, §211, §216).  Comments and glyphs have no words (None): they are notes."""

    def __init__(self, L: Labels, side: str | None = None) -> None:
        self.L, self.side = L, side

    def visit_mark(self, mark: Mark) -> str:
        L = self.L
        s = L("marks", who=mark.who, points=mark.points)
        if mark.bredouille:
            s += L("in_bredouille")
        elif mark.bredouille is False:
            s += L("one_jeton")
        if mark.holes:
            s += L.n("holes_n", mark.holes)
        return s

    def visit_ne_marque_pas(self, token: NeMarquePas) -> str:
        return self.L("ne_marque_pas", who=token.who)

    def visit_decision(self, decision: Decision) -> str:  # s'en aller / tenir (RULES.md §6)
        return self.L("leave" if decision.leave else "stay", who=decision.who)

    def visit_ecole(self, ecole: Ecole) -> str:
        s = self.L("ecole", who=ecole.claimant, points=ecole.points)
        return s + (f" ({ecole.reason})" if ecole.reason else "")

    def visit_correction(self, correction: Correction) -> str:
        L = self.L
        bits = []
        if correction.points:
            bits.append(L("corr_points", n=correction.points))
        if correction.holes:
            bits.append(L("corr_holes", n=correction.holes))
        s = L("correction", who=correction.who, what=", ".join(bits) or L("corr_none"))
        return s + (f" ({correction.reason})" if correction.reason else "")

    def visit_joue_pour_tout(self, token: JouePourTout) -> str:
        return self.L("joue_pour_tout", who=token.who)

    def visit_pavillon(self, token: Pavillon) -> str:  # prendre le pavillon (RULES.md §5.4)
        return self.L("pavillon", who=token.who)

    def visit_replay(self, replay: Replay) -> str:
        L = self.L
        moves = moves_text(replay.moves, L) if replay.moves else L("no_checker")
        return L("rejoue" if replay.who == self.side else "fait_rejouer", who=replay.who, moves=moves)


class _Notes(ActionVisitor[None]):
    """The remarks and glyphs written among a coup's actions, in their order."""

    def __init__(self) -> None:
        self.glyphs: list[str] = []
        self.comments: list[str] = []

    def visit_glyph(self, glyph: Glyph) -> None:
        self.glyphs.append(glyph.glyph)

    def visit_comment(self, comment: Comment) -> None:
        self.comments.append(comment.text)


def _action_text(a: Any, names: dict[str, str], side: str | None = None, L: Labels | None = None) -> str:
    """An action in plain words (:class:`_ActionWords`); ``str(a)`` for a token without words."""
    words = visit_action(a, _ActionWords(L or labels("fr"), side))
    return str(a) if words is None else words


# ----------------------------------------------------------------------------------
# the report, read through its contract (replay.verifier.verify.GameReport)


def _score_of(obj: Any) -> BoardScore | None:
    if obj is None:
        return None
    try:
        return score_of_state(obj)
    except ValueError:
        return None


def _spec_of(pos: Any) -> Any:
    """A board-drawable value: PositionSpec / Position as is, position text parsed."""
    if isinstance(pos, str):
        spec, _ = parse_position(pos)
        return spec
    return pos


def _start_spec(record: Record, first: str) -> tuple[PositionSpec, BoardScore]:
    if record.start:
        spec, diags = parse_position(record.start)
        if spec is not None:
            return spec, BoardScore.of(spec)
    spec = PositionSpec(START_SPEC.a, START_SPEC.b, turn=first)
    return spec, BoardScore()


def _all_on_talons(pos: Any) -> bool:
    try:
        if isinstance(pos, PositionSpec):
            return pos.a[1] == 15 and pos.b[1] == 15
        return pos.mover[1] == 15 and pos.other[1] == 15
    except (AttributeError, IndexError):
        return False


def _event_text(ev: Any, side: str, L: Labels) -> str:
    kind = getattr(ev, "kind", None) or (ev.get("kind") if isinstance(ev, dict) else str(ev))
    pts = getattr(ev, "points", None) if not isinstance(ev, dict) else ev.get("points")
    evside = getattr(ev, "side", None) if not isinstance(ev, dict) else ev.get("side")
    who = side if evside in (None, "mover") else ("B" if side == "A" else "A") if evside == "other" else evside
    how = getattr(ev, "how", None) if not isinstance(ev, dict) else ev.get("how")
    name = event_words(str(kind), how, L)
    return name if pts is None else L("event.points", event=name, points=pts, who=who)


def _finding_data(f: Any) -> str:
    """The finding's identity as data attributes, the same fields ``check --json``
    gives (kind, relevé, coup, who): what a program reading the page compares."""
    return (
        f'data-kind="{esc(f.kind)}" data-releve="{f.releve}" data-coup="{f.coup}" '
        f'data-who="{esc(f.who or "")}" data-line="{f.line}"'
    )


def _finding_html(f: Any, names: dict[str, str], L: Labels, *, full: bool = True) -> str:
    """A finding: its kind, who, the message, and (``full``: in the coup's own row,
    shown once) the consequence and the legal plays; its RULES.md section."""
    # French pages say the finding in the game's words (publish/messages.py); the
    # kind's stable id stays beside its name, as the database and docs/findings.md use it
    name = finding_kind_name(f, L)
    out = [f'<span class="kind">{esc(name)}</span>']
    who = getattr(f, "who", None)
    if who and not getattr(f, "record_mistake", False):  # a typo of the record blames no player
        nm = names.get(who)
        out.append(esc(f" ({who}{' ' + nm if nm and nm != who else ''})"))
    s = L("colon") + finding_message(f, L, names)
    if getattr(f, "entitled", None) is not None or getattr(f, "marked", None) is not None:
        e = f.entitled if f.entitled is not None else "–"
        m = f.marked if f.marked is not None else "–"
        s += L("entitled_marked", e=e, m=m)
    if full:
        if getattr(f, "consequence", ""):
            s += L("consequence", text=finding_consequence(f, L, names))
        alts = getattr(f, "alternatives", ()) or ()
        if alts:
            s += L("legal_plays", plays=", ".join(alts[:8]) + (" …" if len(alts) > 8 else ""))
    out.append(esc(s) + " ")
    said = say(f, L)  # the rule it applies, linked to the site's rules reference
    out.append(f'<a class="rule" href="{esc(rule_href(said.anchor, L))}">{esc(said.citation)}</a>')
    if getattr(f, "line", 0):
        out.append(esc(L("line", line=f.line, col=f.col)))
    return "".join(out)


# ----------------------------------------------------------------------------------
# the game page


def _title_of(record: Record, L: Labels, number: int | None = None) -> str:
    h = record.headers
    a, b = h.get("A") or "A", h.get("B") or "B"
    t = f"{a} – {b}"
    if h.get("Event"):
        t += f", {h['Event']}"
    if h.get("Date"):
        t += f", {h['Date']}"
    return (L("game_n", n=number) if number else "") + t


@dataclass(slots=True)
class _Steps:
    """The boards of a page: the start and the position after every traced coup."""

    labels: list[str]  # where the board stands: "relevé 2, coup 24, A 6-4"
    plays: list[str]  # the play of that coup as written (and played again)
    boards: list[tuple[Any, BoardScore, Any, Any]]  # (position, score at the table, last move, (dice, roller))
    notes: dict[int, str]  # step -> where the entitled and standing scores part
    of_coup: dict[int, int]  # coup index -> step
    where: dict[int, str]  # coup index -> "relevé 2, coup 24"
    points: dict[str, list[int]]
    holes: dict[str, list[int]]
    breaks: list[tuple[int, str]]  # (step, "R2" / "M2") new relevé / marqué
    moves: dict[int, str] = field(default_factory=dict)  # coup index -> the play as written, in words


def _where(t: Any, L: Labels) -> str:
    w = L("marque_n", n=t.marque) + ", " if t.marque else ""
    return w + (L("releve", n=t.releve) + ", " if t.releve else "")


def _collect_steps(record: Record, trace: list[Any], findings: list[Any], L: Labels) -> _Steps:
    coups = record.coups
    start, start_score = _start_spec(record, coups[0].side if coups else "A")
    st = _Steps(
        [L("start")],
        [""],
        [(start, start_score, None, None)],
        {},
        {},
        {},
        {"A": [start_score.points[0]], "B": [start_score.points[1]]},
        {"A": [start_score.holes[0]], "B": [start_score.holes[1]]},
        [],
    )
    finding_coups = {f.index for f in findings}
    # a replay that cannot be played leaves the written play standing (RULES.md §9.5)
    replay_refused = {
        f.index for f in findings if f.kind == "remedy-not-allowed" and getattr(f, "detail", None) == "not-executable"
    }
    boards, labels_, plays, of_coup, where_of = st.boards, st.labels, st.plays, st.of_coup, st.where
    pts_a, pts_b, holes_a, holes_b = st.points["A"], st.points["B"], st.holes["A"], st.holes["B"]
    coup_text, label_text = L("coup").format, L("coup_label").format
    was_diverged = False
    prev_key: tuple[int, int] | None = None
    where = ""
    sc = start_score
    ncoups = len(coups)
    for t in trace:
        idx = t.index
        coup = coups[idx] if 0 <= idx < ncoups else None
        pos = t.position_after
        if pos.__class__ is str:
            pos = _spec_of(pos)
        standing = t.score_standing
        sc = _score_of(standing) or sc
        key = (t.marque or 0, t.releve or 0)
        if key != prev_key:  # a new relevé or marqué: its words, and a mark on the chart
            if prev_key is not None:
                st.breaks.append((len(boards) - 1, f"M{key[0]}" if key[0] != prev_key[0] else f"R{key[1]}"))
            prev_key = key
            where = _where(t, L)
        of_coup[idx] = len(boards)
        where_of[idx] = where + coup_text(n=t.coup_number)
        roll = t.roll
        labels_.append(label_text(where=where, n=t.coup_number, side=t.side, d1=roll[0], d2=roll[1]))
        lm = None
        if coup is None:
            plays.append("")
        else:
            lm = _coup_play(st, coup, idx, pos, t, idx in replay_refused, L)
        # the two ledgers part at a mistake that stands (RULES.md §7.3): say so where
        # they part and at each finding, not on every later board
        se = t.score_entitled
        ent = sc if se is standing else _score_of(se)
        diverged = ent is not None and ent is not sc and ent != sc
        if diverged and ent is not None and (not was_diverged or idx in finding_coups):
            st.notes[len(boards)] = _at_table(ent, L)
        was_diverged = diverged
        ok = 1 <= roll[0] <= 6 and 1 <= roll[1] <= 6 if len(roll) == 2 else all(1 <= d <= 6 for d in roll)
        boards.append((pos if pos is not None else boards[-1][0], sc, lm, (tuple(roll), t.side) if ok else None))
        pts_a.append(sc.points[0])
        pts_b.append(sc.points[1])
        holes_a.append(sc.holes[0])
        holes_b.append(sc.holes[1])
    return st


def _coup_play(st: _Steps, coup: Coup, idx: int, pos: Any, t: Any, refused: bool, L: Labels) -> Any:
    """Note a coup's play in words (``st.moves``, ``st.plays``) and return the
    arrows the board shows: the replay's play, unless it could not be played."""
    replay = replay_of(coup) if coup.after else None
    lm = None
    if pos is not None and not getattr(t, "releve_ended", False) and not _all_on_talons(pos):
        shown = coup.moves if replay is None or refused else replay.moves
        mv = tuple([(m.from_, m.to) for m in shown if isinstance(m, Move) and 1 <= m.from_ <= 24 and 1 <= m.to <= 25])
        lm = (coup.side, mv) if mv and coup.side in ("A", "B") else None
    play = st.moves[idx] = moves_text(coup.moves, L)
    if replay is not None:
        play += L("played_again", moves=moves_text(replay.moves, L))
        if refused:
            play += L("replay_refused")
    st.plays.append(play)
    return lm


def _at_table(ent: BoardScore, L: Labels) -> str:
    return L(
        "at_table",
        score="; ".join(L.score("score_pair", ent.holes[k], ent.points[k], side=s) for k, s in enumerate("AB")),
    )


def _header(record: Record, report: Any, profile: Any, title: str, pair: tuple[str, str], L: Labels) -> str:
    out = [f'<header><h1>{esc(title)}</h1><dl class="tags">']
    for k, v in record.headers.items():
        shown = L.get(f"tag_value.{v}", v) if k == "Record" else v  # the notation's own word, said
        if k == "Profile":  # a rules profile by its name, not its code
            shown = L.get(f"names.profile.{v}", v)
        out.append(f"<dt>{esc(L.get('tag_' + k, k))}</dt><dd>{esc(shown)}</dd>")
    pname = getattr(report, "profile_name", None) or getattr(profile, "name", None)
    if pname:
        name = L.get(f"names.profile.{pname}", pname)
        out.append(f"<dt>{esc(L('verified_with'))}</dt><dd>{esc(L('profile', name=name))}</dd>")
    final = _score_of(getattr(report, "final_score", None))
    if final is not None:
        out.append(
            # each side's score wraps as a whole on a phone, never inside a word (360 px)
            f'<dt>{esc(L("final_score"))}</dt><dd class="final-score">'
            + esc(L("sep")).join(
                '<span class="final-side">'
                + esc(
                    L.score(
                        "final_pair",
                        final.holes[i],
                        final.points[i],
                        side=s,
                        name=pair[i],
                        pav=L("with_pavillon") if final.pavillon[i] else "",
                    )
                )
                + "</span>"
                for i, s in enumerate("AB")
            )
            + "</dd>"
        )
    out.append("</dl></header>")
    return "".join(out)


def _list_section(cls: str, heading: str, items: Iterable[str]) -> str:
    items = list(items)
    if not items:
        return ""
    return (
        f'<section class="{cls}"><h2>{esc(heading)}</h2><ul>'
        + "".join(f"<li>{esc(t)}</li>" for t in items)
        + "</ul></section>"
    )


def _board_pane(st: _Steps, pair: tuple[str, str], L: Labels) -> tuple[str, str]:
    """(the pane, the mirror height for the CSS)."""
    boards = PageBoards()
    out = [
        f'<section class="board-pane" aria-labelledby="tt-board-h"><h2 id="tt-board-h">{esc(L("board"))}</h2>',
        '<div id="tt-controls" class="controls" hidden>',
    ]  # shown by the script
    for bid, text, lab in (
        ("tt-first", "«", "first"),
        ("tt-prev", "◀", "prev"),
        ("tt-next", "▶", "next"),
        ("tt-last", "»", "last"),
    ):
        out.append(f'<button type="button" id="{bid}" title="{esc(L(lab))}" aria-label="{esc(L(lab))}">{text}</button>')
    out.append('<output id="tt-where" aria-live="polite"></output></div>')
    out.append(
        f'<p class="flipbox"><input type="checkbox" id="tt-flip"> <label for="tt-flip">{esc(L("flip"))}</label></p>'
    )
    # the names above and below the board, whole (never cut), for either view
    top = {"A": ("B", pair[1]), "B": ("A", pair[0])}
    out.append(
        "".join(f'<p class="side v{v}">{esc(L("top"))} : <b>{esc(s)}</b> {esc(n)}</p>' for v, (s, n) in top.items())
    )
    figs = _figures(st, boards, L)
    out.append(boards.defs())
    out.extend(figs)
    bottom = {"A": ("A", pair[0]), "B": ("B", pair[1])}
    out.append(
        "".join(
            f'<p class="side v{v}">{esc(L("bottom"))} : <b>{esc(s)}</b> {esc(n)}</p>' for v, (s, n) in bottom.items()
        )
    )
    out.append(f'<p class="numbering">{esc(L("numbering"))}</p></section>')
    return "".join(out), boards.mirror


def _figures(st: _Steps, boards: PageBoards, L: Labels) -> list[str]:
    """A ``<figure>`` per step: its board, what was played, links to the steps
    around it.  Without JavaScript only the final board shows (and the one a link
    targets)."""
    last = len(st.boards) - 1
    prev, nxt = esc(L("prev_link")), esc(L("next_link"))
    board_title = esc(L("board"))  # the figure's caption says which
    sep = " : " if L.lang == "fr" else ": "
    notes, draw = st.notes, boards.board
    figs = []
    for k, (pos, sc, lm, dr) in enumerate(st.boards):
        svg = draw(
            pos,
            sc,
            last_move=lm,
            dice=dr[0] if dr else None,
            roller=dr[1] if dr else None,
            title=board_title,
            desc=k == 0 or k == last,
        )
        play = st.plays[k]
        cap = esc(sep + play) if play else ""
        if k in notes:
            cap += esc(notes[k])
        if 0 < k < last:
            figs.append(
                f'<figure class="tt-step" id="step-{k}" hidden>{svg}<figcaption><b>{esc(st.labels[k])}</b>{cap}'
                f' <a href="#step-{k - 1}">{prev}</a> <a href="#step-{k + 1}">{nxt}</a></figcaption></figure>'
            )
            continue
        nav = f' <a href="#step-{k - 1}">{prev}</a>' if k else ""
        if k < last:
            nav += f' <a href="#step-{k + 1}">{nxt}</a>'
        figs.append(
            f'<figure class="tt-step{" last" if k == last else ""}" id="step-{k}"'
            f"{'' if k == last else ' hidden'}>{svg}<figcaption><b>{esc(st.labels[k])}</b>{cap}{nav}</figcaption></figure>"
        )
    return figs


def render_game(
    record: Record,
    report: Any,
    *,
    profile: Any = None,
    number: int | None = None,
    index_href: str | None = None,
    not_verified: str | None = None,
    lang: str | Labels = "fr",
    analysis: dict[str, Any] | None = None,
) -> str:
    """A full HTML5 page for one game (see the module docstring).

    ``report`` is the verifier's ``GameReport`` (``findings``, ``final_score``,
    ``trace``; ``report`` None publishes the record without verification).
    ``profile`` is shown in the header (the rules profile used to verify).
    ``not_verified``: why there is no report (shown instead of the findings).
    """
    return game_page(
        record,
        report,
        profile=profile,
        number=number,
        index_href=index_href,
        not_verified=not_verified,
        lang=lang,
        analysis=analysis,
    ).html


@dataclass(frozen=True, slots=True)
class GamePage:
    """A game's page and its feuille de marque after the heading
    (``sheet.feuille_body``), which the site's page of all sheets reuses."""

    html: str
    sheet: str


def game_page(
    record: Record,
    report: Any,
    *,
    profile: Any = None,
    number: int | None = None,
    index_href: str | None = None,
    not_verified: str | None = None,
    lang: str | Labels = "fr",
    analysis: dict[str, Any] | None = None,
) -> GamePage:
    """:func:`render_game`, keeping the sheet's body for the page of all sheets.
    ``analysis``: the play analysis of the record (``analysis.review.analyse_record``),
    shown by :mod:`.analysis_view`."""
    from .sheet import feuille_body, feuille_head

    if analysis is not None:  # issue 29: the classes' glyphs and best plays in the coups
        from ..analysis.review import annotate_review

        record = annotate_review(record, analysis, labels(lang).lang)
    L = labels(lang)
    names = seat_names(record)
    pair = (names["A"], names["B"])
    title = _title_of(record, L, number)
    findings = list(getattr(report, "findings", ()) or ())
    trace = list(getattr(report, "trace", ()) or ())
    body: list[str] = []
    if index_href:
        href = safe_href(index_href)
        if href:
            body.append(
                f'<nav class="site"><a href="{href}">{esc(L("all_games"))}</a>'
                f'<a href="#feuille-h">{esc(L("sheet_link"))}</a></nav>'
            )
    body.append(_header(record, report, profile, title, pair, L))
    st = _collect_steps(record, trace, findings, L)
    if report is None:
        why = L("not_verified") + (f": {not_verified}" if not_verified else ".")
        body.append(f'<section class="findings-summary"><h2>{esc(L("findings"))}</h2><p>{esc(why)}</p></section>')
    else:
        body.append(_findings_summary(findings, names, st.where, L, getattr(report, "more_findings", None) or {}))
    body.append(_list_section("notes", L("notes"), [n.say(L) for n in getattr(report, "notes", ()) or ()]))
    body.append(_list_section("diagnostics", L("diagnostics"), _diagnostic_lines(report, L)))
    pane, mirror = _board_pane(st, pair, L)
    body.append(f'<div class="layout">{pane}<section class="coups-pane"><h2>{esc(L("coups"))}</h2>')
    body.append(_coups_table(record, findings, trace, st, names, L))
    body.append("</section></div>")
    body.append(_chart_section(st, pair, L))
    if analysis is not None:
        from .analysis_view import analysis_section

        body.append(analysis_section(record, analysis, names, L))
    sheet = feuille_body(record, report, profile, trace, L)
    body.append(feuille_head(L) + sheet)
    body.append(f"<footer><p>{esc(L('footer'))}</p></footer>")
    script = (
        f'<script type="application/json" id="tt-data">{json_for_script({"steps": len(st.boards)})}</script>'
        f"<script>{_SCRIPT_MIN}</script>"
    )
    return GamePage(page(esc(clean(title)), body, L, script=script, mirror=mirror), sheet)


def _diagnostic_lines(report: Any, L: Labels) -> Iterable[str]:
    for d in getattr(report, "diagnostics", ()) or ():
        where, colon = L("line", line=d.span.line, col=d.span.col).strip(" ()"), L("colon")
        yield f"{where}{colon}{L(f'sev.{d.severity}')}{colon}{d.say(L.lang)}"


def _chart_section(st: _Steps, pair: tuple[str, str], L: Labels) -> str:
    """The chart of points and holes, and its legend with the players' names."""
    chart = chart_svg(st.points, st.holes, breaks=st.breaks, id="score-chart", L=L)
    legend = " ".join(
        f'<span class="{s.lower()}">{"—" if s == "A" else "- -"} {s} {esc(pair[i])}</span>' for i, s in enumerate("AB")
    )
    return f'<section class="chart"><h2>{esc(L("chart"))}</h2>{chart}<p class="legend">{legend}</p></section>'


_SCRIPT_MIN = "\n".join(line.strip() for line in SCRIPT.splitlines() if line.strip())


def _findings_summary(
    findings: list[Any], names: dict[str, str], where: dict[int, str], L: Labels, more: dict[str, int]
) -> str:
    out = [f'<section class="findings-summary"><h2>{esc(L("findings"))}</h2>']
    if not findings:
        out.append(f"<p>{esc(L('no_finding'))}</p></section>")
        return "".join(out)
    out.append(f"<p>{esc(L.n('n_findings', len(findings) + sum(more.values())))}</p><ul>")
    for f in findings:
        out.append(f"<li {_finding_data(f)}>")
        idx = getattr(f, "index", -1)
        if idx is not None and idx >= 0:
            out.append(f'<a href="#coup-{idx}">{esc(where.get(idx) or L("coup", n=f.coup))}</a>{esc(L("colon"))}')
        out.append(_finding_html(f, names, L, full=False))
        out.append("</li>")
    for kind, n in sorted(more.items()):  # past the cap: counted, not listed (issue 27 row 2)
        out.append(f'<li class="more">{esc(L.n("more_findings", n, kind=kind))}</li>')
    out.append("</ul></section>")
    return "".join(out)


def _coups_table(
    record: Record, findings: list[Any], trace: list[Any], st: _Steps, names: dict[str, str], L: Labels
) -> str:
    out = ['<table class="coups"><thead><tr>']
    for h in ("col_no", "col_player", "col_dice", "col_play", "col_marks", "col_notes"):
        out.append(f'<th scope="col">{esc(L(h))}</th>')
    out.append("</tr></thead><tbody>")
    rows = _CoupRows(findings, trace, st, names, L)
    for el in record.elements:
        row = visit_element(el, rows)
        if row is not None:
            out.append(row)
    out.append("</tbody></table>")
    return "".join(out)


class _CoupRows(RecordVisitor[str]):
    """The rows of the coups' table: a row per section, remark and coup (with its findings)."""

    def __init__(self, findings: list[Any], trace: list[Any], st: _Steps, names: dict[str, str], L: Labels) -> None:
        self.by_index: dict[int, list[Any]] = {}
        for f in findings:
            idx = getattr(f, "index", -1)
            if idx is not None and idx >= 0:
                self.by_index.setdefault(idx, []).append(f)
        self.trace_by_index = {getattr(t, "index", i): t for i, t in enumerate(trace)}
        self.st, self.names, self.L = st, names, L
        self.ci = -1  # the coup's index in the game

    def visit_releve_start(self, start: ReleveStart) -> str:
        return _section_row(self.L("Releve", n=start.number))

    def visit_marque_start(self, start: MarqueStart) -> str:
        names = self.names
        who = (
            f" ({names.get(start.players[0], start.players[0])} – {names.get(start.players[1], start.players[1])})"
            if start.players
            else ""
        )
        return _section_row(self.L("Marque_n", n=start.number) + who)

    def visit_marque_result(self, result: MarqueResult) -> str:
        return _section_row(marque_result_text(result, self.names, self.L))

    def visit_comment(self, comment: Comment) -> str:
        return f'<tr class="comment-row"><td colspan="6" class="comment">{esc(comment.text)}</td></tr>'

    def visit_coup(self, coup: Coup) -> str:
        self.ci += 1
        ci = self.ci
        return _coup_row(
            coup,
            ci,
            self.by_index.get(ci, ()),
            self.trace_by_index.get(ci),
            self.st.of_coup.get(ci),
            self.names,
            self.L,
            self.st.moves.get(ci),
        )


def _section_row(text: str) -> str:
    return f'<tr class="section"><td colspan="6">{esc(text)}</td></tr>'


def _coup_row(
    coup: Coup,
    ci: int,
    fs: Sequence[Any],
    t: Any,
    step: int | None,
    names: dict[str, str],
    L: Labels,
    play: str | None = None,
) -> str:
    number = esc(coup.number)
    if play is None:
        play = moves_text(coup.moves, L)
    link = (
        f' data-step="{step}"><td><a href="#step-{step}">{number}</a></td>'
        if step is not None
        else f"><td>{number}</td>"
    )
    # the names are in the header
    row = (
        f'<tr class="coup{" has-finding" if fs else ""}" id="coup-{ci}"{link}<td>{esc(coup.side)}</td>'
        f"<td>{coup.roll[0]}-{coup.roll[1]}</td><td>{esc(play)}</td>"
    )
    acts = (*coup.before, *coup.after) if coup.before or coup.after else ()
    events = getattr(t, "events", ()) if t is not None else ()
    if acts or events:  # a row without marks nor notes ends after the play
        row += _marks_cells(coup, acts, events, L)
    if not fs:
        return row + "</tr>"
    return (
        row
        + "</tr>"
        + "".join(
            f'<tr class="finding" {_finding_data(f)}><td colspan="6">{_finding_html(f, names, L)}</td></tr>' for f in fs
        )
    )


def _marks_cells(coup: Coup, acts: Sequence[Any], events: Sequence[Any], L: Labels) -> str:
    """The marks and notes cells of a coup's row: the actions in words, what the
    rules give, the glyphs and remarks."""
    out = ["<td>"]
    words = _ActionWords(L, coup.side)
    notes = _Notes()
    out.append(esc("; ".join(w for a in acts if (w := visit_action(a, words)) is not None)))
    for a in acts:
        visit_action(a, notes)
    if events:
        out.append(
            f'<span class="entitled">{esc(L("rules_events") + ", ".join(_event_text(ev, coup.side, L) for ev in events))}</span>'
        )
    out.append("</td><td>")
    if notes.glyphs:
        out.append(f"<strong>{esc(''.join(notes.glyphs))}</strong> ")
    for text in notes.comments:
        out.append(f'<span class="comment">{esc(text)}</span> ')
    out.append("</td>")
    return "".join(out)


# ----------------------------------------------------------------------------------
# the index and the players' pages


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One line of the index: where the page is and what the game was."""

    href: str
    number: int
    headers: dict[str, str] = field(default_factory=dict)
    coups: int = 0
    findings: int = 0
    result: str = ""
    source: str = ""
    error: str | None = None
    kind: str = ""


def _player_cell(name: str, player_pages: dict[str, str] | None, prefix: str = "") -> str:
    href = (player_pages or {}).get(name)
    return f'<a href="{esc(prefix + href)}">{esc(name)}</a>' if href else esc(name)


def _games_table(
    games: list[GameSummary],
    L: Labels,
    player_pages: dict[str, str] | None,
    prefix: str = "",
    source: bool = True,
    player_prefix: str = "",
) -> str:
    """The games' table; ``prefix`` leads from the page to the site root (game
    pages), ``player_prefix`` to the players' pages."""
    out = ['<table class="index"><thead><tr>']
    cols = ["col_no", "col_date", "col_event", "col_players", "col_kind", "col_result", "col_coups", "col_findings"]
    if source:
        cols.append("col_source")
    for col in cols:
        out.append(f'<th scope="col">{esc(L(col))}</th>')
    out.append("</tr></thead><tbody>")
    for g in games:
        h = g.headers
        out.append('<tr class="has-finding"><td>' if g.findings else "<tr><td>")
        href = safe_href(prefix + g.href) if g.href else None
        out.append(f'<a href="{href}">{g.number}</a>' if href else str(g.number))
        a, b = h.get("A", ""), h.get("B", "")
        players = _player_cell(a, player_pages, player_prefix) + " – " + _player_cell(b, player_pages, player_prefix)
        out.append(
            f"</td><td>{esc(h.get('Date', ''))}</td><td>{esc(h.get('Event', ''))}</td><td>{players}</td>"
            f"<td>{esc(g.kind)}</td><td>{esc(g.error or g.result or h.get('Result', ''))}</td>"
            f"<td>{g.coups}</td><td>{g.findings}</td>"
        )
        if source:
            out.append(f'<td class="mono">{esc(g.source)}</td>')
        out.append("</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def render_index(
    games: Iterable[GameSummary],
    *,
    title: str | None = None,
    club: str | None = None,
    lang: str | Labels = "fr",
    standings_href: str | None = None,
    player_pages: dict[str, str] | None = None,
    sheets_href: str | None = None,
) -> str:
    """The club's front page: its name and title, links to the standings (when the
    site has a page for them) and the players' pages, and a row per game (date,
    event, players, kind of partie, result, coups, findings) linking its page."""
    L = labels(lang)
    title = title or L("site_title")
    games = list(games)
    body = []
    if club:
        body.append(f'<p class="club">{esc(club)}</p>')
    body.append(f"<h1>{esc(title)}</h1>")
    nav = []
    if standings_href and safe_href(standings_href):
        nav.append(f'<a href="{safe_href(standings_href)}">{esc(L("standings"))}</a>')
    if player_pages:
        nav.append(f'<a href="#players">{esc(L("players"))}</a>')
    if sheets_href and safe_href(sheets_href):
        nav.append(f'<a href="{safe_href(sheets_href)}">{esc(L("sheets_link"))}</a>')
    if nav:
        body.append(f'<nav class="site">{"".join(nav)}</nav>')
    body.append(f"<p>{esc(L.n('n_games', len(games)))}</p>")
    body.append(_games_table(games, L, player_pages))
    if player_pages:
        body.append(f'<section id="players"><h2>{esc(L("players"))}</h2><ul>')
        counts: dict[str, int] = {}
        for g in games:
            for k in ("A", "B"):
                n = g.headers.get(k, "")
                if n:
                    counts[n] = counts.get(n, 0) + 1
        for name in sorted(player_pages, key=str.casefold):
            body.append(
                f"<li>{_player_cell(name, player_pages)} ({esc(L.n('n_player_games', counts.get(name, 0)))})</li>"
            )
        body.append("</ul></section>")
    head = esc(clean(f"{club} – {title}")) if club else esc(clean(title))
    return page(head, body, L)


def render_player(
    name: str,
    games: Iterable[GameSummary],
    *,
    lang: str | Labels = "fr",
    club: str | None = None,
    index_href: str = "../index.html",
    player_pages: dict[str, str] | None = None,
) -> str:
    """A player's page: his games, linking to their pages (one directory down)."""
    L = labels(lang)
    games = list(games)
    title = L("player_games", name=name)
    body = [f'<nav><a href="{safe_href(index_href) or ""}">{esc(L("back_index"))}</a></nav>']
    if club:
        body.append(f'<p class="club">{esc(club)}</p>')
    body.append(f"<h1>{esc(title)}</h1><p>{esc(L.n('n_player_games', len(games)))}</p>")
    body.append(_games_table(games, L, player_pages, prefix="../", source=False, player_prefix="../"))
    return page(esc(clean(title)), body, L)
