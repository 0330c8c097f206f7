"""``python -m benchmarks spans``: the census behind the README's span figures."""

from __future__ import annotations

from benchmarks.spans import span_census


def test_census_counts_spans_that_must_be_filled_and_those_with_no_play() -> None:
    census = span_census(20)
    assert census["positions"] == 20
    assert census["spans"] > census["must_fill"] >= census["must_fill_empty"] > 0
    # the best move's own span is filled and holds a play, so some must-fill spans are not empty
    assert census["must_fill"] - census["must_fill_empty"] >= 1
    assert census["plays_outside"] == 0  # every play lies in a listed span
