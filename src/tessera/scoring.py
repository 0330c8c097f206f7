"""Scoring a play (R3): letter premiums, then word premiums of new tiles, every formed word,
and the bingo bonus — with a breakdown per word."""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board, WordSpan
from .move import Play
from .rules import Rules
from .tiles import TileSet


@dataclass(frozen=True)
class WordScore:
    """One formed word's score: ``(letter_sum) × word_multiplier``."""

    span: WordSpan
    letter_sum: int
    word_multiplier: int

    @property
    def score(self) -> int:
        return self.letter_sum * self.word_multiplier


@dataclass(frozen=True)
class ScoreBreakdown:
    words: tuple[WordScore, ...]  # main word first, then cross-words
    bingo: int
    tiles_played: int

    @property
    def total(self) -> int:
        return sum(w.score for w in self.words) + self.bingo


def score_word(span: WordSpan, board: Board, tiles: TileSet) -> WordScore:
    """R3.2–R3.4, R3.6: premiums count only under new tiles; blanks are worth 0."""
    lm, wm = board.layout.letter_mult, board.layout.word_mult
    letter_sum = 0
    mult = 1
    for (r, c), tile, new in zip(span.squares(), span.tiles, span.new, strict=True):
        value = tiles.value(tile)
        if new:
            letter_sum += value * lm[r][c]
            mult *= wm[r][c]
        else:
            letter_sum += value
    return WordScore(span, letter_sum, mult)


def score_breakdown(board: Board, play: Play, rules: Rules) -> ScoreBreakdown:
    """Score ``play`` on ``board`` (the board before the play) under ``rules`` (R3.5, R3.7)."""
    tiles = rules.tileset
    words = board.words_formed(play.placements, play.across)
    scored = tuple(score_word(w, board, tiles) for w in words)
    n = len(play.placements)
    return ScoreBreakdown(scored, rules.bingo(n), n)


def score_play(board: Board, play: Play, rules: Rules) -> int:
    return score_breakdown(board, play, rules).total
