"""Multi-letter tiles: Spanish (CH, LL, RR, Ñ) and Hungarian (CS, GY, LY, NY, SZ, TY, ZS)
lexicons answer queries in tiles, not characters."""

from __future__ import annotations

from pathlib import Path

import pytest

from tessera.lexicon import Lexicon
from tessera.tiles import BLANK, Alphabet

SPANISH = Alphabet("spanish", tuple(
    "A B C CH D E F G H I J L LL M N Ñ O P Q R RR S T U V X Y Z".split()))
HUNGARIAN = Alphabet("hungarian", tuple(
    "A Á B C CS D E É F G GY H I Í J K L LY M N NY O Ó Ö Ő P R S SZ T TY U Ú Ü Ű V Z ZS"
    .split()))

SPANISH_WORDS = ["chico", "llama", "perro", "año", "churro", "calle", "niño", "carro", "hola",
                 "coche", "ocho", "chocolate"]
HUNGARIAN_WORDS = ["csók", "gyöngy", "lyuk", "nyár", "szív", "tyúk", "zsák", "macska",
                   "ősz", "kézfogás"]


@pytest.fixture(scope="module")
def spanish() -> Lexicon:
    return Lexicon.from_words(SPANISH_WORDS, SPANISH, name="es-sample", spellings="longest")


@pytest.fixture(scope="module")
def hungarian() -> Lexicon:
    return Lexicon.from_words(HUNGARIAN_WORDS, HUNGARIAN, name="hu-sample")


def tiles(alphabet: Alphabet, *labels: str) -> list[int]:
    return [alphabet.letter(x) for x in labels]


def texts(lex: Lexicon, words: list[tuple[int, ...]]) -> list[str]:
    return sorted(lex.format(w) for w in words)


def test_spanish_words_are_stored_in_tiles(spanish: Lexicon) -> None:
    assert len(spanish) == len(SPANISH_WORDS)
    assert spanish.contains(tiles(SPANISH, "CH", "I", "C", "O"))
    assert not spanish.contains(tiles(SPANISH, "C", "H", "I", "C", "O"))  # CH is one tile
    assert spanish.contains(tiles(SPANISH, "P", "E", "RR", "O"))
    assert not spanish.contains(tiles(SPANISH, "P", "E", "R", "R", "O"))
    assert spanish.contains(tiles(SPANISH, "A", "Ñ", "O"))
    assert "churro" in spanish and "LLAMA" in spanish and "ano" not in spanish
    lengths = {spanish.format(w): len(w) for w in spanish.words()}
    assert lengths["CHURRO"] == 4 and lengths["CALLE"] == 4 and lengths["CHOCOLATE"] == 8


def test_spanish_length_limits_count_tiles() -> None:
    lex = Lexicon.from_words(SPANISH_WORDS, SPANISH, spellings="longest", max_length=4)
    kept = {lex.format(w) for w in lex.words()}
    assert "CHURRO" in kept and "CARRO" in kept and "COCHE" in kept  # 4 tiles each
    assert "CHOCOLATE" not in kept
    assert lex.report is not None
    assert [r.text for r in lex.report.rejected] == ["chocolate"]
    assert "length 8 is outside 2–4 tiles" in lex.report.rejected[0].reason


def test_spanish_anagrams(spanish: Lexicon) -> None:
    rack = tiles(SPANISH, "O", "CH", "I", "C")
    assert texts(spanish, spanish.anagrams(rack, partial=False)) == ["CHICO"]
    assert texts(spanish, spanish.anagrams([*rack[:3], BLANK], partial=False)) == ["CHIcO"]
    # C and H tiles cannot stand in for the CH tile
    assert spanish.anagrams(tiles(SPANISH, "O", "C", "H", "I", "C"), partial=False) == []
    sub = spanish.anagrams(tiles(SPANISH, "O", "CH", "O", "C", "E"))
    assert texts(spanish, sub) == ["COCHE", "OCHO"]
    assert texts(spanish, spanish.anagrams("rrcoa")) == ["CARRO"]  # rack text, longest first


def test_spanish_patterns_count_tiles(spanish: Lexicon) -> None:
    # CHURRO is CH·U·RR·O: four tiles, so it matches CH??? like CHICO
    assert texts(spanish, spanish.pattern("CH???")) == ["CHICO", "CHURRO"]
    assert texts(spanish, spanish.pattern("?A?O")) == ["CARRO"]
    assert texts(spanish, spanish.pattern("*LL*")) == ["CALLE", "LLAMA"]
    assert texts(spanish, spanish.starting_with("LL")) == ["LLAMA"]
    assert texts(spanish, spanish.ending_with("RRO")) == ["CARRO", "CHURRO", "PERRO"]
    assert texts(spanish, spanish.containing("Ñ")) == ["AÑO", "NIÑO"]
    assert spanish.has_anagram(tiles(SPANISH, "O", "RR", "U", "CH"))


def test_hungarian_digraphs(hungarian: Lexicon) -> None:
    h = HUNGARIAN
    assert hungarian.contains(tiles(h, "CS", "Ó", "K"))
    assert hungarian.contains(tiles(h, "GY", "Ö", "N", "GY"))
    assert hungarian.contains(tiles(h, "NY", "Á", "R"))
    assert hungarian.contains(tiles(h, "TY", "Ú", "K"))
    assert hungarian.contains(tiles(h, "LY", "U", "K"))
    assert hungarian.contains(tiles(h, "Ő", "SZ"))
    # every spelling is kept: CS may also be C·S, ZS may be Z·S (Hungarian has no Y tile,
    # so GY, LY, NY and TY have only the digraph spelling)
    assert hungarian.contains(tiles(h, "C", "S", "Ó", "K"))
    assert hungarian.contains(tiles(h, "Z", "S", "Á", "K"))
    assert hungarian.contains(tiles(h, "M", "A", "CS", "K", "A"))
    assert "GYÖNGY" in hungarian and "gyöngy" in hungarian and "gyongy" not in hungarian
    assert len(hungarian) > len(HUNGARIAN_WORDS)  # counts tile spellings


def test_hungarian_queries_are_in_tiles(hungarian: Lexicon) -> None:
    h = HUNGARIAN
    found = hungarian.anagrams(tiles(h, "GY", "N", "GY", "Ö"), partial=False)
    assert texts(hungarian, found) == ["GYÖNGY"] and len(found[0]) == 4
    assert texts(hungarian, hungarian.anagrams(tiles(h, "K", "Ó", "CS"), partial=False)) == [
        "CSÓK"]
    three = hungarian.pattern("??V")
    assert [len(w) for w in three] == [3] and texts(hungarian, three) == ["SZÍV"]
    four = hungarian.pattern("???V")
    assert texts(hungarian, four) == ["SZÍV"] and len(four[0]) == 4  # S·Z·Í·V
    zs = hungarian.pattern("ZS*")  # the ZS tile, or Z then S: both spellings are words
    assert texts(hungarian, zs) == ["ZSÁK", "ZSÁK"] and sorted(map(len, zs)) == [3, 4]
    assert {len(w) for w in hungarian.ending_with(tiles(h, "SZ"))} == {2}


def test_multiletter_kwg_round_trips_with_its_alphabet(tmp_path: Path, spanish: Lexicon) -> None:
    spanish.save(tmp_path / "es-sample.kwg")
    again = Lexicon.load(tmp_path / "es-sample.kwg")
    assert again.alphabet == SPANISH and again.name == "es-sample"
    assert {again.format(w) for w in again.words()} == {spanish.format(w) for w in spanish.words()}
