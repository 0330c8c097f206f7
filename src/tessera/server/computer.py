"""The computer opponent and hints, from what one player may know (a PlayerView).

The engine's bots (``tessera.engine.get_player``) are used when they are installed and can
load; otherwise — or for a level the engine does not know — :class:`GreedyPlayer` plays one
of the best-scoring moves. Plays come from the move generator (``tessera.movegen``); where
it cannot run (no compiled core, a word list that is not a Lexicon) :func:`find_plays`, a
small word-list search over the view's board and rack, stands in: every word spelled from
the rack through one tile on the board (or across the start square on an empty board),
checked and scored by the rules engine. It misses parallel plays.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any, Protocol

from tessera.board import Board
from tessera.game import EventKind, GameState, PlayerView
from tessera.legality import IllegalMove, check_play, invalid_words
from tessera.move import PLAYED_THROUGH, Challenge, Exchange, Move, Pass, Play
from tessera.rules import ChallengeRule, Rules
from tessera.scoring import score_play
from tessera.tiles import BLANK_BIT, Rack, letter_of

LEVELS = ("level1", "level2", "level3", "best")


class Chooser(Protocol):
    """What the server needs of a computer player."""

    def choose(self, view: PlayerView) -> Move: ...


class WordList(Protocol):
    def contains(self, tiles: Sequence[int]) -> bool: ...

    def has_anagram(self, tiles: Sequence[int]) -> bool: ...

    def anagrams(
        self, rack: Sequence[int], *, partial: bool = True, min_length: int = 2
    ) -> list[tuple[int, ...]]: ...


def _valid(board: Board, play: Play, rack: Rack, rules: Rules, lexicon: WordList) -> Play | None:
    try:
        normal, words = check_play(board, play, rack, rules, rules.tileset.alphabet)
    except IllegalMove:
        return None
    if invalid_words(words, rules, lexicon.contains, lexicon.has_anagram):
        return None
    return normal.with_score(score_play(board, normal, rules))


def find_plays(
    board: Board,
    rack: Sequence[int],
    rules: Rules,
    lexicon: WordList,
    *,
    time_limit_s: float = 3.0,
) -> list[Play]:
    """Legal scored plays for ``rack`` on ``board``, best score first (see the module doc)."""
    rack_obj = Rack(rules.tileset.alphabet.size, rack)
    found: dict[frozenset[tuple[int, int, int]], Play] = {}
    deadline = time.monotonic() + time_limit_s

    def consider(play: Play) -> None:
        key = frozenset(play.placements)
        if key in found or not key:
            return
        scored = _valid(board, play, rack_obj, rules, lexicon)
        if scored is not None:
            found[frozenset(scored.placements)] = scored

    if not rack:
        return []
    if board.is_empty():
        sr, sc = rules.layout.start
        shortest = max(2, rules.min_first_play_tiles)
        for word in lexicon.anagrams(list(rack), partial=True, min_length=shortest):
            for k in range(len(word)):
                for across in (True, False):
                    r, c = (sr, sc - k) if across else (sr - k, sc)
                    if r >= 0 and c >= 0:
                        consider(Play(r, c, across, tuple(word)))
            if time.monotonic() > deadline:
                break
        return sorted(found.values(), key=lambda p: -(p.score or 0))
    by_letter: dict[int, list[tuple[int, ...]]] = {}
    squares = list(board.occupied())
    random.Random(len(squares)).shuffle(squares)  # spread the search if time runs short
    for r, c, tile in squares:
        letter = letter_of(tile)
        if letter not in by_letter:
            words = lexicon.anagrams([*rack, letter], partial=True, min_length=2)
            by_letter[letter] = [w for w in words if letter in w]
        for across in (True, False):
            dr, dc = (0, 1) if across else (1, 0)
            for word in by_letter[letter]:
                for k, t in enumerate(word):
                    if t != letter:
                        continue
                    play = _fit(board, word, r - dr * k, c - dc * k, across)
                    if play is not None:
                        consider(play)
        if time.monotonic() > deadline:
            break
    return sorted(found.values(), key=lambda p: -(p.score or 0))


def _fit(board: Board, word: tuple[int, ...], r0: int, c0: int, across: bool) -> Play | None:
    """The play spelling ``word`` from (r0, c0), or None when the board cannot hold it."""
    dr, dc = (0, 1) if across else (1, 0)
    end_r, end_c = r0 + dr * (len(word) - 1), c0 + dc * (len(word) - 1)
    if not (board.on_board(r0, c0) and board.on_board(end_r, end_c)):
        return None
    if board.get(r0 - dr, c0 - dc) or board.get(end_r + dr, end_c + dc):
        return None
    tiles: list[int] = []
    new = 0
    for i, t in enumerate(word):
        on = board.get(r0 + dr * i, c0 + dc * i)
        if on:
            if letter_of(on) != letter_of(t) or t & BLANK_BIT:
                return None
            tiles.append(PLAYED_THROUGH)
        else:
            tiles.append(t)
            new += 1
    if not new:
        return None
    return Play(r0, c0, across, tuple(tiles))


class GreedyPlayer:
    """A computer player that needs only a word list: it plays one of its best-scoring
    finds (``best``: the top one; lower levels pick lower in the list), accepts out-plays,
    challenges plays that formed a word its list lacks, and exchanges when it finds
    nothing."""

    def __init__(self, lexicon: WordList, level: str = "best", seed: int = 0) -> None:
        self.lexicon = lexicon
        self.level = level
        self._rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Move:
        rules = view.rules
        if view.can_challenge and self._last_play_is_phony(view):
            return Challenge()
        if view.state is GameState.AWAITING_FINAL:
            return Pass()
        plays = best_plays(view.board, view.rack, rules, self.lexicon, 8)
        if plays:
            depth = {"level1": 8, "level2": 4, "level3": 2}.get(self.level, 1)
            return plays[self._rng.randrange(min(depth, len(plays)))]
        need = len(view.rack) if rules.exchange_min_bag is None else rules.exchange_min_bag
        if view.rack and view.bag_count >= max(need, len(view.rack)):
            return Exchange(tuple(view.rack))
        return Pass()

    def _last_play_is_phony(self, view: PlayerView) -> bool:
        if view.rules.challenge_rule is ChallengeRule.VOID:
            return False
        last = next((e for e in reversed(view.history) if e.kind is EventKind.PLAY), None)
        if last is None or not last.words:
            return False
        return any(not self.lexicon.contains([letter_of(t) for t in w]) for w in last.words)


def computer_player(level: str, lexicon: Any, seed: int = 0) -> Chooser:
    """The engine's bot for ``level`` when the engine provides one, else a GreedyPlayer."""
    try:
        from tessera.engine import get_player
    except ImportError:
        return GreedyPlayer(lexicon, level, seed)
    try:
        return get_player(level, lexicon, seed=seed)
    except ValueError:  # a level the engine does not know
        return GreedyPlayer(lexicon, level, seed)


def levels() -> tuple[str, ...]:
    """The computer levels the new-game dialog offers (the engine's when it is installed)."""
    try:
        from tessera.engine import PLAYER_NAMES
    except ImportError:
        return LEVELS
    return tuple(n for n in PLAYER_NAMES if n.startswith("level") or n == "best")


def best_plays(
    board: Board, rack: Sequence[int], rules: Rules, lexicon: Any, n: int | None = None
) -> list[Play]:
    """Plays for ``rack`` by score: the move generator's when it runs here (it needs a
    compiled word graph), else :func:`find_plays`."""
    try:
        from tessera.movegen import generate_moves

        moves = generate_moves(board, list(rack), lexicon, rules, top=None if n is None else n + 1)
    except (ImportError, RuntimeError, AttributeError):  # no compiled core or a stand-in list
        plays = find_plays(board, rack, rules, lexicon)
    else:
        plays = sorted((m for m in moves if isinstance(m, Play)), key=lambda p: -(p.score or 0))
    return plays if n is None else plays[:n]


def top_plays(view: PlayerView, lexicon: WordList, n: int = 5) -> list[Play]:
    """Hints: the best-scoring plays for the viewer's own rack on the view's board."""
    return best_plays(view.board, view.rack, view.rules, lexicon, n)
