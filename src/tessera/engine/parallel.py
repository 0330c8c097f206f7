"""Running work in chunks: in this process, over a local process pool or on a Ray cluster,
results in chunk order whatever finishes first (:func:`run_parallel`), with the worker counts
a report gives (:func:`default_workers`, :func:`ray_workers`). Matches, leave training and
win-% training spread their games with it.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any


def chunks(items: Sequence[Any], size: int) -> list[Sequence[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


RAY_CONNECT_TIMEOUT = 5.0  # seconds to reach a Ray cluster's address before giving up


def _ray_connect(address: str) -> Any:
    """The ``ray`` module, connected to the cluster at ``address``; RuntimeError otherwise.

    ``ray.init`` retries an address where nothing listens for many minutes (about 40 s a
    try, 20 tries) before failing, so a ``host:port`` (or ``ray://host:port``) address is
    first checked with a plain TCP connection.
    """
    try:
        import ray  # type: ignore[import-not-found]
    except ImportError:
        raise RuntimeError("--ray needs Ray: pip install 'tessera[ray]'") from None
    if ray.is_initialized():  # connected already (ray.init would ignore a second address too)
        return ray
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if sep and host and port.isdigit():
        try:
            socket.create_connection((host.strip("[]"), int(port)), RAY_CONNECT_TIMEOUT).close()
        except OSError as exc:
            reason = exc.strerror or str(exc) or type(exc).__name__
            raise RuntimeError(
                f"cannot reach the Ray cluster at {address} ({reason}): start one with "
                f"'ray start --head' and pass its address (host:port, default port 6379)"
            ) from None
    try:
        ray.init(address=address, ignore_reinit_error=True)
    except Exception as exc:  # Ray raises ConnectionError, ValueError, RuntimeError...
        raise RuntimeError(f"cannot connect to the Ray cluster at {address}: {exc}") from None
    return ray


def ray_workers(address: str) -> int:
    """The CPUs of the Ray cluster at ``address`` (connecting to it): how many chunks it runs
    at once, which sizes the chunks and is the worker count a report gives."""
    ray = _ray_connect(address)
    try:
        cpus = ray.cluster_resources().get("CPU", 1)
    except Exception as exc:  # a cluster that cannot say what it has
        raise RuntimeError(
            f"cannot read the resources of the Ray cluster at {address}: {exc}"
        ) from None
    return max(1, int(cpus))


def run_parallel(
    func: Callable[..., Any],
    spec: Any,
    work: Sequence[Any],
    *,
    workers: int = 1,
    chunk: int = 50,
    ray_address: str | None = None,
    on_chunk: Callable[[int], None] | None = None,
) -> list[Any]:
    """Run ``func(spec, part)`` over chunks of ``work``; results in chunk order.

    ``workers`` processes locally (1: in this process), or a Ray cluster at ``ray_address``.
    ``on_chunk(n)`` is told after each chunk of ``n`` items finishes.
    """
    parts = chunks(list(work), max(1, chunk))
    results: list[Any] = [None] * len(parts)
    if ray_address:
        ray = _ray_connect(ray_address)
        remote = ray.remote(func)
        refs = {remote.remote(spec, part): i for i, part in enumerate(parts)}
        pending = list(refs)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                i = refs[ref]
                results[i] = ray.get(ref)
                if on_chunk:
                    on_chunk(len(parts[i]))
        return results
    if workers <= 1:
        for i, part in enumerate(parts):
            results[i] = func(spec, part)
            if on_chunk:
                on_chunk(len(part))
        return results
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(func, spec, part): i for i, part in enumerate(parts)}
        for fut in as_completed(futures):
            i = futures[fut]
            results[i] = fut.result()
            if on_chunk:
                on_chunk(len(parts[i]))
    return results


def default_workers() -> int:
    return max(1, os.cpu_count() or 1)
