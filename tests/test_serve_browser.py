"""``trictrac serve`` in a real headless Chromium (Playwright, Debian's ``chromium``):
a fixture partie tapped on the 360-px page equals the fixture; an école, a late claim,
a leave and an undo; the network cut and the server restarted mid-game with nothing lost
or doubled; a second browser following each coup; the standings and the published
pages when a game ends; a password and a forged form refused.

``TRICTRAC_SCREENSHOTS=DIR`` keeps the screenshots (360×740 and 1280×800)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from conftest import ROOT
from serve_helpers import Server, have_chromium, tap_coup, tap_roll, visible, wait_acked, wait_step

from trictrac.notation.reader import parse_text
from trictrac.notation.record import Record
from trictrac.notation.writer import write_record
from trictrac.replay.verifier.verify import verify

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not have_chromium(), reason="/usr/bin/chromium or playwright is not installed"),
    pytest.mark.timeout(300),
]

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
SCREEN = {"viewport": {"width": 1280, "height": 800}}
E20 = "A{1:9,8:1,9:1,11:2,12:2} B{1:14,10:1} coin=1/0 coups=5/5"


def fixture(name: str, index: int = 0) -> Record:
    records, _ = parse_text((ROOT / name).read_text(encoding="utf-8"))
    return records[index]


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium")
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server for the module's tests (each its own games): the offline test stops and
    starts it again on the same folder."""
    srv = Server(tmp_path_factory.mktemp("serve") / "club.db", "--club", "Paris, Cercle du Palais-Royal").start()
    yield srv
    srv.stop()


def shoot(page, name: str) -> None:
    out = os.environ.get("TRICTRAC_SCREENSHOTS")
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(out) / f"{name}.png"), full_page=False)


def start_game(
    page, url: str, a: str, b: str, *, event: str = "", remark: str = "", position: str = "", first: str = "A"
) -> str:
    """Fill the start form as a player would; the GameId from the recording page's address."""
    page.goto(url + "/nouvelle")
    page.fill("input[name=a_new]", a)
    page.fill("input[name=b_new]", b)
    page.select_option("select[name=first]", first)
    if event:
        page.fill("input[name=event]", event)
    if remark or position:
        page.locator("details summary").tap()
        page.fill("input[name=remark]", remark)
        page.fill("input[name=position]", position)
    page.locator("form.stack button[type=submit]").tap()
    page.wait_for_url(re.compile(r"/g/[0-9a-f]{16}/noter$"))
    page.wait_for_selector("#entry:not([hidden])")
    return page.url.rsplit("/", 2)[-2]


def stored(srv: Server, gid: str) -> Record:
    records, diags = parse_text((Path(str(srv.db) + ".games") / f"{gid}.trn").read_text(encoding="utf-8"))
    assert len(records) == 1 and not [d for d in diags if d.severity == "error"]
    return records[0]


def findings(rec: Record) -> list[tuple[str, str | None, int]]:
    return [(f.kind, f.who, f.coup) for f in verify(rec).findings]


def same_tags(rec: Record, like: Record) -> Record:
    keep = [k for k in like.headers if k not in ("Date", "Result")]
    return Record(headers={k: rec.headers.get(k, "") for k in keep}, elements=rec.elements)


def check_findings(path: Path) -> list[tuple[str, str | None, int]]:
    """What ``trictrac check --json`` finds in the file (the command itself)."""
    from click.testing import CliRunner

    from trictrac.cli.main import cli

    out = CliRunner().invoke(cli, ["check", "--json", str(path)])
    assert out.exit_code in (0, 1), out.output
    return [(f["kind"], f.get("who"), f["coup"]) for g in json.loads(out.output) for f in g["findings"]]


def test_whole_partie_tapped_on_a_phone_equals_the_fixture(browser, server, tmp_path):
    """A whole partie of the corpus (123 coups, B 12-0, two illegal plays injected) tapped
    coup by coup on the 360-px page: the stored record is the fixture after ``fmt`` and
    ``check`` finds the same."""
    records, _ = parse_text((ROOT / "fixtures/corpus/mistakes.trn").read_text(encoding="utf-8"))
    want = records[3]
    assert want.headers["Result"] == "B 12-0" and len(want.coups) == 123
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    gid = start_game(page, server.url, want.headers["A"], want.headers["B"], event=want.headers["Event"], first="B")
    for seq, coup in enumerate(want.coups, 1):
        if seq == 5:  # the page at the play stage, for the eye
            tap_roll(page, coup.roll)
            wait_step(page, seq)
            shoot(page, "record-360-play")
            page.locator("#restart").tap()
            page.wait_for_selector("#step-roll:not([hidden])")
        tap_coup(page, coup, seq)
        if seq in (1, 10, 123):
            assert len(stored(server, gid).coups) == seq  # acknowledged once on disk
    shoot(page, "record-360-over")
    got = stored(server, gid)
    assert got.headers["GameId"] == gid and got.headers["Result"] == "B 12-0"
    tags = ("A", "B", "Partie", "Profile", "Record", "Event", "Result")
    assert write_record(Record(headers={k: got.headers[k] for k in tags}, elements=got.elements)) == write_record(
        Record(headers={k: want.headers[k] for k in tags}, elements=want.elements)
    )
    mine, theirs = tmp_path / "stored.trn", tmp_path / "fixture.trn"
    mine.write_text(write_record(got), encoding="utf-8")
    theirs.write_text(write_record(want), encoding="utf-8")
    assert check_findings(mine) == check_findings(theirs) == [("illegal-move", "A", 10), ("illegal-move", "A", 32)]
    ctx.close()


def test_ecole_late_claim_leave_and_undo(browser, server):
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    page.on("dialog", lambda d: d.accept())
    # an école claimed at once, with the button the marks offer
    gid = start_game(page, server.url, "Élève", "Maître")
    want = fixture("fixtures/records/comments_glyphs_ecoles.trn")
    for seq, coup in enumerate(want.coups[:4], 1):
        tap_coup(page, coup, seq)
    tap_roll(page, (6, 5))
    wait_step(page, 5)
    page.locator("#plays button", has_text="1/7 1/6").tap()
    page.wait_for_selector("#step-marks:not([hidden])")
    assert page.inner_text("#proposed") == "A+4b"
    shoot(page, "record-360-marks")
    assert page.get_attribute("#ecole", "data-marks") == "B:école+4"
    page.locator("#ecole").tap()
    wait_acked(page, 5)
    # the finding in the catalogue's words; no école is left open
    page.wait_for_function("document.getElementById('messages').textContent.includes('école par moins (coup 5)')")
    assert not visible(page, "#claims")
    assert findings(stored(server, gid)) == [("ecole-par-moins", "A", 5)]

    # A forgets his 2; B throws, then claims: too late (003 §167); then undone and let stand
    gid = start_game(page, server.url, "A", "B", position=E20)
    tap_roll(page, (4, 1))
    assert wait_step(page, 1) == "play"
    page.locator("#plays button", has_text="1/6").first.tap()
    page.wait_for_selector("#step-marks:not([hidden])")
    page.locator("#nothing").tap()
    wait_acked(page, 1)
    # the école B may still mark until he throws, shown with its button (003 §167)
    page.wait_for_selector("#claims:not([hidden])")
    claim = page.inner_text("#claims-list li")
    assert "école de 2 points" in claim and "B peut la marquer (B:école+2)" in claim
    shoot(page, "record-360-claim")
    page.locator("#claims button[data-claim='B:école+2']").tap()  # in time: before B throws
    page.wait_for_function("document.getElementById('claims').hidden")
    assert write_record(stored(server, gid)).rstrip().endswith("1. A 4-1 1/6 B:école+2")
    assert [(k, who) for k, who, _ in findings(stored(server, gid))] == [("ecole-par-moins", "A")]
    # undone, A's coup entered again and the claim left for later: too late (003 §167)
    page.locator("#undo").tap()
    page.wait_for_function("document.getElementById('entry').dataset.acked == '0'")
    tap_roll(page, (4, 1))
    assert wait_step(page, 1) == "play"
    page.locator("#plays button", has_text="1/6").first.tap()
    page.wait_for_selector("#step-marks:not([hidden])")
    page.locator("#nothing").tap()
    wait_acked(page, 1)
    page.wait_for_selector("#claims:not([hidden])")
    tap_roll(page, (3, 2))
    wait_step(page, 2)
    # B's throw closed his claim: nothing is due and the play alone would write the coup;
    # his late claim typed with the play
    page.fill("#other-play input", "1/6 B:école+2")
    page.locator("#other-play button").tap()
    wait_acked(page, 2)
    late = fixture("fixtures/findings/e20-ecole-too-late.trn")
    assert [k for k, _, _ in findings(stored(server, gid))] == [k for k, _, _ in findings(late)]
    # A may now mark the école B claimed too late (003 §167): shown as a claim, not as a finding yet
    page.wait_for_function(
        "document.getElementById('claims-list').textContent.includes('A peut la marquer (A:école+2)')"
    )
    assert not visible(page, ".flags li[data-kind=ecole-too-late]")
    page.locator("#undo").tap()
    page.wait_for_function("document.getElementById('entry').dataset.acked == '1'")
    assert len(stored(server, gid).coups) == 1
    tap_roll(page, (3, 2))
    wait_step(page, 2)
    page.locator("#plays button", has_text="1/6").first.tap()  # nothing due: written at the tap
    wait_acked(page, 2)
    unclaimed = fixture("fixtures/findings/e20-unclaimed-ecole.trn")
    assert [k for k, _, _ in findings(stored(server, gid))] == [k for k, _, _ in findings(unclaimed)]

    # a hole taken by his points: s'en aller / tenir as two buttons; he leaves (003 §155)
    gid = start_game(
        page, server.url, "A", "B", position="A{1:9,8:1,9:1,11:2,12:2} B{1:14,10:1} coin=1/0 coups=5/5 points=10/0"
    )
    tap_roll(page, (3, 1))
    wait_step(page, 1)
    assert page.locator("#leave-box").is_visible() and page.locator("#stay").is_visible()
    shoot(page, "record-360-leave")
    page.locator("#leave").tap()
    page.wait_for_selector("#step-marks:not([hidden])")
    proposed = page.inner_text("#proposed")
    assert proposed.startswith("A+4t1") and proposed.endswith("A:s'en-va")
    page.locator("#accept").tap()
    wait_acked(page, 1)
    text = write_record(stored(server, gid))
    assert f"{proposed}\nrelevé 2\n" in text
    ctx.close()


def test_offline_and_restart_lose_nothing_and_double_nothing(browser, server):
    want = fixture("fixtures/records/douze_trous.trn")
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    gid = start_game(page, server.url, "Dupont", "Martin")
    for seq, coup in enumerate(want.coups[:2], 1):
        tap_coup(page, coup, seq)
    ctx.set_offline(True)  # the wifi drops: the throws are still taken, the plays typed
    for coup in want.coups[2:4]:
        tap_roll(page, coup.roll)
        page.wait_for_selector("#step-offline:not([hidden])")
        page.fill("#offline-form input", " ".join(f"{m.from_}/{m.to}" for m in coup.moves))
        page.locator("#offline-form button").tap()
    page.wait_for_function("document.getElementById('queue').textContent.includes('2 entrée')")
    shoot(page, "record-360-offline")
    assert len(stored(server, gid).coups) == 2  # nothing reached the server
    server.stop()  # and the server restarts meanwhile
    ctx.set_offline(False)
    page.wait_for_timeout(500)
    server.start()
    wait_acked(page, 4, timeout=30000)
    assert page.evaluate("localStorage.getItem('tt-queue-" + gid + "')") == "[]"
    # the same coup sent again (an answer lost on the way): taken once
    again = page.evaluate(
        """async () => { const r = await fetch(location.pathname.replace('/noter', '/coup'), {method: 'POST',
             headers: {'Content-Type': 'application/json', 'X-CSRF-Token': document.querySelector('meta[name=csrf]').content},
             body: JSON.stringify({seq: 3, roll: '43', play: '1/5 1/4', marks: ''})}); return r.json(); }"""
    )
    assert again["status"] == "duplicate" and again["written"] == 4
    page.reload()
    page.wait_for_selector("#entry:not([hidden])")
    assert page.get_attribute("#entry", "data-acked") == "4"
    for seq, coup in enumerate(want.coups[4:], 5):
        tap_coup(page, coup, seq)
    got = stored(server, gid)  # each coup once, in order: the fixture but its opening remark
    assert write_record(Record(elements=got.elements)) == write_record(Record(elements=want.elements[1:]))
    ctx.close()


def test_followers_see_each_coup_and_the_standings_when_a_game_ends(browser, server):
    want = fixture("fixtures/records/douze_trous.trn")
    table = browser.new_context(**PHONE)
    screen = browser.new_context(**SCREEN)
    page = table.new_page()
    gid = start_game(page, server.url, "Dupont", "Martin")
    follow = screen.new_page()
    follow.goto(f"{server.url}/g/{gid}")
    club = screen.new_page()
    club.goto(server.url + "/")
    club.wait_for_selector(f"#card-{gid}")
    for seq, coup in enumerate(want.coups, 1):
        tap_coup(page, coup, seq)
        line = f"{coup.number}. {coup.side} {coup.roll[0]}-{coup.roll[1]}"
        follow.wait_for_function(
            "(t) => document.getElementById('record-lines') && document.getElementById('record-lines').textContent.includes(t)",
            arg=line,
            timeout=10000,
        )
        club.wait_for_function(
            "(a) => document.querySelector('#card-' + a[0] + ' .last').textContent.includes(a[1])",
            arg=[gid, line],
            timeout=10000,
        )
    shoot(follow, "follow-1280")
    shoot(club, "club-1280")
    phone_club = table.new_page()
    phone_club.goto(server.url + "/")
    shoot(phone_club, "club-360")
    wide = screen.new_page()  # the recording page on a tablet or a laptop
    wide.goto(f"{server.url}/g/{gid}/noter")
    wide.wait_for_selector("#entry:not([hidden])")
    shoot(wide, "record-1280")

    # a partie that ends on the next throw: A has 11 holes and 10 points (003 §218)
    standings = screen.new_page()
    standings.goto(server.url + "/classement")
    assert "Leclerc" not in standings.content()
    gid2 = start_game(page, server.url, "Leclerc", "Morel", position=E20 + " points=10/0 holes=11/3")
    tap_roll(page, (3, 1))
    assert wait_step(page, 1) == "marks"
    page.locator("#accept").tap()
    wait_acked(page, 1)
    page.wait_for_function("document.getElementById('turn').textContent.includes('Partie finie : A 12-3')")
    standings.wait_for_function("document.body.textContent.includes('Leclerc')", timeout=30000)
    shoot(standings, "standings-1280")
    phone_st = table.new_page()
    phone_st.goto(server.url + "/classement")
    shoot(phone_st, "standings-360")
    club.wait_for_function("(g) => document.body.textContent.includes('Leclerc')", arg=gid2)
    pages = screen.new_page()
    pages.goto(server.url + "/pages/index.html")
    assert "Leclerc" in pages.content() and "Morel" in pages.content()
    assert stored(server, gid2).headers["Result"] == "A 12-3"
    table.close()
    screen.close()


def test_password_and_forged_form_refused(browser, tmp_path):
    srv = Server(tmp_path / "club.db", "--password", "sésame").start()
    try:
        ctx = browser.new_context(**PHONE)
        page = ctx.new_page()
        page.goto(srv.url + "/nouvelle")
        assert page.url.endswith("/login")  # no page without the password
        r = page.request.post(srv.url + "/nouvelle", form={"a_new": "X", "b_new": "Y"})
        assert r.status == 401
        page.fill("input[name=password]", "faux")
        page.locator("button[type=submit]").tap()
        assert "inexact" in page.inner_text("p.error")
        page.fill("input[name=password]", "sésame")
        page.locator("button[type=submit]").tap()
        page.wait_for_url(srv.url + "/")
        forged(ctx, srv)
        ctx.close()
    finally:
        srv.stop()
    srv = Server(tmp_path / "other.db").start()  # loopback, no password: the CSRF token still guards
    try:
        ctx = browser.new_context(**PHONE)
        ctx.new_page().goto(srv.url + "/")
        assert "jeton" in forged(ctx, srv)
        page = ctx.new_page()  # the club's own page without its token: refused too
        page.goto(srv.url + "/")
        r = page.request.post(srv.url + "/nouvelle", form={"a_new": "X", "b_new": "Y"})
        assert r.status == 403
        ctx.close()
    finally:
        srv.stop()


def forged(ctx, srv: Server) -> str:
    """A page of another site posting a start form to the club's server: refused, nothing made."""
    evil = ctx.new_page()
    evil.set_content(
        f'<form method="post" action="{srv.url}/nouvelle"><input name="a_new" value="X">'
        '<input name="b_new" value="Y"><input name="csrf" value="forged"></form>'
    )
    with evil.expect_navigation():
        evil.evaluate("document.forms[0].submit()")
    text = evil.content()
    assert not list(Path(str(srv.db) + ".games").glob("*.trn"))
    return text


def test_two_devices_on_one_game_never_write_two_versions_of_a_coup(browser, server):
    ctx = browser.new_context(**PHONE)
    first = ctx.new_page()
    gid = start_game(first, server.url, "Dupont", "Martin")
    other = browser.new_context(**PHONE)  # another phone: its own cookie and queue
    second = other.new_page()
    second.goto(f"{server.url}/g/{gid}/noter")
    second.wait_for_selector("#entry:not([hidden])")
    tap_roll(first, (2, 1))  # the first device shows the plays of 2-1 for coup 1 ...
    assert wait_step(first, 1) == "play"
    tap_roll(second, (4, 3))  # ... while the second writes another coup 1
    assert wait_step(second, 1) == "play"
    second.locator("#plays button[data-play='1']").tap()
    wait_acked(second, 1)
    # the first is told, its entry dropped and the game read again
    first.wait_for_function("document.getElementById('status').textContent.includes('Un autre appareil')")
    first.wait_for_function("document.getElementById('entry').dataset.acked == '1'")
    r = first.evaluate(
        """async () => { const r = await fetch(location.pathname.replace('/noter', '/coup'), {method: 'POST',
             headers: {'Content-Type': 'application/json', 'X-CSRF-Token': document.querySelector('meta[name=csrf]').content},
             body: JSON.stringify({seq: 1, roll: '21', play: '1', marks: ''})}); return [r.status, await r.json()]; }"""
    )
    assert r[0] == 409 and r[1]["status"] == "conflict" and r[1]["coup"].startswith("1. A 4-3")
    coups = stored(server, gid).coups
    assert len(coups) == 1 and coups[0].roll == (4, 3)
    ctx.close()
    other.close()
