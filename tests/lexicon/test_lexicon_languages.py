"""Other languages: normalisation per language, and ``install`` from Debian's word lists
(simulated here with small files laid out like the packages')."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from tessera.cli import main
from tessera.lexicon import Lexicon, LexiconError
from tessera.lexicon.languages import LANGUAGES, install, normalizer
from tessera.tiles import tileset


def norm(code: str, entry: str) -> str:
    lang = LANGUAGES[code]
    return normalizer(tileset(lang.name).alphabet, keep_capitalised=lang.keep_capitalised)(entry)


def test_accents_are_stripped_except_the_tile_sets_own_letters() -> None:
    assert norm("fr", "surédifieriez") == "SUREDIFIERIEZ"
    assert norm("fr", "cœur") == "COEUR"
    assert norm("it", "conformità") == "CONFORMITA"
    assert norm("pl", "wyolbrzymiałyby") == "WYOLBRZYMIAŁYBY"  # Ł is a Polish tile
    assert norm("de", "Straße") == "STRASSE"  # ß becomes SS
    assert norm("de", "Ärger") == "ÄRGER"  # Ä is a German tile; nouns keep their capital
    assert norm("es", "año") == "AÑO" and norm("es", "camión") == "CAMION"


def test_names_abbreviations_and_punctuation_are_left_out_with_a_reason() -> None:
    with pytest.raises(ValueError, match="capitalised"):
        norm("fr", "Paris")
    with pytest.raises(ValueError, match="all capitals"):
        norm("de", "USA")
    with pytest.raises(ValueError, match="'-'"):
        norm("fr", "vert-de-griserez")
    with pytest.raises(ValueError, match="\"'\""):
        norm("it", "po'")


def test_install_french_from_a_dict_file(tmp_path: Path) -> None:
    root = tmp_path / "dict"
    root.mkdir()
    (root / "french").write_text(
        "été\nEurope\ncœur\naujourd'hui\nmangé\nmange\nx\nzèbre\n", encoding="utf-8"
    )
    target = tmp_path / "lexicons"
    done = install("fr", root=root, target=target)
    assert done.path == target / "fr.kwg"
    assert "4 words" in done.summary  # ETE, COEUR, MANGE (twice, merged), ZEBRE
    meta = json.loads((target / "fr.json").read_text(encoding="utf-8"))
    assert meta["alphabet"] == "french" and meta["rejected"] == 3
    lex = Lexicon.load(target / "fr.kwg")
    assert lex.name == "fr" and lex.alphabet.name == "french"
    assert "ETE" in lex and "été" in lex and "zèbre" in lex and "EUROPE" not in lex
    again = install("fr", root=root, target=target)
    assert "already installed" in again.summary


def test_install_explains_missing_packages(tmp_path: Path) -> None:
    with pytest.raises(LexiconError, match="sudo apt-get install wngerman"):
        install("de", root=tmp_path, target=tmp_path / "out")
    with pytest.raises(LexiconError, match="no language 'xx'"):
        install("xx", root=tmp_path, target=tmp_path / "out")
    with pytest.raises(LexiconError, match="hunspell-es hunspell-tools"):
        install("es", root=tmp_path, target=tmp_path / "out")


@pytest.mark.skipif(shutil.which("unmunch") is None, reason="needs hunspell-tools' unmunch")
def test_install_spanish_expands_hunspell_affixes(tmp_path: Path) -> None:
    root = tmp_path / "hunspell"
    root.mkdir()
    (root / "es_ES.aff").write_text("SET UTF-8\n\nSFX S Y 1\nSFX S 0 s [^s]\n", encoding="utf-8")
    (root / "es_ES.dic").write_text("3\nchico/S\nllama/S\ncarro\n", encoding="utf-8")
    install("es", root=root, target=tmp_path / "lex")
    lex = Lexicon.load(tmp_path / "lex" / "es.kwg")
    assert {lex.format(w) for w in lex.words()} == {"CHICO", "CHICOS", "LLAMA", "LLAMAS", "CARRO"}
    ch = lex.alphabet.letter("CH")
    assert lex.contains([ch, *lex.alphabet.parse("ICO")])


def test_cli_install_reports_missing_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tessera.lexicon.languages as languages

    monkeypatch.setattr(languages, "DICT", tmp_path)
    result = CliRunner().invoke(main, ["lexicon", "install", "pl"])
    assert result.exit_code != 0 and "apt-get install wpolish" in result.stderr


def fake_hunspell(tmp_path: Path) -> Path:
    root = tmp_path / "hunspell"
    root.mkdir()
    # stems with flags and morphology: "gyöngyszem" is in no frequency list, "zsebx" is no
    # word, "üzem közben" two
    (root / "hu_HU.dic").write_text(
        "4\nszív/1\t1\ngyöngyszem/2\t7\nzsebx/3\nüzem közben/4\t1\n", encoding="utf-8"
    )
    (root / "hu_HU.aff").write_text("SET UTF-8\n", encoding="utf-8")
    return root


def test_hungarian_explains_missing_python_packages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tessera.lexicon.languages as languages

    monkeypatch.setattr(languages.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(LexiconError, match="pip install spylls wordfreq"):
        install("hu", root=fake_hunspell(tmp_path), target=tmp_path / "lex")


def test_hungarian_list_is_wordfreq_and_dictionary_stems_filtered_by_hunspell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """spylls and wordfreq are optional; stand-ins with their interfaces drive the build."""
    import sys
    import types

    import tessera.lexicon.languages as languages

    valid = {"szív", "csók", "gyöngy", "ősz", "szívemet", "gyöngyszem", "üzem közben"}
    frequent = ["a", "szív", "csók", "xqz", "gyöngy", "ősz", "Budapest"]

    class Dictionary:
        @classmethod
        def from_files(cls, base: str) -> Dictionary:
            assert base.endswith("hu_HU")
            return cls()

        def lookup(self, word: str) -> bool:
            return word in valid

    wordfreq = types.ModuleType("wordfreq")
    wordfreq.top_n_list = lambda lang, n, wordlist="best": frequent[:n]  # type: ignore[attr-defined]
    spylls = types.ModuleType("spylls")
    hunspell = types.ModuleType("spylls.hunspell")
    hunspell.Dictionary = Dictionary  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "wordfreq", wordfreq)
    monkeypatch.setitem(sys.modules, "spylls", spylls)
    monkeypatch.setitem(sys.modules, "spylls.hunspell", hunspell)
    monkeypatch.setattr(languages.importlib.util, "find_spec", lambda name: object())

    root = fake_hunspell(tmp_path)
    done = install("hu", root=root, target=tmp_path / "lex")
    assert "5 of 9 words pass Hunspell" in done.messages[0]
    assert "7 wordfreq words and 3 dictionary stems" in done.messages[0]
    lex = Lexicon.load(tmp_path / "lex" / "hu.kwg")
    assert lex.alphabet.name == "hungarian"
    graph = {lex.format(w) for w in lex.words()}
    # every spelling of each (CS or C·S ...); the two-word entry is left out
    assert graph == {"SZÍV", "CSÓK", "GYÖNGY", "ŐSZ", "GYÖNGYSZEM"}
    assert len(lex) > 4
    # human plays may also be checked by Hunspell: a valid form outside the finite list
    assert lex.checker is not None
    assert "szívemet" in lex and not lex.kwg.contains(lex.alphabet.parse("SZÍVEMET"))
    assert "xqz" not in lex


def test_a_list_too_big_for_one_kwg_is_explained(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tessera.lexicon.languages as languages
    from tessera.lexicon import KwgError

    def too_big(words: object, **_: object) -> bytes:
        raise KwgError("word graph needs more than 2^22 nodes (the KWG limit)")

    monkeypatch.setattr(languages, "build_bytes", too_big)
    root = tmp_path / "dict"
    root.mkdir()
    (root / "polish").write_text("żółw\nkot\nkomputer\n", encoding="utf-8")
    with pytest.raises(LexiconError, match=r"3 words are too many.*max-length \(now 15\)"):
        install("pl", root=root, target=tmp_path / "lex", shrink=False)
    with pytest.raises(LexiconError, match=r"3 words are too many.*max-length \(now 7\)"):
        install("pl", root=root, target=tmp_path / "lex")


def test_a_list_too_big_for_one_kwg_sheds_its_longest_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tessera.lexicon.languages as languages
    from tessera.lexicon import KwgError

    real = languages.build_bytes

    def limited(words: list[bytes], **kw: bool) -> bytes:
        if any(len(w) > 6 for w in words):  # stands in for the 2^22-node limit
            raise KwgError("word graph needs more than 2^22 nodes (the KWG limit)")
        return real(words, **kw)

    monkeypatch.setattr(languages, "build_bytes", limited)
    root = tmp_path / "dict"
    root.mkdir()
    (root / "polish").write_text("żółw\nkot\nkomputer\n", encoding="utf-8")
    done = install("pl", root=root, target=tmp_path / "lex")
    assert any("keeping words up to 7 tiles" in m for m in done.messages)
    assert "kept 2 spellings of up to 7 tiles" in done.summary
    lex = Lexicon.load(tmp_path / "lex" / "pl.kwg")
    assert "żółw" in lex and "KOT" in lex and "komputer" not in lex


def test_a_list_too_big_for_the_move_generator_sheds_its_longest_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The compiled generator keeps its own copy of the graph, two words larger per sibling
    list; a list whose copy outgrows the 22-bit arc index (Dutch, Polish) would install but
    no computer could play it, so the installer sheds long words until the copy fits too."""
    import tessera.lexicon.languages as languages
    from tessera.lexicon.kwg import move_generator_size

    root = tmp_path / "dict"
    root.mkdir()
    (root / "polish").write_text("żółw\nkot\nkomputer\n", encoding="utf-8")
    whole = install("pl", root=root, target=tmp_path / "whole")
    size = move_generator_size(Lexicon.load(whole.path).kwg.nodes)
    monkeypatch.setattr(languages, "ARC_MASK", size - 1)  # the whole list just misses
    done = install("pl", root=root, target=tmp_path / "lex")
    assert any("keeping words up to 7 tiles" in m for m in done.messages)
    lex = Lexicon.load(tmp_path / "lex" / "pl.kwg")
    assert "komputer" not in lex and "KOT" in lex
    assert move_generator_size(lex.kwg.nodes) <= size - 1


def test_the_generators_copy_of_a_graph_is_counted_with_its_mask_words() -> None:
    """ENABLE's copy: every reachable sibling list once, plus two mask words each — larger
    than the graph, within the 22-bit index (the compiled generator takes it; the Dutch
    list's 4.9 M words did not, and the core refused it)."""
    from tessera.lexicon.kwg import ARC_MASK, move_generator_size

    nodes = Lexicon.load("enable").kwg.nodes
    size = move_generator_size(nodes)
    assert len(nodes) < size <= ARC_MASK
