"""``tessera serve --database postgresql://…`` works as SQLite does: a throwaway PostgreSQL
cluster (Debian's postgresql, installed by scripts/ensure-system-packages), a game played
over HTTP, the server killed with SIGKILL and restarted on the same database."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from helpers import new_game, state, take_turn, wait_turn
from serverproc import ServerProcess

from conftest import fresh_database


@pytest.fixture
def postgres_url(postgres_cluster: str) -> str:
    return fresh_database(postgres_cluster)


def test_a_postgres_backed_server_survives_sigkill(tmp_path: Path, postgres_url: str) -> None:
    server = ServerProcess(tmp_path / "pg", url=postgres_url).start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            gid = new_game(client)
            for _ in range(2):
                take_turn(client, gid, wait_turn(client, gid))
            before = wait_turn(client, gid)
            cookies = client.cookies
        server.kill()
        server = ServerProcess(tmp_path / "pg", url=postgres_url).start()
        with httpx.Client(base_url=server.url, timeout=30, cookies=cookies) as client:
            after = state(client, gid)
        for key in ("board", "rack", "scores", "history", "bag_count", "to_move", "seq"):
            assert after[key] == before[key], key
        assert after["seq"] >= 3
    finally:
        server.kill()
