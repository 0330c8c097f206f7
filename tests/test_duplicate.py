"""Duplicate (RULES.md R8.4): racks, submissions, master moves, results and the record.

The score sheet of the scripted game was worked out by hand from the board's premium squares
and the French tile values (R8.4.6: D, G, M = 2; B, C, P = 3; F, H, V = 4; J, Q = 8;
K, W, X, Y, Z = 10; the rest 1); the working is in the comments beside each round.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tessera
from tessera import IllegalMove, Reason
from tessera.board import EMPTY
from tessera.duplicate import (
    DuplicateEnd,
    DuplicateGame,
    DuplicateState,
    Verdict,
    draw_rack,
    minimum_mix,
    mix_ok,
    vowel_set,
)
from tessera.formats import gcg
from tessera.lexicon import Lexicon
from tessera.move import Play
from tessera.rules import DuplicateSettings, RulesError, preset
from tessera.tiles import tileset

FRENCH = tileset("french").alphabet


@pytest.fixture(scope="module")
def lex(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lexicon]:
    """ENABLE, compiled into a temporary cache (never the user's); its letters are the
    French set's A–Z."""
    root = tmp_path_factory.mktemp("duplicate-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TESSERA_CACHE_DIR", str(root))
        yield Lexicon.load("enable")


def rules_with(**settings: object) -> tessera.Rules:
    return preset("duplicate").replace(duplicate=DuplicateSettings(**settings))  # type: ignore[arg-type]


def text(tiles: tuple[int, ...] | list[int]) -> str:
    return FRENCH.text(tiles)


# -- the scripted three-player game ------------------------------------------------------------

# (round, rack, master move, its score, tops tied,
#  [(Ann's play, score, verdict), (Bob's …), (Cy's …)], failed draws)
SHEET = [
    # R8.4.4: round 1 needs 2 vowels and 2 consonants; NRZNNOS has one vowel, so it went back
    # and 7 fresh tiles came. QUOTE 8D: Q on D8 (2L) 16 + U O T E 4 = 20, ×2 (H8 star) = 40;
    # QUOTE H4 is the same sum down column H (Q on H4, 2L): a tie, the seeded draw picks 8D
    # (R8.4.3). TOQUE 8D: T on D8 (2L) 2 + O 1 + Q 8 + U 1 + E 1 = 13, ×2 = 26.
    (1, "EEEOQTU", "8D QUOTE", 40, 2,
     [("8D QUOTE", 40, Verdict.VALID), ("H4 QUOTE", 40, Verdict.VALID),
      ("8D TOQUE", 26, Verdict.VALID)], ["NRZNNOS"]),
    # kept E E; drew B E I O S. OBESE I5–I9: O 1 + B 3 + E on I7 (2L) 2 + S 1 + E on I9 (2L) 2
    # = 9, and QUOTES 8 + 1 + 1 + 1 + 1 + 1 = 13 (no new premium): 22. BISE I6: 3 + 2 + 1 + 2 =
    # 8 + QUOTES 13 = 21, declared 25: misreported, 0 (R8.4.2). OBEES is no word: 0.
    (2, "BEEEIOS", "I5 OBESE", 22, 1,
     [("I5 OBESE", 22, Verdict.VALID), ("I6 BISE", 0, Verdict.MISREPORTED),
      ("I5 OBEES", 0, Verdict.INVALID_WORDS)], []),
    # kept E I; drew A N O U X. AXION H1–H5: (A 1 + X 10 + I 1 + O on H4 (2L) 2 + N 1) = 15, ×3
    # (H1 3W) = 45, and NO across row 5 (N + the O of OBESE) 2: 47. AUXIN: 1 + 1 + 10 + 2 + 1 =
    # 15, ×3 = 45 + NO 2 = 47, the other top. Ann is 1 s late (R8.4.1, 180 s): 0. Cy hands in
    # nothing: 0.
    (3, "AEINOUX", "H1 AXION", 47, 2,
     [("H1 AXION", 0, Verdict.LATE), ("H1 AUXIN", 47, Verdict.VALID), ("", 0, Verdict.MISSING)],
     []),
    # kept E U; drew E N Y Z ?. ENEmY J2–J6: E on J2 (3L) 3 + N 1 + E 1 + blank 0 + Y on J6
    # (3L) 30 = 35; NOm across row 5: 2; BY across row 6: B 3 + Y 30 = 33: 70. NEEdY scores the
    # same (N on J2 3, Y on J6 30). sYN J5–J7: 0 + 30 + 1 = 31, NOs 2, BY 33, EN (the E of
    # OBESE on I7) 2: 68. A pass is no play in duplicate: 0.
    (4, "EENUYZ?", "J2 ENEmY", 70, 2,
     [("J2 NEEdY", 70, Verdict.VALID), ("J5 sYN", 68, Verdict.VALID),
      ("-", 0, Verdict.NOT_A_PLAY)], []),
    # kept U Z; drew A A A F I. ZAX 2F–2H through the X: Z on F2 (3L) 30 + A 1 + X 10 = 41.
    # FUTZ G6–G9 through the T: F 4 + U on G7 (2L) 2 + T 1 + Z on G9 (2L) 20 = 27.
    (5, "AAAFIUZ", "2F ZA.", 41, 1,
     [("2F ZAX", 41, Verdict.VALID), ("G6 FUTZ", 27, Verdict.VALID),
      ("2F ZA.", 41, Verdict.VALID)], []),
]
# R8.4.6 totals after round 5: Ann 40+22+0+70+41 = 173, Bob 40+0+47+68+27 = 182,
# Cy 26+0+0+0+41 = 67; tops 40+22+47+70+41 = 220.
TOTALS = {"Ann": 173, "Bob": 182, "Cy": 67}
TOP_TOTAL = 220
DECLARED = {(2, "Bob"): 25, (5, "Cy"): 41}
ELAPSED = {(3, "Ann"): 181_000, (1, "Bob"): 179_999}


def play_sheet_rounds(game: DuplicateGame) -> None:
    for number, _rack, _top, _score, _tied, plays, _rejected in SHEET:
        for name, (move, _points, _verdict) in zip(("Ann", "Bob", "Cy"), plays, strict=True):
            if move:
                game.submit(name, move, declared=DECLARED.get((number, name)),
                            elapsed_ms=ELAPSED.get((number, name)))
        game.close_round()


def test_the_scripted_three_player_game_reproduces_the_hand_checked_sheet(lex: Lexicon) -> None:
    game = DuplicateGame("duplicate", lex, players=["Ann", "Bob", "Cy"], seed=11)
    play_sheet_rounds(game)
    assert len(game.rounds) == len(SHEET)
    for rd, (number, rack, top, score, tied, plays, rejected) in zip(
        game.rounds, SHEET, strict=True
    ):
        assert rd.number == number
        assert text(rd.rack) == rack
        assert [text(r) for r in rd.rejected] == rejected
        assert (str(rd.top), rd.top.score, rd.tied) == (top, score, tied)
        got = [(s.text, s.score, s.verdict) for s in rd.submissions]
        assert got == plays
    assert dict(zip(game.players, game.scores, strict=True)) == TOTALS
    assert game.top_total == TOP_TOTAL
    result = game.results()
    assert result.negatives == (173 - 220, 182 - 220, 67 - 220)
    assert result.percentages == pytest.approx((78.636, 82.727, 30.455), abs=1e-3)
    assert result.ranking == (1, 0, 2)
    assert result.reason is None  # standings: the game goes on
    assert "Bob: 182 (82.73%, -38)" in str(result)


def test_the_master_move_goes_on_the_board_and_its_unused_tiles_stay(lex: Lexicon) -> None:
    """R8.4.3–R8.4.4: after round 1 the board holds QUOTE at 8D (not Bob's QUOTE at H4) and
    round 2's rack keeps the two E's the top left."""
    game = DuplicateGame("duplicate", lex, players=["Ann", "Bob", "Cy"], seed=11)
    game.submit("Bob", "H4 QUOTE")
    game.close_round()
    placed = {(r, c): FRENCH.label(t) for r, c, t in game.board.occupied()}
    assert placed == {(7, 3): "Q", (7, 4): "U", (7, 5): "O", (7, 6): "T", (7, 7): "E"}
    assert text(game.rack).count("E") >= 2
    assert game.bag_count == 102 - 5 - 7


def test_a_whole_game_plays_to_its_end_and_its_record_round_trips(lex: Lexicon) -> None:
    """R8.4.5: the game ends by itself; every top is in the totals; R8.4.6 percentages."""
    game = DuplicateGame("duplicate", lex, players=["Ann", "Bob", "Cy"], seed=11)
    rng = random.Random(3)
    while not game.is_over:
        tops = game.tops()
        game.submit("Ann", str(tops[0]))  # Ann always finds a top
        moves = tessera.generate_moves(game.board, list(game.rack), lex, game.rules)
        plays = [m for m in moves[:30] if isinstance(m, Play)]
        game.submit("Bob", str(rng.choice(plays)), elapsed_ms=rng.randrange(200_000))
        game.close_round()  # Cy never submits
    assert game.state is DuplicateState.OVER
    assert game.end_reason is DuplicateEnd.NO_LEGAL_DRAW  # too few vowels or consonants left
    left = [*game.rack, *game.bag_tiles()]
    assert not mix_ok(left, vowel_set(FRENCH, "AEIOU"), (1, 1), "either")
    assert len(game.rounds) > 15
    assert game.top_total == sum(rd.top.score or 0 for rd in game.rounds)
    assert game.scores[0] == game.top_total
    assert game.scores[2] == 0
    assert all(s.verdict is Verdict.MISSING for rd in game.rounds for s in rd.submissions[2:])
    result = game.result
    assert result is not None and result.reason is game.end_reason
    assert result.percentages[0] == 100.0 and result.negatives[0] == 0
    assert 0 < result.percentages[1] < 100
    with pytest.raises(IllegalMove) as err:
        game.submit("Ann", "8D QUOTE")
    assert err.value.reason is Reason.GAME_OVER
    with pytest.raises(IllegalMove):
        game.close_round()
    with pytest.raises(IllegalMove, match="the game is over"):
        game.set_rack("")
    assert_same_game(gcg.replay_duplicate(gcg.loads(gcg.dumps(game)), lexicon=lex), game)


def test_the_game_ends_when_no_rack_can_hold_the_mix() -> None:
    """R8.4.5: when the tiles left hold too few vowels or consonants there is no legal draw."""
    vowels = vowel_set(FRENCH, "AEIOU")
    bag = FRENCH.parse("BCDFGHJKLMNPRS")
    assert draw_rack((), bag, random.Random(1), rack_size=7, vowels=vowels, need=(1, 1),
                     blank_counts_as="none") is None
    assert draw_rack((), [], random.Random(1), rack_size=7, vowels=vowels, need=(1, 1),
                     blank_counts_as="none") is None
    # two tiles left, a vowel and a consonant: the last rack is those two
    left = FRENCH.parse("AB")
    drawn = draw_rack((), left, random.Random(1), rack_size=7, vowels=vowels, need=(1, 1),
                      blank_counts_as="none")
    assert drawn is not None and sorted(drawn[0]) == sorted(FRENCH.parse("AB")) and left == []


def test_the_game_ends_when_the_rack_has_no_play(lex: Lexicon) -> None:
    game = DuplicateGame("duplicate", lex, players=["Ann"], seed=1)
    game.set_rack("Q")  # the first play needs two tiles
    assert game.is_over and game.end_reason is DuplicateEnd.NO_PLAY
    assert game.result is not None and game.result.top_total == 0
    with pytest.raises(IllegalMove, match="the game is over"):
        game.submit("Ann", "8D QI")
    # the arbiter may announce another rack instead (a record's rack), and the round opens
    game.set_rack("EEEOQTU")
    assert not game.is_over and game.end_reason is None and game.result is None
    assert game.submit("Ann", "8D QUOTE").score == 40


# -- drawing racks (R8.4.4) -------------------------------------------------------------------


class FirstTile(random.Random):
    """Always draws the bag's first tile: a stacked bag comes out in its order."""

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        return 0


def test_a_draw_without_the_mix_goes_back_whole_and_seven_fresh_are_drawn() -> None:
    vowels = vowel_set(FRENCH, "AEIOU")
    bag = FRENCH.parse("BCDFGHJ" + "AERSTIO" + "LMN")
    drawn = draw_rack((), bag, FirstTile(), rack_size=7, vowels=vowels, need=(2, 2),
                      blank_counts_as="none")
    assert drawn is not None
    rack, rejected = drawn
    assert text(rack) == "AERSTIO"
    assert [text(r) for r in rejected] == ["BCDFGHJ"]
    assert text(bag) == "LMNBCDFGHJ"  # the failed draw went back


def test_the_kept_tiles_go_back_too_when_the_draw_fails() -> None:
    """Six kept consonants and one drawn tile can never hold two vowels: all seven go back."""
    vowels = vowel_set(FRENCH, "AEIOU")
    kept = FRENCH.parse("BCDFGH")
    bag = FRENCH.parse("J" + "AEIRST")
    drawn = draw_rack(kept, bag, FirstTile(), rack_size=7, vowels=vowels, need=(2, 2),
                      blank_counts_as="none")
    assert drawn is not None
    rack, rejected = drawn
    assert [text(r) for r in rejected] == ["BCDFGHJ"]
    assert sorted(rack) == sorted(FRENCH.parse("AEIRSTB"))
    assert sorted(bag) == sorted(FRENCH.parse("CDFGHJ"))


def test_the_minimum_is_two_and_two_for_fifteen_rounds_then_one_and_one() -> None:
    settings = DuplicateSettings()
    assert [minimum_mix(settings, n) for n in (1, 15, 16, 40)] == [(2, 2), (2, 2), (1, 1), (1, 1)]
    vowels = vowel_set(FRENCH, "AEIOU")
    rack = FRENCH.parse("ABCDFGH")
    assert not mix_ok(rack, vowels, minimum_mix(settings, 15), "none")
    assert mix_ok(rack, vowels, minimum_mix(settings, 16), "none")


def test_how_a_blank_and_y_count() -> None:
    """R8.4.4 Cfg: a blank fills whichever side is short under ``either`` and neither under
    ``none``; Y is a consonant unless ``vowels`` names it."""
    plain = vowel_set(FRENCH, "AEIOU")
    with_blank = FRENCH.parse("A?BCDFG")
    assert mix_ok(with_blank, plain, (2, 2), "either")
    assert not mix_ok(with_blank, plain, (2, 2), "none")
    assert not mix_ok(FRENCH.parse("??BCDFG"), plain, (3, 2), "either")  # 1 + 2 blanks short
    with_y = FRENCH.parse("AYBCDFG")
    assert not mix_ok(with_y, plain, (2, 2), "none")
    assert mix_ok(with_y, vowel_set(FRENCH, "AEIOUY"), (2, 2), "none")


def test_every_rack_of_a_game_holds_the_mix(lex: Lexicon) -> None:
    game = DuplicateGame(rules_with(blank_counts_as="none"), lex, players=["Ann"], seed=5)
    vowels = vowel_set(FRENCH, "AEIOU")
    while not game.is_over:
        assert mix_ok(game.rack, vowels, minimum_mix(game.settings, game.round), "none")
        game.close_round()


def test_bad_duplicate_settings_are_refused() -> None:
    with pytest.raises(RulesError, match="top_tiebreak"):
        DuplicateSettings(top_tiebreak="coin")
    with pytest.raises(RulesError, match="blank_counts_as"):
        DuplicateSettings(blank_counts_as="vowel")
    with pytest.raises(RulesError, match="round_seconds"):
        DuplicateSettings(round_seconds=0)
    with pytest.raises(RulesError, match="every round"):
        DuplicateSettings(min_vc_by_round=((15, 2, 2),))


# -- the master move and its tie-break (R8.4.3) ------------------------------------------------


def test_random_tiebreak_is_seeded(lex: Lexicon) -> None:
    picks = set()
    for seed in range(12):
        chosen = []
        for _ in range(2):
            game = DuplicateGame("duplicate", lex, players=["Ann"], seed=seed)
            game.set_rack("EEEOQTU")
            assert [str(t) for t in game.tops()] == ["8D QUOTE", "H4 QUOTE"]
            chosen.append(str(game.close_round().top))
        assert chosen[0] == chosen[1]  # the same seed, the same choice
        picks.add(chosen[0])
    assert picks == {"8D QUOTE", "H4 QUOTE"}


def openness(game: DuplicateGame, play: Play) -> int:
    board = game.board.copy()
    board.place(play.placements)
    return sum(
        1
        for r in range(board.rows)
        for c in range(board.cols)
        if board.get(r, c) == EMPTY
        and any(board.get(r + dr, c + dc) != EMPTY for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)))
    )


def test_avoid_blanks_tiebreak_takes_a_top_without_the_blank(lex: Lexicon) -> None:
    game = DuplicateGame(rules_with(top_tiebreak="avoid_blanks_open"), lex, players=["A"], seed=1)
    game.set_rack("AE?")  # AE scores 4 on the star, as do mAE, tEA, … with the blank
    tops = game.tops()
    assert len(tops) > 100 and all(t.score == 4 for t in tops)
    rd = game.close_round()
    assert "?" not in str(rd.top) and str(rd.top).endswith(" AE")


def test_avoid_blanks_tiebreak_then_keeps_the_board_open(lex: Lexicon) -> None:
    """Seed 2, round 2: BELT, BILE, BITE and BITT at 9G and TITLE at 9K all score 14; TITLE
    leaves the most empty squares next to tiles, so it is the top, not the first listed."""
    game = DuplicateGame(rules_with(top_tiebreak="avoid_blanks_open"), lex, players=["A"], seed=2)
    game.close_round()
    tops = game.tops()
    assert sorted(str(t) for t in tops) == [
        "9G BELT", "9G BILE", "9G BITE", "9G BITT", "9K TITLE"
    ]
    rd = game.close_round()
    assert str(rd.top) == "9K TITLE" and str(tops[0]) != "9K TITLE"
    assert openness_of(tops, rd.top, lex) == max(openness_of(tops, t, lex) for t in tops)


def openness_of(tops: list[Play], play: Play, lex: Lexicon) -> int:
    game = DuplicateGame(rules_with(top_tiebreak="avoid_blanks_open"), lex, players=["A"], seed=2)
    game.close_round()
    return openness(game, play)


def test_a_named_top_must_be_a_top(lex: Lexicon) -> None:
    game = DuplicateGame("duplicate", lex, players=["Ann"], seed=11)
    with pytest.raises(IllegalMove, match="not a top of this round"):
        game.close_round(top="8D TOQUE")
    assert str(game.close_round(top="H4 QUOTE").top) == "H4 QUOTE"


# -- submissions (R8.4.2) ----------------------------------------------------------------------


def test_a_late_submission_scores_zero_and_on_time_counts(lex: Lexicon) -> None:
    game = DuplicateGame(rules_with(round_seconds=60), lex, players=["Ann", "Bob"], seed=11)
    late = game.submit("Ann", "8D QUOTE", elapsed_ms=60_001)
    on_time = game.submit("Bob", "8D QUOTE", elapsed_ms=60_000)
    assert (late.verdict, late.score) == (Verdict.LATE, 0)
    assert (on_time.verdict, on_time.score) == (Verdict.VALID, 40)
    untimed = DuplicateGame(rules_with(round_seconds=None), lex, players=["Ann"], seed=11)
    assert untimed.submit("Ann", "8D QUOTE", elapsed_ms=10**9).score == 40


@pytest.mark.parametrize(
    ("move", "verdict"),
    [
        ("8D QUOTES", Verdict.ILLEGAL),  # no S on the rack
        ("8D QEOTU", Verdict.INVALID_WORDS),
        ("1A QUOTE", Verdict.ILLEGAL),  # misses the start square
        ("8D", Verdict.NOTATION),
        ("Z99 QUOTE", Verdict.NOTATION),
        ("-QE", Verdict.NOT_A_PLAY),
        ("pass", Verdict.NOT_A_PLAY),
    ],
)
def test_invalid_or_illegal_or_unreadable_plays_score_zero(
    lex: Lexicon, move: str, verdict: Verdict
) -> None:
    game = DuplicateGame("duplicate", lex, players=["Ann"], seed=11)
    sub = game.submit("Ann", move)
    assert (sub.verdict, sub.score, sub.computed) == (verdict, 0, None)
    assert sub.message
    assert game.close_round().points(0) == 0


def test_a_move_object_is_judged_like_its_text(lex: Lexicon) -> None:
    game = DuplicateGame("duplicate", lex, players=["Ann"], seed=11)
    sub = game.submit("Ann", Play.from_gcg("8D QUOTE", FRENCH))
    assert (sub.text, sub.score, sub.verdict) == ("8D QUOTE", 40, Verdict.VALID)


def test_misreported_scores_under_the_poslfit_rule(lex: Lexicon) -> None:
    """R8.4.2 Cfg: an under-reported play scores as reported, an over-reported one loses
    twice the excess."""
    rules = rules_with(misreport="as_reported_under_double_over")
    game = DuplicateGame(rules, lex, players=["Ann", "Bob", "Cy"], seed=11)
    assert game.submit("Ann", "8D QUOTE", declared=35).score == 35
    over = game.submit("Bob", "8D QUOTE", declared=44)
    assert (over.score, over.verdict, over.computed) == (40 - 2 * 4, Verdict.MISREPORTED, 40)
    assert game.submit("Cy", "8D QUOTE", declared=40).score == 40


def test_solo_bonus_goes_to_the_only_player_who_finds_a_top(lex: Lexicon) -> None:
    game = DuplicateGame(rules_with(solo_bonus=10), lex, players=["Ann", "Bob"], seed=11)
    game.submit("Ann", "H4 QUOTE")
    game.submit("Bob", "8D TOQUE")
    rd = game.close_round()
    assert rd.bonuses == (10, 0) and game.scores == [50, 26]
    game.submit("Ann", "I5 OBESE")
    game.submit("Bob", "I5 OBESE")
    assert game.close_round().bonuses == (0, 0)
    alone = DuplicateGame(rules_with(solo_bonus=10), lex, players=["Ann"], seed=11)
    alone.submit("Ann", "8D QUOTE")
    assert alone.close_round().bonuses == (0,)


# -- refused requests ------------------------------------------------------------------------


def test_bad_requests_are_refused_with_clear_errors_and_change_nothing(lex: Lexicon) -> None:
    game = DuplicateGame("duplicate", lex, players=["Ann", "Bob"], seed=11)
    with pytest.raises(IllegalMove, match="no player 'Zed'") as err:
        game.submit("Zed", "8D QUOTE")
    assert err.value.reason is Reason.UNKNOWN_PLAYER
    with pytest.raises(IllegalMove):
        game.submit(2, "8D QUOTE")
    game.submit("Ann", "8D QUOTE")
    with pytest.raises(IllegalMove, match="Ann has already submitted a play in round 1") as err:
        game.submit("Ann", "H4 QUOTE")
    assert err.value.reason is Reason.ALREADY_SUBMITTED
    assert game.submission("Ann") is not None and str(game.submission("Ann")) == "8D QUOTE +40"
    with pytest.raises(IllegalMove, match="the rack is fixed"):
        game.set_rack("AEIRST?")
    game.close_round()
    with pytest.raises(IllegalMove, match="round 1 is closed; round 2 is open") as err:
        game.submit("Bob", "8D QUOTE", round=1)
    assert err.value.reason is Reason.ROUND_CLOSED
    with pytest.raises(IllegalMove, match="round 3 is not open"):
        game.submit("Bob", "I5 OBESE", round=3)
    assert game.submission("Bob") is None and game.waiting == [0, 1]
    assert game.submit("Bob", "I5 OBESE", round=2).score == 22
    with pytest.raises(ValueError, match="negative"):
        game.submit("Ann", "I5 OBESE", elapsed_ms=-1)


def test_a_game_needs_duplicate_rules_a_word_list_and_distinct_players(lex: Lexicon) -> None:
    with pytest.raises(ValueError, match="no duplicate settings"):
        DuplicateGame("naspa", lex)
    with pytest.raises(ValueError, match="needs a word list"):
        DuplicateGame("duplicate", None)
    with pytest.raises(ValueError, match="different"):
        DuplicateGame("duplicate", lex, players=["Ann", "Ann"])
    with pytest.raises(ValueError, match="players"):
        DuplicateGame("duplicate", lex, players=[])
    many = DuplicateGame("duplicate", lex, players=[f"P{i}" for i in range(200)], seed=1)
    assert many.num_players == 200  # any number of players (R8.4.1), within a record's limits
    with pytest.raises(ValueError, match="1–200 players, not 201"):
        DuplicateGame("duplicate", lex, players=[f"P{i}" for i in range(201)])


def test_set_rack_refuses_tiles_not_left(lex: Lexicon) -> None:
    game = DuplicateGame("duplicate", lex, players=["Ann"], seed=11)
    with pytest.raises(IllegalMove, match="not among the tiles left"):
        game.set_rack("QQ")
    with pytest.raises(IllegalMove, match="at most 7"):
        game.set_rack("AEIOUBCD")
    game.set_rack("AEIRST?")
    assert text(game.rack) == "AEIRST?" and game.bag_count == 102 - 7


# -- views ---------------------------------------------------------------------------------------


def test_a_view_shows_the_common_rack_and_only_the_viewers_open_submission(
    lex: Lexicon,
) -> None:
    game = DuplicateGame("duplicate", lex, players=["Ann", "Bob"], seed=11)
    game.submit("Ann", "8D QUOTE")
    ann, bob, watcher = game.view("Ann"), game.view("Bob"), game.spectator_view()
    assert ann.rack == bob.rack == watcher.rack == game.rack
    assert ann.mine is not None and ann.mine.score == 40
    assert bob.mine is None and watcher.mine is None and watcher.player is None
    assert bob.submitted == (True, False)
    assert not hasattr(bob, "bag") and bob.bag_count == game.bag_count
    game.submit("Bob", "8D TOQUE")
    game.close_round()
    later = game.view("Bob")
    assert later.mine is None and later.round == 2
    assert [s.text for s in later.rounds[0].submissions] == ["8D QUOTE", "8D TOQUE"]
    assert later.scores == (40, 26) and later.top_total == 40
    board = later.board
    board.place([(0, 0, 1)])  # a view's board is a copy
    assert game.board.get(0, 0) == EMPTY


# -- the record (R9 extension) ------------------------------------------------------------------


def assert_same_game(replayed: DuplicateGame, game: DuplicateGame) -> None:
    assert replayed.players == game.players
    assert replayed.rounds == game.rounds
    assert replayed.board == game.board
    assert replayed.scores == game.scores and replayed.top_total == game.top_total
    assert replayed.rack == game.rack and replayed.round == game.round
    assert replayed.bag_tiles() == game.bag_tiles()
    assert replayed.state is game.state and replayed.end_reason is game.end_reason
    assert [replayed.submission(i) for i in range(game.num_players)] == [
        game.submission(i) for i in range(game.num_players)
    ]


def test_the_sheet_game_writes_a_documented_record(lex: Lexicon) -> None:
    game = DuplicateGame("duplicate", lex, players=["Ann", "Bob", "Cy"], seed=11)
    play_sheet_rounds(game)
    game.submit("Bob", "K4 FA", elapsed_ms=30_000)  # round 6 is open
    record = gcg.dumps(game)
    lines = record.splitlines()
    assert lines[:9] == [
        "#character-encoding UTF-8",
        "#player1 top Master move",
        "#lexicon enable",
        "#tile-distribution french",
        "#tile-set tessera-rules duplicate",
        "#tile-set tessera-seed 11",
        "#tile-set tessera-duplicate Ann Ann",
        "#tile-set tessera-duplicate Bob Bob",
        "#tile-set tessera-duplicate Cy Cy",
    ]
    assert lines[9:13] == [
        ">top: EEEOQTU 8D QUOTE +40 40",
        '#tile-set tessera-submit 1 Ann valid +40 40 "8D QUOTE"',
        '#tile-set tessera-submit 1 Bob valid +40 40 ms=179999 "H4 QUOTE"',
        '#tile-set tessera-submit 1 Cy valid +26 26 "8D TOQUE"',
    ]
    assert "#tile-set tessera-submit 2 Bob misreported +0 40 declared=25 \"I6 BISE\"" in lines
    assert "#tile-set tessera-submit 3 Cy missing +0 26" in lines
    assert ">top: EENUYZ? J2 ENEmY +70 179" in lines
    assert lines[-3:-1] == [
        "#tile-set tessera-incomplete",
        "#tile-set tessera-submit 6 Bob valid +21 203 ms=30000 \"K4 FA\"",
    ]
    assert lines[-1].startswith("#rack1 ")
    replayed = gcg.replay_duplicate(gcg.loads(record), lexicon=lex)
    assert_same_game(replayed, game)
    # the replayed game goes on exactly as the original does (its generator is in step)
    for g in (game, replayed):
        g.submit("Ann", str(g.tops()[0]))
        g.close_round()
    assert_same_game(replayed, game)


def test_a_record_says_which_players_are_computers_and_goes_on_the_same(lex: Lexicon) -> None:
    """People and computers in one game: the record marks the computers (tessera-computer),
    and the game rebuilt from it knows who plays each seat and goes on as the original."""
    from tessera.engine.duplicate_players import DuplicateComputer, computers_hand_in

    game = DuplicateGame("duplicate", lex, players=["Ann", "Bob", "level3", "best"], seed=5,
                         computers={2: "level3", 3: "best"})

    def bots(g: DuplicateGame) -> dict[int, DuplicateComputer]:
        return {i: DuplicateComputer(name, seed=g.seed + 31 * g.round + i)
                for i, name in g.computers.items()}

    def play_round(g: DuplicateGame) -> None:
        g.submit("Ann", str(g.tops()[0]))
        g.submit("Bob", "8D ZZZ")  # unreadable or illegal: scores 0
        computers_hand_in(g, bots(g))
        g.close_round()

    for _ in range(3):
        play_round(game)
    game.submit("Ann", str(game.tops()[0]))  # round 4 is open: Ann has handed in
    record = gcg.dumps(game)
    assert record.splitlines()[6:12] == [
        "#tile-set tessera-duplicate Ann Ann",
        "#tile-set tessera-duplicate Bob Bob",
        "#tile-set tessera-duplicate level3 level3",
        "#tile-set tessera-computer level3 level3",
        "#tile-set tessera-duplicate best best",
        "#tile-set tessera-computer best best",
    ]
    assert gcg.loads(record).duplicate_computers == {"level3": "level3", "best": "best"}
    replayed = gcg.replay_duplicate(record, lexicon=lex)
    assert replayed.computers == game.computers == {2: "level3", 3: "best"}
    assert_same_game(replayed, game)
    assert gcg.dumps(replayed) == record
    for g in (game, replayed):  # round 4 closes the same way in both
        g.submit("Bob", str(g.tops()[0]))
        computers_hand_in(g, bots(g))
        g.close_round()
        play_round(g)
    assert_same_game(replayed, game)
    assert replayed.rounds[-1].submissions[2].score == game.rounds[-1].submissions[2].score
    # a record without the marks (as written before them) is a game of people
    unmarked = "".join(line for line in record.splitlines(keepends=True)
                       if "tessera-computer" not in line)
    assert gcg.replay_duplicate(unmarked, lexicon=lex).computers == {}


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("#tile-set tessera-computer level3", "needs a player's nickname and the name"),
        ("#tile-set tessera-computer Zed level3", "no duplicate player 'Zed' declared"),
        ("#tile-set tessera-computer Ann level1\n#tile-set tessera-computer Ann level2",
         "marked a computer twice"),
    ],
)
def test_a_bad_computer_mark_is_refused_at_its_line(lex: Lexicon, line: str,
                                                     message: str) -> None:
    game = DuplicateGame("duplicate", lex, players=["Ann"], seed=3)
    record = gcg.dumps(game).replace(
        "#tile-set tessera-duplicate Ann Ann\n",
        "#tile-set tessera-duplicate Ann Ann\n" + line + "\n",
    )
    with pytest.raises(gcg.GcgError, match=message) as err:
        gcg.loads(record)
    assert err.value.line == record.splitlines().index(line.splitlines()[-1]) + 1


def test_computer_marks_name_seats_of_the_game(lex: Lexicon) -> None:
    with pytest.raises(ValueError, match="not a seat of the game"):
        DuplicateGame("duplicate", lex, players=["Ann"], computers={1: "best"})
    with pytest.raises(ValueError, match="one-word name"):
        DuplicateGame("duplicate", lex, players=["Ann", "Bob"], computers={1: "level 3"})


def test_a_record_without_the_seed_replays_from_its_racks(lex: Lexicon) -> None:
    game = DuplicateGame("duplicate", lex, players=["Ann", "Bob", "Cy"], seed=11)
    play_sheet_rounds(game)
    record = "\n".join(
        line for line in gcg.dumps(game).splitlines() if "tessera-seed" not in line
    )
    replayed = gcg.replay_duplicate(record, lexicon=lex)
    assert replayed.rounds[1:] == game.rounds[1:]
    assert replayed.rounds[0].rejected == ()  # failed draws are not in the record
    assert replayed.scores == game.scores and replayed.board == game.board


def test_the_record_is_a_solo_game_of_tops_to_other_readers(lex: Lexicon) -> None:
    game = DuplicateGame("duplicate", lex, players=["Ann", "Bob", "Cy"], seed=11)
    play_sheet_rounds(game)
    record = gcg.loads(gcg.dumps(game))
    assert [p.nick for p in record.players] == ["top"]
    assert [e.score for e in record.events] == [40, 22, 47, 70, 41]
    assert record.is_duplicate and len(record.submissions) == 15
    with pytest.raises(gcg.GcgError, match="replay it with replay_duplicate"):
        gcg.replay(record)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('1 Cy valid +26 26 "8D TOQUE"', '1 Cy valid +27 26 "8D TOQUE"',
         r"Cy's '8D TOQUE' in round 1 scores 26 \(valid\); the record says 27"),
        (">top: EEEOQTU 8D QUOTE +40 40", ">top: EEEOQTU 8D TOQUE +26 26",
         "8D TOQUE is not a top of this round"),
        (">top: EEEOQTU 8D QUOTE +40 40", ">top: EEEOQTU 8D QUOTE +40 41",
         "the record says 40 \\(41\\)"),
        ('1 Cy valid +26 26 "8D TOQUE"', '1 Cy valid +26 27 "8D TOQUE"',
         "Cy's total after round 1 is 26; the record says 27"),
        ('1 Cy valid +26 26 "8D TOQUE"', '1 Zed valid +26 26 "8D TOQUE"',
         "no duplicate player 'Zed'"),
        ('1 Cy valid +26 26 "8D TOQUE"', "1 Cy valid +26",
         "tessera-submit needs 'ROUND NICK"),
        ("#tile-set tessera-incomplete\n", "",
         "the record ends, but the game goes on with round 6"),
        ("#tile-set tessera-seed 11\n", "#tile-set tessera-seed 11\n#player2 x X\n",
         "one GCG player"),
    ],
)
def test_a_record_that_disagrees_is_refused_at_its_line(
    lex: Lexicon, old: str, new: str, message: str
) -> None:
    game = DuplicateGame("duplicate", lex, players=["Ann", "Bob", "Cy"], seed=11)
    play_sheet_rounds(game)
    record = gcg.dumps(game)
    assert old in record
    with pytest.raises(gcg.GcgError, match=message):
        gcg.replay_duplicate(record.replace(old, new, 1), lexicon=lex)


def test_replay_needs_a_word_list_and_a_duplicate_record(lex: Lexicon) -> None:
    game = DuplicateGame("duplicate", lex, players=["Ann"], seed=11)
    game.close_round()
    record = gcg.dumps(game).replace("#lexicon enable\n", "")
    with pytest.raises(gcg.GcgError, match="give lexicon="):
        gcg.replay_duplicate(record)
    plain = tessera.Game("naspa", players=["A", "B"], seed=1)
    with pytest.raises(gcg.GcgError, match="not a duplicate record"):
        gcg.replay_duplicate(gcg.dumps(plain), lexicon=lex)



# -- property: any game's record replays to the same game --------------------------------------


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(1, 3),
    rounds=st.integers(0, 40),
    choices=st.randoms(use_true_random=False),
    tiebreak=st.sampled_from(["random", "avoid_blanks_open"]),
    misreport=st.sampled_from(["zero", "as_reported_under_double_over"]),
)
def test_any_games_record_replays_to_the_same_game(
    lex: Lexicon, seed: int, players: int, rounds: int, choices: random.Random, tiebreak: str,
    misreport: str,
) -> None:
    """Whole games, games left with a round open, every verdict, declared scores, times and
    solo bonuses: the record replays to the same game (and continues the same way)."""
    rules = rules_with(top_tiebreak=tiebreak, misreport=misreport,
                       solo_bonus=choices.choice([0, 10]))
    game = DuplicateGame(rules, lex, players=[f"P {i}" for i in range(players)], seed=seed)
    for _ in range(rounds):
        if game.is_over:
            break
        moves = tessera.generate_moves(game.board, list(game.rack), lex, game.rules)
        plays = [m for m in moves[:20] if isinstance(m, Play)]
        for p in range(players):
            kind = choices.randrange(5)
            if kind == 4:
                continue  # hands in nothing
            fixed = {0: "8D", 1: "H8 QZX#>", 2: str(plays[0])}
            move = fixed.get(kind) or str(choices.choice(plays))
            declared = choices.choice([None, None, choices.randrange(120)])
            elapsed = choices.choice([None, choices.randrange(240_000)])
            game.submit(p, move, declared=declared, elapsed_ms=elapsed)
        if not choices.randrange(10):
            break  # the record ends with this round open
        game.close_round()
    assert_same_game(gcg.replay_duplicate(gcg.dumps(game), lexicon=lex), game)
