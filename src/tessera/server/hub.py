"""Live games: each stored game rebuilt in memory, its seats, its computer players, its clock,
and the pages watching it.

Every action goes through :meth:`Hub.act`: the seat is checked against the caller (a user
controls the seats that are theirs), the rules engine validates and applies the move (an
illegal one changes nothing), the action is committed to the log, and only then is it
acknowledged and broadcast — to each page, the view of the seat that page controls, or a
spectator's view, never anything more. With several server processes, each tells the others
of new log entries (:mod:`.notify`), and a process catches up from the log before it answers.

The work is split by concern, each part given what it needs (none imports this module):
:mod:`.game_sessions` (the live games and their cache), :mod:`.game_requests` (what a page
asks, checked), :mod:`.game_actions` (moves made and stored), :mod:`.game_clocks` (clocks,
the sweep and the computer's turns), :mod:`.broadcast` (what pages and other processes are
told) and :mod:`.game_starts` (new games and rematches). The :class:`Hub` ties them together,
routes what a page or another process asks to them, and is what the routes use.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tessera.game import GameState
from tessera.legality import IllegalMove, Reason

from .accounts import Accounts, User
from .broadcast import Broadcaster
from .computer import Chooser, computer_player
from .config import ServerConfig
from .downtime import Downtime
from .errors import RequestError, field_bool, field_int
from .game_actions import GameActions
from .game_clocks import GameClocks
from .game_requests import (
    GameSpec,
    bound_fields,
    parse_spec,
    placements_play,
    requested_seat,
)
from .game_sessions import Listener, Sender, Session, SessionCache
from .game_starts import GameStarts
from .lexicons import load_lexicon
from .lobby import Lobby, Seek
from .logwriter import LogWriter
from .notify import Notifier
from .pools import analysis_pool
from .ratings import Ratings
from .storage import Storage, is_game_id
from .watchers import Watchers
from .watchers import event as watchers_event

log = logging.getLogger("tessera.server")


class Hub:
    """All live games of one server process, and the accounts, lobby and ratings behind them
    (which games stay in memory, and for how long: :class:`SessionCache`)."""

    def __init__(
        self,
        storage: Storage,
        config: ServerConfig | None = None,
        *,
        lexicon_loader: Callable[[str], Any] = load_lexicon,
        bot_factory: Callable[[str, Any, int], Chooser] | None = None,
        notifier: Notifier | None = None,
    ) -> None:
        self.storage = storage
        self.config = config or ServerConfig()
        self.bot_factory = bot_factory or self._computer
        self.accounts = Accounts(storage)
        self.ratings = Ratings(storage)
        self.lobby = Lobby(storage, self.accounts, self.ratings, self.config)
        shared = storage.engine.dialect.name == "postgresql"
        self.notifier = notifier or Notifier(storage.url if shared else None)
        self.notifier.subscribe(self._on_event)
        self.notifier.on_reconnect(self._catch_up_all)
        self.user_sockets: dict[str, set[Sender]] = {}  # lobby pages, by user id
        self.lobby_sockets: set[Sender] = set()
        self.watchers = Watchers()  # the spectators other processes serve
        self.writer = LogWriter(storage)
        # the time no server ran, not charged to a clock (heartbeat: app.py, self.start)
        self.downtime = Downtime(storage, self.config.heartbeat_s, self.config.charge_downtime)
        # move checks and quick hints; database reads use the default pool
        self.cpu = ThreadPoolExecutor(max_workers=os.cpu_count() or 2, thread_name_prefix="cpu")
        # the computer's thinking (a search of up to a second), kept apart so that it never
        # queues the quick work above
        self.think = ThreadPoolExecutor(max_workers=os.cpu_count() or 2, thread_name_prefix="think")
        # reviews, their simulations and the analysis board (up to seconds of a core each):
        # a bounded pool of their own at a lower priority, so that they never take a thread
        # or a core from the moves above (:mod:`.pools`)
        self.analysis = analysis_pool(self.config.analysis_workers)
        self.cache = SessionCache(
            storage, self.config, lexicon_loader, self.bot_factory, self.notifier, self.downtime
        )
        self.sessions = self.cache.sessions  # least recently used first
        self.broadcaster = Broadcaster(self.cache, self.notifier, self.watchers, self.ratings)
        self.actions = GameActions(
            self.cache, storage, self.writer, self.notifier, self.ratings, self.cpu
        )
        self.clocks = GameClocks(
            self.cache,
            self.actions,
            self.broadcaster,
            storage,
            self.downtime,
            self.config,
            self.think,
        )
        self.starts = GameStarts(
            self.cache, self.clocks, storage, self.accounts, self.lobby, self.notifier
        )

    def _computer(self, level: str, lexicon: Any, seed: int) -> Chooser:
        return computer_player(level, lexicon, seed, time_limit=self.config.think_s)

    async def start(self) -> None:
        try:  # first: the outage this start ends
            await asyncio.to_thread(self.downtime.beat)
        except Exception:  # the database is not answering: the heartbeat tries again
            log.exception("the server's heartbeat could not be written")
        await self.notifier.start()

    # -- setup ---------------------------------------------------------------------------

    def lexicon(self, name: str) -> Any:
        """One of the word lists the server offers, loaded once (:meth:`SessionCache.lexicon`)."""
        return self.cache.lexicon(name)

    def parse_spec(self, spec: dict[str, Any], user: User) -> GameSpec:
        """The new game the dialog asks for, checked (:func:`.game_requests.parse_spec`)."""
        return parse_spec(spec, user, self.config)

    async def create(self, user: User, spec: dict[str, Any]) -> str:
        """A new game from the new-game dialog (against the computer, or people at one
        screen); returns its id."""
        return await self.starts.start(self.parse_spec(spec, user))

    async def rematch_here(self, game_id: str, user: User | None) -> str:
        """The same game again after a finished game against the computer or at one screen
        (:meth:`GameStarts.rematch_here`); the new game's id."""
        session, _ = await self.player_session(game_id, user)
        return await self.starts.rematch_here(session)

    async def start_taken(self, seek: Seek, acceptor: User) -> str:
        """The game of a seek ``acceptor`` has just taken (:meth:`GameStarts.start_taken`)."""
        return await self.starts.start_taken(seek, acceptor)

    async def start_from_seek(self, seek: Seek, acceptor: User) -> str:
        """The game a taken seek starts (:meth:`GameStarts.start_from_seek`)."""
        return await self.starts.start_from_seek(seek, acceptor)

    async def session(self, game_id: str) -> Session:
        """The live game, rebuilt from its log on first use (after a restart too). A game
        whose clock ran out while no process held it is decided on time here, before anyone
        sees it or moves in it (R7.3)."""
        session = self.sessions.get(game_id)
        if session is None:
            if not is_game_id(game_id):
                raise RequestError(404, "no_game", "no such game")
            record = await asyncio.to_thread(self.storage.load, game_id)
            if record is not None:
                await asyncio.to_thread(self.lexicon, record.lexicon)
            session = self.sessions.get(game_id) or self.cache.session_from(record)
            self.clocks.schedule_bots(session)
            flag = self.clocks.to_flag_s(session)
            if flag is not None and flag <= 0:
                await self.clocks.expire(session, session.game.to_move, session.seq)
        if self.sessions.get(game_id) is session:  # not dropped meanwhile (a failed write)
            self.sessions.move_to_end(game_id)
        session.last_used = time.monotonic()
        return session

    def evict_idle(self, keep: Session | None = None) -> int:
        """Drop games nobody watches (:meth:`SessionCache.evict_idle`); how many."""
        return self.cache.evict_idle(keep)

    @staticmethod
    def seats_of(session: Session, user: User | None) -> frozenset[int]:
        return session.record.seats_of(user.id) if user is not None else frozenset()

    async def player_session(
        self, game_id: str, user: User | None
    ) -> tuple[Session, frozenset[int]]:
        """The game and the caller's seats in it; refuses a caller who plays none."""
        session = await self.session(game_id)  # 404 before 403
        seats = self.seats_of(session, user)
        if not seats:
            raise RequestError(403, "forbidden", "you hold no seat in that game")
        return session, seats

    async def watch_session(
        self, game_id: str, user: User | None
    ) -> tuple[Session, frozenset[int]]:
        """The game and the caller's seats; a caller with none may watch a game between
        people on their own devices, not someone's private game."""
        session = await self.session(game_id)
        seats = self.seats_of(session, user)
        if not seats and not session.record.online:
            raise RequestError(403, "forbidden", "that game is private")
        return session, seats

    # -- pages ---------------------------------------------------------------------------

    def state_text(self, session: Session, seats: frozenset[int], asked: int | None = None) -> str:
        """The message a page receives (:meth:`Broadcaster.state_text`)."""
        return self.broadcaster.state_text(session, seats, asked)

    async def join(self, session: Session, listener: Listener) -> None:
        """A page starts listening to a game (:meth:`Broadcaster.join`)."""
        await self.broadcaster.join(session, listener)

    def leave(self, session: Session, listener: Listener) -> None:
        """A page stops listening (:meth:`Broadcaster.leave`)."""
        self.broadcaster.leave(session, listener)

    async def broadcast(self, session: Session) -> None:
        """The new state to every page of the game (:meth:`Broadcaster.broadcast`)."""
        await self.broadcaster.broadcast(session)

    # -- actions -------------------------------------------------------------------------

    async def act(self, game_id: str, user: User | None, body: dict[str, Any]) -> str:
        """A page's move. Returns the new state (JSON text) for the acting seat once it is
        stored; raises IllegalMove for a well-formed move the rules refuse."""
        bound_fields(body)
        session, seats = await self.player_session(game_id, user)
        seat = requested_seat(body, seats, "move")
        expected = field_int(body, "seq", required=False)
        async with session.lock:
            if expected is not None and expected > session.seq:
                await self.catch_up(session)  # the page has heard of moves this process has not
            if session.record.seats[seat].kind != "human":
                raise RequestError(403, "forbidden", "that seat is the computer's")
            if expected is not None and expected != session.seq:
                raise RequestError(
                    409, "stale", "the game has moved on since this page last heard; reloaded"
                )
            late = await self.actions.perform_or_flag(session, seat, "", None, body=body)
            state = self.state_text(session, seats)  # hot seat: the next person's view
        await self.broadcast(session)
        self.clocks.schedule_bots(session)
        if late is not None:
            raise late
        return state

    async def check(self, game_id: str, user: User | None, body: dict[str, Any]) -> dict[str, Any]:
        """Score a tentative play without making it (the page's live score)."""
        session, seats = await self.player_session(game_id, user)
        seat = requested_seat(body, seats, "move")
        game = session.game

        def score() -> dict[str, Any]:
            try:
                play = placements_play(game.board, game.alphabet, body.get("placements"))
                scored = game.check(play, player=seat)
            except IllegalMove as exc:
                return {"ok": False, "reason": exc.reason.value, "message": str(exc)}
            assert scored is not None
            return {
                "ok": True,
                "score": scored.score,
                "move": scored.human(game.alphabet, game.board),
            }

        async with session.lock:
            return await asyncio.get_running_loop().run_in_executor(self.cpu, score)

    async def hints(
        self, game_id: str, user: User | None, body: dict[str, Any]
    ) -> list[dict[str, Any]]:
        """Moves for the asking seat's own rack (its turn only; not in games between people,
        nor while the user has a rated game in progress: :mod:`.fair_play`): at once the
        plays of best static equity, or with ``think`` the strongest player's search (win
        percentages when it simulated), which takes :attr:`ServerConfig.think_s`."""
        from .computer import quick_hints, thought_hints
        from .fair_play import refuse_during_rated_game

        session, seats = await self.player_session(game_id, user)
        seat = requested_seat(body, seats, "ask for hints")
        think = field_bool(body, "think")
        if session.record.online:
            raise RequestError(403, "no_hints", "no hints in a game against people")
        await refuse_during_rated_game(self.storage, user)  # nor in another game meanwhile
        async with session.lock:
            game = session.game
            if game.to_move != seat or game.state is not GameState.PLAYING:
                raise RequestError(400, Reason.NOT_YOUR_TURN.value, "hints are for your own turn")
            view = game.view(seat)
        loop = asyncio.get_running_loop()
        if think:
            return await loop.run_in_executor(
                self.think, thought_hints, view, session.lexicon, self.config.think_s
            )
        return await loop.run_in_executor(self.cpu, quick_hints, view, session.lexicon)

    async def gcg(self, game_id: str, user: User | None) -> str:
        """The finished game as GCG (only once it is over: a record shows every rack).
        A game between people is public once over; a private game only to its players."""
        session, _ = await self.watch_session(game_id, user)
        if not session.game.is_over:
            raise RequestError(
                400, Reason.GAME_OVER.value, "the record is ready when the game ends"
            )
        from tessera.formats import gcg

        async with session.lock:
            return await asyncio.to_thread(gcg.dumps, session.game)

    async def offer_rematch(self, game_id: str, user: User | None) -> Seek:
        """A rematch offered to the other player of a finished game between people, or theirs
        taken (:meth:`GameStarts.offer_rematch`)."""
        session, seats = await self.player_session(game_id, user)
        assert user is not None
        return await self.starts.offer_rematch(session, seats, user)

    # -- other processes -------------------------------------------------------------------

    async def _on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("kind")
        if kind == "action" and isinstance(event.get("game"), str):
            session = self.sessions.get(event["game"])
            seq = event.get("seq")
            if session is not None and isinstance(seq, int) and session.seq <= seq:
                async with session.lock:
                    changed = await self.cache.take(session, seq, event.get("action"))
                if changed:
                    await self.broadcast(session)
                    self.clocks.schedule_clock(session)
        elif kind == "lobby":
            await self.broadcaster.send_all(self.lobby_sockets, '{"type":"lobby"}')
        elif kind == "user" and isinstance(event.get("user"), str):
            sockets = self.user_sockets.get(event["user"], set())
            await self.broadcaster.send_all(sockets, json.dumps(event.get("event")))
        elif kind == "game_event" and isinstance(event.get("game"), str):
            session = self.sessions.get(event["game"])
            if session is not None:  # to the players' pages only: spectators hear no offers
                text = json.dumps(event.get("event"))
                await self.broadcaster.send_all(
                    {lis.send for lis in session.listeners if lis.seats}, text
                )
        elif kind == "watchers" and isinstance(event.get("game"), str):
            origin = event.get("origin")  # none: this process's own spectators changed
            if origin is None or self.watchers.heard(
                event["game"], str(origin), event.get("named"), event.get("anonymous")
            ):
                await self.broadcaster.tell_watchers(event["game"])
        elif kind == "watchers_ask" and event.get("origin") and isinstance(event.get("game"), str):
            session = self.sessions.get(event["game"])
            if session is not None and any(not lis.seats for lis in session.listeners):
                await self.notifier.publish(watchers_event(event["game"], session.listeners))
        elif kind == "session_end" and isinstance(event.get("user"), str):
            self.accounts.forget_cached(event["user"])

    async def catch_up(self, session: Session) -> bool:
        """Apply what other processes stored (:meth:`SessionCache.catch_up`; the caller holds
        the session's lock). True if any."""
        return await self.cache.catch_up(session)

    async def _catch_up_all(self) -> None:
        for session in list(self.sessions.values()):
            async with session.lock:
                changed = await self.catch_up(session)
            if changed:
                await self.broadcast(session)
                self.clocks.schedule_bots(session)

    async def sweep(self) -> None:
        """Load the games whose clock ran out unloaded (:meth:`GameClocks.sweep`)."""
        await self.clocks.sweep(self.session)

    async def close(self) -> None:
        for session in self.sessions.values():
            self.cache.stop_tasks(session)
        await self.notifier.close()
        await asyncio.to_thread(self.writer.close)
        self.cpu.shutdown(wait=False, cancel_futures=True)
        self.think.shutdown(wait=False, cancel_futures=True)
        self.analysis.shutdown(wait=False, cancel_futures=True)
