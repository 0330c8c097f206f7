"""Challenges (R5), the centre-miss challenge (R2.6.1, R2.6.2) and the pending out-play
(R4.4, R5.5): every challenge rule's success and failure paths."""

from __future__ import annotations

import pytest

from support import make_game, rack_text
from support.randomplay import Judge, endgame, state, tile_census
from tessera.game import EndReason, EventKind, GameState
from tessera.legality import IllegalMove, Reason
from tessera.move import Pass
from tessera.rules import (
    CenterMiss,
    ChallengeRule,
    ChallengeScope,
    PenaltyAppliesTo,
    PenaltyPer,
    preset,
)

P0_RACK, P1_RACK = "QUITEAB", "DOERSIN"


def make_rules(name, rule):
    return preset(name).replace(challenge_rule=rule)


def opening(rule=ChallengeRule.DOUBLE, bad=(), rules="naspa", players=2, **changes):
    """Ann (to move) holds QUITEAB, Bob DOERSIN; ``bad`` words are phonies."""
    racks = [P0_RACK, P1_RACK] + [None] * (players - 2)
    game = make_game(rules, racks, players=players, challenge_rule=rule, **changes)
    game.lexicon = Judge(game.alphabet, bad)
    return game


def quite_then_in(rule=ChallengeRule.DOUBLE, bad=(), **changes):
    """8D QUITE (48) by Ann, 9D IN by Bob (forms IN, QI and UN: 3 words, 2+11+2 = 15)."""
    game = opening(rule, bad, **changes)
    game.play("8D QUITE")
    game.play("9D IN")
    return game


# -- R5.4e VOID ------------------------------------------------------------------------------


def test_r5_4e_void_refuses_invalid_words_before_commit_naming_them():
    game = opening(ChallengeRule.VOID, bad=["QUITE"], rules="casual")
    before = state(game)
    with pytest.raises(IllegalMove, match="not in the word list: QUITE") as err:
        game.play("8D QUITE")
    assert err.value.reason is Reason.INVALID_WORDS
    assert err.value.words == ("QUITE",)
    assert state(game) == before  # no penalty: same player, same rack, nothing recorded
    game.play("8E QUIT")
    assert game.scores == [2 * (10 + 1 + 1 + 1), 0]


def test_r5_4e_void_names_every_invalid_cross_word():
    game = opening(ChallengeRule.VOID, bad=["QI", "UN"], rules="casual")
    game.play("8D QUITE")
    with pytest.raises(IllegalMove) as err:
        game.play("9D IN")
    assert set(err.value.words) == {"QI", "UN"}
    assert "QI" in str(err.value) and "UN" in str(err.value)


def test_r5_4e_void_has_no_challenges():
    game = opening(ChallengeRule.VOID, rules="casual")
    game.play("8D QUITE")
    assert not game.can_challenge()
    with pytest.raises(IllegalMove, match="no challenges") as err:
        game.challenge()
    assert err.value.reason is Reason.CHALLENGES_NOT_ALLOWED


def test_r5_4e_void_out_play_ends_the_game_at_once():
    game, out = endgame("casual", 1)
    mover = game.to_move
    game.play(out)
    assert game.is_over
    assert game.result is not None and game.result.reason is EndReason.PLAYED_OUT
    assert game.history[-1].kind in (EventKind.END_RACK_POINTS, EventKind.END_RACK_PENALTY)
    assert not game.rack(mover)


# -- R5.1 who may challenge and when -------------------------------------------------------------


def test_r5_1_nothing_to_challenge_before_any_play():
    game = opening()
    with pytest.raises(IllegalMove, match="no play to challenge") as err:
        game.challenge()
    assert err.value.reason is Reason.NOTHING_TO_CHALLENGE


def test_r5_1_a_player_cannot_challenge_their_own_play():
    game = opening()
    game.play("8D QUITE")
    before = state(game)
    with pytest.raises(IllegalMove, match="cannot challenge your own play"):
        game.challenge("Ann")
    assert state(game) == before


def test_r5_1_only_before_the_next_action():
    game = opening(bad=["QUITE"])
    game.play("8D QUITE")
    assert game.can_challenge()
    game.pass_turn()  # Bob accepts by moving on
    assert not game.can_challenge()
    with pytest.raises(IllegalMove, match="only the last tile play, once, before the next move"):
        game.challenge("Bob")
    assert game.board.tile_count() == 5  # the phony stands


def test_r5_1_only_tile_plays_can_be_challenged():
    game = opening()
    game.exchange("AB")
    with pytest.raises(IllegalMove) as err:
        game.challenge()
    assert err.value.reason is Reason.NOTHING_TO_CHALLENGE
    game.pass_turn()
    with pytest.raises(IllegalMove):
        game.challenge()


def test_r5_1_a_play_cannot_be_challenged_twice():
    game = opening(ChallengeRule.SINGLE)
    game.play("8D QUITE")
    game.challenge()
    assert not game.can_challenge()
    before = state(game)
    with pytest.raises(IllegalMove, match="once") as err:
        game.challenge()
    assert err.value.reason is Reason.NOTHING_TO_CHALLENGE
    assert state(game) == before


def test_r5_1_any_opponent_may_challenge_in_a_three_player_game():
    game = opening(ChallengeRule.SINGLE, bad=["QUITE"], rules="hasbro", players=3)
    game.play("8D QUITE")
    assert game.to_move == 1
    assert game.view(2).can_challenge and game.view(1).can_challenge
    assert not game.view(0).can_challenge
    event = game.challenge("Cy")
    assert event is not None and event.kind is EventKind.WITHDRAWN
    assert game.to_move == 1  # the challenged player lost the turn; Bob is still next


# -- R5.2 scope ------------------------------------------------------------------------------------


def test_r5_2_whole_play_one_phony_word_sinks_the_play():
    game = quite_then_in(bad=["UN"], challenge_scope=ChallengeScope.WHOLE_PLAY)
    event = game.challenge()
    assert event is not None and event.kind is EventKind.WITHDRAWN
    assert game.board.tile_count() == 5


def test_r5_2_listed_words_an_unlisted_phony_stays():
    game = quite_then_in(ChallengeRule.SINGLE, bad=["UN"])
    assert game.rules.challenge_scope is ChallengeScope.LISTED_WORDS  # naspa
    event = game.challenge(words=["QI"])
    assert event is not None and event.kind is EventKind.CHALLENGE_BONUS
    assert game.board.tile_count() == 7  # IN (and the phony UN) stay
    assert "UN" not in game.lexicon.asked  # type: ignore[union-attr]


def test_r5_2_listed_words_listing_the_phony_withdraws_the_play():
    game = quite_then_in(ChallengeRule.SINGLE, bad=["UN"])
    event = game.challenge(words=["QI", "UN"])
    assert event is not None and event.kind is EventKind.WITHDRAWN
    assert game.board.tile_count() == 5


def test_r5_2_listed_words_must_be_formed_by_the_play():
    game = quite_then_in(ChallengeRule.SINGLE)
    before = state(game)
    with pytest.raises(IllegalMove, match="the last play did not form ZA") as err:
        game.challenge(words=["ZA"])
    assert err.value.reason is Reason.NOTHING_TO_CHALLENGE
    assert state(game) == before
    with pytest.raises(IllegalMove, match="at least one word"):
        game.challenge(words=[])
    assert state(game) == before


# -- R5.3 successful challenge ------------------------------------------------------------------


@pytest.mark.parametrize(
    "rule", [ChallengeRule.DOUBLE, ChallengeRule.SINGLE, ChallengeRule.PENALTY]
)
def test_r5_3_phony_withdrawn_tiles_back_exactly_drawn_tiles_back_to_bag(rule):
    game = opening(rule, bad=["QUITE"])
    bag_before = game.bag_tiles()
    game.pass_turn()
    game.pass_turn()  # two scoreless turns so far
    game.play("8D QUITE")
    assert rack_text(game, 0) != "ABEIQTU"  # five tiles were drawn
    event = game.challenge()
    assert event is not None and event.kind is EventKind.WITHDRAWN
    assert rack_text(game, 0) == "ABEIQTU"
    assert game.bag_tiles() == bag_before
    assert game.board.is_empty()
    assert game.scores == [0, 0]
    assert event.score == -48 and event.total == 0 and event.player == 0
    assert event.rack == tuple(sorted(game.alphabet.parse(P0_RACK)))
    assert game.scoreless_turns == 3  # R6.2: the withdrawn play is a scoreless turn
    assert game.to_move == 1  # Ann lost her turn
    assert tile_census(game) == list(game.tileset.counts)
    assert [e.kind for e in game.history[-2:]] == [EventKind.PLAY, EventKind.WITHDRAWN]


def test_r5_3_blanks_lose_their_designation():
    game = make_game("naspa", ["QUITA?B", None])
    game.lexicon = Judge(game.alphabet, ["QUITE"])
    game.play("8D QUITe")
    assert game.board.get(7, 7) & 0x80
    game.challenge()
    assert rack_text(game, 0) == "ABIQTU?"
    assert game.board.is_empty()


def test_r2_6_2_after_a_withdrawn_first_play_the_next_play_is_a_first_play_again():
    game = opening(bad=["QUITE"], rules="hasbro")
    game.play("8D QUITE")
    game.challenge()
    assert game.board.is_empty()
    with pytest.raises(IllegalMove) as err:
        game.play("7D DO")
    assert err.value.reason is Reason.FIRST_PLAY_MISSES_START
    game.play("8G DOE")
    assert game.scores[1] == 2 * (2 + 1 + 1)  # the centre DW scores again


# -- R5.4a DOUBLE ---------------------------------------------------------------------------------


def test_r5_4a_double_the_challenger_loses_the_next_turn():
    game = opening(ChallengeRule.DOUBLE)
    game.play("8D QUITE")
    event = game.challenge()
    assert event is not None and event.kind is EventKind.LOST_TURN
    assert event.player == 1 and event.score == 0 and isinstance(event.move, Pass)
    assert game.to_move == 0  # the challenged player moves again
    assert game.scores == [48, 0]
    assert game.scoreless_turns == 1  # the lost turn counts as scoreless
    assert game.board.tile_count() == 5


def test_r5_4a_double_lost_turn_is_skipped_when_it_comes_in_a_three_player_game():
    game = opening(ChallengeRule.DOUBLE, rules="hasbro", players=3, pass_rounds_to_end=None)
    game.play("8D QUITE")
    assert game.challenge("Cy") is None  # nothing happens until Cy's turn comes
    assert game.to_move == 1
    game.pass_turn()  # Bob
    assert game.history[-1].kind is EventKind.LOST_TURN and game.history[-1].player == 2
    assert game.to_move == 0
    game.pass_turn()
    game.pass_turn()
    assert game.to_move == 2  # only one turn is lost
    kinds = [e.kind for e in game.history if e.player == 2]
    assert kinds == [EventKind.LOST_TURN]


def test_r5_4a_double_a_lost_turn_held_back_by_a_game_ending_play_comes_when_it_is_withdrawn():
    # R8.3: Bob's play reaches the finish line, so the game awaits its challenge before Cy's
    # owed turn can come; once the play is withdrawn the game goes on, and Cy's turn is lost
    game = opening(ChallengeRule.DOUBLE, bad=("SORDINE",), rules="finish_line", players=3,
                   finish_line_target=49)
    game.play("8D QUITE")  # 48: below the line
    assert game.challenge("Cy") is None  # QUITE is good: Cy owes a turn, Bob moves
    game.play("9D SORDINE")
    assert game.state is GameState.AWAITING_FINAL and game.scores[1] >= 49
    event = game.challenge("Ann")
    assert event is not None and event.kind is EventKind.WITHDRAWN
    assert game.state is GameState.PLAYING
    last = game.history[-1]
    assert last.kind is EventKind.LOST_TURN and last.player == 2
    assert game.to_move == 0


def test_r5_4a_double_next_player_challenging_loses_at_once_in_three_player_game():
    game = opening(ChallengeRule.DOUBLE, rules="hasbro", players=3)
    game.play("8D QUITE")
    event = game.challenge("Bob")
    assert event is not None and event.kind is EventKind.LOST_TURN and event.player == 1
    assert game.to_move == 2


# -- R5.4b SINGLE -------------------------------------------------------------------------------


def test_r5_4b_single_no_penalty():
    game = opening(ChallengeRule.SINGLE)
    game.play("8D QUITE")
    event = game.challenge()
    assert event is not None and event.kind is EventKind.CHALLENGE_BONUS and event.score == 0
    assert game.scores == [48, 0]
    assert game.to_move == 1  # the challenger still has the turn
    assert game.scoreless_turns == 0
    game.play("9D IN")


# -- R5.4c point penalty -------------------------------------------------------------------------


@pytest.mark.parametrize("points", [5, 10])
@pytest.mark.parametrize(
    ("scope", "per", "listed", "units"),
    [
        (ChallengeScope.WHOLE_PLAY, PenaltyPer.WORD, None, 3),
        (ChallengeScope.LISTED_WORDS, PenaltyPer.WORD, ["QI"], 1),
        (ChallengeScope.LISTED_WORDS, PenaltyPer.WORD, ["QI", "UN"], 2),
        (ChallengeScope.LISTED_WORDS, PenaltyPer.WORD, None, 3),
        (ChallengeScope.WHOLE_PLAY, PenaltyPer.PLAY, None, 1),
        (ChallengeScope.LISTED_WORDS, PenaltyPer.PLAY, ["QI", "UN"], 1),
    ],
)
def test_r5_4c_penalty_bonus_to_the_challenged_player(points, scope, per, listed, units):
    game = quite_then_in(
        ChallengeRule.PENALTY, penalty_points=points, penalty_per=per, challenge_scope=scope
    )
    assert game.scores == [48, 15]
    event = game.challenge("Ann", words=listed)
    assert event is not None and event.kind is EventKind.CHALLENGE_BONUS
    assert event.player == 1 and event.score == points * units
    assert game.scores == [48, 15 + points * units]
    assert event.total == 15 + points * units
    assert len(event.words) == units if per is PenaltyPer.WORD else len(event.words) >= 1
    assert game.to_move == 0  # not a turn


@pytest.mark.parametrize("per", [PenaltyPer.WORD, PenaltyPer.PLAY])
def test_r5_4c_penalty_deducted_from_the_challenger(per):
    game = quite_then_in(
        ChallengeRule.PENALTY,
        penalty_per=per,
        penalty_applies_to=PenaltyAppliesTo.CHALLENGER_DEDUCTION,
        challenge_scope=ChallengeScope.WHOLE_PLAY,
    )
    event = game.challenge()
    units = 3 if per is PenaltyPer.WORD else 1
    assert event is not None and event.kind is EventKind.CHALLENGE_PENALTY
    assert event.player == 0 and event.score == -5 * units
    assert game.scores == [48 - 5 * units, 15]


@pytest.mark.parametrize(
    ("rule", "after"),
    [(ChallengeRule.PENALTY, 3), (ChallengeRule.SINGLE, 3), (ChallengeRule.DOUBLE, 4)],
)
def test_r5_4c_failed_penalty_challenge_is_not_a_turn(rule, after):
    # a zero-point play counts as scoreless here, so the count is visible across the challenge
    game = make_game(
        "naspa", ["??QUITE", None], challenge_rule=rule, zero_point_play_is_scoreless=True
    )
    game.pass_turn()
    game.pass_turn()
    game.play("8G ab")
    assert game.scores == [0, 0] and game.scoreless_turns == 3
    game.challenge()
    assert game.scoreless_turns == after


# -- R5.4d TRIPLE -------------------------------------------------------------------------------


def test_r5_4d_triple_wrong_challenger_loses():
    game = opening(ChallengeRule.TRIPLE)
    game.play("8D QUITE")
    assert game.challenge() is None
    assert game.is_over and game.result is not None
    assert game.result.reason is EndReason.TRIPLE_CHALLENGE
    assert game.result.loser == 1 and game.result.winners == (0,)
    assert game.scores == [48, 0]  # no rack adjustment


def test_r5_4d_triple_phony_player_loses():
    game = opening(ChallengeRule.TRIPLE, bad=["QUITE"])
    game.play("8D QUITE")
    event = game.challenge()
    assert event is not None and event.kind is EventKind.WITHDRAWN
    assert game.is_over and game.result is not None
    assert game.result.reason is EndReason.TRIPLE_CHALLENGE
    assert game.result.loser == 0 and game.result.winners == (1,)


# -- R2.6.1 missing the centre under NASPA ------------------------------------------------------


def test_r2_6_1_centre_miss_is_illegal_by_default():
    game = opening(rules="hasbro")
    assert game.rules.center_miss is CenterMiss.ILLEGAL
    with pytest.raises(IllegalMove, match="must cover the start square H8") as err:
        game.play("3A QUITE")
    assert err.value.reason is Reason.FIRST_PLAY_MISSES_START


def test_r2_6_1_centre_miss_stands_if_unchallenged():
    game = opening()
    assert game.rules.center_miss is CenterMiss.CHALLENGEABLE  # naspa
    game.play("8A QUITE")  # A8 is a TW; the centre H8 stays empty
    assert game.scores == [(10 + 1 + 1 + 2 * 1 + 1) * 3, 0]  # T on D8 is a DL
    game.pass_turn()
    game.pass_turn()
    assert game.board.tile_count() == 5


@pytest.mark.parametrize(
    "rule", [ChallengeRule.DOUBLE, ChallengeRule.SINGLE, ChallengeRule.PENALTY]
)
def test_r2_6_1_centre_miss_is_challenged_off_whatever_its_words(rule):
    game = opening(rule)  # every word is valid
    game.play("8A QUITE")
    event = game.challenge()
    assert event is not None and event.kind is EventKind.WITHDRAWN
    assert game.board.is_empty() and game.scores == [0, 0]
    assert rack_text(game, 0) == "ABEIQTU"


def test_r2_6_1_an_unchallenged_centre_miss_allows_dw_times_tw():
    # R3.4: EATERS on I8-N8 misses H8 and stands; then H8 (DW) and O8 (TW) in one word = x6
    game = make_game("naspa", ["EATERSB", P1_RACK])
    game.play("8I EATERS")
    assert game.scores[0] == 1 + 1 + 1 + 2 * 1 + 1 + 1  # E on L8 is a DL
    game.play("8H I......S")
    assert game.scores[1] == (1 + 6 + 1) * 2 * 3


# -- R4.4 / R5.5 the pending out-play -------------------------------------------------------------


@pytest.mark.parametrize(
    "rules", ["naspa", "wespa", "hasbro"]
)
def test_r4_4_only_pass_or_challenge_while_an_out_play_is_pending(rules):
    game, out = endgame(rules, 3)
    mover = game.to_move
    game.play(out)
    assert game.state is GameState.AWAITING_FINAL
    assert not game.is_over
    opp = game.to_move
    assert opp != mover
    before = state(game)
    with pytest.raises(IllegalMove, match=r"only pass \(accept\) or challenge") as err:
        game.exchange(game.rack(opp).tiles()[:1])
    assert err.value.reason is Reason.ONLY_PASS_OR_CHALLENGE
    with pytest.raises(IllegalMove) as err:
        game.play("8A ZZ")
    assert state(game) == before


@pytest.mark.parametrize("rules", ["naspa", "wespa", "hasbro"])
def test_r5_5_accepting_the_out_play_ends_the_game(rules):
    game, out = endgame(rules, 3)
    mover = game.to_move
    game.play(out)
    event = game.pass_turn()
    assert event is not None and event.kind is EventKind.ACCEPT
    assert game.is_over and game.result is not None
    assert game.result.reason is EndReason.PLAYED_OUT
    assert any(e.kind is EventKind.END_RACK_POINTS and e.player == mover for e in game.history)


@pytest.mark.parametrize(
    ("rule", "bonus_kind"),
    [
        (ChallengeRule.DOUBLE, None),
        (ChallengeRule.SINGLE, EventKind.CHALLENGE_BONUS),
        (ChallengeRule.PENALTY, EventKind.CHALLENGE_BONUS),
    ],
)
def test_r5_5_valid_out_play_challenged_ends_the_game(rule, bonus_kind):
    game, out = endgame(make_rules("naspa", rule), 3)
    mover = game.to_move
    event = game.play(out)
    assert event is not None
    score_after_play = game.scores[mover]
    opp_rack_value = sum(game.tileset.value(t) for t in game.rack(1 - mover).tiles())
    game.challenge()
    assert game.is_over and game.result is not None
    assert game.result.reason is EndReason.PLAYED_OUT
    kinds = [e.kind for e in game.history[-3:]]
    assert EventKind.LOST_TURN not in kinds  # the lost turn is moot
    bonus = 0
    if bonus_kind is not None:
        i = kinds.index(bonus_kind)
        assert kinds[i + 1] is EventKind.END_RACK_POINTS  # the bonus comes first
        bonus = game.history[-3 + i].score
    if rule is ChallengeRule.PENALTY:
        assert bonus == 5 * len(event.words) and bonus > 0
    assert game.scores[mover] == score_after_play + bonus + 2 * opp_rack_value


@pytest.mark.parametrize(
    "rule", [ChallengeRule.DOUBLE, ChallengeRule.SINGLE, ChallengeRule.PENALTY]
)
def test_r5_5_phony_out_play_is_withdrawn_and_the_game_continues(rule):
    game, out = endgame(make_rules("naspa", rule), 3)
    mover = game.to_move
    rack_before = game.rack(mover)
    scores_before = game.scores
    game.play(out)
    game.lexicon = Judge(game.alphabet, valid=False)
    event = game.challenge()
    assert event is not None and event.kind is EventKind.WITHDRAWN
    assert game.state is GameState.PLAYING and not game.is_over
    assert game.rack(mover) == rack_before
    assert game.scores == scores_before
    assert game.to_move != mover
    game.pass_turn()  # the game goes on
    assert game.to_move == mover


def test_r5_2_garbage_word_text_in_a_listed_challenge_is_refused_cleanly():
    game = quite_then_in(ChallengeRule.SINGLE)
    before = state(game)
    for words in (["Q1"], [42], ["QI", "!"]):
        with pytest.raises(IllegalMove, match="is not a word to challenge") as err:
            game.challenge(words=words)
        assert err.value.reason is Reason.NOTATION
        assert state(game) == before
