"""The simulating player (sim, best): legal, seeded, within its time, under a clock, in matches;
its time budget; and tessera analyze --sim."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from support.timelimit import timed_within
from tessera.cli import main
from tessera.engine import PLAYER_NAMES, SimPlayer, get_player
from tessera.engine.analysis import SimSettings, analyze_file
from tessera.engine.players import StaticPlayer
from tessera.engine.selfplay import MatchSpec, autoplay, play_game
from tessera.engine.timing import MAX_SHARE, MIN_BUDGET, RESERVE, expected_own_moves, move_budget
from tessera.game import Game, GameState
from tessera.lexicon import Lexicon
from tessera.move import Play
from tessera.rules import TimeControl, preset

RULES = preset("naspa")
DATA = Path(__file__).parent.parent / "data" / "gcg"


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.load("enable")


def midgame(lex: Lexicon, seed: int = 4, turns: int = 6, rules=RULES) -> Game:
    game = Game(rules, lexicon=lex, players=("A", "B"), seed=seed)
    static = StaticPlayer(lex)
    for _ in range(turns):
        game.play(static.choose(game.view(game.to_move)), game.to_move)
    return game


def test_best_is_the_simulating_player(lex) -> None:
    assert "sim" in PLAYER_NAMES and "best" in PLAYER_NAMES
    best = get_player("best", lex, seed=3, time_limit=0.2)
    assert isinstance(best, SimPlayer) and best.name == "best"
    assert best.time_limit == 0.2 and best.seed == 3
    assert isinstance(get_player("sim", lex), SimPlayer)
    assert type(get_player("static", lex)) is StaticPlayer


def test_seeded_choices_repeat_and_are_legal(lex) -> None:
    game = midgame(lex)
    view = game.view(game.to_move)
    a = SimPlayer(lex, iterations=40, seed=11, time_limit=None)
    b = SimPlayer(lex, iterations=40, seed=11, threads=2, time_limit=None)
    move = a.choose(view)
    assert b.choose(view) == move
    assert a.last is not None and a.last.best.move == move
    assert a.last.iterations == 40 or a.last.stopped == "pruned"
    game.play(move, game.to_move)  # legal: the game takes it


def test_a_move_keeps_to_its_time(lex) -> None:
    game = midgame(lex, seed=5)
    view = game.view(game.to_move)
    player = SimPlayer(lex, time_limit=0.5)
    timed_within(lambda: player.choose(view), 0.5, threads=1)
    assert player.last is not None and player.last.iterations > 0


def test_budget_without_and_with_a_clock(lex) -> None:
    clocked = RULES.replace(clock=TimeControl(initial_ms=300_000, increment_ms=2_000))
    game = midgame(lex, rules=clocked)
    view = game.view(game.to_move)
    assert move_budget(replace(view, clocks_ms=None), 0.7) == 0.7
    left = view.clocks_ms[view.player] / 1000
    share = left * (1 - RESERVE) / expected_own_moves(view) + 2.0
    assert expected_own_moves(view) == -(-(view.bag_count + sum(view.rack_counts)) // 8)
    assert move_budget(view, None) == pytest.approx(min(share, MAX_SHARE * left))
    assert move_budget(view, 0.5) == 0.5  # the player's own limit is smaller
    short = replace(view, clocks_ms=(4_000, 4_000))
    assert move_budget(short, 10.0) == pytest.approx(1.0)  # a quarter of what is left
    over = replace(view, clocks_ms=(-5_000, 60_000))
    assert move_budget(over, 10.0) == MIN_BUDGET  # in overtime: as quick as possible


def test_under_a_clock_the_player_spends_its_share(lex) -> None:
    clocked = RULES.replace(clock=TimeControl(initial_ms=2_000, increment_ms=0))
    game = midgame(lex, rules=clocked)
    view = game.view(game.to_move)
    budget = move_budget(view, 5.0)
    assert budget < 0.5
    player = SimPlayer(lex, time_limit=5.0)
    began = time.perf_counter()
    move = player.choose(view)
    assert time.perf_counter() - began <= 1.1 * budget + 0.01
    game.play(move, game.to_move)


def test_a_whole_game_against_static(lex) -> None:
    game = Game(RULES, lexicon=lex, players=("A", "B"), seed=8)
    best = SimPlayer(lex, iterations=6, candidates=4, seed=1, time_limit=None)
    play_game(game, [best, StaticPlayer(lex)])
    assert game.is_over
    assert any(isinstance(e.move, Play) for e in game.history if e.player == 0)


def test_more_than_two_players_play_the_static_move(lex) -> None:
    game = Game(RULES.replace(max_players=4), lexicon=lex, players=("A", "B", "C"), seed=2)
    view = game.view(game.to_move)
    player = SimPlayer(lex, iterations=10, seed=1, time_limit=None)
    assert player.choose(view) == StaticPlayer(lex).choose(view)
    assert player.last is None


def test_autoplay_with_best(lex) -> None:
    spec = MatchSpec(("best", "static"), 2, seed=3, time_limit=0.01)
    rep, records = autoplay(spec, workers=1)
    assert rep.games == 2 and len(records) == 2
    assert all(r.reason in ("played_out", "scoreless_turns") for r in records)
    out = CliRunner().invoke(main, ["autoplay", "-n", "2", "-p", "best,static", "--time",
                                    "0.01", "-w", "1", "-q", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["games"] == 2


def test_analyze_with_simulation(lex) -> None:
    result = analyze_file(DATA / "reference_game.gcg", lex,
                          sim=SimSettings(iterations=16, time_limit=None, seed=1))
    simulated = [t for t in result.turns if t.sim_best is not None]
    assert simulated
    for t in simulated:
        assert t.win_lost == pytest.approx(t.best_win_pct - t.win_pct, abs=0.011)
        assert t.win_lost >= 0  # the move played is a candidate: never better than the best
    assert set(result.total_win_lost) <= {t.player for t in simulated}
    runner = CliRunner()
    out = runner.invoke(main, ["analyze", str(DATA / "reference_game.gcg"), "--sim",
                               "--iterations", "16", "--seed", "1"])
    assert out.exit_code == 0, out.output
    assert "sim best" in out.output and "win % lost" in out.output
    data = runner.invoke(main, ["analyze", str(DATA / "reference_game.gcg"), "--sim",
                                "--iterations", "16", "--seed", "1", "--json"])
    turns = json.loads(data.output)["turns"]
    assert any(t["win_lost"] is not None for t in turns)
    wrong = runner.invoke(main, ["analyze", str(DATA / "reference_game.gcg"), "--time", "1"])
    assert wrong.exit_code == 2 and "go with --sim" in wrong.output


def test_level5_plays_its_best_by_a_short_simulation(lex, monkeypatch) -> None:
    from tessera.engine import simulation
    from tessera.engine.level_player import LevelPlayer

    calls = []
    real = simulation.simulate

    def spy(view, **kw):
        calls.append(kw)
        return real(view, **kw)

    monkeypatch.setattr(simulation, "simulate", spy)
    game = midgame(lex, seed=6)
    view = game.view(game.to_move)
    expert = LevelPlayer(lex, 5, seed=1)
    expert.rng.random = lambda: 0.0  # always take the "best" branch
    pick = expert.choose(view)
    assert len(calls) == 1 and calls[0]["iterations"] == 100 and calls[0]["candidates"] == 12
    game.play(pick, game.to_move)
    club = LevelPlayer(lex, 3, seed=1)
    club.rng.random = lambda: 0.0
    calls.clear()
    club.choose(view)
    assert not calls  # the lower levels never simulate


def test_rollouts_play_to_the_end_when_the_bag_is_nearly_empty(lex) -> None:
    from tessera.engine.sim_player import PLAY_OUT_BAG, PLAY_OUT_PLIES

    game = midgame(lex, seed=9, turns=0)
    static = StaticPlayer(lex)
    while game.bag_count > PLAY_OUT_BAG:
        game.play(static.choose(game.view(game.to_move)), game.to_move)
    assert 2 < game.bag_count <= PLAY_OUT_BAG  # 1-2 in the bag: the pre-endgame
    player = SimPlayer(lex, iterations=8, candidates=3, seed=2, time_limit=None)
    game.play(player.choose(game.view(game.to_move)), game.to_move)
    assert player.last is not None and player.last.plies == PLAY_OUT_PLIES
    early = midgame(lex, seed=9)
    player.choose(early.view(early.to_move))
    assert player.last.plies == 2


def late(lex: Lexicon, seed: int, bag_at_most: int) -> Game:
    """A static self-play game played on until the bag holds ``bag_at_most`` tiles or fewer."""
    game = midgame(lex, seed=seed, turns=0)
    static = StaticPlayer(lex)
    while game.bag_count > bag_at_most:
        game.play(static.choose(game.view(game.to_move)), game.to_move)
    return game


def test_the_endgame_is_searched(lex) -> None:
    from tessera.engine.endgame import EndgameResult

    game = late(lex, 31, 0)
    assert game.bag_count == 0 and not game.is_over
    view = game.view(game.to_move)
    player = SimPlayer(lex, time_limit=0.5)
    move = timed_within(lambda: player.choose(view), 0.5, threads=1)
    assert isinstance(player.last_search, EndgameResult) and player.last is None
    assert move == player.last_search.best
    game.play(move, game.to_move)


def test_the_pre_endgame_is_searched(lex) -> None:
    from tessera.engine.preendgame import PreendgameCandidate

    for seed in range(40, 80):  # the first deal that passes through one or two in the bag
        game = late(lex, seed, 2)
        if 1 <= game.bag_count <= 2:
            break
    assert 1 <= game.bag_count <= 2
    view = game.view(game.to_move)
    player = SimPlayer(lex, time_limit=0.5)
    move = timed_within(lambda: player.choose(view), 0.5, threads=1)
    found = player.last_search
    assert isinstance(found, list) and all(isinstance(c, PreendgameCandidate) for c in found)
    best = max(found, key=lambda c: (c.win_probability, c.expected_spread))
    assert move == best.move and player.last is None
    game.play(move, game.to_move)


def test_a_finish_line_race_is_played_out_and_a_winning_play_taken(lex) -> None:
    """R8.3: rollouts run to the race's end, and a turn whose top score reaches the target
    takes a play that reaches it (the simulation once preferred a 33-point play keeping a
    better leave to a 50-point win)."""
    from tessera.engine.sim_player import PLAY_OUT_PLIES

    rules = preset("finish_line").replace(finish_line_target=60)
    static, zero = StaticPlayer(lex), StaticPlayer(lex, leaves=None)
    wins_now = simulated = 0
    for seed in range(6):
        game = Game(rules, lexicon=lex, players=("A", "B"), seed=seed)
        player = SimPlayer(lex, iterations=8, candidates=4, seed=seed, time_limit=None)
        while not game.is_over:
            view = game.view(game.to_move)
            if game.to_move == seed % 2 and view.state is GameState.PLAYING:
                move = player.choose(view)
                if view.scores[view.player] + zero.ranked(view, 1)[0].score >= 60:
                    wins_now += 1
                    assert isinstance(move, Play) and view.scores[view.player] + move.score >= 60
                    assert player.last is None  # taken without simulating
                elif player.last is not None:
                    simulated += 1
                    assert player.last.plies == PLAY_OUT_PLIES
            else:
                move = static.choose(view)
            game.play(move, game.to_move)
    assert wins_now >= 2 and simulated >= 2


def test_a_finish_line_game_that_completes_the_round_plays_the_static_move(lex) -> None:
    """Rollouts cannot play a finish-line game's last round (R8.3), so such a game is played
    as the static player plays it."""
    rules = preset("finish_line").replace(finish_line_complete_round=True)
    game = midgame(lex, seed=5, turns=2, rules=rules)
    view = game.view(game.to_move)
    player = SimPlayer(lex, iterations=8, seed=1, time_limit=None)
    assert player.choose(view) == StaticPlayer(lex).choose(view)
    assert player.last is None
