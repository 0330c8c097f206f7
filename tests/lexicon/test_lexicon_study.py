"""Word study over the shipped ENABLE list: lookups, searches, probability order and the
check of a quiz answer, each against cases worked out by hand."""

from __future__ import annotations

import pytest

from tessera.lexicon import Lexicon
from tessera.lexicon.study import MAX_RESULTS, StudyError, WordStudy, combinations
from tessera.tiles import tileset

ENGLISH = tileset("english")  # A×9, E×12, I×9, N×6, O×8, R×6, T×6, 2 blanks


@pytest.fixture(scope="module")
def study() -> WordStudy:
    return WordStudy(Lexicon.load("enable"))


def tiles(text: str) -> tuple[int, ...]:
    return tuple(ENGLISH.alphabet.parse(text))


def test_a_lookup_gives_validity_anagrams_and_hooks(study: WordStudy) -> None:
    care = study.lookup("care")
    assert care.word == "CARE" and care.valid
    assert care.anagrams == ("ACRE", "CARE", "RACE")
    assert care.front_hooks == "S"  # SCARE
    assert care.back_hooks == "DRSTX"  # CARED CARER CARES CARET CAREX
    assert care.probability_rank is not None
    qi = study.lookup("QI")  # not in ENABLE (it is in later lists)
    assert not qi.valid and qi.anagrams == () and qi.probability_rank is None
    # a non-word still has hooks and anagrams when they exist
    tare = study.lookup("aret")
    assert not tare.valid and set(tare.anagrams) == {"RATE", "TARE", "TEAR"}


def test_probability_counts_draws_with_blanks_as_zyzzyva_does() -> None:
    # AE: an A and an E (9·12), one of them a blank (2·(12 + 9)), both blanks (1)
    assert combinations(tiles("AE"), ENGLISH) == 108 + 42 + 1
    # AA: C(9,2), one A a blank 2·9, both blanks 1
    assert combinations(tiles("AA"), ENGLISH) == 36 + 18 + 1
    # AENO: 9·12·6·8 + 2·(12·6·8 + 9·6·8 + 9·12·8 + 9·12·6) + (the six pairs' products)
    assert combinations(tiles("AENO"), ENGLISH) == 5184 + 2 * 2520 + 450


def test_alphagrams_come_likeliest_first_ties_alphabetical(study: WordStudy) -> None:
    # AE 151, EO 96+40+1, AI 81+36+1, then EN ER ET at 72+36+1 each
    assert study.order(2)[:6] == ("AE", "EO", "AI", "EN", "ER", "ET")
    assert study.order(4)[:2] == ("AENO", "AEOR")  # 10,674 each: AEON, and AERO
    q = study.question("oeAN")
    assert (q.alphagram, q.length, q.rank, q.combinations, q.answers) == ("AENO", 4, 1, 10674, 1)
    assert study.question("retinas").answers == 9
    with pytest.raises(StudyError, match="no word"):
        study.question("QXZ")


def test_anagram_and_build_search_with_blanks(study: WordStudy) -> None:
    found = study.anagram("AEINRST")
    assert found.total == 9 and "RETAINS" in found.words and "STEARIN" in found.words
    # blanks come back as lower-case letters
    cat = study.anagram("CA?", limit=100)
    assert "CAT" not in cat.words and "CAt" in cat.words and "sAC" in cat.words
    built = study.anagram("CAT", build=True)
    assert set(built.words) == {"ACT", "CAT", "AT", "TA"}
    assert built.words[:2] == ("ACT", "CAT")  # longest first, then alphabetical
    big = study.anagram("AEINRST??", build=True, limit=10_000)
    assert len(big.words) == MAX_RESULTS and big.total > MAX_RESULTS


def test_pattern_search(study: WordStudy) -> None:
    found = study.pattern("c?t")
    assert set(found.words) == {"CAT", "COT", "CUT"}
    assert study.pattern("QUIXOT*").words == (
        "QUIXOTE", "QUIXOTES", "QUIXOTIC", "QUIXOTICAL", "QUIXOTICALLY", "QUIXOTISM",
        "QUIXOTISMS", "QUIXOTRIES", "QUIXOTRY",
    )
    assert "ZYZZYVA" in study.pattern("*YZZ*").words


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda s: s.anagram("AB???"), "more than 2 blanks"),
        (lambda s: s.anagram("A"), "at least 2 tiles"),
        (lambda s: s.anagram("ABCDEFGHIJKLMNOP"), "more than 15 tiles"),
        (lambda s: s.lookup("C?T"), "not spelled"),
        (lambda s: s.lookup("x" * 65), "longer than 64"),
        (lambda s: s.pattern("****"), "needs a letter"),
        (lambda s: s.pattern("A*B*C*D*"), "at most 3"),
        (lambda s: s.pattern("C4T"), "not spelled"),
        (lambda s: s.order(16), "2–15 tiles"),
        (lambda s: s.check("AET", ["x"] * 65), "at most 64"),
    ],
)
def test_bad_questions_are_refused_saying_why(study: WordStudy, call, message: str) -> None:
    with pytest.raises(StudyError, match=message):
        call(study)


def test_an_answer_is_right_only_with_every_word_and_no_wrong_one(study: WordStudy) -> None:
    assert study.answers("AET") == ("ATE", "EAT", "ETA", "TAE", "TEA")
    full = study.check("TEA", ["ate", " eat", "ETA", "tae", "TEA", "tea"])
    assert full.correct and full.missed == () and full.wrong == ()
    part = study.check("AET", ["eat", "tea"])
    assert not part.correct and part.right == ("EAT", "TEA")
    assert part.missed == ("ATE", "ETA", "TAE")
    extra = study.check("AET", ["ATE", "EAT", "ETA", "TAE", "TEA", "TAT", "42"])
    assert not extra.correct and extra.wrong == ("TAT", "42")
