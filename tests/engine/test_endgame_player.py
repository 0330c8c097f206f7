"""The static-endgame player: static equity while tiles remain, the endgame search after."""

from __future__ import annotations

import itertools

import pytest

from support.endgames import endgame_cgps, game_of
from tessera.engine import PLAYER_NAMES, get_player
from tessera.engine.endgame import solve
from tessera.engine.endgame_player import EndgamePlayer
from tessera.engine.players import StaticPlayer
from tessera.game import Game, GameState
from tessera.lexicon import Lexicon


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.load("enable")


def test_registered_by_name(lex: Lexicon) -> None:
    assert "static-endgame" in PLAYER_NAMES
    bot = get_player("static-endgame", lex)
    assert isinstance(bot, EndgamePlayer)
    assert bot.leaves is get_player("static", lex).leaves
    with pytest.raises(ValueError, match="time_limit"):
        EndgamePlayer(lex, time_limit=0)


def test_static_while_tiles_remain(lex: Lexicon) -> None:
    game = Game("naspa", lexicon=lex, players=("A", "B"), seed=4)
    view = game.view(game.to_move)
    assert get_player("static-endgame", lex).choose(view) == StaticPlayer(lex).choose(view)


def test_the_solved_move_once_the_bag_is_empty(lex: Lexicon) -> None:
    """The move it plays is worth the proven value (another move may tie with the solver's)."""
    for line in itertools.islice(endgame_cgps(lex, 61, max_tiles=3), 4):
        game = game_of(line, lex)
        solved = solve(game)
        assert solved.proven
        move = get_player("static-endgame", lex).choose(game.view(0))
        before = game.score(0) - game.score(1)
        game.play(move)
        if game.state is GameState.AWAITING_FINAL:
            game.pass_turn()
        worth = game.score(0) - game.score(1) - before
        if not game.is_over:
            worth -= solve(game).value
        assert worth == solved.value
