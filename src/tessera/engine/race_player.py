"""The race player (``race``): plays a finish-line game (R8.3) for the chance of reaching the
target first, not for points and leave.

In a race to the target the score now matters more than the tiles kept (a short race leaves
a leave little time to pay off: ``benchmarks/leaves.py``), and what matters about a move is
whether it brings the finish closer for us than for the opponent. :class:`RacePlayer` decides
a finish-line turn in this order:

1. **A play that reaches the target wins** (R8.3.2): it plays the highest-scoring one.
2. Otherwise it takes the candidates — the best :data:`BY_EQUITY` plays by static equity
   (score + leave), the best :data:`BY_SCORE` plays by score, and the best exchange when it
   is among the :data:`EXCHANGE_RANK` best moves by equity (exchanges are rarely right in a
   race, and a pass only when nothing else is legal) — and simulates them with the compiled
   simulation (:func:`~tessera.engine.simulation.simulate`, ``race=``): every candidate
   played from the same deals of the unseen tiles (the opponent's leave inferred from its
   last move), then :data:`RACE_PLIES` replies of the compiled static player. A rollout in
   which someone reaches the target scores 1 (we did) or 0 (the opponent did); one that
   stops short scores the chance of reaching the target first from there, read from the
   race table (:func:`race_table`: the points each side still needs, less its leave value,
   and who is to move). The table is solved exactly for turns scoring as the static player's
   turns score in self-play races under the same rules, so a rollout's score is smooth
   where a played-out race is 0 or 1, and the candidates separate in far fewer deals. The
   candidate with the highest mean is played — unless its lead over the static best is
   within :data:`CHOOSE_Z` standard errors (deal by deal): the best of a few noisy means
   is more often lucky than better, and measured over races, overriding the static
   choice on thin evidence lost more races than it won (``benchmarks/race.py``).

Outside a finish-line game (and in one it cannot simulate: more than two players, a round
completed after the target, rules the compiled engine does not take) it plays as
``static``: a race player has nothing to add there, and a name that refused ordinary games
would only be a trap in menus and matches. :func:`race_choice` is the decision itself, which
``best`` also uses in finish-line games (:class:`RaceSimPlayer`; ``python -m benchmarks race``
measures either against ``static``). Where the compiled self-play loop cannot play the rules
(no race table), the rollouts play on to the end of the race instead.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from tessera.game import PlayerView
from tessera.lexicon import Leaves, Lexicon
from tessera.move import Move
from tessera.rules import Rules

from . import native
from .compiled_games import derive_seed, play_compiled
from .players import StaticPlayer
from .sim_player import SimPlayer
from .simref import splitmix64
from .simulation import SimResult, SimulationError, simulate
from .timing import move_budget
from .winpct import WinTable

DEFAULT_TIME_LIMIT = 0.5  # seconds a move when no other limit is given
BY_EQUITY = 8  # candidates: the best plays by static equity ...
BY_SCORE = 8  # ... and by score
EXCHANGE_RANK = 3  # the best exchange is a candidate when it ranks this high by equity
RACE_PLIES = 2  # rollout plies before the race table scores the position
END_PLIES = 40  # without a race table: enough plies to end the race
PRUNE_Z = 2.0  # standard errors behind the leader (deal by deal) before a candidate is dropped
CHOOSE_Z: float | None = 1.0  # standard errors the leader must be ahead of the static best

RACE_TABLE_GAMES = 300  # static self-play races measuring the points a turn scores
RACE_TABLE_SEED = 83  # their seed (R8.3)
MAX_TABLES = 16  # race tables kept (by lexicon, rules and leaves)

PLAY, EXCHANGE, PASS = 0, 1, 2  # the compiled engine's move kinds


def is_race(view: PlayerView) -> bool:
    """Whether the race player plays this game for the race: a two-player finish-line game
    (R8.3) ended by the play that reaches the target, under rules the compiled engine takes."""
    rules = view.rules
    return (
        rules.finish_target(len(view.scores)) is not None
        and not rules.finish_line_complete_round
        and len(view.names) == 2
        and native.unsupported_reason(rules) is None
    )


def race_table_from(turn_scores: Sequence[int], target: int) -> WinTable:
    """The race table for a race to ``target`` in which every turn scores as one of
    ``turn_scores`` (equally likely, independently): ``rows[a][b]`` is the chance that the
    player to move, needing ``a`` more points, reaches the target before the other, who
    needs ``b`` (``spread`` is ``b``, ``unseen`` is ``a``, as the compiled core reads it).

    With ``f(s)`` the chance a turn scores ``s``: ``V(a, b) = P(s >= a) + sum over s < a of
    f(s) (1 - V(b, a - s))``, solved by increasing ``a + b``; a scoreless turn (``s = 0``)
    refers back to ``V(b, a)``, so each pair ``V(a, b)``, ``V(b, a)`` is solved together."""
    if target < 1 or not turn_scores:
        raise ValueError("a race table needs a target of at least 1 and some turn scores")
    top = max(max(turn_scores), target)
    f = [0.0] * (top + 1)
    for score in turn_scores:
        f[max(0, score)] += 1.0 / len(turn_scores)
    tail = [0.0] * (top + 2)  # tail[a] = P(s >= a)
    for k in range(top, -1, -1):
        tail[k] = tail[k + 1] + f[k]
    f0 = f[0]
    if f0 >= 1.0:
        raise ValueError("a race table needs turns that score: every turn scored nothing")
    v = [[0.0] * (target + 1) for _ in range(target + 1)]
    for b in range(target + 1):
        v[0][b] = 1.0  # the player to move has reached the target (not asked in play)

    def rest(a: int, b: int) -> float:
        """V(a, b) but for the scoreless turns: those that reach, and those that fall short."""
        return tail[a] + sum(f[k] * (1.0 - v[b][a - k]) for k in range(1, a))

    for total in range(2, 2 * target + 1):
        for a in range(max(1, total - target), min(target, total - 1) + 1):
            b = total - a
            if a > b:
                continue  # solved with (b, a)
            r_ab, r_ba = rest(a, b), rest(b, a)
            # V_ab = r_ab + f0 (1 - V_ba) and V_ba = r_ba + f0 (1 - V_ab)
            v_ab = (r_ab + f0 - f0 * r_ba - f0 * f0) / (1.0 - f0 * f0)
            v[a][b] = min(1.0, max(0.0, v_ab))
            v[b][a] = min(1.0, max(0.0, r_ba + f0 * (1.0 - v_ab)))
    return WinTable(tuple(tuple(row) for row in v), 0, 1)


_TABLES: dict[tuple[int, Rules, int], tuple[Lexicon, Leaves | None, WinTable | None]] = {}


def race_table(lexicon: Lexicon, rules: Rules, leaves: Leaves | None) -> WinTable | None:
    """The race table (:func:`race_table_from`) of a two-player race under ``rules``, from
    the turns of :data:`RACE_TABLE_GAMES` static self-play races (leaves ``leaves``, fixed
    seeds) in the compiled core; None when the compiled loop cannot play these rules (the
    rollouts then play on to the end of the race). Cached."""
    key = (id(lexicon), rules, id(leaves))
    hit = _TABLES.get(key)
    if hit is not None and hit[0] is lexicon and hit[1] is leaves:
        return hit[2]
    target = rules.finish_target(2)
    table = None
    if target is not None and native.selfplay_unsupported_reason(rules) is None:
        scores = [
            turn[1][5]
            for i in range(RACE_TABLE_GAMES)
            for turn in play_compiled(
                rules, lexicon, derive_seed(RACE_TABLE_SEED, i), [leaves, leaves]
            )["turns"]
        ]
        table = race_table_from(scores, target)
    if len(_TABLES) >= MAX_TABLES:
        _TABLES.clear()
    _TABLES[key] = (lexicon, leaves, table)
    return table


def winning_play(view: PlayerView, ranked: list[tuple[Any, ...]]) -> tuple[Any, ...] | None:
    """The highest-scoring play in ``ranked`` (the engine's move tuples) that reaches the
    target, if one does: it ends the game with a win (R8.3.2)."""
    target = view.rules.finish_target(len(view.scores))
    if target is None:
        return None
    need = target - view.scores[view.player]
    plays = [c for c in ranked if c[0] == PLAY]
    best = max(plays, key=lambda c: c[5], default=None)
    return best if best is not None and best[5] >= need else None


def race_candidates(
    ranked: list[tuple[Any, ...]],
    by_equity: int = BY_EQUITY,
    by_score: int = BY_SCORE,
    exchange_rank: int = EXCHANGE_RANK,
) -> list[tuple[Any, ...]]:
    """The moves worth simulating in a race, from every move best equity first: the best
    ``by_equity`` plays by equity, the best ``by_score`` by score, the best exchange when it
    ranks within the first ``exchange_rank`` moves, and the pass only when nothing else is
    legal. In ``ranked``'s order (static best first)."""
    plays = [c for c in ranked if c[0] == PLAY]
    chosen = {id(c) for c in plays[:by_equity]}
    chosen |= {id(c) for c in sorted(plays, key=lambda c: -c[5])[:by_score]}
    exchange = next((c for c in ranked[:exchange_rank] if c[0] == EXCHANGE), None)
    if exchange is not None:
        chosen.add(id(exchange))
    out = [c for c in ranked if id(c) in chosen]
    if not out:  # no play and no exchange worth a look: the best legal move (a pass if none)
        out = ranked[:1]
    return out


def race_choice(
    player: StaticPlayer,
    view: PlayerView,
    budget: float | None,
    iterations: int | None,
    seed: int | None,
    threads: int = 1,
) -> tuple[Move, SimResult | None]:
    """The race move (see the module docstring) for ``player`` (its lexicon and leaves) in a
    race (:func:`is_race`), thinking at most ``budget`` seconds and ``iterations`` deals; the
    simulation, when it ran."""
    began = time.perf_counter()
    alphabet = view.rules.tileset.alphabet
    ranked = player.ranked_raw(view, top=None)
    win = winning_play(view, ranked)
    if win is not None:
        return native.to_move(win, alphabet), None
    cands = race_candidates(ranked, BY_EQUITY, BY_SCORE, EXCHANGE_RANK)
    if len(cands) == 1:
        return native.to_move(cands[0], alphabet), None
    if budget is not None:
        budget = max(0.001, budget - (time.perf_counter() - began))
    leaves = player.leaves_for(view.rules)
    table = race_table(player.lexicon, view.rules, leaves)
    try:
        found = simulate(
            view, RACE_PLIES if table is not None else END_PLIES, iterations, budget, threads,
            [native.to_move(c, alphabet) for c in cands], seed, lexicon=player.lexicon,
            leaves=leaves, rank_by="win", prune_z=PRUNE_Z, choose_z=CHOOSE_Z, race=table,
        )
    except SimulationError:  # a position the simulation cannot take: the static best
        return native.to_move(ranked[0], alphabet), None
    return found.best.move, found


def move_seed(seed: int | None, view: PlayerView) -> int | None:
    """The seed of this move's simulation: from the player's seed and the turn."""
    if seed is None:
        return None
    return splitmix64(splitmix64(seed) ^ len(view.history))


class RacePlayer(StaticPlayer):
    """The race player (see the module docstring): in a finish-line race, the move most
    likely to reach the target first; elsewhere the static player's move. ``time_limit``
    caps a move's seconds and ``iterations`` its deals (with neither,
    :data:`DEFAULT_TIME_LIMIT`); with a ``seed`` and ``iterations`` a move is the same on
    every machine. ``last`` holds the last move's simulation, if it simulated."""

    def __init__(
        self,
        lexicon: Lexicon,
        leaves: Leaves | str | None = "trained",
        name: str = "race",
        *,
        time_limit: float | None = None,
        iterations: int | None = None,
        threads: int = 1,
        seed: int | None = None,
    ) -> None:
        if time_limit is None and iterations is None:
            time_limit = DEFAULT_TIME_LIMIT
        super().__init__(lexicon, leaves, name=name, time_limit=time_limit)
        self.iterations = iterations
        self.threads = threads
        self.seed = seed
        self.last: SimResult | None = None

    def choose(self, view: PlayerView) -> Move:
        forced = self._forced(view)
        if forced is not None:
            return forced
        self.last = None
        if not is_race(view):
            return super().choose(view)
        move, self.last = race_choice(
            self, view, move_budget(view, self.time_limit), self.iterations,
            move_seed(self.seed, view), self.threads,
        )
        return move


class RaceSimPlayer(SimPlayer):
    """The simulating player, which plays a finish-line race as :class:`RacePlayer` does
    (``best``): everywhere else it is :class:`~tessera.engine.sim_player.SimPlayer`."""

    def choose(self, view: PlayerView) -> Move:
        forced = self._forced(view)
        if forced is not None:
            return forced
        if not is_race(view):
            return super().choose(view)
        self.last_search = None
        move, self.last = race_choice(
            self, view, move_budget(view, self.time_limit), self.iterations,
            self.move_seed(view), self.threads,
        )
        return move


__all__ = [
    "DEFAULT_TIME_LIMIT",
    "RacePlayer",
    "RaceSimPlayer",
    "is_race",
    "race_candidates",
    "race_choice",
    "race_table",
    "race_table_from",
    "winning_play",
]
