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
  is what triggers a full pass. A young pass over 20,000 objects costs tens of milliseconds
  here; at 1,000 people games (``benchmarks/load``, one process) the p99 round trip fell as
  the threshold rose from 700 to 20,000 (runs of this module with the number changed).

The interpreter also hands its lock between threads every ``SWITCH_INTERVAL_S`` instead of
every 5 ms: a move waits for a worker thread (validation) and the log writer (its commit), and
with the event loop busy each hand-over could wait a whole interval (the same load's p99 fell
with 1 ms, though by less than the run-to-run spread at 1,000 games).

Games between people keep their state acyclic, and closed connections' cycles are still
freed by the full passes, which keep their trigger: memory stays bounded (``benchmarks/soak``).
"""

from __future__ import annotations

import gc
import sys

YOUNG_THRESHOLD = 20_000
SWITCH_INTERVAL_S = 0.001


def tune() -> None:
    """Collect the young generation less often, and switch threads sooner (see the module's
    docstring)."""
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
    sys.setswitchinterval(SWITCH_INTERVAL_S)


def settle() -> None:
    """Start-up is done: collect once, then take what is left out of every later pass."""
    gc.collect()
    gc.freeze()
