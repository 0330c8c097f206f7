"""How long a computer player thinks about one move.

Every player takes a budget per move (``time_limit``, seconds; None: the player's own
default). Under a game clock (R7: ``view.clocks_ms``) the budget is also at most a fair share
of the time left:

    share = (time left × (1 − RESERVE)) / expected own moves left + increment

where the expected own moves left are the tiles still to be played (the bag and both racks)
over :data:`TILES_PER_OWN_MOVE` (a move of each side takes about four tiles), at least one;
the share is capped at :data:`MAX_SHARE` of the time left, so one hard move never spends the
clock. In overtime (no time left), every started minute costs points (R7.2), so the player
thinks for :data:`MIN_BUDGET` only.
"""

from __future__ import annotations

import math

from tessera.game import PlayerView

TILES_PER_OWN_MOVE = 8
RESERVE = 0.1
MAX_SHARE = 0.25
MIN_BUDGET = 0.02


def expected_own_moves(view: PlayerView) -> int:
    """How many more moves the viewer can expect to make (see the module docstring)."""
    tiles = view.bag_count + sum(view.rack_counts)
    return max(1, math.ceil(tiles / TILES_PER_OWN_MOVE))


def move_budget(view: PlayerView, time_limit: float | None) -> float | None:
    """Seconds to spend on this move: ``time_limit``, and under a clock at most the share of
    the time left (None: no limit from either)."""
    if view.clocks_ms is None or view.rules.clock is None:
        return time_limit
    left = view.clocks_ms[view.player] / 1000.0
    if left <= 0:
        return MIN_BUDGET
    increment = view.rules.clock.increment_ms / 1000.0
    share = left * (1.0 - RESERVE) / expected_own_moves(view) + increment
    share = min(share, left * MAX_SHARE)
    budget = share if time_limit is None else min(time_limit, share)
    return max(MIN_BUDGET, budget)


__all__ = ["MAX_SHARE", "MIN_BUDGET", "RESERVE", "TILES_PER_OWN_MOVE", "expected_own_moves",
           "move_budget"]
