"""Statistics of a corpus of records: how often each scoring event happens.

:func:`corpus_stats` replays each record through the game flow
(:func:`trictrac.replay.game.replay_record`, perfect marking) and counts:

* each kind of scoring event of RULES.md §4.2 (pleins split by ``remplir`` /
  ``conserver``), as the number of coups where it occurred and its share of coups;
* coups, relevés (and how they ended: a leave or a sortie), coups per relevé,
  relevés per game, marqués;
* holes, double holes (*bredouille*, RULES.md §5.2), *je ne marque pas*;
* the ends of the parties: a partie en douze trous won with the pavillon
  (*grande bredouille*, 000 ~l.826-832; RULES.md §8.1) or against a loser without a
  hole; marqués simple / petite / grande bredouille and refaits (RULES.md §8.2).

Every game counts (issue 15: a club archive where nearly every game has a mistake must
not give zeros).  A record that perfect play can follow to its end is counted from
that replay.  One that it cannot (an illegal move, a leave without the right: a table
mistake) is counted from the verifier's trace (:func:`trictrac.replay.verify.verify`),
which judges every coup it can: the coups, relevés, leaves, sorties, holes and the
scoring events each coup was entitled to; such games are listed in ``judged_by_verifier``
with the reason perfect play stopped.  Only a record the verifier cannot replay either
(it stopped at once: no coup judged) goes to ``skipped``.  When ``count_findings`` is on,
every game is also verified and ``findings`` says how many games and coups had findings.

:class:`CorpusStats` accumulates game by game (the club database's ``db stats``
reuses it); :func:`corpus_stats` is the one-call form.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..notation.reader import parse_partie
from ..notation.record import Record
from .game import CoupOutcome, Game, GameFlowError, MarqueOutcome, replay_record
from .profiles import Profile

__all__ = ["CorpusStats", "corpus_stats", "EVENT_KINDS", "format_stats"]

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


@dataclass
class _PerfectGame:
    """One game's counts from its perfect replay, coup by coup (internal): added to the
    corpus only once the replay has reached the record's end."""

    coups: int = 0
    releves: int = 0
    events: Counter[str] = field(default_factory=Counter)  # coups where the event occurred
    points: Counter[str] = field(default_factory=Counter)
    leaves: int = 0
    sorties: int = 0
    could_leave: int = 0
    stayed: int = 0
    holes: int = 0
    double_holes: int = 0
    ne_marque_pas: int = 0
    pour_tout: int = 0
    marques: list[MarqueOutcome] = field(default_factory=list)

    def count(self, out: CoupOutcome) -> None:
        """Count one coup as the flow played it."""
        self.coups += 1
        seen: set[str] = set()
        for e in out.score.events:
            key = f"{e.kind}:{e.how}" if e.how else e.kind
            self.points[key] += e.points
            if key not in seen:
                seen.add(key)
                self.events[key] += 1
        self.holes += out.holes + out.other_holes
        self.double_holes += sum(out.double) + sum(out.other_double)
        self.ne_marque_pas += out.ne_marque_pas
        self.could_leave += out.could_leave
        self.stayed += out.could_leave and not out.left
        self.pour_tout += out.pour_tout
        if out.left:
            self.leaves += 1
        if out.sortie:
            self.sorties += 1
        if out.releve_ended or out.game_over:
            self.releves += 1
        if out.marque_ended is not None:
            self.marques.append(out.marque_ended)


class CorpusStats:
    """Counts accumulated over records (see the module docstring)."""

    def __init__(self, profile: Profile | None = None, *, count_findings: bool = True) -> None:
        self.profile = profile
        self.count_findings = count_findings
        self.games_with_findings = 0
        self.coups_with_findings = 0
        self.n_findings = 0
        self.judged_by_verifier: list[dict[str, Any]] = []
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
        """Add one record; False (and an entry in ``skipped``) when neither perfect play
        nor the verifier could judge any coup of it.  ``report``: the verifier's report of
        the record when the caller has it (with its trace, or the findings only)."""
        idx = index if index is not None else self.games + len(self.skipped)
        if self.count_findings or report is not None:
            report = report if report is not None else self._verify(record, trace=False)
            self._count_findings(report)
        try:
            return self._add_perfect(record)
        except GameFlowError as e:
            trace_report = report if report is not None and report.trace else self._verify(record, trace=True)
            if not trace_report.trace:
                self.skipped.append({"game": idx, "reason": str(e)})
                return False
            self._add_trace(record, trace_report)
            self.judged_by_verifier.append({"game": idx, "reason": str(e), "coups": len(trace_report.trace)})
            return True

    def _verify(self, record: Record, *, trace: bool) -> Any:
        from .verify import verify

        return verify(record, self.profile, trace=trace, recover=True)  # as `check` (issue 25 §2)

    def _count_findings(self, report: Any) -> None:
        findings = list(report.findings)
        self.n_findings += len(findings)
        self.games_with_findings += bool(findings)
        # a finding's coup: its index in the game, else (marqué, relevé, number); none for
        # a finding about a section or the result
        self.coups_with_findings += len(
            {f.index if f.index >= 0 else (f.marque, f.releve, f.coup) for f in findings if f.index >= 0 or f.coup}
        )

    def _add_trace(self, record: Record, report: Any) -> None:
        """Count a game from the verifier's trace: what the rules entitled each coup to."""
        self.games += 1
        parsed = parse_partie(record.headers.get("Partie") or "")
        self.by_kind[parsed[0] if parsed else "douze-trous"] += 1
        prev: tuple[int, int] | None = None
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
            now = (t.score_entitled["A"].holes, t.score_entitled["B"].holes)
            if prev is not None:
                # a new marqué starts the holes again: what is there now was won since
                self.holes += sum(n - p if n >= p else n for n, p in zip(now, prev))
            else:
                self.holes += sum(now)
            prev = now
            if t.left:
                self.leaves += 1
            elif t.releve_ended:
                self.sorties += 1
            if t.releve_ended:
                releves += 1
        last = report.trace[-1]
        self.releves += releves + (0 if last.releve_ended else 1)

    def _add_perfect(self, record: Record) -> bool:
        """Count a game from its perfect replay; a :class:`GameFlowError` part-way adds
        nothing (the caller then counts it from the verifier's trace)."""
        counts = _PerfectGame()
        game = None
        for _coup, out, now in replay_record(record, self.profile):
            game = now  # the last one is read after the loop
            counts.count(out)
        if game is None:
            return True
        if not game.finished:
            counts.releves += 1  # the relevé in progress when the record stops
        self.games += 1
        parsed = parse_partie(record.headers.get("Partie") or "")
        self.by_kind[parsed[0] if parsed else game.kind] += 1
        self._add_counts(counts)
        self._add_end(game, counts.marques)
        return True

    def _add_counts(self, counts: _PerfectGame) -> None:
        self.coups += counts.coups
        self.releves += counts.releves
        self.leaves += counts.leaves
        self.sorties += counts.sorties
        self.could_leave += counts.could_leave
        self.stayed += counts.stayed
        self.holes += counts.holes
        self.double_holes += counts.double_holes
        self.ne_marque_pas += counts.ne_marque_pas
        self.pour_tout += counts.pour_tout
        self.events.update(counts.events)
        self.event_points.update(counts.points)

    def _add_end(self, game: Game, marques: list[MarqueOutcome]) -> None:
        """How the partie ended (RULES.md §8.1) and its marqués (RULES.md §8.2)."""
        if game.kind == "douze-trous" and game.finished and game.winner:
            st = game.score
            w, l = st[game.winner], st["B" if game.winner == "A" else "A"]
            self.douze_trous["finished"] += 1
            if w.pavillon:
                self.douze_trous["grande-bredouille"] += 1  # 12 holes uninterrupted (000 ~l.826)
            if l.holes == 0:
                self.douze_trous["loser-without-hole"] += 1  # 002: quadruple
        for m in marques:
            if m.refait:
                self.marques["refait"] += 1
            else:
                self.marques[m.bredouille] += 1
                if m.value is not None:
                    self.marque_values.append(m.value)

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
            },
            "judged_by_verifier": self.judged_by_verifier,
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


def format_stats(stats: dict[str, Any]) -> str:
    """A plain-text table of :func:`corpus_stats` output."""
    lines = [
        f"games {stats['games']}  coups {stats['coups']}  relevés {stats['releves']}",
        f"coups per relevé {stats['coups_per_releve']}  relevés per game {stats['releves_per_game']}  "
        f"coups per game {stats['coups_per_game']}",
        f"leaves {stats['leaves']} (could leave {stats['could_leave']}, stayed {stats['stayed']})  "
        f"sorties {stats['sorties']}  je joue pour tout {stats['pour_tout']}",
        f"holes {stats['holes']}  double holes (bredouille) {stats['double_holes']}  "
        f"je ne marque pas {stats['ne_marque_pas']}",
    ]
    d = stats["douze_trous"]
    if d["finished"]:
        lines.append(
            f"douze trous: {d['finished']} finished, grande bredouille {d['grande_bredouille']}, "
            f"loser without a hole {d['loser_without_hole']}"
        )
    m = stats["marques"]
    if any(m[k] for k in ("simple", "petite_bredouille", "grande_bredouille", "refait")):
        lines.append(
            f"marqués: simple {m['simple']}, petite bredouille {m['petite_bredouille']}, "
            f"grande bredouille {m['grande_bredouille']}, refaits {m['refait']}, average value {m['average_value']}"
        )
    lines.append(f"{'event':<28}{'coups':>9}{'per 1000':>10}{'points':>10}")
    for k, v in stats["events"].items():
        lines.append(f"{k:<28}{v['coups']:>9}{v['per_1000_coups']:>10}{v['points']:>10}")
    f = stats.get("findings") or {}
    if f.get("counted"):
        lines.append(
            f"findings {f['findings']}: in {f['games_with_findings']} of {stats['games']} games, "
            f"{f['coups_with_findings']} of {stats['coups']} coups"
        )
    if stats.get("judged_by_verifier"):
        lines.append(
            f"{len(stats['judged_by_verifier'])} game(s) with a table mistake counted from the "
            f"verifier's judgement (perfect play could not follow them)"
        )
    if stats["skipped"]:
        lines.append(f"skipped {len(stats['skipped'])} record(s) that could not be judged at all")
    return "\n".join(lines)
