"""Duplicate games (R8.4) served to their owners: one person against the master move, and
computers beside them if they ask (up to ``MAX_OPPONENTS``; seat 0 is the person, every
other seat a :class:`~tessera.engine.duplicate_players.DuplicateComputer` named by its
level, which hands in its play when the person does).

A game lives in memory while it is played, each behind its own lock, and is dropped when
idle (or beyond ``max_live_games``, the least recently used first) like the hub's games;
:mod:`.duplicate_store` keeps its GCG record, rewritten after every round, from which
:func:`tessera.formats.gcg.replay_duplicate` rebuilds it when next asked for. The round
clock is off (``round_seconds=None``): alone at a page there is nobody to wait for. Each
submission closes its round at once (one player), and finding the round's tops runs on the
hub's CPU pool, never on the event loop.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tessera.duplicate import DuplicateGame, Submission
from tessera.engine.duplicate_players import (
    DUPLICATE_PLAYER_NAMES,
    DuplicateComputer,
    computers_hand_in,
)
from tessera.formats import gcg
from tessera.legality import IllegalMove
from tessera.move import NotationError, Play, parse_move
from tessera.rules import Rules, preset

from .accounts import User
from .duplicate_store import DuplicateStore
from .duplicate_views import PLAYER, submission_json, view_json
from .errors import RequestError, field_int, field_str
from .hub import MAX_MOVE_TEXT, MAX_PLACEMENTS, Hub, placements_play
from .storage import is_game_id
from .views import move_text

MAX_DECLARED = 9999  # no play scores more than a few thousand
PLAY_FIELDS = frozenset({"placements", "move", "declared", "round"})
START_FIELDS = frozenset({"opponents"})
MAX_OPPONENTS = 3
T = TypeVar("T")


def solo_rules(lexicon: Any) -> Rules:
    """The duplicate preset in the word list's letters, without the round clock."""
    rules = preset("duplicate").for_alphabet(lexicon.alphabet)
    assert rules.duplicate is not None
    return rules.replace(duplicate=dataclasses.replace(rules.duplicate, round_seconds=None))


@dataclass
class Room:
    """A live solo game and its owner."""

    id: str
    owner: str
    game: DuplicateGame
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    last_used: float = field(default_factory=time.monotonic)
    busy: int = 0  # requests holding or waiting for the lock: never evicted meanwhile


@dataclass(frozen=True)
class PlayRequest:
    """A checked ``/play`` body: placements or notation, the declared score, the round."""

    placements: Any
    text: str | None
    declared: int | None
    round: int | None


def read_play(body: dict[str, Any]) -> PlayRequest:
    """Bound and check a ``/play`` body before it waits for the game (400 when malformed)."""
    unknown = set(body) - PLAY_FIELDS
    if unknown:
        raise RequestError(400, "bad_field", f"unknown field {sorted(unknown)[0]!r}")
    has_move, has_placements = "move" in body, "placements" in body
    if has_move == has_placements:
        raise RequestError(400, "bad_play", "send either placements or move")
    text = field_str(body, "move", MAX_MOVE_TEXT).strip() if has_move else None
    if has_move and not text:
        raise RequestError(400, "bad_play", "write the play, such as 8D QUITE")
    placements = body.get("placements")
    if has_placements:
        if not isinstance(placements, list) or not placements:
            raise RequestError(400, "bad_play", "placements is a list of [row, column, letter]")
        if len(placements) > MAX_PLACEMENTS:
            raise RequestError(400, "bad_play", "too many tiles in one play")
    declared = field_int(body, "declared", required=False)
    if declared is not None and not 0 <= declared <= MAX_DECLARED:
        raise RequestError(400, "bad_declared", f"declared is a score from 0 to {MAX_DECLARED}")
    round_number = field_int(body, "round", required=False)
    return PlayRequest(placements, text, declared, round_number)


def read_opponents(body: dict[str, Any]) -> list[str]:
    """The computers a new game's body asks for (none when it names none): 400 unless a
    list of at most ``MAX_OPPONENTS`` different computer names."""
    unknown = set(body) - START_FIELDS
    if unknown:
        raise RequestError(400, "bad_field", f"unknown field {sorted(unknown)[0]!r}")
    names = body.get("opponents", [])
    if not isinstance(names, list) or len(names) > MAX_OPPONENTS:
        raise RequestError(
            400, "bad_opponents", f"opponents is a list of at most {MAX_OPPONENTS} computers"
        )
    if any(not isinstance(n, str) or n not in DUPLICATE_PLAYER_NAMES for n in names):
        raise RequestError(
            400, "bad_opponents", f"computers are {', '.join(DUPLICATE_PLAYER_NAMES)}"
        )
    if len(set(names)) != len(names):
        raise RequestError(400, "bad_opponents", "each computer plays once")
    return names


def computers_of(game: DuplicateGame) -> dict[int, DuplicateComputer]:
    """Every seat but the person's, as the computer its name says, seeded by the game and
    the round (so a game rebuilt from its record goes on as it would have)."""
    return {
        i: DuplicateComputer(name, seed=game.seed + 7919 * game.round + i)
        for i, name in enumerate(game.players)
        if i != PLAYER
    }


def to_play(game: DuplicateGame, request: PlayRequest) -> Play:
    """The play the request names on the game's board (400 when it names none: unreadable
    notation, a pass or an exchange, tiles not in one line). A readable play that breaks
    the rules otherwise (a tile not on the rack, a word not in the list) is judged instead,
    as an arbiter would, and scores 0."""
    if request.text is not None:
        try:
            move = parse_move(request.text, game.alphabet, game.board, rack=game.rack)
        except NotationError as exc:
            raise RequestError(400, "notation", str(exc)) from None
        if not isinstance(move, Play):
            raise RequestError(400, "not_a_play", "duplicate has no passes or exchanges")
        return move
    try:
        return placements_play(game.board, game.alphabet, request.placements)
    except IllegalMove as exc:
        raise RequestError(400, exc.reason.value, str(exc)) from None


class Duplicates:
    """The live solo duplicate games of one server process."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.store = DuplicateStore(hub.storage)
        self.rooms: OrderedDict[str, Room] = OrderedDict()  # least recently used first

    async def _cpu(self, job: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.hub.cpu, job)

    async def create(self, user: User, opponents: list[str] | None = None) -> Room:
        opponents = opponents or []
        if user.name in opponents:
            raise RequestError(
                400, "bad_opponents", f"your name is that of the computer {user.name}"
            )
        lexicon_name = self.hub.config.default_lexicon
        lexicon = self.hub.lexicon(lexicon_name)

        def start() -> tuple[DuplicateGame, str]:
            game = DuplicateGame(
                solo_rules(lexicon), lexicon, players=[user.name, *opponents]
            )
            return game, gcg.dumps(game)

        game, record = await self._cpu(start)
        game_id = await asyncio.to_thread(self.store.create, user.id, lexicon_name, record)
        room = Room(game_id, user.id, game)
        self._keep(room)
        return room

    async def room(self, game_id: str, user: User) -> Room:
        """The owner's game (404 unknown, 403 someone else's), rebuilt from its record when
        it is not in memory."""
        if not is_game_id(game_id):
            raise RequestError(404, "no_game", "there is no such duplicate game")
        room = self.rooms.get(game_id)
        if room is None:
            row = await asyncio.to_thread(self.store.load, game_id)
            if row is None:
                raise RequestError(404, "no_game", "there is no such duplicate game")
            if row.user_id != user.id:
                raise RequestError(403, "forbidden", "this duplicate game is someone else's")
            lexicon = self.hub.lexicon(row.lexicon)
            game = await self._cpu(lambda: gcg.replay_duplicate(row.record, lexicon=lexicon))
            room = self.rooms.get(game_id) or Room(game_id, row.user_id, game)  # a race: one
            self._keep(room)
        if room.owner != user.id:
            raise RequestError(403, "forbidden", "this duplicate game is someone else's")
        room.last_used = time.monotonic()
        self.rooms.move_to_end(game_id)
        return room

    def _keep(self, room: Room) -> None:
        self.rooms[room.id] = room
        self.evict_idle(keep=room)

    async def view(self, game_id: str, user: User) -> dict[str, Any]:
        room = await self.room(game_id, user)
        async with room.lock:
            return {"id": room.id, **view_json(room.game)}

    async def record(self, game_id: str, user: User) -> str:
        """The game's GCG record, once it is over (before, its seed would tell the racks to
        come)."""
        room = await self.room(game_id, user)
        async with room.lock:
            if not room.game.is_over:
                raise RequestError(409, "game_on", "the record is yours once the game is over")
            return gcg.dumps(room.game)

    async def play(self, game_id: str, user: User, body: dict[str, Any]) -> dict[str, Any]:
        """Submit the owner's play and close the round: the round's outcome and the new
        view. A refused request leaves the game as it was."""
        request = read_play(body)
        room = await self.room(game_id, user)
        room.busy += 1
        try:
            async with room.lock:
                return await self._play(room, request)
        finally:
            room.busy -= 1
            room.last_used = time.monotonic()

    async def _play(self, room: Room, request: PlayRequest) -> dict[str, Any]:
        game = room.game
        if game.is_over:
            raise RequestError(409, "game_over", "the game is over")
        if request.round is not None and request.round != game.round:
            raise RequestError(
                409, "round_closed", f"round {request.round} is not open; round {game.round} is"
            )
        play = to_play(game, request)

        def submit() -> tuple[Submission, str]:
            game.submit(PLAYER, play, declared=request.declared)
            computers_hand_in(game, computers_of(game))
            game.close_round()
            return game.rounds[-1].submissions[PLAYER], gcg.dumps(game)

        mine, record = await self._cpu(submit)
        try:
            await asyncio.to_thread(self.store.save, room.id, record, game.is_over)
        except Exception:
            # memory is a round ahead of the database: forget it, the record is the truth
            self.rooms.pop(room.id, None)
            raise
        rd = game.rounds[-1]
        alphabet = game.alphabet
        return {
            "outcome": {
                "round": rd.number,
                **submission_json(mine, alphabet),
                "top": move_text(rd.top, alphabet),
                "top_score": rd.top.score or 0,
            },
            "view": {"id": room.id, **view_json(game)},
        }

    def evict_idle(self, keep: Room | None = None) -> int:
        """Drop games idle for ``idle_game_s`` (``idle_over_game_s`` once over) and the least
        recently used beyond ``max_live_games``; returns how many were dropped."""
        config = self.hub.config
        now = time.monotonic()
        over = len(self.rooms) - config.max_live_games
        dropped = 0
        for game_id, room in list(self.rooms.items()):
            if room is keep or room.busy or room.lock.locked():
                continue
            limit = config.idle_over_game_s if room.game.is_over else config.idle_game_s
            if over > 0 or now - room.last_used > limit:
                del self.rooms[game_id]
                over -= 1
                dropped += 1
        return dropped
