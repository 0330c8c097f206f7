"""The computer opponent and hints, from what one player may know (a PlayerView).

Moves come from the engine's players (``tessera.engine.get_player``) and hints from the move
generator (``tessera.movegen.generate_moves``: the compiled core, or its Python reference where
the core is missing) — the one place moves are found.
"""

from __future__ import annotations

from typing import Any, Protocol

from tessera.game import PlayerView
from tessera.move import Exchange, Move, Play


class Chooser(Protocol):
    """What the server needs of a computer player."""

    def choose(self, view: PlayerView) -> Move: ...


def computer_player(
    level: str, lexicon: Any, seed: int = 0, time_limit: float | None = None
) -> Chooser:
    """The engine's player for ``level``, thinking at most ``time_limit`` seconds a move
    (and less under a game clock)."""
    from tessera.engine import get_player

    return get_player(level, lexicon, seed=seed, time_limit=time_limit)


def levels() -> tuple[str, ...]:
    """The computer levels the new-game dialog offers."""
    from tessera.engine import PLAYER_NAMES

    return tuple(n for n in PLAYER_NAMES if n.startswith("level") or n == "best")


def top_plays(view: PlayerView, lexicon: Any, n: int = 5) -> list[Play]:
    """Hints: the ``n`` best-scoring plays for the viewer's own rack on the view's board."""
    from tessera.movegen import generate_moves

    # ranked by score (no leave values); one more than asked, as the pass may be among them
    moves = generate_moves(view.board, list(view.rack), lexicon, view.rules, top=n + 1)
    return [m for m in moves if isinstance(m, Play)][:n]


def move_hint(move: Move, alphabet: Any, **extra: Any) -> dict[str, Any]:
    """One hint as the page shows it: the move in GCG notation, its score, the tiles to lay
    (plays only) and whatever the search found (``win_pct``, ``equity``)."""
    hint: dict[str, Any] = {"move": move.gcg(alphabet)}
    if isinstance(move, Play):
        hint["score"] = move.score
        hint["placements"] = [[r, c, alphabet.label(t)] for r, c, t in move.placements]
    else:
        hint["score"] = 0
        hint["action"] = "exchange" if isinstance(move, Exchange) else "pass"
        if isinstance(move, Exchange):
            hint["tiles"] = "".join(alphabet.label(t) for t in move.tiles)
    hint.update(extra)
    return hint


def thought_hints(
    view: PlayerView, lexicon: Any, time_limit: float, n: int = 5
) -> list[dict[str, Any]]:
    """Hints by the strongest player's own search (``best``): the simulated candidates with
    their win percentage, the pre-endgame's with 1–2 tiles in the bag, the endgame search's
    move with the bag empty — its choice first."""
    from tessera.engine import get_player

    player = get_player("best", lexicon, time_limit=time_limit)
    chosen = player.choose(view)
    alphabet = view.rules.tileset.alphabet
    sim = getattr(player, "last", None)
    search = getattr(player, "last_search", None)
    if sim is not None:
        order = [sim.candidates[sim.chosen]] + [
            c for i, c in enumerate(sim.candidates) if i != sim.chosen
        ]
        return [
            move_hint(
                c.move, alphabet, win_pct=round(100 * c.win, 1), equity=round(c.equity, 1),
                iterations=c.iterations,
            )
            for c in order[:n]
        ]
    if isinstance(search, list):  # the pre-endgame's candidates
        ranked = sorted(search, key=lambda c: (-c.win_probability, -c.expected_spread))
        return [
            move_hint(
                c.move, alphabet, win_pct=round(100 * c.win_probability, 1),
                equity=round(c.expected_spread, 1),
            )
            for c in ranked[:n]
        ]
    if search is not None:  # the endgame: the line's first move and its value
        ahead = view.scores[view.player] - max(
            s for i, s in enumerate(view.scores) if i != view.player
        ) + search.value
        extra: dict[str, Any] = {"equity": float(search.value), "proven": search.proven}
        if search.proven:
            extra["win_pct"] = 100.0 if ahead > 0 else 50.0 if ahead == 0 else 0.0
        return [move_hint(search.best, alphabet, **extra)]
    return [move_hint(chosen, alphabet)]  # a forced move, or rules the search cannot take
