"""Accounts over HTTP: who am I, play as a guest, register, log in and out, change password,
and a player's public profile (ratings, their history, recent games).

Login answers one message for a wrong name and a wrong password alike, and is rate limited
per address and per name; registration and guest names per address.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .accounts import User
from .errors import RequestError
from .hub import Hub
from .ratelimit import RateLimits
from .web import (
    COOKIE,
    clear_session_cookie,
    client_address,
    current_user,
    json_body,
    require_user,
    set_session_cookie,
)


def user_json(user: User | None) -> dict[str, Any] | None:
    return None if user is None else {"name": user.name, "guest": user.is_guest}


def routes(hub: Hub, limits: RateLimits) -> list[Route]:
    accounts = hub.accounts

    async def signed_in(request: Request, user: User, status: int = 200) -> Response:
        token = await asyncio.to_thread(accounts.start_session, user)
        response = JSONResponse({"user": user_json(user)}, status_code=status)
        set_session_cookie(response, request, token)
        return response

    async def me(request: Request) -> Response:
        return JSONResponse({"user": user_json(await current_user(hub, request))})

    async def guest(request: Request) -> Response:
        limits.check("guest", client_address(request))
        body = await json_body(request)
        user = await asyncio.to_thread(accounts.guest, body.get("name"))
        return await signed_in(request, user, 201)

    async def register(request: Request) -> Response:
        limits.check("register", client_address(request))
        body = await json_body(request)
        current = await current_user(hub, request)
        user = await asyncio.to_thread(
            accounts.register, body.get("username"), body.get("password"), current
        )
        if current is not None:  # the guest's session becomes the account's
            await asyncio.to_thread(accounts.end_session, request.cookies.get(COOKIE, ""))
        return await signed_in(request, user, 201)

    async def login(request: Request) -> Response:
        body = await json_body(request)
        name = body.get("username")
        limits.check("login", client_address(request))
        if isinstance(name, str):
            limits.check("login_name", name.lower()[:32])
        user = await asyncio.to_thread(accounts.authenticate, name, body.get("password"))
        if user is None:
            raise RequestError(401, "bad_credentials", "wrong user name or password")
        return await signed_in(request, user)

    async def logout(request: Request) -> Response:
        token = request.cookies.get(COOKIE, "")
        if token:
            await asyncio.to_thread(accounts.end_session, token)
        response = JSONResponse({"user": None})
        clear_session_cookie(response)
        return response

    async def password(request: Request) -> Response:
        user = await require_user(hub, request)
        limits.check("login", client_address(request))
        body = await json_body(request)
        await asyncio.to_thread(
            accounts.change_password,
            user,
            body.get("old"),
            body.get("new"),
            request.cookies.get(COOKIE, ""),
        )
        await hub.notifier.publish({"kind": "session_end", "user": user.id})
        return JSONResponse({"ok": True})

    async def profile(request: Request) -> Response:
        name = request.path_params["name"]
        user = await asyncio.to_thread(accounts.by_name, name)
        if user is None:
            raise RequestError(404, "no_user", "no such player")
        ratings, history, games = await asyncio.gather(
            asyncio.to_thread(hub.ratings.of_user, user.id),
            asyncio.to_thread(hub.ratings.history, user.id),
            asyncio.to_thread(hub.storage.games_of, user.id, 30),
        )
        viewer = await current_user(hub, request)
        own = viewer is not None and viewer.id == user.id
        # others see the player's games between people; the player sees their own too
        visible = [g for g in games if own or g["online"]]
        return JSONResponse(
            {"user": user_json(user), "ratings": ratings, "history": history, "games": visible}
        )

    return [
        Route("/api/me", me),
        Route("/api/guest", guest, methods=["POST"]),
        Route("/api/register", register, methods=["POST"]),
        Route("/api/login", login, methods=["POST"]),
        Route("/api/logout", logout, methods=["POST"]),
        Route("/api/password", password, methods=["POST"]),
        Route("/api/users/{name}", profile),
    ]
