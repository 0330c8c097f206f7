"""Searches: the compiled anagrammer against the Python reference, and every search against
brute force over the word list."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from tessera.lexicon import Lexicon
from tessera.lexicon.search import anagrams, anagrams_reference
from tessera.tiles import BLANK, BLANK_BIT

WORDS = ["AA", "AB", "ABA", "BAA", "BAD", "DAB", "CAB", "ABACA", "CABBAGE", "BAGGED", "ACE",
         "ADD", "DEAD", "BEAD", "ABED", "BADE", "BED", "DEB", "GAB", "GAG", "EGG", "CAGED"]


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.from_words(WORDS, "english", name="small")


def letters(word: str) -> Counter[str]:
    return Counter(word)


def brute_anagrams(rack: str, *, exact: bool, min_length: int = 2) -> set[str]:
    have = Counter(rack)
    blanks = have.pop("?", 0)
    out = set()
    for w in WORDS:
        need = letters(w) - have
        if sum(need.values()) <= blanks and len(w) >= min_length:
            if not exact or len(w) == len(rack):
                out.add(w)
    return out


@pytest.mark.parametrize("seed", range(30))
def test_anagrams_match_brute_force_and_the_reference(lex: Lexicon, seed: int) -> None:
    rng = random.Random(seed)
    rack = "".join(rng.choice("ABCDEG??") for _ in range(rng.randint(1, 7)))
    for exact in (False, True):
        found = lex.anagrams(rack, partial=not exact)
        assert {w.upper() for w in map(lex.format, found)} == brute_anagrams(rack, exact=exact)
        assert len(found) == len(set(found))  # each word once
        for w in found:  # blank-made letters only where the rack lacks the real tile
            real = Counter(lex.format([t for t in w if not t & BLANK_BIT]))
            assert not real - Counter(rack)
        counts = [0] * 27
        for t in lex.rack(rack):
            counts[t] += 1
        assert anagrams(lex.kwg, counts, exact=exact, min_length=len(rack) if exact else 2) == (
            anagrams_reference(lex.kwg, counts, exact=exact,
                               min_length=len(rack) if exact else 2))


def test_blank_letters_are_marked(lex: Lexicon) -> None:
    assert [lex.format(w) for w in lex.anagrams("CAGE?", partial=False)] == ["CAGEd"]
    assert lex.anagrams([BLANK, BLANK], partial=False) == [
        (1 | BLANK_BIT, 1 | BLANK_BIT), (1 | BLANK_BIT, 2 | BLANK_BIT)]


@pytest.mark.parametrize(
    "pattern", ["A?", "?A?", "*", "B*", "*D", "*A*A*", "??D*", "C*E*", "*G*G*", "Q*", "A**B"]
)
def test_patterns_match_regex(lex: Lexicon, pattern: str) -> None:
    regex = re.compile(pattern.replace("?", ".").replace("*", ".*"))
    expected = sorted(w for w in WORDS if regex.fullmatch(w))
    assert sorted(lex.format(w) for w in lex.pattern(pattern)) == expected


@pytest.mark.parametrize("affix", ["A", "AB", "D", "GG", "BAD", "X", "CABBAGE"])
def test_affix_searches_match_brute_force(lex: Lexicon, affix: str) -> None:
    assert [lex.format(w) for w in lex.starting_with(affix)] == sorted(
        w for w in WORDS if w.startswith(affix))
    assert sorted(lex.format(w) for w in lex.ending_with(affix)) == sorted(
        w for w in WORDS if w.endswith(affix))
    assert sorted(lex.format(w) for w in lex.containing(affix)) == sorted(
        w for w in WORDS if affix in w)


def test_bad_rack_and_pattern_are_explained(lex: Lexicon) -> None:
    from tessera.lexicon import LexiconError

    with pytest.raises(LexiconError, match="'3'"):
        lex.anagrams("AB3")
    with pytest.raises(LexiconError, match="pattern 'A#\\?'"):
        lex.pattern("A#?")
