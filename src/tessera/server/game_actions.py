"""A player's action on a live game, made and stored: validated and applied by the rules
engine off the event loop (an illegal one changes nothing), committed to the game's log and
only then acknowledged, told to the other processes; a move the game refuses as made after
the flag is replaced by the loss on time (R7.3). A game that ends here gets its result, and
new ratings when it was rated. The caller holds the session's lock throughout.
"""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy.engine import Connection

from tessera.game import Game
from tessera.legality import IllegalMove, Reason
from tessera.move import Challenge, Move

from .errors import RequestError
from .game_requests import parse_request
from .game_sessions import Session, SessionCache, may_abort
from .logwriter import LogWriter
from .notify import Notifier
from .ratings import MIN_TURNS, Ratings, rating_key, turns_taken
from .storage import Action, Storage, StorageError
from .views import move_text

log = logging.getLogger("tessera.server")


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


class GameActions:
    """Makes, stores and announces the actions of this process's live games."""

    def __init__(
        self,
        cache: SessionCache,
        storage: Storage,
        writer: LogWriter,
        notifier: Notifier,
        ratings: Ratings,
        cpu: ThreadPoolExecutor,
    ) -> None:
        self.cache = cache
        self.storage = storage
        self.writer = writer
        self.notifier = notifier
        self.ratings = ratings
        self.cpu = cpu

    def elapsed(self, session: Session) -> int | None:
        if session.game.rules.clock is None:
            return None
        return int((time.monotonic() - session.turn_started) * 1000)

    def make_action(
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
        elapsed = self.elapsed(session) if seat == game.to_move else None
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
            if not may_abort(session, seat):
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

    async def commit(self, session: Session, action: Action, was_to_move: int) -> None:
        """Store an action already applied to the live game; only then is it acknowledged.
        If it cannot be stored, the live game (now ahead of its log) is dropped and rebuilt
        from the log on the next request."""
        seq = session.seq
        turn_moves = action.elapsed_ms is not None or session.game.to_move != was_to_move
        deadline = self._deadline_ms(session) if turn_moves else None
        try:
            stored = await self.writer.append(session.record.id, seq, action, deadline)
        except StorageError:  # another process stored an action there first
            self.cache.forget(session.record.id, session)
            raise RequestError(
                409, "stale", "the game has moved on since this page last heard; reloaded"
            ) from None
        except Exception:
            log.exception("game %s: could not store action %d; reloading", session.record.id, seq)
            self.cache.forget(session.record.id, session)
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

    async def perform(
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
                kind, move = parse_request(session.game, body)
            return self.make_action(session, seat, kind, move, elapsed_ms)

        action = await asyncio.get_running_loop().run_in_executor(self.cpu, make)
        await self.commit(session, action, was_to_move)

    async def perform_or_flag(
        self,
        session: Session,
        seat: int,
        kind: str,
        move: Move | None,
        body: dict[str, Any] | None = None,
    ) -> IllegalMove | None:
        """:meth:`perform`, except that a move the game refuses as made after the flag
        (R7.3, by this server's clock) is replaced by the loss on time; returns that refusal
        (None: the move was made). The caller holds the session's lock."""
        try:
            await self.perform(session, seat, kind, move, body=body)
        except IllegalMove as exc:
            if exc.reason is not Reason.OUT_OF_TIME:
                raise
            await self.perform(session, seat, "time_expired", None, self.elapsed(session) or 0)
            return exc
        return None
