"""Seeded fuzzing of the server with malformed requests (issue 9's fuzz acceptance).

Each case mutates a well-formed request so that it is wrong in one way or several (a field of
the wrong type, an unknown action, broken JSON, a forged token, another site's Origin, a body
over the limit, a junk path, a broken WebSocket hello, a broken HTTP request line). Every
answer must be a clear 4xx (or a clean close), within a time bound, and the game must be
exactly as it was; the process's peak memory may not grow past a bound over the run."""

from __future__ import annotations

import json
import random
import resource
import socket
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import new_game, state
from threadserver import ThreadServer

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from tessera.server.app import create_app
from tessera.server.config import ServerConfig

pytestmark = pytest.mark.hardening  # an attack the server withstands (pytest -m hardening)

SEED = 20261201
HTTP_CASES = 520
ONLINE_CASES = 240
WS_CASES = 160
RAW_CASES = 60
PER_REQUEST_S = 3.0
PEAK_GROWTH_MB = 96
REFUSALS = {400, 401, 403, 404, 405, 409, 413, 415, 429}
HUMANS = [{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}]
CONFIG = ServerConfig(bot_delay_s=0, think_s=0.05, games_per_minute=10_000, ws_per_client=10_000)

JUNK_VALUES: list[Any] = [
    None,
    True,
    False,
    -1,
    2**70,
    1.5,
    "",
    "x" * 300,
    "\x00",
    "é" * 50,
    [],
    {},
    [[[]]],
    {"a": {"b": {"c": 1}}},
    "8D " + "Z" * 70,
    ["A"],
    [[7, 7]],
    [[99, 99, "A"]],
    [[7, 7, 7]],
    [[7, 7, "?"]],
    [[7, 7, "AB"]],
    [[-1, 0, "A"]],
    [[True, 7, "A"]],
]
BAD_ACTIONS = ["", "PASS", "dance", "pass ", None, 5, ["pass"], {"x": 1}, "resign\x00"]


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def broken_bytes(rng: random.Random, body: bytes) -> bytes:
    """``body`` broken as JSON: cut short, a stray byte, or a run of nesting."""
    pick = rng.randrange(5)
    if pick == 0:
        return body[: rng.randrange(1, len(body))]
    if pick == 1:
        i = rng.randrange(len(body))
        return body[:i] + bytes([rng.choice(b'\xff\xfe{[,:\x00"')]) + body[i + 1 :]
    if pick == 2:
        n = rng.randrange(1000, 6000)
        return b"[" * n + b"]" * n
    if pick == 3:
        return b'{"seat": ' + b"9" * rng.randrange(4400, 9000) + b"}"
    return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))


NOT_SEATS = [v for v in JUNK_VALUES if type(v) is not int] + [2, 7, -1]
BAD_PLACEMENTS = [v for v in JUNK_VALUES if not isinstance(v, list) or v != []] + [[]]


def mutated_body(rng: random.Random, endpoint: str, to_move: int) -> dict[str, Any]:
    """A body for ``endpoint`` (move, check or hints) that is wrong in at least one way."""
    if endpoint == "hints":
        return {"seat": rng.choice([*NOT_SEATS, 1 - to_move]), "junk": rng.choice(JUNK_VALUES)}
    if endpoint == "check":
        if rng.random() < 0.5:
            return {"seat": rng.choice(NOT_SEATS), "placements": [[7, 7, "A"], [7, 8, "T"]]}
        return {"seat": to_move, "placements": rng.choice(BAD_PLACEMENTS)}
    body: dict[str, Any] = {"seat": to_move, "action": "pass"}
    for _ in range(rng.randrange(1, 4)):
        kind = rng.randrange(6)
        if kind == 0:
            body["seat"] = rng.choice([*NOT_SEATS, 1 - to_move])
        elif kind == 1:
            body["action"] = rng.choice(BAD_ACTIONS)
        elif kind == 2:
            body["action"] = "play"
            body.pop("text", None)
            body.pop("placements", None)
            if rng.random() < 0.5:
                body["text"] = rng.choice(JUNK_VALUES)
            else:
                body["placements"] = rng.choice(BAD_PLACEMENTS)
        elif kind == 3:
            body["action"] = "exchange"
            body["tiles"] = rng.choice(["", "@@", "Q" * 40, 7, None, ["A"], "ZZZZZZZ"])
        elif kind == 4:
            body["seq"] = rng.choice([-1, 10**6, True, "0", 1.0])
        else:
            body.pop("seat", None)
    if body.get("seat") == to_move and body.get("action") == "pass" and "seq" not in body:
        body["seat"] = 1 - to_move  # still a well-formed pass: make it out of turn
    return body


def http_case(
    rng: random.Random, gid: str, cookie: str, to_move: int
) -> tuple[str, str, dict[str, str], bytes]:
    """(method, path, headers, body) of one malformed request."""
    headers = {"Content-Type": "application/json", "Cookie": f"tessera_session={cookie}"}
    endpoint = rng.choice(["move", "move", "check", "hints"])
    path = f"/api/games/{gid}/{endpoint}"
    body = json.dumps(mutated_body(rng, endpoint, to_move)).encode()
    twist = rng.randrange(10)
    if twist == 0:
        body = broken_bytes(rng, body)
    elif twist == 1:
        other = "B" if cookie.endswith("A") else "A"
        forged = rng.choice(["", "x" * 43, cookie[:-1] + other, "x" * 3000, cookie[1:], "\x00"])
        headers["Cookie"] = f"tessera_session={forged}"
        body = json.dumps({"seat": to_move, "action": "pass"}).encode()
    elif twist == 2:
        headers["Content-Type"] = rng.choice(["text/plain", "application/xml", "", "json"])
        body = json.dumps({"seat": to_move, "action": "pass"}).encode()
    elif twist == 3:
        headers["Origin"] = rng.choice(["http://evil.example", "null", "file://", "https://x"])
        body = json.dumps({"seat": to_move, "action": "pass"}).encode()
    elif twist == 4:
        body = b'{"seat": 0, "pad": "' + b"x" * rng.randrange(17_000, 40_000) + b'"}'
    elif twist == 5:
        junk = rng.choice(["%00", "..%2F..%2Fetc", "x" * 300, "é", "a b", "-" * 33, "nosuch"])
        path = f"/api/games/{junk}/" + rng.choice(["move", "state", "gcg", "hints"])
    elif twist == 6:
        return "POST", "/api/games", headers, json.dumps(bad_spec(rng)).encode()
    elif twist == 7:
        headers["Host"] = rng.choice(["evil.example", "127.0.0.1.nip.io", "localhost.", "[::2]"])
    method = "POST"
    if path.endswith(("/state", "/gcg")):
        method = rng.choice(["GET", "POST", "PUT", "DELETE"])
        if method == "GET" and twist != 7:
            headers["Cookie"] = "tessera_session=" + rng.choice(["", "forged"])
    return method, path, headers, body


def bad_spec(rng: random.Random) -> dict[str, Any]:
    """A new-game request that is wrong in at least one way."""
    spec: dict[str, Any] = {"players": [dict(p) for p in HUMANS]}
    kind = rng.randrange(9)
    if kind == 0:
        spec["lexicon"] = rng.choice(["/etc/passwd", "../enable", "csw", 5, ["enable"], "x" * 100])
    elif kind == 1:
        spec["rules"] = rng.choice(["duplicate", "NASPA", "", 3, "naspa\x00", "r" * 100])
        if spec["rules"] == "":
            spec["players"] = []
    elif kind == 2:
        spec["players"] = rng.choice([None, "Ann", [], [{}] * 3, [1, 2], [{"name": "A"}] * 2])
    elif kind == 3:
        spec["players"][0]["name"] = rng.choice(["", "A\x07", "x" * 25, 5, None, "\u202e"])
    elif kind == 4:
        spec["players"][1] = {
            "name": "Bot",
            "kind": "computer",
            "level": rng.choice(["9", 1, "level9", [1]]),
        }
    elif kind == 5:
        spec["players"][1]["kind"] = rng.choice(["robot", None, 1, "HUMAN"])
    elif kind == 6:
        spec["clock"] = rng.choice(
            [5, "5+2", [5, 2], {}, {"initial_min": 0}, {"initial_min": 10**40},
             {"initial_min": 5, "increment_s": 3600}, {"initial_min": "5"},
             {"initial_min": 5, "max_overtime_min": -1}, {"initial_min": 5, "bonus": 1}]
        )
    elif kind == 7:
        spec["challenge_rule"] = rng.choice(["DOUBLE", "quintuple", 2, ["single"], "v" * 200])
    else:
        spec["players"] = [{"name": f"P{i}", "kind": "human"} for i in range(rng.randrange(5, 40))]
    return spec


BAD_NAMES: list[Any] = [
    None,
    "",
    "x",
    "a b",
    "é" * 5,
    "x" * 40,
    7,
    ["ann"],
    {"n": 1},
    "\x00ab",
    "ab\n",
    "../etc",
    "<script>",
]
BAD_PASSWORDS: list[Any] = [None, "", "short", "p" * 200, 12345678, ["password1"]]


def online_case(rng: random.Random, cookie: str, gid: str, seek_id: str) -> tuple[str, bytes]:
    """(path, body) of a malformed request to the accounts or the lobby (always refused)."""
    kind = rng.randrange(8)
    if kind == 0:
        name, password = "valid_name", "a long password"
        if rng.random() < 0.5:
            name = rng.choice(BAD_NAMES)
        else:
            password = rng.choice(BAD_PASSWORDS)
        return "/api/register", json.dumps({"username": name, "password": password}).encode()
    if kind == 1:
        body = {
            "username": rng.choice([*BAD_NAMES, "nobody_here"]),
            "password": rng.choice([*BAD_PASSWORDS, "not the password"]),
        }
        return "/api/login", json.dumps(body).encode()
    if kind == 2:
        return "/api/guest", json.dumps(
            {"name": rng.choice([None, "", "   ", 7, ["A"], "\x07bell", "x" * 25, "\u202eevil"])}
        ).encode()
    if kind == 3:
        spec: dict[str, Any] = {"rules": "woogles"}
        field_, values = rng.choice(
            [
                ("rules", ["duplicate", "", 5, None, "x" * 80]),
                ("lexicon", ["/etc/passwd", "../x", 3, "csw19"]),
                ("initial_min", [0, 91, -1, "10", 1.5, True, [10]]),
                ("increment_s", [-1, 61, "2", 0.5]),
                ("max_overtime_min", [11, -3, "1"]),
                ("rated", ["yes", 1, None, [True]]),
                ("rating_min", [-5, 5000, "1500", 1.5]),
                ("to", ["nobody_here", 5, ["x"], "x" * 60]),
                ("invite", ["no", 0, [False]]),
            ]
        )
        spec[field_] = rng.choice(values)
        if field_ == "rules" and spec["rules"] is None:
            spec["rules"] = "Woogles"
        if field_ == "rated" and spec["rated"] is None:
            spec["rated"] = "no"
        return "/api/seeks", json.dumps(spec).encode()
    if kind == 4:
        if rng.random() < 0.3:
            return f"/api/seeks/{seek_id}/accept", b"{}"  # one's own seek: refused
        junk = rng.choice(["nosuch", "x" * 40, "%2e%2e", seek_id + "x"])
        return f"/api/seeks/{junk}/" + rng.choice(["accept", "cancel"]), b"{}"
    if kind == 5:
        return "/api/password", json.dumps(
            {
                "old": rng.choice([*BAD_PASSWORDS, "wrong password"]),
                "new": rng.choice(BAD_PASSWORDS),
            }
        ).encode()
    if kind == 6:
        return f"/api/games/{gid}/rematch", rng.choice([b"{}", b"[]", b"{bad"])
    whole = json.dumps({"rules": "woogles", "initial_min": 5}).encode()
    return "/api/seeks", whole[: rng.randrange(1, len(whole))]  # cut short: never JSON


def ws_hello(rng: random.Random) -> tuple[str, bytes | str]:
    """A WebSocket hello that is wrong: ('text' or 'bytes', payload)."""
    pick = rng.randrange(8)
    if pick == 0:
        return "bytes", bytes(rng.randrange(256) for _ in range(rng.randrange(1, 100)))
    if pick == 1:
        return "text", "x" + "".join(rng.choice('{}[]",:x ') for _ in range(rng.randrange(80)))
    if pick == 2:
        return "text", json.dumps(
            {"seat": rng.choice([v for v in JUNK_VALUES[:14] if v is not None])}
        )
    if pick == 3:
        return "text", json.dumps({"seat": rng.choice([True, "0", 1.0, 7, -1])})
    if pick == 4:
        return "text", "x" * rng.randrange(5000, 20000)
    if pick == 5:
        n = rng.randrange(1000, 2000)
        return "text", "[" * n + "]" * n
    if pick == 6:
        return "text", json.dumps({"seat": 2 + rng.randrange(10**6)})
    return "text", json.dumps(rng.choice([[], 5, "token", None]))


RAW_LINES = [
    b"GARBAGE\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n",
    b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -5\r\n\r\n",
    b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n",
    b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 99999999999999999999\r\n\r\n",
    b"GET /api/meta HTTP/1.1\r\n" + b"X-Junk: " + b"y" * 70_000 + b"\r\n\r\n",
    b"GET /api/meta HTTP/1.1\r\nHost: evil.example\r\n\r\n",
    b"GET /api/meta HTTP/1.1\r\n\r\n",
    b"GET /\x00 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
]


def raw_answer(port: int, data: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=PER_REQUEST_S) as s:
        try:
            s.sendall(data)
            return s.recv(256)
        except (ConnectionResetError, BrokenPipeError, TimeoutError):
            return b""


def timed(call: Callable[[], Any]) -> tuple[Any, float]:
    t0 = time.monotonic()
    result = call()
    return result, time.monotonic() - t0


def comparable(s: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in s.items() if k != "turn_elapsed_ms"}


def refused(r: Any) -> bool:
    """A refusal: a 4xx, or a move (or a tentative play) the rules refuse, which is answered
    200 with ``ok`` false and its reason."""
    if r.status_code == 200 and r.headers.get("content-type", "").startswith("application/json"):
        return r.json().get("ok") is False and bool(r.json()["reason"])
    return r.status_code in REFUSALS


def test_malformed_http_and_websocket_requests_are_refused_clearly(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    app = create_app(f"sqlite:///{tmp_path / 'fuzz.db'}", config=CONFIG)
    peak_before = peak_rss_mb()
    slowest = 0.0
    with TestClient(app, base_url="http://localhost") as client:
        gid = new_game(client, players=HUMANS)
        cookie = client.cookies["tessera_session"]
        bare = TestClient(app, base_url="http://localhost")  # cookies only as each case says
        before = comparable(state(client, gid))
        to_move = before["to_move"]
        statuses: dict[int, int] = {}
        for i in range(HTTP_CASES):
            method, path, headers, body = http_case(rng, gid, cookie, to_move)
            r, seconds = timed(
                lambda m=method, p=path, h=headers, b=body: bare.request(m, p, headers=h, content=b)
            )
            slowest = max(slowest, seconds)
            assert refused(r), (i, method, path, body[:80], r.status_code, r.text)
            assert len(r.content) < 1000, (i, r.text[:200])  # a short excerpt, never an echo
            if r.headers.get("content-type", "").startswith("application/json"):
                assert r.json()["reason"], (i, r.text)
            statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
            if i % 50 == 0:
                assert comparable(state(client, gid)) == before, i
        seek = client.post("/api/seeks", json={"rules": "woogles"}).json()["seek"]
        lobby_before = client.get("/api/lobby").json()
        me = client.get("/api/me").json()
        for i in range(ONLINE_CASES):
            path, body = online_case(rng, cookie, gid, seek["id"])
            headers = {"Content-Type": "application/json", "Cookie": f"tessera_session={cookie}"}
            r, seconds = timed(lambda p=path, h=headers, b=body: bare.post(p, headers=h, content=b))
            slowest = max(slowest, seconds)
            assert r.status_code in REFUSALS, (i, path, body[:80], r.status_code, r.text)
            assert len(r.content) < 1000 and r.json()["reason"], (i, r.text[:200])
            statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
        assert client.get("/api/lobby").json() == lobby_before  # no seek made, taken or dropped
        assert client.get("/api/me").json() == me  # the session is as it was
        for users in ("nobody_at_all", "x" * 40, "%00"):
            assert client.get(f"/api/users/{users}").status_code == 404
        assert client.get(f"/api/games/{gid}/replay").status_code == 400  # not over yet
        for i in range(WS_CASES):
            kind, payload = ws_hello(rng)

            def hello(kind: str = kind, payload: bytes | str = payload) -> dict[str, Any]:
                with client.websocket_connect(f"ws://localhost/api/games/{gid}/ws") as ws:
                    if kind == "bytes":
                        ws.send_bytes(payload)  # type: ignore[arg-type]
                    else:
                        ws.send_text(payload)  # type: ignore[arg-type]
                    try:
                        return json.loads(ws.receive_text())
                    except WebSocketDisconnect as closed:
                        return {"type": "closed", "code": closed.code}

            msg, seconds = timed(hello)
            slowest = max(slowest, seconds)
            assert msg["type"] in ("error", "closed"), (i, kind, str(payload)[:60], msg)
        after = comparable(state(client, gid))
        assert after == before
        assert app.state.hub.storage.load(gid).actions == []
        assert not app.state.sockets  # every refused socket was let go
    # a real server, for what only a real connection can send
    with ThreadServer(create_app(f"sqlite:///{tmp_path / 'raw.db'}", config=CONFIG)) as server:
        for i in range(RAW_CASES):
            data = RAW_LINES[i % len(RAW_LINES)]
            answer, seconds = timed(lambda d=data: raw_answer(server.port, d))
            slowest = max(slowest, seconds)
            assert answer == b"" or answer.startswith(b"HTTP/1.1 4"), (i, data[:60], answer)
        import httpx

        assert httpx.get(server.url + "/api/meta", timeout=10).status_code == 200  # still up
    assert sum(statuses.values()) == HTTP_CASES + ONLINE_CASES and len(statuses) >= 5, statuses
    assert slowest < PER_REQUEST_S, f"the slowest answer took {slowest:.2f} s"
    assert peak_rss_mb() - peak_before < PEAK_GROWTH_MB
