"""CGP positions: reading, writing, round trips through games, Game.from_position, and one
clear error per kind of bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.randomplay import RejectingLexicon, play_random_game
from tessera.formats import cgp, gcg
from tessera.formats.cgp import CgpError, Position
from tessera.game import Game
from tessera.rules import PRESETS, RulesError
from tessera.tiles import BLANK, as_blank

DATA = Path(__file__).parent / "data"
EMPTY = "/".join(["15"] * 15)
SUPER_EMPTY = "/".join(["21"] * 21)
REFERENCE_BOARD = "/".join(
    ["15"] * 3
    + ["4R10", "4E10", "4C10", "4O10", "MESQUITE7", "3INFaNCY5", "4T10", "4S10"]
    + ["15"] * 4
)


def test_reference_game_position() -> None:
    game = gcg.replay(gcg.load(DATA / "gcg" / "reference_game.gcg"))
    text = cgp.dumps(game)
    board, racks, scores, zeros, *ops = text.split(" ")
    assert board == REFERENCE_BOARD
    assert scores == "136/97" and zeros == "0"
    assert racks == "/".join(game.alphabet.format(game.rack(i).tiles()) for i in (0, 1))
    assert ops == ["lex", "NWL23;", "tr", "naspa;"]
    pos = cgp.loads(text)
    assert pos == Position.from_game(game)
    assert pos.board[7][3] == game.alphabet.letter("Q")
    assert pos.board[8][6] == as_blank(game.alphabet.letter("A"))


def test_player_to_move_comes_first() -> None:
    game = Game("naspa", players=["Ann", "Bob"], seed=5)
    game.play("-")
    pos = Position.from_game(game)
    mover, other = game.to_move, 1 - game.to_move
    assert pos.racks == (tuple(game.rack(mover).tiles()), tuple(game.rack(other).tiles()))
    assert pos.scores == (0, 0) and pos.scoreless_turns == 1
    again = pos.to_game()
    assert again.to_move == 0 and again.rack(0) == game.rack(mover)
    assert again.scoreless_turns == 1


def test_foreign_cgp_with_empty_rack_and_opcodes() -> None:
    text = f"{EMPTY} AEINRST/ 12/-3 2 lex NWL20; ld english; gid abc123; mcnz 6;"
    pos = cgp.loads(text)
    assert pos.racks[1] == () and pos.scores == (12, -3) and pos.scoreless_turns == 2
    assert pos.lexicon == "NWL20" and pos.rules.lexicon == "NWL20"
    assert pos.opcodes == (("gid", ("abc123",)), ("mcnz", ("6",)))
    written = cgp.dumps(pos)
    assert written.endswith("gid abc123; mcnz 6;")
    assert cgp.loads(written) == pos
    game = pos.to_game()
    assert game.bag_count == 100 - 7 and game.scores == [12, -3]


def test_multi_letter_tiles_and_blanks() -> None:
    rules = PRESETS["naspa"].replace(tiles="spanish")
    alphabet = rules.tileset.alphabet
    ch, ll = alphabet.letter("CH"), alphabet.letter("LL")
    game = Game.from_position(
        rules,
        board_tiles=[(7, 6, ch), (7, 7, alphabet.letter("E")), (8, 6, as_blank(ch))],
        racks=[[ll, BLANK, alphabet.letter("Ñ")], []],
        scores=[12, 0],
    )
    text = cgp.dumps(game)
    assert text.split(" ")[0].split("/")[7:9] == ["6[CH]E7", "6[ch]8"]
    assert text.split(" ")[1] == "[LL]Ñ?/"
    assert "ld spanish;" in text
    assert cgp.loads(text) == Position.from_game(game)


def test_super_board_nine_tile_racks_and_four_players() -> None:
    rules = PRESETS["super"]
    alphabet = rules.tileset.alphabet
    game = Game.from_position(
        rules,
        board_tiles=[(10, 20, alphabet.letter("Q")), (20, 0, as_blank(alphabet.letter("Z")))],
        racks=[[1, 2], [3], [], [BLANK]],
        scores=[1, 2, 3, 4],
        to_move=2,
    )
    text = cgp.dumps(game)
    rows = text.split(" ")[0].split("/")
    assert len(rows) == 21 and rows[10] == "20Q" and rows[20] == "z20"
    assert text.split(" ")[1:3] == ["/?/AB/C", "3/4/1/2"]
    assert "bdn SuperCrosswordGame;" in text and "ld english_super;" in text
    assert cgp.loads(text) == Position.from_game(game)
    nine = Game("nine_tile", players=["A", "B"], seed=1)
    pos = cgp.loads(cgp.dumps(nine))
    assert all(len(r) == 9 for r in pos.racks)


CASES = [
    (name, players, seed)
    for name in sorted(PRESETS)
    if name != "duplicate"
    for players, seed in ((("Ann", "Bob"), 3), (("Ann", "Bob", "Cy"), 4))
    if PRESETS[name].min_players <= len(players) <= PRESETS[name].max_players
]


@pytest.mark.parametrize(("name", "players", "seed"), CASES)
def test_positions_of_random_games_round_trip(name: str, players, seed: int) -> None:
    texts: list[str] = []
    steps = iter(range(10_000))

    def record(g: Game, _action: object) -> None:
        if next(steps) % 5 == 0:
            texts.append(cgp.dumps(g))

    game, _ = play_random_game(
        name,
        seed,
        players,
        lexicon=RejectingLexicon(seed),
        max_actions=60,
        pass_after=40,
        on_step=record,
    )
    texts.append(cgp.dumps(game))
    for text in texts:
        pos = cgp.loads(text)
        assert cgp.dumps(pos) == text
        rebuilt = pos.to_game()
        assert Position.from_game(rebuilt) == pos
        census = rebuilt.bag_count + sum(len(r) for r in pos.racks)
        assert census + rebuilt.board.tile_count() == rebuilt.tileset.total
    assert cgp.loads(cgp.dumps(game)) == Position.from_game(game)


def test_from_position_bag_and_errors() -> None:
    rules = PRESETS["naspa"]
    a = rules.tileset.alphabet
    q, z = a.letter("Q"), a.letter("Z")
    game = Game.from_position(
        rules,
        board_tiles=[(7, 7, q)],
        racks=[[z, BLANK], [BLANK]],
        scores=[20, 0],
        to_move=1,
        scoreless_turns=3,
        players=["Ann", "Bob"],
        seed=9,
    )
    assert game.to_move == 1 and game.scoreless_turns == 3 and game.seed == 9
    assert game.bag_count == 100 - 1 - 3
    assert q not in game.bag_tiles() and z not in game.bag_tiles()
    assert BLANK not in game.bag_tiles()
    with pytest.raises(ValueError, match="more tiles than the tile set holds: Q"):
        Game.from_position(rules, board_tiles=[(7, 7, q)], racks=[[q], []], scores=[0, 0])
    with pytest.raises(ValueError, match="given twice"):
        Game.from_position(rules, board_tiles=[(7, 7, q), (7, 7, z)], racks=[[], []], scores=[0, 0])
    with pytest.raises(ValueError, match="at most 7"):
        Game.from_position(rules, board_tiles=[], racks=[[1] * 8, []], scores=[0, 0])
    with pytest.raises(ValueError, match="off the board"):
        Game.from_position(rules, board_tiles=[(15, 0, q)], racks=[[], []], scores=[0, 0])
    with pytest.raises(ValueError, match="need 2 player names and 2 scores"):
        Game.from_position(rules, board_tiles=[], racks=[[], []], scores=[0])


def test_to_game_refuses_a_position_that_does_not_fit() -> None:
    pos = cgp.loads(f"{EMPTY} AEINRST/ 0/0 0")
    three = cgp.loads(f"{EMPTY} A/B/C 0/0/0 0")
    with pytest.raises(CgpError, match=r"does not fit the rules.*2–2 players"):
        three.to_game(rules="naspa")
    bad = Position(pos.rules, pos.board, ((1,) * 8, ()), (0, 0))
    with pytest.raises(CgpError, match="at most 7"):
        bad.to_game()


TOO_MANY_Z = "ZZ13/" + "/".join(["15"] * 14)
BLANKS_ON_BOARD = "ab13/" + "/".join(["15"] * 14)
SPANISH = " 0/0 0 ld spanish;"


def row1(text: str) -> str:
    return text + "/" + "/".join(["15"] * 14)


MALFORMED = [
    ("", "the board is missing"),
    (EMPTY, "the racks is missing"),
    (f"{EMPTY} AEINRST/", "the scores is missing"),
    (f"{EMPTY} AEINRST/ 0/0", "scoreless-turn count is missing"),
    ("/".join(["15"] * 14) + " A/B 0/0 0", "the board has 14 rows"),
    ("/".join(["15"] * 16) + " A/B 0/0 0", "the board has 16 rows"),
    (row1("16") + " A/B 0/0 0", "board row 1 has 16 squares"),
    (row1("14") + " A/B 0/0 0", "board row 1 has 14 squares"),
    (row1("A15") + " A/B 0/0 0", "board row 1 has 16 squares"),
    ("/".join(["15"] * 7 + [""] + ["15"] * 7) + " A/B 0/0 0", "board row 8 is empty"),
    (row1("015") + " A/B 0/0 0", "not a count of empty squares"),
    (row1("?14") + " A/B 0/0 0", "'?' is not a tile"),
    (row1(".14") + " A/B 0/0 0", "'.' is not a tile"),
    (row1("*14") + " A/B 0/0 0", "'*' is not a tile"),
    (row1("Ñ14") + " A/B 0/0 0", "not a tile of the english alphabet"),
    (row1("#14") + " A/B 0/0 0", "'#' at position 1 is not a tile"),
    (row1("[CH14") + " A/B" + SPANISH, "is never closed"),
    (row1("[]14") + " A/B" + SPANISH, "empty brackets"),
    (row1("[XY]14") + " A/B" + SPANISH, "'XY' at position 1 is not a tile"),
    (row1("]14") + " A/B" + SPANISH, "without '['"),
    (row1("[Ch]14") + " A/B" + SPANISH, "mixes upper and lower case"),
    (f"{EMPTY} aeinrst/ 0/0 0", "write a blank on a rack as '?'"),
    (f"{EMPTY} AEIN5ST/ 0/0 0", "rack 1"),
    (f"{EMPTY} AEINRSTU/ 0/0 0", "a rack holds 7"),
    (f"{EMPTY} A/[ch]" + SPANISH, "rack 2"),
    (f"{EMPTY} AÑ/ 0/0 0", "not a tile of the english alphabet"),
    (f"{EMPTY} A/B/C 0/0 0", "3 racks but 2 scores"),
    (f"{EMPTY} A/B 0/0/0 0", "2 racks but 3 scores"),
    (f"{EMPTY} AB 0 0", "1 racks: the rules (naspa) take 2–2 players"),
    (f"{EMPTY} A/B/C/D/E 0/0/0/0/0 0", "5 racks: the rules (naspa) take 2–4 players"),
    (f"{EMPTY} A/B/C 0/0/0 0 tr naspa;", "3 racks: the rules (naspa) take 2–2 players"),
    (f"{EMPTY} A/B x/0 0", "score 1 'x' is not a whole number"),
    (f"{EMPTY} A/B 0/+5 0", "score 2 '+5' is not a whole number"),
    (f"{EMPTY} A/B 5.0/0 0", "score 1 '5.0' is not a whole number"),
    (f"{EMPTY} A/B 0/0 -1", "scoreless-turn count '-1'"),
    (f"{EMPTY} A/B 0/0 six", "scoreless-turn count 'six'"),
    (f"{TOO_MANY_Z} A/B 0/0 0", "2 × Z on the board and racks; the english set has 1"),
    (f"{EMPTY} ???/B 0/0 0", "3 × blank on the board and racks; the english set has 2"),
    (f"{BLANKS_ON_BOARD} ?/B 0/0 0", "3 × blank"),
    (f"{EMPTY} A/B 0/0 0 lex NWL20", "must end with ';'"),
    (f"{EMPTY} A/B 0/0 0 lex NWL20;;", "empty opcode"),
    (f"{EMPTY} A/B 0/0 0 LEX NWL20;", "is not an opcode name"),
    (f"{EMPTY} A/B 0/0 0 lex A; lex B;", "given twice"),
    (f"{EMPTY} A/B 0/0 0 lex;", "takes exactly one operand, not 0"),
    (f"{EMPTY} A/B 0/0 0 lex A B;", "takes exactly one operand, not 2"),
    (f"{EMPTY} A/B 0/0 0 ld klingon;", "unknown tile distribution"),
    (f"{EMPTY} A/B 0/0 0 bdn Hexagon;", "unknown board layout"),
    (f"{EMPTY} A/B 0/0 0 var chess;", "unknown variant"),
    (f"{EMPTY} A/B 0/0 0 tr nonesuch;", "no rules preset"),
    (f"{EMPTY} A/B 0/0 0 tr;", "needs a rules preset name"),
    (f"{EMPTY} A/B 0/0 0 tr naspa {{x;", "not valid JSON"),
    (f'{EMPTY} A/B 0/0 0 tr naspa {{"colour":1}};', "unknown rules field"),
    (f"{EMPTY} A/B 0/0 0 ld french; tr naspa;", "contradicts the rules' tile set"),
    (f"{EMPTY} A/B 0/0 0 bdn SuperCrosswordGame; tr naspa;", "contradicts the rules' board"),
    (f"{EMPTY} A/B 0/0 0 bdn SuperCrosswordGame;", "the super21 board has 21"),
    (f"{SUPER_EMPTY} A/B 0/0 0", "the board has 21 rows; the standard15 board has 15"),
    (f"{EMPTY} ABCDEFGHIJ/B 0/0 0 tr nine_tile;", "a rack holds 9"),
]


@pytest.mark.parametrize(("text", "fragment"), MALFORMED)
def test_bad_cgp_names_the_problem(text: str, fragment: str) -> None:
    with pytest.raises(CgpError) as err:
        cgp.loads(text)
    assert isinstance(err.value, ValueError)
    assert fragment in str(err.value), str(err.value)


def test_bad_cgp_count_and_non_text() -> None:
    assert len({t for t, _ in MALFORMED}) >= 50
    with pytest.raises(CgpError, match="must be text"):
        cgp.loads(b"15/15 A/B 0/0 0")  # type: ignore[arg-type]


def test_rules_errors_are_value_errors() -> None:
    assert issubclass(CgpError, ValueError) and issubclass(RulesError, ValueError)


# -- issue 9, item 8: every count is bounded before it is used ---------------------------------

ROW_REST = "/".join(["15"] * 14)
HUGE = [
    # a 56-byte CGP whose first run once made `tessera moves` allocate gigabytes
    (f"300000000/{ROW_REST} AB/CD 0/0 0", "board row 1: a run of 300000000 empty squares"),
    # 19 digits: once an OverflowError (or MemoryError) traceback
    (f"1234567890123456789/{ROW_REST} AB/CD 0/0 0", "board row 1: a run of"),
    (f"99999999999999999999999/{ROW_REST} AB/CD 0/0 0", "is longer than the 15-column board"),
    (f"7A9999999/{ROW_REST} AB/CD 0/0 0", "board row 1: a run of 9999999"),
    (f"{EMPTY} AB/CD {'9' * 5000}/0 0", "score 1 999999999999999999999999… (5,000 characters)"),
    (f"{EMPTY} AB/CD 0/-{'9' * 12} 0", "score 2 -999999999999 has more than 9 digits"),
    (f"{EMPTY} AB/CD 0/0 {'9' * 5000}", "the scoreless-turn count 9999"),
    (f"{EMPTY} AB/CD 0/0 1000", "the scoreless-turn count 1000 is more than 999"),
    (f'{EMPTY} AB/CD 0/0 0 tr naspa {{"rack_size":{"9" * 5000}}};', "tr: rule overrides are"),
    (f'{EMPTY} AB/CD 0/0 0 tr naspa {"[" * 8000};', "tr: rule overrides are not usable"),
    (f'{EMPTY} AB/CD 0/0 0 tr naspa {{"x":"{"y" * 9000}"}};', "tr: rule overrides of 9,"),
    (f"{EMPTY} AB/CD 0/0 0 lex {'x' * 20_000};", "CGP of 20,"),
]


@pytest.mark.parametrize(("text", "fragment"), HUGE)
def test_counts_are_bounded_before_use(text: str, fragment: str) -> None:
    import tracemalloc

    tracemalloc.start()
    try:
        with pytest.raises(CgpError) as info:
            cgp.loads(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert fragment in str(info.value)
    assert len(str(info.value)) < 200  # an excerpt of the field, never the field
    assert peak < 4 * len(text) + (1 << 20)  # no allocation beyond the input's own size

