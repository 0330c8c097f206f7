"""The static player passes only when nothing else is legal: a pass keeps the rack and draws
nothing, so with tiles in the bag it is worth the best other move less a turn."""

from __future__ import annotations

import dataclasses

import pytest

from tessera.engine.compiled_games import derive_seed, play_compiled
from tessera.engine.players import StaticPlayer, default_leaves
from tessera.formats import cgp
from tessera.lexicon import Lexicon
from tessera.move import Pass, Play
from tessera.rules import preset

# From static self-play: one tile in the bag (no exchange allowed) and every play of negative
# equity (the best -0.5). The static player used to pass here, its pass rated 0: the value
# of the whole rack as a leave, which no leave table lists.
NEGATIVE = (
    "3B3P2K4/2VITELLINE2I1/3O1HIE2G2M1/3g3B3CRAW/2JEAN7g1/OZONE8IF/U2I1OY6NA/D2COMAL5ER/"
    "6YOWE1URD1/9FAVA2/10NEXT1/11A3/6UTILISE2/1GESTAPO7/5IOTA6 DGNQRRT/DEEHRSU 501/292 0 "
    "lex enable; tr naspa;"
)


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.load("enable")


def test_a_play_of_negative_equity_beats_the_pass(lex: Lexicon) -> None:
    game = cgp.loads(NEGATIVE).to_game(lexicon=lex, seed=0)
    view = game.view(0)
    assert view.bag_count == 1
    player = StaticPlayer(lex)
    ranked = player.ranked(view)
    best = ranked[0]
    assert isinstance(best.move, Play) and best.equity < 0
    assert isinstance(player.choose(view), Play)
    passes = [r for r in ranked if isinstance(r.move, Pass)]
    assert len(passes) == 1
    assert passes[0].equity == pytest.approx(best.equity - 36.0)
    assert ranked[-1].move == Pass() or ranked[-1].equity <= passes[0].equity
    top = player.ranked(view, top=3)
    assert [r.move for r in top] == [r.move for r in ranked[:3]]


def test_with_nothing_else_legal_the_pass_stands(lex: Lexicon) -> None:
    # the rack's only tile, Q, has no play here, and these rules allow no exchange with the
    # 7 tiles left in the bag
    pos = cgp.loads(NEGATIVE)
    q = tuple(pos.rules.tileset.alphabet.parse("Q"))
    stuck = dataclasses.replace(pos, racks=(q, pos.racks[1]))
    game = stuck.to_game(rules=pos.rules.replace(exchange_min_bag=8), lexicon=lex, seed=0)
    view = game.view(0)
    assert view.bag_count > 0
    ranked = StaticPlayer(lex).ranked(view)
    assert [r.move for r in ranked] == [Pass()]
    assert StaticPlayer(lex).choose(view) == Pass()


def test_self_play_passes_only_when_nothing_else_is_legal(lex: Lexicon) -> None:
    """No pass with tiles in the bag in 200 compiled self-play games (the old rule passed
    there 24 times in 4,000 games, so about once in 200)."""
    rules = preset("naspa")
    leaves = default_leaves()
    for i in range(200):
        record = play_compiled(rules, lex, derive_seed(2026, i), [leaves, leaves])
        for _player, cand, _rack, bag in record["turns"]:
            if cand[0] == 2 and bag > 0:  # a pass with tiles in the bag
                pytest.fail(f"game {i} passed with {bag} in the bag")
