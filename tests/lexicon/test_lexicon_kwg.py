"""KWG byte layout, builders (compiled vs reference), walking, and malformed files."""

from __future__ import annotations

import random
import struct
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tessera.lexicon import Kwg, KwgError, Lexicon, accepts, arc_index, is_end, tile
from tessera.lexicon import kwg as kwgmod
from tessera.lexicon.kwg import (
    ACCEPTS_BIT,
    END_BIT,
    build_bytes,
    build_reference,
    check_reference,
    gaddag_strings,
    make_node,
)
from tessera.tiles import Alphabet, tileset

ENGLISH = tileset("english").alphabet
A, B, C, D, E, R, S, T = (ENGLISH.letter(x) for x in "ABCDERST")


def node(t: int, arc: int = 0, *, acc: bool = False, end: bool = False) -> int:
    return (t << 24) | (ACCEPTS_BIT if acc else 0) | (END_BIT if end else 0) | arc


def pack(nodes: list[int]) -> bytes:
    return struct.pack(f"<{len(nodes)}I", *nodes)


def entries(kwg: Kwg, root: int) -> set[tuple[int, ...]]:
    return set(kwg.paths(root))


def test_node_helpers_decode_each_field() -> None:
    n = make_node(26, 12345, accepting=True, end=False)
    assert (tile(n), arc_index(n), accepts(n), is_end(n)) == (26, 12345, True, False)
    n = make_node(0, 0, accepting=False, end=True)
    assert (tile(n), arc_index(n), accepts(n), is_end(n)) == (0, 0, False, True)
    with pytest.raises(KwgError, match="22 bits"):
        make_node(1, 1 << 22, accepting=False, end=True)


def test_hand_built_kwg_loads_and_answers(tmp_path: Path) -> None:
    # Words AT and CAT. DAWG: root [A, C]; A -> [T*]; C -> [A]; that A -> [T*] (shared).
    # GADDAG entries: AT: "A|T" = [A,0,T], "TA" = [T,A]; CAT: [C,0,A,T], [A,C,0,T], [T,A,C].
    t_acc = 2  # [T*]
    dawg_c = 3  # [A -> 2]
    dawg_root = 4  # [A -> 2, C -> 3]
    g_t = 6  # [T*] after separator (index 6)
    g_sep_t = 7  # [0 -> 6]
    g_c_list = 8  # after "TA": [C*] ; after "A": [0 -> g_t, C -> 9]
    g_after_ac = 9  # [0 -> 6]
    g_after_a = 10  # [0 -> 6, C -> 9]
    g_after_ta = 12  # [C*] accepting ends "TA" too: TA is stored on the A node
    g_after_t = 13  # [A* -> 8]
    g_after_c = 14  # [0 -> 15]
    g_c_sep = 15  # [A -> 16]
    g_c_sep_a = 16  # [T*]
    g_root = 17  # [A -> 10, C -> 14, T -> 13]
    nodes = [0] * 20
    nodes[0] = node(0, dawg_root, end=True)
    nodes[1] = node(0, g_root, end=True)
    nodes[t_acc] = node(T, acc=True, end=True)
    nodes[dawg_c] = node(A, t_acc, end=True)
    nodes[dawg_root] = node(A, t_acc)
    nodes[dawg_root + 1] = node(C, dawg_c, end=True)
    nodes[g_t] = node(T, acc=True, end=True)
    nodes[g_sep_t] = node(0, g_t, end=True)
    nodes[g_c_list] = node(C, acc=True, end=True)
    nodes[g_after_ac] = node(0, g_t, end=True)
    nodes[g_after_a] = node(0, g_t)
    nodes[g_after_a + 1] = node(C, g_after_ac, end=True)
    nodes[g_after_ta] = node(C, acc=True, end=True)
    nodes[g_after_t] = node(A, g_after_ta, acc=True, end=True)
    nodes[g_after_c] = node(0, g_c_sep, end=True)
    nodes[g_c_sep] = node(A, g_c_sep_a, end=True)
    nodes[g_c_sep_a] = node(T, acc=True, end=True)
    nodes[g_root] = node(A, g_after_a)
    nodes[g_root + 1] = node(C, g_after_c)
    nodes[g_root + 2] = node(T, g_after_t, end=True)
    path = tmp_path / "hand.kwg"
    path.write_bytes(pack(nodes))

    kwg = Kwg.load(path)
    assert kwg.dawg_root == dawg_root and kwg.gaddag_root == g_root
    assert set(kwg.words()) == {(A, T), (C, A, T)}
    assert kwg.contains([C, A, T]) and kwg.contains([A, T])
    assert not kwg.contains([C, A]) and not kwg.contains([T])
    expected = {s for w in (bytes([A, T]), bytes([C, A, T])) for s in gaddag_strings(w)}
    assert entries(kwg, kwg.gaddag_root) == {tuple(s) for s in expected}
    for s in expected:
        assert kwg.gaddag_contains(list(s))

    lex = Lexicon.load(path, alphabet="english")
    assert lex.name == "hand"
    assert "cat" in lex and "AT" in lex and "TA" not in lex
    assert [lex.format(w) for w in lex.anagrams("TCA?", partial=False)] == []
    assert sorted(lex.format(w) for w in lex.anagrams("TCA")) == ["AT", "CAT"]
    assert [lex.format(w) for w in lex.pattern("?AT")] == ["CAT"]
    assert [lex.format(w) for w in lex.ending_with("AT")] == ["AT", "CAT"]
    assert lex.has_anagram([T, C, A]) and not lex.has_anagram([T, C])


def test_lists_sharing_a_tail_load(tmp_path: Path) -> None:
    """Other builders may point into the middle of a list whose tail is another node's
    children (AB, AC, BC: B's children [C*] are the tail of A's [B*, C*])."""
    nodes = [
        node(0, 4, end=True),
        node(0, 0, end=True),
        node(B, acc=True),
        node(C, acc=True, end=True),
        node(A, 2),
        node(B, 3, end=True),
    ]
    kwg = Kwg(pack(nodes))
    assert set(kwg.words()) == {(A, B), (A, C), (B, C)}
    assert kwg.contains([B, C]) and not kwg.contains([B, B])
    lex = Lexicon(kwg, ENGLISH, "shared")
    assert sorted(lex.format(w) for w in lex.anagrams("ABC")) == ["AB", "AC", "BC"]


def test_layout_of_a_small_build_is_exactly_as_specified() -> None:
    # DAWG only, words AB and CB: the [B*] list is shared by both roots' arcs.
    data = build_bytes([bytes([A, B]), bytes([C, B])], gaddag=False)
    nodes = list(struct.unpack(f"<{len(data) // 4}I", data))
    assert nodes == [
        node(0, 3, end=True),
        node(0, 0, end=True),
        node(B, acc=True, end=True),
        node(A, 2),
        node(C, 2, end=True),
    ]


def test_wolges_gaddag_convention() -> None:
    w = bytes([C, A, T])
    assert list(gaddag_strings(w)) == [
        bytes([C, 0, A, T]),
        bytes([A, C, 0, T]),
        bytes([T, A, C]),  # whole word reversed, no separator
    ]


def random_words(rng: random.Random, n: int, letters: int = 6, longest: int = 7) -> list[bytes]:
    return [
        bytes(rng.randint(1, letters) for _ in range(rng.randint(1, longest))) for _ in range(n)
    ]


@pytest.mark.parametrize("seed", range(8))
def test_compiled_and_reference_builders_are_byte_identical(seed: int) -> None:
    rng = random.Random(seed)
    words = random_words(rng, rng.randint(0, 300), letters=rng.randint(2, 30))
    assert kwgmod._native is not None
    for dawg, gaddag in ((True, True), (True, False), (False, True)):
        assert build_bytes(words, dawg=dawg, gaddag=gaddag) == build_reference(
            words, dawg=dawg, gaddag=gaddag
        )


@settings(max_examples=60, deadline=None)
@given(st.lists(st.binary(min_size=1, max_size=6).map(lambda b: bytes(1 + x % 5 for x in b))))
def test_build_holds_exactly_the_words(words: list[bytes]) -> None:
    kwg = Kwg(build_bytes(words))
    assert set(kwg.words()) == {tuple(w) for w in words}
    assert kwg.count() == len(set(words))
    expected = {tuple(s) for w in set(words) for s in gaddag_strings(w)}
    assert set(kwg.paths(kwg.gaddag_root)) == expected
    assert check_reference(kwg.nodes) == ""
    assert build_reference(words) == kwg.to_bytes()
    assert kwg.verify(words) == ""


def test_graph_is_minimal_for_shared_suffixes() -> None:
    # Every list of the DAWG is distinct: no two equal sibling lists are stored twice.
    rng = random.Random(5)
    kwg = Kwg(build_bytes(random_words(rng, 400), gaddag=True))
    seen = set()
    start = 2
    nodes = kwg.nodes
    while start < len(nodes):
        end = start
        while not nodes[end] & END_BIT:
            end += 1
        lst = tuple(nodes[start : end + 1])
        assert lst not in seen
        seen.add(lst)
        start = end + 1


def test_tessera_kwg_reloads_to_the_same_words(tmp_path: Path) -> None:
    rng = random.Random(9)
    words = random_words(rng, 500, letters=26, longest=12)
    kwg = Kwg.build(words)
    kwg.save(tmp_path / "x.kwg")
    again = Kwg.load(tmp_path / "x.kwg")
    assert set(again.words()) == {tuple(w) for w in words}
    assert again.to_bytes() == kwg.to_bytes()
    again.close()


@pytest.mark.parametrize(
    ("nodes", "message"),
    [
        ([node(0, 0, end=True)], "at least 2 nodes"),
        ([node(0, 2, end=True), node(0, 0, end=True), node(A, 9, acc=True, end=True)],
         "arc index 9 is past the end"),
        ([node(0, 2, end=True), node(0, 0, end=True), node(A, acc=True)],
         "runs past the end"),
        ([node(0, 2, end=True), node(0, 0, end=True), node(B, acc=True),
          node(A, acc=True, end=True)], "not sorted"),
        ([node(0, 2, end=True), node(0, 0, end=True), node(A, 3), node(B, 2, end=True)],
         "cycle"),
        ([node(0, 2, end=True), node(0, 2, end=True), node(A, 2, acc=True, end=True)],
         "cycle"),
    ],
)
def test_malformed_kwg_is_rejected_with_the_reason(
    tmp_path: Path, nodes: list[int], message: str
) -> None:
    assert message in check_reference(nodes)
    path = tmp_path / "bad.kwg"
    path.write_bytes(pack(nodes))
    with pytest.raises(KwgError, match=message) as info:
        Kwg.load(path)
    assert "bad.kwg" in str(info.value)


def test_too_deep_graph_is_rejected() -> None:
    chain = [node(0, 2, end=True), node(0, 0, end=True)]
    for i in range(300):
        chain.append(node(A, len(chain) + 1 if i < 299 else 0, acc=True, end=True))
    assert "longer than 255" in check_reference(chain)
    with pytest.raises(KwgError, match="longer than 255"):
        Kwg(pack(chain))


def test_truncated_and_empty_files(tmp_path: Path) -> None:
    (tmp_path / "odd.kwg").write_bytes(b"\x00" * 10)
    with pytest.raises(KwgError, match="whole 4-byte nodes"):
        Kwg.load(tmp_path / "odd.kwg")
    (tmp_path / "empty.kwg").write_bytes(b"")
    with pytest.raises(KwgError, match="empty file"):
        Kwg.load(tmp_path / "empty.kwg")
    with pytest.raises(KwgError, match="cannot read"):
        Kwg.load(tmp_path / "missing.kwg")


def test_graph_with_tiles_outside_the_alphabet_names_the_problem(tmp_path: Path) -> None:
    path = tmp_path / "wide.kwg"
    Kwg.build([bytes([40, 41])]).save(path)
    with pytest.raises(KwgError, match="tile 41"):
        Lexicon.load(path, alphabet="english")
    wide = Alphabet("wide", tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + tuple("ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎ"))
    lex = Lexicon.load(path, alphabet=wide)
    assert lex.contains([40, 41]) and lex.format([40, 41]) == "ÍÎ"


def test_verify_names_the_first_difference() -> None:
    kwg = Kwg.build([bytes([C, A, T]), bytes([A, T])])
    assert kwg.verify([[C, A, T], [A, T]]) == ""
    assert kwg.verify([[C, A, T], [A, T], [T, A]]) == f"the DAWG lacks word {[T, A]}"
    assert kwg.verify([[C, A, T]]) == "the DAWG holds 2 words, not 1"
    dawg_only = Kwg.build([bytes([A, T])], gaddag=False)
    assert dawg_only.verify([[A, T]]) == f"the GADDAG lacks entry 1 of word {[A, T]}"
    native, kwgmod._native = kwgmod._native, None
    try:  # the pure-Python path says the same
        assert kwg.verify([[C, A, T], [A, T], [T, A]]) == f"the DAWG lacks word {[T, A]}"
        assert dawg_only.verify([[A, T]]) == f"the GADDAG lacks entry 1 of word {[A, T]}"
    finally:
        kwgmod._native = native


def test_empty_word_list_builds_an_empty_graph() -> None:
    kwg = Kwg.build([])
    assert len(kwg) == 2 and kwg.dawg_root == 0 and kwg.gaddag_root == 0
    assert list(kwg.words()) == [] and not kwg.contains([A])
