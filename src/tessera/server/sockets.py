"""The WebSockets: one per game page (its state after every change) and one per lobby page
(seek list changes, challenges, games starting). The session cookie travels with the
handshake; the first message says hello (a game page may name the seat it shows). A socket
that says nothing in time, sends binary or oversized frames, or opens past the per-address
cap is closed with a reason.

A game page makes its moves on its socket too: ``{"type":"move","id":N,"move":{…}}`` is made
exactly as ``POST /api/games/{id}/move`` makes it (same checks, same rate limit, the session
looked up afresh) and answered on the socket with ``{"type":"answer","id":N,…}``: ``ok`` true
and the new ``seq`` (the state itself has already come, as to every page of the game), ``ok``
false with the rules' ``reason`` and ``message``, or the HTTP ``status`` the request would have
had with its ``reason`` and ``error``. A move over the socket skips HTTP's parsing and
middleware and a second copy of the state. Any other message is a ping, but JSON nested too
deeply to read closes the socket with 4400.

A socket belongs to the login session whose cookie opened it: when that session ends (logging
out; changing the password ends the others) the socket is closed with 4401 at once, in
whichever server process holds it (:mod:`.session_sockets`). The page reconnects as it does
after any drop, and is then whoever its cookie now says (no one: a spectator, no rack)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import Counter
from collections.abc import AsyncIterator

from sqlalchemy.exc import SQLAlchemyError
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..legality import IllegalMove
from .accounts import User, token_hash
from .config import ServerConfig
from .errors import NestedTooDeeply, RequestError, parse_json, parse_json_object
from .game_sessions import Listener
from .hub import Hub
from .ratelimit import RateLimits
from .session_sockets import SessionSocket, SessionSockets
from .web import COOKIE, client_address, current_user, require_user

log = logging.getLogger(__name__)


class SocketRefused(Exception):
    """A WebSocket closed by the server: ``code`` and a short reason for the page."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


async def receive_text(websocket: WebSocket, timeout: float | None, limit: int) -> str:
    """The next text frame, within ``timeout`` and ``limit`` characters."""
    try:
        message = await asyncio.wait_for(websocket.receive(), timeout)
    except TimeoutError:
        raise SocketRefused(4408, "no hello in time") from None
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        raise SocketRefused(1003, "send text frames")
    if len(text) > limit:
        raise SocketRefused(1009, "message too large")
    return text


async def close(websocket: WebSocket, code: int, message: str, reason: str) -> None:
    """Tell the page why, then close (quietly if it is already gone)."""
    if websocket.application_state is not WebSocketState.CONNECTED:
        return
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps({"type": "error", "error": message, "reason": reason}))
        await websocket.close(code=code)


MOVE_MESSAGE = 'a move over the socket is {"type":"move","id":N,"move":{…}}'


async def hang_up(websocket: WebSocket, code: int = 1012, reason: str = "") -> None:
    """Close with 1012 (service restart; 4401: the session ended): the page reconnects and
    is sent the game afresh."""
    with contextlib.suppress(Exception):
        await websocket.close(code=code, reason=reason)


def answer_text(ident: int | None, **fields: object) -> str:
    return json.dumps({"type": "answer", "id": ident, **fields}, separators=(",", ":"))


def routes(
    hub: Hub, config: ServerConfig, limits: RateLimits, counts: Counter[str]
) -> list[WebSocketRoute]:
    open_sessions = SessionSockets()
    hub.notifier.subscribe(open_sessions.on_event)

    @contextlib.asynccontextmanager
    async def admitted(websocket: WebSocket) -> AsyncIterator[SessionSocket | None]:
        """Count the socket against its address's cap and file it under its session (closed
        when the session ends); None when over the cap (then closed)."""
        client = client_address(websocket)
        if counts[client] >= config.ws_per_client:
            await websocket.close(code=1008, reason="too many connections from this address")
            yield None
            return
        counts[client] += 1
        entry = open_sessions.add(
            token_hash(websocket.cookies.get(COOKIE, "")),
            lambda: hang_up(websocket, 4401, "the session has ended"),
        )
        try:
            yield entry
        finally:
            open_sessions.remove(entry)
            counts[client] -= 1
            if counts[client] <= 0:
                del counts[client]

    async def identified(websocket: WebSocket, entry: SessionSocket, user: User) -> bool:
        """File the socket under its user; False (and closed) if its session has ended."""
        if open_sessions.in_doubt(entry, user.id):
            hub.accounts.forget_cached(user.id)
            token = websocket.cookies.get(COOKIE, "")
            if await asyncio.to_thread(hub.accounts.session_user, token) is None:
                await hang_up(websocket, 4401, "the session has ended")
                return False
        open_sessions.identify(entry, user.id)
        return True

    async def hello(websocket: WebSocket) -> dict[str, object]:
        text = await receive_text(websocket, config.ws_hello_timeout_s, config.max_ws_message_bytes)
        try:
            return parse_json_object(text.encode())
        except RequestError as exc:
            raise SocketRefused(4400, exc.message) from None

    async def pings(websocket: WebSocket) -> None:
        """Keep reading (pings) until the page goes."""
        while True:
            await receive_text(websocket, None, config.max_ws_message_bytes)

    async def moves(websocket: WebSocket, game_id: str) -> None:
        """Keep reading until the page goes: moves are made and answered one at a time (a
        page waits for each answer), anything else is a ping."""
        while True:
            text = await receive_text(websocket, None, config.max_ws_message_bytes)
            try:
                message = parse_json(text)
            except NestedTooDeeply as exc:
                raise SocketRefused(4400, exc.message) from None
            except RequestError:
                continue
            if isinstance(message, dict) and message.get("type") == "move":
                answer = await answer_move(websocket, game_id, message)
                if websocket.application_state is not WebSocketState.CONNECTED:
                    return  # hung up meanwhile (the game was rebuilt): the page reconnects
                await websocket.send_text(answer)

    async def answer_move(websocket: WebSocket, game_id: str, message: dict) -> str:
        ident = message.get("id")
        if type(ident) is not int or not 0 <= ident < 2**53:
            ident = None
        try:
            body = message.get("move")
            if ident is None or not isinstance(body, dict):
                raise RequestError(400, "bad_request", MOVE_MESSAGE)
            user = await require_user(hub, websocket)
            limits.check("move", user.id)
            await hub.act(game_id, user, body)
        except IllegalMove as exc:
            return answer_text(ident, ok=False, reason=exc.reason.value, message=str(exc))
        except RequestError as exc:
            return answer_text(ident, status=exc.status, reason=exc.reason, error=exc.message)
        except SQLAlchemyError as exc:
            log.warning("database error on a move over the socket: %s", type(exc).__name__)
            return answer_text(
                ident, status=503, reason="storage", error="the game store is not answering"
            )
        session = hub.sessions.get(game_id)
        return answer_text(ident, ok=True, seq=session.seq if session is not None else None)

    async def game_socket(websocket: WebSocket) -> None:
        game_id = websocket.path_params["game_id"]
        async with admitted(websocket) as entry:
            if entry is None:
                return
            listener: Listener | None = None
            session = None
            try:
                await websocket.accept()
                data = await hello(websocket)
                asked = data.get("seat")
                if asked is not None and type(asked) is not int:
                    raise SocketRefused(4400, "hello is {seat?}")
                user = await current_user(hub, websocket)
                if user is not None and not await identified(websocket, entry, user):
                    return
                session, seats = await hub.watch_session(game_id, user)
                listener = Listener(
                    seats,
                    websocket.send_text,  # type: ignore[arg-type]
                    asked,
                    hang_up=lambda: hang_up(websocket),
                    viewer=user,
                )
                async with session.lock:
                    await hub.catch_up(session)
                    first = hub.state_text(session, listener.seats, listener.seat)
                await websocket.send_text(f'{{"type":"state","state":{first}}}')
                await hub.join(session, listener)  # then who watches, to every page
                await moves(websocket, game_id)
            except RequestError as exc:
                code = 4403 if exc.status == 403 else 4404 if exc.status == 404 else 4400
                await close(websocket, code, exc.message, exc.reason)
            except SQLAlchemyError:
                await close(websocket, 1011, "the game store is not answering", "storage")
            except SocketRefused as exc:
                await close(websocket, exc.code, exc.reason, "bad_message")
            except WebSocketDisconnect:
                pass
            finally:
                if session is not None and listener is not None:
                    hub.leave(session, listener)

    async def lobby_socket(websocket: WebSocket) -> None:
        async with admitted(websocket) as entry:
            if entry is None:
                return
            send = websocket.send_text
            user_id = None
            try:
                await websocket.accept()
                await hello(websocket)
                user = await current_user(hub, websocket)
                if user is not None and not await identified(websocket, entry, user):
                    return
                hub.lobby_sockets.add(send)
                if user is not None:
                    user_id = user.id
                    hub.user_sockets.setdefault(user_id, set()).add(send)
                await send('{"type":"lobby"}')
                await pings(websocket)
            except SQLAlchemyError:
                await close(websocket, 1011, "the game store is not answering", "storage")
            except SocketRefused as exc:
                await close(websocket, exc.code, exc.reason, "bad_message")
            except WebSocketDisconnect:
                pass
            finally:
                hub.lobby_sockets.discard(send)
                if user_id is not None:
                    mine = hub.user_sockets.get(user_id)
                    if mine is not None:
                        mine.discard(send)
                        if not mine:
                            del hub.user_sockets[user_id]

    return [
        WebSocketRoute("/api/games/{game_id}/ws", game_socket),
        WebSocketRoute("/api/lobby/ws", lobby_socket),
    ]
