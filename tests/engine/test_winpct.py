"""The win-% table: its file format, its lookups (Python and compiled alike), its training."""

from __future__ import annotations

import math
import random

import pytest
from click.testing import CliRunner

from tessera.cli import main
from tessera.engine.compiled_games import play_compiled
from tessera.engine.winpct import (
    WinTable,
    WinTableError,
    WinTally,
    default_win_table,
    fit,
    fit_logistic,
    tally_game,
)
from tessera.lexicon import Lexicon
from tessera.rules import preset


def small() -> WinTable:
    return WinTable(((0.0, 0.5, 1.0), (0.2, 0.5, 0.9)), -10, 10)


def test_lookup_interpolates_and_clamps() -> None:
    t = small()
    assert t.p(0, 1) == 0.5 and t.p(5, 1) == pytest.approx(0.7)
    assert t.p(-100, 1) == 0.2 and t.p(100, 1) == 0.9
    assert t.p(3, 50) == t.p(3, 1)  # unseen counts beyond the rows use the last row
    assert t.p(3, -2) == t.p(3, 0)


def test_compiled_lookup_is_the_same() -> None:
    table = default_win_table()
    rng = random.Random(1)
    for _ in range(2000):
        spread = rng.uniform(-400, 400)
        unseen = rng.randrange(-3, 110)
        assert table.compiled.p(spread, unseen) == table.p(spread, unseen)


def test_the_shipped_table_is_sane() -> None:
    table = default_win_table()
    assert len(table.rows) == preset("naspa").tileset.total + 1
    for u in (1, 10, 50, 93):
        row = [table.p(s, u) for s in range(-300, 301, 5)]
        assert row == sorted(row)  # ahead is never worse
        assert table.p(-150, u) < 0.35 and table.p(150, u) > 0.65
    # the same lead is surer with fewer tiles left
    assert table.p(40, 5) > table.p(40, 40) > table.p(40, 90)


def test_file_round_trip(tmp_path) -> None:
    t = small()
    path = tmp_path / "t.csv"
    t.save(path, "a comment\nover two lines")
    text = path.read_text()
    assert text.startswith("# a comment\n# over two lines\nunseen,-10,0,10\n")
    assert WinTable.load(path) == t


@pytest.mark.parametrize(("text", "message"), [
    ("", "no table"),
    ("spread,1,2\n", "line 1: expected the header"),
    ("unseen,0,5,20\n0,0,0,1\n", "line 1: spreads must rise in equal steps"),
    ("unseen,a,b\n", "line 1: spreads must be whole numbers"),
    ("unseen,0,5\n0,0.1\n", "line 2: 1 values; the header has 2 spreads"),
    ("unseen,0,5\n1,0.1,0.2\n", "line 2: expected row 0, found '1'"),
    ("unseen,0,5\n0,0.1,x\n", "line 2: values must be numbers"),
    ("unseen,0,5\n0,0.1,1.5\n", "line 2: 1.5 is not a probability"),
    ("unseen,0,5\n0,0.1,nan\n", "line 2: nan is not a probability"),
    ("unseen,0,5\n" + "".join(f"{i},0,1\n" for i in range(1001)), "more than 1000 rows"),
])
def test_bad_files_are_clear_errors(text: str, message: str) -> None:
    with pytest.raises(WinTableError, match=message):
        WinTable.loads(text)


def test_a_missing_file_is_a_clear_error(tmp_path) -> None:
    with pytest.raises(WinTableError, match=r"nope\.csv"):
        WinTable.load(tmp_path / "nope.csv")


def test_logistic_fit_recovers_a_curve() -> None:
    a, b = 0.3, 0.02
    points = []
    for s in range(-200, 201, 10):
        p = 1 / (1 + math.exp(-(a + b * s)))
        points.append((float(s), 1000.0, 1000.0 * p))
    fa, fb = fit_logistic(points)
    assert fa == pytest.approx(a, abs=1e-6) and fb == pytest.approx(b, abs=1e-8)


def test_tally_of_a_game_and_fit() -> None:
    rules = preset("naspa")
    lex = Lexicon.load("enable")
    record = play_compiled(rules, lex, 3, [None, None])
    tally = tally_game(record, rules)
    assert tally.games == 1 and tally.turns == len(record["turns"])
    # the first turn: 93 unseen (100 tiles less the mover's 7), level, and the mover's result
    first = record["turns"][0][0]
    final = record["scores"]
    won = 1.0 if final[first] > final[1 - first] else 0.5 if final[0] == final[1] else 0.0
    assert tally.cells[(93, 0)] == [1.0, won]
    merged = WinTally()
    for _ in range(3):
        merged.merge(tally)
    assert merged.turns == 3 * tally.turns and merged.cells[(93, 0)][0] == 3.0
    table = fit(merged, 101, min_observations=10)
    assert len(table.rows) == 101 and table.rows[0][0] == 0.0 and table.rows[0][-1] == 1.0


def test_train_command_writes_a_table(tmp_path) -> None:
    out = tmp_path / "w.csv"
    result = CliRunner().invoke(
        main, ["winpct", "train", "--games", "20", "--workers", "1", "-q", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "wrote" in result.output and "20 games" in result.output
    table = WinTable.load(out)
    assert len(table.rows) == 101
    assert "tessera winpct train" in out.read_text().splitlines()[1]


def test_train_command_refuses_bad_rules(tmp_path) -> None:
    result = CliRunner().invoke(
        main, ["winpct", "train", "--games", "4", "--rules", "nosuch", "-o", str(tmp_path / "x")]
    )
    assert result.exit_code == 2 and "nosuch" in result.output
