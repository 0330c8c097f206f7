"""The repeat-minimising pairing: a minimum-weight perfect matching over the players.

The weight of a pair is the sum of named policies, as woogles' pairing service (liwords'
``pair`` package) lists its constraints and weights by name. Each policy is a small function of
the two players and a :class:`PairContext`; a director can switch any off by name
(``PairingSettings.policies``). The weights, all integers so the optimum is exact:

- ``repeats``: 10⁹ per earlier meeting of the two, and 10¹² more for a meeting beyond
  ``repeat_limit``: more than any score gap, so a repeat is taken only when no pairing of
  everyone avoids it, and one past the limit only when nothing else exists.
- ``score_gap``: 10,000 × (difference in wins, in half-wins)²: players meet their own score
  group first, and a group's odd player floats to the nearest group.
- ``prize_contention``: 5,000 when one player can still reach a prize place and the other
  cannot (:func:`.gibson.contenders`): contenders keep playing each other.
- ``rank_distance``: 10 × the distance of the two in the standings: within a score group the
  leader plays the next player they may (1v2, 3v4, ...).
- ``firsts_clash``: 50 × how far past even the one sent to the side they are not due would
  be pushed, when both players went first more often than second (or both less): worth five
  places in the standings, so within a score group the matching swaps partners to keep
  everyone's firsts and seconds within one, but never floats a player to another group for
  it. Over 60 simulated 40-player, 12-round Swiss events this cut the players who ended two
  or more from even from 562 to 338 of 2,400 (weight 5: a tie-break only), with the top seed
  winning as often (``tessera tournament simulate`` reports the count).

networkx's blossom algorithm (``max_weight_matching`` with ``maxcardinality``, on the
complement of the weights) is pure Python, so a complete graph of 500 players (125,000 edges)
takes tens of seconds. Up to 64 players the matching is over every pair, the true optimum.
Above that the standings are cut into blocks (at score-group ends where possible), each matched
over plausible pairs only: each player and the next ``candidate_window`` players, and on down
until that many are players it has not met. A block whose matching repeats a pairing, or floats
players out of an edge score group more than parity forces (they might do better in the next
block), is merged with its neighbours and matched again. This restriction is a heuristic, not
a proof of optimality: tests/tournament/test_tournament_pairing_matching.py compares it, forced
on with small blocks and windows, with a brute force over every pairing of small divisions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import networkx as nx

from tessera.tournament.history import DivisionHistory, PlayerRecord
from tessera.tournament.pairing.errors import PairingError
from tessera.tournament.pairing.gibson import contenders

REPEAT_WEIGHT = 1_000_000_000
OVER_LIMIT_WEIGHT = 1_000_000_000_000
SCORE_GAP_WEIGHT = 10_000
CONTENTION_WEIGHT = 5_000
RANK_WEIGHT = 10
FIRSTS_WEIGHT = 50
EXACT_LIMIT = 64  # up to this many players, the matching is over every pair


@dataclass(frozen=True)
class PairContext:
    """What the policies know of the round beyond the two players."""

    rank: dict[int, int]  # player number -> place in the standings, from 0
    contenders: frozenset[int]
    repeat_limit: int


Policy = Callable[[PlayerRecord, PlayerRecord, PairContext], int]


def repeats(a: PlayerRecord, b: PlayerRecord, ctx: PairContext) -> int:
    """Earlier meetings, and meetings beyond the repeat limit, at prohibitive weights."""
    met = a.times_played(b.number)
    return REPEAT_WEIGHT * met + (OVER_LIMIT_WEIGHT if met >= ctx.repeat_limit else 0)


def score_gap(a: PlayerRecord, b: PlayerRecord, ctx: PairContext) -> int:
    """The square of the difference in wins, in half-wins (ties count a half)."""
    half_wins = round(2 * abs(a.wins - b.wins))
    return SCORE_GAP_WEIGHT * half_wins * half_wins


def prize_contention(a: PlayerRecord, b: PlayerRecord, ctx: PairContext) -> int:
    """A contender for a prize paired with a player who can no longer reach one."""
    return CONTENTION_WEIGHT if (a.number in ctx.contenders) != (b.number in ctx.contenders) else 0


def rank_distance(a: PlayerRecord, b: PlayerRecord, ctx: PairContext) -> int:
    """How far apart the two stand: neighbours meet."""
    return RANK_WEIGHT * abs(ctx.rank[a.number] - ctx.rank[b.number])


def firsts_clash(a: PlayerRecord, b: PlayerRecord, ctx: PairContext) -> int:
    """Both due the same side: the one sent to the other side ends further from even."""
    lean_a, lean_b = a.firsts - a.seconds, b.firsts - b.seconds
    if lean_a * lean_b <= 0:
        return 0
    return FIRSTS_WEIGHT * min(abs(lean_a), abs(lean_b))


POLICIES: dict[str, Policy] = {
    "repeats": repeats,
    "score_gap": score_gap,
    "prize_contention": prize_contention,
    "rank_distance": rank_distance,
    "firsts_clash": firsts_clash,
}


def chosen_policies(names: Sequence[str] | None) -> list[Policy]:
    """The policies named (None: all), or a PairingError naming the unknown one."""
    if names is None:
        return list(POLICIES.values())
    unknown = [n for n in names if n not in POLICIES]
    if unknown:
        raise PairingError(
            f"unknown matching policy {unknown[0]!r}; have: {', '.join(POLICIES)}")
    return [POLICIES[n] for n in names]


def pair_context(history: DivisionHistory, repeat_limit: int) -> PairContext:
    rank = {p.number: i for i, p in enumerate(history.players)}
    return PairContext(rank, frozenset(contenders(history)), repeat_limit)


def pair_weight(
    a: PlayerRecord, b: PlayerRecord, ctx: PairContext, policies: Sequence[Policy]
) -> int:
    return sum(policy(a, b, ctx) for policy in policies)


def _candidates(players: Sequence[PlayerRecord], i: int, window: int) -> list[PlayerRecord]:
    """The players after ``players[i]`` it is joined to: the next ``window``, and further on
    until ``window`` of those joined are players it has not met."""
    a, fresh = players[i], 0
    out: list[PlayerRecord] = []
    for b in players[i + 1 :]:
        if len(out) >= window and fresh >= window:
            break
        out.append(b)
        fresh += a.times_played(b.number) == 0
    return out


def _matching(
    players: Sequence[PlayerRecord], ctx: PairContext, policies: Sequence[Policy], window: int
) -> list[tuple[int, int]] | None:
    """The optimum over the candidate pairs (:func:`_candidates`), or None when they hold no
    perfect matching."""
    graph = nx.Graph()
    weights: dict[tuple[int, int], int] = {}
    for i, a in enumerate(players):
        for b in _candidates(players, i, window):
            weights[a.number, b.number] = pair_weight(a, b, ctx, policies)
    top = max(weights.values(), default=0) + 1
    for (u, v), w in weights.items():
        graph.add_edge(u, v, weight=top - w)
    found = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(found) != len(players):
        return None
    return [(a, b) if ctx.rank[a] < ctx.rank[b] else (b, a) for a, b in found]


def _blocks(players: Sequence[PlayerRecord], size: int) -> list[tuple[int, int]]:
    """Consecutive (start, end) spans of ``players``, each an even count, cut where a score
    group ends once a block holds ``size`` players; a score group is cut inside only when it
    runs on for ``size`` players on both sides of the cut (a big division's early rounds)."""
    n, size = len(players), max(2, size + size % 2)
    spans, start, e = [], 0, 0
    while start < n:
        e = start + size
        while e < n:
            ends_group = players[e - 1].wins != players[e].wins
            inside_big = (
                e + size <= n
                and players[e - size].wins == players[e + size - 1].wins
            )
            if ends_group or inside_big:
                break
            e += 2
        spans.append((start, min(e, n)))
        start = min(e, n)
    return spans


def min_weight_pairs(
    players: Sequence[PlayerRecord],
    ctx: PairContext,
    policies: Sequence[Policy],
    window: int,
    block: int = 20,
    exact_limit: int = EXACT_LIMIT,
) -> list[tuple[int, int]]:
    """A minimum-weight perfect matching of ``players`` (an even count, standings order), each
    pair (higher-ranked, lower-ranked).

    Up to ``exact_limit`` players the matching is over every pair: the true optimum. Above, the
    standings are cut into blocks of about ``block`` players (at score-group ends where
    possible) and each block is matched over its candidate pairs (:func:`_candidates`). A block
    whose matching is not :func:`_clean`, or that has none, is merged with its neighbours on
    both sides and matched again, until every block is clean or one block is left."""
    if len(players) % 2:
        raise PairingError(f"cannot pair an odd number ({len(players)}) of players")
    if len(players) > exact_limit:
        spans = _blocks(players, block)
        solved: dict[tuple[int, int], list[tuple[int, int]]] = {}
        while True:
            bad = None
            for i, span in enumerate(spans):
                if span in solved:
                    continue
                part = players[span[0] : span[1]]
                pairs = _matching(part, ctx, policies, min(window, len(part) - 1))
                if pairs is None or (
                    len(spans) > 1 and not _clean(part, pairs, i > 0, i < len(spans) - 1)
                ):
                    bad = span
                    break
                solved[span] = pairs
            if bad is None:
                return [pair for span in spans for pair in solved[span]]
            if len(spans) == 1:
                break  # the candidate pairs hold no perfect matching
            i = spans.index(bad)
            lo, hi = max(0, i - 1), min(len(spans) - 1, i + 1)
            spans[lo : hi + 1] = [(spans[lo][0], spans[hi][1])]
    pairs = _matching(players, ctx, policies, len(players) - 1)
    assert pairs is not None, "a complete graph has a perfect matching"
    return pairs


def _clean(
    part: Sequence[PlayerRecord], pairs: list[tuple[int, int]], above: bool, below: bool
) -> bool:
    """Whether a block's matching can be trusted without its neighbours (``above``/``below``:
    whether the block has one on that side): it repeats no pairing, and its edge score groups
    send no more players across to the rest of the block than parity forces (a player floated
    down from the top group because of a repeat might float better into the block above)."""
    if any(_met(part, a, b) for a, b in pairs):
        return False
    wins = {p.number: p.wins for p in part}
    top, bottom = part[0].wins, part[-1].wins
    if top == bottom:
        return True
    top_count = sum(1 for p in part if p.wins == top)
    bottom_count = sum(1 for p in part if p.wins == bottom)
    from_top = sum(1 for a, b in pairs if (wins[a] == top) != (wins[b] == top))
    from_bottom = sum(1 for a, b in pairs if (wins[a] == bottom) != (wins[b] == bottom))
    return (not above or from_top <= top_count % 2) and (
        not below or from_bottom <= bottom_count % 2)


def _met(players: Sequence[PlayerRecord], a: int, b: int) -> bool:
    record = next(p for p in players if p.number == a)
    return record.times_played(b) > 0
