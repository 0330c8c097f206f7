"""The analysis board over HTTP: a position (a CGP, or a board and rack) read and written
back as CGP, and its moves ranked as ``tessera moves --cgp`` ranks them, with the shipped
leave values (:mod:`.analysis_request` reads a request, :mod:`.analysis` answers it). Both
routes are limited per client address and refused to a user with a rated game in progress
(:mod:`.fair_play`). Ranking moves runs on the analysis pool (:mod:`.pools`); reading a
position, a moment's parsing, on the CPU threads: never on the event loop."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .analysis_jobs import board_position, rank_moves
from .fair_play import refuse_during_rated_game
from .game_requests import DEFAULT_RULES, WEB_PRESETS
from .hub import Hub
from .pools import analyse
from .ratelimit import RateLimits
from .web import client_address, current_user, json_body


def routes(hub: Hub, limits: RateLimits) -> list[Route]:
    lexicons = hub.config.lexicons
    presets = (DEFAULT_RULES, *(name for name in WEB_PRESETS if name != DEFAULT_RULES))

    async def admitted(request: Request) -> dict[str, Any]:
        """The request's body, once its address is within its limit and its user may have
        engine help."""
        limits.check("analyze", client_address(request))
        await refuse_during_rated_game(hub.storage, await current_user(hub, request))
        return await json_body(request)

    async def moves(request: Request) -> Response:
        body = await admitted(request)
        return JSONResponse(await analyse(hub.analysis, rank_moves, body, presets, lexicons))

    async def cgp(request: Request) -> Response:
        body = await admitted(request)
        return JSONResponse(
            await asyncio.get_running_loop().run_in_executor(
                hub.cpu, board_position, body, presets, lexicons
            )
        )

    return [
        Route("/api/analysis/moves", moves, methods=["POST"]),
        Route("/api/analysis/position", cgp, methods=["POST"]),
    ]
