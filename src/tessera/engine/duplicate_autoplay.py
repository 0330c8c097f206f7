"""``tessera autoplay`` under duplicate rules (R8.4): two computers play the same racks.

A duplicate game has no seats to swap and no opponent to beat on the board: both players
hand in a play for the same rack every round and the top goes down. So a match here is a
run of seeded duplicate games between two :class:`DuplicateComputer`, reported as each
player's share of the tops and how often player A scored more. Autoplay's player names map
onto duplicate computers: the static players and ``best``/``sim`` hand in a top (leaves and
endgames take no part in duplicate), and the levels pick as their level does.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from tessera.duplicate import DuplicateGame
from tessera.lexicon import Lexicon
from tessera.rules import preset

from .duplicate_players import DuplicateComputer, computers_hand_in
from .selfplay import wilson

AUTOPLAY_TO_DUPLICATE = {
    "static": "static",
    "static-noleaves": "static",
    "static-endgame": "static",
    "sim": "best",
    "best": "best",
    **{f"level{n}": f"level{n}" for n in range(1, 6)},
}


@dataclass(frozen=True)
class DuplicateMatchReport:
    players: tuple[str, str]
    games: int
    wins: float  # games where A scored more (a tie counts one half)
    ties: int
    win_rate: float
    ci95: tuple[float, float]
    mean_points: tuple[float, float]
    mean_percent: tuple[float, float]  # of the tops
    mean_tops: float
    seconds: float

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def play_duplicate_game(
    game: DuplicateGame, computers: dict[int, DuplicateComputer]
) -> DuplicateGame:
    """Every round to the game's end: each computer hands in its play, the round closes."""
    while not game.is_over:
        computers_hand_in(game, computers)
        game.close_round()
    return game


def duplicate_autoplay(
    pair: tuple[str, str],
    games: int,
    seed: int,
    lexicon: str,
    rules: str,
    gcg_dir: str | None = None,
    on_game: Callable[[], None] | None = None,
) -> DuplicateMatchReport:
    """``games`` seeded duplicate games between the two computers named in ``pair``
    (autoplay's names); each written as ``gcg_dir/game-NNNNNN.gcg`` when asked."""
    for name in pair:
        if name not in AUTOPLAY_TO_DUPLICATE:
            raise ValueError(
                f"{name} cannot play duplicate; players: {', '.join(AUTOPLAY_TO_DUPLICATE)}"
            )
    lex = Lexicon.load(lexicon)
    game_rules = preset(rules).for_alphabet(lex.alphabet)
    if lex.alphabet.labels != game_rules.tileset.alphabet.labels:
        raise ValueError(
            f"the {lex.name} word list is in the {lex.alphabet.name} alphabet, but "
            f"{game_rules.name} rules use {game_rules.tileset.alphabet.name} tiles"
        )
    if gcg_dir is not None:
        Path(gcg_dir).mkdir(parents=True, exist_ok=True)  # as autoplay makes it for the others
    names = pair if pair[0] != pair[1] else (f"{pair[0]}-a", f"{pair[1]}-b")
    began = time.perf_counter()
    points: list[tuple[int, int]] = []
    percent: list[tuple[float, float]] = []
    tops: list[int] = []
    for g in range(games):
        game_seed = seed * 1_000_003 + g
        kinds = {i: AUTOPLAY_TO_DUPLICATE[pair[i]] for i in range(2)}
        game = DuplicateGame(
            game_rules, lex, players=list(names), seed=game_seed, computers=kinds
        )  # the record says both seats are computers, and which
        computers = {i: DuplicateComputer(kind, seed=game_seed + i) for i, kind in kinds.items()}
        play_duplicate_game(game, computers)
        result = game.results()
        points.append((result.scores[0], result.scores[1]))
        percent.append((result.percentages[0], result.percentages[1]))
        tops.append(result.top_total)
        if gcg_dir is not None:
            from tessera.formats import gcg  # type: ignore[attr-defined]

            path = Path(gcg_dir) / f"game-{g:06d}.gcg"
            path.write_text(gcg.dumps(game), encoding="utf-8")
        if on_game is not None:
            on_game()
    wins = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a, b in points)
    rate = wins / games
    return DuplicateMatchReport(
        players=pair,
        games=games,
        wins=wins,
        ties=sum(1 for a, b in points if a == b),
        win_rate=rate,
        ci95=wilson(rate, games),
        mean_points=(
            statistics.fmean(a for a, _ in points),
            statistics.fmean(b for _, b in points),
        ),
        mean_percent=(
            statistics.fmean(a for a, _ in percent),
            statistics.fmean(b for _, b in percent),
        ),
        mean_tops=statistics.fmean(tops),
        seconds=time.perf_counter() - began,
    )


__all__ = ["DuplicateMatchReport", "duplicate_autoplay", "play_duplicate_game"]
