"""The leave tables shipped in ``data/leaves``, one per kind of game, and which one a game uses.

A leave's value depends on the tiles in the bag, the rack's size and the board, so a table is
trained for one tile set, rack size and board (``tables.json`` lists them with the lexicon
and preset they were trained with; ``TRAINING.md`` has each one's record). A game takes the
table of its own tile set, rack size and board; failing that, the table of its tile set with
the nearest rack size (a table's values are still far better than none for a variant of the
same tiles); a tile set with no table plays with zero leaves.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from tessera.lexicon import Leaves, Lexicon
from tessera.rules import Rules, preset


@dataclass(frozen=True)
class ShippedTable:
    file: str
    tiles: str  # tile set name
    rack_size: int
    board: str  # layout name
    lexicon: str  # what it was trained with
    rules: str  # the preset it was trained under


@cache
def shipped_tables() -> tuple[ShippedTable, ...]:
    """Every shipped table, as ``data/leaves/tables.json`` lists them."""
    ref = resources.files("tessera.data").joinpath("leaves", "tables.json")
    return tuple(ShippedTable(**entry) for entry in json.loads(ref.read_text("utf-8")))


@cache
def load_table(file: str) -> Leaves:
    """A shipped table by file name (loaded once per process)."""
    if file not in {t.file for t in shipped_tables()}:
        raise KeyError(f"no shipped leave table {file!r}")
    ref = resources.files("tessera.data").joinpath("leaves", file)
    with resources.as_file(ref) as path:
        return Leaves.load(path)


def table_for(rules: Rules) -> ShippedTable | None:
    """The shipped table a game under ``rules`` plays with (see the module docstring)."""
    same_tiles = [t for t in shipped_tables() if t.tiles == rules.tiles]
    for t in same_tiles:
        if t.rack_size == rules.rack_size and t.board == rules.board:
            return t
    if not same_tiles:
        return None
    return min(
        same_tiles, key=lambda t: (abs(t.rack_size - rules.rack_size), t.board != rules.board)
    )


def trained_leaves(lexicon: Lexicon, rules: Rules | None = None) -> Leaves | None:
    """The shipped leaves for a game with ``lexicon`` under ``rules`` (default: the standard
    game, played with the tiles of the lexicon's language), or None when no table fits."""
    game = (rules or preset("wespa")).for_alphabet(lexicon.alphabet)
    if tuple(game.tileset.alphabet.labels) != tuple(lexicon.alphabet.labels):
        return None  # tiles that cannot spell the list: no table describes that game
    found = table_for(game)
    return load_table(found.file) if found else None
