"""The levels for people: how each of levels 1-5 picks its move (:class:`Level`,
:data:`LEVELS`) and the player that plays one (:class:`LevelPlayer`), a
:class:`~tessera.engine.players.StaticPlayer` that picks among the good moves with a
controlled probability and prefers common words.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tessera.board import Board
from tessera.game import PlayerView
from tessera.lexicon import Leaves, Lexicon
from tessera.move import Exchange, Move, Pass, Play
from tessera.tiles import Alphabet, letter_of

from . import native
from .players import StaticPlayer


@dataclass(frozen=True)
class Level:
    """How a level for people picks its move.

    With probability ``p_best`` it plays the best-equity move (or, when ``sim_iterations`` is
    set, the best of its ``pool`` by a short simulation of that many iterations); otherwise
    it samples among the ``pool`` best moves with weight ``exp((equity - best) /
    temperature)``, times ``rare_weight`` for a play whose main word is not a common word.
    ``leaves`` says whether it values the tiles it keeps.
    """

    number: int
    pool: int
    p_best: float
    temperature: float
    rare_weight: float
    leaves: bool
    description: str
    sim_iterations: int = 0

    def sample(
        self,
        rng: random.Random,
        moves: Sequence[Move],
        values: Sequence[float],
        is_common: Callable[[Move], bool],
    ) -> Move:
        """One of ``moves`` (best first, valued by ``values``) drawn as the level draws
        when it does not play the best: weight ``exp((value - best) / temperature)``, times
        ``rare_weight`` for an uncommon word."""
        best = values[0]
        weights = []
        for move, value in zip(moves, values, strict=True):
            w = math.exp((value - best) / self.temperature)
            if not is_common(move):
                w *= self.rare_weight
            weights.append(w)
        return weighted_choice(rng, moves, weights)


LEVELS: dict[int, Level] = {
    1: Level(1, 60, 0.0, 40.0, 0.02, False, "beginner: short common words, often low-scoring"),
    2: Level(2, 40, 0.05, 16.0, 0.1, False, "casual: common words, sometimes a good play"),
    3: Level(3, 30, 0.1, 10.0, 0.2, True, "club: decent plays, mostly common words"),
    4: Level(4, 20, 0.15, 7.0, 0.3, True, "strong: good plays, prefers familiar words"),
    5: Level(5, 12, 0.3, 5.0, 0.7, True, "expert: often the best play, by a short simulation",
             sim_iterations=100),
}


class LevelPlayer(StaticPlayer):
    """A weaker player for people: see :class:`Level`. ``seed`` fixes its choices."""

    def __init__(
        self,
        lexicon: Lexicon,
        level: int,
        leaves: Leaves | None = None,
        seed: int | None = None,
        common: frozenset[str] | None = None,
        time_limit: float | None = None,
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"level must be 1..{len(LEVELS)}, not {level!r}")
        self.level = LEVELS[level]
        super().__init__(
            lexicon, (leaves or "trained") if self.level.leaves else None, name=f"level{level}",
            time_limit=time_limit,
        )
        self.rng = random.Random(seed)
        if common is None:
            from .commonwords import common_words

            common = common_words()
        self.common = common

    def _is_common(self, view: PlayerView, move: Move) -> bool:
        if not isinstance(move, Play):
            return True
        return word_text(view, move) in self.common

    def choose(self, view: PlayerView) -> Move:
        forced = self._forced(view, challenges=self.level.number >= 3)
        if forced is not None:
            return forced
        ranked = self.ranked(view, top=self.level.pool)
        plays = [r for r in ranked if isinstance(r.move, Play | Exchange | Pass)]
        if not plays:
            return Pass()
        if self.rng.random() < self.level.p_best:
            if self.level.sim_iterations and len(plays) > 1:
                return self._simulated(view, len(plays))
            return plays[0].move
        return self.level.sample(
            self.rng,
            [r.move for r in plays],
            [r.equity for r in plays],
            lambda move: self._is_common(view, move),
        )


    def _simulated(self, view: PlayerView, pool: int) -> Move:
        """The best of the ``pool`` best static moves by a short simulation (the static best
        in a game the simulation does not take)."""
        from .simulation import SimulationError, simulate
        from .timing import move_budget

        seed = self.rng.randrange(2**63)
        try:
            result = simulate(
                view, iterations=self.level.sim_iterations,
                time_limit=move_budget(view, self.time_limit), candidates=pool, seed=seed,
                lexicon=self.lexicon, leaves=self.leaves_for(view.rules),
            )
        except (SimulationError, native.EngineUnavailable):
            return self.ranked(view, top=1)[0].move
        return result.best.move


def word_text(view: PlayerView, play: Play) -> str:
    """The main word of a play as upper-case text (played-through letters from the board)."""
    return main_word(view.board, view.rules.tileset.alphabet, play)


def main_word(board: Board, alphabet: Alphabet, play: Play) -> str:
    """The main word of ``play`` on ``board`` as upper-case text."""
    dr, dc = (0, 1) if play.across else (1, 0)
    letters = []
    for i, t in enumerate(play.word):
        tile = t or board.get(play.row + dr * i, play.col + dc * i)
        letters.append(alphabet.label(letter_of(tile)))
    return "".join(letters).upper()


def weighted_choice(rng: random.Random, items: Sequence[Move], weights: Sequence[float]) -> Move:
    """One item drawn with these weights (deterministic for a seeded ``rng``)."""
    total = sum(weights)
    x = rng.random() * total
    for item, w in zip(items, weights, strict=True):
        x -= w
        if x < 0:
            return item
    return items[-1]

