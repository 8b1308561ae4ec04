"""Input that cannot be misread (issue 26 §1): a play number and a list of moves are
never taken for each other.  Over self-played parties (10,000 positions and throws),
at every throw: typing any legal play's moves, key by key as the terminal submits
them, records exactly that play; typing its number records exactly that play; random
keys never record a play other than the one the screen showed as chosen (the toolbar's
hint for the entry submitted)."""

from __future__ import annotations

import os
import random
import re

import pytest
from record_helpers import headers_of, type_coup

from trictrac.notation.record import Coup
from trictrac.replay.generate.selfplay import play_partie
from trictrac.replay.recorder.recording import RecordingError, RecordingSession
from trictrac.replay.rules.moves import judge_play

#: positions and throws of the default run; ``-m slow`` (test_numbers_and_moves_10000) the 10,000
POSITIONS = 2_000


class Keyboard:
    """The terminal front end's submission rules (``cli.record.run``): each key is
    added to the entry; the entry is submitted when the session calls it complete,
    or on Enter if the validator lets it through (a fault with no completion keeps it)."""

    def __init__(self, session: RecordingSession) -> None:
        self.s = session
        self.buffer = ""
        self.shown = ""  # the toolbar's hint for the entry as it stands
        self.submitted: list[tuple[str, str]] = []  # (entry, the hint shown for it)

    def key(self, k: str) -> None:
        if k == "\r":
            if self.s.check(self.buffer) and not self.s.completions(self.buffer):
                return  # the validator refuses it: nothing submitted
            self._submit()
            return
        self.buffer += k
        self.shown = self.s.hint(self.buffer)
        if self.s.complete(self.buffer):
            self._submit()

    def _submit(self) -> None:
        text, self.buffer = self.buffer, ""
        self.submitted.append((text, self.s.hint(text)))
        try:
            self.s.enter(text)
        except RecordingError:
            pass

    def type(self, keys: str) -> None:
        for k in keys:
            self.key(k)


def _pairs(moves: object) -> tuple[object, ...]:
    return tuple((m.from_, m.to) if hasattr(m, "from_") else m.number for m in moves)  # type: ignore[attr-defined]


def _same_play(pos, roll, a, b, profile) -> bool:
    """Two written plays are the same play: the same legal play, or the same moves."""
    ja, jb = judge_play(pos, roll, _pairs(a), profile), judge_play(pos, roll, _pairs(b), profile)
    if ja.legal and jb.legal and ja.play is not None and jb.play is not None:
        return ja.play.text() == jb.play.text()
    return _pairs(a) == _pairs(b)


def _last_coup(s: RecordingSession) -> Coup | None:
    return next((e for e in reversed(s.record.elements) if isinstance(e, Coup)), None)


def _coups(s: RecordingSession) -> int:
    return sum(1 for e in s.record.elements if isinstance(e, Coup))


def _try(s: RecordingSession, keys: str) -> tuple[Coup | None, list[tuple[str, str]]]:
    """Type ``keys`` at the play stage into a copy of the session's coup in progress,
    then undo it: the coup written (None: none) and the entries submitted."""
    n = _coups(s)
    kb = Keyboard(s)
    for k in keys:
        if _coups(s) > n:
            break  # the coup is written: the keys left would begin the next one
        kb.key(k)
    if s.state.stage == "marks":
        kb.type("\r")  # accept the marks: the play is written as chosen
    written = _last_coup(s) if _coups(s) > n else None
    s.undo()  # the coup written, or the entry in progress
    return written, kb.submitted


def test_numbers_and_moves_never_taken_for_each_other() -> None:
    _numbers_and_moves(POSITIONS, 26)


@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.skipif(not os.environ.get("TRICTRAC_SLOW"), reason="on demand: TRICTRAC_SLOW=1")
def test_numbers_and_moves_10000() -> None:
    _numbers_and_moves(10_000, 2026)


def _numbers_and_moves(count: int, seed: int) -> None:
    rng = random.Random(seed)
    positions = plays_typed = numbers_typed = random_keys = 0
    while positions < count:
        rec = play_partie(rng, "a-ecrire" if positions % 2 else "douze-trous")
        s = RecordingSession.new(headers_of(rec), game_id=False, first=rec.coups[0].side)
        for coup in rec.coups:
            if positions >= count or s.state.finished:
                break
            roll = f"{coup.roll[0]}{coup.roll[1]}"
            s.enter(roll)
            st = s.state
            if st.stage == "play" and len(st.plays) > 1:
                positions += 1
                pos, profile = s.table.position, s.profile
                k = rng.randrange(len(st.plays))
                want = s._entry.plays[k]  # type: ignore[union-attr]
                # its moves, key by key, then Enter
                moves = st.plays[k]
                for prefix in range(1, len(moves)):
                    assert not s.complete(moves[:prefix]) or "/" not in moves, (moves, prefix)
                written, _ = _try(s, moves + "\r")
                s.enter(roll)
                assert (
                    written is not None
                    and written.moves
                    and _same_play(pos, coup.roll, written.moves, _moves_of(want), profile)
                )
                plays_typed += 1
                # its number, as the terminal takes it (by itself when nothing can follow, else Enter)
                number = str(k + 1)
                written, subs = _try(s, number if s.complete(number) else number + "\r")
                s.enter(roll)
                assert written is not None and _same_play(pos, coup.roll, written.moves, _moves_of(want), profile)
                assert subs[0][1].startswith(f"jeu {k + 1} : ")
                numbers_typed += 1
                # random keys: what is written is what the hint showed for the entry submitted
                keys = "".join(rng.choice("0123456789/ \r-v") for _ in range(rng.randrange(1, 9)))
                written, subs = _try(s, keys)
                s.enter(roll)
                random_keys += 1
                if written is not None:
                    text, shown = next((t, h) for t, h in subs if not h.startswith("?"))
                    assert not shown.startswith("?"), (keys, subs)
                    _assert_shown(shown, written, pos, coup.roll, profile, st.plays, text)
            s.undo()
            type_coup(s, coup)
    assert positions >= count and plays_typed == numbers_typed == random_keys == positions


def _moves_of(play):
    from trictrac.replay.rules.moves import play_moves

    return play_moves(play, ())


_HINT = re.compile(r"^(?:jeu (\d+) : )?(.*?)(?: \(Entrée\)| — illégal.*)?$")


def _assert_shown(shown: str, written: Coup, pos, roll, profile, plays, text) -> None:
    """The coup written is the play the hint named: its number's play, or the moves shown."""
    if shown == "je m'en vais":
        assert not written.moves and text.strip() == "v"
        return
    m = _HINT.match(shown)
    assert m, shown
    if m.group(1):
        want = plays[int(m.group(1)) - 1]
        moved = [m for m in _typed(m.group(2)) if m[1]]  # the unplayable numbers (-4) apart
        assert _typed(want) == moved, (want, shown)
    else:
        want = m.group(2)
    from trictrac.notation.record import CannotPlay, Move

    typed = tuple(Move(a, b) if b else CannotPlay(a) for a, b in _typed(want))
    assert _same_play(pos, roll, written.moves, typed, profile), (text, shown, written)


def _typed(text: str) -> list[tuple[int, int]]:
    out = []
    for tok in text.split():
        if tok.startswith("-") and tok[1:].isdigit():
            out.append((int(tok[1:]), 0))
        elif "/" in tok:
            a, b = tok.split("/")
            out.append((int(a), 25 if not b.isdigit() else int(b)))
    return out


def test_the_issue_s_cases() -> None:
    """Issue 26: at a 4-3, ``1/8`` recorded play 1 (``1/5 1/4``) and ``/8`` fell into the
    next prompt; with 14 plays listed, ``8/12 1/2`` recorded play 8.  A number that may
    begin a move waits for Enter; anything with ``/`` is moves."""
    s = RecordingSession.new({"A": "x", "B": "y"}, game_id=False)
    s.enter("43")
    kb = Keyboard(s)
    kb.type("1")
    assert s.state.stage == "play" and kb.buffer == "1"  # a checker of his on 1: moves may follow
    assert s.hint("1").startswith("jeu 1 : ")  # the toolbar says what Enter would take
    kb.type("/8\r")
    assert s.record.coups[-1].moves == parse_moves("1/8")
    # a position with many plays: every number that begins a point of his waits too
    rng = random.Random(8)
    rec = play_partie(rng, "douze-trous")
    s = RecordingSession.new(headers_of(rec), game_id=False, first=rec.coups[0].side)
    for coup in rec.coups:
        s.enter(f"{coup.roll[0]}{coup.roll[1]}")
        st = s.state
        if st.stage == "play" and len(st.plays) >= 10:
            mover = s.table.position.mover
            for n in range(1, len(st.plays) + 1):
                begins = any(mover[p] and str(p).startswith(str(n)) for p in range(1, 25))
                assert s.complete(str(n)) == (not begins and n * 10 > len(st.plays)), n
            return
        s.undo()
        type_coup(s, coup)
    raise AssertionError("no throw with 10 plays")


def parse_moves(text: str) -> tuple[object, ...]:
    from trictrac.notation.record import Move

    return tuple(Move(*map(int, t.split("/"))) for t in text.split())
