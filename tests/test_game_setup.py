"""Game setup (R1): players, the seeded bag, the draw for first play, racks and drawing."""

from __future__ import annotations

import random

import pytest

from support import NAMES, make_game, rack_text
from support.randomplay import random_play, tile_census
from tessera.game import Game
from tessera.legality import IllegalMove, Reason
from tessera.rules import PRESETS, FirstPlayer
from tessera.tiles import BLANK

# -- R1.3 number of players ------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_r1_3_box_rules_take_two_to_four_players(n):
    game = Game("hasbro", players=NAMES[:n], seed=3)
    assert game.num_players == n
    assert game.players == list(NAMES[:n])


@pytest.mark.parametrize("n", [1, 5])
def test_r1_3_box_rules_refuse_other_player_counts(n):
    names = [f"P{i}" for i in range(n)]
    with pytest.raises(ValueError, match=r"hasbro rules take 2–4 players, not " + str(n)):
        Game("hasbro", players=names, seed=3)


@pytest.mark.parametrize("name", ["naspa", "wespa", "naspa_csw", "hkcc9", "woogles"])
def test_r1_3_tournament_rules_take_exactly_two_players(name):
    Game(name, players=["A", "B"], seed=1)
    with pytest.raises(ValueError, match="take 2–2 players, not 3"):
        Game(name, players=["A", "B", "C"], seed=1)


def test_r1_3_player_names_must_differ():
    with pytest.raises(ValueError, match="player names must be different"):
        Game("hasbro", players=["Ann", "Ann"], seed=1)


# -- seeded bag (DESIGN principle 5) --------------------------------------------------------


def test_same_seed_deals_the_same_racks_and_first_player():
    a = Game("hasbro", players=NAMES[:3], seed=1234)
    b = Game("hasbro", players=NAMES[:3], seed=1234)
    assert [a.rack(i) for i in range(3)] == [b.rack(i) for i in range(3)]
    assert a.first == b.first and a.order_draws == b.order_draws
    assert a.bag_tiles() == b.bag_tiles()


def test_different_seeds_deal_different_racks():
    racks = {tuple(Game("naspa", seed=s).rack(0).tiles()) for s in range(20)}
    assert len(racks) > 15


def test_seed_is_recorded_and_chosen_when_missing():
    assert Game("naspa", seed=99).seed == 99
    g = Game("naspa")
    again = Game("naspa", seed=g.seed)
    assert again.rack(0) == g.rack(0) and again.rack(1) == g.rack(1)


# -- R1.4 who goes first ---------------------------------------------------------------------


def _check_draw_rounds(game: Game) -> None:
    """Every round but the last is a tie for the lowest tile, and only the tied redraw."""
    contenders = set(range(game.num_players))
    for k, draws in enumerate(game.order_draws):
        drawn = {p: t for p, t in enumerate(draws) if t != -1}
        assert set(drawn) == contenders
        best = min(drawn.values())
        winners = {p for p, t in drawn.items() if t == best}
        if k == len(game.order_draws) - 1:
            assert winners == {game.first}
        else:
            assert len(winners) > 1
            contenders = winners


@pytest.mark.parametrize("seed", range(60))
def test_r1_4_1_the_lowest_tile_wins_the_draw(seed):
    game = Game("hasbro", players=NAMES[:4], seed=seed)
    assert game.order_draws, "the draw is recorded"
    _check_draw_rounds(game)
    assert game.to_move == game.first


def test_r1_4_1_a_blank_beats_an_a():
    # seed 174: player 0 draws the blank, player 2 an A (tile 1)
    game = Game("hasbro", players=NAMES[:4], seed=174)
    assert game.order_draws == [(BLANK, 14, 1, 15)]
    assert game.first == 0


def test_r1_4_1_tied_players_draw_again_and_only_they():
    # seed 11: players 0, 2 and 3 all draw N (14); they redraw and player 3 draws E (5)
    game = Game("hasbro", players=NAMES[:4], seed=11)
    assert game.order_draws == [(14, 18, 14, 14), (15, -1, 19, 5)]
    assert game.first == 3
    # seed 36: two A's tie; in the redraw player 2 draws the blank and beats player 1's B
    game = Game("hasbro", players=NAMES[:4], seed=36)
    assert game.order_draws == [(9, 1, 1, 9), (-1, 2, 0, -1)]
    assert game.first == 2


def test_r1_4_1_a_tie_can_repeat_over_several_rounds():
    game = Game("hasbro", players=NAMES[:4], seed=61)
    assert len(game.order_draws) == 3
    _check_draw_rounds(game)
    assert game.first == 1


def test_r1_4_1_two_player_tie_redraws():
    game = Game("hasbro", players=NAMES[:2], seed=63)
    assert game.order_draws == [(14, 14), (8, 6)]
    assert game.first == 1


@pytest.mark.parametrize("seed", range(20))
def test_r1_4_1_drawn_order_tiles_go_back_into_the_bag(seed):
    game = Game("hasbro", players=NAMES[:4], seed=seed)
    assert tile_census(game) == list(game.tileset.counts)
    assert game.bag_count == 100 - 4 * 7


def test_r1_4_fixed_first_player():
    game = Game("naspa", seed=5, first=1)
    assert game.first == 1 and game.to_move == 1
    assert game.order_draws == []
    woogles = Game("woogles", seed=5)
    assert PRESETS["woogles"].first_player is FirstPlayer.FIXED
    assert woogles.first == 0 and woogles.order_draws == []
    with pytest.raises(ValueError, match="first player index 2 is out of range"):
        Game("naspa", seed=5, first=2)


# -- R1.5 racks --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "size", "total"),
    [("hasbro", 7, 100), ("lexulous", 8, 89), ("nine_tile", 9, 100), ("hkcc9", 9, 107),
     ("super", 7, 200), ("wwf", 7, 104)],
)
def test_r1_5_each_player_draws_rack_size_tiles(name, size, total):
    n = min(PRESETS[name].max_players, 2)
    game = Game(name, players=NAMES[:n], seed=8)
    assert all(len(game.rack(i)) == size for i in range(n))
    assert game.bag_count == total - n * size


def test_r1_5_four_players_with_nine_tile_racks():
    game = Game("nine_tile", players=NAMES[:4], seed=8)
    assert [len(game.rack(i)) for i in range(4)] == [9, 9, 9, 9]
    assert game.bag_count == 100 - 36


def test_r1_5_after_a_play_the_player_draws_back_up():
    game = make_game("naspa", ["QUITEAB", None])
    bag = game.bag_count
    game.play("8D QUITE")
    assert len(game.rack(0)) == 7
    assert game.bag_count == bag - 5
    assert sorted(rack_text(game, 0)).count("A") >= 1  # A and B were kept
    assert "B" in rack_text(game, 0)


def _drain(seed: int) -> Game:
    """A random game played until the bag holds 1–3 tiles."""
    rng = random.Random(seed)
    game = Game("hasbro", players=NAMES[:2], seed=seed)
    while game.bag_count > 3:
        play = random_play(game, rng)
        assert play is not None
        game.play(play)
    return game


def test_r1_5_a_short_bag_gives_all_it_has():
    for seed in range(40):
        game = _drain(seed)
        if game.bag_count == 0 or game.is_over:
            continue
        rng = random.Random(seed)
        for _ in range(200):
            play = random_play(game, rng)
            if play is not None and len(play.placements) > game.bag_count:
                break
        else:
            continue
        mover, left = game.to_move, game.bag_count
        before = len(game.rack(mover))
        game.play(play)
        assert game.bag_count == 0
        assert len(game.rack(mover)) == before - len(play.placements) + left
        return
    pytest.fail("no seed produced a play larger than the bag")


# -- R1.6 turn order -------------------------------------------------------------------------


def test_r1_6_turns_pass_to_the_left():
    game = make_game("casual", players=3, first=1, scoreless_turns_to_end=None)
    order = []
    for _ in range(6):
        order.append(game.to_move)
        game.pass_turn()
    assert order == [1, 2, 0, 1, 2, 0]


def test_r1_6_moving_out_of_turn_is_refused():
    game = make_game("hasbro", players=3, first=1)
    with pytest.raises(IllegalMove, match="it is Bob's turn, not Cy's") as err:
        game.pass_turn("Cy")
    assert err.value.reason is Reason.NOT_YOUR_TURN
    with pytest.raises(IllegalMove, match="no player 'Zed'") as err:
        game.pass_turn("Zed")
    assert err.value.reason is Reason.UNKNOWN_PLAYER


@pytest.mark.parametrize("seed", [11, 36, 174])
def test_r1_4_1_players_may_keep_their_order_tiles(seed):
    rules = PRESETS["hasbro"].replace(return_order_tiles=False)
    game = Game(rules, players=NAMES[:4], seed=seed)
    last_drawn = {}
    for draws in game.order_draws:
        for p, t in enumerate(draws):
            if t != -1:
                last_drawn[p] = t
    for p, tile in last_drawn.items():
        assert tile in game.rack(p).tiles()
        assert len(game.rack(p)) == 7
    assert tile_census(game) == list(game.tileset.counts)
    returned = Game("hasbro", players=NAMES[:4], seed=seed)
    assert returned.order_draws == game.order_draws  # the same draw, then different racks
