"""Online play through a real server (issue 10): accounts and sessions, the lobby, games
between people on their own devices, spectators, ratings, and every refusal on the way.

Each ``httpx.Client`` is one device with its own cookie jar; the server runs in-process on a
loopback port (``threadserver``), over SQLite and PostgreSQL (the ``db`` fixture)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from helpers import PASSWORD, cookie_header, device, generated_move, post_seek, register, state
from threadserver import ThreadServer
from websockets.sync.client import connect

from tessera.server.app import create_app
from tessera.server.config import ServerConfig
from tessera.server.glicko2 import Rating, rate_game

CONFIG = ServerConfig(bot_delay_s=0, think_s=0.05)


@pytest.fixture
def server(db: str) -> Iterator[ThreadServer]:
    with ThreadServer(create_app(db, config=CONFIG)) as s:
        yield s


def start_game(a: httpx.Client, b: httpx.Client, **spec: Any) -> str:
    seek = post_seek(a, **spec)
    r = b.post(f"/api/seeks/{seek['id']}/accept", json={})
    assert r.status_code == 201, r.text
    return str(r.json()["game_id"])


def ws_url(server: ThreadServer, path: str) -> str:
    return server.url.replace("http", "ws") + path


# -- accounts ------------------------------------------------------------------------------


def test_register_log_out_log_in_and_who_am_i(server: ThreadServer) -> None:
    with device(server) as a:
        assert a.get("/api/me").json() == {"user": None}
        register(a, "ann_1")
        assert a.get("/api/me").json()["user"] == {"name": "ann_1", "guest": False}
        cookie = a.cookies.get("tessera_session")
        assert a.post("/api/logout", json={}).json() == {"user": None}
        assert a.get("/api/me").json()["user"] is None
        # the old cookie is a stale session: it opens nothing
        with device(server) as thief:
            thief.cookies.set("tessera_session", cookie)
            assert thief.get("/api/me").json()["user"] is None
            assert thief.post("/api/seeks", json={}).status_code == 401
        r = a.post("/api/login", json={"username": "ANN_1", "password": PASSWORD})
        assert r.status_code == 200 and r.json()["user"]["name"] == "ann_1"
        set_cookie = r.headers["set-cookie"].lower()
        assert "httponly" in set_cookie and "samesite=lax" in set_cookie
        assert "secure" not in set_cookie  # plain http on loopback
    with device(server) as behind_tls:  # a TLS proxy on this machine says the page is https
        r = behind_tls.post(
            "/api/login",
            json={"username": "ann_1", "password": PASSWORD},
            headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"},
        )
        assert r.status_code == 200 and "secure" in r.headers["set-cookie"].lower()


def test_login_errors_do_not_say_whether_the_name_exists(server: ThreadServer) -> None:
    with device(server) as a, device(server) as b:
        register(a, "bob_2")
        wrong_password = b.post("/api/login", json={"username": "bob_2", "password": "x" * 10})
        no_such_user = b.post("/api/login", json={"username": "nobody_2", "password": "x" * 10})
        assert wrong_password.status_code == no_such_user.status_code == 401
        assert wrong_password.json() == no_such_user.json()
        assert b.get("/api/me").json()["user"] is None


def test_wrong_passwords_back_off_per_name_and_address(server: ThreadServer) -> None:
    """A few wrong passwords are free, then the address waits (test_server_security.py: the
    owner at another address is not held up)."""
    with device(server) as a:
        register(a, "cy_3")
        codes = [
            a.post("/api/login", json={"username": "cy_3", "password": "wrong-pass"}).status_code
            for _ in range(12)
        ]
    assert codes[:6] == [401] * 6 and codes[6:] == [429] * 6


def test_registration_refuses_bad_and_taken_names(server: ThreadServer) -> None:
    with device(server) as a, device(server) as b:
        register(a, "dee_4")
        for body, reason in (
            ({"username": "DEE_4", "password": PASSWORD}, "name_taken"),
            ({"username": "x", "password": PASSWORD}, "bad_username"),
            ({"username": "bad name", "password": PASSWORD}, "bad_username"),
            ({"username": "eve_4", "password": "short"}, "bad_password"),
            ({"username": "eve_4", "password": "p" * 200}, "bad_password"),
            ({"username": ["eve"], "password": PASSWORD}, "bad_username"),
        ):
            r = b.post("/api/register", json=body)
            assert r.json()["reason"] == reason, body
        assert b.get("/api/me").json()["user"] is None


def test_changing_the_password_ends_the_other_sessions(server: ThreadServer) -> None:
    with device(server) as phone, device(server) as laptop:
        register(phone, "fay_5")
        laptop.post("/api/login", json={"username": "fay_5", "password": PASSWORD})
        assert laptop.get("/api/me").json()["user"]["name"] == "fay_5"
        bad = phone.post("/api/password", json={"old": "not it!!", "new": "another password"})
        assert bad.status_code == 403
        ok = phone.post("/api/password", json={"old": PASSWORD, "new": "another password"})
        assert ok.status_code == 200
        time.sleep(0.1)
        assert phone.get("/api/me").json()["user"]["name"] == "fay_5"
        from tessera.server.accounts import SESSION_CACHE_S

        deadline = time.monotonic() + SESSION_CACHE_S + 5
        while laptop.get("/api/me").json()["user"] is not None:
            assert time.monotonic() < deadline, "the other session outlived the change"
            time.sleep(0.2)
        assert (
            laptop.post(
                "/api/login", json={"username": "fay_5", "password": "another password"}
            ).status_code
            == 200
        )


def test_a_guest_who_registers_keeps_their_games(server: ThreadServer) -> None:
    with device(server) as a:
        players = [
            {"name": "Gus", "kind": "human"},
            {"name": "Bot", "kind": "computer", "level": "level1"},
        ]
        r = a.post("/api/games", json={"players": players})
        assert r.status_code == 201 and r.json()["user"] == {"name": "Gus", "guest": True}
        gid = r.json()["id"]
        register(a, "gus_6")
        assert state(a, gid)["my_seats"] == [0]


# -- the lobby -------------------------------------------------------------------------------


def test_a_seek_taken_starts_a_game_for_both_and_only_once(server: ThreadServer) -> None:
    with device(server) as a, device(server) as b, device(server) as c:
        register(a, "hal_7")
        register(b, "ida_7")
        register(c, "jo_7")
        seek = post_seek(a, rated=True)
        listing = b.get("/api/lobby").json()
        assert [s["id"] for s in listing["seeks"]] == [seek["id"]]
        assert listing["seeks"][0]["user"] == "hal_7" and listing["seeks"][0]["user_rating"] == 1500
        assert a.post(f"/api/seeks/{seek['id']}/accept", json={}).json()["reason"] == "self"
        r = b.post(f"/api/seeks/{seek['id']}/accept", json={})
        assert r.status_code == 201
        gid = r.json()["game_id"]
        again = c.post(f"/api/seeks/{seek['id']}/accept", json={})
        assert again.status_code == 409 and again.json()["reason"] == "seek_gone"
        sa, sb = state(a, gid), state(b, gid)
        assert sa["my_seats"] == [0] and sb["my_seats"] == [1]
        assert sa["names"] == ["hal_7", "ida_7"] and sa["online"] and sa["rated"]
        assert sa["clocks_ms"] == [300_000, 300_000]
        assert c.get("/api/lobby").json()["seeks"] == []
        assert [g["id"] for g in c.get("/api/lobby").json()["live"]] == [gid]


def test_direct_challenges_invitations_and_their_refusals(server: ThreadServer) -> None:
    with device(server) as a, device(server) as b, device(server) as c, device(server) as g:
        register(a, "kim_8")
        register(b, "lee_8")
        register(c, "max_8")
        g.post("/api/guest", json={"name": "Visitor"})
        direct = post_seek(a, to="lee_8")
        assert b.get("/api/lobby").json()["challenges"][0]["id"] == direct["id"]
        assert c.get("/api/lobby").json()["challenges"] == []
        assert c.post(f"/api/seeks/{direct['id']}/accept", json={}).status_code == 403
        assert b.post(f"/api/seeks/{direct['id']}/cancel", json={}).status_code == 200  # decline
        assert b.post(f"/api/seeks/{direct['id']}/accept", json={}).status_code == 409
        link = a.post("/api/seeks", json={"rules": "woogles", "invite": True}).json()
        assert link["link"] == f"/invite/{link['seek']['id']}"
        assert c.get("/api/lobby").json()["seeks"] == []  # not listed: only for the link
        assert g.get(f"/api/seeks/{link['seek']['id']}").json()["seek"]["user"] == "kim_8"
        taken = g.post(f"/api/seeks/{link['seek']['id']}/accept", json={})
        assert taken.status_code == 201
        # a game against a person holds its players: called off, it frees them
        called_off = {"seat": 0, "action": "abort"}
        r = a.post(f"/api/games/{taken.json()['game_id']}/move", json=called_off)
        assert r.json()["state"] == "aborted"
        # guests play casual games only; a rating range keeps others out
        assert g.post("/api/seeks", json={"rules": "woogles", "rated": True}).status_code == 403
        rated = post_seek(a, rated=True)
        assert g.post(f"/api/seeks/{rated['id']}/accept", json={}).status_code == 403
        narrow = post_seek(a, rating_min=1600)
        r = c.post(f"/api/seeks/{narrow['id']}/accept", json={})
        assert r.status_code == 403 and r.json()["reason"] == "rating_range"
        for bad in (
            {"rules": "duplicate"},
            {"rules": "woogles", "initial_min": 0},
            {"rules": "woogles", "increment_s": 61},
            {"rules": "woogles", "rated": "yes"},
            {"rules": "woogles", "to": "nobody_8"},
            {"rules": "woogles", "to": "kim_8"},
            {"rules": "woogles", "lexicon": "/etc/passwd"},
            {"rules": "woogles", "rating_min": 1800, "rating_max": 1200},
            {"rules": "woogles", "initial_min": "10"},
            {"rules": "woogles", "increment_s": 1.5},
        ):
            r = a.post("/api/seeks", json=bad)
            assert 400 <= r.status_code < 500 and r.json()["reason"], bad


def test_a_null_clock_field_takes_its_default(server: ThreadServer) -> None:
    with device(server) as a:
        register(a, "zed_15")
        seek = post_seek(a, initial_min=None, increment_s=None, max_overtime_min=None)
    assert seek["clock"] == {"initial_ms": 600_000, "increment_ms": 0, "max_overtime_min": 1}


def test_the_lobby_socket_tells_the_seeker_the_game_started(server: ThreadServer) -> None:
    with device(server) as a, device(server) as b:
        register(a, "ned_9")
        register(b, "ola_9")
        with connect(ws_url(server, "/api/lobby/ws"), additional_headers=cookie_header(a)) as ws:
            ws.send("{}")
            assert json.loads(ws.recv(timeout=10)) == {"type": "lobby"}
            gid = start_game(a, b)
            messages = []
            deadline = time.monotonic() + 10
            while not any(m.get("type") == "game_started" for m in messages):
                assert time.monotonic() < deadline
                messages.append(json.loads(ws.recv(timeout=10)))
        started = next(m for m in messages if m["type"] == "game_started")
        assert started["game_id"] == gid


# -- games between people --------------------------------------------------------------------


def test_seats_spectators_and_refusals_in_a_game_between_people(server: ThreadServer) -> None:
    with device(server) as a, device(server) as b, device(server) as c, device(server) as nobody:
        register(a, "pia_10")
        register(b, "quin_10")
        register(c, "ray_10")
        gid = start_game(a, b)
        sa = state(a, gid)
        mover, waiter = (a, b) if sa["to_move"] == 0 else (b, a)
        mover_seat = sa["to_move"]
        # a spectator (a third user, or nobody at all) sees no rack
        for watcher in (c, nobody):
            sc = state(watcher, gid)
            assert sc["seat"] == -1 and sc["rack"] == [] and sc["my_seats"] == []
            assert watcher.post(
                f"/api/games/{gid}/move", json={"seat": 0, "action": "pass"}
            ).status_code in (401, 403)
        # the other user's seat, a move out of turn, hints, an oversized or stale request
        other = 1 - mover_seat
        r = mover.post(f"/api/games/{gid}/move", json={"seat": other, "action": "pass"})
        assert r.status_code == 403
        r = waiter.post(f"/api/games/{gid}/move", json={"seat": other, "action": "pass"})
        assert r.status_code == 200 and r.json()["reason"] == "not_your_turn"  # refused
        r = mover.post(f"/api/games/{gid}/hints", json={"seat": mover_seat})
        assert r.status_code == 403 and r.json()["reason"] == "no_hints"
        r = mover.post(
            f"/api/games/{gid}/move",
            json={"seat": mover_seat, "action": "pass", "pad": "x" * 20_000},
        )
        assert r.status_code == 413
        r = mover.post(
            f"/api/games/{gid}/move", json={"seat": mover_seat, "seq": 5, "action": "pass"}
        )
        assert r.status_code == 409
        assert state(a, gid)["seq"] == 0
        # the mover's own view over a WebSocket; a spectator's over another
        with connect(
            ws_url(server, f"/api/games/{gid}/ws"), additional_headers=cookie_header(mover)
        ) as ws:
            ws.send("{}")
            assert json.loads(ws.recv(timeout=10))["state"]["seat"] == mover_seat
            ws.send("x" * 5000)  # over the message limit: the socket is closed with a reason
            msg = json.loads(ws.recv(timeout=10))
            assert msg["type"] == "error"
        with connect(
            ws_url(server, f"/api/games/{gid}/ws"), additional_headers=cookie_header(c)
        ) as ws:
            ws.send("{}")
            watched = json.loads(ws.recv(timeout=10))["state"]
            assert watched["seat"] == -1 and watched["rack"] == []
            who = {"type": "watchers", "watchers": [{"name": "ray_10", "guest": False}]}
            assert json.loads(ws.recv(timeout=10)) == {**who, "anonymous": 0}
            # nor may a spectator move on the game's socket (the page moves there)
            ws.send(json.dumps({"type": "move", "id": 1, "move": {"seat": 0, "action": "pass"}}))
            answer = json.loads(ws.recv(timeout=10))
            assert answer["type"] == "answer" and answer["status"] == 403
        assert state(a, gid)["seq"] == 0


def test_abort_before_the_first_move_and_not_after(server: ThreadServer) -> None:
    with device(server) as a, device(server) as b:
        register(a, "sal_11")
        register(b, "tom_11")
        gid = start_game(a, b)
        s = state(a, gid)
        assert s["can_abort"] is True
        r = a.post(f"/api/games/{gid}/move", json={"seat": 0, "action": "abort"})
        assert r.status_code == 200 and r.json()["state"] == "aborted"
        r = b.post(f"/api/games/{gid}/move", json={"seat": 1, "action": "pass"})
        assert r.status_code == 200 and r.json()["reason"] == "game_over"
        gid = start_game(a, b)
        s = state(a, gid)
        mover = a if s["to_move"] == 0 else b
        mover.post(f"/api/games/{gid}/move", json={"seat": s["to_move"], "action": "pass"})
        r = mover.post(f"/api/games/{gid}/move", json={"seat": s["to_move"], "action": "abort"})
        assert r.json()["ok"] is False and state(a, gid)["state"] != "aborted"


def test_a_rated_game_moves_both_ratings_by_glicko2_and_offers_a_rematch(
    server: ThreadServer,
) -> None:
    with device(server) as a, device(server) as b:
        register(a, "uma_12")
        register(b, "val_12")
        gid = start_game(a, b, rated=True, initial_min=3)
        s = state(a, gid)
        players = {0: a, 1: b}
        for turn in range(4):  # two turns each: a rated game shorter than that is not rated
            seat = (s["to_move"] + turn) % 2
            players[seat].post(f"/api/games/{gid}/move", json={"seat": seat, "action": "pass"})
        loser_seat = 1 - s["to_move"]
        r = players[loser_seat].post(
            f"/api/games/{gid}/move", json={"seat": loser_seat, "action": "resign"}
        )
        assert r.status_code == 200 and r.json()["state"] == "over"
        won, lost = rate_game(Rating(), Rating(), 1.0)
        end = state(a, gid)
        assert end["ratings"][1 - loser_seat] == {"before": 1500, "after": round(won.rating)}
        assert end["ratings"][loser_seat] == {"before": 1500, "after": round(lost.rating)}
        winner_name = end["names"][1 - loser_seat]
        profile = a.get(f"/api/users/{winner_name}").json()
        assert profile["ratings"] == [
            {
                "key": "standard.blitz",
                "rating": round(won.rating),
                "deviation": round(won.deviation),
                "games": 1,
            }
        ]
        assert profile["games"][0]["id"] == gid and profile["games"][0]["status"] == "over"
        assert [h["game_id"] for h in profile["history"]] == [gid]
        replay = b.get(f"/api/games/{gid}/replay").json()
        assert replay["turns"][-1]["kind"] == "pass" and replay["result"]["reason"] == "resigned"
        assert replay["turns"][-1]["board"] == end["board"]
        gcg = a.get(f"/api/games/{gid}/gcg")
        assert gcg.status_code == 200 and "#player1" in gcg.text
        rematch = a.post(f"/api/games/{gid}/rematch", json={})
        assert rematch.status_code == 201
        seek = rematch.json()["seek"]
        assert seek["direct"] and seek["rated"] and seek["rematch_of"] == gid
        assert b.get("/api/lobby").json()["challenges"][0]["id"] == seek["id"]
        second = b.post(f"/api/seeks/{seek['id']}/accept", json={})
        assert second.status_code == 201


def test_a_whole_game_between_people_shows_nobody_the_other_rack(server: ThreadServer) -> None:
    """Traffic test: every HTTP answer and WebSocket message each player's device and a
    spectator's receive; none holds the other's rack (as text or as a JSON list), the seed
    or the bag while the game is on."""
    from tessera.server.storage import Storage

    bodies: dict[str, list[str]] = {"a": [], "b": [], "c": []}

    def recorder(key: str) -> Any:
        def hook(response: httpx.Response) -> None:
            response.read()
            bodies[key].append(response.text)

        return hook

    with (
        httpx.Client(
            base_url=server.url, timeout=30, event_hooks={"response": [recorder("a")]}
        ) as a,
        httpx.Client(
            base_url=server.url, timeout=30, event_hooks={"response": [recorder("b")]}
        ) as b,
        httpx.Client(
            base_url=server.url, timeout=30, event_hooks={"response": [recorder("c")]}
        ) as c,
    ):
        register(a, "wes_13")
        register(b, "xia_13")
        gid = start_game(a, b, initial_min=10)
        sockets = {}
        stack = ExitStack()
        for key, client in (("a", a), ("b", b), ("c", c)):
            ws = stack.enter_context(
                connect(
                    ws_url(server, f"/api/games/{gid}/ws"), additional_headers=cookie_header(client)
                )
            )
            ws.send("{}")
            sockets[key] = ws
        players = {0: a, 1: b}
        turns = 0
        while True:
            s = state(a, gid)
            if s["state"] == "over" or turns > 80:
                break
            seat = s["to_move"]
            me = players[seat]
            mine = state(me, gid)
            body = generated_move(mine)
            r = me.post(f"/api/games/{gid}/move", json={"seat": seat, "seq": mine["seq"], **body})
            assert r.status_code == 200, r.text
            state(c, gid)
            turns += 1
        for key, ws in sockets.items():
            try:
                while True:
                    bodies[key].append(str(ws.recv(timeout=0.5)))
            except TimeoutError:
                pass
        stack.close()
        assert state(a, gid)["state"] == "over"
    record = Storage(server.app.state.hub.storage.url).load(gid)
    assert record is not None
    racks = _racks_while_on(record)
    for key, hidden_seats in (("a", {1}), ("b", {0}), ("c", {0, 1})):
        for text in bodies[key]:
            over = '"state":"over"' in text
            assert str(record.seed) not in text
            if over:
                continue
            for seat in hidden_seats:
                for rack_text, rack_list in racks[seat]:
                    assert rack_text not in text and rack_list not in text, (key, seat)
    # the same encodings do carry each player's own racks (the search can find a rack)
    assert any(racks[0][0][1] in t for t in bodies["a"])


def _racks_while_on(record: Any) -> dict[int, list[tuple[str, str]]]:
    """Each seat's racks (as the text the page would show, and as a JSON list) over the game."""
    from tessera.game import Game
    from tessera.lexicon import Lexicon
    from tessera.server.game_sessions import apply_action, game_rules

    lexicon = Lexicon.load("enable")
    game = Game(
        game_rules(record, lexicon), lexicon, [s.name for s in record.seats], seed=record.seed
    )
    seen: dict[int, list[tuple[str, str]]] = {0: [], 1: []}
    alphabet = game.alphabet

    def note() -> None:
        for seat in (0, 1):
            tiles = game.view(seat).rack
            if len(tiles) >= 5:
                labels = [alphabet.label(t) for t in tiles]
                seen[seat].append(("".join(labels), json.dumps(labels, separators=(",", ":"))))

    note()
    for action in record.actions:
        apply_action(game, action)
        if not game.is_over:
            note()
    return seen


def test_an_abandoned_game_is_lost_on_time_even_when_no_process_has_it(db: str) -> None:
    """A game nobody has loaded (after a restart, say) whose clock ran out is found by the
    sweep and adjudicated by the clock."""
    import asyncio

    from tessera.server.hub import Hub
    from tessera.server.storage import Seat, Storage

    store = Storage(db)
    seats = [Seat("Ann", "human", None, "u1"), Seat("Bob", "human", None, "u2")]
    clock = {"initial_ms": 200, "increment_ms": 0, "max_overtime_min": 0}
    gid = store.create_game("woogles", "enable", 5, seats, clock=clock, online=True)
    time.sleep(0.4)

    async def sweep() -> str:
        hub = Hub(store, CONFIG)
        await hub.start()
        await hub.sweep()
        for _ in range(100):
            session = hub.sessions.get(gid)
            if session is not None and session.over:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)
        await hub.close()
        return "ok"

    import threading

    done: list[str] = []
    t = threading.Thread(target=lambda: done.append(asyncio.run(sweep())))
    t.start()
    t.join(30)
    rec = store.load(gid)
    assert done == ["ok"] and rec is not None
    assert [a.kind for a in rec.actions] == ["time_expired"] and rec.status == "over"
    assert store.overdue(int(time.time() * 1000)) == []


def test_a_rematch_offer_reaches_the_players_pages_and_no_spectator(server: ThreadServer) -> None:
    """A rematch with a guest is an invitation: whoever holds its id may take the seat, so
    only the players' pages may hear of it."""
    with device(server) as a, device(server) as g, device(server) as c:
        register(a, "yan_14")
        g.post("/api/guest", json={"name": "Gus"})
        gid = start_game(a, g)
        with ExitStack() as stack:
            sockets = {}
            for key, client in (("a", a), ("g", g), ("c", c)):
                ws = stack.enter_context(
                    connect(
                        ws_url(server, f"/api/games/{gid}/ws"),
                        additional_headers=cookie_header(client),
                    )
                )
                ws.send("{}")
                assert json.loads(ws.recv(timeout=10))["type"] == "state"
                sockets[key] = ws
            s = state(a, gid)
            a.post(f"/api/games/{gid}/move", json={"seat": 0, "action": "abort"})
            seek = a.post(f"/api/games/{gid}/rematch", json={}).json()["seek"]
            assert seek["invite"] and not seek["direct"]

            def heard(key: str) -> list[dict[str, Any]]:
                got = []
                try:
                    while True:
                        got.append(json.loads(sockets[key].recv(timeout=1.5)))
                except TimeoutError:
                    return got

            assert any(m.get("type") == "rematch" for m in heard("g"))
            assert all(
                m.get("type") != "rematch" and seek["id"] not in json.dumps(m) for m in heard("c")
            )
        assert s["can_abort"]
