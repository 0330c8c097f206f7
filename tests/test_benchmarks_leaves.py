"""``python -m benchmarks leaves``: the helpers behind TRAINING.md's figures."""

from __future__ import annotations

import pytest
from benchmarks import leaves as bench

from tessera.lexicon.leaves import Leaves


def test_zero_leaves_reproduce_a_table_that_lists_longer_leaves_at_zero() -> None:
    """--b-zero-size N lists every N-tile leave the table lacks at 0 (as unlisted leaves were
    valued before they were valued from their sub-leaves), keeping the listed ones."""
    table = Leaves.from_mapping({(1,): 2.0, (2,): -1.0, (1, 2): 3.0})
    zeros = bench._with_zero_leaves(table, 2, "naspa", "enable")
    assert zeros.value([1, 2]) == 3.0 and zeros.value([1]) == 2.0
    assert zeros.index([1, 3]) >= 0 and zeros.value([1, 3]) == 0.0  # listed now, at 0
    assert table.value([1, 3]) == 2.0  # was valued from its sub-leaves: A + nothing
    assert zeros.index([1, 2, 3]) == -1  # other sizes untouched
    # every pair the English tiles allow: 26 letters and the blank, two of each but J K Q X Z
    assert len(zeros) == 2 + 27 * 28 // 2 - 5


def test_zero_leaves_refuse_a_table_too_big_to_build(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "MAX_ZERO_LEAVES", 10)
    with pytest.raises(SystemExit, match="more than 10"):
        bench._with_zero_leaves(Leaves.from_mapping({(1,): 1.0}), 2, "naspa", "enable")


def test_one_game_over_several_seeds_pools_them(capsys: pytest.CaptureFixture[str]) -> None:
    rows = bench.leaves_table(2, range(7, 9), ("naspa", "enable"))
    out = capsys.readouterr().out
    assert [r["table"] for r in rows] == ["enable.klv2"] and "seeds 7–8" in out
    assert out.count("| enable.klv2 | naspa | enable |") == 1


def test_a_head_start_is_priced_over_the_same_deals(capsys: pytest.CaptureFixture[str]) -> None:
    """--head-start plays the table and each head start over the same deals as the leaves
    table does, and prices the table between the head starts around its win rate."""
    games, seeds = 40, range(7, 8)
    priced = bench.head_start([0, 60], rules="finish_line", games=games, seeds=seeds)
    rows = bench.leaves_table(games, seeds, ("finish_line", "enable"))
    assert priced["trained"] == rows[0]["win_rate"]
    assert priced["head_starts"][0] == 0.5  # the same player in both seats of every deal
    assert priced["head_starts"][60] > 0.9
    assert 0 < priced["worth"] < 60
    assert set(priced["levels"]) == {"beginner", "intermediate", "expert"}
    assert priced["levels"]["intermediate"] == priced["trained"]
    out = capsys.readouterr().out
    assert "race to 200 (expert)" in out and "a head start of about" in out
    assert "A's turns a game" in out
    assert out.count("| | | |") == 1  # the 60-point head start: no turns or points shown


def test_head_starts_are_bounded() -> None:
    assert bench._starts("4,8") == [4, 8]
    for bad in ("", "4,x", "-1", "1001", ",".join(["1"] * 21)):
        with pytest.raises(Exception, match="head start"):
            bench._starts(bad)
