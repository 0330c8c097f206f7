"""The lobby never pulls anyone out of a game (issue 36, points 6, 10 and 12): a game against a
person holds its players (no seek posted or accepted, open seeks withdrawn), guests are marked
in the lobby, the game and the list of who watches, and two Rematch presses make one game —
also when they reach two processes sharing PostgreSQL at once."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from typing import Any

import httpx
import pytest
from helpers import PASSWORD, SEEK, cookie_header, device, post_seek, register, state
from threadserver import ThreadServer
from websockets.sync.client import ClientConnection, connect

from tessera.server.accounts import Accounts
from tessera.server.app import create_app
from tessera.server.config import ServerConfig
from tessera.server.errors import RequestError
from tessera.server.lobby import Lobby
from tessera.server.ratings import Ratings
from tessera.server.storage import Seat, Storage

pytestmark = pytest.mark.hardening  # an attack the server withstands (pytest -m hardening)

CONFIG = ServerConfig(bot_delay_s=0, think_s=0.05)


@pytest.fixture
def server(db: str) -> Iterator[ThreadServer]:
    with ThreadServer(create_app(db, config=CONFIG)) as s:
        yield s


def accept(client: httpx.Client, seek: dict[str, Any]) -> httpx.Response:
    return client.post(f"/api/seeks/{seek['id']}/accept", json={})


def start_game(a: httpx.Client, b: httpx.Client, **spec: Any) -> str:
    r = accept(b, post_seek(a, **spec))
    assert r.status_code == 201, r.text
    return str(r.json()["game_id"])


def open_ids(client: httpx.Client) -> list[str]:
    return [s["id"] for s in client.get("/api/lobby").json()["seeks"]]


def call_off(client: httpx.Client, gid: str) -> None:
    seat = state(client, gid)["my_seats"][0]
    r = client.post(f"/api/games/{gid}/move", json={"seat": seat, "action": "abort"})
    assert r.json()["state"] == "aborted", r.text


# -- point 10: a game in progress holds its players ---------------------------------------------


def test_an_open_seek_is_withdrawn_when_its_poster_joins_another_game(
    server: ThreadServer,
) -> None:
    with device(server) as a, device(server) as b, device(server) as c:
        register(a, "ada_1")
        register(b, "bea_1")
        register(c, "cal_1")
        mine = post_seek(a)
        direct = post_seek(a, to="cal_1")
        theirs = post_seek(b)
        assert accept(a, theirs).status_code == 201  # ada joins bea's game
        assert open_ids(c) == []
        assert c.get("/api/lobby").json()["challenges"] == []
        for seek in (mine, direct):
            r = accept(c, seek)
            assert r.status_code == 409 and r.json()["reason"] == "seek_gone"


def test_an_open_seek_is_withdrawn_when_its_poster_starts_another_game(
    server: ThreadServer,
) -> None:
    with device(server) as a, device(server) as b, device(server) as c:
        register(a, "dan_2")
        register(b, "eve_2")
        register(c, "fay_2")
        first = post_seek(a)
        second = post_seek(a, initial_min=10)
        assert accept(b, first).status_code == 201  # dan's first seek starts a game
        r = accept(c, second)
        assert r.status_code == 409 and r.json()["reason"] == "seek_gone"
        assert open_ids(c) == []


def test_no_seek_is_posted_or_accepted_while_playing_a_person(server: ThreadServer) -> None:
    with device(server) as a, device(server) as b, device(server) as c:
        register(a, "gus_3")
        register(b, "hal_3")
        register(c, "ivy_3")
        gid = start_game(a, b)
        r = a.post("/api/seeks", json=SEEK)
        assert r.status_code == 409 and r.json()["reason"] == "in_game"
        offered = post_seek(c)
        r = accept(b, offered)
        assert r.status_code == 409 and r.json()["reason"] == "in_game"
        assert "finish it first" in r.json()["error"]
        assert open_ids(c) == [offered["id"]]  # still open for someone free
        assert state(a, gid)["state"] == "playing"  # nobody was pulled out
        call_off(a, gid)  # once over, both are free again
        assert accept(b, offered).status_code == 201
        assert a.post("/api/seeks", json=SEEK).status_code == 201


def test_a_seek_whose_poster_is_playing_elsewhere_is_withdrawn_when_taken(
    server: ThreadServer, db: str
) -> None:
    """A poster who went into a game against a person by another way (another process, a
    moment before) is never pulled out: taking the seek is refused and the seek withdrawn."""
    lobby_url = server.url.replace("http", "ws") + "/api/lobby/ws"
    with (
        device(server) as a,
        device(server) as c,
        connect(lobby_url) as lobby_page,  # someone's lobby page
    ):
        register(a, "jay_4")
        register(c, "kay_4")
        seek = post_seek(a)
        lobby_page.send("{}")
        assert json.loads(lobby_page.recv(timeout=10)) == {"type": "lobby"}
        store = Storage(db)
        try:
            jay = Accounts(store).by_name("jay_4")
            assert jay is not None
            seats = [Seat("jay_4", "human", None, jay.id), Seat("zed", "human", None, "zed-id")]
            clock = {"initial_ms": 300_000, "increment_ms": 0, "max_overtime_min": 1}
            store.create_game("woogles", "enable", 4, seats, clock=clock, online=True)
        finally:
            store.close()
        r = accept(c, seek)
        assert r.status_code == 409 and r.json()["reason"] == "seeker_in_game"
        assert "jay_4" in r.json()["error"]
        assert json.loads(lobby_page.recv(timeout=10)) == {"type": "lobby"}  # lists it no more
        assert open_ids(c) == []
        assert accept(c, seek).json()["reason"] == "seek_gone"


def test_a_seek_being_started_holds_both_players_until_its_game_exists(db: str) -> None:
    """Between taking a seek and its game being stored, a second acceptance involving either
    player (at the same moment, in any process) is refused, never a second game."""
    store = Storage(db)
    try:
        lobby = Lobby(store, Accounts(store), Ratings(store), ServerConfig())
        accounts = Accounts(store)
        ann, bob, cy = (accounts.register(n, PASSWORD) for n in ("ann_12", "bob_12", "cy_12"))
        anns, cys = (lobby.create(u, SEEK, ("woogles",)) for u in (ann, cy))
        other = lobby.create(ann, {**SEEK, "initial_min": 7}, ("woogles",))
        taken = lobby.claim(bob, anns.id)  # its game is not stored yet
        for who, seek in ((ann, cys), (cy, other)):  # ann accepts; someone accepts ann's
            with pytest.raises(RequestError) as refused:
                lobby.claim(who, seek.id)
            assert refused.value.status == 409 and refused.value.reason == "in_game"
        assert [s.status for s in (lobby.get(cys.id), lobby.get(other.id))] == ["open"] * 2
        lobby.started(taken)  # its game could not start (nor does one exist): free again
        lobby.claim(cy, other.id)
        assert lobby.get(other.id).status == "taken"  # type: ignore[union-attr]
    finally:
        store.close()


def test_a_game_against_the_computer_holds_nobody(server: ThreadServer) -> None:
    with device(server) as a, device(server) as b:
        register(a, "lou_5")
        register(b, "mia_5")
        r = a.post(
            "/api/games",
            json={"players": [{"name": "Lou"}, {"name": "Bot", "kind": "computer"}]},
        )
        assert r.status_code == 201, r.text
        assert accept(b, post_seek(a)).status_code == 201


# -- point 6: guests marked ----------------------------------------------------------------------


def test_guests_are_marked_in_the_lobby_and_in_the_game(server: ThreadServer) -> None:
    with device(server) as a, device(server) as g:
        register(a, "ned_6")
        assert g.post("/api/guest", json={"name": "Olive"}).status_code == 201
        guest_seek = post_seek(g)
        listing = a.get("/api/lobby").json()["seeks"]
        assert [(s["user"], s["guest"]) for s in listing] == [("Olive", True)]
        assert g.get(f"/api/seeks/{guest_seek['id']}").json()["seek"]["guest"] is True
        assert g.get("/api/lobby").json()["mine"][0]["guest"] is True
        r = g.post(f"/api/seeks/{guest_seek['id']}/cancel", json={})
        assert r.status_code == 200
        own = post_seek(a)
        assert own["guest"] is False
        assert [s["guest"] for s in g.get("/api/lobby").json()["seeks"]] == [False]
        r = accept(g, own)
        gid = r.json()["game_id"]
        for client in (a, g):
            s = state(client, gid)
            assert s["names"] == ["ned_6", "Olive"] and s["guests"] == [False, True]
        live = a.get("/api/lobby").json()["live"]  # the lobby's live games, to watch
        assert [(x["names"], x["guests"]) for x in live] == [(["ned_6", "Olive"], [False, True])]


def recv_until(ws: ClientConnection, kind: str, check: Any = None) -> dict[str, Any]:
    """The next message of type ``kind`` (that passes ``check``), within 10 s."""
    deadline = time.monotonic() + 10
    while True:
        message = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if message.get("type") == kind and (check is None or check(message)):
            return message  # type: ignore[no-any-return]


def test_players_and_spectators_see_who_watches(server: ThreadServer) -> None:
    with (
        device(server) as a,
        device(server) as b,
        device(server) as c,
        device(server) as g,
        device(server) as nobody,
    ):
        register(a, "pam_7")
        register(b, "rex_7")
        register(c, "sue_7")
        assert g.post("/api/guest", json={"name": "Tia"}).status_code == 201
        gid = start_game(a, b)
        url = server.url.replace("http", "ws") + f"/api/games/{gid}/ws"
        with ExitStack() as stack:

            def watch(client: httpx.Client) -> ClientConnection:
                ws = stack.enter_context(connect(url, additional_headers=cookie_header(client)))
                ws.send("{}")
                assert json.loads(ws.recv(timeout=10))["type"] == "state"
                return ws

            player = watch(a)
            sue = watch(c)
            everyone = {"watchers": [{"name": "sue_7", "guest": False}], "anonymous": 0}
            assert recv_until(sue, "watchers") == {"type": "watchers", **everyone}
            assert recv_until(player, "watchers") == {"type": "watchers", **everyone}
            watch(g)
            anonymous = watch(nobody)
            both = [{"name": "sue_7", "guest": False}, {"name": "Tia", "guest": True}]
            heard = recv_until(player, "watchers", lambda m: m["anonymous"] == 1)
            assert heard == {"type": "watchers", "watchers": both, "anonymous": 1}
            assert recv_until(anonymous, "watchers")["watchers"] == both
            late = watch(b)  # a player's page that opens later hears who is there
            assert recv_until(late, "watchers") == heard
            sue.close()
            heard = recv_until(player, "watchers", lambda m: len(m["watchers"]) == 1)
            assert heard["watchers"] == [{"name": "Tia", "guest": True}]
            assert heard["anonymous"] == 1
            # the spectator list is not part of the state every page is sent
            assert "watchers" not in state(a, gid)


def two_processes() -> Iterator[tuple[ThreadServer, ThreadServer]]:
    """Two apps on one fresh PostgreSQL database: two server processes, as far as the
    database and the events between processes go."""
    pytest.importorskip("psycopg")
    from conftest import fresh_database
    from support.throwaway_postgres import bindir, throwaway_postgres

    if bindir() is None:
        pytest.skip("PostgreSQL is not installed")
    with throwaway_postgres() as cluster:
        url = fresh_database(cluster)
        with (
            ThreadServer(create_app(url, config=CONFIG)) as one,
            ThreadServer(create_app(url, config=CONFIG)) as two,
        ):
            yield one, two


def test_a_player_hears_of_spectators_another_process_serves() -> None:
    with contextmanager(two_processes)() as (one, two), ExitStack() as stack:
        a, b = stack.enter_context(device(one)), stack.enter_context(device(one))
        c, nobody = stack.enter_context(device(two)), stack.enter_context(device(two))
        register(a, "amy_11")
        register(b, "ben_11")
        register(c, "cat_11")
        gid = start_game(a, b)

        def watch(server: ThreadServer, client: httpx.Client) -> ClientConnection:
            url = server.url.replace("http", "ws") + f"/api/games/{gid}/ws"
            ws = stack.enter_context(connect(url, additional_headers=cookie_header(client)))
            ws.send("{}")
            assert json.loads(ws.recv(timeout=10))["type"] == "state"
            return ws

        player = watch(one, a)
        cat = watch(two, c)
        watch(two, nobody)
        heard = recv_until(player, "watchers", lambda m: m["anonymous"] == 1)
        assert heard["watchers"] == [{"name": "cat_11", "guest": False}]
        late = watch(one, b)  # a page opened later on the first process hears them too
        assert recv_until(late, "watchers") == heard
        cat.close()
        heard = recv_until(player, "watchers", lambda m: m["watchers"] == [])
        assert heard["anonymous"] == 1


# -- point 12: rematch ---------------------------------------------------------------------------


def finished_game(a: httpx.Client, b: httpx.Client) -> str:
    gid = start_game(a, b)
    call_off(a, gid)
    return gid


def test_two_rematch_presses_make_one_game(server: ThreadServer) -> None:
    with device(server) as a, device(server) as b:
        register(a, "uri_8")
        register(b, "val_8")
        gid = finished_game(a, b)
        first = a.post(f"/api/games/{gid}/rematch", json={})
        assert first.status_code == 201 and first.json()["seek"]["status"] == "open"
        again = a.post(f"/api/games/{gid}/rematch", json={})  # pressed twice: the same offer
        assert again.json()["seek"]["id"] == first.json()["seek"]["id"]
        second = b.post(f"/api/games/{gid}/rematch", json={})
        assert second.status_code == 201, second.text
        taken = second.json()["seek"]
        assert taken["id"] == first.json()["seek"]["id"] and taken["status"] == "taken"
        new = taken["game_id"]
        assert state(a, new)["names"] == ["uri_8", "val_8"]
        assert b.get("/api/lobby").json()["challenges"] == []
        assert a.get("/api/lobby").json()["mine"] == []
        games = a.get("/api/users/uri_8").json()["games"]
        assert sorted(g["id"] for g in games) == sorted([gid, new])


def test_a_rematch_offered_again_after_a_decline_stands(server: ThreadServer) -> None:
    with device(server) as a, device(server) as b:
        register(a, "wes_9")
        register(b, "xia_9")
        gid = finished_game(a, b)
        seek = a.post(f"/api/games/{gid}/rematch", json={}).json()["seek"]
        assert b.post(f"/api/seeks/{seek['id']}/cancel", json={}).status_code == 200
        offer = b.post(f"/api/games/{gid}/rematch", json={}).json()["seek"]
        assert offer["status"] == "open" and offer["id"] != seek["id"]
        assert a.get("/api/lobby").json()["challenges"][0]["id"] == offer["id"]


def test_rematch_presses_at_once_in_two_processes_make_one_game() -> None:
    """Each player's Rematch reaches a different process at the same moment, many times
    over."""
    with (
        contextmanager(two_processes)() as (one, two),
        device(one) as a,
        device(two) as b,
        ThreadPoolExecutor(2) as pool,
    ):
        register(a, "yul_10")
        register(b, "zoe_10")
        for _ in range(6):
            gid = finished_game(a, b)
            presses = [
                pool.submit(client.post, f"/api/games/{gid}/rematch", json={}) for client in (a, b)
            ]
            answers = [p.result().json() for p in presses]
            assert all("seek" in answer for answer in answers), answers
            seeks = [answer["seek"] for answer in answers]
            assert len({s["id"] for s in seeks}) == 1  # one offer, taken
            started = [s["game_id"] for s in seeks if s["status"] == "taken"]
            assert len(started) == 1
            games = a.get("/api/users/yul_10").json()["games"]
            assert [g["status"] for g in games].count("live") == 1
            call_off(a, started[0])
