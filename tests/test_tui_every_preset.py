"""Issue 13 acceptance: for every two-player preset, ``tessera play`` with two computer seats
(``static`` against ``level3``) plays a whole game in a real pseudo-terminal with nobody
typing a move: the computer players move on their own until the game ends, the final scores
and the winner are shown, the review question and the save question come, and the saved
game is the finished game that was shown.

``duplicate`` is a DuplicateGame: its computers (``best`` against ``level3``) hand in their
plays on their own round after round until the game ends and the results are shown; a
person alone against the master move is played to the end too, the test handing in a top
every round.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from support.duplicates import tops_of_a_twin
from support.presets import TWO_PLAYER
from support.terminal import plain, spawn_play
from tessera.duplicate import DuplicateGame
from tessera.formats.gcg import load, replay
from tessera.lexicon import Lexicon

pexpect = pytest.importorskip("pexpect")
pytest.importorskip("tessera.engine", reason="the computer players are the engine's")

SEATS = ("static", "level3")
SCORE_LINE = re.compile(r"^(static|level3)\s+(-?\d+)\s+rack", re.MULTILINE)


@pytest.mark.parametrize("preset", TWO_PLAYER)
def test_computer_against_computer_to_the_end(preset: str, tmp_path: Path) -> None:
    child = spawn_play(tmp_path, "--rules", preset, "--players", ",".join(SEATS), "--seed", "5")
    try:
        # no input at all until the game is over: a prompt for a move would time out here
        child.expect_exact("Game over", timeout=90)
        played = plain(child.before)
        child.expect_exact("Review the game, turn by turn?")
        summary = plain("Game over" + child.before)
        child.sendline("n")
        child.expect_exact("Save the game?")
        child.sendline("game.gcg")
        child.expect_exact("Saved to game.gcg.")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, summary

    for seat in SEATS:
        assert f"{seat} played" in played, f"{seat} never made a play:\n{played[-2000:]}"
    assert "Final scores:" in summary, summary
    totals = {name: int(points) for name, points in SCORE_LINE.findall(summary)}
    assert set(totals) == set(SEATS), summary
    best = max(totals.values())
    winners = [name for name, points in totals.items() if points == best]
    if len(winners) == 1:
        assert f"Winner: {winners[0]}" in summary, summary
    else:
        assert "Draw:" in summary or "Winner:" in summary, summary

    game = replay(load(tmp_path / "game.gcg"), preset)
    assert game.is_over, "the saved game is not the finished one"
    assert dict(zip(game.players, game.scores, strict=True)) == totals


def test_duplicate_alone_against_the_master_move_to_the_end(tmp_path: Path) -> None:
    lex = Lexicon.load("enable")
    tops = tops_of_a_twin(lex, 5)
    twin = DuplicateGame("duplicate", lex, players=["me"], seed=5)
    child = spawn_play(tmp_path, "--rules", "duplicate", "--players", "me", "--seed", "5")
    try:
        for top in tops:
            child.expect_exact("me> ")
            child.sendline(top)
        child.expect_exact("Game over (")
        child.expect(pexpect.EOF)
        results = plain(child.before)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, results
    for top in tops:
        twin.submit(0, top)
        twin.close_round()
    assert twin.is_over
    rows = [" ".join(line.split()) for line in results.splitlines()]
    assert f"me {twin.top_total} 100.00% +0" in rows, results


def test_duplicate_computers_alone_to_the_end(tmp_path: Path) -> None:
    child = spawn_play(tmp_path, "--rules", "duplicate", "--players", "best,level3", "--seed", "5")
    try:
        child.expect_exact("Game over (", timeout=120)
        child.expect(pexpect.EOF)
        results = plain(child.before)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, results
    rows = [" ".join(line.split()) for line in results.splitlines()]
    best = next(row for row in rows if row.startswith("best ") and "%" in row)
    level3 = next(row for row in rows if row.startswith("level3 ") and "%" in row)
    assert best.split()[2] == "100.00%" and best.split()[3] == "+0"
    assert float(level3.split()[2].rstrip("%")) < 100
