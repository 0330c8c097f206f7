"""Scale-out (issue 10): several ``tessera serve`` processes on one PostgreSQL.

Two processes, each player on a different one: every move made through one reaches the other
player's page through the other (LISTEN/NOTIFY); one process is killed with SIGKILL in the
middle of the game, no acknowledged move is lost, and the game finishes through the other.
``serve --workers 2`` runs two processes behind one port that play the same way."""

from __future__ import annotations

import json
import subprocess
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from helpers import PASSWORD, cookie_header, generated_move
from serverproc import TESSERA, ServerProcess
from websockets.sync.client import ClientConnection, connect

from conftest import fresh_database
from tessera.server.storage import Storage


@pytest.fixture
def pg(postgres_cluster: str) -> str:
    return fresh_database(postgres_cluster)


def _client(server: ServerProcess, cookies: httpx.Cookies | None = None) -> httpx.Client:
    return httpx.Client(base_url=server.url, timeout=30, cookies=cookies)


def _register(client: httpx.Client, name: str) -> None:
    r = client.post("/api/register", json={"username": name, "password": PASSWORD})
    assert r.status_code == 201, r.text


def _listen(
    stack: ExitStack, server: ServerProcess, gid: str, client: httpx.Client
) -> ClientConnection:
    ws = stack.enter_context(
        connect(
            server.url.replace("http", "ws") + f"/api/games/{gid}/ws",
            additional_headers=cookie_header(client),
        )
    )
    ws.send("{}")
    return ws


def _wait_seq(ws: ClientConnection, seq: int) -> dict[str, Any]:
    """The first state pushed on ``ws`` that is at least at ``seq``."""
    deadline = time.monotonic() + 20
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no state at seq {seq} arrived"
        msg = json.loads(ws.recv(timeout=left))
        if msg.get("type") == "state" and msg["state"]["seq"] >= seq:
            return msg["state"]  # type: ignore[no-any-return]


def _move(client: httpx.Client, gid: str) -> int:
    """The player's legal move on their own state; returns the acknowledged seq."""
    s = client.get(f"/api/games/{gid}/state").json()
    body = generated_move(s)
    r = client.post(f"/api/games/{gid}/move", json={"seat": s["seat"], "seq": s["seq"], **body})
    assert r.status_code == 200, r.text
    return int(r.json()["seq"])


def test_two_processes_share_a_game_and_survive_one_being_killed(tmp_path: Path, pg: str) -> None:
    one = ServerProcess(tmp_path / "one", url=pg).start()
    two = ServerProcess(tmp_path / "two", url=pg).start()
    stack = ExitStack()
    try:
        with _client(one) as a, _client(two) as b:
            _register(a, "north_1")
            _register(b, "south_1")
            r = a.post("/api/seeks", json={"rules": "woogles", "initial_min": 20})
            seek = r.json()["seek"]
            r = b.post(f"/api/seeks/{seek['id']}/accept", json={})
            assert r.status_code == 201, r.text
            gid = r.json()["game_id"]
            ws_a, ws_b = _listen(stack, one, gid, a), _listen(stack, two, gid, b)
            players = {0: (a, ws_a), 1: (b, ws_b)}
            acked = 0
            for _ in range(6):  # moves made through one process reach the other's page
                to_move = a.get(f"/api/games/{gid}/state").json()["to_move"]
                mover, _ = players[to_move]
                acked = _move(mover, gid)
                _, other_ws = players[1 - to_move]
                assert _wait_seq(other_ws, acked)["seq"] == acked
            cookies_a = a.cookies
        one.kill()  # SIGKILL in the middle of the game
        rec = Storage(pg).load(gid)
        assert rec is not None and len(rec.actions) == acked  # nothing acknowledged is lost
        with _client(two, cookies_a) as a2, _client(two, b.cookies) as b2:
            players2 = {0: a2, 1: b2}
            for _ in range(200):
                s = a2.get(f"/api/games/{gid}/state").json()
                if s["state"] == "over":
                    break
                _move(players2[s["to_move"]], gid)
            final = a2.get(f"/api/games/{gid}/state").json()
            assert final["state"] == "over"
            gcg = a2.get(f"/api/games/{gid}/gcg")
            assert gcg.status_code == 200
        path = tmp_path / "game.gcg"
        path.write_text(gcg.text)
        verify = subprocess.run(
            [str(TESSERA), "gcg", "verify", str(path)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert verify.returncode == 0, verify.stdout + verify.stderr
    finally:
        stack.close()
        one.kill()
        two.kill()


def test_serve_with_two_workers_plays_through_one_port(tmp_path: Path, pg: str) -> None:
    server = ServerProcess(tmp_path / "w", url=pg, extra=("--workers", "2")).start()
    stack = ExitStack()
    try:
        assert server.proc is not None
        children = subprocess.run(
            ["pgrep", "-P", str(server.proc.pid)], capture_output=True, text=True
        ).stdout.split()
        assert len(children) >= 2, children  # two workers (and the supervisor's helpers)
        with _client(server) as a, _client(server) as b:
            _register(a, "east_2")
            _register(b, "west_2")
            seek = a.post("/api/seeks", json={"rules": "woogles"}).json()["seek"]
            gid = b.post(f"/api/seeks/{seek['id']}/accept", json={}).json()["game_id"]
            sockets = {0: _listen(stack, server, gid, a), 1: _listen(stack, server, gid, b)}
            clients = {0: a, 1: b}
            for _ in range(6):  # whichever worker each connection landed on
                to_move = a.get(f"/api/games/{gid}/state").json()["to_move"]
                seq = _move(clients[to_move], gid)
                assert _wait_seq(sockets[1 - to_move], seq)["seq"] == seq
    finally:
        stack.close()
        server.kill()
    deadline = time.monotonic() + 10  # no worker outlives the server (a killed one exits)
    while (alive := [p for p in children if _running(p)]) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive, f"workers {alive} still running"


def _running(pid: str) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "zombie" not in status


def test_workers_without_postgresql_are_a_clear_error(tmp_path: Path) -> None:
    r = subprocess.run(
        [
            str(TESSERA),
            "serve",
            "--workers",
            "2",
            "--database",
            f"sqlite:///{tmp_path / 'x.db'}",
            "--port",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode != 0 and "PostgreSQL" in r.stderr and "Traceback" not in r.stderr
