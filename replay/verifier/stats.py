"""Statistics of a corpus of records: how often each scoring event happens.

Every count is the verdict's (issue 25 §3): each record is verified
(:func:`trictrac.replay.verifier.verify.verify`, with its trace), and the statistics are
counted from that one replay — the same that ``trictrac check`` reports and
``trictrac replay --json`` prints coup by coup:

* each kind of scoring event of RULES.md §4.2 (pleins split by ``remplir`` /
  ``conserver``), as the number of coups where the rules gave it and its share of
  coups (the events of the play as made);
* coups, relevés (and how they ended: a leave or a sortie), coups per relevé,
  relevés per game, marqués;
* the decisions: the coups where the roller's own gains completed a hole with the
  partie open (``could_leave``), how many of those he left and stayed, *je joue pour
  tout*, *je ne marque pas*;
* holes and double holes (*bredouille*, RULES.md §5.2) as the table marked them (a
  double hole counts two holes);
* the ends of the parties: a partie en douze trous won with the pavillon
  (*grande bredouille*, 000 ~l.826-832; RULES.md §8.1) or against a loser without a
  hole; marqués simple / petite / grande bredouille and refaits (RULES.md §8.2);
* the findings, by kind, and how many games and coups have one.

A record the verifier cannot replay at all (no coup judged) goes to ``skipped``.
:class:`CorpusStats` accumulates game by game (the club database's ``db stats``
reuses it); :func:`corpus_stats` is the one-call form.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from ...notation.reader import parse_partie
from ...notation.record import Record
from ...words import Words, words
from ..rules.profiles import Profile

__all__ = ["CorpusStats", "corpus_stats", "EVENT_KINDS", "format_stats", "ECOLE_KINDS"]

EVENT_KINDS = (
    "jan-de-trois-coups",
    "jan-de-deux-tables",
    "contre-jan-de-deux-tables",
    "jan-de-mezeas",
    "contre-jan-de-mezeas",
    "petit-jan:remplir",
    "petit-jan:conserver",
    "grand-jan:remplir",
    "grand-jan:conserver",
    "jan-de-retour:remplir",
    "jan-de-retour:conserver",
    "battre-a-vrai",
    "battre-a-faux",
    "battre-le-coin",
    "impuissance",
    "sortie",
)

#: the findings that are écoles made at the table (RULES.md §7)
ECOLE_KINDS = frozenset(
    {
        "ecole-par-moins",
        "ecole-par-trop",
        "unclaimed-ecole",
        "ecole-claimed-wrongly",
        "ecole-partial",
        "ecole-too-late",
        "ecole-deux-jetons",
        "ecole-plein-not-made",
        "must-fill",
        "must-conserve",
    }
)


class CorpusStats:
    """Counts accumulated over records (see the module docstring)."""

    def __init__(self, profile: Profile | None = None, *, count_findings: bool = True) -> None:
        self.profile = profile
        self.count_findings = count_findings
        self.games_with_findings = 0
        self.coups_with_findings = 0
        self.n_findings = 0
        self.findings_by_kind: Counter[str] = Counter()
        self.games = 0
        self.by_kind: Counter[str] = Counter()
        self.coups = 0
        self.releves = 0
        self.leaves = 0
        self.sorties = 0
        self.could_leave = 0
        self.stayed = 0
        self.holes = 0
        self.double_holes = 0
        self.ne_marque_pas = 0
        self.pour_tout = 0
        self.events: Counter[str] = Counter()  # coups where the event occurred
        self.event_points: Counter[str] = Counter()
        self.douze_trous = Counter[str]()
        self.marques: Counter[str] = Counter()
        self.marque_values: list[int] = []
        self.skipped: list[dict[str, Any]] = []

    def add(self, record: Record, index: int | None = None, report: Any = None) -> bool:
        """Add one record; False (and an entry in ``skipped``) when the verifier could
        judge no coup of it.  ``report``: the verifier's report of the record when the
        caller has it with its trace (else the record is verified here)."""
        idx = index if index is not None else self.games + len(self.skipped)
        if report is None or (report.coups_verified and not report.trace):
            report = self._verify(record)
        if not report.trace:
            self.skipped.append({"game": idx, "reason": "no coup could be judged"})
            return False
        if self.count_findings:
            self._count_findings(report)
        self._add_report(record, report)
        return True

    def _verify(self, record: Record) -> Any:
        from .verify import verify

        return verify(record, self.profile, trace=True, recover=True)

    def _count_findings(self, report: Any) -> None:
        findings = list(report.findings)
        self.n_findings += len(findings)
        self.findings_by_kind.update(f.kind for f in findings)
        self.games_with_findings += bool(findings)
        # a finding's coup: its index in the game, else (marqué, relevé, number); none for
        # a finding about a section or the result
        self.coups_with_findings += len(
            {f.index if f.index >= 0 else (f.marque, f.releve, f.coup) for f in findings if f.index >= 0 or f.coup}
        )

    def _add_report(self, record: Record, report: Any) -> None:
        """Count a game from the verifier's trace: what the table did and what the rules
        gave each coup."""
        self.games += 1
        parsed = parse_partie(record.headers.get("Partie") or "")
        self.by_kind[parsed[0] if parsed else "douze-trous"] += 1
        releves = 0
        for t in report.trace:
            self.coups += 1
            seen: set[str] = set()
            for e in t.events:
                key = f"{e.kind}:{e.how}" if e.how else e.kind
                self.event_points[key] += e.points
                if key not in seen:
                    seen.add(key)
                    self.events[key] += 1
            for _who, n in t.holes:
                self.holes += n
                self.double_holes += n == 2
            self.could_leave += t.could_leave
            self.stayed += t.could_leave and not t.left
            self.ne_marque_pas += t.ne_marque_pas
            self.pour_tout += t.pour_tout
            if t.left:
                self.leaves += 1
            elif t.releve_ended:
                self.sorties += 1
            if t.releve_ended:
                releves += 1
        self.releves += releves + (0 if report.trace[-1].releve_ended else 1)
        self._add_end(report)

    def _add_end(self, report: Any) -> None:
        """How the partie ended (RULES.md §8.1) and its marqués (RULES.md §8.2), as the
        verifier found them."""
        p = report.partie
        if p is not None:
            self.douze_trous["finished"] += 1
            if p.get("pavillon"):
                self.douze_trous["grande-bredouille"] += 1  # 12 holes uninterrupted (000 ~l.826)
            if min(p["holes"]) == 0:
                self.douze_trous["loser-without-hole"] += 1  # 002: quadruple
        for m in report.marques:
            if m.get("refait"):
                self.marques["refait"] += 1
            elif m.get("winner") is not None:
                self.marques[m.get("bredouille") or "none"] += 1
                if m.get("value") is not None:
                    self.marque_values.append(m["value"])

    def as_dict(self) -> dict[str, Any]:
        coups = self.coups or 1
        events = {
            k: {
                "coups": self.events.get(k, 0),
                "per_1000_coups": round(1000 * self.events.get(k, 0) / coups, 2),
                "points": self.event_points.get(k, 0),
            }
            for k in EVENT_KINDS
        }
        for k in sorted(set(self.events) - set(EVENT_KINDS)):
            events[k] = {
                "coups": self.events[k],
                "per_1000_coups": round(1000 * self.events[k] / coups, 2),
                "points": self.event_points[k],
            }
        return {
            "games": self.games,
            "kinds": dict(self.by_kind),
            "coups": self.coups,
            "releves": self.releves,
            "coups_per_releve": round(self.coups / self.releves, 2) if self.releves else 0.0,
            "releves_per_game": round(self.releves / self.games, 2) if self.games else 0.0,
            "coups_per_game": round(self.coups / self.games, 1) if self.games else 0.0,
            "leaves": self.leaves,
            "could_leave": self.could_leave,
            "stayed": self.stayed,
            "sorties": self.sorties,
            "pour_tout": self.pour_tout,
            "holes": self.holes,
            "double_holes": self.double_holes,
            "ne_marque_pas": self.ne_marque_pas,
            "douze_trous": {
                "finished": self.douze_trous.get("finished", 0),
                "grande_bredouille": self.douze_trous.get("grande-bredouille", 0),
                "loser_without_hole": self.douze_trous.get("loser-without-hole", 0),
            },
            "marques": {
                "simple": self.marques.get("none", 0),
                "petite_bredouille": self.marques.get("petite", 0),
                "grande_bredouille": self.marques.get("grande", 0),
                "refait": self.marques.get("refait", 0),
                "average_value": round(sum(self.marque_values) / len(self.marque_values), 2)
                if self.marque_values
                else 0.0,
            },
            "events": events,
            "findings": {
                "counted": self.count_findings,
                "findings": self.n_findings,
                "games_with_findings": self.games_with_findings,
                "coups_with_findings": self.coups_with_findings,
                "by_kind": dict(sorted(self.findings_by_kind.items())),
                "ecoles": sum(n for k, n in self.findings_by_kind.items() if k in ECOLE_KINDS),
            },
            "skipped": self.skipped,
        }


def corpus_stats(
    records: Iterable[Record], profile: Profile | None = None, *, count_findings: bool = True
) -> dict[str, Any]:
    """Statistics of ``records`` (see the module docstring).  ``profile`` None = each
    record's ``Profile`` header (else the default)."""
    acc = CorpusStats(profile, count_findings=count_findings)
    for i, rec in enumerate(records):
        acc.add(rec, i)
    return acc.as_dict()


def format_stats(stats: dict[str, Any], lang: str | Words = "en") -> str:
    """A plain-text table of :func:`corpus_stats` output, in ``lang``."""
    W = words(lang)
    lines = [
        W("stats.games", games=stats["games"], coups=stats["coups"], releves=stats["releves"]),
        W(
            "stats.per",
            per_releve=W.number(str(stats["coups_per_releve"])),
            per_game=W.number(str(stats["releves_per_game"])),
            coups_per_game=W.number(str(stats["coups_per_game"])),
        ),
        W(
            "stats.decisions",
            leaves=stats["leaves"],
            could=stats["could_leave"],
            stayed=stats["stayed"],
            sorties=stats["sorties"],
            pour_tout=stats["pour_tout"],
        ),
        W(
            "stats.holes",
            holes=stats["holes"],
            doubles=stats["double_holes"],
            nmp=stats["ne_marque_pas"],
        ),
    ]
    d = stats["douze_trous"]
    if d["finished"]:
        lines.append(
            W(
                "stats.douze",
                finished=d["finished"],
                grande=d["grande_bredouille"],
                without=d["loser_without_hole"],
            )
        )
    m = stats["marques"]
    if any(m[k] for k in ("simple", "petite_bredouille", "grande_bredouille", "refait")):
        lines.append(
            W(
                "stats.marques",
                simple=m["simple"],
                petite=m["petite_bredouille"],
                grande=m["grande_bredouille"],
                refaits=m["refait"],
                average=W.number(str(m["average_value"])),
            )
        )
    lines.append(
        f"{W('stats.col_event'):<28}{W('stats.col_coups'):>9}{W('stats.col_per'):>10}{W('stats.col_points'):>10}"
    )
    for k, v in stats["events"].items():
        kind, _, how = k.partition(":")
        name = W.get(f"event.{kind}", kind) + (f" ({W(f'how.{how}')})" if how else "")
        lines.append(f"{name:<28}{v['coups']:>9}{W.number(str(v['per_1000_coups'])):>10}{v['points']:>10}")
    f = stats.get("findings") or {}
    if f.get("counted"):
        lines.append(
            W(
                "stats.findings",
                findings=W.n("cli.findings", f["findings"]),
                games=f["games_with_findings"],
                of_games=stats["games"],
                coups=f["coups_with_findings"],
                of_coups=stats["coups"],
                ecoles=f.get("ecoles", 0),
            )
        )
    if stats["skipped"]:
        lines.append(W.n("stats.skipped", len(stats["skipped"])))
    return "\n".join(lines)
