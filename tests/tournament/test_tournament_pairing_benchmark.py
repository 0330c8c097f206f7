"""``python -m benchmarks tournament`` imports and runs on a tiny size."""

from __future__ import annotations

import sys

import pytest
from benchmarks import tournament


def test_benchmark_times_swiss_rounds_and_events(monkeypatch, capsys) -> None:
    timings = tournament.time_swiss_rounds(players=30, rounds=4, repeat=2)
    assert len(timings) == 4
    assert all(t.seconds >= 0 and t.seconds_before >= 0 for t in timings)
    assert all(t.repeats == t.repeats_before == 0 and t.same for t in timings)
    seconds, report = tournament.time_events(events=2, players=8, rounds=3)
    assert seconds > 0 and report.events == 2 and report.config.players == 8
    monkeypatch.setattr(sys, "argv", ["benchmarks", "tournament", "--players", "20",
                                      "--rounds", "3", "--events", "1",
                                      "--event-players", "6", "--event-rounds", "2"])
    tournament.main()
    out = capsys.readouterr().out
    assert "20-player Swiss, round  3" in out and "(before: " in out
    assert "target <= 1 s a round: met" in out
    assert "1 events of 6 players x 2 rounds (swiss)" in out
    assert "events/s" in out and "the top seed won" in out


def test_benchmark_is_registered() -> None:
    from benchmarks.__main__ import run

    with pytest.raises(SystemExit, match=r"have: .*\btournament\b"):
        run(["no-such-benchmark"])


def test_round_report_gives_the_worst_and_median_against_the_target() -> None:
    RT = tournament.RoundTiming
    timings = [RT(0.2, 0, 0.3, 0, True), RT(1.25, 1, 2.5, 1, False), RT(0.4, 0, 0.1, 0, True)]
    lines = tournament.round_report(500, timings)
    assert lines[1] == ("  500-player Swiss, round  2:  1.250 s, 1 repeats "
                        "(before:  2.500 s, 1 repeats; paired otherwise)")
    assert lines[0].endswith("0 repeats (before:  0.300 s, 0 repeats)")
    assert lines[-1] == ("  worst round 1.250 s, median 0.400 s (before: worst 2.500 s, "
                         "median 0.300 s); target <= 1 s a round: MISSED")
    assert tournament.round_report(500, timings[:1])[-1].endswith("a round: met")
