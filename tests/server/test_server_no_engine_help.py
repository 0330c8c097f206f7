"""No engine help during your own rated game (issue 36, point 9): while a user plays a rated
game, the analysis board, reviews and their simulations, hints and word study refuse them
with a 403 that names the rule; once that game is over (or aborted) they open again, and a
casual game, a game against the computer, a spectator or a visitor is never held back.

A real server on a loopback port (``threadserver``), each ``httpx.Client`` a device, over
SQLite and PostgreSQL (the ``db`` fixture)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from helpers import PASSWORD, new_game, state, take_turn, wait_turn
from threadserver import ThreadServer

from tessera.server.app import create_app
from tessera.server.config import ServerConfig
from tessera.server.fair_play import REASON
from tessera.server.storage import Seat, Storage

pytestmark = pytest.mark.hardening  # an attack the server withstands (pytest -m hardening)

CONFIG = ServerConfig(
    bot_delay_s=0,
    think_s=0.05,
    analyses_per_minute=1000,
    reviews_per_minute=1000,
    simulations_per_minute=1000,
    lookups_per_minute=1000,
)
GCG = (Path(__file__).resolve().parents[1] / "data" / "gcg" / "reference_game.gcg").read_text(
    encoding="utf-8"
)
OPENING = "/".join(["15"] * 15) + " AEINRST/ 0/0 0"
BOT_GAME = [{"name": "Me", "kind": "human"}, {"name": "Bot", "kind": "computer", "level": "level1"}]

Request = Callable[[httpx.Client], httpx.Response]


@pytest.fixture
def server(db: str) -> Iterator[ThreadServer]:
    with ThreadServer(create_app(db, config=CONFIG)) as s:
        yield s


@contextmanager
def device(server: ThreadServer, name: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=30) as client:
        r = client.post("/api/register", json={"username": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        yield client


def start_game(a: httpx.Client, b: httpx.Client, rated: bool) -> str:
    body = {"rules": "woogles", "initial_min": 5, "rated": rated}
    seek = a.post("/api/seeks", json=body)
    assert seek.status_code == 201, seek.text
    r = b.post(f"/api/seeks/{seek.json()['seek']['id']}/accept", json={})
    assert r.status_code == 201, r.text
    return str(r.json()["game_id"])


def finished_computer_game(client: httpx.Client) -> str:
    """A game against the computer that ``client`` resigned after a move: over, so it may be
    reviewed."""
    gid = new_game(client, players=BOT_GAME)
    take_turn(client, gid, wait_turn(client, gid))
    wait_turn(client, gid)
    r = client.post(f"/api/games/{gid}/move", json={"seat": 0, "action": "resign"})
    assert r.status_code == 200 and r.json()["state"] == "over", r.text
    return gid


def engine_help(reviewed: str, playing: str) -> dict[str, Request]:
    """Every route that gives engine or word-list help, by name: ``reviewed`` is a finished
    game to review, ``playing`` a game against the computer the caller is playing."""
    return {
        "analysis board": lambda c: c.post("/api/analysis/moves", json={"cgp": OPENING}),
        "analysis position": lambda c: c.post("/api/analysis/position", json={"cgp": OPENING}),
        "review upload": lambda c: c.post("/api/review", json={"gcg": GCG}),
        "review simulation": lambda c: c.post(
            "/api/review/simulate", json={"gcg": GCG, "turn": 1}
        ),
        "review of a game": lambda c: c.get(f"/api/games/{reviewed}/review"),
        "simulation of a game's turn": lambda c: c.get(
            f"/api/games/{reviewed}/review/turns/1/simulation"
        ),
        "hints": lambda c: c.post(f"/api/games/{playing}/hints", json={"seat": 0}),
        "hints that think": lambda c: c.post(
            f"/api/games/{playing}/hints", json={"seat": 0, "think": True}
        ),
        "word lookup": lambda c: c.get("/api/study/lookup", params={"word": "care"}),
        "anagrams": lambda c: c.get("/api/study/anagram", params={"rack": "aeinrst"}),
        "pattern": lambda c: c.get("/api/study/pattern", params={"pattern": "c?t"}),
        "quiz question": lambda c: c.get("/api/study/quiz", params={"length": "4"}),
        "quiz answer": lambda c: c.post(
            "/api/study/quiz", json={"alphagram": "ACER", "words": ["CARE"]}
        ),
    }


def outcomes(client: httpx.Client, routes: dict[str, Request]) -> dict[str, tuple[int, str]]:
    answers = {}
    for name, ask in routes.items():
        r = ask(client)
        answers[name] = (r.status_code, r.json().get("reason", "") if r.is_error else "")
    return answers


def test_a_rated_game_in_progress_refuses_every_engine_help_until_it_ends(
    server: ThreadServer,
) -> None:
    with (
        device(server, "ann_36") as a,
        device(server, "bob_36") as b,
        device(server, "cat_36") as watcher,
    ):
        clients = {"a": a, "b": b, "watcher": watcher}
        routes = {}
        for who, c in clients.items():
            reviewed = finished_computer_game(c)
            playing = new_game(c, players=BOT_GAME)
            wait_turn(c, playing)
            routes[who] = engine_help(reviewed, playing)
        before = {who: outcomes(c, routes[who]) for who, c in clients.items()}
        failed = {(who, name): answer for who, answers in before.items()
                  for name, answer in answers.items() if answer[0] != 200}
        assert not failed

        gid = start_game(a, b, rated=True)
        for who, c in (("a", a), ("b", b)):
            refused = outcomes(c, routes[who])
            assert refused == dict.fromkeys(routes[who], (403, REASON)), (who, refused)
        r = routes["a"]["word lookup"](a)
        assert "rated game" in r.json()["error"] and "fair play" in r.json()["error"]
        # a spectator of that game, and a visitor with no account, are not playing it
        assert outcomes(watcher, routes["watcher"]) == before["watcher"]
        with httpx.Client(base_url=server.url, timeout=30) as visitor:
            assert visitor.get("/api/study/lookup", params={"word": "care"}).status_code == 200

        # the game ends (each has taken a turn, so a resignation is a result): help is
        # back at once
        first = state(a, gid)["to_move"]
        seats = {first: [a, b][first], 1 - first: [a, b][1 - first]}
        for seat, action in ((first, "pass"), (1 - first, "pass"), (first, "resign")):
            done = seats[seat].post(
                f"/api/games/{gid}/move", json={"seat": seat, "action": action}
            )
            assert done.status_code == 200 and done.json().get("ok") is not False, done.text
        assert state(a, gid)["state"] == "over"
        assert outcomes(a, routes["a"]) == before["a"]
        assert outcomes(b, routes["b"]) == before["b"]


def test_an_aborted_rated_game_and_a_casual_game_hold_nothing_back(
    server: ThreadServer,
) -> None:
    with device(server, "dan_36") as a, device(server, "eve_36") as b:
        lookup = {"word lookup": engine_help("", "")["word lookup"],
                  "analysis board": engine_help("", "")["analysis board"]}
        allowed = dict.fromkeys(lookup, (200, ""))
        gid = start_game(a, b, rated=True)
        assert outcomes(a, lookup) == dict.fromkeys(lookup, (403, REASON))
        s = state(a, gid)
        r = [a, b][s["to_move"]].post(
            f"/api/games/{gid}/move", json={"seat": s["to_move"], "action": "abort"}
        )
        assert r.status_code == 200 and state(a, gid)["state"] == "aborted", r.text
        assert outcomes(a, lookup) == allowed and outcomes(b, lookup) == allowed
        casual = start_game(a, b, rated=False)
        assert state(a, casual)["state"] == "playing"
        assert outcomes(a, lookup) == allowed and outcomes(b, lookup) == allowed


def test_a_rated_game_whose_clock_ran_out_is_not_in_progress(sqlite_db: str) -> None:
    """Lost on time at its deadline, though nobody has loaded it to say so yet."""
    storage = Storage(sqlite_db)
    seats = [Seat("Ann", "human", None, "u1"), Seat("Bob", "human", None, "u2")]
    clock = {"initial_ms": 60_000, "increment_ms": 0, "max_overtime_min": 0}
    gid = storage.create_game("woogles", "enable", 1, seats, clock=clock, rated=True,
                              online=True)
    deadline = storage.load(gid).created_ms + 60_000  # type: ignore[union-attr]
    assert storage.rated_game_in_progress("u1", deadline - 1)
    assert storage.rated_game_in_progress("u2", deadline)
    assert not storage.rated_game_in_progress("u1", deadline + 1)
    assert not storage.rated_game_in_progress("u3", deadline - 1)
    storage.finish(gid, "over", None)
    assert not storage.rated_game_in_progress("u1", deadline - 1)
    storage.close()
