"""Accounts over HTTP: who am I, play as a guest, register, log in and out, change password,
and a player's public profile (ratings, their history, recent games).

Login answers one message for a wrong name and a wrong password alike. It is rate limited per
address, and wrong passwords back off per (name, address) and per address (a few are free,
then each doubles the wait): a stranger guessing someone's password from elsewhere slows only
themselves, never the owner at their own address. Registration and guest names are limited
per address.

Logging out ends the session, and changing the password every other session of the user, in
every server process, sockets and all (:mod:`.session_sockets`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .accounts import User, token_hash
from .errors import RequestError
from .hub import Hub
from .ratelimit import Backoff, RateLimits
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


BACKED_OFF = "too many wrong passwords from your address; wait and try again"


def login_backoffs() -> tuple[Backoff, Backoff]:
    """Wrong passwords per (name, address): 5 free, then 2 s, 4 s, … up to 15 min; and per
    address whatever the names (one person trying many accounts): 30 free, then 2 s, 4 s, …
    up to a minute, no longer, as a whole club may share one address."""
    return Backoff(free=5, base_s=2, max_s=900), Backoff(free=30, base_s=2, max_s=60)


def routes(hub: Hub, limits: RateLimits) -> list[Route]:
    accounts = hub.accounts
    per_name, per_address = login_backoffs()

    def password_keys(request: Request, name: object) -> tuple[str, str]:
        """The backoff keys of a password tried for ``name`` by the request's address."""
        address = client_address(request)
        name_key = name.lower()[:32] if isinstance(name, str) else ""
        return f"{name_key}\x00{address}", address

    def check_backoff(keys: tuple[str, str]) -> None:
        per_name.check(keys[0], BACKED_OFF)
        per_address.check(keys[1], BACKED_OFF)

    def wrong_password(keys: tuple[str, str]) -> None:
        per_name.failed(keys[0])
        per_address.failed(keys[1])

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
        keys = password_keys(request, name)
        check_backoff(keys)
        user = await asyncio.to_thread(accounts.authenticate, name, body.get("password"))
        if user is None:
            wrong_password(keys)
            raise RequestError(401, "bad_credentials", "wrong user name or password")
        per_name.succeeded(keys[0])
        return await signed_in(request, user)

    async def logout(request: Request) -> Response:
        token = request.cookies.get(COOKIE, "")
        user = await current_user(hub, request)
        if token:
            await asyncio.to_thread(accounts.end_session, token)
        if user is not None:  # its sockets close, here and in every other process
            await hub.notifier.publish(
                {"kind": "session_end", "user": user.id, "session": token_hash(token)}
            )
        response = JSONResponse({"user": None})
        clear_session_cookie(response)
        return response

    async def password(request: Request) -> Response:
        user = await require_user(hub, request)
        limits.check("login", client_address(request))
        keys = password_keys(request, user.name)
        check_backoff(keys)
        body = await json_body(request)
        token = request.cookies.get(COOKIE, "")
        try:
            await asyncio.to_thread(
                accounts.change_password, user, body.get("old"), body.get("new"), token
            )
        except RequestError as exc:
            if exc.reason == "bad_credentials":
                wrong_password(keys)
            raise
        per_name.succeeded(keys[0])
        # every other session of the user ends, its sockets too; this one stays
        await hub.notifier.publish(
            {"kind": "session_end", "user": user.id, "except": token_hash(token)}
        )
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
