"""Live games: each stored game rebuilt in memory, its seats, its computer players, its clock,
and the pages watching it.

Every action goes through :meth:`Hub.act`: the seat is checked against the caller (a user
controls the seats that are theirs), the rules engine validates and applies the move (an
illegal one changes nothing), the action is committed to the log, and only then is it
acknowledged and broadcast — to each page, the view of the seat that page controls, or a
spectator's view, never anything more. With several server processes, each tells the others
of new log entries (:mod:`.notify`), and a process catches up from the log before it answers.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy.engine import Connection

from tessera.board import Board
from tessera.game import SPECTATOR, Game, GameState, PlayerView
from tessera.legality import IllegalMove, Reason, play_from_squares
from tessera.move import Challenge, Exchange, Move, NotationError, Pass, Play, parse_move
from tessera.rules import PRESETS, ChallengeRule, OnMaxOvertime, Rules, TimeControl, preset
from tessera.tiles import BLANK, Alphabet, TileError

from .accounts import Accounts, User, check_display_name
from .computer import Chooser, computer_player, levels
from .config import ServerConfig
from .downtime import Downtime
from .errors import RequestError, excerpt, field_bool, field_int, field_str
from .lexicons import load_lexicon
from .lobby import Lobby, Seek, parse_clock
from .logwriter import LogWriter
from .notify import Notifier
from .pools import analysis_pool
from .ratings import MIN_TURNS, Ratings, rating_key, turns_taken
from .storage import Action, GameRecord, Seat, Storage, StorageError, is_game_id
from .views import board_json, event_json, game_json, move_text, position_json
from .watchers import Watchers
from .watchers import event as watchers_event

log = logging.getLogger("tessera.server")

# presets the web app offers (duplicate needs its own flow)
WEB_PRESETS = tuple(name for name in PRESETS if name != "duplicate")
DEFAULT_RULES = "casual"
MAX_NAME = 24
MAX_MOVE_TEXT = 64  # the longest play in GCG notation is under 30 characters
MAX_TILES_TEXT = 32
MAX_PLACEMENTS = 32
SWEEP_EVERY_S = 30.0

Sender = Callable[[str], Awaitable[None]]  # sends one JSON text message
CLOCK_FIELDS = frozenset({"initial_min", "increment_s", "max_overtime_min"})


@dataclass(frozen=True)
class GameSpec:
    """A new game as the new-game dialog asks for it, checked: the preset, the word list, the
    seats, and the game's own time control and challenge rule (None: the preset's)."""

    rules: str
    lexicon: str
    seats: list[Seat]
    clock: dict[str, int] | None = None
    challenge_rule: str | None = None


def parse_own_clock(spec: dict[str, Any]) -> dict[str, int] | None:
    """The game's own time control, ``{"initial_min", "increment_s", "max_overtime_min"}``
    (main minutes 1–90, then seconds added per move 0–60 and minutes of overtime 0–10, at
    10 points a minute); absent or null: the preset's."""
    clock = spec.get("clock")
    if clock is None:
        return None
    if not isinstance(clock, dict):
        raise RequestError(
            400, "bad_clock", "clock must be an object: initial_min, increment_s, max_overtime_min"
        )
    unknown = sorted(set(clock) - CLOCK_FIELDS)
    if unknown:
        raise RequestError(
            400,
            "bad_clock",
            f"clock has no field {excerpt(unknown[0])}; use {sorted(CLOCK_FIELDS)}",
        )
    given = {k: v for k, v in clock.items() if v is not None}
    if "initial_min" not in given:
        raise RequestError(400, "bad_clock", "clock needs initial_min, the main time in minutes")
    return parse_clock({"increment_s": 0, "max_overtime_min": 0, **given})


def parse_challenge_rule(spec: dict[str, Any]) -> str | None:
    """The game's own challenge rule (a :class:`ChallengeRule` value); absent, null or empty:
    the preset's."""
    value = field_str(spec, "challenge_rule", 16)
    if not value:
        return None
    if value not in {r.value for r in ChallengeRule}:
        raise RequestError(
            400,
            "bad_challenge_rule",
            f"no challenge rule {excerpt(value)}; use one of {[r.value for r in ChallengeRule]}",
        )
    return value


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


def result_json(game: Game, aborted: bool) -> dict[str, Any]:
    if aborted or game.result is None:
        return {"reason": "aborted", "scores": list(game.scores), "winners": []}
    return {
        "reason": game.result.reason.value,
        "scores": list(game.result.scores),
        "winners": list(game.result.winners),
    }


def _first_players_score(game: Game) -> float:
    """1, 0.5 or 0 for seat 0 of a finished two-player game (a resignation or a loss on time
    loses whatever the scores)."""
    result = game.result
    assert result is not None
    if result.loser is not None:
        return 0.0 if result.loser == 0 else 1.0
    if len(result.winners) != 1:
        return 0.5
    return 1.0 if result.winners[0] == 0 else 0.0


def placements_play(board: Board, alphabet: Alphabet, placements: Any) -> Play:
    """The play a page's ``[[row, column, letter], …]`` names on ``board`` (blanks as
    lower-case letters); every field bounded and checked. RequestError for a malformed
    list, IllegalMove for tiles that do not form a play."""
    if not isinstance(placements, list) or not placements:
        raise RequestError(400, Reason.NO_TILES.value, "place at least one tile")
    if len(placements) > MAX_PLACEMENTS:
        raise RequestError(400, Reason.NOTATION.value, "too many tiles in one play")
    squares = []
    seen = set()
    for item in placements:
        if not (
            isinstance(item, list)
            and len(item) == 3
            and type(item[0]) is int
            and type(item[1]) is int
            and isinstance(item[2], str)
            and len(item[2]) <= 4
        ):
            raise RequestError(
                400, Reason.NOTATION.value, "each placement is [row, column, letter]"
            )
        r, c, label = item
        if not board.on_board(r, c):
            raise RequestError(400, Reason.OFF_BOARD.value, "a tile is off the board")
        if (r, c) in seen:
            raise RequestError(400, Reason.OCCUPIED.value, "two tiles on one square")
        seen.add((r, c))
        try:
            tiles = alphabet.parse(label)
        except TileError as exc:
            raise RequestError(400, Reason.NOTATION.value, str(exc)) from None
        if len(tiles) != 1:
            raise RequestError(400, Reason.NOTATION.value, f"{label!r} is not one tile")
        if tiles[0] == BLANK:
            raise RequestError(400, Reason.NOTATION.value, "choose a letter for the blank")
        squares.append((r, c, tiles[0]))
    return play_from_squares(board, squares)  # IllegalMove: a refused play


class Hub:
    """All live games of one server process, and the accounts, lobby and ratings behind them.

    A game lives in memory while pages watch it or the computer thinks; one left alone for
    ``config.idle_game_s`` is dropped (:meth:`evict_idle`) and rebuilt from its log when next
    asked for, so memory follows the games in play, not every game ever played."""

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
        self.lexicon_loader = lexicon_loader
        self.bot_factory = bot_factory or self._computer
        self.accounts = Accounts(storage)
        self.ratings = Ratings(storage)
        self.lobby = Lobby(storage, self.accounts, self.ratings, self.config)
        shared = storage.engine.dialect.name == "postgresql"
        self.notifier = notifier or Notifier(storage.url if shared else None)
        self.notifier.subscribe(self._on_event)
        self.notifier.on_reconnect(self._catch_up_all)
        self.sessions: OrderedDict[str, Session] = OrderedDict()  # least recently used first
        self._jobs: set[asyncio.Task[None]] = set()  # fire-and-forget work, kept until done
        self.user_sockets: dict[str, set[Sender]] = {}  # lobby pages, by user id
        self.lobby_sockets: set[Sender] = set()
        self.watchers = Watchers()  # the spectators other processes serve
        self._lexicons: dict[str, Any] = {}
        self.writer = LogWriter(storage)
        # the time no server ran, not charged to a clock (heartbeat: app.py, self.start)
        self.downtime = Downtime(storage, self.config.heartbeat_s, self.config.charge_downtime)
        # move checks and quick hints; database reads use the default pool
        self.cpu = ThreadPoolExecutor(max_workers=os.cpu_count() or 2, thread_name_prefix="cpu")
        # the computer's thinking (a search of up to a second), kept apart so that it never
        # queues the quick work above
        self.think = ThreadPoolExecutor(
            max_workers=os.cpu_count() or 2, thread_name_prefix="think"
        )
        # reviews, their simulations and the analysis board (up to seconds of a core each):
        # a bounded pool of their own at a lower priority, so that they never take a thread
        # or a core from the moves above (:mod:`.pools`)
        self.analysis = analysis_pool(self.config.analysis_workers)

    def _computer(self, level: str, lexicon: Any, seed: int) -> Chooser:
        return computer_player(level, lexicon, seed, time_limit=self.config.think_s)

    @property
    def bot_delay_s(self) -> float:
        return self.config.bot_delay_s

    async def start(self) -> None:
        try:  # first: the outage this start ends
            await asyncio.to_thread(self.downtime.beat)
        except Exception:  # the database is not answering: the heartbeat tries again
            log.exception("the server's heartbeat could not be written")
        await self.notifier.start()

    # -- setup ---------------------------------------------------------------------------

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

    def _build(self, record: GameRecord) -> Session:
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
        return Session(record, game, lexicon, bots, self._turn_started(began_ms))

    def _turn_started(self, began_ms: int | None) -> float:
        """``time.monotonic()`` when a turn that began at ``began_ms`` (epoch ms) began, as
        its clock counts: the time no server ran since is left out (:mod:`.downtime`)."""
        if not began_ms:
            return time.monotonic()
        now_ms = int(time.time() * 1000)
        charged = now_ms - began_ms - self.downtime.between(began_ms, now_ms)
        return time.monotonic() - max(0, charged) / 1000

    def parse_spec(self, spec: dict[str, Any], user: User) -> GameSpec:
        """The new game the dialog asks for, checked. The user's seats are the human ones
        (several: people sharing one screen), or every seat when all are computers."""
        rules_name = field_str(spec, "rules", 64) or DEFAULT_RULES
        if rules_name not in WEB_PRESETS:
            raise RequestError(
                400,
                "bad_rules",
                f"no rules preset {excerpt(rules_name)}; use one of {list(WEB_PRESETS)}",
            )
        lex_name = field_str(spec, "lexicon", 64) or self.config.default_lexicon
        if lex_name not in self.config.lexicons:
            raise RequestError(
                400,
                "bad_lexicon",
                f"no word list {excerpt(lex_name)} here; use one of {list(self.config.lexicons)}",
            )
        rules = preset(rules_name)
        players = spec.get("players")
        if not isinstance(players, list) or len(players) > rules.max_players:
            raise RequestError(
                400,
                "bad_players",
                f"players must be a list of {rules.min_players}–{rules.max_players}",
            )
        seats: list[Seat] = []
        for i, p in enumerate(players):
            if not isinstance(p, dict):
                raise RequestError(400, "bad_players", f"player {i + 1} must be an object")
            try:
                name = check_display_name(p.get("name"), MAX_NAME)
            except RequestError as exc:
                raise RequestError(400, "bad_players", f"player {i + 1}: {exc.message}") from None
            kind = p.get("kind", "human")
            if kind not in ("human", "computer"):
                raise RequestError(
                    400, "bad_players", f"player {i + 1}: kind must be human or computer"
                )
            level = None
            if kind == "computer":
                level = p.get("level") or "best"
                if level not in levels():
                    raise RequestError(
                        400,
                        "bad_players",
                        f"computer level {excerpt(level)}: use one of {list(levels())}",
                    )
            seats.append(Seat(name, kind, level, user.id if kind == "human" else None))
        if not rules.min_players <= len(seats) <= rules.max_players:
            raise RequestError(
                400,
                "bad_players",
                f"{rules.name} rules take {rules.min_players}–{rules.max_players} players, "
                f"not {len(seats)}",
            )
        if len({s.name for s in seats}) != len(seats):
            raise RequestError(400, "bad_players", "player names must be different")
        if not any(s.kind == "human" for s in seats):
            # computer against computer: the person who starts it holds every seat, to watch
            # it (and rematch it); a computer seat's moves stay the computer's
            seats = [replace(s, user=user.id) for s in seats]
        return GameSpec(
            rules_name, lex_name, seats, parse_own_clock(spec), parse_challenge_rule(spec)
        )

    async def _check_lexicon(self, lex_name: str, rules: Rules) -> None:
        lexicon = await asyncio.to_thread(self.lexicon, lex_name)  # a first load compiles
        alphabet = getattr(lexicon, "alphabet", None)
        rules = rules.for_alphabet(alphabet)
        if alphabet is not None and tuple(alphabet.labels) != tuple(rules.tileset.alphabet.labels):
            raise RequestError(
                400,
                "bad_lexicon",
                f"lexicon {lex_name!r} is spelled in the {alphabet.name} alphabet; "
                f"{rules.name} rules use {rules.tileset.alphabet.name} tiles",
            )

    async def create(self, user: User, spec: dict[str, Any]) -> str:
        """A new game from the new-game dialog (against the computer, or people at one
        screen); returns its id."""
        return await self._start(self.parse_spec(spec, user))

    async def _start(self, spec: GameSpec) -> str:
        await self._check_lexicon(spec.lexicon, preset(spec.rules))  # the preset's tiles
        seed = random.SystemRandom().randrange(2**62)
        game_id = await asyncio.to_thread(
            lambda: self.storage.create_game(
                spec.rules,
                spec.lexicon,
                seed,
                spec.seats,
                clock=spec.clock,
                challenge_rule=spec.challenge_rule,
            )
        )
        session = self._session_from(await asyncio.to_thread(self.storage.load, game_id))
        self._schedule_bots(session)
        return game_id

    async def rematch_here(self, game_id: str, user: User | None) -> str:
        """The same game again — players, computer levels, rules, word list, time control and
        challenge rule — after a finished game against the computer or at one screen; a
        fresh deal (a new seed). Returns the new game's id."""
        session, _ = await self.player_session(game_id, user)
        record = session.record
        if record.online:
            raise RequestError(400, "no_rematch", "a game between devices is rematched by offer")
        if not session.over:
            raise RequestError(400, "no_rematch", "a rematch follows a finished game")
        spec = GameSpec(
            record.rules, record.lexicon, list(record.seats), record.clock, record.challenge_rule
        )
        return await self._start(spec)

    async def start_taken(self, seek: Seek, acceptor: User) -> str:
        """The game of a seek ``acceptor`` has just taken (:meth:`Lobby.claim`); the seek is
        open again if the game cannot start."""
        try:
            return await self.start_from_seek(seek, acceptor)
        except Exception:
            await asyncio.to_thread(self.lobby.reopen, seek.id)
            raise
        finally:
            await asyncio.to_thread(self.lobby.started, seek)

    async def start_from_seek(self, seek: Seek, acceptor: User) -> str:
        """The game a taken seek starts between its author and ``acceptor`` (rated only
        between two accounts: a guest never plays rated); every other open seek of both is
        withdrawn, as they are now playing."""
        seeker = await asyncio.to_thread(self.accounts.by_id, seek.user_id)
        if seeker is None:
            raise RequestError(409, "seek_gone", "the player who made that seek is gone")
        await self._check_lexicon(seek.lexicon, preset(seek.rules))
        names = [seeker.name, acceptor.name]
        if names[0] == names[1]:  # two guests may share a name
            names[1] += " (2)"
        seats = [
            Seat(names[0], "human", None, seeker.id, seeker.is_guest),
            Seat(names[1], "human", None, acceptor.id, acceptor.is_guest),
        ]
        rated = seek.rated and not seeker.is_guest and not acceptor.is_guest
        seed = random.SystemRandom().randrange(2**62)
        game_id = await asyncio.to_thread(
            lambda: self.storage.create_game(
                seek.rules,
                seek.lexicon,
                seed,
                seats,
                clock=seek.clock,
                rated=rated,
                online=True,
            )
        )
        await asyncio.to_thread(self.lobby.attach_game, seek.id, game_id)
        await asyncio.to_thread(self.lobby.withdraw_all, (seeker.id, acceptor.id))
        session = self._session_from(await asyncio.to_thread(self.storage.load, game_id))
        self._schedule_clock(session)
        started = {"type": "game_started", "game_id": game_id, "seek_id": seek.id}
        for user_id in (seeker.id, acceptor.id):
            await self.notifier.publish({"kind": "user", "user": user_id, "event": started})
        await self.notifier.publish({"kind": "lobby"})
        return game_id

    def _session_from(self, record: GameRecord | None) -> Session:
        if record is None:
            raise RequestError(404, "no_game", "no such game")
        session = self.sessions.get(record.id)
        if session is None:
            session = self._build(record)
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
            self._forget(game_id, session)
            over -= 1

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
            session = self.sessions.get(game_id) or self._session_from(record)
            self._schedule_bots(session)
            flag = self._to_flag_s(session)
            if flag is not None and flag <= 0:
                await self._expire(session, session.game.to_move, session.seq)
        if self.sessions.get(game_id) is session:  # not dropped meanwhile (a failed write)
            self.sessions.move_to_end(game_id)
        session.last_used = time.monotonic()
        return session

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
                self._forget(game_id, session)
                over -= 1
                dropped += 1
        return dropped

    @staticmethod
    def _stop_tasks(session: Session) -> None:
        for task in (session.bot_task, session.clock_task, session.clock_timer):
            if task is not None:
                task.cancel()

    def _background(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(job)
        self._jobs.add(task)
        task.add_done_callback(self._jobs.discard)

    def _forget(self, game_id: str, session: Session) -> None:
        """Drop a live game (rebuilt from its log when next asked). Pages still watching it
        (the game was dropped because its log moved on or could not be written) are hung up
        on: they reconnect at once and so watch the rebuilt game, not this one."""
        self._stop_tasks(session)
        for listener in session.listeners:
            if listener.hang_up is not None:
                self._background(listener.hang_up())
        session.listeners = set()
        if self.sessions.get(game_id) is session:
            del self.sessions[game_id]

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

    # -- views ---------------------------------------------------------------------------

    @staticmethod
    def active_seat(session: Session, seats: frozenset[int], asked: int | None = None) -> int:
        if asked is not None:
            if asked not in seats:
                raise RequestError(403, "forbidden", "you cannot view another player's seat")
            return asked
        if not seats:
            return SPECTATOR
        to_move = session.game.to_move
        if to_move in seats and session.game.state is not GameState.OVER:
            return to_move
        return min(seats)

    def _view(self, session: Session, seat: int) -> PlayerView:
        if seat == SPECTATOR:
            return session.game.spectator_view()
        return session.game.view(seat)

    def state_text(self, session: Session, seats: frozenset[int], asked: int | None = None) -> str:
        """The message a page receives, as JSON text: one seat's view (or a spectator's) and
        what the page may do. The view is built and encoded once per position and seat (a
        move's answer and every page of that seat share it); only the time on the turn is
        added fresh."""
        seat = self.active_seat(session, seats, asked)
        seq = session.seq
        if session.texts_seq != seq:
            session.texts.clear()
            session.texts_seq = seq
            session.board_text = None
        key = (seat, seats)
        text = session.texts.get(key)
        if text is None:
            record = session.record
            view = self._view(session, seat)
            if session.board_text is None:
                cells = board_json(view.board, view.tileset.alphabet)
                session.board_text = json.dumps(cells, separators=(",", ":"))
            data = position_json(view)
            data["game_id"] = record.id
            data["kinds"] = [s.kind for s in record.seats]
            data["levels"] = [s.level for s in record.seats]
            data["my_seats"] = sorted(seats)
            data["lexicon"] = record.lexicon
            data["seq"] = seq
            data["online"] = record.online
            data["rated"] = record.rated
            data["guests"] = [s.guest for s in record.seats]
            data["clock"] = record.clock
            if session.aborted:
                data["state"] = "aborted"
                data["result"] = None  # called off: no result (a resignation at once too)
            data["can_abort"] = bool(seats) and self._may_abort(session, seat)
            if session.over and record.rated:
                changes = self.ratings.of_game(record.id)
                data["ratings"] = [
                    {"before": round(changes[s.user][0]), "after": round(changes[s.user][1])}
                    if s.user in changes
                    else None
                    for s in record.seats
                ]
            if session.game_text is None:
                session.game_text = json.dumps(game_json(view), separators=(",", ":"))[1:-1]
            history = self._history_text(session, seat, view)
            text = session.texts[key] = (
                f'{{{session.game_text},"board":{session.board_text},"history":{history},'
                f"{json.dumps(data, separators=(',', ':'))[1:]}"
            )
        elapsed = int((time.monotonic() - session.turn_started) * 1000)
        return f'{{"turn_elapsed_ms":{elapsed},{text[1:]}'

    @staticmethod
    def _history_text(session: Session, seat: int, view: PlayerView) -> str:
        """The view's history as JSON, each event encoded once per viewer (events never
        change once made; the end of the game shows every rack, so it starts afresh)."""
        over = session.over
        cached = session.history_texts.get(seat)
        if cached is None or cached[0] != over or len(cached[1]) > len(view.history):
            cached = session.history_texts[seat] = (over, [])
        encoded = cached[1]
        alphabet = view.tileset.alphabet
        for event in view.history[len(encoded) :]:
            encoded.append(json.dumps(event_json(event, alphabet), separators=(",", ":")))
        return f"[{','.join(encoded)}]"

    async def join(self, session: Session, listener: Listener) -> None:
        """A page starts listening to a game (after its first state): it hears who watches
        (unless nobody does), and when it is a spectator, so do the game's other pages, in
        every process (:mod:`.watchers`)."""
        game_id = session.record.id
        session.listeners.add(listener)
        if self.notifier.url is not None and len(session.listeners) == 1:
            # this process's first page of the game: the others say who watches there
            await self.notifier.publish({"kind": "watchers_ask", "game": game_id})
        if not listener.seats:
            await self._spectators_changed(game_id)
        elif self.watchers.anyone(game_id, session.listeners):  # nobody: nothing to tell
            await self._send_all({listener.send}, self.watchers.text(game_id, session.listeners))

    def leave(self, session: Session, listener: Listener) -> None:
        """A page stops listening; when it was a spectator, every page hears who still
        watches."""
        session.listeners.discard(listener)
        if not listener.seats:
            self._background(self._spectators_changed(session.record.id))

    async def _spectators_changed(self, game_id: str) -> None:
        """Tell this process's pages of the game and the other processes who watches here
        (through :meth:`_on_event`)."""
        session = self.sessions.get(game_id)
        await self.notifier.publish(watchers_event(game_id, session.listeners if session else ()))

    async def _tell_watchers(self, game_id: str) -> None:
        session = self.sessions.get(game_id)
        if session is not None and session.listeners:
            text = self.watchers.text(game_id, session.listeners)
            await self._send_all({lis.send for lis in session.listeners}, text)

    async def broadcast(self, session: Session) -> None:
        dead: list[Listener] = []
        for listener in list(session.listeners):
            try:
                state = self.state_text(session, listener.seats, listener.seat)
                await listener.send(f'{{"type":"state","state":{state}}}')
            except Exception:  # a closed socket: forget it
                dead.append(listener)
        for listener in dead:
            session.listeners.discard(listener)

    # -- actions -------------------------------------------------------------------------

    @staticmethod
    def _bound_fields(body: dict[str, Any]) -> None:
        """Refuse an oversized field at once, before the request waits for the game's lock
        and the worker pool: a flood of them then queues behind nothing."""
        if "text" in body:
            field_str(body, "text", MAX_MOVE_TEXT)
        if "tiles" in body:
            field_str(body, "tiles", MAX_TILES_TEXT)
        placements = body.get("placements")
        if isinstance(placements, list) and len(placements) > MAX_PLACEMENTS:
            raise RequestError(400, Reason.NOTATION.value, "too many tiles in one play")

    @staticmethod
    def _parse_request(game: Game, body: dict[str, Any]) -> tuple[str, Move | None]:
        """(log kind, move) from a page's request; refuses malformed input clearly. Every
        field is bounded before it is parsed."""
        kind = body.get("action")
        alphabet = game.alphabet
        if kind == "play":
            if "text" in body:
                text = field_str(body, "text", MAX_MOVE_TEXT)
                try:
                    move = parse_move(text, alphabet, game.board)
                except NotationError as exc:
                    raise RequestError(400, Reason.NOTATION.value, str(exc)) from None
                if not isinstance(move, Play):
                    raise RequestError(400, Reason.NOTATION.value, "that is not a tile play")
                return "move", move
            return "move", Hub._placements_play(game, body.get("placements"))
        if kind == "exchange":
            tiles_text = field_str(body, "tiles", MAX_TILES_TEXT)
            try:
                tiles = alphabet.parse(tiles_text.upper())
            except TileError as exc:
                raise RequestError(400, Reason.NOTATION.value, f"exchange: {exc}") from None
            if not tiles:
                raise RequestError(400, Reason.NOTATION.value, "choose the tiles to exchange")
            return "move", Exchange(tuple(tiles))
        if kind == "pass":
            return "move", Pass()
        if kind in ("challenge", "resign", "abort"):
            return kind, None
        raise RequestError(400, "bad_action", f"unknown action {excerpt(kind)}")

    @staticmethod
    def _placements_play(game: Game, placements: Any) -> Play:
        return placements_play(game.board, game.alphabet, placements)

    @staticmethod
    def _seat(body: dict[str, Any], seats: frozenset[int], what: str) -> int:
        seat = field_int(body, "seat")
        if seat not in seats:
            raise RequestError(403, "forbidden", f"you cannot {what} for that seat")
        return seat

    @staticmethod
    def _may_abort(session: Session, seat: int) -> bool:
        """Before a player's first move of a game between people, either may call it off."""
        if session.over or not session.record.online or seat == SPECTATOR:
            return False
        return not any(a.player == seat for a in session.record.actions)

    def _elapsed(self, session: Session) -> int | None:
        if session.game.rules.clock is None:
            return None
        return int((time.monotonic() - session.turn_started) * 1000)

    def _make(
        self,
        session: Session,
        seat: int,
        kind: str,
        move: Move | None,
        elapsed_ms: int | None = None,
    ) -> Action:
        """Validate and apply an action to the live game; returns the log entry to store.

        ``kind`` is move | challenge | resign | time_expired | abort. The mover's time since
        the turn began is charged to them (games with a clock only)."""
        game = session.game
        if session.aborted:
            raise IllegalMove(Reason.GAME_OVER, "the game was called off")
        elapsed = self._elapsed(session) if seat == game.to_move else None
        if kind == "move" and isinstance(move, Challenge):
            kind = "challenge"
        if kind == "move":
            assert move is not None
            game.play(move, player=seat, elapsed_ms=elapsed)
            text = move_text(move, game.alphabet) or "-"
        elif kind == "challenge":
            game.challenge(seat, elapsed_ms=elapsed)
            text = "challenge"
        elif kind == "resign":
            game.resign(seat)
            text, elapsed = "resign", None
        elif kind == "time_expired":
            elapsed = elapsed_ms or 0
            game.time_expired(seat, elapsed)
            text = "time_expired"
        elif kind == "abort":
            if not self._may_abort(session, seat):
                raise IllegalMove(
                    Reason.GAME_OVER, "a game can be called off only before your first move"
                )
            text, elapsed = "abort", None
        else:
            raise ValueError(f"unknown action kind {kind!r}")
        return Action(seat, kind, text, elapsed)

    def _deadline_ms(self, session: Session) -> int | None:
        """When the player to move runs out of time (epoch ms), for a game with a clock."""
        game = session.game
        clock = game.rules.clock
        if clock is None or session.over:
            return None
        left = (game.clock_ms(game.to_move) or 0) + clock.max_overtime_min * 60_000
        return int(time.time() * 1000) + max(0, left)

    async def _commit(self, session: Session, action: Action, was_to_move: int) -> None:
        """Store an action already applied to the live game; only then is it acknowledged.
        If it cannot be stored, the live game (now ahead of its log) is dropped and rebuilt
        from the log on the next request."""
        seq = session.seq
        turn_moves = action.elapsed_ms is not None or session.game.to_move != was_to_move
        deadline = self._deadline_ms(session) if turn_moves else None
        try:
            stored = await self.writer.append(session.record.id, seq, action, deadline)
        except StorageError:  # another process stored an action there first
            self._forget(session.record.id, session)
            raise RequestError(
                409, "stale", "the game has moved on since this page last heard; reloaded"
            ) from None
        except Exception:
            log.exception("game %s: could not store action %d; reloading", session.record.id, seq)
            self._forget(session.record.id, session)
            raise RequestError(503, "storage", "the move could not be saved; try again") from None
        session.record.actions.append(stored)
        if turn_moves:
            session.turn_started = time.monotonic()
        if session.over:
            await self._finish(session)
        await self.notifier.publish(
            {"kind": "action", "game": session.record.id, "seq": seq, "action": stored.to_json()}
        )

    async def _finish(self, session: Session) -> None:
        """A game that just ended: its result for lists and profiles, and, for a rated game
        between two registered players, new ratings (once, whichever process gets here)."""
        record = session.record
        result = result_json(session.game, session.aborted)
        rate = None
        users = [s.user for s in record.seats]
        if (
            record.rated
            and not session.aborted
            and len(users) == 2
            and all(users)
            and not any(s.guest for s in record.seats)
            and min(turns_taken([(a.player, a.kind) for a in record.actions], 2)) >= MIN_TURNS
        ):
            score_a = _first_players_score(session.game)
            key = rating_key(record.rules, record.clock)
            pair = (str(users[0]), str(users[1]))

            def rate(conn: Connection) -> None:
                self.ratings.record_game(conn, record.id, key, pair, score_a)

        status = "aborted" if session.aborted else "over"
        await asyncio.to_thread(self.storage.finish, record.id, status, result, rate)
        session.texts.clear()
        session.texts_seq = -1
        if record.online:
            await self.notifier.publish({"kind": "lobby"})

    async def _perform(
        self,
        session: Session,
        seat: int,
        kind: str,
        move: Move | None,
        elapsed_ms: int | None = None,
        body: dict[str, Any] | None = None,
    ) -> None:
        """Parse (from ``body``, when given), validate and apply off the event loop, then
        commit. The caller holds the session's lock."""
        was_to_move = session.game.to_move

        def make() -> Action:
            nonlocal kind, move
            if body is not None:
                kind, move = self._parse_request(session.game, body)
            return self._make(session, seat, kind, move, elapsed_ms)

        action = await asyncio.get_running_loop().run_in_executor(self.cpu, make)
        await self._commit(session, action, was_to_move)

    async def _perform_or_flag(
        self,
        session: Session,
        seat: int,
        kind: str,
        move: Move | None,
        body: dict[str, Any] | None = None,
    ) -> IllegalMove | None:
        """:meth:`_perform`, except that a move the game refuses as made after the flag
        (R7.3, by this server's clock) is replaced by the loss on time; returns that refusal
        (None: the move was made). The caller holds the session's lock."""
        try:
            await self._perform(session, seat, kind, move, body=body)
        except IllegalMove as exc:
            if exc.reason is not Reason.OUT_OF_TIME:
                raise
            await self._perform(session, seat, "time_expired", None, self._elapsed(session) or 0)
            return exc
        return None

    async def act(self, game_id: str, user: User | None, body: dict[str, Any]) -> str:
        """A page's move. Returns the new state (JSON text) for the acting seat once it is
        stored; raises IllegalMove for a well-formed move the rules refuse."""
        self._bound_fields(body)
        session, seats = await self.player_session(game_id, user)
        seat = self._seat(body, seats, "move")
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
            late = await self._perform_or_flag(session, seat, "", None, body=body)
            state = self.state_text(session, seats)  # hot seat: the next person's view
        await self.broadcast(session)
        self._schedule_bots(session)
        if late is not None:
            raise late
        return state

    async def check(self, game_id: str, user: User | None, body: dict[str, Any]) -> dict[str, Any]:
        """Score a tentative play without making it (the page's live score)."""
        session, seats = await self.player_session(game_id, user)
        seat = self._seat(body, seats, "move")
        game = session.game

        def score() -> dict[str, Any]:
            try:
                play = self._placements_play(game, body.get("placements"))
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
        seat = self._seat(body, seats, "ask for hints")
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
        """A challenge to the other player of a finished game between people, same settings;
        when they have already offered one, this takes their offer and starts the game (the
        seek returned then names it)."""
        session, seats = await self.player_session(game_id, user)
        assert user is not None
        async with session.lock:
            await self.catch_up(session)  # the game may have ended in another process
        record = session.record
        if not record.online or not session.over:
            raise RequestError(400, "no_rematch", "a rematch follows a finished online game")
        other = next(s for i, s in enumerate(record.seats) if i not in seats)
        opponent = await asyncio.to_thread(self.accounts.by_id, other.user or "")
        if opponent is None:
            raise RequestError(409, "no_user", "the other player is gone")
        clock = record.clock or {}
        spec = {
            "rules": record.rules,
            "lexicon": record.lexicon,
            "rated": record.rated and not user.is_guest and not opponent.is_guest,
            "initial_min": max(1, clock.get("initial_ms", 600_000) // 60_000),
            "increment_s": clock.get("increment_ms", 0) // 1000,
            "max_overtime_min": clock.get("max_overtime_min", 0),
        }
        seek, accepted = await asyncio.to_thread(
            self.lobby.rematch, user, opponent, spec, record.id, WEB_PRESETS
        )
        if accepted:  # both asked: one game
            new_id = await self.start_taken(seek, user)
            return replace(seek, status="taken", game_id=new_id)
        offer = {"type": "rematch", "game_id": record.id, "seek": seek.public(), "from": user.name}
        await self.notifier.publish({"kind": "user", "user": opponent.id, "event": offer})
        await self.notifier.publish({"kind": "game_event", "game": record.id, "event": offer})
        return seek

    # -- other processes -------------------------------------------------------------------

    async def _on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("kind")
        if kind == "action" and isinstance(event.get("game"), str):
            session = self.sessions.get(event["game"])
            seq = event.get("seq")
            if session is not None and isinstance(seq, int) and session.seq <= seq:
                async with session.lock:
                    changed = await self._take(session, seq, event.get("action"))
                if changed:
                    await self.broadcast(session)
                    self._schedule_clock(session)
        elif kind == "lobby":
            await self._send_all(self.lobby_sockets, '{"type":"lobby"}')
        elif kind == "user" and isinstance(event.get("user"), str):
            sockets = self.user_sockets.get(event["user"], set())
            await self._send_all(sockets, json.dumps(event.get("event")))
        elif kind == "game_event" and isinstance(event.get("game"), str):
            session = self.sessions.get(event["game"])
            if session is not None:  # to the players' pages only: spectators hear no offers
                text = json.dumps(event.get("event"))
                await self._send_all({lis.send for lis in session.listeners if lis.seats}, text)
        elif kind == "watchers" and isinstance(event.get("game"), str):
            origin = event.get("origin")  # none: this process's own spectators changed
            if origin is None or self.watchers.heard(
                event["game"], str(origin), event.get("named"), event.get("anonymous")
            ):
                await self._tell_watchers(event["game"])
        elif kind == "watchers_ask" and event.get("origin") and isinstance(event.get("game"), str):
            session = self.sessions.get(event["game"])
            if session is not None and any(not lis.seats for lis in session.listeners):
                await self.notifier.publish(watchers_event(event["game"], session.listeners))
        elif kind == "session_end" and isinstance(event.get("user"), str):
            self.accounts.forget_cached(event["user"])

    @staticmethod
    async def _send_all(sockets: set[Sender], text: str) -> None:
        for send in list(sockets):
            try:
                await send(text)
            except Exception:
                sockets.discard(send)

    async def _take(self, session: Session, seq: int, data: Any) -> bool:
        """Another process stored entry ``seq``: apply the action its event carries when it
        is the next one here, else read what is missing from the log."""
        if session.seq == seq and isinstance(data, dict):
            try:
                action = Action.from_json(data)
                apply_action(session.game, action)
            except (KeyError, TypeError, ValueError, IllegalMove):
                self._forget(session.record.id, session)  # rebuilt from the log when asked
                return False
            session.record.actions.append(action)
            session.turn_started = self._turn_started(action.at_ms)
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
            session.turn_started = self._turn_started(newer[-1].at_ms)
        return bool(newer)

    async def _catch_up_all(self) -> None:
        for session in list(self.sessions.values()):
            async with session.lock:
                changed = await self.catch_up(session)
            if changed:
                await self.broadcast(session)
                self._schedule_bots(session)

    async def sweep(self) -> None:
        """Games whose clock ran out while nobody had them loaded: load them, so their
        clock adjudicates (a game abandoned by a player is lost on time)."""
        await asyncio.to_thread(self.downtime.refresh)
        overdue = await asyncio.to_thread(self.storage.overdue, int(time.time() * 1000))
        for game_id in overdue:
            if game_id not in self.sessions:
                await self.session(game_id)  # decides it, when its clock agrees

    # -- the computer's turns ------------------------------------------------------------

    def _schedule_bots(self, session: Session) -> None:
        self._schedule_clock(session)
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
            if self.bot_delay_s:
                await asyncio.sleep(self.bot_delay_s)
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
                    await self._perform_or_flag(session, seat, "move", move)
                except IllegalMove as exc:
                    log.warning(
                        "game %s: the computer's move was refused (%s); it passes",
                        session.record.id,
                        exc.reason.value,
                    )
                    await self._perform_or_flag(session, seat, "move", Pass())
                except RequestError:
                    return
            await self.broadcast(session)

    # -- clocks --------------------------------------------------------------------------

    def _schedule_clock(self, session: Session) -> None:
        """R7.3: when the player to move runs past the maximum overtime, the game ends. A
        timer, not a sleeping task: every move moves it, and a timer is cheap to cancel."""
        if session.clock_timer is not None:
            session.clock_timer.cancel()
            session.clock_timer = None
        flag = self._to_flag_s(session)
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
    def _to_flag_s(session: Session) -> float | None:
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
        session.clock_task = asyncio.get_running_loop().create_task(
            self._expire(session, seat, seq)
        )

    async def _expire(self, session: Session, seat: int, seq: int) -> None:
        async with session.lock:
            await self.catch_up(session)
            if session.seq != seq or session.over:
                return
            elapsed = int((time.monotonic() - session.turn_started) * 1000)
            try:
                await self._perform(session, seat, "time_expired", None, elapsed)
            except IllegalMove:  # woke a moment early: look again
                self._schedule_clock(session)
                return
            except RequestError:
                return
        await self.broadcast(session)
        self._schedule_bots(session)

    async def close(self) -> None:
        for session in self.sessions.values():
            self._stop_tasks(session)
        await self.notifier.close()
        await asyncio.to_thread(self.writer.close)
        self.cpu.shutdown(wait=False, cancel_futures=True)
        self.think.shutdown(wait=False, cancel_futures=True)
        self.analysis.shutdown(wait=False, cancel_futures=True)
