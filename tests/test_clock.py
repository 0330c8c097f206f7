"""Clocks (R7): elapsed time per action, overtime penalties charged at the end (R7.2), the
maximum overtime (R7.3) and the Woogles auto-pass exception."""

from __future__ import annotations

import pytest

from support import make_game
from support.randomplay import endgame, state
from tessera.game import EndReason, EventKind, GameState
from tessera.legality import IllegalMove, Reason
from tessera.rules import OnMaxOvertime, Rules, TimeControl, preset

MIN = 60_000


def timed(initial_min=25, increment_s=0, **clock):
    control = TimeControl(initial_ms=initial_min * MIN, increment_ms=increment_s * 1000, **clock)
    return preset("naspa").replace(clock=control)


def test_r7_1_the_clock_counts_down_by_the_elapsed_time_of_each_action():
    game = make_game(timed(), ["QUITEAB", "DOERSIN"])
    assert game.clock_ms(0) == 25 * MIN and game.clock_ms("Bob") == 25 * MIN
    event = game.play("8D QUITE", elapsed_ms=90_000)
    assert event is not None and event.elapsed_ms == 90_000
    game.pass_turn(elapsed_ms=5_000)
    game.exchange("AB", elapsed_ms=1_000)
    assert game.clock_ms(0) == 25 * MIN - 91_000
    assert game.clock_ms(1) == 25 * MIN - 5_000
    assert game.view(1).clocks_ms == (25 * MIN - 91_000, 25 * MIN - 5_000)


def test_r7_1_increments_are_added_per_turn():
    game = make_game(timed(initial_min=3, increment_s=2))
    game.pass_turn(elapsed_ms=10_000)
    assert game.clock_ms(0) == 3 * MIN + 2_000 - 10_000


def test_r7_1_no_clock_means_no_clock_values():
    game = make_game("hasbro")
    assert game.clock_ms(0) is None and game.overtime_ms(0) == 0
    assert game.view(0).clocks_ms is None
    with pytest.raises(IllegalMove, match="no clock") as err:
        game.time_expired(0, 10**9)
    assert err.value.reason is Reason.NO_CLOCK


def test_r7_1_negative_elapsed_time_is_refused():
    game = make_game(timed(), ["QUITEAB", None])
    before = state(game)
    with pytest.raises(IllegalMove, match="cannot be negative"):
        game.play("8D QUITE", elapsed_ms=-1)
    with pytest.raises(IllegalMove, match="cannot be negative"):
        game.pass_turn(elapsed_ms=-1)
    assert state(game) == before


def test_r7_5_a_challenge_charges_the_challengers_clock():
    game = make_game(timed(), ["QUITEAB", None])
    game.play("8D QUITE", elapsed_ms=1_000)
    game.challenge(elapsed_ms=7_000)
    assert game.clock_ms(1) == 25 * MIN - 7_000


# -- R7.2 overtime penalty ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("over_ms", "penalty"),
    [(0, 0), (1, 10), (60_000, 10), (60_001, 20), (125_000, 30), (600_000, 100)],
)
def test_r7_2_ten_points_per_started_minute(over_ms, penalty):
    assert TimeControl().overtime_penalty(over_ms) == penalty


def test_r7_2_the_penalty_is_charged_at_the_end_as_a_time_penalty_event():
    game = make_game(timed(initial_min=1), ["QUITEAB", "DOERSIN"])
    game.play("8D QUITE", elapsed_ms=MIN + 125_000)  # 2:05 over
    assert game.scores == [48, 0]  # nothing is charged yet
    assert game.overtime_ms(0) == 125_000 and game.clock_ms(0) == -125_000
    for _ in range(6):
        game.pass_turn(elapsed_ms=1_000)
    assert game.result is not None and game.result.reason is EndReason.SCORELESS_TURNS
    last = game.history[-1]
    assert last.kind is EventKind.TIME_PENALTY and last.player == 0 and last.score == -30
    kinds = [e.kind for e in game.history[-3:]]
    assert kinds == [EventKind.END_RACK_PENALTY, EventKind.END_RACK_PENALTY,
                     EventKind.TIME_PENALTY]  # after the rack adjustment
    rack = sum(game.tileset.value(t) for t in game.rack(0).tiles())
    assert game.scores[0] == 48 - rack - 30
    assert not any(e.kind is EventKind.TIME_PENALTY and e.player == 1 for e in game.history)


def test_r7_2_penalty_cap():
    game = make_game(timed(initial_min=1, overtime_penalty_cap=50), ["QUITEAB", None])
    game.play("8D QUITE", elapsed_ms=MIN + 9 * MIN)
    game.resign("Bob")
    assert game.history[-1].kind is EventKind.TIME_PENALTY
    assert game.history[-1].score == -50


# -- R7.3 maximum overtime -----------------------------------------------------------------------


def test_r7_3_time_expired_is_refused_before_the_maximum_overtime():
    game = make_game(timed(initial_min=1))
    before = state(game)
    with pytest.raises(IllegalMove, match="the maximum is 10 min"):
        game.time_expired("Ann", MIN + 10 * MIN)  # exactly 10:00 over
    assert state(game) == before


def test_r7_3_naspa_scores_stand_with_no_rack_adjustment():
    game = make_game(timed(initial_min=1), ["QUITEAB", "DOERSIN"])
    assert game.rules.clock is not None
    assert game.rules.clock.on_max_overtime is OnMaxOvertime.END_SCORES_STAND
    game.play("8D QUITE", elapsed_ms=30_000)
    game.time_expired("Bob", MIN + 10 * MIN + 1_000)  # 10:01 over
    assert game.result is not None and game.result.reason is EndReason.MAX_OVERTIME
    assert game.result.loser is None
    assert not any(
        e.kind in (EventKind.END_RACK_PENALTY, EventKind.END_RACK_POINTS) for e in game.history
    )
    assert game.history[-1].kind is EventKind.TIME_PENALTY
    assert game.scores == [48, -110]  # 10 x 11 started minutes
    assert game.result.winners == (0,)


def test_r7_3_online_forfeit_loses_whatever_the_score():
    game = make_game("woogles", ["QUITEAB", "DOERSIN"])
    game.play("8D QUITE")
    game.pass_turn()
    game.time_expired("Ann", 36 * MIN)
    assert game.result is not None and game.result.reason is EndReason.TIMEOUT_FORFEIT
    assert game.result.loser == 0 and game.result.winners == (1,)
    # the loss is the whole penalty (issue 36, point 14): no overtime points on top
    assert game.scores == [48, 0]
    assert not any(e.kind is EventKind.TIME_PENALTY for e in game.history)


def test_r7_3_woogles_auto_passes_a_player_whose_opponent_went_out():
    game, out = endgame("woogles", 3)
    mover = game.to_move
    opp = 1 - mover
    game.play(out)
    assert game.state is GameState.AWAITING_FINAL
    game.time_expired(opp, 36 * MIN)
    assert game.result is not None and game.result.reason is EndReason.PLAYED_OUT
    assert game.result.loser is None
    assert any(e.kind is EventKind.ACCEPT and e.player == opp for e in game.history)
    assert any(e.kind is EventKind.END_RACK_POINTS and e.player == mover for e in game.history)


def test_r7_clock_field_of_rules():
    control = TimeControl(initial_ms=3 * MIN, increment_ms=1_000, max_overtime_min=1)
    rules = Rules(name="blitz", clock=control)
    game = make_game(rules)
    assert game.rules.clock is control and game.clock_ms(0) == 3 * MIN


def test_r7_3_overtime_already_used_counts_towards_the_maximum():
    game = make_game(timed(initial_min=1), ["QUITEAB", None])
    game.play("8D QUITE", elapsed_ms=MIN + 5 * MIN)  # Ann is 5:00 over
    game.pass_turn()
    with pytest.raises(IllegalMove):
        game.time_expired("Ann", 5 * MIN)  # 10:00 over: not yet
    game.time_expired("Ann", 5 * MIN + 1)
    assert game.result is not None and game.result.reason is EndReason.MAX_OVERTIME
    assert game.history[-1].score == -110


# -- R7.3 no move after the flag (issue 36, point 1) ---------------------------------------------

LATE = 25 * MIN + 10 * MIN + 1  # a 25-minute clock and 10 minutes of overtime, plus 1 ms


@pytest.mark.parametrize(
    "action",
    [
        lambda g, ms: g.play("8D QUITE", elapsed_ms=ms),
        lambda g, ms: g.pass_turn(elapsed_ms=ms),
        lambda g, ms: g.exchange("AB", elapsed_ms=ms),
        lambda g, ms: g.play([(7, 3, 16), (7, 4, 20)], elapsed_ms=ms),  # placed tiles
    ],
    ids=["play", "pass", "exchange", "squares"],
)
def test_r7_3_a_move_past_the_maximum_overtime_is_refused(action):
    game = make_game("woogles", ["QUITEAB", "DOERSIN"])
    before = state(game)
    with pytest.raises(IllegalMove, match="time ran out") as err:
        action(game, LATE)
    assert err.value.reason is Reason.OUT_OF_TIME
    assert state(game) == before and game.clock_ms(0) == 25 * MIN


def test_r7_3_a_move_at_exactly_the_maximum_overtime_is_in_time():
    game = make_game("woogles", ["QUITEAB", "DOERSIN"])
    game.play("8D QUITE", elapsed_ms=LATE - 1)
    assert game.clock_ms(0) == -10 * MIN


def test_r7_3_overtime_already_used_and_increments_count_towards_the_flag():
    game = make_game(timed(initial_min=1, increment_s=5), ["QUITEAB", None])
    game.play("8D QUITE", elapsed_ms=MIN + 6 * MIN)  # 6:00 over, then +5 s increment
    game.pass_turn(elapsed_ms=1_000)
    before = state(game)
    with pytest.raises(IllegalMove) as err:
        game.pass_turn(elapsed_ms=4 * MIN + 5_001)  # 10:00.001 over
    assert err.value.reason is Reason.OUT_OF_TIME and state(game) == before
    game.pass_turn(elapsed_ms=4 * MIN + 5_000)


def test_r7_3_a_challenge_past_the_maximum_overtime_is_refused():
    game = make_game("woogles", ["QUITEAB", "DOERSIN"])
    game.play("8D QUITE", elapsed_ms=1_000)
    before = state(game)
    with pytest.raises(IllegalMove) as err:
        game.challenge(elapsed_ms=LATE)  # Bob thought past his flag before challenging
    assert err.value.reason is Reason.OUT_OF_TIME and state(game) == before
    with pytest.raises(IllegalMove) as err:
        game.play("challenge", elapsed_ms=LATE)
    assert err.value.reason is Reason.OUT_OF_TIME and state(game) == before


def test_r7_3_game_over_and_turn_are_told_before_the_clock():
    game = make_game("woogles", ["QUITEAB", "DOERSIN"])
    with pytest.raises(IllegalMove) as err:
        game.pass_turn("Bob", elapsed_ms=LATE)
    assert err.value.reason is Reason.NOT_YOUR_TURN


def test_r7_3_a_late_going_out_play_is_a_loss_on_time_not_a_penalty():
    """Point 1/14: the late out-play is refused, and the app's loss on time stands: the
    forfeit, with neither the out-play's points nor an overtime penalty."""
    game, out = endgame("woogles", 3)
    mover = game.to_move
    before = state(game)
    clock = game.clock_ms(mover) or 0
    late = clock + 10 * MIN + 2_000
    with pytest.raises(IllegalMove) as err:
        game.play(out, elapsed_ms=late)
    assert err.value.reason is Reason.OUT_OF_TIME and state(game) == before
    scores = list(game.scores)
    game.time_expired(mover, late)
    assert game.result is not None and game.result.reason is EndReason.TIMEOUT_FORFEIT
    assert game.result.loser == mover and game.scores == scores
    assert not any(e.kind is EventKind.TIME_PENALTY for e in game.history)


def test_r7_3_a_late_accept_of_an_out_play_is_the_woogles_auto_pass():
    game, out = endgame("woogles", 3)
    opp = 1 - game.to_move
    game.play(out, elapsed_ms=1_000)
    late = (game.clock_ms(opp) or 0) + 10 * MIN + 1
    with pytest.raises(IllegalMove) as err:
        game.pass_turn(elapsed_ms=late)
    assert err.value.reason is Reason.OUT_OF_TIME
    game.time_expired(opp, late)
    assert game.result is not None and game.result.reason is EndReason.PLAYED_OUT


def test_r7_3_the_flagged_player_is_charged_to_the_flag_not_to_when_it_was_noticed():
    """A game decided hours late (the sweep, a reload) costs what the flag costs, and its
    views never show less than minus the maximum overtime."""
    naspa = make_game(timed(initial_min=1), ["QUITEAB", None])
    naspa.time_expired("Ann", 5 * 3_600_000)
    assert naspa.clock_ms(0) == -10 * MIN - 1
    assert naspa.scores == [-110, 0]  # 11 started minutes, as at 10:01 (R7.2)
    assert naspa.view(1).clocks_ms == (-10 * MIN, MIN)
    woogles = make_game("woogles")
    woogles.time_expired("Ann", 5 * 3_600_000)
    assert woogles.spectator_view().clocks_ms == (-10 * MIN, 25 * MIN)
    assert woogles.scores == [0, 0]


def test_r7_3_recorded_history_replays_a_late_move_as_it_was_accepted():
    """A log stored before the refusal existed (a pass 18 s past the flag) still replays:
    recorded actions are not judged by the clock again."""
    game = make_game("woogles", ["QUITEAB", "DOERSIN"])
    game.play("-", elapsed_ms=LATE + 18_000, recorded=True)
    game.play("8H DOES", recorded=True)
    game.challenge(elapsed_ms=LATE, recorded=True)  # Ann, flagged already, challenges
    assert game.clock_ms(0) == -10 * MIN - 18_001 - LATE
    assert game.view(0).clocks_ms is not None and game.view(0).clocks_ms[0] == -10 * MIN
