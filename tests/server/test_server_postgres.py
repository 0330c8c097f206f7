"""``tessera serve --database postgresql://…`` works as SQLite does: a throwaway PostgreSQL
cluster (Debian's postgresql, installed by scripts/ensure-system-packages), a game played
over HTTP, the server killed with SIGKILL and restarted on the same database."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from helpers import new_game, state, take_turn, wait_turn
from serverproc import ServerProcess, free_port


def _bindir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"))
    return Path(found[-1]).parent if found else None


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    bindir = _bindir()
    if bindir is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL is missing: run scripts/ensure-system-packages")
        pytest.skip("PostgreSQL is not installed (scripts/ensure-system-packages)")
    pytest.importorskip("psycopg")
    root = Path(tempfile.mkdtemp(prefix="tessera-pg-"))
    root.chmod(0o755)
    data, sock = root / "data", root / "sock"
    sock.mkdir()
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb refuses root: run the cluster as the postgres user
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(root, "postgres")
        shutil.chown(sock, "postgres")
    subprocess.run(
        [
            *as_user,
            str(bindir / "initdb"),
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
    proc = subprocess.Popen(
        [
            *as_user,
            str(bindir / "postgres"),
            "-D",
            str(data),
            "-k",
            str(sock),
            "-p",
            str(port),
            "-h",
            "127.0.0.1",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while (
            subprocess.run(
                [str(bindir / "pg_isready"), "-h", "127.0.0.1", "-p", str(port)],
                capture_output=True,
            ).returncode
            != 0
        ):
            assert time.monotonic() < deadline, "PostgreSQL did not start"
            time.sleep(0.2)
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        shutil.rmtree(root, ignore_errors=True)


def test_a_postgres_backed_server_survives_sigkill(tmp_path: Path, postgres_url: str) -> None:
    server = ServerProcess(tmp_path / "pg", url=postgres_url).start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            gid, tok = new_game(client)
            for _ in range(2):
                take_turn(client, gid, tok, wait_turn(client, gid, tok))
            before = wait_turn(client, gid, tok)
        server.kill()
        server = ServerProcess(tmp_path / "pg", url=postgres_url).start()
        with httpx.Client(base_url=server.url, timeout=30) as client:
            after = state(client, gid, tok)
        for key in ("board", "rack", "scores", "history", "bag_count", "to_move", "seq"):
            assert after[key] == before[key], key
        assert after["seq"] >= 3
    finally:
        server.kill()
