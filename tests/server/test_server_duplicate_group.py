"""Duplicate games of several people at one screen, and of computers alone, over the API: who
may play (each refusal a precise 400), the round that closes only once every person has
handed in (and shows nobody's play before), computers alone closing a round per ``/next``,
and the record that names every player and marks the computers."""

from __future__ import annotations

import sqlite3
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from helpers import duplicate_top, new_duplicate

from tessera.formats import gcg
from tessera.lexicon import Lexicon
from tessera.server.app import create_app
from tessera.server.config import ServerConfig

BASE = "http://localhost"
FAST = ServerConfig(bot_delay_s=0, think_s=0.05)


def guest(client: TestClient, name: str = "Ann") -> None:
    r = client.post("/api/guest", json={"name": name})
    assert r.status_code in (200, 201), r.text


@pytest.fixture
def client(sqlite_db: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_db, config=FAST), base_url=BASE) as c:
        guest(c)
        yield c


def start(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    return new_duplicate(client, body)


def view(client: TestClient, gid: str) -> dict[str, Any]:
    r = client.get(f"/api/duplicate/{gid}")
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def seats(v: dict[str, Any]) -> list[tuple[str, bool]]:
    return [(p["name"], p["computer"]) for p in v["players"]]


@pytest.mark.parametrize(
    ("body", "players", "watch", "entry"),
    [
        ({"people": ["Ann", "Bob"], "opponents": ["level3"]},
         [("Ann", False), ("Bob", False), ("level3", True)], False, 0),
        ({"people": ["Cy", "Dee", "Eve", "Fay"]},
         [("Cy", False), ("Dee", False), ("Eve", False), ("Fay", False)], False, 0),
        ({"people": [" Zoë "], "opponents": ["level1", "level2", "best"]},
         [("Zoë", False), ("level1", True), ("level2", True), ("best", True)], False, 0),
        ({"people": [], "opponents": ["level1", "static"]},
         [("level1", True), ("static", True)], True, None),
        ({"people": [], "opponents": ["level1", "level2", "level3", "best"]},
         [("level1", True), ("level2", True), ("level3", True), ("best", True)], True, None),
        ({"people": [], "opponents": ["best"]}, [("best", True)], True, None),
    ],
)
def test_people_and_computers_take_their_seats(
    client: TestClient, body: dict[str, Any], players: list[tuple[str, bool]], watch: bool,
    entry: int | None,
) -> None:
    v = start(client, body)
    assert seats(v) == players
    assert v["watch"] is watch and v["entry"] == entry
    assert not any(p["handed_in"] for p in v["players"])
    assert v["round"] == 1 and len(v["rack"]) == 7
    assert view(client, v["id"]) == v


@pytest.mark.parametrize(
    ("body", "reason", "message"),
    [
        ({"people": "Ann"}, "bad_people", "people is a list of at most 4 names"),
        ({"people": ["A", "B", "C", "D", "E"]}, "bad_people", "at most 4 names"),
        ({"people": ["Ann", ""]}, "bad_people", "person 2: a name has 1–24 characters"),
        ({"people": ["x" * 25]}, "bad_people", "person 1: a name has 1–24 characters"),
        ({"people": [7]}, "bad_people", "person 1: a name has 1–24 characters"),
        ({"people": ["Ann", "A\nB"]}, "bad_people", "person 2: a name cannot hold control"),
        ({"people": ["Ann", "ann"]}, "bad_people", "person 2: ann is named twice"),
        ({"people": ["Best"]}, "bad_people", "person 1: Best is the name of a computer"),
        ({"people": []}, "bad_players", "a game needs a person or a computer"),
        ({"people": [], "opponents": []}, "bad_players", "a game needs a person or a computer"),
        ({"people": ["Ann", "Bob", "Cy"], "opponents": ["level1", "level2"]},
         "bad_players", "at most 4 players"),
        ({"people": [], "opponents": ["level1", "level2", "level3", "level4", "level5"]},
         "bad_opponents", "at most 4 computers"),
        ({"people": [], "opponents": ["level1", "level1"]},
         "bad_opponents", "each computer plays once"),
        ({"people": [], "opponents": ["level9"]}, "bad_opponents", "computers are best,"),
        ({"people": ["Ann"], "seats": 2}, "bad_field", "unknown field 'seats'"),
    ],
)
def test_a_bad_list_of_people_is_refused_precisely(
    client: TestClient, body: dict[str, Any], reason: str, message: str
) -> None:
    r = client.post("/api/duplicate", json=body)
    assert r.status_code == 400, r.text
    assert r.json()["reason"] == reason
    assert message in r.json()["error"], r.json()["error"]


def play(client: TestClient, gid: str, body: dict[str, Any]) -> Any:
    return client.post(f"/api/duplicate/{gid}/play", json=body)


def test_a_round_at_one_screen_closes_only_when_every_person_has_handed_in(
    client: TestClient,
) -> None:
    v = start(client, {"people": ["Ann", "Bob"], "opponents": ["level1"]})
    gid, top = v["id"], duplicate_top(v)
    # Bob cannot hand in before Ann, whose entry it is
    r = play(client, gid, {"move": top, "round": 1, "seat": 1})
    assert r.status_code == 409 and r.json()["reason"] == "not_their_entry"
    assert "it is Ann's entry" in r.json()["error"]
    assert view(client, gid) == v
    # a computer's seat, or no seat of the game, is nobody's to play
    for seat in (2, 3):
        r = play(client, gid, {"move": top, "seat": seat})
        assert r.status_code == 400 and r.json()["reason"] == "bad_seat", r.text
    assert client.post(f"/api/duplicate/{gid}/next", json={}).json()["reason"] == "people_play"

    r = play(client, gid, {"move": top, "round": 1, "seat": 0})
    assert r.status_code == 200, r.text
    assert r.json()["outcome"] is None  # the round is open: nobody's play is shown
    assert top not in r.text
    after = r.json()["view"]
    assert after["round"] == 1 and after["rounds"] == [] and after["rack"] == v["rack"]
    assert [p["handed_in"] for p in after["players"]] == [True, False, False]
    assert after["entry"] == 1 and after["board"] == v["board"]
    assert view(client, gid) == after
    r = play(client, gid, {"move": top, "round": 1, "seat": 0})
    assert r.status_code == 409 and r.json()["reason"] == "handed_in"
    assert view(client, gid) == after

    r = play(client, gid, {"move": "8H ZZZZ", "round": 1, "seat": 1})
    assert r.status_code == 200, r.text
    out, closed = r.json()["outcome"], r.json()["view"]
    assert out["round"] == 1 and out["play"] == "8H ZZZZ" and out["score"] == 0
    by_name = {p["name"]: p for p in out["players"]}
    assert by_name["Ann"]["points"] == out["top_score"] > 0
    assert by_name["Bob"]["points"] == 0 and by_name["Bob"]["verdict"] != "valid"
    assert by_name["level1"]["computer"] and by_name["level1"]["verdict"] == "valid"
    assert closed["round"] == 2 and closed["entry"] == 0 and len(closed["rounds"]) == 1
    assert closed["rounds"][0]["players"] == out["players"]
    assert not any(p["handed_in"] for p in closed["players"])
    assert [p["score"] for p in closed["players"]] == [p["total"] for p in out["players"]]

    # without a seat, a play is the entry of whoever's turn it is (Ann's)
    r = play(client, gid, {"move": duplicate_top(closed), "round": 2})
    assert r.status_code == 200 and r.json()["outcome"] is None
    assert r.json()["view"]["entry"] == 1


def test_a_round_handed_in_halfway_survives_a_restart(sqlite_db: str) -> None:
    with TestClient(create_app(sqlite_db, config=FAST), base_url=BASE) as first:
        guest(first)
        v = start(first, {"people": ["Ann", "Bob"], "opponents": ["level2"]})
        r = play(first, v["id"], {"move": duplicate_top(v), "round": 1, "seat": 0})
        halfway = r.json()["view"]
        cookies = dict(first.cookies)
    with TestClient(create_app(sqlite_db, config=FAST), base_url=BASE, cookies=cookies) as again:
        assert view(again, v["id"]) == halfway
        r = play(again, v["id"], {"move": duplicate_top(v), "round": 1, "seat": 1})
        assert r.status_code == 200 and r.json()["outcome"]["round"] == 1
        players = r.json()["outcome"]["players"]
        assert players[0]["points"] == players[1]["points"] == r.json()["outcome"]["top_score"]
        assert players[2]["computer"] and players[2]["verdict"] == "valid"


def test_computers_alone_play_a_round_a_request_to_the_end(client: TestClient) -> None:
    v = start(client, {"people": [], "opponents": ["level1", "static"]})
    gid = v["id"]
    r = play(client, gid, {"move": duplicate_top(v)})
    assert r.status_code == 409 and r.json()["reason"] == "no_people"
    r = client.post(f"/api/duplicate/{gid}/next", json={"round": 2})
    assert r.status_code == 409 and r.json()["reason"] == "round_closed"
    r = client.post(f"/api/duplicate/{gid}/next", json={"turn": 1})
    assert r.status_code == 400 and r.json()["reason"] == "bad_field"
    assert view(client, gid) == v
    while v["result"] is None:
        number = v["round"]
        r = client.post(f"/api/duplicate/{gid}/next", json={"round": number})
        assert r.status_code == 200, r.text
        out, v = r.json()["outcome"], r.json()["view"]
        assert out["round"] == number and "play" not in out  # no person's play
        assert [p["name"] for p in out["players"]] == ["level1", "static"]
        static = out["players"][1]
        assert static["points"] == out["top_score"]  # static hands in a top
    r = client.post(f"/api/duplicate/{gid}/next", json={})
    assert r.status_code == 409 and r.json()["reason"] == "game_over"
    result = v["result"]
    record = client.get(f"/api/duplicate/{gid}/gcg")
    assert record.status_code == 200
    assert "#tile-set tessera-computer level1 level1" in record.text
    assert "#tile-set tessera-computer static static" in record.text
    game = gcg.replay_duplicate(record.text, lexicon=Lexicon.load("enable"))
    assert game.computers == {0: "level1", 1: "static"}
    assert list(game.results().scores) == [p["score"] for p in v["players"]]
    assert game.results().top_total == result["top_total"] == v["players"][1]["score"]
    assert len(game.rounds) == len(v["rounds"])


def test_only_the_owner_watches_or_moves_computers_alone(sqlite_db: str) -> None:
    app = create_app(sqlite_db, config=FAST)
    with TestClient(app, base_url=BASE) as ann, TestClient(app, base_url=BASE) as bob:
        guest(ann, "Ann")
        guest(bob, "Bob")
        v = start(ann, {"people": [], "opponents": ["level1"]})
        assert bob.get(f"/api/duplicate/{v['id']}").status_code == 403
        assert bob.post(f"/api/duplicate/{v['id']}/next", json={}).status_code == 403
        assert bob.post("/api/duplicate/NoSuchGame123/next", json={}).status_code == 404
        assert view(ann, v["id"]) == v


def test_a_game_stored_before_computers_were_marked_still_has_its_computers(
    sqlite_db: str,
) -> None:
    """Records of a person and computers written before ``tessera-computer``: seat 0 the
    person, every other seat the computer its name says."""
    with TestClient(create_app(sqlite_db, config=FAST), base_url=BASE) as first:
        guest(first)
        v = start(first, {"opponents": ["level2", "best"]})
        cookies = dict(first.cookies)
    with sqlite3.connect(sqlite_db.removeprefix("sqlite:///")) as conn:
        (record,) = conn.execute("SELECT record FROM tessera_duplicate_games").fetchone()
        old = "".join(line for line in record.splitlines(keepends=True)
                      if "tessera-computer" not in line)
        assert old != record
        conn.execute("UPDATE tessera_duplicate_games SET record = ?", (old,))
    with TestClient(create_app(sqlite_db, config=FAST), base_url=BASE, cookies=cookies) as again:
        assert seats(view(again, v["id"])) == [("Ann", False), ("level2", True), ("best", True)]
        r = play(again, v["id"], {"move": duplicate_top(v), "round": 1})
        assert r.status_code == 200, r.text
        assert [p["verdict"] for p in r.json()["outcome"]["players"]] == ["valid"] * 3
