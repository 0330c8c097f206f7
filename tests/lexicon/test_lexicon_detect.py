"""Issue 9, item 10: a lexicon file is told by its content, and what is no word list in the
chosen alphabet is refused with a message saying what it is — never read as a text list,
never cached, never loaded silently as English."""

from __future__ import annotations

import gzip
import os
import struct
import sys
import time
from pathlib import Path

import pytest

from tessera.lexicon import KlvError, Kwg, KwgError, Leaves, Lexicon, LexiconError, cache_dir
from tessera.lexicon import wordlist as wordlistmod
from tessera.lexicon.detect import FileKind, detect_bytes, detect_file
from tessera.lexicon.kwg import ARC_MASK, END_BIT, build_bytes, make_node
from tessera.lexicon.vet import fit, has_gaddag, letter_frequencies, tileset_of

SHIPPED_LEAVES = Path(__file__).parents[2] / "src" / "tessera" / "data" / "leaves" / "enable.klv2"
# wolges' Catalan alphabet (src/alphabets/catalan.txt): A B C Ç D E F G H I J L L·L M N NY O P
# QU R S T U V X Z as tiles 1-26 — the same count as English, so only the letters tell.
CATALAN = {ch: i for i, ch in enumerate("ABCÇDEFGHIJL*MN#OPQRSTUVXZ", start=1)}
CATALAN.update(K=CATALAN["Ç"], W=CATALAN["*"], Y=CATALAN["#"])


def cache_entries() -> set[str]:
    folder = cache_dir() / "lexicons"
    return set(os.listdir(folder)) if folder.is_dir() else set()


def refused(spec: Path, kind: type[Exception] = LexiconError) -> str:
    before = cache_entries()
    with pytest.raises(kind) as info:
        Lexicon.load(spec)
    assert cache_entries() == before  # nothing cached for a refused file
    return str(info.value)


def dawg_only_without_pointer(data: bytes) -> bytes:
    """wolges' DawgOnly layout: node 0 points at the DAWG and node 1 is an ordinary node
    (Tessera's gaddag=False graphs keep an empty GADDAG pointer there instead)."""
    nodes = list(struct.unpack(f"<{len(data) // 4}I", data))
    assert nodes[1] == END_BIT  # Tessera's empty GADDAG pointer

    def moved(node: int) -> int:
        arc = node & ARC_MASK
        return node - 1 if arc >= 2 else node

    out = [moved(nodes[0])] + [moved(n) for n in nodes[2:]]
    return struct.pack(f"<{len(out)}I", *out)


@pytest.fixture(scope="module")
def english_words(enable: Lexicon) -> list[bytes]:
    """Every eighth ENABLE word (21,000): plenty for the statistics, quick to build."""
    return [bytes(w) for w in enable.words()][::8]


def test_a_klv2_leave_table_is_not_a_word_list(tmp_path: Path) -> None:
    named_like_a_list = tmp_path / "words.txt"
    named_like_a_list.write_bytes(SHIPPED_LEAVES.read_bytes())
    for path in (SHIPPED_LEAVES, named_like_a_list):
        assert detect_file(path).kind is FileKind.KLV2
        message = refused(path)
        assert message == f"{path}: a KLV2 leave-value table, not a word list (leave tables go " \
            "to --leaves)"


def test_a_program_is_not_a_word_list(tmp_path: Path) -> None:
    program = tmp_path / "words.txt"
    program.write_bytes(Path(sys.executable).read_bytes()[:200_000])
    assert detect_file(program).kind is FileKind.BINARY
    assert "not a word list or word graph: a program" in refused(program)
    junk = tmp_path / "junk.txt"
    junk.write_bytes(b"AA\nAB\n\x00\x01\x02\xff" * 50)
    assert "binary data (a NUL byte at offset 6)" in refused(junk)
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    assert refused(empty) == f"{empty}: an empty file, not a word list"


def test_binary_inside_gzip_and_gzip_bombs_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inside = tmp_path / "inside.txt.gz"
    inside.write_bytes(gzip.compress(b"QI\n\x00\x00ELF"))
    assert "binary data (a NUL byte at offset 3)" in refused(inside)
    monkeypatch.setattr(wordlistmod, "MAX_LIST_BYTES", 1 << 20)
    bomb = tmp_path / "bomb.txt.gz"
    bomb.write_bytes(gzip.compress(b"AA\n" * (1 << 20)))  # 3 MB from 3 KB
    assert bomb.stat().st_size < 20_000
    assert "expands to more than 1,048,576 bytes" in refused(bomb)


def test_content_not_the_name_decides(tmp_path: Path, english_words: list[bytes]) -> None:
    kwg_named_txt = tmp_path / "graph.txt"
    Kwg(build_bytes(english_words[:3000])).save(kwg_named_txt)
    assert detect_file(kwg_named_txt).kind is FileKind.KWG
    assert len(Lexicon.load(kwg_named_txt)) == 3000
    text_named_kwg = tmp_path / "list.kwg"
    text_named_kwg.write_text("QI\nZA\n", encoding="utf-8")
    lex = Lexicon.load(text_named_kwg)
    assert "QI" in lex and "ZA" in lex and len(lex) == 2


def test_a_kwg_for_another_alphabet_is_refused(
    tmp_path: Path, english_words: list[bytes]
) -> None:
    letters = {i: CATALAN[chr(64 + i)] for i in range(1, 27)}
    path = tmp_path / "catalan.kwg"
    Kwg(build_bytes([bytes(letters[t] for t in w) for w in english_words])).save(path)
    assert Kwg.load(path).max_tile() <= 26  # the tile-range check alone lets it through
    message = refused(path, KwgError)
    assert "the word graph's letters do not fit the english alphabet (similarity 0.6" in message
    assert "fit none of Tessera's tile sets" in message


def test_letter_statistics_tell_the_alphabets_apart(enable: Lexicon) -> None:
    kwg = enable.kwg
    freq = letter_frequencies(kwg, kwg.count())
    english = tileset_of(Lexicon.from_words(["QI"]).alphabet)
    assert english is not None and english.name == "english"
    assert fit(freq, english) > 0.93


@pytest.mark.parametrize("layout", ["tessera", "wolges"])
def test_an_alphagram_graph_is_refused(
    tmp_path: Path, english_words: list[bytes], layout: str
) -> None:
    alphagrams = sorted({bytes(sorted(w)) for w in english_words[:5000]})
    data = build_bytes(alphagrams, gaddag=False)
    if layout == "wolges":  # wolges' -kwg-alpha writes DawgOnly: no node-1 pointer
        data = dawg_only_without_pointer(data)
    path = tmp_path / "words.kad"
    path.write_bytes(data)
    message = refused(path, KwgError)
    assert "an alphagram graph (all" in message and "not a word list" in message


def test_a_dawg_only_graph_gets_its_gaddag(tmp_path: Path, english_words: list[bytes]) -> None:
    words = english_words[:4000]
    path = tmp_path / "dawg.kwg"
    path.write_bytes(dawg_only_without_pointer(build_bytes(words, gaddag=False)))
    lex = Lexicon.load(path)
    assert has_gaddag(lex.kwg) and len(lex) == 4000
    assert lex.kwg.verify(words) == ""  # DAWG and GADDAG hold exactly the words


def test_an_exploding_graph_is_refused(tmp_path: Path) -> None:
    nodes = [END_BIT | 2, END_BIT]  # 40 levels of two arcs each: 2^40 paths in 82 nodes
    for level in range(40):
        child = len(nodes) + 2 if level < 39 else 0
        nodes += [make_node(1, child, accepting=False, end=False),
                  make_node(2, child, accepting=level == 39, end=True)]
    path = tmp_path / "bomb.kwg"
    path.write_bytes(struct.pack(f"<{len(nodes)}I", *nodes))
    message = refused(path, KwgError)
    assert "the DAWG spells more than 268435456 paths" in message


def test_leave_tables_are_told_from_other_files(tmp_path: Path) -> None:
    with pytest.raises(KlvError, match="a KWG word graph, not a KLV2 leave-value table"):
        Leaves.from_bytes(build_bytes([b"\x01\x02"]))
    with pytest.raises(KlvError, match="a text word list, not a KLV2"):
        Leaves.from_bytes(b"QI\nZA\n")
    old = b"".join((struct.pack("<I", 2), struct.pack("<2I", END_BIT, END_BIT),
                    struct.pack("<I", 3), b"\x00\x01" * 3))
    assert detect_bytes(old).kind is FileKind.KLV
    with pytest.raises(KlvError, match="16-bit values"):
        Leaves.from_bytes(old)
    nan = bytearray(SHIPPED_LEAVES.read_bytes())
    nan[-4:] = struct.pack("<f", float("nan"))
    with pytest.raises(KlvError, match="not a finite number"):
        Leaves.from_bytes(bytes(nan))


def test_cached_load_stays_fast(enable: Lexicon) -> None:
    Lexicon.load("enable")
    best = min(_timed(lambda: Lexicon.load("enable")) for _ in range(5))
    assert best < 0.050


def _timed(action) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def test_real_graphs_still_load(tmp_path: Path, enable: Lexicon) -> None:
    path = tmp_path / "enable.kwg"
    enable.kwg.save(path)
    lex = Lexicon.load(path)
    assert len(lex) == len(enable) and "QUIXOTRY" in lex
    spanish = Lexicon.from_words(["CHICO", "LLAMA", "ZORRO", "AÑO"], "spanish")
    small = tmp_path / "es.kwg"
    spanish.save(small)  # a few words: too few to judge the letters, loaded as described
    assert len(Lexicon.load(small)) == len(spanish)
    with pytest.raises(KwgError, match="tile 28"):
        Lexicon.load(small, alphabet="english")
    assert Kwg.load(small).path == small
