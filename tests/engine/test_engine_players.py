"""Computer players: the protocol, names, choices from a view only, levels."""

from __future__ import annotations

import pytest

from tessera.engine import LEVELS, PLAYER_NAMES, LevelPlayer, Player, StaticPlayer, get_player
from tessera.engine.commonwords import common_words
from tessera.engine.level_player import word_text
from tessera.engine.players import can_exchange
from tessera.game import Game, GameState
from tessera.lexicon import Lexicon
from tessera.move import Challenge, Exchange, Pass, Play
from tessera.rules import preset


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.load("enable")


def test_every_name_gives_a_player(lex: Lexicon) -> None:
    for name in PLAYER_NAMES:
        bot = get_player(name, lex, seed=1)
        assert isinstance(bot, Player)
        assert bot.name == name
    assert get_player("static", lex).leaves is not None
    assert get_player("best", lex).leaves is not None
    assert get_player("static-noleaves", lex).leaves is None
    assert isinstance(get_player("LEVEL2", lex), LevelPlayer)
    assert StaticPlayer(lex).leaves is get_player("static", lex).leaves  # trained by default
    assert StaticPlayer(lex, None).leaves is None
    assert LevelPlayer(lex, 4).leaves is not None and LevelPlayer(lex, 1).leaves is None
    with pytest.raises(ValueError, match="'trained'"):
        StaticPlayer(lex, "best")
    with pytest.raises(ValueError, match="unknown player 'level9'"):
        get_player("level9", lex)
    with pytest.raises(ValueError, match="level must be"):
        LevelPlayer(lex, 0)



def test_the_engine_exports_each_player_name_from_its_home() -> None:
    from tessera import engine
    from tessera.engine import level_player, players, registry

    homes = {
        players: ("Player", "RankedMove", "StaticPlayer", "default_leaves"),
        level_player: ("LEVELS", "Level", "LevelPlayer"),
        registry: ("PLAYER_NAMES", "get_player"),
    }
    for module, names in homes.items():
        for name in names:
            assert getattr(engine, name) is getattr(module, name), name
            assert name in engine.__all__


def test_the_player_protocol_imports_none_of_the_players_built_on_it() -> None:
    import grimp

    graph = grimp.build_graph("tessera")
    for module in graph.find_modules_directly_imported_by("tessera"):  # the lazy public API
        graph.remove_import(importer="tessera", imported=module)
    reached = graph.find_upstream_modules("tessera.engine.players")  # what it imports, at depth
    built_on_it = {
        f"tessera.engine.{name}"
        for name in ("level_player", "registry", "endgame_player", "sim_player", "simulation",
                     "inference", "selfplay", "winpct", "simref")
    }
    assert reached & built_on_it == set()
    assert "tessera.engine.players" in graph.find_upstream_modules("tessera.engine.registry")

def test_choose_from_a_view_is_legal_and_best(lex: Lexicon) -> None:
    game = Game("naspa", lexicon=lex, seed=5)
    bot = get_player("static", lex)
    for _ in range(6):
        view = game.view(game.to_move)
        move = bot.choose(view)
        ranked = bot.ranked(view, top=5)
        assert move == ranked[0].move
        assert [r.equity for r in ranked] == sorted((r.equity for r in ranked), reverse=True)
        if isinstance(move, Play):
            assert game.check(move) is not None
            assert move.score == ranked[0].score
        game.play(move, game.to_move)


def test_view_is_not_changed_and_game_over_is_refused(lex: Lexicon) -> None:
    game = Game("naspa", lexicon=lex, seed=2)
    bot = get_player("static", lex)
    view = game.view(0)
    before = (view.board.cells, view.rack, view.scores)
    bot.choose(view)
    assert (view.board.cells, view.rack, view.scores) == before
    game.resign(0)
    with pytest.raises(ValueError, match="game is over"):
        bot.choose(game.view(1))


def test_accepts_an_out_play_and_challenges_a_phony(lex: Lexicon) -> None:
    game = Game("naspa", lexicon=lex, seed=3, first=0)
    game.set_rack(0, "QIAEROT")
    game.play("8G QI", 0)  # not an ENABLE word
    bot = get_player("static", lex)
    assert isinstance(bot.choose(game.view(1)), Challenge)
    assert not isinstance(get_player("level1", lex, seed=1).choose(game.view(1)), Challenge)
    # an out-play awaiting its challenge window: the bot accepts with a pass
    end = Game("naspa", lexicon=lex, seed=4, first=0)
    end.set_rack(0, "AT")
    end._bag.clear()  # an empty bag: the next play that uses every tile goes out
    end.play("8G AT", 0)
    assert end.state is GameState.AWAITING_FINAL
    assert isinstance(bot.choose(end.view(1)), Pass)


def test_exchange_rules_from_the_view(lex: Lexicon) -> None:
    game = Game(preset("naspa").replace(max_exchanges_per_player=1), lexicon=lex, seed=9)
    view = game.view(game.to_move)
    assert can_exchange(view)
    rack = game.rack(game.to_move).tiles()
    game.play(Exchange(tuple(rack[:2])), game.to_move)
    game.play(Pass(), game.to_move)
    assert not can_exchange(game.view(game.to_move))


def test_levels_are_seeded_and_prefer_common_words(lex: Lexicon) -> None:
    common = common_words()
    assert {"THE", "HOUSE", "WATER"} <= common
    assert "QOPH" not in common and "ZA" not in common
    game = Game("naspa", lexicon=lex, seed=21)
    view = game.view(game.to_move)
    for level in LEVELS:
        a = LevelPlayer(lex, level, seed=7).choose(view)
        b = LevelPlayer(lex, level, seed=7).choose(view)
        assert a == b
    beginner = LevelPlayer(lex, 1, seed=0)
    picks = [beginner.choose(view) for _ in range(30)]
    plays = [p for p in picks if isinstance(p, Play)]
    assert plays
    common_share = sum(word_text(view, p) in common for p in plays) / len(plays)
    assert common_share >= 0.8
    ranked = get_player("static", lex).ranked(view)
    good = {r.move for r in ranked if r.equity >= ranked[0].equity - 2}  # near the best
    expert = LevelPlayer(lex, 5, get_player("static", lex).leaves, seed=0)
    expert_good = sum(expert.choose(view) in good for _ in range(40))
    beginner_good = sum(beginner.choose(view) in good for _ in range(40))
    assert expert_good > beginner_good + 5


def _finish_line_choice(lex: Lexicon, scores: list[int], complete_round: bool = False) -> Play:
    """The static player's opening play from ``?CLNUUX`` in a finish-line game (target 120):
    with its leaves it plays LUX for 20 keeping ``?CNU``; the top score is CULeX for 42."""
    rules = preset("finish_line").replace(finish_line_complete_round=complete_round)
    rack = rules.tileset.alphabet.parse("?CLNUUX")
    game = Game.from_position(rules, board_tiles=[], racks=[rack, []], scores=scores,
                              lexicon=lex, seed=1)
    move = StaticPlayer(lex).choose(game.view(0))
    assert isinstance(move, Play)
    return move


def test_finish_line_play_that_reaches_the_target_is_taken(lex: Lexicon) -> None:
    """R8.3.2: a play reaching the target ends the game with the mover's win, so the tiles
    kept are worth nothing: the static player takes the top score over a better leave."""
    assert _finish_line_choice(lex, [0, 0]).score == 20  # far from the target: the leave counts
    assert _finish_line_choice(lex, [70, 0]).score == 20  # 42 would not reach 120 either
    assert _finish_line_choice(lex, [80, 0]).score == 42  # 80 + 42 >= 120: the win
    # finishing the round (R8.3 Cfg): once anyone has reached the target this is the last turn
    assert _finish_line_choice(lex, [0, 125], complete_round=True).score == 42
    assert _finish_line_choice(lex, [0, 100], complete_round=True).score == 20
