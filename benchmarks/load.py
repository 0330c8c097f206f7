"""Load on a real ``tessera serve``: N concurrent games of scripted clients over loopback.

Every client is its own device (its own session cookie) and plays as the page does: its moves
and the states it waits on go over the game's WebSocket (hints over HTTP). Two kinds of game:

- **computer** (issue 9): a guest plays the server's computer (``level3``): it starts a game,
  waits for its turn, asks for hints, plays the best (or exchanges, or passes), and starts a
  new game when one ends.
- **people** (issue 10): two guests meet through an invitation seek and play each other; each
  finds its move with the compiled move generator on its own view (hints are off in games
  between people). The figure beside the move's round trip is the delivery: from sending a
  move to the opponent's page receiving the new state.

Beside the games, ``--sims`` runs that many **review simulation streams** during the
measurement (issue 36, point 7): each is a person on a device of its own (its own loopback
address) whose review page simulates a finished game's turns one after another
(``POST /api/review/simulate``), as fast as the server lets one client (its simulations per
minute). Each level runs once per count (default ``0,2``), so the report shows the move
round trips with and without analysis running beside them.

Two paces: **people** (each client pauses a seeded random 2–6 s before each move, like a
person thinking; the figures that matter are the round trips, p50/p99, at each N) and
**saturation** (no pauses; the figure is the most acknowledged moves per second, and whether
it holds as clients are added). The load generator shares the machine with the server
(2 cores here), so saturation figures are the pair's, not the server's alone. The load
generator's own garbage collector is off while a level runs: its full collections paused it
for up to half a second, and every round trip in flight then counted that pause as the
server's.

    python -m benchmarks load                     # computer games, SQLite and PostgreSQL
    python -m benchmarks.load --mode people --db postgres --games 100,500,1000 --workers 2
    python -m benchmarks.load --mode people --db sqlite --games 1000 --pace people --moves both
    python -m benchmarks.load --mode people --db sqlite --games 1000 --pace people --sims 0,2
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from support.ports import free_port
from support.throwaway_postgres import throwaway_postgres

TESSERA = Path(sys.executable).with_name("tessera")
LEVEL = "level3"  # the computer opponent: a static player, cheap enough for hundreds of games
# the game a simulation stream reviews, and its turns that simulate (turn 3 is a phony)
REVIEWED = Path(__file__).resolve().parent.parent / "tests" / "data" / "gcg" / "reference_game.gcg"
REVIEWED_TURNS = (1, 2, 4)
SIMS_PER_MINUTE = 60  # the server's limit for one client (ServerConfig.simulations_per_minute)


@dataclass
class Tally:
    moves: int = 0
    games: int = 0
    move_ms: list[float] = field(default_factory=list)
    side_ms: list[float] = field(default_factory=list)  # hints, or the opponent's delivery
    errors: int = 0
    counting: bool = False
    sim_ms: list[float] = field(default_factory=list)  # review simulations, each stream's

    def record(self, move_s: float) -> None:
        if self.counting:
            self.moves += 1
            self.move_ms.append(move_s * 1000)

    def side(self, seconds: float) -> None:
        if self.counting:
            self.side_ms.append(seconds * 1000)

    def simulated(self, seconds: float) -> None:
        if self.counting:
            self.sim_ms.append(seconds * 1000)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@asynccontextmanager
async def device(
    url: str, connector: aiohttp.BaseConnector
) -> AsyncIterator[aiohttp.ClientSession]:
    """One client's session: its own cookie jar (loopback addresses allowed), a shared pool."""
    jar = aiohttp.CookieJar(unsafe=True)
    timeout = aiohttp.ClientTimeout(total=120)
    async with aiohttp.ClientSession(
        url, connector=connector, connector_owner=False, cookie_jar=jar, timeout=timeout
    ) as http:
        yield http


async def post(http: aiohttp.ClientSession, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    async with http.post(path, json=body) as r:
        return r.status, await r.json()


async def next_state(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    while True:
        msg = json.loads(await ws.receive_str())
        if msg.get("type") == "state":
            return msg["state"]  # type: ignore[no-any-return]


async def think(rng: random.Random, pause: tuple[float, float]) -> None:
    if pause[1]:
        await asyncio.sleep(rng.uniform(*pause))


# -- against the computer ------------------------------------------------------------------


async def computer_client(
    url: str,
    connector: aiohttp.BaseConnector,
    rng: random.Random,
    tally: Tally,
    pause: tuple[float, float],
    stop: asyncio.Event,
    moves: str,
) -> None:
    async with device(url, connector) as http:
        while not stop.is_set():
            players = [
                {"name": "Load", "kind": "human"},
                {"name": "Bot", "kind": "computer", "level": LEVEL},
            ]
            status, created = await post(http, "/api/games", {"players": players})
            if status != 201:
                tally.errors += 1
                await asyncio.sleep(1)
                continue
            gid = created["id"]
            async with http.ws_connect(f"/api/games/{gid}/ws") as ws:
                await ws.send_str("{}")
                backlog: list[dict[str, Any]] = []
                while not stop.is_set():
                    state = backlog.pop(0) if backlog else await next_state(ws)
                    if state["state"] == "over":
                        tally.games += tally.counting
                        break
                    if state["to_move"] != state["seat"]:
                        continue
                    await think(rng, pause)
                    t0 = time.perf_counter()
                    body = await hinted_move(http, gid, state)
                    tally.side(time.perf_counter() - t0)
                    via = http if moves == "http" else None
                    backlog.extend(await send_move(ws, via, gid, state, body, tally))


async def hinted_move(http: aiohttp.ClientSession, gid: str, state: dict[str, Any]) -> dict:
    if state["state"] == "awaiting_final":
        return {"action": "pass"}
    status, data = await post(http, f"/api/games/{gid}/hints", {"seat": state["seat"]})
    found = data.get("hints") if status == 200 else None
    if found:
        return {"action": "play", "placements": found[0]["placements"]}
    if state["bag_count"] >= 7:
        return {"action": "exchange", "tiles": "".join(state["rack"])}
    return {"action": "pass"}


async def send_move(
    ws: aiohttp.ClientWebSocketResponse,
    http: aiohttp.ClientSession | None,
    gid: str,
    state: dict[str, Any],
    body: dict,
    tally: Tally,
) -> list[dict[str, Any]]:
    """Make a move on the game's socket, as the page does (or, given ``http``, over
    ``POST /move``, as the page did before), and time it to its answer. Returns the states
    that came on the socket before the answer (the new position among them)."""
    t0 = time.perf_counter()
    move = {"seat": state["seat"], "seq": state["seq"], **body}
    if http is not None:
        status, answer = await post(http, f"/api/games/{gid}/move", move)
        if status == 200 and answer.get("ok") is not False:  # refused: 200, ok false
            tally.record(time.perf_counter() - t0)
        elif status != 409:
            tally.errors += 1
        return []
    await ws.send_str(json.dumps({"type": "move", "id": state["seq"], "move": move}))
    states = []
    while True:
        msg = json.loads(await ws.receive_str())
        kind = msg.get("type")
        if kind == "state":
            states.append(msg["state"])
        elif kind == "answer":
            break
        elif kind == "error":  # the server closed the socket
            tally.errors += 1
            return states
    if msg.get("ok") is True:
        tally.record(time.perf_counter() - t0)
    elif msg.get("status") != 409:  # 409: a state crossed the move on the wire; it comes
        tally.errors += 1
    return states


# -- between people ------------------------------------------------------------------------


class MoveFinder:
    """A client's own move search: the compiled generator on the view's board and rack."""

    def __init__(self) -> None:
        from tessera.lexicon import Lexicon
        from tessera.rules import preset

        self.lexicon = Lexicon.load("enable")
        self.rules = preset("woogles")

    def body(self, state: dict[str, Any]) -> dict[str, Any]:
        from tessera.board import Board
        from tessera.move import Play
        from tessera.movegen import generate_moves

        if state["state"] == "awaiting_final":
            return {"action": "pass"}
        alphabet = self.rules.tileset.alphabet
        board = Board(self.rules.layout)
        for r, row in enumerate(state["board"]):
            for c, label in enumerate(row):
                if label:
                    board.set(r, c, alphabet.parse(label)[0])
        moves = generate_moves(board, "".join(state["rack"]), self.lexicon, self.rules, top=1)
        play = next((m for m in moves if isinstance(m, Play)), None)
        if play is None:
            if state["bag_count"] >= 7:
                return {"action": "exchange", "tiles": "".join(state["rack"])}
            return {"action": "pass"}
        return {
            "action": "play",
            "placements": [[r, c, alphabet.label(t)] for r, c, t in play.placements],
        }


async def people_pair(
    url: str,
    connector: aiohttp.BaseConnector,
    rng: random.Random,
    tally: Tally,
    pause: tuple[float, float],
    stop: asyncio.Event,
    finder: MoveFinder,
    index: int,
    moves: str,
) -> None:
    async with device(url, connector) as a, device(url, connector) as b:
        for http, name in ((a, f"A{index}"), (b, f"B{index}")):
            status, _ = await post(http, "/api/guest", {"name": name})
            if status != 201:
                tally.errors += 1
                return
        while not stop.is_set():
            status, made = await post(
                a, "/api/seeks", {"rules": "woogles", "initial_min": 30, "invite": True}
            )
            status2, taken = (
                (0, {})
                if status != 201
                else await post(b, f"/api/seeks/{made['seek']['id']}/accept", {})
            )
            if status != 201 or status2 != 201:
                tally.errors += 1
                await asyncio.sleep(1)
                continue
            gid = taken["game_id"]
            async with (
                a.ws_connect(f"/api/games/{gid}/ws") as wa,
                b.ws_connect(f"/api/games/{gid}/ws") as wb,
            ):
                await wa.send_str("{}")
                await wb.send_str("{}")
                via_a, via_b = (a, b) if moves == "http" else (None, None)
                await asyncio.gather(
                    seat_loop(wa, via_a, gid, rng, tally, pause, stop, finder),
                    seat_loop(wb, via_b, gid, rng, tally, pause, stop, finder),
                )
            tally.games += tally.counting


async def seat_loop(
    ws: aiohttp.ClientWebSocketResponse,
    http: aiohttp.ClientSession | None,
    gid: str,
    rng: random.Random,
    tally: Tally,
    pause: tuple[float, float],
    stop: asyncio.Event,
    finder: MoveFinder,
) -> None:
    """One player's side: wait for the turn on the socket, think, move; the opponent's move
    arriving here is timed from when it was sent (``Tally.side``)."""
    sent_at: dict[int, float] = SENT.setdefault(gid, {})
    backlog: list[dict[str, Any]] = []
    while not stop.is_set():
        state = backlog.pop(0) if backlog else await next_state(ws)
        seq = state["seq"]
        if seq - 1 in sent_at and state["to_move"] == state["seat"]:
            tally.side(time.perf_counter() - sent_at.pop(seq - 1))
        if state["state"] in ("over", "aborted"):
            SENT.pop(gid, None)
            return
        if state["to_move"] != state["seat"]:
            continue
        await think(rng, pause)
        body = finder.body(state)
        sent_at[seq] = time.perf_counter()
        backlog.extend(await send_move(ws, http, gid, state, body, tally))


SENT: dict[str, dict[int, float]] = {}  # game -> seq of a move -> when it was sent


# -- review simulations beside the games ---------------------------------------------------


async def simulation_stream(url: str, index: int, tally: Tally, stop: asyncio.Event) -> None:
    """A person reviewing a game, turn after turn simulated ("Simulate every turn"), from a
    loopback address of its own (the server limits simulations per client address): one
    request at a time, each started a little over 60 / SIMS_PER_MINUTE s after the one
    before."""
    text = REVIEWED.read_text(encoding="utf-8")
    connector = aiohttp.TCPConnector(limit=1, local_addr=(f"127.0.0.{index + 2}", 0))
    gap = 1.05 * 60.0 / SIMS_PER_MINUTE  # a little under the limit, whatever the window
    turn = 0
    try:
        async with device(url, connector) as http:
            while not stop.is_set():
                n, turn = turn, turn + 1
                t0 = time.perf_counter()
                body = {"gcg": text, "turn": REVIEWED_TURNS[n % len(REVIEWED_TURNS)]}
                status, _ = await post(http, "/api/review/simulate", body)
                took = time.perf_counter() - t0
                if status == 200:
                    tally.simulated(took)
                elif tally.counting:
                    tally.errors += 1
                await asyncio.sleep(max(0.0, gap - took))
    finally:
        await connector.close()


# -- running a level -----------------------------------------------------------------------


async def run_level(
    url: str,
    mode: str,
    games: int,
    seconds: float,
    pause: tuple[float, float],
    seed: int,
    moves: str = "socket",
    sims: int = 0,
) -> dict[str, float]:
    tally = Tally()
    stop = asyncio.Event()
    gc.collect()
    gc.disable()  # see the module's docstring; a level is bounded in time, so is its garbage
    try:
        return await _run_level(
            url, mode, games, seconds, pause, seed, tally, stop, moves, sims
        )
    finally:
        gc.enable()
        gc.collect()


async def _run_level(
    url: str,
    mode: str,
    games: int,
    seconds: float,
    pause: tuple[float, float],
    seed: int,
    tally: Tally,
    stop: asyncio.Event,
    moves: str,
    sims: int,
) -> dict[str, float]:
    connector = aiohttp.TCPConnector(limit=0)
    finder = MoveFinder() if mode == "people" else None
    tasks = []
    for i in range(games):
        rng = random.Random(seed * 100_003 + i)
        if finder is None:
            job = computer_client(url, connector, rng, tally, pause, stop, moves)
        else:
            job = people_pair(url, connector, rng, tally, pause, stop, finder, i, moves)
        tasks.append(asyncio.create_task(job))
    await asyncio.sleep(min(20.0, 2 + games / 40) + pause[1])  # every game under way
    tasks += [asyncio.create_task(simulation_stream(url, i, tally, stop)) for i in range(sims)]
    tally.counting = True
    cpu0 = _cpu_seconds()
    own0 = time.process_time()
    t0 = time.perf_counter()
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - t0
    cpu = _cpu_seconds() - cpu0
    own = time.process_time() - own0
    tally.counting = False
    stop.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await connector.close()
    return {
        "games": games,
        "sims": sims,
        "sims_per_s": len(tally.sim_ms) / elapsed,
        "sim_p50_ms": percentile(tally.sim_ms, 0.50),
        "moves_per_s": tally.moves / elapsed,
        "move_p50_ms": percentile(tally.move_ms, 0.50),
        "move_p99_ms": percentile(tally.move_ms, 0.99),
        "side_p50_ms": percentile(tally.side_ms, 0.50),
        "side_p99_ms": percentile(tally.side_ms, 0.99),
        "errors": tally.errors,
        "server_cores": cpu / elapsed,
        "client_cores": own / elapsed,  # this load generator's own share of the machine
    }


_server_pids: list[int] = []


def _descendants(pid: int) -> list[int]:
    children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    found = [int(p) for p in children.stdout.split()]
    return found + [d for child in found for d in _descendants(child)]


def _cpu_seconds() -> float:
    """CPU time used so far by the server's processes (all their threads), its analysis
    workers among them (started when the first analysis is asked for)."""
    total = 0.0
    pids = _server_pids[:1] + _descendants(_server_pids[0]) if _server_pids else []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


@contextmanager
def server(database: str, workers: int = 1) -> Iterator[str]:
    port = free_port()
    cmd = [
        str(TESSERA),
        "serve",
        "--port",
        str(port),
        "--database",
        database,
        "--bot-delay",
        "0",
        "--games-per-minute",
        "100000",
        "--ws-per-client",
        "100000",
        "--moves-per-minute",
        "100000",
        "--workers",
        str(workers),
    ]
    log = tempfile.NamedTemporaryFile(prefix="tessera-load-", suffix=".log", delete=False)
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(url + "/api/meta", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"tessera serve did not start; see {log.name}")
        time.sleep(0.2)
    time.sleep(1 if workers > 1 else 0)  # every worker up
    children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True)
    _server_pids[:] = [proc.pid, *(int(p) for p in children.stdout.split())]
    try:
        yield url
    finally:
        _server_pids.clear()
        proc.terminate()
        proc.wait(timeout=30)


@contextmanager
def database(kind: str) -> Iterator[str]:
    if kind == "sqlite":
        with tempfile.TemporaryDirectory(prefix="tessera-load-") as folder:
            yield f"sqlite:///{folder}/load.db"
    else:
        with throwaway_postgres() as url:
            yield url


def report(title: str, mode: str, rows: list[dict[str, float]]) -> None:
    side = "hint" if mode == "computer" else "deliver"
    print(f"\n{title}:")
    print(
        f"{'games':>6} {'sims':>4} {'sims/s':>6} {'sim p50':>9} {'moves/s':>8} {'move p50':>9} "
        f"{'move p99':>9} {side + ' p50':>12} {side + ' p99':>12} {'server cores':>12} "
        f"{'client cores':>12} {'errors':>6}"
    )
    for r in rows:
        print(
            f"{r['games']:>6} {r['sims']:>4} {r['sims_per_s']:>6.2f} {r['sim_p50_ms']:>7.0f}ms "
            f"{r['moves_per_s']:>8.1f} {r['move_p50_ms']:>7.1f}ms "
            f"{r['move_p99_ms']:>7.1f}ms {r['side_p50_ms']:>10.1f}ms "
            f"{r['side_p99_ms']:>10.1f}ms {r['server_cores']:>12.2f} {r['client_cores']:>12.2f} "
            f"{r['errors']:>6}",
            flush=True,
        )


def fresh_level(
    kind: str,
    workers: int,
    mode: str,
    games: int,
    seconds: float,
    pause: tuple[float, float],
    seed: int,
    moves: str,
    sims: int = 0,
) -> dict[str, float]:
    """One level against a new database and server: N games means N, not N plus the games
    an earlier level left behind (abandoned, their clocks still running)."""
    with database(kind) as url_db, server(url_db, workers) as url:
        return asyncio.run(run_level(url, mode, games, seconds, pause, seed, moves, sims))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", default="computer", help="computer, people or both")
    parser.add_argument("--db", default="sqlite,postgres")
    parser.add_argument("--games", default="10,50,100,200,500")
    parser.add_argument("--pace", default="people,saturation")
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--workers", default="1", help="comma-separated process counts")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--moves",
        default="socket",
        help="socket (as the page moves), http (POST /move, as it did before), or both: "
        "each level runs once each way",
    )
    parser.add_argument(
        "--sims",
        default="0,2",
        help="comma-separated counts of review simulation streams running during the "
        "measurement (each level runs once per count)",
    )
    args = parser.parse_args(
        argv if argv is not None else sys.argv[2:] if sys.argv[1:2] == ["load"] else sys.argv[1:]
    )
    levels = [int(n) for n in args.games.split(",")]
    for mode in args.mode.split(","):
        for kind in args.db.split(","):
            for workers in (int(w) for w in args.workers.split(",")):
                if workers > 1 and kind != "postgres":
                    continue
                for pace in args.pace.split(","):
                    pause = (2.0, 6.0) if pace == "people" else (0.0, 0.0)
                    for moves in args.moves.replace("both", "socket,http").split(","):
                        rows = [
                            fresh_level(
                                kind, workers, mode, n, args.seconds, pause, args.seed, moves,
                                sims,
                            )
                            for n in levels
                            for sims in (int(k) for k in args.sims.split(","))
                        ]
                        report(
                            f"{mode} games, {kind}, {workers} process(es), {pace} pace, "
                            f"moves over {moves}",
                            mode,
                            rows,
                        )
                        alone = [r for r in rows if r["sims"] == rows[0]["sims"]]
                        if pace == "saturation" and len(alone) > 1:
                            print(
                                f"  throughput at {alone[-1]['games']} games / at "
                                f"{alone[0]['games']}: "
                                f"{alone[-1]['moves_per_s'] / alone[0]['moves_per_s']:.2f}"
                            )


if __name__ == "__main__":
    main()
