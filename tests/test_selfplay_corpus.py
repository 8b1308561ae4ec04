"""Bots, records and the corpus (replay/generate/selfplay.py, replay/verifier/stats.py, fixtures/corpus)."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from trictrac.cli.main import cli
from trictrac.notation.reader import iter_records, parse_text
from trictrac.notation.record import Decision, Mark, NeMarquePas
from trictrac.notation.writer import write_record, write_records
from trictrac.replay.generate.selfplay import decide_leave, evaluate, play_partie, selfplay, tenue
from trictrac.replay.rules.game import replay_record
from trictrac.replay.rules.profiles import DEFAULT_PROFILE
from trictrac.replay.verifier.stats import corpus_stats, format_stats

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fixtures" / "corpus"


def _records(*names: str) -> list:
    out = []
    for name in names:
        out.extend(pr.record for pr in iter_records(CORPUS / name))
    return out


def test_same_seed_same_file() -> None:
    a = write_records(selfplay(2, 7, "douze-trous"))
    b = write_records(selfplay(2, 7, "douze-trous"))
    c = write_records(selfplay(2, 8, "douze-trous"))
    assert a == b and a != c


@pytest.mark.parametrize("kind", ["douze-trous", "a-ecrire"])
@pytest.mark.parametrize("compact", [False, True])
def test_records_reparse(kind: str, compact: bool) -> None:
    rec = play_partie(random.Random(f"reparse:{kind}:{compact}"), kind, compact=compact, marques=2)
    recs, diags = parse_text(write_record(rec))
    assert diags == [] and recs == [rec]
    assert rec.mode == ("compact" if compact else "full")
    if compact:
        assert all(not c.before and not c.after for c in rec.coups)


@pytest.mark.parametrize("kind", ["douze-trous", "a-ecrire"])
def test_full_records_verify_clean(kind: str) -> None:
    verify = pytest.importorskip("trictrac.replay.verifier.verify").verify
    rec = play_partie(random.Random(f"clean:{kind}"), kind, marques=2)
    report = verify(parse_text(write_record(rec))[0][0])
    assert [f.render() for f in report.findings] == []


def test_full_records_write_every_mark() -> None:
    """Every gain, every receipt and every decision is written (RULES.md §4.1, §9.8)."""
    rec = play_partie(random.Random("marks"), "douze-trous")
    for coup, out, _g in replay_record(rec):
        marks = [a for a in coup.before if isinstance(a, Mark)]
        if out.gains:
            assert marks and marks[0].points == out.gains and marks[0].who == coup.side
        else:
            assert not marks
        assert any(isinstance(a, NeMarquePas) for a in coup.before) == out.ne_marque_pas
        assert any(isinstance(a, Decision) for a in coup.before) == out.could_leave
        if out.receipts:
            assert [a.points for a in coup.after if isinstance(a, Mark)] == [out.receipts]


def test_bots_prefer_plein_and_coin() -> None:
    """The evaluation counts cases of the pleins and the coin (module docstring)."""
    talon = (0, 15) + (0,) * 24
    plein = [0] * 26
    plein[1], plein[25] = 3, 0
    for p in range(7, 13):
        plein[p] = 2
    plein[1] = 3
    assert tenue(tuple(plein)) > tenue(talon)
    opp = (0,) * 25 + (0,)
    assert evaluate(tuple(plein), opp) > evaluate(talon, opp)


def test_committed_corpus_shows_the_events_of_real_games() -> None:
    """All three pleins made and conserved, jans, sorties, bredouilles, grandes
    bredouilles, refaits (counts over the committed corpus)."""
    recs = _records("showcase.trn", "douze-trous.trn", "a-ecrire.trn", "pour-tout.trn")
    st = corpus_stats(recs)
    ev = st["events"]
    for kind in (
        "petit-jan:remplir",
        "grand-jan:remplir",
        "jan-de-retour:remplir",
        "petit-jan:conserver",
        "grand-jan:conserver",
        "jan-de-retour:conserver",
        "battre-a-vrai",
        "battre-a-faux",
        "battre-le-coin",
        "impuissance",
        "sortie",
        "jan-de-deux-tables",
        "jan-de-mezeas",
    ):
        assert ev[kind]["coups"] > 0, kind
    assert st["sorties"] > 0 and st["leaves"] > 0 and st["stayed"] > 0
    assert st["double_holes"] > 0 and st["ne_marque_pas"] > 0 and st["pour_tout"] > 0
    assert st["douze_trous"]["grande_bredouille"] > 0
    m = st["marques"]
    assert m["petite_bredouille"] > 0 and m["grande_bredouille"] > 0 and m["refait"] > 0 and m["simple"] > 0
    # hits à vrai are the commonest event, the special jans among the rarest (003 §256-415)
    assert ev["battre-a-vrai"]["coups"] > ev["grand-jan:remplir"]["coups"] > ev["jan-de-mezeas"]["coups"]
    assert st["skipped"] == []
    assert "coups per relevé" in format_stats(st)


def test_committed_corpus_is_regenerated_identically() -> None:
    spec = importlib.util.spec_from_file_location("make_corpus", ROOT / "fixtures" / "make_corpus.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    text, truth = mod.build("douze-trous-compact.trn")
    assert truth is None
    assert text == (CORPUS / "douze-trous-compact.trn").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "name",
    [
        "douze-trous.trn",
        "a-ecrire.trn",
        "douze-trous-compact.trn",
        "a-ecrire-compact.trn",
        "pour-tout.trn",
        "profiles.trn",
        "showcase.trn",
    ],
)
def test_committed_corpus_verifies_clean(name: str) -> None:
    verify_file = pytest.importorskip("trictrac.replay.verifier.verify").verify_file
    reports = list(verify_file(str(CORPUS / name)))
    assert reports and all(r.coups_verified > 0 for r in reports)
    assert [f.render() for r in reports for f in r.findings] == []


def test_decide_leave_states_its_heuristic() -> None:
    """À écrire: behind with a marqué-ending leave, the bot stays (module docstring)."""
    from trictrac.replay.rules.game import Game
    from trictrac.replay.rules.ledger import PlayerScore, ScoreState
    from trictrac.replay.rules.position import Position

    pos = Position.from_points({1: 15}, {1: 14, 18: 1}, turn="A")
    g = Game("a-ecrire", start=pos, score=ScoreState(PlayerScore(points=10, holes=3), PlayerScore(holes=7)))
    assert g.can_leave((6, 1))
    assert decide_leave(g, (6, 1), g.legal((6, 1)).plays[0]) is False
    g = Game("a-ecrire", start=pos, score=ScoreState(PlayerScore(points=10, holes=7), PlayerScore(holes=3)))
    assert decide_leave(g, (6, 1), g.legal((6, 1)).plays[0]) is True


# --- CLI wiring -------------------------------------------------------------------------------


def test_cli_selfplay_same_seed_same_file(tmp_path: Path) -> None:
    r = CliRunner()
    a, b = tmp_path / "a.trn", tmp_path / "b.trn"
    assert r.invoke(cli, ["selfplay", "-n", "2", "--seed", "3", "--compact", "-o", str(a)]).exit_code == 0
    assert r.invoke(cli, ["selfplay", "-n", "2", "--seed", "3", "--compact", "-o", str(b)]).exit_code == 0
    assert a.read_bytes() == b.read_bytes()
    assert len(list(iter_records(a))) == 2


def test_cli_selfplay_inject_writes_truth(tmp_path: Path) -> None:
    out = tmp_path / "m.trn"
    res = CliRunner().invoke(
        cli, ["selfplay", "-n", "1", "--seed", "4", "--inject", "2", "--kinds", "unclaimed-ecole", "-o", str(out)]
    )
    assert res.exit_code == 0, res.output
    truth = json.loads((tmp_path / "m.trn.injected.json").read_text())
    assert truth[0]["game"] == 0 and truth[0]["injected"]
    assert all(x["kind"] == "unclaimed-ecole" for x in truth[0]["injected"])


def test_cli_bad_input_exit_2(tmp_path: Path) -> None:
    r = CliRunner()
    res = r.invoke(cli, ["selfplay", "-n", "1", "--inject", "1", "--kinds", "nope", "-o", str(tmp_path / "x")])
    assert res.exit_code == 2 and "unknown kind of mistake 'nope'" in res.output
    res = r.invoke(cli, ["selfplay", "-n", "1", "--inject", "1"])
    assert res.exit_code == 2 and "--inject needs -o" in res.output
    res = r.invoke(cli, ["stats", str(tmp_path / "missing.trn")])
    assert res.exit_code == 2 and "no such file" in res.output


def test_cli_stats_json() -> None:
    res = CliRunner().invoke(cli, ["stats", str(CORPUS / "a-ecrire.trn"), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["games"] == 3 and data["kinds"] == {"a-ecrire": 3}
    assert data["coups_per_releve"] > 0 and data["marques"]["simple"] + data["marques"]["petite_bredouille"] > 0


@pytest.mark.slow
def test_fresh_corpus_frequencies() -> None:
    """Over 120 fresh games the common events are common and the special jans rare."""
    recs = list(selfplay(60, 11, "douze-trous")) + list(selfplay(60, 12, "a-ecrire"))
    st = corpus_stats(recs, DEFAULT_PROFILE)
    ev = st["events"]
    per = {k: v["per_1000_coups"] for k, v in ev.items()}
    assert per["battre-a-vrai"] > 40
    assert per["jan-de-mezeas"] < 2 and per["contre-jan-de-mezeas"] < 1
    assert st["sorties"] > 0 and st["marques"]["refait"] >= 0


# --- parties of three and four players (RULES.md §8.3) ------------------------------------------


def test_a_tourner_rotation_loser_gives_way() -> None:
    """À tourner: the loser of a marqué retires, the idle player comes in, the one who
    stays has the primauté (003 §244; RULES.md §8.3)."""
    from trictrac.notation.record import Coup, MarqueResult, MarqueStart
    from trictrac.replay.generate.selfplay import play_partie_multi

    rec = play_partie_multi(random.Random("tourner"), "a-tourner", marques=3)
    els = rec.elements
    starts = [e for e in els if isinstance(e, MarqueStart)]
    results = [e for e in els if isinstance(e, MarqueResult)]
    assert rec.headers["Partie"] == "a-tourner 3" and {"A", "B", "C"} <= set(rec.headers)
    assert len([r for r in results if not r.refait]) == 3
    for i, r in enumerate(results[:-1]):
        if r.refait:
            continue
        now, nxt = starts[i].players, starts[i + 1].players
        loser = now[1] if r.winner == now[0] else now[0]
        assert r.winner in nxt and loser not in nxt
        first = next(e for e in els[els.index(starts[i + 1]) :] if isinstance(e, Coup))
        assert first.side == r.winner  # the one who stays throws first
    players_of = {}
    current = None
    for e in els:
        if isinstance(e, MarqueStart):
            current = e.players
        elif isinstance(e, Coup):
            assert e.side in current
            for a in e.before + e.after:
                if isinstance(a, Mark):
                    assert a.who in current
            players_of[e.side] = True
    assert set(players_of) == {"A", "B", "C"}
    st = corpus_stats([rec])
    assert st["skipped"] == [] and st["kinds"] == {"a-tourner": 1}


def test_multi_player_corpus_verifies_clean() -> None:
    verify_file = pytest.importorskip("trictrac.replay.verifier.verify").verify_file
    reports = list(verify_file(str(CORPUS / "multi.trn")))
    assert len(reports) == 4
    assert [f.render() for r in reports for f in r.findings] == []
