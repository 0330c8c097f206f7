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
  it. ``tessera tournament simulate`` and ``python -m benchmarks tournament`` report how many
  players end two or more from even (5,700 of 40,000 over 1,000 40-player, 12-round events).

networkx's blossom algorithm (``max_weight_matching`` with ``maxcardinality``, on the
complement of the weights) is pure Python, so a complete graph of 500 players (125,000 edges)
takes tens of seconds. Up to 64 players the matching is over every pair, the true optimum.
Above that the standings are cut into blocks (at score-group ends where possible), each matched
over plausible pairs only: each player and the next ``candidate_window`` players, and on down
until that many are players it has not met. A block whose matching repeats a pairing is merged
with its neighbours and matched again; one that floats players out of an edge score group more
than parity forces (they might do better in the next block) is merged with the neighbour on
that side, and kept as merged when that lowered none of the weights that decide who meets whom
(:data:`JUDGED`): the float was forced wherever it went. This restriction is a heuristic, not
a proof of optimality: tests/tournament/test_tournament_pairing_matching.py compares it, forced
on with small blocks and windows, with a brute force over every pairing of small divisions.
A 500-player round takes 0.05 to 0.45 s on a busy 2-core machine, four fifths of it in
networkx (``python -m benchmarks tournament`` times each round beside the merge rule before).
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


# the weights that decide who meets whom; rank distance and firsts clashes only choose among
# the pairings these rank equal (the block matching is judged by these: :func:`min_weight_pairs`)
JUDGED: tuple[Policy, ...] = (repeats, score_gap, prize_contention)

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


def pair_weigher(
    ctx: PairContext, policies: Sequence[Policy]
) -> Callable[[PlayerRecord, PlayerRecord], int]:
    """:func:`pair_weight` of ``policies`` as a function of the two players. For the default
    set (every policy of :data:`POLICIES`, each once) the same sum is worked out inline, a few
    times faster: the matching weighs about twelve pairs a player, and five calls a pair were
    a tenth of a 500-player round. The named policies stay the reference (a test checks the
    two agree on random players)."""
    if len(policies) != len(POLICIES) or {id(p) for p in policies} != {
        id(p) for p in POLICIES.values()
    }:
        return lambda a, b: pair_weight(a, b, ctx, policies)
    rank, contending, limit = ctx.rank, ctx.contenders, ctx.repeat_limit

    def weight(a: PlayerRecord, b: PlayerRecord) -> int:
        met = a.opponents.count(b.number)
        half_wins = round(2 * abs(a.wins - b.wins))
        lean_a, lean_b = a.firsts - a.seconds, b.firsts - b.seconds
        return (
            REPEAT_WEIGHT * met
            + (OVER_LIMIT_WEIGHT if met >= limit else 0)
            + SCORE_GAP_WEIGHT * half_wins * half_wins
            + (CONTENTION_WEIGHT if (a.number in contending) != (b.number in contending) else 0)
            + RANK_WEIGHT * abs(rank[a.number] - rank[b.number])
            + (FIRSTS_WEIGHT * min(abs(lean_a), abs(lean_b)) if lean_a * lean_b > 0 else 0)
        )

    return weight


def _candidates(players: Sequence[PlayerRecord], i: int, window: int) -> list[PlayerRecord]:
    """The players after ``players[i]`` it is joined to: the next ``window``, and further on
    until ``window`` of those joined are players it has not met."""
    a, fresh = players[i], 0
    out: list[PlayerRecord] = []
    for b in players[i + 1 :]:
        if len(out) >= window and fresh >= window:
            break
        out.append(b)
        fresh += b.number not in a.opponents
    return out


def _matching(
    players: Sequence[PlayerRecord], ctx: PairContext, policies: Sequence[Policy], window: int
) -> list[tuple[int, int]] | None:
    """The optimum over the candidate pairs (:func:`_candidates`), or None when they hold no
    perfect matching."""
    weight = pair_weigher(ctx, policies)
    edges = [
        (a.number, b.number, weight(a, b))
        for i, a in enumerate(players)
        for b in _candidates(players, i, window)
    ]
    top = max((w for _, _, w in edges), default=0) + 1
    graph = nx.Graph()
    graph.add_weighted_edges_from((u, v, top - w) for u, v, w in edges)
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
    settle: bool = True,
) -> list[tuple[int, int]]:
    """A minimum-weight perfect matching of ``players`` (an even count, standings order), each
    pair (higher-ranked, lower-ranked).

    Up to ``exact_limit`` players the matching is over every pair: the true optimum. Above, the
    standings are cut into blocks of about ``block`` players (at score-group ends where
    possible) and each block is matched over its candidate pairs (:func:`_candidates`). A block
    whose matching repeats a pairing, or that has none, is merged with its neighbours on both
    sides and matched again. A block whose matching only floats players across an edge score
    group (:func:`_troubles`) is merged with the neighbour on that side; with ``settle``, when
    the merged matching costs no less by the weights that decide who meets whom
    (:data:`JUDGED`) than its parts did, the merge gained nothing and the merged block is kept
    as it is, not merged on (without ``settle``, the rule before, kept for comparison: a
    troubled block merged with both neighbours, and on until clean). A float forced by a small
    group whose players have met (two players on 2.5 wins among hundreds on 3 and 2) costs the
    same wherever the group floats, and merging on for it once took a 500-player round through
    blocks of 76, 116, ... 334 players (1.7 s; now 0.15 s)."""
    if len(players) % 2:
        raise PairingError(f"cannot pair an odd number ({len(players)}) of players")
    if len(players) > exact_limit:
        pairs = _block_pairs(players, ctx, policies, window, block, settle)
        if pairs is not None:
            return pairs
    pairs = _matching(players, ctx, policies, len(players) - 1)
    assert pairs is not None, "a complete graph has a perfect matching"
    return pairs


def _block_pairs(
    players: Sequence[PlayerRecord],
    ctx: PairContext,
    policies: Sequence[Policy],
    window: int,
    block: int,
    settle: bool,
) -> list[tuple[int, int]] | None:
    """The block matching of :func:`min_weight_pairs`, or None when the candidate pairs of the
    whole division, merged into one block, hold no perfect matching."""
    records = {p.number: p for p in players}
    judged = [policy for policy in policies if policy in JUDGED]
    spans = _blocks(players, block)
    solved: dict[tuple[int, int], list[tuple[int, int]] | None] = {}
    settled: set[tuple[int, int]] = set()

    def solve(span: tuple[int, int]) -> list[tuple[int, int]] | None:
        if span not in solved:
            part = players[span[0] : span[1]]
            solved[span] = _matching(part, ctx, policies, min(window, len(part) - 1))
        return solved[span]

    def cost(span: tuple[int, int]) -> float:
        pairs = solve(span)
        if pairs is None:
            return float("inf")
        return sum(pair_weight(records[a], records[b], ctx, judged) for a, b in pairs)

    i = 0
    while i < len(spans):
        span = spans[i]
        pairs = solve(span)
        if len(spans) == 1:
            return pairs
        if span in settled:
            i += 1
            continue
        hard, up, down = (
            (True, True, True) if pairs is None
            else _troubles(players[span[0] : span[1]], records, pairs, i > 0,
                           i < len(spans) - 1)
        )
        if not (hard or up or down):
            i += 1
            continue
        if not settle:  # the rule before: both neighbours, whatever the trouble
            up = down = True
        lo, hi = (i - 1 if up and i > 0 else i), (i + 1 if down and i < len(spans) - 1 else i)
        parts, merged = spans[lo : hi + 1], (spans[lo][0], spans[hi][1])
        spans[lo : hi + 1] = [merged]
        if (settle and not hard and solve(merged) is not None
                and cost(merged) >= sum(cost(part) for part in parts)):
            settled.add(merged)
        i = lo
    out = []
    for span in spans:
        pairs = solved[span]
        assert pairs is not None, "a block without a matching is merged on"
        out += pairs
    return out


def _troubles(
    part: Sequence[PlayerRecord],
    records: dict[int, PlayerRecord],
    pairs: list[tuple[int, int]],
    above: bool,
    below: bool,
) -> tuple[bool, bool, bool]:
    """Why a block's matching cannot be trusted without its neighbours (``above``/``below``:
    whether the block has one on that side), as (it repeats a pairing, its top score group
    sends more players across to the rest of the block than parity forces, its bottom group
    does): a player floated down from the top group because of a repeat might float better
    into the block above."""
    if any(records[a].times_played(b) for a, b in pairs):
        return True, above, below
    top, bottom = part[0].wins, part[-1].wins
    if top == bottom:
        return False, False, False
    top_count = sum(1 for p in part if p.wins == top)
    bottom_count = sum(1 for p in part if p.wins == bottom)
    from_top = sum(1 for a, b in pairs if (records[a].wins == top) != (records[b].wins == top))
    from_bottom = sum(
        1 for a, b in pairs if (records[a].wins == bottom) != (records[b].wins == bottom))
    return (False, above and from_top > top_count % 2,
            below and from_bottom > bottom_count % 2)
