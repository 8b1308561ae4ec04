"""Parties of several players: the verifier expects the primauté of each marqué from the
rotation of ``replay.rules.partie`` (RULES.md §8.3; 003 §241-244), in player letters."""

from __future__ import annotations

import dataclasses

from conftest import FIXTURES

from trictrac.notation.reader import iter_records
from trictrac.notation.record import Coup, MarqueResult, MarqueStart
from trictrac.replay.generate.selfplay import _relabel
from trictrac.replay.verifier.verify import verify

MULTI = FIXTURES / "corpus" / "multi.trn"


def _records():
    return [p.record for p in iter_records(str(MULTI))]


def test_every_multi_player_partie_verifies_clean():
    recs = _records()
    assert {r.headers["Partie"].split()[0] for r in recs} >= {"a-tourner", "chouette", "a-quatre"}
    for r in recs:
        assert [f.render() for f in verify(r).findings] == []


def test_the_wrong_player_opening_a_marque_is_out_of_turn():
    """Swap the two players of the second marqué (each keeps his moves): the player who
    throws first is then the one the rotation did not give the primauté to."""
    rec = next(r for r in _records() if r.headers["Partie"].startswith("a-tourner"))
    els, n, out, first = rec.elements, 0, [], None
    for el in els:
        if isinstance(el, MarqueStart):
            n += 1
        if n == 2:
            if isinstance(el, MarqueStart):
                x, y = el.players
                seats = {x: y, y: x}
                el = MarqueStart(el.number, (y, x))
            elif isinstance(el, Coup):
                el = Coup(
                    el.number,
                    seats[el.side],
                    el.roll,
                    el.moves,
                    tuple(_relabel(a, seats) for a in el.before),
                    tuple(_relabel(a, seats) for a in el.after),
                )
                if first is None:
                    first = el
            elif isinstance(el, MarqueResult) and el.winner:
                el = dataclasses.replace(el, winner=seats[el.winner])
        out.append(el)
    # the swap changes who won marqué 2: the Result header no longer applies
    headers = {k: v for k, v in rec.headers.items() if k != "Result"}
    bad = dataclasses.replace(rec, elements=out, headers=headers)
    found = verify(bad).findings
    assert [f.kind for f in found] == ["out-of-turn"]
    assert found[0].coup == first.number and "primauté" in found[0].message
