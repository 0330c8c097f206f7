"""Pre-endgames (tessera.engine.preendgame): every draw weighed, each followed by the exact
endgame search; held against the same sums worked out through Game and the endgame solver."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator

import pytest

from support.endgames import bag_cgps, endgame_cgps, game_of
from support.timelimit import timed_within
from tessera.engine.endgame import EndgameError, solve
from tessera.engine.players import StaticPlayer
from tessera.engine.preendgame import draws, evaluate
from tessera.formats import cgp
from tessera.game import Game
from tessera.lexicon import Lexicon
from tessera.move import Exchange, Pass, Play


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.load("enable")


def test_draws_are_every_ordered_bag_with_its_weight() -> None:
    unseen = [0] * 27
    unseen[1], unseen[5], unseen[26] = 2, 1, 1  # A A E Z
    one = dict(draws(unseen, 1))
    assert one == {(1,): 2, (5,): 1, (26,): 1}
    two = dict(draws(unseen, 2))
    assert sum(two.values()) == 4 * 3
    assert two[(1, 1)] == 2 and two[(1, 5)] == 2 and two[(5, 1)] == 2 and two[(5, 26)] == 1


def small_pre_endgames(lex: Lexicon, seed: int, bag: int) -> Iterator[str]:
    """Small positions with ``bag`` tiles in the bag: self-play endgames of at most 3 tiles a
    side whose opponent's last tiles go back into the bag (fuller racks would make every
    search a long one; the rules of drawing are the same)."""
    for line in endgame_cgps(lex, seed, max_tiles=3):
        pos = cgp.loads(line)
        mover, other = pos.racks
        if len(other) > bag and len(mover) >= bag:
            yield cgp.dumps(dataclasses.replace(pos, racks=(mover, other[:-bag])))


def by_hand(line: str, lex: Lexicon, play: Play) -> tuple[float, float]:
    """A play that empties the bag, weighed through Game: for each content of the bag, the
    game with those racks, the play made (drawing the bag) and the endgame solved."""
    pos = cgp.loads(line)
    game = pos.to_game(lexicon=lex, seed=0)
    view = game.view(0)
    board = pos.tiles_on_board()
    lead = pos.scores[0] - pos.scores[1]
    total = spread = wins = 0.0
    unseen = list(view.unseen)
    for order, weight in draws(unseen, view.bag_count):
        other = list(unseen)
        for t in order:
            other[t] -= 1
        tiles = [t for t, n in enumerate(other) for _ in range(n)]
        g = Game.from_position(pos.rules, board_tiles=board, racks=[pos.racks[0], tiles],
                               scores=pos.scores, lexicon=lex, seed=0)
        assert sorted(g.bag_tiles()) == sorted(order)
        event = g.play(play)
        assert g.bag_count == 0
        value = event.score - solve(g).value
        total += weight
        spread += weight * value
        wins += weight * (1.0 if lead + value > 0 else 0.5 if lead + value == 0 else 0.0)
    return spread / total, wins / total


@pytest.mark.parametrize("bag", [1, 2])
def test_each_draw_is_followed_by_the_solved_endgame(lex: Lexicon, bag: int) -> None:
    checked = 0
    for line in itertools.islice(small_pre_endgames(lex, 30 + bag, bag), 6):
        view = game_of(line, lex).view(0)
        assert view.bag_count == bag
        results = evaluate(view, lexicon=lex)
        assert any(isinstance(r.move, Pass) for r in results)
        assert [r.expected_spread for r in results] == sorted(
            (r.expected_spread for r in results), reverse=True
        )
        for r in results:
            assert r.proven
            assert 0.0 <= r.win_probability <= 1.0
            if isinstance(r.move, Play) and len(r.move.tiles_used) >= bag:
                spread, wins = by_hand(line, lex, r.move)
                assert r.expected_spread == pytest.approx(spread), (line, r.move)
                assert r.win_probability == pytest.approx(wins)
                checked += 1
    assert checked >= 10


def test_every_play_and_the_pass_by_default_within_the_time_limit(lex: Lexicon) -> None:
    line = next(bag_cgps(lex, 41, 2))
    view = game_of(line, lex).view(0)
    results = timed_within(
        lambda: evaluate(view, lexicon=lex, time_limit=0.5, threads=2), 0.5, threads=2
    )
    moves = StaticPlayer(lex).ranked(view)
    assert len(results) == sum(1 for r in moves if isinstance(r.move, Play | Pass))
    assert not all(r.proven for r in results)  # 7 tiles a side: not in half a second
    assert any(isinstance(r.move, Pass) for r in results)


def test_bad_input_is_a_clear_error(lex: Lexicon) -> None:
    line = next(bag_cgps(lex, 51, 1))
    game = game_of(line, lex)
    view = game.view(0)
    with pytest.raises(EndgameError, match="lexicon"):
        evaluate(view)
    with pytest.raises(EndgameError, match="exchange"):
        evaluate(view, [Exchange((1,))], lexicon=lex)
    illegal = Play(0, 0, True, (1, 1, 1, 1))
    with pytest.raises(EndgameError, match="not legal"):
        evaluate(view, [illegal], lexicon=lex)
    with pytest.raises(EndgameError, match="player to move"):
        evaluate(game.view(1), lexicon=lex)
    with pytest.raises(EndgameError, match="time_limit"):
        evaluate(view, lexicon=lex, time_limit=0)
    fresh = Game("naspa", lexicon=lex, players=("A", "B"), seed=1)
    with pytest.raises(EndgameError, match="1 to 2"):
        evaluate(fresh.view(fresh.to_move), lexicon=lex)
    three = next(itertools.islice(bag_cgps(lex, 52, 3), 1))
    with pytest.raises(EndgameError, match="1 to 2"):
        evaluate(game_of(three, lex).view(0), lexicon=lex)
