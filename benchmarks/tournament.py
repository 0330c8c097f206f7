"""Tournament pairing and simulation: how long a big Swiss round and a run of events take.

Run with ``python -m benchmarks tournament [--players 500] [--rounds 12] [--events 1000]
[--event-players 40] [--event-rounds 12] [--system swiss]``. First it plays a ``--players``
Swiss event of ``--rounds`` rounds (:func:`tessera.tournament.simulate.play_event`) and times
the pairing of every round from the history it was paired from (the acceptance asks <= 1 s for
500 players, repeats avoided); then it times the director's simulation
(:func:`tessera.tournament.simulate.simulate`) of ``--events`` whole events of
``--event-players`` x ``--event-rounds`` paired by ``--system`` and reports events a second.
CI never runs it; tests/tournament/test_tournament_pairing_benchmark.py runs it on a tiny size.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from tessera.tournament.pairing import pair_round
from tessera.tournament.simulate import (
    SIMULATED_SYSTEMS,
    SimulationConfig,
    SimulationReport,
    play_event,
    simulate,
)


def time_swiss_rounds(players: int, rounds: int, seed: int = 1) -> list[tuple[float, int]]:
    """(seconds to pair, repeats paired) for each round of one simulated Swiss event."""
    event = play_event(SimulationConfig("swiss", players, rounds), seed)
    out = []
    for r, played in enumerate(event.rounds):
        start = time.perf_counter()
        pairings = pair_round("swiss", played.history, rng=random.Random(r))
        elapsed = time.perf_counter() - start
        repeats = sum(
            1 for g in pairings
            if g.second is not None and played.history.player(g.first).times_played(g.second)
        )
        out.append((elapsed, repeats))
    return out


def time_events(
    events: int, players: int, rounds: int, system: str = "swiss", report_every: int = 0
) -> tuple[float, SimulationReport]:
    """(seconds, the simulation's report) for ``events`` whole simulated events; with
    ``report_every`` a progress line is printed after every that many events."""

    def progress(done: int, total: int) -> None:
        if report_every and done % report_every == 0 and done < total:
            print(f"    {done}/{total} events, {time.perf_counter() - start:.1f} s", flush=True)

    start = time.perf_counter()
    report = simulate(SimulationConfig(system, players, rounds), events, progress=progress)
    return time.perf_counter() - start, report


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks tournament", description=__doc__)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--event-players", type=int, default=40)
    parser.add_argument("--event-rounds", type=int, default=12)
    parser.add_argument("--system", choices=SIMULATED_SYSTEMS, default="swiss")
    opts = parser.parse_args(sys.argv[1:] if __name__ == "__main__" else sys.argv[2:])
    timings = time_swiss_rounds(opts.players, opts.rounds)
    for r, (seconds, repeats) in enumerate(timings, 1):
        print(f"  {opts.players}-player Swiss, round {r:2}: {seconds:6.3f} s, {repeats} repeats")
    worst = max(seconds for seconds, _ in timings)
    print(f"  slowest round {worst:.3f} s (target <= 1 s)")
    total, report = time_events(
        opts.events, opts.event_players, opts.event_rounds, opts.system,
        report_every=max(1, opts.events // 10),
    )
    print(f"  {opts.events} events of {opts.event_players} players x {opts.event_rounds} rounds "
          f"({opts.system}): {total:.1f} s, {opts.events / total:.2f} events/s "
          f"({total / opts.events * 1000:.0f} ms an event)")
    for line in report.lines()[1:]:
        print(f"    {line}")


if __name__ == "__main__":
    main()
