"""Scoring (RULES.md R3): the reference game R3.8.0 and the vectors of R2.9 and R3.8 through
the public API, premiums used once, multipliers that multiply, blanks, bingos, variants."""

from __future__ import annotations

import pytest

import tessera
from support import give
from tessera import Game, Play, parse_move, preset, score_breakdown, score_play
from tessera.board import Board
from tessera.layouts import layout
from tessera.scoring import ScoreBreakdown

EN = tessera.tileset("english").alphabet


def played(game: Game, player: str, rack: str, text: str) -> tessera.Event:
    give(game, player, rack)
    event = game.play(text)
    assert event is not None and event.kind is tessera.EventKind.PLAY
    return event


def words(breakdown: ScoreBreakdown) -> list[tuple[str, int]]:
    return [(EN.format(w.span.tiles), w.score) for w in breakdown.words]


def board_with(name: str, *moves: str, size: int = 15) -> Board:
    """A board with these GCG plays placed as they read (no legality check)."""
    board = Board(layout(name))
    for text in moves:
        move = parse_move(text, EN, board, rows=size, cols=size)
        assert isinstance(move, Play)
        board.place(move.placements)
    return board


def play_on(board: Board, text: str) -> Play:
    move = parse_move(text, EN, board)
    assert isinstance(move, Play)
    return move


# -- R3.8.0 the project's reference game ---------------------------------------------------


def test_reference_game_scores_48_57_88_40_through_the_public_api() -> None:  # R3.8.0
    game = tessera.Game(rules="hasbro", players=["Ann", "Bob"], seed=2024, first=0)
    turns = [
        ("Ann", "QUITEAB", "8D QUITE", 48, [48, 0]),
        ("Bob", "MESAXRO", "8A MES(QUITE)", 57, [48, 57]),
        ("Ann", "INF?NCY", "9D INFaNCY", 88, [136, 57]),
        ("Bob", "RECOTSA", "E4 RECO(UN)TS", 40, [136, 97]),
    ]
    for player, rack, text, score, totals in turns:
        event = played(game, player, rack, text)
        assert event.score == score, text
        assert game.scores == totals, text
        assert event.total == totals[game.index(player)]
    assert game.scores == [136, 97]
    assert [e.score for e in game.turn_events()] == [48, 57, 88, 40]


def test_reference_game_turn_3_breakdown_per_word() -> None:  # R3.8.0 turn 3
    board = board_with("standard15", "8D QUITE", "8A MES.....")
    play = play_on(board, "9D INFaNCY")
    breakdown = score_breakdown(board, play, preset("hasbro"))
    assert words(breakdown) == [
        ("INFaNCY", 17),
        ("QI", 11),
        ("UN", 2),
        ("IF", 5),
        ("Ta", 1),
        ("EN", 2),
    ]
    main = breakdown.words[0]
    assert (main.letter_sum, main.word_multiplier) == (17, 1)
    assert breakdown.bingo == 50
    assert breakdown.tiles_played == 7
    assert breakdown.total == 88 == score_play(board, play, preset("hasbro"))


def test_reference_game_breakdowns_of_the_other_turns() -> None:  # R3.8.0 turns 1, 2, 4
    rules = preset("hasbro")
    empty = Board(layout("standard15"))
    quite = score_breakdown(empty, play_on(empty, "8D QUITE"), rules)
    assert words(quite) == [("QUITE", 48)]
    assert (quite.words[0].letter_sum, quite.words[0].word_multiplier) == (24, 2)
    board = board_with("standard15", "8D QUITE")
    mesquite = score_breakdown(board, play_on(board, "8A MES....."), rules)
    assert words(mesquite) == [("MESQUITE", 57)]
    assert (mesquite.words[0].letter_sum, mesquite.words[0].word_multiplier) == (19, 3)
    board = board_with("standard15", "8D QUITE", "8A MES.....", "9D INFaNCY")
    recounts = score_breakdown(board, play_on(board, "E4 RECO..TS"), rules)
    assert words(recounts) == [("RECOUNTS", 40)]
    assert (recounts.words[0].letter_sum, recounts.words[0].word_multiplier) == (10, 4)
    assert recounts.bingo == 0 and recounts.tiles_played == 6


# -- R3.8 test vectors, R2.9 vectors ---------------------------------------------------------


def test_r3_8_quant_aliquant_oidioid() -> None:  # R3.8
    game = Game("hasbro", players=["Ann", "Bob"], seed=5, first=0)
    assert played(game, "Ann", "QUANTEE", "8D QUANT").score == 48
    assert played(game, "Bob", "ALIRSTU", "8A ALI.....").score == 51
    event = played(game, "Ann", "OIDIOID", "9G OIDIOID")
    assert event.score == 69
    assert event.breakdown is not None
    assert words(event.breakdown) == [("OIDIOID", 14), ("NO", 3), ("TI", 2)]
    assert event.breakdown.bingo == 50


def test_r3_8_aliquant_does_not_redouble_the_q() -> None:  # R3.3, R3.8
    board = board_with("standard15", "8D QUANT")
    breakdown = score_breakdown(board, play_on(board, "8A ALI....."), preset("hasbro"))
    assert (breakdown.words[0].letter_sum, breakdown.words[0].word_multiplier) == (17, 3)


def test_r2_9a_single_tile_scores_both_words_with_its_premium() -> None:  # R2.9 (a), R3.5
    game = Game("hasbro", players=["Ann", "Bob"], seed=9, first=0)
    assert played(game, "Ann", "AXEEEEE", "8G AX").score == 18
    assert played(game, "Bob", "IEEEEEE", "H8 .I").score == 9
    give(game, "Ann", "TEEEEEE")
    across = game.check("9G T.")
    down = game.check("G8 .T")
    assert across is not None and down is not None
    assert across.score == down.score == 6
    assert across == down
    event = game.play("G8 .T")
    assert event is not None and event.score == 6
    assert event.breakdown is not None
    assert sorted(words(event.breakdown)) == [("AT", 3), ("TI", 3)]


def test_r2_9b_a_single_tile_word_counts_once() -> None:  # R2.9 (b)
    game = Game("hasbro", players=["Ann", "Bob"], seed=9, first=0)
    assert played(game, "Ann", "FORAAAA", "8G FOR").score == 12
    give(game, "Bob", "EAAAAAA")
    for text in ("8G ...E", "J8 E", "8J E"):
        checked = game.check(text)
        assert checked is not None and checked.score == 7, text
    event = game.play([(7, 9, EN.letter("E"))])
    assert event is not None and event.score == 7
    assert event.breakdown is not None and words(event.breakdown) == [("FORE", 7)]


# -- R3.2–R3.4 premiums --------------------------------------------------------------------


def test_premiums_count_only_under_new_tiles() -> None:  # R3.3
    board = board_with("standard15", "8D QUITE")
    rules = preset("hasbro")
    # E on H8 (DW) and Q on D8 (DL) are already there: face value only
    assert score_play(board, play_on(board, "H8 .AT"), rules) == 3
    assert score_play(board, play_on(board, "D8 .I"), rules) == 11


@pytest.mark.parametrize(
    ("through", "text"),
    [
        ("1B UIXOTR", "1A Q......Y"),  # TW A1 × TW H1; X on D1 (DL) already there
        ("A2 UIXOTR", "A1 Q......Y"),  # the same down column A (TW A1, TW A8)
        ("15B UIXOTR", "15A Q......Y"),  # TW A15 × TW H15
    ],
)
def test_two_triple_words_multiply_to_nine(through: str, text: str) -> None:  # R3.4
    board = board_with("standard15", through)
    breakdown = score_breakdown(board, play_on(board, text), preset("hasbro"))
    word = breakdown.words[0]
    assert EN.format(word.span.tiles) == "QUIXOTRY"
    # Q 10, U I X O T R at face value 1+1+8+1+1+1, Y 4
    assert (word.letter_sum, word.word_multiplier) == (27, 9)
    assert breakdown.total == 243


@pytest.mark.parametrize("position", ["1A", "15A", "A1", "O1"])
def test_three_triple_words_end_to_end_multiply_to_27(position: str) -> None:  # R3.4
    board = Board(layout("standard15"))
    across = position[0].isdigit()
    inner = parse_move(
        (f"{position[:-1]}B" if across else f"{position[0]}2") + " EMISEM.QUAVER", EN
    )
    assert isinstance(inner, Play)
    board.place(inner.placements)
    play = play_on(board, f"{position} D......I......S")
    assert len(play.placements) == 3
    breakdown = score_breakdown(board, play, preset("hasbro"))
    word = breakdown.words[0]
    assert EN.format(word.span.tiles) == "DEMISEMIQUAVERS"
    # D E M I S E M I Q U A V E R S = 2+1+3+1+1+1+3+1+10+1+1+4+1+1+1 = 32; D1/L1 DLs not new
    assert (word.letter_sum, word.word_multiplier) == (32, 27)
    assert breakdown.total == 864


def test_two_double_words_multiply_to_four() -> None:  # R3.4, reference turn 4
    board = board_with("standard15", "8D QUITE", "8A MES.....", "9D INFaNCY")
    breakdown = score_breakdown(board, play_on(board, "E4 RECO..TS"), preset("hasbro"))
    assert breakdown.words[0].word_multiplier == 4


def test_double_and_triple_word_multiply_to_six_after_a_centre_miss() -> None:  # R3.4, R2.6.1
    game = Game("naspa", players=["Ann", "Bob"], seed=4, first=0)
    assert played(game, "Ann", "RETAINS", "8B RETAIN").score == 7  # misses H8; stands
    event = played(game, "Bob", "SSEEEEE", "8A S......S")
    assert event.breakdown is not None
    assert event.breakdown.words[0].word_multiplier == 6
    assert event.score == (1 + 6 + 1) * 6  # RETAIN at face value: D8's DL was used


def test_double_and_two_triple_words_multiply_to_eighteen() -> None:  # R3.4
    board = board_with("standard15", "8B RETAIN", "8I RETAIN")
    breakdown = score_breakdown(board, play_on(board, "8A S......S......S"), preset("hasbro"))
    assert breakdown.words[0].word_multiplier == 18
    assert breakdown.total == (1 + 6 + 1 + 6 + 1) * 18


def test_letter_premiums_come_before_word_premiums() -> None:  # R3.2
    empty = Board(layout("standard15"))
    # Q on D8 (DL) inside a word doubled by H8: (2×10 + 4) × 2, not 2×10 + 4×2
    assert score_play(empty, play_on(empty, "8D QUITE"), preset("hasbro")) == 48


def test_a_tile_in_two_words_takes_its_word_premium_into_both() -> None:  # R3.5
    board = board_with("standard15", "5D A", "E6 I")
    breakdown = score_breakdown(board, play_on(board, "5D .X"), preset("hasbro"))
    assert sorted(words(breakdown)) == [("AX", 18), ("XI", 18)]
    assert breakdown.total == 36


# -- R3.6 blanks ---------------------------------------------------------------------------


def test_blank_on_a_double_word_still_doubles() -> None:  # R3.6
    empty = Board(layout("standard15"))
    breakdown = score_breakdown(empty, play_on(empty, "8H xI"), preset("hasbro"))
    assert (breakdown.words[0].letter_sum, breakdown.words[0].word_multiplier) == (1, 2)
    assert breakdown.total == 2


def test_blank_on_letter_premiums_is_worth_nothing() -> None:  # R3.1, R3.6
    board = board_with("standard15", "8D QUITE")
    rules = preset("hasbro")
    assert score_play(board, play_on(board, "F6 sKI"), rules) == 0 + 5 + 1  # s on F6 (TL)
    assert score_play(board, play_on(board, "F6 SKI"), rules) == 3 + 5 + 1
    board = board_with("standard15", "8D QUITE", "8A MES.....")
    breakdown = score_breakdown(board, play_on(board, "9D INFaNCY"), rules)
    assert ("Ta", 1) in words(breakdown)  # a on G9 (DL): 1 + 2×0


# -- R3.7 bingo ----------------------------------------------------------------------------


def test_bingo_is_added_after_the_multipliers() -> None:  # R3.7
    game = Game("hasbro", players=["Ann", "Bob"], seed=1, first=0)
    event = played(game, "Ann", "RETAINS", "8B RETAINS")
    # R E T(D8 DL) A I N S(H8 DW): (1+1+2+1+1+1+1) × 2 + 50, never (… + 50) × 2
    assert event.score == 16 + 50
    assert event.breakdown is not None and event.breakdown.bingo == 50


def test_emptying_a_short_rack_earns_no_bingo() -> None:  # R3.7
    game = Game("hasbro", players=["Ann", "Bob"], seed=1, first=0)
    give(game, "Ann", "QUITE")
    assert len(game.rack("Ann")) == 5
    event = game.play("8D QUITE")
    assert event is not None and event.score == 48
    assert event.breakdown is not None and event.breakdown.bingo == 0


@pytest.mark.parametrize(
    ("name", "bonuses"),
    [
        ("hasbro", {7: 50}),
        ("naspa", {7: 50}),
        ("wespa", {7: 50}),
        ("super", {7: 50}),
        ("wwf", {7: 35}),
        ("lexulous", {7: 40, 8: 50}),
        ("nine_tile", {7: 50, 8: 50, 9: 50}),
        ("hkcc9", {9: 50}),
    ],
)
def test_bingo_bonus_by_tiles_played(name: str, bonuses: dict[int, int]) -> None:  # R3.7, §10
    rules = preset(name)
    for n in range(1, rules.rack_size + 1):
        assert rules.bingo(n) == bonuses.get(n, 0), (name, n)


# -- variants ------------------------------------------------------------------------------


def test_super_first_play_on_k11() -> None:  # R8.1.1
    game = Game("super", players=["Ann", "Bob"], seed=3, first=0)
    # Q on G11 (2L), E on the K11 star (2W): (20 + 4) × 2
    assert played(game, "Ann", "QUITEAB", "11G QUITE").score == 48


def test_super_quadruple_word_and_quadruple_letter() -> None:  # R8.1.1, R3.2
    empty = Board(layout("super21"))
    rules = preset("super")
    cat = parse_move("1A CAT", EN, empty, rows=21, cols=21)
    assert isinstance(cat, Play)
    assert score_play(empty, cat, rules) == (3 + 1 + 1) * 4  # C on A1 (4W)
    axe = parse_move("3E AXE", EN, empty, rows=21, cols=21)
    assert isinstance(axe, Play)
    assert score_play(empty, axe, rules) == 1 + 8 * 4 + 1  # X on F3 (4L)


def test_super_two_quadruple_words_multiply_to_sixteen() -> None:  # R3.4 Super
    board = board_with("super21", "1B " + "A" * 19, size=21)
    play = parse_move("1A A" + "." * 19 + "A", EN, board)
    assert isinstance(play, Play) and len(play.placements) == 2
    breakdown = score_breakdown(board, play, preset("super"))
    assert breakdown.words[0].word_multiplier == 16
    assert breakdown.total == 21 * 16


def test_wwf_star_has_no_premium_and_bingo_is_35() -> None:  # R8.6
    game = Game("wwf", players=["Ann", "Bob"], seed=1, first=0)
    assert played(game, "Ann", "AXEEEEE", "8G AX").score == 1 + 8
    game = Game("wwf", players=["Ann", "Bob"], seed=1, first=0)
    # WWF values R1 E1 T1 A1 I1 N2 S1; T on D8 (2W); H8 plain: 8 × 2 + 35
    assert played(game, "Ann", "RETAINS", "8B RETAINS").score == 8 * 2 + 35


def test_lexulous_bingos_40_for_seven_and_50_for_eight() -> None:  # R8.7
    game = Game("lexulous", players=["Ann", "Bob"], seed=1, first=0)
    # Lexulous T = 2; H8 is a 2W
    assert played(game, "Ann", "RETAINSE", "8B RETAINS").score == 8 * 2 + 40
    game = Game("lexulous", players=["Ann", "Bob"], seed=1, first=0)
    assert played(game, "Ann", "RETAINED", "8C RETAINED").score == 10 * 2 + 50


def test_nine_tile_bonuses_for_seven_eight_and_nine() -> None:  # R8.2, §10 NINE_TILE
    game = Game("nine_tile", players=["Ann", "Bob"], seed=1, first=0)
    assert played(game, "Ann", "STRAINERS", "8A STRAINERS").score == 10 * 6 + 50
    game = Game("nine_tile", players=["Ann", "Bob"], seed=1, first=0)
    assert played(game, "Ann", "TRAINERSE", "8B TRAINERS").score == 9 * 2 + 50
    game = Game("nine_tile", players=["Ann", "Bob"], seed=1, first=0)
    assert played(game, "Ann", "RETAINSEE", "8B RETAINS").score == 8 * 2 + 50


def test_hkcc9_rewards_only_nine_tiles() -> None:  # R8.2.2
    game = Game("hkcc9", players=["Ann", "Bob"], seed=1, first=0)
    assert played(game, "Ann", "STRAINERS", "8A STRAINERS").score == 10 * 6 + 50
    game = Game("hkcc9", players=["Ann", "Bob"], seed=1, first=0)
    assert played(game, "Ann", "TRAINERSE", "8B TRAINERS").score == 9 * 2
    game = Game("hkcc9", players=["Ann", "Bob"], seed=1, first=0)
    assert played(game, "Ann", "RETAINSEE", "8B RETAINS").score == 8 * 2


def test_score_play_equals_the_breakdown_total() -> None:
    board = board_with("standard15", "8D QUITE", "8A MES.....")
    rules = preset("hasbro")
    for text in ("9D INFaNCY", "H8 .AT", "D8 .I", "F6 sKI"):
        play = play_on(board, text)
        breakdown = score_breakdown(board, play, rules)
        assert score_play(board, play, rules) == breakdown.total
        assert breakdown.total == sum(w.score for w in breakdown.words) + breakdown.bingo
