"""Limits on connections, below the app: how long a client may take to send a request's
headers, and how many connections one address may hold open at once.

uvicorn has neither. Its keep-alive timeout starts only after a response, so a connection that
sends nothing, or a header a byte every few seconds, stays open for ever; a few thousand such
connections from one client use up the server's file descriptors and every new request
fails. :class:`GuardedHTTPProtocol` is uvicorn's own HTTP protocol (httptools', or h11's where
httptools is missing) with two additions, and no HTTP parsing of its own:

- a connection must complete each request's headers within ``header_timeout_s`` of its first
  byte (of opening, for the first request); else it gets ``408`` and is closed. An idle
  keep-alive connection is left to uvicorn's ``timeout_keep_alive``;
- an address (an IPv6 client's /64) holding ``per_client`` connections that are still HTTP
  (reading headers, waiting for a response, or idle between requests) has any more closed at
  once with ``429``. A connection that becomes a WebSocket leaves this count: the app caps
  WebSockets per address itself (``ws_per_client``), by the address a trusted proxy names.

Addresses of trusted reverse proxies (``exempt``: addresses or networks, ``*`` for all) are not
capped: every client behind a proxy shares its address, and the proxy limits connections per
client itself (``docs/tutorial/server.md`` says how).

uvicorn builds its protocol with ``config.http``; :func:`guarded_protocol` gives it this class
with its settings bound (picklable, for ``--workers``).
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import weakref
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol

from .ratelimit import address_key

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

TIMED_OUT = b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
_TOO_MANY_TEXT = b"too many connections from this address\n"
TOO_MANY = (
    b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: text/plain\r\n"
    b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(_TOO_MANY_TEXT), _TOO_MANY_TEXT)
)

# open HTTP connections per client address, for each running server (its ServerState)
_open_by_server: weakref.WeakKeyDictionary[Any, Counter[str]] = weakref.WeakKeyDictionary()


def trusted_networks(proxies: Iterable[str]) -> tuple[Network, ...] | None:
    """The networks of ``--trusted-proxy`` values (None: ``*``, every address); values that
    are not addresses (a Unix socket's path) are skipped."""
    networks: list[Network] = []
    for value in proxies:
        value = value.strip()
        if value == "*":
            return None
        try:
            networks.append(ipaddress.ip_network(value, strict=False))
        except ValueError:
            continue
    return tuple(networks)


def _in(address: str, networks: tuple[Network, ...] | None) -> bool:
    if networks is None:
        return True
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


class ConnectionGuard:
    """A header timeout and a per-address cap (module doc) for an HTTP protocol of uvicorn's
    (httptools' or h11's), mixed in before it."""

    # what uvicorn's protocols have
    client: tuple[str, int] | None
    cycle: Any
    loop: asyncio.AbstractEventLoop
    server_state: Any
    transport: asyncio.Transport

    def __init__(
        self,
        *args: Any,
        header_timeout_s: float,
        per_client: int,
        exempt: tuple[Network, ...] | None = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self._header_timeout_s = header_timeout_s
        self._per_client = per_client
        self._exempt = exempt
        self._counts = _open_by_server.setdefault(self.server_state, Counter())
        self._counted: str | None = None  # the address this connection is counted under
        self._timer: asyncio.TimerHandle | None = None
        self._awaiting_headers = True
        self._cycle_when_armed: object = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        host = self.client[0] if self.client else None
        if host is not None and not _in(host, self._exempt):
            address = address_key(host)
            if self._counts[address] >= self._per_client:
                transport.write(TOO_MANY)
                transport.close()
                return
            self._counts[address] += 1
            self._counted = address
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._awaiting_headers and self._timer is None:
            self._arm()
        super().data_received(data)
        if self._timer is not None and self.cycle is not self._cycle_when_armed:
            self._headers_done()  # a new request's headers were read

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # the next request's headers are timed from its first byte (idle is keep-alive's)
        self._awaiting_headers = self.cycle is None or self.cycle.response_complete

    def handle_websocket_upgrade(self, *args: Any) -> None:
        self._headers_done()
        self._uncount()  # the app counts WebSockets per client
        super().handle_websocket_upgrade(*args)

    def connection_lost(self, exc: Exception | None) -> None:
        self._headers_done()
        self._uncount()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._cycle_when_armed = self.cycle
        self._timer = self.loop.call_later(self._header_timeout_s, self._too_slow)

    def _headers_done(self) -> None:
        self._awaiting_headers = False
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _too_slow(self) -> None:
        self._timer = None
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(TIMED_OUT)
            self.transport.close()

    def _uncount(self) -> None:
        if self._counted is not None:
            self._counts[self._counted] -= 1
            if self._counts[self._counted] <= 0:
                del self._counts[self._counted]
            self._counted = None


class GuardedHTTPProtocol(ConnectionGuard, AutoHTTPProtocol):  # type: ignore[valid-type, misc]
    """uvicorn's HTTP protocol (httptools', else h11's) with the guard."""


def open_connections(server_state: Any) -> Counter[str]:
    """The open HTTP connections per address of a running server (for tests and checks)."""
    return _open_by_server.get(server_state, Counter())


def guarded_protocol(
    *, header_timeout_s: float, per_client: int, trusted_proxies: Iterable[str]
) -> Callable[..., asyncio.Protocol]:
    """What to give uvicorn's ``Config(http=…)``."""
    return functools.partial(
        GuardedHTTPProtocol,
        header_timeout_s=header_timeout_s,
        per_client=per_client,
        exempt=trusted_networks(trusted_proxies),
    )
