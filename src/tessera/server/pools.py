"""The analysis pool: the processes that run reviews, their simulations and the analysis
board (issue 36, point 7: analysis never delays moves). Their work is in
:mod:`.analysis_jobs`.

The pool is bounded (``ServerConfig.analysis_workers``, half the cores) and apart from the
moves' threads in three ways: analysis never holds a thread a move waits for; it runs in
processes of its own, so its Python never holds the server's GIL; and those processes run at
a lower scheduling priority (``nice``), so when analysis and moves want the same core, the
move gets it. (In threads, the lower priority would turn against the moves: a thread that
waits for a core while holding the GIL holds up every other thread.) A worker starts on the
first analysis asked for and loads the word lists it is asked about once.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from .analysis_jobs import Job, answer, run

ANALYSIS_NICE = 10  # added to the server's: the scheduler weighs a worker ~1/9 of a move


def start_worker(nice: int = ANALYSIS_NICE) -> None:
    """A worker's start: a lower priority (where that is refused, as it is), and Ctrl-C left
    to the server, which shuts its pool down."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(AttributeError, OSError):  # no os.nice, or a sandbox says no
        os.nice(nice)


def analysis_pool(workers: int) -> ProcessPoolExecutor:
    """``workers`` processes at a lower priority, started afresh (not forked from a server
    whose threads may hold locks)."""
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=start_worker,
    )


async def analyse(pool: Executor, job: Job, *args: Any) -> dict[str, Any]:
    """``job(*args)`` on ``pool``, awaited; a refusal there is raised here."""
    return answer(await asyncio.wrap_future(pool.submit(run, job, *args)))
