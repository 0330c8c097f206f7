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
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Protocol, runtime_checkable

from tessera.game import EventKind, GameState, PlayerView
from tessera.lexicon import Leaves, Lexicon
from tessera.move import Challenge, Exchange, Move, Pass, Play
from tessera.tiles import letter_of

from . import native

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


@cache
def default_leaves() -> Leaves:
    """The shipped leave values trained by self-play with ENABLE (``data/leaves``)."""
    ref = resources.files("tessera.data").joinpath("leaves", DEFAULT_LEAVES)
    with resources.as_file(ref) as path:
        return Leaves.load(path)


def _exchanges_done(view: PlayerView) -> int:
    return sum(1 for e in view.history if e.kind is EventKind.EXCHANGE and e.player == view.player)


def can_exchange(view: PlayerView) -> bool:
    """Whether some exchange may be legal for the viewer (bag size and exchange limit)."""
    rules = view.rules
    need = 1 if rules.exchange_min_bag is None else max(rules.exchange_min_bag, 1)
    if view.bag_count < need:
        return False
    limit = rules.max_exchanges_per_player
    return limit is None or _exchanges_done(view) < limit


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
    ``"trained"`` (the default) for the shipped table when the lexicon's alphabet is English.
    The compiled engine ranks the moves; a play the opponent made with a word that is not in
    the lexicon is challenged.
    """

    def __init__(
        self, lexicon: Lexicon, leaves: Leaves | str | None = "trained", name: str = "static"
    ) -> None:
        if isinstance(leaves, str):
            if leaves != "trained":
                raise ValueError(
                    f"leaves must be a Leaves table, None or 'trained', not {leaves!r}"
                )
            leaves = _leaves_for(lexicon)
        self.lexicon = lexicon
        self.leaves = leaves
        self.name = name

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    def ranked(self, view: PlayerView, top: int | None = None) -> list[RankedMove]:
        """The viewer's moves, best equity first (``top`` of them; None for all)."""
        if view.state is GameState.OVER:
            raise ValueError("the game is over: there is no move to choose")
        rules = view.rules
        eng = native.engine(self.lexicon, rules)
        opp_points = sum(rules.tileset.values[t] * n for t, n in enumerate(view.unseen) if t)
        cands = eng.moves(
            view.board.cells,
            list(view.rack),
            native.leave_table(self.leaves),
            view.bag_count,
            opp_points,
            can_exchange(view),
            0 if top is None else max(1, top),
        )
        return [RankedMove(native.to_move(c), c[5], c[6]) for c in cands]

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

    With probability ``p_best`` it plays the best-equity move; otherwise it samples among the
    ``pool`` best moves with weight ``exp((equity - best) / temperature)``, times
    ``rare_weight`` for a play whose main word is not a common word. ``leaves`` says whether
    it values the tiles it keeps.
    """

    number: int
    pool: int
    p_best: float
    temperature: float
    rare_weight: float
    leaves: bool
    description: str


LEVELS: dict[int, Level] = {
    1: Level(1, 60, 0.0, 40.0, 0.02, False, "beginner: short common words, often low-scoring"),
    2: Level(2, 40, 0.05, 16.0, 0.1, False, "casual: common words, sometimes a good play"),
    3: Level(3, 30, 0.1, 10.0, 0.2, True, "club: decent plays, mostly common words"),
    4: Level(4, 20, 0.15, 7.0, 0.3, True, "strong: good plays, prefers familiar words"),
    5: Level(5, 12, 0.3, 5.0, 0.7, True, "expert: often the best static play"),
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
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"level must be 1..{len(LEVELS)}, not {level!r}")
        self.level = LEVELS[level]
        if self.level.leaves and leaves is None:
            leaves = _leaves_for(lexicon)
        super().__init__(lexicon, leaves if self.level.leaves else None, name=f"level{level}")
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
            return plays[0].move
        best = plays[0].equity
        weights = []
        for r in plays:
            w = math.exp((r.equity - best) / self.level.temperature)
            if not self._is_common(view, r.move):
                w *= self.level.rare_weight
            weights.append(w)
        return weighted_choice(self.rng, [r.move for r in plays], weights)


def word_text(view: PlayerView, play: Play) -> str:
    """The main word of a play as upper-case text (played-through letters from the board)."""
    alphabet = view.rules.tileset.alphabet
    dr, dc = (0, 1) if play.across else (1, 0)
    letters = []
    for i, t in enumerate(play.word):
        tile = t or view.board.get(play.row + dr * i, play.col + dc * i)
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
    "level5", "best",
)


def get_player(
    name: str, lexicon: Lexicon, *, seed: int | None = None, leaves: Leaves | None = None
) -> StaticPlayer:
    """A computer player by name: ``static`` (trained leaves), ``static-noleaves``,
    ``static-endgame`` (static, then the exact endgame search once the bag is empty),
    ``level1`` … ``level5``, ``best`` (the strongest available).

    ``leaves`` overrides the shipped table; ``seed`` fixes a level player's random choices.
    """
    key = name.strip().lower()
    trained = leaves if leaves is not None else _leaves_for(lexicon)
    if key in ("static", "best"):
        return StaticPlayer(lexicon, trained, name=key)
    if key == "static-noleaves":
        return StaticPlayer(lexicon, None, name=key)
    if key == "static-endgame":
        from .endgame_player import EndgamePlayer

        return EndgamePlayer(lexicon, trained, name=key)
    if key.startswith("level") and key[5:].isdigit() and int(key[5:]) in LEVELS:
        return LevelPlayer(lexicon, int(key[5:]), trained, seed=seed)
    raise ValueError(f"unknown player {name!r}; players: {', '.join(PLAYER_NAMES)}")


def _leaves_for(lexicon: Lexicon) -> Leaves | None:
    """The shipped leaves when the lexicon uses their (English) alphabet, else zero leaves."""
    table = default_leaves()
    if lexicon.alphabet.size != 27:
        return None
    return table
