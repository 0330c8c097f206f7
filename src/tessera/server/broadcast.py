"""What the pages watching a game are told, and how: the message a page receives (one seat's
view, or a spectator's, encoded once per position and seat: :meth:`Broadcaster.state_text`),
the new state sent to every page of a game after a move, and who watches it, which this
process tells the others through :mod:`.notify` (:mod:`.watchers`). A page that cannot be sent
to is forgotten.
"""

from __future__ import annotations

import json
import time

from tessera.game import SPECTATOR, GameState, PlayerView

from .errors import RequestError
from .game_sessions import Listener, Sender, Session, SessionCache, may_abort
from .notify import Notifier
from .ratings import Ratings
from .views import board_json, event_json, game_json, position_json
from .watchers import Watchers
from .watchers import event as watchers_event


class Broadcaster:
    """Tells the pages of this process's live games, and the other processes, what changed."""

    def __init__(
        self, cache: SessionCache, notifier: Notifier, watchers: Watchers, ratings: Ratings
    ) -> None:
        self.cache = cache
        self.sessions = cache.sessions
        self.notifier = notifier
        self.watchers = watchers
        self.ratings = ratings

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
            data["can_abort"] = bool(seats) and may_abort(session, seat)
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
            await self.send_all({listener.send}, self.watchers.text(game_id, session.listeners))

    def leave(self, session: Session, listener: Listener) -> None:
        """A page stops listening; when it was a spectator, every page hears who still
        watches."""
        session.listeners.discard(listener)
        if not listener.seats:
            self.cache.background(self._spectators_changed(session.record.id))

    async def _spectators_changed(self, game_id: str) -> None:
        """Tell this process's pages of the game and the other processes who watches here
        (through :meth:`.hub.Hub._on_event`)."""
        session = self.sessions.get(game_id)
        await self.notifier.publish(watchers_event(game_id, session.listeners if session else ()))

    async def tell_watchers(self, game_id: str) -> None:
        session = self.sessions.get(game_id)
        if session is not None and session.listeners:
            text = self.watchers.text(game_id, session.listeners)
            await self.send_all({lis.send for lis in session.listeners}, text)

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

    @staticmethod
    async def send_all(sockets: set[Sender], text: str) -> None:
        for send in list(sockets):
            try:
                await send(text)
            except Exception:
                sockets.discard(send)
