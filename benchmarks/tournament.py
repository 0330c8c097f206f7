"""Tournament pairing: how long a big Swiss round and a run of simulated events take.

Run with ``python -m benchmarks tournament [--players 500] [--rounds 12] [--events 1000]
[--event-players 40] [--event-rounds 12]``. First it plays a ``--players`` Swiss event of
``--rounds`` rounds (random results from ratings, tests/support/tournament_sim.py) and times
the pairing of every round (the acceptance asks <= 1 s for 500 players, repeats avoided); then
it times ``--events`` whole simulated events of ``--event-players`` × ``--event-rounds``. CI
never runs it; tests/tournament/test_tournament_pairing_benchmark.py runs it on a tiny size.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from support.tournament_sim import SimPlayer, history_of, play_round, simulate
from tessera.tournament.pairing import pair_round


def time_swiss_rounds(players: int, rounds: int, seed: int = 1) -> list[tuple[float, int]]:
    """(seconds to pair, repeats paired) for each round of one simulated Swiss event."""
    rng = random.Random(seed)
    field = {i: SimPlayer(i, int(rng.gauss(1500, 250))) for i in range(1, players + 1)}
    out = []
    for r in range(rounds):
        history = history_of(list(field.values()), r, rounds)
        start = time.perf_counter()
        pairings = pair_round("swiss", history, rng=random.Random(r))
        elapsed = time.perf_counter() - start
        repeats = sum(
            1 for g in pairings
            if g.second is not None and history.player(g.first).times_played(g.second)
        )
        out.append((elapsed, repeats))
        play_round(field, pairings, rng)
    return out


def time_events(events: int, players: int, rounds: int) -> float:
    """Seconds for ``events`` whole simulated Swiss events."""
    start = time.perf_counter()
    for seed in range(events):
        simulate("swiss", players, rounds, seed)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks tournament", description=__doc__)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--event-players", type=int, default=40)
    parser.add_argument("--event-rounds", type=int, default=12)
    opts = parser.parse_args(sys.argv[1:] if __name__ == "__main__" else sys.argv[2:])
    timings = time_swiss_rounds(opts.players, opts.rounds)
    for r, (seconds, repeats) in enumerate(timings, 1):
        print(f"  {opts.players}-player Swiss, round {r:2}: {seconds:6.3f} s, {repeats} repeats")
    worst = max(seconds for seconds, _ in timings)
    print(f"  slowest round {worst:.3f} s (target <= 1 s)")
    total = time_events(opts.events, opts.event_players, opts.event_rounds)
    print(f"  {opts.events} events of {opts.event_players} players x {opts.event_rounds} rounds: "
          f"{total:.1f} s ({total / max(1, opts.events) * 1000:.0f} ms an event)")


if __name__ == "__main__":
    main()
