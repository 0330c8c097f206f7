"""The simulating player (``sim``, and ``best``): it looks ahead instead of ranking one position.

With more than two tiles in the bag it simulates (:func:`~tessera.engine.simulation.simulate`)
the best static candidates, with the opponent's leave inferred from their last move, and plays
the candidate of highest win probability. With few tiles left in the bag
(:data:`PLAY_OUT_BAG` or fewer) the rollouts play on to the end of the game, which is then
only a few moves away, instead of stopping after ``plies`` moves. Each move gets the budget
:func:`~tessera.engine.timing.move_budget` allows (its ``time_limit``, and a share of the game
clock when there is one). It challenges and accepts as the static player does; a game it
cannot simulate (more than two players, rules the compiled engine does not take) it plays as
the static player.
"""

from __future__ import annotations

import time

from tessera.game import PlayerView
from tessera.lexicon import Leaves, Lexicon
from tessera.move import Move

from . import native
from .players import StaticPlayer
from .simref import splitmix64
from .simulation import (
    DEFAULT_CANDIDATES,
    DEFAULT_PLIES,
    SimResult,
    simulate,
)
from .timing import move_budget
from .winpct import WinTable

DEFAULT_TIME_LIMIT = 0.5  # seconds a move when no other limit is given
PLAY_OUT_BAG = 7  # with this many tiles in the bag or fewer, rollouts go to the end
PLAY_OUT_PLIES = 30  # enough plies to end the game from there


class SimPlayer(StaticPlayer):
    """Simulation (see the module docstring). ``iterations`` caps the iterations of a move
    (with a ``seed``, a move is then the same on every machine); ``time_limit`` caps its
    seconds (None with ``iterations``: no time cap; with neither, :data:`DEFAULT_TIME_LIMIT`).
    ``last`` holds the last move's simulation (win percentages for hints)."""

    def __init__(
        self,
        lexicon: Lexicon,
        leaves: Leaves | str | None = "trained",
        name: str = "sim",
        *,
        time_limit: float | None = None,
        iterations: int | None = None,
        plies: int = DEFAULT_PLIES,
        candidates: int = DEFAULT_CANDIDATES,
        threads: int = 1,
        seed: int | None = None,
        inference: bool = True,
        rank_by: str = "win",
        win_table: WinTable | None = None,
    ) -> None:
        if time_limit is None and iterations is None:
            time_limit = DEFAULT_TIME_LIMIT
        super().__init__(lexicon, leaves, name=name, time_limit=time_limit)
        self.iterations = iterations
        self.plies = plies
        self.candidates = candidates
        self.threads = threads
        self.seed = seed
        self.inference = inference
        self.rank_by = rank_by
        self.win_table = win_table
        self.last: SimResult | None = None

    def _simulable(self, view: PlayerView) -> bool:
        return len(view.names) == 2 and native.unsupported_reason(view.rules) is None

    def move_seed(self, view: PlayerView) -> int | None:
        """The seed of this move's simulation: from the player's seed and the turn."""
        if self.seed is None:
            return None
        return splitmix64(splitmix64(self.seed) ^ len(view.history))

    def choose(self, view: PlayerView) -> Move:
        forced = self._forced(view)
        if forced is not None:
            return forced
        self.last = None
        if not self._simulable(view):
            return super().choose(view)
        began = time.perf_counter()
        budget = move_budget(view, self.time_limit)
        top = self.ranked_raw(view, top=2)
        if len(top) == 1:
            return native.to_move(top[0])
        if budget is not None:
            budget = max(0.001, budget - (time.perf_counter() - began))
        plies = PLAY_OUT_PLIES if view.bag_count <= PLAY_OUT_BAG else self.plies
        self.last = simulate(
            view, plies, self.iterations, budget, self.threads, self.candidates,
            self.move_seed(view), lexicon=self.lexicon, leaves=self.leaves,
            win_table=self.win_table, inference=self.inference, rank_by=self.rank_by,
        )
        return self.last.best.move


__all__ = ["DEFAULT_TIME_LIMIT", "SimPlayer"]
