"""A duplicate game → JSON for the page, from the person's
:class:`~tessera.duplicate.DuplicateView` only: the board, the open round's rack, the closed
rounds (each with its master move and every computer's play) and the result. The open
round's master move and the computers' plays for it, the bag's order and the seed are not in
a view, so they cannot reach the page."""

from __future__ import annotations

from typing import Any

from tessera.duplicate import DuplicateGame, DuplicateResult, DuplicateView, Round, Submission
from tessera.tiles import Alphabet

from .views import board_json, layout_json, move_text

PLAYER = 0  # the person's seat (any others are computers)


def percent(points: int, top_total: int) -> float:
    """``points`` as a percentage of the tops, to two places (0 before any top)."""
    return round(100 * points / top_total, 2) if top_total > 0 else 0.0


def submission_json(sub: Submission, alphabet: Alphabet) -> dict[str, Any]:
    return {
        "play": move_text(sub.move, alphabet) if sub.move is not None else sub.text,
        "verdict": sub.verdict.value,
        "score": sub.score,
        "message": sub.message,
    }


def round_json(
    rd: Round, alphabet: Alphabet, total: int, top_total: int, names: list[str]
) -> dict[str, Any]:
    """A closed round with the running totals after it (``total``, ``top_total``)."""
    return {
        "round": rd.number,
        "rack": alphabet.format(rd.rack),
        "mine": submission_json(rd.submissions[PLAYER], alphabet),
        "points": rd.points(PLAYER),
        "others": [
            {"name": names[i], **submission_json(sub, alphabet), "points": rd.points(i)}
            for i, sub in enumerate(rd.submissions)
            if i != PLAYER
        ],
        "top": move_text(rd.top, alphabet),
        "top_score": rd.top.score or 0,
        "top_squares": [[r, c] for r, c, _ in rd.top.placements],
        "total": total,
        "top_total": top_total,
        "percent": percent(total, top_total),
    }


def result_json(result: DuplicateResult) -> dict[str, Any]:
    return {
        "reason": result.reason.value if result.reason is not None else None,
        "score": result.scores[PLAYER],
        "top_total": result.top_total,
        "percent": percent(result.scores[PLAYER], result.top_total),
        "negative": result.negatives[PLAYER],
        "ranking": [result.names[i] for i in result.ranking],
    }


def view_json(game: DuplicateGame) -> dict[str, Any]:
    """Everything the duplicate page draws, from the player's view."""
    view: DuplicateView = game.view(PLAYER)
    tileset = view.rules.tileset
    alphabet = tileset.alphabet
    rounds = []
    total = top_total = 0
    for rd in view.rounds:
        total += rd.points(PLAYER)
        top_total += rd.top.score or 0
        rounds.append(round_json(rd, alphabet, total, top_total, list(view.names)))
    over = view.result is not None
    return {
        "name": view.names[PLAYER],
        "rules": {"name": view.rules.name, "rack_size": view.rules.rack_size},
        "layout": layout_json(view),
        "letters": list(alphabet.labels),
        "values": {
            "?": tileset.value(0),
            **{lab: tileset.value(i + 1) for i, lab in enumerate(alphabet.labels)},
        },
        "board": board_json(view.board, alphabet),
        "last_squares": rounds[-1]["top_squares"] if rounds else [],
        "round": view.round,
        "rack": [] if over else [alphabet.label(t) for t in view.rack],
        "state": view.state.value,
        "score": view.scores[PLAYER],
        "players": [
            {
                "name": name,
                "computer": i != PLAYER,
                "score": view.scores[i],
                "percent": percent(view.scores[i], view.top_total),
            }
            for i, name in enumerate(view.names)
        ],
        "top_total": view.top_total,
        "percent": percent(view.scores[PLAYER], view.top_total),
        "bag_count": view.bag_count,
        "rounds": rounds,
        "result": result_json(view.result) if view.result is not None else None,
    }
