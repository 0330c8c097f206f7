"""Move notation in and out: human notation (RULES.md R0.2.3), GCG words (R9.4, R9.5),
positions (R0.2.2), exact round trips, multi-letter tiles, and malformed input."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from support import give
from support.randomplay import state as snapshot
from tessera import Challenge, Exchange, Game, IllegalMove, Pass, Play, Reason, parse_move
from tessera.board import Board
from tessera.layouts import layout
from tessera.move import PLAYED_THROUGH, NotationError, format_move, play_from_placements
from tessera.rules import Rules
from tessera.tiles import BLANK, BLANK_BIT, Alphabet, as_blank, tileset

EN = tileset("english").alphabet
ES = tileset("spanish").alphabet
T = PLAYED_THROUGH


def tiles(text: str, alphabet: Alphabet = EN) -> tuple[int, ...]:
    return tuple(alphabet.parse(text))


def board_after(*moves: str, alphabet: Alphabet = EN, name: str = "standard15") -> Board:
    """A board with these GCG plays on it, placed as they read (no legality check)."""
    board = Board(layout(name))
    for text in moves:
        move = parse_move(text, alphabet, board)
        assert isinstance(move, Play)
        board.place(move.placements)
    return board


# The reference game (R3.8.0): the board before each of its four moves.
REFERENCE = [
    ("8D QUITE", "8D QUITE", ()),
    ("8A MES.....", "8A MES(QUITE)", ("8D QUITE",)),
    ("9D INFaNCY", "9D INFaNCY", ("8D QUITE", "8A MES.....")),
    ("E4 RECO..TS", "E4 RECO(UN)TS", ("8D QUITE", "8A MES.....", "9D INFaNCY")),
]


# -- reading plays (R0.2.2, R0.2.3, R9.4.1, R9.5) ---------------------------------------------


def test_position_gives_the_first_square_and_the_direction() -> None:  # R0.2.2
    across = parse_move("8D QUITE", EN)
    down = parse_move("D8 QUITE", EN)
    assert isinstance(across, Play) and isinstance(down, Play)
    assert (across.row, across.col, across.across) == (7, 3, True)
    assert (down.row, down.col, down.across) == (7, 3, False)
    assert across.word == down.word == tiles("QUITE")
    assert [sq[:2] for sq in across.placements] == [(7, c) for c in range(3, 8)]
    assert [sq[:2] for sq in down.placements] == [(r, 3) for r in range(7, 12)]
    assert across != down


def test_positions_and_words_are_read_case_insensitively_except_blanks() -> None:
    assert parse_move("8d QUITE", EN) == parse_move("8D QUITE", EN)
    assert parse_move("d8 QUITE", EN) == parse_move("D8 QUITE", EN)
    assert parse_move("  8D   QUITE  ", EN) == parse_move("8D QUITE", EN)


def test_human_and_gcg_played_through_read_the_same() -> None:  # R0.2.3, R9.5
    board = board_after("8D QUITE")
    human = parse_move("8A MES(QUITE)", EN, board)
    gcg = parse_move("8A MES.....", EN, board)
    letters = parse_move("8A MESQUITE", EN, board)  # readers accept the letter itself (R9.5)
    for play in (human, gcg, letters):
        assert isinstance(play, Play)
        assert play.word == (*tiles("MES"), T, T, T, T, T)
        assert play.position == "8A"
        assert play.tiles_used == list(tiles("MES"))
    assert human == gcg == letters


def test_played_through_without_a_board_is_taken_on_trust() -> None:
    play = parse_move("8A MES(QUITE)", EN)
    assert isinstance(play, Play)
    assert play.word == (*tiles("MES"), T, T, T, T, T)
    assert parse_move("8A MES.....", EN) == play


def test_parenthesised_letters_are_checked_against_the_board() -> None:
    board = board_after("8D QUITE")
    with pytest.raises(NotationError) as info:
        parse_move("8A MES(QUIET)", EN, board)
    assert "(E) at position 8 is not on the board: G8 holds T" in str(info.value)
    with pytest.raises(NotationError) as info:
        parse_move("8A MES(QUITES)", EN, board)
    assert "(S)" in str(info.value) and "I8 holds an empty square" in str(info.value)


def test_lower_case_is_a_blank_with_its_letter() -> None:  # R0.2.3, R9.4.1
    play = parse_move("9D INFaNCY", EN)
    assert isinstance(play, Play)
    assert play.word[3] == as_blank(EN.letter("A"))
    assert play.word[3] & BLANK_BIT
    assert play.tiles_used == [*tiles("INF"), BLANK, *tiles("NCY")]
    assert play.gcg(EN) == "9D INFaNCY"
    all_blank = parse_move("8G ax", EN)
    assert isinstance(all_blank, Play)
    assert all_blank.tiles_used == [BLANK, BLANK]


def test_blanks_on_the_board_are_played_through_by_their_letter() -> None:
    board = board_after("8D QUITE", "8A MES.....", "9D INFaNCY")  # G9 holds a blank 'a'
    expected = parse_move("G7 S..", EN, board)
    assert isinstance(expected, Play)
    assert expected.word == (EN.letter("S"), T, T)
    for text in ("G7 S(Ta)", "G7 S(TA)", "G7 STa", "G7 STA"):
        assert parse_move(text, EN, board) == expected, text
    assert expected.human(EN, board) == "G7 S(Ta)"


def test_r2_9a_two_names_for_one_single_tile_play() -> None:  # R2.9 (a)
    board = board_after("8G AX", "H8 .I")
    across = parse_move("9G T.", EN, board)
    down = parse_move("G8 .T", EN, board)
    assert isinstance(across, Play) and isinstance(down, Play)
    assert across.placements == down.placements == ((8, 6, EN.letter("T")),)
    assert across == down and hash(across) == hash(down)
    assert across.gcg(EN) == "9G T." and down.gcg(EN) == "G8 .T"
    assert across.human(EN, board) == "9G T(I)"
    assert down.human(EN, board) == "G8 (A)T"
    assert parse_move("9G T(I)", EN, board) == parse_move("G8 (A)T", EN, board) == across


def test_play_equality_ignores_score_and_naming() -> None:
    play = parse_move("8D QUITE", EN)
    assert isinstance(play, Play)
    assert play.with_score(48) == play
    assert play.with_score(48).score == 48 and play.score is None
    assert len({play, play.with_score(48), parse_move("8d QUITE", EN)}) == 1


def test_super_board_positions_run_to_u21() -> None:  # R0.2.1, R9.2
    board = Board(layout("super21"))
    play = parse_move("U17 QUITE", EN, board)
    assert isinstance(play, Play)
    assert play.placements[-1][:2] == (20, 20)
    assert play.gcg(EN) == "U17 QUITE"
    assert parse_move("21q QUITE", EN, board) == parse_move("21Q QUITE", EN, rows=21, cols=21)
    for text, names in (
        ("U18 QUITE", "the word runs off the board"),
        ("22A QI", "row 22 is off the board (1–21)"),
        ("8V QI", "column V is off the board (A–U)"),
    ):
        with pytest.raises(NotationError) as info:
            parse_move(text, EN, board)
        assert names in str(info.value)
    with pytest.raises(NotationError, match="column U is off the board"):
        parse_move("U1 QUITE", EN)  # without a board: the standard 15×15


# -- exchanges, passes, challenges (R0.2.3, R4.1, R9.4.2, R9.4.3) ---------------------------


def test_exchange_lists_its_tiles() -> None:
    move = parse_move("-IIU", EN)
    assert move == Exchange(tiles("IIU"))
    assert isinstance(move, Exchange) and move.n == 3
    assert move.gcg(EN) == "-IIU"
    assert format_move(move, EN) == "-IIU"
    assert parse_move("-?E", EN) == Exchange((BLANK, EN.letter("E")))
    assert parse_move("- QO", EN) == Exchange(tiles("QO"))


def test_exchange_by_count_and_zero_is_a_pass() -> None:  # R9.4.3, R4.1
    move = parse_move("-3", EN)
    assert move == Exchange(count=3)
    assert isinstance(move, Exchange) and move.n == 3 and move.tiles == ()
    assert move.gcg(EN) == "-3"
    assert parse_move("-0", EN) == Pass()


@pytest.mark.parametrize("text", ["-", "pass", "PASS", "Pass", " - "])
def test_pass(text: str) -> None:  # R9.4.2
    move = parse_move(text, EN)
    assert isinstance(move, Pass)
    assert format_move(move, EN) == "-"


@pytest.mark.parametrize("text", ["challenge", "CHALLENGE", " Challenge "])
def test_challenge(text: str) -> None:
    move = parse_move(text, EN)
    assert move == Challenge()
    assert format_move(move, EN) == "challenge"


def test_move_kinds_and_bad_values() -> None:
    assert parse_move("8D QUITE", EN).is_play()
    assert not Pass().is_play() and not Exchange(count=1).is_play()
    with pytest.raises(NotationError, match="count must equal"):
        Exchange(tiles("AB"), count=3)
    with pytest.raises(NotationError, match="at least one tile"):
        Play(7, 7, True, ())
    with pytest.raises(TypeError, match="not a move"):
        format_move("8D QUITE", EN)  # type: ignore[arg-type]


# -- exact round trips -------------------------------------------------------------------


@pytest.mark.parametrize(("gcg", "human", "before"), REFERENCE)
def test_text_to_play_to_text_in_both_notations(
    gcg: str, human: str, before: tuple[str, ...]
) -> None:
    board = board_after(*before)
    from_gcg = parse_move(gcg, EN, board)
    from_human = parse_move(human, EN, board)
    assert isinstance(from_gcg, Play) and isinstance(from_human, Play)
    assert from_gcg.word == from_human.word
    assert from_gcg.gcg(EN) == from_human.gcg(EN) == gcg
    assert from_gcg.human(EN, board) == from_human.human(EN, board) == human
    assert format_move(from_human, EN) == gcg


@pytest.mark.parametrize(("gcg", "human", "before"), REFERENCE)
def test_play_to_text_to_play(gcg: str, human: str, before: tuple[str, ...]) -> None:
    board = board_after(*before)
    play = parse_move(gcg, EN, board)
    assert isinstance(play, Play)
    for text in (play.gcg(EN), play.human(EN, board)):
        again = parse_move(text, EN, board)
        assert isinstance(again, Play)
        assert (again.row, again.col, again.across, again.word) == (
            play.row,
            play.col,
            play.across,
            play.word,
        )


def test_round_trip_from_placed_tiles() -> None:
    board = board_after("8D QUITE")
    placed = [(7, 0, EN.letter("M")), (7, 1, EN.letter("E")), (7, 2, EN.letter("S"))]
    play = play_from_placements(board, placed)
    assert play.gcg(EN) == "8A MES....."
    assert play.human(EN, board) == "8A MES(QUITE)"
    assert parse_move(play.gcg(EN), EN, board) == play


def test_human_notation_needs_the_played_through_tiles_on_the_board() -> None:
    play = parse_move("8A MES.....", EN)
    assert isinstance(play, Play)
    with pytest.raises(NotationError, match="no tile on the board to play through"):
        play.human(EN, Board(layout("standard15")))


def test_exchange_round_trip() -> None:
    for text in ("-IIU", "-?AEQ", "-7", "-"):
        assert format_move(parse_move(text, EN), EN) == text


@st.composite
def plays_on_boards(draw: st.DrawFn, alphabet: Alphabet) -> tuple[Play, Board]:
    """A play of 1..15 squares anywhere on the board, some of them played through tiles
    (natural or blank) that are placed on the board first."""
    across = draw(st.booleans())
    length = draw(st.integers(1, 15))
    row = draw(st.integers(0, 14 if across else 15 - length))
    col = draw(st.integers(0, 15 - length if across else 14))
    letter = st.integers(1, len(alphabet))
    squares = draw(
        st.lists(st.tuples(st.booleans(), letter, st.booleans()), min_size=length, max_size=length)
    )
    assume(not all(through for through, _, _ in squares))
    board = Board(layout("standard15"))
    word = []
    dr, dc = (0, 1) if across else (1, 0)
    for i, (through, tile, blank) in enumerate(squares):
        tile = as_blank(tile) if blank else tile
        if through:
            board.set(row + dr * i, col + dc * i, tile)
            word.append(T)
        else:
            word.append(tile)
    return Play(row, col, across, tuple(word)), board


def _unambiguous(play: Play, alphabet: Alphabet) -> bool:
    """Adjacent new tiles whose labels read back as other tiles (Spanish C·H → CH) cannot
    round-trip through any letter notation; the generator skips them."""
    runs: list[list[int]] = [[]]
    for t in play.word:
        if t == T:
            runs.append([])
        else:
            runs[-1].append(t)
    return all(alphabet.parse(alphabet.format(run)) == run for run in runs if run)


@pytest.mark.parametrize(
    "alphabet", [EN, ES, tileset("hungarian").alphabet], ids=["english", "spanish", "hungarian"]
)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_any_play_round_trips_through_both_notations(
    alphabet: Alphabet, data: st.DataObject
) -> None:
    play, board = data.draw(plays_on_boards(alphabet))
    assume(_unambiguous(play, alphabet))
    for text in (play.gcg(alphabet), play.human(alphabet, board)):
        again = parse_move(text, alphabet, board)
        assert isinstance(again, Play)
        assert (again.row, again.col, again.across, again.word) == (
            play.row,
            play.col,
            play.across,
            play.word,
        ), text
        assert again.gcg(alphabet) == play.gcg(alphabet)
        assert again.human(alphabet, board) == play.human(alphabet, board)


def test_adjacent_tiles_spelling_a_digraph_read_back_as_the_digraph() -> None:
    """A known limit of letter notation: Spanish C then H is written CH, which reads as the
    single CH tile (longest label first). Players write the digraph tile; this pins it."""
    play = Play(7, 7, True, (ES.letter("C"), ES.letter("H")))
    assert play.gcg(ES) == "8H CH"
    again = parse_move(play.gcg(ES), ES)
    assert isinstance(again, Play) and again.word == (ES.letter("CH"),)


# -- multi-letter tiles (DESIGN principle 2; Spanish CH, LL, RR) ------------------------------


def test_spanish_digraphs_are_one_tile_each() -> None:
    play = parse_move("8H CHILE", ES)
    assert isinstance(play, Play)
    assert play.word == tuple(ES.letter(x) for x in ("CH", "I", "L", "E"))
    assert len(play.placements) == 4
    assert play.gcg(ES) == "8H CHILE"
    llama = parse_move("8A LLAMA", ES)
    assert isinstance(llama, Play)
    assert [ES.label(t) for t in llama.word] == ["LL", "A", "M", "A"]
    perro = parse_move("8A PERRO", ES)
    assert isinstance(perro, Play)
    assert [ES.label(t) for t in perro.word] == ["P", "E", "RR", "O"]
    ano = parse_move("8A AÑO", ES)
    assert isinstance(ano, Play)
    assert [ES.label(t) for t in ano.word] == ["A", "Ñ", "O"]


def test_spanish_blank_digraph_and_mixed_case() -> None:
    play = parse_move("8H chILE", ES)
    assert isinstance(play, Play)
    assert play.word[0] == as_blank(ES.letter("CH"))
    assert play.gcg(ES) == "8H chILE"
    assert parse_move(play.gcg(ES), ES) == play
    mixed = parse_move("8H Ch", ES)  # upper C, then a blank h: two tiles
    assert isinstance(mixed, Play)
    assert mixed.word == (ES.letter("C"), as_blank(ES.letter("H")))


def test_word_length_on_the_board_counts_tiles_not_characters() -> None:
    # PERRO is 4 tiles: from L8 it ends on O8; 5 characters would run off
    perro = parse_move("8L PERRO", ES)
    assert isinstance(perro, Play)
    assert perro.placements[-1][:2] == (7, 14)
    with pytest.raises(NotationError, match="runs off the board"):
        parse_move("8L PERROS", ES)


def test_spanish_played_through_digraph_round_trips() -> None:
    board = board_after("8E CHILE", alphabet=ES)
    for text in ("E7 O(CH)O", "E7 O.O", "E7 OCHO"):
        play = parse_move(text, ES, board)
        assert isinstance(play, Play)
        assert play.word == (ES.letter("O"), T, ES.letter("O"))
        assert play.gcg(ES) == "E7 O.O"
        assert play.human(ES, board) == "E7 O(CH)O"
    with pytest.raises(NotationError, match=r"\(C\) at position 3 is not on the board"):
        parse_move("E7 O(C)O", ES, board)


def test_parentheses_read_the_tiles_the_board_holds() -> None:
    """(RR) over two R tiles is two played-through squares; over one RR tile it is one."""
    two = Board(layout("standard15"))
    two.place([(7, 4, ES.letter("R")), (7, 5, ES.letter("R"))])
    one = Board(layout("standard15"))
    one.set(7, 4, ES.letter("RR"))
    over_two = parse_move("8D A(RR)O", ES, two)
    over_one = parse_move("8D A(RR)O", ES, one)
    assert isinstance(over_two, Play) and isinstance(over_one, Play)
    assert over_two.word == (ES.letter("A"), T, T, ES.letter("O"))
    assert over_one.word == (ES.letter("A"), T, ES.letter("O"))
    assert over_two.human(ES, two) == over_one.human(ES, one) == "8D A(RR)O"
    assert (over_two.gcg(ES), over_one.gcg(ES)) == ("8D A..O", "8D A.O")


def test_spanish_game_scores_digraph_values() -> None:  # CH is worth 5
    game = Game(Rules(tiles="spanish"), players=["Ana", "Blas"], seed=3, first=0)
    give(game, "Ana", "CHILEAS")
    event = game.play("8E CHILE")
    assert event is not None and event.score == (5 + 1 + 1 + 1) * 2  # E on the H8 star
    assert isinstance(event.move, Play) and event.move.gcg(ES) == "8E CHILE"
    give(game, "Blas", "OOAEIRS")
    event = game.play("E7 O(CH)O")
    assert event is not None and event.score == 1 + 5 + 1
    assert isinstance(event.move, Play) and event.move.human(ES, game.board) == "E7 O(CH)O"


def test_a_letter_outside_the_alphabet_is_named() -> None:
    with pytest.raises(NotationError) as info:
        parse_move("8H KIWI", ES)
    assert "'K' at position 1 is not a tile of the spanish alphabet" in str(info.value)


# -- malformed input: a clear error naming the problem ----------------------------------------

MALFORMED: list[tuple[str, str]] = [
    ("", "empty move"),
    ("   ", "empty move"),
    ("8D", "a play is a position and a word"),
    ("QUITE", "a play is a position and a word"),
    ("8D QUITE EXTRA", "a play is a position and a word"),
    ("H 8 QUITE", "a play is a position and a word"),
    ("8D\tQUITE\tX", "a play is a position and a word"),
    ("8 QUITE", "'8' is not a position"),
    ("D QUITE", "'D' is not a position"),
    ("88 QUITE", "'88' is not a position"),
    ("DD QUITE", "'DD' is not a position"),
    ("8D8 QUITE", "'8D8' is not a position"),
    ("100A QUITE", "'100A' is not a position"),
    ("8-D QUITE", "'8-D' is not a position"),
    ("?8 QUITE", "'?8' is not a position"),
    ("8? QUITE", "'8?' is not a position"),
    ("٨D QUITE", "'٨D' is not a position"),
    ("８D QUITE", "'８D' is not a position"),
    ("challenge now", "'challenge' is not a position"),
    ("pass 8D", "'pass' is not a position"),
    ("0A QUITE", "row 0 is off the board"),
    ("16A QUITE", "row 16 is off the board (1–15)"),
    ("A16 QUITE", "row 16 is off the board (1–15)"),
    ("8P QUITE", "column P is off the board (A–O)"),
    ("P8 QUITE", "column P is off the board (A–O)"),
    ("8Z QUITE", "column Z is off the board"),
    ("8K QUITEST", "'8K QUITEST': the word runs off the board"),
    ("K10 QUITEST", "'K10 QUITEST': the word runs off the board"),
    ("15O QI", "the word runs off the board"),
    ("8D QU1TE", "'1' at position 3 is not a tile of the english alphabet"),
    ("8D QUI-TE", "'-' at position 4 is not a tile"),
    ("8D QUITÉ", "'É' at position 5 is not a tile"),
    ("8D QUITE!", "'!' at position 6 is not a tile"),
    ("8D 'QUITE'", "\"'\" at position 1 is not a tile"),
    ("8D Q_ITE", "'_' at position 2 is not a tile"),
    ("8D QUITE,", "',' at position 6 is not a tile"),
    ("8D 8D", "'8' at position 1 is not a tile"),
    ("8D (QU)1TE", "'1' at position 5 is not a tile"),
    ("8D QUITE\x00", "'\\x00' at position 6 is not a tile"),
    ("8D QU?TE", "a blank on the board needs its letter (lower case), not '?'"),
    ("8D ?", "a blank on the board needs its letter"),
    ("8D ((QUITE))", "nested '(' at position 2"),
    ("8D Q(U(I)TE)", "nested '(' at position 4"),
    ("8D QUITE)", "')' at position 6 without '('"),
    ("8D )QUITE(", "')' at position 1 without '('"),
    ("8D (QUITE", "'(' is never closed"),
    ("8D QUITE(", "'(' is never closed"),
    ("8D (QU)(ITE", "'(' is never closed"),
    ("8D (Q.UITE)", "'.' inside parentheses at position 3"),
    ("8D ()", "'()': a play needs a word"),
    ("8D .....", "'.....': the play places no new tile"),
    ("8D (QUITE)", "'(QUITE)': the play places no new tile"),
    ("-AB1", "'1' at position 3 is not a tile"),
    ("-Q!", "'!' at position 2 is not a tile"),
    ("-É", "'É' at position 1 is not a tile"),
    ("--", "'-' at position 1 is not a tile"),
    ("-3 4", "'3' at position 1 is not a tile"),
    ("-²", "'²' at position 1 is not a tile"),
    ("-a", "write blanks as '?', not lower case"),
    ("-?x", "write blanks as '?', not lower case"),
]


def test_there_are_at_least_fifty_distinct_malformed_inputs() -> None:
    texts = [text for text, _ in MALFORMED]
    assert len(set(texts)) == len(texts) >= 50


@pytest.mark.parametrize(("text", "names"), MALFORMED)
def test_parse_move_names_the_problem(text: str, names: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_move(text, EN)
    assert names in str(info.value)


@pytest.fixture
def game_after_quite() -> Game:
    """Reference game after turn 1 (8D QUITE); Bob to move holding AEIMSSX."""
    game = Game("hasbro", players=["Ann", "Bob"], seed=11, first=0)
    give(game, "Ann", "QUITEAB")
    game.play("8D QUITE")
    give(game, "Bob", "AEIMSSX")
    return game


# texts that read as moves but break a rule: (text, reason, words in the message)
REFUSED_IN_GAME: list[tuple[str, Reason, str]] = [
    ("8A MES(QUITA)", Reason.NOTATION, "(A) at position 9 is not on the board: H8 holds E"),
    ("8D Q.ITE", Reason.NOTATION, "the play places no new tile"),
    ("8D QUITE", Reason.NOTATION, "the play places no new tile"),
    ("8D QUOTE", Reason.OCCUPIED, "square F8 is already occupied"),
    ("D8 SAX", Reason.OCCUPIED, "square D8 is already occupied"),
    ("9A AX", Reason.NOT_CONNECTED, "the play must touch a tile already on the board"),
    ("9I A.X", Reason.GAP, "gap at J9"),
    ("10A .A", Reason.GAP, "gap at A10"),
    ("H1 MMMMMMM.M", Reason.TOO_MANY_TILES, "8 tiles placed; at most 7"),
    ("8I SSS", Reason.NOT_ON_RACK, "not on your rack: S (rack AEIMSSX)"),
    ("8I Zs", Reason.NOT_ON_RACK, "not on your rack: Z?"),
    ("8K QUITEST", Reason.NOTATION, "the word runs off the board"),
    ("8I ?", Reason.NOTATION, "needs its letter"),
    ("-AXZ", Reason.NOT_ON_RACK, "not on your rack: Z"),
    ("-EE", Reason.NOT_ON_RACK, "not on your rack: E"),
]


@pytest.mark.parametrize(("text", "names"), MALFORMED)
def test_game_refuses_malformed_text_and_stays_unchanged(
    game_after_quite: Game, text: str, names: str
) -> None:
    game = game_after_quite
    before = snapshot(game)
    with pytest.raises(IllegalMove) as info:
        game.play(text)
    assert info.value.reason is Reason.NOTATION
    assert names in str(info.value)
    assert snapshot(game) == before


@pytest.mark.parametrize(("text", "reason", "names"), REFUSED_IN_GAME)
def test_game_refuses_with_the_specific_reason_and_stays_unchanged(
    game_after_quite: Game, text: str, reason: Reason, names: str
) -> None:
    game = game_after_quite
    before = snapshot(game)
    with pytest.raises(IllegalMove) as info:
        game.play(text)
    assert info.value.reason is reason
    assert names in str(info.value)
    assert snapshot(game) == before
    if not text.startswith("-"):  # Game.check validates plays without making them
        with pytest.raises(IllegalMove) as checked:
            game.check(text)
        assert checked.value.reason is reason
        assert snapshot(game) == before


def test_game_accepts_after_refusals(game_after_quite: Game) -> None:
    game = game_after_quite
    for text, _ in MALFORMED[:10]:
        with pytest.raises(IllegalMove):
            game.play(text)
    event = game.play("8A MES(QUITE)")
    assert event is not None and event.score == 57
