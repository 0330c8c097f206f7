"""Taking actions back: the snapshot every action takes first, restored when the action is
refused half-way (so a refused action changes nothing) and kept for :meth:`Game.undo
<tessera.game.Game.undo>` in casual games without a clock.
"""

from __future__ import annotations

from typing import cast

from ..board import Board
from ..legality import IllegalMove, Reason
from .state import _GameBase, _Player


class _Undo(_GameBase):
    """Snapshots of the game's state, and undo."""

    # Everything an action may change; copied on snapshot, copied back on restore.
    _STATE_FIELDS = (
        "board", "_bag", "_players", "state", "result", "_pending", "_challenged",
        "_scoreless", "_passes", "_final_round_end", "_pre_adjust", "to_move",
    )

    @staticmethod
    def _copied(value: object) -> object:
        """A private copy of a mutable state field (the others are immutable values): the
        board, the players (each with its own rack), or a list of numbers (the bag, scores).
        A move snapshots the state first, so this runs on every move (a deep copy took
        ~0.35 ms of it)."""
        if isinstance(value, Board):
            return value.copy()
        if isinstance(value, list):
            if value and isinstance(value[0], _Player):
                return [p.copy() for p in value]
            return list(value)
        return value

    def _snapshot(self) -> tuple[object, ...]:
        state = tuple(self._copied(getattr(self, name)) for name in self._STATE_FIELDS)
        return (*state, len(self.history), self._rng.getstate())

    def _restore(self, snap: tuple[object, ...]) -> None:
        *state, hist_len, rng_state = snap
        for name, value in zip(self._STATE_FIELDS, state, strict=True):
            setattr(self, name, self._copied(value))
        del self.history[cast(int, hist_len) :]
        self._rng.setstate(rng_state)  # type: ignore[arg-type]

    def _remember(self, snapshot: tuple[object, ...] | None = None) -> None:
        """Keep the state before an action for :meth:`undo` (unless undo is off)."""
        if self._keeps_undo:
            self._undo.append(snapshot if snapshot is not None else self._snapshot())

    @property
    def can_undo(self) -> bool:
        return self.rules.clock is None and bool(self._undo)

    def undo(self) -> None:
        """Take back the last action (casual games without a clock only)."""
        if self.rules.clock is not None:
            raise IllegalMove(Reason.UNDO_NOT_ALLOWED, "moves cannot be taken back in a timed game")
        if not self._keeps_undo:
            raise IllegalMove(Reason.UNDO_NOT_ALLOWED, "this game keeps no undo history")
        if not self._undo:
            raise IllegalMove(Reason.UNDO_NOT_ALLOWED, "there is nothing to undo")
        self._restore(self._undo.pop())
