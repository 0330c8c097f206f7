"""Appending to the game log from one thread, many actions per transaction (group commit).

Every acknowledged action must be durable first, so each one waits for a commit. When many
games move at once, separate commits from several threads would queue on the database's write
lock (SQLite has one writer: its busy handler sleeps, the server idles, and round trips grow
with the number of games). One writer thread instead takes whatever is waiting, commits it in
one transaction with one flush, and answers each waiting move.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from typing import Any

from .storage import Action, Storage, StorageError

MAX_BATCH = 256


class LogWriter:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    async def append(
        self, game_id: str, seq: int, action: Action, deadline_ms: int | None = None
    ) -> Action:
        """Store ``action`` as entry ``seq`` of the game's log (and the game's new clock
        deadline); returns it once durable. Raises StorageError if that place is taken, or
        the database's error."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Action] = loop.create_future()
        self._ensure_thread()
        self._queue.put((game_id, seq, action, deadline_ms, future, loop))
        return await future

    def _ensure_thread(self) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="tessera-log-writer", daemon=True
                )
                self._thread.start()

    def close(self) -> None:
        with self._lock:
            if self._thread is not None and self._thread.is_alive():
                self._queue.put(None)
                self._thread.join(timeout=30)
            self._thread = None

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < MAX_BATCH:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    self._queue.put(None)  # stop after this batch
                    break
                batch.append(item)
            try:
                results: list[Action | StorageError] | BaseException = self.storage.append_many(
                    [
                        (game_id, seq, action, deadline)
                        for game_id, seq, action, deadline, _, _ in batch
                    ]
                )
            except Exception as exc:  # the database is down: every waiting move hears it
                results = exc
            for i, (_, _, _, _, future, loop) in enumerate(batch):
                outcome = results if isinstance(results, BaseException) else results[i]
                try:
                    loop.call_soon_threadsafe(_settle, future, outcome)
                except RuntimeError:  # that event loop has closed (shutdown)
                    pass


def _settle(future: asyncio.Future[Action], outcome: Action | BaseException) -> None:
    if future.done():  # the waiting request was cancelled
        return
    if isinstance(outcome, BaseException):
        future.set_exception(outcome)
    else:
        future.set_result(outcome)
