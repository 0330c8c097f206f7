"""The compiled static engine: its moves are the move generator's, its choice is the best of
its ranking, its leave lookups are the KLV2 reader's, and its self-play games are the ones the
Python Game produces."""

from __future__ import annotations

import random
from array import array

import pytest

from tessera.engine import native
from tessera.engine.players import StaticPlayer
from tessera.engine.selfplay import play_compiled, play_game, replay
from tessera.game import Game
from tessera.lexicon import Leaves, Lexicon
from tessera.move import Exchange, Pass, Play
from tessera.movegen import generate_moves
from tessera.rules import preset
from tessera.scoring import score_play

RULES = preset("naspa")


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.load("enable")


@pytest.fixture(scope="module")
def leaves() -> Leaves:
    """A small made-up table: enough to make equity differ from score."""
    alphabet = RULES.tileset.alphabet
    table = {
        tuple(alphabet.parse(w)): v
        for w, v in {"?": 25.0, "S": 8.0, "Q": -7.0, "V": -5.0, "ER": 3.5, "EE": -2.0,
                     "AEIR": 6.0, "UU": -9.0, "II": -6.0, "RST": 5.5}.items()
    }
    return Leaves.from_mapping(table)


def positions(lex: Lexicon, seeds: range, table: Leaves | None = None):
    """(game before the turn, mover, compiled turn) for every turn of some compiled games."""
    for seed in seeds:
        record = play_compiled(RULES, lex, seed, [table, table])
        game = Game(RULES, lexicon=lex, players=("A", "B"), seed=seed)
        for player, cand, rack, bag in record["turns"]:
            assert tuple(game.rack(player).tiles()) == tuple(rack)
            assert game.bag_count == bag
            yield game, player, cand
            game.play(native.to_move(cand), player)


def test_plays_are_the_move_generators(lex: Lexicon) -> None:
    eng = native.engine(lex, RULES)
    checked = 0
    for game, player, _cand in positions(lex, range(2)):
        rack = game.rack(player).tiles()
        ours = eng.moves(game.board.cells, rack, None, game.bag_count, 0, False, 0)
        mine = {native.to_move(c): c[5] for c in ours if c[0] == 0}
        theirs = {m: m.score for m in generate_moves(game.board, rack, lex, RULES) if m.is_play()}
        assert mine == theirs
        for play, score in list(mine.items())[:20]:
            assert score == score_play(game.board, play, RULES)
        checked += 1
    assert checked > 30


def test_best_is_first_of_full_ranking(lex: Lexicon, leaves: Leaves) -> None:
    """Top-1 search prunes anchors by an upper bound; it must never lose the best move."""
    eng = native.engine(lex, RULES)
    table = native.leave_table(leaves)
    for game, player, cand in positions(lex, range(3), leaves):
        view = game.view(player)
        opp = sum(RULES.tileset.values[t] * n for t, n in enumerate(view.unseen) if t)
        full = eng.moves(view.board.cells, list(view.rack), table, view.bag_count, opp,
                         view.bag_count >= 7, 0)
        assert full[0] == cand
        equities = [c[6] for c in full]
        assert equities == sorted(equities, reverse=True)


def test_compiled_games_are_python_games(lex: Lexicon, leaves: Leaves) -> None:
    for seed, tables in ((11, [leaves, None]), (12, [None, leaves]), (13, [leaves, leaves])):
        record = play_compiled(RULES, lex, seed, tables)
        replayed = replay(RULES, lex, seed, ("A", "B"), record)
        players = [StaticPlayer(lex, t) for t in tables]
        python = play_game(Game(RULES, lexicon=lex, players=("A", "B"), seed=seed), players)
        assert tuple(python.scores) == tuple(record["scores"]) == tuple(replayed.scores)
        assert python.history == replayed.history
        assert python.result == replayed.result
        assert record["reason"] == python.result.reason.value


def test_leave_table_matches_klv2_reader(leaves: Leaves) -> None:
    table = native.leave_table(leaves)
    rng = random.Random(3)
    bag = RULES.tileset.bag()
    for leave, value in leaves.items():
        assert table.value(list(leave)) == pytest.approx(value)
    for _ in range(300):
        tiles = rng.sample(bag, rng.randint(1, 6))
        assert table.value(tiles) == pytest.approx(leaves.value(tiles))
    assert table.value([]) == 0.0


def test_endgame_equity_going_out_and_staying(lex: Lexicon) -> None:
    """Bag empty: going out earns 2x the opponent's rack; not going out costs 10 + 2x own."""
    eng = native.engine(lex, RULES)
    board = Game(RULES, lexicon=lex, seed=1).board
    alphabet = RULES.tileset.alphabet
    board.place([(7, 7, alphabet.letter("A")), (7, 8, alphabet.letter("T"))])
    rack = alphabet.parse("CE")
    moves = eng.moves(board.cells, rack, None, 0, 7, False, 0)
    for kind, _row, _col, _across, tiles, score, equity in moves:
        if kind != 0:
            continue
        used = [t for t in tiles if t]
        if len(used) == 2:
            assert equity == score + 14
        else:
            kept = "E" if alphabet.letter("C") in used else "C"
            assert equity == score - 10 - 2 * RULES.tileset.value(alphabet.letter(kept))
    assert moves[-1][0] == 2 and moves[-1][6] == -(10 + 2 * (3 + 1))


def test_exchanges_and_pass_are_candidates(lex: Lexicon, leaves: Leaves) -> None:
    eng = native.engine(lex, RULES)
    board = Game(RULES, lexicon=lex, seed=1).board
    rack = RULES.tileset.alphabet.parse("QQUUVV?")
    ranked = [native.to_move(c) for c in
              eng.moves(board.cells, rack, native.leave_table(leaves), 80, 0, True, 0)]
    exchanges = [m for m in ranked if isinstance(m, Exchange)]
    assert len(exchanges) == 2 * 3 * 3 * 3 - 1  # every proper sub-multiset kept
    assert sum(isinstance(m, Pass) for m in ranked) == 1
    assert isinstance(ranked[0], Exchange)  # keep the blank, lose the rest
    assert ranked[0].tiles == tuple(sorted(RULES.tileset.alphabet.parse("QQUUVV")))
    assert any(isinstance(m, Play) for m in ranked)
    none = eng.moves(board.cells, rack, None, 80, 0, False, 0)
    assert not any(c[0] == 1 for c in none)


def test_bad_input_is_refused(lex: Lexicon) -> None:
    eng = native.engine(lex, RULES)
    with pytest.raises(ValueError, match="rows\\*cols"):
        eng.moves([0] * 10, [1, 2], None, 80, 0, True, 1)
    with pytest.raises(ValueError, match="tile id"):
        eng.moves([0] * 225, [99], None, 80, 0, True, 1)
    with pytest.raises(ValueError, match="values for"):
        native._core.LeaveTable(Leaves.from_mapping({(1,): 1.0}).kwg.nodes, array("f", [1.0, 2.0]))


def test_unsupported_rules_are_named(lex: Lexicon) -> None:
    clabbers = preset("clabbers")
    assert "anagram" in (native.unsupported_reason(clabbers) or "")
    with pytest.raises(native.EngineUnavailable, match="anagram"):
        native.engine(lex, clabbers)
    assert "finish-line" in (
        native.selfplay_unsupported_reason(preset("finish_line")) or ""
    )
    assert native.selfplay_unsupported_reason(RULES) is None
