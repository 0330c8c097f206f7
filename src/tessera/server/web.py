"""What every route shares: reading the caller's session cookie, JSON bodies and answers."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from .accounts import SESSION_DAYS, User
from .errors import RequestError, parse_json_object
from .hub import Hub
from .ratelimit import address_key

COOKIE = "tessera_session"


def client_address(conn: HTTPConnection) -> str:
    """Who a per-client limit counts: the client's address (an IPv6 client's /64)."""
    return address_key(conn.client.host) if conn.client else "unknown"


async def current_user(hub: Hub, conn: HTTPConnection) -> User | None:
    """The user of the request's session cookie (None: no, a forged or an expired session)."""
    token = conn.cookies.get(COOKIE, "")
    if not token or len(token) > 64:
        return None
    return hub.accounts.cached_session_user(token) or await asyncio.to_thread(
        hub.accounts.session_user, token
    )


async def require_user(hub: Hub, conn: HTTPConnection) -> User:
    user = await current_user(hub, conn)
    if user is None:
        raise RequestError(401, "no_session", "log in, or choose a name to play as a guest")
    return user


async def json_body(request: Request) -> dict[str, Any]:
    return parse_json_object(await request.body())


def json_text(text: str, status: int = 200) -> Response:
    return Response(text, status_code=status, media_type="application/json")


def set_session_cookie(response: Response, request: Request, token: str) -> None:
    """HttpOnly (no script reads it), SameSite=Lax (no other site's request carries it),
    Secure when the page came over HTTPS (directly or through a trusted proxy)."""
    response.set_cookie(
        COOKIE,
        token,
        max_age=SESSION_DAYS * 86_400,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )


def clear_session_cookie(response: Response) -> None:
    response.delete_cookie(COOKIE, path="/")
