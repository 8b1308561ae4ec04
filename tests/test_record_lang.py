"""The recorder in one language (issues 25, 26): a session in French shows no English
message of the catalogue, and one in English none in French — through the session API
(states, prompts, hints, refusals, flags, claims, score, board, messages) and through
the terminal's screen (``cli.record.run``: labels, toolbar, help, ``/q``)."""

from __future__ import annotations

import io
import re

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from record_helpers import fixture_game, headers_of, type_coup

from trictrac.cli.record import ask_headers, run, screen
from trictrac.words.build import load

HAND = "fixtures/records/douze_trous.trn"
OTHER = {"fr": "en", "en": "fr"}
_FIELD = re.compile(r"\{[^}]*\}")


def _values(lang: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for m in load(lang):
        if m.id:
            key = m.id[0] if isinstance(m.id, tuple) else m.id
            out[key] = [s for s in (m.string if isinstance(m.string, tuple) else (m.string,)) if s]
    return out


def _foreign_fragments(lang: str) -> set[str]:
    """The words of the other language's catalogue that this language's never says:
    each value's text between its ``{fields}``, at least 8 characters, found in no
    value of ``lang``'s catalogue."""
    mine = "\n".join(s for vs in _values(lang).values() for s in vs)
    out = set()
    for vs in _values(OTHER[lang]).values():
        for v in vs:
            for frag in _FIELD.split(v):
                frag = frag.strip(" :;,.—()[]?!")
                if len(frag) >= 8 and re.search(r"[a-zA-Zé]{3}", frag) and frag not in mine:
                    out.add(frag)
    return out


def _session_texts(lang: str, tmp_path) -> list[str]:
    """Everything a session in ``lang`` says over a game with mistakes, refusals, claims,
    an undo, a comment, the board and the score."""
    from trictrac.replay.recorder.recording import RecordingError, RecordingSession

    rec = fixture_game(HAND)
    s = RecordingSession.new(headers_of(rec), path=str(tmp_path / f"{lang}.trn"), game_id=False, lang=lang)
    seen: list[str] = []

    def look() -> None:
        st = s.state
        seen.extend([st.prompt, *st.worth, *st.claims, screen(st, 60), screen(st, 100), s.score_text()])
        for text in ("", "zz", "99", "1/", "1/7 1/6", "v", "A+2", "B:école+4", "3 B+2", "24/25", "7-1"):
            seen.append(s.hint(text))
            seen.append(s.check(text) or "")

    for k, coup in enumerate(rec.coups):
        look()
        if k == 4:  # A forgets his points (an école), then B claims it at the throw
            s.enter(f"{coup.roll[0]}{coup.roll[1]}")
            look()
            seen.extend(s.enter("1/7 1/6").messages)
            look()
            seen.extend(s.enter("--").messages)
            look()
            seen.extend(s.enter("B:école+4").messages)
            seen.extend(s.undo().messages)
            seen.extend(s.undo().messages)
            seen.extend(s.enter(f"{coup.roll[0]}{coup.roll[1]}").messages)
            seen.extend(s.undo().messages)  # the entry in progress
        if k == 7:
            seen.extend(s.comment("note").messages)
            seen.append(s.board_text())
            for bad in (lambda: s.comment(" "), lambda: s.enter("zz"), lambda: s.enter("A+2 1/7")):
                try:
                    bad()
                except RecordingError as err:
                    seen.append(str(err))
        type_coup(s, coup)
        seen.extend(m for _i, _w, m in s.flags)
    look()
    s.close()
    return seen


def _terminal_text(lang: str, tmp_path) -> str:
    from trictrac.replay.recorder.recording import RecordingSession

    rec = fixture_game(HAND)
    s = RecordingSession.new(headers_of(rec), path=str(tmp_path / f"t{lang}.trn"), game_id=False, lang=lang)
    out = io.StringIO()
    with create_pipe_input() as inp:
        inp.send_text("21\rzz\r/x\r/b\r/s\r/c\r/u\r/u\r/q\r")
        inp.close()
        run(s, input=inp, output=DummyOutput(), out=out, width=60)
    s.close()
    asked: list[str] = []
    ask_headers({"A": None, "B": None, "Event": None, "Partie": None}, lambda q, d: asked.append(q) or d, lang)
    return out.getvalue() + "\n".join(asked)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_recorder_speaks_one_language(lang, tmp_path) -> None:
    foreign = _foreign_fragments(lang)
    assert len(foreign) > 50  # the test can fail: the other language has words of its own
    texts = _session_texts(lang, tmp_path)
    shown = "\n".join([*texts, _terminal_text(lang, tmp_path)])
    found = sorted(f for f in foreign if f in shown)
    assert not found, found[:10]
    # and it does say things: its own words, the flags and claims among them
    mine = {
        "fr": ("jet ?", "peut la marquer", "annulé", "à A de jouer"),
        "en": ("throw?", "may mark it", "undone", "A to throw"),
    }
    for words in mine[lang]:
        assert words in shown, words
