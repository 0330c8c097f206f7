"""Turns (R1.7, R4): pass, exchange, turn flow, undo, resignation, bad input, and what each
player may see (DESIGN principle 4: views hold only what that player may know)."""

from __future__ import annotations

import copy
import dataclasses
import random

import pytest

from support import NAMES, make_game, rack_text
from support.randomplay import (
    Judge,
    apply,
    play_random_game,
    random_play,
    random_step,
    state,
    tile_census,
)
from tessera.game import EndReason, EventKind, Game, GameState, PlayerView
from tessera.legality import IllegalMove, Reason
from tessera.move import PLAYED_THROUGH, Exchange, Pass, Play
from tessera.rules import ChallengeRule, ChallengeScope, preset
from tessera.tiles import BLANK, as_blank

# -- R4.1 pass ------------------------------------------------------------------------------


def test_r4_1_a_pass_scores_nothing_and_counts_as_scoreless():
    game = make_game("naspa")
    event = game.pass_turn()
    assert event is not None and event.kind is EventKind.PASS
    assert event.player == 0 and event.score == 0 and isinstance(event.move, Pass)
    assert game.scores == [0, 0] and game.to_move == 1 and game.scoreless_turns == 1


@pytest.mark.parametrize("text", ["-", "pass", "-0", "PASS"])
def test_r4_1_pass_notation_and_exchanging_nothing(text):
    game = make_game("naspa")
    game.play(text)
    assert game.history[-1].kind is EventKind.PASS


def test_r4_1_exchanging_zero_tiles_is_a_pass():
    game = make_game("naspa")
    game.play(Exchange(()))
    assert game.history[-1].kind is EventKind.PASS


# -- R4.2 exchange --------------------------------------------------------------------------


def test_r4_2_exchange_swaps_tiles_with_the_bag():
    game = make_game("naspa", ["QUITEAB", None])
    bag = game.bag_count
    event = game.exchange("QUB")
    assert event is not None and event.kind is EventKind.EXCHANGE
    assert event.move == Exchange(tuple(game.alphabet.parse("QUB")))
    assert event.rack == tuple(sorted(game.alphabet.parse("QUITEAB")))
    assert game.bag_count == bag and len(game.rack(0)) == 7
    assert "E" in rack_text(game, 0) and "T" in rack_text(game, 0)
    assert game.scores == [0, 0] and game.to_move == 1 and game.scoreless_turns == 1
    assert tile_census(game) == list(game.tileset.counts)


@pytest.mark.parametrize("seed", range(30))
def test_r4_2_exchanged_tiles_cannot_be_drawn_straight_back(seed):
    game = make_game("naspa", ["QZXJKV?"], seed=seed)  # Q, Z, X, J, K: one of each
    game.exchange("QZXJKV?")
    new = rack_text(game, 0)
    assert not set("QZXJK") & set(new), new
    assert game.bag_tiles().count(BLANK) >= 1


def test_r4_2_exchange_by_count_takes_the_first_tiles():
    game = make_game("naspa", ["ABCDEFG", None])
    game.play("-3")
    assert game.history[-1].move == Exchange(tuple(game.alphabet.parse("ABC")))


def test_r4_2_exchanging_tiles_not_on_the_rack_is_refused():
    game = make_game("naspa", ["QUITEAB", None])
    before = state(game)
    with pytest.raises(IllegalMove, match=r"not on your rack: ZZ \(rack ABEIQTU\)") as err:
        game.exchange("QZZ")
    assert err.value.reason is Reason.NOT_ON_RACK
    with pytest.raises(IllegalMove, match="cannot exchange 9 tiles from a rack of 7"):
        game.play(Exchange(count=9))
    with pytest.raises(IllegalMove, match="write blanks as '\\?'"):
        game.exchange("q")
    with pytest.raises(IllegalMove, match="cannot exchange -1 tiles"):
        game.play(Exchange(count=-1))
    with pytest.raises(IllegalMove, match="tile id 99 is not a rack tile"):
        game.exchange([99])
    assert state(game) == before


def _drain(rules, below: int, seed: int = 0) -> Game:
    """A random game played until the bag holds fewer than ``below`` tiles (but some)."""
    for s in range(seed, seed + 40):
        rng = random.Random(s)
        game = make_game(rules, seed=s)
        while game.bag_count >= below and not game.is_over:
            play = random_play(game, rng)
            if play is None:
                break
            game.play(play)
        if 0 < game.bag_count < below and game.state is GameState.PLAYING:
            return game
    raise AssertionError("no position with a small bag found")


@pytest.mark.parametrize(("name", "minimum"), [("naspa", 7), ("hkcc9", 9), ("nine_tile", 9)])
def test_r4_3_exchange_needs_a_minimum_bag(name, minimum):
    assert preset(name).exchange_min_bag == minimum
    game = _drain(name, minimum)
    before = state(game)
    with pytest.raises(IllegalMove, match=f"at least {minimum} tiles in the bag") as err:
        game.exchange(game.rack(game.to_move).tiles()[:1])
    assert err.value.reason is Reason.BAG_TOO_SMALL
    assert state(game) == before


def test_r4_3_hasbro_bag_must_hold_as_many_as_are_exchanged():
    assert preset("hasbro").exchange_min_bag is None
    game = _drain("hasbro", 5)
    n = game.bag_count
    tiles = game.rack(game.to_move).tiles()
    with pytest.raises(IllegalMove, match=f"at least {n + 1} tiles in the bag; it holds {n}"):
        game.exchange(tiles[: n + 1])
    game.exchange(tiles[:n])
    assert game.history[-1].kind is EventKind.EXCHANGE


def test_r4_3_at_most_so_many_exchanges_per_player():
    game = make_game("naspa", max_exchanges_per_player=2, scoreless_turns_to_end=None)
    for _ in range(2):
        game.exchange(game.rack(0).tiles()[:1])
        game.exchange(game.rack(1).tiles()[:1])
    before = state(game)
    with pytest.raises(IllegalMove, match="at most 2 times") as err:
        game.exchange(game.rack(0).tiles()[:1])
    assert err.value.reason is Reason.EXCHANGE_LIMIT
    assert state(game) == before
    game.pass_turn()  # passing is still allowed


# -- R1.7 turn flow, game over, resignation ------------------------------------------------


def test_r1_7_one_action_per_turn_and_the_turn_passes():
    game = make_game("hasbro", ["QUITEAB", "DOERSIN", None], players=3)
    game.play("8D QUITE")
    assert game.to_move == 1
    game.exchange("D")
    assert game.to_move == 2
    game.pass_turn()
    assert game.to_move == 0
    assert [e.kind for e in game.turn_events()] == [
        EventKind.PLAY, EventKind.EXCHANGE, EventKind.PASS,
    ]


def test_actions_by_name_or_index():
    game = make_game("naspa", ["QUITEAB", None])
    game.play("8D QUITE", "Ann")
    game.pass_turn(1)
    assert game.index("Bob") == 1 and game.score("Ann") == 48


def test_resignation_ends_the_game_with_the_other_player_winning():
    game = make_game("hasbro", ["QUITEAB", None], players=3)
    game.play("8D QUITE")
    game.resign("Cy")
    assert game.result is not None and game.result.reason is EndReason.RESIGNED
    assert game.result.loser == 2 and game.result.winners == (0,)
    assert game.scores == [48, 0, 0]


def test_nothing_can_happen_after_the_game_is_over():
    game = make_game("naspa", ["QUITEAB", None])
    game.play("8D QUITE")
    game.resign("Bob")
    before = state(game)
    for action in (
        lambda: game.pass_turn(),
        lambda: game.play("9D IN"),
        lambda: game.exchange("A"),
        lambda: game.challenge(),
        lambda: game.resign("Ann"),
        lambda: game.end_by_request(),
        lambda: game.time_expired("Ann", 10**9),
        lambda: game.check("9D AB"),
    ):
        with pytest.raises(IllegalMove, match=r"over|not in progress") as err:
            action()
        assert err.value.reason is Reason.GAME_OVER
        assert state(game) == before


# -- undo --------------------------------------------------------------------------------------


def test_undo_takes_back_each_action_exactly():
    game = make_game("hasbro", ["QUITEAB", "DOERSIN"])
    game.lexicon = Judge(game.alphabet, ["IN"])
    snapshots = []
    for act in (
        lambda: game.play("8D QUITE"),
        lambda: game.play("9D IN"),
        lambda: game.challenge(),  # IN is withdrawn
        lambda: game.pass_turn(),
    ):
        snapshots.append(state(game))
        act()
    assert game.can_undo
    for snap in reversed(snapshots):
        game.undo()
        assert state(game) == snap
    assert not game.can_undo
    with pytest.raises(IllegalMove, match="nothing to undo") as err:
        game.undo()
    assert err.value.reason is Reason.UNDO_NOT_ALLOWED


def test_undo_revives_a_finished_game():
    game = make_game("hasbro")
    before = state(game)
    game.pass_turn()
    game.pass_turn()
    assert game.is_over
    game.undo()
    game.undo()
    assert state(game) == before and game.state is GameState.PLAYING


def test_undo_after_undo_replays_the_same_draws():
    game = make_game("hasbro", ["QUITEAB", None])
    game.play("8D QUITE")
    after = state(game)
    game.undo()
    game.play("8D QUITE")
    assert state(game) == after


def test_undo_is_refused_in_a_timed_game():
    game = make_game("naspa")
    assert game.rules.clock is not None
    game.pass_turn()
    assert not game.can_undo
    with pytest.raises(IllegalMove, match="cannot be taken back in a timed game"):
        game.undo()


# -- views: hidden information ----------------------------------------------------------------


def test_view_fields_hold_no_other_rack_and_no_bag():
    names = {f.name for f in dataclasses.fields(PlayerView)}
    assert names == {
        "player", "names", "rules", "board", "rack", "scores", "to_move", "state", "bag_count",
        "rack_counts", "unseen", "history", "can_challenge", "clocks_ms", "result",
        "final_racks", "scoreless_turns", "consecutive_passes",
    }


def test_view_counts_the_scoreless_turns_and_passes():
    game = make_game("naspa")
    game.pass_turn()
    game.pass_turn()
    for player in (0, 1):
        view = game.view(player)
        assert (view.scoreless_turns, view.consecutive_passes) == (2, 2)


def _view_game():
    game = make_game("hasbro", ["QUITEAB", "DOERSIN", "AEILNRT"], players=3)
    game.play("8D QUITE")
    game.exchange("DO")
    game.pass_turn()
    return game


def test_view_shows_own_rack_only():
    game = _view_game()
    for i in range(3):
        view = game.view(i)
        assert view.player == i
        assert view.rack == tuple(game.rack(i).tiles())
        assert view.rack_counts == (7, 7, 7)
        assert view.bag_count == game.bag_count
        assert view.final_racks is None
        assert view.board == game.board and view.scores == (48, 0, 0)
        for e in view.history:
            if e.player != i:
                assert e.rack == ()


def test_view_unseen_is_bag_plus_other_racks():
    game = _view_game()
    view = game.view(1)
    expected = [0] * game.alphabet.size
    for t in game.bag_tiles() + game.rack(0).tiles() + game.rack(2).tiles():
        expected[t] += 1
    assert list(view.unseen) == expected


def test_view_hides_other_players_exchanged_tiles_while_the_game_is_on():
    game = _view_game()
    own = game.view(1).history[1]
    assert own.move == Exchange(tuple(game.alphabet.parse("DO")))
    for viewer in (0, 2):
        seen = game.view(viewer).history[1]
        assert seen.kind is EventKind.EXCHANGE
        assert seen.move == Exchange(count=2)
        assert seen.move.tiles == () and seen.rack == ()  # type: ignore[union-attr]


def test_view_reveals_everything_after_the_game_ends():
    game = _view_game()
    game.resign("Bob")
    view = game.view(0)
    assert view.final_racks == tuple(tuple(game.rack(i).tiles()) for i in range(3))
    assert view.history == tuple(game.history)
    assert view.history[1].move == Exchange(tuple(game.alphabet.parse("DO")))


def test_view_board_is_a_copy():
    game = _view_game()
    view = game.view(0)
    view.board.set(0, 0, 1)
    assert game.board.get(0, 0) == 0


def test_view_of_an_unknown_player_is_refused():
    game = _view_game()
    with pytest.raises(IllegalMove, match="no player 'Eve'") as err:
        game.view("Eve")
    assert err.value.reason is Reason.UNKNOWN_PLAYER


def test_view_turn_and_challenge_flags():
    game = make_game("naspa", ["QUITEAB", None])
    game.play("8D QUITE")
    assert game.view(1).is_my_turn and not game.view(0).is_my_turn
    assert game.view(1).can_challenge and not game.view(0).can_challenge
    assert game.view(0).clocks_ms == (25 * 60_000, 25 * 60_000)


@pytest.mark.parametrize("seed", range(6))
def test_views_never_leak_across_a_random_game(seed):
    players = NAMES[:3]

    def check(game: Game, _action: object) -> None:
        for i in range(3):
            view = game.view(i)
            others = [tuple(game.rack(j).tiles()) for j in range(3) if j != i]
            if not game.is_over:
                assert view.final_racks is None
                for e in view.history:
                    if e.player != i:
                        assert e.rack == ()
                        if isinstance(e.move, Exchange):
                            assert e.move.tiles == ()
                for value in vars(view).values():
                    for rack in others:
                        if rack:
                            assert value != rack

    play_random_game("hasbro", seed, players, on_step=check)


# -- bad input leaves the game exactly as it was (DESIGN principle 8) ------------------------


GARBAGE = [
    "", "   ", "8D", "hello world", "ZZ9 A", "8D QU?TE", "8D (QU", "8D QU)", "99A AB", "-12x",
    "--", "8D ....", "P1 ABCDEFG", "8O ABC", "challenge now",
]


def _empty_run(game: Game, n: int, across: bool, isolated: bool) -> list[tuple[int, int]] | None:
    board = game.board
    dr, dc = (0, 1) if across else (1, 0)
    for r, c in [(r, c) for r in range(board.rows) for c in range(board.cols)]:
        squares = [(r + dr * i, c + dc * i) for i in range(n)]
        if not all(board.on_board(*sq) and not board.get(*sq) for sq in squares):
            continue
        if isolated and any(
            board.get(sr + ar, sc + ac)
            for sr, sc in squares
            for ar, ac in ((0, 1), (0, -1), (1, 0), (-1, 0))
        ):
            continue
        return squares
    return None


def _rejections(game: Game, rng: random.Random):
    """(label, action) pairs, each of which must be refused in this position."""
    out = []
    mover = game.to_move
    other = (mover + 1) % game.num_players
    rack = game.rack(mover).tiles()
    real = [t if t != BLANK else as_blank(1) for t in rack]
    out.append(("wrong player", lambda: game.pass_turn(other)))
    out.append(("unknown player", lambda: game.pass_turn("Nobody")))
    out.append(("negative time", lambda: game.pass_turn(elapsed_ms=-5)))
    for text in GARBAGE:
        out.append((f"garbage {text!r}", lambda text=text: game.play(text)))
    out.append(("garbage object", lambda: game.play(3.5)))  # type: ignore[arg-type]
    out.append(("garbage tiles", lambda: game.play([(7, 7, "Q")])))  # type: ignore[list-item]
    out.append(("alien tile", lambda: game.play(Play(7, 7, True, (200, 201)))))
    out.append(("off board", lambda: game.play(Play(7, 14, True, (1, 2)))))
    out.append(("exchange alien", lambda: game.play(Exchange((77,)))))
    out.append(("exchange negative", lambda: game.play(Exchange(count=-2))))
    out.append(("exchange too many", lambda: game.play(Exchange(count=len(rack) + 1))))
    missing = [t for t in range(1, game.alphabet.size) if t not in rack]
    if missing:
        out.append(("exchange not on rack", lambda: game.play(Exchange((missing[0],)))))
    if game.state is GameState.AWAITING_FINAL:
        out.append(("exchange while out-play pending", lambda: game.play(Exchange((rack[0],)))))
    else:
        limit = game.rules.exchange_min_bag
        if rack and limit is not None and game.bag_count < limit:
            out.append(("exchange small bag", lambda: game.play(Exchange((rack[0],)))))
    if not game.can_challenge():
        out.append(("nothing to challenge", lambda: game.challenge()))
    else:
        pending = next(e.player for e in reversed(game.history) if e.kind is EventKind.PLAY)
        out.append(("own play", lambda: game.challenge(pending)))
        if game.rules.challenge_scope is ChallengeScope.LISTED_WORDS:
            out.append(("unformed word", lambda: game.challenge(words=["ZZZZZZZ"])))
    for (r, c, _t) in list(game.board.occupied())[:3]:
        if real:
            out.append(("occupied", lambda r=r, c=c: game.play(Play(r, c, True, (real[0],)))))
    if len(real) >= 2:
        gap = _empty_run(game, 3, rng.random() < 0.5, isolated=False)
        if gap:
            (r, c), _mid, _end = gap
            out.append(
                ("gap", lambda r=r, c=c, a=gap[1][0] == r: game.play(
                    Play(r, c, a, (real[0], PLAYED_THROUGH, real[1]))))
            )
        if not game.board.is_empty():
            far = _empty_run(game, 2, True, isolated=True)
            if far:
                (r, c), _ = far
                out.append(
                    ("not connected",
                     lambda r=r, c=c: game.play(Play(r, c, True, (real[0], real[1]))))
                )
    if missing and game.state is not GameState.AWAITING_FINAL:
        play = random_play(game, rng, attempts=50)
        if play is not None:
            alien = tuple(missing[0] if t != PLAYED_THROUGH else t for t in play.word)
            out.append(("not on rack", lambda: game.play(Play(play.row, play.col, play.across,
                                                              alien))))
            if game.rules.challenge_rule is ChallengeRule.VOID:
                def phony(play=play):
                    saved = game.lexicon
                    game.lexicon = Judge(game.alphabet, valid=False)
                    try:
                        game.play(play)
                    finally:
                        game.lexicon = saved
                out.append(("invalid word under VOID", phony))
    out.append(("set_rack unseen", lambda: game.set_rack(mover, "?" * 9)))
    if game.rules.clock is not None:
        if game.overtime_ms(mover) <= game.rules.clock.max_overtime_min * 60_000:
            out.append(("not yet at max overtime", lambda: game.time_expired(mover, 0)))
    else:
        out.append(("no clock", lambda: game.time_expired(mover, 10**9)))
    out.append(("early end request", lambda: game.end_by_request()
                if game.scoreless_turns < (game.rules.scoreless_turns_to_end or 10**6)
                else game.view("Nobody")))
    return out


@pytest.mark.parametrize(
    "name", ["naspa", "wespa", "hasbro", "casual", "wwf", "lexulous", "hkcc9", "super"]
)
@pytest.mark.parametrize("seed", [1, 2])
def test_any_rejected_move_leaves_the_game_exactly_as_it_was(name, seed):
    rng = random.Random(seed)
    players = NAMES[:2] if preset(name).max_players == 2 else NAMES[:3]
    game = Game(name, players=players, seed=seed)
    kinds: set[str] = set()
    steps = 0
    while not game.is_over and steps < 200:
        if steps % 3 == 0:
            undo, game._undo = game._undo, []  # the undo stack is big; share it instead
            twin = copy.deepcopy(game)
            game._undo, twin._undo = undo, list(undo)
            for label, action in _rejections(game, rng):
                before = state(game)
                with pytest.raises(IllegalMove):
                    action()
                assert state(game) == before, label
                kinds.add(label.split(" '")[0])
            # the future is unchanged too: the same next action gives the same game
            nxt = random_step(twin, random.Random(steps))
            apply(twin, nxt)
            apply(game, nxt)
            assert state(game) == state(twin)
            if game.is_over:
                break
        apply(game, random_step(game, rng, force_pass=steps > 150))
        steps += 1
    for label, action in _rejections(game, rng):
        before = state(game)
        with pytest.raises(IllegalMove):
            action()
        assert state(game) == before, label
    expected = {"wrong player", "garbage", "occupied", "gap", "not on rack", "not connected"}
    expected.add("nothing to challenge")
    if preset(name).challenge_rule is ChallengeRule.VOID:
        expected.add("invalid word under VOID")
    else:
        expected.add("own play")
    assert expected <= kinds, expected - kinds


def test_check_validates_every_kind_of_move_without_making_it():
    game = make_game("naspa", ["QUITEAB", None])
    before = state(game)
    assert game.check("8D QUITE") == Play(7, 3, True, tuple(game.alphabet.parse("QUITE")))
    assert game.check("8D QUITE").score == 48  # type: ignore[union-attr]
    assert game.check("-QU") is None and game.check("-") is None
    with pytest.raises(IllegalMove, match="not on your rack: Z"):
        game.check("-Z")
    with pytest.raises(IllegalMove, match="no play to challenge"):
        game.check("challenge")
    with pytest.raises(IllegalMove, match="it is Ann's turn"):
        game.check("-QU", "Bob")
    assert state(game) == before
    game.play("8D QUITE")
    before = state(game)
    assert game.check("challenge") is None
    assert state(game) == before and game.can_challenge()


def test_check_refuses_an_exchange_with_a_small_bag():
    game = _drain("naspa", 7)
    before = state(game)
    with pytest.raises(IllegalMove, match="at least 7 tiles in the bag"):
        game.check(Exchange(tuple(game.rack(game.to_move).tiles()[:1])))
    assert state(game) == before


def test_set_rack_reads_lower_case_as_blank_and_refuses_bad_text_unchanged() -> None:
    """R1.5: a known rack is set from text; lower case is a blank; junk changes nothing."""
    from tessera.game import Game
    from tessera.legality import IllegalMove, Reason

    game = Game("naspa", players=["Ann", "Bob"], seed=3, first=0)
    game.set_rack("Ann", "aBC")
    assert game.rack("Ann").tiles() == [2, 3, 0]
    before = (game.rack("Ann").tiles(), game.bag_tiles())
    for bad in ("AB1", "A B", [999]):
        try:
            game.set_rack("Ann", bad)
        except IllegalMove as exc:
            assert exc.reason is Reason.NOTATION
        else:  # pragma: no cover - the assertion below explains
            raise AssertionError(f"{bad!r} was accepted")
        assert (game.rack("Ann").tiles(), game.bag_tiles()) == before
