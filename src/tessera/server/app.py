"""The web app: the page, its JSON API and a WebSocket per page for live updates.

Routes (``TOKEN`` travels in the ``X-Tessera-Token`` header, or as the WebSocket's first
message, never in a URL, so it stays out of logs and histories):

- ``GET /`` and ``GET /g/{id}`` — the page (plain HTML/CSS/JS modules under ``/static``)
- ``GET /api/meta`` — rules presets, lexicons and computer levels for the new-game dialog
- ``POST /api/games`` — start a game; answers its id and the token of its human seats
- ``GET /api/games/{id}/state[?seat=N]`` — one seat's view
- ``POST /api/games/{id}/move`` — play, exchange, pass, challenge or resign
- ``POST /api/games/{id}/check`` — the score of a tentative play
- ``POST /api/games/{id}/hints`` — the best plays for your own rack
- ``GET /api/games/{id}/gcg`` — the finished game's record
- ``WS /api/games/{id}/ws`` — pushes ``{"type": "state", "state": …}`` after every change
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from tessera.rules import PRESETS

from .computer import levels
from .hub import DEFAULT_LEXICON, DEFAULT_RULES, WEB_PRESETS, Hub, Listener, RequestError
from .storage import Storage

log = logging.getLogger("tessera.server")
TOKEN_HEADER = "x-tessera-token"
STATIC = resources.files("tessera.server") / "static"


def _error(exc: RequestError) -> JSONResponse:
    return JSONResponse({"error": exc.message, "reason": exc.reason}, status_code=exc.status)


async def _body(request: Request) -> dict[str, Any]:
    try:
        data = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise RequestError(400, "bad_json", "the request body is not JSON") from None
    if not isinstance(data, dict):
        raise RequestError(400, "bad_json", "the request body must be a JSON object")
    return data


def _token(request: Request) -> str:
    return request.headers.get(TOKEN_HEADER, "")


def _describe_preset(name: str) -> str:
    rules = PRESETS[name]
    parts = [
        rules.challenge_rule.value + " challenge"
        if rules.challenge_rule.value != "void"
        else "invalid words refused"
    ]
    if rules.board != "standard15":
        parts.append(rules.board)
    if rules.clock is not None:
        parts.append(f"{rules.clock.initial_ms // 60000} min clock")
    parts.append(f"{rules.min_players}–{rules.max_players} players")
    return ", ".join(parts)


def create_app(
    database: str,
    *,
    bot_delay_s: float = 0.4,
    hub: Hub | None = None,
) -> Starlette:
    """The app over a database URL (``sqlite:///FILE``; ``postgresql://…`` works too)."""
    the_hub = hub or Hub(Storage(database), bot_delay_s=bot_delay_s)

    async def page(request: Request) -> Response:
        return FileResponse(str(STATIC / "index.html"), headers={"Cache-Control": "no-store"})

    async def theme(request: Request) -> Response:
        from tessera.render.svg import theme_css

        return Response(theme_css(), media_type="text/css")

    async def meta(request: Request) -> Response:
        from tessera.lexicon.lexicon import available

        lexicons = sorted({DEFAULT_LEXICON, *(a.name for a in available())})
        presets = [
            {
                "name": n,
                "description": _describe_preset(n),
                "min_players": PRESETS[n].min_players,
                "max_players": PRESETS[n].max_players,
            }
            for n in WEB_PRESETS
        ]
        return JSONResponse(
            {
                "presets": presets,
                "default_rules": DEFAULT_RULES,
                "lexicons": lexicons,
                "default_lexicon": DEFAULT_LEXICON,
                "levels": list(levels()),
            }
        )

    async def create(request: Request) -> Response:
        try:
            game_id, token = await the_hub.create(await _body(request))
        except RequestError as exc:
            return _error(exc)
        return JSONResponse({"id": game_id, "token": token}, status_code=201)

    async def state(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        asked = request.query_params.get("seat")
        try:
            seat = int(asked) if asked is not None else None
        except ValueError:
            return _error(RequestError(400, "bad_seat", f"seat {asked!r} is not a number"))
        try:
            seats = await the_hub.seats_for(game_id, _token(request))
            session = await the_hub.session(game_id)
            async with session.lock:
                return JSONResponse(the_hub.payload(session, seats, seat))
        except RequestError as exc:
            return _error(exc)

    async def _seat_request(
        request: Request, call: Callable[[str, str, Any], Awaitable[Any]], key: str | None = None
    ) -> Response:
        """A game action from a seat's token and JSON body; ``key`` wraps the result."""
        try:
            body = await _body(request)
            result = await call(request.path_params["game_id"], _token(request), body)
        except RequestError as exc:
            return _error(exc)
        return JSONResponse(result if key is None else {key: result})

    async def move(request: Request) -> Response:
        return await _seat_request(request, the_hub.act)

    async def check(request: Request) -> Response:
        return await _seat_request(request, the_hub.check)

    async def hints(request: Request) -> Response:
        return await _seat_request(request, the_hub.hints, "hints")

    async def gcg(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        try:
            text = await the_hub.gcg(game_id, _token(request))
        except RequestError as exc:
            return _error(exc)
        return PlainTextResponse(
            text, headers={"Content-Disposition": f'attachment; filename="tessera-{game_id}.gcg"'}
        )

    async def socket(websocket: WebSocket) -> None:
        game_id = websocket.path_params["game_id"]
        await websocket.accept()
        try:
            hello = await websocket.receive_json()
            token = str(hello.get("token", "")) if isinstance(hello, dict) else ""
            seats = await the_hub.seats_for(game_id, token)
            session = await the_hub.session(game_id)
            asked = hello.get("seat")
            listener = Listener(
                seats, websocket.send_json, asked if isinstance(asked, int) else None
            )
            async with session.lock:
                first = the_hub.payload(session, seats, listener.seat)
            await websocket.send_json({"type": "state", "state": first})
            session.listeners.add(listener)
        except RequestError as exc:
            await websocket.send_json({"type": "error", "error": exc.message, "reason": exc.reason})
            await websocket.close(code=4403 if exc.status == 403 else 4404)
            return
        except (WebSocketDisconnect, ValueError):
            return
        try:
            while True:
                await websocket.receive_text()  # pings; all actions go over HTTP
        except WebSocketDisconnect:
            pass
        finally:
            session.listeners.discard(listener)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # compile (first run) or map the default word list now, not on the first "Start"
        warm = asyncio.get_running_loop().run_in_executor(None, the_hub.lexicon, DEFAULT_LEXICON)
        yield
        with contextlib.suppress(Exception):
            await warm
        await the_hub.close()
        the_hub.storage.close()

    routes = [
        Route("/", page),
        Route("/g/{game_id}", page),
        Route("/theme.css", theme),
        Route("/api/meta", meta),
        Route("/api/games", create, methods=["POST"]),
        Route("/api/games/{game_id}/state", state),
        Route("/api/games/{game_id}/move", move, methods=["POST"]),
        Route("/api/games/{game_id}/check", check, methods=["POST"]),
        Route("/api/games/{game_id}/hints", hints, methods=["POST"]),
        Route("/api/games/{game_id}/gcg", gcg),
        WebSocketRoute("/api/games/{game_id}/ws", socket),
        Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hub = the_hub
    return app
