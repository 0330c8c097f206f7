"""``tessera gcg``: check GCG files (``verify``) and show their boards (``show``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from ..cliargs import LexiconSpec, RulesPreset
from ..rules import Rules, RulesError, preset
from . import gcg as gcg_format
from .gcg import TURN_LINES, GcgError


def _rules(value: str | None) -> Rules | None:
    if value is None:
        return None
    try:
        return preset(value)
    except RulesError as exc:
        raise click.BadParameter(str(exc), param_hint="--rules") from None


def _lexicon(name: str | None) -> Any:
    if name is None:
        return None
    try:
        from ..lexicon import Lexicon
    except ImportError as exc:  # pragma: no cover - depends on the build
        raise click.ClickException(f"--lexicon: word lists are not available: {exc}") from None
    from ..lexicon import UnknownLexicon

    try:
        return Lexicon.load(name)
    except UnknownLexicon as exc:  # the option names nothing: a usage error
        raise click.BadParameter(str(exc), param_hint="--lexicon") from None
    except (OSError, ValueError) as exc:  # the file's content is wrong: one line, no usage
        raise click.ClickException(f"--lexicon: {exc}") from None


def _where(path: Path, exc: GcgError) -> str:
    return f"{path}:{exc.line}: {exc.message}" if exc.line is not None else f"{path}: {exc.message}"


@click.group()
def gcg() -> None:
    """Read, check and show GCG game records."""


@gcg.command()
@click.argument(
    "files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option(
    "--rules", "rules_name", type=RulesPreset(), metavar="PRESET",
    help="Rules preset (default: from the file).",
)
@click.option(
    "--lexicon", "lexicon_name", type=LexiconSpec(), metavar="NAME",
    help="Also check every word against this list.",
)
def verify(files: tuple[Path, ...], rules_name: str | None, lexicon_name: str | None) -> None:
    """Replay each FILE and check every move's score and every running total.

    Prints "OK FILE (N events, final A–B)" for a good file and "FILE:LINE: problem" for
    the first mismatch in a bad one; exits with 1 if any file fails. A duplicate record is
    rebuilt round by round (every master move found again, every submission judged again)
    with --lexicon, else the word list it names.
    """
    rules = _rules(rules_name)
    lexicon = _lexicon(lexicon_name)
    failed = False
    for path in files:
        try:
            record = gcg_format.load(path)
            if record.is_duplicate:
                dup = gcg_format.replay_duplicate(record, rules=rules, lexicon=lexicon)
                final = "–".join(str(s) for s in dup.scores)
                click.echo(
                    f"OK {path} (duplicate, {len(dup.rounds)} rounds, final {final}, "
                    f"tops {dup.top_total})"
                )
                continue
            game = gcg_format.replay(
                record, rules=rules, lexicon=lexicon, check_words=lexicon is not None
            )
        except OSError as exc:
            click.echo(f"{path}: cannot read the file: {exc.strerror or exc}")
            failed = True
            continue
        except GcgError as exc:
            click.echo(_where(path, exc))
            failed = True
            continue
        final = "–".join(str(s) for s in game.scores)
        click.echo(f"OK {path} ({len(record.events)} events, final {final})")
    sys.exit(1 if failed else 0)


@gcg.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--turn",
    type=click.IntRange(min=0),
    help="Show the board after this many turns (default: all).",
)
@click.option(
    "--rules", "rules_name", type=RulesPreset(), metavar="PRESET",
    help="Rules preset (default: from the file).",
)
@click.option(
    "--color/--no-color", default=None, help="Colour (default: when writing to a terminal)."
)
def show(file: Path, turn: int | None, rules_name: str | None, color: bool | None) -> None:
    """Print the board of FILE after turn N (default: the end), with scores and racks."""
    from ..render.text import render_board, render_scores

    rules = _rules(rules_name)
    try:
        record = gcg_format.load(file)
    except OSError as exc:
        raise click.ClickException(f"{file}: cannot read the file: {exc.strerror or exc}") from None
    except GcgError as exc:
        raise click.ClickException(_where(file, exc)) from None
    total = sum(1 for e in record.events if e.kind in TURN_LINES)
    if turn is not None and turn > total:
        raise click.BadParameter(f"{file} has {total} turns, not {turn}", param_hint="'--turn'")
    try:
        game = gcg_format.replay(record, rules=rules, turns=turn)
    except GcgError as exc:
        raise click.ClickException(_where(file, exc)) from None
    if color is None:
        color = sys.stdout.isatty()
    done = total if turn is None else turn
    title = record.title or file.name
    click.echo(f"{title} — after turn {done} of {total}" + (" (game over)" if game.is_over else ""))
    # click strips colour codes when stdout is not a terminal unless told otherwise
    click.echo(render_board(game.board, game.alphabet, color=color), nl=False, color=color)
    names = [p.nick for p in record.seated()]  # seat order, as game.scores
    racks = [game.alphabet.format(game.rack(i).tiles()) for i in range(game.num_players)]
    mover = None if game.is_over else game.to_move
    click.echo(render_scores(names, game.scores, racks, mover), nl=False)
