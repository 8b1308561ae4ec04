"""The play analysis (issue 29): the evaluator's invariants, the ranking where one
choice is provably better, a few of the treatises' worked examples, the game analysis
and its round trip through ``annotate --analyse``, the commands' JSON shapes."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace

import pytest
from click.testing import CliRunner

from trictrac.analysis.evaluator import WEIGHT, Choice, Value, after, choices, load_evaluator
from trictrac.analysis.player import analyse_bot
from trictrac.analysis.review import GLYPHS, THRESHOLDS, analyse_record, annotate_review, classify
from trictrac.cli.main import cli
from trictrac.notation.reader import parse_text
from trictrac.notation.record import Comment, Coup, Glyph
from trictrac.notation.writer import write_record
from trictrac.replay.generate.selfplay import bot_coup, play_partie
from trictrac.replay.rules.game import Game
from trictrac.replay.rules.ledger import PlayerScore, ScoreState
from trictrac.replay.rules.moves import ROLLS
from trictrac.replay.rules.position import Position, start_position
from trictrac.replay.rules.profiles import find_profile
from trictrac.words import words

EV = load_evaluator()


def _games(seed: int, n: int) -> list[Game]:
    """``n`` states before a throw of a partie the heuristic bot plays."""
    rng = random.Random(seed)
    g = Game()
    out = []
    while not g.finished and len(out) < n:
        out.append(g.copy())
        roll, _ps, play, leave, _ = bot_coup(g, rng)
        g.apply_coup(roll, play, leave=leave)
    return out


# -- the evaluator's invariants --------------------------------------------------------


@pytest.mark.parametrize("profile, stake", [("lelasseux-1852", 1.0), ("lebrun-1828", 2.0)])
def test_a_won_partie_is_worth_the_win(profile: str, stake: float) -> None:
    # A has his twelve holes in pavillon, B none: won (RULES.md §8.1); lebrun doubles it
    score = ScoreState(PlayerScore(holes=12, pavillon=True), PlayerScore())
    g = Game("douze-trous", find_profile(profile), start=start_position("B"), score=score)
    assert g.finished and g.winner == "A"
    assert EV.static(g, "A") == Value(1.0, stake)
    assert EV.before_throw(g, "A") == Value(1.0, stake)
    assert EV.before_throw(g, "B") == Value(0.0, -stake)


def test_the_throw_that_ends_the_partie_is_worth_the_win() -> None:
    # A at 11 holes and 10 points: any throw that gives him 2 points wins (his only choice)
    score = ScoreState(PlayerScore(points=10, holes=11), PlayerScore(holes=3))
    pos = Position.from_points({1: 13, 12: 2}, {1: 15}, turn="A", mover_coups=3, other_coups=3)
    g = Game("douze-trous", start=replace(pos, mover_coin_taken=True), score=score)
    ranked = EV.rank(g, (6, 1))  # the jan de mézéas: 4 points (RULES.md §4.6)
    assert len(ranked) == 1 and ranked[0].value == Value(1.0, 1.0)


def test_the_value_before_a_throw_is_the_average_of_the_36_outcomes() -> None:
    assert len(WEIGHT) == 21 and abs(sum(WEIGHT.values()) - 1.0) < 1e-12
    for g in _games(4, 60)[10::25]:
        side = g.position.turn
        total = 0.0
        for a in range(1, 7):  # the 36 outcomes of two dice, counted one by one
            for b in range(1, 7):
                roll = (max(a, b), min(a, b))
                choice, value, _ = EV.best_static(g, roll)
                # the roller's choice is the best by the static value without the next
                # throw's average (cheap); it is then valued with it
                cheap = [EV.static(after(g, roll, ch)[0], side, throw=False).equity for ch in choices(g, roll)]
                assert EV.static(after(g, roll, choice)[0], side, throw=False).equity == max(cheap)
                assert value == EV.static(after(g, roll, choice)[0], side)
                total += value.equity / 36
        assert EV.before_throw(g, side).equity == pytest.approx(total, abs=1e-9)
        other = "B" if side == "A" else "A"
        assert EV.before_throw(g, other).equity == pytest.approx(-total, abs=1e-9)


def test_win_and_equity_agree() -> None:
    for g in _games(5, 80)[::7]:
        for side in "AB":
            v = EV.static(g, side)
            assert 0.0 <= v.win <= 1.0
            assert v.equity == pytest.approx(2 * v.win - 1)  # a partie without bredouille stake


# -- the ranking where one choice is provably better ------------------------------------


def test_the_sortie_ranks_first() -> None:
    # A's last two checkers on 23 and 24: 2-1 bears both off (the sortie, 4 points,
    # RULES.md §4.9: a new relevé, B's made grand jan taken up) or plays 23/24 24/off
    # (nothing scored, one checker left): B then throws once more with his grand jan
    # made and conserves it (4 or 6 points, §4.5 F7) before A can bear off — the
    # sortie scores more now and leaves B nothing more
    pos = Position.from_points(
        {23: 1, 24: 1, 25: 13},
        {6: 3, 7: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 2},
        turn="A",
        mover_coups=40,
        other_coups=40,
        other_coin_taken=True,
    )
    g = Game("douze-trous", start=pos)
    ranked = EV.rank(g, (2, 1))
    texts = [r.text() for r in ranked]
    assert len(ranked) >= 2, texts
    assert ranked[0].choice.play is not None and ranked[0].choice.play.result[25] == 15, texts
    assert ranked[0].points > max(r.points for r in ranked[1:])
    later = [r for r in ranked[1:] if r.reply_points is not None]
    assert later and all(r.reply_points >= 4 for r in later)


@pytest.mark.xfail(
    strict=False,
    reason="known disagreement of the shipped evaluator with the treatise (docs/analysis.md, the books)",
)
def test_art_293_six_four_then_one_one_makes_the_case() -> None:
    # 003 §293: after 6-4 (1/7 1/5), 1-1 "en faisant la case on ne laisse rien à battre":
    # 5/7 (the case on the 7th point) against 5/6 7/8 (two lone checkers): same points now
    g = _after_first(((6, 4), "1/7 1/5"), ((2, 1), "1/3 1/2"))
    ranked = EV.rank(g, (1, 1))
    assert ranked[0].text() == "5/7", [(r.text(), r.value) for r in ranked]


def _after_first(*coups: tuple[tuple[int, int], str]) -> Game:
    """A game after the given coups (A throws first), each play by its text."""
    g = Game("douze-trous", first="A")
    for roll, text in coups:
        play = next(p for p in g.legal(roll).plays if p.text() == text)
        g.apply_coup(roll, play)
    return g


# -- a few of the treatises' worked examples -------------------------------------------


@pytest.mark.xfail(
    strict=False,
    reason="known disagreement of the shipped evaluator with the treatise (docs/analysis.md, the books)",
)
def test_first_throw_tout_a_bas() -> None:
    # Lebrun (000 ~l.848): "Lorsque vous jouez le premier coup de dés, mettez tout à bas":
    # two checkers down from the talon rather than one carried tout d'une
    g = Game("douze-trous", first="A")
    for roll in [r for r in ROLLS if r[0] != r[1] and r[0] + r[1] < 11]:
        best = EV.rank(g, roll)[0].choice.play
        assert best is not None and len(best.steps) == 2 and all(s[0] == 1 for s in best.steps), (roll, best)


def test_art_293_six_five_then_two_one_tout_d_une() -> None:
    # 003 §293: first 6-5 (flèches 5 and 6), then 2-1: "jouer tout d'une de la cinquième
    # flèche à la huitième" (6/9), rather than make the case (6/7 1/3)
    g = _after_first(((6, 5), "1/7 1/6"), ((2, 1), "1/3 1/2"))
    ranked = {" ".join(sorted(r.text().split())): r.value.equity for r in EV.rank(g, (2, 1))}
    assert ranked["6/9"] > ranked["1/3 6/7"], ranked


@pytest.mark.xfail(
    strict=False,
    reason="known disagreement of the shipped evaluator with the treatise (docs/analysis.md, the books)",
)
def test_art_293_three_two_then_four_three_makes_the_case() -> None:
    # 003 §293: "Il en est de même si l'on a 3-2, puis 4-3 ; on fait la case"
    g = _after_first(((3, 2), "1/4 1/3"), ((2, 1), "1/3 1/2"))
    assert sorted(EV.rank(g, (4, 3))[0].text().split()) == ["3/7", "4/7"]


# -- the game analysis -------------------------------------------------------------------


def test_classes_follow_the_thresholds() -> None:
    assert classify(0.0) is None and classify(THRESHOLDS["doubtful"] - 0.001) is None
    assert classify(THRESHOLDS["doubtful"]) == "doubtful"
    assert classify(THRESHOLDS["mistake"] + 0.001) == "mistake"
    assert classify(0.5) == "blunder"


def _short_record(worst_at: tuple[int, ...] = (), coups: int = 14):
    """A record of ``coups`` coups by the analyse player, its worst choice at the
    coups ``worst_at`` (0-based), written as the bots write records."""
    good = analyse_bot()

    def bot(game, rng, *, pour_tout=False, dice=None):
        roll, ps, play, leave, say = good(game, rng, dice=dice)
        if game.coups in worst_at:
            worst = EV.rank(game, roll, depth=1)[-1].choice
            return roll, ps, worst.play, worst.leave, False
        return roll, ps, play, leave, say

    rec = play_partie(random.Random(3), bots={"A": bot, "B": bot}, first="A")
    kept, n = [], 0
    for el in rec.elements:
        if isinstance(el, Coup):
            n += 1
            if n > coups:
                break
        kept.append(el)
    rec.elements[:] = kept
    del rec.headers["Result"]
    return rec


def test_game_analysis_finds_the_worst_choice() -> None:
    rec = _short_record(worst_at=(6,))
    res = analyse_record(rec)
    assert res["stopped"] is None and len(res["coups"]) == 14
    bad = res["coups"][6]
    assert bad["loss"]["win"] > 0 and bad["written"]["moves"] != bad["best"]["moves"]
    assert bad["class"] == classify(bad["loss"]["win"])
    for c in res["coups"]:
        assert c["loss"]["equity"] >= 0 and c["ranked"][0] == c["best"]
        assert [r["equity"] for r in c["ranked"] if r["depth"] == 2] == sorted(
            (r["equity"] for r in c["ranked"] if r["depth"] == 2), reverse=True
        )
    mine = res["players"][
        "A" if rec.elements[[i for i, e in enumerate(rec.elements) if isinstance(e, Coup)][6]].side == "A" else "B"
    ]
    assert mine["win_loss"] >= bad["loss"]["win"] - 1e-9


def test_annotate_round_trip() -> None:
    rec = _short_record(worst_at=(4, 7))
    res = analyse_record(rec)
    text = write_record(annotate_review(rec, res))
    again, diags = parse_text(text)
    assert not [d for d in diags if d.severity == "error"]
    coups_in = [e for e in rec.elements if isinstance(e, Coup)]
    coups_out = [e for e in again[0].elements if isinstance(e, Coup)]
    assert [(c.side, c.roll, c.moves) for c in coups_in] == [(c.side, c.roll, c.moves) for c in coups_out]
    for c, row in zip(coups_out, res["coups"]):
        glyphs = [a.glyph for a in c.after if isinstance(a, Glyph)]
        notes = [a.text for a in c.after if isinstance(a, Comment) and a.text.startswith("analysis:")]
        assert glyphs == ([GLYPHS[row["class"]]] if row["class"] else [])
        if row["class"]:
            assert notes and row["best"]["moves"] in notes[0]
    # the annotated record analyses the same (comments and glyphs change nothing)
    assert analyse_record(again[0])["players"] == res["players"]
    # in French too (the published pages' words)
    fr, diags = parse_text(write_record(annotate_review(rec, res, "fr")))
    assert not [d for d in diags if d.severity == "error"]
    notes = [a.text for e in fr[0].elements if isinstance(e, Coup) for a in e.after if isinstance(a, Comment)]
    assert notes and all(n.startswith("analyse : meilleur ") for n in notes)
    # each language's numbers and class words, never the other's (the catalogue's w6.review.*)
    en = [a.text for e in again[0].elements if isinstance(e, Coup) for a in e.after if isinstance(a, Comment)]
    names = {lang: {words(lang)(f"an.class.{k}") for k in ("doubtful", "mistake", "blunder")} for lang in ("fr", "en")}
    assert names["fr"].isdisjoint(names["en"])
    for lang, said in (("fr", notes), ("en", en)):
        for n in said:
            marks = re.findall(r"\d([.,])\d %", n)
            assert len(marks) == 3 and set(marks) == {"," if lang == "fr" else "."}, n
        tails = {n.rsplit(", ", 1)[1] for n in said}
        assert tails & names[lang] and not tails & names["en" if lang == "fr" else "fr"], (lang, tails)
    assert all(n.startswith("analysis: best ") for n in en)


# -- the commands ------------------------------------------------------------------------


def test_cli_position_ranked_json() -> None:
    res = CliRunner().invoke(cli, ["analyse", "A{1:15} B{1:15} turn=A", "--roll", "5-4", "--json"])
    assert res.exit_code == 0, res.output
    ranked = json.loads(res.output)["rolls"][0]["ranked"]
    assert ranked and {"play", "equity"} <= set(ranked[0])
    deep = [r["equity"] for r in ranked if r["depth"] == 2]
    assert deep == sorted(deep, reverse=True)
    assert all(isinstance(m, list) and len(m) == 2 for r in ranked for m in r["play"])


def test_cli_game_and_check_analyse(tmp_path) -> None:
    path = tmp_path / "g.trn"
    path.write_text(write_record(_short_record(coups=6)), encoding="utf-8")
    res = CliRunner().invoke(cli, ["analyse", "--game", str(path), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert len(data) == 1 and len(data[0]["coups"]) == 6 and set(data[0]["players"]) == {"A", "B"}
    text = CliRunner().invoke(cli, ["check", "--analyse", str(path)])
    assert text.exit_code == 0, text.output
    assert "mean loss per coup" in text.output
    out = tmp_path / "a.trn"
    ann = CliRunner().invoke(cli, ["annotate", "--analyse", str(path), "-o", str(out)])
    assert ann.exit_code == 0, ann.output
    assert not [d for d in parse_text(out.read_text(encoding="utf-8"))[1] if d.severity == "error"]


def test_cli_bad_game_file(tmp_path) -> None:
    res = CliRunner().invoke(cli, ["analyse", "--game", str(tmp_path / "missing.trn")])
    assert res.exit_code == 2 and "Traceback" not in res.output
    res = CliRunner().invoke(cli, ["analyse", "--game", "x.trn", "--roll", "6-5"])
    assert res.exit_code == 2


def test_selfplay_bot_option() -> None:
    res = CliRunner().invoke(cli, ["selfplay", "-n", "1", "--seed", "2", "--bot", "analyse", "--against", "random"])
    assert res.exit_code == 0, res.output
    recs, diags = parse_text(res.output)
    assert len(recs) == 1 and recs[0].headers.get("Result")


def test_choice_of_leaving_is_offered() -> None:
    # a state where the roller's throw completes a hole: leaving is one of the choices
    for g in _games(9, 400):
        for roll in ROLLS:
            if g.can_leave(roll, None) and not g.ends_on_gains(roll):
                assert Choice(None, True) in choices(g, roll)
                return
    pytest.fail("no hole made in 400 coups")


def test_match_plays_both_seats_on_the_same_dice() -> None:
    from trictrac.analysis.match import play_one, run_match

    s = run_match("random", 2, seed=3)
    assert s["parties"] == 4 and 0.0 <= s["win_rate"]["mean"] <= 1.0
    assert s["win_rate"]["low"] <= s["win_rate"]["mean"] <= s["win_rate"]["high"]
    # the same seed and seats give the same partie
    seats = {"A": analyse_bot(), "B": bot_coup}
    assert play_one(3, 0, seats) == play_one(3, 0, seats)


def _leave_or_stay(a: dict[int, int], b: dict[int, int], points: int, roll: tuple[int, int]) -> str:
    pos = Position.from_points(
        a, b, turn="A", mover_coups=8, other_coups=8, mover_coin_taken=a.get(12, 0) >= 2, other_coin_taken=True
    )
    g = Game("douze-trous", start=pos, score=ScoreState(PlayerScore(points=points, holes=3), PlayerScore(holes=3)))
    assert g.can_leave(roll)
    return "leave" if EV.rank(g, roll)[0].choice.leave else "stay"


def test_leave_or_stay_as_003_art_159() -> None:
    # 003 §159: « un grand avantage à s'en aller, si l'on a un jeu moins bien disposé que
    # celui de l'adversaire »; stay when one's game is better disposed to conserve.
    # A scattered, B's grand jan made: A's 3-1 hits à vrai on B's 2nd point (4 points, a hole)
    poor = {1: 10, 3: 1, 4: 1, 5: 1, 20: 1, 21: 1}
    strong = {1: 3, 7: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 2}
    assert _leave_or_stay(poor, {1: 2, 2: 1, 7: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 2}, 10, (3, 1)) == "leave"
    # A's grand jan made, B on his talon and coin: A conserves (4 points, a hole) and stays
    assert _leave_or_stay(strong, {1: 13, 12: 2}, 8, (2, 1)) == "stay"
