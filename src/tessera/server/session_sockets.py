"""Which open WebSockets belong to which login session, so that ending a session (logging
out, changing the password) closes its sockets at once, in every server process.

A socket is registered under its session token's hash as soon as it opens, before its user is
looked up (a session ended meanwhile is then found either way), and under its user once
known. Ending sessions is an event (:mod:`.notify`) that reaches every process:
``{"kind": "session_end", "user": ID, "session": HASH}`` ends one session,
``{"kind": "session_end", "user": ID, "except": HASH}`` every session of the user but one.
Only the token's hash travels, as in the database. A socket whose user was still being
looked up when its user's other sessions ended could miss that event: for :data:`RECENT_S`
after it, a socket of that user is :meth:`SessionSockets.in_doubt` until its session is looked
up again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

Closer = Callable[[], Awaitable[None]]
RECENT_S = 30.0  # longer than a session lookup takes


@dataclass(eq=False)
class SessionSocket:
    """One open socket: its session's token hash, its user (once known), how to close it."""

    token_hash: str
    close: Closer
    user_id: str | None = None


@dataclass
class SessionSockets:
    """The open sockets of this process by session and by user."""

    by_session: dict[str, set[SessionSocket]] = field(default_factory=dict)
    by_user: dict[str, set[SessionSocket]] = field(default_factory=dict)
    # user -> (the session kept, when) of the last "every other session ends" event
    recent_ends: dict[str, tuple[str, float]] = field(default_factory=dict)

    def add(self, token_hash: str, close: Closer) -> SessionSocket:
        entry = SessionSocket(token_hash, close)
        self.by_session.setdefault(token_hash, set()).add(entry)
        return entry

    def in_doubt(self, entry: SessionSocket, user_id: str) -> bool:
        """Whether ``user_id``'s other sessions ended a moment ago, so that the session of
        ``entry`` may have ended while its user was looked up (look it up again)."""
        recent = self.recent_ends.get(user_id)
        return (
            recent is not None
            and recent[0] != entry.token_hash
            and time.monotonic() - recent[1] < RECENT_S
        )

    def identify(self, entry: SessionSocket, user_id: str) -> None:
        """The socket's session turned out to be ``user_id``'s."""
        entry.user_id = user_id
        self.by_user.setdefault(user_id, set()).add(entry)

    def remove(self, entry: SessionSocket) -> None:
        for index, key in ((self.by_session, entry.token_hash), (self.by_user, entry.user_id)):
            if key is None:
                continue
            entries = index.get(key)
            if entries is not None:
                entries.discard(entry)
                if not entries:
                    del index[key]

    def ended(self, event: dict[str, Any]) -> list[SessionSocket]:
        """The sockets a ``session_end`` event ends (none for any other event)."""
        if event.get("kind") != "session_end":
            return []
        session, user, keep = event.get("session"), event.get("user"), event.get("except")
        if isinstance(session, str):
            return list(self.by_session.get(session, ()))
        if isinstance(user, str) and isinstance(keep, str):
            self._remember(user, keep)
            return [e for e in self.by_user.get(user, ()) if e.token_hash != keep]
        return []

    def _remember(self, user: str, keep: str) -> None:
        now = time.monotonic()
        self.recent_ends = {u: v for u, v in self.recent_ends.items() if now - v[1] < RECENT_S}
        self.recent_ends[user] = (keep, now)

    async def on_event(self, event: dict[str, Any]) -> None:
        """A notifier handler: close the sockets of the sessions an event ends."""
        ended = self.ended(event)
        for entry in ended:
            self.remove(entry)
        await asyncio.gather(*(entry.close() for entry in ended))

    def __len__(self) -> int:
        return sum(len(entries) for entries in self.by_session.values())
