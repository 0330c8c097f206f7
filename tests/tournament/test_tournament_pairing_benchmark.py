"""``python -m benchmarks tournament`` imports and runs on a tiny size."""

from __future__ import annotations

import sys

import pytest
from benchmarks import tournament


def test_benchmark_times_swiss_rounds_and_events(monkeypatch, capsys) -> None:
    timings = tournament.time_swiss_rounds(players=30, rounds=4)
    assert len(timings) == 4
    assert all(seconds >= 0 and repeats == 0 for seconds, repeats in timings)
    seconds, report = tournament.time_events(events=2, players=8, rounds=3)
    assert seconds > 0 and report.events == 2 and report.config.players == 8
    monkeypatch.setattr(sys, "argv", ["benchmarks", "tournament", "--players", "20",
                                      "--rounds", "3", "--events", "1",
                                      "--event-players", "6", "--event-rounds", "2"])
    tournament.main()
    out = capsys.readouterr().out
    assert "20-player Swiss, round  3" in out
    assert "1 events of 6 players x 2 rounds (swiss)" in out
    assert "events/s" in out and "the top seed won" in out


def test_benchmark_is_registered() -> None:
    from benchmarks.__main__ import run

    with pytest.raises(SystemExit, match=r"have: .*\btournament\b"):
        run(["no-such-benchmark"])
