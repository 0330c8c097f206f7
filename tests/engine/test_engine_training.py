"""Leave training: observations from self-play, smoothing, the table, the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tessera.cli import main
from tessera.engine.training import (
    Tally,
    all_leaves,
    fit,
    sub_leaves,
    tally_game,
    train,
)
from tessera.lexicon import Leaves
from tessera.rules import preset

COUNTS = preset("naspa").tileset.counts


def test_every_leave_of_the_english_bag() -> None:
    small = all_leaves([2, 1, 3], 2)
    assert sorted(small) == sorted(
        [b"\x00", b"\x00\x00", b"\x01", b"\x02", b"\x02\x02", b"\x00\x01", b"\x00\x02",
         b"\x01\x02"]
    )
    assert len(all_leaves(COUNTS, 2)) == 27 + 27 * 26 // 2 + sum(1 for c in COUNTS if c >= 2)


def test_sub_leaves_are_distinct_multisets() -> None:
    assert sorted(sub_leaves((5, 5, 1), 6)) == sorted(
        [b"\x01", b"\x05", b"\x05\x05", b"\x01\x05", b"\x01\x05\x05"]
    )
    assert len(sub_leaves((1, 2, 3, 4, 5, 6, 7), 6)) == 2**7 - 2
    assert all(len(x) <= 2 for x in sub_leaves((1, 2, 3, 4), 2))


def test_tally_counts_every_leave_a_rack_holds_while_the_bag_lasts() -> None:
    turns = [
        (0, (0, 7, 7, True, (1, 2), 10, 10.0), (1, 2), 86),
        (1, (1, 0, 0, True, (3,), 0, 4.0), (3, 3), 84),
        (0, (0, 4, 7, True, (4, 5), 30, 30.0), (4, 5), 0),  # bag empty: not counted
    ]
    tally = tally_game({"turns": turns}, 7)
    assert tally.counts == {b"": 2, b"\x01": 1, b"\x02": 1, b"\x01\x02": 1, b"\x03": 1,
                            b"\x03\x03": 1}
    assert tally.sums[b""] == 14.0 and tally.sums[b"\x03\x03"] == 4.0
    assert tally.games == 1 and tally.turns == 3


def test_fit_is_relative_to_the_empty_leave_and_smoothed() -> None:
    tally = Tally()
    for _ in range(100):
        tally.add(b"", 30.0)
        tally.add(b"\x00", 55.0)  # the blank: +25
        tally.add(b"\x11", 20.0)  # Q: -10
    tally.add(b"\x00\x11", 45.0)  # once: mostly the prior (25 - 10)
    values = fit(tally, COUNTS, smoothing=20.0, max_size=2)
    assert values[b"\x00"] == pytest.approx(25 * 100 / 120)
    assert values[b"\x11"] == pytest.approx(-10 * 100 / 120)
    prior = values[b"\x00"] + values[b"\x11"]
    assert values[b"\x00\x11"] == pytest.approx(prior + (15.0 - prior) / 21)
    assert values[b"\x05\x05"] == 0.0  # never seen, parts never seen
    with pytest.raises(ValueError, match="empty leave"):
        fit(Tally(), COUNTS)


def test_train_writes_a_table_every_generation(tmp_path: Path) -> None:
    table, reports = train(games=4, generations=2, seed=3, workers=1, work_dir=tmp_path,
                           max_size=2)
    assert [r.generation for r in reports] == [1, 2]
    assert all(r.games == 4 and r.turns > 40 for r in reports)
    assert len(table) == len(all_leaves(COUNTS, 2))
    again = Leaves.load(tmp_path / "generation-2.klv2")
    assert again.values == table.values
    with pytest.raises(ValueError, match="at least 2 games"):
        train(games=1, generations=1, work_dir=tmp_path)


def test_leaves_train_cli_refuses_bad_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a refusal that trained after all would write ./leaves-training
    runner = CliRunner()
    bad = runner.invoke(main, ["leaves", "train", "--games", "1", "-o", str(tmp_path / "x")])
    assert bad.exit_code != 0 and "--games" in bad.output
    missing = runner.invoke(main, ["leaves", "train", "--games", "10"])
    assert missing.exit_code != 0 and "--output" in missing.output
    rules = runner.invoke(
        main, ["leaves", "train", "-n", "4", "-r", "duplicate", "-o", str(tmp_path / "y")]
    )
    assert rules.exit_code != 0 and "duplicate games" in rules.output
    assert not (tmp_path / "leaves-training").exists()
