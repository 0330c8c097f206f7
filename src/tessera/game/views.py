"""What each player may know: :class:`PlayerView` (never another rack or the bag, DESIGN
principle 4), a spectator's view (:data:`SPECTATOR`), and the game's side of making them:
the unseen tiles and the history with other players' racks and exchanges redacted.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..board import Board
from ..display import POSITION_TEXT, draw
from ..move import Exchange
from ..rules import Rules
from ..tiles import BLANK, BLANK_BIT, TileSet
from .clock import _Clock
from .records import Event, EventKind, GameResult, GameState
from .state import PlayerRef

SPECTATOR = -1  # the ``player`` of a spectator's view (Game.spectator_view)


@dataclass(frozen=True)
class PlayerView:
    """Everything one player may know (DESIGN principle 4): never another rack or the bag."""

    player: int
    names: tuple[str, ...]
    rules: Rules
    board: Board
    rack: tuple[int, ...]
    scores: tuple[int, ...]
    to_move: int
    state: GameState
    bag_count: int
    rack_counts: tuple[int, ...]
    unseen: tuple[int, ...]  # tile counts by id: bag + other racks, from this player's side
    history: tuple[Event, ...]
    can_challenge: bool
    clocks_ms: tuple[int, ...] | None
    result: GameResult | None
    final_racks: tuple[tuple[int, ...], ...] | None  # revealed once the game is over
    scoreless_turns: int = 0  # consecutive scoreless turns so far (R6.2)
    consecutive_passes: int = 0  # consecutive passes so far (R6.3)

    @property
    def tileset(self) -> TileSet:
        return self.rules.tileset

    @property
    def is_my_turn(self) -> bool:
        return self.state is not GameState.OVER and self.to_move == self.player

    def __repr__(self) -> str:
        who = "spectator" if self.player == SPECTATOR else self.names[self.player]
        mine = self.tileset.alphabet.text(self.rack)
        rack = "" if self.player == SPECTATOR else f" rack={mine!r}"
        return (
            f"<PlayerView {who} ({self.rules.name}){rack} scores={self.scores} "
            f"to_move={self.names[self.to_move]!r} bag={self.bag_count} state={self.state.value}>"
        )

    def __str__(self) -> str:
        """The board and the score lines, with the viewer's own rack."""
        racks = [
            self.tileset.alphabet.text(self.rack) if i == self.player else ""
            for i in range(len(self.names))
        ]
        to_move = None if self.state is GameState.OVER else self.to_move
        return draw(POSITION_TEXT, self.board, self.names, self.scores, racks, to_move)

    def _repr_svg_(self) -> str | None:
        return self.board._repr_svg_()



class _Views(_Clock):
    """The views a game gives its players and spectators."""

    def _off_board(self) -> list[int]:
        """Counts by tile id of the tiles not on the board: the bag and every rack."""
        counts = list(self.tileset.counts)
        for t in self.board.placed_tiles():
            counts[BLANK if t & BLANK_BIT else t] -= 1
        return counts

    def unseen_for(self, player: int) -> list[int]:
        """Counts by tile id of the tiles this player cannot see: the bag and other racks."""
        counts = self._off_board()
        for t in self._players[player].rack.tiles():
            counts[t] -= 1
        return counts

    def view(self, player: PlayerRef) -> PlayerView:
        """What ``player`` may know (R1.5 racks are hidden; the bag order never leaves)."""
        i = self.index(player)
        over = self.state is GameState.OVER
        return PlayerView(
            player=i,
            names=tuple(self.players),
            rules=self.rules,
            board=self.board.copy(),
            rack=tuple(self._players[i].rack.tiles()),
            scores=tuple(self.scores),
            to_move=self.to_move,
            state=self.state,
            bag_count=len(self._bag),
            rack_counts=tuple(len(p.rack) for p in self._players),
            unseen=tuple(self.unseen_for(i)),
            history=self._history_for(i, over),
            can_challenge=self.can_challenge()
            and self._pending is not None
            and self._pending.player != i,
            clocks_ms=self._clocks(),
            result=self.result,
            final_racks=tuple(tuple(p.rack.tiles()) for p in self._players) if over else None,
            scoreless_turns=self._scoreless,
            consecutive_passes=self._passes,
        )

    def spectator_view(self) -> PlayerView:
        """What someone watching may know: the board, scores, clocks and the moves, never a
        rack or an exchange's tiles until the game is over. Its ``player`` is
        :data:`SPECTATOR` and its rack is empty; ``unseen`` counts every tile not on the board."""
        over = self.state is GameState.OVER
        return PlayerView(
            player=SPECTATOR,
            names=tuple(self.players),
            rules=self.rules,
            board=self.board.copy(),
            rack=(),
            scores=tuple(self.scores),
            to_move=self.to_move,
            state=self.state,
            bag_count=len(self._bag),
            rack_counts=tuple(len(p.rack) for p in self._players),
            unseen=tuple(self._off_board()),
            history=self._history_for(SPECTATOR, over),
            can_challenge=False,
            clocks_ms=self._clocks(),
            result=self.result,
            final_racks=tuple(tuple(p.rack.tiles()) for p in self._players) if over else None,
            scoreless_turns=self._scoreless,
            consecutive_passes=self._passes,
        )

    def _history_for(self, viewer: int, over: bool) -> tuple[Event, ...]:
        """The history as ``viewer`` sees it, each event redacted once: an entry is reused
        while the event at its place is still the same object (undo and challenges replace
        events, and are redacted afresh)."""
        if over:
            return tuple(self.history)
        seen = self._redactions.setdefault(viewer, [])
        for i, event in enumerate(self.history):
            if i < len(seen) and seen[i][0] is event:
                continue
            del seen[i:]
            seen.append((event, self._redact(event, viewer, over)))
        del seen[len(self.history) :]
        return tuple(shown for _, shown in seen)

    @staticmethod
    def _redact(event: Event, viewer: int, over: bool) -> Event:
        """Hide another player's rack and exchanged tiles while the game is on."""
        if over or event.player == viewer:
            return event
        if event.kind in (EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY):
            return event  # racks revealed by the end of the game
        move = event.move
        if isinstance(move, Exchange):
            move = Exchange(count=move.n)
        return replace(event, rack=(), move=move)

