"""Refusals and the reading of untrusted request bodies.

A refused request gets a :class:`RequestError`: an HTTP status, a stable ``reason`` code the
page can act on, and a message for people. Messages never carry more than a short excerpt of
what the client sent (:func:`excerpt`).
"""

from __future__ import annotations

import json
from typing import Any

from starlette.responses import JSONResponse

EXCERPT_CHARS = 40


class RequestError(Exception):
    """A request the server refuses: ``status`` is the HTTP status, ``reason`` a stable code;
    ``retry_after``: seconds until the same request may succeed (a 429's ``Retry-After``)."""

    def __init__(
        self, status: int, reason: str, message: str, *, retry_after: int | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.reason = reason
        self.message = message
        self.retry_after = retry_after

    def response(self) -> JSONResponse:
        response = error_response(self.status, self.reason, self.message)
        if self.retry_after is not None:
            response.headers["Retry-After"] = str(self.retry_after)
        return response


class NestedTooDeeply(RequestError):
    """JSON nested deeper than the parser reads (a RecursionError within ``json``)."""

    def __init__(self) -> None:
        super().__init__(400, "bad_json", "the request body nests too deeply")


def error_response(status: int, reason: str, message: str) -> JSONResponse:
    return JSONResponse({"error": message, "reason": reason}, status_code=status)


def excerpt(value: object, limit: int = EXCERPT_CHARS) -> str:
    """``repr`` of a client's value, cut to ``limit`` characters (an error never echoes more)."""
    text = value if isinstance(value, str) else str(value)
    if len(text) > limit:
        text = text[:limit] + "…"
    return repr(text)


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_json(raw: bytes | str) -> Any:
    """JSON from a client (a size-capped body or WebSocket message); a 400 when it is not.

    ``json`` refuses integers of more than 4,300 digits with a ValueError and deep nesting with
    a RecursionError; both are the client's fault and answered as such. Every JSON a client
    sends is read here."""
    try:
        return json.loads(raw, parse_constant=_no_constants)
    except (ValueError, UnicodeDecodeError):
        raise RequestError(400, "bad_json", "the request body is not valid JSON") from None
    except RecursionError:
        raise NestedTooDeeply() from None


def parse_json_object(raw: bytes | str) -> dict[str, Any]:
    """A JSON object from a client (see :func:`parse_json`); anything else is a 400."""
    data = parse_json(raw)
    if not isinstance(data, dict):
        raise RequestError(400, "bad_json", "the request body must be a JSON object")
    return data


def field_int(body: dict[str, Any], key: str, *, required: bool = True) -> int | None:
    """An integer field (JSON ``true`` is not a seat number, though Python's bool is an int)."""
    value = body.get(key)
    if value is None and not required:
        return None
    if type(value) is not int:
        raise RequestError(400, f"bad_{key}", f"{key} must be a whole number")
    return value


def field_bool(body: dict[str, Any], key: str, *, default: bool = False) -> bool:
    """A JSON ``true``/``false`` field (absent or null: ``default``)."""
    value = body.get(key)
    if value is None:
        return default
    if type(value) is not bool:
        raise RequestError(400, f"bad_{key}", f"{key} must be true or false")
    return value


def field_str(body: dict[str, Any], key: str, limit: int, *, default: str = "") -> str:
    """A string field of at most ``limit`` characters, checked before any parsing."""
    value = body.get(key, default)
    if value is None:
        value = default
    if not isinstance(value, str):
        raise RequestError(400, f"bad_{key}", f"{key} must be text")
    if len(value) > limit:
        raise RequestError(400, f"bad_{key}", f"{key} is longer than {limit} characters")
    return value
