"""Option and argument types, and the helpers for CGP positions, shared by the ``tessera``
subcommands.

Each type checks its value while the command line is parsed, before any work starts, so a bad
value fails in a second with one line (``tessera``'s top level prints it and exits with
status 2) instead of after a long run or with a traceback. :func:`position_lexicon` loads the
word list of a CGP position and :func:`describe` writes a move as the listings print it
(``tessera moves``, ``tessera endgame``).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from .move import Exchange, Move, Play

if TYPE_CHECKING:
    from .lexicon import Lexicon


class OutputFile(click.Path):
    """A file the command will write: not a directory, in a directory that exists and may be
    written to (the file itself may be new)."""

    def __init__(self) -> None:
        super().__init__(dir_okay=False, writable=True, path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        path = Path(super().convert(value, param, ctx))
        folder = path.parent
        if not folder.exists():
            self.fail(f"no such directory: {folder}", param, ctx)
        if not folder.is_dir():
            self.fail(f"not a directory: {folder}", param, ctx)
        if not os.access(folder, os.W_OK | os.X_OK):
            self.fail(f"cannot write in {folder}: permission denied", param, ctx)
        return path


class OutputDirectory(click.Path):
    """A directory the command will write into: an existing directory, or a new one whose
    parent exists."""

    def __init__(self) -> None:
        super().__init__(file_okay=False, writable=True)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        path = super().convert(value, param, ctx)
        parent = Path(path).parent
        if not Path(path).exists() and not parent.is_dir():
            self.fail(f"no such directory: {parent}", param, ctx)
        return path


class FloatRange(click.FloatRange):
    """click's float range that also refuses ``nan``, which every bound lets through."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if math.isnan(number):
            self.fail(f"{value!r} is not a number", param, ctx)
        return number


class RulesPreset(click.ParamType):
    """The name of a rules preset (``naspa``, ``casual``, …), kept as given."""

    name = "preset"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from .rules import RulesError, preset

        try:
            preset(value)
        except RulesError as exc:
            self.fail(str(exc), param, ctx)
        return value


class LexiconSpec(click.ParamType):
    """A word list: a shipped name, a name in the lexicon directory, or a .txt/.kwg path. Only
    that it exists is checked here; its content is checked when it is loaded."""

    name = "lexicon"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from .lexicon.errors import UnknownLexicon
        from .lexicon.lexicon import locate

        try:
            locate(value)
        except UnknownLexicon as exc:
            self.fail(str(exc), param, ctx)
        return value


def position_lexicon(position: object, lexicon_name: str | None) -> Lexicon:
    """The word list for a CGP position: ``--lexicon`` if given, else the position's ``lex``
    opcode, else ENABLE; a click usage error when it cannot be loaded."""
    from .lexicon import Lexicon, LexiconError, UnknownLexicon

    rules = position.rules  # type: ignore[attr-defined]
    named = position.lexicon  # type: ignore[attr-defined]
    name = lexicon_name or named or "enable"
    try:
        return Lexicon.load(name, alphabet=rules.tileset.alphabet)
    except LexiconError as exc:
        if lexicon_name is None and named and name != "enable":
            raise click.ClickException(
                f"the position's lexicon {name!r} is not available ({exc}); "
                "name one with --lexicon"
            ) from None
        if isinstance(exc, UnknownLexicon):  # the option names nothing: a usage error
            raise click.BadParameter(str(exc), param_hint="--lexicon") from None
        raise click.ClickException(f"--lexicon: {exc}") from None


def describe(move: Move, alphabet: object) -> str:
    """A move in GCG notation (``8D QUITE``, ``-ABC``, ``-``)."""
    if isinstance(move, Play | Exchange):
        return move.gcg(alphabet)  # type: ignore[arg-type]
    return "-"


__all__ = [
    "FloatRange",
    "LexiconSpec",
    "OutputDirectory",
    "OutputFile",
    "RulesPreset",
    "describe",
    "position_lexicon",
]


T = TypeVar("T")


def progress_bar(total: int, label: str, quiet: bool):  # type: ignore[no-untyped-def]
    """A rich progress bar on stderr (None when quiet), and the function advancing it by n."""
    if quiet:
        return None, (lambda n: None)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    progress = Progress(
        f"[bold]{label}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = progress.add_task(label, total=total)
    return progress, (lambda n: progress.advance(task, n))


def shown(progress: Any, job: Callable[[], T]) -> T:
    """``job()``, with the progress bar on screen while it runs (when there is one)."""
    if progress is None:
        return job()
    with progress:
        return job()
