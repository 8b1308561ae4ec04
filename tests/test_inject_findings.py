"""The error injector: injected mistakes are exactly what the verifier finds
(replay/generate/inject.py, fixtures/corpus/mistakes*.trn)."""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trictrac.notation.reader import iter_records, parse_text
from trictrac.notation.record import Coup, Decision, Ecole, Move, Record, ReleveStart
from trictrac.notation.writer import write_record
from trictrac.replay.generate.inject import (
    COMPACT_KINDS,
    INJECT_KINDS,
    Injected,
    InjectError,
    expected_findings,
    inject,
)
from trictrac.replay.generate.selfplay import play_partie, selfplay
from trictrac.replay.rules.profiles import find_profile
from trictrac.replay.verifier.findings import FINDING_KINDS

CORPUS = Path(__file__).resolve().parent.parent / "fixtures" / "corpus"


def _key(kind: str, index: int, who: str | None) -> tuple[str, int, str | None]:
    return (kind, index, who)


def test_every_kind_is_a_finding_kind() -> None:
    assert set(INJECT_KINDS) <= set(FINDING_KINDS)
    assert set(COMPACT_KINDS) <= set(INJECT_KINDS)


def test_zero_mistakes_is_the_same_record() -> None:
    rec = play_partie(random.Random("same"), "a-ecrire", marques=2)
    again, done = inject(rec, 0, random.Random(1))
    assert done == [] and write_record(again) == write_record(rec)


def test_unknown_kind_and_compact_restrictions() -> None:
    rec = play_partie(random.Random("k"), "douze-trous", compact=True)
    with pytest.raises(InjectError):
        inject(rec, 1, random.Random(1), ["no-such-kind"])
    with pytest.raises(InjectError):
        inject(rec, 1, random.Random(1), ["hole-mismatch"])  # needs marks


def test_injection_is_deterministic() -> None:
    rec = play_partie(random.Random("det"), "douze-trous")
    a = inject(rec, 3, random.Random(5))
    b = inject(rec, 3, random.Random(5))
    assert write_record(a[0]) == write_record(b[0]) and a[1] == b[1]


def test_injected_records_reparse_and_keep_the_prefix() -> None:
    rec = play_partie(random.Random("prefix"), "douze-trous")
    bad, done = inject(rec, 2, random.Random(3), ["illegal-move"])
    assert 1 <= len(done) <= 2 and all(d.kind == "illegal-move" for d in done)
    assert parse_text(write_record(bad))[0] == [bad]
    first = done[0].index
    assert bad.coups[:first] == rec.coups[:first]  # nothing changes before the first mistake
    assert bad.coups[first] != rec.coups[first]


@pytest.mark.parametrize("name", ["mistakes.trn", "mistakes-compact.trn"])
def test_committed_mistakes_are_found_exactly(name: str) -> None:
    """Each injected mistake is reported, at its coup, by whom, and nothing else."""
    verify = pytest.importorskip("trictrac.replay.verifier.verify").verify
    truth = json.loads((CORPUS / name.replace(".trn", ".injected.json")).read_text(encoding="utf-8"))
    records = [pr.record for pr in iter_records(CORPUS / name)]
    assert len(records) == len(truth)
    for rec, row in zip(records, truth):
        assert row["injected"], row["kind"]
        expected = expected_findings(row["injected"])  # with the findings a mistake brings along
        found = sorted(
            (_key(f.kind, f.index, f.who) for f in verify(rec).findings), key=lambda t: (t[0], t[1], t[2] or "")
        )
        assert found == expected, row["kind"]


@pytest.mark.parametrize(
    "kind",
    [
        "unclaimed-ecole",
        "ecole-par-trop",
        "ecole-par-moins",
        "leave-without-right",
        "unplayed-number",
        "bredouille-lost",
    ],
)
def test_fresh_injection_is_found(kind: str) -> None:
    verify = pytest.importorskip("trictrac.replay.verifier.verify").verify
    rec = play_partie(random.Random(f"fresh:{kind}"), "douze-trous")
    bad, done = inject(rec, 1, random.Random(f"fresh:{kind}"), [kind])
    assert len(done) == 1
    d = done[0]
    findings = verify(parse_text(write_record(bad))[0][0]).findings
    assert [(f.kind, f.index, f.who) for f in findings] == [(d.kind, d.index, d.side)]
    if (
        d.entitled is not None
        and d.marked is not None
        and kind in ("unclaimed-ecole", "ecole-par-trop", "ecole-par-moins")
    ):
        assert (findings[0].entitled, findings[0].marked) == (d.entitled, d.marked)


# -- the kinds that need a claim, a leave, a slip of the scribe or a relevé (brief H4) -------------

_NEW_FULL = (
    "ecole-claimed-wrongly",
    "ecole-partial",
    "ecole-too-late",
    "ecole-impossible",
    "ecole-deux-jetons",
    "leave-at-sortie",
    "missing-checker",
    "out-of-turn",
    "releve-without-leave",
)


@cache
def _games(profile: str, kind: str, n: int, seed: int, compact: bool = False) -> tuple[Record, ...]:
    return tuple(selfplay(n, seed, kind, compact, find_profile(profile), marques=1 if kind == "a-ecrire" else None))


def _found(rec: Record) -> list[tuple[str, int, str | None]]:
    """The verifier's findings on the record as written and read back (the text is the record)."""
    verify = pytest.importorskip("trictrac.replay.verifier.verify").verify
    again = parse_text(write_record(rec))[0]
    assert len(again) == 1
    return sorted(
        ((f.kind, f.index, f.who) for f in verify(again[0], trace=False).findings),
        key=lambda t: (t[0], t[1], t[2] or ""),
    )


def _injections(
    kind: str, profile: str = "lelasseux-1852", want: int = 3, compact: bool = False, n: int = 4, tries: int = 4
) -> list[tuple[Record, Record, Injected]]:
    """Up to ``want`` single injections of ``kind`` into generated games (douze trous and
    à écrire), several seeds each; a kind the game does not allow is skipped there."""
    out = []
    for kind_p, seed in (("douze-trous", 7), ("a-ecrire", 8)):
        for g, rec in enumerate(_games(profile, kind_p, n, seed, compact)):
            for s in range(tries):
                bad, done = inject(rec, 1, random.Random(f"h4:{kind}:{g}:{s}"), [kind])
                assert len(done) <= 1
                if done and done[0].kind == kind:
                    out.append((rec, bad, done[0]))
                    break
            if len(out) >= want:
                return out
    return out


@pytest.mark.parametrize("kind", [k for k in _NEW_FULL if k not in ("ecole-impossible", "leave-at-sortie")])
def test_new_kind_gives_exactly_its_findings(kind: str) -> None:
    """Each injection is found at its coup, by whom, with its companions, and nothing else."""
    got = _injections(kind)
    assert len(got) >= 3, kind
    for rec, bad, d in got:
        assert d.kind == kind and d.index < len(bad.coups)
        assert _found(bad) == expected_findings([d]), d
        first = d.also[0][1] if kind == "ecole-too-late" else d.index
        assert bad.coups[: max(0, first)] == rec.coups[: max(0, first)]  # nothing changes before it


def test_E41_003_183_fausse_ecole_stands_or_is_claimed_back() -> None:
    """003 §183 2° (E41): an école claimed after a coup marked right is itself an école;
    the wronged roller may take it (``claimed-back``) or let it stand."""
    verify = pytest.importorskip("trictrac.replay.verifier.verify").verify
    variants = set()
    for _rec, bad, d in _injections("ecole-claimed-wrongly", want=6, n=6):
        coup = bad.coups[d.index]
        claims = [a for a in coup.after if isinstance(a, Ecole)]
        assert (claims[0].claimant, claims[0].points) == (d.side, d.marked) and d.entitled == 0
        assert coup.side != d.side
        if d.variant == "claimed-back":
            assert (claims[1].claimant, claims[1].points) == (coup.side, d.marked)
        f = [f for f in verify(bad).findings if f.kind == "ecole-claimed-wrongly"][0]
        assert (f.entitled, f.marked) == (0, d.marked)
        variants.add(d.variant)
    assert variants == {"stands", "claimed-back"}


def test_E43_003_187_partial_claim_is_also_the_wrong_mark() -> None:
    """003 §187 (E43a): an école is indivisible; the claim of part of it is found, and the
    wrong mark it answers is found claimed (ecole-par-trop / ecole-par-moins)."""
    verify = pytest.importorskip("trictrac.replay.verifier.verify").verify
    for _rec, bad, d in _injections("ecole-partial"):
        roller = bad.coups[d.index].side
        assert d.side != roller and 0 < d.marked < d.entitled
        assert d.also == ((("ecole-par-trop" if d.variant == "par-trop" else "ecole-par-moins"), d.index, roller),)
        f = [f for f in verify(bad).findings if f.kind == "ecole-partial"][0]
        assert (f.entitled, f.marked) == (d.entitled, d.marked)


def test_003_167_claim_after_his_own_throw_is_too_late() -> None:
    """003 §167, §186; 001 r.34: the école is claimed on the claimant's own next coup,
    after he threw: too late, and the wrong mark stays unclaimed."""
    for _rec, bad, d in _injections("ecole-too-late"):
        ((k, i, who),) = d.also
        assert (k, i) == ("unclaimed-ecole", d.index - 1) and who != d.side
        late = bad.coups[d.index]
        assert late.side == d.side
        assert [(a.claimant, a.points) for a in late.after if isinstance(a, Ecole)] == [(d.side, d.marked)]


@pytest.mark.parametrize("profile", ["lelasseux-1852", "rigueur", "bonne-compagnie"])
def test_deux_jetons_follows_the_profile(profile: str) -> None:
    """RULES.md §7.6, §10 D7: the école des deux jetons is an école under rigueur and
    lebrun-1828 (001 r.65; 000 ~l.758), a fausse école under lelasseux-1852 (003 §195)
    and bonne-compagnie (001 III on r.65)."""
    verify = pytest.importorskip("trictrac.replay.verifier.verify").verify
    ecole = find_profile(profile).ecole_deux_jetons == "ecole"
    # 12 games, not 6: with the corrected P3 (RULES.md §3.8) the rigueur games differ
    # and the first six give the injector no room for this école
    got = _injections("ecole-deux-jetons", profile, want=2, n=12, tries=6)
    assert got, profile
    for _rec, bad, d in got:
        coup = bad.coups[d.index]
        (claim,) = [a for a in coup.after if isinstance(a, Ecole)]
        assert claim.reason == "deux jetons" and claim.claimant != d.side == coup.side
        assert _found(bad) == expected_findings([d])
        assert (d.also == ()) is ecole
        f = [f for f in verify(bad).findings if f.kind == "ecole-deux-jetons"][0]
        assert (f.entitled, f.marked) == ((d.marked if ecole else 0), d.marked)


def test_E45_001_r62_ecole_impossible_only_on_a_throw_that_cannot_be_played() -> None:
    """001 r.62; 003 §197 (E45): less marked than due on a throw that cannot be played at
    all is no école.  Generated games seldom have such a throw with points: search."""
    got = _injections("ecole-impossible", want=2, n=12, tries=4)
    assert got
    for _rec, bad, d in got:
        coup = bad.coups[d.index]
        assert coup.moves and not any(isinstance(m, Move) for m in coup.moves)
        assert d.marked < d.entitled
        assert _found(bad) == expected_findings([d])


def test_003_163_leave_at_the_sortie_without_a_hole() -> None:
    """003 §163 (E35): at the sortie he may leave only if that throw completes his hole."""
    got = _injections("leave-at-sortie", want=2, n=8, tries=4)
    assert got
    for _rec, bad, d in got:
        coup = bad.coups[d.index]
        assert any(isinstance(m, Move) and m.to == 25 for m in coup.moves)
        assert Decision(d.side, True) in coup.before
        assert _found(bad) == expected_findings([d])


def test_missing_checker_is_a_slip_of_one_point_and_the_last_mistake() -> None:
    """RULES.md §9.6: the record cannot go on after it, so it is made last."""
    verify = pytest.importorskip("trictrac.replay.verifier.verify").verify
    rec = _games("lelasseux-1852", "douze-trous", 4, 7)[0]
    for s in range(4):
        bad, done = inject(rec, 3, random.Random(f"mc:{s}"), ["missing-checker", "out-of-turn"])
        mcs = [d for d in done if d.kind == "missing-checker"]
        assert not mcs or done[-1] is mcs[0]
        assert _found(bad) == expected_findings(done)
        if mcs:
            rep = verify(bad, trace=False)
            assert rep.stopped and rep.coups_verified == mcs[0].index
            first = [m for m in bad.coups[mcs[0].index].moves if isinstance(m, Move)][0]
            played, written = mcs[0].detail.split(" written ")  # "p/q written p'/q'" (the table's move)
            (p, q), (p2, q2) = ([int(x) if x != "off" else 25 for x in t.split("/")] for t in (played, written))
            assert (first.from_, first.to) == (p2, q2)
            assert abs(p - p2) == 1 and q - p == q2 - p2


def test_003_28_out_of_turn_and_releve_without_leave_sections() -> None:
    """003 §28: out of turn, the player who has just thrown throws again (or the wrong one
    opens a relevé); 003 §155, §162: a relevé begun though nobody left nor bore off."""
    for _rec, bad, d in _injections("out-of-turn", want=4, n=6):
        i = d.index
        assert i > 0
        if d.variant == "alternation":
            assert bad.coups[i].side == bad.coups[i - 1].side == d.side
        else:  # the primauté was the leaver's or the first out's (RULES.md §9.3)
            assert bad.coups[i].number == 1 and bad.coups[i - 1].side != d.side == bad.coups[i].side
    for _rec, bad, d in _injections("releve-without-leave"):
        assert d.index == -1 and d.side is None
        els = bad.elements
        at = [j for j, e in enumerate(els) if isinstance(e, ReleveStart) and e.number == d.releve]
        j = at[0]
        prev = els[j - 1]
        assert isinstance(prev, Coup) and any(isinstance(m, Move) for m in prev.moves)
        assert not any(isinstance(m, Move) and m.to == 25 for m in prev.moves)
        assert not any(isinstance(a, Decision) and a.leave for a in prev.before + prev.after)


@pytest.mark.parametrize("kind", ["missing-checker", "out-of-turn", "releve-without-leave"])
def test_new_kind_in_a_compact_record(kind: str) -> None:
    got = _injections(kind, compact=True)
    assert len(got) >= 3
    for _rec, bad, d in got:
        assert bad.mode == "compact"
        assert _found(bad) == expected_findings([d])


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6), k=st.integers(1, 4), profile=st.sampled_from(["lelasseux-1852", "rigueur"]))
def test_several_mistakes_of_every_kind_are_found_exactly(seed: int, k: int, profile: str) -> None:
    """Property: k mistakes of any kinds in one record give exactly their findings."""
    rec = _games(profile, "douze-trous", 2, 11)[seed % 2]
    bad, done = inject(rec, k, random.Random(seed))
    assert len(done) <= k
    assert _found(bad) == expected_findings(done)


def test_expected_findings_reads_the_truth_rows() -> None:
    d = Injected("ecole-partial", "par-moins", 5, 6, 0, 1, "B", 4, 2, True, "", (("ecole-par-moins", 5, "A"),))
    row = json.loads(json.dumps(d.as_dict()))
    assert (
        expected_findings([row]) == expected_findings([d]) == [("ecole-par-moins", 5, "A"), ("ecole-partial", 5, "B")]
    )


def test_ecole_written_after_the_coup_is_marked_after_the_receipts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's order (RULES.md §4.1 O4, docs/findings.md "law of timing"): écoles on a
    coup come after its receipts.  The injector avoids the coups where the order changes
    a bredouille; allowed here, the verifier reports a bredouille-lost too."""
    from trictrac.replay.generate import inject as inj_mod

    monkeypatch.setattr(inj_mod._Injector, "_order_free", lambda self, *a: True)
    rec = _games("lelasseux-1852", "douze-trous", 6, 7)[1]
    bad, done = inject(rec, 1, random.Random("order:2"), ["ecole-deux-jetons"])
    assert [d.index for d in done] == [14]
    assert _found(bad) == expected_findings(done)


def test_fausse_ecole_long_after_an_unclaimed_one_is_no_late_claim(monkeypatch: pytest.MonkeyPatch) -> None:
    """RULES.md §7.2: the claim window closes at the claimant's next throw (003 §167, §186);
    a claim relevés later of points nobody owes him is a fausse école (003 §183).  The
    injector avoids repeating an earlier (claimant, points); allowed here, the verifier
    must not call them ecole-too-late."""
    from trictrac.replay.generate import inject as inj_mod

    monkeypatch.setattr(inj_mod._Injector, "_note", lambda self, x: None)
    # seed 22, not 21: the games changed with the corrected P3 (RULES.md §3.8), and 21
    # no longer repeats a claim; 22 gives the same four mistakes
    rec = _games("lelasseux-1852", "douze-trous", 2, 22)[1]
    bad, done = inject(rec, 4, random.Random("m1:1"))
    assert [(d.kind, d.index) for d in done] == [
        ("unclaimed-ecole", 9),
        ("ecole-par-trop", 18),
        ("ecole-claimed-wrongly", 105),
        ("ecole-claimed-wrongly", 112),
    ]
    assert _found(bad) == expected_findings(done)
