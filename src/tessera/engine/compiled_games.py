"""Whole static-vs-static games played inside the compiled core, dealt there exactly as
:class:`~tessera.game.Game` deals (bag, first player, racks, random state), so the same seed
gives the same game as the reference loop (:func:`tessera.engine.selfplay.play_game`).
:func:`derive_seed` gives each deal of a match its seed, :func:`play_compiled` plays a game and
:func:`replay` turns its moves back into a :class:`~tessera.game.Game` (for GCG). Matches,
leave training and win-% training all play their games here.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from typing import Any

from tessera.game import Game, GameState
from tessera.lexicon import Leaves, Lexicon
from tessera.rules import FirstPlayer, Rules

from . import native

MAX_TURNS = 1000
MAX_HEAD_START = 10_000  # points a seat may start a compiled game with


def derive_seed(seed: int, index: int) -> int:
    """A 63-bit seed for deal ``index`` of a match seeded with ``seed`` (stable everywhere)."""
    digest = hashlib.blake2b(f"tessera:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") >> 1


def _initial_state(game: Game) -> tuple[list[int], list[int], list[list[int]]]:
    """The bag (in order), the random generator's state and the racks of a fresh game."""
    # The compiled loop continues exactly where Game's own generator and bag stand.
    rng_state = list(game._rng.getstate()[1])
    return list(game._bag), rng_state, [game.rack(i).tiles() for i in range(game.num_players)]


def play_compiled(
    rules: Rules,
    lexicon: Lexicon,
    seed: int,
    leaves: Sequence[Leaves | None],
    max_turns: int = MAX_TURNS,
    scores: Sequence[int] | None = None,
) -> dict[str, Any]:
    """Play a whole static-vs-static game in the compiled core.

    ``leaves[i]`` is seat ``i``'s table (None: zero leaves); ``scores[i]``, when given, is the
    points seat ``i`` starts with (a head start, as the benchmarks measure what leaves are
    worth in a finish-line race). Returns the engine's record:
    ``turns`` (player, (kind, row, col, across, tiles, score, equity), rack before, bag
    count before), ``scores``, ``reason``, ``bingos``.
    """
    reason = native.selfplay_unsupported_reason(rules)
    if reason:
        raise native.EngineUnavailable(reason)
    if scores is not None and (
        len(scores) != 2 or any(not 0 <= s <= MAX_HEAD_START for s in scores)
    ):
        raise ValueError(f"start scores {list(scores)!r}: two numbers from 0 to {MAX_HEAD_START}")
    eng = native.engine(lexicon, rules)
    tables = [native.leave_table(t) for t in leaves]
    if scores is None and 0 <= seed < 2**64:  # the core deals as Game does (R1.4 draw)
        first = rules.first_player_index if rules.first_player is FirstPlayer.FIXED else -1
        bag = _unshuffled_bag(rules)
        return eng.play_seeded(seed, bag, first, rules.return_order_tiles, tables, max_turns)
    game = Game(rules, lexicon=None, players=("A", "B"), seed=seed)
    bag, rng_state, racks = _initial_state(game)
    start = game.scores if scores is None else list(scores)
    return eng.play_game(bag, rng_state, racks, game.to_move, start, tables, max_turns)


@functools.cache
def _unshuffled_bag(rules: Rules) -> list[int]:
    """The bag a new Game starts from (every tile in id order)."""
    return rules.tileset.bag()


def replay(
    rules: Rules, lexicon: Lexicon | None, seed: int, names: Sequence[str], record: dict[str, Any]
) -> Game:
    """The :class:`~tessera.game.Game` of a compiled record (every move checked again)."""
    game = Game(rules, lexicon=lexicon, players=names, seed=seed)
    for player, cand, _rack, _bag in record["turns"]:
        game.play(native.to_move(cand), player)
    if game.state is GameState.AWAITING_FINAL:  # the opponent accepts the out-play
        game.pass_turn(game.to_move)
    return game
