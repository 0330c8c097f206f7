"""Duplicate games (R8.4) served to their owners: one person or several at one screen, and
computers beside them (or computers alone, watched), up to ``MAX_SEATS`` players. Each
computer is a :class:`~tessera.engine.duplicate_players.DuplicateComputer` named by its
level; the game marks its seats (``DuplicateGame.computers``), and so does its record.

A round closes when every person has handed in their play, in seat order (the page says
whose entry it is and shows nobody's play until the round closes); the computers hand in
then. With no person, each ``/next`` closes a round. Finding the round's tops and the
computers' plays runs on the hub's CPU pool, never on the event loop.

A game lives in memory while it is played, each behind its own lock, and is dropped when
idle (or beyond ``max_live_games``, the least recently used first) like the hub's games;
:mod:`.duplicate_store` keeps its GCG record, rewritten after every hand-in, from which
:func:`tessera.formats.gcg.replay_duplicate` rebuilds it when next asked for. The round
clock is off (``round_seconds=None``): at one screen there is nobody to time.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tessera.duplicate import DuplicateGame
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
from .duplicate_requests import PlayRequest, StartRequest
from .duplicate_store import DuplicateStore
from .duplicate_views import entry_of, outcome_json, people_of, view_json
from .errors import RequestError
from .game_requests import placements_play
from .hub import Hub
from .storage import is_game_id

T = TypeVar("T")


def solo_rules(lexicon: Any) -> Rules:
    """The duplicate preset in the word list's letters, without the round clock."""
    rules = preset("duplicate").for_alphabet(lexicon.alphabet)
    assert rules.duplicate is not None
    return rules.replace(duplicate=dataclasses.replace(rules.duplicate, round_seconds=None))


DEALS = 20  # deals a new game may take to open its first round (open_deal)


def open_deal(deal: Callable[[], DuplicateGame], tries: int = DEALS) -> DuplicateGame:
    """A game from ``deal()`` whose first round is open. Now and then a first rack has no play
    on the empty board, which ends the game before it starts (R8.4.5): nobody asked for such
    a game, so another is dealt, up to ``tries`` deals (the last stands)."""
    for _ in range(tries - 1):
        game = deal()
        if not game.is_over:
            return game
    return deal()


@dataclass
class Room:
    """A live duplicate game and its owner."""

    id: str
    owner: str
    game: DuplicateGame
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    last_used: float = field(default_factory=time.monotonic)
    busy: int = 0  # requests holding or waiting for the lock: never evicted meanwhile


def computers_of(game: DuplicateGame) -> dict[int, DuplicateComputer]:
    """The computer seats, as the computer each is marked, seeded by the game and the round
    (so a game rebuilt from its record goes on as it would have)."""
    return {
        i: DuplicateComputer(name, seed=game.seed + 7919 * game.round + i)
        for i, name in game.computers.items()
    }


def mark_unmarked_computers(game: DuplicateGame) -> None:
    """A record written before computers were marked had one person, at seat 0, and every
    other seat a computer named by its level: mark those seats (people's names never are a
    computer's, so a game of people is left as it is)."""
    if not game.computers:
        game.computers = {
            i: name for i, name in enumerate(game.players)
            if i > 0 and name in DUPLICATE_PLAYER_NAMES
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
    """The live duplicate games of one server process."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.store = DuplicateStore(hub.storage)
        self.rooms: OrderedDict[str, Room] = OrderedDict()  # least recently used first

    async def _cpu(self, job: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.hub.cpu, job)

    async def create(self, user: User, start: StartRequest | None = None) -> Room:
        """A new game of ``start``'s people (the owner alone when it names none) and
        computers, in that seat order."""
        opponents = start.opponents if start is not None else []
        people = start.people if start is not None else None
        if people is None:
            if user.name in opponents:
                raise RequestError(
                    400, "bad_opponents", f"your name is that of the computer {user.name}"
                )
            people = [user.name]
        computers = {len(people) + k: name for k, name in enumerate(opponents)}
        lexicon_name = self.hub.config.default_lexicon
        lexicon = self.hub.lexicon(lexicon_name)

        def begin() -> tuple[DuplicateGame, str]:
            game = open_deal(
                lambda: DuplicateGame(
                    solo_rules(lexicon), lexicon, players=[*people, *opponents],
                    computers=computers,
                )
            )
            return game, gcg.dumps(game)

        game, record = await self._cpu(begin)
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
            mark_unmarked_computers(game)
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

    async def play(self, game_id: str, user: User, request: PlayRequest) -> dict[str, Any]:
        """Hand in a person's play; when it is the last person's of the round, the computers
        hand in and the round closes. Returns the round's outcome (None while people are
        still to hand in: nobody's play is shown before the round closes) and the new view.
        A refused request leaves the game as it was."""
        room = await self.room(game_id, user)
        return await self._locked(room, lambda: self._play(room, request))

    async def next_round(
        self, game_id: str, user: User, round_number: int | None
    ) -> dict[str, Any]:
        """Close the open round of a game of computers alone: each hands in, the master
        move goes on the board. Returns the round's outcome and the new view."""
        room = await self.room(game_id, user)
        return await self._locked(room, lambda: self._next(room, round_number))

    async def _locked(self, room: Room, job: Callable[[], Awaitable[T]]) -> T:
        room.busy += 1
        try:
            async with room.lock:
                return await job()
        finally:
            room.busy -= 1
            room.last_used = time.monotonic()

    @staticmethod
    def _check_open(game: DuplicateGame, round_number: int | None) -> None:
        if game.is_over:
            raise RequestError(409, "game_over", "the game is over")
        if round_number is not None and round_number != game.round:
            raise RequestError(
                409, "round_closed", f"round {round_number} is not open; round {game.round} is"
            )

    async def _play(self, room: Room, request: PlayRequest) -> dict[str, Any]:
        game = room.game
        self._check_open(game, request.round)
        people = people_of(game)
        if not people:
            raise RequestError(409, "no_people", "computers alone play this game")
        seat = request.seat if request.seat is not None else entry_of(game)
        if seat not in people:
            raise RequestError(400, "bad_seat", f"seat {seat} is not a person's in this game")
        entry = entry_of(game)
        if seat != entry:
            assert entry is not None  # a round is open, so a person is still to hand in
            if game.submission(seat) is not None:
                raise RequestError(409, "handed_in",
                                   f"{game.players[seat]} has handed in this round")
            raise RequestError(409, "not_their_entry",
                               f"it is {game.players[entry]}'s entry, not {game.players[seat]}'s")
        play = to_play(game, request)
        waiting = set(game.waiting)
        last = [i for i in people if i in waiting] == [seat]  # the round closes after it

        def submit() -> str:
            game.submit(seat, play, declared=request.declared)
            if last:
                computers_hand_in(game, computers_of(game))
                game.close_round()
            return gcg.dumps(game)

        record = await self._cpu(submit)
        await self._save(room, record)
        return {
            "outcome": outcome_json(game, seat) if last else None,
            "view": {"id": room.id, **view_json(game)},
        }

    async def _next(self, room: Room, round_number: int | None) -> dict[str, Any]:
        game = room.game
        self._check_open(game, round_number)
        if people_of(game):
            raise RequestError(
                409, "people_play", "this game's rounds close when every person has handed in"
            )

        def close() -> str:
            computers_hand_in(game, computers_of(game))
            game.close_round()
            return gcg.dumps(game)

        record = await self._cpu(close)
        await self._save(room, record)
        return {"outcome": outcome_json(game, None), "view": {"id": room.id, **view_json(game)}}

    async def _save(self, room: Room, record: str) -> None:
        try:
            await asyncio.to_thread(self.store.save, room.id, record, room.game.is_over)
        except Exception:
            # memory is ahead of the database: forget it, the record is the truth
            self.rooms.pop(room.id, None)
            raise

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
