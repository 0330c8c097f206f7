"""Move generation (issue 4): the lazy move list, ``Game.legal_moves``, clear errors for bad
input, and the ``tessera moves`` command."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from support.movegen import (
    move_key,
    random_leaves,
)
from tessera.board import Board
from tessera.game import Game
from tessera.lexicon import Lexicon
from tessera.move import Exchange, Play
from tessera.movegen import generate_moves
from tessera.rules import preset
from tessera.tiles import Rack

# -- the move list, the API and the command ------------------------------------------------------


def test_move_list_is_lazy(enable: Lexicon) -> None:
    rules = preset("naspa")
    game = Game(rules, lexicon=enable, players=["A", "B"], seed=8, first=0)
    moves = game.legal_moves()
    assert len(moves) > 100
    assert moves._cache == {}  # nothing built by len()
    first = moves[0]
    assert moves[0] is first and len(moves._cache) == 1
    assert moves[-1] == moves[len(moves) - 1]
    with pytest.raises(IndexError):
        moves[len(moves)]
    top = game.legal_moves(top=10)
    assert len(top) == 10 and top[:10] == moves[:10]
    assert isinstance(moves[0], Play) and moves[0].score == max(
        m.score for m in moves if isinstance(m, Play))


def test_game_legal_moves_can_be_played(enable: Lexicon) -> None:
    game = Game("naspa", lexicon=enable, players=["A", "B"], seed=3, first=0)
    for _ in range(8):
        best = game.legal_moves(top=1)[0]
        score_before = game.score(game.to_move)
        mover = game.to_move
        game.play(best)
        if isinstance(best, Play):
            assert game.score(mover) == score_before + best.score


def test_game_legal_moves_states(enable: Lexicon) -> None:
    game = Game("naspa", lexicon=None, players=["A", "B"], seed=3, first=0)
    with pytest.raises(ValueError, match="Lexicon"):
        game.legal_moves()
    over = Game("naspa", lexicon=enable, players=["A", "B"], seed=3, first=0)
    over.resign("A")
    assert len(over.legal_moves()) == 0


def test_bad_input_raises_clear_errors(enable: Lexicon, spanish: Lexicon) -> None:
    rules = preset("naspa")
    board = Board(rules.layout)
    for bad in ([99], [1, -1], [1, 2.0], [1, "A"], [27]):  # tile ids are 0..26 in ENABLE
        with pytest.raises(ValueError, match=f"tile {bad[-1]!r} is not a rack tile"):
            generate_moves(board, bad, enable, rules)
    with pytest.raises(ValueError, match="alphabet"):
        generate_moves(board, "AB", spanish, rules)
    for _ in range(2):  # checked on every call, not only the first of these inputs
        with pytest.raises(ValueError, match="board"):
            generate_moves(Board(preset("super").layout), "AB", enable, rules)
        assert len(generate_moves(board, "AB", enable, rules)) > 1
    with pytest.raises(ValueError, match="top"):
        generate_moves(board, "AB", enable, rules, top=-1)


def test_every_form_of_a_rack_gives_the_same_moves(enable: Lexicon) -> None:
    """Text, tile ids (list, tuple, bytes, an int array) and a Rack reach the compiled
    generator by two roads (tile ids counted by the core, counts); all give one list,
    exchanges included -- an array is counted, not read as raw memory."""
    from array import array

    from tessera.movegen import compiled_generator

    rules = preset("naspa")
    board, alphabet = Board(rules.layout), enable.alphabet
    ids = alphabet.parse("QUITEA?")
    forms = ["quitea?", ids, tuple(ids), bytes(ids), array("i", ids), Rack(alphabet.size, ids)]
    lists = [generate_moves(board, f, enable, rules, bag_count=80) for f in forms]
    keys = [[(move_key(m), ml.equity(i)) for i, m in enumerate(ml)] for ml in lists]
    assert len(keys[0]) > 100 and any(isinstance(m, Exchange) for m in lists[0])
    assert all(k == keys[0] for k in keys[1:])
    raw = compiled_generator(enable, rules, None)
    with pytest.raises(ValueError, match="tile 27 is not a rack tile"):
        raw.generate(board.cell_bytes(), bytes([1, 27]), 0, 1)
    with pytest.raises(ValueError, match="at most 15 tiles"):
        raw.generate(board.cell_bytes(), bytes([1] * 16), 0, 1)
    with pytest.raises(ValueError, match=r"tile 200 is not a rack tile of the"):
        generate_moves(board, bytes([1, 200]), enable, rules)


def test_the_core_checks_every_square_of_the_board(enable: Lexicon) -> None:
    """A square holds 0, a letter 1..26, or a letter with the blank bit (0x80); the core
    refuses anything else -- an undesignated blank (0x80 alone) or an id past the alphabet --
    wherever it lies on the board, naming the tile."""
    from tessera.movegen import compiled_generator

    rules = preset("naspa")
    raw = compiled_generator(enable, rules, None)
    rack = bytes(enable.alphabet.parse("AEIRST"))
    good = bytearray(225)
    good[112], good[113] = 1, 0x80 | 20  # A and a blank as T in the middle
    assert len(raw.generate(bytes(good), rack, 0, 1)) == 1
    for square in (0, 113, 224):
        for tile in (0x80, 27, 0x80 | 27, 255):
            bad = bytearray(good)
            bad[square] = tile
            with pytest.raises(ValueError, match=f"tile {tile} on the board is not a letter"):
                raw.generate(bytes(bad), rack, 0, 1)


def test_moves_command(enable: Lexicon, tmp_path: Path) -> None:
    from tessera.cli import main
    from tessera.formats.cgp import dumps

    game = Game("naspa", lexicon=enable, players=["A", "B"], seed=2, first=0)
    game.set_rack("A", "QUITEAB")
    cgp = dumps(game)
    runner = CliRunner()
    env = {"TESSERA_CACHE_DIR": os.environ.get("TESSERA_CACHE_DIR", "")}
    result = runner.invoke(main, ["moves", "--cgp", cgp, "--top", "3"], env=env)
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 3
    assert lines[0].split()[1:] == ["8D", "QUATE", "48"] or lines[0].split()[-1] == "48"
    count = runner.invoke(main, ["moves", "--cgp", cgp, "--count"], env=env)
    assert count.exit_code == 0
    assert int(count.output) == len(game.legal_moves())
    table = tmp_path / "leaves.klv2"
    random_leaves(27, seed=5).save(table)
    ranked = runner.invoke(main, ["moves", "--cgp", cgp, "--top", "2", "--leaves", str(table)],
                           env=env)
    assert ranked.exit_code == 0, ranked.output
    rows = [line.split() for line in ranked.output.strip().splitlines()]
    assert len(rows) == 2 and float(rows[0][-1]) >= float(rows[1][-1])
    bad = runner.invoke(main, ["moves", "--cgp", "15/15 nonsense"], env=env)
    assert bad.exit_code != 0 and "cgp" in bad.output.lower()
