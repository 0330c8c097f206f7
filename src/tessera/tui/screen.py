"""What both terminal apps (the game and duplicate) print with: lines, errors, and a wipe of
the screen and its scroll-back between people sharing it."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.table import Table
from rich.text import Text


class Screen:
    """A mixin for an app with a Rich ``console``."""

    console: Console

    def _say(self, text: str, style: str = "") -> None:
        self.console.print(Text(text, style=style))

    def _error(self, text: str) -> None:
        self.console.print(Text(text, style="bold red"))

    def _clear(self) -> None:
        """Wipe the screen and the scroll-back, so what the last person typed or saw (a
        rack, a play) cannot be scrolled back to."""
        if self.console.is_terminal:
            self.console.file.write("\x1b[H\x1b[2J\x1b[3J")
            self.console.file.flush()
        else:
            self.console.print("\n" * 3)

    def _print_help(self, rows: Iterable[tuple[str, str]]) -> None:
        """The commands, each with what it does."""
        table = Table.grid(padding=(0, 3))
        table.add_column(style="bold")
        table.add_column(overflow="fold")  # Japanese has no spaces to wrap at: fold, never cut
        for syntax, what in rows:
            table.add_row(syntax, what)
        self.console.print(table)
