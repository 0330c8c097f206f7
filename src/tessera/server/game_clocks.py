"""The time in a live game: each game's clock timer, which ends the game when the player to
move runs past their maximum overtime (R7.3), the periodic sweep that loads the games whose
clock ran out while no process held them, and the computer's turns, which it thinks out on
the server's own pool and plays like any other move.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor

from tessera.legality import IllegalMove
from tessera.move import Move, Pass

from .broadcast import Broadcaster
from .config import ServerConfig
from .downtime import Downtime
from .errors import RequestError
from .game_actions import GameActions
from .game_sessions import Session, SessionCache
from .storage import Storage

log = logging.getLogger("tessera.server")

SWEEP_EVERY_S = 30.0


class GameClocks:
    """Runs the clocks and the computer players of this process's live games."""

    def __init__(
        self,
        cache: SessionCache,
        actions: GameActions,
        broadcaster: Broadcaster,
        storage: Storage,
        downtime: Downtime,
        config: ServerConfig,
        think: ThreadPoolExecutor,
    ) -> None:
        self.cache = cache
        self.sessions = cache.sessions
        self.actions = actions
        self.broadcaster = broadcaster
        self.storage = storage
        self.downtime = downtime
        self.config = config
        self.think = think

    async def sweep(self, load: Callable[[str], Awaitable[Session]]) -> None:
        """Games whose clock ran out while nobody had them loaded: load them (``load``: the
        hub's :meth:`.hub.Hub.session`), so their clock adjudicates (a game abandoned by a
        player is lost on time)."""
        await asyncio.to_thread(self.downtime.refresh)
        overdue = await asyncio.to_thread(self.storage.overdue, int(time.time() * 1000))
        for game_id in overdue:
            if game_id not in self.sessions:
                await load(game_id)  # decides it, when its clock agrees

    # -- the computer's turns ------------------------------------------------------------

    def schedule_bots(self, session: Session) -> None:
        self.schedule_clock(session)
        if session.over or session.game.to_move not in session.bots:
            return
        if session.bot_task is not None and not session.bot_task.done():
            return
        session.bot_task = asyncio.get_running_loop().create_task(self._run_bots(session))

    async def _run_bots(self, session: Session) -> None:
        loop = asyncio.get_running_loop()
        while True:
            async with session.lock:
                game = session.game
                if self.sessions.get(session.record.id) is not session:
                    return
                if session.over or game.to_move not in session.bots:
                    return
                seat = game.to_move
                view = game.view(seat)
                seq = session.seq
            if self.config.bot_delay_s:
                await asyncio.sleep(self.config.bot_delay_s)
            bot = session.bots[seat]
            try:
                move: Move = await loop.run_in_executor(self.think, bot.choose, view)
            except Exception:  # a broken bot must not stall the game: it passes
                log.exception("game %s: the computer could not choose", session.record.id)
                move = Pass()
            async with session.lock:
                if session.seq != seq or session.game.to_move != seat:
                    continue
                try:
                    await self.actions.perform_or_flag(session, seat, "move", move)
                except IllegalMove as exc:
                    log.warning(
                        "game %s: the computer's move was refused (%s); it passes",
                        session.record.id,
                        exc.reason.value,
                    )
                    await self.actions.perform_or_flag(session, seat, "move", Pass())
                except RequestError:
                    return
            await self.broadcaster.broadcast(session)

    # -- clocks --------------------------------------------------------------------------

    def schedule_clock(self, session: Session) -> None:
        """R7.3: when the player to move runs past the maximum overtime, the game ends. A
        timer, not a sleeping task: every move moves it, and a timer is cheap to cancel."""
        if session.clock_timer is not None:
            session.clock_timer.cancel()
            session.clock_timer = None
        flag = self.to_flag_s(session)
        if flag is None:
            return
        session.clock_timer = asyncio.get_running_loop().call_later(
            max(0.0, flag + 0.02),  # just past the maximum
            self._clock_due,
            session,
            session.game.to_move,
            session.seq,
        )

    @staticmethod
    def to_flag_s(session: Session) -> float | None:
        """Seconds until the player to move runs past their time and maximum overtime
        (R7.3; 0 or less: the flag has fallen); None without a running clock."""
        game = session.game
        clock = game.rules.clock
        if clock is None or session.over:
            return None
        left = game.clock_ms(game.to_move) or 0
        limit_ms = left + clock.max_overtime_min * 60_000
        return session.turn_started + limit_ms / 1000 - time.monotonic()

    def _clock_due(self, session: Session, seat: int, seq: int) -> None:
        session.clock_timer = None
        session.clock_task = asyncio.get_running_loop().create_task(self.expire(session, seat, seq))

    async def expire(self, session: Session, seat: int, seq: int) -> None:
        async with session.lock:
            await self.cache.catch_up(session)
            if session.seq != seq or session.over:
                return
            elapsed = int((time.monotonic() - session.turn_started) * 1000)
            try:
                await self.actions.perform(session, seat, "time_expired", None, elapsed)
            except IllegalMove:  # woke a moment early: look again
                self.schedule_clock(session)
                return
            except RequestError:
                return
        await self.broadcaster.broadcast(session)
        self.schedule_bots(session)
