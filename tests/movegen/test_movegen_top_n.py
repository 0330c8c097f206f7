"""Move generation (issue 4): top-N search against the full list, upper bounds of the spans,
the unsorted mode, and the core's own checks of its inputs."""

from __future__ import annotations

import random

import pytest

from support.movegen import (
    listing,
    random_game_positions,
)
from tessera.game import Game
from tessera.lexicon import Leaves, Lexicon
from tessera.move import PLAYED_THROUGH, Play
from tessera.movegen import generate_moves
from tessera.rules import preset
from tessera.tiles import BLANK, BLANK_BIT, Rack

# -- top-N and upper bounds ---------------------------------------------------------------------


def test_every_play_lies_in_a_listed_span_whose_bound_it_does_not_exceed(
    enable: Lexicon, leaves_en: Leaves
) -> None:
    """Top-N search fills spans (a play's squares from its first to its last tile) best bound
    first: a play whose span is missing from the list, or worth more than its bound, would be
    lost from the top N."""
    from tessera.movegen import compiled_generator

    rules = preset("naspa")
    for game, _rack, _ref in random_game_positions(enable, rules, 12, 6, "bounds"):
        rack = game.rack(game.to_move)
        gen = compiled_generator(enable, rules, leaves_en)
        bounds = {(d, line, first, last): b
                  for d, line, first, last, b in gen.span_bounds(bytes(game.board.cells),
                                                                 list(rack.counts))}
        moves = generate_moves(game.board, rack, enable, rules, leaves=leaves_en)
        plays = 0
        for i, move in enumerate(moves):
            if not isinstance(move, Play):
                continue
            plays += 1
            d = 0 if move.across else 1
            line, first = (move.row, move.col) if move.across else (move.col, move.row)
            span = (d, line, first, first + len(move.word) - 1)
            assert span in bounds, f"{move} lies in no listed span"
            assert moves.equity(i) <= bounds[span]
        assert plays > 0


def test_top_n_equals_the_head_of_the_full_list(enable: Lexicon, leaves_en: Leaves) -> None:
    rules = preset("naspa")
    for game, _rack, _ref in random_game_positions(enable, rules, 21, 6, "top"):
        rack = game.rack(game.to_move)
        full = listing(generate_moves(game.board, rack, enable, rules, leaves=leaves_en,
                                      bag_count=game.bag_count))
        for n in (1, 2, 10, 100):
            top = generate_moves(game.board, rack, enable, rules, top=n, leaves=leaves_en,
                                 bag_count=game.bag_count)
            assert listing(top) == full[:n]


def test_unsorted_mode_lists_the_same_moves_and_equities(
    enable: Lexicon, leaves_en: Leaves
) -> None:
    """generate_moves(sort=False) is the ranked list in the generator's own order: the same
    moves with the same equities, blanks, exchanges and the pass included."""
    rules = preset("naspa")
    unordered = 0
    for game, _rack, _ref in random_game_positions(enable, rules, 23, 6, "unsorted"):
        for rack in (game.rack(game.to_move), Rack(len(rules.tileset.counts), [0, 0, 5, 9])):
            ranked = generate_moves(game.board, rack, enable, rules, leaves=leaves_en,
                                    bag_count=game.bag_count)
            raw = generate_moves(game.board, rack, enable, rules, leaves=leaves_en,
                                 bag_count=game.bag_count, sort=False)
            assert sorted(listing(raw), key=repr) == sorted(listing(ranked), key=repr)
            unordered += listing(raw) != listing(ranked)
    assert unordered > 0  # the unranked order is not the ranking


def test_top_n_with_blanks_equals_the_head_of_the_full_list(
    enable: Lexicon, leaves_en: Leaves
) -> None:
    """Top-N search bounds the plays that put a blank down on their own (their leave keeps a
    blank fewer) and, where the whole rack goes down, lets a blank stand only for letters
    that can still spell a word: full racks of one and two blanks on mid-game boards, with
    random and trained leave values, tiles in the bag and the bag empty, give the head of
    the full list."""
    from tessera.engine import native
    from tessera.engine.players import default_leaves

    rules = preset("naspa")
    eng = native.engine(enable, rules)
    trained = default_leaves()
    tables = [(leaves_en, native.leave_table(leaves_en)), (trained, native.leave_table(trained))]
    letters = [t for t, n in enumerate(rules.tileset.counts) if t for _ in range(n)]
    rng = random.Random(5)
    game = Game(rules, lexicon=enable, players=["A", "B"], seed=5, first=0)
    checked = 0
    for _turn in range(16):
        plays = [m for m in generate_moves(game.board, game.rack(game.to_move), enable, rules,
                                           top=4) if isinstance(m, Play)]
        if not plays:
            break
        game.play(rng.choice(plays))
        for blanks in (1, 2):
            tiles = rng.sample(letters, rules.rack_size - blanks) + [BLANK] * blanks
            rack = Rack(len(rules.tileset.counts), tiles)
            for leaves, table in tables:
                full = listing(generate_moves(game.board, rack, enable, rules, leaves=leaves,
                                              bag_count=50))
                for n in (1, 3, 10):
                    top = generate_moves(game.board, rack, enable, rules, top=n, leaves=leaves,
                                         bag_count=50)
                    assert listing(top) == full[:n]
                cells = list(game.board.cells)
                ranked = eng.moves(cells, tiles, table, 0, 12, False, 0)  # the bag empty
                for n in (1, 3):
                    assert eng.moves(cells, tiles, table, 0, 12, False, n) == ranked[:n]
                checked += 1
    assert checked >= 40


@pytest.mark.parametrize("blanks", [0, 1, 2])
def test_top_n_finds_the_plays_of_the_whole_rack(
    enable: Lexicon, leaves_en: Leaves, blanks: int
) -> None:
    """Top-N leaves out a span that takes the whole rack when no word is an anagram of the
    rack and the span's board letters, and lets a blank of such a play stand only for the
    letters that make one (the lexicon's letter multisets are looked up in a filter built at
    load: once with no blank, once per letter with one, once per pair of letters with two).
    Racks that are anagrams of 7-letter words, and 8-letter words less a letter the board
    holds, one or two of their tiles blanks if asked, on an empty board and mid-game: top N
    is the head of the full list, and the rack often goes down whole."""
    rules = preset("naspa")
    rng = random.Random(31 + blanks)
    sevens = [w for w in enable.words() if len(w) == 7]
    eights = [w for w in enable.words() if len(w) == 8]
    game = Game(rules, lexicon=enable, players=["A", "B"], seed=31, first=0)
    checked = whole = 0
    for _turn in range(10):
        on_board = {t & ~BLANK_BIT for t in game.board.cells if t}
        racks = [list(rng.choice(sevens)) for _ in range(3)]
        for word in rng.sample(eights, 400):
            through = [t for t in word if t in on_board]
            if through:
                rest = list(word)
                rest.remove(rng.choice(through))
                racks.append(rest)
            if len(racks) == 6:
                break
        for tiles in racks:
            for i in rng.sample(range(len(tiles)), blanks):
                tiles[i] = BLANK
            rack = Rack(len(rules.tileset.counts), tiles)
            full = listing(generate_moves(game.board, rack, enable, rules, leaves=leaves_en,
                                          bag_count=50))
            for n in (1, 3):
                top = generate_moves(game.board, rack, enable, rules, top=n, leaves=leaves_en,
                                     bag_count=50)
                assert listing(top) == full[:n]
            best = top[0]
            if isinstance(best, Play):
                whole += len(best.word) - best.word.count(PLAYED_THROUGH) == 7
            checked += 1
        plays = [m for m in generate_moves(game.board, game.rack(game.to_move), enable, rules,
                                           top=4) if isinstance(m, Play)]
        if not plays:
            break
        game.play(rng.choice(plays))
    assert checked >= 50 and whole >= 20


def test_the_generator_reports_the_index_it_builds(enable: Lexicon, leaves_en: Leaves) -> None:
    """The one index the compiled generator builds at load (the word filter) is reported with
    its size and build time, which `python -m benchmarks movegen` prints with the
    generator's own build time and memory; without the alphagram graph there is none."""
    import benchmarks.movegen as bench

    from tessera import _core

    fp = bench.generator_footprint(enable, preset("naspa"), leaves_en)
    assert 64 * 1024 <= fp["filter_bytes"] <= 4 * 2**20  # 16 bits a word, rounded up
    assert 0.0 <= fp["filter_s"] <= fp["build_s"]
    assert fp["rss_bytes"] >= 0
    bare = _core.MoveGenerator(enable.kwg.nodes, None, False, 15, 15, [1] * 225, [1] * 225,
                               7, 7, [0] + [1] * 26, [0] * 8, 2, 2, True, None, None)
    assert bare.word_filter == (0, 0.0)


def test_the_core_refuses_a_leave_value_that_is_not_finite(enable: Lexicon,
                                                          leaves_en: Leaves) -> None:
    """Top N sorts span bounds into buckets by value; a NaN or an infinity in a leave table
    handed to the core directly (the Python loader refuses them first) is refused too."""
    from array import array

    from tessera import _core

    for bad in (float("nan"), float("inf")):
        values = array("f", leaves_en.values)
        values[len(values) // 2] = bad
        with pytest.raises(ValueError, match="not finite"):
            _core.MoveGenerator(enable.kwg.nodes, None, False, 15, 15, [1] * 225, [1] * 225,
                                7, 7, [0] + [1] * 26, [0] * 8, 2, 2, True,
                                leaves_en.kwg.nodes, values)
