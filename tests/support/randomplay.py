"""Random legal games without a word list (no move generator is needed).

:func:`random_play` finds a geometrically legal tile placement for the player to move by
trying random anchors, directions, lengths and rack tiles (blanks get a random letter)
until :meth:`Game.check` accepts one. :func:`play_random_game` mixes those plays with
passes, exchanges, challenges, time and clock expiry, records every action as an
:class:`Action`, and plays to the end. :func:`replay` applies recorded actions to a fresh
game. :func:`state` is a complete, comparable snapshot of a game (including the bag's
order and the random generator, so "equal state" means "equal future").
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tessera.game import Game, GameState
from tessera.legality import IllegalMove, play_from_squares
from tessera.move import Exchange, Move, Pass, Play
from tessera.rules import ChallengeRule, Rules
from tessera.tiles import BLANK, as_blank, face, letter_of

NEIGHBOURS = ((0, 1), (0, -1), (1, 0), (-1, 0))


class WordSet:
    """A tiny lexicon: exactly these words (upper-case letter strings) are valid.

    Words are looked up by their letters (blank designations as their letter), through the
    game's alphabet, which is given at construction.
    """

    def __init__(self, alphabet, words: Sequence[str]) -> None:
        self.alphabet = alphabet
        self.words = {w.upper() for w in words}
        self.sorted_words = {"".join(sorted(w)) for w in self.words}

    def _text(self, tiles: Sequence[int]) -> str:
        return self.alphabet.format(letter_of(t) for t in tiles)

    def contains(self, tiles: Sequence[int]) -> bool:
        return self._text(tiles) in self.words

    def has_anagram(self, tiles: Sequence[int]) -> bool:
        return "".join(sorted(self._text(tiles))) in self.sorted_words


class Judge:
    """A switchable word source: every word is valid while ``valid`` is true, except the
    words in ``bad`` (letter strings, looked up through ``alphabet``)."""

    def __init__(self, alphabet, bad: Sequence[str] = (), valid: bool = True) -> None:
        self.alphabet = alphabet
        self.bad = {w.upper() for w in bad}
        self.valid = valid
        self.asked: list[str] = []

    def contains(self, tiles: Sequence[int]) -> bool:
        word = self.alphabet.format(letter_of(t) for t in tiles)
        self.asked.append(word)
        return self.valid and word not in self.bad

    def has_anagram(self, tiles: Sequence[int]) -> bool:
        return self.contains(tiles)


class RejectingLexicon:
    """Accepts every word except a seeded pseudo-random fraction (and any word holding one of
    ``bad_letters``): deterministic, so a replay judges every word the same way."""

    def __init__(self, seed: int = 0, reject_one_in: int = 4, bad_letters: Sequence[int] = ()):
        self.seed = seed
        self.reject_one_in = reject_one_in
        self.bad_letters = frozenset(bad_letters)

    def contains(self, tiles: Sequence[int]) -> bool:
        letters = tuple(letter_of(t) for t in tiles)
        if self.bad_letters.intersection(letters):
            return False
        key = (self.seed * 1_000_003 + hash(letters)) & 0xFFFFFFFF
        return self.reject_one_in <= 0 or random.Random(key).randrange(self.reject_one_in) != 0

    def has_anagram(self, tiles: Sequence[int]) -> bool:
        return self.contains(sorted(letter_of(t) for t in tiles))


@dataclass(frozen=True)
class Action:
    """One recorded action: ``kind`` is move | challenge | time_expired | end_by_request."""

    kind: str
    player: int
    move: Move | None = None
    elapsed_ms: int | None = None


# -- finding plays -----------------------------------------------------------------------


def _anchors(game: Game) -> list[tuple[int, int]]:
    board = game.board
    if board.is_empty():
        return [board.layout.start]
    out = []
    for r, c, _ in board.occupied():
        for dr, dc in NEIGHBOURS:
            rr, cc = r + dr, c + dc
            if board.on_board(rr, cc) and not board.get(rr, cc):
                out.append((rr, cc))
    return sorted(set(out))


def _designate(tile: int, rng: random.Random, letters: int) -> int:
    return as_blank(rng.randrange(1, letters + 1)) if tile == BLANK else tile


def candidate_play(game: Game, rng: random.Random, n_tiles: int | None = None) -> Play | None:
    """One random placement through a random anchor (not yet checked for legality);
    ``n_tiles`` fixes how many tiles it places."""
    board = game.board
    rack = game.rack(game.to_move).tiles()
    anchors = _anchors(game)
    if not rack or not anchors:
        return None
    letters = game.alphabet.size - 1
    min_tiles = game.rules.min_first_play_tiles if board.is_empty() else 1
    if len(rack) < min_tiles:
        return None
    ar, ac = rng.choice(anchors)
    across = rng.random() < 0.5
    dr, dc = (0, 1) if across else (1, 0)
    n = rng.randint(min_tiles, min(len(rack), game.rules.rack_size))
    # short plays are far more likely to fit; favour them
    n = min(n, rng.randint(min_tiles, max(min_tiles, 4)) if rng.random() < 0.7 else n)
    if n_tiles is not None:
        if n_tiles > len(rack) or n_tiles < min_tiles:
            return None
        n = n_tiles
    before = rng.randint(0, n - 1)
    squares = [(ar, ac)]
    r, c = ar, ac
    while len(squares) < before + 1:
        r, c = r - dr, c - dc
        if not board.on_board(r, c):
            break
        if not board.get(r, c):
            squares.insert(0, (r, c))
    r, c = ar, ac
    while len(squares) < n:
        r, c = r + dr, c + dc
        if not board.on_board(r, c):
            break
        if not board.get(r, c):
            squares.append((r, c))
    if len(squares) < min_tiles:
        return None
    tiles = rng.sample(rack, len(squares))
    placements = [
        (sr, sc, _designate(t, rng, letters)) for (sr, sc), t in zip(squares, tiles, strict=True)
    ]
    try:
        return play_from_squares(board, placements)
    except IllegalMove:
        return None


def random_play(
    game: Game, rng: random.Random, attempts: int = 300, n_tiles: int | None = None
) -> Play | None:
    """A legal play for the player to move (checked by ``game.check``), or None."""
    for _ in range(attempts):
        play = candidate_play(game, rng, n_tiles)
        if play is None or (n_tiles is not None and len(play.placements) != n_tiles):
            continue
        try:
            checked = game.check(play)
        except IllegalMove:
            continue
        if checked is not None:
            return checked
    return None


def exchange_allowed(game: Game, n: int) -> bool:
    rules = game.rules
    need = n if rules.exchange_min_bag is None else max(rules.exchange_min_bag, n)
    if game.bag_count < need:
        return False
    limit = rules.max_exchanges_per_player
    if limit is not None:
        done = sum(
            1 for e in game.history if e.kind == "exchange" and e.player == game.to_move
        )
        if done >= limit:
            return False
    return True


def play_randomly(
    game: Game, rng: random.Random, until: Callable[[Game], bool] = lambda g: False
) -> Game:
    """Random plays (a pass when none is found) until ``until(game)`` or the game ends."""
    while not game.is_over and not until(game):
        if game.state is GameState.AWAITING_FINAL:
            game.pass_turn()
            continue
        play = random_play(game, rng)
        if play is None:
            game.pass_turn()
        else:
            game.play(play)
    return game


def endgame(
    rules: Rules | str,
    seed: int,
    players: Sequence[str] = ("Ann", "Bob"),
    lexicon: object | None = None,
) -> tuple[Game, Play]:
    """A game whose bag is empty, with a legal play that empties the mover's rack (an
    out-play, R6.1) ready to make. Plays are random and unchallenged; ``lexicon`` is
    installed only once the position is reached. Tries successive seeds until one works.
    """
    for s in range(seed, seed + 50):
        rng = random.Random(s)
        game = Game(rules, players=players, seed=s)
        for _ in range(300):
            if game.is_over or game.state is not GameState.PLAYING:
                break
            if game.bag_count == 0:
                out = random_play(game, rng, 400, len(game.rack(game.to_move)))
                if out is not None:
                    game.lexicon = lexicon  # type: ignore[assignment]
                    return game, out
            play = random_play(game, rng)
            if play is None or (
                game.bag_count == 0 and len(play.placements) == len(game.rack(game.to_move))
            ):
                game.pass_turn()
            else:
                game.play(play)
    raise AssertionError(f"no endgame position found for {rules} from seed {seed}")


# -- whole games ---------------------------------------------------------------------------


def apply(game: Game, action: Action) -> None:
    """Apply one recorded action."""
    if action.kind == "move":
        assert action.move is not None
        game.play(action.move, action.player, elapsed_ms=action.elapsed_ms)
    elif action.kind == "challenge":
        game.challenge(action.player, elapsed_ms=action.elapsed_ms)
    elif action.kind == "time_expired":
        game.time_expired(action.player, action.elapsed_ms or 0)
    elif action.kind == "end_by_request":
        game.end_by_request(action.player)
    elif action.kind == "resign":
        game.resign(action.player)
    else:
        raise ValueError(f"unknown action kind {action.kind!r}")


def replay(
    rules: Rules | str,
    players: Sequence[str],
    seed: int,
    actions: Sequence[Action],
    lexicon: object | None = None,
) -> Game:
    game = Game(rules, lexicon=lexicon, players=players, seed=seed)  # type: ignore[arg-type]
    for action in actions:
        apply(game, action)
    return game


def random_step(game: Game, rng: random.Random, *, force_pass: bool = False) -> Action:
    """Choose one random legal action for the current position (and check it is legal)."""
    rules = game.rules
    mover = game.to_move
    timed = rules.clock is not None
    elapsed = None
    if timed or rng.random() < 0.3:
        elapsed = rng.choice((0, 1_000, 5_000, 20_000, 45_000, 90_000))
        if timed and rng.random() < 0.02:
            elapsed = 10 * 60_000
    # a clock past the maximum overtime, or that this turn's time takes past it: the app
    # reports it instead of the move, which the game would refuse (R7.3)
    if timed and rules.clock is not None:
        left = game.clock_ms(mover)
        if left is not None and (elapsed or 0) - left > rules.clock.max_overtime_min * 60_000:
            return Action("time_expired", mover, elapsed_ms=elapsed or 0)
    if game.can_challenge() and rng.random() < 0.35:
        pending_player = next(e.player for e in reversed(game.history) if e.kind == "play")
        others = [i for i in range(game.num_players) if i != pending_player]
        if others:
            challenger = rng.choice(others)
            # another seat's clock is not running: its challenge takes no time (R7.5)
            return Action(
                "challenge", challenger, elapsed_ms=elapsed if challenger == mover else None
            )
    if game.state is GameState.AWAITING_FINAL:
        return Action("move", mover, Pass(), elapsed)
    if (
        rules.scoreless_turns_to_end is not None
        and rules.scoreless_end.value == "on_request"
        and game.scoreless_turns >= rules.scoreless_turns_to_end
        and not (not rules.zeros_can_end_empty_board and game.board.is_empty())
    ):
        return Action("end_by_request", mover)
    roll = rng.random()
    if not force_pass:
        rack = game.rack(mover).tiles()
        if roll < 0.12 and rack:
            n = rng.randint(1, len(rack))
            if exchange_allowed(game, n):
                return Action("move", mover, Exchange(tuple(rng.sample(rack, n))), elapsed)
        if roll < 0.93:
            play = random_play(game, rng)
            if play is not None:
                return Action("move", mover, play, elapsed)
    return Action("move", mover, Pass(), elapsed)


def play_random_game(
    rules: Rules | str,
    seed: int,
    players: Sequence[str] = ("Ann", "Bob"),
    *,
    lexicon: object | None = None,
    max_actions: int = 400,
    pass_after: int = 120,
    on_step: Callable[[Game, Action], None] | None = None,
) -> tuple[Game, list[Action]]:
    """Play a random legal game to its end; returns the game and the actions taken.

    After ``pass_after`` actions everyone passes (so scoreless and pass endings trigger);
    rules with no such ending are ended by resignation after ``max_actions``.
    ``on_step(game, action)`` runs after every action.
    """
    rng = random.Random(seed ^ 0x5EED)
    game = Game(rules, lexicon=lexicon, players=players, seed=seed)  # type: ignore[arg-type]
    actions: list[Action] = []
    while not game.is_over:
        if len(actions) >= max_actions:
            action = Action("resign", game.to_move)
        else:
            action = random_step(game, rng, force_pass=len(actions) >= pass_after)
        apply(game, action)
        actions.append(action)
        if on_step is not None:
            on_step(game, action)
    return game, actions


# -- snapshots -------------------------------------------------------------------------------


def state(game: Game) -> tuple[object, ...]:
    """Everything about a game that can influence what happens next or what anyone sees."""
    return (
        tuple(game.board.cells),
        tuple(tuple(game.rack(i).tiles()) for i in range(game.num_players)),
        tuple(game._bag),  # order too: it decides the next draws
        game._rng.getstate(),
        tuple(game.scores),
        tuple(game.history),
        game.to_move,
        game.state,
        game.result,
        game.scoreless_turns,
        game.consecutive_passes,
        game.can_challenge(),
        game._pending,
        game._challenged,
        game._final_round_end,
        tuple(
            (p.exchanges, p.time_used_ms, p.turns, p.loses_next_turn) for p in game._players
        ),
        len(game._undo),
    )


def tile_census(game: Game) -> list[int]:
    """Counts by tile id of bag + racks + board (designated blanks count as blanks)."""
    counts = [0] * game.alphabet.size
    for t in game.bag_tiles():
        counts[t] += 1
    for i in range(game.num_players):
        for t in game.rack(i).tiles():
            counts[t] += 1
    for _, _, t in game.board.occupied():
        counts[face(t)] += 1
    return counts


def uses_challenges(rules: Rules) -> bool:
    return rules.challenge_rule is not ChallengeRule.VOID
