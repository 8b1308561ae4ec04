"""``trictrac serve`` without a browser: each coup taken once (by game and number), the
record on disk after every coup and resumed after a restart, conflicts never written,
finished games stored through the import path with their GameId, the password, the
CSRF token, the Host check, escaping, and no file outside the club's folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT

pytest.importorskip("starlette")
pytest.importorskip("jinja2")

import warnings  # noqa: E402

with warnings.catch_warnings():  # starlette asks for httpx2; httpx is the tooling this project allows
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from trictrac.club.db import open_db  # noqa: E402
from trictrac.notation.reader import parse_text  # noqa: E402
from trictrac.notation.record import Record  # noqa: E402
from trictrac.notation.writer import write_record  # noqa: E402
from trictrac.replay.verifier.verify import verify  # noqa: E402
from trictrac.serve.app import ServeConfig, create_app  # noqa: E402
from trictrac.serve.games import GameStore, Submission, wait_until  # noqa: E402

E20 = "A{1:9,8:1,9:1,11:2,12:2} B{1:14,10:1} coin=1/0 coups=5/5"
XSS = "<script>alert(1)</script>"


def fixture(name: str) -> Record:
    return parse_text((ROOT / name).read_text(encoding="utf-8"))[0][0]


def comments_of(coup) -> list[str]:
    from serve_helpers import comments_of

    return comments_of(coup)


def sub(coup, glyphs: bool = True) -> Submission:
    from dataclasses import replace

    from serve_helpers import marks_of

    from trictrac.notation.record import Ecole, Glyph
    from trictrac.replay.rules.game import moves_text

    if not glyphs:  # as the page's buttons send them: no glyph, no école's reason
        after = tuple(replace(a, reason=None) if isinstance(a, Ecole) else a for a in coup.after)
        coup = replace(coup, after=tuple(a for a in after if not isinstance(a, Glyph)))
    return Submission(f"{coup.roll[0]}{coup.roll[1]}", moves_text(coup.moves), marks_of(coup))


def test_each_coup_is_taken_once_written_at_once_and_resumed(tmp_path: Path):
    want = fixture("fixtures/records/douze_trous.trn")
    store = GameStore(tmp_path / "club.db.games")
    g = store.start("Dupont", "Martin", remark=want.elements[0].text)
    for seq, coup in enumerate(want.coups, 1):
        assert g.submit(seq, sub(coup)).status == "ok"
        on_disk = g.path.read_text(encoding="utf-8")
        assert on_disk == g.session.text() and len(parse_text(on_disk)[0][0].coups) == seq
        assert g.submit(seq, sub(coup)).status == "duplicate"  # the same coup again: not taken twice
        for text in comments_of(coup):
            assert g.comment(seq + 1, text).status == "ok"
    assert g.submit(3, Submission("66", "1/7 1/7")).status == "conflict"  # another coup 3: refused
    assert g.submit(9, sub(want.coups[0])).status == "conflict"  # a gap: refused
    got = parse_text(g.path.read_text(encoding="utf-8"))[0][0]
    assert write_record(Record(elements=got.elements)) == write_record(Record(elements=want.elements))
    assert [(f.kind, f.coup) for f in verify(got).findings] == [(f.kind, f.coup) for f in verify(want).findings]
    # a restart: the game resumes from its file; a coup re-sent from before is known (the
    # old server's lock on the record goes with its process: here, closed by hand)
    g.session.close()
    again = GameStore(tmp_path / "club.db.games").get(g.gid)
    assert again is not None and again.written == len(want.coups)
    assert again.submit(2, sub(want.coups[1])).status == "duplicate"
    assert again.submit(2, Submission("66", "1/7 1/7")).status == "conflict"
    assert again.session.text() == g.session.text()


def test_a_refused_entry_writes_nothing_and_the_preview_writes_nothing(tmp_path: Path):
    store = GameStore(tmp_path / "g")
    g = store.start("A", "B")
    before = g.path.read_text(encoding="utf-8")
    pv = g.preview(1, "21")
    assert pv["stage"] == "play" and "1/3 1/2" in pv["plays"] and "<svg" in pv["board"]
    assert g.preview(1, "21", "1")["stage"] == "commit"
    # what the throw is worth, in the viewer's language whatever the session's (French here)
    assert g.preview(1, "65", lang="en")["worth"] == ["A: nothing; total 0", "B: nothing; total 0"]
    assert g.preview(1, "65", lang="fr")["worth"] == ["A : rien ; total 0", "B : rien ; total 0"]
    assert g.submit(1, Submission("21", "5/7")).status == "error"  # no checker there (RULES.md §9.6)
    assert g.submit(1, Submission("99")).status == "error"
    assert g.path.read_text(encoding="utf-8") == before and g.written == 0
    assert g.submit(1, Submission("21", "1")).status == "ok"


def test_a_refused_entry_is_said_in_the_viewer_s_language(tmp_path: Path):
    """The session speaks French; a viewer who chose English reads its refusals in
    English (the refusal keeps its catalogue key: ``RecordingError.say``), and the
    other way round."""
    from trictrac.words import words

    g = GameStore(tmp_path / "g").start("A", "B")
    fr, en = words("fr"), words("en")
    no_checker = (fr("rec.err.no_checker", n=5), en("rec.err.no_checker", n=5))
    assert no_checker[0] != no_checker[1]
    assert g.submit(1, Submission("21", "5/7"), lang="en").message == no_checker[1]
    assert g.submit(1, Submission("21", "5/7"), lang="fr").message == no_checker[0]
    roll = (fr("rec.err.roll"), en("rec.err.roll"))
    assert g.preview(1, "99", lang="en") == {"stage": "error", "message": roll[1]}
    assert g.preview(1, "99", lang="fr") == {"stage": "error", "message": roll[0]}
    assert g.comment(1, "  ", lang="en").message == en("rec.err.empty_comment")
    assert g.written == 0


def test_undo_is_keyed_by_the_coup_the_page_saw(tmp_path: Path):
    g = GameStore(tmp_path / "g").start("A", "B")
    g.submit(1, Submission("21", "1"))
    g.submit(2, Submission("11", "1"))
    assert g.undo(2).status == "conflict"  # the page saw one coup only: not undone
    assert g.undo(3).status == "ok" and g.written == 1
    assert g.undo(3).status == "conflict"  # sent twice: undone once
    assert len(parse_text(g.path.read_text(encoding="utf-8"))[0][0].coups) == 1


@pytest.fixture
def app(tmp_path: Path):
    cfg = ServeConfig(tmp_path / "club.db", club="Cercle")
    with TestClient(create_app(cfg), base_url="http://127.0.0.1") as c:
        yield c, cfg


def csrf_of(c: TestClient) -> str:
    import re

    m = re.search(r'name="csrf" content="([^"]+)"', c.get("/").text)
    assert m
    return m.group(1)


def test_forms_and_posts_need_the_token(app):
    c, cfg = app
    token = csrf_of(c)
    assert c.post("/nouvelle", data={"a_new": "X", "b_new": "Y"}, follow_redirects=False).status_code == 403
    assert c.post("/nouvelle", data={"a_new": "X", "b_new": "Y", "csrf": "forged"}).status_code == 403
    r = c.post("/nouvelle", data={"a_new": "X", "b_new": "Y", "csrf": token}, follow_redirects=False)
    assert r.status_code == 303
    gid = r.headers["location"].split("/")[2]
    assert c.post(f"/g/{gid}/coup", json={"seq": 1, "roll": "21", "play": "1"}).status_code == 403
    ok = c.post(f"/g/{gid}/coup", json={"seq": 1, "roll": "21", "play": "1"}, headers={"X-CSRF-Token": token})
    assert ok.json()["status"] == "ok"
    other = TestClient(c.app, base_url="http://127.0.0.1")  # another visitor: his own token only
    other.get("/")
    assert other.post(f"/g/{gid}/coup", json={"seq": 2}, headers={"X-CSRF-Token": token}).status_code == 403


def test_a_game_not_started_is_said_in_the_viewers_language(app):
    """The start position's fault comes from the catalogue in the viewer's language,
    whatever the language the recording session would have spoken."""
    import html
    import re

    c, _ = app
    token = csrf_of(c)
    said = {"fr": ("Partie non commencée", "15 dames"), "en": ("Game not started", "has 20 checkers, not 15")}
    for lang, words in said.items():
        c.get(f"/?lang={lang}")
        r = c.post("/nouvelle", data={"a_new": "X", "b_new": "Y", "csrf": token, "position": "A{1:20} B{1:15}"})
        assert r.status_code == 400
        m = re.search(r'class="error"[^>]*>(.*?)<', r.text, re.S)
        assert m and all(w in html.unescape(m.group(1)) for w in words), (lang, m and m.group(1))
        other = said["en" if lang == "fr" else "fr"]
        assert not any(w in html.unescape(m.group(1)) for w in other)


def test_text_is_escaped_and_no_file_outside_the_folder_is_served(app, tmp_path: Path):
    c, cfg = app
    token = csrf_of(c)
    r = c.post("/nouvelle", data={"a_new": XSS, "b_new": "Bob", "csrf": token, "table": XSS})
    assert XSS not in r.text and "&lt;script&gt;" in r.text
    assert XSS not in c.get("/").text
    (tmp_path / "secret.txt").write_text("secret", encoding="utf-8")
    for path in (
        "/pages/../../secret.txt",
        "/pages/%2e%2e/%2e%2e/secret.txt",
        "/pages/..%2f..%2fsecret.txt",
        "/static/../app.py",
        "/static/%2e%2e/app.py",
        "/g/../../secret.txt",
    ):
        r = c.get(path)
        assert r.status_code in (400, 404) and "secret" not in r.text, path
    assert c.get("/", headers={"Host": "evil.example"}).status_code == 400  # a name of another site


def test_a_finished_game_is_stored_with_its_game_id_and_published(app):
    c, cfg = app
    token = csrf_of(c)
    r = c.post(
        "/nouvelle",
        data={"a_new": "Leclerc", "b_new": "Morel", "csrf": token, "position": E20 + " points=10/0 holes=11/3"},
        follow_redirects=False,
    )
    gid = r.headers["location"].split("/")[2]
    out = c.post(f"/g/{gid}/coup", json={"seq": 1, "roll": "31"}, headers={"X-CSRF-Token": token}).json()
    assert out["status"] == "ok" and "A 12-3" in " ".join(out["messages"])
    store = c.app.state.store
    assert wait_until(lambda: bool(store.get(gid).meta.get("stored")) and c.app.state.archivist.site is not None, 30)
    db = open_db(cfg.db, readonly=True)
    try:
        rows = db.conn.execute("SELECT game_key FROM games").fetchall()
    finally:
        db.conn.close()
    assert rows == [(f"tag:{gid}",)]  # the import path's identity: its GameId
    assert "Leclerc" in c.get("/classement").text
    assert "Morel" in c.get("/pages/index.html").text
    # the next evening (tonight's records gone): the members come from the club database
    for f in cfg.folder.glob("*.trn"):
        f.unlink()
    later = TestClient(create_app(cfg), base_url="http://127.0.0.1")
    assert "<option>Leclerc</option>" in later.get("/nouvelle").text


def test_a_password_beyond_loopback(tmp_path: Path):
    with pytest.raises(ValueError, match="password"):
        ServeConfig(tmp_path / "club.db", host="0.0.0.0")
    cfg = ServeConfig(tmp_path / "club.db", host="0.0.0.0", password="sésame")
    with TestClient(create_app(cfg), base_url="http://192.0.2.1") as c:
        r = c.get("/", headers={"Accept": "text/html"}, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/login"
        assert c.get("/g/0123456789abcdef/state").status_code == 401
        assert c.get("/classement").status_code == 401
        import re

        token = re.search(r'name="csrf" value="([^"]+)"', c.get("/login").text).group(1)
        assert c.post("/login", data={"password": "faux", "csrf": token}).status_code == 401
        assert c.post("/login", data={"password": "sésame", "csrf": token}, follow_redirects=False).status_code == 303
        assert c.get("/", headers={"Accept": "text/html"}).status_code == 200


@pytest.mark.parametrize("name", ["fixtures/records/douze_trous.trn", "fixtures/records/comments_glyphs_ecoles.trn"])
def test_the_preview_peeks_at_the_session_as_enter_would_take_the_entries(tmp_path: Path, name: str):
    """``RecordingSession.peek`` (the previews, on the one session) says what ``enter``
    does on a copy: the same stage, plays, worth and proposed marks, or that the coup is
    written; and it leaves the session and its file as they were."""
    from trictrac.replay.recorder.recording import RecordingSession

    want = fixture(name)
    g = GameStore(tmp_path / "g").start(want.headers["A"], want.headers["B"])
    for seq, coup in enumerate(want.coups, 1):
        roll = f"{coup.roll[0]}{coup.roll[1]}"
        copy = RecordingSession(g.session.record)
        on_disk = g.path.read_text(encoding="utf-8")
        peeked = g.session.peek(roll)
        step = copy.enter(roll).state
        written = len(copy.record.coups) > len(g.session.record.coups)
        if peeked is None or written:
            assert peeked is None and written
        else:
            assert (peeked.stage, peeked.plays, peeked.worth, peeked.default_marks) == (
                step.stage,
                step.plays,
                step.worth,
                step.default_marks,
            )
            if step.stage == "play":
                from trictrac.replay.rules.game import moves_text

                play = moves_text(coup.moves)
                peeked = g.session.peek(roll, play)
                after = copy.enter(play).state
                if peeked is None:
                    assert len(copy.record.coups) > len(g.session.record.coups)
                else:
                    assert (
                        (peeked.stage, peeked.default_marks)
                        == (after.stage, after.default_marks)
                        == ("marks", after.default_marks)
                    )
        assert g.session.state.stage == "roll" and g.path.read_text(encoding="utf-8") == on_disk
        out = g.submit(seq, sub(coup, glyphs=False))
        assert out.status == "ok", (seq, out.message, sub(coup, glyphs=False))


def _pieces(text: str) -> list[str]:
    """The literal words of a catalogue message (its ``{fields}`` cut out)."""
    import re

    return [p.strip(" :—-().,?") for p in re.split(r"\{\w+\}", text)]


def _messages(lang: str) -> dict[str, str]:
    """The server's labels (``srv.*``) and the findings' names in ``lang``, by key."""
    pytest.importorskip("babel")
    from trictrac.words.build import load

    out = {}
    for m in load(lang):
        key = m.id[0] if isinstance(m.id, tuple) else m.id
        if key.startswith("srv.") or (key.startswith("finding.") and key.endswith(".name")):
            texts = m.string if isinstance(m.string, tuple) else (m.string,)
            out[key] = " | ".join(t for t in texts if t)
    return out


def test_every_page_speaks_one_language(tmp_path: Path):
    """Every server page in French holds no English message of the catalogue and the same
    pages in English (``?lang=en``, then its cookie) no French one; each says its own."""
    import html
    import re

    cfg = ServeConfig(tmp_path / "club.db", club="Cercle")
    own = {"fr": _messages("fr"), "en": _messages("en")}
    # a word the language's own messages use is its own (English keeps "douze trous")
    everything = {lang: " | ".join(msgs.values()) for lang, msgs in own.items()}

    def foreign_words(page: str, lang: str) -> list[str]:
        """The other language's words on ``page`` in ``lang`` (its text, out of its tags)."""
        other = "fr" if lang == "en" else "en"
        text = html.unescape(re.sub(r"<(style|script)\b.*?</\1>|<[^>]+>", " ", page, flags=re.S))
        found = [
            p
            for msg in own[other].values()
            for p in _pieces(msg)
            if len(p) >= 4 and p not in everything[lang] and re.search(rf"(?<!\w){re.escape(p)}(?!\w)", text)
        ]
        # the language link names the other language in its own words
        return [p for p in found if p != own[lang]["srv.language"]]

    with TestClient(create_app(cfg), base_url="http://127.0.0.1") as c:
        token = csrf_of(c)
        r = c.post("/nouvelle", data={"a_new": "Leclerc", "b_new": "Morel", "csrf": token, "position": E20})
        gid = str(r.url).split("/")[-2]
        h = {"X-CSRF-Token": token}
        # A forgets his 2 (an école B may still mark: the claims box), then B's late claim
        assert (
            c.post(f"/g/{gid}/coup", json={"seq": 1, "roll": "41", "play": "1/6", "marks": "--"}, headers=h).json()[
                "status"
            ]
            == "ok"
        )
        pages = [
            "/",
            "/part/club",
            "/nouvelle",
            f"/g/{gid}",
            f"/g/{gid}/part",
            f"/g/{gid}/noter",
            "/classement",
            "/g/0123456789abcdef",
        ]
        for lang in ("fr", "en"):
            c.get(f"/?lang={lang}")  # the choice, kept in the cookie
            assert c.cookies.get("tt-lang") == lang
            for path in pages:
                page = c.get(path, headers={"Accept": "text/html"}).text
                assert not foreign_words(page, lang), (lang, path)
                assert "<html" not in page or f'<html lang="{lang}">' in page
            club = html.unescape(c.get("/").text)
            assert own[lang]["srv.in_progress"] in club and own[lang]["srv.new_game"] in club
            follow = html.unescape(re.sub(r"<[^>]+>", " ", c.get(f"/g/{gid}").text))
            assert "lelasseux-1852" not in follow and "Lelasseux-Lafosse (1852)" in follow  # the profile's name
            record = html.unescape(c.get(f"/g/{gid}/noter").text)
            claim = {"fr": "B (Morel) peut la marquer (B:école+2)", "en": "B (Morel) may mark it (B:école+2)"}[lang]
            assert claim in record

    # the login page of a server with a password, in both languages
    cfg = ServeConfig(tmp_path / "other.db", host="0.0.0.0", password="sésame")
    with TestClient(create_app(cfg), base_url="http://192.0.2.1") as c:
        for lang in ("fr", "en"):
            page = c.get(f"/login?lang={lang}").text
            assert f'<html lang="{lang}">' in page and own[lang]["srv.login"] in html.unescape(page)
            assert not foreign_words(page, lang), lang


def test_a_short_load_loses_nothing_and_doubles_nothing():
    """The load test in small (``python -m trictrac.serve.load`` runs the 2-minute one):
    2 tables entering coups with their previews, one in ten sent twice, 4 followers in
    their own process; every coup acknowledged is in the file once."""
    from trictrac.serve.load import run_load

    out = run_load(tables=2, followers=4, seconds=6, think=0.2)
    assert out["coups_acknowledged"] >= 5 and not out["refused"], out
    assert out["lost"] == 0 and out["doubled"] == 0
    assert out["reads"] > 0 and out["events"] > 0  # the followers did read
    assert out["server_ack_ms"]["p95"] is not None and out["ack_ms"]["p95"] >= out["server_ack_ms"]["p95"] * 0.5
