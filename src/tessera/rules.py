"""Rules: every configurable behaviour of RULES.md (each "Cfg") as a field, and named presets."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .layouts import Layout, layout
from .tiles import Alphabet, TileError, TileSet, tileset


class RulesError(ValueError):
    """A rules value that is inconsistent or unknown."""


class ChallengeRule(StrEnum):
    """R5.4: what an unsuccessful challenge costs (and whether challenges exist at all)."""

    VOID = "void"  # R5.4e: invalid words are refused before commit
    SINGLE = "single"  # R5.4b: no penalty
    DOUBLE = "double"  # R5.4a: the challenger loses the next turn
    PENALTY = "penalty"  # R5.4c: points per word or per play
    TRIPLE = "triple"  # R5.4d: whoever is wrong loses the game


class FirstPlayer(StrEnum):
    """R1.4: who moves first."""

    DRAW = "draw"
    BALANCE_THEN_DRAW = "balance_then_draw"
    FIXED = "fixed"


class CenterMiss(StrEnum):
    """R2.6.1: a first play that misses the start square."""

    ILLEGAL = "illegal"
    CHALLENGEABLE = "challengeable"


class Validity(StrEnum):
    """R2.11, R8.5: exact words, or anagrams of words (Clabbers)."""

    EXACT = "exact"
    ANAGRAM = "anagram"


class ChallengeScope(StrEnum):
    """R5.2: the whole play is judged, or only the words the challenger lists."""

    WHOLE_PLAY = "whole_play"
    LISTED_WORDS = "listed_words"


class PenaltyPer(StrEnum):
    WORD = "word"
    PLAY = "play"


class PenaltyAppliesTo(StrEnum):
    CHALLENGED_BONUS = "challenged_bonus"
    CHALLENGER_DEDUCTION = "challenger_deduction"


class ScorelessEnd(StrEnum):
    """R6.2: the game ends by itself, or either player may end it once the count is reached."""

    AUTOMATIC = "automatic"
    ON_REQUEST = "on_request"


class OutAdjust(StrEnum):
    """R6.4: rack adjustment when a player goes out."""

    BOX = "box"  # everyone loses their rack; the out player gains the total
    DOUBLE = "double"  # the out player gains 2× the opponents' racks; nobody loses


class TieBreak(StrEnum):
    """R6.6."""

    PRE_ADJUSTMENT = "pre_adjustment"
    DRAW = "draw"


class OnMaxOvertime(StrEnum):
    """R7.3."""

    END_SCORES_STAND = "end_scores_stand"
    FORFEIT = "forfeit"


@dataclass(frozen=True)
class TimeControl:
    """R7: per-player main time, increment, overtime penalty and the maximum overtime."""

    initial_ms: int = 25 * 60_000
    increment_ms: int = 0
    penalty_points_per_minute: int = 10
    max_overtime_min: int = 10
    on_max_overtime: OnMaxOvertime = OnMaxOvertime.END_SCORES_STAND
    overtime_penalty_cap: int | None = None  # points; None = no cap beyond max overtime
    hold_provisional_draw_s: int = 15  # R7.4

    def overtime_penalty(self, overtime_ms: int) -> int:
        """R7.2: 10 points per started minute over (2:05 over costs 30)."""
        if overtime_ms <= 0:
            return 0
        minutes = -(-overtime_ms // 60_000)
        points = self.penalty_points_per_minute * minutes
        if self.overtime_penalty_cap is not None:
            points = min(points, self.overtime_penalty_cap)
        return points


@dataclass(frozen=True)
class DuplicateSettings:
    """R8.4 duplicate (FISF-style) settings, played by :class:`tessera.duplicate.DuplicateGame`.

    ``round_seconds``: a round's time (None: no limit); ``vowels``: the letters that count
    as vowels (add ``Y`` to count it as one; every other letter is a consonant);
    ``blank_counts_as``: ``none`` (a blank is neither) or ``either`` (as whichever the rack
    lacks); ``min_vc_by_round``: ``(last round or None, vowels, consonants)`` minimums, the
    first entry whose last round is not yet passed applies; ``top_tiebreak``: ``random``
    (seeded) or ``avoid_blanks_open`` (fewest blanks, then the most open board);
    ``solo_bonus``: points to the only player who finds a top (with two players or more);
    ``misreport``: ``zero`` (a wrong declared score scores 0) or
    ``as_reported_under_double_over`` (an under-report scores as reported, an over-report
    loses twice the excess)."""

    round_seconds: int | None = 180
    vowels: str = "AEIOU"
    blank_counts_as: str = "either"  # none | either
    min_vc_by_round: tuple[tuple[int | None, int, int], ...] = ((15, 2, 2), (None, 1, 1))
    top_tiebreak: str = "random"
    solo_bonus: int = 0
    misreport: str = "zero"  # zero | as_reported_under_double_over

    def __post_init__(self) -> None:
        choices = {
            "blank_counts_as": ("none", "either"),
            "top_tiebreak": ("random", "avoid_blanks_open"),
            "misreport": ("zero", "as_reported_under_double_over"),
        }
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise RulesError(
                    f"duplicate {name} {getattr(self, name)!r}: use one of {', '.join(allowed)}"
                )
        if self.round_seconds is not None and self.round_seconds <= 0:
            raise RulesError("duplicate round_seconds must be positive (or None: no limit)")
        if not self.min_vc_by_round or self.min_vc_by_round[-1][0] is not None:
            raise RulesError("duplicate min_vc_by_round must end with an entry for every round "
                             "(last round None)")


@dataclass(frozen=True)
class Rules:
    """Everything that varies between rulesets (RULES.md §10). Presets are just values."""

    name: str = "custom"
    # R1: setup
    tiles: str = "english"
    board: str = "standard15"
    min_players: int = 2
    max_players: int = 4
    rack_size: int = 7
    first_player: FirstPlayer = FirstPlayer.DRAW
    first_player_index: int = 0  # with FirstPlayer.FIXED
    return_order_tiles: bool = True  # R1.4.1: drawn order tiles go back before racks
    # R2: placement
    min_first_play_tiles: int = 2
    first_play_covers_center: bool = True
    center_miss: CenterMiss = CenterMiss.ILLEGAL
    min_word_length: int = 2
    validity: Validity = Validity.EXACT
    lexicon: str | None = None  # the agreed word source by name (R2.11); None = any given
    # R3: scoring
    bingo_bonus: tuple[tuple[int, int], ...] = ((7, 50),)
    # R4: pass and exchange
    exchange_min_bag: int | None = 7  # None = bag must hold at least as many as exchanged
    max_exchanges_per_player: int | None = None
    exchange_counts_as_scoreless: bool = True
    # R5: challenges
    challenge_rule: ChallengeRule = ChallengeRule.DOUBLE
    penalty_points: int = 5
    penalty_per: PenaltyPer = PenaltyPer.WORD
    penalty_applies_to: PenaltyAppliesTo = PenaltyAppliesTo.CHALLENGED_BONUS
    challenge_scope: ChallengeScope = ChallengeScope.WHOLE_PLAY
    # R6: ending
    scoreless_turns_to_end: int | None = 6
    scoreless_end: ScorelessEnd = ScorelessEnd.AUTOMATIC
    zero_point_play_is_scoreless: bool = False
    zeros_can_end_empty_board: bool = True
    passes_to_end: int | None = None  # consecutive passes that end the game (WWF 3)
    pass_rounds_to_end: int | None = None  # full rounds of passes (Hasbro 1, Mattel 2; R6.3)
    challenge_counts_as_pass: bool = False  # a challenged-off play counts as a pass (Spanish)
    exchange_counts_as_pass: bool = False  # exchanges continue a run of passes (Lexulous)
    out_adjust: OutAdjust = OutAdjust.DOUBLE
    tie_break: TieBreak = TieBreak.DRAW
    # R7: time
    clock: TimeControl | None = None
    # R8.3: finish line
    finish_line_target: int | str | None = None  # points, or beginner/intermediate/expert
    finish_line_complete_round: bool = False
    # R8.4: duplicate
    duplicate: DuplicateSettings | None = None
    # GCG pragmas (R9.3)
    gcg_game_type: str = "classic"

    def __post_init__(self) -> None:
        if not 1 <= self.rack_size <= 15:
            raise RulesError(f"rack_size {self.rack_size} must be 1..15")
        if not 1 <= self.min_players <= self.max_players <= 4:
            raise RulesError("players must satisfy 1 <= min_players <= max_players <= 4")
        for n, pts in self.bingo_bonus:
            if not 1 <= n <= self.rack_size or pts < 0:
                raise RulesError(f"bingo_bonus entry {n}:{pts} does not fit rack_size")
        if self.first_player is FirstPlayer.FIXED and not 0 <= self.first_player_index < 4:
            raise RulesError("first_player_index must be 0..3")
        if isinstance(self.finish_line_target, str):
            if self.finish_line_target not in FINISH_LINE_TARGETS[2]:
                raise RulesError(
                    f"finish_line_target {self.finish_line_target!r}: use a number or one of "
                    + ", ".join(FINISH_LINE_TARGETS[2])
                )

    # -- derived values ------------------------------------------------------------------

    @property
    def tileset(self) -> TileSet:
        return tileset(self.tiles)

    @property
    def layout(self) -> Layout:
        return layout(self.board)

    def bingo(self, tiles_played: int) -> int:
        """R3.7: the bonus for placing this many rack tiles in one play."""
        return dict(self.bingo_bonus).get(tiles_played, 0)

    def passes_to_end_for(self, num_players: int) -> int | None:
        """R6.3: consecutive passes that end the game with this many players, if any."""
        counts = [n for n in (self.passes_to_end,) if n is not None]
        if self.pass_rounds_to_end is not None:
            counts.append(self.pass_rounds_to_end * num_players)
        return min(counts) if counts else None

    def finish_target(self, num_players: int) -> int | None:
        """R8.3: the target score for this many players, or None when not finish-line."""
        t = self.finish_line_target
        if t is None or isinstance(t, int):
            return t
        return FINISH_LINE_TARGETS[num_players][t]

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (fields are checked again)."""
        return dataclasses.replace(self, **changes)

    def for_alphabet(self, alphabet: Alphabet | None) -> Rules:
        """These rules for a word list spelled in ``alphabet``: a national list plays with its
        own language's tiles and values on the preset's board (a French or Dutch list too,
        though English tiles spell it: their values are not French or Dutch); an English list
        plays with any tile set that spells it (the preset's: Super, WWF, duplicate's French).
        Rules whose tiles cannot spell the list are returned as they are (the caller refuses
        the pair)."""
        if alphabet is None:
            return self
        same_labels = tuple(alphabet.labels) == tuple(self.tileset.alphabet.labels)
        if same_labels and alphabet.name in (self.tileset.alphabet.name, "english"):
            return self
        try:
            own = tileset(alphabet.name)
        except TileError:
            return self
        if tuple(own.alphabet.labels) != tuple(alphabet.labels):
            return self
        return self.replace(tiles=own.name)


FINISH_LINE_TARGETS: dict[int, dict[str, int]] = {
    1: {"beginner": 70, "intermediate": 120, "expert": 200},
    2: {"beginner": 70, "intermediate": 120, "expert": 200},
    3: {"beginner": 60, "intermediate": 100, "expert": 180},
    4: {"beginner": 50, "intermediate": 90, "expert": 160},
}

_TOURNAMENT = Rules(
    name="tournament",
    min_players=2,
    max_players=2,
    first_player=FirstPlayer.BALANCE_THEN_DRAW,
    exchange_min_bag=7,
    scoreless_turns_to_end=6,
    out_adjust=OutAdjust.DOUBLE,
    tie_break=TieBreak.DRAW,
    clock=TimeControl(),
)

PRESETS: dict[str, Rules] = {
    "hasbro": Rules(
        name="hasbro",
        exchange_min_bag=None,
        challenge_rule=ChallengeRule.DOUBLE,
        scoreless_turns_to_end=None,
        pass_rounds_to_end=1,
        out_adjust=OutAdjust.BOX,
        tie_break=TieBreak.PRE_ADJUSTMENT,
    ),
    "mattel": Rules(
        name="mattel",
        exchange_min_bag=7,
        challenge_rule=ChallengeRule.DOUBLE,
        scoreless_turns_to_end=None,
        pass_rounds_to_end=2,
        out_adjust=OutAdjust.BOX,
        tie_break=TieBreak.PRE_ADJUSTMENT,
    ),
    "naspa": _TOURNAMENT.replace(
        name="naspa",
        lexicon="NWL23",
        center_miss=CenterMiss.CHALLENGEABLE,
        challenge_rule=ChallengeRule.DOUBLE,
        challenge_scope=ChallengeScope.LISTED_WORDS,  # §10: NASPA (NWL) listed_words
    ),
    "naspa_csw": _TOURNAMENT.replace(
        name="naspa_csw",
        lexicon="CSW24",
        center_miss=CenterMiss.CHALLENGEABLE,
        challenge_rule=ChallengeRule.PENALTY,
        penalty_points=5,
        penalty_per=PenaltyPer.WORD,
        challenge_scope=ChallengeScope.LISTED_WORDS,
    ),
    "wespa": _TOURNAMENT.replace(
        name="wespa",
        lexicon="CSW24",
        challenge_rule=ChallengeRule.PENALTY,
        penalty_points=5,
        penalty_per=PenaltyPer.WORD,
        challenge_scope=ChallengeScope.LISTED_WORDS,
    ),
    "woogles": _TOURNAMENT.replace(
        name="woogles",
        first_player=FirstPlayer.FIXED,
        clock=TimeControl(on_max_overtime=OnMaxOvertime.FORFEIT),
    ),
    "casual": Rules(
        name="casual",
        challenge_rule=ChallengeRule.VOID,
        exchange_min_bag=7,
        scoreless_turns_to_end=6,
        out_adjust=OutAdjust.BOX,
        tie_break=TieBreak.PRE_ADJUSTMENT,
    ),
}
PRESETS["super"] = PRESETS["hasbro"].replace(
    name="super",
    tiles="english_super",
    board="super21",
    exchange_min_bag=7,
    gcg_game_type="classic_super",
)
PRESETS["nine_tile"] = PRESETS["hasbro"].replace(
    name="nine_tile", rack_size=9, bingo_bonus=((7, 50), (8, 50), (9, 50)), exchange_min_bag=9
)
PRESETS["hkcc9"] = _TOURNAMENT.replace(
    name="hkcc9",
    tiles="hkcc",
    rack_size=9,
    bingo_bonus=((9, 50),),
    exchange_min_bag=9,
    challenge_rule=ChallengeRule.DOUBLE,
    clock=None,
)
PRESETS["wwf"] = Rules(
    name="wwf",
    tiles="wwf",
    board="wwf15",
    bingo_bonus=((7, 35),),
    challenge_rule=ChallengeRule.VOID,
    scoreless_turns_to_end=None,
    passes_to_end=3,
    exchange_min_bag=7,
    out_adjust=OutAdjust.BOX,
    tie_break=TieBreak.DRAW,
)
PRESETS["lexulous"] = Rules(
    name="lexulous",
    tiles="lexulous",
    board="lexulous15",
    rack_size=8,
    bingo_bonus=((7, 40), (8, 50)),
    challenge_rule=ChallengeRule.VOID,
    scoreless_turns_to_end=None,
    passes_to_end=3,
    exchange_counts_as_pass=True,
    exchange_min_bag=7,
    out_adjust=OutAdjust.BOX,
    tie_break=TieBreak.DRAW,
)
PRESETS["clabbers"] = PRESETS["wespa"].replace(
    name="clabbers", validity=Validity.ANAGRAM, gcg_game_type="wordsmog"
)
PRESETS["finish_line"] = PRESETS["hasbro"].replace(
    name="finish_line", finish_line_target="intermediate"
)
PRESETS["duplicate"] = Rules(
    name="duplicate",
    tiles="french",
    min_players=1,
    max_players=4,
    challenge_rule=ChallengeRule.VOID,
    scoreless_turns_to_end=None,
    duplicate=DuplicateSettings(),
    tie_break=TieBreak.DRAW,
)


def preset(name: str | Rules) -> Rules:
    """A named preset (``naspa``, ``wespa``, ``hasbro``, …); a Rules value passes through."""
    if isinstance(name, Rules):
        return name
    try:
        return PRESETS[name.lower()]
    except KeyError:
        raise RulesError(
            f"no rules preset {name!r}; presets: {', '.join(sorted(PRESETS))}"
        ) from None


__all__ = [
    "PRESETS",
    "CenterMiss",
    "ChallengeRule",
    "ChallengeScope",
    "DuplicateSettings",
    "FirstPlayer",
    "OnMaxOvertime",
    "OutAdjust",
    "PenaltyAppliesTo",
    "PenaltyPer",
    "Rules",
    "RulesError",
    "ScorelessEnd",
    "TieBreak",
    "TimeControl",
    "preset",
]
