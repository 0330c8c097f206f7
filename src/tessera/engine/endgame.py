"""Exact endgames: with the bag empty both racks are known, and the best line can be searched.

:func:`solve` takes a :class:`~tessera.game.Game` or a :class:`~tessera.game.PlayerView` whose
bag is empty (a view knows the other rack by elimination: it is the viewer's unseen tiles) and
searches it in the compiled core (``src/tessera/_core/endgame.cpp``): negamax over both sides'
every play and the pass, alpha-beta with principal-variation search, iterative deepening and a
transposition table, under the game's own ending rules -- going out (R6.1, R6.4), the
scoreless-turn ending (R6.2) and the pass endings (R6.3). The value is the spread change from
now to the end of the game for the player to move; it is *proven* when the search reached the
end of the game on every line it relied on. :mod:`tessera.engine.endgame_reference` is the
plain minimax the tests hold it against.

>>> from tessera.formats import cgp
>>> from tessera.lexicon import Lexicon
>>> position = cgp.loads(
...     "7R7/dRIVEN1U7/U1TAXI1E7/N2WITED3B3/I3G6E3/T3E6V3/E2ONLY3GO3/S3COOF2AR1EM/"
...     "3YeUK3L2LA/1DIESTER2L2AD/3C6O2NA/J2H2FIREPAN1M/ANESTRI4GAZE/TO4DAUB5/OH3POI7"
...     " IW/QS 503/383 0 lex enable; tr naspa;"
... )
>>> result = solve(position.to_game(lexicon=Lexicon.load("enable")), time_limit=5.0)
>>> result.value, result.best, result.proven
(27, Play('11K .W', score=12), True)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tessera.board import Board
from tessera.game import Game, GameState, PlayerView
from tessera.lexicon import Lexicon
from tessera.move import Move, Pass, Play
from tessera.rules import Rules, ScorelessEnd
from tessera.tiles import Alphabet

from . import native

DEFAULT_TABLE_MB = 32  # the transposition table: 1M entries of 32 bytes
MAX_THREADS = 256


class EndgameError(ValueError):
    """A position the endgame solver cannot take, with the reason."""


@dataclass(frozen=True)
class EndgameResult:
    """A solved (or, under a time limit, a searched) endgame.

    ``value`` is the spread change from now to the end of the game for the player to move if
    both sides play ``line`` (the principal variation, sides alternating); ``proven`` says it
    is exact, not an estimate cut at ``depth`` plies. ``nodes`` counts the moves the search
    made; ``tt_hit_rate`` is the share of table probes that found their position.
    """

    value: int
    best: Move
    line: tuple[Move, ...]
    proven: bool
    depth: int
    nodes: int
    seconds: float
    tt_hit_rate: float = 0.0


def unsupported_reason(rules: Rules) -> str | None:
    """Why the endgame search cannot follow ``rules`` to the end of a game, if it cannot."""
    if rules.finish_line_target is not None:
        return f"{rules.name}: finish-line games end on a target score, not by the tiles"
    if rules.duplicate is not None:
        return f"{rules.name}: duplicate games have no endgame between two racks"
    on_request = rules.scoreless_end is not ScorelessEnd.AUTOMATIC
    if rules.scoreless_turns_to_end is not None and on_request:
        return f"{rules.name}: games ended on request after scoreless turns"
    if rules.scoreless_turns_to_end is None and rules.passes_to_end_for(2) is None:
        return f"{rules.name}: no scoreless-turn or pass ending, so a game of passes never ends"
    if rules.tileset.alphabet.size > 64:
        return f"{rules.name}: more than 63 tile kinds"
    return None


_ENGINES: dict[tuple[int, Rules], tuple[Lexicon, Any]] = {}
# Of the time left, the share kept for the search to notice the deadline (between two nodes'
# move generations) and its answer to come back: a 50 ms limit overran by 7 ms on a busy
# machine without it.
UNWIND_SHARE = 0.05


def engine(lexicon: Lexicon, rules: Rules) -> Any:
    """The compiled solver (``tessera._core.EndgameSolver``) for a lexicon and rules, cached:
    its transposition table is kept between searches of the same game."""
    return engine_built(lexicon, rules)[0]


def engine_built(lexicon: Lexicon, rules: Rules) -> tuple[Any, bool]:
    """:func:`engine`, and whether this call built it."""
    built = False

    def build() -> Any:
        nonlocal built
        built = True
        from tessera._compiled import _core
        from tessera.movegen import compiled_generator

        return _core.EndgameSolver(
            compiled_generator(lexicon, rules, None), native.rules_dict(rules), DEFAULT_TABLE_MB
        )

    reason = unsupported_reason(rules)
    if reason:
        raise EndgameError(reason)
    if not hasattr(lexicon, "kwg"):
        raise EndgameError("the endgame search needs a word graph: give a Lexicon")
    mismatch = native.alphabet_mismatch(lexicon, rules)
    if mismatch:
        raise EndgameError(mismatch)
    return native.cached(_ENGINES, lexicon, rules, build, limit=9), built


@dataclass(frozen=True)
class Position:
    """What the search needs: the board, the mover's and the opponent's racks (counts per
    tile id), the scoreless-turn and pass counts, and the scores (mover first)."""

    rules: Rules
    board: Board
    rack: tuple[int, ...]
    other: tuple[int, ...]
    scoreless: int
    passes: int
    scores: tuple[int, int]


def _counts(tiles: Sequence[int], size: int) -> tuple[int, ...]:
    counts = [0] * size
    for t in tiles:
        counts[t] += 1
    return tuple(counts)


def position_of(position: Game | PlayerView, *, bag: int = 0) -> Position:
    """The endgame position of a game or a view, checked: two players, a game in progress,
    ``bag`` tiles in the bag, tiles on both racks. Raises :class:`EndgameError`."""
    if not isinstance(position, Game | PlayerView):
        raise EndgameError(f"solve a Game or a PlayerView, not {type(position).__name__}")
    rules = position.rules
    reason = unsupported_reason(rules)
    if reason:
        raise EndgameError(reason)
    names = position.players if isinstance(position, Game) else position.names
    if len(names) != 2:
        raise EndgameError(f"endgames are searched between two players, not {len(names)}")
    if position.state is GameState.OVER:
        raise EndgameError("the game is over")
    if position.state is GameState.AWAITING_FINAL:
        raise EndgameError("the last play went out: the game ends when it is accepted")
    if position.bag_count != bag:
        raise EndgameError(
            f"the bag holds {position.bag_count} tile(s); "
            + ("an endgame needs an empty bag" if bag == 0 else f"expected {bag}")
        )
    size = rules.tileset.alphabet.size
    mover = position.to_move
    if isinstance(position, Game):
        rack = tuple(position.rack(mover).counts)
        other = tuple(position.rack(1 - mover).counts)
        scoreless, passes = position.scoreless_turns, position.consecutive_passes
    else:
        mine = _counts(position.rack, size)
        unseen = tuple(position.unseen)
        if bag == 0:
            rack, other = (mine, unseen) if position.player == mover else (unseen, mine)
        else:  # the other rack is unknown: callers enumerate the draws
            if position.player != mover:
                raise EndgameError("only the player to move can weigh the draws of the bag")
            rack, other = mine, unseen
        scoreless, passes = position.scoreless_turns, position.consecutive_passes
    if not sum(rack):
        raise EndgameError("the player to move has no tiles")
    if not sum(other):
        raise EndgameError("the opponent has no tiles: the game is over")
    scores = position.scores
    return Position(
        rules,
        position.board,
        rack,
        other,
        scoreless,
        passes,
        (scores[mover], scores[1 - mover]),
    )


def move_key(move: Move) -> tuple[int, int, int, bool, tuple[int, ...]] | None:
    """A move as the compiled solver names it (None: the pass is (2, ...))."""
    if isinstance(move, Play):
        return (0, move.row, move.col, move.across, tuple(move.word))
    if isinstance(move, Pass):
        return (2, 0, 0, False, ())
    raise EndgameError(f"the endgame search plays tiles or passes, not {move!r}")


def _result(raw: dict[str, Any], alphabet: Alphabet) -> EndgameResult:
    line = tuple(native.to_move(t, alphabet) for t in raw["line"])
    probes = raw["tt_probes"]
    return EndgameResult(
        value=raw["value"],
        best=line[0],
        line=line,
        proven=raw["proven"],
        depth=raw["depth"],
        nodes=raw["nodes"],
        seconds=raw["seconds"],
        tt_hit_rate=raw["tt_hits"] / probes if probes else 0.0,
    )


def _check_limits(time_limit: float | None, threads: int, max_depth: int | None) -> None:
    if time_limit is not None and not time_limit > 0:
        raise EndgameError(f"time_limit must be a positive number of seconds, not {time_limit!r}")
    if not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
        raise EndgameError(f"threads must be 1..{MAX_THREADS}, not {threads!r}")
    if max_depth is not None and (not isinstance(max_depth, int) or max_depth < 1):
        raise EndgameError(f"max_depth must be a positive number of plies, not {max_depth!r}")


def search(
    solver: Any,
    pos: Position,
    *,
    bag: Sequence[int] = (),
    deadline: float | None = None,
    threads: int = 1,
    max_depth: int | None = None,
    plain: bool = False,
    clear: bool = False,
    only: Move | None = None,
) -> EndgameResult:
    """One search of ``pos`` (the bag ``bag`` in draw order; ``only``: the root tries only this
    move) until ``deadline`` (a :func:`time.monotonic` time), ``max_depth`` plies or proof.
    ``plain`` searches with plain alpha-beta to the end of the game (no table, no principal
    variation search, no deepening): the tests' yardstick. The solver's table is kept from
    search to search (an entry describes its position whatever led there); ``clear`` empties
    it first (benchmarks do, to time each position alone)."""
    time_limit = 0.0
    if deadline is not None:
        time_limit = max((deadline - time.monotonic()) * (1 - UNWIND_SHARE), 1e-6)
    raw = solver.solve(
        bytes(pos.board.cells),
        list(pos.rack),
        list(pos.other),
        list(bag),
        pos.scoreless,
        pos.passes,
        time_limit,
        threads,
        max_depth or 0,
        plain,
        clear,
        move_key(only) if only is not None else None,
    )
    return _result(raw, pos.rules.tileset.alphabet)


def solve(
    position: Game | PlayerView,
    *,
    time_limit: float | None = None,
    threads: int = 1,
    max_depth: int | None = None,
    lexicon: Lexicon | None = None,
) -> EndgameResult:
    """Search the endgame of ``position`` (a game or a view with an empty bag).

    ``time_limit`` (seconds) bounds the call: the best line found by then comes back
    with the depth reached and ``proven`` False unless it was proven (a word list's first
    search builds its solver and table before the clock starts, once). ``threads`` search
    together (lazy SMP, sharing the table); ``max_depth`` stops the deepening at that many
    plies. ``lexicon`` is the word list (a Game brings its own; a view needs it). Raises
    :class:`EndgameError` for a position the search cannot take.
    """
    started = time.monotonic()
    _check_limits(time_limit, threads, max_depth)
    pos = position_of(position)
    words = lexicon if lexicon is not None else getattr(position, "lexicon", None)
    if words is None:
        raise EndgameError("give the lexicon: a PlayerView does not carry one")
    solver, built = engine_built(words, pos.rules)
    if built:  # a one-off: the table's memory is allocated and cleared
        started = time.monotonic()
    deadline = None if time_limit is None else started + time_limit
    return search(solver, pos, deadline=deadline, threads=threads, max_depth=max_depth)


__all__ = [
    "EndgameError",
    "EndgameResult",
    "Position",
    "engine",
    "position_of",
    "search",
    "solve",
    "unsupported_reason",
]
