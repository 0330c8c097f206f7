"""Word study over a lexicon: look a word up (valid? its anagrams, its hooks), anagram and
pattern searches with blanks, and the alphagrams of a length in probability order — the
questions of an anagram quiz — with the check of an answer against the lexicon.

Probability is Zyzzyva's: the number of ways to draw the alphagram's tiles from a full bag of
the tile set, blanks standing in for any of its letters (up to the bag's blanks). With the
English bag, AE: 9·12 draws of an A and an E, 2·(12 + 9) with one blank, 1 with both: 151.

Every input is bounded before any search: words and racks of at most :data:`MAX_TILES`
tiles, at most :data:`MAX_BLANKS` blanks, and result lists of at most :data:`MAX_RESULTS`
words (with the full count).

>>> from tessera.lexicon import Lexicon
>>> study = WordStudy(Lexicon.load("enable"))
>>> study.lookup("care").front_hooks, study.lookup("care").back_hooks
('S', 'DRSTX')
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from math import comb
from typing import Any

from tessera.lexicon.errors import LexiconError
from tessera.lexicon.lexicon import Lexicon
from tessera.tiles import BLANK, TileError, TileSet, face, tileset

MAX_TILES = 15  # the longest word a 15×15 board holds
MIN_TILES = 2
MAX_BLANKS = 2
MAX_RESULTS = 500
MAX_TEXT = 64  # characters of any text asked about (multi-letter tiles: several a tile)
MAX_RUNS = 3  # '*' in one pattern
MAX_GUESSES = 64


class StudyError(LexiconError):
    """A study question that cannot be asked (too long, too many blanks, not spelled)."""


@dataclass(frozen=True)
class WordInfo:
    """What a lookup tells about a word: whether it is valid, every word of the same letters,
    the letters that make a word in front of it and after it, and its alphagram's place in
    probability order among alphagrams of its length (a valid word only)."""

    word: str
    valid: bool
    anagrams: tuple[str, ...]
    front_hooks: str
    back_hooks: str
    probability_rank: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "word": self.word,
            "valid": self.valid,
            "anagrams": list(self.anagrams),
            "front_hooks": self.front_hooks,
            "back_hooks": self.back_hooks,
            "probability_rank": self.probability_rank,
        }


@dataclass(frozen=True)
class Found:
    """The first ``len(words)`` results of a search and how many there are in all."""

    words: tuple[str, ...]
    total: int

    def to_json(self) -> dict[str, Any]:
        return {"words": list(self.words), "total": self.total}


@dataclass(frozen=True)
class Question:
    """An alphagram of the quiz: its text and tiles, its place in probability order
    (1 = likeliest), the number of draws that give it, and how many words it makes."""

    alphagram: str
    length: int  # tiles
    rank: int
    combinations: int
    answers: int

    def to_json(self) -> dict[str, Any]:
        return {
            "alphagram": self.alphagram,
            "length": self.length,
            "rank": self.rank,
            "combinations": self.combinations,
            "answers": self.answers,
        }


@dataclass(frozen=True)
class Verdict:
    """An answer checked: the words it got, the ones it missed, the guesses that are not
    words of the alphagram; right only when nothing is missed and nothing is wrong."""

    right: tuple[str, ...]
    missed: tuple[str, ...]
    wrong: tuple[str, ...]

    @property
    def correct(self) -> bool:
        return not self.missed and not self.wrong

    def to_json(self) -> dict[str, Any]:
        return {
            "correct": self.correct,
            "right": list(self.right),
            "missed": list(self.missed),
            "wrong": list(self.wrong),
        }


def combinations(tiles: tuple[int, ...], bag: TileSet) -> int:
    """Draws of exactly ``tiles`` (letters, no blanks) from a full bag, blanks standing in for
    letters: Σ over b ≤ blanks of C(blanks, b) · Σ over the ways to leave b of the letters to
    blanks of ∏ C(count of letter, copies drawn)."""
    blanks = bag.blanks
    # ways[b]: draws of the real tiles when b of the word's letters are left to blanks
    ways = [1] + [0] * blanks
    for letter, need in Counter(tiles).items():
        term = _term(bag.counts[letter], need, blanks)
        if len(term) == 1:
            ways = [w * term[0] for w in ways]
            continue
        after = [0] * (blanks + 1)
        for r, t in enumerate(term):
            for b in range(r, blanks + 1):
                after[b] += ways[b - r] * t
        ways = after
    return sum(comb(blanks, b) * ways[b] for b in range(blanks + 1))


@cache
def _term(have: int, need: int, blanks: int) -> tuple[int, ...]:
    """C(have, need - r) for r = 0..min(need, blanks): one letter's draws, r of it blanks."""
    return tuple(comb(have, need - r) for r in range(min(need, blanks) + 1))


def bag_for(lexicon: Lexicon) -> TileSet:
    """The tile set named like the lexicon's alphabet (``english`` for the shipped list)."""
    try:
        bag = tileset(lexicon.alphabet.name)
    except TileError as exc:
        raise StudyError(f"no tile set for the {lexicon.alphabet.name} alphabet") from exc
    if bag.alphabet.labels != lexicon.alphabet.labels:
        raise StudyError(f"the {bag.name} tile set does not spell the {lexicon.name} lexicon")
    return bag


class WordStudy:
    """The study questions over one lexicon and the bag its probabilities come from."""

    def __init__(self, lexicon: Lexicon, bag: TileSet | None = None) -> None:
        self.lexicon = lexicon
        self.bag = bag or bag_for(lexicon)
        self._orders: dict[int, tuple[tuple[tuple[int, ...], int], ...]] = {}
        self._rank_maps: dict[int, dict[tuple[int, ...], int]] = {}
        self._texts: dict[int, tuple[str, ...]] = {}

    # -- reading text ---------------------------------------------------------------------

    def _letters(self, text: str, what: str, *, blanks: int = 0) -> list[int]:
        """Tiles of ``text`` (``?`` a blank, at most ``blanks`` of them), 1..MAX_TILES."""
        if len(text) > MAX_TEXT:
            raise StudyError(f"{what} is longer than {MAX_TEXT} characters")
        text = text.strip().upper()
        if not text:
            raise StudyError(f"{what} is empty")
        try:
            tiles = [face(t) for t in self.lexicon.alphabet.parse(text, allow_blank=blanks > 0)]
        except TileError:
            letters = "letters" if not blanks else "letters and ?"
            raise StudyError(
                f"{what} {text[:20]!r} is not spelled in {letters} of the "
                f"{self.lexicon.alphabet.name} alphabet"
            ) from None
        if len(tiles) > MAX_TILES:
            raise StudyError(f"{what} has more than {MAX_TILES} tiles")
        if tiles.count(BLANK) > blanks:
            raise StudyError(f"{what} has more than {blanks} blanks")
        return tiles

    def _text(self, tiles: tuple[int, ...]) -> str:
        return self.lexicon.format(tiles)

    # -- lookups and searches -------------------------------------------------------------

    def lookup(self, word: str) -> WordInfo:
        """Whether ``word`` is valid, its anagrams (itself included when valid), its hooks."""
        tiles = tuple(self._letters(word, "a word"))
        lex = self.lexicon
        valid = lex.contains(tiles)
        anagrams = tuple(sorted(self._text(w) for w in lex.anagrams(tiles, partial=False)))
        letters = range(1, len(lex.alphabet))
        front = "".join(lex.alphabet.label(t) for t in letters if lex.contains((t, *tiles)))
        back = "".join(lex.alphabet.label(t) for t in letters if lex.contains((*tiles, t)))
        rank = None
        if valid and MIN_TILES <= len(tiles):
            rank = self._ranks(len(tiles)).get(tuple(sorted(tiles)))
        return WordInfo(self._text(tiles), valid, anagrams, front, back, rank)

    def anagram(self, rack: str, *, build: bool = False, limit: int = MAX_RESULTS) -> Found:
        """Words of every tile of ``rack`` (``?``: a blank, at most two; blank letters come
        back in lower case), or with ``build`` every word of two or more of its tiles —
        longest first, then alphabetical."""
        tiles = self._letters(rack, "a rack", blanks=MAX_BLANKS)
        if len(tiles) < MIN_TILES:
            raise StudyError(f"a rack has at least {MIN_TILES} tiles")
        found = self.lexicon.anagrams(tiles, partial=build, min_length=MIN_TILES)
        found.sort(key=lambda w: (-len(w), [t & 0x7F for t in w], w))
        return self._capped(found, limit)

    def pattern(self, pattern: str, *, limit: int = MAX_RESULTS) -> Found:
        """Words matching ``pattern``: letters, ``?`` for any one tile, ``*`` for any run of
        tiles (also none), e.g. ``C?T*``. Alphabetical."""
        if len(pattern) > MAX_TEXT:
            raise StudyError(f"a pattern is longer than {MAX_TEXT} characters")
        text = pattern.strip().upper()
        if not text.replace("*", ""):
            raise StudyError("a pattern needs a letter or a ?")
        if text.count("*") > MAX_RUNS:
            raise StudyError(f"a pattern has at most {MAX_RUNS} '*'")
        self._letters(text.replace("*", ""), "a pattern", blanks=MAX_TILES)  # spelled, short
        try:
            found = self.lexicon.pattern(text, min_length=MIN_TILES, max_length=MAX_TILES)
        except LexiconError as exc:
            raise StudyError(str(exc)) from None
        return self._capped(found, limit)

    def _capped(self, found: list[tuple[int, ...]], limit: int) -> Found:
        limit = max(0, min(limit, MAX_RESULTS))
        return Found(tuple(self._text(w) for w in found[:limit]), len(found))

    # -- the quiz -------------------------------------------------------------------------

    def _order(self, length: int) -> tuple[tuple[tuple[int, ...], int], ...]:
        """(alphagram, draws) of every alphagram of ``length`` tiles, likeliest first; worked
        out once a length (a second thread doing it meanwhile does the same work)."""
        if length not in self._orders:
            alphagrams = (w for w in self.lexicon.alphagrams().words() if len(w) == length)
            rated = [(a, combinations(a, self.bag)) for a in alphagrams]
            rated.sort(key=lambda pair: (-pair[1], pair[0]))
            self._orders[length] = tuple(rated)
        return self._orders[length]

    def _check_length(self, length: int) -> None:
        if not MIN_TILES <= length <= MAX_TILES:
            raise StudyError(f"alphagrams have {MIN_TILES}–{MAX_TILES} tiles")

    def _ranks(self, length: int) -> dict[tuple[int, ...], int]:
        if length not in self._rank_maps:
            ranks = {a: i + 1 for i, (a, _) in enumerate(self._order(length))}
            self._rank_maps[length] = ranks
        return self._rank_maps[length]

    def order(self, length: int) -> tuple[str, ...]:
        """Every alphagram of ``length`` tiles, likeliest first (ties alphabetical)."""
        self._check_length(length)
        if length not in self._texts:
            self._texts[length] = tuple(self._text(a) for a, _ in self._order(length))
        return self._texts[length]

    def question(self, alphagram: str) -> Question:
        """The quiz question of an alphagram (any order of its letters); refused when no word
        uses exactly those letters."""
        tiles = tuple(sorted(self._letters(alphagram, "an alphagram")))
        self._check_length(len(tiles))
        rank = self._ranks(len(tiles)).get(tiles)
        if rank is None:
            raise StudyError(f"no word of {self.lexicon.name} has the letters {alphagram!r}")
        count = len(self.lexicon.anagrams(tiles, partial=False))
        draws = self._order(len(tiles))[rank - 1][1]
        return Question(self._text(tiles), len(tiles), rank, draws, count)

    def _words_of(self, alphagram: str) -> list[tuple[int, ...]]:
        tiles = sorted(self._letters(alphagram, "an alphagram"))
        return sorted(self.lexicon.anagrams(tiles, partial=False))

    def answers(self, alphagram: str) -> tuple[str, ...]:
        """The words of an alphagram, alphabetical."""
        return tuple(sorted(self._text(w) for w in self._words_of(alphagram)))

    def check(self, alphagram: str, guesses: list[str]) -> Verdict:
        """``guesses`` (any case, repeats ignored) against the words of ``alphagram``: a
        guess is right when one of its tile spellings is one of those words."""
        if len(guesses) > MAX_GUESSES:
            raise StudyError(f"an answer has at most {MAX_GUESSES} words")
        words = set(self._words_of(alphagram))
        alphabet = self.lexicon.alphabet
        right: set[tuple[int, ...]] = set()
        wrong: list[str] = []
        for guess in guesses:
            if len(guess) > MAX_TEXT:
                raise StudyError(f"a word is longer than {MAX_TEXT} characters")
            text = "".join(guess.split()).upper()
            if not text:
                continue
            try:
                spelled = alphabet.spellings(text)
            except TileError:
                spelled = []
            hit = next((tuple(s) for s in spelled if tuple(s) in words), None)
            if hit is not None:
                right.add(hit)
            elif text not in wrong:
                wrong.append(text)
        return Verdict(
            tuple(sorted(self._text(w) for w in right)),
            tuple(sorted(self._text(w) for w in words - right)),
            tuple(wrong),
        )
