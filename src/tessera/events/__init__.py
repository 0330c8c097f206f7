"""Tournament events kept in a database, and the ``tessera tournament`` command.

* :mod:`.schema` — the tables (SQLAlchemy Core: the command line's SQLite file, the server's
  PostgreSQL database);
* :mod:`.store` — an event loaded as :mod:`tessera.tournament`'s model, changed there, written
  back in one committed transaction;
* :mod:`.rating` — a division's results as the rating system's input;
* :mod:`.cli` — ``tessera tournament``.

:mod:`tessera.tournament` stays pure; this is the layer beside it that does the I/O.
"""

from __future__ import annotations

from .store import EventStore, EventStoreError, StoredDivision, StoredEvent

__all__ = ["EventStore", "EventStoreError", "StoredDivision", "StoredEvent"]
