"""The board: GCG coordinates (RULES.md R0.2.1, R0.2.2, R9.2), squares, runs and the words a
placement forms (R2.4, R2.8)."""

from __future__ import annotations

import pytest

from tessera.board import (
    EMPTY,
    Board,
    CoordinateError,
    format_position,
    parse_position,
    square_name,
)
from tessera.layouts import layout
from tessera.tiles import as_blank, tileset

ALPHA = tileset("english").alphabet


def L(label: str) -> int:
    return ALPHA.letter(label)


def board_with(rows: dict[tuple[int, int], str], name: str = "standard15") -> Board:
    board = Board(layout(name))
    for (r, c), text in rows.items():
        board.set(r, c, ALPHA.parse(text)[0])
    return board


def put_word(board: Board, row: int, col: int, across: bool, text: str) -> None:
    dr, dc = (0, 1) if across else (1, 0)
    for i, tile in enumerate(ALPHA.parse(text)):
        board.set(row + dr * i, col + dc * i, tile)


# -- R0.2.1 axes, R0.2.2 positions -------------------------------------------------------


def test_row_first_is_across_column_first_is_down() -> None:  # R0.2.2
    assert parse_position("8D") == (7, 3, True)
    assert parse_position("D8") == (7, 3, False)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("8d", (7, 3, True)),
        ("d8", (7, 3, False)),
        ("h8", (7, 7, False)),
        ("8H", (7, 7, True)),
        ("1a", (0, 0, True)),
        ("a1", (0, 0, False)),
        ("15o", (14, 14, True)),
        ("O15", (14, 14, False)),
        ("n8", (7, 13, False)),  # GCG test line R0.2.2
        ("h2", (1, 7, False)),
        ("  8D  ", (7, 3, True)),  # surrounding whitespace
        ("08D", (7, 3, True)),  # a leading zero is still row 8
    ],
)
def test_positions_parse_case_insensitively(text: str, expected: tuple[int, int, bool]) -> None:
    assert parse_position(text) == expected


def test_every_square_round_trips_both_ways_on_the_standard_board() -> None:  # R0.2.1
    for row in range(15):
        for col in range(15):
            for across in (True, False):
                text = format_position(row, col, across)
                assert parse_position(text) == (row, col, across)
                assert parse_position(text.lower()) == (row, col, across)


def test_columns_are_letters_a_to_o_left_to_right_and_rows_1_to_15_top_down() -> None:
    assert [format_position(0, c, True) for c in range(15)] == [
        f"1{ch}" for ch in "ABCDEFGHIJKLMNO"
    ]
    assert [format_position(r, 0, False) for r in range(15)] == [f"A{n}" for n in range(1, 16)]
    assert square_name(7, 7) == "H8"  # the centre (R0.2.1)
    assert square_name(0, 14) == "O1"
    assert square_name(14, 0) == "A15"


def test_super_board_runs_to_u21_and_its_centre_is_k11() -> None:  # R0.2.1, R9.2
    assert parse_position("U21", 21, 21) == (20, 20, False)
    assert parse_position("21u", 21, 21) == (20, 20, True)
    assert parse_position("K11", 21, 21) == (10, 10, False)
    assert layout("super21").start == (10, 10)
    assert square_name(*layout("super21").start) == "K11"
    for row in range(21):
        for col in range(21):
            for across in (True, False):
                assert parse_position(format_position(row, col, across), 21, 21) == (
                    row,
                    col,
                    across,
                )


@pytest.mark.parametrize(
    ("text", "rows", "cols", "names"),
    [
        ("16A", 15, 15, "row 16 is off the board (1–15)"),
        ("A16", 15, 15, "row 16 is off the board (1–15)"),
        ("0H", 15, 15, "row 0 is off the board"),
        ("H0", 15, 15, "row 0 is off the board"),
        ("8P", 15, 15, "column P is off the board (A–O)"),
        ("P8", 15, 15, "column P is off the board (A–O)"),
        ("u8", 15, 15, "column U is off the board (A–O)"),
        ("22A", 21, 21, "row 22 is off the board (1–21)"),
        ("V1", 21, 21, "column V is off the board (A–U)"),
        ("99Z", 21, 21, "row 99 is off the board"),
    ],
)
def test_squares_off_the_board_are_refused_naming_the_axis(
    text: str, rows: int, cols: int, names: str
) -> None:  # R0.2.1
    with pytest.raises(CoordinateError) as info:
        parse_position(text, rows, cols)
    assert names in str(info.value)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize(
    "text",
    ["", "8", "D", "DD", "88", "8D8", "D8D", "100A", "A100", "8 D", "D-8", "?8", "8?", "٨D", "８D"],
)
def test_text_that_is_no_position_is_refused_with_the_convention(text: str) -> None:
    with pytest.raises(CoordinateError) as info:
        parse_position(text)
    message = str(info.value)
    assert repr(text) in message
    assert "8D" in message and "D8" in message  # says how to write one


def test_coordinate_error_is_a_value_error() -> None:
    assert issubclass(CoordinateError, ValueError)


# -- squares and tiles -------------------------------------------------------------------


def test_new_board_is_empty_and_has_the_layout_size() -> None:
    board = Board(layout("standard15"))
    assert (board.rows, board.cols) == (15, 15)
    assert board.is_empty()
    assert board.tile_count() == 0
    assert list(board.occupied()) == []
    assert board.cells == [EMPTY] * 225
    sup = Board(layout("super21"))
    assert (sup.rows, sup.cols) == (21, 21)
    assert len(sup.cells) == 441


def test_set_get_place_lift_and_occupied() -> None:
    board = Board(layout("standard15"))
    board.place([(7, 7, L("A")), (7, 8, as_blank(L("X")))])
    assert board[7, 7] == L("A")
    assert board.get(7, 8) == as_blank(L("X"))
    assert not board.is_empty()
    assert board.tile_count() == 2
    assert list(board.occupied()) == [(7, 7, L("A")), (7, 8, as_blank(L("X")))]
    board.lift([(7, 7, L("A"))])
    assert board.get(7, 7) == EMPTY
    assert board.tile_count() == 1


def test_get_off_the_board_is_empty_but_indexing_is_not_silent() -> None:
    board = board_with({(0, 0): "A"})
    assert board.get(-1, 0) == EMPTY
    assert board.get(0, 15) == EMPTY
    assert board.get(15, 15) == EMPTY
    assert board.on_board(14, 14) and not board.on_board(15, 0) and not board.on_board(0, -1)


def test_copy_is_independent_and_equality_compares_tiles_and_layout() -> None:
    board = board_with({(7, 7): "A"})
    other = board.copy()
    assert other == board
    other.set(7, 8, L("T"))
    assert other != board
    assert board.get(7, 8) == EMPTY
    assert Board(layout("standard15")) != Board(layout("wwf15"))  # same size, other premiums
    with pytest.raises(TypeError):
        hash(board)  # mutable: not hashable


def test_cells_is_a_copy() -> None:
    board = Board(layout("standard15"))
    cells = board.cells
    cells[0] = L("A")
    assert board.get(0, 0) == EMPTY


def test_to_text_shows_labels_and_blanks_in_lower_case() -> None:
    board = board_with({(0, 0): "Q", (0, 1): "i"})
    lines = board.to_text(ALPHA).splitlines()
    assert len(lines) == 15
    assert lines[0] == "Q i " + " ".join(["."] * 13)
    assert lines[1] == " ".join(["."] * 15)


# -- runs and formed words (R2.4, R2.8) -----------------------------------------------------


def test_run_through_finds_the_maximal_run_both_ways() -> None:
    board = Board(layout("standard15"))
    put_word(board, 7, 3, True, "QUITE")  # 8D QUITE
    span = board.run_through(7, 5, True)
    assert (span.row, span.col, span.across) == (7, 3, True)
    assert ALPHA.format(span.tiles) == "QUITE"
    assert span.new == (False,) * 5
    assert span.position == "8D"
    assert list(span.squares()) == [(7, c) for c in range(3, 8)]
    down = board.run_through(7, 5, False)
    assert ALPHA.format(down.tiles) == "I" and down.position == "F8"


def test_run_through_counts_extra_tiles_as_new() -> None:  # R2.4: touching tiles join
    board = Board(layout("standard15"))
    put_word(board, 7, 3, True, "QUITE")
    span = board.run_through(7, 2, True, {(7, 0): L("M"), (7, 1): L("E"), (7, 2): L("S")})
    assert ALPHA.format(span.tiles) == "MESQUITE"
    assert span.position == "8A"
    assert span.new == (True, True, True, False, False, False, False, False)


def test_words_formed_main_word_first_then_one_cross_word_per_new_tile() -> None:  # R2.8
    board = Board(layout("standard15"))
    put_word(board, 7, 3, True, "QUITE")
    placements = [(8, 3 + i, t) for i, t in enumerate(ALPHA.parse("INFaNCY"))]
    words = board.words_formed(placements, across=True)
    assert [ALPHA.format(w.tiles) for w in words] == ["INFaNCY", "QI", "UN", "IF", "Ta", "EN"]
    assert [w.position for w in words] == ["9D", "D8", "E8", "F8", "G8", "H8"]
    assert words[0].new == (True,) * 7
    assert words[1].new == (False, True)


def test_words_formed_skips_runs_of_one() -> None:  # R2.9: a run of length 1 is no word
    board = board_with({(7, 6): "F", (7, 7): "O", (7, 8): "R"})
    for across in (True, False):
        words = board.words_formed([(7, 9, L("E"))], across)
        assert [ALPHA.format(w.tiles) for w in words] == ["FORE"]
    assert board.words_formed([], True) == []
    lonely = Board(layout("standard15"))
    assert lonely.words_formed([(7, 7, L("A"))], True) == []
