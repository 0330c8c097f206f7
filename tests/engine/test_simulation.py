"""The compiled simulation: held against the naive Python loop (tessera.engine.simref) on small
cases, the same on any thread count, within its time limit, and clear about bad input."""

from __future__ import annotations

from dataclasses import replace

import pytest
from click.testing import CliRunner

from support.timelimit import timed_within
from tessera import _core
from tessera.cli import main
from tessera.engine import native
from tessera.engine.players import StaticPlayer
from tessera.engine.simref import reference_simulate, stream_seed
from tessera.engine.simulation import BATCH, MIN_PRUNE, SimulationError, simulate
from tessera.engine.winpct import default_win_table
from tessera.formats import cgp
from tessera.game import Game, PlayerView
from tessera.lexicon import Lexicon
from tessera.move import Exchange, Pass, Play
from tessera.rules import preset

RULES = preset("naspa")


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.load("enable")


@pytest.fixture(scope="module")
def static(lex: Lexicon) -> StaticPlayer:
    return StaticPlayer(lex)


def game_after(lex: Lexicon, static: StaticPlayer, seed: int, turns: int) -> Game:
    """A game after ``turns`` static moves (or where it stopped being in play)."""
    game = Game(RULES, lexicon=lex, players=("A", "B"), seed=seed)
    for _ in range(turns):
        if game.is_over:
            break
        game.play(static.choose(game.view(game.to_move)), game.to_move)
    return game


def view_after(lex: Lexicon, static: StaticPlayer, seed: int, turns: int) -> PlayerView:
    game = game_after(lex, static, seed, turns)
    return game.view(game.to_move)


def reference(lex: Lexicon, static: StaticPlayer, view: PlayerView, cands, **kw):
    eng = native.engine(lex, view.rules)
    return reference_simulate(eng, native.leave_table(static.leaves), default_win_table(), view,
                              cands, min_prune=MIN_PRUNE, batch=BATCH, **kw)


def by_move(result) -> dict[object, object]:
    """Candidates by move (equal moves are equal whatever alphabet they print with)."""
    return {c.move: c for c in result.candidates}


def test_stream_seeds_agree() -> None:
    for seed, i in [(0, 0), (1, 2), (2**64 - 1, 10**9), (123456789, 7)]:
        assert _core.stream_seed(seed, i) == stream_seed(seed, i)


@pytest.mark.parametrize(("seed", "turns", "z", "plies"), [
    (11, 8, None, 2),   # mid-game, nothing dropped
    (12, 4, 1.0, 2),   # early game, candidates dropped on the way
    (13, 10, None, 3),  # an odd horizon: the opponent moved last
])
def test_core_matches_the_python_loop(lex, static, seed, turns, z, plies) -> None:
    view = view_after(lex, static, seed, turns)
    everything = static.ranked_raw(view)
    cands = everything[:3] + everything[30:32]  # some clearly worse: dropped when z is set
    moves = [native.to_move(c) for c in cands]
    result = simulate(view, plies=plies, iterations=48, seed=5, candidates=moves, lexicon=lex,
                      inference=False, prune_z=z)
    ref = reference(lex, static, view, cands, plies=plies, iterations=48, seed=5, z=z)
    got = by_move(result)
    for cand, st in zip(cands, ref, strict=True):
        c = got[native.to_move(cand)]
        assert c.iterations == st.n and c.pruned == st.pruned
        assert c.equity == pytest.approx(st.total / st.n, abs=1e-9)
        assert c.win == pytest.approx(st.wins / st.n, abs=1e-12)
    if z is not None:
        assert any(c.pruned for c in result.candidates)
        assert [c.pruned for c in result.candidates] == sorted(c.pruned for c in result.candidates)


def test_core_matches_the_python_loop_to_the_end_of_the_game(lex, static) -> None:
    game = game_after(lex, static, 21, 0)
    while game.bag_count > 12:
        game.play(static.choose(game.view(game.to_move)), game.to_move)
    played_out_as_in_the_python_loop(lex, static, game.view(game.to_move), 40, 16, 2)


def played_out_as_in_the_python_loop(lex, static, view, plies, iterations, seed) -> list:
    """The best 3 static candidates simulated to the game's end in the core and in the Python
    loop: the same equity and win, every rollout a whole or half game won. Returns (candidate,
    its result) pairs."""
    cands = static.ranked_raw(view, top=3)
    moves = [native.to_move(c) for c in cands]
    result = simulate(view, plies=plies, iterations=iterations, seed=seed, candidates=moves,
                      lexicon=lex, inference=False, prune_z=None)
    ref = reference(lex, static, view, cands, plies=plies, iterations=iterations, seed=seed)
    got = by_move(result)
    pairs = []
    for cand, st in zip(cands, ref, strict=True):
        c = got[native.to_move(cand)]
        assert c.equity == pytest.approx(st.total / st.n, abs=1e-9)
        assert c.win == pytest.approx(st.wins / st.n, abs=1e-12)
        # every rollout reached the end: the win is a whole or a half game each time
        assert (c.win * iterations * 2) == pytest.approx(round(c.win * iterations * 2))
        pairs.append((cand, c))
    return pairs


def test_finish_line_rollouts_end_at_the_target_as_in_the_python_loop(lex, static) -> None:
    """R8.3: rollouts start from the real scores and end when a player reaches the target, the
    static player in them taking a play that reaches it; a candidate reaching it wins every
    rollout and scores just its points."""
    rules = preset("finish_line")
    target = rules.finish_target(2)
    assert target is not None
    kinds = set()
    for seed in (31, 32, 33, 34):
        game = Game(rules, lexicon=lex, players=("A", "B"), seed=seed)
        while max(game.scores) < target - 70:
            game.play(static.choose(game.view(game.to_move)), game.to_move)
        view = game.view(game.to_move)
        for cand, c in played_out_as_in_the_python_loop(lex, static, view, 30, 12, 4):
            reaches = view.scores[view.player] + cand[5] >= target
            kinds.add(reaches)
            if reaches:
                assert c.win == 1.0 and c.equity == cand[5]
    assert kinds == {True, False}


def test_inferred_leaves_are_dealt_as_in_the_python_loop(lex, static) -> None:
    view = view_after(lex, static, 14, 6)
    cands = static.ranked_raw(view, top=3)
    letters = [t for t, n in enumerate(view.unseen) for _ in range(n)]
    leaves = [tuple(letters[:2]), tuple(letters[-3:]), tuple(letters[5:6])]
    from tessera.engine.inference import Inference

    inf = Inference(Pass(), tuple(leaves) * 10, 30, 5.0)  # informative: all kept of 30
    inf = replace(inf, tried=100)
    result = simulate(view, iterations=20, seed=8, candidates=[native.to_move(c) for c in cands],
                      lexicon=lex, inference=inf, prune_z=None)
    assert result.inference is inf
    ref = reference(lex, static, view, cands, plies=2, iterations=20, seed=8,
                    opp_leaves=list(inf.leaves))
    got = by_move(result)
    for cand, st in zip(cands, ref, strict=True):
        assert got[native.to_move(cand)].equity == pytest.approx(st.total / st.n, abs=1e-9)
    uniform = reference(lex, static, view, cands, plies=2, iterations=20, seed=8)
    assert [s.total for s in uniform] != [s.total for s in ref]


def test_no_lookahead_is_the_static_equity(lex, static) -> None:
    view = view_after(lex, static, 15, 5)
    result = simulate(view, plies=0, iterations=8, seed=1, candidates=6, lexicon=lex,
                      inference=False, prune_z=None, rank_by="equity")
    for c in result.candidates:
        assert c.equity == pytest.approx(c.static_equity, abs=1e-9)
        assert c.se == pytest.approx(0.0, abs=1e-6)
    equities = [c.equity for c in result.candidates]
    assert equities == sorted(equities, reverse=True)


def test_same_choices_on_one_and_two_threads(lex, static) -> None:
    view = view_after(lex, static, 16, 7)
    one = simulate(view, iterations=64, seed=42, threads=1, lexicon=lex)
    two = simulate(view, iterations=64, seed=42, threads=2, lexicon=lex)
    assert [(str(c.move), c.equity, c.win, c.se, c.iterations, c.pruned)
            for c in one.candidates] == [
        (str(c.move), c.equity, c.win, c.se, c.iterations, c.pruned) for c in two.candidates]
    assert one.iterations == two.iterations
    other = simulate(view, iterations=64, seed=43, threads=2, lexicon=lex)
    assert [c.equity for c in other.candidates] != [c.equity for c in two.candidates]


@pytest.mark.parametrize(("limit", "threads"), [(0.5, 1), (0.5, 2), (1.0, 2)])
def test_the_time_limit_is_obeyed(lex, static, limit, threads) -> None:
    view = view_after(lex, static, 17, 6)
    result = timed_within(
        lambda: simulate(view, time_limit=limit, threads=threads, lexicon=lex, prune_z=None),
        limit,
        threads=threads,
    )
    assert result.stopped == "time" and result.iterations > 0


def test_iterations_stop_first_when_fewer(lex, static) -> None:
    view = view_after(lex, static, 17, 6)
    result = simulate(view, iterations=5, time_limit=30, candidates=3, lexicon=lex)
    assert result.iterations == 5 and result.stopped == "iterations"
    assert all(c.iterations == 5 for c in result.candidates)


def test_given_candidates_and_ranking(lex, static) -> None:
    view = view_after(lex, static, 18, 4)
    ranked = static.ranked(view, top=None)
    worst_play = next(r.move for r in reversed(ranked) if isinstance(r.move, Play))
    pick = [ranked[0].move, worst_play, Pass()]
    result = simulate(view, iterations=40, seed=3, candidates=pick, lexicon=lex, prune_z=None)
    assert {c.move for c in result.candidates} == set(pick)
    wins = [c.win for c in result.candidates]
    assert wins == sorted(wins, reverse=True)
    assert str(result.candidates[-1].move) != str(ranked[0].move)
    by_equity = simulate(view, iterations=40, seed=3, candidates=pick, lexicon=lex,
                         prune_z=None, rank_by="equity")
    equities = [c.equity for c in by_equity.candidates]
    assert equities == sorted(equities, reverse=True)


def test_the_leader_is_chosen_only_when_clearly_ahead_of_the_static_best(lex, static) -> None:
    view = view_after(lex, static, 22, 6)
    static_best = static.ranked(view, top=1)[0].move
    plain = simulate(view, iterations=48, seed=6, lexicon=lex, prune_z=None, choose_z=None)
    assert plain.chosen == 0 and plain.best is plain.candidates[0]
    first = next(c for c in plain.candidates if c.move == static_best)
    assert first.lead == 0.0 and first.lead_se == 0.0
    for c in plain.candidates:  # the lead is by win %, deal by deal, over the static best
        assert c.lead == pytest.approx(c.win - first.win, abs=1e-12)
        assert c.lead_se is not None and c.lead_se >= 0
    leader = plain.candidates[0]
    for z in (0.0, 1.0, 100.0):
        result = simulate(view, iterations=48, seed=6, lexicon=lex, prune_z=None, choose_z=z)
        clear = leader.lead > z * leader.lead_se
        assert result.best.move == (leader.move if clear else static_best)
    strict = simulate(view, iterations=48, seed=6, lexicon=lex, prune_z=None, choose_z=100.0)
    assert strict.best.move == static_best


def test_bad_requests_are_clear_errors(lex, static) -> None:
    view = view_after(lex, static, 19, 4)
    bad = [
        ({"plies": -1}, "plies must be 0..100"),
        ({"threads": 0}, "threads must be 1..64"),
        ({"iterations": 0}, "iterations must be 1.."),
        ({"time_limit": -1.0}, "time_limit must be"),
        ({"time_limit": float("nan")}, "time_limit must be"),
        ({"candidates": 0}, "candidates must be 1..500"),
        ({"candidates": []}, "give 1..500 candidate moves"),
        ({"candidates": ["8D QUITE"]}, "is not a Move"),
        ({"candidates": [Play(0, 0, True, (1, 1, 1), 3)]}, "is not a legal move here"),
        ({"candidates": [Exchange((26, 26, 26, 26))]}, "is not a legal move here"),
        ({"rank_by": "score"}, "rank_by must be"),
        ({"choose_z": -1}, "choose_z must be"),
        ({"seed": 1.5}, "seed must be a whole number"),
    ]
    for kwargs, message in bad:
        with pytest.raises(SimulationError, match=message):
            simulate(view, lexicon=lex, **kwargs)


def test_impossible_positions_are_clear_errors(lex, static) -> None:
    view = view_after(lex, static, 19, 4)
    zed = view.rules.tileset.alphabet.parse("Z")[0]
    counts = list(view.rack_counts)
    counts[1 - view.player] = 9
    cases = [
        (replace(view, rack=(zed, zed, *view.rack[2:])), "more Z tiles on the board and rack"),
        (replace(view, unseen=(view.unseen[0] + 1, *view.unseen[1:])), "unseen blank tiles: 3"),
        (replace(view, bag_count=view.bag_count + 1), "do not hold the"),
        (replace(view, rack_counts=tuple(counts)), "the opponent's rack holds 9 tiles"),
        (replace(view, rack=(*view.rack, 1)), "the rack holds 8 tiles"),
        (replace(view, rack=(99, *view.rack[1:])), "tile id 99 is not in the"),
        (replace(view, to_move=1 - view.player), "it is not"),
        (replace(view, names=("A", "B", "C")), "two-player games"),
    ]
    for bad, message in cases:
        with pytest.raises(SimulationError, match=message):
            simulate(bad, iterations=4, lexicon=lex)


def test_cli_text_and_json(lex) -> None:
    game = Game(RULES, lexicon=lex, players=("A", "B"), seed=3)
    game.play(StaticPlayer(lex).choose(game.view(0)), 0)
    line = cgp.dumps(game)
    runner = CliRunner()
    out = runner.invoke(main, ["sim", "--cgp", line, "-n", "24", "--seed", "1",
                               "--candidates", "4"])
    assert out.exit_code == 0, out.output
    assert "24 iterations of 2 plies" in out.output and "win %" in out.output
    js = runner.invoke(main, ["sim", "--cgp", line, "-n", "24", "--seed", "1", "--candidates",
                              "4", "--json", "--threads", "2"])
    assert js.exit_code == 0, js.output
    import json

    data = json.loads(js.output)
    assert data["iterations"] == 24 and len(data["candidates"]) == 4
    first = data["candidates"][0]
    assert set(first) >= {"move", "equity", "se", "win_pct", "iterations", "pruned"}
    assert first["move"] in out.output


def test_cli_bad_positions() -> None:
    runner = CliRunner()
    empty_board = "/".join(["15"] * 15)
    cases = [
        ("not a position", "CGP needs four fields"),
        (f"{empty_board} ZZZZZZZ/ 0/0 0", "× Z on the board and racks"),
        (f"{empty_board} ABC/DEF/GHI 0/0/0 0", "two-player"),
        (f"{empty_board} ABCDEFG/ 0/0 0 lex NOSUCH;", "lexicon 'NOSUCH' is not available"),
        (f"{empty_board} ABC/DEF 0/0 0", "the rack holds 3 tiles while the bag holds"),
    ]
    for line, message in cases:
        out = runner.invoke(main, ["sim", "--cgp", line, "-n", "4"])
        assert out.exit_code == 2, out.output
        assert message in out.output, out.output
        assert "Traceback" not in out.output
    out = runner.invoke(main, ["sim", "--cgp", f"{empty_board} ABCDEFG/ 0/0 0", "--plies", "-1"])
    assert out.exit_code == 2 and "--plies" in out.output
