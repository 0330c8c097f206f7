"""The computer opponent and hints, from what one player may know (a PlayerView).

Moves come from the engine's players (``tessera.engine.get_player``) and hints from the move
generator (``tessera.movegen.generate_moves``: the compiled core, or its Python reference where
the core is missing) — the one place moves are found.
"""

from __future__ import annotations

from typing import Any, Protocol

from tessera.board import Board
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


# The README's strength table, the one copy the new-game dialog shows: each level's mean
# score, its opponent's, its win % (95% interval) and bingos a game, each level against
# ``static`` over 100 games (``python -m benchmarks.levels 100``). A test holds the README's
# table to these figures.
LEVEL_STRENGTH: dict[str, tuple[float, float, str, float]] = {
    "level1": (212.8, 523.8, "0.0 (0–4)", 0.08),
    "level2": (273.2, 487.7, "1.0 (0–5)", 0.41),
    "level3": (357.4, 468.0, "13.0 (8–21)", 1.49),
    "level4": (392.0, 444.7, "27.0 (19–36)", 1.90),
    "level5": (406.7, 426.4, "40.5 (31–50)", 2.09),
    "best": (418.4, 418.4, "50.0 (40–60)", 1.90),
}
BEST_DESCRIPTION = "strongest: simulation, then the exact endgame"


def level_info() -> list[dict[str, Any]]:
    """Each level the dialog offers: how it plays, and how it scored against ``static``."""
    from tessera.engine import LEVELS

    info = []
    for name in levels():
        number = name.removeprefix("level")
        description = LEVELS[int(number)].description if number.isdigit() else BEST_DESCRIPTION
        mean, opponent, win, bingos = LEVEL_STRENGTH[name]
        info.append(
            {
                "name": name,
                "description": description,
                "mean_score": mean,
                "opponent_score": opponent,
                "win_pct": win,
                "bingos": bingos,
            }
        )
    return info


HINT_COUNT = 10  # how many plays a hint lists


def quick_hints(view: PlayerView, lexicon: Any, n: int = HINT_COUNT) -> list[dict[str, Any]]:
    """The hints shown at once: the ``n`` plays of best static equity (score + the value of
    the tiles kept, as the computer ranks them), each with its equity. On an empty board a
    play and its mirror image are the same play: the computer ranks only the one across."""
    from tessera.engine import StaticPlayer

    board = view.board
    alphabet = view.rules.tileset.alphabet
    hints = []
    for ranked in StaticPlayer(lexicon).ranked(view, top=4 * n):
        move = ranked.move
        if not isinstance(move, Play):
            continue
        hints.append(move_hint(move, alphabet, board=board, equity=round(ranked.equity, 1)))
        if len(hints) == n:
            break
    return hints


def move_hint(
    move: Move, alphabet: Any, board: Board | None = None, **extra: Any
) -> dict[str, Any]:
    """One hint as the page shows it: the move in the page's notation (played-through tiles
    in parentheses, as the preview writes them, given the ``board``), its score, the tiles to
    lay (plays only) and whatever the search found (``win_pct``, ``equity``)."""
    text = move.human(alphabet, board) if isinstance(move, Play) and board else move.gcg(alphabet)
    hint: dict[str, Any] = {"move": text}
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
    view: PlayerView, lexicon: Any, time_limit: float, n: int = HINT_COUNT
) -> list[dict[str, Any]]:
    """Hints by the strongest player's own search (``best``): the simulated candidates with
    their win percentage, the pre-endgame's with 1–2 tiles in the bag, the endgame search's
    move with the bag empty.

    The page labels a list with win percentages "by chance of winning", so that is its order
    (then equity): not the player's choice first, which is the static best whenever the
    simulation's leader is not clearly ahead (``choose_z``), nor the simulation's own order,
    which puts every candidate it stopped simulating after those it kept. The player's choice
    is marked ``chosen``."""
    from tessera.engine import get_player

    player = get_player("best", lexicon, time_limit=time_limit)
    chosen = player.choose(view)
    alphabet = view.rules.tileset.alphabet
    board = view.board
    sim = getattr(player, "last", None)
    search = getattr(player, "last_search", None)
    if sim is not None:
        shown = [(i, c, round(100 * c.win, 1)) for i, c in enumerate(sim.candidates)]
        order = sorted(shown, key=lambda icw: (-icw[2], -icw[1].equity))
        return [
            move_hint(
                c.move, alphabet, board, win_pct=win_pct,
                equity=round(c.equity, 1),
                iterations=c.iterations,
                **({"chosen": True} if i == sim.chosen else {}),
            )
            for i, c, win_pct in order[:n]
        ]
    if isinstance(search, list):  # the pre-endgame's candidates
        ranked = sorted(search, key=lambda c: (-c.win_probability, -c.expected_spread))
        return [
            move_hint(
                c.move, alphabet, board, win_pct=round(100 * c.win_probability, 1),
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
        return [move_hint(search.best, alphabet, board, **extra)]
    return [move_hint(chosen, alphabet, board)]  # a forced move, or rules the search cannot take
