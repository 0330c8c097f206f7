"""Moves made on a game's WebSocket (as the page makes them): the same game, checks and
answers as ``POST …/move``, answered on the socket; a refused request changes nothing."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from helpers import HUMANS, best_move, new_game, state

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tessera.server.app import create_app
from tessera.server.config import ServerConfig

BASE = "http://localhost"
WS = "ws://localhost"  # the test client's WebSockets ignore base_url
FAST = ServerConfig(bot_delay_s=0, think_s=0.05)


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db, config=FAST), base_url=BASE) as c:
        yield c


def receive(ws: Any) -> dict[str, Any]:
    return json.loads(ws.receive_text())  # type: ignore[no-any-return]


def answer_of(ws: Any) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The states pushed before the answer, and the answer (every move gets one)."""
    states = []
    message = receive(ws)
    while message["type"] == "state":
        states.append(message["state"])
        message = receive(ws)
    return states, message


def opened(ws: Any) -> dict[str, Any]:
    ws.send_text("{}")
    first = receive(ws)
    assert first["type"] == "state"
    return first["state"]  # type: ignore[no-any-return]


def test_a_move_on_the_socket_comes_back_as_the_state_then_the_answer(
    client: TestClient,
) -> None:
    gid = new_game(client, players=HUMANS)
    with client.websocket_connect(f"{WS}/api/games/{gid}/ws") as ws:
        s = opened(ws)
        body = best_move(client, gid, s)
        move = {"seat": s["seat"], "seq": s["seq"], **body}
        ws.send_text(json.dumps({"type": "move", "id": 7, "move": move}))
        pushed, answer = answer_of(ws)
    assert [p["seq"] for p in pushed] == [s["seq"] + 1]
    assert answer == {"type": "answer", "id": 7, "ok": True, "seq": s["seq"] + 1}
    after = state(client, gid)
    assert after["seq"] == s["seq"] + 1 and after["history"][-1]["player"] == s["seat"]


def test_a_move_the_rules_refuse_is_an_answer_and_changes_nothing(client: TestClient) -> None:
    gid = new_game(client, players=HUMANS)
    with client.websocket_connect(f"{WS}/api/games/{gid}/ws") as ws:
        s = opened(ws)
        corner = [[0, 0, s["rack"][0]], [0, 1, s["rack"][1]]]  # off the start square (R2.2)
        move = {"seat": s["seat"], "action": "play", "placements": corner}
        ws.send_text(json.dumps({"type": "move", "id": 1, "move": move}))
        pushed, answer = answer_of(ws)
    assert not pushed and answer["id"] == 1 and answer["ok"] is False
    assert answer["reason"] and answer["message"] and "status" not in answer
    assert state(client, gid)["seq"] == s["seq"]


@pytest.mark.parametrize(
    ("message", "status", "reason"),
    [
        ({"type": "move", "move": {"seat": 0, "action": "pass"}}, 400, "bad_request"),  # no id
        ({"type": "move", "id": "x", "move": {"seat": 0, "action": "pass"}}, 400, "bad_request"),
        ({"type": "move", "id": 2, "move": "pass"}, 400, "bad_request"),
        ({"type": "move", "id": 3, "move": {"seat": 0, "action": "dance"}}, 400, None),
        ({"type": "move", "id": 4, "move": {"seat": 0, "action": "pass", "seq": 99}}, 409, "stale"),
        ({"type": "move", "id": 5, "move": {"action": "pass", "seat": 7}}, 403, "forbidden"),
        ({"type": "move", "id": 8, "move": {"action": "pass"}}, 400, "bad_seat"),  # whose?
        ({"type": "move", "id": 6, "move": {"action": "play", "text": "X" * 5000}}, 1009, None),
    ],
)
def test_a_malformed_move_gets_a_precise_answer_and_changes_nothing(
    client: TestClient, message: dict[str, Any], status: int, reason: str | None
) -> None:
    gid = new_game(client, players=HUMANS)
    with client.websocket_connect(f"{WS}/api/games/{gid}/ws") as ws:
        s = opened(ws)
        ws.send_text(json.dumps(message))
        answer = receive(ws)  # no state: nothing changed
        if status == 1009:  # past the socket's message size: refused and closed
            assert answer["type"] == "error" and "too large" in answer["error"]
        else:
            assert answer["type"] == "answer" and answer["status"] == status, answer
            assert answer["id"] == (message["id"] if type(message.get("id")) is int else None)
            assert reason is None or answer["reason"] == reason
            assert answer["error"]
    assert state(client, gid)["seq"] == s["seq"]


def test_someone_logged_out_cannot_move_on_a_socket_opened_before(client: TestClient) -> None:
    """Logging out closes the session's sockets (a spectator's move:
    tests/server/test_server_online.py; the session is looked up for every move, too)."""
    from starlette.websockets import WebSocketDisconnect

    gid = new_game(client, players=HUMANS)
    with client.websocket_connect(f"{WS}/api/games/{gid}/ws") as ws:
        s = opened(ws)
        assert client.post("/api/logout", json={}).status_code in (200, 204)
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
    assert closed.value.code == 4401
    assert client.app.state.hub.sessions[gid].seq == s["seq"]  # type: ignore[attr-defined]


def test_pings_and_other_messages_leave_the_socket_open(client: TestClient) -> None:
    gid = new_game(client, players=HUMANS)
    with client.websocket_connect(f"{WS}/api/games/{gid}/ws") as ws:
        s = opened(ws)
        for text in ("ping", "{}", "[1,2]", '{"type":"chat"}', "null"):
            ws.send_text(text)
        body = best_move(client, gid, s)
        ws.send_text(json.dumps({"type": "move", "id": 1, "move": {"seat": s["seat"], **body}}))
        pushed, answer = answer_of(ws)
    assert [p["seq"] for p in pushed] == [s["seq"] + 1]
    assert answer == {"type": "answer", "id": 1, "ok": True, "seq": s["seq"] + 1}


def test_moves_on_the_socket_count_against_the_move_limit(db: str) -> None:
    config = ServerConfig(bot_delay_s=0, think_s=0.05, moves_per_minute=2)
    with TestClient(create_app(db, config=config), base_url=BASE) as c:
        gid = new_game(c, players=HUMANS)
        with c.websocket_connect(f"{WS}/api/games/{gid}/ws") as ws:
            s = opened(ws)
            statuses = []
            for ident in range(4):
                move = {"seat": s["seat"], "action": "pass"}
                ws.send_text(json.dumps({"type": "move", "id": ident, "move": move}))
                pushed, answer = answer_of(ws)
                s = pushed[-1] if pushed else s
                statuses.append(answer.get("status", 200))
    assert statuses[:2] == [200, 200] and set(statuses[2:]) == {429}


def test_a_game_rebuilt_after_a_failed_write_hangs_up_on_its_pages_so_they_reconnect(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move that cannot be stored drops the live game (rebuilt from its log next time);
    the pages that watched it are closed with 1012 and, reconnected, follow the new one."""
    from starlette.websockets import WebSocketDisconnect

    hub = client.app.state.hub  # type: ignore[attr-defined]
    gid = new_game(client, players=HUMANS)
    with client.websocket_connect(f"{WS}/api/games/{gid}/ws") as ws:
        s = opened(ws)
        body = {"seat": s["seat"], **best_move(client, gid, s)}

        async def broken(*_args: Any, **_kwargs: Any) -> None:
            raise OSError("disk full")

        monkeypatch.setattr(hub.writer, "append", broken)
        ws.send_text(json.dumps({"type": "move", "id": 1, "move": body}))
        with pytest.raises(WebSocketDisconnect) as closed:
            answer = receive(ws)
            assert answer["status"] == 503 and answer["reason"] == "storage"
            receive(ws)
        assert closed.value.code == 1012
    monkeypatch.undo()
    with client.websocket_connect(f"{WS}/api/games/{gid}/ws") as ws:
        again = opened(ws)
        assert again["seq"] == s["seq"]  # nothing was stored, nothing changed
        ws.send_text(json.dumps({"type": "move", "id": 2, "move": body}))
        pushed, answer = answer_of(ws)
    assert answer["ok"] is True and [p["seq"] for p in pushed] == [s["seq"] + 1]
