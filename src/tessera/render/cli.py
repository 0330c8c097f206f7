"""``tessera render GAME.gcg [--turn N] -o board.svg``: a picture of a game's board.

SVG by default; a ``.png`` output (or ``--format png``) is drawn by headless Chromium from
the same SVG, so both look like the web board.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import click

from tessera.cliargs import OutputFile
from tessera.game import EventKind, Game
from tessera.move import Play

from .svg import board_svg


def _last_play_squares(game: Game) -> set[tuple[int, int]]:
    for e in reversed(game.history):
        if e.kind is EventKind.PLAY and isinstance(e.move, Play):
            return {(r, c) for r, c, _ in e.move.placements}
        if e.kind is EventKind.WITHDRAWN:
            break
    return set()


def svg_to_png(svg: str, out: Path, width: int, height: int) -> None:
    """Rasterise an SVG with the system's headless Chromium."""
    chromium = os.environ.get("TESSERA_CHROMIUM") or shutil.which("chromium")
    if chromium is None:
        raise click.ClickException(
            "PNG output needs Chromium (apt-get install chromium); SVG output does not"
        )
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "board.svg"
        src.write_text(svg, encoding="utf-8")
        cmd = [
            chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--hide-scrollbars", "--default-background-color=00000000",
            f"--window-size={width},{height}", f"--screenshot={out.resolve()}", src.as_uri(),
        ]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if done.returncode != 0 or not out.exists():
            raise click.ClickException(f"Chromium could not draw the PNG: {done.stderr[-500:]}")


@click.command()
@click.argument("gcg_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "--turn", type=click.IntRange(min=0), default=None,
    help="Show the board after this many turns.",
)
@click.option(
    "-o", "--output", type=OutputFile(), required=True,
    help="Where to write the picture (.svg or .png).",
)
@click.option(
    "--format", "fmt", type=click.Choice(["svg", "png"]), default=None,
    help="Picture format (default: from the output's suffix, else SVG).",
)
def render(gcg_file: Path, turn: int | None, output: Path, fmt: str | None) -> None:
    """Draw a game's board from its GCG record (the final position, or after --turn N)."""
    from tessera.formats import gcg

    try:
        record = gcg.load(gcg_file)
        total = sum(1 for e in record.events if e.kind in gcg.TURN_LINES)
        if turn is not None and turn > total:
            raise click.BadParameter(
                f"{gcg_file} has {total} turns, not {turn}", param_hint="'--turn'"
            )
        game = gcg.replay(record, turns=turn)
    except gcg.GcgError as exc:
        raise click.ClickException(f"{gcg_file}: {exc}") from None
    except OSError as exc:
        raise click.ClickException(f"{gcg_file}: cannot read: {exc.strerror or exc}") from None
    fmt = fmt or ("png" if output.suffix.lower() == ".png" else "svg")
    names = " vs ".join(f"{n} {s}" for n, s in zip(game.players, game.scores, strict=True))
    title = f"{names} · after {len(game.turn_events())} turns"
    svg = board_svg(game.board, game.tileset, highlight=_last_play_squares(game), title=title)
    if fmt == "svg":
        output.write_text(svg, encoding="utf-8")
    else:
        width = int(svg.split('width="', 1)[1].split('"', 1)[0])
        height = int(svg.split('height="', 1)[1].split('"', 1)[0])
        svg_to_png(svg, output, width, height)
    click.echo(f"wrote {output}")
