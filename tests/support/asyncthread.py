"""Running a coroutine from a test: ``asyncio.run`` on a fresh thread.

The browser tests' session-wide Playwright keeps an event loop running in the test process's
main thread, and ``asyncio.run`` refuses to start inside a running loop; under xdist a
server test may come after a browser test in the same worker process.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_in_thread(make: Callable[[], Coroutine[Any, Any, T]], timeout: float = 60.0) -> T:
    """The coroutine ``make()`` returns, run to its end on its own thread and event loop."""
    results: list[T] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            results.append(asyncio.run(make()))
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(timeout)
    if errors:
        raise errors[0]
    assert results, f"the coroutine did not finish within {timeout:.0f} s"
    return results[0]
