"""The endgame's readable specification: plain minimax, in Python, for the tests.

Every move of the side to move -- each play :mod:`tessera.movegen` lists and the pass -- is
tried, to the end of the game, and the best spread change is kept: no pruning, no ordering, no
depth limit. A position reached again by another order of moves is looked up instead of
searched again (the answer is the same; only the time differs). The game ends as RULES.md
says and :class:`tessera.game.Game` plays it:

* R6.1, R6.4: a play that empties the rack (the bag being empty) ends the game; the player
  gains twice the opponent's rack value in spread (the box rule moves it from one score to
  the other, the tournament rule adds it twice: the spread is the same);
* R6.2: after ``scoreless_turns_to_end`` consecutive scoreless turns (passes, and plays scoring
  0 when ``zero_point_play_is_scoreless``) each player loses their own rack value;
* R6.3: likewise after ``passes_to_end`` consecutive passes;
* neither ends an empty-board game when ``zeros_can_end_empty_board`` is false.

It is exponential and meant for small endgames (a few tiles a side); ``max_nodes`` bounds the
work (:class:`TooLarge`).
"""

from __future__ import annotations

from tessera.board import Board
from tessera.game import Game, PlayerView
from tessera.lexicon import Lexicon
from tessera.move import Pass, Play
from tessera.movegen import generate_moves
from tessera.rules import Rules

from .endgame import EndgameError, position_of


class TooLarge(RuntimeError):
    """The minimax needed more than its ``max_nodes`` moves."""


def game_ends(rules: Rules, board: Board, scoreless: int, passes: int) -> bool:
    """R6.2, R6.3 (two players): whether these counts end the game after a turn."""
    if not rules.zeros_can_end_empty_board and board.is_empty():
        return False
    limit = rules.scoreless_turns_to_end
    pass_limit = rules.passes_to_end_for(2)
    return (limit is not None and scoreless >= limit) or (
        pass_limit is not None and passes >= pass_limit
    )


class _Minimax:
    def __init__(self, rules: Rules, lexicon: Lexicon, reference: bool, max_nodes: int) -> None:
        self.rules = rules
        self.lexicon = lexicon
        self.reference = reference
        self.max_nodes = max_nodes
        self.values = rules.tileset.values
        self.nodes = 0
        self.memo: dict[tuple[object, ...], int] = {}

    def points(self, rack: list[int]) -> int:
        return sum(self.values[t] * n for t, n in enumerate(rack) if t)

    def value(self, board: Board, racks: list[list[int]], scoreless: int, passes: int) -> int:
        """The spread change to the end for the side to move, who holds racks[0]."""
        key = (tuple(board.cells), tuple(racks[0]), tuple(racks[1]), scoreless, passes)
        known = self.memo.get(key)
        if known is not None:
            return known
        me, op = racks
        best: int | None = None
        tiles = [t for t, n in enumerate(me) for _ in range(n)]
        moves = generate_moves(board, tiles, self.lexicon, self.rules, reference=self.reference)
        for move in moves:
            self.nodes += 1
            if self.nodes > self.max_nodes:
                raise TooLarge(f"more than {self.max_nodes} moves")
            if isinstance(move, Play):
                v = self.play(board, racks, move, scoreless, passes)
            else:
                assert isinstance(move, Pass)
                s, p = scoreless + 1, passes + 1
                if game_ends(self.rules, board, s, p):
                    v = self.points(op) - self.points(me)
                else:
                    v = -self.value(board, [op, me], s, p)
            if best is None or v > best:
                best = v
        assert best is not None  # the pass is always listed
        self.memo[key] = best
        return best

    def play(
        self, board: Board, racks: list[list[int]], play: Play, scoreless: int, passes: int
    ) -> int:
        me, op = racks
        score = play.score or 0
        left = list(me)
        for t in play.tiles_used:
            left[t] -= 1
        if not any(left):
            return score + 2 * self.points(op)
        s = scoreless + 1 if score == 0 and self.rules.zero_point_play_is_scoreless else 0
        board.place(play.placements)
        try:
            if game_ends(self.rules, board, s, 0):
                return score + self.points(op) - self.points(left)
            return score - self.value(board, [op, left], s, 0)
        finally:
            board.lift(play.placements)


def minimax(
    position: Game | PlayerView,
    *,
    lexicon: Lexicon | None = None,
    reference: bool = False,
    max_nodes: int = 1_000_000,
) -> int:
    """The exact spread change to the end of the game for the player to move, by plain
    minimax. ``reference=True`` lists moves with the pure-Python generator (slower; the
    compiled one gives the same lists, as its own tests show). Raises :class:`TooLarge`
    beyond ``max_nodes`` moves and :class:`~tessera.engine.endgame.EndgameError` for a
    position that is not an endgame."""
    words = lexicon if lexicon is not None else getattr(position, "lexicon", None)
    if not isinstance(words, Lexicon):
        raise EndgameError("give the lexicon: a PlayerView does not carry one")
    pos = position_of(position)
    search = _Minimax(pos.rules, words, reference, max_nodes)
    return search.value(pos.board.copy(), [list(pos.rack), list(pos.other)], pos.scoreless,
                        pos.passes)


__all__ = ["TooLarge", "game_ends", "minimax"]
