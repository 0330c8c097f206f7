"""Legal placement (RULES.md R2.1–R2.11, R8.5): every refusal has a precise ``Reason`` and a
message naming the problem, and leaves the game exactly as it was."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import tessera
from support import give
from support.randomplay import state as snapshot
from tessera import Game, IllegalMove, Play, Reason, Rules, parse_move, preset
from tessera.board import Board
from tessera.layouts import layout
from tessera.legality import (
    check_play,
    covers_start,
    invalid_words,
    normalize_play,
    play_from_squares,
)
from tessera.move import PLAYED_THROUGH
from tessera.rules import ChallengeRule
from tessera.tiles import BLANK, BLANK_BIT, Rack, as_blank, letter_of

EN = tessera.tileset("english").alphabet
T = PLAYED_THROUGH


def L(label: str) -> int:
    return EN.letter(label)


class FakeWords:
    """A tiny word source: ``contains`` and ``has_anagram`` over a set of words."""

    def __init__(self, *words: str) -> None:
        self.words = {w.upper() for w in words}
        self.sorted = {"".join(sorted(w)) for w in self.words}
        self.seen: list[tuple[int, ...]] = []

    def _text(self, tiles: Sequence[int]) -> str:
        self.seen.append(tuple(tiles))
        return EN.format(tiles)

    def contains(self, tiles: Sequence[int]) -> bool:
        return self._text(tiles) in self.words

    def has_anagram(self, tiles: Sequence[int]) -> bool:
        return "".join(sorted(self._text(tiles))) in self.sorted


def refused(game: Game, move: object, reason: Reason, *names: str) -> IllegalMove:
    """Assert ``game.play(move)`` is refused for ``reason`` naming ``names``, changing nothing."""
    before = snapshot(game)
    with pytest.raises(IllegalMove) as info:
        game.play(move)  # type: ignore[arg-type]
    assert info.value.reason is reason, str(info.value)
    for name in names:
        assert name in str(info.value)
    assert snapshot(game) == before
    return info.value


def new_game(rules: str | Rules = "hasbro", lexicon: FakeWords | None = None) -> Game:
    return Game(rules, lexicon=lexicon, players=["Ann", "Bob"], seed=17, first=0)


@pytest.fixture
def quite() -> Game:
    """After 8D QUITE by Ann; Bob to move with AEIMSSX."""
    game = new_game()
    give(game, "Ann", "QUITEAB")
    game.play("8D QUITE")
    give(game, "Bob", "AEIMSSX")
    return game


# -- R2.1 source of tiles -------------------------------------------------------------------


def test_tiles_must_come_from_the_rack(quite: Game) -> None:  # R2.1
    refused(quite, "8I ZAX", Reason.NOT_ON_RACK, "not on your rack: Z", "(rack AEIMSSX)")
    refused(quite, "8I SSS", Reason.NOT_ON_RACK, "not on your rack: S")


def test_a_blank_comes_from_a_question_mark() -> None:  # R2.1, R2.10
    game = new_game()
    give(game, "Ann", "UITEAB?")
    event = game.play("8D qUITE")
    assert event is not None and event.score == (0 + 4) * 2
    assert isinstance(event.move, Play) and event.move.tiles_used[0] == BLANK
    assert game.board.get(7, 3) == as_blank(L("Q"))
    game = new_game()
    give(game, "Ann", "QUITEAB")
    refused(game, "8D qUITE", Reason.NOT_ON_RACK, "not on your rack: ?", "(rack ABEIQTU)")


def test_at_most_a_rack_of_tiles(quite: Game) -> None:  # R2.1
    refused(quite, "H1 MMMMMMM.M", Reason.TOO_MANY_TILES, "8 tiles placed; at most 7")
    nine = preset("nine_tile")
    game = new_game(nine)
    give(game, "Ann", "STRAINERS")
    assert game.play("8A STRAINERS") is not None  # nine tiles are a rack under nine-tile


def test_no_tiles_is_not_a_play(quite: Game) -> None:  # R2.1
    refused(quite, [], Reason.NO_TILES, "no tiles placed")
    refused(quite, Play(7, 3, True, (T, T, T, T, T)), Reason.NO_TILES, "8D", "places no tile")


def test_square_occupied(quite: Game) -> None:  # R2.1
    refused(quite, "8D QUOTE", Reason.OCCUPIED, "square F8 is already occupied")
    refused(quite, [(7, 5, L("A")), (8, 5, L("S"))], Reason.OCCUPIED, "F8")
    refused(quite, [(8, 5, L("A")), (8, 5, L("S"))], Reason.OCCUPIED, "two tiles placed on F9")


def test_off_the_board(quite: Game) -> None:  # R2.1
    refused(quite, Play(7, 12, True, tuple(EN.parse("SAXES"))), Reason.OFF_BOARD, "8M")
    refused(quite, Play(-1, 3, False, tuple(EN.parse("AX"))), Reason.OFF_BOARD, "off the board")
    refused(
        quite, [(15, 7, L("A"))], Reason.OFF_BOARD, "row 16, column 8 is off the 15×15 board"
    )
    refused(quite, [(8, 15, L("A"))], Reason.OFF_BOARD, "column 16")


def test_placed_tiles_must_be_letters_of_the_alphabet(quite: Game) -> None:
    refused(quite, [(8, 7, BLANK)], Reason.NOTATION, "the blank on H9 needs a designated letter")
    refused(quite, Play(8, 7, True, (999,)), Reason.NOTATION, "tile id 999 on H9")
    refused(quite, Play(8, 7, True, (BLANK_BIT,)), Reason.NOTATION, "is not a tile of the english")
    refused(quite, Play(8, 7, True, (27,)), Reason.NOTATION, "tile id 27 on H9")


BAD_PLACEMENTS = [
    ["8D"],
    [(7, 7)],
    [(7, 7, 1, 1)],
    [("7", 7, 1)],
    [(7.0, 7, 1)],
    [(7, 7, None)],
    [(True, 7, 1)],
]


@pytest.mark.parametrize(
    "placements", BAD_PLACEMENTS, ids=["text", "pair", "quad", "str", "float", "none", "bool"]
)
def test_placements_must_be_integer_triples(quite: Game, placements: list[object]) -> None:
    refused(quite, placements, Reason.NOTATION, "(row, col, tile)")
    with pytest.raises(IllegalMove) as info:
        play_from_squares(quite.board, placements)  # type: ignore[arg-type]
    assert info.value.reason is Reason.NOTATION
    assert f"(row, col, tile) triple of integers, not {placements[0]!r}" in str(info.value)


def test_placements_may_be_lists_as_json_gives_them(quite: Game) -> None:
    give(quite, "Bob", "SAXEEEE")
    event = quite.play([[7, 8, L("S")]])
    assert event is not None and isinstance(event.move, Play)
    assert event.move.gcg(EN) == "8D .....S"


# -- R2.2 one line, R2.3 no gaps, R2.5 direction --------------------------------------------


def test_tiles_not_in_one_line_are_refused() -> None:  # R2.2, R2.5
    board = Board(layout("standard15"))
    with pytest.raises(IllegalMove) as info:
        play_from_squares(board, [(7, 7, L("A")), (8, 8, L("T"))])  # diagonal
    assert info.value.reason is Reason.NOT_IN_LINE
    assert "one row or one column" in str(info.value)
    with pytest.raises(IllegalMove) as info:
        play_from_squares(board, [(7, 7, L("A")), (7, 8, L("T")), (8, 7, L("S"))])  # an L
    assert info.value.reason is Reason.NOT_IN_LINE
    game = new_game()
    give(game, "Ann", "ATSEEEE")
    refused(game, [(7, 7, L("A")), (8, 8, L("T"))], Reason.NOT_IN_LINE, "one row or one column")


def test_one_line_is_read_in_its_direction() -> None:  # R2.2
    board = Board(layout("standard15"))
    across = play_from_squares(board, [(7, 8, L("T")), (7, 7, L("A"))])
    assert (across.position, across.word) == ("8H", (L("A"), L("T")))
    down = play_from_squares(board, [(8, 7, L("T")), (7, 7, L("A"))])
    assert (down.position, down.word) == ("H8", (L("A"), L("T")))


def test_gaps_are_refused_naming_the_square(quite: Game) -> None:  # R2.3
    refused(quite, [(8, 3, L("A")), (8, 5, L("S"))], Reason.GAP, "gap at E9")
    refused(quite, "9I A.X", Reason.GAP, "gap at J9")
    game = new_game()
    give(game, "Ann", "QITEAB?")
    refused(game, [(7, 3, L("Q")), (7, 5, L("I"))], Reason.GAP, "gap at E8")


def test_played_through_tiles_fill_the_line(quite: Game) -> None:  # R2.3
    give(quite, "Bob", "SAXEEEE")
    event = quite.play([(6, 5, L("A")), (8, 5, L("S"))])  # A over I on F8, S below it
    assert event is not None and isinstance(event.move, Play)
    assert event.move.gcg(EN) == "F7 A.S"


# -- R2.4 main word ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "full"),
    [
        ("8A MES", "8A MES....."),
        ("8A MES(QUIT)", "8A MES....."),
        ("8A MES....", "8A MES....."),
        ("8B ES", "8B ES....."),
        ("8I S", "8D .....S"),
        ("8I SM", "8D .....SM"),
        ("I8 S", "8D .....S"),
    ],
)
def test_a_play_given_short_is_the_full_main_word(quite: Game, given: str, full: str) -> None:
    play = parse_move(given, EN, quite.board)
    assert isinstance(play, Play)
    normal = normalize_play(quite.board, play)
    assert normal.gcg(EN) == full
    checked = quite.check(given)
    assert checked is not None and checked.gcg(EN) == full
    event = quite.play(given)
    assert event is not None and isinstance(event.move, Play)
    assert event.move.gcg(EN) == full
    assert event.move.score == event.score


def test_the_main_word_extends_across_touching_tiles_at_both_ends() -> None:  # R2.4
    board = Board(layout("standard15"))
    board.place(parse_move("8D QUITE", EN).placements)  # type: ignore[union-attr]
    board.set(7, 9, L("S"))  # an S on J8, one square after QUITE
    play = play_from_squares(board, [(7, 8, L("R"))])  # R on I8 fills the gap
    normal = normalize_play(board, play)
    assert normal.gcg(EN) == "8D .....R."
    given = parse_move("8I R", EN, board)
    assert isinstance(given, Play)
    assert normalize_play(board, given).gcg(EN) == normal.gcg(EN)
    normal, words = check_play(board, given, Rack.from_text(EN, "RAAAAAA"), preset("hasbro"), EN)
    assert [EN.format(w.tiles) for w in words] == ["QUITERS"]
    assert tessera.score_play(board, normal, preset("hasbro")) == 10 + 1 + 1 + 1 + 1 + 1 + 1


def test_words_formed_are_the_main_word_and_cross_words(quite: Game) -> None:  # R2.8
    play = parse_move("9D IN", EN, quite.board)
    assert isinstance(play, Play)
    normal, words = check_play(
        quite.board, play, Rack.from_text(EN, "INAAAAA"), quite.rules, EN
    )
    assert normal.gcg(EN) == "9D IN"
    assert [EN.format(w.tiles) for w in words] == ["IN", "QI", "UN"]


# -- R2.6 first play, R2.7 connection ---------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "rack", "miss", "hit", "start"),
    [
        ("hasbro", "QUITEAB", "8A QUITE", "8D QUITE", "H8"),
        ("super", "QUITEAB", "8H QUITE", "11G QUITE", "K11"),
        ("wwf", "QUITEAB", "8A QUITE", "H4 QUITE", "H8"),
        ("lexulous", "QUITEABC", "8A QUITE", "8D QUITE", "H8"),
    ],
)
def test_first_play_must_cover_the_start_square(
    rules: str, rack: str, miss: str, hit: str, start: str
) -> None:  # R2.6, R8.1.1, R8.6, R8.7
    game = new_game(rules)
    give(game, "Ann", rack)
    refused(game, miss, Reason.FIRST_PLAY_MISSES_START, f"the start square {start}")
    play = parse_move(hit, EN, game.board)
    assert isinstance(play, Play) and covers_start(game.board, play)
    assert game.play(hit) is not None


def test_first_play_needs_two_tiles() -> None:  # R2.6
    game = new_game()
    give(game, "Ann", "AEEEEEE")
    refused(game, "8H A", Reason.FIRST_PLAY_TOO_FEW_TILES, "at least 2 tiles")
    refused(game, [(7, 7, L("A"))], Reason.FIRST_PLAY_TOO_FEW_TILES, "at least 2 tiles")


def test_first_play_through_nothing_is_a_gap() -> None:  # R2.6 on an empty board
    game = new_game()
    give(game, "Ann", "QUITEAB")
    refused(game, "8D QU.TE", Reason.GAP, "gap at F8")


def test_naspa_centre_miss_stands_unless_challenged() -> None:  # R2.6.1, R2.6.2
    game = new_game("naspa")
    give(game, "Ann", "QUITEAB")
    event = game.play("8A QUITE")
    assert event is not None and event.score == (10 + 1 + 1 + 2 + 1) * 3  # A8 TW, T on D8 DL
    withdrawn = game.challenge("Bob")
    assert withdrawn is not None and withdrawn.kind is tessera.EventKind.WITHDRAWN
    assert game.board.is_empty()  # R2.6.2: the next tile play is a first play again
    assert game.scores == [0, 0]


def test_after_a_withdrawn_first_play_the_next_is_a_first_play() -> None:  # R2.6.2
    game = new_game("hasbro", FakeWords("QI"))
    give(game, "Ann", "QUITEAB")
    game.play("8D QUITE")  # not in this word source: a phony
    assert game.challenge("Bob") is not None
    assert game.board.is_empty()
    give(game, "Bob", "AEEEEEE")
    refused(game, "8H A", Reason.FIRST_PLAY_TOO_FEW_TILES, "at least 2 tiles")


def test_later_plays_must_touch_the_board(quite: Game) -> None:  # R2.7
    refused(quite, "9A AX", Reason.NOT_CONNECTED, "must touch a tile already on the board")
    refused(quite, [(9, 3, L("A")), (9, 4, L("X"))], Reason.NOT_CONNECTED, "must touch")
    refused(quite, "I9 AX", Reason.NOT_CONNECTED, "must touch")  # diagonal neighbour only
    assert quite.play("I8 AX") is not None  # A on I8 touches E on H8


# -- R2.8 words, R2.9 single tiles ------------------------------------------------------------


def test_a_play_forming_no_word_is_refused() -> None:  # R2.8, R2.9
    rules = preset("hasbro").replace(min_first_play_tiles=1)
    game = new_game(rules)
    give(game, "Ann", "AEEEEEE")
    refused(game, "8H A", Reason.NO_WORD, "forms no word of two or more letters")


def test_words_shorter_than_the_minimum_are_refused() -> None:  # R2.4 (Cfg min_word_length)
    game = new_game(preset("hasbro").replace(min_word_length=3))
    give(game, "Ann", "AXEEEEE")
    refused(game, "8G AX", Reason.WORD_TOO_SHORT, "8G: words must have at least 3 letters")
    assert game.play("8G AXE") is not None


def test_single_tile_keeps_the_direction_it_was_given() -> None:  # R2.9
    game = new_game()
    give(game, "Ann", "AXEEEEE")
    game.play("8G AX")
    give(game, "Bob", "IEEEEEE")
    game.play("H8 .I")
    give(game, "Ann", "TEEEEEE")
    board = game.board
    for text, position in (("9G T.", "9G"), ("G8 .T", "G8"), ("9G T", "9G"), ("G9 T", "G8")):
        play = parse_move(text, EN, board)
        assert isinstance(play, Play)
        normal = normalize_play(board, play)
        assert normal.position == position, text
        assert normal.placements == ((8, 6, L("T")),)


def test_single_tile_takes_the_direction_where_it_forms_a_word() -> None:  # R2.9 (b)
    game = new_game()
    give(game, "Ann", "FORAAAA")
    game.play("8G FOR")
    give(game, "Bob", "EAAAAAA")
    for text in ("J8 E", "8J E", "8G ...E"):
        checked = game.check(text)
        assert checked is not None and checked.gcg(EN) == "8G ...E", text
    placed = play_from_squares(game.board, [(7, 9, L("E"))])
    assert placed.gcg(EN) == "8G ...E"
    down_only = play_from_squares(game.board, [(8, 6, L("A"))])  # under F: forms FA down
    assert down_only.gcg(EN) == "G8 .A"


# -- R2.10 blank designation ----------------------------------------------------------------


def test_a_blank_keeps_its_letter_and_returns_undesignated_when_withdrawn() -> None:  # R2.10
    game = new_game("hasbro", FakeWords("QUITE"))
    give(game, "Ann", "QUITEAB")
    game.play("8D QUITE")
    give(game, "Bob", "?XEEEEE")
    event = game.play("G7 aT")
    assert event is not None
    assert game.board.get(6, 6) == as_blank(L("A"))
    assert game.board.get(6, 6) & BLANK_BIT and letter_of(game.board.get(6, 6)) == L("A")
    assert game.challenge("Ann") is not None  # "AT" is not in this word source
    assert game.board.get(6, 6) == 0
    assert BLANK in game.rack("Bob").tiles()
    assert as_blank(L("A")) not in game.rack("Bob").tiles()


# -- R2.11 validity, R8.5 Clabbers ----------------------------------------------------------


def test_void_refuses_invalid_words_naming_them() -> None:  # R2.11, R5.4e
    lex = FakeWords("QUITE", "QI")
    game = new_game("casual", lex)
    give(game, "Ann", "QUITEAB")
    game.play("8D QUITE")
    give(game, "Bob", "IXEEEEE")
    error = refused(game, "9D IX", Reason.INVALID_WORDS, "not in the word list: IX, UX")
    assert error.words == ("IX", "UX")  # QI is valid and is not named
    assert "QI" not in str(error)


def test_void_names_blanks_in_lower_case_and_checks_letters() -> None:  # R2.11
    lex = FakeWords("QUITE")
    game = new_game("casual", lex)
    give(game, "Ann", "QUITEA?")
    lex.words.discard("QUITE")
    error = refused(game, "8D QUITe", Reason.INVALID_WORDS, "not in the word list: QUITe")
    assert error.words == ("QUITe",)
    assert lex.seen == [tuple(EN.parse("QUITE"))]  # letters, without the blank bit


def test_void_accepts_valid_words() -> None:  # R2.11
    game = new_game("casual", FakeWords("QUITE", "QI", "UN"))
    give(game, "Ann", "QUITEAB")
    game.play("8D QUITE")
    give(game, "Bob", "INEEEEE")
    refused(game, "9D IN", Reason.INVALID_WORDS, "IN")  # IN itself is missing
    game.lexicon.words.add("IN")  # type: ignore[union-attr]
    event = game.play("9D IN")
    assert event is not None and event.score == 2 + 11 + 2


def test_without_void_a_phony_stays_unless_challenged() -> None:  # R2.11
    game = new_game("hasbro", FakeWords("QI"))
    give(game, "Ann", "QUITEAB")
    event = game.play("8D QUITE")  # invalid here, but only a challenge judges it
    assert event is not None and event.score == 48
    give(game, "Bob", "AEEEEEE")
    game.pass_turn()
    assert game.board.get(7, 3) == L("Q")
    assert game.scores[0] == 48


def test_clabbers_accepts_anagrams_of_words() -> None:  # R8.5
    lex = FakeWords("QUITE", "QI")
    board = Board(layout("standard15"))
    play = parse_move("8D TIUQE", EN, board)
    assert isinstance(play, Play)
    spans = board.words_formed(play.placements, play.across)
    exact = invalid_words(spans, preset("hasbro"), lex.contains, lex.has_anagram)
    anagram = invalid_words(spans, preset("clabbers"), lex.contains, lex.has_anagram)
    assert [EN.format(w.tiles) for w in exact] == ["TIUQE"]
    assert anagram == []
    void_clabbers = preset("clabbers").replace(challenge_rule=ChallengeRule.VOID)
    game = new_game(void_clabbers, lex)
    give(game, "Ann", "QUITEAB")
    refused(game, "8D QUITA", Reason.INVALID_WORDS, "QUITA")
    event = game.play("8D TIUQE")
    assert event is not None and event.score == (2 * 1 + 1 + 1 + 10 + 1) * 2  # T on D8 (DL)
