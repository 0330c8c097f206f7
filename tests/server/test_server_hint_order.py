"""Hints that think (issue 36, point 17): the page labels a list with win percentages "by
chance of winning", so the list is in that order, the computer's own choice marked rather
than put first."""

from __future__ import annotations

from typing import Any

import pytest

from tessera.engine import StaticPlayer
from tessera.engine.simulation import SimCandidate, SimResult
from tessera.game import Game, PlayerView
from tessera.lexicon import Lexicon
from tessera.move import Move
from tessera.rules import preset
from tessera.server.computer import thought_hints


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return Lexicon.load("enable")


def opening(lexicon: Lexicon) -> PlayerView:
    game = Game(rules=preset("woogles"), lexicon=lexicon, players=["A", "B"], seed=36)
    return game.view(game.to_move)


def candidate(move: Move, win: float, equity: float, pruned: bool) -> SimCandidate:
    return SimCandidate(move, 10, equity, equity, 1.0, win, 0.01, 100, pruned)


class Simulated:
    """The strongest player as the hints see it, after a simulation ``result``."""

    def __init__(self, result: SimResult) -> None:
        self.last = result

    def choose(self, view: PlayerView) -> Move:
        return self.last.best.move


def test_the_list_is_by_chance_of_winning_and_marks_the_computers_choice(
    lexicon: Lexicon, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = opening(lexicon)
    plays = [r.move for r in StaticPlayer(lexicon).ranked(view, top=4)]
    # as simulate() returns them: those still simulated first, then the one it stopped;
    # the leader (0) not clearly ahead of the static best (1), which is therefore chosen
    result = SimResult(
        (
            candidate(plays[1], 0.55, 12.0, False),
            candidate(plays[0], 0.50, 15.0, False),
            candidate(plays[2], 0.48, 9.0, False),
            candidate(plays[3], 0.52, 8.0, True),
        ),
        400, 2, 0.5, "time", 1, 1, "win", None, chosen=1,
    )
    monkeypatch.setattr("tessera.engine.get_player", lambda *a, **k: Simulated(result))
    hints = thought_hints(view, lexicon, 0.1)
    assert [h["win_pct"] for h in hints] == [55.0, 52.0, 50.0, 48.0]
    assert [h.get("chosen", False) for h in hints] == [False, False, True, False]
    assert hints[2]["move"] == plays[0].human(view.rules.tileset.alphabet, view.board)


def test_the_strongest_players_own_list_is_in_order_of_its_win_percentages(
    lexicon: Lexicon,
) -> None:
    view = opening(lexicon)
    hints: list[dict[str, Any]] = thought_hints(view, lexicon, 0.3)
    wins = [h["win_pct"] for h in hints]
    assert len(wins) > 1 and wins == sorted(wins, reverse=True)
    assert sum(1 for h in hints if h.get("chosen")) == 1
