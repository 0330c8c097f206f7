"""Driving a game over the HTTP API as the page does."""

from __future__ import annotations

import time
from typing import Any

import httpx

H = "X-Tessera-Token"


def new_game(client: httpx.Client, rules: str = "casual", **extra: Any) -> tuple[str, str]:
    players = extra.pop("players", None) or [
        {"name": "Ann", "kind": "human"},
        {"name": "Bot", "kind": "computer", "level": "best"},
    ]
    r = client.post("/api/games", json={"players": players, "rules": rules, **extra})
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["token"]


def state(client: httpx.Client, gid: str, tok: str) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}/state", headers={H: tok})
    assert r.status_code == 200, r.text
    return r.json()


def wait_turn(client: httpx.Client, gid: str, tok: str, seat: int = 0) -> dict[str, Any]:
    """Poll until it is ``seat``'s turn or the game is over (the computer moves quickly)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        s = state(client, gid, tok)
        if s["state"] == "over" or (s["to_move"] == seat):
            return s
        time.sleep(0.05)
    raise AssertionError("the computer did not move within 30 s")


def take_turn(client: httpx.Client, gid: str, tok: str, s: dict[str, Any]) -> httpx.Response:
    """Play the best hint; exchange or pass when there is none; accept an out-play."""
    seat = s["seat"]
    if s["state"] == "awaiting_final":
        body: dict[str, Any] = {"action": "pass"}
    else:
        hints = client.post(f"/api/games/{gid}/hints", headers={H: tok}, json={"seat": seat})
        assert hints.status_code == 200, hints.text
        found = hints.json()["hints"]
        if found:
            body = {"action": "play", "placements": found[0]["placements"]}
        elif s["bag_count"] >= 7:
            body = {"action": "exchange", "tiles": "".join(s["rack"])}
        else:
            body = {"action": "pass"}
    r = client.post(f"/api/games/{gid}/move", headers={H: tok}, json={"seat": seat, **body})
    assert r.status_code == 200, r.text
    return r
