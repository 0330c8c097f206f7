"""Multi-letter tiles typed at the ``tessera play`` prompt: a Hungarian or Spanish word list
plays with its own tiles, and a typed word's letters become the tiles the rack holds (the CS
tile, or C and S from a rack without it)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from support.languages import build_small_lexicon
from tessera.cli import main
from tessera.game import Game
from tessera.lexicon import Lexicon
from tessera.rules import preset
from tessera.tiles import BLANK
from tessera.tui.app import PlayApp, Seat

SEATS = [Seat("Ann"), Seat("Bob")]


@pytest.fixture(scope="module")
def lexicons(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("lexicons")
    for name in ("hu", "es"):
        build_small_lexicon(folder, name)
    return folder


def game_with_rack(lexicon: Lexicon, rack: list[str]) -> Game:
    """A casual game with the list's own tiles, Ann to move with ``rack`` (labels)."""
    rules = preset("casual").for_alphabet(lexicon.alphabet)
    game = Game(rules=rules, lexicon=lexicon, players=["Ann", "Bob"], seed=5, first=0)
    alphabet = game.alphabet
    game.set_rack("Ann", [BLANK if t == "?" else alphabet.letter(t) for t in rack])
    return game


def play_one(game: Game, line: str) -> str:
    """Ann takes the terminal and types ``line``; then the input ends."""
    out = io.StringIO()
    lines = ["", line]
    console = Console(file=out, width=120, color_system=None, highlight=False)

    def read(prompt: str) -> str:
        out.write(prompt)
        if not lines:
            raise EOFError
        return lines.pop(0)

    PlayApp(game, SEATS, console=console, read_line=read).run()
    return out.getvalue()


def square(game: Game, row: int, col: int) -> str:
    return game.alphabet.label(game.board.get(row, col))


@pytest.mark.parametrize(
    ("name", "rack", "typed", "tiles", "score"),
    [
        # CS 7, Ó 2, K 1 on the centre's double word square
        ("hu", ["CS", "Ó", "K", "A", "E", "I", "O"], "8H CSÓK", ["CS", "Ó", "K"], 20),
        # no CS tile: C 5 and S 1 (the list keeps C·S·Ó·K, every Hungarian spelling)
        ("hu", ["C", "S", "Ó", "K", "A", "E", "I"], "8H CSÓK", ["C", "S", "Ó", "K"], 18),
        # both: the CS tile, as the letters are read longest first
        ("hu", ["CS", "C", "S", "Ó", "K", "A", "E"], "8H CSÓK", ["CS", "Ó", "K"], 20),
        # a blank typed as cs scores nothing
        ("hu", ["?", "S", "Ó", "K", "A", "E", "I"], "8H csÓK", ["cs", "Ó", "K"], 6),
        # CH 5, I 1, C 3, O 1; LL 8, A 1, M 3
        ("es", ["CH", "I", "C", "O", "A", "E", "U"], "8H CHICO", ["CH", "I", "C", "O"], 20),
        ("es", ["LL", "A", "M", "A", "E", "I", "O"], "8H LLAMA", ["LL", "A", "M", "A"], 26),
    ],
)
def test_typed_digraphs_land_as_the_racks_tiles_and_score_as_the_tile_set_says(
    lexicons: Path, name: str, rack: list[str], typed: str, tiles: list[str], score: int
) -> None:
    lexicon = Lexicon.load(lexicons / f"{name}.kwg")
    game = game_with_rack(lexicon, rack)
    text = play_one(game, typed)
    assert f"Ann played {typed} for {score}" in text, text
    assert [square(game, 7, 7 + i) for i in range(len(tiles))] == tiles
    assert game.scores[0] == score


def test_the_terminal_game_plays_a_hungarian_list_with_hungarian_tiles(lexicons: Path) -> None:
    result = CliRunner().invoke(
        main,
        ["play", "--lexicon", str(lexicons / "hu.kwg"), "--players", "Ann,Bob", "--seed", "3"],
        input="\nquit\nn\n",
        env={"COLUMNS": "120"},
    )
    assert result.exit_code == 0, result.output  # not refused for English rules' tiles
    assert "Ann's rack:" in result.output
