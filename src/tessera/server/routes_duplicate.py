"""Duplicate games over HTTP (R8.4, :mod:`.duplicates`): start one, read its view, hand in
a person's play, close a round of computers alone, and the record once the game is over.
Only the game's owner may see or play it."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from .duplicate_requests import read_next, read_play, read_start
from .duplicate_views import view_json
from .duplicates import Duplicates
from .hub import Hub
from .ratelimit import RateLimits
from .web import client_address, json_body, require_user


def routes(hub: Hub, duplicates: Duplicates, limits: RateLimits) -> list[Route]:
    async def create(request: Request) -> Response:
        user = await require_user(hub, request)
        limits.check("create_game", client_address(request))
        start = read_start(await json_body(request) if await request.body() else {})
        room = await duplicates.create(user, start)
        async with room.lock:
            return JSONResponse({"id": room.id, **view_json(room.game)}, status_code=201)

    async def view(request: Request) -> Response:
        user = await require_user(hub, request)
        return JSONResponse(await duplicates.view(request.path_params["game_id"], user))

    async def play(request: Request) -> Response:
        user = await require_user(hub, request)
        limits.check("move", user.id)
        play = read_play(await json_body(request))
        return JSONResponse(await duplicates.play(request.path_params["game_id"], user, play))

    async def next_round(request: Request) -> Response:
        user = await require_user(hub, request)
        limits.check("move", user.id)
        round_number = read_next(await json_body(request) if await request.body() else {})
        return JSONResponse(
            await duplicates.next_round(request.path_params["game_id"], user, round_number)
        )

    async def gcg(request: Request) -> Response:
        user = await require_user(hub, request)
        game_id = request.path_params["game_id"]
        text = await duplicates.record(game_id, user)
        return PlainTextResponse(
            text,
            headers={
                "Content-Disposition": f'attachment; filename="tessera-duplicate-{game_id}.gcg"'
            },
        )

    return [
        Route("/api/duplicate", create, methods=["POST"]),
        Route("/api/duplicate/{game_id}", view),
        Route("/api/duplicate/{game_id}/play", play, methods=["POST"]),
        Route("/api/duplicate/{game_id}/next", next_round, methods=["POST"]),
        Route("/api/duplicate/{game_id}/gcg", gcg),
    ]
