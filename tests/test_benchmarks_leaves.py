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
