"""The player protocol and the static-equity player, on which every computer player is built.

A player gets only a :class:`~tessera.game.PlayerView` and returns a move
(``choose(view) -> Move``). :class:`StaticPlayer` plays the move of best *static equity*:
score plus the value of the tiles it keeps (KLV2 leave values), and, once the bag is empty,
+2x the opponent's rack for going out or -(10 + 2x its own remaining tiles) for not going
out. Exchanges and passes are candidates too; while tiles remain in the bag a pass is worth the
best other move less a turn (it keeps the rack and draws nothing), so it is played only when
nothing else is legal. The levels for people are in :mod:`tessera.engine.level_player`, the
players by name in :mod:`tessera.engine.registry`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from tessera.game import EventKind, GameState, PlayerView
from tessera.lexicon import Leaves, Lexicon
from tessera.move import Challenge, Move, Pass
from tessera.rules import Rules
from tessera.tiles import letter_of

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
