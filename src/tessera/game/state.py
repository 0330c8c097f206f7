"""What a game holds: each player's seat (:class:`_Player`), the tile play that may still be
challenged (:class:`_Pending`), and :class:`_GameBase`, which declares every field of a
:class:`~tessera.game.Game` and holds the deal and the lookups that read those fields; the
game's other concerns are mixins built on it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from ..board import Board, WordSpan
from ..legality import IllegalMove, Reason
from ..move import Move, Play
from ..rules import ChallengeRule, FirstPlayer, Rules
from ..tiles import Alphabet, Rack, TileSet
from .records import Event, EventKind, GameResult, GameState

PlayerRef = int | str


class WordSource(Protocol):
    """What the game needs of a lexicon (``tessera.lexicon.Lexicon`` provides it)."""

    def contains(self, tiles: Sequence[int]) -> bool: ...

    def has_anagram(self, tiles: Sequence[int]) -> bool: ...


@dataclass
class _Player:
    name: str
    rack: Rack
    score: int = 0
    exchanges: int = 0
    time_used_ms: int = 0
    turns: int = 0
    loses_next_turn: bool = False
    # the words that stood, for the lost turn's verdict_words (R5.4a)
    lost_turn_words: tuple[tuple[int, ...], ...] = field(default=(), compare=False)

    def copy(self) -> _Player:
        return replace(self, rack=self.rack.copy())


@dataclass(frozen=True)
class _Pending:
    """The last tile play while it may still be challenged (R5.1)."""

    event_index: int
    player: int
    play: Play
    rack_before: tuple[int, ...]
    drawn: tuple[int, ...]
    words: tuple[WordSpan, ...]
    scoreless_before: int
    passes_before: int
    missed_center: bool


class _GameBase:
    """The fields of a game (declared here for the type checker, set by ``Game.__init__``),
    the deal and the lookups: what every concern of the game reads."""

    rules: Rules
    lexicon: WordSource | None
    tileset: TileSet
    alphabet: Alphabet
    seed: int
    _rng: random.Random
    board: Board
    _bag: list[int]
    _players: list[_Player]
    history: list[Event]
    _redactions: dict[int, list[tuple[Event, Event]]]
    state: GameState
    result: GameResult | None
    _pending: _Pending | None
    _challenged: bool
    _scoreless: int
    _passes: int
    _final_round_end: int | None
    _pre_adjust: list[int] | None
    _undo: list[tuple[object, ...]]
    _keeps_undo: bool
    order_draws: list[tuple[int, ...]]
    first: int
    to_move: int

    # -- setup ---------------------------------------------------------------------------

    def _draw(self) -> int:
        return self._bag.pop(self._rng.randrange(len(self._bag)))

    def _choose_first(self, first: int | None) -> int:
        """R1.4: a fixed index, or the draw (closest to A wins, a blank beats all; ties redraw).

        The drawn tiles go back into the bag, or with ``return_order_tiles=False`` each player
        keeps the last tile they drew as the first tile of their rack.
        """
        n = len(self._players)
        if first is not None:
            if not 0 <= first < n:
                raise ValueError(f"first player index {first} is out of range")
            return first
        if self.rules.first_player is FirstPlayer.FIXED:
            return self.rules.first_player_index % n
        contenders = list(range(n))
        kept: dict[int, int] = {}  # return_order_tiles=False: each player's last drawn tile
        while True:
            drawn = {p: self._draw() for p in contenders}
            self.order_draws.append(tuple(drawn.get(p, -1) for p in range(n)))
            best = min(drawn.values())  # blank is 0: lowest id wins
            winners = [p for p, t in drawn.items() if t == best]
            for p, tile in drawn.items():
                if self.rules.return_order_tiles:
                    self._bag.append(tile)
                else:  # R1.4.1 variant: keep the tile (a tied player keeps the redrawn one)
                    if p in kept:
                        self._bag.append(kept[p])
                    kept[p] = tile
            if len(winners) == 1:
                for p, tile in kept.items():
                    self._players[p].rack.add(tile)
                return winners[0]
            contenders = winners

    def _fill_rack(self, p: int) -> tuple[int, ...]:
        drawn = []
        rack = self._players[p].rack
        while len(rack) < self.rules.rack_size and self._bag:
            t = self._draw()
            rack.add(t)
            drawn.append(t)
        return tuple(drawn)

    # -- lookups -------------------------------------------------------------------------

    @property
    def players(self) -> list[str]:
        return [p.name for p in self._players]

    @property
    def num_players(self) -> int:
        return len(self._players)

    def index(self, player: PlayerRef) -> int:
        """A player's index from an index or a name."""
        if isinstance(player, int) and not isinstance(player, bool):
            if 0 <= player < len(self._players):
                return player
        elif isinstance(player, str):
            for i, p in enumerate(self._players):
                if p.name == player:
                    return i
        raise IllegalMove(Reason.UNKNOWN_PLAYER, f"no player {player!r} in this game")

    def rack(self, player: PlayerRef) -> Rack:
        """A copy of a player's rack (the game itself may see every rack)."""
        return self._players[self.index(player)].rack.copy()

    def score(self, player: PlayerRef) -> int:
        return self._players[self.index(player)].score

    @property
    def scores(self) -> list[int]:
        return [p.score for p in self._players]

    @property
    def bag_count(self) -> int:
        return len(self._bag)

    def bag_tiles(self) -> list[int]:
        """The bag's contents, sorted (never its order)."""
        return sorted(self._bag)

    @property
    def is_over(self) -> bool:
        return self.state is GameState.OVER

    @property
    def scoreless_turns(self) -> int:
        return self._scoreless

    @property
    def consecutive_passes(self) -> int:
        return self._passes

    def can_challenge(self) -> bool:
        return (
            self._pending is not None
            and not self._challenged
            and self.rules.challenge_rule is not ChallengeRule.VOID
            and self.state is not GameState.OVER
        )

    def _event(
        self,
        kind: EventKind,
        player: int,
        rack: tuple[int, ...],
        score: int,
        total: int,
        move: Move | None = None,
        **details: Any,
    ) -> Event:
        """A history entry of this game, written in its alphabet (``details``: the other
        fields of :class:`Event`)."""
        return Event(kind, player, rack, score, total, move, **details, alphabet=self.alphabet)
