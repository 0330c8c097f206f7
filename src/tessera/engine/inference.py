"""Inference: what the opponent probably kept, from the move they just made.

The opponent's last move (a play: the tiles it put down and its score; an exchange: how many
tiles) was chosen from a rack we cannot see. Assuming the opponent plays roughly like the
static player, the racks they could have held are those for which that move was within
``margin`` points of the best static equity. :func:`infer` samples racks the way the tiles could
have been dealt (the tiles played plus a leave drawn at random from the tiles we cannot see;
for an exchange, a whole rack) and keeps the leaves of the racks that pass that test. Sampled
leaves keep the odds of the draw, so the kept ones are a sample of the leave's distribution
given the move: the simulation deals the opponent one of them (uniformly), plus random tiles.

The result is *informative* when enough racks passed and not nearly all did (a move that any
rack would make says nothing). The compiled core does the sampling (``tessera._core.infer``);
only moves made with tiles in the bag are read (the endgame is solved, not simulated).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from tessera.game import EventKind, GameState, PlayerView
from tessera.lexicon import Leaves, Lexicon
from tessera.move import Exchange, Move, Play
from tessera.tiles import face

from . import native
from .players import resolve_leaves

DEFAULT_MARGIN = 5.0
DEFAULT_SAMPLES = 500
MAX_SAMPLES = 1_000_000
MIN_ACCEPTED = 10  # fewer kept racks than this: too few to stand for the distribution
MAX_RATE = 0.8  # more than this share of racks kept: the move says little


@dataclass(frozen=True)
class Inference:
    """The leaves kept by the sampled racks (one per kept rack, tiles sorted, blank 0)."""

    move: Move
    leaves: tuple[tuple[int, ...], ...]
    tried: int
    margin: float

    @property
    def accepted(self) -> int:
        return len(self.leaves)

    @property
    def rate(self) -> float:
        return self.accepted / self.tried if self.tried else 0.0

    @property
    def informative(self) -> bool:
        return self.accepted >= MIN_ACCEPTED and self.rate <= MAX_RATE

    def distribution(self) -> list[tuple[tuple[int, ...], float]]:
        """Each kept leave with its share of the kept racks, most frequent first."""
        counts = Counter(self.leaves)
        n = len(self.leaves)
        return sorted(((k, c / n) for k, c in counts.items()), key=lambda kv: (-kv[1], kv[0]))


def last_opponent_move(view: PlayerView) -> tuple[Move, int] | None:
    """The opponent's move just before this turn, with how many of their exchanges came
    before it, if it was a play or an exchange (None after a pass, a lost turn, a withdrawn
    play, or when the viewer is not to move)."""
    if view.state is not GameState.PLAYING or view.to_move != view.player:
        return None
    index = None
    for i in range(len(view.history) - 1, -1, -1):
        kind = view.history[i].kind
        if kind in (EventKind.CHALLENGE_BONUS, EventKind.CHALLENGE_PENALTY):
            continue
        index = i
        break
    if index is None:
        return None
    event = view.history[index]
    if event.player == view.player or event.kind not in (EventKind.PLAY, EventKind.EXCHANGE):
        return None
    if event.move is None:
        return None
    before = sum(
        1 for e in view.history[:index] if e.kind is EventKind.EXCHANGE and e.player == event.player
    )
    return event.move, before


def infer(
    view: PlayerView,
    lexicon: Lexicon,
    leaves: Leaves | str | None = "trained",
    *,
    margin: float = DEFAULT_MARGIN,
    samples: int = DEFAULT_SAMPLES,
    time_limit: float | None = None,
    seed: int | None = None,
) -> Inference | None:
    """Infer the opponent's leave from their last move (see the module docstring); None when
    there is nothing to read (no such move, no tiles in the bag, more than two players)."""
    if not 1 <= samples <= MAX_SAMPLES:
        raise ValueError(f"samples must be 1..{MAX_SAMPLES}, not {samples!r}")
    if not margin >= 0:
        raise ValueError(f"the margin must be >= 0, not {margin!r}")
    if len(view.names) != 2 or view.bag_count <= 0:
        return None
    found = last_opponent_move(view)
    if found is None:
        return None
    move, exchanges_before = found
    rules = view.rules
    opp = 1 - view.player
    board = list(view.board.cells)
    cols = view.board.cols
    if isinstance(move, Play):
        placed = move.placements
        for r, c, _t in placed:
            board[r * cols + c] = 0
        played = (0, move.row, move.col, move.across, tuple(move.word),
                  int(move.score or 0), 0.0)
        leave_size = view.rack_counts[opp]
        if leave_size < 0:
            return None
        leave_size -= len(placed)  # the bag had tiles, so they drew as many as they played
        bag_then = view.bag_count + len(placed)
    elif isinstance(move, Exchange):
        played = (1, 0, 0, True, (0,) * move.n, 0, 0.0)
        leave_size = view.rack_counts[opp] - move.n
        bag_then = view.bag_count
    else:  # pragma: no cover - last_opponent_move returns plays and exchanges only
        return None
    if leave_size < 0:
        return None
    limit = rules.max_exchanges_per_player
    need = 1 if rules.exchange_min_bag is None else max(rules.exchange_min_bag, 1)
    can_exchange = bag_then >= need and (limit is None or exchanges_before < limit)
    if seed is None:
        seed = random.SystemRandom().randrange(2**64)
    table = resolve_leaves(leaves, lexicon, rules)
    raw = native._core.infer(
        native.engine(lexicon, rules), native.leave_table(table), board, played, leave_size,
        list(view.unseen), bag_then, can_exchange, float(margin), int(samples),
        float(time_limit or 0.0), seed % 2**64,
    )
    kept = tuple(tuple(face(t) for t in leave) for leave in raw["leaves"])
    return Inference(move, kept, int(raw["tried"]), float(margin))


__all__ = ["Inference", "infer", "last_opponent_move"]
