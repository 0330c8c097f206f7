"""The cyclic garbage collector's full passes on the server's terms, not the allocator's.

With a thousand games in memory a full collection (generation 2) walks every object they
hold -- 300-500 ms at half a million objects on the project's machine -- and CPython starts
one whenever the long-lived objects have grown by a quarter, every few seconds under load:
each one stalls every game on the process (the load benchmark's p99 at 1,000 games). The
young generations still collect as CPython schedules them; a full collection runs when the
oldest generation has grown to ``GROWTH`` times what the last one left (checked every
``CHECK_EVERY_S``), so the stalls come a quarter as often, while the memory that finished
games leave in reference cycles stays bounded (it waits for a full pass: their objects are
old by the time a game ends).
"""

from __future__ import annotations

import gc

CHECK_EVERY_S = 10.0
GROWTH = 2.0
FLOOR = 200_000  # objects in the oldest generation below which no full pass is worth it
_NEVER = 1 << 30  # gen-1 collections before CPython would start a full one by itself

_deferring = 0  # servers in this process that asked (tests run several in one)
_saved: tuple[int, int, int] | None = None


def defer_full_collections() -> None:
    """Stop CPython starting full collections by itself, until every caller has resumed."""
    global _deferring, _saved
    if _deferring == 0:
        _saved = gc.get_threshold()
        gc.set_threshold(_saved[0], _saved[1], _NEVER)
    _deferring += 1


def resume_full_collections() -> None:
    global _deferring
    _deferring -= 1
    if _deferring == 0 and _saved is not None:
        gc.set_threshold(*_saved)


class FullCollections:
    """The periodic check: a full collection once the oldest generation has doubled."""

    def __init__(self) -> None:
        self.left = len(gc.get_objects(generation=2))
        self.collections = 0

    def due(self) -> bool:
        return len(gc.get_objects(generation=2)) > GROWTH * max(self.left, FLOOR)

    def tick(self) -> int:
        """Collect if due; the number of unreachable objects found (0 if not due)."""
        if not self.due():
            return 0
        return self.collect()

    def collect(self) -> int:
        found = gc.collect()
        self.left = len(gc.get_objects(generation=2))
        self.collections += 1
        return found
