"""Premium-square layouts: R1.1 standard board, R8.1.1 Super 21×21, R8.6 WWF, R8.7 Lexulous,
and the text-grid reader/writer."""

from __future__ import annotations

import pytest

from tessera.layouts import Layout, LayoutError, available_layouts, layout, layout_from_text


def square(name: str) -> tuple[int, int]:
    """GCG square name (column letter, row number) -> (row, col) from 0."""
    return int(name[1:]) - 1, ord(name[0]) - ord("A")


def premium_map(lay: Layout) -> dict[str, set[tuple[int, int]]]:
    out: dict[str, set[tuple[int, int]]] = {}
    for r in range(lay.rows):
        for c in range(lay.cols):
            token = lay.premium(r, c)
            if token != ".":
                out.setdefault(token, set()).add((r, c))
    return out


def squares(text: str) -> set[tuple[int, int]]:
    return {square(s) for s in text.split()}


# -- R1.1 standard board ------------------------------------------------------------------------

STANDARD = {
    "3W": "A1 H1 O1 A8 O8 A15 H15 O15",
    "2W": "B2 N2 C3 M3 D4 L4 E5 K5 H8 E11 K11 D12 L12 C13 M13 B14 N14",
    "3L": "F2 J2 B6 F6 J6 N6 B10 F10 J10 N10 F14 J14",
    "2L": "D1 L1 G3 I3 A4 H4 O4 C7 G7 I7 M7 D8 L8 C9 G9 I9 M9 A12 H12 O12 G13 I13 D15 L15",
}


def test_shipped_layouts():
    assert {"standard15", "super21", "wwf15", "lexulous15"} <= set(available_layouts())


def test_r1_1_standard_counts():
    counts = {k: len(v) for k, v in premium_map(layout("standard15")).items()}
    assert counts == {"3W": 8, "2W": 17, "3L": 12, "2L": 24}


def test_r1_1_standard_every_listed_square():
    lay = layout("standard15")
    assert (lay.rows, lay.cols) == (15, 15)
    assert premium_map(lay) == {k: squares(v) for k, v in STANDARD.items()}


def test_r1_1_centre_star_is_a_double_word():
    lay = layout("standard15")
    assert lay.start == square("H8")
    assert lay.word_mult[7][7] == 2 and lay.letter_mult[7][7] == 1


def test_r1_1_multipliers_match_tokens():
    lay = layout("standard15")
    assert (lay.letter_mult[0][0], lay.word_mult[0][0]) == (1, 3)  # A1 3W
    r, c = square("F2")
    assert (lay.letter_mult[r][c], lay.word_mult[r][c]) == (3, 1)
    r, c = square("D1")
    assert (lay.letter_mult[r][c], lay.word_mult[r][c]) == (2, 1)
    r, c = square("B1")
    assert (lay.letter_mult[r][c], lay.word_mult[r][c]) == (1, 1)


# -- R8.1.1 Super Scrabble 21×21 -------------------------------------------------------------

SUPER = {
    "4W": "A1 U1 A21 U21",
    "4L": "F3 P3 C6 S6 C16 S16 F19 P19",
    "3W": "H1 N1 D4 K4 R4 A8 U8 D11 R11 A14 U14 D18 K18 R18 H21 N21",
    "3L": "E2 Q2 B5 I5 M5 T5 E9 I9 M9 Q9 E13 I13 M13 Q13 B17 I17 M17 T17 E20 Q20",
    "2W": (
        "B2 I2 M2 T2 C3 J3 L3 S3 E5 Q5 F6 P6 G7 O7 H8 N8 B9 T9 C10 S10 K11 C12 S12 B13 T13 "
        "H14 N14 G15 O15 F16 P16 E17 Q17 C19 J19 L19 S19 B20 I20 M20 T20"
    ),
    "2L": (
        "D1 K1 R1 A4 G4 O4 U4 J6 L6 D7 K7 R7 F10 J10 L10 P10 A11 G11 O11 U11 F12 J12 L12 "
        "P12 D15 K15 R15 J16 L16 A18 G18 O18 U18 D21 K21 R21"
    ),
}


def test_r8_1_1_super_counts():
    counts = {k: len(v) for k, v in premium_map(layout("super21")).items()}
    assert counts == {"4W": 4, "3W": 16, "2W": 41, "4L": 8, "3L": 20, "2L": 36}


def test_r8_1_1_super_every_listed_square():
    lay = layout("super21")
    assert (lay.rows, lay.cols) == (21, 21)
    assert premium_map(lay) == {k: squares(v) for k, v in SUPER.items()}


def test_r8_1_1_super_centre_k11_is_start_and_double_word():
    lay = layout("super21")
    assert lay.start == square("K11")
    assert lay.word_mult[10][10] == 2


def test_r8_1_1_super_inner_15x15_is_the_standard_board():
    big, std = layout("super21"), layout("standard15")
    top, left = square("D4")
    assert square("R18") == (top + 14, left + 14)
    for r in range(15):
        for c in range(15):
            assert big.premium(top + r, left + c) == std.premium(r, c), (r, c)
    assert (big.start[0] - top, big.start[1] - left) == std.start


def test_r8_1_1_quad_words_at_corners():
    lay = layout("super21")
    for r, c in [(0, 0), (0, 20), (20, 0), (20, 20)]:
        assert (lay.letter_mult[r][c], lay.word_mult[r][c]) == (1, 4)
    r, c = square("F3")
    assert (lay.letter_mult[r][c], lay.word_mult[r][c]) == (4, 1)


# -- R8.6 Words With Friends --------------------------------------------------------------------

# The RULES.md R8.6 grid as lists.
WWF = {
    "3W": "D1 L1 A4 O4 A12 O12 D15 L15",
    "2W": "F2 J2 H4 B6 N6 D8 L8 B10 N10 H12 F14 J14",
    "3L": "G1 I1 D4 L4 F6 J6 A7 O7 A9 O9 F10 J10 D12 L12 G15 I15",
    "2L": (
        "C2 M2 B3 E3 K3 N3 C5 G5 I5 M5 E7 K7 E9 K9 C11 G11 I11 M11 B13 E13 K13 N13 C14 M14"
    ),
}


def test_r8_6_wwf_star_has_no_premium():
    lay = layout("wwf15")
    assert lay.start == square("H8")
    assert (lay.letter_mult[7][7], lay.word_mult[7][7]) == (1, 1)
    assert lay.premium(7, 7) == "."


def test_r8_6_wwf_squares():
    lay = layout("wwf15")
    assert (lay.rows, lay.cols) == (15, 15)
    assert premium_map(lay) == {k: squares(v) for k, v in WWF.items()}


# -- R8.7 Lexulous (issue 2 appendix) ----------------------------------------------------------

LEXULOUS = {
    "3W": "A1 H1 O1 A8 O8 A15 H15 O15",
    "2W": "C2 M2 B3 N3 E4 K4 D5 L5 H8 D11 L11 E12 K12 B13 N13 C14 M14",
    "3L": "F3 J3 C6 M6 C10 M10 F13 J13",
    "2L": "D1 L1 G2 I2 G6 I6 B7 F7 J7 N7 B9 F9 J9 N9 G10 I10 G14 I14 D15 L15",
}


def test_r8_7_lexulous_squares():
    lay = layout("lexulous15")
    assert premium_map(lay) == {k: squares(v) for k, v in LEXULOUS.items()}
    assert lay.start == square("H8")
    assert lay.word_mult[7][7] == 2


@pytest.mark.parametrize("name", ["standard15", "super21", "wwf15", "lexulous15"])
def test_shipped_layouts_are_mirror_symmetric(name):
    """Every shipped board is symmetric left-right and top-bottom (a cheap typo detector)."""
    lay = layout(name)
    for r in range(lay.rows):
        for c in range(lay.cols):
            p = lay.premium(r, c)
            assert p == lay.premium(lay.rows - 1 - r, c) == lay.premium(r, lay.cols - 1 - c)


@pytest.mark.parametrize("name", ["standard15", "super21", "wwf15"])
def test_shipped_layouts_are_diagonal_symmetric(name):
    lay = layout(name)
    for r in range(lay.rows):
        for c in range(lay.cols):
            assert lay.premium(r, c) == lay.premium(c, r)


def test_r8_7_lexulous_is_not_diagonal_symmetric():
    """As listed (Xanado's quarter grid): D1 is 2L but its transpose A4 is plain."""
    lay = layout("lexulous15")
    assert lay.premium(*square("D1")) == "2L"
    assert lay.premium(*square("A4")) == "."


def test_unknown_layout_lists_the_shipped_ones():
    with pytest.raises(LayoutError, match=r"no layout named 'hex'.*standard15"):
        layout("hex")


# -- text grids ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["standard15", "super21", "wwf15", "lexulous15"])
def test_to_text_round_trips(name):
    lay = layout(name)
    text = lay.to_text()
    assert layout_from_text(text, name) == lay
    assert layout_from_text(text, name).to_text() == text


def test_wwf_to_text_marks_a_plain_start_square():
    text = layout("wwf15").to_text()
    row8 = text.splitlines()[8].split()
    assert row8[0] == "8" and row8[8] == "*."


def test_minimal_grid_without_header_or_row_numbers():
    lay = layout_from_text("3W .\n. *2L\n", "tiny")
    assert (lay.name, lay.rows, lay.cols, lay.start) == ("tiny", 2, 2, (1, 1))
    assert lay.word_mult == ((3, 1), (1, 1))
    assert lay.letter_mult == ((1, 1), (1, 2))


def test_comments_and_blank_lines_are_ignored_and_a_lone_star_is_plain():
    text = "# a comment\n\n   A B C\n1 . . .\n# another\n2 . * .\n3 . . 4W\n"
    lay = layout_from_text(text)
    assert lay.start == (1, 1)
    assert lay.premium(1, 1) == "."
    assert lay.word_mult[2][2] == 4


def test_default_start_is_the_centre():
    lay = layout_from_text(". . .\n. . .\n. . .\n")
    assert lay.start == (1, 1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (". 5W\n. .\n", r"bad: line 1: unknown square '5W'"),
        (". .\n. 2X\n", r"bad: line 2: unknown square '2X'"),
        (". . .\n. .\n", r"bad: row 2 has 2 squares, row 1 has 3"),
        ("*2W .\n. *.\n", r"bad: more than one start square"),
        ("", r"bad: no rows"),
        ("# only a comment\n\n", r"bad: no rows"),
        ("   A B\n", r"bad: no rows"),
        ("1 . .\n3 . .\n", r"bad: line 2: row number 3 out of order"),
        (". .\n", r"bad: board must be 2\.\.26 squares each way"),
        ("\n".join([" ".join(["."] * 27)] * 27), r"bad: board must be 2\.\.26"),
    ],
)
def test_malformed_grids_raise_with_place(text, message):
    with pytest.raises(LayoutError, match=message):
        layout_from_text(text, "bad")
