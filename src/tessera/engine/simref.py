"""The naive simulation loop: the readable specification the compiled simulation is tested
against (``tests/engine/test_simulation.py``).

It follows the same scheme as ``src/tessera/_core/sim.cpp`` with the same random streams, so a
fixed seed gives the same deals and the same means, but everything else is written plainly in
Python: the game state is a list of cells, two racks of counts and a list for the bag; moves
are applied here from the :class:`~tessera.rules.Rules`; the static player's choice at each
ply is the first move of the compiled ranking (the ranking is the move generator's, tested on
its own). Slow — for small cases only.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tessera.game import PlayerView
from tessera.rules import OutAdjust, Rules
from tessera.tiles import face

from . import native
from .winpct import WinTable

MASK64 = (1 << 64) - 1


def splitmix64(x: int) -> int:
    z = (x + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def stream_seed(seed: int, index: int) -> int:
    """The seed of iteration ``index``'s random stream in a simulation seeded with ``seed``."""
    return splitmix64((seed & MASK64) ^ splitmix64(index))


@dataclass
class _State:
    board: list[int]
    racks: list[list[int]]  # counts by tile id, [us, them]
    bag: list[int]  # drawn from the end
    scores: list[int]
    exchanges: list[int]
    scoreless: int
    passes: int
    over: bool = False


def _deal(
    unseen: Sequence[int], opp_size: int, opp_leaves: Sequence[Sequence[int]], seed: int
) -> tuple[list[int], list[int]]:
    """The opponent's rack (counts) and the bag of one iteration."""
    rng = random.Random(seed)
    pool = list(unseen)
    opp = [0] * len(pool)
    kept = 0
    if opp_leaves:
        leave = opp_leaves[rng.randrange(len(opp_leaves))]
        for t in leave:
            pool[t] -= 1
            opp[t] += 1
        kept = len(leave)
    tiles = [t for t, n in enumerate(pool) for _ in range(n)]
    rng.shuffle(tiles)
    for _ in range(opp_size - kept):
        opp[tiles.pop()] += 1
    return opp, tiles


def _rack_points(rules: Rules, counts: Sequence[int]) -> int:
    return sum(rules.tileset.values[t] * n for t, n in enumerate(counts) if t)


def _best(eng: Any, table: Any, rules: Rules, s: _State, p: int) -> tuple[Any, ...]:
    """The static player's move for player ``p`` (the first of the compiled ranking; by score
    alone when its top score reaches a finish-line target, R8.3)."""
    need = 1 if rules.exchange_min_bag is None else max(rules.exchange_min_bag, 1)
    limit = rules.max_exchanges_per_player
    may = len(s.bag) >= need and (limit is None or s.exchanges[p] < limit)
    rack = [t for t, n in enumerate(s.racks[p]) for _ in range(n)]
    opp_points = _rack_points(rules, s.racks[1 - p])
    best = eng.moves(s.board, rack, table, len(s.bag), opp_points, may, 1)[0]
    target = native.finish_target_for_selfplay(rules)
    if target >= 0 and table is not None:
        by_score = eng.moves(s.board, rack, None, len(s.bag), opp_points, may, 1)[0]
        if s.scores[p] + by_score[5] >= target:
            return by_score
    return best


def _apply(rules: Rules, cols: int, s: _State, p: int, move: tuple[Any, ...]) -> None:
    kind, row, col, across, tiles, score, _equity = move
    o = 1 - p
    if kind == 0:
        for i, t in enumerate(tiles):
            if t:
                r, c = (row, col + i) if across else (row + i, col)
                s.board[r * cols + c] = t
                s.racks[p][face(t)] -= 1
        s.scores[p] += score
        while sum(s.racks[p]) < rules.rack_size and s.bag:
            s.racks[p][s.bag.pop()] += 1
        s.scoreless = s.scoreless + 1 if score == 0 and rules.zero_point_play_is_scoreless else 0
        s.passes = 0
    elif kind == 1:
        for t in tiles:
            s.racks[p][t] -= 1
        for _ in tiles:
            s.racks[p][s.bag.pop()] += 1
        for t in tiles:
            s.bag.insert(0, t)
        s.exchanges[p] += 1
        if rules.exchange_counts_as_scoreless:
            s.scoreless += 1
        s.passes = s.passes + 1 if rules.exchange_counts_as_pass else 0
    else:
        s.scoreless += 1
        s.passes += 1
    target = native.finish_target_for_selfplay(rules)
    if kind == 0 and not s.bag and sum(s.racks[p]) == 0:
        left = _rack_points(rules, s.racks[o])
        if rules.out_adjust is OutAdjust.DOUBLE:
            s.scores[p] += 2 * left
        else:
            s.scores[o] -= left
            s.scores[p] += left
        s.over = True
        return
    if target >= 0 and s.scores[p] >= target:  # R8.3.2: no rack adjustment
        s.over = True
        return
    limit = rules.scoreless_turns_to_end
    passes = rules.passes_to_end_for(2)
    end_zero = limit is not None and s.scoreless >= limit
    end_pass = passes is not None and s.passes >= passes
    blocked = not rules.zeros_can_end_empty_board and not any(s.board)
    if (end_zero or end_pass) and not blocked:
        s.scores[0] -= _rack_points(rules, s.racks[0])
        s.scores[1] -= _rack_points(rules, s.racks[1])
        s.over = True


def rollout(
    eng: Any, table: Any, win: WinTable | None, view: PlayerView, move: tuple[Any, ...],
    opp: Sequence[int], bag: Sequence[int], plies: int, exchanges: Sequence[int],
) -> tuple[float, float]:
    """(equity, win) of ``move`` played from one deal, then ``plies`` static moves."""
    rules = view.rules
    mine = [0] * rules.tileset.alphabet.size
    for t in view.rack:
        mine[face(t)] += 1
    start = [view.scores[view.player], view.scores[1 - view.player]]  # ours first, as in the core
    base = start[0] - start[1]
    s = _State(list(view.board.cells), [mine, list(opp)], list(bag), start, list(exchanges),
               view.scoreless_turns, view.consecutive_passes)
    cols = view.board.cols
    _apply(rules, cols, s, 0, move)
    last_p = 0
    leave = [move[6] - move[5], 0.0]  # each side's last move: its equity less its score
    for ply in range(1, plies + 1):
        if s.over:
            break
        p = ply % 2
        last = _best(eng, table, rules, s, p)
        _apply(rules, cols, s, p, last)
        last_p = p
        leave[p] = last[6] - last[5]
    change = s.scores[0] - s.scores[1] - base
    if s.over:
        final = base + change
        return float(change), 1.0 if final > 0 else 0.0 if final < 0 else 0.5
    equity = change + leave[0] - leave[1]
    spread = base + equity
    mover = 1 - last_p
    unseen = len(s.bag) + sum(s.racks[1 - mover])
    if win is None:
        w = 1.0 if spread > 0 else 0.0 if spread < 0 else 0.5
    else:
        w = win.p(spread, unseen) if mover == 0 else 1.0 - win.p(-spread, unseen)
    return equity, w


@dataclass
class RefStat:
    n: int = 0
    total: float = 0.0
    total_sq: float = 0.0
    wins: float = 0.0
    wins_sq: float = 0.0
    pruned: bool = False
    values: list[float] = field(default_factory=list)  # per deal, by the ranking measure

    def mean(self, by_win: bool) -> float:
        return (self.wins if by_win else self.total) / self.n if self.n else 0.0


def reference_simulate(
    eng: Any, table: Any, win: WinTable | None, view: PlayerView,
    candidates: Sequence[tuple[Any, ...]], *, plies: int, iterations: int, seed: int,
    opp_leaves: Sequence[Sequence[int]] = (), exchanges: Sequence[int] = (0, 0),
    z: float | None = None, min_prune: int = 16, batch: int = 16, by_win: bool = True,
) -> list[RefStat]:
    """Per candidate: iterations and sums, with the same batches and dropping rule as the
    compiled loop: after each batch, a candidate behind the leader by more than ``z``
    standard errors of their deal-by-deal difference is dropped (None: never)."""
    stats = [RefStat() for _ in candidates]
    active = list(range(len(candidates)))
    opp_size = view.rack_counts[1 - view.player]
    done = 0
    while done < iterations:
        if len(candidates) > 1 and len(active) == 1:
            break
        nb = min(batch, iterations - done)
        for i in range(done, done + nb):
            opp, bag = _deal(view.unseen, opp_size, opp_leaves, stream_seed(seed, i))
            for c in active:
                e, w = rollout(eng, table, win, view, candidates[c], opp, bag, plies, exchanges)
                st = stats[c]
                st.n += 1
                st.total += e
                st.total_sq += e * e
                st.wins += w
                st.wins_sq += w * w
                st.values.append(w if by_win else e)
        done += nb
        if z is not None and done >= min_prune and len(active) > 1:
            lead = active[0]
            for c in active:
                if stats[c].mean(by_win) > stats[lead].mean(by_win):
                    lead = c
            keep = []
            for c in active:
                diffs = [a - b for a, b in zip(stats[c].values, stats[lead].values, strict=True)]
                d = sum(diffs) / done
                var = sum((x - d) ** 2 for x in diffs) / (done - 1)
                if c != lead and d + z * math.sqrt(var / done) < 0:
                    stats[c].pruned = True
                else:
                    keep.append(c)
            active = keep
    return stats


__all__ = ["RefStat", "reference_simulate", "rollout", "splitmix64", "stream_seed"]
