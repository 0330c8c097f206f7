"""The simulating player (``sim``, and ``best``): it looks ahead instead of ranking one position.

With the bag empty it plays the exact endgame search's move
(:func:`~tessera.engine.endgame.solve`); with one or two tiles in the bag, the pre-endgame's
(:func:`~tessera.engine.preendgame.evaluate`: the best static candidates and the pass, each
weighed over every draw), highest win probability first. With more than two tiles in the bag
it simulates (:func:`~tessera.engine.simulation.simulate`)
the best static candidates, with the opponent's leave inferred from their last move, and plays
the candidate of highest win probability. With few tiles left in the bag
(:data:`PLAY_OUT_BAG` or fewer) the rollouts play on to the end of the game, which is then
only a few moves away, instead of stopping after ``plies`` moves; in a finish-line race (R8.3)
they always play on to its end, a few turns away, and a play that reaches the target (a win)
is taken without simulating. Each move gets the budget
:func:`~tessera.engine.timing.move_budget` allows (its ``time_limit``, and a share of the game
clock when there is one). It challenges and accepts as the static player does; a game it
cannot simulate (more than two players, rules the compiled engine does not take) it plays as
the static player.
"""

from __future__ import annotations

import time

from tessera.game import PlayerView
from tessera.lexicon import Leaves, Lexicon
from tessera.move import Move, Pass

from . import endgame, native, preendgame
from .players import StaticPlayer
from .simref import splitmix64
from .simulation import (
    DEFAULT_CANDIDATES,
    DEFAULT_PLIES,
    SimResult,
    same_move,
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
        self.last: SimResult | None = None  # the last move's simulation, if it simulated
        # the last move's endgame or pre-endgame search, if it searched
        self.last_search: endgame.EndgameResult | list[preendgame.PreendgameCandidate] | None
        self.last_search = None

    def _simulable(self, view: PlayerView) -> bool:
        # a finish-line game that completes the round: rollouts cannot play its last round
        last_round = view.rules.finish_line_complete_round
        return (
            len(view.names) == 2
            and native.unsupported_reason(view.rules) is None
            and not (last_round and view.rules.finish_line_target is not None)
        )

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
        self.last_search = None
        if not self._simulable(view):
            return super().choose(view)
        began = time.perf_counter()
        budget = move_budget(view, self.time_limit)
        top = self.ranked_raw(view, top=max(2, self.candidates))
        target = view.rules.finish_target(len(view.scores))
        race = target is not None
        if len(top) == 1 or (race and view.scores[view.player] + top[0][5] >= target):
            return native.to_move(top[0], view.rules.tileset.alphabet)  # only move, or a win
        if budget is not None:
            budget = max(0.001, budget - (time.perf_counter() - began))
        if endgame.unsupported_reason(view.rules) is None and view.bag_count <= preendgame.MAX_BAG:
            search_time = budget if budget is not None else DEFAULT_TIME_LIMIT
            try:
                if view.bag_count == 0:
                    found = endgame.solve(
                        view, lexicon=self.lexicon, threads=self.threads, time_limit=search_time
                    )
                    self.last_search = found
                    return found.best
                return self._preendgame(view, top, search_time)
            except endgame.EndgameError:  # a position the searches cannot take: simulate it
                self.last_search = None
                if budget is not None:
                    budget = max(0.001, budget - (time.perf_counter() - began))
        plies = PLAY_OUT_PLIES if race or view.bag_count <= PLAY_OUT_BAG else self.plies
        self.last = simulate(
            view, plies, self.iterations, budget, self.threads, self.candidates,
            self.move_seed(view), lexicon=self.lexicon, leaves=self.leaves_for(view.rules),
            win_table=self.win_table, inference=self.inference, rank_by=self.rank_by,
        )
        return self.last.best.move

    def _preendgame(self, view: PlayerView, top: list, budget: float) -> Move:
        """The pre-endgame's choice among the best static candidates and the pass."""
        alphabet = view.rules.tileset.alphabet
        moves = [native.to_move(c, alphabet) for c in top if c[0] != 1]  # no exchange: 1-2 in bag
        if not any(same_move(m, Pass()) for m in moves):
            moves.append(Pass())
        found = preendgame.evaluate(
            view, moves, lexicon=self.lexicon, threads=self.threads, time_limit=budget
        )
        self.last_search = found
        best = max(found, key=lambda c: (c.win_probability, c.expected_spread))
        return best.move


__all__ = ["DEFAULT_TIME_LIMIT", "SimPlayer"]
