"""Moving an SQLite database's write-ahead log into the database file, off the commit path.

By default SQLite checkpoints inside a commit: the commit that takes the log past 1,000 pages
also copies those pages into the database file and waits for that file's fsync. Under many
live games that commit took up to a quarter of a second, and every move waiting on it (the
log writer commits many at once) waited as long: the slowest round trips at 1,000 games
(``benchmarks/load``) were these. Here the commits never checkpoint (``wal_autocheckpoint=0``)
and a thread of its own checkpoints every ``EVERY_S`` in ``PASSIVE`` mode, which never blocks
a writer or a reader. Durability is unchanged: a commit still returns only once its log pages
are on disk (``synchronous=FULL``).

The thread holds the engine weakly and stops when the store is closed or dropped, or when
the database file is gone (it never makes a new one by connecting).
"""

from __future__ import annotations

import logging
import threading
import weakref
from pathlib import Path

from sqlalchemy import Engine

log = logging.getLogger(__name__)

EVERY_S = 1.0


class Checkpointer:
    def __init__(self, engine: Engine, path: Path, every_s: float = EVERY_S) -> None:
        self._engine = weakref.ref(engine)
        self.path = path
        self.every_s = every_s
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._run, name="tessera-checkpointer", daemon=True
        )
        self._thread.start()

    def checkpoint(self) -> tuple[int, int, int] | None:
        """One passive checkpoint: (busy, log pages, pages checkpointed), as SQLite says;
        None when the store or its file is gone."""
        engine = self._engine()
        if engine is None or not self.path.exists():
            return None
        with engine.connect() as conn:
            row = conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").one()
        return int(row[0]), int(row[1]), int(row[2])

    def _run(self) -> None:
        failing = False
        while not self._stop.wait(self.every_s):
            try:
                if self.checkpoint() is None:
                    return
                failing = False
            except Exception:  # said once a run of failures; the next round tries again
                if not failing:
                    log.warning("write-ahead log checkpoint failed", exc_info=True)
                failing = True

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=30)
