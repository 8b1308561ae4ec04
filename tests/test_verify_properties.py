"""Property tests of the verifier (issue 5): it never raises on a damaged record, and
its findings are data of the documented kinds."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st
from verify_helpers import generated

from trictrac.notation.record import CannotPlay, Correction, Coup, Decision, Ecole, Mark, Move, NeMarquePas
from trictrac.replay.verifier.findings import FINDING_KINDS, Finding
from trictrac.replay.verifier.verify import verify

RECS = generated(2, 7, "douze-trous", False) + generated(1, 8, "a-ecrire", False, 1)

who = st.sampled_from(["A", "B"])
action = st.one_of(
    st.builds(
        Mark, who, st.integers(0, 40), st.one_of(st.none(), st.integers(0, 4)), st.one_of(st.none(), st.booleans())
    ),
    st.builds(Ecole, who, st.integers(0, 30)),
    st.builds(NeMarquePas, who),
    st.builds(Decision, who, st.booleans()),
    st.builds(Correction, who, st.integers(-20, 20), st.integers(-2, 2)),
)
move = st.one_of(
    st.builds(Move, st.integers(0, 26), st.integers(0, 26)),
    st.builds(CannotPlay, st.integers(1, 6)),
)


@given(
    g=st.integers(0, len(RECS) - 1),
    at=st.integers(0, 60),
    moves=st.one_of(st.none(), st.lists(move, max_size=3).map(tuple)),
    before=st.lists(action, max_size=2).map(tuple),
    after=st.lists(action, max_size=3).map(tuple),
)
def test_verify_never_raises_on_a_damaged_coup(g, at, moves, before, after):
    rec = RECS[g]
    els = list(rec.elements)
    coup_pos = [i for i, e in enumerate(els) if isinstance(e, Coup)]
    i = coup_pos[at % len(coup_pos)]
    c = els[i]
    els[i] = replace(c, moves=c.moves if moves is None else moves, before=before, after=after)
    damaged = replace(rec, elements=els) if hasattr(rec, "__dataclass_fields__") else rec
    rep = verify(damaged, trace=False)
    for f in rep.findings:
        assert isinstance(f, Finding) and f.kind in FINDING_KINDS
        assert f.index <= rep.coups_verified
    # the record is only damaged from that coup on: nothing is found before it
    k = coup_pos.index(i)
    assert all(f.index >= k or f.index < 0 for f in rep.findings)
    assert rep.final_score is not None


def test_finding_render_and_dict():
    f = Finding("ecole-par-trop", line=3, col=1, who="A", entitled=2, marked=10)
    assert f.render("x.trn").startswith("x.trn:3:1: ecole-par-trop: A marks 10 when he is entitled to only 2")
    assert f.rule == FINDING_KINDS["ecole-par-trop"] and "Lelasseux-Lafosse 1852, art. 164" in f.as_dict()["rule"]
    try:
        Finding("no-such-kind")
    except ValueError:
        pass
    else:  # pragma: no cover
        raise AssertionError("unknown kinds are API misuse")


def test_docs_findings_lists_every_kind():
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "findings.md").read_text(encoding="utf-8")
    from trictrac.replay.verifier.findings import kind_name

    for kind in FINDING_KINDS:
        assert f"| `{kind}` |" in text, kind
        assert kind_name(kind, "en") in text and kind_name(kind, "fr") in text
