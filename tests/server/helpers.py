"""Driving a game over the HTTP API as the page does (the client keeps the session cookie)."""

from __future__ import annotations

import time
from typing import Any

import httpx

HUMANS = [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}]


def new_game(client: httpx.Client, rules: str = "casual", **extra: Any) -> str:
    """A new game against the computer (or ``players=…``); the first one makes the client
    a guest. Returns the game's id."""
    players = extra.pop("players", None) or [
        {"name": "Ann", "kind": "human"},
        {"name": "Bot", "kind": "computer", "level": "best"},
    ]
    r = client.post("/api/games", json={"players": players, "rules": rules, **extra})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def state(client: httpx.Client, gid: str) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}/state")
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def wait_turn(client: httpx.Client, gid: str, seat: int = 0) -> dict[str, Any]:
    """Poll until it is ``seat``'s turn or the game is over (the computer moves quickly)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        s = state(client, gid)
        if s["state"] in ("over", "aborted") or (s["to_move"] == seat):
            return s
        time.sleep(0.05)
    raise AssertionError("the computer did not move within 30 s")


def best_move(client: httpx.Client, gid: str, s: dict[str, Any]) -> dict[str, Any]:
    """The best hint as a move body; an exchange or a pass when there is none; accept an
    out-play."""
    if s["state"] == "awaiting_final":
        return {"action": "pass"}
    hints = client.post(f"/api/games/{gid}/hints", json={"seat": s["seat"]})
    assert hints.status_code == 200, hints.text
    found = hints.json()["hints"]
    if found:
        return {"action": "play", "placements": found[0]["placements"]}
    if s["bag_count"] >= 7:
        return {"action": "exchange", "tiles": "".join(s["rack"])}
    return {"action": "pass"}


def take_turn(client: httpx.Client, gid: str, s: dict[str, Any]) -> httpx.Response:
    """Play the best hint (see :func:`best_move`)."""
    body = best_move(client, gid, s)
    r = client.post(f"/api/games/{gid}/move", json={"seat": s["seat"], **body})
    assert r.status_code == 200, r.text
    return r
