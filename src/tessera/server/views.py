"""PlayerView → JSON for the page. Only a view is ever serialised (DESIGN principle 4)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from tessera.board import Board, format_position
from tessera.duplicate import DuplicateView
from tessera.game import Event, EventKind, PlayerView
from tessera.move import Exchange, Move, Pass, Play
from tessera.rules import ChallengeRule
from tessera.tiles import Alphabet, TileError


def move_text(move: Move | None, alphabet: Alphabet) -> str:
    if isinstance(move, Play):
        return move.gcg(alphabet)
    if isinstance(move, Exchange):
        return move.gcg(alphabet)
    if isinstance(move, Pass):
        return "-"
    return ""


def event_json(event: Event, alphabet: Alphabet) -> dict[str, Any]:
    move = event.move
    data: dict[str, Any] = {
        "kind": event.kind.value,
        "player": event.player,
        "rack": alphabet.format(event.rack),
        "score": event.score,
        "total": event.total,
        "move": move_text(move, alphabet),
        "words": [alphabet.format(w) for w in event.words],
    }
    if event.challenger is not None:  # a challenge's verdict: who, and the words judged
        data["challenger"] = event.challenger
        data["verdict_words"] = [alphabet.format(w) for w in event.verdict_words]
    if event.kind in (EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY):
        data["other_racks"] = alphabet.format(event.other_racks)
    if isinstance(move, Play):
        data["squares"] = [[r, c] for r, c, _ in move.placements]
        data["position"] = format_position(move.row, move.col, move.across)
    if isinstance(move, Exchange):
        data["count"] = move.n
    return data


@lru_cache(maxsize=16)
def tile_labels(alphabet: Alphabet) -> tuple[str | None, ...]:
    """Each tile id's label (a blank's letter in lower case), None for an empty square and
    for ids outside the alphabet: one look-up a square instead of a call."""

    def label(tile: int) -> str | None:
        try:
            return alphabet.label(tile) if tile else None
        except TileError:
            return None

    return tuple(label(t) for t in range(256))


def board_json(board: Board, alphabet: Alphabet) -> tuple[tuple[str | None, ...], ...]:
    """The board as rows of tile labels (a blank's letter in lower case), None where empty.
    Tuples of text, which the cycle collector stops tracking: a server caches one per game."""
    labels = tile_labels(alphabet).__getitem__
    cells, cols = board.cells, board.cols
    return tuple(tuple(map(labels, cells[i : i + cols])) for i in range(0, len(cells), cols))


def layout_json(view: PlayerView | DuplicateView) -> dict[str, Any]:
    layout = view.rules.layout
    return {
        "rows": layout.rows,
        "cols": layout.cols,
        "premium": [[layout.premium(r, c) for c in range(layout.cols)] for r in range(layout.rows)],
        "start": list(layout.start),
    }


def game_json(view: PlayerView) -> dict[str, Any]:
    """What never changes in a game: names, rules, layout, letters and values."""
    ts = view.tileset
    alphabet = ts.alphabet
    rules = view.rules
    return {
        "names": list(view.names),
        "rules": {
            "name": rules.name,
            "rack_size": rules.rack_size,
            "challenges": rules.challenge_rule is not ChallengeRule.VOID,
            "challenge_rule": rules.challenge_rule.value,
            "exchange_min_bag": rules.exchange_min_bag,
            "clock": rules.clock is not None,
            "finish_target": rules.finish_target(len(view.names)),  # R8.3; None: not a race
        },
        "layout": layout_json(view),
        "letters": list(alphabet.labels),
        "values": {
            "?": ts.value(0),
            **{lab: ts.value(i + 1) for i, lab in enumerate(alphabet.labels)},
        },
    }


def position_json(view: PlayerView) -> dict[str, Any]:
    """The position from one seat's view, all but the board and the history (the same for
    every viewer, a server encodes those once)."""
    alphabet = view.tileset.alphabet
    last_squares: list[list[int]] = []
    for e in reversed(view.history):
        if e.kind is EventKind.PLAY and isinstance(e.move, Play):
            last_squares = [[r, c] for r, c, _ in e.move.placements]
            break
        if e.kind in (EventKind.WITHDRAWN, EventKind.EXCHANGE, EventKind.PASS):
            break
    result = None
    if view.result is not None:
        result = {
            "reason": view.result.reason.value,
            "scores": list(view.result.scores),
            "winners": list(view.result.winners),
            "loser": view.result.loser,
        }
    return {
        "seat": view.player,
        "rack": [alphabet.label(t) for t in view.rack],
        "scores": list(view.scores),
        "to_move": view.to_move,
        "state": view.state.value,
        "bag_count": view.bag_count,
        "rack_counts": list(view.rack_counts),
        "unseen": {alphabet.label(t): n for t, n in enumerate(view.unseen) if n > 0},
        "last_squares": last_squares,
        "can_challenge": view.can_challenge,
        "clocks_ms": list(view.clocks_ms) if view.clocks_ms is not None else None,
        "result": result,
        "final_racks": (
            [alphabet.format(r) for r in view.final_racks] if view.final_racks is not None else None
        ),
    }


def view_json(view: PlayerView) -> dict[str, Any]:
    """Everything the page draws, from the view of one seat (or a spectator's)."""
    alphabet = view.tileset.alphabet
    return {
        **game_json(view),
        **position_json(view),
        "board": board_json(view.board, alphabet),
        "history": [event_json(e, alphabet) for e in view.history],
    }
