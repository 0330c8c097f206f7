"""The cycle collector's schedule in a serving process (``tessera serve``).

A full collection walks every object the collector tracks. A server with a thousand live
games and two thousand open sockets tracks a few hundred thousand, and each full pass stalled
every game at once for 100–400 ms (timed with ``gc.callbacks`` under load). Two changes make
the passes shorter and rarer while every cycle is still collected by CPython's own rule:

- What start-up makes (modules, classes, the word list's wrappers, the database layer) lives
  as long as the process. Once the server is ready it is frozen (``gc.freeze``), and no pass
  walks it again.
- The young generation is collected after ``YOUNG_THRESHOLD`` new objects instead of 700. A
  request's temporary objects are then nearly all freed by reference counting before a young
  collection sees them, so few are promoted to the old generation, whose growth by a quarter
  is what triggers a full pass. A young collection of that size takes a few milliseconds.

Games between people keep their state acyclic, and closed connections' cycles are still
freed by the full passes, which keep their trigger: memory stays bounded (``benchmarks/soak``).
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 20_000


def tune() -> None:
    """Collect the young generation less often (see the module's docstring)."""
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)


def settle() -> None:
    """Start-up is done: collect once, then take what is left out of every later pass."""
    gc.collect()
    gc.freeze()
