"""``tessera endgame --cgp``: the value, the line, proof, depth, nodes, seconds; bad input."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from support.endgames import endgame_cgps, game_of
from support.timelimit import timed_within
from tessera.cli import main
from tessera.engine.endgame import solve
from tessera.formats import cgp
from tessera.lexicon import Lexicon


@pytest.fixture(scope="module")
def line() -> str:
    return next(endgame_cgps(Lexicon.load("enable"), 21, max_tiles=3))


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["endgame", *args])
    return result.exit_code, result.output


def test_json_gives_the_proven_value_and_line(line: str) -> None:
    code, out = run("--cgp", line, "--json")
    assert code == 0, out
    data = json.loads(out)
    expected = solve(game_of(line, Lexicon.load("enable")))
    assert data["value"] == expected.value
    assert data["proven"] is True
    assert data["line"][0]["move"] == data["best"]
    assert len(data["line"]) == len(expected.line)
    assert data["depth"] >= 1 and data["nodes"] >= 1 and data["seconds"] >= 0
    assert 0 <= data["tt_hit_rate"] <= 1


def test_text_output(line: str) -> None:
    code, out = run("--cgp", line, "--threads", "2", "--time", "5")
    assert code == 0, out
    assert "for the player to move (proven)" in out
    assert "1. to move" in out
    assert "nodes in" in out and "table hits" in out


def test_an_absent_opponent_rack_is_the_unseen_tiles(line: str) -> None:
    pos = cgp.loads(line)
    blank_other = line.replace(
        line.split()[1], line.split()[1].split("/")[0] + "/", 1
    )
    assert cgp.loads(blank_other).racks[1] == ()
    code, out = run("--cgp", blank_other, "--json")
    assert code == 0, out
    full = json.loads(run("--cgp", line, "--json")[1])
    assert json.loads(out)["value"] == full["value"]
    assert pos.racks[1]  # the original gave it


def test_unproven_under_a_short_time() -> None:
    big = next(endgame_cgps(Lexicon.load("enable"), 22, max_tiles=7, first_only=True))
    code, out = timed_within(  # the search's own seconds, excused when it lacked the CPU
        lambda: run("--cgp", big, "--time", "0.2", "--json"), 0.2, threads=1,
        took=lambda answer: json.loads(answer[1])["seconds"],
    )
    assert code == 0, out
    data = json.loads(out)
    assert data["seconds"] <= 0.22
    if not data["proven"]:
        assert data["depth"] >= 0


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s.replace(s.split()[1], s.split()[1][:-1], 1), "bag"),
        (lambda s: s.replace(s.split()[1], "QQQ/" + s.split()[1].split("/")[1], 1), "set has"),
        (lambda s: s.replace(s.split()[1], "ABCDEFGH/" + s.split()[1].split("/")[1], 1),
         "a rack holds"),
        (lambda s: s.replace(s.split()[1], s.split()[1] + "/A", 1), "racks"),
        (lambda s: s.replace(s.split()[1], "/" + s.split()[1].split("/")[1], 1), "no tiles"),
        (lambda s: "not a cgp", "CGP needs four fields"),
        (lambda s: s.split()[0] + " A/B 0/0 x", "scoreless"),
    ],
)
def test_impossible_or_malformed_positions_are_clear_errors(
    line: str, change: object, message: str
) -> None:
    code, out = run("--cgp", change(line))  # type: ignore[operator]
    assert code == 2
    assert message in out
    assert "Traceback" not in out


def test_a_full_bag_is_refused() -> None:
    opening = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0 lex enable;"
    code, out = run("--cgp", opening)
    assert code == 2
    assert "bag is not empty" in out


def test_bad_options_are_refused(line: str) -> None:
    for args in (["--time", "-1"], ["--threads", "0"], ["--max-depth", "0"]):
        code, out = run("--cgp", line, *args)
        assert code == 2, (args, out)
