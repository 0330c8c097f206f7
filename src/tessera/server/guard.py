"""What every request must pass before the app sees it (an ASGI middleware).

- **Host** (DNS rebinding): Starlette's ``TrustedHostMiddleware`` with the configured names.
- **Origin** (cross-site requests, cross-site WebSocket hijacking): a WebSocket handshake or an
  unsafe HTTP method that carries an ``Origin`` must come from this server's own origin (the
  trusted ``Host``) or one configured explicitly. Clients that are not browsers send none.
- **Body**: a declared ``Content-Length`` over the limit is refused with 413 before a byte of
  the body is read; a chunked body is read only up to the limit. Unsafe API requests must say
  ``application/json`` (a cross-site HTML form cannot). A few paths that take an uploaded
  file (``body_limits``, by exact path) have a larger limit of their own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import error_response

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def _netloc(scheme: str, host: str) -> str:
    """``host[:port]`` in one spelling (lower case, default port dropped)."""
    host = host.lower()
    default = DEFAULT_PORTS.get(scheme)
    if default is not None and host.endswith(f":{default}"):
        host = host[: -len(f":{default}")]
    return host


def origin_netloc(origin: str) -> str | None:
    """The ``host[:port]`` of an ``Origin`` header, or None for ``null`` or junk."""
    try:
        parts = urlsplit(origin)
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return _netloc(parts.scheme, parts.netloc)


class RequestGuard:
    """Origin and body checks (see the module doc); :func:`guard_middleware` adds the Host."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        allowed_origins: Iterable[str] = (),
        max_body: int,
        body_limits: Mapping[str, int] | None = None,
    ) -> None:
        self.app = app
        self.allowed = {n for n in (origin_netloc(o) for o in allowed_origins) if n}
        self.max_body = max_body
        self.body_limits = dict(body_limits or {})

    def origin_ok(self, scope: Scope, headers: Headers) -> bool:
        origin = headers.get("origin")
        if origin is None:
            return True
        netloc = origin_netloc(origin)
        if netloc is None:
            return False
        scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
        own = _netloc(scheme, headers.get("host", ""))
        # behind a TLS proxy the app sees http while the page's origin says https
        return netloc in self.allowed or netloc == own or netloc == _netloc("https", own)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if not self.origin_ok(scope, Headers(scope=scope)):
                await self._refuse_socket(receive, send)
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        method = scope["method"]
        if method not in SAFE_METHODS:
            if not self.origin_ok(scope, headers):
                await error_response(403, "cross_origin", "requests from another site are refused")(
                    scope, receive, send
                )
                return
            ctype = headers.get("content-type", "").split(";")[0].strip().lower()
            if scope["path"].startswith("/api/") and ctype != "application/json":
                await error_response(
                    415, "bad_content_type", "send the request body as application/json"
                )(scope, receive, send)
                return
        max_body = self.body_limits.get(scope["path"], self.max_body)
        declared = headers.get("content-length")
        if declared is not None:
            if not declared.isdigit() or len(declared) > 12:
                await error_response(400, "bad_length", "malformed Content-Length")(
                    scope, receive, send
                )
                return
            if int(declared) > max_body:
                await self._too_large(max_body, scope, receive, send)
                return
        body = b""
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            body += message.get("body", b"")
            if len(body) > max_body:
                await self._too_large(max_body, scope, receive, send)
                return
            more = message.get("more_body", False)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    @staticmethod
    async def _too_large(max_body: int, scope: Scope, receive: Receive, send: Send) -> None:
        response = error_response(413, "too_large", f"the request body is over {max_body} bytes")
        response.headers["Connection"] = "close"
        await response(scope, receive, send)

    @staticmethod
    async def _refuse_socket(receive: Receive, send: Send) -> None:
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.close", "code": 4403, "reason": "cross-origin"})


def guard_middleware(
    *,
    allowed_hosts: Iterable[str],
    allowed_origins: Iterable[str] = (),
    max_body: int,
    body_limits: Mapping[str, int] | None = None,
) -> list[Middleware]:
    """The Host check, then the Origin and body checks, as Starlette middleware."""
    return [
        Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts), www_redirect=False),
        Middleware(
            RequestGuard,
            allowed_origins=tuple(allowed_origins),
            max_body=max_body,
            body_limits=body_limits,
        ),
    ]
