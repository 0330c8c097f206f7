"""The shipped ENABLE2K lexicon: exact word set, both graph halves, cache, and the CLI."""

from __future__ import annotations

import gzip
import hashlib
import re
import time
from importlib import resources

from click.testing import CliRunner

from tessera.cli import main
from tessera.lexicon import Lexicon
from tessera.lexicon.kwg import gaddag_strings

DATA = resources.files("tessera") / "data" / "lexicons"


def enable_words() -> set[str]:
    text = gzip.decompress((DATA / "enable2k.txt.gz").read_bytes()).decode("ascii")
    return {w.upper() for w in text.split() if 2 <= len(w) <= 15}


def test_shipped_file_matches_its_recorded_checksum_and_notice() -> None:
    digest = hashlib.sha256((DATA / "enable2k.txt.gz").read_bytes()).hexdigest()
    assert digest in (DATA / "SOURCE.md").read_text(encoding="utf-8")
    assert "Public Domain" in (DATA / "README-enable2k.txt").read_text(encoding="utf-8")


def test_enable_holds_every_2_to_15_letter_word_and_nothing_else(enable: Lexicon) -> None:
    expected = enable_words()
    assert len(expected) == 169_266
    got = {enable.format(w) for w in enable.words()}
    assert got == expected
    assert len(enable) == len(expected)
    assert enable.name == "enable" and enable.alphabet.name == "english"


def test_every_word_walks_through_the_dawg_and_the_gaddag(enable: Lexicon) -> None:
    kwg = enable.kwg
    table = str.maketrans({label: chr(i) for i, label in enumerate(enable.alphabet.labels, 1)})
    words = [w.translate(table).encode("latin-1") for w in enable_words()]
    # every word through the DAWG and each of its GADDAG entries through the GADDAG (in the
    # compiled core), then the totals: nothing else is in either half
    assert kwg.verify(words) == ""
    # the Python walker agrees on a sample
    for w in words[::2000]:
        assert kwg.contains(w)
        for entry in gaddag_strings(w):
            assert kwg.walk(entry, kwg.gaddag_root) and kwg.gaddag_contains(list(entry))
    assert kwg.verify(words[1:]).startswith("the DAWG holds 169266 words, not 169265")


def test_known_words_and_non_words(enable: Lexicon) -> None:
    for word in ("MUZJIKS", "quixotry", "Aa", "zyzzyvas", "CAT"):
        assert word in enable, word
    for word in ("QI", "ZA", "KI", "OK", "A", "XYZZY", "", "C4T", "??"):
        assert word not in enable, word
    cat = enable.alphabet.parse("CAT")
    assert enable.contains(cat)
    assert enable.contains([cat[0] | 0x80, *cat[1:]])  # a blank designated as C counts
    assert not enable.contains([0, *cat[1:]])  # an undesignated blank spells nothing
    long = "ABSENTMINDEDNESS"  # in the file, but 16 letters: no 15x15 board holds it
    raw = gzip.decompress((DATA / "enable2k.txt.gz").read_bytes()).decode()
    assert f"\n{long.lower()}\n" in raw
    assert long not in enable


def test_second_load_comes_from_the_memory_mapped_cache(enable: Lexicon) -> None:
    start = time.perf_counter()
    again = Lexicon.load("enable")
    elapsed = time.perf_counter() - start
    assert again.kwg._mmap is not None
    assert again.kwg.to_bytes() == enable.kwg.to_bytes()
    assert elapsed < 0.5  # typically ~10 ms; generous for loaded CI machines


def test_queries(enable: Lexicon) -> None:
    fmt = enable.format
    assert sorted(fmt(w) for w in enable.anagrams("RETINAS", partial=False)) == [
        "ANESTRI", "ANTSIER", "NASTIER", "RATINES", "RETAINS", "RETINAS", "RETSINA",
        "STAINER", "STEARIN",
    ]
    with_blank = {fmt(w) for w in enable.anagrams("QUIXOTR?", partial=False)}
    assert with_blank == {"QUIXOTRy"}
    subs = {fmt(w) for w in enable.anagrams("CAT")}
    assert subs == {"ACT", "AT", "CAT", "TA"}
    assert [fmt(w) for w in enable.pattern("QU?XOT*")] == ["QUIXOTE", "QUIXOTES", "QUIXOTIC",
                                                          "QUIXOTICAL", "QUIXOTICALLY",
                                                          "QUIXOTISM", "QUIXOTISMS",
                                                          "QUIXOTRIES", "QUIXOTRY"]
    words = enable_words()
    ends = {w for w in words if w.endswith("XOTRY")}
    assert {fmt(w) for w in enable.ending_with("XOTRY")} == ends
    assert {fmt(w) for w in enable.containing("ZZ")} == {w for w in words if "ZZ" in w}
    starts = {w for w in words if w.startswith("QUIZ")}
    assert {fmt(w) for w in enable.starting_with("QUIZ")} == starts
    pattern = re.compile("C.T.*S")
    assert {fmt(w) for w in enable.pattern("C?T*S")} == {w for w in words if pattern.fullmatch(w)}


def test_clabbers_alphagram_lookup(enable: Lexicon) -> None:
    rack = enable.rack
    assert enable.has_anagram(rack("YRTOXIUQ"))
    assert enable.has_anagram(rack("TAC"))
    assert not enable.has_anagram(rack("TACQ"))
    assert enable.has_anagram(rack("TA?"))  # ACT, CAT, TAB, ... with the blank
    assert not enable.has_anagram(rack("QQ?"))
    assert {enable.format(w) for w in enable.alphagram(rack("ACT"))} == {"ACT", "CAT"}


def test_alphagram_graph_is_public_and_holds_sorted_words(enable: Lexicon) -> None:
    graph = enable.alphagrams()
    assert graph is enable.alphagrams()  # built once
    assert graph.contains(sorted(enable.rack("CAT")))  # ACT
    assert not graph.contains(enable.rack("CAT"))  # not in ascending order
    assert not graph.contains(sorted(enable.rack("TACQ")))
    assert graph.count() == len({tuple(sorted(w)) for w in enable.kwg.words()})


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_cli_words_check() -> None:
    code, out, _ = run("words", "check", "muzjiks", "quixotry")
    assert code == 0 and "MUZJIKS: valid" in out and "QUIXOTRY: valid" in out
    code, out, err = run("words", "check", "qi")
    assert code != 0
    assert "QI: NOT valid" in out and "QI" in err
    code, _, err = run("words", "check", "cat", "qi", "za")
    assert code == 1 and "QI, ZA" in err


def test_cli_anagram_and_pattern() -> None:
    code, out, _ = run("words", "anagram", "retinas", "--exact")
    assert code == 0 and "STEARIN" in out.split()
    code, out, _ = run("words", "anagram", "quixotr?", "--exact")
    assert out.split() == ["QUIXOTRy"]
    code, out, _ = run("words", "pattern", "qu?xotry")
    assert code == 0 and out.split() == ["QUIXOTRY"]
    code, out, _ = run("words", "pattern", "zzzz*")
    assert code == 0 and "(no words)" in out
    code, out, _ = run("words", "ends", "xotry")
    assert out.split() == ["QUIXOTRY"]
    code, _, err = run("words", "check", "--lexicon", "no-such-lexicon", "cat")
    assert code != 0 and "no lexicon named 'no-such-lexicon'" in err
