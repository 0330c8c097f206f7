"""Solo duplicate games (R8.4) in the game store's database: one row a game, its owner and
its whole GCG duplicate record (:mod:`tessera.formats.gcg.duplicate`), rewritten after each
round. The record names the rules, the word list and the seed, so
:func:`tessera.formats.gcg.replay_duplicate` rebuilds the game exactly after a restart; it
never leaves the server while the game is on (its seed would tell the racks to come).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass

from sqlalchemy import insert, select, update

from .schema import duplicates_table
from .storage import Storage


@dataclass(frozen=True)
class DuplicateRow:
    id: str
    user_id: str
    lexicon: str
    record: str
    over: bool


def _now_ms() -> int:
    return int(time.time() * 1000)


class DuplicateStore:
    """The table over the app's :class:`~.storage.Storage` engine (blocking: call it from a
    thread, never the event loop)."""

    def __init__(self, storage: Storage) -> None:
        self.engine = storage.engine

    def create(self, user_id: str, lexicon: str, record: str) -> str:
        game_id = secrets.token_urlsafe(12)
        now = _now_ms()
        with self.engine.begin() as conn:
            conn.execute(
                insert(duplicates_table).values(
                    id=game_id,
                    user_id=user_id,
                    lexicon=lexicon,
                    record=record,
                    over=False,
                    created_at=now,
                    updated_at=now,
                )
            )
        return game_id

    def save(self, game_id: str, record: str, over: bool) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(duplicates_table)
                .where(duplicates_table.c.id == game_id)
                .values(record=record, over=over, updated_at=_now_ms())
            )

    def load(self, game_id: str) -> DuplicateRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(duplicates_table).where(duplicates_table.c.id == game_id)
            ).first()
        if row is None:
            return None
        return DuplicateRow(row.id, row.user_id, row.lexicon, row.record, bool(row.over))
