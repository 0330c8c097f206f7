"""Computer players in a duplicate game (R8.4).

In duplicate every player gets the same rack each round and the top play, not theirs, goes on
the board: only the points of the play handed in count, and nothing a player keeps carries
over. So a computer ranks its plays by score alone. ``best`` (or ``static``) always hands in
a top, scoring 100% of the tops; ``level1`` … ``level5`` hand in what the level of the same
name would pick among its pool of plays, valued by score (see
:class:`~tessera.engine.level_player.Level`), so a person has a sparring partner of their
strength.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from tessera.duplicate import DuplicateGame
from tessera.move import Move, Play
from tessera.movegen import generate_moves

from .level_player import LEVELS, Level, main_word
from .registry import level_number

DUPLICATE_PLAYER_NAMES = ("best", "static", "level1", "level2", "level3", "level4", "level5")


class DuplicateComputer:
    """A computer that hands in a play every round: ``DuplicateComputer("level3", seed=1)``."""

    def __init__(self, name: str = "best", *, seed: int | None = None) -> None:
        key = name.strip().lower()
        number = level_number(key)
        self.level: Level | None = LEVELS[number] if number is not None else None
        if number is None and key not in ("best", "static"):
            raise ValueError(
                f"unknown duplicate player {name!r}; players: {', '.join(DUPLICATE_PLAYER_NAMES)}"
            )
        self.name = key
        self.rng = random.Random(seed)

    def choose(self, game: DuplicateGame) -> Play | None:
        """The play this computer hands in for the open round (None: the rack has none)."""
        pool = self.level.pool if self.level is not None else 1
        # no leave values: the moves come ranked by score (the pass, always listed, is no play)
        ranked = generate_moves(game.board, list(game.rack), game.lexicon, game.rules, top=pool + 1)
        plays = [m for m in ranked if isinstance(m, Play)][:pool]
        if not plays:
            return None
        level = self.level
        if level is None or self.rng.random() < level.p_best:
            return plays[0]
        from .commonwords import common_words

        common = common_words()
        board, alphabet = game.board, game.alphabet

        def is_common(move: Move) -> bool:
            return isinstance(move, Play) and main_word(board, alphabet, move) in common

        picked = level.sample(self.rng, plays, [float(p.score or 0) for p in plays], is_common)
        assert isinstance(picked, Play)
        return picked


def computers_hand_in(game: DuplicateGame, computers: Mapping[int, DuplicateComputer]) -> None:
    """Each computer still to hand in for the open round does (nothing, when its rack has
    no play)."""
    for i in game.waiting:
        if i in computers:
            play = computers[i].choose(game)
            if play is not None:
                game.submit(i, play)


__all__ = ["DUPLICATE_PLAYER_NAMES", "DuplicateComputer", "computers_hand_in"]
