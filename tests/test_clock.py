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
    assert game.scores[0] < 48  # the time penalty is still charged


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
