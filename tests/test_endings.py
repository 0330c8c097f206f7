"""Endings (R6.1–R6.6) and the finish line (R8.3)."""

from __future__ import annotations

import pytest

from support import NAMES, make_game
from support.randomplay import Judge, endgame
from tessera.game import EndReason, EventKind, GameState
from tessera.legality import IllegalMove, Reason
from tessera.rules import ChallengeRule, OutAdjust, ScorelessEnd, TieBreak


def rack_value(game, player):
    return sum(game.tileset.value(t) for t in game.rack(player).tiles())


# -- R6.1 playing out, R6.4 adjustments ------------------------------------------------------


def test_r6_1_r6_4_tournament_out_player_gains_twice_the_opponents_rack():
    game, out = endgame("naspa", 5)
    mover, opp = game.to_move, 1 - game.to_move
    game.play(out)
    before = game.scores
    opp_tiles = tuple(game.rack(opp).tiles())
    value = rack_value(game, opp)
    assert value > 0
    game.pass_turn()  # accept (R5.5)
    assert game.result is not None and game.result.reason is EndReason.PLAYED_OUT
    assert game.scores[mover] == before[mover] + 2 * value
    assert game.scores[opp] == before[opp]  # the opponent is not penalised
    last = game.history[-1]
    assert last.kind is EventKind.END_RACK_POINTS and last.player == mover
    assert last.score == 2 * value and last.other_racks == opp_tiles
    assert not any(e.kind is EventKind.END_RACK_PENALTY for e in game.history)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r6_1_r6_4_box_transfer_with_any_number_of_players(players):
    game, out = endgame("hasbro", 7, players=NAMES[:players])
    mover = game.to_move
    game.play(out)
    before = game.scores
    values = [rack_value(game, i) for i in range(players)]
    assert values[mover] == 0
    game.pass_turn()
    assert game.result is not None and game.result.reason is EndReason.PLAYED_OUT
    for i in range(players):
        if i == mover:
            assert game.scores[i] == before[i] + sum(values)
        else:
            assert game.scores[i] == before[i] - values[i]
    penalties = {e.player: e.score for e in game.history if e.kind is EventKind.END_RACK_PENALTY}
    assert penalties == {i: -values[i] for i in range(players) if i != mover}


def test_r6_4_double_adjustment_falls_back_to_box_rule_beyond_two_players():
    game, out = endgame(
        make_game("hasbro", players=3).rules.replace(out_adjust=OutAdjust.DOUBLE),
        7,
        players=NAMES[:3],
    )
    mover = game.to_move
    game.play(out)
    before = game.scores
    values = [rack_value(game, i) for i in range(3)]
    game.pass_turn()
    assert game.scores[mover] == before[mover] + sum(values)
    assert all(game.scores[i] == before[i] - values[i] for i in range(3) if i != mover)


def test_r6_1_the_out_play_must_stand_before_the_game_ends():
    game, out = endgame("hasbro", 7)
    game.play(out)
    assert game.state is GameState.AWAITING_FINAL and game.result is None


# -- R6.2 scoreless turns ----------------------------------------------------------------------


def test_r6_2_six_scoreless_turns_end_the_game_automatically():
    game = make_game("naspa", ["QUITEAB", "DOERSIN"])
    game.play("8D QUITE")
    for _ in range(5):
        game.pass_turn()
    assert not game.is_over and game.scoreless_turns == 5
    values = [rack_value(game, 0), rack_value(game, 1)]
    before = game.scores
    game.pass_turn()
    assert game.is_over and game.result is not None
    assert game.result.reason is EndReason.SCORELESS_TURNS
    assert game.scores == [before[0] - values[0], before[1] - values[1]]  # own rack each
    ends = [e for e in game.history if e.kind is EventKind.END_RACK_PENALTY]
    assert [(e.player, e.score) for e in ends] == [(0, -values[0]), (1, -values[1])]
    assert all(e.rack == e.other_racks for e in ends)  # GCG "RACK (RACK) -N"


def test_r6_2_on_request_the_game_goes_on_until_a_player_ends_it():
    game = make_game("naspa", ["QUITEAB", "DOERSIN"], scoreless_end=ScorelessEnd.ON_REQUEST)
    game.play("8D QUITE")
    for _ in range(5):
        game.pass_turn()
    with pytest.raises(IllegalMove, match="after 6 scoreless turns; there have been 5"):
        game.end_by_request("Bob")
    game.pass_turn()
    game.pass_turn()
    assert not game.is_over and game.scoreless_turns == 7
    with pytest.raises(IllegalMove, match="no player 'Zed'"):
        game.end_by_request("Zed")
    values = [rack_value(game, 0), rack_value(game, 1)]
    game.end_by_request("Ann")
    assert game.result is not None and game.result.reason is EndReason.ENDED_BY_REQUEST
    assert game.scores == [48 - values[0], -values[1]]
    with pytest.raises(IllegalMove, match="not in progress"):
        game.end_by_request()


def test_r6_2_exchanges_withdrawals_and_lost_turns_count():
    game = make_game("naspa", ["QUITEAB", "DOERSIN"])
    game.lexicon = Judge(game.alphabet, ["QUITE"])
    game.exchange("AB")  # 1
    game.pass_turn()  # 2
    game.set_rack(0, "QUITEAB")
    game.play("8D QUITE")
    game.challenge()  # withdrawn: 3
    assert game.scoreless_turns == 3
    game.lexicon = None
    game.play("8G DOE")  # a scoring play resets
    assert game.scoreless_turns == 0
    game.challenge()  # DOUBLE: Ann loses her turn: 1
    assert game.scoreless_turns == 1 and game.history[-1].kind is EventKind.LOST_TURN
    game.pass_turn()  # Bob: 2
    for _ in range(3):
        game.exchange(game.rack(game.to_move).tiles()[:2])  # 3, 4, 5
    assert not game.is_over
    game.pass_turn()  # 6
    assert game.result is not None and game.result.reason is EndReason.SCORELESS_TURNS


def test_r6_2_r4_3_exchanges_may_not_count():
    game = make_game("naspa", exchange_counts_as_scoreless=False)
    for _ in range(8):
        game.exchange(game.rack(game.to_move).tiles()[:3])
    assert game.scoreless_turns == 0 and not game.is_over
    game.pass_turn()
    assert game.scoreless_turns == 1


def test_r6_2_failed_point_penalty_challenge_leaves_the_count_alone():
    game = make_game("wespa", ["??QUITE", None], zero_point_play_is_scoreless=True)
    game.pass_turn()
    game.pass_turn()
    game.play("8G ab")
    assert game.scoreless_turns == 3
    game.challenge()
    assert game.history[-1].kind is EventKind.CHALLENGE_BONUS
    assert game.scoreless_turns == 3


@pytest.mark.parametrize(("zero_counts", "after"), [(False, 0), (True, 3)])
def test_r6_2_zero_point_play(zero_counts, after):
    game = make_game("naspa", ["??QUITE", None], zero_point_play_is_scoreless=zero_counts)
    game.pass_turn()
    game.pass_turn()
    game.play("8G ab")
    assert game.scores[0] == 0
    assert game.scoreless_turns == after


def test_r6_2_zeros_cannot_end_an_empty_board_game_when_configured():
    game = make_game("naspa", ["QUITEAB", None], zeros_can_end_empty_board=False)
    for _ in range(8):
        game.pass_turn()
    assert not game.is_over and game.scoreless_turns == 8
    game.play("8D QUITE")
    for _ in range(5):
        game.pass_turn()
    assert not game.is_over
    game.pass_turn()
    assert game.result is not None and game.result.reason is EndReason.SCORELESS_TURNS


def test_r6_2_zeros_can_end_an_empty_board_game_by_default():
    game = make_game("naspa")
    for _ in range(6):
        game.pass_turn()
    assert game.result is not None and game.result.reason is EndReason.SCORELESS_TURNS


def test_r6_2_on_request_refused_on_an_empty_board_when_zeros_cannot_end_it():
    game = make_game(
        "naspa", scoreless_end=ScorelessEnd.ON_REQUEST, zeros_can_end_empty_board=False
    )
    for _ in range(6):
        game.pass_turn()
    with pytest.raises(IllegalMove, match="empty board") as err:
        game.end_by_request()
    assert err.value.reason is Reason.GAME_OVER
    assert not game.is_over


# -- R6.3 box-rule pass endings ----------------------------------------------------------------


@pytest.mark.parametrize(("name", "rounds"), [("hasbro", 1), ("mattel", 2)])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_r6_3_full_rounds_of_passes_end_a_box_game(name, rounds, players):
    game = make_game(name, players=players)
    for _ in range(rounds * players - 1):
        game.pass_turn()
    assert not game.is_over
    values = [rack_value(game, i) for i in range(players)]
    game.pass_turn()
    assert game.result is not None and game.result.reason is EndReason.PASSES
    assert game.scores == [-v for v in values]  # R6.3: each deducts their own rack


def test_r6_3_exchanges_break_the_run_of_passes():
    game = make_game("hasbro", players=2)
    game.pass_turn()
    game.exchange(game.rack(1).tiles()[:2])
    game.pass_turn()
    assert not game.is_over and game.consecutive_passes == 1
    game.pass_turn()
    assert game.result is not None and game.result.reason is EndReason.PASSES


@pytest.mark.parametrize("players", [2, 3])
def test_r6_3_wwf_three_passes(players):
    game = make_game("wwf", players=players)
    game.pass_turn()
    game.pass_turn()
    assert not game.is_over
    game.pass_turn()
    assert game.result is not None and game.result.reason is EndReason.PASSES


def test_r6_3_lexulous_exchanges_count_as_passes():
    game = make_game("lexulous")
    game.pass_turn()
    game.exchange(game.rack(1).tiles()[:3])
    assert not game.is_over and game.consecutive_passes == 2
    game.pass_turn()
    assert game.result is not None and game.result.reason is EndReason.PASSES
    assert [e.kind for e in game.history[-2:]] == [EventKind.END_RACK_PENALTY] * 2


def test_r6_3_a_play_breaks_the_run():
    game = make_game("wwf", ["QUITEAB", None])
    game.pass_turn()
    game.pass_turn()
    game.play("8D QUITE")
    assert game.consecutive_passes == 0
    game.pass_turn()
    game.pass_turn()
    assert not game.is_over


# -- R6.6 result and tie-breaks -------------------------------------------------------------


def _tied_after_adjustment(tie_break):
    """Ann scores 8, then both pass out (hasbro): Ann 8 - 11 = -3, Bob 0 - 3 = -3."""
    game = make_game("hasbro", ["ABQUITE", "DOERSIN"], tie_break=tie_break)
    game.play("8G AB")  # A on G8, B on the centre DW: (1 + 3) x 2
    assert game.scores == [8, 0]
    game.set_rack(0, "QI")
    game.set_rack(1, "AEI")
    game.pass_turn()
    game.pass_turn()
    assert game.scores == [-3, -3]
    return game


def test_r6_6_box_tie_break_uses_the_scores_before_adjustment():
    game = _tied_after_adjustment(TieBreak.PRE_ADJUSTMENT)
    assert game.result is not None
    assert game.result.winners == (0,) and not game.result.is_draw


def test_r6_6_tournament_tie_is_a_draw():
    game = _tied_after_adjustment(TieBreak.DRAW)
    assert game.result is not None
    assert game.result.winners == (0, 1) and game.result.is_draw


def test_r6_6_box_tie_break_equal_before_adjustment_is_a_tie():
    game = make_game("hasbro", ["AEI", "AEI"])
    game.pass_turn()
    game.pass_turn()
    assert game.scores == [-3, -3]
    assert game.result is not None and game.result.is_draw


def test_r6_6_the_highest_score_wins():
    game = make_game("hasbro", ["ABQUITE", "DOERSIN"])
    game.play("8D QUITE")
    game.pass_turn()
    game.pass_turn()
    assert game.result is not None and game.result.winners == (0,)
    assert game.result.scores == tuple(game.scores)


# -- R8.3 finish line ----------------------------------------------------------------------------


def finish(target, players=2, rule=ChallengeRule.VOID, **changes):
    racks = ["QUITEAB", "DOERSIN"] + [None] * (players - 2)
    return make_game(
        "finish_line",
        racks,
        players=players,
        finish_line_target=target,
        challenge_rule=rule,
        **changes,
    )


def test_r8_3_2_reaching_the_target_ends_the_game_with_no_rack_adjustment():
    game = finish(48)
    game.play("8D QUITE")
    assert game.result is not None and game.result.reason is EndReason.FINISH_LINE
    assert game.result.winners == (0,)
    assert game.scores == [48, 0]
    assert game.history[-1].kind is EventKind.PLAY


def test_r8_3_2_below_the_target_the_game_goes_on():
    game = finish(49)
    game.play("8D QUITE")
    assert not game.is_over


@pytest.mark.parametrize(
    ("players", "level", "target"),
    [(2, "beginner", 70), (3, "intermediate", 100), (4, "expert", 160), (4, "beginner", 50)],
)
def test_r8_3_target_by_level_name_depends_on_player_count(players, level, target):
    game = finish(level, players=players)
    assert game.rules.finish_target(players) == target


@pytest.mark.parametrize(("players", "ends"), [(3, False), (4, True)])
def test_r8_3_beginner_target_is_lower_with_more_players(players, ends):
    game = finish("beginner", players=players)  # 3 players: 60; 4 players: 50
    game.play("8D QUITE")  # 48
    for _ in range(players - 1):
        game.pass_turn()
    game.set_rack(0, "AB")
    game.play("9D A")  # forms QA down column D: 10 + 1
    assert game.scores[0] >= 50
    assert game.is_over is ends
    if ends:
        assert game.result is not None and game.result.winners == (0,)


def test_r8_3_2_under_a_challenge_rule_the_window_closes_first():
    game = finish(40, rule=ChallengeRule.DOUBLE)
    game.play("8D QUITE")
    assert game.state is GameState.AWAITING_FINAL and not game.is_over
    with pytest.raises(IllegalMove) as err:
        game.play("9D IN")
    assert err.value.reason is Reason.ONLY_PASS_OR_CHALLENGE
    event = game.pass_turn()
    assert event is not None and event.kind is EventKind.ACCEPT
    assert game.result is not None and game.result.reason is EndReason.FINISH_LINE
    assert game.result.winners == (0,) and game.scores == [48, 0]


def test_r8_3_2_a_valid_challenged_target_play_ends_the_game():
    game = finish(40, rule=ChallengeRule.DOUBLE)
    game.play("8D QUITE")
    game.challenge()
    assert game.result is not None and game.result.reason is EndReason.FINISH_LINE
    assert game.result.winners == (0,)


def test_r8_3_2_a_phony_target_play_is_withdrawn_and_the_game_goes_on():
    game = finish(40, rule=ChallengeRule.DOUBLE)
    game.lexicon = Judge(game.alphabet, ["QUITE"])
    game.play("8D QUITE")
    game.challenge()
    assert game.state is GameState.PLAYING and game.scores == [0, 0]
    game.play("8G DOE")
    assert not game.is_over


def test_r8_3_complete_round_lets_everyone_have_equal_turns():
    game = finish(40, finish_line_complete_round=True)
    game.play("8D QUITE")  # Ann reaches 40 but Bob still moves
    assert not game.is_over
    game.play("9D IN")
    assert game.result is not None and game.result.reason is EndReason.FINISH_LINE
    assert game.result.winners == (0,)  # 48 against 15
    assert game.scores == [48, 15]


def test_r8_3_complete_round_the_last_player_can_overtake():
    game = finish(40, players=3, finish_line_complete_round=True)
    game.play("8D QUITE")
    game.pass_turn()  # Bob
    game.set_rack(2, "AEINRST")
    game.play("H8 .AEINRST")  # Cy: E + AEINRST down to the H15 TW, N on the H12 DL
    assert game.scores[2] == (1 + 1 + 1 + 1 + 2 + 1 + 1 + 1) * 3 + 50
    assert game.result is not None and game.result.reason is EndReason.FINISH_LINE
    assert game.result.winners == (2,)


def test_r8_3_complete_round_ends_after_the_challenge_window_of_the_last_play():
    game = finish(40, players=3, rule=ChallengeRule.DOUBLE, finish_line_complete_round=True)
    game.play("8D QUITE")
    game.pass_turn()  # Bob accepts Ann's play; the round goes on
    assert not game.is_over
    game.set_rack(2, "AEINRST")
    game.play("H8 .AEINRST")  # Cy's play ends the round, once it stands
    assert game.state is GameState.AWAITING_FINAL
    with pytest.raises(IllegalMove):
        game.exchange("Q")
    game.pass_turn()
    assert game.result is not None and game.result.reason is EndReason.FINISH_LINE
    assert game.result.winners == (2,)


def test_r8_3_complete_round_a_pass_can_end_the_round():
    game = finish(40, rule=ChallengeRule.DOUBLE, finish_line_complete_round=True)
    game.play("8D QUITE")
    game.pass_turn()  # Bob's pass is the round's last turn
    assert game.result is not None and game.result.reason is EndReason.FINISH_LINE
    assert game.result.winners == (0,)


def test_r8_3_complete_round_withdrawn_target_play_cancels_the_final_round():
    game = finish(40, players=3, rule=ChallengeRule.DOUBLE, finish_line_complete_round=True)
    game.lexicon = Judge(game.alphabet, ["QUITE"])
    game.play("8D QUITE")
    game.challenge("Bob")
    assert game.scores == [0, 0, 0]
    game.pass_turn()  # Bob
    game.pass_turn()  # Cy: would have ended the round had QUITE stood
    assert not game.is_over


def test_r8_3_complete_round_a_lost_last_turn_ends_the_round():
    game = finish(40, players=3, rule=ChallengeRule.DOUBLE, finish_line_complete_round=True)
    game.play("8D QUITE")
    game.challenge("Cy")  # fails; Cy (the round's last player) loses the next turn
    assert not game.is_over
    game.pass_turn()  # Bob; then Cy's turn is lost and the round is over
    assert game.history[-1].kind is EventKind.LOST_TURN
    assert game.result is not None and game.result.reason is EndReason.FINISH_LINE


def test_r8_3_3_a_normal_ending_first_uses_r6_4_and_r6_6():
    game = finish("expert")
    values = [rack_value(game, 0), rack_value(game, 1)]
    game.pass_turn()
    game.pass_turn()
    assert game.result is not None and game.result.reason is EndReason.PASSES
    assert game.scores == [-values[0], -values[1]]
