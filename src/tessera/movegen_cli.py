"""``tessera moves``: list the legal moves of a CGP position, best first."""

from __future__ import annotations

import click

from .cliargs import LexiconSpec, describe, position_lexicon
from .move import Play


@click.command("moves")
@click.option("--cgp", "cgp_text", required=True, help="The position, one CGP line.")
@click.option(
    "--lexicon",
    "lexicon_name",
    type=LexiconSpec(),
    default=None,
    help="Word list name or path (default: the CGP's 'lex' opcode, else enable).",
)
@click.option("--top", type=click.IntRange(min=1), default=None, help="Only the N best moves.")
@click.option("--count", is_flag=True, help="Print only the number of moves.")
@click.option(
    "--leaves",
    "leaves_path",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="A KLV2 leave table: rank by equity (score + leave) and print it.",
)
def moves(
    cgp_text: str,
    lexicon_name: str | None,
    top: int | None,
    count: bool,
    leaves_path: str | None,
) -> None:
    """List the moves of the player to move in a CGP position, in GCG notation with scores
    (and equities with --leaves). Exchanges are listed when the bag allows them."""
    from .formats.cgp import CgpError, loads
    from .lexicon import Leaves
    from .ranking import rank_position

    # the options' content, not their syntax, is wrong below: one line each, no usage text
    try:
        position = loads(cgp_text)
    except CgpError as exc:
        raise click.ClickException(f"--cgp: {exc}") from None
    lexicon = position_lexicon(position, lexicon_name)
    leaves = None
    if leaves_path is not None:
        try:
            leaves = Leaves.load(leaves_path)
        except ValueError as exc:
            raise click.ClickException(f"--leaves: {exc}") from None
    try:
        found = rank_position(position, lexicon, leaves, top)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    if count:
        click.echo(len(found))
        return
    alphabet = position.rules.tileset.alphabet
    width = len(str(len(found)))
    for i in range(len(found)):
        move = found[i]
        score = move.score if isinstance(move, Play) else 0
        line = f"{i + 1:>{width}}  {describe(move, alphabet):<24} {score:>4}"
        if leaves is not None:
            line += f"  {found.equity(i):8.2f}"
        click.echo(line)
