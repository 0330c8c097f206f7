"""The cyclic garbage collector's full passes on the server's schedule, not the allocator's.

With a thousand games in memory a full collection (generation 2) walks every object they
hold -- 300-500 ms at half a million objects on the project's machine -- and CPython starts
one whenever the long-lived objects have grown by a quarter, every few tens of seconds under
load: each one stalls every game on the process (the load benchmark's p99 at 1,000 games).
The young generations still collect as usual, and most garbage cycles die young; the full
collection runs on a timer instead, ``FULL_EVERY_S`` apart, so a cycle that lived long
enough to be promoted waits at most that long for its memory to be freed.
"""

from __future__ import annotations

import gc

FULL_EVERY_S = 300.0
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


def collect_full() -> int:
    """One full collection (the periodic job); the number of unreachable objects found."""
    return gc.collect()
