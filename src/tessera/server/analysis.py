"""The analysis board's answers: a position as the page draws it (with its CGP), and its
moves ranked as ``tessera moves --cgp`` ranks them (:func:`tessera.ranking.rank_position`),
filtered by word or pattern, square and length, and capped, each with its rank among all the
moves, its leave and its equity.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tessera.board import Board
from tessera.formats import cgp
from tessera.move import PLAYED_THROUGH, Exchange, Move, Play
from tessera.ranking import bag_count_of, leave_of, rank_position

from .analysis_request import Request
from .errors import RequestError


def position_json(position: cgp.Position) -> dict[str, Any]:
    """What the page draws of a position: its board, the rack to move, the layout, the tile
    values, the rules and word list, the bag, and its CGP line."""
    rules = position.rules
    tiles = rules.tileset
    alphabet = tiles.alphabet
    layout = rules.layout
    return {
        "cgp": cgp.dumps(position),
        "rules": rules.name,
        "lexicon": position.lexicon,
        "board": [[alphabet.label(t) if t else None for t in row] for row in position.board],
        "rack": [alphabet.label(t) for t in (position.racks[0] if position.racks else ())],
        "rack_size": rules.rack_size,
        "scores": list(position.scores),
        "bag_count": bag_count_of(position),
        "layout": {
            "rows": layout.rows,
            "cols": layout.cols,
            "premium": [
                [layout.premium(r, c) for c in range(layout.cols)] for r in range(layout.rows)
            ],
            "start": list(layout.start),
        },
        "values": {alphabet.label(t): tiles.value(t) for t in range(1, alphabet.size)},
        "letters": [alphabet.label(t) for t in range(1, alphabet.size)],
    }


def _word_filter(word: str, alphabet: Any) -> Callable[[str], bool] | None:
    """A test of a play's main word: a substring, or with ``?``/``.`` a pattern of the whole
    word in which each wildcard stands for one tile."""
    if not word:
        return None
    if not any(ch in "?." for ch in word):
        return lambda text: word in text
    labels = sorted((alphabet.label(t) for t in range(1, alphabet.size)), key=len, reverse=True)
    anyone = "(?:" + "|".join(re.escape(label) for label in labels) + ")"
    pattern = re.compile("".join(anyone if ch in "?." else re.escape(ch) for ch in word))
    return lambda text: pattern.fullmatch(text) is not None


def _keep(request: Request, board: Board, alphabet: Any) -> Callable[[Move], bool] | None:
    """The filters as one test of a move (None: every move)."""
    by_word = _word_filter(request.word, alphabet)
    if by_word is None and request.square is None and request.length is None:
        return None

    def keep(move: Move) -> bool:
        if not isinstance(move, Play):
            return False
        if request.length is not None and len(move.word) != request.length:
            return False
        if request.square is not None and not any(
            (r, c) == request.square for r, c, _ in move.placements
        ):
            return False
        return by_word is None or by_word(_main_word(move, board, alphabet))

    return keep


def _main_word(play: Play, board: Board, alphabet: Any) -> str:
    """A play's whole main word in capitals, the tiles played through included."""
    dr, dc = (0, 1) if play.across else (1, 0)
    return "".join(
        alphabet.label(
            board.get(play.row + dr * i, play.col + dc * i) if t == PLAYED_THROUGH else t
        )
        for i, t in enumerate(play.word)
    ).upper()


def _notation(move: Move, board: Board, alphabet: Any) -> str:
    """Played-through tiles in parentheses (``8A MES(QUITE)``), as the game's preview."""
    if isinstance(move, Play):
        return move.human(alphabet, board)
    if isinstance(move, Exchange):
        return f"exchange {alphabet.format(move.tiles)}"
    return "pass"


def _kind(move: Move) -> str:
    return (
        "play" if isinstance(move, Play) else "exchange" if isinstance(move, Exchange) else "pass"
    )


def analyze(request: Request, lexicon: Any, leaves: Any) -> dict[str, Any]:
    """The position's moves ranked as ``tessera moves --cgp`` ranks them (with ``leaves``),
    the filtered ones up to the limit, each with its rank among all moves; ``total`` counts
    every move, ``matched`` those the filters keep."""
    position = request.position
    alphabet = position.rules.tileset.alphabet
    try:
        found = rank_position(position, lexicon, leaves)
    except ValueError as exc:
        raise RequestError(400, "bad_position", str(exc)) from None
    board = Board(position.rules.layout, position.rules.tileset)
    board.place(position.tiles_on_board())
    keep = _keep(request, board, alphabet)
    rack = position.racks[0] if position.racks else ()
    if keep is None:  # no filter: only the moves listed are made into Python objects
        picked: list[int] = list(range(min(request.limit, len(found))))
        matched = len(found)
    else:
        picked = []
        matched = 0
        for i in range(len(found)):
            if keep(found[i]):
                matched += 1
                if len(picked) < request.limit:
                    picked.append(i)
    rows = [_row(i, found[i], found.equity(i), rack, board, alphabet) for i in picked]
    return {
        "position": position_json(position),
        "total": len(found),
        "matched": matched,
        "moves": rows,
        "leaves": leaves is not None,
    }


def _row(
    index: int, move: Move, equity: float, rack: tuple[int, ...], board: Board, alphabet: Any
) -> dict[str, Any]:
    score = move.score if isinstance(move, Play) and move.score is not None else 0
    row: dict[str, Any] = {
        "rank": index + 1,
        "move": move.gcg(alphabet) if isinstance(move, Play | Exchange) else "-",
        "notation": _notation(move, board, alphabet),
        "kind": _kind(move),
        "score": score,
        "leave": alphabet.format(leave_of(move, rack)),
        "leave_value": round(equity - score, 2),
        "equity": round(equity, 2),
    }
    if isinstance(move, Play):
        row["placements"] = [[r, c, alphabet.label(t)] for r, c, t in move.placements]
    return row
