"""Load on a real ``tessera serve``: N concurrent games of scripted clients over loopback.

Each client plays a game against the server's computer as the page does: it creates a game,
opens the game's WebSocket, waits for its turn there, asks for hints, plays the best one (or
exchanges, or passes), and starts a new game when one ends. Two models:

- **people**: each client pauses a seeded random 2–6 s before each move (a person thinking);
  the figures that matter are the round trips (p50/p99 of an acknowledged move, from sending
  it to its answer) at each N.
- **saturation**: no pauses; the figure is the most acknowledged moves per second the server
  gives, and whether it holds as clients are added.

The load generator shares the machine with the server (2 cores here), so saturation figures
are the pair's, not the server's alone.

    python -m benchmarks load                          # SQLite and PostgreSQL, both models
    python -m benchmarks.load --db sqlite --games 10,100 --seconds 30 --model people
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from support.throwaway_postgres import throwaway_postgres

TESSERA = Path(sys.executable).with_name("tessera")
LEVEL = "level3"  # the computer opponent: a static player, cheap enough for hundreds of games
H = "X-Tessera-Token"


@dataclass
class Tally:
    moves: int = 0
    games: int = 0
    move_ms: list[float] = field(default_factory=list)
    hint_ms: list[float] = field(default_factory=list)
    errors: int = 0
    counting: bool = False

    def record(self, move_s: float, hint_s: float) -> None:
        if self.counting:
            self.moves += 1
            self.move_ms.append(move_s * 1000)
            self.hint_ms.append(hint_s * 1000)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def play_games(
    url: str,
    http: aiohttp.ClientSession,
    rng: random.Random,
    tally: Tally,
    pause: tuple[float, float],
    stop: asyncio.Event,
) -> None:
    """One client: game after game until ``stop``."""
    ws_url = url.replace("http", "ws")
    while not stop.is_set():
        async with http.post(
            "/api/games",
            json={
                "players": [
                    {"name": "Load", "kind": "human"},
                    {"name": "Bot", "kind": "computer", "level": LEVEL},
                ]
            },
        ) as r:
            if r.status != 201:
                tally.errors += 1
                await asyncio.sleep(1)
                continue
            created = await r.json()
        gid, tok = created["id"], created["token"]
        async with http.ws_connect(f"{ws_url}/api/games/{gid}/ws", timeout=60) as ws:
            await ws.send_str(json.dumps({"token": tok}))
            while not stop.is_set():
                state = json.loads(await ws.receive_str())["state"]
                if state["state"] == "over":
                    tally.games += tally.counting
                    break
                if state["to_move"] != state["seat"]:
                    continue
                if pause[1]:
                    await asyncio.sleep(rng.uniform(*pause))
                await take_turn(http, gid, tok, state, tally)


async def take_turn(
    http: aiohttp.ClientSession, gid: str, tok: str, state: dict, tally: Tally
) -> None:
    seat = state["seat"]
    t0 = time.perf_counter()
    if state["state"] == "awaiting_final":
        body: dict = {"action": "pass"}
    else:
        async with http.post(
            f"/api/games/{gid}/hints", headers={H: tok}, json={"seat": seat}
        ) as hints:
            found = (await hints.json()).get("hints") if hints.status == 200 else None
        if found:
            body = {"action": "play", "placements": found[0]["placements"]}
        elif state["bag_count"] >= 7:
            body = {"action": "exchange", "tiles": "".join(state["rack"])}
        else:
            body = {"action": "pass"}
    t1 = time.perf_counter()
    async with http.post(
        f"/api/games/{gid}/move", headers={H: tok}, json={"seat": seat, "seq": state["seq"], **body}
    ) as r:
        await r.read()
        status = r.status
    t2 = time.perf_counter()
    if status == 200:
        tally.record(t2 - t1, t1 - t0)
    elif status != 409:  # 409: a state crossed the move on the wire; the next one comes
        tally.errors += 1


async def run_level(
    url: str, games: int, seconds: float, pause: tuple[float, float], seed: int
) -> dict[str, float]:
    tally = Tally()
    stop = asyncio.Event()
    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=120)
    async with aiohttp.ClientSession(url, connector=connector, timeout=timeout) as http:
        tasks = [
            asyncio.create_task(
                play_games(url, http, random.Random(seed * 100_003 + i), tally, pause, stop)
            )
            for i in range(games)
        ]
        await asyncio.sleep(min(10.0, 2 + games / 50) + (pause[1] if pause[1] else 0))  # ramp
        tally.counting = True
        cpu0 = _cpu_seconds()
        t0 = time.perf_counter()
        await asyncio.sleep(seconds)
        elapsed = time.perf_counter() - t0
        cpu = _cpu_seconds() - cpu0
        tally.counting = False
        stop.set()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "games": games,
        "moves_per_s": tally.moves / elapsed,
        "move_p50_ms": percentile(tally.move_ms, 0.50),
        "move_p99_ms": percentile(tally.move_ms, 0.99),
        "hint_p50_ms": percentile(tally.hint_ms, 0.50),
        "hint_p99_ms": percentile(tally.hint_ms, 0.99),
        "errors": tally.errors,
        "server_cores": cpu / elapsed if cpu >= 0 else float("nan"),
    }


_server_pid: int | None = None


def _cpu_seconds() -> float:
    """CPU time used so far by the server process (all its threads)."""
    if _server_pid is None:
        return -1.0
    with open(f"/proc/{_server_pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def server(database: str, workers: int = 1) -> Iterator[str]:
    global _server_pid
    port = _free_port()
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
    ]
    if workers > 1:
        cmd += ["--workers", str(workers)]
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
    _server_pid = proc.pid
    try:
        yield url
    finally:
        _server_pid = None
        proc.terminate()
        proc.wait(timeout=30)


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def database(kind: str) -> Iterator[str]:
    if kind == "sqlite":
        with tempfile.TemporaryDirectory(prefix="tessera-load-") as folder:
            yield f"sqlite:///{folder}/load.db"
    else:
        with throwaway_postgres() as url:
            yield url


def report(kind: str, model: str, rows: list[dict[str, float]]) -> None:
    print(f"\n{kind}, {model}:")
    print(
        f"{'games':>6} {'moves/s':>8} {'move p50':>9} {'move p99':>9} {'hint p50':>9} "
        f"{'hint p99':>9} {'server cores':>12} {'errors':>6}"
    )
    for r in rows:
        print(
            f"{r['games']:>6} {r['moves_per_s']:>8.1f} {r['move_p50_ms']:>7.1f}ms "
            f"{r['move_p99_ms']:>7.1f}ms {r['hint_p50_ms']:>7.1f}ms {r['hint_p99_ms']:>7.1f}ms "
            f"{r['server_cores']:>12.2f} {r['errors']:>6}",
            flush=True,
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default="sqlite,postgres")
    parser.add_argument("--games", default="10,50,100,200,500")
    parser.add_argument("--model", default="people,saturation")
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(
        argv if argv is not None else sys.argv[2:] if sys.argv[1:2] == ["load"] else sys.argv[1:]
    )
    levels = [int(n) for n in args.games.split(",")]
    for kind in args.db.split(","):
        with database(kind) as url_db, server(url_db, args.workers) as url:
            for model in args.model.split(","):
                pause = (2.0, 6.0) if model == "people" else (0.0, 0.0)
                rows = []
                for n in levels:
                    rows.append(asyncio.run(run_level(url, n, args.seconds, pause, args.seed)))
                report(f"{kind}, {args.workers} process(es)", model, rows)
                if model == "saturation" and len(rows) > 1:
                    print(
                        f"  throughput at {rows[-1]['games']} games / at {rows[0]['games']}: "
                        f"{rows[-1]['moves_per_s'] / rows[0]['moves_per_s']:.2f}"
                    )


if __name__ == "__main__":
    main()
