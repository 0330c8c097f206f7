"""The race player (``race``) for finish-line games (R8.3): it takes a winning play, repeats
with a seed, plays for the race where static plays for equity, is registered (and is
``best``'s play in a race), plays static outside a race, and a race against static runs to
its end; its race table against hand-computed values."""

from __future__ import annotations

import pytest

from tessera.engine import PLAYER_NAMES, get_player
from tessera.engine.players import StaticPlayer
from tessera.engine.race_player import (
    RacePlayer,
    RaceSimPlayer,
    is_race,
    race_candidates,
    race_table,
    race_table_from,
)
from tessera.engine.selfplay import play_game
from tessera.formats import cgp
from tessera.game import Game, GameState
from tessera.lexicon import Lexicon
from tessera.move import Exchange, Play
from tessera.rules import preset

RACE = preset("finish_line")  # to 120 for two players
EMPTY_ROWS = "15/" * 7
HOUSE = f"{EMPTY_ROWS}6HOUSE4/" + "15/" * 6 + "15"  # HOUSE across the centre


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.load("enable")


def position(lex: Lexicon, rack: str, scores: str, board: str = HOUSE) -> Game:
    """A finish-line game in a CGP position, the player with ``rack`` to move."""
    line = f"{board} {rack}/EEAARST {scores} 0 tr finish_line;"
    return cgp.loads(line).to_game(lexicon=lex, seed=1)


def test_race_is_a_registered_player(lex) -> None:
    assert "race" in PLAYER_NAMES
    race = get_player("race", lex, seed=5, time_limit=0.1)
    assert type(race) is RacePlayer and race.name == "race"
    assert race.seed == 5 and race.time_limit == 0.1
    best = get_player("best", lex, seed=5)
    assert isinstance(best, RaceSimPlayer) and best.name == "best"


def test_a_play_reaching_the_target_is_taken(lex) -> None:
    # 110 to 0: any play of 10 or more wins at once (R8.3.2); the race player plays the
    # highest-scoring one without simulating, though the opponent is far from the target
    game = position(lex, "AEINRST", "110/0")
    view = game.view(0)
    race = RacePlayer(lex, iterations=50, seed=1, time_limit=None)
    move = race.choose(view)
    top = max(StaticPlayer(lex).ranked(view), key=lambda m: m.score)
    assert isinstance(move, Play) and move == top.move
    assert view.scores[0] + move.score >= 120
    assert race.last is None  # taken without a simulation
    game.play(move, 0)
    assert game.state is GameState.AWAITING_FINAL  # the challenge window (double challenge)
    game.play(StaticPlayer(lex).choose(game.view(1)), 1)  # accepted
    assert game.state is GameState.OVER and game.scores[0] >= 120


def test_an_exchange_is_not_played_a_turn_from_the_finish(lex) -> None:
    # UUVVWWI: static exchanges (its equity says so, and in a long race the simulation
    # agrees), but at 80 to 90 the opponent needs 30, about one turn: an exchange scores
    # nothing and gives them two turns before we score again, so the race plays (VIVE)
    long = position(lex, "UUVVWWI", "20/20").view(0)
    short = position(lex, "UUVVWWI", "80/90").view(0)
    static = StaticPlayer(lex)
    assert isinstance(static.choose(long), Exchange)
    assert isinstance(static.choose(short), Exchange)
    race = RacePlayer(lex, iterations=300, seed=3, time_limit=None)
    assert isinstance(race.choose(long), Exchange)
    move = race.choose(short)
    assert isinstance(move, Play) and move.score > 0
    assert race.last is not None
    results = {str(c.move): c.win for c in race.last.candidates}
    exchange = next(w for m, w in results.items() if m.startswith("-"))
    assert results[str(move)] > exchange + 0.05


def test_a_seeded_race_player_repeats_itself(lex) -> None:
    view = position(lex, "AEIKLMN", "30/40").view(0)  # no play reaches 120: it simulates
    a = RacePlayer(lex, iterations=120, seed=9, time_limit=None)
    b = RacePlayer(lex, iterations=120, seed=9, time_limit=None)
    assert a.choose(view) == b.choose(view)
    assert a.last is not None and b.last is not None
    assert [(c.move, c.win, c.iterations) for c in a.last.candidates] == [
        (c.move, c.win, c.iterations) for c in b.last.candidates
    ]


def test_outside_a_race_it_plays_as_static(lex) -> None:
    game = Game(preset("naspa"), lexicon=lex, players=("A", "B"), seed=3)
    static = StaticPlayer(lex)
    race = RacePlayer(lex, iterations=50, seed=1, time_limit=None)
    for _ in range(4):
        view = game.view(game.to_move)
        assert not is_race(view)
        move = race.choose(view)
        assert move == static.choose(view) and race.last is None
        game.play(move, game.to_move)


def test_candidates_keep_the_top_scores_and_drop_poor_exchanges(lex) -> None:
    view = position(lex, "AEINRST", "0/0").view(0)
    ranked = StaticPlayer(lex).ranked_raw(view)
    cands = race_candidates(ranked, by_equity=3, by_score=3, exchange_rank=3)
    by_score = sorted((c for c in ranked if c[0] == 0), key=lambda c: -c[5])[:3]
    assert all(c in cands for c in ranked[:3] + by_score)
    assert len(cands) <= 6 and all(c[0] == 0 for c in cands)  # no exchange ranks that high


def test_the_race_table_against_hand_counts() -> None:
    # every turn scores exactly 10: the player to move, needing a, wins iff it needs no more
    # turns than the other, who needs b
    table = race_table_from([10], 60)
    for a in range(1, 61):
        for b in range(1, 61):
            want = 1.0 if -(-a // 10) <= -(-b // 10) else 0.0
            assert table.p(b, a) == pytest.approx(want)
    # turns of 0 or 30 points, equally likely, to 30: the mover wins with its first scoring
    # turn unless the other scores first: p = 1/2 + 1/4 p  ->  p = 2/3
    assert race_table_from([0, 30], 30).p(30, 30) == pytest.approx(2 / 3)


def test_the_race_table_of_the_finish_line_game(lex) -> None:
    rules = RACE.for_alphabet(lex.alphabet)
    table = race_table(lex, rules, StaticPlayer(lex).leaves_for(rules))
    assert table is not None and len(table.rows) == 121
    assert 0.55 < table.p(120, 120) < 0.7  # moving first is worth something
    assert table.p(100, 20) > 0.9 > 0.1 > table.p(20, 100)
    assert race_table(lex, rules, StaticPlayer(lex).leaves_for(rules)) is table  # cached


def test_a_short_race_against_static_runs_to_its_end(lex) -> None:
    rules = RACE.replace(finish_line_target=60)
    game = Game(rules, lexicon=lex, players=("race", "static"), seed=21)
    race = RacePlayer(lex, iterations=40, seed=2, time_limit=None)
    play_game(game, [race, StaticPlayer(lex)])
    assert game.state is GameState.OVER
    assert max(game.scores) >= 60 and game.result is not None
    assert game.result.reason.value == "finish_line"
