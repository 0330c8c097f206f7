"""The timing worker both builds run: ``python worker.py --data POSITIONS.cgp ...``.

The A/B driver runs this very file (from the newer checkout, by path) in each build's own
python, so both sides measure the same code; only ``tessera`` differs. It therefore imports
nothing but the standard library and public ``tessera`` API present in both builds (as of
f775061: ``tessera.formats.cgp.loads``, ``tessera.board.Board``, ``tessera.lexicon.Lexicon``,
``tessera.movegen.generate_moves``, ``tessera.engine.players.default_leaves``,
``tessera.engine.selfplay.play_compiled``, ``tessera.rules.preset``). Where an API differs
between builds the worker looks for it and records what it found under ``"api"``.

One run loads the lexicon, the leave table and the positions (timed as ``load_s``, with the
first call of each generator mode as warm-up), then measures each chosen workload once with
``time.process_time`` (CPU time of this process) and prints one JSON object on stdout:
``{"load_s", "maxrss_kb", "api": {...}, "measures": {name: {"cpu_s", "items", "digest"}}}``.
A measure the build cannot run is ``null``. ``digest`` hashes the results (best moves, move
counts and equities, game scores), so the driver can check both builds agree.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import resource
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

MEASURES = ("best", "all", "unsorted", "selfplay")
# keyword -> value that asks generate_moves for its moves unranked, if a build has one
UNSORTED_KEYWORDS = {"unsorted": True, "sort": False, "sorted": False, "ranked": False}


class Digest:
    """An order-sensitive hash of the values fed to it (reprs of ints, floats, tuples)."""

    def __init__(self) -> None:
        self._h = hashlib.sha256()

    def add(self, value: object) -> None:
        self._h.update(repr(value).encode())
        self._h.update(b"\0")

    def hex(self) -> str:
        return self._h.hexdigest()[:16]


def bag_count(position: Any) -> int:
    """Tiles in the bag of a CGP position: the tile set less the board and the racks, less a
    full rack for every other player whose rack the CGP leaves empty. Kept here, not imported:
    older builds have it elsewhere (``tessera.movegen_cli``) or not at all."""
    rules = position.rules
    unseen = rules.tileset.total - len(position.tiles_on_board())
    racks = position.racks
    unseen -= sum(len(r) for r in racks)
    for rack in racks[1:]:
        if not rack:
            unseen -= min(rules.rack_size, max(unseen, 0))
    return max(unseen, 0)


def load_positions(path: Path, limit: int) -> list[tuple[Any, list[int], Any, int]]:
    """(board, rack, rules, bag count) of the first ``limit`` positions (0: all)."""
    from tessera.board import Board
    from tessera.formats.cgp import loads

    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        pos = loads(line)
        board = Board(pos.rules.layout)
        board.place(pos.tiles_on_board())
        out.append((board, list(pos.racks[0]), pos.rules, bag_count(pos)))
        if limit and len(out) >= limit:
            break
    return out


def unsorted_keyword(generate_moves: Callable[..., Any]) -> str | None:
    """The keyword of ``generate_moves`` that turns ranking off, if this build has one."""
    params = inspect.signature(generate_moves).parameters
    return next((k for k in UNSORTED_KEYWORDS if k in params), None)


def _move_key(moves: Any, i: int) -> tuple[Any, ...]:
    """A move as plain values (kind, place, tiles, score) and its equity, same in both builds."""
    m = moves[i]
    name = type(m).__name__
    place = (getattr(m, "row", -1), getattr(m, "col", -1), getattr(m, "across", None))
    tiles = tuple(getattr(m, "word", None) or getattr(m, "tiles", ()) or ())
    return (name, place, tiles, getattr(m, "score", 0), round(moves.equity(i), 6))


def _timed(run: Callable[[], list[Any]], passes: int) -> tuple[float, list[Any]]:
    """CPU seconds of ``passes`` calls of ``run`` and the last call's result."""
    result: list[Any] = []
    t0 = time.process_time()
    for _ in range(passes):
        result = run()
    return time.process_time() - t0, result


def measure_movegen(
    positions: Sequence[tuple[Any, list[int], Any, int]],
    lexicon: Any,
    leaves: Any,
    mode: str,
    passes: int,
    keyword: str | None,
    digest: bool = True,
) -> dict[str, Any] | None:
    """CPU time of one generator mode over every position, ``passes`` times over.

    ``best``: the best move only (``top=1``); ``all``: every move ranked; ``unsorted``: every
    move unranked (None when the build has no such mode). All with the leave values."""
    from tessera.movegen import generate_moves

    extra: dict[str, Any] = {}
    if mode == "best":
        extra["top"] = 1
    elif mode == "unsorted":
        if keyword is None:
            return None
        extra[keyword] = UNSORTED_KEYWORDS[keyword]

    def run() -> list[Any]:
        return [
            generate_moves(b, r, lexicon, rules, leaves=leaves, bag_count=bag, **extra)
            for b, r, rules, bag in positions
        ]

    cpu, lists = _timed(run, passes)
    moves = sum(len(ml) for ml in lists)
    found = Digest()
    for ml in lists if digest else ():
        if mode == "best":
            found.add(_move_key(ml, 0))
        elif mode == "all":
            found.add((len(ml), _move_key(ml, 0), [round(e, 6) for e in ml.equities()]))
        else:  # unranked: the same moves in any order
            found.add((len(ml), sorted(round(e, 6) for e in ml.equities())))
    return {
        "cpu_s": cpu,
        "items": len(positions) * passes,
        "unit": "positions",
        "moves": moves,
        "digest": found.hex() if digest else None,
    }


def measure_selfplay(lexicon: Any, leaves: Any, games: int, seed: int) -> dict[str, Any]:
    """CPU time of ``games`` static-vs-static games (both seats with ``leaves``) in the
    compiled self-play loop, seeds ``seed``, ``seed + 1``, ..."""
    from tessera.engine.selfplay import play_compiled
    from tessera.rules import preset

    rules = preset("naspa")
    play_compiled(rules, lexicon, seed, [leaves, leaves])  # warm up: engine, tables
    records: list[Any] = []
    t0 = time.process_time()
    for i in range(games):
        records.append(play_compiled(rules, lexicon, seed + i, [leaves, leaves]))
    cpu = time.process_time() - t0
    digest = Digest()
    per_game = []
    for rec in records:
        per_game.append([*rec["scores"], len(rec["turns"])])
        digest.add((tuple(rec["scores"]), len(rec["turns"])))
    return {
        "cpu_s": cpu,
        "items": games,
        "unit": "games",
        "turns": sum(g[-1] for g in per_game),
        "games": per_game,  # [score, score, turns] by seed, to tell which games differ
        "digest": digest.hex(),
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Load, warm up and measure as ``args`` asks; the JSON-ready result."""
    t0 = time.process_time()
    from tessera.engine.players import default_leaves
    from tessera.lexicon import Lexicon
    from tessera.movegen import generate_moves

    lexicon = Lexicon.load("enable")
    leaves = default_leaves()
    positions = load_positions(args.data, args.positions)
    keyword = unsorted_keyword(generate_moves)
    b, r, rules, bag = positions[0]
    generate_moves(b, r, lexicon, rules, top=1, leaves=leaves, bag_count=bag)  # warm up
    load_s = time.process_time() - t0

    import tessera

    api = {
        "tessera": str(Path(tessera.__file__).resolve().parent),
        "unsorted": f"generate_moves({keyword}=...)" if keyword else "n/a: no unsorted mode",
    }
    measures: dict[str, Any] = {}
    for name in args.what:
        if name == "selfplay":
            measures[name] = measure_selfplay(lexicon, leaves, args.games, args.seed)
        else:
            measures[name] = measure_movegen(
                positions, lexicon, leaves, name, args.passes, keyword, args.digest
            )
    return {
        "load_s": load_s,
        "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "positions": len(positions),
        "api": api,
        "measures": measures,
    }


def parse(argv: Sequence[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="worker.py", description=__doc__.split("\n")[0])
    p.add_argument("--data", type=Path, required=True, help="CGP positions, one a line")
    p.add_argument("--what", default=",".join(MEASURES), help="comma-separated measures")
    p.add_argument("--positions", type=int, default=0, help="first N positions (0: all)")
    p.add_argument("--passes", type=int, default=1, help="times over the positions per measure")
    p.add_argument("--games", type=int, default=20, help="self-play games")
    p.add_argument("--seed", type=int, default=0, help="first self-play seed")
    p.add_argument(
        "--no-digest",
        dest="digest",
        action="store_false",
        help="skip the move lists' digests (instruction counts: only the generation)",
    )
    args = p.parse_args(argv)
    args.what = [w for w in args.what.split(",") if w and w != "none"]
    unknown = [w for w in args.what if w not in MEASURES]
    if unknown:
        p.error(f"unknown measure {unknown[0]!r}; have: {', '.join(MEASURES)}")
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = parse(sys.argv[1:] if argv is None else argv)
    print(json.dumps(run(args)), flush=True)


if __name__ == "__main__":
    main()
