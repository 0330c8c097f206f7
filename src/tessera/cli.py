"""The ``tessera`` command. Subcommands live beside the code they drive and load lazily."""

from __future__ import annotations

import importlib

import click

# name -> "module:attribute" of a click command or group
SUBCOMMANDS: dict[str, str] = {
    "moves": "tessera.movegen_cli:moves",
    "gcg": "tessera.formats.cli:gcg",
    "words": "tessera.lexicon.cli:words",
    "lexicon": "tessera.lexicon.cli:lexicon",
    "play": "tessera.tui.cli:play",
    "serve": "tessera.server.cli:serve",
    "render": "tessera.render.cli:render",
    "autoplay": "tessera.engine.cli:autoplay",
    "leaves": "tessera.engine.cli:leaves",
    "analyze": "tessera.engine.cli:analyze",
    "endgame": "tessera.engine.endgame_cli:endgame",
    "sim": "tessera.engine.sim_cli:sim",
    "winpct": "tessera.engine.sim_cli:winpct",
}


class _LazyGroup(click.Group):
    """Imports a subcommand's module only when that subcommand runs (keeps startup quick)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(SUBCOMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = SUBCOMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        return getattr(importlib.import_module(module_name), attr)


@click.group(cls=_LazyGroup)
@click.version_option(package_name="tessera")
def main() -> None:
    """Tessera: the crossword board game — rules engine, word lists, computer players, apps."""
