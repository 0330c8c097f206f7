"""The shipped leave tables (tessera.engine.shipped_leaves): every table the manifest lists is
there and values every leave its tile set allows up to its size; every preset a bot plays
finds a table trained for its own tiles, rack and board; national lists play with their
language's table; and players use the table of the game in front of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.languages import build_small_lexicon
from tessera.engine.players import StaticPlayer
from tessera.engine.registry import get_player
from tessera.engine.shipped_leaves import load_table, shipped_tables, table_for, trained_leaves
from tessera.engine.training import all_leaves
from tessera.game import Game
from tessera.lexicon import Lexicon
from tessera.rules import PRESETS, preset
from tessera.tiles import tileset

NO_LEAVES = {"duplicate"}  # the master move is the top score: duplicate computers rank by it

TABLES = {t.file: t for t in shipped_tables()}


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return Lexicon.load("enable")


def leaves_up_to(counts: list[int], size: int) -> int:
    """How many leaves of 1..size tiles the tile counts allow (multisets, by counting)."""
    ways = [1] + [0] * size  # ways[k]: multisets of k tiles of the kinds seen so far
    for n in counts:
        ways = [sum(ways[k - j] for j in range(min(n, k) + 1)) for k in range(size + 1)]
    return sum(ways[1:])


def test_leaves_are_counted_as_training_lists_them() -> None:
    counts = list(tileset("italian").counts)
    assert [leaves_up_to(counts, k) for k in (2, 3)] == [len(all_leaves(counts, k)) for k in (2, 3)]


@pytest.mark.parametrize("file", sorted(TABLES))
def test_a_listed_table_values_every_leave_its_tiles_allow(file: str) -> None:
    entry = TABLES[file]
    table = load_table(file)
    counts = list(tileset(entry.tiles).counts)
    sizes = [k for k in (5, 6) if len(table) == leaves_up_to(counts, k)]
    assert sizes, f"{file}: {len(table)} leaves, not every leave of 1-5 or 1-6 tiles"
    assert sizes[0] <= entry.rack_size - 1
    assert preset(entry.rules)  # a real preset, and its game uses this very table
    game = preset(entry.rules).replace(tiles=entry.tiles)
    assert table_for(game) == entry


@pytest.mark.parametrize("name", sorted(set(PRESETS) - NO_LEAVES))
def test_every_preset_a_bot_plays_has_a_table_of_its_own_tiles_rack_and_board(name: str) -> None:
    rules = preset(name)
    found = table_for(rules)
    assert found is not None, f"{name}: no shipped leaves for {rules.tiles}/{rules.rack_size}"
    assert (found.tiles, found.rack_size, found.board) == (
        rules.tiles, rules.rack_size, rules.board
    )


@pytest.mark.parametrize("language", ["hu", "es"])
def test_a_national_list_plays_with_its_languages_table(language: str, tmp_path: Path) -> None:
    lexicon = Lexicon.load(build_small_lexicon(tmp_path, language))
    table = trained_leaves(lexicon)
    expected = next(t for t in shipped_tables() if t.tiles == lexicon.alphabet.name)
    assert table is load_table(expected.file)
    player = StaticPlayer(lexicon)
    rules = preset("casual").for_alphabet(lexicon.alphabet)
    assert player.leaves_for(rules) is table
    assert StaticPlayer(lexicon, leaves=None).leaves_for(rules) is None


def test_a_player_values_leaves_with_the_table_of_the_game_it_plays(lexicon: Lexicon) -> None:
    player = get_player("static", lexicon)
    standard = player.leaves_for(preset("naspa"))
    super_table = player.leaves_for(preset("super"))
    nine = player.leaves_for(preset("nine_tile"))
    assert standard is load_table("enable.klv2")
    assert len({id(standard), id(super_table), id(nine)}) == 3
    # the compiled ranking uses it: under Super a position ranks with Super's values
    view = Game(preset("super"), lexicon=lexicon, players=["A", "B"], seed=5).view("A")
    equities = [r.equity for r in player.ranked(view, top=20)]
    assert equities == [r.equity for r in StaticPlayer(lexicon, super_table).ranked(view, top=20)]
    assert equities != [r.equity for r in StaticPlayer(lexicon, standard).ranked(view, top=20)]
