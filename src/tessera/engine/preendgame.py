"""Pre-endgames: one or two tiles in the bag, each candidate weighed over every possible draw.

From the mover's side the unseen tiles are the opponent's rack plus the bag. Every way the bag
can hold some of them -- an ordered draw, weighted by how many unseen copies of each tile there
are -- fixes the opponent's rack by elimination, and then the rest of the game is a position
with both racks and the bag's order known, which the exact endgame search
(:mod:`tessera.engine.endgame`) follows to the end: plays draw from the bag, and once it is empty
the endgame proper begins. A candidate's value is the weighted mean of those searches; its win
probability the weighted share of draws after which the mover finishes ahead (counting the
current score difference; a tie counts half).

Only plays and the pass are weighed: an exchange leaves the bag as full as it was. The
searches assume both players know the bag's order once it is drawn for them, as pre-endgame
solvers do; they do not model what each player could infer.

>>> from tessera.formats import cgp
>>> from tessera.lexicon import Lexicon
>>> lexicon = Lexicon.load("enable")
>>> position = cgp.loads(  # we hold IW; Q and S are unseen: one in their rack, one in the bag
...     "7R7/dRIVEN1U7/U1TAXI1E7/N2WITED3B3/I3G6E3/T3E6V3/E2ONLY3GO3/S3COOF2AR1EM/"
...     "3YeUK3L2LA/1DIESTER2L2AD/3C6O2NA/J2H2FIREPAN1M/ANESTRI4GAZE/TO4DAUB5/OH3POI7"
...     " IW/Q 503/383 0 lex enable; tr naspa;"
... )
>>> view = position.to_game(lexicon=lexicon).view(0)
>>> for c in evaluate(view, lexicon=lexicon, time_limit=5.0)[:3]:
...     print(c.move, c.expected_spread, c.win_probability)
pass 23.5 1.0
11K .W 14.5 1.0
5K W. 12.5 1.0
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from tessera.game import PlayerView
from tessera.lexicon import Lexicon
from tessera.move import Move, Pass, Play
from tessera.movegen import generate_moves

from .endgame import (
    MAX_THREADS,
    EndgameError,
    EndgameResult,
    Position,
    engine,
    position_of,
    search,
)

MAX_BAG = 2  # larger bags are simulated (issue 11 item 3), not searched
QUICK_DEPTH = 2  # plies of the first pass over every draw when time is limited
SUMMING_SECONDS = 2e-6  # per draw searched: the time the sums take (measured 0.6 us)


@dataclass(frozen=True)
class PreendgameCandidate:
    """A candidate move weighed over the draws: the mover's expected spread change to the end
    of the game, the probability of finishing ahead, how many distinct draws were searched and
    whether every one of those searches was proven."""

    move: Move
    expected_spread: float
    win_probability: float
    draws: int
    proven: bool


def draws(unseen: Sequence[int], bag: int) -> list[tuple[tuple[int, ...], int]]:
    """Every ordered content of a bag of ``bag`` tiles drawn from ``unseen`` (counts per tile
    id), with its weight: the number of ways of picking those copies in that order."""
    out: list[tuple[tuple[int, ...], int]] = []
    counts = list(unseen)

    def pick(prefix: tuple[int, ...], weight: int) -> None:
        if len(prefix) == bag:
            out.append((prefix, weight))
            return
        for t, n in enumerate(counts):
            if n:
                counts[t] -= 1
                pick((*prefix, t), weight * n)
                counts[t] += 1

    pick((), 1)
    return out


def _tiles_used(move: Move) -> int:
    if isinstance(move, Play):
        return len(move.tiles_used)
    if isinstance(move, Pass):
        return 0
    raise EndgameError(
        f"pre-endgame candidates are plays or the pass, not {move!r} (an exchange leaves the "
        "bag as full as it was)"
    )


def _scenarios(
    unseen: Sequence[int], bag: int, used: int
) -> list[tuple[tuple[int, ...], int]]:
    """The draws a candidate playing ``used`` tiles must tell apart: when it empties the bag
    the order of the tiles drawn does not matter, so orders of the same tiles merge."""
    merged: dict[tuple[int, ...], int] = {}
    for order, weight in draws(unseen, bag):
        key = tuple(sorted(order)) if used >= bag else order
        merged[key] = merged.get(key, 0) + weight
    return list(merged.items())


@dataclass
class _Job:
    candidate: int
    bag: tuple[int, ...]
    weight: int
    result: EndgameResult | None = None


def evaluate(
    view: PlayerView,
    candidates: Sequence[Move] | None = None,
    *,
    time_limit: float | None = None,
    threads: int = 1,
    lexicon: Lexicon | None = None,
) -> list[PreendgameCandidate]:
    """Weigh ``candidates`` (default: every play and the pass) of the player to move, whose
    ``view`` shows 1 or 2 tiles in the bag, best expected spread first. ``lexicon`` is the word
    list (a view does not carry one).

    Without ``time_limit`` every search runs to proof (which may take long). With it, every
    draw is first searched :data:`QUICK_DEPTH` plies deep, then the time left is shared out for
    deeper searches; the call returns within the limit. ``threads`` searches run at once.
    Raises :class:`~tessera.engine.endgame.EndgameError` for a position or candidate it cannot
    weigh.
    """
    deadline = None if time_limit is None else time.monotonic() + time_limit
    if time_limit is not None and not time_limit > 0:
        raise EndgameError(f"time_limit must be a positive number of seconds, not {time_limit!r}")
    if not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
        raise EndgameError(f"threads must be 1..{MAX_THREADS}, not {threads!r}")
    if not isinstance(view, PlayerView):
        raise EndgameError(f"weigh a PlayerView, not {type(view).__name__}")
    if lexicon is None:
        raise EndgameError("give the lexicon: a PlayerView does not carry one")
    bag = view.bag_count
    if not 1 <= bag <= MAX_BAG:
        raise EndgameError(
            f"the bag holds {bag} tile(s): pre-endgames are weighed with 1 to {MAX_BAG}"
        )
    pos = position_of(view, bag=bag)
    opponent = view.rack_counts[1 - view.player]
    if sum(pos.other) != bag + opponent:
        raise EndgameError(
            f"{sum(pos.other)} unseen tiles do not make a bag of {bag} and a rack of {opponent}"
        )
    if candidates is None:
        rack = [t for t, n in enumerate(pos.rack) for _ in range(n)]
        candidates = list(generate_moves(pos.board, rack, lexicon, pos.rules))
    moves = list(candidates)
    if not moves:
        raise EndgameError("no candidate to weigh")
    solver = engine(lexicon, pos.rules)
    # a draw at a time for every candidate in turn, so that time running out leaves every
    # candidate weighed over its likeliest draws
    scenarios = {}
    for used in {min(_tiles_used(m), bag) for m in moves}:
        found = _scenarios(pos.other, bag, used)
        scenarios[used] = sorted(found, key=lambda s: -s[1])
    per_move = [scenarios[min(_tiles_used(m), bag)] for m in moves]
    jobs = [
        _Job(i, *per_move[i][k])
        for k in range(max(len(p) for p in per_move))
        for i in range(len(moves))
        if k < len(per_move[i])
    ]
    if deadline is not None:  # leave time to sum the draws up
        deadline -= SUMMING_SECONDS * len(jobs)
    _run(solver, pos, moves, jobs, deadline, threads)
    return _summaries(pos, moves, jobs)


def _state(pos: Position, order: tuple[int, ...]) -> Position:
    """The position with the bag holding ``order``: the opponent holds the rest."""
    other = list(pos.other)
    for t in order:
        other[t] -= 1
    return Position(pos.rules, pos.board, pos.rack, tuple(other), pos.scoreless, pos.passes,
                    pos.scores)


def _run(
    solver: object,
    pos: Position,
    moves: list[Move],
    jobs: list[_Job],
    deadline: float | None,
    threads: int,
) -> None:
    def one(job: _Job, until: float | None, depth: int | None) -> None:
        if until is not None and time.monotonic() >= until:
            return  # no time left for it: an earlier (shallower) result stands, if any
        try:
            job.result = search(
                solver,
                _state(pos, job.bag),
                bag=job.bag,
                deadline=until,
                max_depth=depth,
                only=moves[job.candidate],
            )
        except ValueError as exc:  # the compiled search refuses an illegal candidate
            raise EndgameError(f"candidate {moves[job.candidate]}: {exc}") from None

    def run_all(work: list[_Job], depth: int | None) -> None:
        lock = threading.Lock()
        taken = [0]

        def worker() -> None:
            while True:
                with lock:
                    now = time.monotonic()
                    if taken[0] == len(work) or (deadline is not None and now >= deadline):
                        return
                    job = work[taken[0]]
                    taken[0] += 1
                    left = len(work) - taken[0] + 1
                until = deadline
                if deadline is not None and depth is None:
                    # an equal share of what is left for each search still to run
                    share = (deadline - now) * min(threads, left) / left
                    until = min(deadline, now + share)
                one(job, until, depth)

        if threads == 1:
            worker()
        else:
            with ThreadPoolExecutor(max_workers=threads) as pool:
                for future in [pool.submit(worker) for _ in range(threads)]:
                    future.result()

    if deadline is not None:
        run_all(jobs, QUICK_DEPTH)
    run_all([j for j in jobs if j.result is None or not j.result.proven], None)


def _summaries(
    pos: Position, moves: list[Move], jobs: list[_Job]
) -> list[PreendgameCandidate]:
    """Each candidate's weighted mean over its draws. Draws the time did not reach count as
    the mean of those it did (the score alone when it reached none), and leave it unproven."""
    lead = pos.scores[0] - pos.scores[1]
    by_move: list[list[_Job]] = [[] for _ in moves]
    for job in jobs:
        by_move[job.candidate].append(job)
    out = []
    for move, mine in zip(moves, by_move, strict=True):
        done = [j for j in mine if j.result is not None]
        weight = sum(j.weight for j in done)
        spread = wins = 0.0
        for j in done:
            assert j.result is not None
            value = j.result.value
            spread += j.weight * value
            wins += j.weight * (1.0 if lead + value > 0 else 0.5 if lead + value == 0 else 0.0)
        if weight:
            spread, wins = spread / weight, wins / weight
        else:
            spread = float(move.score or 0) if isinstance(move, Play) else 0.0
            wins = 1.0 if lead + spread > 0 else 0.5 if lead + spread == 0 else 0.0
        proven = len(done) == len(mine) and all(j.result.proven for j in done)  # type: ignore[union-attr]
        out.append(PreendgameCandidate(move, spread, wins, len(mine), proven))
    out.sort(key=lambda c: (-c.expected_spread, -c.win_probability))
    return out


__all__ = ["MAX_BAG", "PreendgameCandidate", "draws", "evaluate"]
