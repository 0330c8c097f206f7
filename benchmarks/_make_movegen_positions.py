"""Write ``benchmarks/data/movegen_positions.cgp``: mid-game positions for ``benchmarks/movegen``.

Seeded and deterministic: 60 games under NASPA rules with ENABLE, each player choosing at
random among its five highest-scoring plays (the compiled generator). Turns 4 to 13 of each
game that are still mid-game (the bag holds at least 7 tiles) are written as CGP lines, the
player to move first with the opponent's rack left empty (unknown). Run once with
``python -m benchmarks._make_movegen_positions``; the file is committed.
"""

from __future__ import annotations

import random
from pathlib import Path

from tessera.formats.cgp import Position, dumps
from tessera.game import Game
from tessera.lexicon import Lexicon
from tessera.move import Play

OUT = Path(__file__).parent / "data" / "movegen_positions.cgp"
GAMES = 60
SEED = 2024


def main() -> None:
    lex = Lexicon.load("enable")
    rng = random.Random(SEED)
    lines: list[str] = []
    for g in range(GAMES):
        game = Game("naspa", lexicon=lex, players=["A", "B"], seed=SEED + g, first=0)
        for turn in range(14):
            if game.is_over:
                break
            if turn >= 4 and game.bag_count >= 7:
                pos = Position.from_game(game)
                racks = (pos.racks[0], *(() for _ in pos.racks[1:]))
                lines.append(
                    dumps(
                        Position(
                            pos.rules, pos.board, racks, pos.scores, pos.scoreless_turns, "enable"
                        )
                    )
                )
            moves = game.legal_moves()
            plays = sorted((m for m in moves if isinstance(m, Play)), key=lambda m: -(m.score or 0))
            game.play(rng.choice(plays[:5]) if plays else moves[len(moves) - 1])
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines)} positions to {OUT}")


if __name__ == "__main__":
    main()
