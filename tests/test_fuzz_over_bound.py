"""The fuzz inputs once over the time bound (``fixtures/fuzz/over-bound/``, issue 27):
held to a bound in work, not in seconds (the same file always costs the same work).

Each is a finding-dense game (a record wrong on every coup) or hundreds of small ones: the
typo recovery finds no clean coup in it, so it earns nothing past its start
(``notation.limits.RECOVERY_START``, ``replay/verifier/recover.py``): before, a 0.5 KB
game of them judged 1,066 coups in its recoveries (0.1-0.3 s; the bound is 20 ms +
10 ms per KB)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from fuzz.harness import grow

from trictrac.notation import limits as L
from trictrac.notation.reader import iter_records
from trictrac.notation.record import Coup
from trictrac.replay.verifier import recover
from trictrac.replay.verifier.verify import _Verifier, verify

OVER_BOUND = sorted((Path(__file__).resolve().parent.parent / "fixtures" / "fuzz" / "over-bound").glob("*.raw"))


def _work(data: bytes) -> list[tuple[int, int, int]]:
    """Per game: (coups judged by the recovery, coups of the record, findings judged)."""
    out: list[tuple[int, int, int]] = []
    real_run = _Verifier.run

    def run(self: _Verifier):  # type: ignore[no-untyped-def]
        report = real_run(self)
        coups = sum(1 for el in self.table.rec.elements if isinstance(el, Coup))
        out.append((self.recoveries, coups, len(self.found)))
        return report

    _Verifier.run = run  # type: ignore[method-assign]
    try:
        for i, pr in enumerate(iter_records(io.BytesIO(data), file="fuzz")):
            verify(pr.record, None, file="fuzz", game=i, trace=False, diagnostics=pr.diagnostics, recover=True)
    finally:
        _Verifier.run = real_run  # type: ignore[method-assign]
    return out


def test_the_fixtures_are_there():
    assert len(OVER_BOUND) >= 10


@pytest.mark.parametrize("path", OVER_BOUND, ids=lambda p: p.stem)
def test_a_record_wrong_on_every_coup_costs_the_recovery_its_start_only(path: Path):
    data, shape = grow(path.read_bytes())
    assert shape == "finding-dense"
    games = _work(data)
    assert games
    if len(games) == 1:  # one game wrong on every coup (the others: hundreds of games of a coup or two)
        ((_, coups, found),) = games
        assert found >= coups // 2
    for judged, coups, _ in games:
        # no clean coup, no earning: the recovery judges its start and at most one trial past it
        assert judged <= L.RECOVERY_START + recover.LOOKAHEAD_MISSING + 2, (judged, coups)


class _CountingCatalogue:
    """A catalogue that counts its lookups (``gettext`` and ``ngettext``)."""

    def __init__(self, t: object) -> None:
        self.t, self.lookups = t, 0

    def gettext(self, key: str) -> str:
        self.lookups += 1
        return self.t.gettext(key)  # type: ignore[attr-defined,no-any-return]

    def ngettext(self, one: str, many: str, n: int) -> str:
        self.lookups += 1
        return self.t.ngettext(one, many, n)  # type: ignore[attr-defined,no-any-return]


@pytest.mark.parametrize("stem", ["5ff00eb5b17b1200", "a783078a84cc3274"])
def test_saying_a_finding_dense_game_reads_the_catalogue_once_per_kind(stem: str, monkeypatch: pytest.MonkeyPatch):
    """Saying findings costs a lookup or two per finding (the fields its template names),
    the rest once per kind, variant and language: before, about ten per finding (the
    templates tried, every field, the name, the rule's citation), 28 % of ``check`` on the
    0.7 KB game of 172 findings over the bound."""
    from trictrac.replay.verifier import findings as F

    data, _ = grow((OVER_BOUND[0].parent / f"{stem}.raw").read_bytes())
    found = [
        f
        for i, pr in enumerate(iter_records(io.BytesIO(data), file="fuzz"))
        for f in verify(
            pr.record, None, file="fuzz", game=i, trace=False, diagnostics=pr.diagnostics, recover=True
        ).findings
    ]
    variants = {(f.kind, f.detail, f.outcome, f.entitled == 0) for f in found}
    assert len(found) >= 150 and len(variants) <= 5
    F._CHAINS.clear()
    F._HEADS.clear()
    for lang in ("fr", "en"):
        W = F.words(lang)
        counting = _CountingCatalogue(W._t)
        monkeypatch.setattr(W, "_t", counting)
        lines = [f.render("fuzz", lang) for f in found]
        assert len(set(lines)) > 1 and all(line.startswith("fuzz:") for line in lines)
        assert counting.lookups <= 2 * len(found) + 40 * len(variants), (lang, counting.lookups, len(found))


def test_a_game_of_one_coup_pays_no_trial():
    """The game's only coup has no coup around it to tell a typo from a misplay: it is
    read as written, and a file of one-coup games (5,126 games of 18 bytes, 90 KB: 4.4 s
    of trials, 49 ms/KB, the one input of the last million over the bound) pays none."""
    data, _ = grow((OVER_BOUND[0].parent / "d5cce909a3a7a4ec.raw").read_bytes())
    games = _work(data)
    assert len(games) > 5000 and sum(coups for _, coups, _ in games) >= 5000
    assert all(judged == 0 for judged, coups, _ in games if coups == 1)
    # the same coup with a clean coup after it is tried again
    two = data.split(b"\n[\n")[0] + b"\n2. B 2-1 1/2 1/3\n"
    (judged, coups, _), *_ = _work(two)
    assert coups == 2 and judged > 0, (judged, coups)
