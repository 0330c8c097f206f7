"""No engine help during your own rated game (issue 36, point 9).

While a user holds a seat in a rated game that is neither over nor aborted, everything that
would let the engine or the word list play for them is refused: the analysis board, game
reviews and their simulations, hints (even in a game against the computer) and word study.
Casual games, games against the computer and people who are not signed in are not held back.

The check is one indexed query (:meth:`Storage.rated_game_in_progress`) on every such
request, not a cache: a game started or ended by another server process is seen at once.
"""

from __future__ import annotations

import asyncio
import time

from .accounts import User
from .errors import RequestError
from .storage import Storage

REASON = "rated_game_in_progress"
MESSAGE = (
    "No engine help during your own rated game (fair play): the analysis board, reviews, "
    "simulations, hints and word lookup open again when the game is over."
)


async def refuse_during_rated_game(storage: Storage, user: User | None) -> None:
    """A 403 (:data:`REASON`) for a user with a rated game in progress; nothing otherwise."""
    if user is None:
        return
    now_ms = int(time.time() * 1000)
    if await asyncio.to_thread(storage.rated_game_in_progress, user.id, now_ms):
        raise RequestError(403, REASON, MESSAGE)
