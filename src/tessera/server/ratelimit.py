"""Per-client rate limits, kept in this process's memory.

Each limit ``"N/minute"`` lets a client make N requests at once and then one every minute/N
(the generic cell rate algorithm: one "theoretical arrival time" per client and limit, O(1) a
check). The ``limits`` library did this job before; its in-memory storage scans every key
from a timer thread every 10 ms, holding the interpreter lock — a fifth of the server's CPU
with 300 games in play, and a stall of the event loop each time.

Each process keeps its own counts: behind a load balancer with N processes a client gets at
most N times the limit, which still bounds what one client can make the servers do.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from .errors import RequestError

UNITS = {"second": 1.0, "minute": 60.0, "hour": 3600.0, "day": 86400.0}
PRUNE_EVERY = 4096  # new keys between sweeps of the clients whose allowance is whole again


class Limit:
    """``count`` requests per ``period`` seconds, all of them at once if need be."""

    def __init__(self, rule: str) -> None:
        match = re.fullmatch(r"\s*(\d+)\s*/\s*(second|minute|hour|day)\s*", rule)
        if match is None or int(match.group(1)) < 1:
            raise ValueError(f"a rate limit is 'N/second|minute|hour|day', not {rule!r}")
        self.count = int(match.group(1))
        self.period = UNITS[match.group(2)]
        self.interval = self.period / self.count
        self.text = f"{self.count} per {match.group(2)}"

    def __str__(self) -> str:
        return self.text


class RateLimits:
    """Named limits such as ``{"create_game": "30/minute"}``, checked per client key."""

    def __init__(
        self, limits: dict[str, str], clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._limits = {name: Limit(rule) for name, rule in limits.items()}
        self._due: dict[tuple[str, str], float] = {}  # when the client's allowance is whole
        self._clock = clock
        self._added = 0

    def check(self, name: str, client: str) -> None:
        """Count one ``name`` action by ``client``; a 429 when it is over its limit."""
        limit = self._limits.get(name)
        if limit is None:
            return
        now = self._clock()
        key = (name, client)
        due = max(self._due.get(key, now), now) + limit.interval
        if due - now > limit.period:
            raise RequestError(
                429, "rate_limited", f"too many requests; at most {limit} — try again shortly"
            )
        if key not in self._due:
            self._added += 1
            if self._added >= PRUNE_EVERY:
                self._prune(now)
        self._due[key] = due

    def _prune(self, now: float) -> None:
        """Forget clients whose allowance is whole again (memory stays bounded by the
        clients of the last period)."""
        self._added = 0
        self._due = {k: due for k, due in self._due.items() if due > now}

    def __len__(self) -> int:
        return len(self._due)
