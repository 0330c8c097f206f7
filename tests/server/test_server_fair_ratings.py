"""Ratings that cannot be farmed (issue 36, points 5, 11 and 15): a rated game moves ratings
only when each side took two turns of its own, a resignation before one's first turn calls
the game off, only the first few rated games a day between two accounts count, a guest never
plays rated, and a game's speed class follows a documented estimate of its length."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from helpers import PASSWORD, device, register, state
from threadserver import ThreadServer

from tessera.server.app import create_app
from tessera.server.config import ServerConfig
from tessera.server.hub import Hub
from tessera.server.lobby import Seek
from tessera.server.ratings import PAIR_GAMES_PER_DAY, rating_key, speed_class
from tessera.server.storage import Storage

pytestmark = pytest.mark.hardening  # an attack the server withstands (pytest -m hardening)

CONFIG = ServerConfig(bot_delay_s=0, think_s=0.05)


@pytest.fixture
def server(db: str) -> Iterator[ThreadServer]:
    with ThreadServer(create_app(db, config=CONFIG)) as s:
        yield s


def start_rated(a: httpx.Client, b: httpx.Client, **spec: Any) -> str:
    body = {"rules": "woogles", "initial_min": 5, "max_overtime_min": 1, "rated": True}
    r = a.post("/api/seeks", json={**body, **spec})
    assert r.status_code == 201, r.text
    r = b.post(f"/api/seeks/{r.json()['seek']['id']}/accept", json={})
    assert r.status_code == 201, r.text
    return str(r.json()["game_id"])


def move(client: httpx.Client, gid: str, seat: int, action: str) -> dict[str, Any]:
    r = client.post(f"/api/games/{gid}/move", json={"seat": seat, "action": action})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def play_out(a: httpx.Client, b: httpx.Client, gid: str, turns: int, resigner: int) -> dict:
    """``turns`` passes in turn from the first mover, then seat ``resigner`` resigns."""
    players = {0: a, 1: b}
    first = state(a, gid)["to_move"]
    for turn in range(turns):
        seat = (first + turn) % 2
        assert move(players[seat], gid, seat, "pass")["seq"] == turn + 1
    return move(players[resigner], gid, resigner, "resign")


def ratings_of(client: httpx.Client, name: str) -> tuple[list[dict], list[dict]]:
    profile = client.get(f"/api/users/{name}").json()
    return profile["ratings"], profile["history"]


# -- point 15: speed classes ------------------------------------------------------------------


def clock(minutes: float, increment_s: int = 0, overtime_min: int = 0) -> dict[str, int]:
    return {
        "initial_ms": int(minutes * 60_000),
        "increment_ms": increment_s * 1000,
        "max_overtime_min": overtime_min,
    }


@pytest.mark.parametrize(
    ("control", "speed"),
    [
        (clock(1), "blitz"),
        (clock(5), "blitz"),
        (clock(5, 0, 1), "blitz"),  # the lobby's 5 minutes and its default overtime: 6
        (clock(3, 10), "blitz"),  # 3 min + 16 × 10 s = 5 min 40 s
        (clock(5, 10), "rapid"),  # 5 min + 16 × 10 s = 7 min 40 s
        (clock(6, 0, 1), "rapid"),
        (clock(10, 0, 1), "rapid"),
        (clock(14), "rapid"),
        (clock(13, 0, 2), "classic"),
        (clock(10, 20), "classic"),  # 10 min + 16 × 20 s = 15 min 20 s
        (clock(25, 0, 1), "classic"),
        (None, "classic"),
    ],
)
def test_speed_classes_follow_the_expected_time_one_side_uses(
    control: dict[str, int] | None, speed: str
) -> None:
    assert speed_class(control) == speed
    assert rating_key("woogles", control) == f"standard.{speed}"


# -- point 5: no farming -----------------------------------------------------------------------


def test_twelve_games_resigned_at_once_leave_the_ratings_unchanged(server: ThreadServer) -> None:
    """The sock-puppet scenario: one account resigns twelve rated games to another at once
    (as the first to move, or just after the other's first play): each is called off."""
    with device(server) as a, device(server) as b:
        register(a, "farmer_1")
        register(b, "puppet_1")
        players = {0: a, 1: b}
        for i in range(12):
            gid = start_rated(a, b)
            s = state(b, gid)
            assert s["rated"] and s["can_abort"]
            resigner = s["to_move"]  # at move 0
            if i % 2:  # or just after the other's first turn, not having played
                move(players[resigner], gid, resigner, "pass")
                resigner = 1 - resigner
            end = move(players[resigner], gid, resigner, "resign")
            assert end["state"] == "aborted" and end["result"] is None
            assert "ratings" not in end or end["ratings"] == [None, None]
        for name in ("farmer_1", "puppet_1"):
            assert ratings_of(a, name) == ([], [])
        games = a.get("/api/users/farmer_1").json()["games"]
        assert len(games) == 12 and {g["status"] for g in games} == {"aborted"}
        assert {g["result"]["reason"] for g in games} == {"aborted"}
        replay = a.get(f"/api/games/{gid}/replay").json()
        assert replay["result"]["reason"] == "aborted"


def test_a_rated_game_needs_two_turns_a_side_to_move_ratings(server: ThreadServer) -> None:
    with device(server) as a, device(server) as b:
        register(a, "short_2")
        register(b, "long_2")
        gid = start_rated(a, b)
        end = play_out(a, b, gid, turns=3, resigner=1)  # one side took only one turn
        assert end["state"] == "over" and end["result"]["reason"] == "resigned"
        assert end["ratings"] == [None, None]
        assert ratings_of(a, "short_2") == ([], [])
        gid = start_rated(a, b)
        end = play_out(a, b, gid, turns=4, resigner=1)  # two turns each: rated
        assert end["ratings"][0]["after"] > 1500 > end["ratings"][1]["after"]
        ratings, history = ratings_of(a, "short_2")
        assert ratings[0]["games"] == 1 and [h["game_id"] for h in history] == [gid]


def test_only_the_first_games_a_day_between_two_accounts_count(server: ThreadServer) -> None:
    with device(server) as a, device(server) as b, device(server) as c:
        register(a, "win_3")
        register(b, "lose_3")
        register(c, "other_3")
        counted = []
        for _ in range(PAIR_GAMES_PER_DAY + 2):
            gid = start_rated(a, b)
            end = play_out(a, b, gid, turns=4, resigner=1)
            assert end["state"] == "over"
            counted.append(end["ratings"] != [None, None])
        assert counted == [True] * PAIR_GAMES_PER_DAY + [False, False]
        ratings, history = ratings_of(a, "lose_3")
        assert ratings[0]["games"] == PAIR_GAMES_PER_DAY and len(history) == PAIR_GAMES_PER_DAY
        # another opponent's games count as before
        gid = start_rated(a, c)
        end = play_out(a, c, gid, turns=4, resigner=1)
        assert end["ratings"][1] is not None
        assert ratings_of(a, "win_3")[0][0]["games"] == PAIR_GAMES_PER_DAY + 1


def test_a_guest_is_told_why_a_rated_seek_is_not_for_them(server: ThreadServer) -> None:
    with device(server) as a, device(server) as g:
        register(a, "host_4")
        assert g.post("/api/guest", json={"name": "Visitor4"}).status_code == 201
        r = a.post("/api/seeks", json={"rules": "woogles", "rated": True})
        seek = r.json()["seek"]
        r = g.post(f"/api/seeks/{seek['id']}/accept", json={})
        assert r.status_code == 403 and r.json()["reason"] == "rated_needs_account"
        assert "register" in r.json()["error"]
        r = g.post("/api/seeks", json={"rules": "woogles", "rated": True})
        assert r.status_code == 403 and r.json()["reason"] == "rated_needs_account"
        assert a.get("/api/lobby").json()["seeks"][0]["id"] == seek["id"]  # still open


def test_a_game_with_a_guest_is_never_rated_whatever_its_seek_says(db: str) -> None:
    """However a rated seek reached a guest, the game it starts is casual, and a game whose
    seat was a guest's is never rated."""
    store = Storage(db)

    async def run() -> tuple[bool, list[bool]]:
        hub = Hub(store, CONFIG, lexicon_loader=lambda name: _enable())
        await hub.start()
        try:
            host = await asyncio.to_thread(hub.accounts.register, "host_5", PASSWORD)
            guest = await asyncio.to_thread(hub.accounts.guest, "Guest5")
            seek = Seek(
                "seek5", host.id, host.name, "woogles", "enable",
                {"initial_ms": 300_000, "increment_ms": 0, "max_overtime_min": 1},
                True, None, None, None, True, None, "taken", None, 0,
            )  # fmt: skip
            gid = await hub.start_from_seek(seek, guest)
            session = await hub.session(gid)
            return session.record.rated, [s.guest for s in session.record.seats]
        finally:
            await hub.close()

    rated, guests = asyncio.run(run())
    assert not rated and guests == [False, True]


def _enable() -> Any:
    from tessera.lexicon import Lexicon

    return Lexicon.load("enable")
