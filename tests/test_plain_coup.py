"""The plain coup (``replay/verifier/plain.py``, issue 17) walks the usual coup of a clean record
in one step: the verdicts must be those of the full course, coup by coup.

``verify(plain=True)`` and ``verify(plain=False)`` run side by side on self-played
parties with the table's mistakes and the record's typos (``mistake_corpus``), under
several profiles, with and without recovery.  Besides the reports, the table's state
after every element (position, both ledgers, primauté, findings so far) is compared,
so a plain coup that left the table a little different would be seen at once, not only
when it changed a finding.  The suite compares over 10,000 coups of mistaken records.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest
from mistake_corpus import OTHER_PROFILES, mistaken_records

from trictrac.notation.reader import parse_text
from trictrac.notation.record import Record
from trictrac.notation.writer import write_record
from trictrac.replay.generate.selfplay import play_partie, play_partie_multi
from trictrac.replay.rules.profiles import Profile
from trictrac.replay.verifier import plain as plain_module
from trictrac.replay.verifier import verify as verify_module


def _walk(rec: Record, profile: Profile | None, recover: bool, plain: bool) -> tuple[dict[str, Any], list[Any]]:
    """The report and the table's state after each element of the walk."""
    states: list[Any] = []
    element = verify_module._Verifier.element

    def watched(self: Any, i: int) -> None:
        element(self, i)
        t = self.table
        states.append(
            (i, t.index, t.pos, t.std.state, t.ent.state, t.primaute, t.releve_over, t.in_sync, len(self.found.items))
            + (t.marque, t.releve, t.marque_first, t.partie.marque_fresh, t.partie.over)
        )

    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(verify_module._Verifier, "element", watched)
        report = verify_module.verify(rec, profile, trace=False, recover=recover, plain=plain)
    finally:
        mp.undo()
    out = report.as_dict()
    # the recovery's cost cap counts the coups its trials walk, which the two walks do not
    # share exactly; the verdict (findings, scores, trace) must agree, the cap's note may not
    out["notes"] = [n for n in out["notes"] if "typo recovery has walked its budget" not in n]
    return out, states


def _compare(parties: int, seed: int) -> Counter:
    seen: Counter = Counter()
    for i, (rec, how) in enumerate(mistaken_records(parties, seed)):
        profile = OTHER_PROFILES[i % len(OTHER_PROFILES)]
        recover = i % 3 != 2
        fast, fast_states = _walk(rec, profile, recover, plain=True)
        slow, slow_states = _walk(rec, profile, recover, plain=False)
        for a, b in zip(fast_states, slow_states, strict=True):
            assert a == b, f"{how}, profile {profile}, recover {recover}: element {a[0]}"
        assert fast == slow, f"{how}, profile {profile}, recover {recover}"
        seen["coups"] += fast["coups_verified"]
        seen["findings"] += len(fast["findings"])
    return seen


_ROLLER_MARKS_FIRST = re.compile(r"^(\d+\. ([AB]) \d-\d) (\2\+\S+) (\d.*)$", re.M)


def _marked_after_touching(text: str, every: int) -> str:
    """Every ``every``-th coup whose roller marks before playing marks after (003 §171:
    under-marking consummated when he touches a checker)."""
    seen = [0]

    def late(m: re.Match[str]) -> str:
        seen[0] += 1
        return f"{m[1]} {m[4]} {m[3]}" if seen[0] % every == 0 else m[0]

    return _ROLLER_MARKS_FIRST.sub(late, text)


def test_marks_after_touching_are_left_to_the_full_course() -> None:
    seen: Counter = Counter()
    for i in range(6):
        text = _marked_after_touching(write_record(play_partie(random.Random(90 + i), "douze-trous")), 2 + i % 3)
        records, _ = parse_text(text)
        fast, fast_states = _walk(records[0], None, True, plain=True)
        slow, slow_states = _walk(records[0], None, True, plain=False)
        assert fast_states == slow_states and fast == slow, f"partie {i}"
        seen.update(f["detail"] for f in fast["findings"])
    assert seen["marked-after-touching"] >= 5, seen


def test_a_coup_after_the_twelfth_hole_is_reported_by_both() -> None:
    """The plain coup that marks the twelfth hole ends the partie (RULES.md §8.1): a coup
    written after it is play after the end, whichever way the twelfth was walked."""
    found = 0
    for i in range(4):
        text = write_record(play_partie(random.Random(300 + i), "douze-trous")).rstrip("\n")
        last = text.rsplit("\n", 1)[1]
        number, side = last.split(" ")[:2]
        side = "B" if side == "A" else "A"
        records, _ = parse_text(f"{text}\n{int(number[:-1]) + 1}. {side} 2-1 1/3\n")
        fast, fast_states = _walk(records[0], None, True, plain=True)
        slow, slow_states = _walk(records[0], None, True, plain=False)
        assert fast_states == slow_states and fast == slow, f"partie {i}"
        found += sum(f["kind"] == "play-after-end" for f in fast["findings"])
    assert found >= 3


_RELEVE_FIRST_COUP = re.compile(r"^(relevé \d+\n\d+\. )([AB])", re.M)


def test_a_relevé_opened_by_the_wrong_player_is_left_to_the_full_course() -> None:
    """The first throw of a relevé belongs to the primauté (RULES.md §9.3): written for
    the other player, it is out of turn, whichever way the walk goes."""
    seen = 0
    for i in range(4):
        text = write_record(play_partie(random.Random(500 + i), "douze-trous"))
        wrong = _RELEVE_FIRST_COUP.sub(lambda m: m[1] + ("B" if m[2] == "A" else "A"), text)
        records, _ = parse_text(wrong)
        for recover in (True, False):
            fast, fast_states = _walk(records[0], None, recover, plain=True)
            slow, slow_states = _walk(records[0], None, recover, plain=False)
            assert fast_states == slow_states and fast == slow, f"partie {i}, recover {recover}"
            seen += sum(f["kind"] == "out-of-turn" for f in fast["findings"])
    assert seen >= 8


@pytest.mark.parametrize("kind", ["chouette", "a-quatre", "a-tourner"])
def test_parties_of_several_players_give_the_same_verdicts(kind: str) -> None:
    """A marqué's first throw follows the rotation of several players (RULES.md §8.3):
    the full course's; also with each marqué's first coup written for the wrong player."""
    for i in range(2):
        rng = random.Random(700 + i)
        rec = play_partie_multi(rng, kind)
        text = write_record(rec)
        wrong = _RELEVE_FIRST_COUP.sub(lambda m: m[1] + ("B" if m[2] == "A" else "A"), text)
        for r in (rec, parse_text(wrong)[0][0]):
            fast, fast_states = _walk(r, None, True, plain=True)
            slow, slow_states = _walk(r, None, True, plain=False)
            assert fast_states == slow_states and fast == slow, f"{kind} {i}"


def _every_other_reste_a_leave(text: str) -> str:
    seen = [0]

    def leave(m: re.Match[str]) -> str:
        seen[0] += 1
        return f" {m[1]}:s'en-va" if seen[0] % 2 else m[0]

    return re.sub(r" ([AB]):reste", leave, text)


def test_a_leave_written_with_a_play_is_left_to_the_full_course() -> None:
    """*Je reste* changes nothing once he plays; *je m'en vais* written beside a play
    does (RULES.md §6.1-6.2; 003 §170): every other *reste* made a leave must give the
    full course's findings, with or without the plain walk."""
    seen: Counter = Counter()
    for i in range(6):
        text = write_record(play_partie(random.Random(800 + i), "douze-trous"))
        left = _every_other_reste_a_leave(text)
        for t in (text, left):
            records, _ = parse_text(t)
            fast, fast_states = _walk(records[0], None, True, plain=True)
            slow, slow_states = _walk(records[0], None, True, plain=False)
            assert fast_states == slow_states and fast == slow, f"partie {i}"
            seen.update(f["kind"] for f in fast["findings"])
    assert sum(seen.values()) >= 5, seen


def test_compact_records_are_left_to_the_full_course() -> None:
    """A compact record writes no marks: the verifier marks them as perfect players
    would (``judges/marks.py: compact_marks``), never as a plain coup."""
    for i in range(3):
        rec = play_partie(random.Random(900 + i), "a-ecrire" if i % 2 else "douze-trous", compact=True)
        fast, fast_states = _walk(rec, None, True, plain=True)
        slow, slow_states = _walk(rec, None, True, plain=False)
        assert fast_states == slow_states and fast == slow, f"partie {i}"


def test_plain_coups_give_the_verdicts_of_the_full_course_on_ten_thousand_coups() -> None:
    """Issue 17's differential test at its size, in every run of the suite (~20 s)."""
    seen = _compare(40, 2027)
    assert seen["coups"] >= 10_000, seen
    assert seen["findings"] >= 100, seen


def test_most_coups_of_a_clean_record_are_plain_and_none_without_the_switch() -> None:
    """The switch changes how, not what: with ``plain=True`` most coups of a clean game
    are walked as plain, with ``plain=False`` none is; a trace turns the plain walk off."""
    rec = play_partie(random.Random(8), "douze-trous")
    counts: Counter = Counter()
    walk = plain_module.walk_plain_coup

    def counting(table: Any, coup: Any, found: Any) -> bool:
        took = walk(table, coup, found)
        counts[took] += 1
        return took

    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(verify_module, "walk_plain_coup", counting)
        plain = verify_module.verify(rec, trace=False)
        taken = counts[True]
        counts.clear()
        full = verify_module.verify(rec, trace=False, plain=False)
        assert counts[True] == 0
        traced = verify_module.verify(rec, trace=True)
        assert counts[True] == 0
    finally:
        mp.undo()
    assert plain.clean and plain.as_dict() == full.as_dict()
    assert traced.as_dict() == full.as_dict()
    if verify_module.__file__.endswith(".py"):  # compiled (mypyc), it calls the walk directly: not counted
        assert taken >= 0.6 * plain.coups_verified, (taken, plain.coups_verified)
