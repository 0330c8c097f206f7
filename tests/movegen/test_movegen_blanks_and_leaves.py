"""Move generation (issue 4): blank designations, exchanges as distinct sub-multisets, leave
values and equity."""

from __future__ import annotations

import random

import pytest

from support.movegen import (
    listing,
)
from tessera.board import Board
from tessera.game import Game
from tessera.lexicon import Leaves, Lexicon
from tessera.move import Exchange, Pass, Play
from tessera.movegen import exchange_sizes, generate_moves, reference_moves
from tessera.rules import preset
from tessera.tiles import BLANK, BLANK_BIT, letter_of

# -- blanks ------------------------------------------------------------------------------------


def test_two_blanks_every_designation_once(enable: Lexicon) -> None:
    rules = preset("naspa")
    game = Game(rules, lexicon=enable, players=["A", "B"], seed=2, first=0)
    game.set_rack("A", "QUITEAB")
    game.play("8D QUITE")
    rack = [BLANK, BLANK]
    moves = generate_moves(game.board, rack, enable, rules)
    plays = [m for m in moves if isinstance(m, Play)]
    assert len(set(plays)) == len(plays)
    assert all(t & BLANK_BIT for p in plays for _, _, t in p.placements)
    assert listing(moves) == listing(reference_moves(game.board, rack, enable, rules))
    # every (square pair, designation pair) once: no two plays share squares and letters
    seen = {(p.row, p.col, p.across, tuple(letter_of(t) for t in p.word)) for p in plays}
    assert len(seen) == len(plays)
    # QI, XI and ZA-style two-letter words with both tiles blank are all there
    two = {enable.alphabet.format(letter_of(t) for t in p.word) for p in plays
           if len(p.word) == 2 and all(p.word)}
    assert {"AA", "AB", "XI", "OX"} <= two
    assert "QI" not in two  # not in ENABLE


def test_blank_and_letter_are_different_moves(enable: Lexicon) -> None:
    rules = preset("naspa")
    board = Board(rules.layout)
    moves = generate_moves(board, enable.alphabet.parse("AT?"), enable, rules)
    words = {(p.row, p.col, p.across, p.word) for p in moves if isinstance(p, Play)}
    a, t = enable.alphabet.letter("A"), enable.alphabet.letter("T")
    assert (7, 6, True, (a, t)) in words
    assert (7, 6, True, (a | BLANK_BIT, t)) in words
    assert (7, 6, True, (a, t | BLANK_BIT)) in words


# -- exchanges, pass, equity -------------------------------------------------------------------


def test_exchanges_are_distinct_submultisets(enable: Lexicon) -> None:
    rules = preset("naspa")
    board = Board(rules.layout)
    rack = enable.alphabet.parse("AAB??EE")
    moves = generate_moves(board, rack, enable, rules, bag_count=50)
    exchanges = [m for m in moves if isinstance(m, Exchange)]
    # (2+1)(1+1)(2+1)(2+1) - 1 distinct non-empty sub-multisets
    assert len(exchanges) == 3 * 2 * 3 * 3 - 1
    assert len({m.tiles for m in exchanges}) == len(exchanges)
    assert sum(1 for m in moves if isinstance(m, Pass)) == 1
    assert not any(isinstance(m, Exchange)
                   for m in generate_moves(board, rack, enable, rules, bag_count=6))
    assert not any(isinstance(m, Exchange) for m in generate_moves(board, rack, enable, rules))
    hasbro = preset("hasbro")  # no bag minimum: at most as many as the bag holds
    few = [m for m in generate_moves(board, rack, enable, hasbro, bag_count=2)
           if isinstance(m, Exchange)]
    assert few and max(len(m.tiles) for m in few) == 2
    assert exchange_sizes(hasbro, 7, 2) == range(1, 3)


@pytest.mark.parametrize("text", ["??EESSZ", "AEINRST", "QQQ?UUV", "EEEEEEE", "A"])
def test_every_leave_of_the_rack_is_valued_as_the_table_lists_it(
    enable: Lexicon, text: str
) -> None:
    """The compiled generator values all of a rack's leaves in one walk of the table; each
    exchange (and the pass) keeps one, so their equities show every leave's value, listed or
    not: an unlisted leave is valued from its sub-leaves, the mean over its tiles x of
    value(leave - x) + value(x) (an unlisted tile is worth 0), and the pass keeps the whole
    rack at the table's own value."""
    rules = preset("naspa")
    rack = enable.alphabet.parse(text)
    rng = random.Random(text)
    leaves_of_rack = set()
    for mask in range(1, 1 << len(rack)):
        leaves_of_rack.add(tuple(sorted(t for i, t in enumerate(rack) if mask >> i & 1)))
    table = {k: round(rng.uniform(-20, 20), 3) for k in leaves_of_rack if rng.random() < 0.8}
    table[(26,)] = 1.5  # and a leave the rack cannot keep
    leaves = Leaves.from_mapping(table)
    board = Board(rules.layout)
    moves = generate_moves(board, rack, enable, rules, leaves=leaves, bag_count=100)

    def valued(leave: tuple[int, ...]) -> float:
        if leave in table or len(leave) < 2:
            return table.get(leave, 0.0)
        parts = [valued(leave[:i] + leave[i + 1:]) + valued(leave[i:i + 1])
                 for i in range(len(leave)) if i == 0 or leave[i] != leave[i - 1]]
        return sum(parts) / len(parts)

    seen = 0
    for i, move in enumerate(moves):
        if isinstance(move, Play):
            continue
        kept = list(rack)
        for t in move.tiles if isinstance(move, Exchange) else ():
            kept.remove(t)
        key = tuple(sorted(kept))
        want = table.get(key, 0.0) if isinstance(move, Pass) else valued(key)
        assert moves.equity(i) == pytest.approx(want, abs=1e-5)
        seen += 1
    assert seen == len(leaves_of_rack) + 1  # every leave, and the empty one (all exchanged)


def test_equity_is_score_plus_leave(enable: Lexicon, leaves_en: Leaves) -> None:
    rules = preset("naspa")
    game = Game(rules, lexicon=enable, players=["A", "B"], seed=4, first=0)
    rack = game.rack("A")
    moves = generate_moves(game.board, rack, enable, rules, leaves=leaves_en,
                           bag_count=game.bag_count)
    equities = moves.equities()
    assert equities == sorted(equities, reverse=True)
    for i, move in enumerate(moves[:50]):
        kept = list(rack.tiles())
        used = move.tiles_used if isinstance(move, Play) else (
            list(move.tiles) if isinstance(move, Exchange) else [])
        for t in used:
            kept.remove(t)
        score = move.score if isinstance(move, Play) else 0
        assert moves.equity(i) == pytest.approx(score + leaves_en.value(kept), abs=1e-9)
    plain = generate_moves(game.board, rack, enable, rules)
    assert all(plain.equity(i) == (m.score if isinstance(m, Play) else 0)
               for i, m in enumerate(plain))
