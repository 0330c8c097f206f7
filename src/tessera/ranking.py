"""The ranked moves of a CGP position: what ``tessera moves --cgp`` prints and the web app's
analysis board lists, found in one place so that both rank every position the same way.

:func:`rank_position` runs the move generator on the position's board for the rack of the
player to move, with the bag as the position implies it (:func:`bag_count_of`), so that
exchanges are listed exactly when the bag allows them. :func:`leave_of` is the tiles a move
keeps: with leave values the equity is the score plus their value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import Board
from .move import Exchange, Move, Play

if TYPE_CHECKING:
    from .formats.cgp import Position
    from .lexicon import Leaves, Lexicon
    from .movegen import MoveList


def bag_count_of(position: Position) -> int:
    """Tiles in the bag of a CGP position: the tile set minus the board and the racks, less a
    full rack for every other player whose rack the CGP leaves empty (unknown to the mover)."""
    rules = position.rules
    unseen = rules.tileset.total - len(position.tiles_on_board())
    racks = position.racks
    unseen -= sum(len(r) for r in racks)
    for rack in racks[1:]:
        if not rack:
            unseen -= min(rules.rack_size, max(unseen, 0))
    return max(unseen, 0)


def rank_position(
    position: Position,
    lexicon: Lexicon,
    leaves: Leaves | None = None,
    top: int | None = None,
) -> MoveList:
    """The moves of the player to move, best equity first (score + leave value with
    ``leaves``, else the score); ``top`` keeps the N best. Raises ValueError when the lexicon
    does not fit the position's rules."""
    from .movegen import generate_moves

    rules = position.rules
    board = Board(rules.layout, rules.tileset)
    board.place(position.tiles_on_board())
    rack = position.racks[0] if position.racks else ()
    return generate_moves(
        board,
        list(rack),
        lexicon,
        rules,
        top=top,
        leaves=leaves,
        bag_count=bag_count_of(position),
    )


def leave_of(move: Move, rack: tuple[int, ...]) -> list[int]:
    """The rack tiles a move keeps, in rack order (a blank a play designates was a ``?``)."""
    if isinstance(move, Play):
        used = move.tiles_used
    elif isinstance(move, Exchange):
        used = list(move.tiles)
    else:
        used = []
    kept = list(rack)
    for tile in used:
        kept.remove(tile)
    return kept


__all__ = ["bag_count_of", "leave_of", "rank_position"]
