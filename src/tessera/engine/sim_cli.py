"""``tessera sim`` (simulate the moves of a CGP position) and ``tessera winpct train``."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from tessera.board import Board
from tessera.cliargs import FloatRange, LexiconSpec, OutputFile, RulesPreset
from tessera.game import PlayerView

from .analysis import move_text
from .simulation import (
    DEFAULT_CANDIDATES,
    DEFAULT_PLIES,
    MAX_CANDIDATES,
    MAX_ITERATIONS,
    MAX_PLIES,
    MAX_THREADS,
    MAX_TIME,
    SimResult,
)


def view_of_cgp(position: Any, lexicon: Any) -> PlayerView:
    """The mover's view of a CGP position. An opponent's rack the CGP leaves empty while tiles
    are unseen is a full rack of unknown tiles (as ``tessera moves`` counts the bag)."""
    from tessera.ranking import bag_count_of

    game = position.to_game(lexicon=lexicon)
    view = game.view(0)
    bag = bag_count_of(position)
    opp = sum(view.unseen) - bag
    return replace(view, bag_count=bag, rack_counts=(len(view.rack), opp))


def result_dict(result: SimResult, alphabet: Any, board: Board) -> dict[str, Any]:
    return {
        "iterations": result.iterations,
        "plies": result.plies,
        "seconds": round(result.seconds, 4),
        "stopped": result.stopped,
        "seed": result.seed,
        "threads": result.threads,
        "rank_by": result.rank_by,
        "chosen": result.chosen,
        "candidates": [
            {
                "move": move_text(c.move, alphabet, board),
                "score": c.score,
                "static_equity": round(c.static_equity, 3),
                "equity": round(c.equity, 3),
                "se": round(c.se, 3) if c.iterations > 1 else None,
                "win_pct": round(c.win_pct, 3),
                "win_se_pct": round(100 * c.win_se, 3) if c.iterations > 1 else None,
                "iterations": c.iterations,
                "pruned": c.pruned,
                "lead": None if c.lead is None else round(c.lead, 5),
                "lead_se": None if c.lead_se is None else round(c.lead_se, 5),
            }
            for c in result.candidates
        ],
    }


@click.command("sim")
@click.option("--cgp", "cgp_text", required=True, help="The position, one CGP line.")
@click.option("--lexicon", "lexicon_name", type=LexiconSpec(), default=None,
              help="Word list name or path (default: the CGP's 'lex' opcode, else enable).")
@click.option("--plies", type=click.IntRange(0, MAX_PLIES), default=DEFAULT_PLIES,
              show_default=True, help="Moves played after each candidate.")
@click.option("--iterations", "-n", type=click.IntRange(1, MAX_ITERATIONS), default=None,
              help="Iterations (default: 1000 without --time).")
@click.option("--time", "time_limit", type=FloatRange(0.001, MAX_TIME), default=None,
              help="Seconds to think at most.")
@click.option("--threads", type=click.IntRange(1, MAX_THREADS), default=1, show_default=True)
@click.option("--candidates", type=click.IntRange(1, MAX_CANDIDATES), default=DEFAULT_CANDIDATES,
              show_default=True, help="The best N moves of the static ranking.")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Fixes the deals (with --iterations, the result).")
@click.option("--rank-by", type=click.Choice(["win", "equity"]), default="win", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
def sim(
    cgp_text: str, lexicon_name: str | None, plies: int, iterations: int | None,
    time_limit: float | None, threads: int, candidates: int, seed: int | None, rank_by: str,
    as_json: bool,
) -> None:
    """Simulate the best moves of the player to move in a CGP position: each candidate is
    played, then PLIES moves by the static player, over many deals of the unseen tiles.
    Prints each candidate's mean equity (spread change plus the leaves kept at the horizon,
    ours less theirs) with its standard error and its win probability, best first; * marks
    the move chosen (the leader, unless it is not clearly ahead of the static best)."""
    from tessera.formats.cgp import CgpError, loads
    from tessera.lexicon import Lexicon, LexiconError

    from .simulation import SimulationError, simulate

    try:
        position = loads(cgp_text)
    except CgpError as exc:
        raise click.UsageError(f"--cgp: {exc}") from None
    if position.num_players != 2:
        raise click.UsageError("--cgp: the simulation plays two-player positions")
    rules = position.rules
    name = lexicon_name or position.lexicon or "enable"
    try:
        lexicon = Lexicon.load(name, alphabet=rules.tileset.alphabet)
    except LexiconError as exc:
        if lexicon_name is None and position.lexicon and name != "enable":
            raise click.UsageError(
                f"the position's lexicon {name!r} is not available ({exc}); "
                "name one with --lexicon"
            ) from None
        raise click.UsageError(f"--lexicon: {exc}") from None
    try:
        view = view_of_cgp(position, lexicon)
        result = simulate(
            view, plies, iterations, time_limit, threads, candidates, seed, lexicon=lexicon,
            rank_by=rank_by,
        )
    except (CgpError, SimulationError) as exc:
        raise click.UsageError(str(exc)) from None
    alphabet = rules.tileset.alphabet
    if as_json:
        click.echo(json.dumps(result_dict(result, alphabet, view.board), ensure_ascii=False))
        return
    click.echo(
        f"{result.iterations} iterations of {result.plies} plies in {result.seconds:.2f} s "
        f"({result.threads} thread(s), seed {result.seed}, stopped by {result.stopped})"
    )
    click.echo(f"{'':>3}  {'move':<24} {'score':>5} {'static':>7} {'equity':>8} {'± se':>6} "
               f"{'win %':>7} {'iters':>6}")
    for k, c in enumerate(result.candidates, start=1):
        se = f"{c.se:6.2f}" if c.iterations > 1 else f"{'':>6}"
        mark = "  (dropped)" if c.pruned else ""
        chosen = "*" if k - 1 == result.chosen else " "
        click.echo(
            f"{k:>2}{chosen}  {move_text(c.move, alphabet, view.board):<24} {c.score:>5} "
            f"{c.static_equity:>7.1f} {c.equity:>8.2f} {se} {c.win_pct:>7.2f} "
            f"{c.iterations:>6}{mark}"
        )


@click.group()
def winpct() -> None:
    """Win-% tables (spread x unseen tiles -> win probability): train them by self-play."""


@winpct.command("train")
@click.option("--lexicon", "-l", type=LexiconSpec(), default="enable", show_default=True)
@click.option("--rules", "-r", type=RulesPreset(), default="naspa", show_default=True)
@click.option("--games", "-n", type=click.IntRange(min=2), required=True)
@click.option("--seed", "-s", type=int, default=0, show_default=True)
@click.option("--workers", "-w", type=click.IntRange(min=1), default=None,
              help="local processes (default: one per core)")
@click.option("--ray", "ray_address", default=None,
              help="run on the Ray cluster at ADDRESS (as many at once as it has CPUs)")
@click.option("--leaves", "leaves_path", type=click.Path(exists=True, dir_okay=False),
              default=None, help="a .klv2 table for the players instead of the shipped one")
@click.option("-o", "--output", type=OutputFile(), required=True)
@click.option("--quiet", "-q", is_flag=True)
def train(
    lexicon: str, rules: str, games: int, seed: int, workers: int | None,
    ray_address: str | None, leaves_path: str | None, output: Path, quiet: bool,
) -> None:
    """Static-vs-static self-play, then a win-% curve per unseen-tile count: writes a CSV."""
    from ..cliargs import progress_bar
    from .cli import _chunk, _workers
    from .parallel import default_workers
    from .winpct import train as run

    try:
        nworkers = _workers(workers, ray_address, default_workers)
    except RuntimeError as exc:
        raise click.ClickException(str(exc)) from None
    began = time.perf_counter()
    progress, advance = progress_bar(games, "self-play games", quiet)
    try:
        if progress is not None:
            progress.start()
        table, rep = run(
            lexicon, rules, games=games, seed=seed, workers=nworkers, ray_address=ray_address,
            leaves_path=leaves_path, on_chunk=advance, chunk=_chunk(games, nworkers),
        )
    except (ValueError, RuntimeError) as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        if progress is not None:
            progress.stop()
    total = time.perf_counter() - began
    comment = (
        f"tessera win-% table: P(the player to move wins) by tiles unseen (rows) and spread\n"
        f"(columns). tessera winpct train --lexicon {lexicon} --rules {rules} --games {games} "
        f"--seed {seed}\n{rep.games} games, {rep.turns} turns; see data/winpct/TRAINING.md"
    )
    table.save(output, comment)
    click.echo(
        f"wrote {output}: {len(table.rows)} rows x {len(table.spreads)} spreads from "
        f"{rep.games} games ({rep.turns} turns; self-play {rep.seconds:.0f} s, "
        f"{rep.games_per_second:.1f} games/s) in {total:.0f} s"
    )
