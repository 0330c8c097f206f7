"""Driving a game over the HTTP API as the page does (the client keeps the session cookie)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx

PASSWORD = "correct horse battery"
HUMANS = [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}]
SEEK = {"rules": "woogles", "initial_min": 5, "increment_s": 0, "max_overtime_min": 1}


@contextmanager
def device(server: Any) -> Iterator[httpx.Client]:
    """A person's own device on ``server`` (a ThreadServer): a client with its own cookies."""
    with httpx.Client(base_url=server.url, timeout=30) as client:
        yield client


def register(client: httpx.Client, name: str) -> None:
    r = client.post("/api/register", json={"username": name, "password": PASSWORD})
    assert r.status_code == 201, r.text


def post_seek(client: httpx.Client, **spec: Any) -> dict[str, Any]:
    """A seek in the lobby (5 minutes and one of overtime unless ``spec`` says otherwise)."""
    r = client.post("/api/seeks", json={**SEEK, **spec})
    assert r.status_code == 201, r.text
    return r.json()["seek"]  # type: ignore[no-any-return]


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


def cookie_header(client: httpx.Client) -> dict[str, str]:
    """The client's cookies as a header, for a WebSocket opened beside it."""
    return {"Cookie": "; ".join(f"{k}={v}" for k, v in client.cookies.items())}


def generated_move(s: dict[str, Any]) -> dict[str, Any]:
    """A legal move for the view ``s`` from the move generator (pass when none)."""
    from tessera.board import Board
    from tessera.lexicon import Lexicon
    from tessera.move import Play
    from tessera.movegen import generate_moves
    from tessera.rules import preset

    if s["state"] == "awaiting_final":
        return {"action": "pass"}
    lex = Lexicon.load("enable")
    rules = preset(s["rules"]["name"])
    board = Board(rules.layout)
    alphabet = rules.tileset.alphabet
    for r, row in enumerate(s["board"]):
        for c, label in enumerate(row):
            if label:
                board.set(r, c, alphabet.parse(label)[0])
    moves = generate_moves(board, "".join(s["rack"]), lex, rules, top=1)
    play = next((m for m in moves if isinstance(m, Play)), None)
    if play is None:
        return {"action": "pass"}
    return {
        "action": "play",
        "placements": [[r, c, alphabet.label(t)] for r, c, t in play.placements],
    }


def new_duplicate(client: httpx.Client, body: dict[str, Any]) -> dict[str, Any]:
    """A new duplicate game (POST /api/duplicate with ``body``): the server deals again
    when a first rack has no play, so its first round is open."""
    r = client.post("/api/duplicate", json=body)
    assert r.status_code == 201, r.text
    assert r.json()["state"] == "round_open", r.json()
    return r.json()  # type: ignore[no-any-return]


def duplicate_top(view: dict[str, Any]) -> str:
    """A top-scoring play for a solo duplicate view (its board and rack), in notation, found
    by the move generator from what the page is shown."""
    return duplicate_best(view)[0]


def duplicate_best(view: dict[str, Any]) -> tuple[str, int]:
    """:func:`duplicate_top` and its score."""
    return duplicate_plays(view)[0]


def duplicate_plays(view: dict[str, Any]) -> list[tuple[str, int]]:
    """The plays of a duplicate view's rack on its board, best score first, in notation with
    their score (ties in the generator's order)."""
    from tessera.board import Board
    from tessera.lexicon import Lexicon
    from tessera.move import Play
    from tessera.movegen import generate_moves
    from tessera.server.duplicates import solo_rules

    lex = Lexicon.load("enable")
    rules = solo_rules(lex)
    board = Board(rules.layout, rules.tileset)
    alphabet = rules.tileset.alphabet
    for r, row in enumerate(view["board"]):
        for c, label in enumerate(row):
            if label:
                board.set(r, c, alphabet.parse(label)[0])
    moves = generate_moves(board, "".join(view["rack"]), lex, rules)
    plays = sorted((m for m in moves if isinstance(m, Play)), key=lambda p: -(p.score or 0))
    return [(p.gcg(alphabet), p.score or 0) for p in plays]
