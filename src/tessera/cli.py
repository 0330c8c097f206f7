"""The ``tessera`` command. Subcommands live beside the code they drive and load lazily.

Exit status: 0 when a command did what was asked; 1 when it ran and the answer is "no" (a
word not valid, a GCG file that does not verify); 2 when it could not do what was asked —
a bad option or argument, a missing or unreadable file, an output path that cannot be
written, malformed input, a busy port. A status-2 failure prints exactly one line on stderr,
``tessera SUBCOMMAND: error: WHAT``, never a traceback or a usage screen: every
:class:`click.ClickException` a subcommand raises (click's own usage errors included) and
every :class:`OSError` is turned into that line here, in one place.
"""

from __future__ import annotations

import errno
import importlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import IO, Any

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
    "tournament": "tessera.events.cli:tournament",
}


PROG = "tessera"
_ARGV = "tessera.argv"  # the command line, kept in the top context's meta


class CommandLineError(click.ClickException):
    """A command could not do what it was asked: one line on stderr, exit status 2."""

    exit_code = 2

    def __init__(self, message: str, command: str = PROG) -> None:
        super().__init__(one_line(message))
        self.command = command

    def format_message(self) -> str:
        return f"{self.command}: error: {self.message}"

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(self.format_message(), file=file, err=file is None)


def one_line(text: str) -> str:
    """``text`` with its lines joined: an error is reported on a single line."""
    return " ".join(part.strip() for part in text.splitlines() if part.strip())


def command_path(group: click.Group, argv: Sequence[str]) -> str:
    """``tessera gcg show`` for ``gcg show --turn 3 x.gcg``: the (sub)commands named on the
    command line, as far as they exist. Groups take no option values, so every word that is
    not an option names the next subcommand until a command that is no group is reached."""
    names = [PROG]
    command: click.Command = group
    for word in argv:
        if not isinstance(command, click.Group):
            break
        if word.startswith("-"):
            continue
        sub = command.get_command(click.Context(command), word)
        if sub is None:
            break
        names.append(word)
        command = sub
    return " ".join(names)


def _message(exc: click.ClickException) -> str:
    no_args = getattr(click.exceptions, "NoArgsIsHelpError", None)
    ctx = getattr(exc, "ctx", None)
    if no_args is not None and isinstance(exc, no_args) and ctx is not None:
        group = ctx.command
        if isinstance(group, click.Group):
            choices = ", ".join(group.list_commands(ctx))
            return f"name a command: {choices} (--help describes them)"
    return exc.format_message()


def _os_message(exc: OSError) -> str:
    what = exc.strerror or str(exc)
    return f"{exc.filename}: {what}" if exc.filename else what


@contextmanager
def _one_line_errors(group: click.Group, argv: Sequence[str]) -> Iterator[None]:
    """Turn a subcommand's click error or OS error into a :class:`CommandLineError`."""
    try:
        yield
    except CommandLineError:
        raise
    except click.ClickException as exc:
        raise CommandLineError(_message(exc), command_path(group, argv)) from None
    except OSError as exc:
        if exc.errno == errno.EPIPE:  # output closed early (| head): click exits quietly
            raise
        raise CommandLineError(_os_message(exc), command_path(group, argv)) from None


class _LazyGroup(click.Group):
    """Imports a subcommand's module only when that subcommand runs (keeps startup quick), and
    reports every failure of a command line as one line with exit status 2."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        argv = list(args)
        with _one_line_errors(self, argv):
            ctx = super().make_context(info_name, args, parent, **extra)
        ctx.meta[_ARGV] = argv
        return ctx

    def invoke(self, ctx: click.Context) -> Any:
        with _one_line_errors(self, ctx.meta.get(_ARGV, ())):
            return super().invoke(ctx)

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
