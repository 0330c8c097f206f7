"""A duplicate game → JSON for the page, from a spectator's
:class:`~tessera.duplicate.DuplicateView` only: the board, the open round's rack and who has
handed in, the closed rounds (each with its master move and every player's play) and the
result. The open round's master move, everyone's play for it, the bag's order and the seed
are not in that view, so they cannot reach the page: people who share the screen see each
other's plays only once the round is closed.

Seat 0 (``PLAYER``) is the owner in a game of one person; the fields about "you" (``mine``,
``score``, ``percent`` …) are seat 0's, and ``players`` has every seat."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tessera.duplicate import DuplicateGame, DuplicateResult, DuplicateView, Round, Submission
from tessera.tiles import Alphabet

from .views import board_json, layout_json, move_text

PLAYER = 0  # the seat of the fields about "you"


def people_of(game: DuplicateGame) -> list[int]:
    """The seats people play (every seat no computer plays)."""
    return [i for i in range(game.num_players) if i not in game.computers]


def entry_of(game: DuplicateGame) -> int | None:
    """The person whose entry it is: the first, in seat order, still to hand in this round
    (None once all have, in a game of computers alone, or once it is over)."""
    waiting = set(game.waiting)
    return next((i for i in people_of(game) if i in waiting), None)


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


def round_players_json(
    rd: Round, alphabet: Alphabet, names: tuple[str, ...], computers: Mapping[int, str],
    totals: list[int], top_total: int,
) -> list[dict[str, Any]]:
    """Every seat's play in a closed round, its points, and the totals after it."""
    return [
        {
            "name": names[i],
            "computer": i in computers,
            **submission_json(sub, alphabet),
            "points": rd.points(i),
            "total": totals[i],
            "percent": percent(totals[i], top_total),
        }
        for i, sub in enumerate(rd.submissions)
    ]


def round_json(
    rd: Round, alphabet: Alphabet, totals: list[int], top_total: int, names: tuple[str, ...],
    computers: Mapping[int, str],
) -> dict[str, Any]:
    """A closed round with the running totals after it (``totals`` by seat, ``top_total``)."""
    total = totals[PLAYER]
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
        "players": round_players_json(rd, alphabet, names, computers, totals, top_total),
    }


def outcome_json(game: DuplicateGame, seat: int | None) -> dict[str, Any]:
    """The round just closed, for the request that closed it: its master move, every seat's
    play and points, and — when a person's play closed it — that person's play first."""
    rd = game.rounds[-1]
    alphabet = game.alphabet
    totals = [0] * game.num_players
    top_total = 0
    for done in game.rounds:
        top_total += done.top.score or 0
        for i in range(game.num_players):
            totals[i] += done.points(i)
    mine = submission_json(rd.submissions[seat], alphabet) if seat is not None else {}
    return {
        "round": rd.number,
        **mine,
        "top": move_text(rd.top, alphabet),
        "top_score": rd.top.score or 0,
        "players": round_players_json(
            rd, alphabet, tuple(game.players), game.computers, totals, top_total
        ),
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
    view: DuplicateView = game.spectator_view()
    computers = game.computers
    tileset = view.rules.tileset
    alphabet = tileset.alphabet
    rounds = []
    totals = [0] * len(view.names)
    top_total = 0
    for rd in view.rounds:
        for i in range(len(totals)):
            totals[i] += rd.points(i)
        top_total += rd.top.score or 0
        rounds.append(round_json(rd, alphabet, totals, top_total, view.names, computers))
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
                "computer": i in computers,
                "score": view.scores[i],
                "percent": percent(view.scores[i], view.top_total),
                "handed_in": view.submitted[i],
            }
            for i, name in enumerate(view.names)
        ],
        "watch": not people_of(game),
        "entry": entry_of(game),
        "top_total": view.top_total,
        "percent": percent(view.scores[PLAYER], view.top_total),
        "bag_count": view.bag_count,
        "rounds": rounds,
        "result": result_json(view.result) if view.result is not None else None,
    }
