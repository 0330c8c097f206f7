"""Soak: a real ``tessera serve`` through many finished games; its memory must stay flat.

Clients (20 at once) each start a game against the computer, make a few moves through the
page's API and resign, again and again. The server's resident memory is read from /proc after
every 500 finished games. Finished games leave memory once nobody watches them, so after the
first few thousand games the figure should stop growing.

    python -m benchmarks soak               # 10,000 games, SQLite
    python -m benchmarks.soak --games 2000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

import aiohttp

from benchmarks.load import database, device, post, server

CLIENTS = 20
MOVES_PER_GAME = 3
SAMPLE_EVERY = 500


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def one_game(http: aiohttp.ClientSession) -> None:
    players = [
        {"name": "Soak", "kind": "human"},
        {"name": "Bot", "kind": "computer", "level": "level1"},
    ]
    status, created = await post(http, "/api/games", {"players": players})
    assert status == 201, created
    gid = created["id"]
    async with http.ws_connect(f"/api/games/{gid}/ws") as ws:
        await ws.send_str("{}")
        moves = 0
        while True:
            state = json.loads(await ws.receive_str())["state"]
            if state["state"] == "over":
                return
            if state["to_move"] != state["seat"]:
                continue
            seat = state["seat"]
            body: dict = {"action": "resign"}
            if moves < MOVES_PER_GAME and state["state"] == "playing":
                _, found = await post(http, f"/api/games/{gid}/hints", {"seat": seat})
                hints = found.get("hints") or []
                body = (
                    {"action": "play", "placements": hints[0]["placements"]}
                    if hints
                    else {"action": "pass"}
                )
            moves += 1
            await post(http, f"/api/games/{gid}/move", {"seat": seat, **body})


async def soak(url: str, pids: list[int], games: int) -> list[tuple[int, float]]:
    samples = [(0, rss_mb(pids[0]))]
    started = done = 0
    connector = aiohttp.TCPConnector(limit=0)

    async def client() -> None:
        nonlocal started, done
        async with device(url, connector) as http:
            while started < games:
                started += 1  # one event loop: no other client runs between test and count
                await one_game(http)
                done += 1
                if done % SAMPLE_EVERY == 0:
                    samples.append((done, rss_mb(pids[0])))
                    print(f"{done:>7} games  server RSS {samples[-1][1]:7.1f} MB", flush=True)

    await asyncio.gather(*(client() for _ in range(CLIENTS)))
    await connector.close()
    return samples


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--db", default="sqlite", choices=["sqlite", "postgres"])
    args = parser.parse_args(
        argv if argv is not None else sys.argv[2:] if sys.argv[1:2] == ["soak"] else sys.argv[1:]
    )
    from benchmarks import load

    with database(args.db) as db, server(db) as url:
        samples = asyncio.run(soak(url, list(load._server_pids), args.games))
    settled = [mb for n, mb in samples if n >= min(2000, args.games // 2)]
    if len(settled) >= 2:
        growth = settled[-1] - settled[0]
        print(
            f"after {samples[-1][0]} games: {samples[-1][1]:.1f} MB; from game "
            f"{min(2000, args.games // 2)} on the server grew {growth:+.1f} MB "
            f"({100 * growth / settled[0]:+.1f}%)"
        )


if __name__ == "__main__":
    main()
