"""Analysis never delays moves (issue 36, point 7): reviews, their simulations and the
analysis board run on a bounded pool of their own (``hub.analysis``, server/pools.py,
``config.analysis_workers``): processes at a lower priority. With every analysis worker
held by a slow job and review simulations queued behind them, a move still completes at
once; with the same jobs on the moves' own threads (the arrangement before), it waits."""

from __future__ import annotations

import os
import socket
import tempfile
import time
from concurrent.futures import Future
from pathlib import Path

import httpx
import pytest
from helpers import HUMANS, new_game, state, take_turn
from threadserver import ThreadServer

from tessera.server.app import create_app
from tessera.server.config import ServerConfig
from tessera.server.hub import Hub
from tessera.server.pools import ANALYSIS_NICE
from tessera.server.storage import Storage

pytestmark = pytest.mark.hardening  # an attack the server withstands (pytest -m hardening)

GCG = (Path(__file__).resolve().parents[1] / "data" / "gcg" / "reference_game.gcg").read_text(
    encoding="utf-8"
)
PROMPT_S = 3.0  # a move's round trip, at most, on a busy test machine (unloaded: ~10 ms)
CONFIG = ServerConfig(
    bot_delay_s=0,
    analysis_workers=2,
    reviews_at_once=100,  # queued on the pool, not refused: the pool is what bounds them
    simulations_per_minute=1000,
)


def hold(started: str, release: str) -> None:
    """Analysis work that holds its worker: it says it has started, then waits for the
    release (files: it may run in another process)."""
    tempfile.mkstemp(dir=started)
    deadline = time.monotonic() + 60
    while not Path(release).exists() and time.monotonic() < deadline:
        time.sleep(0.01)


@pytest.mark.parametrize("shared", [False, True], ids=["own pool", "moves' threads (before)"])
def test_a_move_completes_promptly_while_analysis_holds_every_analysis_worker(
    sqlite_db: str, tmp_path: Path, shared: bool
) -> None:
    hub = Hub(Storage(sqlite_db), CONFIG)
    if shared:  # the arrangement before: reviews and the analysis board on the moves' threads
        hub.analysis.shutdown()
        hub.analysis = hub.cpu  # type: ignore[assignment]
    workers = hub.analysis._max_workers  # type: ignore[attr-defined]
    started, release = tmp_path / "started", tmp_path / "release"
    started.mkdir()
    with ThreadServer(create_app(sqlite_db, config=CONFIG, hub=hub)) as server:
        held: list[Future[None]] = []
        try:
            with httpx.Client(base_url=server.url, timeout=PROMPT_S) as player:
                gid = new_game(player, players=HUMANS)
                held = [hub.analysis.submit(hold, str(started), str(release))
                        for _ in range(workers)]
                deadline = time.monotonic() + 30  # a worker process starts in a second or two
                while len(os.listdir(started)) < workers:
                    assert time.monotonic() < deadline, "the analysis workers did not start"
                    time.sleep(0.02)
                # two more analysis jobs (review simulations, say) queue behind them
                sims = [
                    hub.analysis.submit(hold, str(started), str(release)) for _ in range(2)
                ]
                if shared:
                    with pytest.raises(httpx.TimeoutException):
                        take_turn(player, gid, state(player, gid))
                    return
                for _ in range(4):
                    began = time.perf_counter()
                    take_turn(player, gid, state(player, gid))
                    assert time.perf_counter() - began < PROMPT_S
                assert not any(f.done() for f in sims)  # still queued: the pool is bounded
                with httpx.Client(base_url=server.url, timeout=60) as reviewer:
                    release.touch()
                    r = reviewer.post("/api/review/simulate", json={"gcg": GCG, "turn": 1})
                    assert r.status_code == 200 and r.json()["sim_moves"], r.text
        finally:
            release.touch()
            for f in held:
                f.result(60)


def test_analysis_workers_yield_the_cores_to_moves(sqlite_db: str) -> None:
    """Analysis and moves wanting the same core: the scheduler gives it to the move."""
    hub = Hub(Storage(sqlite_db), ServerConfig(analysis_workers=1))
    try:
        mine = os.nice(0)
        assert hub.analysis.submit(os.nice, 0).result(60) == min(19, mine + ANALYSIS_NICE)
        assert hub.cpu.submit(os.nice, 0).result() == mine
    finally:
        for pool in (hub.cpu, hub.think, hub.analysis):
            pool.shutdown()
        hub.storage.close()


def test_serve_takes_the_analysis_pool_and_downtime_settings(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`tessera serve --analysis-workers N --charge-downtime` reaches the app's settings."""
    from click.testing import CliRunner

    from tessera.server import app as app_module
    from tessera.server.cli import serve

    def free_port() -> int:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            return int(probe.getsockname()[1])

    seen: list[ServerConfig] = []

    def capture(database: str, config: ServerConfig) -> None:
        seen.append(config)
        raise ImportError("captured")  # serve reports it and stops before serving

    monkeypatch.setattr(app_module, "create_app", capture)
    db = f"sqlite:///{tmp_path / 'g.db'}"
    args = ["--port", str(free_port()), "--database", db]
    CliRunner().invoke(serve, [*args, "--analysis-workers", "3", "--charge-downtime"])
    CliRunner().invoke(serve, args)
    assert [(c.analysis_workers, c.charge_downtime) for c in seen] == [
        (3, True),
        (ServerConfig().analysis_workers, False),
    ]
