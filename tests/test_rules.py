"""Rules values and presets: RULES.md §10 (R10 presets), R7.2 overtime, R8.1–R8.7 variants."""

from __future__ import annotations

import dataclasses

import pytest

from tessera.layouts import Layout
from tessera.rules import (
    FINISH_LINE_TARGETS,
    PRESETS,
    CenterMiss,
    ChallengeRule,
    ChallengeScope,
    FirstPlayer,
    OnMaxOvertime,
    OutAdjust,
    PenaltyPer,
    Rules,
    RulesError,
    TieBreak,
    TimeControl,
    Validity,
    preset,
)
from tessera.tiles import TileSet

REQUIRED = [
    "hasbro", "mattel", "naspa", "naspa_csw", "wespa", "super", "nine_tile", "hkcc9", "wwf",
    "lexulous", "clabbers", "finish_line", "duplicate",
]

# preset -> (tile set, its total, layout, rows)
RESOURCES = {
    "hasbro": ("english", 100, "standard15", 15),
    "mattel": ("english", 100, "standard15", 15),
    "naspa": ("english", 100, "standard15", 15),
    "naspa_csw": ("english", 100, "standard15", 15),
    "wespa": ("english", 100, "standard15", 15),
    "super": ("english_super", 200, "super21", 21),
    "nine_tile": ("english", 100, "standard15", 15),
    "hkcc9": ("hkcc", 107, "standard15", 15),
    "wwf": ("wwf", 104, "wwf15", 15),
    "lexulous": ("lexulous", 89, "lexulous15", 15),
    "clabbers": ("english", 100, "standard15", 15),
    "finish_line": ("english", 100, "standard15", 15),
    "duplicate": ("french", 102, "standard15", 15),
}


# -- every preset exists and resolves -------------------------------------------------------


@pytest.mark.parametrize("name", REQUIRED)
def test_r10_preset_exists_and_resolves_tiles_and_board(name):
    rules = preset(name)
    assert rules is PRESETS[name]
    assert rules.name == name
    tiles, total, board, rows = RESOURCES[name]
    assert rules.tiles == tiles and rules.board == board
    assert isinstance(rules.tileset, TileSet) and rules.tileset.total == total
    assert isinstance(rules.layout, Layout) and rules.layout.rows == rows


def test_preset_lookup_is_case_insensitive_and_passes_rules_through():
    assert preset("NASPA") is PRESETS["naspa"]
    custom = Rules(name="mine", rack_size=8)
    assert preset(custom) is custom


def test_unknown_preset_lists_the_known_ones():
    with pytest.raises(RulesError, match=r"no rules preset 'scrabble'.*hasbro.*wespa"):
        preset("scrabble")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_bingo_fits_its_rack_and_first_play_rules(name):
    rules = PRESETS[name]
    assert all(1 <= n <= rules.rack_size for n, _ in rules.bingo_bonus)
    assert rules.min_first_play_tiles == 2  # R2, R8.2 "at least 2 tiles", R8.7
    assert rules.first_play_covers_center


# -- §10 table, column by column ------------------------------------------------------------

# key -> {preset: expected}; the RULES.md §10 rows the Rules value carries.
S10 = {
    "min_players": {"hasbro": 2, "mattel": 2, "naspa": 2, "naspa_csw": 2, "wespa": 2,
                    "woogles": 2},
    "max_players": {"hasbro": 4, "mattel": 4, "naspa": 2, "naspa_csw": 2, "wespa": 2,
                    "woogles": 2},
    "first_player": {
        "hasbro": FirstPlayer.DRAW, "mattel": FirstPlayer.DRAW,
        "naspa": FirstPlayer.BALANCE_THEN_DRAW, "naspa_csw": FirstPlayer.BALANCE_THEN_DRAW,
        "wespa": FirstPlayer.BALANCE_THEN_DRAW, "woogles": FirstPlayer.FIXED,
    },
    "center_miss": {
        "hasbro": CenterMiss.ILLEGAL, "mattel": CenterMiss.ILLEGAL,
        "naspa": CenterMiss.CHALLENGEABLE, "naspa_csw": CenterMiss.CHALLENGEABLE,
        "wespa": CenterMiss.ILLEGAL, "woogles": CenterMiss.ILLEGAL,
    },
    "bingo_bonus": {p: ((7, 50),) for p in
                    ("hasbro", "mattel", "naspa", "naspa_csw", "wespa", "woogles")},
    "exchange_min_bag": {"hasbro": None, "mattel": 7, "naspa": 7, "naspa_csw": 7, "wespa": 7,
                         "woogles": 7},
    "challenge_rule": {
        "hasbro": ChallengeRule.DOUBLE, "naspa": ChallengeRule.DOUBLE,
        "naspa_csw": ChallengeRule.PENALTY, "wespa": ChallengeRule.PENALTY,
    },
    "challenge_scope": {
        "hasbro": ChallengeScope.WHOLE_PLAY, "mattel": ChallengeScope.WHOLE_PLAY,
        "naspa": ChallengeScope.LISTED_WORDS, "naspa_csw": ChallengeScope.LISTED_WORDS,
        "wespa": ChallengeScope.LISTED_WORDS, "woogles": ChallengeScope.WHOLE_PLAY,
    },
    "scoreless_turns_to_end": {"hasbro": None, "mattel": None, "naspa": 6, "naspa_csw": 6,
                               "wespa": 6, "woogles": 6},
    "zero_point_play_is_scoreless": {p: False for p in
                                     ("naspa", "naspa_csw", "wespa", "woogles")},
    "out_adjust": {
        "hasbro": OutAdjust.BOX, "mattel": OutAdjust.BOX, "naspa": OutAdjust.DOUBLE,
        "naspa_csw": OutAdjust.DOUBLE, "wespa": OutAdjust.DOUBLE, "woogles": OutAdjust.DOUBLE,
    },
    "tie_break": {
        "hasbro": TieBreak.PRE_ADJUSTMENT, "mattel": TieBreak.PRE_ADJUSTMENT,
        "naspa": TieBreak.DRAW, "naspa_csw": TieBreak.DRAW, "wespa": TieBreak.DRAW,
        "woogles": TieBreak.DRAW,
    },
}

S10_CASES = [(key, name, value) for key, row in S10.items() for name, value in row.items()]


@pytest.mark.parametrize(("key", "name", "expected"), S10_CASES,
                         ids=[f"{k}-{n}" for k, n, _ in S10_CASES])
def test_r10_table_value(key, name, expected):
    assert getattr(PRESETS[name], key) == expected


def test_r5_4c_point_penalty_presets_are_five_per_word():
    for name in ("naspa_csw", "wespa"):
        rules = PRESETS[name]
        assert (rules.penalty_points, rules.penalty_per) == (5, PenaltyPer.WORD)


@pytest.mark.parametrize(
    ("name", "players", "passes"),
    [
        ("hasbro", 2, 2),  # R6.3: one full round of passes (num_players)
        ("hasbro", 4, 4),
        ("mattel", 2, 4),  # R6.3: all players pass twice (2 × num_players)
        ("mattel", 3, 6),
        ("naspa", 2, None),  # §10: passes_to_end off for tournaments
        ("naspa_csw", 2, None),
        ("wespa", 2, None),  # WESPA §1.1(b)(ii)
        ("woogles", 2, None),
        ("wwf", 2, 3),  # R8.6
        ("lexulous", 3, 3),  # R8.7
    ],
)
def test_r10_passes_to_end(name, players, passes):
    assert PRESETS[name].passes_to_end_for(players) == passes


def test_r10_box_presets_have_no_clock_and_tournaments_do():
    """§10 clock row: box none; NASPA 25 min, 10 per minute, max overtime 10; hold 15 s."""
    assert PRESETS["hasbro"].clock is None and PRESETS["mattel"].clock is None
    for name in ("naspa", "naspa_csw"):
        clock = PRESETS[name].clock
        assert clock is not None
        assert clock.initial_ms == 25 * 60_000
        assert clock.penalty_points_per_minute == 10
        assert clock.max_overtime_min == 10
        assert clock.on_max_overtime is OnMaxOvertime.END_SCORES_STAND
        assert clock.hold_provisional_draw_s == 15
    assert PRESETS["wespa"].clock is not None
    assert PRESETS["wespa"].clock.penalty_points_per_minute == 10
    woogles = PRESETS["woogles"].clock
    assert woogles is not None and woogles.on_max_overtime is OnMaxOvertime.FORFEIT


# -- variant presets ---------------------------------------------------------------------------


def test_r8_1_super():
    rules = PRESETS["super"]
    assert rules.rack_size == 7 and rules.bingo_bonus == ((7, 50),)
    assert rules.exchange_min_bag == 7  # R8.1.3
    assert rules.tileset.blanks == 4
    assert rules.layout.start == (10, 10)  # K11


def test_r8_2_1_nine_tile():
    rules = PRESETS["nine_tile"]
    assert rules.rack_size == 9
    assert rules.tiles == "english"
    assert [rules.bingo(n) for n in range(1, 10)] == [0, 0, 0, 0, 0, 0, 50, 50, 50]
    assert rules.exchange_min_bag == 9  # at least rack_size in the bag


def test_r8_2_2_hkcc9():
    rules = PRESETS["hkcc9"]
    assert rules.rack_size == 9
    assert rules.bingo_bonus == ((9, 50),)
    assert rules.bingo(7) == 0 and rules.bingo(8) == 0 and rules.bingo(9) == 50
    assert rules.exchange_min_bag == 9
    assert rules.scoreless_turns_to_end == 6  # six-zero ending
    assert rules.out_adjust is OutAdjust.DOUBLE
    assert rules.tileset.blanks == 4


def test_r8_6_wwf():
    rules = PRESETS["wwf"]
    assert rules.rack_size == 7
    assert rules.bingo_bonus == ((7, 35),)
    assert rules.challenge_rule is ChallengeRule.VOID
    assert rules.passes_to_end == 3 and rules.scoreless_turns_to_end is None
    assert rules.out_adjust is OutAdjust.BOX
    assert rules.layout.word_mult[7][7] == 1  # star without premium


def test_r8_7_lexulous():
    rules = PRESETS["lexulous"]
    assert rules.rack_size == 8
    assert rules.bingo(7) == 40 and rules.bingo(8) == 50 and rules.bingo(6) == 0
    assert rules.challenge_rule is ChallengeRule.VOID
    assert rules.passes_to_end == 3
    assert rules.exchange_min_bag == 7
    assert rules.out_adjust is OutAdjust.BOX


def test_r8_5_clabbers():
    rules = PRESETS["clabbers"]
    assert rules.validity is Validity.ANAGRAM
    assert rules.gcg_game_type == "wordsmog"
    assert PRESETS["wespa"].validity is Validity.EXACT


def test_r8_3_finish_line():
    rules = PRESETS["finish_line"]
    assert rules.finish_line_target == "intermediate"
    assert [rules.finish_target(n) for n in (2, 3, 4)] == [120, 100, 90]
    assert rules.finish_line_complete_round is False


def test_r8_4_duplicate():
    rules = PRESETS["duplicate"]
    assert rules.tileset.total == 102  # R8.4.6 FISF set
    assert rules.challenge_rule is ChallengeRule.VOID  # the arbiter validates
    assert rules.duplicate is not None
    assert rules.duplicate.round_seconds == 180  # usually 3 minutes (R8.4.1)
    assert rules.duplicate.solo_bonus == 0
    assert rules.min_players == 1
    assert rules.bingo(7) == 50


def test_presets_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        PRESETS["naspa"].rack_size = 9  # type: ignore[misc]


# -- R8.3 finish-line targets ---------------------------------------------------------------------

R8_3 = {
    2: {"beginner": 70, "intermediate": 120, "expert": 200},
    3: {"beginner": 60, "intermediate": 100, "expert": 180},
    4: {"beginner": 50, "intermediate": 90, "expert": 160},
}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("level", ["beginner", "intermediate", "expert"])
def test_r8_3_finish_target_table(players, level):
    rules = Rules(finish_line_target=level)
    assert rules.finish_target(players) == R8_3[players][level]
    assert FINISH_LINE_TARGETS[players] == R8_3[players]


def test_r8_3_numeric_target_and_none():
    assert Rules(finish_line_target=150).finish_target(3) == 150
    assert Rules().finish_target(2) is None
    assert PRESETS["hasbro"].finish_target(4) is None


# -- R7.2 overtime -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("overtime_ms", "penalty"),
    [
        (2 * 60_000 + 5_000, 30),  # R7.2: 2 min 05 s over costs 30
        (60_000, 10),  # exactly one minute
        (60_001, 20),  # a started minute counts
        (1, 10),
        (0, 0),
        (-5_000, 0),  # time left on the clock
        (10 * 60_000, 100),
    ],
)
def test_r7_2_overtime_penalty(overtime_ms, penalty):
    assert TimeControl().overtime_penalty(overtime_ms) == penalty


def test_r7_3_overtime_penalty_cap():
    clock = TimeControl(overtime_penalty_cap=100)
    assert clock.overtime_penalty(10 * 60_000 + 1_000) == 100
    assert clock.overtime_penalty(61_000) == 20


# -- replace() and validation ------------------------------------------------------------------


def test_replace_returns_a_checked_copy():
    base = PRESETS["naspa"]
    nine = base.replace(rack_size=9, bingo_bonus=((9, 50),))
    assert nine.rack_size == 9 and nine.challenge_rule is ChallengeRule.DOUBLE
    assert base.rack_size == 7


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"rack_size": 0}, r"rack_size 0 must be 1\.\.15"),
        ({"rack_size": 16}, r"rack_size 16 must be 1\.\.15"),
        ({"min_players": 3, "max_players": 2}, "min_players <= max_players"),
        ({"max_players": 5}, "max_players <= 4"),
        ({"min_players": 0}, "1 <= min_players"),
        ({"bingo_bonus": ((8, 50),)}, "bingo_bonus entry 8:50 does not fit rack_size"),
        ({"bingo_bonus": ((7, -1),)}, "bingo_bonus entry 7:-1"),
        ({"bingo_bonus": ((0, 50),)}, "bingo_bonus entry 0:50"),
        ({"first_player": FirstPlayer.FIXED, "first_player_index": 4},
         r"first_player_index must be 0\.\.3"),
        ({"finish_line_target": "godlike"}, "finish_line_target 'godlike'.*beginner"),
    ],
)
def test_replace_validation_errors(changes, message):
    with pytest.raises(RulesError, match=message):
        PRESETS["hasbro"].replace(**changes)


def test_shrinking_the_rack_below_a_bingo_size_is_refused():
    with pytest.raises(RulesError, match="bingo_bonus entry 8:50"):
        PRESETS["nine_tile"].replace(rack_size=7)


def test_replace_unknown_field_is_refused():
    with pytest.raises(TypeError):
        PRESETS["hasbro"].replace(rackSize=8)


def test_a_word_list_in_another_alphabet_plays_with_its_own_tile_set() -> None:
    from tessera.tiles import Alphabet, tileset

    casual = preset("casual")
    hungarian = casual.for_alphabet(tileset("hungarian").alphabet)
    assert hungarian.tiles == "hungarian" and hungarian.board == casual.board
    assert hungarian.replace(tiles="english") == casual
    assert casual.for_alphabet(tileset("english").alphabet) is casual
    assert preset("super").for_alphabet(tileset("english").alphabet).tiles == "english_super"
    assert casual.for_alphabet(None) is casual
    odd = Alphabet("klingon", ("A", "B"))  # no tile set of that name: the caller refuses it
    assert casual.for_alphabet(odd) is casual


@pytest.mark.parametrize("language", ["french", "dutch"])
def test_a_national_list_spelled_in_english_letters_plays_with_its_own_values(
    language: str,
) -> None:
    """French and Dutch lists are spelled in A-Z like English ones, but their editions' tiles
    have their own counts and values (French K is worth 10, Dutch J 4)."""
    from tessera.tiles import tileset

    own = tileset(language)
    assert tuple(own.alphabet.labels) == tuple(tileset("english").alphabet.labels)
    assert preset("wespa").for_alphabet(own.alphabet).tiles == language
    assert preset("hasbro").for_alphabet(own.alphabet).tileset.values == own.values
    # an English list keeps the tiles a preset chose for it (duplicate's are French)
    assert preset("duplicate").for_alphabet(tileset("english").alphabet).tiles == "french"
