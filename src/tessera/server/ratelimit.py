"""Per-client rate limits (the ``limits`` library's moving window, in this process's memory).

Each process keeps its own counts: behind a load balancer with N processes a client gets at
most N times the limit, which still bounds what one client can make the servers do.
"""

from __future__ import annotations

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from .errors import RequestError


class RateLimits:
    """Named limits such as ``{"create_game": "30/minute"}``, checked per client key."""

    def __init__(self, limits: dict[str, str]) -> None:
        self._items: dict[str, RateLimitItem] = {name: parse(rule) for name, rule in limits.items()}
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    def check(self, name: str, client: str) -> None:
        """Count one ``name`` action by ``client``; a 429 when it is over its limit."""
        item = self._items.get(name)
        if item is None:
            return
        if not self._limiter.hit(item, name, client):
            raise RequestError(
                429, "rate_limited", f"too many requests; at most {item} — try again shortly"
            )
