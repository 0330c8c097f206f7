"""Move generation (issue 4): every generated play is legal and scored as the rules score it,
none is missing (brute force), and the empty board lists each play and its mirror image once."""

from __future__ import annotations

import pytest

from support.movegen import (
    brute_force_plays,
    check_legal,
    listing,
    random_game_positions,
)
from tessera.board import Board
from tessera.game import Game
from tessera.lexicon import Leaves, Lexicon
from tessera.move import Play
from tessera.movegen import generate_moves, reference_moves, sort_key
from tessera.rules import preset

# -- every play legal, none missing -----------------------------------------------------------


def test_every_generated_play_is_legal_and_scored_alike(enable: Lexicon) -> None:
    rules = preset("naspa")
    checked = 0
    for i, (game, _rack, _ref) in enumerate(random_game_positions(enable, rules, 9, 12, "legal")):
        if i % 3:
            continue
        rack = game.rack(game.to_move)
        moves = generate_moves(game.board, rack, enable, rules)
        keys = [sort_key(m) for m in moves]
        assert len(set(keys)) == len(keys), "a move is listed twice"
        assert len({m for m in moves if m.is_play()}) == sum(1 for m in moves if m.is_play())
        for move in moves:
            if isinstance(move, Play):
                check_legal(game.board, move, rack, enable, rules)
                checked += 1
            # and the game itself accepts it
        plays = [m for m in moves if isinstance(m, Play)]
        for play in plays[:: max(1, len(plays) // 10)]:
            assert game.check(play) == play
    assert checked > 500


@pytest.mark.parametrize(
    "rack_text",
    ["ER", "AEN", "S?", pytest.param("QI?", marks=pytest.mark.slow),
     pytest.param("??", marks=pytest.mark.slow)],
)
def test_no_legal_play_is_missed_brute_force(enable: Lexicon, rack_text: str) -> None:
    rules = preset("naspa")
    game = Game(rules, lexicon=enable, players=["A", "B"], seed=2, first=0)
    game.set_rack("A", "QUITEAB")
    game.play("8D QUITE")
    game.set_rack("B", "RECOUNS")
    game.play("E4 RECO.NS") if game.check("E4 RECO.NS") else None
    rack = enable.alphabet.parse(rack_text)
    want = brute_force_plays(game.board, rack, enable, rules)
    ref = {m for m, _ in reference_moves(game.board, rack, enable, rules) if m.is_play()}
    got = [m for m in generate_moves(game.board, rack, enable, rules) if m.is_play()]
    assert set(got) == want == ref
    assert len(got) == len(want)


@pytest.mark.parametrize("rack_text", ["ELS", "AS?"])
def test_plays_through_several_runs_of_tiles_are_all_found(
    enable: Lexicon, leaves_en: Leaves, rack_text: str
) -> None:
    """The compiled generator fills the plays starting on one square by a walk from the last
    board tile all of them cover, leftwards first: plays that start squares before a run of
    tiles, bridge a gap to a second run, or end on a tile must all be found, in full and in
    the top N."""
    rules = preset("naspa")
    board = Board(rules.layout)
    word = enable.alphabet.parse
    # row 8: TO on C-D and ON on F-G (a gap of one between them: S TO L ON), A on K;
    # column I: AT on rows 6-7, above I8
    board.place([(7, 2, word("T")[0]), (7, 3, word("O")[0]), (7, 5, word("O")[0]),
                 (7, 6, word("N")[0]), (7, 10, word("A")[0]),
                 (5, 8, word("A")[0]), (6, 8, word("T")[0])])
    rack = word(rack_text)
    want = brute_force_plays(board, rack, enable, rules)
    got = [m for m in generate_moves(board, rack, enable, rules) if m.is_play()]
    assert set(got) == want and len(got) == len(want)
    bridging = [m for m in got if m.across and m.row == 7 and m.col < 2
                and m.col + len(m.word) > 6]
    assert bridging, "STOLON should start before TO and join it to ON"
    ranked = listing(reference_moves(board, rack, enable, rules, leaves=leaves_en))
    full = listing(generate_moves(board, rack, enable, rules, leaves=leaves_en))
    assert full == ranked
    for n in (1, 3, 10):
        top = generate_moves(board, rack, enable, rules, top=n, leaves=leaves_en)
        assert listing(top) == ranked[:n]


def test_brute_force_first_move(enable: Lexicon) -> None:
    rules = preset("naspa")
    board = Board(rules.layout)
    rack = enable.alphabet.parse("ZAX")
    want = brute_force_plays(board, rack, enable, rules)
    got = [m for m in generate_moves(board, rack, enable, rules) if m.is_play()]
    assert set(got) == want and len(got) == len(want)
    assert all((7, 7) in {(r, c) for r, c, _ in p.placements} for p in got)

# -- mirror images on the empty board (issue 14) -------------------------------------------------


def transposed(move: Play) -> Play:
    return Play(move.col, move.row, not move.across, move.word, alphabet=move.alphabet)


@pytest.mark.parametrize("name", ["naspa", "super", "wwf", "clabbers", "nine_tile", "lexulous"])
def test_the_empty_board_lists_one_of_each_play_and_its_mirror_image(
    enable: Lexicon, name: str
) -> None:
    rules = preset(name)
    game = Game(rules=rules, lexicon=enable, players=["a", "b"], seed=5)
    rack = game.view(game.to_move).rack
    every = generate_moves(game.board, rack, enable, rules, bag_count=86)
    one = generate_moves(game.board, rack, enable, rules, bag_count=86, mirrors=False)
    plays = [m for m in every if isinstance(m, Play)]
    if not rules.layout.mirror_symmetric:  # Lexulous: a play down is a play of its own
        assert list(one) == list(every)
        return
    # every play down is the mirror image of a play across of the same score
    across = {(m.row, m.col, m.word): m.score for m in plays if m.across}
    down = [m for m in plays if not m.across]
    assert down and len(down) == len(across)
    assert all(across[(m.col, m.row, m.word)] == m.score for m in down)
    assert transposed(down[0]) in plays
    # ... and only the plays across (with the exchanges and the pass) are listed, in order
    assert list(one) == [m for m in every if not isinstance(m, Play) or m.across]
    assert one.equities() == [e for m, e in every.ranked() if not isinstance(m, Play) or m.across]
    if name != "super":  # the reference agrees (the 21x21 board is slow there)
        ref = generate_moves(game.board, rack, enable, rules, bag_count=86, mirrors=False,
                             reference=True)
        assert sorted(map(sort_key, ref)) == sorted(map(sort_key, one))
    # the best few are the head of the list, as always
    assert list(generate_moves(game.board, rack, enable, rules, top=5, mirrors=False)) == list(
        one[:5]
    )


def test_once_a_tile_is_down_both_directions_are_listed(enable: Lexicon) -> None:
    game = Game(rules="naspa", lexicon=enable, players=["a", "b"], seed=5)
    game.play(generate_moves(game.board, game.view(game.to_move).rack, enable, "naspa", top=1)[0])
    rack = game.view(game.to_move).rack
    assert list(generate_moves(game.board, rack, enable, "naspa", mirrors=False)) == list(
        generate_moves(game.board, rack, enable, "naspa")
    )
