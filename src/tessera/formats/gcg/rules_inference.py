"""The rules a GCG record implies when it names none (:func:`infer_rules`): NASPA-like on
the declared board and tile set (or the ones its lexicon implies), with the challenge rule
and the out adjustment read off its lines, as the package docstring describes."""

from __future__ import annotations

import math
from typing import Any

from ...rules import (
    ChallengeRule,
    ChallengeScope,
    OutAdjust,
    PenaltyAppliesTo,
    PenaltyPer,
    Rules,
    Validity,
    preset,
)
from .. import implied_tiles
from .record import MAX_PLAYERS, GcgError, GcgGame, LineKind


def infer_rules(record: GcgGame) -> Rules:
    """The rules a record implies when it names none (see the module docstring)."""
    if record.tessera_rules is not None:
        return record.tessera_rules
    base = preset("naspa")
    changes: dict[str, Any] = {}
    if record.board_layout:
        changes["board"] = record.board_layout
    if record.tile_distribution:
        changes["tiles"] = record.tile_distribution
    else:
        super_board = changes.get("board") == "super21" or (record.game_type or "").endswith(
            "_super"
        )
        try:
            implied = implied_tiles(record.lexicon, super_board)
        except ValueError as exc:
            line = next((n for name, _, n in record.pragmas if name == "lexicon"), None)
            raise GcgError(f"#lexicon {exc}; name it with #tile-distribution", line) from None
        if implied:
            changes["tiles"] = implied
        if implied == "english_super":
            changes.setdefault("board", "super21")
    if (record.game_type or "").startswith("wordsmog"):
        changes["validity"] = Validity.ANAGRAM
    if record.lexicon:
        changes["lexicon"] = record.lexicon
    if len(record.players) > 2:
        changes["max_players"] = MAX_PLAYERS
    if len(record.players) < 2:
        changes["min_players"] = 1
    bonus = [e.score for e in record.events if e.kind is LineKind.CHALLENGE_BONUS]
    penalty = [-e.score for e in record.events if e.kind is LineKind.CHALLENGE_PENALTY]
    amounts = [a for a in bonus + penalty if a > 0]
    if amounts:
        points = 5 if all(a % 5 == 0 for a in amounts) else math.gcd(*amounts)
        changes.update(
            challenge_rule=ChallengeRule.PENALTY,
            penalty_points=points,
            penalty_per=PenaltyPer.WORD,
            challenge_scope=ChallengeScope.LISTED_WORDS,
            penalty_applies_to=PenaltyAppliesTo.CHALLENGER_DEDUCTION
            if penalty
            else PenaltyAppliesTo.CHALLENGED_BONUS,
        )
    elif bonus:
        changes["challenge_rule"] = ChallengeRule.SINGLE
    if any(e.kind is LineKind.END_RACK_PENALTY for e in record.events) and any(
        e.kind is LineKind.END_RACK_POINTS for e in record.events
    ):
        changes["out_adjust"] = OutAdjust.BOX
    return base.replace(**changes)
