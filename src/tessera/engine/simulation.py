"""Monte Carlo simulation: each candidate move played out a few moves ahead over many deals.

:func:`simulate` takes the best ``candidates`` moves of the static ranking (exchanges and the
pass among them when they rank there) or a given list, and runs iterations in the compiled
core (``tessera._core.simulate``; the algorithm is described at the top of
``src/tessera/_core/sim.cpp``). Each iteration deals the opponent a rack from the tiles the
player cannot see — keeping a leave inferred from the opponent's last move when the inference
is informative (:mod:`tessera.engine.inference`) — and plays every candidate, then ``plies``
moves of the static player for each side in turn. A candidate's *equity* is the mean spread
change plus, at the horizon, the leave value of our last move less that of the opponent's; its
*win* is the mean win probability there
(:mod:`tessera.engine.winpct`). Candidates are ranked by win probability (``rank_by="win"``,
the default) or by equity; a candidate clearly behind the leader (``prune_z`` standard errors
of their deal-by-deal difference) stops being simulated. The move chosen (``best``) is the
leader, unless its lead over the static best is within ``choose_z`` standard errors: the
static ranking is a good estimate already, and the best of a few noisy means is more often
lucky than better, so with few iterations the simulation only overrides it when the evidence
is clear.

A fixed ``iterations`` with a ``seed`` gives the same result on any number of ``threads``;
with a ``time_limit`` the call returns within it (iterations stop at the deadline).
:mod:`tessera.engine.simref` is the naive Python loop the tests hold the core against.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from tessera.game import GameState, PlayerView
from tessera.lexicon import Leaves, Lexicon
from tessera.move import Exchange, Move, Pass, Play
from tessera.tiles import face

from . import native
from .inference import Inference, infer
from .players import StaticPlayer, exchanges_done
from .winpct import WinTable, default_win_table

DEFAULT_PLIES = 2
DEFAULT_CANDIDATES = 10
DEFAULT_ITERATIONS = 1000  # when neither an iteration count nor a time limit is given
PRUNE_Z = 2.0  # standard errors between a dropped candidate and the leader
CHOOSE_Z = 1.0  # standard errors the leader must be ahead of the static best to be chosen
MIN_PRUNE = 16  # iterations before any candidate is dropped
NEVER = 2**62
BATCH = 16  # iterations between pruning decisions (fixed: results must not depend on threads)
INFERENCE_SHARE = 0.15  # of a time limit, spent on inference at most
SAFETY = 0.03  # of a time limit, kept back for the work around the compiled loop
INFERENCE_SALT = 0x1F3D5B79

MAX_PLIES = 100
MAX_ITERATIONS = 10_000_000
MAX_THREADS = 64
MAX_CANDIDATES = 500
MAX_TIME = 24 * 3600.0


class SimulationError(ValueError):
    """A position or request the simulation cannot take, saying what is wrong."""


@dataclass(frozen=True)
class SimCandidate:
    """One simulated candidate: its static score and equity, and what the simulation found."""

    move: Move
    score: int
    static_equity: float
    equity: float  # mean spread change + our last leave - the opponent's, at the horizon
    se: float  # standard error of ``equity``
    win: float  # mean win probability, 0..1
    win_se: float
    iterations: int
    pruned: bool
    lead: float | None = None  # over the static best, by the ranking measure, deal by deal
    lead_se: float | None = None

    @property
    def win_pct(self) -> float:
        return 100.0 * self.win


@dataclass(frozen=True)
class SimResult:
    """Candidates best first, and how the simulation ran."""

    candidates: tuple[SimCandidate, ...]
    iterations: int
    plies: int
    seconds: float
    stopped: str  # "iterations", "time" or "pruned" (one candidate left)
    seed: int
    threads: int
    rank_by: str
    inference: Inference | None  # used when informative
    chosen: int = 0  # index in ``candidates`` of the move chosen

    @property
    def best(self) -> SimCandidate:
        """The move chosen (see the module docstring): the leader, or the static best."""
        return self.candidates[self.chosen]


@cache
def _shipped_lexicon() -> Lexicon:
    return Lexicon.load("enable")


def same_move(a: Move, b: Move) -> bool:
    """Whether two moves are the same move (exchanges by their tiles, in any order)."""
    if isinstance(a, Play) and isinstance(b, Play):
        return a == b
    if isinstance(a, Exchange) and isinstance(b, Exchange):
        return sorted(face(t) for t in a.tiles) == sorted(face(t) for t in b.tiles)
    return isinstance(a, Pass) and isinstance(b, Pass)


def check_position(view: PlayerView) -> None:
    """Raise :class:`SimulationError` unless the view is a two-player position, the viewer's
    turn, whose tiles add up: the rack, board and unseen tiles are exactly the tile set, the
    unseen tiles are the bag plus the opponent's rack, and racks are full while the bag has
    tiles."""
    rules = view.rules
    if len(view.names) != 2:
        raise SimulationError(f"the simulation plays two-player games, not {len(view.names)}")
    if view.state is not GameState.PLAYING:
        raise SimulationError(f"there is no move to simulate: the game is {view.state.value}")
    if view.to_move != view.player:
        raise SimulationError(f"it is not {view.names[view.player]}'s turn")
    size = rules.tileset.alphabet.size
    alphabet = rules.tileset.alphabet
    if len(view.rack) > rules.rack_size:
        raise SimulationError(
            f"the rack holds {len(view.rack)} tiles; a rack holds {rules.rack_size}"
        )
    expected = list(rules.tileset.counts)
    for t in view.rack:
        if not 0 <= t < size:
            raise SimulationError(f"rack: tile id {t} is not in the {rules.tiles} alphabet")
        expected[t] -= 1
    for _r, _c, t in view.board.occupied():
        expected[face(t)] -= 1

    def label(t: int) -> str:
        return "blank" if t == 0 else alphabet.label(t)

    for t, n in enumerate(expected):
        if n < 0:
            raise SimulationError(
                f"more {label(t)} tiles on the board and rack ({rules.tileset.counts[t] - n}) "
                f"than the {rules.tiles} set holds ({rules.tileset.counts[t]})"
            )
    if len(view.unseen) != size:
        raise SimulationError(f"unseen: {len(view.unseen)} counts for {size} tile kinds")
    for t, (have, want) in enumerate(zip(view.unseen, expected, strict=True)):
        if have != want:
            raise SimulationError(
                f"unseen {label(t)} tiles: {have}, but the set less the board and rack "
                f"leaves {want}"
            )
    opp = view.rack_counts[1 - view.player]
    unseen = sum(view.unseen)
    if not 0 <= opp <= rules.rack_size:
        raise SimulationError(f"the opponent's rack holds {opp} tiles; at most {rules.rack_size}")
    if view.bag_count < 0 or view.bag_count + opp != unseen:
        raise SimulationError(
            f"the bag ({view.bag_count}) and the opponent's rack ({opp}) do not hold the "
            f"{unseen} unseen tiles"
        )
    if view.bag_count > 0:
        for whose, n in (("the rack", len(view.rack)), ("the opponent's rack", opp)):
            if n < rules.rack_size:
                raise SimulationError(
                    f"{whose} holds {n} tiles while the bag holds {view.bag_count} "
                    f"(racks are refilled while the bag has tiles)"
                )


def _bounded(name: str, value: Any, lo: float, hi: float) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not lo <= value <= hi:
        raise SimulationError(f"{name} must be {lo:g}..{hi:g}, not {value!r}")


def _candidates(
    view: PlayerView, ranker: StaticPlayer, candidates: int | Sequence[Move]
) -> list[tuple[Any, ...]]:
    """The engine's tuples of the candidates: the ``candidates`` best, or the given moves
    (each must be legal here)."""
    if isinstance(candidates, int):
        _bounded("candidates", candidates, 1, MAX_CANDIDATES)
        return ranker.ranked_raw(view, top=candidates)
    wanted = list(candidates)
    if not wanted or len(wanted) > MAX_CANDIDATES:
        raise SimulationError(f"give 1..{MAX_CANDIDATES} candidate moves, not {len(wanted)}")
    everything = ranker.ranked_raw(view, top=None)
    moves = [native.to_move(c, view.rules.tileset.alphabet) for c in everything]
    out = []
    for want in wanted:
        if not isinstance(want, Move):
            raise SimulationError(f"candidate {want!r} is not a Move")
        k = next((i for i, m in enumerate(moves) if same_move(m, want)), None)
        if k is None:
            raise SimulationError(f"candidate {want!r} is not a legal move here")
        if everything[k] not in out:
            out.append(everything[k])
    return out


def simulate(
    view: PlayerView,
    plies: int = DEFAULT_PLIES,
    iterations: int | None = None,
    time_limit: float | None = None,
    threads: int = 1,
    candidates: int | Sequence[Move] = DEFAULT_CANDIDATES,
    seed: int | None = None,
    *,
    lexicon: Lexicon | None = None,
    leaves: Leaves | str | None = "trained",
    win_table: WinTable | None = None,
    inference: bool | Inference | None = True,
    rank_by: str = "win",
    prune_z: float | None = PRUNE_Z,
    choose_z: float | None = CHOOSE_Z,
    race: WinTable | None = None,
) -> SimResult:
    """Simulate the viewer's candidate moves (see the module docstring).

    ``iterations`` caps the iterations and ``time_limit`` (seconds) the time; with neither,
    :data:`DEFAULT_ITERATIONS` are run. ``lexicon`` defaults to the shipped ENABLE list,
    ``leaves`` to the shipped table, ``win_table`` to the shipped one. ``inference``: True to
    infer the opponent's leave from their last move, an :class:`Inference` to use, or False.
    ``prune_z`` None: no candidate is dropped; ``choose_z`` None: the leader is chosen.
    ``race``: in a finish-line game (R8.3), a race table (rows: the points the player to move
    still needs, columns: the points the other needs; :func:`tessera.engine.race_player.
    race_table`) that scores a rollout stopped at the horizon instead of ``win_table``.
    """
    began = time.perf_counter()
    _bounded("plies", plies, 0, MAX_PLIES)
    _bounded("threads", threads, 1, MAX_THREADS)
    if iterations is not None:
        _bounded("iterations", iterations, 1, MAX_ITERATIONS)
    if time_limit is not None:
        _bounded("time_limit", time_limit, 0.001, MAX_TIME)
    if iterations is None and time_limit is None:
        iterations = DEFAULT_ITERATIONS
    if rank_by not in ("win", "equity"):
        raise SimulationError(f"rank_by must be 'win' or 'equity', not {rank_by!r}")
    if prune_z is not None:
        _bounded("prune_z", prune_z, 0.0, 100.0)
    if choose_z is not None:
        _bounded("choose_z", choose_z, 0.0, 100.0)
    check_position(view)
    lex = lexicon if lexicon is not None else _shipped_lexicon()
    try:
        ranker = StaticPlayer(lex, leaves)
        eng = native.engine(lex, view.rules)
    except (ValueError, native.EngineUnavailable) as exc:
        raise SimulationError(str(exc)) from None
    table = race if race is not None else win_table if win_table is not None else (
        default_win_table()
    )
    if seed is None:
        seed = random.SystemRandom().randrange(2**64)
    elif isinstance(seed, bool) or not isinstance(seed, int):
        raise SimulationError(f"seed must be a whole number, not {seed!r}")
    seed %= 2**64
    cands = sorted(_candidates(view, ranker, candidates), key=lambda c: -c[6])  # static best first
    leave_values = ranker.leaves_for(view.rules)

    used: Inference | None = None
    if isinstance(inference, Inference):
        used = inference
    elif inference:
        share = None if time_limit is None else INFERENCE_SHARE * time_limit
        used = infer(view, lex, leave_values, time_limit=share, seed=seed ^ INFERENCE_SALT)
    opp_leaves = list(used.leaves) if used is not None and used.informative else []

    budget = 0.0
    if time_limit is not None:
        spent = time.perf_counter() - began
        budget = max(0.0005, time_limit * (1.0 - SAFETY) - spent)
    opp = 1 - view.player
    try:
        raw = native._core.simulate(
            eng, native.leave_table(leave_values), table.compiled, list(view.board.cells),
            list(view.rack), list(view.unseen), view.rack_counts[opp], view.bag_count,
            [view.scores[view.player], view.scores[opp]], view.scoreless_turns,
            view.consecutive_passes, [exchanges_done(view), exchanges_done(view, opp)],
            cands, opp_leaves, plies, iterations or 0, budget, threads, seed,
            float(prune_z or 0.0), MIN_PRUNE if prune_z is not None else NEVER, BATCH,
            rank_by == "win", race is not None,
        )
    except ValueError as exc:
        raise SimulationError(str(exc)) from None
    found = []
    alphabet = view.rules.tileset.alphabet
    for k, (cand, stat) in enumerate(zip(cands, raw["candidates"], strict=True)):
        found.append((k, SimCandidate(
            native.to_move(cand, alphabet), cand[5], cand[6], stat["equity"], stat["se"],
            stat["win"], stat["win_se"], stat["n"], stat["pruned"], stat["lead"], stat["lead_se"],
        )))
    found.sort(key=lambda kc: (
        kc[1].pruned,
        -(kc[1].win if rank_by == "win" else kc[1].equity),
        -kc[1].equity,
        kc[0],
    ))
    ordered = tuple(c for _, c in found)
    chosen = 0
    leader = ordered[0]
    if choose_z is not None and found[0][0] != 0 and leader.lead is not None:
        assert leader.lead_se is not None
        if leader.lead <= choose_z * leader.lead_se:  # not clearly ahead of the static best
            chosen = next(i for i, (k, _) in enumerate(found) if k == 0)
    return SimResult(
        ordered, raw["iterations"], plies, time.perf_counter() - began, raw["stopped"], seed,
        threads, rank_by, used if opp_leaves else None, chosen,
    )


__all__ = [
    "SimCandidate",
    "SimResult",
    "SimulationError",
    "check_position",
    "same_move",
    "simulate",
]
