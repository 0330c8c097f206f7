"""Games over HTTP: start one against the computer (or for people at one screen), read a
seat's or a spectator's state, move, score a tentative play, hints, the record, a finished
game's positions turn by turn, and a rematch."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from tessera.game import Game
from tessera.legality import IllegalMove

from .accounts import DEFAULT_GUEST_NAME, User
from .errors import RequestError
from .game_actions import result_json
from .game_sessions import apply_action, called_off, game_rules
from .hub import Hub
from .ratelimit import RateLimits
from .routes_accounts import user_json
from .storage import GameRecord
from .views import board_json, event_json
from .web import (
    client_address,
    current_user,
    json_body,
    json_text,
    require_user,
    set_session_cookie,
)


def _seat_query(request: Request) -> int | None:
    asked = request.query_params.get("seat")
    if asked is None:
        return None
    if not (asked.isdigit() and len(asked) <= 2):
        raise RequestError(400, "bad_seat", "seat must be a small whole number")
    return int(asked)


def replay(record: GameRecord, lexicon: Any) -> dict[str, Any]:
    """Every position of a finished game: after each event of its history, the board and
    the scores (racks included: the game is over)."""
    game = Game(
        rules=game_rules(record, lexicon),
        lexicon=lexicon,
        players=[s.name for s in record.seats],
        seed=record.seed,
        undo=False,
    )
    alphabet = game.alphabet
    turns: list[dict[str, Any]] = []
    for action in record.actions:
        seen = len(game.history)
        apply_action(game, action)
        board = board_json(game.board, alphabet)
        for event in game.history[seen:]:
            turns.append(
                {**event_json(event, alphabet), "board": board, "scores": list(game.scores)}
            )
    return {
        "game_id": record.id,
        "names": [s.name for s in record.seats],
        "rules": record.rules,
        "lexicon": record.lexicon,
        "rated": record.rated,
        "turns": turns,
        "result": result_json(game, aborted=called_off(record)),
    }


def routes(hub: Hub, limits: RateLimits) -> list[Route]:
    async def create(request: Request) -> Response:
        limits.check("create_game", client_address(request))
        body = await json_body(request)
        user = await current_user(hub, request)
        token = None
        # "play the computer" is one click: a guest named as the first person (as "You" when
        # only computers play)
        if user is None:
            spec = hub.parse_spec(body, User("", "", "guest"))  # refuse bad specs first
            limits.check("guest", client_address(request))
            name = next((s.name for s in spec.seats if s.kind == "human"), DEFAULT_GUEST_NAME)
            user = await asyncio.to_thread(hub.accounts.guest, name)
            token = await asyncio.to_thread(hub.accounts.start_session, user)
        game_id = await hub.create(user, body)
        response = JSONResponse({"id": game_id, "user": user_json(user)}, status_code=201)
        if token is not None:
            set_session_cookie(response, request, token)
        return response

    async def state(request: Request) -> Response:
        user = await current_user(hub, request)
        session, seats = await hub.watch_session(request.path_params["game_id"], user)
        asked = _seat_query(request)
        async with session.lock:
            await hub.catch_up(session)
            return json_text(hub.state_text(session, seats, asked))

    async def move(request: Request) -> Response:
        user = await require_user(hub, request)
        limits.check("move", user.id)
        body = await json_body(request)
        try:
            return json_text(await hub.act(request.path_params["game_id"], user, body))
        except IllegalMove as exc:  # a refused move is an answer, not a failed request
            return JSONResponse({"ok": False, "reason": exc.reason.value, "message": str(exc)})

    async def check(request: Request) -> Response:
        user = await require_user(hub, request)
        body = await json_body(request)
        return JSONResponse(await hub.check(request.path_params["game_id"], user, body))

    async def hints(request: Request) -> Response:
        user = await require_user(hub, request)
        body = await json_body(request)
        if body.get("think") is True:
            limits.check("think", user.id)
        return JSONResponse({"hints": await hub.hints(request.path_params["game_id"], user, body)})

    async def gcg(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        text = await hub.gcg(game_id, await current_user(hub, request))
        return PlainTextResponse(
            text, headers={"Content-Disposition": f'attachment; filename="tessera-{game_id}.gcg"'}
        )

    async def positions(request: Request) -> Response:
        user = await current_user(hub, request)
        session, _ = await hub.watch_session(request.path_params["game_id"], user)
        if not session.over:
            raise RequestError(400, "game_on", "a game can be replayed once it is over")
        return JSONResponse(
            await asyncio.get_running_loop().run_in_executor(
                hub.cpu, replay, session.record, session.lexicon
            )
        )

    async def rematch(request: Request) -> Response:
        """Online: an offer to the other player (a seek). Against the computer or at one
        screen: the same game again at once, its new id."""
        user = await require_user(hub, request)
        game_id = request.path_params["game_id"]
        session, _ = await hub.player_session(game_id, user)
        if not session.record.online:
            limits.check("create_game", client_address(request))
            return JSONResponse(
                {"id": await hub.rematch_here(game_id, user)}, status_code=201
            )
        limits.check("seek", user.id)
        seek = await hub.offer_rematch(game_id, user)
        return JSONResponse({"seek": seek.public()}, status_code=201)

    return [
        Route("/api/games", create, methods=["POST"]),
        Route("/api/games/{game_id}/state", state),
        Route("/api/games/{game_id}/move", move, methods=["POST"]),
        Route("/api/games/{game_id}/check", check, methods=["POST"]),
        Route("/api/games/{game_id}/hints", hints, methods=["POST"]),
        Route("/api/games/{game_id}/gcg", gcg),
        Route("/api/games/{game_id}/replay", positions),
        Route("/api/games/{game_id}/rematch", rematch, methods=["POST"]),
    ]
