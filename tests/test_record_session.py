"""The recording session (replay/recorder/recording.py): a game written coup by coup."""

from __future__ import annotations

import pytest
from record_helpers import fixture_game, headers_of, type_coup

from trictrac.notation.reader import parse_text
from trictrac.notation.record import ReleveStart
from trictrac.notation.writer import write_record
from trictrac.replay.recorder.recording import RecordingError, RecordingSession, parse_roll
from trictrac.replay.verifier.verify import verify, verify_text

DOUZE = "fixtures/corpus/douze-trous.trn"
HAND = "fixtures/records/douze_trous.trn"


def _session(rec, **kw):
    return RecordingSession.new(headers_of(rec), game_id=False, **kw)


def test_parse_roll_spellings():
    assert parse_roll("65") == parse_roll("6-5") == parse_roll("5-6") == (6, 5)
    assert parse_roll("sonnez") == (6, 6) and parse_roll("bezet") == (1, 1)
    assert parse_roll("7-1") is None and parse_roll("6") is None


def test_whole_partie_reentered_equals_the_fixture(tmp_path):
    rec = fixture_game(DOUZE)
    path = tmp_path / "g.trn"
    s = _session(rec, path=str(path))
    for k, coup in enumerate(rec.coups):
        type_coup(s, coup)
        if k % 40 == 0:  # the file is the canonical record so far, checkable
            text = path.read_text(encoding="utf-8")
            assert text == write_record(s.record)
            assert verify_text(text)[0].findings == []
    assert s.state.finished and s.state.result == rec.headers["Result"]
    assert path.read_text(encoding="utf-8") == write_record(rec)
    assert s.flags == []


def test_a_ecrire_reentered_with_its_marque_results():
    rec = fixture_game("fixtures/corpus/a-ecrire.trn")
    s = _session(rec)
    for coup in rec.coups:
        type_coup(s, coup)
    assert s.state.finished
    assert write_record(s.record) == write_record(rec)


def test_worth_and_plays_are_shown_after_the_roll():
    s = _session(fixture_game(HAND))
    for coup in fixture_game(HAND).coups[:4]:
        type_coup(s, coup)
    step = s.enter("65")  # A's third coup: jan de trois coups (RULES.md §4.6)
    st = step.state
    assert st.stage == "play" and st.roll == (6, 5)
    assert any("jan de trois coups = 4" in w for w in st.worth)  # the value apart
    assert "1/7 1/6" in st.plays and "1/12" not in st.plays  # one checker never takes the coin (C1)
    s.enter(str(st.plays.index("1/7 1/6") + 1))
    assert s.state.stage == "marks" and s.state.default_marks == "A+4b"  # first points: in bredouille (RULES.md §5.2)


def _jan_de_trois_coups_played():
    """The hand-written game up to A's 6-5 played 1/7 1/6 (a jan de trois coups, RULES.md
    §4.6), at the marks stage."""
    rec = fixture_game(HAND)
    s = _session(rec)
    for coup in rec.coups[:4]:
        type_coup(s, coup)
    s.enter("65")
    s.enter(str(s.state.plays.index("1/7 1/6") + 1))
    return rec, s


def test_ecole_flagged_then_claimed_and_check_finds_exactly_it():
    _rec, s = _jan_de_trois_coups_played()
    step = s.enter("B:école+4")  # A forgot his jan de trois coups; B marks it
    assert [m.split(" :")[0] for m in step.messages] == ["école par moins (coup 5)"]  # the verifier's finding, said
    assert "5. A 6-5 1/7 1/6 B:école+4" in step.appended
    rep = verify(s.record)
    assert [(f.kind, f.who, f.coup) for f in rep.findings] == [("ecole-par-moins", "A", 5)]
    assert [(i, who) for i, who, _ in s.flags] == [(f.index, f.who) for f in rep.findings]
    assert s.table.score["B"].points == 4


def test_unclaimed_ecole_flagged_once_and_stands():
    rec, s = _jan_de_trois_coups_played()
    s.enter("--")  # nothing marked, nothing claimed
    assert s.flags == [] and [(c.claimant, c.amount) for c in s.open_claims] == [("B", 4)]
    assert [(f.kind, f.who) for f in s.findings] == [("unclaimed-ecole", "A")]  # as check says of the file now
    type_coup(s, rec.coups[5])  # B throws: the window closes
    rep = verify(s.record)
    assert [(f.kind, f.who) for f in rep.findings] == [("unclaimed-ecole", "A")]
    assert len(s.flags) == 1


def test_illegal_play_is_written_as_played_and_flagged():
    s = _session(fixture_game(HAND))
    s.enter("21")
    assert "illégal" in s.hint("1/3 1/3")
    step = s.enter("1/3 1/3")  # the ace played as a deuce
    assert "1/3 1/3" in step.appended
    rep = verify(s.record)
    assert [f.kind for f in rep.findings] == ["illegal-move"]
    assert [f[0] for f in s.flags] == [0]


def test_a_move_from_an_empty_point_is_refused():
    s = _session(fixture_game(HAND))
    s.enter("21")
    with pytest.raises(RecordingError):
        s.enter("5/7")
    assert s.state.stage == "play" and not s.record.coups


def test_leave_starts_a_new_releve_with_the_leaver():
    rec = fixture_game(DOUZE)
    s = _session(rec)
    for coup in rec.coups[:31]:
        type_coup(s, coup)
    s.enter("33")  # B: 6 points in bredouille, a double hole
    st = s.state
    assert st.can_leave and any("peut s'en aller" in w for w in st.worth)
    s.enter("v")
    assert s.state.default_marks == "B+6t2b B:s'en-va"
    step = s.enter("")
    assert step.appended == "32. B 3-3 B+6t2b B:s'en-va\nrelevé 2\n"
    assert s.state.side == "B" and s.state.number == 1
    assert isinstance(s.record.elements[-1], ReleveStart)
    assert s.table.score["B"].holes == 2 and s.table.score["A"].points == 0


def test_no_right_to_leave_is_refused():
    s = _session(fixture_game(HAND))
    s.enter("21")
    with pytest.raises(RecordingError, match="ne peut pas s.en aller"):
        s.enter("v")


def test_undo_removes_the_last_coup_from_the_file(tmp_path):
    rec = fixture_game(DOUZE)
    path = tmp_path / "g.trn"
    s = _session(rec, path=str(path))
    for coup in rec.coups[:32]:
        type_coup(s, coup)
    before = path.read_text(encoding="utf-8")
    assert before.endswith("relevé 2\n")
    s.undo()
    assert not path.read_text(encoding="utf-8").endswith("relevé 2\n")
    assert s.state.side == "B" and s.state.number == 32
    type_coup(s, rec.coups[31])
    assert path.read_text(encoding="utf-8") == before
    s.enter("66")
    s.undo()  # the entry being typed only
    assert s.state.stage == "roll" and path.read_text(encoding="utf-8") == before


def test_resume_continues_where_it_stopped(tmp_path):
    rec = fixture_game(DOUZE)
    path = tmp_path / "g.trn"
    s = _session(rec, path=str(path))
    for coup in rec.coups[:50]:
        type_coup(s, coup)
    s.close()  # the lock is given back
    s2 = RecordingSession.resume(str(path))
    assert s2.state.side == s.state.side and s2.state.number == s.state.number
    assert s2.table.score == s.table.score
    for coup in rec.coups[50:]:
        type_coup(s2, coup)
    assert path.read_text(encoding="utf-8") == write_record(rec)


def test_comment_and_views(tmp_path):
    rec = fixture_game(HAND)
    path = tmp_path / "g.trn"
    s = _session(rec, path=str(path))
    for coup in rec.coups[:5]:
        type_coup(s, coup)
    s.comment("bien joué")
    text = path.read_text(encoding="utf-8")
    assert "5. A 6-5 A+4 1/7 1/6 {jan de trois coups, Lelasseux-Lafosse 1852, art. 123} {bien joué}" in text
    assert parse_text(text)[0][0] == s.record
    assert "A (Dupont) : 0 trou, 4 points" in s.score_text()
    board = s.board_text()
    lines = board.splitlines()  # B to throw: his frame, as his moves are typed
    assert lines[0].startswith("points de B") and lines[3].startswith("points de B")
    assert lines[1].endswith("9A") and lines[2].endswith("11B") and "2B" in lines[2]  # the talons


def test_from_position_numbers_coups_from_the_position():
    s = RecordingSession.new(
        {"Partie": "a-ecrire 4", "Position": "A{1:11,2:1,3:1,4:1,5:1} B{1:11,2:2,3:2} coups=2/2 points=10b/0 holes=5/3"}
    )
    assert s.state.number == 5 and s.state.side == "A"
    s.enter("65")
    assert s.state.can_leave
    s.enter("v")
    step = s.enter("")
    assert step.appended.startswith("5. A 6-5 A+4t2b A:s'en-va\nrésultat A 7-3 valeur 6\nmarqué 2\nrelevé 1")
    assert verify(s.record).findings == []


def test_bad_entries_say_why():
    s = _session(fixture_game(HAND))
    assert s.check("71") and s.check("zz")
    s.enter("21")
    assert "de 1 à" in (s.check("99") or "")
    assert s.completions("") and all(c for c in s.completions("1/"))
