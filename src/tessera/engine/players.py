"""Computer players: the player protocol, the static-equity player and the levels for people.

A player gets only a :class:`~tessera.game.PlayerView` and returns a move
(``choose(view) -> Move``). :class:`StaticPlayer` plays the move of best *static equity*:
score plus the value of the tiles it keeps (KLV2 leave values), and, once the bag is empty,
+2x the opponent's rack for going out or -(10 + 2x its own remaining tiles) for not going
out. Exchanges and passes are candidates too; while tiles remain in the bag a pass is worth the
best other move less a turn (it keeps the rack and draws nothing), so it is played only when
nothing else is legal. :class:`LevelPlayer` (levels 1-5) picks among
the good moves with a controlled probability and prefers common words.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from tessera.board import Board
from tessera.game import EventKind, GameState, PlayerView
from tessera.lexicon import Leaves, Lexicon
from tessera.move import Challenge, Exchange, Move, Pass, Play
from tessera.rules import Rules
from tessera.tiles import Alphabet, letter_of

from . import native
from .shipped_leaves import load_table, trained_leaves

DEFAULT_LEAVES = "enable.klv2"


@runtime_checkable
class Player(Protocol):
    """Anything that picks a move from what one player may know."""

    name: str

    def choose(self, view: PlayerView) -> Move: ...


@dataclass(frozen=True)
class RankedMove:
    """A candidate move with its score and static equity."""

    move: Move
    score: int
    equity: float


def default_leaves() -> Leaves:
    """The shipped leave values trained by self-play with ENABLE (``data/leaves``)."""
    return load_table(DEFAULT_LEAVES)


def exchanges_done(view: PlayerView, player: int | None = None) -> int:
    """Exchanges ``player`` (default: the viewer) has made so far."""
    who = view.player if player is None else player
    return sum(1 for e in view.history if e.kind is EventKind.EXCHANGE and e.player == who)


def can_exchange(view: PlayerView) -> bool:
    """Whether some exchange may be legal for the viewer (bag size and exchange limit)."""
    rules = view.rules
    need = 1 if rules.exchange_min_bag is None else max(rules.exchange_min_bag, 1)
    if view.bag_count < need:
        return False
    limit = rules.max_exchanges_per_player
    return limit is None or exchanges_done(view) < limit


def finish_line_last_turn(view: PlayerView, top_score: Callable[[], int]) -> bool:
    """R8.3: whether the viewer's play this turn may be its last, so the tiles it keeps are
    worth nothing: the final round is on, or its best-scoring play (``top_score()``, asked
    only in a finish-line game) reaches the target, which ends the game (a win) or starts
    the final round."""
    target = view.rules.finish_target(len(view.scores))
    if target is None:
        return False
    if view.rules.finish_line_complete_round and max(view.scores) >= target:
        return True
    return view.scores[view.player] + top_score() >= target


def phony_in_last_play(view: PlayerView, lexicon: Lexicon) -> bool:
    """True if the viewer may challenge and the last play formed a word not in ``lexicon``."""
    if not view.can_challenge:
        return False
    for event in reversed(view.history):
        if event.kind is EventKind.PLAY:
            return any(not lexicon.contains([letter_of(t) for t in w]) for w in event.words)
        if event.kind in (EventKind.PASS, EventKind.EXCHANGE):
            return False
    return False


class StaticPlayer:
    """The move of best static equity (score + leave value, endgame-adjusted).

    ``leaves`` is a :class:`~tessera.lexicon.Leaves` table, None for zero leaves, or
    ``"trained"`` (the default) for the shipped table of the game being played (its tile set,
    rack size and board: :mod:`tessera.engine.shipped_leaves`), zero leaves where none fits.
    The compiled engine ranks the moves; a play the opponent made with a word that is not in
    the lexicon is challenged. In a finish-line game a turn that may be the player's last
    (:func:`finish_line_last_turn`) ranks by score alone: what it keeps is worth nothing.
    """

    def __init__(
        self,
        lexicon: Lexicon,
        leaves: Leaves | str | None = "trained",
        name: str = "static",
        time_limit: float | None = None,
    ) -> None:
        self.lexicon = lexicon
        self.trained = leaves == "trained"
        self.leaves = resolve_leaves(leaves, lexicon)  # the standard game's, when trained
        self.name = name
        # Seconds a move may take (see tessera.engine.timing); ranking one position is far
        # quicker than any budget, so the static player only keeps it for its subclasses.
        self.time_limit = time_limit

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    def leaves_for(self, rules: Rules) -> Leaves | None:
        """The table this player values leaves with in a game under ``rules``."""
        if not self.trained:
            return self.leaves
        return resolve_leaves("trained", self.lexicon, rules)

    def ranked(self, view: PlayerView, top: int | None = None) -> list[RankedMove]:
        """The viewer's moves, best equity first (``top`` of them; None for all)."""
        alphabet = view.rules.tileset.alphabet
        return [
            RankedMove(native.to_move(c, alphabet), c[5], c[6]) for c in self.ranked_raw(view, top)
        ]

    def ranked_raw(self, view: PlayerView, top: int | None = None) -> list[tuple[Any, ...]]:
        """:meth:`ranked` as the compiled engine lists moves: ``(kind, row, col, across,
        tiles, score, equity)`` (what the simulation takes as candidates)."""
        if view.state is GameState.OVER:
            raise ValueError("the game is over: there is no move to choose")
        rules = view.rules
        eng = native.engine(self.lexicon, rules)
        opp_points = sum(rules.tileset.values[t] * n for t, n in enumerate(view.unseen) if t)

        def rank(leaves: Leaves | None, count: int) -> list[tuple[Any, ...]]:
            return eng.moves(
                view.board.cells,
                list(view.rack),
                native.leave_table(leaves),
                view.bag_count,
                opp_points,
                can_exchange(view),
                count,
            )

        count = 0 if top is None else max(1, top)
        leaves = self.leaves_for(rules)
        if leaves is not None and finish_line_last_turn(view, lambda: rank(None, 1)[0][5]):
            return rank(None, count)
        return rank(leaves, count)

    def _forced(self, view: PlayerView, challenges: bool = True) -> Move | None:
        """The move the situation dictates (accept an out-play, challenge a phony), if any."""
        if view.state is GameState.OVER:
            raise ValueError("the game is over: there is no move to choose")
        if challenges and phony_in_last_play(view, self.lexicon):
            return Challenge()
        if view.state is GameState.AWAITING_FINAL:
            return Pass()
        return None

    def choose(self, view: PlayerView) -> Move:
        forced = self._forced(view)
        if forced is not None:
            return forced
        return self.ranked(view, top=1)[0].move


@dataclass(frozen=True)
class Level:
    """How a level for people picks its move.

    With probability ``p_best`` it plays the best-equity move (or, when ``sim_iterations`` is
    set, the best of its ``pool`` by a short simulation of that many iterations); otherwise
    it samples among the ``pool`` best moves with weight ``exp((equity - best) /
    temperature)``, times ``rare_weight`` for a play whose main word is not a common word.
    ``leaves`` says whether it values the tiles it keeps.
    """

    number: int
    pool: int
    p_best: float
    temperature: float
    rare_weight: float
    leaves: bool
    description: str
    sim_iterations: int = 0

    def sample(
        self,
        rng: random.Random,
        moves: Sequence[Move],
        values: Sequence[float],
        is_common: Callable[[Move], bool],
    ) -> Move:
        """One of ``moves`` (best first, valued by ``values``) drawn as the level draws
        when it does not play the best: weight ``exp((value - best) / temperature)``, times
        ``rare_weight`` for an uncommon word."""
        best = values[0]
        weights = []
        for move, value in zip(moves, values, strict=True):
            w = math.exp((value - best) / self.temperature)
            if not is_common(move):
                w *= self.rare_weight
            weights.append(w)
        return weighted_choice(rng, moves, weights)


LEVELS: dict[int, Level] = {
    1: Level(1, 60, 0.0, 40.0, 0.02, False, "beginner: short common words, often low-scoring"),
    2: Level(2, 40, 0.05, 16.0, 0.1, False, "casual: common words, sometimes a good play"),
    3: Level(3, 30, 0.1, 10.0, 0.2, True, "club: decent plays, mostly common words"),
    4: Level(4, 20, 0.15, 7.0, 0.3, True, "strong: good plays, prefers familiar words"),
    5: Level(5, 12, 0.3, 5.0, 0.7, True, "expert: often the best play, by a short simulation",
             sim_iterations=100),
}


class LevelPlayer(StaticPlayer):
    """A weaker player for people: see :class:`Level`. ``seed`` fixes its choices."""

    def __init__(
        self,
        lexicon: Lexicon,
        level: int,
        leaves: Leaves | None = None,
        seed: int | None = None,
        common: frozenset[str] | None = None,
        time_limit: float | None = None,
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"level must be 1..{len(LEVELS)}, not {level!r}")
        self.level = LEVELS[level]
        super().__init__(
            lexicon, (leaves or "trained") if self.level.leaves else None, name=f"level{level}",
            time_limit=time_limit,
        )
        self.rng = random.Random(seed)
        if common is None:
            from .commonwords import common_words

            common = common_words()
        self.common = common

    def _is_common(self, view: PlayerView, move: Move) -> bool:
        if not isinstance(move, Play):
            return True
        return word_text(view, move) in self.common

    def choose(self, view: PlayerView) -> Move:
        forced = self._forced(view, challenges=self.level.number >= 3)
        if forced is not None:
            return forced
        ranked = self.ranked(view, top=self.level.pool)
        plays = [r for r in ranked if isinstance(r.move, Play | Exchange | Pass)]
        if not plays:
            return Pass()
        if self.rng.random() < self.level.p_best:
            if self.level.sim_iterations and len(plays) > 1:
                return self._simulated(view, len(plays))
            return plays[0].move
        return self.level.sample(
            self.rng,
            [r.move for r in plays],
            [r.equity for r in plays],
            lambda move: self._is_common(view, move),
        )


    def _simulated(self, view: PlayerView, pool: int) -> Move:
        """The best of the ``pool`` best static moves by a short simulation (the static best
        in a game the simulation does not take)."""
        from .simulation import SimulationError, simulate
        from .timing import move_budget

        seed = self.rng.randrange(2**63)
        try:
            result = simulate(
                view, iterations=self.level.sim_iterations,
                time_limit=move_budget(view, self.time_limit), candidates=pool, seed=seed,
                lexicon=self.lexicon, leaves=self.leaves_for(view.rules),
            )
        except (SimulationError, native.EngineUnavailable):
            return self.ranked(view, top=1)[0].move
        return result.best.move


def word_text(view: PlayerView, play: Play) -> str:
    """The main word of a play as upper-case text (played-through letters from the board)."""
    return main_word(view.board, view.rules.tileset.alphabet, play)


def main_word(board: Board, alphabet: Alphabet, play: Play) -> str:
    """The main word of ``play`` on ``board`` as upper-case text."""
    dr, dc = (0, 1) if play.across else (1, 0)
    letters = []
    for i, t in enumerate(play.word):
        tile = t or board.get(play.row + dr * i, play.col + dc * i)
        letters.append(alphabet.label(letter_of(tile)))
    return "".join(letters).upper()


def weighted_choice(rng: random.Random, items: Sequence[Move], weights: Sequence[float]) -> Move:
    """One item drawn with these weights (deterministic for a seeded ``rng``)."""
    total = sum(weights)
    x = rng.random() * total
    for item, w in zip(items, weights, strict=True):
        x -= w
        if x < 0:
            return item
    return items[-1]


PLAYER_NAMES = (
    "static", "static-noleaves", "static-endgame", "level1", "level2", "level3", "level4",
    "level5", "sim", "best",
)


def get_player(
    name: str,
    lexicon: Lexicon,
    *,
    seed: int | None = None,
    leaves: Leaves | None = None,
    time_limit: float | None = None,
) -> StaticPlayer:
    """A computer player by name: ``static`` (trained leaves), ``static-noleaves``,
    ``static-endgame`` (static, then the exact endgame search once the bag is empty),
    ``level1`` … ``level5``, ``sim`` (simulation, pre-endgame and exact endgame:
    :class:`~tessera.engine.SimPlayer`) and ``best`` (the strongest: today ``sim``).

    ``leaves`` overrides the shipped table; ``seed`` fixes a level or simulating player's
    random choices; ``time_limit`` is the seconds a move may take (the simulating players
    think for :data:`~tessera.engine.sim_player.DEFAULT_TIME_LIMIT` without one).
    """
    key = name.strip().lower()
    trained: Leaves | str = leaves if leaves is not None else "trained"
    if key == "static":
        return StaticPlayer(lexicon, trained, name=key, time_limit=time_limit)
    if key == "static-noleaves":
        return StaticPlayer(lexicon, None, name=key, time_limit=time_limit)
    if key == "static-endgame":
        from .endgame_player import EndgamePlayer

        return EndgamePlayer(lexicon, trained, name=key)
    if key in ("sim", "best"):
        from .sim_player import SimPlayer

        return SimPlayer(lexicon, trained, name=key, time_limit=time_limit, seed=seed)
    level = level_number(key)
    if level is not None:
        return LevelPlayer(lexicon, level, trained, seed=seed, time_limit=time_limit)
    raise ValueError(f"unknown player {name!r}; players: {', '.join(PLAYER_NAMES)}")


def level_number(name: str) -> int | None:
    """N for a level's name ``levelN`` (1..5), else None."""
    if name.startswith("level") and name[5:].isdigit() and int(name[5:]) in LEVELS:
        return int(name[5:])
    return None


def resolve_leaves(
    leaves: Leaves | str | None, lexicon: Lexicon, rules: Rules | None = None
) -> Leaves | None:
    """A leave table as players take it: a table, None (zero leaves) or ``"trained"`` (the
    shipped table of a game with ``lexicon`` under ``rules`` — by default the standard game in
    the lexicon's language — or zero leaves where none fits)."""
    if isinstance(leaves, str):
        if leaves != "trained":
            raise ValueError(f"leaves must be a Leaves table, None or 'trained', not {leaves!r}")
        return trained_leaves(lexicon, rules)
    return leaves
