"""Live games in memory: a stored game rebuilt from its log (:class:`Session`: the game, its
seats' computer players, its clock's timers and the pages watching it, :class:`Listener`), and
the cache of them one server process keeps (:class:`SessionCache`): built on first use, dropped
when idle or over the limit of live games, and caught up from the log that other processes
write. What a session is, not what is done with it: moves are :mod:`.game_actions`, clocks and
the computer's turns :mod:`.game_clocks`, what pages are sent :mod:`.broadcast`.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from tessera.game import SPECTATOR, Game
from tessera.legality import IllegalMove
from tessera.rules import ChallengeRule, OnMaxOvertime, Rules, TimeControl, preset

from .accounts import User
from .computer import Chooser
from .config import ServerConfig
from .downtime import Downtime
from .errors import RequestError, excerpt
from .notify import Notifier
from .storage import Action, GameRecord, Storage

Sender = Callable[[str], Awaitable[None]]  # sends one JSON text message


@dataclass(eq=False)
class Listener:
    """A page watching a game through a WebSocket: its user, the seats that user controls
    (none: a spectator), and the seat it shows."""

    seats: frozenset[int]
    send: Sender
    seat: int | None = None  # a seat the page asked for, else the active one
    # closes the socket: the page reconnects
    hang_up: Callable[[], Coroutine[Any, Any, None]] | None = None
    viewer: User | None = None  # who watches (None: someone without an account)


def called_off(record: GameRecord) -> bool:
    """Whether a game ended without a result: called off (``abort``), or, between people,
    resigned by a player before their first turn, who could have called it off instead (so
    that resigning at once is never a rated loss)."""
    if not record.actions:
        return False
    last = record.actions[-1]
    if last.kind == "abort":
        return True
    if last.kind != "resign" or not record.online:
        return False
    return not any(a.player == last.player for a in record.actions[:-1])


@dataclass(eq=False)
class Session:
    record: GameRecord
    game: Game
    lexicon: Any
    bots: dict[int, Chooser]
    turn_started: float  # time.monotonic() when the player to move began their turn
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set[Listener] = field(default_factory=set)
    last_used: float = field(default_factory=time.monotonic)
    texts: dict[tuple[int, frozenset[int]], str] = field(default_factory=dict)  # state_text
    texts_seq: int = -1
    game_text: str | None = None  # names, rules, layout…: the same in every state
    board_text: str | None = None  # the board's JSON at texts_seq, the same for every viewer
    history_texts: dict[int, tuple[bool, list[str]]] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    clock_timer: asyncio.TimerHandle | None = None  # when the player to move runs out of time
    clock_task: asyncio.Task[None] | None = None  # ending the game on time, once that is due

    @property
    def busy(self) -> bool:
        """Watched, or the computer is thinking: not to be evicted."""
        return bool(self.listeners) or (self.bot_task is not None and not self.bot_task.done())

    @property
    def aborted(self) -> bool:
        return called_off(self.record)

    @property
    def over(self) -> bool:
        return self.game.is_over or self.aborted

    @property
    def seq(self) -> int:
        return len(self.record.actions)


def may_abort(session: Session, seat: int) -> bool:
    """Before a player's first move of a game between people, either may call it off."""
    if session.over or not session.record.online or seat == SPECTATOR:
        return False
    return not any(a.player == seat for a in session.record.actions)


def apply_action(game: Game, action: Action) -> None:
    """Replay one logged action (raises IllegalMove if the log does not fit the game). The
    log holds what was accepted when it was made: the clock is not judged again (a log from
    before R7.3's refusal of a late move still replays, as it was played)."""
    if action.kind == "move":
        game.play(action.text, player=action.player, elapsed_ms=action.elapsed_ms, recorded=True)
    elif action.kind == "challenge":
        game.challenge(action.player, elapsed_ms=action.elapsed_ms, recorded=True)
    elif action.kind == "resign":
        game.resign(action.player)
    elif action.kind == "time_expired":
        game.time_expired(action.player, action.elapsed_ms or 0, recorded=True)
    elif action.kind == "abort":
        pass  # the game stops where it stands; the session knows it from its log
    else:
        raise ValueError(f"unknown action kind {action.kind!r} in the game log")


def game_rules(record: GameRecord, lexicon: Any) -> Rules:
    """The record's preset with the tiles of its word list (a Hungarian list, Hungarian
    tiles: :meth:`Rules.for_alphabet`), and the game's own challenge rule and clock when it
    has them (a game with its own clock is lost on time past its maximum overtime: R7.3
    forfeit)."""
    rules = preset(record.rules).for_alphabet(getattr(lexicon, "alphabet", None))
    if record.challenge_rule:
        rules = rules.replace(challenge_rule=ChallengeRule(record.challenge_rule))
    if record.clock:
        rules = rules.replace(
            clock=TimeControl(
                initial_ms=record.clock["initial_ms"],
                increment_ms=record.clock.get("increment_ms", 0),
                max_overtime_min=record.clock.get("max_overtime_min", 0),
                on_max_overtime=OnMaxOvertime.FORFEIT,
            )
        )
    return rules


class SessionCache:
    """The live games of one server process, least recently used first, and the word lists
    they use.

    A game lives in memory while pages watch it or the computer thinks; one left alone for
    ``config.idle_game_s`` is dropped (:meth:`evict_idle`) and rebuilt from its log when next
    asked for, so memory follows the games in play, not every game ever played."""

    def __init__(
        self,
        storage: Storage,
        config: ServerConfig,
        lexicon_loader: Callable[[str], Any],
        bot_factory: Callable[[str, Any, int], Chooser],
        notifier: Notifier,
        downtime: Downtime,
    ) -> None:
        self.storage = storage
        self.config = config
        self.lexicon_loader = lexicon_loader
        self.bot_factory = bot_factory
        self.notifier = notifier
        self.downtime = downtime
        self.sessions: OrderedDict[str, Session] = OrderedDict()  # least recently used first
        self._jobs: set[asyncio.Task[None]] = set()  # fire-and-forget work, kept until done
        self._lexicons: dict[str, Any] = {}

    def lexicon(self, name: str) -> Any:
        """One of the word lists the server offers, loaded once (never a client's path)."""
        if name not in self.config.lexicons:
            raise RequestError(
                400,
                "bad_lexicon",
                f"no word list {excerpt(name)} here; use one of {list(self.config.lexicons)}",
            )
        if name not in self._lexicons:
            self._lexicons[name] = self.lexicon_loader(name)
        return self._lexicons[name]

    def build(self, record: GameRecord) -> Session:
        lexicon = self.lexicon(record.lexicon)
        game = Game(
            rules=game_rules(record, lexicon),
            lexicon=lexicon,
            players=[s.name for s in record.seats],
            seed=record.seed,
            undo=False,
        )
        for action in record.actions:
            apply_action(game, action)
        bots = {
            i: self.bot_factory(s.level or "best", lexicon, record.seed + i)
            for i, s in enumerate(record.seats)
            if s.kind == "computer"
        }
        # the turn began when the last action was stored (a game rebuilt after a restart or an
        # eviction keeps the time its player has been thinking, less the server's downtime)
        began_ms = record.actions[-1].at_ms if record.actions else record.created_ms
        return Session(record, game, lexicon, bots, self.turn_started(began_ms))

    def turn_started(self, began_ms: int | None) -> float:
        """``time.monotonic()`` when a turn that began at ``began_ms`` (epoch ms) began, as
        its clock counts: the time no server ran since is left out (:mod:`.downtime`)."""
        if not began_ms:
            return time.monotonic()
        now_ms = int(time.time() * 1000)
        charged = now_ms - began_ms - self.downtime.between(began_ms, now_ms)
        return time.monotonic() - max(0, charged) / 1000

    def session_from(self, record: GameRecord | None) -> Session:
        if record is None:
            raise RequestError(404, "no_game", "no such game")
        session = self.sessions.get(record.id)
        if session is None:
            session = self.build(record)
            self.sessions[record.id] = session
            if len(self.sessions) > self.config.max_live_games:
                self._evict_least_recent(keep=session)
        return session

    def _evict_least_recent(self, keep: Session) -> None:
        """Over the limit of live games: drop the least recently used that nobody watches.
        The idle ones go on the periodic sweep (:meth:`evict_idle`); this walks only from
        the old end of the list, not every game each time one is loaded."""
        over = len(self.sessions) - self.config.max_live_games
        for game_id, session in list(self.sessions.items()):
            if over <= 0:
                return
            if session is keep or session.busy:
                continue
            self.forget(game_id, session)
            over -= 1

    def evict_idle(self, keep: Session | None = None) -> int:
        """Drop games nobody watches: finished ones idle for ``idle_over_game_s``, others
        idle for ``idle_game_s``, and the least recently used beyond ``max_live_games``.
        Returns how many were dropped."""
        now = time.monotonic()
        over = len(self.sessions) - self.config.max_live_games
        dropped = 0
        for game_id, session in list(self.sessions.items()):
            if session is keep or session.busy:
                continue
            idle = now - session.last_used
            limit = self.config.idle_over_game_s if session.over else self.config.idle_game_s
            if over > 0 or idle > limit:
                self.forget(game_id, session)
                over -= 1
                dropped += 1
        return dropped

    @staticmethod
    def stop_tasks(session: Session) -> None:
        for task in (session.bot_task, session.clock_task, session.clock_timer):
            if task is not None:
                task.cancel()

    def background(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(job)
        self._jobs.add(task)
        task.add_done_callback(self._jobs.discard)

    def forget(self, game_id: str, session: Session) -> None:
        """Drop a live game (rebuilt from its log when next asked). Pages still watching it
        (the game was dropped because its log moved on or could not be written) are hung up
        on: they reconnect at once and so watch the rebuilt game, not this one."""
        self.stop_tasks(session)
        for listener in session.listeners:
            if listener.hang_up is not None:
                self.background(listener.hang_up())
        session.listeners = set()
        if self.sessions.get(game_id) is session:
            del self.sessions[game_id]

    async def take(self, session: Session, seq: int, data: Any) -> bool:
        """Another process stored entry ``seq``: apply the action its event carries when it
        is the next one here, else read what is missing from the log."""
        if session.seq == seq and isinstance(data, dict):
            try:
                action = Action.from_json(data)
                apply_action(session.game, action)
            except (KeyError, TypeError, ValueError, IllegalMove):
                self.forget(session.record.id, session)  # rebuilt from the log when asked
                return False
            session.record.actions.append(action)
            session.turn_started = self.turn_started(action.at_ms)
            return True
        return await self.catch_up(session)

    async def catch_up(self, session: Session) -> bool:
        """Apply what other processes stored since this one last looked (the caller holds the
        session's lock). True if any."""
        if self.notifier.url is None:
            return False  # one process: nobody else writes
        newer = await asyncio.to_thread(self.storage.actions_since, session.record.id, session.seq)
        for action in newer:
            apply_action(session.game, action)
            session.record.actions.append(action)
        if newer:
            session.turn_started = self.turn_started(newer[-1].at_ms)
        return bool(newer)
