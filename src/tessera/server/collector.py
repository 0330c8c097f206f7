"""The cycle collector's schedule in a serving process (``tessera serve``).

CPython stops every game at once for each collector pass, and a pass costs about a
microsecond for each object it walks. What a server with a thousand live games walks is
mostly those games' histories (events, plays, word scores: some twenty objects a move),
which live until their game ends, so nearly every object a young pass sees survives it. The
schedule below keeps each pass small; measured with ``benchmarks/load`` (1,000 people games,
one process, SQLite, 40 s), pauses timed with ``gc.callbacks``:

======================================  ==========================  ============  =========
thresholds (young, middle, old)         young pass  /  middle pass   full pass     move p99
======================================  ==========================  ============  =========
CPython's own (700, 10, 10)             1 ms / 15 ms                0.5–0.8 s,    998 ms
                                                                    every ~10 s
(20,000, 10, 10)                        55 ms / 270 ms              none in 40 s  218 ms
(3,000, 4, never; a full pass on a      6 ms / 38 ms (max 56)       every 10 min  77 ms
timer) — this module
======================================  ==========================  ============  =========

- What start-up makes (modules, classes, the word list's wrappers, the database layer) lives
  as long as the process. Once the server is ready it is frozen (``gc.freeze``), and no pass
  walks it again.
- Young passes come every ``YOUNG_THRESHOLD`` new objects and middle passes every
  ``MIDDLE_THRESHOLD`` young ones, so neither walks more than a few tens of thousands of
  objects.
- CPython's full pass walks everything not frozen (hundreds of thousands of objects at 1,000
  games) whenever the old generation has grown by a quarter, which at that load is every few
  seconds. Here it never runs by count; :func:`collect_old_generation` runs it every
  ``FULL_EVERY_S`` instead. Cyclic garbage that reached the old generation (a closed
  connection's) therefore waits at most that long to be freed: memory stays bounded
  (``benchmarks/soak``), and the one long pause comes every ten minutes, not every ten seconds.

The interpreter also hands its lock between threads every ``SWITCH_INTERVAL_S`` instead of
every 5 ms: a move waits for a worker thread (validation) and the log writer (its commit), and
with the event loop busy each hand-over could wait a whole interval.
"""

from __future__ import annotations

import asyncio
import gc
import sys

YOUNG_THRESHOLD = 3_000
MIDDLE_THRESHOLD = 4
NEVER = 1_000_000_000  # the old generation's threshold: its full passes come from the timer
FULL_EVERY_S = 600.0
SWITCH_INTERVAL_S = 0.001


def tune() -> None:
    """The schedule above, and switching threads sooner (see the module's docstring)."""
    gc.set_threshold(YOUNG_THRESHOLD, MIDDLE_THRESHOLD, NEVER)
    sys.setswitchinterval(SWITCH_INTERVAL_S)


def settle() -> None:
    """Start-up is done: collect once, then take what is left out of every later pass."""
    gc.collect()
    gc.freeze()


async def collect_old_generation(every_s: float = FULL_EVERY_S) -> None:
    """A full collection every ``every_s`` seconds, for as long as the process serves."""
    while True:
        await asyncio.sleep(every_s)
        gc.collect()
