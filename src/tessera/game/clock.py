"""The clocks (R7): each player's time left and overtime, the times views show, and the
check that refuses a move made after the flag fell (R7.3). The flag's fall itself
(:meth:`Game.time_expired <tessera.game.Game.time_expired>`) ends the game or passes for the
player, so it is the game's, over every concern it uses.
"""

from __future__ import annotations

from ..legality import IllegalMove, Reason
from .state import PlayerRef, _GameBase


class _Clock(_GameBase):
    """Reading the players' clocks, and refusing a move past the flag."""

    def clock_ms(self, player: PlayerRef) -> int | None:
        """Time left on a player's clock (negative in overtime); None without a clock."""
        clock = self.rules.clock
        if clock is None:
            return None
        p = self._players[self.index(player)]
        return clock.initial_ms + clock.increment_ms * p.turns - p.time_used_ms

    def overtime_ms(self, player: PlayerRef) -> int:
        left = self.clock_ms(player)
        return 0 if left is None else max(0, -left)

    def _clocks(self) -> tuple[int, ...] | None:
        """Each player's time left, as views carry it: never below minus the maximum
        overtime (a flagged clock, R7.3, reads exactly that, however late the game was
        decided or whatever an old log charged)."""
        clock = self.rules.clock
        if clock is None:
            return None
        floor = -clock.max_overtime_min * 60_000
        return tuple(max(floor, self.clock_ms(j) or 0) for j in range(self.num_players))

    def _past_flag_ms(self, player: int, elapsed_ms: int) -> int:
        """How far ``elapsed_ms`` more on the clock takes ``player`` past the point where
        their time and maximum overtime are used up (R7.3); > 0: the flag has fallen."""
        clock = self.rules.clock
        assert clock is not None
        left = self.clock_ms(player) or 0
        return elapsed_ms - left - clock.max_overtime_min * 60_000

    def _check_time(self, mover: int, elapsed_ms: int | None) -> None:
        """R7.3: no move after the flag. Refuses (the game unchanged) an action whose
        elapsed time takes the mover past their time and maximum overtime; exactly at the
        maximum is still in time."""
        if elapsed_ms is None or self.rules.clock is None:
            return
        if elapsed_ms < 0:
            raise IllegalMove(Reason.NO_CLOCK, "elapsed time cannot be negative")
        past = self._past_flag_ms(mover, elapsed_ms)
        if past > 0:
            raise IllegalMove(
                Reason.OUT_OF_TIME,
                f"{self._players[mover].name}'s time ran out {max(1, past // 1000)} s before "
                f"this move (maximum overtime {self.rules.clock.max_overtime_min} min)",
            )

