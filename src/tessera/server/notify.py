"""Events between server processes: PostgreSQL LISTEN/NOTIFY (or this process alone).

Every process hands an event to :meth:`Notifier.publish`; it reaches this process's own
handlers at once and, on PostgreSQL, every other process listening on the channel. Events are
small JSON objects (a game's new log entry, a lobby change, a message for one user); each
carries its origin so a process ignores its own echo. The log in the database stays the truth:
an event only says where to look, and a process that missed some (its listening connection
dropped) catches up from the database when it reconnects.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("tessera.server")
CHANNEL = "tessera"
Handler = Callable[[dict[str, Any]], Awaitable[None]]
RECONNECT_S = 1.0
MAX_BATCH = 200  # events per NOTIFY round trip


class Notifier:
    def __init__(self, url: str | None) -> None:
        """``url``: a PostgreSQL URL to share events with other processes; None for one."""
        self.url = _libpq_url(url) if url else None
        self.origin = f"{os.getpid()}-{secrets.token_hex(4)}"
        self._handlers: list[Handler] = []
        self._reconnected: list[Callable[[], Awaitable[None]]] = []
        self._task: asyncio.Task[None] | None = None
        self._send: Any = None  # the connection NOTIFY goes through
        self._outbox: list[str] = []
        self._sender: asyncio.Task[None] | None = None
        self.listening = asyncio.Event()

    def subscribe(self, handler: Handler) -> None:
        self._handlers.append(handler)

    def on_reconnect(self, callback: Callable[[], Awaitable[None]]) -> None:
        """Called after the listening connection came back (events may have been missed)."""
        self._reconnected.append(callback)

    async def start(self) -> None:
        if self.url is None:
            self.listening.set()
            return
        self._task = asyncio.get_running_loop().create_task(self._listen())
        await asyncio.wait_for(self.listening.wait(), 30)

    async def close(self) -> None:
        if self._sender is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(self._sender, 5)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        if self._send is not None:
            with contextlib.suppress(Exception):
                await self._send.close()

    async def publish(self, event: dict[str, Any]) -> None:
        """Deliver ``event`` here now, and queue it for the other processes: nobody waits for
        them (the log already holds what matters), and a sender task gives PostgreSQL every
        queued event in one round trip."""
        await self._deliver(event)
        if self.url is None:
            return
        self._outbox.append(json.dumps({**event, "origin": self.origin}, separators=(",", ":")))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.get_running_loop().create_task(self._send_queued())

    async def _send_queued(self) -> None:
        import psycopg

        while self._outbox:
            batch, self._outbox = self._outbox[:MAX_BATCH], self._outbox[MAX_BATCH:]
            try:
                if self._send is None or self._send.closed:
                    self._send = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                await self._send.execute(
                    "SELECT pg_notify(%s, payload) FROM unnest(%s::text[]) AS payload",
                    (CHANNEL, batch),
                )
            except Exception as exc:  # the others learn it from the log when they next look
                log.warning("could not notify other processes: %s", exc)
                self._send = None

    async def _deliver(self, event: dict[str, Any]) -> None:
        for handler in list(self._handlers):
            try:
                await handler(event)
            except Exception:
                log.exception("event handler failed for %s", event.get("kind"))

    async def _listen(self) -> None:
        import psycopg

        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    if not first:
                        for callback in self._reconnected:
                            await callback()
                    first = False
                    async for note in conn.notifies():
                        try:
                            event = json.loads(note.payload)
                        except ValueError:
                            continue
                        if isinstance(event, dict) and event.get("origin") != self.origin:
                            await self._deliver(event)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("lost the event connection (%s); reconnecting", exc)
                await asyncio.sleep(RECONNECT_S)


def _libpq_url(url: str) -> str:
    """``postgresql+psycopg://…`` (SQLAlchemy's spelling) as libpq takes it."""
    scheme, rest = url.split("://", 1)
    return "postgresql://" + rest if scheme.startswith("postgres") else url
