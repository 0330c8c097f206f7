"""The static player with an exact endgame: static equity until the bag is empty, then the
endgame search (:mod:`tessera.engine.endgame`) picks every move."""

from __future__ import annotations

from tessera.game import PlayerView
from tessera.lexicon import Leaves, Lexicon
from tessera.move import Move

from .endgame import solve, unsupported_reason
from .players import StaticPlayer

DEFAULT_TIME = 1.0  # seconds a move once the bag is empty


class EndgamePlayer(StaticPlayer):
    """:class:`~tessera.engine.players.StaticPlayer` until the bag is empty; then the best move
    the endgame search finds within ``time_limit`` seconds (a proven one when it gets there),
    on ``threads`` threads. Rules the search cannot follow to the end keep the static choice."""

    def __init__(
        self,
        lexicon: Lexicon,
        leaves: Leaves | str | None = "trained",
        name: str = "static-endgame",
        time_limit: float = DEFAULT_TIME,
        threads: int = 1,
    ) -> None:
        super().__init__(lexicon, leaves, name=name)
        if not time_limit > 0:
            raise ValueError(f"time_limit must be a positive number of seconds, not {time_limit}")
        self.time_limit = time_limit
        self.threads = threads

    def choose(self, view: PlayerView) -> Move:
        forced = self._forced(view)
        if forced is not None:
            return forced
        if (
            view.bag_count == 0
            and len(view.names) == 2
            and unsupported_reason(view.rules) is None
            and sum(view.unseen) > 0
        ):
            result = solve(
                view, lexicon=self.lexicon, time_limit=self.time_limit, threads=self.threads
            )
            return result.best
        return super().choose(view)


__all__ = ["DEFAULT_TIME", "EndgamePlayer"]
