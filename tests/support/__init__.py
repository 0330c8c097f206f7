"""Helpers shared by the game-flow tests: random legal play, fake word lists, state snapshots."""

from __future__ import annotations

from collections.abc import Sequence

from tessera.game import Game
from tessera.rules import Rules, preset

NAMES = ("Ann", "Bob", "Cy", "Di")


def make_game(
    rules: Rules | str = "naspa",
    racks: Sequence[str] = (),
    *,
    players: int = 2,
    first: int = 0,
    seed: int = 1,
    lexicon: object | None = None,
    **changes: object,
) -> Game:
    """A game with a fixed first player and known racks (``racks[i]`` for player ``i``;
    players without one get the first tiles of the sorted bag).

    ``changes`` are Rules fields to override on the preset.
    """
    r = preset(rules)
    if changes:
        r = r.replace(**changes)
    game = Game(r, lexicon=lexicon, players=NAMES[:players], seed=seed, first=first)  # type: ignore[arg-type]
    if racks:
        given = [i for i, rack in enumerate(racks) if rack is not None]
        for i in range(players):
            game.set_rack(i, "")  # everything back to the bag first
        for i in given:
            game.set_rack(i, racks[i])  # type: ignore[arg-type]
        for i in range(players):
            if i not in given:
                game.set_rack(i, game.bag_tiles()[: game.rules.rack_size])
    return game


def give(game: Game, player: str, rack: str) -> None:
    """Give ``player`` this rack whatever was dealt: the others' racks go back to the bag."""
    for name in game.players:
        if name != player:
            game.set_rack(name, "")
    game.set_rack(player, rack)


def text(game: Game, tiles: Sequence[int]) -> str:
    return game.alphabet.format(tiles)


def rack_text(game: Game, player: int) -> str:
    return game.alphabet.format(game.rack(player).tiles())
