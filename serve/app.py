"""The web application of ``trictrac serve`` (Starlette, Jinja2 templates; docs/serve.md).

Pages read without JavaScript (server-rendered HTML; the live pages refresh themselves
through ``<noscript>`` meta refresh); ``static/tt.js`` adds the entry at the table, the
queue of entries kept in the page while the network is down, and the live updates
(server-sent events, ``/events``).  Every POST carries the session's CSRF token; with a
club password every page but the login asks for it (``serve.security``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..replay.rules.profiles import PROFILES
from ..words import Said
from .games import GameStore, LiveGame, Outcome, StartError, Submission, board_defs_html, board_of
from .security import COOKIE, Guard, Visitor, is_loopback, load_secret
from .words import DEFAULT_LANG, LANG_COOKIE, Speaker, error_said, js_words, lang_choice, said_in, say

__all__ = ["ServeConfig", "create_app", "run_server"]

Handler = Callable[[Request], Awaitable[Response]]


class ServeConfig:
    """What ``trictrac serve`` was started with."""

    def __init__(
        self,
        db: str | os.PathLike[str],
        *,
        host: str = "127.0.0.1",
        password: str | None = None,
        club: str | None = None,
        event: str | None = None,
        publish: bool = True,
    ) -> None:
        self.db = Path(db).resolve()
        self.folder = Path(str(self.db) + ".games")
        self.host = host
        self.password = password
        self.club = club
        self.event = event
        self.publish = publish
        if not is_loopback(host) and not password:
            raise ValueError(f"--host {host}: a club password is required beyond this machine (--password)")


class Hub:
    """Tells the live pages what changed (server-sent events): one queue per listener."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.queues: set[asyncio.Queue[dict[str, Any] | None]] = set()

    def publish(self, event: dict[str, Any]) -> None:
        loop = self.loop
        if loop is None:
            return

        def put() -> None:
            for q in list(self.queues):
                with contextlib.suppress(asyncio.QueueFull):
                    q.put_nowait(event)

        with contextlib.suppress(RuntimeError):  # the loop closed: the server is stopping
            loop.call_soon_threadsafe(put)

    def close(self) -> None:
        for q in list(self.queues):
            with contextlib.suppress(asyncio.QueueFull):
                q.put_nowait(None)


class Archivist:
    """Stores finished games in the club database (``club.db.import_records``, the path
    of ``db import``) and publishes the club's pages again, one job at a time, off the
    request that wrote the last coup."""

    def __init__(self, cfg: ServeConfig, store: GameStore, hub: Hub) -> None:
        self.cfg, self.store, self.hub = cfg, store, hub
        self.lock = threading.Lock()
        self.site: Path | None = None
        self.errors: list[object] = []  # said in each viewer's language (words.said_in)
        self.jobs = 0
        existing = sorted(cfg.folder.glob(".site-*"))
        if existing:
            self.site = existing[-1]

    def finished(self, game: LiveGame) -> None:
        self.jobs += 1
        threading.Thread(target=self._store, args=(game,), daemon=True).start()

    def _store(self, game: LiveGame) -> None:
        from ..club.db import import_records

        try:
            with self.lock:
                with game.lock:  # the game's own file, as `trictrac db import` reads it (no undo meanwhile)
                    if not game.finished or game.meta.get("stored"):
                        return
                    report = import_records(self.cfg.db, [str(game.path)])
                    if report.failures:
                        self.errors.append(report.failures[0])
                        return
                    game.meta["stored"] = report.game_ids[0] if report.game_ids else "yes"
                    self.store.save_meta(game)
                self._publish()
            self.hub.publish({"kind": "standings"})
        except Exception as err:  # a failed store must not stop the evening: shown on the club screen
            self.errors.append(error_said(err))
        finally:
            self.jobs -= 1

    def publish_now(self) -> None:
        with self.lock:
            self._publish()

    def _publish(self) -> None:
        """The club's published pages, from the database, into a new folder swapped in."""
        if not self.cfg.publish or not self.cfg.db.exists():
            return
        from ..club.db import open_db
        from ..club.standings import compute_standings, selected_games, standing_games
        from ..publish.site import publish_files

        db = open_db(self.cfg.db, readonly=True)
        try:
            standings = compute_standings(standing_games(db))
            chosen = selected_games(db)
        finally:
            db.conn.close()
        if not chosen:
            return
        target = self.cfg.folder / f".site-{time.time_ns()}"
        with tempfile.TemporaryDirectory(dir=self.cfg.folder, prefix=".pub-") as tmp:
            src = Path(tmp) / "club.trn"
            src.write_text("".join(text.rstrip("\n") + "\n\n" for _, _, text in chosen), encoding="utf-8")
            publish_files([src], target, club=self.cfg.club, standings=standings)
        old, self.site = self.site, target
        for d in self.cfg.folder.glob(".site-*"):
            if d != target and d != old:
                shutil.rmtree(d, ignore_errors=True)


def _env() -> Environment:
    env = Environment(loader=PackageLoader("trictrac.serve", "templates"), autoescape=select_autoescape(default=True))
    env.globals["board_defs"] = board_defs_html
    return env


def _plays_of(game: LiveGame) -> dict[str, Any]:
    st = game.session.state
    return {"stage": st.stage, "side": st.side, "number": st.number, "finished": st.finished, "result": st.result}


def findings_of(session: Any, lang: str = DEFAULT_LANG) -> list[dict[str, Any]]:
    """The verifier's findings on the record so far (those of ``trictrac check`` on the
    file), in the words of the published pages; but a mistake its adversary may still
    claim (the record's end is not the game's) is shown as a claim with its button
    (:meth:`LiveGame.claims`), as the recorder does."""
    from ..publish.messages import finding_consequence, finding_kind_name, finding_message, seat_names

    names = seat_names(session.record)
    out = []
    for f in session.report.findings:
        if f.claim_open:
            continue
        out.append(
            {
                "coup": f.coup,
                "kind": f.kind,
                "name": finding_kind_name(f, lang),
                "text": finding_message(f, lang, names),
                "consequence": finding_consequence(f, lang, names),
            }
        )
    return out


def game_view(game: LiveGame, lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """What the templates show of a game in ``lang`` (made once per change of the game,
    off the event loop: the followers read it far more often than a coup is written)."""
    seen = game.views.get(lang)  # read without the lock: a coup being written holds it
    if seen is not None and seen[0] == game.version:
        return dict(seen[1])
    with game.lock:
        seen = game.views.get(lang)
        if seen is not None and seen[0] == game.version:
            return dict(seen[1])
        view = _game_view(game, lang)
        game.views[lang] = (game.version, view)
        return dict(view)


async def view_of(game: LiveGame, lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """``game_view`` for a request: at once when made, else made in a worker thread (the
    event loop never waits for a game's lock)."""
    seen = game.views.get(lang)
    if seen is not None and seen[0] == game.version:
        return dict(seen[1])
    return await run_in_threadpool(game_view, game, lang)


def _game_view(game: LiveGame, lang: str) -> dict[str, Any]:
    s = game.session
    h = s.record.headers
    coups = s.record.coups
    st = s.state
    score = s.table.score
    side_name = h.get(st.side, st.side)
    last = [line for line in s.text().split("\n") if line and not line.startswith("[")][-8:]
    return {
        "gid": game.gid,
        "table": game.table,
        "a": h.get("A", "A"),
        "b": h.get("B", "B"),
        "partie": h.get("Partie", ""),
        "profile": h.get("Profile", ""),
        "score": score,
        "score_text": s.score_text(),
        "written": len(coups),
        "next": len(coups) + 1,
        "state": _plays_of(game),
        "side_name": side_name,
        "side_label": st.side if side_name == st.side else f"{st.side} ({side_name})",
        "flags": findings_of(s, lang),
        "claims": game.claims(lang),
        "last_lines": last,
        "last_messages": game.said(lang),
        "board": board_of(game, lang=lang),
        "finished": st.finished,
        "result": st.result,
        "stored": bool(game.meta.get("stored")),
        "version": game.version,
    }


def create_app(cfg: ServeConfig) -> Starlette:
    """The application (``uvicorn`` serves it; the tests drive it too)."""
    store = GameStore(cfg.folder, club=cfg.club, event=cfg.event)
    guard = Guard(load_secret(cfg.folder), cfg.password)
    hub = Hub()
    archivist = Archivist(cfg, store, hub)
    env = _env()
    static_dir = Path(__file__).with_name("static")

    def changed(gid: str) -> None:
        """A game changed (``GameStore.changed``, a worker thread): its view made for the
        pages, then the pages told."""
        game = store.get(gid)
        if game is not None:
            game_view(game)
        hub.publish({"kind": "game", "game": gid})

    store.on_change = changed
    store.on_finish = archivist.finished

    # -- helpers ---------------------------------------------------------------------------
    def visitor_of(request: Request) -> Visitor:
        return guard.visitor(request.cookies.get(COOKIE))

    def with_cookie(resp: Response, v: Visitor) -> Response:
        if v.fresh:
            resp.set_cookie(COOKIE, guard.cookie_value(v.sid, v.authed), httponly=True, samesite="strict", path="/")
        return resp

    def lang_of(request: Request) -> str:
        return lang_choice(request.query_params.get("lang"), request.cookies.get(LANG_COOKIE))[0]

    def with_lang(request: Request, resp: Response) -> Response:
        """``?lang=`` chose the pages' language: kept in a cookie for the next pages."""
        lang, chosen = lang_choice(request.query_params.get("lang"), request.cookies.get(LANG_COOKIE))
        if chosen:
            resp.set_cookie(LANG_COOKIE, lang, max_age=400 * 86400, samesite="strict", path="/")
        return resp

    def render(request: Request, v: Visitor, name: str, status: int = 200, **ctx: Any) -> Response:
        lang = lang_of(request)
        other = "en" if lang == "fr" else "fr"
        ctx.update(
            csrf=v.csrf,
            club=cfg.club,
            needs_password=cfg.password is not None,
            say=Speaker(lang),
            lang=lang,
            other_lang=other,
            # the same page in the other language (an error's page: the club screen)
            other_href=f"{request.url.path if status == 200 else '/'}?lang={other}",
        )
        html = env.get_template(name).render(**ctx)
        return with_lang(request, with_cookie(HTMLResponse(html, status_code=status), v))

    def page(handler: Callable[[Request, Visitor], Awaitable[Response]], *, post: bool = False) -> Handler:
        """Password (when set) and CSRF (every POST) checked before ``handler``."""

        async def run(request: Request) -> Response:
            v = visitor_of(request)
            if not v.authed:
                if request.method == "GET" and "text/html" in request.headers.get("accept", ""):
                    return with_cookie(RedirectResponse("/login", status_code=303), v)
                return with_cookie(
                    JSONResponse({"status": "login", "message": say("login", lang_of(request))}, status_code=401), v
                )
            if post or request.method == "POST":
                token = request.headers.get("x-csrf-token")
                if token is None and request.headers.get("content-type", "").startswith(
                    ("application/x-www-form-urlencoded", "multipart/form-data")
                ):
                    token = str((await request.form()).get("csrf") or "")
                if not guard.check_csrf(v, token):
                    if "application/json" in request.headers.get("content-type", ""):
                        return JSONResponse(
                            {"status": "forbidden", "message": say("forbidden", lang_of(request))}, status_code=403
                        )
                    return render(request, v, "message.html", status=403, message=say("forbidden", lang_of(request)))
            return await handler(request, v)

        return run

    def game_or_404(request: Request) -> LiveGame | None:
        return store.get(str(request.path_params.get("gid", "")))

    async def body(request: Request) -> dict[str, Any]:
        if request.headers.get("content-type", "").startswith("application/json"):
            try:
                data = await request.json()
            except ValueError:
                return {}
            return data if isinstance(data, dict) else {}
        return {k: v for k, v in (await request.form()).items() if isinstance(v, str)}

    def seq_of(data: dict[str, Any]) -> int:
        try:
            return int(data.get("seq", 0))
        except (TypeError, ValueError):
            return 0

    def not_found(request: Request, v: Visitor) -> Response:
        return render(request, v, "message.html", status=404, message=say("not_found", lang_of(request)))

    # -- pages -----------------------------------------------------------------------------
    async def club(request: Request, v: Visitor) -> Response:
        return render(request, v, "club.html", **(await club_context(lang_of(request))))

    async def club_context(lang: str) -> dict[str, Any]:
        return {
            "games": [await view_of(g, lang) for g in store.in_progress()],
            "done": [await view_of(g, lang) for g in store.finished()],
            "errors": [
                said_in(e, lang)
                for e in archivist.errors[-3:]
                + store.errors[-3:]
                + [Said("w6.srv.where", at=k, what=m) for k, m in store.unreadable.items()]
            ],
            "site": archivist.site is not None,
        }

    async def club_part(request: Request, v: Visitor) -> Response:
        return render(request, v, "club_part.html", **(await club_context(lang_of(request))))

    def players() -> list[str]:
        names: set[str] = set()
        if cfg.db.exists():
            from ..club.db import open_db
            from ..club.queries import list_players

            try:
                db = open_db(cfg.db, readonly=True)
                try:
                    names.update(p["name"] for p in list_players(db))
                finally:
                    db.conn.close()
            except Exception:  # an unreadable database: the names typed will do
                pass
        for g in store.games.values():
            names.update((g.headers.get("A", ""), g.headers.get("B", "")))
        return sorted((n for n in names if n), key=str.casefold)

    async def new_form(request: Request, v: Visitor) -> Response:
        return render(
            request,
            v,
            "new.html",
            players=players(),
            profiles=sorted(PROFILES),
            table=say("table_default", lang_of(request), n=len(store.in_progress()) + 1),
            error=None,
            form={},
        )

    async def new_game(request: Request, v: Visitor) -> Response:
        form = await body(request)

        def pick(side: str) -> str:
            return str(form.get(f"{side}_new") or "").strip() or str(form.get(f"{side}_pick") or "").strip()

        partie = "douze-trous"
        if form.get("partie") == "a-ecrire":
            try:
                n = max(1, min(99, int(form.get("marques") or 4)))
            except ValueError:
                n = 4
            partie = f"a-ecrire {n}"
        try:
            game = await run_in_threadpool(
                store.start,
                pick("a"),
                pick("b"),
                partie=partie,
                profile=str(form.get("profile") or "lelasseux-1852"),
                table=str(form.get("table") or ""),
                first=str(form.get("first") or "A"),
                event=str(form.get("event") or "") or None,
                position=str(form.get("position") or "") or None,
                remark=str(form.get("remark") or "") or None,
            )
        except StartError as err:
            return render(
                request,
                v,
                "new.html",
                status=400,
                players=players(),
                profiles=sorted(PROFILES),
                table=str(form.get("table") or ""),
                error=say("bad_start", lang_of(request), why=err.say(lang_of(request))),
                form=form,
            )
        store.changed(game)
        return with_cookie(RedirectResponse(f"/g/{game.gid}/noter", status_code=303), v)

    async def follow(request: Request, v: Visitor) -> Response:
        game = game_or_404(request)
        if game is None:
            return not_found(request, v)
        return render(request, v, "follow.html", g=await view_of(game, lang_of(request)))

    async def game_part(request: Request, v: Visitor) -> Response:
        game = game_or_404(request)
        if game is None:
            return not_found(request, v)
        return render(request, v, "game_part.html", g=await view_of(game, lang_of(request)))

    async def record_page(request: Request, v: Visitor) -> Response:
        game = game_or_404(request)
        if game is None:
            return not_found(request, v)
        return render(
            request,
            v,
            "record.html",
            g=await view_of(game, lang_of(request)),
            rolls=_ROLLS,
            js_words=js_words(lang_of(request)),
            recording=True,
        )

    async def state(request: Request, v: Visitor) -> Response:
        game = game_or_404(request)
        if game is None:
            return JSONResponse({"status": "missing"}, status_code=404)
        lang = lang_of(request)
        g = await view_of(game, lang)
        html = env.get_template("game_part.html").render(g=g, csrf=v.csrf, say=Speaker(lang), recording=True)
        return JSONResponse(
            {"next": g["next"], "state": g["state"], "version": g["version"], "html": html, "claims": g["claims"]}
        )

    async def preview(request: Request, v: Visitor) -> Response:
        game = game_or_404(request)
        if game is None:
            return JSONResponse({"status": "missing"}, status_code=404)
        data = await body(request)
        play = data.get("play")
        out = await run_in_threadpool(
            game.preview,
            seq_of(data),
            str(data.get("roll") or ""),
            None if play is None else str(play),
            lang_of(request),
        )
        return JSONResponse(out)

    async def coup(request: Request, v: Visitor) -> Response:
        began = time.perf_counter()
        game = game_or_404(request)
        if game is None:
            return JSONResponse({"status": "missing"}, status_code=404)
        data = await body(request)
        lang = lang_of(request)
        sub = Submission(str(data.get("roll") or ""), str(data.get("play") or ""), str(data.get("marks") or ""))

        def timed(now: bool) -> tuple[Outcome | None, float, float]:
            t0, c0 = time.perf_counter(), time.thread_time()
            out = game.submit_now(seq_of(data), sub, lang) if now else game.submit(seq_of(data), sub, lang)
            return out, time.perf_counter() - t0, time.thread_time() - c0

        # taken here on the event loop when the game's lock is free (a few milliseconds, its
        # fsync included: no hop to a worker thread and back before the answer), else in a
        # worker thread (a preview, a view or a store holds the lock: the loop never waits)
        out, wall, cpu = timed(True)
        if out is None:
            out, wall, cpu = await run_in_threadpool(timed, False)
        assert out is not None
        if out.status == "ok":
            store.changed(game)
        resp = answer(request, game, out.as_dict())
        # the time the coup took to be taken and written, and the whole answer's (the load test reads them)
        whole = time.perf_counter() - began
        resp.headers["Server-Timing"] = (
            f"take;dur={wall * 1000:.1f}, cpu;dur={cpu * 1000:.1f}, ack;dur={whole * 1000:.1f}"
        )
        return resp

    def answer(request: Request, game: LiveGame, out: dict[str, Any]) -> Response:
        if request.headers.get("content-type", "").startswith("application/json"):
            code = {"ok": 200, "duplicate": 200, "conflict": 409, "error": 422}.get(out["status"], 200)
            return JSONResponse(out, status_code=code)
        if out["status"] in ("ok", "duplicate"):  # the form without script
            return RedirectResponse(f"/g/{game.gid}/noter", status_code=303)
        v = visitor_of(request)
        why = out["message"] or say("conflict", lang_of(request), n=out["next"] - 1, coup=out["coup"])
        return render(
            request,
            v,
            "record.html",
            status=409,
            g=game_view(game, lang_of(request)),
            rolls=_ROLLS,
            js_words=js_words(lang_of(request)),
            recording=True,
            error=why,
        )

    async def undo(request: Request, v: Visitor) -> Response:
        game = game_or_404(request)
        if game is None:
            return JSONResponse({"status": "missing"}, status_code=404)
        out = await run_in_threadpool(game.undo, seq_of(await body(request)), lang_of(request))
        if out.status == "ok":
            store.changed(game)
            await run_in_threadpool(store.save_meta, game)
        return answer(request, game, out.as_dict())

    async def comment(request: Request, v: Visitor) -> Response:
        game = game_or_404(request)
        if game is None:
            return JSONResponse({"status": "missing"}, status_code=404)
        data = await body(request)
        out = await run_in_threadpool(game.comment, seq_of(data), str(data.get("text") or ""), lang_of(request))
        if out.status == "ok":
            store.changed(game)
        return answer(request, game, out.as_dict())

    async def claim(request: Request, v: Visitor) -> Response:
        game = game_or_404(request)
        if game is None:
            return JSONResponse({"status": "missing"}, status_code=404)
        data = await body(request)
        out = await run_in_threadpool(game.claim, seq_of(data), str(data.get("marks") or ""), lang_of(request))
        if out.status == "ok":
            store.changed(game)
        return answer(request, game, out.as_dict())

    async def standings(request: Request, v: Visitor) -> Response:
        lang = lang_of(request)
        html = await run_in_threadpool(standings_html, lang)
        live = f'<script src="/static/tt.js" defer data-live="standings" data-csrf="{v.csrf}"></script>'
        html = html.replace("</body>", f"{live}</body>", 1)
        # the published sheet on a phone: its wide tables scroll instead of overflowing
        html = html.replace("</head>", "<style>section.feuille{overflow-x:auto}</style></head>", 1)
        # the server's own links above the published sheet: back to the tables, a new game, the language
        S, other = Speaker(lang), "en" if lang == "fr" else "fr"
        nav = env.from_string(
            '<nav class="tt-serve" style="display:flex;gap:1.2em;flex-wrap:wrap;padding:.5em 1em;'
            'background:#7a1f1f;font:1rem system-ui,sans-serif"><a style="color:#fff" href="/">{{ t }}</a>'
            ' <a style="color:#fff" href="/nouvelle">{{ n }}</a> <a style="color:#fff" href="/classement?lang={{ o }}"'
            ' lang="{{ o }}">{{ l }}</a></nav>'
        ).render(t=S("club_screen"), n=S("new_game"), o=other, l=S("language"))
        html = re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + nav, html, count=1)
        return with_lang(request, with_cookie(HTMLResponse(html), v))

    def standings_html(lang: str) -> str:
        from ..club.standings import compute_standings, standing_games
        from ..publish.standings import render_standings

        st: dict[str, Any] = {"games": 0, "tables": {}}
        if cfg.db.exists():
            from ..club.db import open_db

            db = open_db(cfg.db, readonly=True)
            try:
                st = compute_standings(standing_games(db))
            finally:
                db.conn.close()
        return render_standings(st, lang=lang, club=cfg.club, from_db=True, index_href="/")

    async def site(request: Request, v: Visitor) -> Response:
        root = archivist.site
        rel = str(request.path_params.get("path") or "index.html") or "index.html"
        if root is None:
            return not_found(request, v)
        base = root.resolve()
        target = (base / rel).resolve()
        if target.is_dir():
            target = target / "index.html"
        if base not in target.parents or not target.is_file():  # nothing outside the site
            return not_found(request, v)
        return FileResponse(target)

    async def events(request: Request, v: Visitor) -> Response:
        want = request.query_params.get("game")
        q: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(maxsize=256)
        hub.queues.add(q)

        async def stream() -> AsyncIterator[str]:
            try:
                yield "retry: 2000\n\n"
                while True:
                    try:
                        ev = await asyncio.wait_for(q.get(), 15)
                    except asyncio.TimeoutError:
                        yield ": ping\n\n"
                        continue
                    if ev is None:
                        return
                    if want and ev.get("game") not in (None, want):
                        continue
                    yield f"data: {json.dumps(ev)}\n\n"
            finally:
                hub.queues.discard(q)

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})

    async def login_form(request: Request) -> Response:
        v = visitor_of(request)
        return render(request, v, "login.html", error=None)

    async def login(request: Request) -> Response:
        v = visitor_of(request)
        form = await body(request)
        if not guard.check_csrf(v, str(form.get("csrf") or "")):
            return render(request, v, "message.html", status=403, message=say("forbidden", lang_of(request)))
        if not guard.check_password(str(form.get("password") or "")):
            await asyncio.sleep(0.5)  # a slow answer to guesses
            return render(request, v, "login.html", status=401, error=say("bad_password", lang_of(request)))
        resp = RedirectResponse("/", status_code=303)
        resp.set_cookie(COOKIE, guard.cookie_value(v.sid, True), httponly=True, samesite="strict", path="/")
        return resp

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        for g in store.finished():  # a game that ended just before a stop: stored now
            if not g.meta.get("stored"):
                archivist.finished(g)
        if archivist.site is None and cfg.db.exists():
            threading.Thread(target=archivist.publish_now, daemon=True).start()
        yield
        hub.close()

    routes = [
        Route("/", page(club)),
        Route("/part/club", page(club_part)),
        Route("/nouvelle", page(new_form)),
        Route("/nouvelle", page(new_game, post=True), methods=["POST"]),
        Route("/g/{gid}", page(follow)),
        Route("/g/{gid}/part", page(game_part)),
        Route("/g/{gid}/noter", page(record_page)),
        Route("/g/{gid}/state", page(state)),
        Route("/g/{gid}/preview", page(preview, post=True), methods=["POST"]),
        Route("/g/{gid}/coup", page(coup, post=True), methods=["POST"]),
        Route("/g/{gid}/undo", page(undo, post=True), methods=["POST"]),
        Route("/g/{gid}/comment", page(comment, post=True), methods=["POST"]),
        Route("/g/{gid}/claim", page(claim, post=True), methods=["POST"]),
        Route("/classement", page(standings)),
        Route("/pages/{path:path}", page(site)),
        Route("/events", page(events)),
        Route("/login", login_form),
        Route("/login", login, methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(static_dir)), name="static"),
    ]
    middleware = []
    if is_loopback(cfg.host):  # a page elsewhere cannot reach this server through a name of its own
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=["127.0.0.1", "localhost", "[::1]", "::1"]))
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
    app.state.store = store
    app.state.archivist = archivist
    app.state.hub = hub
    return app


_ROLLS = [f"{a}{b}" for a in range(6, 0, -1) for b in range(a, 0, -1)]


def run_server(app: Starlette, host: str, port: int) -> None:
    """Serve ``app`` with uvicorn until stopped (``trictrac serve``)."""
    import sys

    import uvicorn

    # a thread busy with Python code (a page's view, a game stored) gives the GIL back
    # within a millisecond: the event loop and a coup being written wait no longer
    sys.setswitchinterval(0.001)
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False, timeout_graceful_shutdown=2)
