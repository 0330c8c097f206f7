"""Endgame positions from static self-play (ENABLE, NASPA rules), as CGP lines.

Games are played by the compiled static engine from seeds, then replayed through
:class:`tessera.game.Game`; each game offers the positions after the bag ran out where both
players still hold tiles, and one of them is picked at random (a seeded choice), so both seats
come to move.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from tessera.engine import native
from tessera.engine.compiled_games import derive_seed, play_compiled
from tessera.engine.players import default_leaves
from tessera.formats import cgp
from tessera.game import Game
from tessera.lexicon import Lexicon
from tessera.rules import preset


def endgame_cgps(
    lexicon: Lexicon,
    seed: int,
    *,
    max_tiles: int = 7,
    first_only: bool = False,
    games: int = 10_000,
) -> Iterator[str]:
    """CGP lines of self-play endgames with at most ``max_tiles`` on either rack: one per game,
    at a random turn after the bag ran out (``first_only``: the first such turn)."""
    rules = preset("naspa")
    leaves = default_leaves()
    rng = random.Random(seed)
    for i in range(games):
        game_seed = derive_seed(seed, i)
        record = play_compiled(rules, lexicon, game_seed, [leaves, leaves])
        game = Game(rules, lexicon=lexicon, players=("A", "B"), seed=game_seed)
        found = []
        for player, cand, _rack, _bag in record["turns"]:
            if game.bag_count == 0 and not game.is_over:
                sizes = [len(game.rack(p)) for p in range(2)]
                if 0 < min(sizes) and max(sizes) <= max_tiles:
                    found.append(cgp.dumps(game))
                    if first_only:
                        break
            game.play(native.to_move(cand), player)
        if found:
            yield rng.choice(found)


def bag_cgps(lexicon: Lexicon, seed: int, bag: int, games: int = 10_000) -> Iterator[str]:
    """CGP lines of self-play positions with ``bag`` tiles in the bag, one per game."""
    rules = preset("naspa")
    leaves = default_leaves()
    for i in range(games):
        game_seed = derive_seed(seed, i)
        record = play_compiled(rules, lexicon, game_seed, [leaves, leaves])
        game = Game(rules, lexicon=lexicon, players=("A", "B"), seed=game_seed)
        for player, cand, _rack, _bag in record["turns"]:
            if game.bag_count == bag:
                yield cgp.dumps(game)
                break
            game.play(native.to_move(cand), player)


def game_of(line: str, lexicon: Lexicon) -> Game:
    """The game in a CGP position (the player to move is seat 0)."""
    return cgp.loads(line).to_game(lexicon=lexicon, seed=0)
