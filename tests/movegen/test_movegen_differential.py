"""Move generation (issue 4): the compiled core lists exactly the Python reference's moves on
random positions (standard and Super boards, racks with 0/1/2 blanks, nine-tile racks, Spanish
and Hungarian digraphs, Clabbers). CI runs a few hundred positions; the ``slow`` tests
(``make test-slow``) run the full differential set of more than 2,000."""

from __future__ import annotations

import random

import pytest

from support.movegen import (
    brute_force_plays,
    compare,
    listing,
    random_game_positions,
    random_leaves,
)
from tessera.game import Game
from tessera.lexicon import Leaves, Lexicon
from tessera.move import Pass, Play
from tessera.movegen import generate_moves, reference_moves
from tessera.rules import preset
from tessera.tiles import letter_of

# -- differential: compiled == reference ------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_standard_board_random_games(enable: Lexicon, leaves_en: Leaves, seed: int) -> None:
    rules = preset("naspa")
    count = 0
    for i, (game, rack, ref) in enumerate(random_game_positions(enable, rules, seed, 16, "std")):
        compare(game, rack, ref, enable, leaves_en if i % 2 else None)
        count += 1
    assert count >= 10


def test_super_board_random_game(enable: Lexicon, leaves_en: Leaves) -> None:
    rules = preset("super")
    count = 0
    for i, (game, rack, ref) in enumerate(random_game_positions(enable, rules, 5, 14, "super")):
        compare(game, rack, ref, enable, leaves_en if i % 2 else None)
        count += 1
    assert count >= 10


def test_nine_tile_racks(enable: Lexicon) -> None:
    """With leaves too: a 9-tile rack keeps leaves of 7 and 8 tiles, which no table lists."""
    rules = preset("nine_tile")
    table = Leaves.from_mapping(
        {k: v for k, v in random_leaves(27, seed=12).items() if len(k) <= 6}
    )
    count = 0
    for game, rack, ref in random_game_positions(enable, rules, 6, 6, "nine", blanks=False):
        compare(game, rack, ref, enable, table if count % 2 else None)
        count += 1
    assert count == 6


@pytest.mark.parametrize("which", ["spanish", "hungarian"])
def test_digraph_lexicons(which: str, request: pytest.FixtureRequest) -> None:
    lexicon = request.getfixturevalue(which)
    rules = preset("naspa").replace(tiles=which)
    count = digraph_plays = 0
    for seed in (1, 2, 3):
        for game, rack, ref in random_game_positions(lexicon, rules, seed, 20, which):
            compare(game, rack, ref, lexicon)
            count += 1
            labels = lexicon.alphabet.labels
            digraph_plays += sum(
                1
                for m, _ in ref
                if isinstance(m, Play)
                and any(len(labels[letter_of(t) - 1]) > 1 for t in m.word if t)
            )
    assert count >= 20
    assert digraph_plays > 0  # multi-letter tiles were actually played


def test_clabbers_matches_reference_and_brute_force(enable: Lexicon) -> None:
    lexicon = Lexicon.from_words(
        ["CAT", "ACT", "TAB", "BAT", "AT", "TA", "AB", "BA", "CAB", "SCAB", "CATS", "TABS",
         "BEAST", "BASTE", "SEAT", "EAST", "EATS", "TEA", "ATE", "SET", "BET", "BEST"],
        "english", name="clabbers-test")
    rules = preset("clabbers")
    game = Game(rules, lexicon=lexicon, players=["A", "B"], seed=1, first=0)
    game.set_rack("A", "CATSBE?")
    first = reference_moves(game.board, game.rack("A"), lexicon, rules)
    assert listing(generate_moves(game.board, game.rack("A"), lexicon, rules)) == listing(first)
    scrambled = [m for m, _ in first if isinstance(m, Play) and not lexicon.contains(
        [letter_of(t) for t in m.word])]
    assert scrambled, "Clabbers accepts main words that are only anagrams"
    game.play("8G TCA")
    rng = random.Random(3)
    for _ in range(3):
        if game.is_over:
            break
        rack = game.rack(game.to_move)
        ref = reference_moves(game.board, rack, lexicon, rules, bag_count=game.bag_count)
        assert listing(generate_moves(game.board, rack, lexicon, rules,
                                      bag_count=game.bag_count)) == listing(ref)
        top = generate_moves(game.board, rack, lexicon, rules, top=3, bag_count=game.bag_count)
        assert listing(top) == listing(ref)[:3]
        small = rack.tiles()[:3]
        want = brute_force_plays(game.board, small, lexicon, rules)
        got = {m for m, _ in reference_moves(game.board, small, lexicon, rules) if m.is_play()}
        assert got == want
        plays = [m for m, _ in ref if isinstance(m, Play)]
        game.play(rng.choice(plays) if plays else Pass())

# -- the full differential set (slow) -------------------------------------------------------------


@pytest.mark.slow
def test_full_differential_set_english(enable: Lexicon, leaves_en: Leaves) -> None:
    """The English part of the full differential set (with the two tests below, more than
    2,000 random positions): standard and Super boards, racks with 0, 1 and 2 blanks."""
    total = 0
    for seed in range(100, 140):
        rules = preset("super" if seed % 4 == 0 else "naspa")
        positions = random_game_positions(enable, rules, seed, 30, "full", synthetic=12)
        for i, (game, rack, ref) in enumerate(positions):
            compare(game, rack, ref, enable, leaves_en if i % 2 else None)
            total += 1
    assert total >= 1000


@pytest.mark.slow
@pytest.mark.parametrize("which", ["spanish", "hungarian"])
def test_full_differential_set_digraphs(which: str, request: pytest.FixtureRequest) -> None:
    """Spanish and Hungarian games with multi-letter tiles (CH, LL, RR, Ñ; CS, GY, LY, NY,
    SZ, TY, ZS)."""
    lexicon = request.getfixturevalue(which)
    rules = preset("naspa").replace(tiles=which)
    total = 0
    for seed in range(40):
        for game, rack, ref in random_game_positions(lexicon, rules, seed, 20, which):
            compare(game, rack, ref, lexicon)
            total += 1
    assert total >= 400
