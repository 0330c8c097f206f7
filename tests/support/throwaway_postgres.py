"""A throwaway PostgreSQL cluster on a free loopback port (Debian's postgresql, installed by
scripts/ensure-system-packages): for the server tests, the scale-out tests and
``benchmarks/load``. As root, the cluster runs as the ``postgres`` user (initdb refuses root).
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .ports import free_port


def bindir() -> Path | None:
    """Where the newest installed PostgreSQL's programs are, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"))
    return Path(found[-1]).parent if found else None


@contextmanager
def throwaway_postgres(*settings: str) -> Iterator[str]:
    """Start a cluster and yield its URL; ``settings`` are extra ``-c name=value`` options."""
    programs = bindir()
    if programs is None:
        raise RuntimeError("PostgreSQL is not installed (scripts/ensure-system-packages)")
    root = Path(tempfile.mkdtemp(prefix="tessera-pg-"))
    root.chmod(0o755)
    data, sock = root / "data", root / "sock"
    sock.mkdir()
    as_user: list[str] = []
    if os.geteuid() == 0:
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(root, "postgres")
        shutil.chown(sock, "postgres")
    subprocess.run(
        [
            *as_user,
            str(programs / "initdb"),
            "-D",
            str(data),
            "-A",
            "trust",
            "-U",
            "postgres",
            "--no-sync",
            "-E",
            "UTF8",
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    port = free_port()
    options = [arg for s in ("max_connections=300", *settings) for arg in ("-c", s)]
    proc = subprocess.Popen(
        [
            *as_user,
            str(programs / "postgres"),
            "-D",
            str(data),
            "-k",
            str(sock),
            "-p",
            str(port),
            "-h",
            "127.0.0.1",
            *options,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while subprocess.run(
            [str(programs / "pg_isready"), "-h", "127.0.0.1", "-p", str(port)],
            capture_output=True,
        ).returncode:
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("PostgreSQL did not start")
            time.sleep(0.2)
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        shutil.rmtree(root, ignore_errors=True)
