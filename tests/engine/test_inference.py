"""Inference of the opponent's leave: on constructed cases, the kept leaves are exactly those a
brute-force check allows, in the proportions the tile odds give."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest

from tessera.engine import native
from tessera.engine.inference import MAX_RATE, infer, last_opponent_move
from tessera.engine.players import StaticPlayer
from tessera.game import EventKind, Game
from tessera.lexicon import Lexicon
from tessera.move import Exchange, Play
from tessera.rules import preset

RULES = preset("naspa")


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.load("enable")


@pytest.fixture(scope="module")
def static(lex: Lexicon) -> StaticPlayer:
    return StaticPlayer(lex)


def after_a_long_play(lex: Lexicon, static: StaticPlayer) -> Game:
    """The first self-play position (seeds from 1) right after a static play of 5 or 6 tiles
    with tiles left in the bag: the opponent's leave has 1 or 2 tiles."""
    for seed in itertools.count(1):
        game = Game(RULES, lexicon=lex, players=("A", "B"), seed=seed)
        while not game.is_over and game.bag_count > 20:
            move = static.choose(game.view(game.to_move))
            game.play(move, game.to_move)
            if isinstance(move, Play) and len(move.placements) in (5, 6) and len(game.history) > 2:
                return game
    raise AssertionError("unreachable")


def brute_force(lex, static, game, margin):
    """{leave: prior weight} of every leave the opponent could have kept, and which of them
    pass the test (the move played within ``margin`` of the rack's best static equity)."""
    view = game.view(game.to_move)
    move, _ = last_opponent_move(view)
    board = list(view.board.cells)
    for r, c, _t in move.placements:
        board[r * view.board.cols + c] = 0
    played = [t for _r, _c, t in move.placements]
    played = [0 if t & 0x80 else t for t in played]
    size = view.rack_counts[1 - view.player] - len(played)
    eng = native.engine(lex, RULES)
    table = native.leave_table(static.leaves)
    kinds = [t for t, n in enumerate(view.unseen) if n]
    weights, ok = {}, set()
    for leave in itertools.combinations_with_replacement(kinds, size):
        counts = Counter(leave)
        if any(counts[t] > view.unseen[t] for t in counts):
            continue
        weights[leave] = math.prod(math.comb(view.unseen[t], k) for t, k in counts.items())
        best = eng.moves(board, played + list(leave), table, view.bag_count + len(played), 0,
                         True, 1)[0][6]
        if move.score + static.leaves.value(list(leave)) >= best - margin:
            ok.add(leave)
    return weights, ok


def test_leaves_kept_are_those_brute_force_allows(lex, static) -> None:
    game = after_a_long_play(lex, static)
    view = game.view(game.to_move)
    weights, ok = brute_force(lex, static, game, 5.0)
    assert ok and len(ok) < len(weights)  # the play rules some leaves out
    result = infer(view, lex, static.leaves, margin=5.0, samples=3000, seed=4)
    assert result is not None and result.tried == 3000
    assert set(result.leaves) <= ok
    # the kept share is the prior mass of the allowed leaves (binomial, 4 standard errors)
    mass = sum(weights[k] for k in ok) / sum(weights.values())
    assert result.rate == pytest.approx(mass, abs=4 * math.sqrt(mass * (1 - mass) / 3000))
    # and each allowed leave turns up in proportion to its weight among the allowed ones
    top = max(ok, key=lambda k: weights[k])
    share = weights[top] / sum(weights[k] for k in ok)
    seen = dict(result.distribution())[top]
    assert seen == pytest.approx(share, abs=4 * math.sqrt(share * (1 - share) / result.accepted))
    assert result.informative == (result.rate <= MAX_RATE)
    again = infer(view, lex, static.leaves, margin=5.0, samples=3000, seed=4)
    assert again == result  # a seed fixes the sample


def test_a_wider_margin_keeps_more(lex, static) -> None:
    game = after_a_long_play(lex, static)
    view = game.view(game.to_move)
    narrow = infer(view, lex, static.leaves, margin=0.0, samples=600, seed=1)
    wide = infer(view, lex, static.leaves, margin=40.0, samples=600, seed=1)
    assert set(narrow.leaves) <= set(wide.leaves)
    assert narrow.accepted < wide.accepted


def test_an_exchange_is_read_too(lex, static) -> None:
    game = Game(RULES, lexicon=lex, players=("A", "B"), seed=2)
    mover = game.to_move
    game.set_rack(mover, "UUUVVWW")
    move = static.choose(game.view(mover))
    assert isinstance(move, Exchange)  # such a rack is thrown back
    game.play(move, mover)
    view = game.view(game.to_move)
    result = infer(view, lex, static.leaves, samples=400, seed=3)
    assert result is not None and result.tried == 400 and result.accepted > 0
    for leave in result.leaves:
        assert len(leave) == 7 - move.n
        assert all(Counter(leave)[t] <= view.unseen[t] for t in leave)


def test_nothing_to_read(lex, static) -> None:
    game = Game(RULES, lexicon=lex, players=("A", "B"), seed=5)
    assert infer(game.view(game.to_move), lex, static.leaves) is None  # no move yet
    game.pass_turn(game.to_move)
    assert infer(game.view(game.to_move), lex, static.leaves) is None  # a pass
    assert game.history[-1].kind is EventKind.PASS
    game.play(static.choose(game.view(game.to_move)), game.to_move)
    mover_view = game.view(1 - game.to_move)  # not the viewer's turn
    assert infer(mover_view, lex, static.leaves) is None
    with pytest.raises(ValueError, match="samples"):
        infer(game.view(game.to_move), lex, static.leaves, samples=0)
    with pytest.raises(ValueError, match="margin"):
        infer(game.view(game.to_move), lex, static.leaves, margin=-1)
