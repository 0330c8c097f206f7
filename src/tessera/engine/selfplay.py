"""Self-play: computer-vs-computer games, one by one or by the thousand, with statistics.

Two ways to play a game, giving the same game for the same seed:

* :func:`play_game` — the reference: a :class:`~tessera.game.Game` driven move by move,
  each player choosing from its :class:`~tessera.game.PlayerView`.
* :func:`play_compiled` — the whole game inside the compiled core (static players only),
  dealt there exactly as :class:`~tessera.game.Game` deals (bag, first player, racks, random
  state); it lives in :mod:`tessera.engine.compiled_games`, with :func:`replay`, which turns
  its moves back into a :class:`~tessera.game.Game` (for GCG).

:func:`autoplay` plays a match over a process pool (or a Ray cluster:
:mod:`tessera.engine.parallel`). Game ``i`` uses seed
``derive_seed(seed, i // 2)`` and, for odd ``i``, the players in swapped seats, so every deal
is played from both sides. Work is split by game index, never by worker, so the same seeds
give the same games whatever the number of workers or the backend.
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tessera.game import Game
from tessera.lexicon import Leaves, Lexicon
from tessera.rules import Rules, preset

from . import native
from .compiled_games import MAX_TURNS, derive_seed, play_compiled, replay
from .parallel import default_workers, run_parallel
from .players import Player
from .registry import get_player

COMPILED_NAMES = {"static", "static-noleaves"}  # players the compiled loop can play


# -- one game -------------------------------------------------------------------------------


def play_game(game: Game, players: Sequence[Player], max_turns: int = MAX_TURNS) -> Game:
    """Play ``game`` to its end, asking ``players[i]`` (by seat) for every move."""
    if len(players) != game.num_players:
        raise ValueError(f"{len(players)} players for a {game.num_players}-player game")
    turns = 0
    while not game.is_over:
        if turns >= max_turns:
            raise RuntimeError(f"the game did not end within {max_turns} turns")
        mover = game.to_move
        move = players[mover].choose(game.view(mover))
        game.play(move, mover)
        turns += 1
    return game


# -- matches --------------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchSpec:
    """A match: players A and B by name, rules, lexicon, games and base seed."""

    players: tuple[str, str]
    games: int
    seed: int = 0
    lexicon: str = "enable"
    rules: str = "naspa"
    gcg_dir: str | None = None
    leaves_path: str | None = None  # overrides the shipped table for "static"/"best"/levels
    time_limit: float | None = None  # seconds a move (the simulating players' budget)
    b_leaves_path: str | None = None  # player B's own table (then leaves_path is A's alone)


@dataclass(frozen=True)
class GameRecord:
    """The outcome of one match game, seen from players A and B (not seats)."""

    index: int
    seed: int
    a_first_seat: bool
    scores: tuple[int, int]  # (A, B)
    bingos: tuple[int, int]  # (A, B)
    turns: int
    reason: str
    gcg: str | None = None


def plan(spec: MatchSpec) -> list[tuple[int, int, bool]]:
    """(index, seed, A sits first) of every game: each deal twice, seats swapped."""
    return [(i, derive_seed(spec.seed, i // 2), i % 2 == 0) for i in range(spec.games)]


_WORKER: dict[str, Any] = {}


def _context(spec: MatchSpec) -> tuple[Rules, Lexicon, dict[str, Leaves | None]]:
    """Rules, lexicon and the leave table of players "A" and "B" (None: the shipped one)."""
    key = (spec.lexicon, spec.rules, spec.leaves_path, spec.b_leaves_path)
    if _WORKER.get("key") != key:
        lexicon = Lexicon.load(spec.lexicon)
        a_leaves = Leaves.load(spec.leaves_path) if spec.leaves_path else None
        b_leaves = Leaves.load(spec.b_leaves_path) if spec.b_leaves_path else a_leaves
        _WORKER.clear()
        rules = preset(spec.rules).for_alphabet(lexicon.alphabet)  # a national list, its tiles
        _WORKER.update(key=key, ctx=(rules, lexicon, {"A": a_leaves, "B": b_leaves}))
    return _WORKER["ctx"]


def _player(
    name: str, lexicon: Lexicon, leaves: Leaves | None, seed: int, time_limit: float | None = None
) -> Player:
    return get_player(name, lexicon, seed=seed, leaves=leaves, time_limit=time_limit)


def run_games(spec: MatchSpec, games: Sequence[tuple[int, int, bool]]) -> list[GameRecord]:
    """Play some games of a match (one worker's chunk)."""
    rules, lexicon, leaves = _context(spec)
    a, b = spec.players
    compiled = (
        a in COMPILED_NAMES
        and b in COMPILED_NAMES
        and native.selfplay_unsupported_reason(rules) is None
    )
    out = []
    for index, seed, a_first in games:
        seats = (a, b) if a_first else (b, a)
        names = ("A", "B") if a_first else ("B", "A")
        if compiled:
            tables = [
                None if s == "static-noleaves"
                else _player(s, lexicon, leaves[n], 0).leaves_for(rules)  # type: ignore[attr-defined]
                for s, n in zip(seats, names, strict=True)
            ]
            record = play_compiled(rules, lexicon, seed, tables)
            scores = record["scores"]
            bingos = record["bingos"]
            turns = len(record["turns"])
            reason = record["reason"]
            game = replay(rules, lexicon, seed, names, record) if spec.gcg_dir else None
        else:
            players = [
                _player(s, lexicon, leaves[names[k]], derive_seed(seed, 1000 + k), spec.time_limit)
                for k, s in enumerate(seats)
            ]
            game = play_game(Game(rules, lexicon=lexicon, players=names, seed=seed), players)
            scores = tuple(game.scores)
            bingos = tuple(_bingos(game, i) for i in range(2))
            turns = len(game.turn_events())
            reason = game.result.reason.value if game.result else "unfinished"
        gcg = _gcg_text(game) if spec.gcg_dir and game is not None else None
        if not a_first:
            scores, bingos = (scores[1], scores[0]), (bingos[1], bingos[0])
        out.append(
            GameRecord(index, seed, a_first, tuple(scores), tuple(bingos), turns, reason, gcg)
        )
    return out


def _bingos(game: Game, player: int) -> int:
    """Plays that earned the preset's bingo bonus (R8.2.1: 9-tile counts 7, 8 and 9)."""
    return sum(
        1
        for e in game.history
        if e.kind == "play" and e.player == player and e.breakdown is not None
        and e.breakdown.bingo > 0
    )


def _gcg_text(game: Game) -> str:
    from tessera.formats import gcg

    return gcg.dumps(game)


# -- statistics -----------------------------------------------------------------------------


@dataclass
class Report:
    """A match report, from player A's side (ties count half a win)."""

    players: tuple[str, str]
    games: int
    wins: float  # A's wins, ties counted half
    ties: int
    win_rate: float
    ci95: tuple[float, float]
    mean_scores: tuple[float, float]
    score_sd: tuple[float, float]
    mean_spread: float
    spread_sd: float
    bingos_per_game: tuple[float, float]
    seconds: float
    games_per_second: float
    workers: int
    games_per_second_per_worker: float
    extra: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def wilson(p: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``p`` observed over ``n`` trials."""
    if n == 0:
        return (0.0, 1.0)
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _mean_sd(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    if n == 0:
        return 0.0, 0.0
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return m, math.sqrt(var)


def report(
    players: tuple[str, str], records: Sequence[GameRecord], seconds: float, workers: int
) -> Report:
    n = len(records)
    wins = sum(1.0 if r.scores[0] > r.scores[1] else 0.5 if r.scores[0] == r.scores[1] else 0.0
               for r in records)
    ties = sum(1 for r in records if r.scores[0] == r.scores[1])
    rate = wins / n if n else 0.0
    ma, sa = _mean_sd([r.scores[0] for r in records])
    mb, sb = _mean_sd([r.scores[1] for r in records])
    ms, ss = _mean_sd([r.scores[0] - r.scores[1] for r in records])
    gps = n / seconds if seconds > 0 else 0.0
    return Report(
        players=players,
        games=n,
        wins=wins,
        ties=ties,
        win_rate=rate,
        ci95=wilson(rate, n),
        mean_scores=(ma, mb),
        score_sd=(sa, sb),
        mean_spread=ms,
        spread_sd=ss,
        bingos_per_game=(
            sum(r.bingos[0] for r in records) / n if n else 0.0,
            sum(r.bingos[1] for r in records) / n if n else 0.0,
        ),
        seconds=seconds,
        games_per_second=gps,
        workers=workers,
        games_per_second_per_worker=gps / max(1, workers),
    )


def autoplay(
    spec: MatchSpec,
    *,
    workers: int = 1,
    ray_address: str | None = None,
    chunk: int = 50,
    on_chunk: Callable[[int], None] | None = None,
) -> tuple[Report, list[GameRecord]]:
    """Play a match; returns its report and every game's record (in index order)."""
    for name in spec.players:
        get_player(name, Lexicon.load(spec.lexicon))  # unknown names fail here, not in workers
    if spec.gcg_dir:
        Path(spec.gcg_dir).mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    parts = run_parallel(
        run_games, spec, plan(spec), workers=workers, chunk=chunk, ray_address=ray_address,
        on_chunk=on_chunk,
    )
    seconds = time.perf_counter() - start
    records = [r for part in parts for r in part]
    if spec.gcg_dir:
        for r in records:
            if r.gcg is not None:
                Path(spec.gcg_dir, f"game-{r.index:06d}.gcg").write_text(r.gcg, encoding="utf-8")
    return report(spec.players, records, seconds, 1 if workers <= 1 else workers), records


# A match's users find here too what it is built on: the compiled game (compiled_games) and the
# chunked runner with its local worker count (parallel).
__all__ = [
    "COMPILED_NAMES",
    "GameRecord",
    "MatchSpec",
    "Report",
    "autoplay",
    "default_workers",
    "derive_seed",
    "plan",
    "play_compiled",
    "play_game",
    "replay",
    "report",
    "run_games",
    "run_parallel",
    "wilson",
]
