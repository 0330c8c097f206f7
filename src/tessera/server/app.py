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

Every request passes :mod:`.guard` first (Host, Origin, body size, JSON). A database that
cannot answer gives 503, never a bare 500.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from typing import Any

from sqlalchemy.exc import SQLAlchemyError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from tessera.rules import PRESETS

from .computer import levels
from .config import ServerConfig
from .errors import RequestError, error_response, parse_json_object
from .guard import guard_middleware
from .hub import DEFAULT_RULES, WEB_PRESETS, Hub, Listener
from .ratelimit import RateLimits
from .storage import Storage

log = logging.getLogger("tessera.server")
TOKEN_HEADER = "x-tessera-token"
STATIC = resources.files("tessera.server") / "static"
EVICT_EVERY_S = 30.0


async def _body(request: Request) -> dict[str, Any]:
    return parse_json_object(await request.body())


def _token(request: Request) -> str:
    return request.headers.get(TOKEN_HEADER, "")


def _client(conn: Request | WebSocket) -> str:
    return conn.client.host if conn.client else "unknown"


def _json_text(text: str) -> Response:
    return Response(text, media_type="application/json")


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


def _seat_query(request: Request) -> int | None:
    asked = request.query_params.get("seat")
    if asked is None:
        return None
    if not (asked.isdigit() and len(asked) <= 2):
        raise RequestError(400, "bad_seat", "seat must be a small whole number")
    return int(asked)


class SocketRefused(Exception):
    """A WebSocket closed by the server: ``code`` and a short reason for the page."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def create_app(
    database: str,
    *,
    config: ServerConfig | None = None,
    hub: Hub | None = None,
) -> Starlette:
    """The app over a database URL (``sqlite:///FILE``; ``postgresql://…`` works too)."""
    config = config or ServerConfig()
    the_hub = hub or Hub(Storage(database), config)
    limits = RateLimits({"create_game": f"{config.games_per_minute}/minute"})
    sockets: Counter[str] = Counter()  # open WebSockets per client address

    async def page(request: Request) -> Response:
        return FileResponse(str(STATIC / "index.html"), headers={"Cache-Control": "no-store"})

    async def theme(request: Request) -> Response:
        from tessera.render.svg import theme_css

        return Response(theme_css(), media_type="text/css")

    async def meta(request: Request) -> Response:
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
                "lexicons": list(config.lexicons),
                "default_lexicon": config.default_lexicon,
                "levels": list(levels()),
            }
        )

    async def create(request: Request) -> Response:
        limits.check("create_game", _client(request))
        game_id, token = await the_hub.create(await _body(request))
        return JSONResponse({"id": game_id, "token": token}, status_code=201)

    async def state(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        seat = _seat_query(request)
        seats = await the_hub.seats_for(game_id, _token(request))
        session = await the_hub.session(game_id)
        async with session.lock:
            return _json_text(the_hub.state_text(session, seats, seat))

    async def _seat_request(
        request: Request, call: Callable[[str, str, Any], Awaitable[Any]], key: str | None = None
    ) -> Response:
        """A game action from a seat's token and JSON body; ``key`` wraps the result."""
        body = await _body(request)
        result = await call(request.path_params["game_id"], _token(request), body)
        return JSONResponse(result if key is None else {key: result})

    async def move(request: Request) -> Response:
        body = await _body(request)
        return _json_text(await the_hub.act(request.path_params["game_id"], _token(request), body))

    async def check(request: Request) -> Response:
        return await _seat_request(request, the_hub.check)

    async def hints(request: Request) -> Response:
        return await _seat_request(request, the_hub.hints, "hints")

    async def gcg(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        text = await the_hub.gcg(game_id, _token(request))
        return PlainTextResponse(
            text, headers={"Content-Disposition": f'attachment; filename="tessera-{game_id}.gcg"'}
        )

    async def receive_text(websocket: WebSocket, timeout: float | None) -> str:
        """The next text frame, within ``timeout`` and the message size limit."""
        try:
            message = await asyncio.wait_for(websocket.receive(), timeout)
        except TimeoutError:
            raise SocketRefused(4408, "no hello in time") from None
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        text = message.get("text")
        if text is None:
            raise SocketRefused(1003, "send text frames")
        if len(text) > config.max_ws_message_bytes:
            raise SocketRefused(1009, "message too large")
        return text

    async def hello(websocket: WebSocket, game_id: str) -> Listener:
        """The page's first message: its token (and the seat it shows)."""
        text = await receive_text(websocket, config.ws_hello_timeout_s)
        try:
            data = parse_json_object(text.encode())
        except RequestError as exc:
            raise SocketRefused(4400, exc.message) from None
        token = data.get("token")
        asked = data.get("seat")
        if not isinstance(token, str) or (asked is not None and type(asked) is not int):
            raise SocketRefused(4400, "hello is {token, seat?}")
        seats = await the_hub.seats_for(game_id, token)
        return Listener(seats, websocket.send_text, asked)

    async def socket(websocket: WebSocket) -> None:
        game_id = websocket.path_params["game_id"]
        client = _client(websocket)
        if sockets[client] >= config.ws_per_client:
            await websocket.close(code=1008, reason="too many connections from this address")
            return
        sockets[client] += 1
        listener: Listener | None = None
        session = None
        try:
            await websocket.accept()
            listener = await hello(websocket, game_id)
            session = await the_hub.session(game_id)
            async with session.lock:
                if listener.seat is not None and listener.seat not in listener.seats:
                    raise RequestError(403, "forbidden", "you cannot view another player's seat")
                first = the_hub.state_text(session, listener.seats, listener.seat)
            await websocket.send_text(f'{{"type":"state","state":{first}}}')
            session.listeners.add(listener)
            while True:  # pings; all actions go over HTTP
                await receive_text(websocket, None)
        except RequestError as exc:
            await _close(websocket, 4403 if exc.status == 403 else 4404, exc.message, exc.reason)
        except SQLAlchemyError:
            await _close(websocket, 1011, "the game store is not answering", "storage")
        except SocketRefused as exc:
            await _close(websocket, exc.code, exc.reason, "bad_message")
        except WebSocketDisconnect:
            pass
        finally:
            sockets[client] -= 1
            if sockets[client] <= 0:
                del sockets[client]
            if session is not None and listener is not None:
                session.listeners.discard(listener)

    async def on_request_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestError)
        return exc.response()

    async def on_database_error(request: Request, exc: Exception) -> Response:
        log.warning("database error on %s: %s", request.url.path, type(exc).__name__)
        return error_response(503, "storage", "the game store is not answering; try again")

    async def evict_forever() -> None:
        while True:
            await asyncio.sleep(EVICT_EVERY_S)
            the_hub.evict_idle()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # compile (first run) or map the default word list now, not on the first "Start"
        loop = asyncio.get_running_loop()
        warm = loop.run_in_executor(None, the_hub.lexicon, config.default_lexicon)
        evictor = loop.create_task(evict_forever())
        yield
        evictor.cancel()
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
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={RequestError: on_request_error, SQLAlchemyError: on_database_error},
        middleware=guard_middleware(
            allowed_hosts=config.allowed_hosts,
            allowed_origins=config.allowed_origins,
            max_body=config.max_body_bytes,
        ),
    )
    app.state.hub = the_hub
    app.state.sockets = sockets
    return app


async def _close(websocket: WebSocket, code: int, message: str, reason: str) -> None:
    """Tell the page why, then close (quietly if it is already gone)."""
    if websocket.application_state is not WebSocketState.CONNECTED:
        return
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps({"type": "error", "error": message, "reason": reason}))
        await websocket.close(code=code)
