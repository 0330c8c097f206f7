"""New games of the web app: one from the new-game dialog (against the computer, or people
at one screen), the same game again after one ends there, and a game between people on their
own devices, started when one takes the other's seek in the lobby or when both offer a
rematch. Each is stored first, then loaded live and its clock (or its computer player)
started; the players' pages and the lobby hear of it through :mod:`.notify`.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace

from tessera.rules import Rules, preset

from .accounts import Accounts, User
from .errors import RequestError
from .game_clocks import GameClocks
from .game_requests import WEB_PRESETS, GameSpec
from .game_sessions import Session, SessionCache
from .lobby import Lobby, Seek
from .notify import Notifier
from .storage import Seat, Storage


class GameStarts:
    """Starts the games of one server process and offers rematches."""

    def __init__(
        self,
        cache: SessionCache,
        clocks: GameClocks,
        storage: Storage,
        accounts: Accounts,
        lobby: Lobby,
        notifier: Notifier,
    ) -> None:
        self.cache = cache
        self.clocks = clocks
        self.storage = storage
        self.accounts = accounts
        self.lobby = lobby
        self.notifier = notifier

    async def _check_lexicon(self, lex_name: str, rules: Rules) -> None:
        lexicon = await asyncio.to_thread(self.cache.lexicon, lex_name)  # a first load compiles
        alphabet = getattr(lexicon, "alphabet", None)
        rules = rules.for_alphabet(alphabet)
        if alphabet is not None and tuple(alphabet.labels) != tuple(rules.tileset.alphabet.labels):
            raise RequestError(
                400,
                "bad_lexicon",
                f"lexicon {lex_name!r} is spelled in the {alphabet.name} alphabet; "
                f"{rules.name} rules use {rules.tileset.alphabet.name} tiles",
            )

    async def start(self, spec: GameSpec) -> str:
        """A new game as ``spec`` asks (the new-game dialog, or a rematch at one screen);
        returns its id."""
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
        session = self.cache.session_from(await asyncio.to_thread(self.storage.load, game_id))
        self.clocks.schedule_bots(session)
        return game_id

    async def rematch_here(self, session: Session) -> str:
        """The same game again — players, computer levels, rules, word list, time control and
        challenge rule — after a finished game against the computer or at one screen; a
        fresh deal (a new seed). Returns the new game's id."""
        record = session.record
        if record.online:
            raise RequestError(400, "no_rematch", "a game between devices is rematched by offer")
        if not session.over:
            raise RequestError(400, "no_rematch", "a rematch follows a finished game")
        spec = GameSpec(
            record.rules, record.lexicon, list(record.seats), record.clock, record.challenge_rule
        )
        return await self.start(spec)

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
        session = self.cache.session_from(await asyncio.to_thread(self.storage.load, game_id))
        self.clocks.schedule_clock(session)
        started = {"type": "game_started", "game_id": game_id, "seek_id": seek.id}
        for user_id in (seeker.id, acceptor.id):
            await self.notifier.publish({"kind": "user", "user": user_id, "event": started})
        await self.notifier.publish({"kind": "lobby"})
        return game_id

    async def offer_rematch(self, session: Session, seats: frozenset[int], user: User) -> Seek:
        """A challenge to the other player of a finished game between people, same settings;
        when they have already offered one, this takes their offer and starts the game (the
        seek returned then names it)."""
        async with session.lock:
            await self.cache.catch_up(session)  # the game may have ended in another process
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
