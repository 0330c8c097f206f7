"""No move after the flag (issue 36, points 1 and 14; R7.3): a move that arrives after the
mover's time and maximum overtime are used up, by the server's clock, is refused and the
game is lost on time, whether the game is in memory, was dropped from it, or the server was
restarted; an overdue game is decided when first touched or by the sweep; and the time no
server was running is not charged to the player on move (unless the setting says so)."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

import httpx
import pytest
from helpers import PASSWORD, state
from serverproc import ServerProcess
from threadserver import ThreadServer

from support.asyncthread import run_in_thread
from tessera.legality import IllegalMove, Reason
from tessera.server.accounts import Accounts, User
from tessera.server.app import create_app
from tessera.server.config import ServerConfig
from tessera.server.downtime import overlap_ms
from tessera.server.hub import Hub
from tessera.server.storage import Seat, Storage

pytestmark = pytest.mark.hardening  # an attack the server withstands (pytest -m hardening)

FAST = ServerConfig(bot_delay_s=0, think_s=0.05, idle_game_s=0)
ANN, BOB = User("u1", "Ann", "user"), User("u2", "Bob", "user")
SEATS = [Seat("Ann", "human", None, "u1"), Seat("Bob", "human", None, "u2")]


def short_game(store: Storage, initial_ms: int) -> str:
    """A game between people whose first player has ``initial_ms`` and no overtime."""
    clock = {"initial_ms": initial_ms, "increment_ms": 0, "max_overtime_min": 0}
    return store.create_game("woogles", "enable", 5, SEATS, clock=clock, online=True)


def lost_on_time(store: Storage, gid: str, loser: int) -> None:
    record = store.load(gid)
    assert record is not None and record.status == "over"
    assert [a.kind for a in record.actions] == ["time_expired"]
    assert record.actions[0].player == loser


def test_a_late_move_in_a_live_game_is_refused_and_lost_on_time(db: str) -> None:
    """The game is in memory and its timer is late (a busy server): the pass that comes
    after the flag is refused with out_of_time, and the loss on time is recorded instead."""
    store = Storage(db)
    gid = short_game(store, 400)

    async def run() -> None:
        hub = Hub(store, FAST)
        session = await hub.session(gid)
        assert session.clock_timer is not None
        session.clock_timer.cancel()  # the timer has not fired yet
        await asyncio.sleep(0.6)
        with pytest.raises(IllegalMove) as err:
            await hub.act(gid, ANN, {"seat": 0, "action": "pass"})
        assert err.value.reason is Reason.OUT_OF_TIME
        assert session.game.result is not None
        assert session.game.result.reason.value == "timeout_forfeit"
        assert session.game.result.loser == 0
        view = session.game.spectator_view()
        assert view.clocks_ms == (0, 400)  # flagged: exactly minus the maximum overtime (0)
        await hub.close()

    run_in_thread(run)
    lost_on_time(store, gid, 0)


def test_a_game_dropped_from_memory_is_decided_on_time_before_a_late_move(db: str) -> None:
    """Evicted (nobody watched it), then a pass after the deadline: the game is rebuilt,
    decided on time at once, and the pass refused; not a pass 2–18 s past the deadline."""
    store = Storage(db)
    # 1.5 s on the clock: a loaded machine may take most of a second to load the session,
    # and the game must still be live when it is evicted
    gid = short_game(store, 1_500)

    async def run() -> None:
        hub = Hub(store, FAST)
        await hub.session(gid)
        assert hub.evict_idle() == 1 and gid not in hub.sessions
        await asyncio.sleep(1.7)
        with pytest.raises(IllegalMove) as err:
            await hub.act(gid, ANN, {"seat": 0, "action": "pass"})
        assert err.value.reason in (Reason.GAME_OVER, Reason.OUT_OF_TIME)
        await hub.close()

    run_in_thread(run)
    lost_on_time(store, gid, 0)


def test_the_first_touch_decides_an_overdue_game(db: str) -> None:
    """Nobody held the game when its clock ran out: the first request for it (a page
    loading it) finds it already lost on time."""
    store = Storage(db)
    gid = short_game(store, 200)
    time.sleep(0.4)

    async def run() -> None:
        hub = Hub(store, FAST)
        session = await hub.session(gid)
        assert session.over and session.game.result is not None
        assert session.game.result.reason.value == "timeout_forfeit"
        assert '"state":"over"' in hub.state_text(session, frozenset({1}))
        await hub.close()

    run_in_thread(run)
    lost_on_time(store, gid, 0)


def test_the_sweep_decides_an_overdue_game_that_nobody_touches(sqlite_db: str) -> None:
    store = Storage(sqlite_db)
    gid = short_game(store, 200)
    time.sleep(0.4)

    async def run() -> None:
        hub = Hub(store, FAST)
        await hub.sweep()
        lost_on_time(store, gid, 0)  # decided by the time the sweep returns
        await hub.close()

    run_in_thread(run)
    assert store.overdue(int(time.time() * 1000)) == []


def test_a_late_move_after_a_server_restart_is_refused(tmp_path: Path) -> None:
    """A real server killed mid-turn and started again: the pass sent after the deadline is
    refused and the game is lost on time (the restart was too short to be an outage)."""
    db = tmp_path / "games.db"
    with httpx.Client(timeout=30) as a:
        server = ServerProcess(db).start()
        try:
            a.base_url = httpx.URL(server.url)
            r = a.post("/api/register", json={"username": "ann_36", "password": PASSWORD})
            assert r.status_code == 201, r.text
            store = Storage(f"sqlite:///{db}")
            ann = Accounts(store).by_name("ann_36")
            assert ann is not None
            seats = [Seat("ann_36", "human", None, ann.id), Seat("Bob", "human", None, "u2")]
            clock = {"initial_ms": 2_500, "increment_ms": 0, "max_overtime_min": 0}
            gid = store.create_game("woogles", "enable", 5, seats, clock=clock, online=True)
            created = time.monotonic()
            assert state(a, gid)["to_move"] == 0  # the server holds the game
            server.kill(signal.SIGKILL)
            server = ServerProcess(db, port=server.port).start()
            time.sleep(max(0.0, created + 3.0 - time.monotonic()))  # past the flag
            r = a.post(f"/api/games/{gid}/move", json={"seat": 0, "action": "pass"})
            assert r.status_code == 200 and not r.json()["ok"], r.text
            assert r.json()["reason"] in ("game_over", "out_of_time")
            s = state(a, gid)
            assert s["state"] == "over" and s["result"]["reason"] == "timeout_forfeit"
            assert s["clocks_ms"][0] == 0  # never below minus the maximum overtime
        finally:
            server.kill(signal.SIGTERM)
    lost_on_time(Storage(f"sqlite:///{db}"), gid, 0)


# -- downtime ------------------------------------------------------------------------------


def _time_on_turn_after_downtime(
    db: str, config: ServerConfig, down_s: float
) -> tuple[int, int, int]:
    """A game's first turn runs on one server, no server runs for ``down_s``, another
    starts: the time on the turn it counts, the time some server was up since the game was
    created, and the time from the first server's last heartbeat to the second's start, all
    in ms (measured: a loaded machine starts and stops hubs slowly, and that time is up time)."""
    store = Storage(db)
    marks: dict[str, float] = {}

    async def before() -> str:
        hub = Hub(store, config)
        await hub.start()  # its heartbeat
        gid = short_game(store, 60_000)
        marks["created"] = time.monotonic()
        await hub.session(gid)
        await asyncio.sleep(0.2)
        await asyncio.to_thread(hub.downtime.beat)
        marks["last_beat"] = time.monotonic()
        await hub.close()
        marks["down"] = time.monotonic()
        return gid

    gid = run_in_thread(before)
    time.sleep(down_s)

    async def after() -> int:
        marks["starting"] = time.monotonic()
        hub = Hub(store, config)
        await hub.start()
        marks["started"] = time.monotonic()
        session = await hub.session(gid)
        elapsed = hub.actions.elapsed(session)
        marks["asked"] = time.monotonic()
        await hub.close()
        assert elapsed is not None
        return elapsed

    elapsed = run_in_thread(after)
    up = (marks["down"] - marks["created"]) + (marks["asked"] - marks["starting"])
    gap = marks["started"] - marks["last_beat"]
    return elapsed, round(1000 * up), round(1000 * gap)


def test_the_time_no_server_ran_is_not_charged(db: str) -> None:
    config = ServerConfig(bot_delay_s=0, think_s=0.05, heartbeat_s=0.1)
    elapsed, up_ms, gap_ms = _time_on_turn_after_downtime(db, config, 1.5)
    # the time a hub was up (0.2 s of play on a quiet machine) and a heartbeat's tolerance,
    # not the 1.5 s down
    assert elapsed <= up_ms + 300, (elapsed, up_ms)
    assert elapsed < 1_400
    store = Storage(db)
    (start, end), = store.outages(0)
    assert 1_400 <= end - start <= gap_ms + 300, (end - start, gap_ms)


def test_downtime_is_charged_when_the_setting_says_so(sqlite_db: str) -> None:
    config = ServerConfig(bot_delay_s=0, think_s=0.05, heartbeat_s=0.1, charge_downtime=True)
    elapsed, _, _ = _time_on_turn_after_downtime(sqlite_db, config, 1.5)
    assert elapsed >= 1_700
    assert Storage(sqlite_db).outages(0) == []


def test_a_served_app_beats_while_up_and_is_spared_only_the_time_it_was_down(
    sqlite_db: str,
) -> None:
    """Two servers one after the other on one database, 1.5 s up then 1.5 s down: the turn
    is charged the time a server was up (its heartbeat ran meanwhile), not the outage."""
    config = ServerConfig(bot_delay_s=0, think_s=0.05, heartbeat_s=0.1)
    with ThreadServer(create_app(sqlite_db, config=config)) as server:
        with httpx.Client(base_url=server.url, timeout=30) as a:
            r = a.post("/api/register", json={"username": "ann_36", "password": PASSWORD})
            assert r.status_code == 201, r.text
            store = Storage(sqlite_db)
            ann = Accounts(store).by_name("ann_36")
            assert ann is not None
            seats = [Seat("ann_36", "human", None, ann.id), Seat("Bob", "human", None, "u2")]
            clock = {"initial_ms": 60_000, "increment_ms": 0, "max_overtime_min": 0}
            gid = store.create_game("woogles", "enable", 5, seats, clock=clock, online=True)
            created = time.monotonic()
            time.sleep(1.5)
            cookies = dict(a.cookies)
    first_down = time.monotonic()
    time.sleep(1.5)
    second_up = time.monotonic()
    with ThreadServer(create_app(sqlite_db, config=config)) as server:
        with httpx.Client(base_url=server.url, timeout=30, cookies=cookies) as a:
            elapsed = state(a, gid)["turn_elapsed_ms"]
    # the most a server was up since the game began (a loaded machine starts and stops servers
    # slowly: that time is charged); the 1.5 s outage between them is not
    up_ms = 1000 * ((first_down - created) + (time.monotonic() - second_up))
    assert 1_400 <= elapsed <= up_ms + 300, (elapsed, up_ms)


def test_an_outage_moves_the_sweeps_deadlines_once(db: str) -> None:
    """Two processes starting together after an outage record it once, and the live games'
    deadlines move on by its length once (the sweep then finds nothing early)."""
    from sqlalchemy import select

    from tessera.server.schema import info_table

    store = Storage(db)
    store.beat(1_000_000)
    gid = short_game(store, 60_000)

    def deadline() -> int:
        with store.engine.connect() as conn:
            return int(
                conn.execute(
                    select(info_table.c.deadline_ms).where(info_table.c.game_id == gid)
                ).scalar_one()
            )

    before = deadline()
    now = int(time.time() * 1000)
    assert store.record_outage(now, 10_000) == (1_000_000, now)
    assert store.record_outage(now + 20, 10_000) is None  # beaten 20 ms ago: no outage
    store.beat(1_000_000)  # as the other process, which read the heartbeat before the first
    assert store.record_outage(now + 5, 10_000) is None  # recorded it: not again
    assert deadline() == before + now - 1_000_000
    assert store.outages(0) == [(1_000_000, now)]


def test_overlap_of_outages_with_a_turn() -> None:
    outages = [(100, 200), (300, 400)]
    assert overlap_ms(outages, 0, 1_000) == 200
    assert overlap_ms(outages, 150, 350) == 100
    assert overlap_ms(outages, 200, 300) == 0
    assert overlap_ms([], 0, 10) == 0


def test_a_computer_that_thinks_past_the_flag_loses_on_time(db: str) -> None:
    """The computer's move comes after its flag (a slow search on a busy server): the game
    refuses it and the loss on time is recorded; the computer's turn does not die on the
    refusal of the pass it falls back to."""
    store = Storage(db)
    clock = {"initial_ms": 300, "increment_ms": 0, "max_overtime_min": 0}
    seats = [Seat(name, "computer", "static", "u1") for name in ("Bot", "Tob")]
    gid = store.create_game("casual", "enable", 5, seats, clock=clock)

    class SlowBot:
        def choose(self, view: object) -> object:
            time.sleep(0.6)  # past the 300 ms on its clock
            from tessera.move import Pass

            return Pass()

    async def run() -> int:
        hub = Hub(store, FAST, bot_factory=lambda level, lexicon, seed: SlowBot())
        session = await hub.session(gid)
        assert session.clock_timer is not None
        session.clock_timer.cancel()  # the clock's own timer is late: the move comes first
        first = session.game.to_move
        assert session.bot_task is not None
        await session.bot_task  # ends without raising
        assert session.game.result is not None
        assert session.game.result.reason.value == "timeout_forfeit"
        assert session.game.result.loser == first
        await hub.close()
        return first

    lost_on_time(store, gid, run_in_thread(run))
