"""Property tests (Hypothesis): random legal games under every preset conserve every tile,
keep every running total right, replay identically from their seed and actions, and
round-trip through GCG (R9) and CGP.

Games are played without a word list (``lexicon=None``: no word is invalid) or with a
seeded fake word list that rejects some words, so that VOID refuses plays and challenges
withdraw phonies (R5.3). See ``tests/support/randomplay.py``.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from support import NAMES
from support.randomplay import (
    Action,
    RejectingLexicon,
    play_random_game,
    replay,
    state,
    tile_census,
)
from tessera.game import EventKind, Game, GameState
from tessera.rules import (
    PRESETS,
    ChallengeRule,
    ChallengeScope,
    PenaltyAppliesTo,
    PenaltyPer,
    Rules,
    ScorelessEnd,
    preset,
)


def _usable(name: str) -> bool:
    try:
        PRESETS[name].tileset  # noqa: B018 - raises when the tile set is not shipped yet
    except Exception:
        return False
    return True


USABLE = sorted(n for n in PRESETS if _usable(n))
SKIPPED = sorted(set(PRESETS) - set(USABLE))


def _module(name: str) -> Any | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


gcg = _module("tessera.formats.gcg")
cgp = _module("tessera.formats.cgp")
needs_gcg = pytest.mark.skipif(
    gcg is None or not hasattr(gcg, "dumps"), reason="tessera.formats.gcg is not there yet"
)
needs_cgp = pytest.mark.skipif(
    cgp is None or not hasattr(cgp, "dumps"), reason="tessera.formats.cgp is not there yet"
)

FAST = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
SLOW = settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@st.composite
def game_specs(draw, names=tuple(USABLE), variants: bool = False):
    """(rules, players, seed, lexicon, pass_after) for one random game."""
    name = draw(st.sampled_from(names))
    rules: Rules = PRESETS[name]
    if variants:
        rules = rules.replace(
            challenge_rule=draw(st.sampled_from(list(ChallengeRule))),
            challenge_scope=draw(st.sampled_from(list(ChallengeScope))),
            penalty_points=draw(st.sampled_from([5, 10])),
            penalty_per=draw(st.sampled_from(list(PenaltyPer))),
            penalty_applies_to=draw(st.sampled_from(list(PenaltyAppliesTo))),
            scoreless_end=draw(st.sampled_from(list(ScorelessEnd))),
            zero_point_play_is_scoreless=draw(st.booleans()),
            zeros_can_end_empty_board=draw(st.booleans()),
            exchange_counts_as_scoreless=draw(st.booleans()),
            max_exchanges_per_player=draw(st.sampled_from([None, 1, 3])),
            finish_line_target=draw(st.sampled_from([None, None, 150, "beginner"])),
            finish_line_complete_round=draw(st.booleans()),
        )
    low = max(rules.min_players, 1)
    high = min(rules.max_players, 4)
    n = draw(st.integers(low, high))
    seed = draw(st.integers(0, 2**32 - 1))
    lexicon = RejectingLexicon(seed, draw(st.sampled_from([3, 6]))) if draw(st.booleans()) else None
    pass_after = draw(st.integers(4, 150))
    return rules, NAMES[:n], seed, lexicon, pass_after


def _play(spec, on_step=None) -> tuple[Game, list[Action]]:
    rules, players, seed, lexicon, pass_after = spec
    return play_random_game(
        rules, seed, players, lexicon=lexicon, pass_after=pass_after, on_step=on_step
    )


def _expected_counts(game: Game) -> tuple[int, int]:
    """An independent reading of R6.2's counting table (and R6.3's run of passes) over the
    history: (scoreless turns, consecutive passes)."""
    rules = game.rules
    zeros = passes = 0
    before_play = (0, 0)
    for e in game.history:
        if e.kind is EventKind.PLAY:
            before_play = (zeros, passes)
            zeros = zeros + 1 if e.score == 0 and rules.zero_point_play_is_scoreless else 0
            passes = 0
        elif e.kind in (EventKind.PASS, EventKind.LOST_TURN):
            zeros, passes = zeros + 1, passes + 1
        elif e.kind is EventKind.EXCHANGE:
            zeros += 1 if rules.exchange_counts_as_scoreless else 0
            passes = passes + 1 if rules.exchange_counts_as_pass else 0
        elif e.kind is EventKind.WITHDRAWN:
            zeros = before_play[0] + 1
            passes = before_play[1] + 1 if rules.challenge_counts_as_pass else 0
    return zeros, passes


def _check_step(game: Game, _action: Action) -> None:
    """Invariants after every action."""
    rules = game.rules
    n = game.num_players
    assert tile_census(game) == list(game.tileset.counts)
    if game.bag_count:  # R1.5: racks are full while the bag has tiles
        assert all(len(game.rack(i)) == rules.rack_size for i in range(n))
    else:
        assert all(len(game.rack(i)) <= rules.rack_size for i in range(n))
    # R1.6: turns go round in order, starting with the first player
    turns = game.turn_events()
    for k, e in enumerate(turns):
        assert e.player == (game.first + k) % n, (k, e)
    for i in range(n):  # what each player may know (DESIGN principle 4)
        view = game.view(i)
        assert view.rack == tuple(game.rack(i).tiles())
        unseen = [0] * game.alphabet.size
        for t in game.bag_tiles():
            unseen[t] += 1
        for j in range(n):
            if j != i:
                for t in game.rack(j).tiles():
                    unseen[t] += 1
        assert list(view.unseen) == unseen
        assert (view.final_racks is None) is (not game.is_over)
    if game.is_over:
        return
    assert (game.scoreless_turns, game.consecutive_passes) == _expected_counts(game)
    # R6.2, R6.3: a game that should have ended has ended
    blocked = not rules.zeros_can_end_empty_board and game.board.is_empty()
    limit = rules.scoreless_turns_to_end
    if limit is not None and rules.scoreless_end is ScorelessEnd.AUTOMATIC and not blocked:
        assert game.scoreless_turns < limit
    passes = rules.passes_to_end_for(n)
    if passes is not None and not blocked:
        assert game.consecutive_passes < passes
    if game.state is GameState.PLAYING:
        assert game.bag_count or all(len(game.rack(i)) for i in range(n))  # R6.1


def _check_running_totals(game: Game) -> None:
    """R9.6: every event's total is the player's previous total plus its score."""
    totals = [0] * game.num_players
    for e in game.history:
        assert e.total == totals[e.player] + e.score, e
        totals[e.player] = e.total
    assert totals == game.scores


def _check_game(spec) -> Game:
    rules, players, seed, lexicon, _ = spec
    game, actions = _play(spec, _check_step)
    assert game.is_over and game.result is not None
    _check_running_totals(game)
    assert set(game.result.winners) <= set(range(game.num_players))
    again = replay(rules, players, seed, actions, lexicon=lexicon)
    assert state(again) == state(game)
    assert again.history == game.history
    return game


# -- conservation, totals and replay ------------------------------------------------------------


def test_every_preset_is_exercised():
    """Report which presets are skipped (their tile set is not shipped yet)."""
    assert len(USABLE) + len(SKIPPED) == len(PRESETS)
    assert "naspa" in USABLE and "hasbro" in USABLE


@pytest.mark.parametrize("name", USABLE)
def test_each_preset_plays_a_random_game_to_the_end(name):
    rules = PRESETS[name]
    for seed in (11, 12):
        n = 2 if rules.max_players >= 2 else 1
        _check_game((rules, NAMES[:n], seed, RejectingLexicon(seed) if seed % 2 else None, 60))


@FAST
@given(game_specs())
def test_random_games_conserve_tiles_and_replay_identically(spec):
    _check_game(spec)


@FAST
@given(game_specs(variants=True))
def test_random_games_under_rule_variants(spec):
    _check_game(spec)


@pytest.mark.slow
@SLOW
@given(game_specs())
def test_random_games_conserve_tiles_and_replay_identically_many(spec):
    _check_game(spec)


@pytest.mark.slow
@SLOW
@given(game_specs(variants=True))
def test_random_games_under_rule_variants_many(spec):
    _check_game(spec)


def _check_undo(spec) -> None:
    rules, players, seed, lexicon, pass_after = spec
    rules = rules.replace(clock=None)  # undo is for untimed games
    states = []

    def remember(game: Game, _action: Action) -> None:
        states.append(state(game))

    game, _ = play_random_game(
        rules, seed, players, lexicon=lexicon, pass_after=pass_after, on_step=remember
    )
    fresh = Game(rules, lexicon=lexicon, players=players, seed=seed)  # type: ignore[arg-type]
    for snap in reversed(states):
        assert state(game) == snap
        game.undo()
    assert state(game) == state(fresh)
    assert not game.can_undo


@FAST
@given(game_specs())
def test_undo_walks_a_random_game_back_to_its_start(spec):
    _check_undo(spec)


# -- GCG and CGP round trips ----------------------------------------------------------------------


def _gcg_round_trip(spec) -> None:
    assert gcg is not None
    game, _ = _play(spec)
    text = gcg.dumps(game)
    again = gcg.replay(gcg.loads(text), rules=game.rules)
    assert again.board == game.board
    assert again.scores == game.scores
    assert again.is_over == game.is_over
    assert [e.kind for e in again.history if e.kind is not EventKind.ACCEPT] == [
        e.kind for e in game.history if e.kind is not EventKind.ACCEPT
    ]
    assert gcg.dumps(again) == text


@needs_gcg
@FAST
@given(game_specs())
# a lost turn owed when a play reached the finish line, which was then withdrawn (R5.4a)
@example((preset("finish_line"), NAMES[:4], 16666, RejectingLexicon(16666, 3), 16))
def test_gcg_round_trip(spec):
    _gcg_round_trip(spec)


@needs_gcg
@pytest.mark.slow
@SLOW
@given(game_specs(variants=True))
def test_gcg_round_trip_many(spec):
    _gcg_round_trip(spec)


def _cgp_round_trip(spec, stop: int) -> None:
    assert cgp is not None
    rules, players, seed, lexicon, _ = spec
    game, actions = _play(spec)
    game = replay(rules, players, seed, actions[: stop % (len(actions) + 1)], lexicon=lexicon)
    text = cgp.dumps(game)
    position = cgp.loads(text)
    again = position.to_game()
    # CGP lists the player to move first; the rebuilt game starts with that player
    n = game.num_players
    order = [(game.to_move + k) % n for k in range(n)]
    assert again.board == game.board
    assert again.to_move == 0
    assert again.scores == [game.scores[i] for i in order]
    assert [again.rack(k) for k in range(n)] == [game.rack(i) for i in order]
    assert again.scoreless_turns == game.scoreless_turns
    assert sorted(again.bag_tiles()) == sorted(game.bag_tiles())
    assert cgp.dumps(again) == text


@needs_cgp
@FAST
@given(game_specs(), st.integers(0, 400))
def test_cgp_round_trip(spec, stop):
    _cgp_round_trip(spec, stop)


@needs_cgp
@pytest.mark.slow
@SLOW
@given(game_specs(variants=True), st.integers(0, 400))
def test_cgp_round_trip_many(spec, stop):
    _cgp_round_trip(spec, stop)
