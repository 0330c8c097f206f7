"""Finish-line races (R8.3): the race player against ``static``.

``race`` (:mod:`tessera.engine.race_player`) plays ``static`` (trained leaves) in ``races``
races of the ``finish_line`` preset (the target 120 for two players, ``--target`` to change
it), each deal played twice with the seats swapped (the deals of ``tessera autoplay`` for the
same seed), through the Python ``Game``. It reports the race player's wins (ties half) with
their 95% (Wilson) interval, how often the first mover won, and each side's mean seconds a
move (the race player thinks for ``--time`` seconds a move at most).

    python -m benchmarks race                      # 1,000 races, 0.5 s a move
    python -m benchmarks race --races 200 --time 0.2 --workers 2
    python -m benchmarks race --player best        # `best` (its race play) instead
    python -m benchmarks race --player best --opponent-player sim   # best's race play vs sim

Measured on 6 December 2026 (ENABLE, seed 2026, 0.5 s a move, 2 workers on 2 shared cores):
``race`` won 54.3% of 1,000 races to 120 (95% CI 51.2–57.4%; 0.24 s a move, ``static``
0.0005 s), ``sim`` (the simulating player before ``best`` took the race play) 52.2%
(49.1–55.3%; 0.31 s a move) over the same deals.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from tessera.engine.compiled_games import MAX_TURNS
from tessera.engine.parallel import default_workers, run_parallel
from tessera.engine.registry import get_player
from tessera.engine.selfplay import MatchSpec, derive_seed, plan, wilson
from tessera.game import Game
from tessera.lexicon import Lexicon
from tessera.rules import preset

SEED = 2026


@dataclass(frozen=True)
class RaceSpec:
    """A match of races: player A against player B."""

    player: str = "race"
    opponent: str = "static"
    races: int = 1000
    seed: int = SEED
    time_limit: float = 0.5
    target: int | None = None  # None: the preset's (120 for two players)
    lexicon: str = "enable"
    rules: str = "finish_line"


@dataclass
class Tally:
    """A's results over some races, and both sides' thinking time."""

    races: int = 0
    wins: float = 0.0  # ties half
    first_wins: float = 0.0  # races won by whoever moved first (ties half)
    turns: int = 0
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])  # A, B
    moves: list[int] = field(default_factory=lambda: [0, 0])

    def add(self, other: Tally) -> None:
        self.races += other.races
        self.wins += other.wins
        self.first_wins += other.first_wins
        self.turns += other.turns
        for k in range(2):
            self.seconds[k] += other.seconds[k]
            self.moves[k] += other.moves[k]


def run_races(spec: RaceSpec, games: Sequence[tuple[int, int, bool]]) -> Tally:
    """Play some races of a match (one worker's chunk)."""
    lexicon = Lexicon.load(spec.lexicon)
    rules = preset(spec.rules).for_alphabet(lexicon.alphabet)
    if spec.target is not None:
        rules = rules.replace(finish_line_target=spec.target)
    tally = Tally()
    for _, seed, a_first in games:
        sides = [
            get_player(name, lexicon, seed=derive_seed(seed, 1000 + k),
                       time_limit=spec.time_limit)
            for k, name in enumerate((spec.player, spec.opponent))
        ]
        seat_of = (0, 1) if a_first else (1, 0)  # A's seat, B's seat
        game = Game(rules, lexicon=lexicon, players=("A", "B") if a_first else ("B", "A"),
                    seed=seed)
        turns = 0
        while not game.is_over:
            if turns >= MAX_TURNS:
                raise RuntimeError(f"race {seed} did not end within {MAX_TURNS} turns")
            mover = game.to_move
            side = seat_of.index(mover)
            began = time.perf_counter()
            move = sides[side].choose(game.view(mover))
            tally.seconds[side] += time.perf_counter() - began
            tally.moves[side] += 1
            game.play(move, mover)
            turns += 1
        a, b = game.scores[seat_of[0]], game.scores[seat_of[1]]
        tally.races += 1
        tally.turns += turns
        tally.wins += 1.0 if a > b else 0.5 if a == b else 0.0
        opener = game.turn_events()[0].player  # the first mover's seat
        first, second = game.scores[opener], game.scores[1 - opener]
        tally.first_wins += 1.0 if first > second else 0.5 if first == second else 0.0
    return tally


def race_match(spec: RaceSpec, workers: int = 1) -> dict:
    """Play the match and print its result; the figures as a dict."""
    target = spec.target or preset(spec.rules).finish_target(2)
    print(f"{spec.player} vs {spec.opponent}: {spec.races} races to {target} "
          f"({spec.rules}, {spec.lexicon}; each deal twice, seats swapped; seed {spec.seed}; "
          f"{spec.time_limit:g} s a move at most; {workers} worker(s))", flush=True)
    began = time.perf_counter()
    deals = plan(MatchSpec((spec.player, spec.opponent), spec.races, spec.seed))
    tally = Tally()
    for part in run_parallel(run_races, spec, deals, workers=workers,
                             chunk=max(2, min(50, spec.races // (4 * max(1, workers))))):
        tally.add(part)
    seconds = time.perf_counter() - began
    rate = tally.wins / tally.races
    lo, hi = wilson(rate, tally.races)
    per_move = [tally.seconds[k] / max(1, tally.moves[k]) for k in range(2)]
    print("| player | races | wins % (95% CI) | first mover wins % | turns a race "
          "| s a move | opponent's s a move |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    print(f"| {spec.player} vs {spec.opponent} | {tally.races} | **{100 * rate:.1f}** "
          f"({100 * lo:.1f}–{100 * hi:.1f}) | {100 * tally.first_wins / tally.races:.1f} | "
          f"{tally.turns / tally.races:.1f} | {per_move[0]:.3f} | {per_move[1]:.4f} |")
    print(f"({seconds:.0f} s in all)", flush=True)
    return {"races": tally.races, "win_rate": rate, "ci95": (lo, hi),
            "seconds_a_move": tuple(per_move), "first_mover": tally.first_wins / tally.races}


def main() -> None:
    args = sys.argv[1:] if __name__ == "__main__" else sys.argv[2:]
    parser = argparse.ArgumentParser(prog="python -m benchmarks race")
    parser.add_argument("--races", type=int, default=1000, help="races (an even number: "
                        "each deal twice)")
    parser.add_argument("--player", default="race", help="player A (default race)")
    parser.add_argument("--opponent-player", dest="opponent", default="static",
                        help="player B (default static)")
    parser.add_argument("--time", type=float, default=0.5, help="seconds a move at most")
    parser.add_argument("--target", type=int, default=None, help="the target (default 120)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--workers", type=int, default=default_workers())
    opts = parser.parse_args(args)
    if opts.races < 2 or opts.races % 2:
        sys.exit("--races must be an even number, at least 2 (each deal is played twice)")
    race_match(RaceSpec(opts.player, opts.opponent, opts.races, opts.seed, opts.time,
                        opts.target), workers=opts.workers)


if __name__ == "__main__":
    main()
