"""Helpers of the ``trictrac serve`` tests: a server in its own process (so that it can
be stopped and started again mid-game), and a player tapping coups on the page."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
from conftest import ROOT

from trictrac.notation.record import Comment, Coup, Decision
from trictrac.notation.writer import write_action
from trictrac.replay.rules.game import moves_text

CHROMIUM = "/usr/bin/chromium"


def have_chromium() -> bool:
    try:
        import playwright  # noqa: F401
    except ImportError:
        return False
    return os.path.exists(CHROMIUM)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``trictrac serve DB`` in a child process, on a free port of 127.0.0.1."""

    def __init__(self, db: Path, *args: str, host: str = "127.0.0.1") -> None:
        self.db, self.args, self.host = db, args, host
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "tests"))
        cmd = [
            sys.executable,
            "-m",
            "trictrac.cli",
            "serve",
            str(self.db),
            "--host",
            self.host,
            "--port",
            str(self.port),
        ]
        self.proc = subprocess.Popen([*cmd, *self.args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError((self.proc.stderr.read() if self.proc.stderr else b"").decode())
            try:
                httpx.get(self.url + "/static/style.css", timeout=1)
                return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def stop(self, kill: bool = False) -> None:
        if self.proc is None:
            return
        if kill:
            self.proc.kill()
        else:
            self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None


def marks_of(coup: Coup) -> str:
    """The coup's marks and decisions in notation, its comments apart."""
    return " ".join(write_action(a, coup.side) for a in coup.before + coup.after if not isinstance(a, Comment))


def comments_of(coup: Coup) -> list[str]:
    return [a.text for a in coup.after if isinstance(a, Comment)]


def without_comments(coup: Coup) -> Coup:
    return replace(coup, after=tuple(a for a in coup.after if not isinstance(a, Comment)))


def wait_acked(page: Any, seq: int, timeout: float = 15000) -> None:
    page.wait_for_function(f"document.getElementById('entry').dataset.acked >= {seq}", timeout=timeout)


def visible(page: Any, sel: str) -> bool:
    return bool(page.evaluate(f"!!document.querySelector('{sel}:not([hidden])')"))


def wait_step(page: Any, seq: int) -> str:
    """Wait until the page shows the plays, the marks, or has the coup ``seq`` written."""
    try:
        return _wait_step(page, seq)
    except Exception:
        state = page.evaluate(
            "() => { const e = document.getElementById('entry'); return [e.dataset.stage, e.dataset.acked,"
            " document.getElementById('status').textContent, document.getElementById('messages').textContent]; }"
        )
        raise AssertionError(f"coup {seq}: page at {state}") from None


def _wait_step(page: Any, seq: int) -> str:
    return str(
        page.wait_for_function(
            "(s) => { const e = document.getElementById('entry');"
            " return e.dataset.acked >= s ? 'done' : ['play', 'marks', 'offline'].includes(e.dataset.stage) && e.dataset.stage; }",
            arg=seq,
            timeout=15000,
        ).json_value()
    )


def tap_roll(page: Any, roll: tuple[int, int]) -> None:
    page.locator(f"#die1 button[data-die='{roll[0]}']").tap()
    page.locator(f"#die2 button[data-die='{roll[1]}']").tap()


def tap_coup(page: Any, coup: Coup, seq: int) -> None:
    """Enter ``coup`` as a player taps it: the two dice, the play's button (or the leave
    button, or the moves typed when the play is not a listed one), then the marks:
    Accepter when the rules give them, the école button, or the marks typed; then its
    comments in the remark field."""
    tap_roll(page, coup.roll)
    step = wait_step(page, seq)
    if step == "play":
        want = moves_text(coup.moves)
        leave = any(isinstance(a, Decision) and a.leave for a in coup.before) and not coup.moves
        plays = page.locator("#plays button").all_inner_texts()
        texts = [t.split(".", 1)[1].strip() for t in plays]
        if leave:
            page.locator("#leave").tap()
        elif want in texts:
            page.locator(f"#plays button[data-play='{texts.index(want) + 1}']").tap()
        else:
            page.fill("#other-play input", " ".join(write_action(m) for m in coup.moves))
            page.locator("#other-play button").tap()
        step = wait_step(page, seq)
    if step == "marks":
        marks = marks_of(coup)
        proposed = page.inner_text("#proposed").strip()
        ecole = page.locator("#ecole")
        if marks == proposed:
            page.locator("#accept").tap()
        elif ecole.is_visible() and ecole.get_attribute("data-marks") == marks:
            ecole.tap()
        elif not marks:
            page.locator("#nothing").tap()
        else:
            page.fill("#marks-form input", marks)
            page.locator("#marks-form button").tap()
    wait_acked(page, seq)
    for text in comments_of(coup):
        page.fill("#comment-form input", text)
        page.locator("#comment-form button").tap()
        page.wait_for_function(
            "(t) => document.getElementById('record-lines') && document.getElementById('record-lines').textContent.includes(t)",
            arg=text,
            timeout=15000,
        )
