"""Game review over HTTP (:mod:`.review`): ``POST /api/review`` with an uploaded GCG's text,
and ``GET /api/games/{id}/review`` for a finished game the caller may see (a game between
people once it is over, a private game only to its players; never a game in play, whose
racks are secret). One turn's simulation, asked for turn by turn as the page needs it:
``POST /api/review/simulate`` (the text and ``turn``) and
``GET /api/games/{id}/review/turns/{turn}/simulation``.

All are limited per client address, refused to a user with a rated game in progress
(:mod:`.fair_play`), and run on the analysis pool (:mod:`.pools`: processes of their own,
never a thread or a core a move needs); a finished game's review and simulations are kept
(games do not change once over), the most recent :data:`CACHED` of each. At most
``config.reviews_at_once`` run at one time (a long game holds a core for seconds); one more
is answered 503 at once rather than queued behind them.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from . import analysis_jobs as jobs
from .errors import RequestError
from .fair_play import refuse_during_rated_game
from .hub import Hub
from .ratelimit import RateLimits
from .web import client_address, current_user, json_body

CACHED = 64
UPLOAD_PATH = "/api/review"
SIMULATE_PATH = "/api/review/simulate"
UPLOAD_PATHS = (UPLOAD_PATH, SIMULATE_PATH)  # the requests that carry a record's text
UPLOAD_BODY_BYTES = 160 * 1024  # the JSON around a record of review.MAX_GCG_CHARS characters


def routes(hub: Hub, limits: RateLimits) -> list[Route]:
    cache: OrderedDict[str, dict[str, Any]] = OrderedDict()
    simulated: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
    running = 0

    def finished_one() -> None:
        nonlocal running
        running -= 1

    async def analysed(job: jobs.Job, *args: Any) -> dict[str, Any]:
        """``job(*args)`` on the analysis pool, counted until it ends there (a client that
        goes away does not stop it, so it still counts)."""
        nonlocal running
        if running >= hub.config.reviews_at_once:
            raise RequestError(
                503, "review_busy", "other games are being reviewed; try again in a moment"
            )
        loop = asyncio.get_running_loop()
        running += 1
        future = hub.analysis.submit(jobs.run, job, *args)
        future.add_done_callback(lambda _: loop.call_soon_threadsafe(finished_one))
        return jobs.answer(await asyncio.wrap_future(future))

    def lexicon_name(body: dict[str, Any]) -> str:
        name = body.get("lexicon")
        if name is None:
            return hub.config.default_lexicon
        if name not in hub.config.lexicons:
            choices = ", ".join(hub.config.lexicons)
            raise RequestError(400, "bad_lexicon", f"lexicon must be one of: {choices}")
        return str(name)

    async def upload(request: Request) -> Response:
        limits.check("review", client_address(request))
        await refuse_during_rated_game(hub.storage, await current_user(hub, request))
        body = await json_body(request)

        return JSONResponse(await analysed(jobs.review_upload, body.get("gcg"), lexicon_name(body)))

    async def simulate_upload(request: Request) -> Response:
        limits.check("simulate", client_address(request))
        await refuse_during_rated_game(hub.storage, await current_user(hub, request))
        body = await json_body(request)

        name = lexicon_name(body)
        return JSONResponse(
            await analysed(jobs.simulate_upload, body.get("gcg"), name, body.get("turn"))
        )

    async def finished_game(request: Request) -> tuple[Any, Any]:
        """The finished game the caller may see and its user (404, 403, or 400 in play;
        403 to a user with a rated game in progress, even for a review already made)."""
        game_id = request.path_params["game_id"]
        user = await current_user(hub, request)
        await refuse_during_rated_game(hub.storage, user)
        session, _ = await hub.watch_session(game_id, user)  # 404, or 403 for a private game
        if not session.over:
            raise RequestError(400, "game_on", "a game can be reviewed once it is over")
        return session, user

    async def simulate_finished(request: Request) -> Response:
        game_id, turn = request.path_params["game_id"], request.path_params["turn"]
        session, user = await finished_game(request)
        key = (game_id, turn)
        if key in simulated:
            simulated.move_to_end(key)
            return JSONResponse(simulated[key])
        limits.check("simulate", client_address(request))
        text = await hub.gcg(game_id, user)
        result = await analysed(jobs.simulate_game, text, session.record.lexicon, turn)
        simulated[key] = result
        while len(simulated) > CACHED * 8:  # a game's turns, for the games cached
            simulated.popitem(last=False)
        return JSONResponse(result)

    async def finished(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        session, user = await finished_game(request)
        if game_id in cache:
            cache.move_to_end(game_id)
            return JSONResponse(cache[game_id])
        limits.check("review", client_address(request))
        text = await hub.gcg(game_id, user)
        result = await analysed(jobs.review_game, text, session.record.lexicon, game_id)
        cache[game_id] = result
        while len(cache) > CACHED:
            cache.popitem(last=False)
        return JSONResponse(result)

    return [
        Route(UPLOAD_PATH, upload, methods=["POST"]),
        Route(SIMULATE_PATH, simulate_upload, methods=["POST"]),
        Route("/api/games/{game_id}/review", finished),
        Route("/api/games/{game_id}/review/turns/{turn:int}/simulation", simulate_finished),
    ]
