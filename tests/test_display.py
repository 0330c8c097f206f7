"""What a player reads: the repr and str of every public value, and the notebook forms.

Tiles print as letters through one function, ``Alphabet.text`` (CH·U·RR·O, blanks in lower
case); moves print in GCG notation and read back with ``Play.from_gcg``.
"""

from __future__ import annotations

import pickle
import xml.etree.ElementTree as ET

import pytest

import tessera
from tessera import (
    Board,
    Challenge,
    Exchange,
    Game,
    GameResult,
    Lexicon,
    Pass,
    Play,
    Rack,
    layout,
    parse_move,
    tileset,
)
from tessera.game import EndReason
from tessera.tiles import Tiles

ENGLISH = tileset("english").alphabet
SPANISH = tileset("spanish").alphabet


@pytest.fixture
def game() -> Game:
    """The README's tour: Ann plays QUITE for 48."""
    game = Game(rules="naspa", players=["Ann", "Bob"], seed=7, first=0)
    game.set_rack("Ann", "QUITEAB")
    game.play("8D QUITE")
    return game


@pytest.fixture(scope="module")
def enable() -> Lexicon:
    return Lexicon.load("enable")


def test_tiles_print_as_letters_with_dots_only_where_labels_have_several_letters() -> None:
    churro = SPANISH.parse("CHURRO")
    assert repr(churro) == "Tiles('CH·U·RR·O')"
    assert str(churro) == "CH·U·RR·O"
    assert SPANISH.text(SPANISH.parse("C?ch")) == "C·?·ch"  # C·H is two tiles, CH one
    assert ENGLISH.text(ENGLISH.parse("QUITe?")) == "QUITe?"
    assert ENGLISH.text([]) == ""


def test_tiles_stay_a_list_of_tile_ids() -> None:
    churro = SPANISH.parse("CHURRO")
    assert churro == [SPANISH.letter(x) for x in ("CH", "U", "RR", "O")]
    assert isinstance(churro, list)
    again = pickle.loads(pickle.dumps(churro))
    assert again == churro and repr(again) == "Tiles('CH·U·RR·O')"
    assert repr(Tiles([1, 2], ENGLISH)) == "Tiles('AB')"


def test_alphabet_and_tile_set_reprs_are_short() -> None:
    assert repr(ENGLISH) == "Alphabet('english', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')"
    assert repr(SPANISH).startswith("Alphabet('spanish', 'A·B·C·CH·D·")
    assert repr(tileset("english")) == "<TileSet english: 100 tiles, 2 blanks>"


def test_rack_prints_its_letters_blanks_last() -> None:
    rack = Rack.from_text(ENGLISH, "?QUITEA")
    assert repr(rack) == "Rack('AEIQTU?')"
    assert str(rack) == "AEIQTU?"
    assert repr(Rack(ENGLISH.size, [1, 0])) == "Rack([1, 0])"  # no alphabet: tile ids


def test_play_repr_is_its_gcg_notation_and_score_and_reads_back() -> None:
    play = Play.from_gcg("8D QUITE", ENGLISH)
    assert repr(play) == "Play('8D QUITE')"
    assert repr(play.with_score(48)) == "Play('8D QUITE', score=48)"
    assert str(play.with_score(48)) == "8D QUITE"
    through = Play.from_gcg("H4 FA.Ed", ENGLISH)
    assert str(through) == "H4 FA.Ed"
    assert Play.from_gcg(str(through), ENGLISH) == through
    assert Play.from_gcg(through.gcg(), ENGLISH).word == through.word
    with pytest.raises(tessera.move.NotationError, match="not a play"):
        Play.from_gcg("-ABC", ENGLISH)


def test_a_play_without_its_alphabet_shows_tile_ids_not_wrong_letters() -> None:
    play = Play(7, 3, True, (17, 21), 22)
    assert repr(play) == "Play(row=7, col=3, across=True, word=(17, 21), score=22)"
    assert str(play) == "8D [17, 21]"
    with pytest.raises(ValueError, match="does not know its alphabet"):
        play.gcg()
    assert play.gcg(ENGLISH) == "8D QU"


def test_exchange_pass_and_challenge() -> None:
    exchange = parse_move("-QV?", ENGLISH)
    assert repr(exchange) == "Exchange('-QV?')"
    assert str(exchange) == "-QV?"
    assert repr(Exchange(count=3)) == "Exchange('-3')"
    assert repr(Exchange((17, 22))) == "Exchange(tiles=(17, 22))"
    assert (repr(Pass()), str(Pass())) == ("Pass()", "pass")
    assert parse_move(str(Pass()), ENGLISH) == Pass()
    assert (repr(Challenge()), str(Challenge())) == ("Challenge()", "challenge")


def test_events_read_as_a_score_sheet(game: Game) -> None:
    (play,) = game.history
    assert repr(play) == (
        "Event('play', player=0, move='8D QUITE', rack='ABEIQTU', score=48, total=48, "
        "words=['QUITE'])"
    )
    assert str(play) == "player 0: 8D QUITE +48 = 48"
    exchange = game.exchange(list(game.rack("Bob"))[:2])
    assert repr(exchange) == (
        "Event('exchange', player=1, move='-AA', rack='AACFLRT', score=0, total=0)"
    )
    # Ann's view hides Bob's rack and the exchanged tiles
    assert repr(game.view("Ann").history[-1]) == (
        "Event('exchange', player=1, move='-2', score=0, total=0)"
    )
    passed = game.pass_turn()
    assert str(passed) == "player 0: pass +0 = 48"


def test_game_result_names_reason_scores_and_winners() -> None:
    result = GameResult(EndReason.PLAYED_OUT, (412, 388), (0,))
    assert repr(result) == "GameResult('played_out', scores=(412, 388), winners=(0,))"
    assert str(result) == "player 0 wins 412–388 (played out)"
    tie = GameResult(EndReason.SCORELESS_TURNS, (300, 300), (0, 1))
    assert str(tie) == "tie between players 0 and 1 300–300 (scoreless turns)"
    resigned = GameResult(EndReason.RESIGNED, (10, 40), (0,), loser=1)
    assert repr(resigned).endswith("winners=(0,), loser=1)")


def test_board_str_is_a_text_board_with_coordinates(game: Game) -> None:
    lines = str(game.board).splitlines()
    assert lines[0].split() == list("ABCDEFGHIJKLMNO")
    assert lines[-1] == lines[0]
    assert lines[8].split() == ["8", "3W", ".", ".", "Q", "U", "I", "T", "E", ".", ".", ".",
                                "2L", ".", ".", "3W", "8"]
    assert repr(game.board) == "<Board standard15 15×15: 5 tiles>"
    bare = Board(layout("standard15"))
    bare.set(7, 7, 17)
    assert " 17 " in str(bare)  # no tile set: ids, never guessed letters


def test_player_view_and_game(game: Game) -> None:
    view = game.view("Bob")
    assert repr(view) == (
        "<PlayerView Bob (naspa) rack='AACFLRT' scores=(48, 0) to_move='Bob' bag=81 "
        "state=playing>"
    )
    assert str(view).splitlines()[-2:] == ["  Ann    48", "> Bob     0  AACFLRT"]
    assert "rack" not in repr(game.spectator_view())
    assert repr(game) == "<Game naspa ['Ann', 'Bob'] scores=[48, 0] to_move=1 state=playing>"
    assert str(game).splitlines()[-2:] == ["  Ann    48  ABDDIOP", "> Bob     0  AACFLRT"]


def test_notebooks_show_boards_as_svg(game: Game) -> None:
    for shown in (game, game.board, game.view("Ann")):
        svg = shown._repr_svg_()
        assert svg is not None
        root = ET.fromstring(svg)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
        assert "Q" in texts and "10" in texts  # the Q tile and its value
    assert Board(layout("standard15"))._repr_svg_() is None  # no tile set: Jupyter shows text


def test_move_lists_show_as_text_and_as_an_html_table(enable: Lexicon) -> None:
    game = Game(rules="naspa", lexicon=enable, players=["Ann", "Bob"], seed=7, first=0)
    game.set_rack("Ann", "QUITEAB")
    moves = game.legal_moves()
    best = moves[0]
    assert repr(moves) == f"<MoveList: {len(moves)} moves, best {best}>"
    assert repr(best).startswith("Play('") and best.score is not None
    html = moves._repr_html_()
    root = ET.fromstring(html)
    rows = root.findall("./tbody/tr")
    assert [th.text for th in root.findall("./thead/tr/th")] == ["#", "move", "score", "equity"]
    assert len(rows) == 51  # the best 50 and a line for the rest
    first = rows[0].findall("td")
    assert first[1].find("code").text == str(best)
    assert first[2].text == str(best.score)
    assert rows[-1].find("td").text == f"… {len(moves) - 50} more"


def test_a_computer_players_move_prints_in_notation(enable: Lexicon) -> None:
    from tessera.engine import StaticPlayer

    game = Game(rules="naspa", lexicon=enable, players=["Ann", "Bob"], seed=7, first=0)
    game.set_rack("Ann", "QUITEAB")
    move = StaticPlayer(enable).choose(game.view(game.to_move))
    assert isinstance(move, Play)
    assert repr(move) == f"Play({move.gcg()!r}, score={move.score})"
    assert parse_move(str(move), ENGLISH) == move
