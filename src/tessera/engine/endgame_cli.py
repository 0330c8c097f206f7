"""``tessera endgame``: search the endgame of a CGP position (the bag empty)."""

from __future__ import annotations

import dataclasses
import json

import click

from tessera.cliargs import FloatRange, LexiconSpec, describe, position_lexicon

from .endgame import MAX_THREADS

DEFAULT_TIME = 10.0  # seconds
MAX_TIME = 86_400.0


def _complete_racks(position: object) -> object:
    """The position with the opponent's rack filled in when the CGP leaves it empty: with the
    bag empty it is every tile not on the board or the mover's rack (R1.5: known by
    elimination). Raises click errors when the position is no endgame."""
    from tessera.tiles import BLANK, BLANK_BIT

    racks = position.racks  # type: ignore[attr-defined]
    rules = position.rules  # type: ignore[attr-defined]
    if len(racks) != 2:
        raise click.UsageError(f"--cgp: an endgame is between two players, not {len(racks)}")
    if not racks[0]:
        raise click.UsageError("--cgp: the player to move has no tiles (the game is over)")
    if racks[1]:
        return position
    unseen = list(rules.tileset.counts)
    for _, _, t in position.tiles_on_board():  # type: ignore[attr-defined]
        unseen[BLANK if t & BLANK_BIT else t] -= 1
    for t in racks[0]:
        unseen[t] -= 1
    held = sum(unseen)
    if held == 0:
        raise click.UsageError(
            "--cgp: the opponent has no tiles and the bag is empty: the game is over"
        )
    if held > rules.rack_size:
        raise click.UsageError(
            f"--cgp: {held} tiles are unseen, more than a rack holds, so the bag is not empty: "
            "an endgame needs an empty bag (give the opponent's rack if it is known)"
        )
    letters = [t for t in range(1, len(unseen)) for _ in range(unseen[t])]
    other = tuple(letters + [BLANK] * unseen[BLANK])
    return dataclasses.replace(position, racks=(racks[0], other))  # type: ignore[type-var]


@click.command("endgame")
@click.option("--cgp", "cgp_text", required=True,
              help="The position, one CGP line; the bag must be empty. An empty second rack "
                   "is read as the unseen tiles.")
@click.option("--lexicon", "lexicon_name", type=LexiconSpec(), default=None,
              help="Word list name or path (default: the CGP's 'lex' opcode, else enable).")
@click.option("--time", "seconds", type=FloatRange(min=0, max=MAX_TIME),
              default=DEFAULT_TIME, show_default=True,
              help="Seconds to search (0: until proven, however long).")
@click.option("--threads", type=click.IntRange(1, MAX_THREADS), default=1, show_default=True)
@click.option("--max-depth", type=click.IntRange(min=1), default=None,
              help="Stop deepening at this many plies.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
def endgame(
    cgp_text: str,
    lexicon_name: str | None,
    seconds: float,
    threads: int,
    max_depth: int | None,
    as_json: bool,
) -> None:
    """Search the endgame of a position: the spread change for the player to move to the end
    of the game, the best line for both sides, and whether the value is proven."""
    from tessera.formats.cgp import CgpError, loads

    from .endgame import EndgameError, solve

    try:
        position = _complete_racks(loads(cgp_text))
        game = position.to_game()  # type: ignore[attr-defined]
    except CgpError as exc:
        raise click.UsageError(f"--cgp: {exc}") from None
    if game.bag_count:
        raise click.UsageError(
            f"--cgp: {game.bag_count} tile(s) are left for the bag: an endgame needs an empty "
            "bag (the racks hold every tile not on the board)"
        )
    game.lexicon = position_lexicon(position, lexicon_name)
    try:
        result = solve(
            game, time_limit=seconds or None, threads=threads, max_depth=max_depth
        )
    except EndgameError as exc:
        raise click.UsageError(str(exc)) from None
    alphabet = game.rules.tileset.alphabet
    line = [
        {"move": describe(m, alphabet), "score": getattr(m, "score", None) or 0}
        for m in result.line
    ]
    rate = result.nodes / result.seconds if result.seconds > 0 else 0.0
    if as_json:
        click.echo(json.dumps({
            "value": result.value,
            "best": line[0]["move"],
            "line": line,
            "proven": result.proven,
            "depth": result.depth,
            "nodes": result.nodes,
            "seconds": round(result.seconds, 4),
            "nodes_per_second": round(rate),
            "tt_hit_rate": round(result.tt_hit_rate, 4),
        }))
        return
    status = "proven" if result.proven else f"not proven: best found {result.depth} plies deep"
    click.echo(f"value {result.value:+d} for the player to move ({status})")
    for i, step in enumerate(line):
        side = "to move" if i % 2 == 0 else "opponent"
        click.echo(f"  {i + 1:>2}. {side:<8} {step['move']:<24} {step['score']:>4}")
    click.echo(
        f"depth {result.depth}, {result.nodes} nodes in {result.seconds:.2f} s "
        f"({rate:,.0f} nodes/s), table hits {100 * result.tt_hit_rate:.0f}%"
    )
