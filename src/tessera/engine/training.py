"""Leave training: learn the value of every leave (1-6 tiles) from generations of self-play.

One generation: both seats of ``games`` static-vs-static games in the compiled core, both
players using the current table (the first generation uses zero leaves). Every turn with
tiles left in the bag is an *outcome*: the equity of the move chosen (its score plus the
current table's value of what it keeps). A leave's raw value is how much better the turns
go whose rack holds it than turns in general: ``mean(outcome | rack contains leave) -
mean(outcome)``. A kept leave is completed by random draws, just as the rest of a rack that
happens to contain it was drawn at random, so this measures the leave itself, and it counts
every rack that holds a blank, not only those where the player chose to keep it. Because each
outcome includes the current table's leave value, each generation looks one move further
ahead than the last.

Rarely seen leaves are smoothed towards a prior built from smaller leaves: the average, over
the tiles ``x`` of the leave, of ``value(leave - x) + value(x)``; a leave seen ``n`` times
gets ``prior + n / (n + k) * (raw - prior)``. Leaves never seen get the prior. The next
generation plays with the new table.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tessera.lexicon import Leaves, Lexicon
from tessera.lexicon.leaves import sub_leave_prior
from tessera.rules import Rules, preset
from tessera.tiles import face

from . import native
from .compiled_games import derive_seed, play_compiled
from .parallel import run_parallel

SMOOTHING = 20.0  # k: observations at which a leave's own mean and the prior weigh equally
MAX_LEAVE = 6


@dataclass(frozen=True)
class TrainSpec:
    """One generation's work: games played with ``leaves_path`` (None: zero leaves)."""

    lexicon: str
    rules: str
    seed: int
    leaves_path: str | None
    max_size: int = MAX_LEAVE


@dataclass
class Tally:
    """Outcome sums per leave (sorted tile bytes; ``b""`` is the empty leave)."""

    sums: dict[bytes, float] = field(default_factory=dict)
    counts: dict[bytes, int] = field(default_factory=dict)
    games: int = 0
    turns: int = 0

    def add(self, key: bytes, y: float) -> None:
        self.sums[key] = self.sums.get(key, 0.0) + y
        self.counts[key] = self.counts.get(key, 0) + 1

    def merge(self, other: Tally) -> None:
        for k, v in other.sums.items():
            self.sums[k] = self.sums.get(k, 0.0) + v
        for k, n in other.counts.items():
            self.counts[k] = self.counts.get(k, 0) + n
        self.games += other.games
        self.turns += other.turns


_CTX: dict[str, Any] = {}


def _context(spec: TrainSpec) -> tuple[Rules, Lexicon, Leaves | None]:
    key = (spec.lexicon, spec.rules, spec.leaves_path)
    if _CTX.get("key") != key:
        leaves = Leaves.load(spec.leaves_path) if spec.leaves_path else None
        _CTX.clear()
        lexicon = Lexicon.load(spec.lexicon)
        rules = preset(spec.rules).for_alphabet(lexicon.alphabet)  # a national list, its tiles
        _CTX.update(key=key, ctx=(rules, lexicon, leaves))
    return _CTX["ctx"]


def sub_leaves(rack: Sequence[int], max_size: int = MAX_LEAVE) -> list[bytes]:
    """Every distinct sub-multiset of ``rack`` with 1..``max_size`` tiles, as sorted bytes."""
    counts: dict[int, int] = {}
    for t in rack:
        counts[face(t)] = counts.get(face(t), 0) + 1
    out = [b""]
    for t in sorted(counts):
        out = [prefix + bytes([t]) * k for prefix in out for k in range(counts[t] + 1)]
    return [leave for leave in out if 0 < len(leave) <= max_size]


def tally_game(record: dict[str, Any], rack_size: int, max_size: int = MAX_LEAVE) -> Tally:
    """The (leave, outcome) observations of one compiled game.

    Every turn with tiles in the bag is an outcome (its move's equity) for every leave its
    rack contains, and for the empty leave (the baseline).
    """
    tally = Tally(games=1)
    turns = record["turns"]
    tally.turns = len(turns)
    for _player, cand, rack, bag_before in turns:
        if bag_before == 0:
            continue
        y = float(cand[6])
        tally.add(b"", y)
        for leave in sub_leaves(rack, min(max_size, rack_size - 1)):
            tally.add(leave, y)
    return tally


def run_training_games(spec: TrainSpec, games: Sequence[tuple[int, int]]) -> Tally:
    """Play games (index, seed) with both players on the spec's table; tally them."""
    rules, lexicon, leaves = _context(spec)
    total = Tally()
    for _index, seed in games:
        record = play_compiled(rules, lexicon, seed, [leaves, leaves])
        total.merge(tally_game(record, rules.rack_size, spec.max_size))
    return total


def all_leaves(counts: Sequence[int], max_size: int = MAX_LEAVE) -> list[bytes]:
    """Every leave of 1..max_size tiles the tile distribution allows, sorted tile bytes."""
    out: list[bytes] = []
    kinds = len(counts)

    def rec(t: int, prefix: list[int]) -> None:
        if t == kinds:
            if prefix:
                out.append(bytes(prefix))
            return
        rec(t + 1, prefix)
        for c in range(1, min(counts[t], max_size - len(prefix)) + 1):
            rec(t + 1, prefix + [t] * c)

    rec(0, [])
    return out


def fit(
    tally: Tally,
    counts: Sequence[int],
    smoothing: float = SMOOTHING,
    max_size: int = MAX_LEAVE,
) -> dict[bytes, float]:
    """Smoothed values for every leave of 1..``max_size`` tiles (see the module docstring)."""
    n0 = tally.counts.get(b"", 0)
    if n0 == 0:
        raise ValueError("no observations of the empty leave: play more games")
    base = tally.sums[b""] / n0
    values: dict[bytes, float] = {}
    for leave in sorted(all_leaves(counts, max_size), key=lambda b: (len(b), b)):
        prior = 0.0
        if len(leave) > 1:
            prior = sub_leave_prior(leave, lambda tiles: values[bytes(tiles)])
        n = tally.counts.get(leave, 0)
        if n:
            raw = tally.sums[leave] / n - base
            values[leave] = prior + n / (n + smoothing) * (raw - prior)
        else:
            values[leave] = prior
    return values


@dataclass
class GenerationReport:
    generation: int
    games: int
    turns: int
    observed_leaves: int
    seconds: float
    games_per_second: float


def train(
    lexicon: str = "enable",
    rules: str = "naspa",
    *,
    games: int,
    generations: int,
    seed: int = 0,
    workers: int = 1,
    ray_address: str | None = None,
    work_dir: str | Path | None = None,
    start: str | None = None,
    on_generation: Callable[[GenerationReport], None] | None = None,
    on_chunk: Callable[[int], None] | None = None,
    chunk: int = 200,
    max_size: int = MAX_LEAVE,
) -> tuple[Leaves, list[GenerationReport]]:
    """Run ``generations`` of ``games`` self-play games each; return the last table.

    ``start`` is a table to begin from (default: zero leaves). Intermediate tables are
    written to ``work_dir`` (the workers load them by path).
    """
    if games < 2:
        raise ValueError("training needs at least 2 games per generation")
    if generations < 1:
        raise ValueError("training needs at least 1 generation")
    rules_value = preset(rules).for_alphabet(Lexicon.load(lexicon).alphabet)
    reason = native.selfplay_unsupported_reason(rules_value)
    if reason:
        raise native.EngineUnavailable(reason)
    counts = rules_value.tileset.counts
    work = Path(work_dir) if work_dir else Path.cwd() / "leaves-training"
    work.mkdir(parents=True, exist_ok=True)
    current = start
    reports = []
    table: Leaves | None = None
    for gen in range(1, generations + 1):
        spec = TrainSpec(lexicon, rules, seed, current, max_size)
        plan = [(i, derive_seed(seed * 1_000_003 + gen, i)) for i in range(games)]
        began = time.perf_counter()
        parts = run_parallel(
            run_training_games, spec, plan, workers=workers, chunk=chunk,
            ray_address=ray_address, on_chunk=on_chunk,
        )
        seconds = time.perf_counter() - began
        tally = Tally()
        for part in parts:
            tally.merge(part)
        values = fit(tally, counts, max_size=max_size)
        table = Leaves.from_mapping({tuple(k): v for k, v in values.items()})
        path = work / f"generation-{gen}.klv2"
        table.save(path)
        current = str(path)
        rep = GenerationReport(
            gen, tally.games, tally.turns, len(tally.counts), seconds,
            tally.games / seconds if seconds else math.inf,
        )
        reports.append(rep)
        if on_generation:
            on_generation(rep)
    assert table is not None
    return table, reports
