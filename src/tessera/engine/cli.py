"""``tessera autoplay``, ``tessera leaves train`` and ``tessera analyze``."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from tessera.cliargs import (
    FloatRange,
    LexiconSpec,
    OutputDirectory,
    OutputFile,
    RulesPreset,
    progress_bar,
    shown,
)
from tessera.rules import preset

from .registry import PLAYER_NAMES


def _share_line(what: str, rep: Any) -> str:
    """"  A wins 15 of 20 = 75.0% (95% CI 53.1–88.8%), ties 0" for either match report."""
    lo, hi = rep.ci95
    return (f"  {what} {rep.wins:g} of {rep.games} = {100 * rep.win_rate:.1f}% "
            f"(95% CI {100 * lo:.1f}–{100 * hi:.1f}%), ties {rep.ties}")


def _player_names(text: str) -> tuple[str, str]:
    names = [p.strip().lower() for p in text.split(",") if p.strip()]
    if len(names) != 2:
        raise click.BadParameter("name exactly two players, e.g. static,static-noleaves",
                                 param_hint="'--players'")
    for n in names:
        if n not in PLAYER_NAMES:
            raise click.BadParameter(f"unknown player {n!r}; players: {', '.join(PLAYER_NAMES)}",
                                     param_hint="'--players'")
    return names[0], names[1]


@click.command()
@click.option("--games", "-n", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--players", "-p", default="static,static-noleaves", show_default=True,
              help=f"two of: {', '.join(PLAYER_NAMES)}")
@click.option("--lexicon", "-l", type=LexiconSpec(), default="enable", show_default=True)
@click.option("--rules", "-r", type=RulesPreset(), default="naspa", show_default=True)
@click.option("--seed", "-s", type=int, default=0, show_default=True)
@click.option("--workers", "-w", type=click.IntRange(min=1), default=None,
              help="local processes (default: one per core)")
@click.option("--ray", "ray_address", default=None,
              help="run on the Ray cluster at ADDRESS (as many at once as it has CPUs)")
@click.option("--gcg", "gcg_dir", type=OutputDirectory(), default=None,
              help="write every game as DIR/game-NNNNNN.gcg")
@click.option("--leaves", "leaves_paths", type=click.Path(exists=True, dir_okay=False),
              multiple=True,
              help="a .klv2 table instead of the shipped one; given twice, player A's then B's")
@click.option("--time", "time_limit", type=FloatRange(0.001, 3600.0), default=None,
              help="seconds a move at most (simulating players; default 0.5)")
@click.option("--json", "as_json", is_flag=True, help="print the report as one JSON object")
@click.option("--quiet", "-q", is_flag=True, help="no progress bar")
def autoplay(
    games: int, players: str, lexicon: str, rules: str, seed: int, workers: int | None,
    ray_address: str | None, gcg_dir: str | None, leaves_paths: tuple[str, ...],
    time_limit: float | None, as_json: bool, quiet: bool,
) -> None:
    """Computer-vs-computer games, both seat orders, with statistics for player A."""
    from tessera.lexicon import LexiconError

    from .parallel import default_workers
    from .selfplay import MatchSpec
    from .selfplay import autoplay as run

    pair = _player_names(players)
    if len(leaves_paths) > 2:
        raise click.BadParameter("give at most two tables: player A's, then player B's",
                                 param_hint="'--leaves'")
    leaves_path = leaves_paths[0] if leaves_paths else None
    b_leaves_path = leaves_paths[1] if len(leaves_paths) == 2 else None
    if preset(rules).duplicate is not None:
        if leaves_paths:
            raise click.BadParameter(
                "duplicate computers hand in the top score (R8.4): leaves take no part",
                param_hint="'--leaves'")
        _duplicate_autoplay(pair, games, seed, lexicon, rules, gcg_dir, as_json, quiet)
        return
    spec = MatchSpec(
        pair, games, seed, lexicon, rules, gcg_dir, leaves_path, time_limit, b_leaves_path
    )
    try:
        nworkers = _workers(workers, ray_address, default_workers)
    except RuntimeError as exc:
        raise click.ClickException(str(exc)) from None
    progress, advance = progress_bar(games, "games", quiet or as_json)
    try:
        rep, _records = shown(progress, lambda: run(
            spec, workers=nworkers, ray_address=ray_address, on_chunk=advance,
            chunk=_chunk(games, nworkers),
        ))
    except (LexiconError, ValueError, RuntimeError) as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        click.echo(json.dumps(rep.as_dict()))
        return
    a, b = rep.players
    click.echo(f"{a} vs {b}: {rep.games} games ({lexicon}, {rules}, seed {seed}, both seats)")
    click.echo(_share_line(f"{a} wins", rep))
    click.echo(f"  mean score {a} {rep.mean_scores[0]:.1f} (sd {rep.score_sd[0]:.1f}), "
               f"{b} {rep.mean_scores[1]:.1f} (sd {rep.score_sd[1]:.1f})")
    click.echo(f"  mean spread {rep.mean_spread:+.1f} (sd {rep.spread_sd:.1f})")
    click.echo(f"  bingos per game {a} {rep.bingos_per_game[0]:.2f}, "
               f"{b} {rep.bingos_per_game[1]:.2f}")
    click.echo(f"  {rep.games_per_second:.1f} games/s with {rep.workers} worker(s) "
               f"({rep.games_per_second_per_worker:.1f} per worker), {rep.seconds:.1f} s")


def _duplicate_autoplay(
    pair: tuple[str, str], games: int, seed: int, lexicon: str, rules: str,
    gcg_dir: str | None, as_json: bool, quiet: bool,
) -> None:
    """Autoplay under duplicate rules: see :mod:`tessera.engine.duplicate_autoplay`."""
    from tessera.lexicon import LexiconError

    from .duplicate_autoplay import duplicate_autoplay

    progress, advance = progress_bar(games, "duplicate games", quiet or as_json)
    try:
        rep = shown(progress, lambda: duplicate_autoplay(
            pair, games, seed, lexicon, rules, gcg_dir, on_game=lambda: advance(1)
        ))
    except (LexiconError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        click.echo(json.dumps(rep.as_dict()))
        return
    a, b = rep.players
    noun = "game" if rep.games == 1 else "games"
    click.echo(f"{a} vs {b}: {rep.games} duplicate {noun} ({lexicon}, {rules}, seed {seed})")
    click.echo(f"  {a} {rep.mean_percent[0]:.1f}% of the tops (mean {rep.mean_points[0]:.1f} "
               f"points), {b} {rep.mean_percent[1]:.1f}% (mean {rep.mean_points[1]:.1f})")
    click.echo(_share_line(f"{a} scores more in", rep))
    click.echo(f"  the tops total {rep.mean_tops:.1f} a game on average; {rep.seconds:.1f} s")


def _workers(workers: int | None, ray_address: str | None, default: Callable[[], int]) -> int:
    """How many chunks run at once: the Ray cluster's CPUs with ``--ray`` (``--workers`` is
    then ignored), else ``--workers`` or one per local core."""
    if ray_address:
        from .parallel import ray_workers

        return ray_workers(ray_address)
    return workers or default()


def _chunk(games: int, workers: int) -> int:
    """Chunks small enough to spread over the workers and show progress, big enough to be
    cheap to schedule."""
    return max(1, min(200, games // (4 * max(1, workers)) or 1))


@click.group()
def leaves() -> None:
    """Leave values (KLV2): train them by self-play."""


@leaves.command("train")
@click.option("--lexicon", "-l", type=LexiconSpec(), default="enable", show_default=True)
@click.option("--rules", "-r", type=RulesPreset(), default="naspa", show_default=True)
@click.option("--games", "-n", type=click.IntRange(min=2), required=True,
              help="self-play games per generation")
@click.option("--generations", "-g", type=click.IntRange(min=1), default=3, show_default=True)
@click.option("--seed", "-s", type=int, default=0, show_default=True)
@click.option("--workers", "-w", type=click.IntRange(min=1), default=None,
              help="local processes (default: one per core)")
@click.option("--ray", "ray_address", default=None,
              help="run on the Ray cluster at ADDRESS (as many at once as it has CPUs)")
@click.option("--start", type=click.Path(exists=True, dir_okay=False), default=None,
              help="a .klv2 table to start from (default: zero leaves)")
@click.option("--work-dir", type=OutputDirectory(), default=None,
              help="where each generation's table is kept (default: ./leaves-training)")
@click.option("--max-leave", type=click.IntRange(1, 6), default=6, show_default=True,
              help="the largest leave valued (tiles kept); longer ones: from their sub-leaves")
@click.option("-o", "--output", type=OutputFile(), required=True)
@click.option("--quiet", "-q", is_flag=True)
def train(
    lexicon: str, rules: str, games: int, generations: int, seed: int, workers: int | None,
    ray_address: str | None, start: str | None, work_dir: str | None, max_leave: int,
    output: Path, quiet: bool,
) -> None:
    """Generations of self-play, each learning from the last: writes a .klv2 table."""
    from .parallel import default_workers
    from .training import train as run

    try:
        nworkers = _workers(workers, ray_address, default_workers)
    except RuntimeError as exc:
        raise click.ClickException(str(exc)) from None
    began = time.perf_counter()

    def report(rep) -> None:  # type: ignore[no-untyped-def]
        click.echo(
            f"generation {rep.generation}: {rep.games} games, {rep.turns} turns, "
            f"{rep.observed_leaves} leaves seen, {rep.seconds:.0f} s "
            f"({rep.games_per_second:.1f} games/s)",
            err=quiet,
        )

    progress, advance = progress_bar(games * generations, "self-play games", quiet)
    try:
        if progress is not None:
            progress.start()
        table, reports = run(
            lexicon, rules, games=games, generations=generations, seed=seed, workers=nworkers,
            ray_address=ray_address, work_dir=work_dir, start=start, on_generation=report,
            on_chunk=advance, chunk=max(1, min(500, games // (4 * nworkers) or 1)),
            max_size=max_leave,
        )
    except (ValueError, RuntimeError) as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        if progress is not None:
            progress.stop()
    table.save(output)
    total = time.perf_counter() - began
    click.echo(
        f"wrote {output}: {len(table)} leaves from {generations} generation(s) of {games} "
        f"games ({sum(r.games for r in reports)} in all) in {total:.0f} s"
    )


@click.command()
@click.argument("gcg_file", type=click.Path(exists=True, dir_okay=False))
@click.option("--lexicon", "-l", type=LexiconSpec(), default="enable", show_default=True)
@click.option("--rules", "-r", type=RulesPreset(), default=None,
              help="rules preset (default: from the file)")
@click.option("--top", "-t", type=click.IntRange(min=1), default=3, show_default=True,
              help="best moves listed per turn")
@click.option("--player", "-p", default="static", show_default=True,
              type=click.Choice(["static", "static-noleaves", "best"]))
@click.option("--sim", "simulate", is_flag=True,
              help="also simulate each turn: the best move by simulation and the win % lost")
@click.option("--time", "time_limit", type=FloatRange(0.001, 3600.0), default=None,
              help="with --sim: seconds per turn (default 1 without --iterations)")
@click.option("--iterations", type=click.IntRange(1, 10_000_000), default=None,
              help="with --sim: iterations per turn")
@click.option("--plies", type=click.IntRange(0, 100), default=2, show_default=True,
              help="with --sim: moves played after each candidate")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="with --sim: fixes the deals (with --iterations, the result)")
@click.option("--json", "as_json", is_flag=True, help="print the analysis as JSON")
def analyze(
    gcg_file: str, lexicon: str, rules: str | None, top: int, player: str, simulate: bool,
    time_limit: float | None, iterations: int | None, plies: int, seed: int | None,
    as_json: bool,
) -> None:
    """For every turn of a game: the static best moves and the equity lost by the move played
    (with --sim, also the best move by simulation and the win % lost)."""
    from tessera.lexicon import Lexicon, LexiconError

    from .analysis import AnalysisError, SimSettings, analyze_file, render_table

    sim = None
    if simulate:
        if time_limit is None and iterations is None:
            time_limit = 1.0
        sim = SimSettings(time_limit=time_limit, iterations=iterations, plies=plies, seed=seed)
    elif time_limit is not None or iterations is not None or seed is not None:
        raise click.UsageError("--time, --iterations and --seed go with --sim")
    try:
        lex = Lexicon.load(lexicon)
        result = analyze_file(Path(gcg_file), lex, rules=rules, top=top, player=player, sim=sim)
    except (LexiconError, AnalysisError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        click.echo(json.dumps(result.as_dict(), ensure_ascii=False))
    else:
        render_table(result, sys.stdout)
