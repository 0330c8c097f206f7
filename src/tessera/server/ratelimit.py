"""Per-client rate limits, kept in this process's memory.

Each limit ``"N/minute"`` lets a client make N requests at once and then one every minute/N
(the generic cell rate algorithm: one "theoretical arrival time" per client and limit, O(1) a
check). The ``limits`` library did this job before; its in-memory storage scans every key
from a timer thread every 10 ms, holding the interpreter lock — a fifth of the server's CPU
with 300 games in play, and a stall of the event loop each time.

Each process keeps its own counts: behind a load balancer with N processes a client gets at
most N times the limit, which still bounds what one client can make the servers do.

:class:`Backoff` counts failures rather than requests (wrong passwords): a few are free, then
each one more doubles the wait before the next try.
"""

from __future__ import annotations

import ipaddress
import math
import re
import time
from collections.abc import Callable

from .errors import RequestError

UNITS = {"second": 1.0, "minute": 60.0, "hour": 3600.0, "day": 86400.0}
PRUNE_EVERY = 4096  # new keys between sweeps of the clients whose allowance is whole again


def address_key(host: str) -> str:
    """The client a limit counts for an address: an IPv6 address's /64 network (one
    household's or one machine's: it has all 2**64 of them), any other address itself."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return host


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
                429,
                "rate_limited",
                f"too many requests; at most {limit} — try again shortly",
                retry_after=math.ceil(due - now - limit.period),
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


class Backoff:
    """Failures per key (say a name and an address): ``free`` of them cost nothing; the next
    makes the key wait ``base_s`` seconds before it may try again, and each one after doubles
    the wait, up to ``max_s``. A success forgets the key; so does a wait of ``forget_s`` with
    no failure. Keys of the last ``forget_s`` seconds are kept, at most ``max_keys`` of them
    (past that the oldest go: a flood of new keys cannot grow memory)."""

    def __init__(
        self,
        *,
        free: int,
        base_s: float,
        max_s: float,
        forget_s: float = 3600.0,
        max_keys: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.free, self.base_s, self.max_s = free, base_s, max_s
        self.forget_s, self.max_keys = forget_s, max_keys
        self._clock = clock
        self._failures: dict[str, tuple[int, float]] = {}  # key -> (failures, when the last)

    def wait_s(self, key: str) -> float:
        """Seconds ``key`` must still wait before its next try (0: it may try now)."""
        entry = self._failures.get(key)
        if entry is None:
            return 0.0
        failures, last = entry
        now = self._clock()
        if now - last >= self.forget_s:
            del self._failures[key]
            return 0.0
        if failures <= self.free:
            return 0.0
        wait = min(self.max_s, self.base_s * 2 ** min(failures - self.free - 1, 32))
        return max(0.0, last + wait - now)

    def check(self, key: str, message: str) -> None:
        """A 429 with ``Retry-After`` while ``key`` must wait."""
        wait = self.wait_s(key)
        if wait > 0:
            raise RequestError(429, "backed_off", message, retry_after=math.ceil(wait))

    def failed(self, key: str) -> None:
        failures = self._failures.pop(key, (0, 0.0))[0]
        if len(self._failures) >= self.max_keys:
            self._prune()
        self._failures[key] = (failures + 1, self._clock())  # the newest last (insertion order)

    def succeeded(self, key: str) -> None:
        self._failures.pop(key, None)

    def _prune(self) -> None:
        now = self._clock()
        kept = {k: v for k, v in self._failures.items() if now - v[1] < self.forget_s}
        if len(kept) >= self.max_keys:  # still full of recent keys: the older half go
            kept = dict(list(kept.items())[len(kept) - self.max_keys // 2 :])
        self._failures = kept

    def __len__(self) -> int:
        return len(self._failures)
