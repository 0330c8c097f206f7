"""The web app: the pages, the JSON API and the WebSockets, over one game store.

- pages: ``/`` (start and lobby), ``/g/{id}`` (a game, played or watched), ``/u/{name}``
  (a profile), ``/invite/{id}`` (an invitation link), ``/account``, ``/study`` (word
  study), ``/analysis`` (the analysis board), ``/review`` and ``/review/{id}`` (game
  review) — one HTML page whose modules under ``/static`` draw each;
- ``/api/…`` — accounts (:mod:`.routes_accounts`), games (:mod:`.routes_games`), the lobby
  (:mod:`.routes_lobby`), word study (:mod:`.routes_study`), the analysis board
  (:mod:`.routes_analysis`), game review (:mod:`.routes_review`), solo duplicate games
  (:mod:`.routes_duplicate`), the interface's languages and words (:mod:`.routes_i18n`),
  ``/api/meta`` for the new-game dialogs;
- WebSockets (:mod:`.sockets`): a game's live state, the lobby's changes.

Every request passes :mod:`.guard` first (Host, Origin, body size, JSON). Who is asking comes
from the session cookie (:mod:`.web`). A database that cannot answer gives 503, never a bare
500; a page the server does not have is an HTML page saying so.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import os
from collections import Counter
from collections.abc import AsyncIterator
from importlib import resources

from sqlalchemy.exc import SQLAlchemyError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from tessera.rules import FINISH_LINE_TARGETS, PRESETS, ChallengeRule

from . import (
    collector,
    routes_accounts,
    routes_analysis,
    routes_duplicate,
    routes_games,
    routes_i18n,
    routes_lobby,
    routes_review,
    routes_study,
    sockets,
)
from .computer import level_info, levels
from .config import ServerConfig
from .duplicates import Duplicates
from .errors import RequestError, error_response
from .game_clocks import SWEEP_EVERY_S
from .game_requests import DEFAULT_RULES, WEB_PRESETS
from .guard import guard_middleware
from .hub import Hub
from .ratelimit import RateLimits
from .storage import Storage

log = logging.getLogger("tessera.server")
STATIC = resources.files("tessera.server") / "static"
EVICT_EVERY_S = 30.0
SETTINGS_ENV = "TESSERA_SERVE_SETTINGS"  # how `serve --workers N` hands its settings to each
PAGES = (
    "/",
    "/g/{game_id}",
    "/u/{name}",
    "/invite/{seek_id}",
    "/account",
    "/lobby",
    "/study",
    "/analysis",
    "/review",
    "/review/{game_id}",
    "/duplicate",
    "/duplicate/{game_id}",
)

ERROR_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tessera — {title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/style.css"></head>
<body><main class="error-page"><h1>{title}</h1><p>{message}</p>
<p><a href="/">Back to Tessera</a></p></main></body></html>
"""


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


# what each challenge rule means, for the new-game dialog (RULES.md R5.4)
CHALLENGE_RULES = {
    ChallengeRule.VOID: "no challenges: a word not in the word list is refused at once",
    ChallengeRule.SINGLE: "single: a phony challenged off; a wrong challenge costs nothing",
    ChallengeRule.DOUBLE: "double: a phony challenged off; a wrong challenge loses a turn",
    ChallengeRule.PENALTY: "penalty: a phony challenged off; a wrong challenge gives "
    "the player 5 points a word",
    ChallengeRule.TRIPLE: "triple: whoever is wrong about a challenge loses the game",
}


def _preset_meta(name: str) -> dict[str, object]:
    """A preset as the new-game dialog describes it: players, challenge rule, clock, and a
    finish line's target score by number of players."""
    rules = PRESETS[name]
    clock = rules.clock
    targets = None
    if rules.finish_line_target is not None:
        targets = {
            str(n): rules.finish_target(n)
            for n in FINISH_LINE_TARGETS
            if rules.min_players <= n <= rules.max_players
        }
    return {
        "name": name,
        "description": _describe_preset(name),
        "min_players": rules.min_players,
        "max_players": rules.max_players,
        "challenge_rule": rules.challenge_rule.value,
        "board": rules.board,
        "clock": None
        if clock is None
        else {
            "initial_min": clock.initial_ms // 60_000,
            "increment_s": clock.increment_ms // 1000,
            "max_overtime_min": clock.max_overtime_min,
        },
        "finish_targets": targets,
        "finish_level": rules.finish_line_target,
    }


def rate_limits(config: ServerConfig) -> RateLimits:
    return RateLimits(
        {
            "create_game": f"{config.games_per_minute}/minute",
            "guest": f"{max(30, config.games_per_minute)}/hour",
            "register": "10/hour",
            "login": "20/minute",
            "seek": "30/minute",
            "move": f"{config.moves_per_minute}/minute",
            "think": f"{config.thinks_per_minute}/minute",
            "study": f"{config.lookups_per_minute}/minute",  # a lookup or a search, per address
            "quiz": "240/minute",  # a question or an answer, per user
            "analyze": f"{config.analyses_per_minute}/minute",
            "review": f"{config.reviews_per_minute}/minute",
            "simulate": f"{config.simulations_per_minute}/minute",
        }
    )


def create_app(
    database: str,
    *,
    config: ServerConfig | None = None,
    hub: Hub | None = None,
) -> Starlette:
    """The app over a database URL (``sqlite:///FILE``; ``postgresql://…`` works too)."""
    config = config or ServerConfig()
    the_hub = hub or Hub(Storage(database, background_checkpoints=True), config)
    limits = rate_limits(config)
    duplicates = Duplicates(the_hub)
    socket_counts: Counter[str] = Counter()  # open WebSockets per client address

    async def page(request: Request) -> Response:
        return FileResponse(str(STATIC / "index.html"), headers={"Cache-Control": "no-store"})

    async def theme(request: Request) -> Response:
        from tessera.render.svg import theme_css

        return Response(theme_css(), media_type="text/css")

    async def meta(request: Request) -> Response:
        return JSONResponse(
            {
                "presets": [_preset_meta(n) for n in WEB_PRESETS],
                "default_rules": DEFAULT_RULES,
                "lexicons": list(config.lexicons),
                "default_lexicon": config.default_lexicon,
                "levels": list(levels()),
                "level_info": level_info(),
                "challenge_rules": [
                    {"value": rule.value, "description": text}
                    for rule, text in CHALLENGE_RULES.items()
                ],
            }
        )

    async def on_request_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestError)
        return exc.response()

    async def on_database_error(request: Request, exc: Exception) -> Response:
        log.warning("database error on %s: %s", request.url.path, type(exc).__name__)
        return error_response(503, "storage", "the game store is not answering; try again")

    async def on_http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        if request.url.path.startswith("/api/"):
            return error_response(exc.status_code, "http", str(exc.detail))
        title = "Page not found" if exc.status_code == 404 else str(exc.detail)
        message = (
            "There is no page at this address."
            if exc.status_code == 404
            else "The server cannot answer that request."
        )
        return HTMLResponse(
            ERROR_PAGE.format(title=title, message=message), status_code=exc.status_code
        )

    async def every(seconds: float, job: str) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                if job == "evict":
                    the_hub.evict_idle()
                    duplicates.evict_idle()
                elif job == "heartbeat":  # the server is up (server/downtime.py)
                    await asyncio.to_thread(the_hub.downtime.beat)
                else:
                    await the_hub.sweep()
            except Exception:  # a database hiccup: try again next round
                log.exception("periodic %s failed", job)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # compile (first run) or map the default word list now, not on the first "Start"
        loop = asyncio.get_running_loop()
        warm = loop.run_in_executor(None, the_hub.lexicon, config.default_lexicon)
        await the_hub.start()
        tasks = [
            loop.create_task(every(EVICT_EVERY_S, "evict")),
            loop.create_task(every(SWEEP_EVERY_S, "sweep")),
            loop.create_task(every(config.heartbeat_s, "heartbeat")),
        ]
        if config.tune_collector:
            collector.tune()
            tasks.append(loop.create_task(collector.collect_old_generation()))
            with contextlib.suppress(Exception):  # a word list that fails says so on use
                await warm
            collector.settle()
        yield
        for task in tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await warm
        await the_hub.close()
        the_hub.storage.close()

    routes = [
        *(Route(path, page) for path in PAGES),
        Route("/theme.css", theme),
        Route("/api/meta", meta),
        *routes_i18n.routes(),
        *routes_accounts.routes(the_hub, limits),
        *routes_games.routes(the_hub, limits),
        *routes_lobby.routes(the_hub, limits),
        *routes_study.routes(the_hub, limits),
        *routes_analysis.routes(the_hub, limits),
        *routes_review.routes(the_hub, limits),
        *routes_duplicate.routes(the_hub, duplicates, limits),
        *sockets.routes(the_hub, config, limits, socket_counts),
        Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={
            RequestError: on_request_error,
            SQLAlchemyError: on_database_error,
            HTTPException: on_http_error,
        },
        middleware=guard_middleware(
            allowed_hosts=config.allowed_hosts,
            allowed_origins=config.allowed_origins,
            max_body=config.max_body_bytes,
            body_limits=dict.fromkeys(routes_review.UPLOAD_PATHS, routes_review.UPLOAD_BODY_BYTES),
        ),
    )
    app.state.hub = the_hub
    app.state.duplicates = duplicates
    app.state.sockets = socket_counts
    return app


def settings_json(database: str, config: ServerConfig) -> str:
    """What a worker process needs to build the same app (see :func:`app_from_environment`)."""
    return json.dumps({"database": database, **dataclasses.asdict(config)})


def app_from_environment() -> Starlette:
    """The app a worker of ``tessera serve --workers N`` runs (uvicorn imports it by name)."""
    data = json.loads(os.environ[SETTINGS_ENV])
    database = data.pop("database")
    fields = {f.name: f for f in dataclasses.fields(ServerConfig)}
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k in fields}
    return create_app(database, config=ServerConfig(**values))
