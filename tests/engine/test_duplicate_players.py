"""Computers in a duplicate game (R8.4): ``best`` hands in a top every round, a level picks
as its level does among plays valued by score, and a seed fixes every choice."""

from __future__ import annotations

import pytest

from tessera.duplicate import DuplicateGame
from tessera.engine.duplicate_players import DuplicateComputer
from tessera.lexicon import Lexicon


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.load("enable")


def play_out(game: DuplicateGame, computers: list[DuplicateComputer]) -> list[str]:
    handed_in = []
    while not game.is_over:
        for i in game.waiting:
            play = computers[i].choose(game)
            if play is not None:
                game.submit(i, play)
                handed_in.append(str(play))
        game.close_round()
    return handed_in


def test_best_hands_in_a_top_every_round_and_levels_fall_short(lex: Lexicon) -> None:
    names = ["best", "level5", "level1"]
    game = DuplicateGame("duplicate", lex, players=names, seed=5)
    play_out(game, [DuplicateComputer(n, seed=i) for i, n in enumerate(names)])
    result = game.results()
    assert len(game.rounds) > 10
    for rd in game.rounds:  # every one of best's plays scored the round's top
        assert rd.points(0) == rd.top.score
    assert result.percentages[0] == 100.0
    assert result.percentages[2] < result.percentages[1] < 100.0


def test_a_seed_fixes_the_choices(lex: Lexicon) -> None:
    def plays(seed: int) -> list[str]:
        game = DuplicateGame("duplicate", lex, players=["level3"], seed=8)
        return play_out(game, [DuplicateComputer("level3", seed=seed)])

    first = plays(1)
    assert plays(1) == first
    assert plays(2) != first


def test_a_rack_with_no_play_gets_nothing_handed_in(lex: Lexicon) -> None:
    game = DuplicateGame("duplicate", lex, players=["best"], seed=1)
    game.set_rack("Q")  # one tile on an empty board: no play (the game ends, R8.4.5)
    assert DuplicateComputer("best").choose(game) is None


def test_unknown_players_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown duplicate player 'level9'"):
        DuplicateComputer("level9")
