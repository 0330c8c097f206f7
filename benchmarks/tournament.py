"""Tournament pairing and simulation: how long a big Swiss round and a run of events take.

Run with ``python -m benchmarks tournament [--players 500] [--rounds 12] [--repeat 3]
[--events 1000] [--event-players 40] [--event-rounds 12] [--system swiss]``. First it plays a
``--players`` Swiss event of ``--rounds`` rounds (:func:`tessera.tournament.simulate.play_event`)
and times the pairing of every round from the history it was paired from, side by side with the
block matching's rule before (``min_weight_pairs(settle=False)``: a troubled block merged with
both neighbours until clean), each the fastest of ``--repeat`` runs (the machine is shared: the
minimum is the least disturbed); it prints the worst and median round of each against the
acceptance's target (<= 1 s for 500 players, repeats avoided) and whether the two rules paired
alike. Then it times the director's simulation (:func:`tessera.tournament.simulate.simulate`)
of ``--events`` whole events of ``--event-players`` x ``--event-rounds`` paired by ``--system``
and reports events a second. CI never runs it; tests/tournament/test_tournament_pairing_benchmark.py
runs it on a tiny size.
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from unittest import mock

from tessera.tournament.history import DivisionHistory, Pairing
from tessera.tournament.pairing import matching, pair_round, swiss
from tessera.tournament.simulate import (
    SIMULATED_SYSTEMS,
    SimulationConfig,
    SimulationReport,
    play_event,
    simulate,
)

TARGET_SECONDS = 1.0  # issue 38: a 500-player Swiss round paired in at most this


@dataclass(frozen=True)
class RoundTiming:
    """One round of the timed event: seconds to pair it and repeats paired, with the block
    matching as it is and with its rule before; ``same``: the two paired alike."""

    seconds: float
    repeats: int
    seconds_before: float
    repeats_before: int
    same: bool


def _repeats(history: DivisionHistory, pairings: list[Pairing]) -> int:
    return sum(
        1 for g in pairings
        if g.second is not None and history.player(g.first).times_played(g.second)
    )


def _fastest(pair: Callable[[], list[Pairing]], repeat: int) -> tuple[float, list[Pairing]]:
    best, pairings = float("inf"), []
    for _ in range(max(1, repeat)):
        start = time.perf_counter()
        pairings = pair()
        best = min(best, time.perf_counter() - start)
    return best, pairings


def time_swiss_rounds(
    players: int, rounds: int, seed: int = 1, repeat: int = 3
) -> list[RoundTiming]:
    """Each round of one simulated Swiss event paired as it is and with the rule before, the
    fastest of ``repeat`` runs each."""
    event = play_event(SimulationConfig("swiss", players, rounds), seed)
    before = functools.partial(matching.min_weight_pairs, settle=False)
    out = []
    for r, played in enumerate(event.rounds):
        history = played.history

        def pair(history: DivisionHistory = history, r: int = r) -> list[Pairing]:
            return pair_round("swiss", history, rng=random.Random(r))

        seconds, now = _fastest(pair, repeat)
        with mock.patch.object(swiss, "min_weight_pairs", before):
            seconds_before, then = _fastest(pair, repeat)
        out.append(RoundTiming(seconds, _repeats(history, now), seconds_before,
                               _repeats(history, then), now == then))
    return out


def round_report(players: int, timings: list[RoundTiming]) -> list[str]:
    """The lines printed for the timed rounds: one a round, then the worst and median."""
    lines = []
    for r, t in enumerate(timings, 1):
        lines.append(
            f"  {players}-player Swiss, round {r:2}: {t.seconds:6.3f} s, {t.repeats} repeats"
            f" (before: {t.seconds_before:6.3f} s, {t.repeats_before} repeats"
            f"{'' if t.same else '; paired otherwise'})")
    now = [t.seconds for t in timings]
    then = [t.seconds_before for t in timings]
    verdict = "met" if max(now) <= TARGET_SECONDS else "MISSED"
    lines.append(
        f"  worst round {max(now):.3f} s, median {statistics.median(now):.3f} s "
        f"(before: worst {max(then):.3f} s, median {statistics.median(then):.3f} s); "
        f"target <= {TARGET_SECONDS:g} s a round: {verdict}")
    return lines


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
    parser.add_argument("--repeat", type=int, default=3,
                        help="time each round this many times and keep the fastest")
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--event-players", type=int, default=40)
    parser.add_argument("--event-rounds", type=int, default=12)
    parser.add_argument("--system", choices=SIMULATED_SYSTEMS, default="swiss")
    opts = parser.parse_args(sys.argv[1:] if __name__ == "__main__" else sys.argv[2:])
    timings = time_swiss_rounds(opts.players, opts.rounds, repeat=opts.repeat)
    for line in round_report(opts.players, timings):
        print(line, flush=True)
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
