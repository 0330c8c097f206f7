"""The lobby over HTTP: open seeks and live games, post a seek (open, to one player, or as an
invitation link), take one, withdraw or decline one."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .errors import RequestError
from .game_requests import WEB_PRESETS
from .hub import Hub
from .ratelimit import RateLimits
from .web import current_user, json_body, require_user


def routes(hub: Hub, limits: RateLimits) -> list[Route]:
    lobby = hub.lobby

    async def listing(request: Request) -> Response:
        user = await current_user(hub, request)
        seeks, live = await asyncio.gather(
            asyncio.to_thread(lobby.listing, user),
            asyncio.to_thread(hub.storage.live_online_games, 50),
        )
        return JSONResponse({**seeks, "live": live})

    async def post(request: Request) -> Response:
        user = await require_user(hub, request)
        limits.check("seek", user.id)
        body = await json_body(request)
        seek = await asyncio.to_thread(lobby.create, user, body, WEB_PRESETS)
        data = seek.public()
        if seek.target_id is not None:
            challenge = {"type": "challenge", "seek": data, "from": user.name}
            await hub.notifier.publish({"kind": "user", "user": seek.target_id, "event": challenge})
        elif not seek.invite:
            await hub.notifier.publish({"kind": "lobby"})
        return JSONResponse({"seek": data, "link": f"/invite/{seek.id}"}, status_code=201)

    async def show(request: Request) -> Response:
        seek = await asyncio.to_thread(lobby.get, request.path_params["seek_id"])
        if seek is None:
            raise RequestError(404, "no_seek", "no such seek")
        return JSONResponse({"seek": seek.public()})

    async def accept(request: Request) -> Response:
        user = await require_user(hub, request)
        limits.check("seek", user.id)
        try:
            seek = await asyncio.to_thread(lobby.claim, user, request.path_params["seek_id"])
        except RequestError as exc:
            if exc.reason == "seeker_in_game":  # withdrawn: the lobby pages list it no more
                await hub.notifier.publish({"kind": "lobby"})
            raise
        game_id = await hub.start_taken(seek, user)
        return JSONResponse({"game_id": game_id}, status_code=201)

    async def cancel(request: Request) -> Response:
        user = await require_user(hub, request)
        seek = await asyncio.to_thread(lobby.cancel, user, request.path_params["seek_id"])
        if seek.target_id == user.id:  # a declined challenge: tell who made it
            declined = {"type": "declined", "seek_id": seek.id, "by": user.name}
            await hub.notifier.publish({"kind": "user", "user": seek.user_id, "event": declined})
        await hub.notifier.publish({"kind": "lobby"})
        return JSONResponse({"ok": True})

    return [
        Route("/api/lobby", listing),
        Route("/api/seeks", post, methods=["POST"]),
        Route("/api/seeks/{seek_id}", show),
        Route("/api/seeks/{seek_id}/accept", accept, methods=["POST"]),
        Route("/api/seeks/{seek_id}/cancel", cancel, methods=["POST"]),
    ]
