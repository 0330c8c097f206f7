"""A real ``tessera serve`` process: what leaves it over a whole game (security), and a
SIGKILL in the middle of a game (durability)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from helpers import new_game, state, take_turn, wait_turn
from serverproc import ServerProcess
from websockets.sync.client import connect

from tessera.game import Game, GameState
from tessera.lexicon import Lexicon
from tessera.move import Exchange
from tessera.server.game_sessions import apply_action
from tessera.server.storage import Storage


class Recorder:
    """Every HTTP response body and WebSocket message the page's side receives."""

    def __init__(self) -> None:
        self.bodies: list[str] = []

    def hook(self, response: httpx.Response) -> None:
        response.read()
        self.bodies.append(response.text)

    def listen(self, url: str, gid: str, cookies: httpx.Cookies) -> None:
        ready = threading.Event()
        cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())

        def run() -> None:
            with connect(
                url.replace("http", "ws") + f"/api/games/{gid}/ws",
                additional_headers={"Cookie": cookie},
            ) as ws:
                self.socket = ws
                ws.send(json.dumps({}))
                ready.set()
                try:
                    for message in ws:
                        self.bodies.append(str(message))
                except Exception:  # closed at the end of the test
                    return

        threading.Thread(target=run, daemon=True).start()
        assert ready.wait(10)


def rack_texts(db: Path, gid: str) -> tuple[Game, int, list[set[str]]]:
    """The stored game replayed, its seed, and each seat's tile texts while the game is on.

    Draws are random picks seeded by the game's seed, so the seed is the bag's secret; the bag's
    list order is not (it stays in tile order apart from returned tiles).  A seat's texts are
    its full racks (as history text and as a state's JSON list) and the tiles of each of its
    exchanges of five or more (a shorter run could match by chance).
    """
    rec = Storage(f"sqlite:///{db}").load(gid)
    assert rec is not None
    game = Game(rec.rules, Lexicon.load("enable"), [s.name for s in rec.seats], seed=rec.seed)
    texts: list[set[str]] = [set(), set()]

    def note() -> None:
        for seat in (0, 1):
            tiles = game.rack(seat).tiles()
            if game.state is not GameState.OVER and len(tiles) == 7:
                texts[seat].add(game.alphabet.format(tiles))
                labels = [game.alphabet.label(t) for t in tiles]
                texts[seat].add(json.dumps(labels, separators=(",", ":")))

    note()
    for action in rec.actions:
        apply_action(game, action)
        note()
    for e in game.history:
        if isinstance(e.move, Exchange) and len(e.move.tiles) >= 5:
            texts[e.player].add(game.alphabet.format(e.move.tiles))
    return game, rec.seed, texts


def test_the_opponents_rack_and_the_bag_order_never_leave_the_server(tmp_path: Path) -> None:
    db = tmp_path / "sec.db"
    rec = Recorder()
    with (
        ServerProcess(db) as server,
        httpx.Client(
            base_url=server.url, event_hooks={"response": [rec.hook]}, timeout=30
        ) as client,
    ):
        client.get("/")
        for asset in ("/static/js/main.js", "/static/js/board.js", "/static/js/api.js"):
            assert client.get(asset).status_code == 200
        gid = new_game(client)
        rec.listen(server.url, gid, client.cookies)
        # refused: viewing, moving or exchanging as the other seat; no session; a forged one
        assert client.get(f"/api/games/{gid}/state?seat=1").status_code == 403
        with httpx.Client(base_url=server.url, timeout=30) as stranger:
            assert stranger.get(f"/api/games/{gid}/state").status_code == 403
            stranger.cookies.set("tessera_session", "x" * 43)
            assert stranger.get(f"/api/games/{gid}/state").status_code == 403
        for body in ({"action": "pass"}, {"action": "exchange", "tiles": "A"}):
            r = client.post(f"/api/games/{gid}/move", json={"seat": 1, **body})
            assert r.status_code == 403
        r = client.post(f"/api/games/{gid}/hints", json={"seat": 1})
        assert r.status_code == 403
        assert client.get(f"/api/games/{gid}/gcg").status_code == 400
        with connect(server.url.replace("http", "ws") + f"/api/games/{gid}/ws") as bad:
            bad.send(json.dumps({}))  # no session: a private game is not watched
            assert json.loads(bad.recv(timeout=10))["type"] == "error"
        turns = 0
        s = wait_turn(client, gid)
        while s["state"] != "over":
            take_turn(client, gid, s)
            s = wait_turn(client, gid)
            turns += 1
            assert turns < 60
        final = state(client, gid)
        rec.socket.close()
    assert final["final_racks"] is not None and final["result"]["reason"]
    game, seed, (own, hidden) = rack_texts(db, gid)
    assert game.is_over and list(game.scores) == final["scores"]
    seen_states = 0
    for body in rec.bodies:
        try:
            data: Any = json.loads(body)
        except json.JSONDecodeError:
            data = None
        st = data
        if isinstance(data, dict) and data.get("type") == "state":
            st = data["state"]  # a WebSocket message
        if isinstance(st, dict) and "history" in st:
            seen_states += 1
            if st["state"] == "over":
                continue  # the end reveals every rack
            assert st["seat"] == 0 and st["final_racks"] is None
            for e in st["history"]:
                if e["player"] == 1:
                    assert e["rack"] == ""
                    if e["kind"] == "exchange":
                        assert e["move"].startswith("-") and e["move"][1:].isdigit()
            assert "bag" not in st and "racks" not in st and "seed" not in st
        assert str(seed) not in body
        for text in hidden:
            assert text not in body
    # the same encodings do carry the page's own racks, so the search above can find a rack
    assert any(text in body for text in own if text.startswith("[") for body in rec.bodies)
    assert seen_states > turns


def test_a_killed_server_resumes_the_game_at_the_same_move(tmp_path: Path) -> None:
    db = tmp_path / "dur.db"
    server = ServerProcess(db).start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            gid = new_game(client, rules="naspa")
            for _ in range(3):
                s = wait_turn(client, gid)
                acked = take_turn(client, gid, s).json()
            before = wait_turn(client, gid)
            cookies = client.cookies
        assert before["seq"] >= acked["seq"] >= 5
        server.kill()  # SIGKILL: no shutdown, no flush
        server = ServerProcess(db).start()
        with httpx.Client(base_url=server.url, timeout=30, cookies=cookies) as client:
            after = state(client, gid)
            for key in ("board", "rack", "scores", "history", "bag_count", "to_move", "seq"):
                assert after[key] == before[key], key
            take_turn(client, gid, after)  # and the game goes on
            assert wait_turn(client, gid)["seq"] > after["seq"]
    finally:
        server.kill()


@pytest.mark.parametrize("path", ["/api/games/nosuch/state", "/api/games/nosuch/gcg"])
def test_unknown_games_are_not_found(tmp_path: Path, path: str) -> None:
    from starlette.testclient import TestClient

    from tessera.server.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'x.db'}")
    with TestClient(app, base_url="http://localhost") as client:
        r = client.get(path)
        assert r.status_code == 404 and r.json()["reason"] == "no_game"
