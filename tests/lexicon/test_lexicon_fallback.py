"""Without the compiled core every operation falls back to the pure-Python reference and
gives the same answers."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import tessera.lexicon.kwg as kwgmod
import tessera.lexicon.search as searchmod
from tessera.lexicon import Kwg, KwgError, Leaves, Lexicon

WORDS = ["CAT", "CATS", "ACT", "TACT", "SCAT", "AT", "TA", "AS", "TAS", "ZA", "QI", "CASA"]


def answers(lex: Lexicon) -> tuple[object, ...]:
    kwg = lex.kwg
    return (
        kwg.to_bytes(),
        sorted(kwg.words()),
        kwg.count(),
        kwg.count(kwg.gaddag_root),
        sorted(kwg.paths(kwg.gaddag_root, skip_separator=True)),
        lex.anagrams("CATS?"),
        lex.anagrams("TACT", partial=False),
        lex.pattern("*A*"),
        lex.ending_with("AT"),
        lex.containing("A"),
        lex.has_anagram(lex.rack("TCA")),
        lex.has_anagram(lex.rack("Q?")),
        [lex.contains_word(w) for w in ("CAT", "CATT", "QI", "Z")],
        kwg.verify([lex.rack(w) for w in WORDS]),
    )


@pytest.fixture
def no_core(monkeypatch: pytest.MonkeyPatch) -> None:
    for module in (kwgmod, searchmod):  # leaves reach the core through kwg
        monkeypatch.setattr(module, "_native", None)


def test_same_answers_without_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    with_core = answers(Lexicon.from_words(WORDS, name="w"))
    for module in (kwgmod, searchmod):  # leaves reach the core through kwg
        monkeypatch.setattr(module, "_native", None)
    without = answers(Lexicon.from_words(WORDS, name="w"))
    assert with_core == without
    assert without[-1] == ""


def test_leaves_without_the_core(no_core: None, tmp_path: Path) -> None:
    rng = random.Random(3)
    table = {tuple(sorted(rng.randint(0, 9) for _ in range(rng.randint(1, 4)))): float(i)
             for i in range(60)}
    leaves = Leaves.from_mapping(table)
    leaves.save(tmp_path / "l.klv2")
    again = Leaves.load(tmp_path / "l.klv2")
    for leave, value in again.items():
        assert again.value(leave) == value
    assert dict(again.items()) == {k: v for k, v in table.items()}


def test_malformed_graph_without_the_core(no_core: None) -> None:
    with pytest.raises(KwgError, match="past the end"):
        Kwg(b"\x05\x00\x40\x00" + b"\x00\x00\x40\x00")
