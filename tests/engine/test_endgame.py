"""The exact endgame solver (tessera.engine.endgame), held against the plain minimax of
tessera.engine.endgame_reference and plain alpha-beta, and against Game playing its lines."""

from __future__ import annotations

import itertools
import time

import pytest

from support.endgames import endgame_cgps, game_of
from support.timelimit import timed_within
from tessera.engine.endgame import EndgameError, engine, position_of, search, solve
from tessera.engine.endgame_reference import TooLarge, minimax
from tessera.formats import cgp
from tessera.game import Game, GameState
from tessera.lexicon import Lexicon
from tessera.move import Pass, Play
from tessera.rules import OutAdjust, preset

REFERENCE_NODES = 30_000  # "small enough for the plain minimax"
PLAIN_SECONDS = 10.0  # "small enough for plain alpha-beta to the end"

# a self-play endgame the search cannot prove in seconds (a blank and 6 tiles against 7)
BIG = (
    "ARIA1YOU2ELOPE/TI2TANNINS2I1/1FUCI8R1/3A9A1/3L9T1/1VEXED1M5I1/5UPO5N1/4WHIZ5GO/"
    "4E2O6V/4B8FA/4E8ER/3DRAGSTER2MI/14E/1QUOTE1GLYCINeS/3WALDO7 ABEHOR?/DEJKNST "
    "401/398 0 lex enable; tr naspa;"
)


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.load("enable")


def spread(game: Game, player: int) -> int:
    return game.score(player) - game.score(1 - player)


def play_line(game: Game, line: tuple) -> int:
    """Play a line in the game itself; the spread change for the player who moved first."""
    mover = game.to_move
    before = spread(game, mover)
    for move in line:
        game.play(move)
        if game.state is GameState.AWAITING_FINAL:
            game.pass_turn()  # the out-play is accepted
    assert game.is_over, "a proven line ends the game"
    return spread(game, mover) - before


def small_positions(lex: Lexicon, count: int, seed: int) -> list[Game]:
    """Self-play endgames of at most 3 tiles a side whose plain minimax stays small."""
    out = []
    for line in endgame_cgps(lex, seed, max_tiles=3):
        game = game_of(line, lex)
        try:
            value = minimax(game, max_nodes=REFERENCE_NODES)
        except TooLarge:
            continue
        out.append((game, value))
        if len(out) == count:
            break
    return out


def check_against_reference(lex: Lexicon, count: int, seed: int) -> None:
    positions = small_positions(lex, count, seed)
    assert len(positions) == count
    seats = set()
    for game, value in positions:
        result = solve(game)
        assert result.proven
        assert result.value == value, cgp.dumps(game)
        assert play_line(game, result.line) == value
        seats.add(sum(len(game.rack(p)) for p in range(2)) % 2)
    assert len(seats) == 2  # racks of both parities: both seats come to move


def test_solver_equals_plain_minimax_on_small_endgames(lex: Lexicon) -> None:
    check_against_reference(lex, 12, seed=1)


@pytest.mark.slow
def test_solver_equals_plain_minimax_on_500_endgames(lex: Lexicon) -> None:
    check_against_reference(lex, 500, seed=2)


def check_against_plain(
    lex: Lexicon, count: int, seed: int, max_tiles: int = 7, seconds: float = PLAIN_SECONDS
) -> tuple[int, int]:
    """The full solver against plain alpha-beta on ``count`` self-play endgames that plain
    alpha-beta proves within ``seconds``; returns how many had a blank and a rack of 7."""
    solver = engine(lex, preset("naspa"))
    done = blanks = sevens = 0
    for line in endgame_cgps(lex, seed, max_tiles=max_tiles):
        game = game_of(line, lex)
        pos = position_of(game)
        plain = search(solver, pos, plain=True, deadline=time.monotonic() + seconds)
        if not plain.proven:
            continue  # too large for plain alpha-beta
        full = solve(game)
        assert full.proven
        assert full.value == plain.value, line
        done += 1
        blanks += pos.rack[0] + pos.other[0] > 0
        sevens += max(sum(pos.rack), sum(pos.other)) == 7
        if done == count:
            break
    assert done == count
    return blanks, sevens


def test_solver_equals_plain_alpha_beta_on_selfplay_endgames(lex: Lexicon) -> None:
    check_against_plain(lex, 6, seed=3, max_tiles=5, seconds=1.0)


@pytest.mark.slow
def test_solver_equals_plain_alpha_beta_on_200_selfplay_endgames(lex: Lexicon) -> None:
    blanks, sevens = check_against_plain(lex, 200, seed=4)
    assert blanks >= 10 and sevens >= 10


def test_a_view_solves_as_the_game_does(lex: Lexicon) -> None:
    line = next(endgame_cgps(lex, 5, max_tiles=4))
    game = game_of(line, lex)
    expected = solve(game)
    for viewer in (0, 1):
        result = solve(game.view(viewer), lexicon=lex)
        assert (result.value, result.proven) == (expected.value, expected.proven)
    with pytest.raises(EndgameError, match="lexicon"):
        solve(game.view(0))


# -- the game's own ending rules -------------------------------------------------------------

VARIANTS = [
    {},  # NASPA: six scoreless turns; going out gains 2x the opponent's rack
    {"out_adjust": OutAdjust.BOX, "scoreless_turns_to_end": None, "pass_rounds_to_end": 1},
    {"out_adjust": OutAdjust.BOX, "scoreless_turns_to_end": None, "pass_rounds_to_end": 2},
    {"zero_point_play_is_scoreless": True, "scoreless_turns_to_end": 3},
    {"scoreless_turns_to_end": 2},
]


def after_passes(line: str, lex: Lexicon, rules: object, passes: int) -> Game:
    game = cgp.loads(line).to_game(rules=rules, lexicon=lex, seed=0)  # type: ignore[arg-type]
    for _ in range(passes):
        if not game.is_over:
            game.pass_turn()
    return game


@pytest.mark.parametrize("changes", VARIANTS)
def test_the_games_own_ending_rules(lex: Lexicon, changes: dict) -> None:
    """Going out (R6.1, R6.4), the scoreless-turn ending (R6.2) and the pass endings (R6.3),
    with passes already behind: the solver, the reference and the game agree."""
    rules = preset("naspa").replace(**changes)
    checked = 0
    for line in itertools.islice(endgame_cgps(lex, 9, max_tiles=2), 4):
        for passes in range(4):
            game = after_passes(line, lex, rules, passes)
            if game.is_over:
                continue
            expected = minimax(game, max_nodes=200_000)
            result = solve(game)
            assert result.proven
            assert result.value == expected, (line, passes)
            assert play_line(after_passes(line, lex, rules, passes), result.line) == expected
            checked += 1
    assert checked >= 6


# -- limits, threads, bad input ------------------------------------------------------------------


@pytest.mark.parametrize("limit", [0.05, 0.3, 1.0])
def test_a_time_limit_is_obeyed_within_ten_percent(lex: Lexicon, limit: float) -> None:
    game = game_of(BIG, lex)
    engine(lex, game.rules)  # a word list's first search builds its solver before the clock
    result = timed_within(lambda: solve(game, time_limit=limit), limit, threads=1)
    assert not result.proven
    assert isinstance(result.best, Play | Pass)
    assert result.line[0] == result.best


def test_a_time_limit_is_obeyed_with_two_threads(lex: Lexicon) -> None:
    game = game_of(BIG, lex)
    engine(lex, game.rules)
    timed_within(lambda: solve(game, time_limit=0.5, threads=2), 0.5, threads=2)


def test_max_depth_stops_the_deepening(lex: Lexicon) -> None:
    result = solve(game_of(BIG, lex), max_depth=1)
    assert result.depth == 1
    assert not result.proven
    assert len(result.line) == 1


def test_one_and_two_threads_agree_when_proven(lex: Lexicon) -> None:
    for line in itertools.islice(endgame_cgps(lex, 7, max_tiles=5), 4):
        game = game_of(line, lex)
        one, two = solve(game, threads=1), solve(game, threads=2)
        assert one.proven and two.proven
        assert one.value == two.value
        assert play_line(game_of(line, lex), two.line) == two.value


def test_bad_positions_and_arguments_are_clear_errors(lex: Lexicon) -> None:
    fresh = Game("naspa", lexicon=lex, players=("A", "B"), seed=1)
    with pytest.raises(EndgameError, match="bag holds 86"):
        solve(fresh)
    three = Game(preset("hasbro"), lexicon=lex, players=("A", "B", "C"), seed=1)
    with pytest.raises(EndgameError, match="two players"):
        solve(three)
    game = game_of(BIG, lex)
    for kwargs, match in (
        ({"time_limit": 0}, "time_limit"),
        ({"time_limit": -1.0}, "time_limit"),
        ({"threads": 0}, "threads"),
        ({"max_depth": 0}, "max_depth"),
    ):
        with pytest.raises(EndgameError, match=match):
            solve(game, **kwargs)
    with pytest.raises(EndgameError, match="Game or a PlayerView"):
        solve("not a game")  # type: ignore[arg-type]
    finish = game_of(BIG, lex)
    finish.rules = preset("finish_line")
    with pytest.raises(EndgameError, match="finish-line"):
        solve(finish)
    no_end = preset("naspa").replace(scoreless_turns_to_end=None)
    with pytest.raises(EndgameError, match="never ends"):
        solve(cgp.loads(BIG).to_game(rules=no_end, lexicon=lex))


def test_a_finished_game_or_an_accepted_out_play_is_no_endgame(lex: Lexicon) -> None:
    line = next(endgame_cgps(lex, 8, max_tiles=2))
    game = game_of(line, lex)
    result = solve(game)
    for move in result.line:
        game.play(move)
        if game.state is GameState.AWAITING_FINAL:
            with pytest.raises(EndgameError, match="accepted"):
                solve(game)
            game.pass_turn()
        if game.is_over:
            with pytest.raises(EndgameError, match="over"):
                solve(game)
            break


def test_the_first_search_of_a_word_list_builds_its_solver_before_the_clock(
    lex: Lexicon, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tessera.engine import endgame as module

    monkeypatch.setattr(module, "_ENGINES", {})  # as in a fresh process
    game = game_of(BIG, lex)
    first = solve(game, time_limit=0.05)  # builds the solver (about twice the limit), then searches
    second = timed_within(lambda: solve(game, time_limit=0.05), 0.05, threads=1)
    # with the build inside the limit, the first search had no time left and made no moves
    assert first.nodes >= second.nodes // 3 > 0
