"""Static HTML pages of annotated games, built with lxml (no template engine).

``render_game(record, report, profile=…)`` is a pure function of a record (what was
written, ``notation.record``) and the verifier's report (what the rules say,
``replay.verify.GameReport``).  The page has the header tags, the coups in a table
(roll, moves, marks and decisions, the scoring the rules entitle, comments, and the
findings with their explanation and RULES.md section), a board after every coup
(all pre-rendered; a small script steps through them; without JavaScript the table
and the final board still read), a chart of points and holes, and, for a partie à
écrire, the score sheet *papier et crayon* of the marqués (RULES.md §8.2; 003
§220-229).

Every text from the record goes into element text or attribute values, which lxml
escapes; the script data is JSON in a ``<script type="application/json">`` with
``<``, ``>`` and ``&`` written as ``\\u003c``… so that no ``</script>`` can end it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from lxml import etree

from trictrac.notation.position import START_SPEC, PositionSpec, parse_position
from trictrac.notation.record import (
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
from trictrac.publish.board import BoardScore, board_defs, board_svg
from trictrac.publish.chart import score_chart

__all__ = ["render_game", "render_index", "GameSummary", "moves_text", "is_a_ecrire", "page_text"]

DOCTYPE = "<!DOCTYPE html>"

CSS = """
:root{--ink:#222;--muted:#666;--line:#ddd;--bad:#b3261e;--badbg:#fdecea;--warn:#8a5a00;--warnbg:#fff6e0}
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--ink);max-width:1100px;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.2rem 0}
header dl{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem;margin:.5rem 0}
header dt{font-weight:600}
header dd{margin:0}
.layout{display:flex;flex-wrap:wrap;gap:1.5rem;align-items:flex-start}
.board-pane{flex:0 0 auto;width:min(100%,520px);position:sticky;top:.5rem}
.coups-pane{flex:1 1 420px;min-width:0}
figure{margin:0}
figure svg{width:100%;height:auto;display:block}
figcaption{font-size:.9rem;color:var(--muted);margin:.2rem 0}
.controls{display:flex;gap:.3rem;align-items:center;margin:.4rem 0}
.controls button{font-size:1rem;min-width:2.4rem}
.controls output{margin-left:.5rem;font-size:.9rem}
table{border-collapse:collapse;width:100%;font-size:.92rem}
th,td{border-bottom:1px solid var(--line);padding:.25rem .4rem;text-align:left;vertical-align:top}
thead th{position:sticky;top:0;background:#fff}
tr.coup{cursor:pointer}
tr.coup:hover{background:#f4f4f4}
tr.current{background:#e7f0ff}
tr.section td{background:#f0ebe0;font-weight:600}
tr.has-finding td{background:var(--badbg)}
tr.finding td{background:var(--badbg);color:var(--bad);font-size:.88rem;border-bottom:2px solid var(--bad)}
.finding .kind{font-family:ui-monospace,monospace;font-weight:600}
.rule{color:var(--muted);white-space:nowrap}
.entitled{color:var(--muted);font-size:.85rem;display:block}
.comment{font-style:italic;color:#444}
.findings-summary li{color:var(--bad)}
.diagnostics li{color:var(--warn)}
.sheet td,.sheet th{text-align:center}
.chart svg{width:100%;max-width:760px;height:auto}
.mono{font-family:ui-monospace,monospace}
.bad{color:var(--bad)}
"""

SCRIPT = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("tt-data").textContent);
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
    out.textContent = data.steps[i].label + " (" + (i + 1) + "/" + figs.length + ")";
    document.body.setAttribute("data-step", String(i));
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
  show(cur);
})();
"""

# ----------------------------------------------------------------------------------
# small builders


def _e(parent: etree._Element | None, tag: str, text: str | None = None, **attrs: Any) -> etree._Element:
    a = {k.rstrip("_").replace("_", "-"): str(v) for k, v in attrs.items() if v is not None and v is not False}
    e = etree.Element(tag, a) if parent is None else etree.SubElement(parent, tag, a)
    if text is not None:
        e.text = text
    return e


def _tail(parent: etree._Element, text: str) -> None:
    """Append text after the last child (or as the element's text)."""
    if len(parent):
        last = parent[-1]
        last.tail = (last.tail or "") + text
    else:
        parent.text = (parent.text or "") + text


def page_text(html: etree._Element) -> str:
    """Serialise an ``<html>`` tree as an HTML5 document."""
    return etree.tostring(html, method="html", encoding="unicode", doctype=DOCTYPE) + "\n"


def _json_for_script(data: Any) -> str:
    return (json.dumps(data, ensure_ascii=False, separators=(",", ":"))
            .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _page(title: str) -> tuple[etree._Element, etree._Element]:
    html = _e(None, "html", lang="en")
    head = _e(html, "head")
    _e(head, "meta", charset="utf-8")
    _e(head, "meta", name="viewport", content="width=device-width, initial-scale=1")
    _e(head, "meta", name="generator", content="trictrac publish")
    _e(head, "title", title)
    _e(head, "style", CSS)
    body = _e(html, "body")
    return html, body


# ----------------------------------------------------------------------------------
# record text


def moves_text(moves: Sequence[Move | CannotPlay]) -> str:
    """Moves as written: ``1/7 1/6``, ``19/off``, ``(5 cannot be played)``; ``-`` for none."""
    parts = []
    for m in moves:
        if isinstance(m, Move):
            parts.append(f"{m.from_}/{'off' if m.to == OFF else m.to}")
        else:
            parts.append(f"({m.number} cannot be played)")
    return " ".join(parts) or "-"


def replay_of(coup: Coup) -> Replay | None:
    """The replay the game goes on from when the throw was played again (a table
    remedy, RULES.md §9.5: the last one written), else None."""
    for a in reversed(coup.after):
        if isinstance(a, Replay):
            return a
    return None


def _action_text(a: Any, names: dict[str, str], side: str | None = None) -> str:
    """An action in plain words; ``side`` is the coup's roller (a replay by him is his
    own correction, by anybody else the remedy the opponent imposed: RULES.md §9.5;
    003 §192, §211, §216)."""
    def who(x: str) -> str:
        return x

    if isinstance(a, Mark):
        s = f"{who(a.who)} marks {a.points}"
        if a.bredouille:
            s += " in bredouille (two jetons)"
        elif a.bredouille is False:
            s += " (one jeton)"
        if a.holes:
            s += f", {a.holes} hole{'s' if a.holes != 1 else ''}"
        return s
    if isinstance(a, NeMarquePas):
        return f"{who(a.who)}: « je ne marque pas »"
    if isinstance(a, Decision):
        return f"{who(a.who)}: « je m'en vais »" if a.leave else f"{who(a.who)}: « je reste »"
    if isinstance(a, Ecole):
        s = f"{who(a.claimant)} claims an école of {a.points}"
        return s + (f" ({a.reason})" if a.reason else "")
    if isinstance(a, Correction):
        bits = []
        if a.points:
            bits.append(f"{a.points:+d} points")
        if a.holes:
            bits.append(f"{a.holes:+d} holes")
        s = f"correction for {who(a.who)}: {', '.join(bits) or 'none'}"
        return s + (f" ({a.reason})" if a.reason else "")
    if isinstance(a, JouePourTout):
        return f"{who(a.who)}: « je joue pour tout »"
    if isinstance(a, Pavillon):  # prendre le pavillon (RULES.md §5.4)
        return f"{who(a.who)} takes the pavillon"
    if isinstance(a, Replay):
        moves = moves_text(a.moves) if a.moves else "no checker moved"
        if a.who == side:
            return f"{who(a.who)} replays his throw: {moves}"
        return f"{who(a.who)} has the throw played again: {moves}"
    return str(a)


def _partie(record: Record) -> tuple[str, int | None] | None:
    from trictrac.notation.reader import parse_partie

    return parse_partie(record.headers.get("Partie", ""))


def is_a_ecrire(record: Record) -> bool:
    """A partie à écrire: marqué sections in the record, or a Partie tag saying so."""
    if any(isinstance(e, (MarqueStart, MarqueResult)) for e in record.elements):
        return True
    p = _partie(record)
    return p is not None and p[0] == "a-ecrire"


# ----------------------------------------------------------------------------------
# the report, read through its contract (replay.verify.GameReport)


def _score_of(obj: Any) -> BoardScore | None:
    if obj is None:
        return None
    try:
        return BoardScore.of(obj)
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


def _event_text(ev: Any, side: str) -> str:
    kind = getattr(ev, "kind", None) or (ev.get("kind") if isinstance(ev, dict) else str(ev))
    pts = getattr(ev, "points", None) if not isinstance(ev, dict) else ev.get("points")
    evside = getattr(ev, "side", None) if not isinstance(ev, dict) else ev.get("side")
    who = side if evside in (None, "mover") else ("B" if side == "A" else "A") if evside == "other" else evside
    how = getattr(ev, "how", None) if not isinstance(ev, dict) else ev.get("how")
    s = f"{kind}"
    if how:
        s += f" ({how})"
    if pts is not None:
        s += f" {pts} → {who}"
    return s


def _finding_text(f: Any) -> str:
    s = f.message
    if getattr(f, "entitled", None) is not None or getattr(f, "marked", None) is not None:
        s += f" — entitled {f.entitled if f.entitled is not None else '–'}, marked {f.marked if f.marked is not None else '–'}"
    return s


def _append_finding(parent: etree._Element, f: Any, names: dict[str, str]) -> None:
    _e(parent, "span", f.kind, class_="kind")
    who = getattr(f, "who", None)
    if who:
        _tail(parent, f" ({who}{' ' + names[who] if names.get(who) and names[who] != who else ''})")
    _tail(parent, ": " + _finding_text(f))
    if getattr(f, "consequence", ""):
        _tail(parent, f". Consequence: {f.consequence}")
    alts = getattr(f, "alternatives", ()) or ()
    if alts:
        _tail(parent, ". Legal plays: " + ", ".join(alts[:8]) + (" …" if len(alts) > 8 else ""))
    _tail(parent, " ")
    _e(parent, "span", f"RULES.md {f.rule}" if f.rule else "", class_="rule")
    if getattr(f, "line", 0):
        _tail(parent, f" (line {f.line}:{f.col})")


# ----------------------------------------------------------------------------------
# the game page


def _names(record: Record) -> dict[str, str]:
    return {s: record.headers.get(s, "") or s for s in ("A", "B", "C", "D")}


def _title_of(record: Record, number: int | None = None) -> str:
    h = record.headers
    a, b = h.get("A") or "A", h.get("B") or "B"
    t = f"{a} – {b}"
    if h.get("Event"):
        t += f", {h['Event']}"
    if h.get("Date"):
        t += f", {h['Date']}"
    return (f"Game {number}: " if number else "") + t


def render_game(record: Record, report: Any, *, profile: Any = None, number: int | None = None,
                index_href: str | None = None, not_verified: str | None = None) -> str:
    """A full HTML5 page for one game (see the module docstring).

    ``report`` is the verifier's ``GameReport`` (``findings``, ``final_score``,
    ``trace``; ``report`` None publishes the record without verification).
    ``profile`` is shown in the header (the rules profile used to verify).
    ``not_verified``: why there is no report (shown instead of the findings).
    """
    return page_text(game_page(record, report, profile=profile, number=number, index_href=index_href,
                               not_verified=not_verified))


@dataclass(slots=True)
class _Steps:
    """The boards of a page: the start and the position after every traced coup."""

    labels: list[str]
    boards: list[tuple[Any, BoardScore, Any]]  # (position, score at the table, last move)
    notes: dict[int, str]  # step -> where the entitled and standing scores part
    of_coup: dict[int, int]  # coup index -> step
    points: dict[str, list[int]]
    holes: dict[str, list[int]]
    breaks: list[tuple[int, str]]  # (step, "R2" / "M2") new relevé / marqué


def _collect_steps(record: Record, trace: list[Any], findings: list[Any]) -> _Steps:
    coups = record.coups
    start, start_score = _start_spec(record, coups[0].side if coups else "A")
    st = _Steps(["Start"], [(start, start_score, None)], {}, {},
                {"A": [start_score.points[0]], "B": [start_score.points[1]]},
                {"A": [start_score.holes[0]], "B": [start_score.holes[1]]}, [])
    finding_coups = {f.index for f in findings}
    # a replay that cannot be played leaves the written play standing (RULES.md §9.5)
    replay_refused = {f.index for f in findings
                      if f.kind == "remedy-not-allowed" and getattr(f, "detail", None) == "not-executable"}
    was_diverged = False
    prev_key: tuple[int, int] | None = None
    last_score = start_score
    for t in trace:
        idx = t.index
        coup = coups[idx] if 0 <= idx < len(coups) else None
        pos = _spec_of(t.position_after)
        sc = _score_of(t.score_standing) or last_score
        last_score = sc
        key = (t.marque or 0, t.releve or 0)
        if prev_key is not None and key != prev_key:
            st.breaks.append((len(st.boards) - 1, f"M{key[0]}" if key[0] != prev_key[0] else f"R{key[1]}"))
        prev_key = key
        lm = None
        replay = replay_of(coup) if coup is not None and coup.after else None
        if coup is not None and pos is not None and not getattr(t, "releve_ended", False) and not _all_on_talons(pos):
            # the play the board shows: the replay's, unless it could not be played
            shown = coup.moves if replay is None or idx in replay_refused else replay.moves
            mv = tuple((m.from_, m.to) for m in shown
                       if isinstance(m, Move) and 1 <= m.from_ <= 24 and 1 <= m.to <= 25)
            lm = (coup.side, mv) if mv and coup.side in ("A", "B") else None
        st.of_coup[idx] = len(st.boards)
        label = f"Coup {t.coup_number}, {t.side} {t.roll[0]}-{t.roll[1]}"
        if coup is not None:
            label += f": {moves_text(coup.moves)}"
            if replay is not None:
                label += f", played again: {moves_text(replay.moves)}"
                if idx in replay_refused:
                    label += " (cannot be played: the written play stands)"
        st.labels.append(label)
        # the two ledgers part at a mistake that stands (RULES.md §7.3): say so where
        # they part and at each finding, not on every later board
        ent = _score_of(t.score_entitled)
        diverged = ent is not None and ent != sc
        if diverged and ent is not None and (not was_diverged or idx in finding_coups):
            st.notes[len(st.boards)] = "; the rules entitle " + "; ".join(
                f"{s} {ent.holes[k]} holes {ent.points[k]} points" for k, s in enumerate("AB"))
        was_diverged = diverged
        st.boards.append((pos if pos is not None else st.boards[-1][0], sc, lm))
        for k, s in enumerate("AB"):
            st.points[s].append(sc.points[k])
            st.holes[s].append(sc.holes[k])
    return st


def _header(body: etree._Element, record: Record, report: Any, profile: Any, title: str,
            pair: tuple[str, str]) -> None:
    header = _e(body, "header")
    _e(header, "h1", title)
    dl = _e(header, "dl", class_="tags")
    for k, v in record.headers.items():
        _e(dl, "dt", k)
        _e(dl, "dd", v)
    pname = getattr(report, "profile_name", None) or getattr(profile, "name", None)
    if pname:
        _e(dl, "dt", "Verified with")
        _e(dl, "dd", f"profile {pname}")
    final = _score_of(getattr(report, "final_score", None))
    if final is not None:
        _e(dl, "dt", "Final score (verifier)")
        _e(dl, "dd", "; ".join(
            f"{s} {pair[i]}: {final.holes[i]} holes{' (pavillon)' if final.pavillon[i] else ''}, "
            f"{final.points[i]} points" for i, s in enumerate("AB")))


def _list_section(body: etree._Element, cls: str, heading: str, items: Iterable[str]) -> None:
    items = list(items)
    if items:
        sec = _e(body, "section", class_=cls)
        _e(sec, "h2", heading)
        ul = _e(sec, "ul")
        for text in items:
            _e(ul, "li", text)


def _board_pane(layout: etree._Element, st: _Steps, pair: tuple[str, str]) -> None:
    pane = _e(layout, "section", class_="board-pane", aria_label="Board")
    _e(pane, "h2", "Board")
    controls = _e(pane, "div", id="tt-controls", class_="controls", hidden="hidden")  # shown by the script
    for bid, text, lab in (("tt-first", "«", "First position"), ("tt-prev", "◀", "Previous coup"),
                           ("tt-next", "▶", "Next coup"), ("tt-last", "»", "Last position")):
        _e(controls, "button", text, type="button", id=bid, title=lab, aria_label=lab)
    _e(controls, "output", id="tt-where", aria_live="polite")
    pane.append(board_defs())
    last = len(st.boards) - 1
    for k, (pos, sc, lm) in enumerate(st.boards):
        # without JavaScript only the final board shows
        fig = _e(pane, "figure", class_="tt-step", id=f"step-{k}", hidden=None if k == last else "hidden")
        fig.append(board_svg(pos, sc, last_move=lm, names=pair, defs=False, id=f"board-{k}"))
        cap = ("After " + st.labels[k].replace("Coup", "coup", 1)) if k else st.labels[k]
        if k in st.notes:
            cap += ". Score as it stood at the table" + st.notes[k]
        _e(fig, "figcaption", cap)


def game_page(record: Record, report: Any, *, profile: Any = None, number: int | None = None,
              index_href: str | None = None, not_verified: str | None = None) -> etree._Element:
    """The ``<html>`` element of :func:`render_game`."""
    names = _names(record)
    pair = (names["A"], names["B"])
    title = _title_of(record, number)
    html, body = _page(title)
    findings = list(getattr(report, "findings", ()) or ())
    trace = list(getattr(report, "trace", ()) or ())
    if index_href:
        _e(_e(body, "nav"), "a", "← all games", href=index_href)
    _header(body, record, report, profile, title, pair)
    if report is None:
        sec = _e(body, "section", class_="findings-summary")
        _e(sec, "h2", "Findings")
        _e(sec, "p", "This game was not verified" + (f": {not_verified}" if not_verified else "."))
    else:
        _findings_summary(body, findings, names)
    _list_section(body, "notes", "Assumptions of the verifier", getattr(report, "notes", ()) or ())
    _list_section(body, "diagnostics", "Reading the record",
                  (f"line {d.span.line}:{d.span.col}: {d.code}: {d.message}"
                   for d in (getattr(report, "diagnostics", ()) or ())))

    st = _collect_steps(record, trace, findings)
    layout = _e(body, "div", class_="layout")
    _board_pane(layout, st, pair)
    cp = _e(layout, "section", class_="coups-pane")
    _e(cp, "h2", "Coups")
    _coups_table(cp, record, findings, trace, st.of_coup, names)

    chart_sec = _e(body, "section", class_="chart")
    _e(chart_sec, "h2", "Points and holes")
    chart_sec.append(score_chart(st.points, st.holes, names=pair, breaks=st.breaks, id="score-chart"))
    if is_a_ecrire(record):
        _score_sheet(body, record, report, profile, names)

    footer = _e(body, "footer")
    _e(footer, "p", "Rules cited to RULES.md, which cites the treatises (Lelasseux-Lafosse 1852, "
                    "Lepeintre 1818, Lebrun 1828). Generated by trictrac publish.")
    steps = [{"label": lab} for lab in st.labels]
    _e(body, "script", _json_for_script({"steps": steps}), type="application/json", id="tt-data")
    _e(body, "script", SCRIPT)
    return html


def _findings_summary(body: etree._Element, findings: list[Any], names: dict[str, str]) -> None:
    sec = _e(body, "section", class_="findings-summary")
    _e(sec, "h2", "Findings")
    if not findings:
        _e(sec, "p", "The record follows the rules: no finding.")
        return
    _e(sec, "p", f"{len(findings)} finding{'s' if len(findings) != 1 else ''}:")
    ul = _e(sec, "ul")
    for f in findings:
        li = _e(ul, "li")
        idx = getattr(f, "index", -1)
        if idx is not None and idx >= 0:
            _e(li, "a", f"coup {f.coup}", href=f"#coup-{idx}")
            _tail(li, ": ")
        _append_finding(li, f, names)


def _coups_table(parent: etree._Element, record: Record, findings: list[Any], trace: list[Any],
                 step_of_coup: dict[int, int], names: dict[str, str]) -> None:
    by_index: dict[int, list[Any]] = {}
    for f in findings:
        idx = getattr(f, "index", -1)
        if idx is not None and idx >= 0:
            by_index.setdefault(idx, []).append(f)
    trace_by_index = {getattr(t, "index", i): t for i, t in enumerate(trace)}
    table = _e(parent, "table", class_="coups")
    thead = _e(table, "thead")
    tr = _e(thead, "tr")
    for h in ("#", "Player", "Roll", "Moves", "Marks and decisions", "Notes"):
        _e(tr, "th", h, scope="col")
    tbody = _e(table, "tbody")
    ci = -1
    for el in record.elements:
        if isinstance(el, ReleveStart):
            _section_row(tbody, f"Relevé {el.number}")
        elif isinstance(el, MarqueStart):
            who = f" ({names.get(el.players[0], el.players[0])} – {names.get(el.players[1], el.players[1])})" if el.players else ""
            _section_row(tbody, f"Marqué {el.number}{who}")
        elif isinstance(el, MarqueResult):
            _section_row(tbody, _marque_result_text(el, names))
        elif isinstance(el, Comment):
            row = _e(tbody, "tr", class_="comment-row")
            _e(row, "td", el.text, colspan=6, class_="comment")
        elif isinstance(el, Coup):
            ci += 1
            _coup_row(tbody, el, ci, by_index.get(ci, []), trace_by_index.get(ci), step_of_coup.get(ci), names)


def _section_row(tbody: etree._Element, text: str) -> None:
    row = _e(tbody, "tr", class_="section")
    _e(row, "td", text, colspan=6)


def _marque_result_text(r: MarqueResult, names: dict[str, str]) -> str:
    if r.refait or r.winner is None:
        return f"Refait: {r.winner_holes}–{r.loser_holes} holes, the marqué is void"
    s = f"Marqué won by {r.winner} {names.get(r.winner, '')}".rstrip() + f", {r.winner_holes}–{r.loser_holes} holes"
    if r.bredouille != "none":
        s += f", {r.bredouille} bredouille"
    if r.value is not None:
        s += f", value {r.value}"
    return s


def _coup_row(tbody: etree._Element, coup: Coup, ci: int, fs: list[Any], t: Any, step: int | None,
              names: dict[str, str]) -> None:
    cls = "coup" + (" has-finding" if fs else "")
    row = _e(tbody, "tr", class_=cls, id=f"coup-{ci}", data_step=step)
    _e(row, "td", str(coup.number))
    who = names.get(coup.side, coup.side)
    _e(row, "td", coup.side, title=None if who == coup.side else who)
    _e(row, "td", f"{coup.roll[0]}-{coup.roll[1]}", class_="mono")
    _e(row, "td", moves_text(coup.moves), class_="mono")
    marks = _e(row, "td")
    texts = [_action_text(a, names, coup.side) for a in (*coup.before, *coup.after)
             if not isinstance(a, (Comment, Glyph))]
    _tail(marks, "; ".join(texts))
    events = getattr(t, "events", ()) if t is not None else ()
    if events:
        _e(marks, "span", "rules: " + ", ".join(_event_text(ev, coup.side) for ev in events), class_="entitled")
    notes = _e(row, "td")
    glyphs = "".join(a.glyph for a in (*coup.before, *coup.after) if isinstance(a, Glyph))
    if glyphs:
        _e(notes, "strong", glyphs)
        _tail(notes, " ")
    for a in (*coup.before, *coup.after):
        if isinstance(a, Comment):
            _e(notes, "span", a.text, class_="comment")
            _tail(notes, " ")
    for f in fs:
        fr = _e(tbody, "tr", class_="finding")
        td = _e(fr, "td", colspan=6)
        _append_finding(td, f, names)


def _agreed_marques(record: Record, decided: int) -> int:
    """The number of marqués agreed (``Partie`` tag ``a-ecrire 4``), else the
    decided ones rounded up to an even number (003 §220: always even)."""
    p = _partie(record)
    if p is not None and p[1]:
        return p[1]
    return max(2, decided + decided % 2)


def _score_sheet(body: etree._Element, record: Record, report: Any, profile: Any, names: dict[str, str]) -> None:
    """The *papier et crayon* of a partie à écrire (RULES.md §8.2; 003 §220-233):
    under each player's name the values of the marqués he lost, the postillons added
    to his account, the column sums and the difference (tens are fiches).  Values and
    the settlement come from ``replay.partie.settle_partie`` (never computed here)."""
    from trictrac.replay.partie import MarqueLine, PartieSpec, settle_partie
    from trictrac.replay.profiles import DEFAULT_PROFILE

    results = [e for e in record.elements if isinstance(e, MarqueResult)]
    sec = _e(body, "section", class_="sheet")
    _e(sec, "h2", "Score sheet (papier et crayon)")
    if not results:
        _e(sec, "p", "No marqué result is written in the record.")
        return
    seats = {x for e in record.elements if isinstance(e, MarqueStart) and e.players for x in e.players}
    seats |= {r.winner for r in results if r.winner}
    if not seats <= {"A", "B"}:  # à quatre, chouette, à tourner: accounts are not one per seat
        _e(sec, "p", "Marqués as written (the accounts of a partie of three or four are settled by "
                     "trictrac score):")
        ul = _e(sec, "ul")
        for r in results:
            _e(ul, "li", _marque_result_text(r, names))
        return
    lines = []
    for r in results:
        if r.refait or r.winner is None:
            lines.append(MarqueLine(None, refait_holes=r.winner_holes))
        else:
            loser = "B" if r.winner == "A" else "A"
            lines.append(MarqueLine(r.winner, (r.winner_holes, r.loser_holes), pavillon=r.bredouille != "none",
                                    loser=loser))
    decided = sum(1 for r in results if not r.refait and r.winner)
    prof = profile if hasattr(profile, "marque_end_holes") else DEFAULT_PROFILE
    try:
        st = settle_partie(PartieSpec("ecrire", ("A", "B"), marques=_agreed_marques(record, decided)), lines,
                           prof, method="papier")
    except ValueError as e:  # a result the rules do not allow: say so, show the lines
        _e(sec, "p", f"The marqué results cannot be settled: {e}")
        ul = _e(sec, "ul")
        for r in results:
            _e(ul, "li", _marque_result_text(r, names))
        return
    table = _e(sec, "table", class_="sheet")
    _e(table, "caption", "Marqués (values in jetons; 003 §222-226)")
    tr = _e(_e(table, "thead"), "tr")
    for h in ("Marqué", "Winner", "Holes", "Bredouille", "Value", "Written"):
        _e(tr, "th", h, scope="col")
    tbody = _e(table, "tbody")
    for d, r in zip(st.detail, results):
        row = _e(tbody, "tr")
        _e(row, "td", str(d.get("n", "")))
        if d.get("refait"):
            _e(row, "td", "refait")
            _e(row, "td", f"{d.get('holes')}–{d.get('holes')}")
            _e(row, "td", "–")
            _e(row, "td", "void")
        else:
            w = d.get("winner", "")
            _e(row, "td", f"{w} {names.get(w, '')}".strip())
            h = d.get("holes") or ("", "")
            _e(row, "td", f"{h[0]}–{h[1]}")
            _e(row, "td", r.bredouille if r.bredouille != "none" else "–")
            _e(row, "td", f"{d.get('formula', d.get('value', ''))}", class_="mono")
        written = "" if r.value is None else str(r.value)
        ok = r.value is None or d.get("refait") or r.value == d.get("value")
        _e(row, "td", written + ("" if ok else " (≠ rules)"), class_=None if ok else "bad")

    paper = _e(sec, "table", class_="sheet paper")
    _e(paper, "caption", "Papier et crayon: under each name the marqués he lost (003 §233)")
    tr = _e(_e(paper, "thead"), "tr")
    _e(tr, "th", "")
    for p in ("A", "B"):
        _e(tr, "th", f"{p} {names.get(p, '')}".strip(), scope="col")
    tb = _e(paper, "tbody")
    lost = st.lost
    for k in range(max((len(v) for v in lost.values()), default=0)):
        row = _e(tb, "tr")
        _e(row, "th", f"marqué lost {k + 1}", scope="row")
        for p in ("A", "B"):
            v = lost.get(p, [])
            _e(row, "td", str(v[k]) if k < len(v) else "")
    post = {p: sum(x["jetons"] for x in st.postillons if x.get("payer") == p) for p in ("A", "B")}
    row = _e(tb, "tr")
    _e(row, "th", "postillons", scope="row")
    for p in ("A", "B"):
        _e(row, "td", str(post[p]) if post[p] else "")
    foot = _e(paper, "tfoot")
    row = _e(foot, "tr")
    _e(row, "th", "sum", scope="row")
    for p in ("A", "B"):
        _e(row, "td", str(sum(lost.get(p, [])) + post[p]))
    net = st.methods.get("papier", {}).get("net", {})
    fiches = st.methods.get("papier", {}).get("fiches", {})
    row = _e(foot, "tr")
    _e(row, "th", "result", scope="row")
    for p in ("A", "B"):
        n = net.get(p)
        _e(row, "td", "" if n is None else f"{n:+d} jetons ({fiches.get(p, 0):+d} fiches)")
    if not st.complete:
        _e(sec, "p", "The partie is not complete: no postillons nor queue yet.")


# ----------------------------------------------------------------------------------
# the index


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


def render_index(games: Iterable[GameSummary], *, title: str = "Trictrac games") -> str:
    """The index page: one table row per game with a link to its page."""
    html, body = _page(title)
    _e(body, "h1", title)
    games = list(games)
    _e(body, "p", f"{len(games)} game{'s' if len(games) != 1 else ''}.")
    table = _e(body, "table", class_="index")
    tr = _e(_e(table, "thead"), "tr")
    for h in ("#", "Date", "Event", "A", "B", "Result", "Coups", "Findings", "Source"):
        _e(tr, "th", h, scope="col")
    tbody = _e(table, "tbody")
    for g in games:
        row = _e(tbody, "tr", class_="has-finding" if g.findings else None)
        td = _e(row, "td")
        if g.href:
            _e(td, "a", str(g.number), href=g.href)
        else:
            td.text = str(g.number)
        for k in ("Date", "Event", "A", "B"):
            _e(row, "td", g.headers.get(k, ""))
        _e(row, "td", g.error or g.result or g.headers.get("Result", ""))
        _e(row, "td", str(g.coups))
        _e(row, "td", str(g.findings))
        _e(row, "td", g.source, class_="mono")
    return page_text(html)
