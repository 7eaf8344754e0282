"""The web application of `lobo-hint serve`: a page, and the JSON API it calls.

The routes only read requests and answer: the games are the store's (the companion's sessions),
the hints the hint service's (the companion's `ask_hint` in worker processes), the page's JSON
views.py's. Every refusal is a JSON object {"error": "one sentence"} with a 4xx status, and
changes nothing; a body's keys are the request's own (an unknown key, or a key given twice, is
refused, as the CLI refuses them). A game the server cannot save (a full disk) is refused the same
way with 507 Insufficient Storage, and changes nothing; any other fault of the server's own is
still said as JSON, with 500.

Access: with a token (always when the server listens beyond this machine) every request must
carry it, as ?token=… (the address `serve` prints; the page then keeps it in a cookie), the
cookie, or an X-Lobo-Token header. Bound to this machine only, the Host header must name it too
(no other site can reach the server by renaming itself to 127.0.0.1), and a change is only taken
as a JSON body (which a form of another site cannot send).
"""

from __future__ import annotations

import asyncio
import html
import json
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from solver.core.cards import DIFFICULTIES
from solver.core.games import GAMES, LOBO_TARGET
from solver.core.games import game as game_of
from solver.core.jsonio import MAX_DIGITS
from solver.core.position import PositionError, parse_rules
from solver.play.companion import NOTHING_TO_ANALYSE, cut, decisions_made
from solver.play.driver import MAX_TARGET, PLAY, REWARD, GameError, Setup, seed_from_json, waiting_for
from web.hints import ANALYSIS, DONE, HintService
from web.protocol import HEAD_SECONDS
from web.store import Entry, Store, WebError, save_text
from web.views import game_view, summary_view, undone_cards

STATIC = Path(__file__).parent / "static"
COOKIE = "lobo_token"
HEADER = "x-lobo-token"
MAX_BODY = 2 * 1024 * 1024  # a save file of thousands of steps is some 100 KB
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]", "testserver")
REFUSED = (
    '<!doctype html><html lang="en"><meta charset="utf-8">'
    '<meta name="viewport" content="width=device-width, initial-scale=1"><title>lobo-hint</title>'
    '<body style="font-family: system-ui, sans-serif; margin: 2em; line-height: 1.4"><h1>lobo-hint</h1><p>{}</p></body></html>'
)


class ServerSettings:
    """What the routes share: the games, the hint service, the access rules, the hint default."""

    def __init__(self, store: Store, hints: HintService, token: str | None, local_only: bool, seconds: float) -> None:
        self.store = store
        self.hints = hints
        self.token = token
        self.local_only = local_only
        self.seconds = seconds


def error(status: int, message: str) -> JSONResponse:
    # A lone surrogate (a key "\ud800" of a request, quoted back) cannot be UTF-8: escaped, never a 500
    # (found by a review).
    shown = message.encode("utf-8", "backslashreplace").decode("utf-8")
    return JSONResponse({"error": shown}, status_code=status)


class Guard(BaseHTTPMiddleware):
    def __init__(self, app: Any, settings: ServerSettings) -> None:
        super().__init__(app)
        self.settings = settings

    async def dispatch(self, request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        s = self.settings
        if s.local_only:
            host = request.headers.get("host", "").lower()
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if name not in LOCAL_HOSTS:
                return error(400, f"this server answers only to this machine's own names, not {host!r}")
        from_query = False
        if s.token is not None:
            given = request.query_params.get("token")
            from_query = given is not None
            given = given or request.headers.get(HEADER) or request.cookies.get(COOKIE) or ""
            if not secrets.compare_digest(given.encode(), s.token.encode()):
                what = "a wrong access token" if given else "no access token"
                message = f"{what}: open the address lobo-hint serve printed (it ends in ?token=…) on this device"
                if request.url.path.startswith("/api/"):
                    return error(401, message)
                return HTMLResponse(REFUSED.format(html.escape(message)), status_code=401)
        # POST is the only method the API takes a body with: any other (PUT, PATCH) is left to the
        # routes, which answer 405 whatever its body, not 415.
        if request.method == "POST" and request.url.path.startswith("/api/"):
            kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                return error(415, "send the request as JSON (Content-Type: application/json)")
        response = await call_next(request)
        if from_query and s.token is not None:
            # The page keeps the token, so its own requests need not carry it in their addresses.
            response.set_cookie(COOKIE, s.token, httponly=True, samesite="strict", max_age=30 * 24 * 3600)
        return response


def _too_big() -> WebError:
    return WebError(413, f"the request is larger than {MAX_BODY // 1024 // 1024} MiB")


def _number(text: str) -> int:
    # No count, card or step of a game has more than a few digits; Python's int() of thousands
    # would be slow or refused (a ValueError that is no answer).
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise WebError(400, f"a number in the request has more than {MAX_DIGITS} digits")
    return int(text)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """One JSON object of a request, a key given twice refused: of two values the server would
    otherwise take the last without a word (the CLI refuses it too)."""
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise WebError(
                400, f"the key {json.dumps(cut(key), ensure_ascii=False)} appears twice in one object of the request"
            )
        data[key] = value
    return data


async def body(request: Request, known: tuple[str, ...]) -> dict[str, Any]:
    """The request's JSON object, whose keys must be among `known` (a misspelt key would otherwise
    be ignored, as the CLI refuses it). The size is refused as it arrives (its declared length,
    then every chunk), never after the whole of it was read into memory."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise _too_big()
    chunks, size = [], 0
    try:
        # A body that trickles in is cut off as its head would be (web/protocol.py; found by a review).
        async with asyncio.timeout(HEAD_SECONDS):
            async for chunk in request.stream():
                size += len(chunk)
                if size > MAX_BODY:
                    raise _too_big()
                chunks.append(chunk)
    except ClientDisconnect:  # a body the HTTP parser could not read (a bad chunk), or cut off
        raise WebError(400, "the request body did not arrive whole") from None
    except TimeoutError:
        raise WebError(408, f"the request body did not arrive whole within {HEAD_SECONDS:g} s") from None
    raw = b"".join(chunks)
    try:
        data = json.loads(raw or b"{}", parse_int=_number, object_pairs_hook=_object)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise WebError(400, f"the request body is not valid JSON ({e})") from None
    except RecursionError:
        raise WebError(400, "the request body is nested too deeply") from None
    if not isinstance(data, dict):
        raise WebError(400, "the request body must be a JSON object")
    unknown = [k for k in data if k not in known]
    if unknown:
        name = json.dumps(cut(unknown[0]), ensure_ascii=False)
        keys = f"the known keys are {', '.join(known)}" if known else "this request takes no keys: send {}"
        raise WebError(400, f"unknown key {name} in the request; {keys}")
    return data


# The keys each request's body may have.
NEW_GAME = ("game", "difficulty", "mode", "seed", "target", "rules")
UPLOAD = ("text",)
STEP = ("at", "rev", "line")
UNDO = ("at", "rev", "count")
HINT = ("at", "rev", "seconds")  # and an analysis
# Stopping a hint changes no game: a page may name the step it saw, as for a change, but it is not
# checked (a hint is stopped whatever step the page shows).
CANCEL = ("at", "rev")


# The methods a route that answers them all names (by_method refuses the ones it has no handler for).
EVERY_METHOD = ("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def by_method(**handlers: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    """One endpoint for a path that several methods use, each to its handler (HEAD as GET). A
    route that takes every method answers the others 405 here: a path that a pattern (a game's id)
    matches too is then not passed on to that pattern's route."""
    allow = ", ".join(sorted({*handlers, *(("HEAD",) if "GET" in handlers else ())}))

    async def endpoint(request: Request) -> Response:
        method = "GET" if request.method == "HEAD" else request.method
        if method not in handlers:
            raise HTTPException(405, headers={"Allow": allow})
        return await handlers[method](request)

    return endpoint


def _said(value: Any) -> str:
    """A value of the request as the request wrote it (JSON: null, "HARD"), cut if long (a review:
    Python's None and 'HARD')."""
    return cut(json.dumps(value, ensure_ascii=False))


def create_app(
    store: Store, hints: HintService, *, token: str | None = None, local_only: bool = True, seconds: float = 2.0
) -> Starlette:
    settings = ServerSettings(store, hints, token, local_only, seconds)

    def view(
        entry: Entry, request: Request | None = None, status: int = 200, extra: dict[str, Any] | None = None
    ) -> JSONResponse:
        job = hints.job(entry.id)
        if job is not None and job.state == DONE and job.note is not None:
            store.attach_hint(entry.id, job.revision, job.note)
            entry = store.get(entry.id)
        if job is not None and job.state == DONE and job.analysis is not None:
            store.attach_analysis(entry.id, job.analysis)
        whole = request is not None and request.query_params.get("all") in ("1", "true")
        return JSONResponse({**game_view(entry, job, whole), **(extra or {})}, status_code=status)

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    async def list_games(request: Request) -> Response:
        return JSONResponse(
            {
                "games": [summary_view(e, hints.job(e.id)) for e in store.entries()],
                "engine": {"ready": hints.ready(), "running": hints.running()},
                "seconds": seconds,
                "games_folder": str(store.folder),
                "skipped": store.skipped,
            }
        )

    async def new_game(request: Request) -> Response:
        data = await body(request, NEW_GAME)
        game = data.get("game", "vanguard")
        difficulty = data.get("difficulty", "standard")
        mode = data.get("mode", "virtual")
        # A list or an object is no name (and `in` a dict of names would raise on it).
        if not isinstance(game, str) or game not in GAMES:
            raise WebError(400, f"game: {_said(game)} is not one of {', '.join(GAMES)}")
        if not isinstance(difficulty, str) or difficulty not in DIFFICULTIES:
            raise WebError(400, f"difficulty: {_said(difficulty)} is not one of {', '.join(DIFFICULTIES)}")
        if not isinstance(mode, str) or mode not in ("virtual", "physical"):
            raise WebError(400, 'mode: "virtual" (the program deals) or "physical" (you tap the cards dealt)')
        seed = data.get("seed")
        if mode == "physical" and seed is not None:
            raise WebError(400, "seed: only a virtual game has a seed")
        if mode == "virtual":
            if seed is None:
                seed = secrets.randbelow(1_000_000)
            try:
                seed = seed_from_json(seed)
            except GameError as e:
                raise WebError(400, str(e)) from None
        target = data.get("target")
        if target is not None and not game_of(game).is_race:
            raise WebError(400, "target: only lobo is a race to a score")
        if target is not None and (not isinstance(target, int) or isinstance(target, bool)):
            raise WebError(400, f"target: a whole number from 1 to {MAX_TARGET}, the score that wins")
        try:
            setup = Setup.asked(game, difficulty, LOBO_TARGET if target is None else target)
            rules = parse_rules(data.get("rules"))
        except (GameError, PositionError) as e:
            raise WebError(400, str(e)) from None
        refused = rules.refused(game_of(game))
        if refused:
            raise WebError(400, f"rules.{refused}")
        setup = replace(setup, rules=rules)
        return view(store.create(setup, seed if mode == "virtual" else None), status=201)

    async def upload(request: Request) -> Response:
        data = await body(request, UPLOAD)
        text = data.get("text")
        if not isinstance(text, str):
            raise WebError(400, 'send the save file\'s text as {"text": "..."}')
        return view(store.upload(text), status=201)

    async def get_game(request: Request) -> Response:
        return view(store.get(request.path_params["game_id"]), request)

    async def step(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        data = await body(request, STEP)
        entry = store.step(game_id, data.get("at"), data.get("rev"), data.get("line"))
        hints.forget(game_id, say=True)  # a hint still thinking was for the table before
        return view(entry, request)

    async def take_back(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        data = await body(request, UNDO)
        entry, taken = store.undo(game_id, data.get("at"), data.get("rev"), data.get("count", 1))
        hints.forget(game_id, say=True)
        cards = undone_cards(taken)
        return view(entry, request, extra=None if cards is None else {"undone": cards})

    async def hint(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        data = await body(request, HINT)
        entry = store.get(game_id)
        store.check(entry, data.get("at"), data.get("rev"))
        t = entry.session.table
        if t.over:
            raise WebError(400, f"nothing to hint: the game is over ({t.result})")
        if t.phase not in (PLAY, REWARD):
            raise WebError(400, f"nothing to hint: the table waits for {waiting_for(t)}")
        limit = data.get("seconds", seconds)
        if not isinstance(limit, (int, float)) or isinstance(limit, bool) or not 0 < limit <= 3600:
            raise WebError(400, "seconds: the time a hint may take, more than 0 and at most 3600")
        try:
            hints.start(game_id, entry.revision, entry.session, float(limit), "reward" if t.phase == REWARD else "hint")
        except ValueError as e:
            raise WebError(429, str(e)) from None  # busy: a refusal to ask again later, not a fault
        return view(entry, request)

    async def analyse(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        data = await body(request, HINT)
        entry = store.get(game_id)
        store.check(entry, data.get("at"), data.get("rev"))
        if not decisions_made(entry.session):
            raise WebError(400, NOTHING_TO_ANALYSE)
        limit = data.get("seconds", seconds)
        if not isinstance(limit, (int, float)) or isinstance(limit, bool) or not 0 < limit <= 3600:
            raise WebError(400, "seconds: the time each decision may take, more than 0 and at most 3600")
        try:
            hints.start(game_id, entry.revision, entry.session, float(limit), ANALYSIS)
        except ValueError as e:
            raise WebError(429, str(e)) from None  # busy: a refusal to ask again later, not a fault
        return view(entry, request)

    async def get_analysis(request: Request) -> Response:
        entry = store.get(request.path_params["game_id"])
        view(entry)  # a finished analysis joins the game first
        if entry.analysis is None:
            if entry.analysis_outdated:
                raise WebError(404, "a step the analysis covered was taken back: analyse the game again")
            raise WebError(404, "this game has not been analysed yet")
        return JSONResponse({**entry.analysis, "current": entry.analysis["at"] == len(entry.session.game.steps)})

    async def cancel(request: Request) -> Response:
        entry = store.get(request.path_params["game_id"])
        await body(request, CANCEL)
        if hints.cancel(entry.id) is None:
            raise WebError(409, "no hint is thinking for this game")
        return view(entry, request)

    async def download(request: Request) -> Response:
        entry = store.get(request.path_params["game_id"])
        return Response(
            save_text(entry.session),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="lobo-{entry.id}.json"'},
        )

    async def delete(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        store.delete(game_id)
        hints.forget(game_id)
        return JSONResponse({"deleted": game_id})

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, WebError)
        answer = error(exc.status, exc.message)
        if exc.status == 408:  # the rest of that body may still come: it must not be read as a request
            answer.headers["Connection"] = "close"
        return answer

    async def not_found(request: Request, exc: Exception) -> Response:
        # A mistyped page address in a browser (/g/, /g/a%2Fb) goes to the list of games, token
        # kept, not to a page of raw JSON (found by a review); scripts still get the JSON 404.
        path = request.url.path
        page_wanted = "text/html" in request.headers.get("accept", "") and not path.startswith(("/api/", "/static/"))
        if request.method == "GET" and page_wanted:
            return RedirectResponse("/" + (f"?{request.url.query}" if request.url.query else ""), status_code=303)
        return error(404, f"nothing at {path}")

    async def not_allowed(request: Request, exc: Exception) -> Response:
        # The methods the route takes, said and in Allow (RFC 9110; found by a review).
        allow = (getattr(exc, "headers", None) or {}).get("Allow", "")
        said = f" (it takes {allow})" if allow else ""
        answer = error(405, f"{request.method} is not how {request.url.path} is used{said}")
        if allow:
            answer.headers["Allow"] = allow
        return answer

    async def failed(request: Request, exc: Exception) -> Response:
        # A fault of the server's own: said as JSON like every other answer (the log has the rest).
        return error(500, f"the server failed on this request: {type(exc).__name__}")

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        hints.close()

    g = "/api/games/{game_id}"
    routes = [
        Route("/", page),
        Route("/g/{game_id}", page),
        # One route a path, whatever its methods: a 405 names them all in Allow (found by a
        # review: two routes on one path, and the answer named the first one's only).
        Route("/api/games", by_method(GET=list_games, POST=new_game), methods=["GET", "POST"]),
        # Every method, so that GET is told POST is the way, not that no game "upload" exists.
        Route("/api/games/upload", by_method(POST=upload), methods=EVERY_METHOD),
        Route(g, by_method(GET=get_game, DELETE=delete), methods=["GET", "DELETE"]),
        Route(g + "/step", step, methods=["POST"]),
        Route(g + "/undo", take_back, methods=["POST"]),
        Route(g + "/hint", hint, methods=["POST"]),
        Route(g + "/hint/cancel", cancel, methods=["POST"]),
        Route(g + "/save", download, methods=["GET"]),
        Route(g + "/analyse", analyse, methods=["POST"]),
        Route(g + "/analysis", get_analysis, methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(Guard, settings=settings)],
        exception_handlers={WebError: refused, 404: not_found, 405: not_allowed, Exception: failed},
        lifespan=lifespan,
    )
    # A path with a slash too many is a JSON 404 like any other unknown path, not a bare redirect
    # (found by a review: 307 with no body, where every other answer is JSON).
    app.router.redirect_slashes = False
    return app


__all__ = ["create_app"]
