"""The bridge to the compiled static engine (``tessera._core.StaticEngine``).

One :class:`~tessera._core.StaticEngine` is built per (lexicon, rules) pair and cached, on
the compiled move generator of :mod:`tessera.movegen`; one :class:`~tessera._core.LeaveTable`
per :class:`~tessera.lexicon.Leaves`. Both the Python players and the compiled self-play loop
rank moves with the same engine, so a game played move by move through
:class:`tessera.game.Game` and the same game played inside the compiled loop are identical
(tested).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tessera._compiled import _core
from tessera.lexicon import Leaves, Lexicon
from tessera.move import Exchange, Move, Pass, Play
from tessera.rules import OutAdjust, Rules, ScorelessEnd
from tessera.tiles import Alphabet


class EngineUnavailable(RuntimeError):
    """The compiled static engine cannot serve these rules or this build."""


def available() -> bool:
    """True if the compiled core has the static engine."""
    return _core is not None and hasattr(_core, "StaticEngine")


def unsupported_reason(rules: Rules, players: int = 2) -> str | None:
    """Why the compiled engine cannot rank moves (or play whole games) under ``rules``."""
    if not available():
        return "the compiled core was built without the static engine (reinstall tessera)"
    if not rules.first_play_covers_center:
        return f"{rules.name}: a first play that need not cover the start square"
    if rules.tileset.alphabet.size > 63:
        return f"{rules.name}: more than 63 tile kinds"
    if rules.rack_size > 15:
        return f"{rules.name}: racks of more than 15 tiles"
    return None


def selfplay_unsupported_reason(rules: Rules, players: int = 2) -> str | None:
    """Why the compiled self-play loop cannot play a whole game under ``rules``."""
    reason = unsupported_reason(rules, players)
    if reason:
        return reason
    if players != 2:
        return "the compiled self-play loop plays two-player games"
    if rules.finish_line_target is not None and rules.finish_line_complete_round:
        return f"{rules.name}: finish-line games that complete the round"
    on_request = rules.scoreless_end is not ScorelessEnd.AUTOMATIC
    if rules.scoreless_turns_to_end is not None and on_request:
        return f"{rules.name}: games ended on request after scoreless turns"
    if rules.duplicate is not None:
        return f"{rules.name}: duplicate games"
    return None


def rules_dict(rules: Rules) -> dict[str, Any]:
    """The rules the compiled engine needs, as plain numbers (-1 = none)."""
    passes = rules.passes_to_end_for(2)
    return {
        "rack_size": rules.rack_size,
        "exchange_min_bag": -1 if rules.exchange_min_bag is None else rules.exchange_min_bag,
        "max_exchanges": (
            -1 if rules.max_exchanges_per_player is None else rules.max_exchanges_per_player
        ),
        "exchange_counts_as_scoreless": int(rules.exchange_counts_as_scoreless),
        "exchange_counts_as_pass": int(rules.exchange_counts_as_pass),
        "scoreless_turns_to_end": (
            -1 if rules.scoreless_turns_to_end is None else rules.scoreless_turns_to_end
        ),
        "zero_point_play_is_scoreless": int(rules.zero_point_play_is_scoreless),
        "zeros_can_end_empty_board": int(rules.zeros_can_end_empty_board),
        "passes_to_end": -1 if passes is None else passes,
        "out_double": int(rules.out_adjust is OutAdjust.DOUBLE),
        "finish_target": finish_target_for_selfplay(rules),
    }


def finish_target_for_selfplay(rules: Rules) -> int:
    """R8.3: the two-player target at which a play ends the game, -1 when none (or when the
    round is completed first, which the compiled loop does not play)."""
    target = rules.finish_target(2)
    return -1 if target is None or rules.finish_line_complete_round else target


_ENGINES: dict[tuple[int, Rules], tuple[Lexicon, Any]] = {}
_TABLES: dict[int, tuple[Leaves, Any]] = {}


def alphabet_mismatch(lexicon: Lexicon, rules: Rules) -> str | None:
    """Why ``lexicon`` cannot play under ``rules``' tile set, if it cannot."""
    if lexicon.alphabet.size == rules.tileset.alphabet.size:
        return None
    return (
        f"the lexicon's alphabet has {lexicon.alphabet.size} tiles but the "
        f"{rules.tiles} tile set has {rules.tileset.alphabet.size}"
    )


def cached(
    cache: dict[tuple[int, Rules], tuple[Lexicon, Any]],
    lexicon: Lexicon,
    rules: Rules,
    build: Callable[[], Any],
    limit: int | None = None,
) -> Any:
    """``build()``'s compiled object for this lexicon and rules, kept in ``cache`` (a lexicon
    is told by identity; past ``limit`` entries the cache starts again)."""
    key = (id(lexicon), rules)
    hit = cache.get(key)
    if hit is not None and hit[0] is lexicon:
        return hit[1]
    made = build()
    if limit is not None and len(cache) >= limit:
        cache.clear()
    cache[key] = (lexicon, made)
    return made


def engine(lexicon: Lexicon, rules: Rules) -> Any:
    """The compiled engine for this lexicon and rules (cached)."""
    reason = unsupported_reason(rules)
    if reason:
        raise EngineUnavailable(reason)
    mismatch = alphabet_mismatch(lexicon, rules)
    if mismatch:
        raise ValueError(mismatch)
    from tessera.movegen import compiled_generator

    return cached(
        _ENGINES,
        lexicon,
        rules,
        lambda: _core.StaticEngine(compiled_generator(lexicon, rules, None), rules_dict(rules)),
    )


def leave_table(leaves: Leaves | None) -> Any:
    """The compiled form of ``leaves`` (cached); None stays None (zero leaves)."""
    if leaves is None:
        return None
    hit = _TABLES.get(id(leaves))
    if hit is not None and hit[0] is leaves:
        return hit[1]
    table = _core.LeaveTable(leaves.kwg.nodes, leaves.values)
    _TABLES[id(leaves)] = (leaves, table)
    return table


def to_move(cand: tuple[Any, ...], alphabet: Alphabet | None = None) -> Move:
    """A move from the engine's ``(kind, row, col, across, tiles, score, equity)``, written in
    ``alphabet`` when it prints."""
    kind, row, col, across, tiles, score, _equity = cand
    if kind == 0:
        return Play(row, col, bool(across), tuple(tiles), score, alphabet)
    if kind == 1:
        return Exchange(tuple(tiles), alphabet=alphabet)
    return Pass()
