"""The analysis board over HTTP: a position (a CGP, or a board and rack) read and written
back as CGP, and its moves ranked as ``tessera moves --cgp`` ranks them, with the shipped
leave values (:mod:`.analysis_request` reads a request, :mod:`.analysis` answers it). Both
routes are limited per client address and run on the CPU pool, never on the event loop."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .analysis import analyze, position_json
from .analysis_request import read_position, read_request
from .hub import DEFAULT_RULES, WEB_PRESETS, Hub
from .ratelimit import RateLimits
from .web import client_address, json_body


def routes(hub: Hub, limits: RateLimits) -> list[Route]:
    lexicons = hub.config.lexicons
    presets = (DEFAULT_RULES, *(name for name in WEB_PRESETS if name != DEFAULT_RULES))

    def rank(body: dict[str, Any]) -> dict[str, Any]:
        from tessera.engine.players import resolve_leaves

        request = read_request(body, presets, lexicons)
        lexicon = hub.lexicon(request.position.lexicon or lexicons[0])
        return analyze(request, lexicon, resolve_leaves("trained", lexicon))

    def position(body: dict[str, Any]) -> dict[str, Any]:
        return position_json(read_position(body, presets, lexicons))

    async def moves(request: Request) -> Response:
        limits.check("analyze", client_address(request))
        body = await json_body(request)
        return JSONResponse(await asyncio.get_running_loop().run_in_executor(hub.cpu, rank, body))

    async def cgp(request: Request) -> Response:
        limits.check("analyze", client_address(request))
        body = await json_body(request)
        return JSONResponse(
            await asyncio.get_running_loop().run_in_executor(hub.cpu, position, body)
        )

    return [
        Route("/api/analysis/moves", moves, methods=["POST"]),
        Route("/api/analysis/position", cgp, methods=["POST"]),
    ]
