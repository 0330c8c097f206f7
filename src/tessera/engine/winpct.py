"""Win probability by spread and unseen tiles, learned from Tessera's own self-play.

A :class:`WinTable` gives ``P(the player to move wins)`` (a tie counts half) from the spread
on their side (their score minus the opponent's) and the number of tiles they cannot see (the
bag plus the opponent's rack). The simulation (:mod:`tessera.engine.simulation`) reads it at
each rollout's horizon. The shipped table, ``data/winpct/enable.csv``, was trained by
:func:`train` (``tessera winpct train``); its recipe is ``data/winpct/TRAINING.md``.

Training plays static-vs-static games in the compiled core (the same player in both seats, the
shipped leaves) and records, at the start of every turn, the mover's spread, the tiles unseen
by the mover and whether the mover won the game. For each unseen count ``u`` a logistic curve
``P = 1 / (1 + exp(-(a + b * spread)))`` is fitted by maximum likelihood to the turns whose
unseen count is within ``window`` of ``u`` (more when those are too few): the final spread
change from a turn on is roughly bell-shaped, so the win chance is an S-curve in the spread,
steeper as fewer tiles remain, shifted by the mover's initiative (``a``). The table holds those
curves sampled every ``step`` points; lookups are linear in between and clamped at the edges.

The file is CSV: ``#`` comment lines, a header ``unseen,<spread>,<spread>,…`` (evenly spaced
whole numbers) and one row per unseen count ``0, 1, 2, …`` of probabilities in [0, 1].
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import Any

from tessera.lexicon import Leaves, Lexicon
from tessera.rules import Rules, preset

from . import native
from .compiled_games import derive_seed, play_compiled
from .parallel import run_parallel

DEFAULT_TABLE = "enable.csv"
SPREAD_MIN = -300
SPREAD_MAX = 300
SPREAD_STEP = 5
SPREAD_CLAMP = 600  # observed spreads beyond this are counted at it
WINDOW = 2  # unseen counts pooled either side of each row
MIN_OBSERVATIONS = 2000  # the pool of a row is widened until it holds this many turns

MAX_FILE_BYTES = 8 << 20
MAX_ROWS = 1000
MAX_COLS = 4001


class WinTableError(ValueError):
    """A win-% table file that cannot be read, naming the line and the problem."""


@dataclass(frozen=True)
class WinTable:
    """``rows[u][k]``: P(the player to move wins) with ``u`` tiles unseen and spread
    ``spread_min + k * spread_step``."""

    rows: tuple[tuple[float, ...], ...]
    spread_min: int
    spread_step: int

    def __post_init__(self) -> None:
        if not self.rows or len(self.rows[0]) < 2:
            raise WinTableError("a win table needs at least one row of two values")
        if self.spread_step <= 0:
            raise WinTableError("the spread step must be positive")
        width = len(self.rows[0])
        for u, row in enumerate(self.rows):
            if len(row) != width:
                raise WinTableError(f"row {u} has {len(row)} values; row 0 has {width}")
            for v in row:
                if not 0.0 <= v <= 1.0:
                    raise WinTableError(f"row {u}: {v!r} is not a probability")

    @property
    def spreads(self) -> list[int]:
        return [self.spread_min + k * self.spread_step for k in range(len(self.rows[0]))]

    def p(self, spread: float, unseen: int) -> float:
        """P(the player to move wins); the compiled core computes exactly this."""
        row = self.rows[min(max(unseen, 0), len(self.rows) - 1)]
        x = (spread - self.spread_min) / self.spread_step
        if not x > 0:
            return row[0]
        if x >= len(row) - 1:
            return row[-1]
        i = int(x)
        f = x - i
        return row[i] + (row[i + 1] - row[i]) * f

    @cached_property
    def compiled(self) -> Any:
        """The table as the compiled core reads it (``tessera._core.WinTable``)."""
        values = [v for row in self.rows for v in row]
        return native._core.WinTable(
            values, len(self.rows), len(self.rows[0]), float(self.spread_min),
            float(self.spread_step),
        )

    # -- files ---------------------------------------------------------------------------

    def dumps(self, comment: str = "") -> str:
        lines = [f"# {c}" for c in comment.splitlines()]
        lines.append("unseen," + ",".join(str(s) for s in self.spreads))
        for u, row in enumerate(self.rows):
            lines.append(f"{u}," + ",".join(f"{v:.4f}" for v in row))
        return "\n".join(lines) + "\n"

    def save(self, path: str | Path, comment: str = "") -> None:
        Path(path).write_text(self.dumps(comment), encoding="utf-8")

    @classmethod
    def loads(cls, text: str, origin: str = "<text>") -> WinTable:
        """Read the CSV form; :class:`WinTableError` names the line that is wrong."""
        if len(text) > MAX_FILE_BYTES:
            raise WinTableError(f"{origin}: larger than {MAX_FILE_BYTES} bytes")
        spreads: list[int] | None = None
        rows: list[tuple[float, ...]] = []
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            cells = [c.strip() for c in line.split(",")]
            where = f"{origin}, line {number}"
            if spreads is None:
                if cells[0] != "unseen" or len(cells) < 3:
                    raise WinTableError(f"{where}: expected the header 'unseen,<spread>,…'")
                if len(cells) - 1 > MAX_COLS:
                    raise WinTableError(f"{where}: more than {MAX_COLS} spread columns")
                try:
                    spreads = [int(c) for c in cells[1:]]
                except ValueError:
                    raise WinTableError(f"{where}: spreads must be whole numbers") from None
                step = spreads[1] - spreads[0]
                if step <= 0 or any(b - a != step for a, b in itertools.pairwise(spreads)):
                    raise WinTableError(f"{where}: spreads must rise in equal steps")
                continue
            if len(rows) >= MAX_ROWS:
                raise WinTableError(f"{where}: more than {MAX_ROWS} rows")
            if len(cells) != len(spreads) + 1:
                raise WinTableError(
                    f"{where}: {len(cells) - 1} values; the header has {len(spreads)} spreads"
                )
            if cells[0] != str(len(rows)):
                raise WinTableError(f"{where}: expected row {len(rows)}, found {cells[0]!r}")
            try:
                values = tuple(float(c) for c in cells[1:])
            except ValueError:
                raise WinTableError(f"{where}: values must be numbers") from None
            bad = next((v for v in values if not 0.0 <= v <= 1.0), None)
            if bad is not None:
                raise WinTableError(f"{where}: {bad!r} is not a probability in [0, 1]")
            rows.append(values)
        if spreads is None or not rows:
            raise WinTableError(f"{origin}: no table (a header and at least one row)")
        return cls(tuple(rows), spreads[0], spreads[1] - spreads[0])

    @classmethod
    def load(cls, path: str | Path) -> WinTable:
        p = Path(path)
        try:
            if p.stat().st_size > MAX_FILE_BYTES:
                raise WinTableError(f"{p}: larger than {MAX_FILE_BYTES} bytes")
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise WinTableError(f"{p}: {exc}") from None
        return cls.loads(text, str(p))


@cache
def default_win_table() -> WinTable:
    """The shipped table (``data/winpct/enable.csv``), trained with ENABLE and NASPA rules."""
    ref = resources.files("tessera.data").joinpath("winpct", DEFAULT_TABLE)
    return WinTable.loads(ref.read_text(encoding="utf-8"), f"data/winpct/{DEFAULT_TABLE}")


# -- training -------------------------------------------------------------------------------


@dataclass(frozen=True)
class WinSpec:
    """Games to learn from: static players with ``leaves_path`` (None: the shipped leaves)."""

    lexicon: str
    rules: str
    leaves_path: str | None


@dataclass
class WinTally:
    """Turns seen, by (tiles unseen by the mover, the mover's spread clamped): [turns, wins]
    (a tie counts half)."""

    cells: dict[tuple[int, int], list[float]] = field(default_factory=dict)
    games: int = 0
    turns: int = 0

    def add(self, unseen: int, spread: int, outcome: float) -> None:
        key = (unseen, max(-SPREAD_CLAMP, min(SPREAD_CLAMP, spread)))
        cell = self.cells.setdefault(key, [0.0, 0.0])
        cell[0] += 1
        cell[1] += outcome
        self.turns += 1

    def merge(self, other: WinTally) -> None:
        for key, (n, w) in other.cells.items():
            cell = self.cells.setdefault(key, [0.0, 0.0])
            cell[0] += n
            cell[1] += w
        self.games += other.games
        self.turns += other.turns


def tally_game(record: dict[str, Any], rules: Rules) -> WinTally:
    """The turns of one compiled game: (unseen by the mover, the mover's spread, won)."""
    tally = WinTally(games=1)
    final = record["scores"]
    scores = [0, 0]
    on_board = 0
    total = rules.tileset.total
    for player, cand, rack, _bag in record["turns"]:
        other = 1 - player
        lead = final[player] - final[other]
        outcome = 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
        tally.add(total - on_board - len(rack), scores[player] - scores[other], outcome)
        kind, _row, _col, _across, tiles, score, _equity = cand
        scores[player] += score
        if kind == 0:
            on_board += sum(1 for t in tiles if t)
    return tally


_CTX: dict[str, Any] = {}


def _context(spec: WinSpec) -> tuple[Rules, Lexicon, Leaves | None]:
    key = (spec.lexicon, spec.rules, spec.leaves_path)
    if _CTX.get("key") != key:
        from .shipped_leaves import trained_leaves

        lexicon = Lexicon.load(spec.lexicon)
        rules = preset(spec.rules).for_alphabet(lexicon.alphabet)
        if spec.leaves_path:
            leaves: Leaves | None = Leaves.load(spec.leaves_path)
        else:
            leaves = trained_leaves(lexicon, rules)
        _CTX.clear()
        _CTX.update(key=key, ctx=(rules, lexicon, leaves))
    return _CTX["ctx"]


def run_win_games(spec: WinSpec, games: Sequence[tuple[int, int]]) -> WinTally:
    """Play games (index, seed), static vs static; tally their turns."""
    rules, lexicon, leaves = _context(spec)
    total = WinTally()
    for _index, seed in games:
        total.merge(tally_game(play_compiled(rules, lexicon, seed, [leaves, leaves]), rules))
    return total


def fit_logistic(points: Sequence[tuple[float, float, float]]) -> tuple[float, float]:
    """(a, b) maximising the likelihood of ``wins`` out of ``n`` at each spread under
    ``P = 1 / (1 + exp(-(a + b * spread)))`` (Newton's method; spreads scaled by 100)."""
    a, b = 0.0, 1.0
    for _ in range(100):
        ga = gb = haa = hab = hbb = 0.0
        for s, n, w in points:
            x = s / 100.0
            p = 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, a + b * x))))
            r = w - n * p
            ga += r
            gb += r * x
            v = n * p * (1.0 - p)
            haa += v
            hab += v * x
            hbb += v * x * x
        haa += 1e-9
        hbb += 1e-9
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a += da
        b += db
        b = max(min(b, 200.0), 1e-3)
        if abs(da) < 1e-10 and abs(db) < 1e-10:
            break
    return a, b / 100.0


def fit(
    tally: WinTally,
    rows: int,
    *,
    window: int = WINDOW,
    min_observations: int = MIN_OBSERVATIONS,
    spread_min: int = SPREAD_MIN,
    spread_max: int = SPREAD_MAX,
    step: int = SPREAD_STEP,
) -> WinTable:
    """The table of ``rows`` unseen counts (see the module docstring). Row 0 (nothing
    unseen: the game is over) is the result itself: 1 ahead, ½ level, 0 behind."""
    if tally.turns == 0:
        raise ValueError("no turns to learn from: play more games")
    by_unseen: dict[int, list[tuple[float, float, float]]] = {}
    for (u, s), (n, w) in tally.cells.items():
        by_unseen.setdefault(u, []).append((float(s), n, w))
    spreads = list(range(spread_min, spread_max + 1, step))
    out: list[tuple[float, ...]] = [
        tuple(1.0 if s > 0 else 0.5 if s == 0 else 0.0 for s in spreads)
    ]
    for u in range(1, rows):
        width = window
        while True:
            pool = [pt for k in range(u - width, u + width + 1) for pt in by_unseen.get(k, ())]
            if sum(n for _, n, _ in pool) >= min_observations or width > rows:
                break
            width += 1
        a, b = fit_logistic(pool)
        out.append(tuple(round(1.0 / (1.0 + math.exp(-(a + b * s))), 4) for s in spreads))
    return WinTable(tuple(out), spread_min, step)


@dataclass
class WinTrainReport:
    games: int
    turns: int
    seconds: float
    games_per_second: float


def train(
    lexicon: str = "enable",
    rules: str = "naspa",
    *,
    games: int,
    seed: int = 0,
    workers: int = 1,
    ray_address: str | None = None,
    leaves_path: str | None = None,
    on_chunk: Callable[[int], None] | None = None,
    chunk: int = 200,
) -> tuple[WinTable, WinTrainReport]:
    """Play ``games`` static-vs-static games and fit the table (rows up to the tile count)."""
    if games < 2:
        raise ValueError("training needs at least 2 games")
    rules_value = preset(rules)
    reason = native.selfplay_unsupported_reason(rules_value)
    if reason:
        raise native.EngineUnavailable(reason)
    spec = WinSpec(lexicon, rules, leaves_path)
    plan = [(i, derive_seed(seed, i)) for i in range(games)]
    began = time.perf_counter()
    parts = run_parallel(
        run_win_games, spec, plan, workers=workers, chunk=chunk, ray_address=ray_address,
        on_chunk=on_chunk,
    )
    seconds = time.perf_counter() - began
    tally = WinTally()
    for part in parts:
        tally.merge(part)
    table = fit(tally, rules_value.tileset.total + 1)
    rep = WinTrainReport(tally.games, tally.turns, seconds,
                         tally.games / seconds if seconds else math.inf)
    return table, rep


__all__ = [
    "WinTable",
    "WinTableError",
    "WinTally",
    "default_win_table",
    "fit",
    "fit_logistic",
    "tally_game",
    "train",
]
