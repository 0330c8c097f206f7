"""Write ``benchmarks/data/endgame_positions.cgp``: self-play endgames for ``benchmarks/endgame``.

Seeded and deterministic: static-vs-static games under NASPA rules with ENABLE (the compiled
self-play loop), replayed through Game. Every turn after the bag ran out where both players
hold 2 tiles or more is a candidate; candidates are grouped by the larger rack (2 to 7) and each
group takes, in game order, the first PER_SIZE that the solver proves within LIMIT seconds on
one thread (the benchmark times proofs, so it needs positions that have one in reasonable
time; larger endgames mostly do not). Run once with
``python -m benchmarks._make_endgame_positions``; the file is committed.
"""

from __future__ import annotations

from pathlib import Path

from tessera.engine import native
from tessera.engine.endgame import solve
from tessera.engine.players import default_leaves
from tessera.engine.selfplay import derive_seed, play_compiled
from tessera.formats.cgp import dumps, loads
from tessera.game import Game
from tessera.lexicon import Lexicon
from tessera.rules import preset

OUT = Path(__file__).parent / "data" / "endgame_positions.cgp"
SEED = 2027
PER_SIZE = 3
SIZES = range(2, 8)
LIMIT = 30.0


def main() -> None:
    lex = Lexicon.load("enable")
    rules = preset("naspa")
    leaves = default_leaves()
    chosen: dict[int, list[str]] = {n: [] for n in SIZES}
    game_index = 0
    while any(len(v) < PER_SIZE for v in chosen.values()) and game_index < 400:
        seed = derive_seed(SEED, game_index)
        game_index += 1
        record = play_compiled(rules, lex, seed, [leaves, leaves])
        game = Game(rules, lexicon=lex, players=("A", "B"), seed=seed)
        for player, cand, _rack, _bag in record["turns"]:
            if game.bag_count == 0 and not game.is_over:
                sizes = [len(game.rack(p)) for p in range(2)]
                size = max(sizes)
                if min(sizes) >= 2 and size in chosen and len(chosen[size]) < PER_SIZE:
                    line = dumps(game)
                    result = solve(loads(line).to_game(lexicon=lex, seed=0), time_limit=LIMIT)
                    if result.proven:
                        chosen[size].append(line)
                        print(f"{size} tiles: game {game_index - 1}, {result.seconds:.2f} s")
                        break  # one position a game
            game.play(native.to_move(cand), player)
    lines = [line for n in SIZES for line in chosen[n]]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines)} positions to {OUT}")


if __name__ == "__main__":
    main()
