"""Is a KWG from elsewhere a word list Tessera can play with, in the alphabet it is given?

A ``.kwg`` carries no alphabet: tile 5 is E in English and D in Catalan (wolges numbers
Catalan A B C Ç D …). Loaded with the wrong alphabet, a graph plays gibberish without any
error, and so does a graph of alphagrams (wolges' ``-kwg-alpha`` output, every entry's letters
sorted) loaded as words. :func:`vet_word_graph` catches both and handles the layouts peers
write:

* **Layout.** wolges and MAGPIE put the DAWG root pointer in node 0 and, in a full graph, the
  GADDAG root pointer in node 1 (tile 0, end bit, not accepting). A DAWG-only graph (wolges
  ``BuildContent::DawgOnly``) has no node-1 pointer: node 1 is an ordinary node. Tessera's move
  generator needs the GADDAG, so for a DAWG-only graph one is built from its words.
* **Alphagrams.** A graph of 50 or more words in which every word's tiles are in ascending
  order is an alphagram graph, not a word list, and is refused.
* **Letters.** The tile counts of a tile set follow its language's letter frequencies, so the
  letters of a real word list correlate with them (ENABLE against the English set: cosine
  0.96; a list in another numbering: 0.57–0.79). A graph of 1,000 or more words whose sampled
  letters correlate below 0.85 with the alphabet's tile set is refused, naming the shipped
  tile set its letters fit best, if any fits.
* **Size.** More than :data:`MAX_WORDS` words is refused (walks that list words must end).
* **No alphabet given.** A ``.kwg`` loaded with neither an alphabet nor a description
  (``NAME.json``) is taken for English only when its letters show it: a graph of fewer than
  :data:`LETTER_CHECK_MIN_WORDS` words is too small to tell (CHICO, LLAMA, PERRO and AÑO in
  Spanish numbering read as English DJCQ…), so it is refused, naming the flag that says which
  alphabet it is. Every refusal for the alphabet names that flag.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tessera.lexicon import kwg as kwgmod
from tessera.lexicon.errors import KwgError
from tessera.lexicon.kwg import ACCEPTS_BIT, ARC_MASK, END_BIT, TILE_SHIFT, Kwg, build_bytes
from tessera.tiles import Alphabet, TileSet, available_tilesets, tileset

MAX_WORDS = 1 << 24  # the largest real lists hold a few million words
ALPHAGRAM_MIN_WORDS = 50
LETTER_CHECK_MIN_WORDS = 1000
LETTER_SAMPLES = 600  # 3,000-4,000 letters: the fit varies by < 0.01 from 600 to 1,500
MIN_LETTER_FIT = 0.85
MIN_SUGGEST_FIT = 0.93  # a KWG for another numbering can fit a related alphabet at ~0.9


def _is_root_pointer(node: int) -> bool:
    return node >> TILE_SHIFT == 0 and bool(node & END_BIT) and not node & ACCEPTS_BIT


def has_gaddag(kwg: Kwg) -> bool:
    """True if node 1 is a GADDAG root pointer with a GADDAG behind it."""
    return len(kwg.nodes) >= 2 and _is_root_pointer(kwg.nodes[1]) and kwg.gaddag_root != 0


def is_alphagram_graph(kwg: Kwg) -> bool:
    """True if along every DAWG path the tiles never decrease (a graph of alphagrams)."""
    nodes = kwg.nodes
    seen: set[int] = set()
    pending = [kwg.dawg_root] if kwg.dawg_root else []
    while pending:
        start = pending.pop()
        if start in seen:
            continue
        seen.add(start)
        i = start
        while True:
            node = nodes[i]
            child = node & ARC_MASK
            if child:
                if nodes[child] >> TILE_SHIFT < node >> TILE_SHIFT:
                    return False  # lists are sorted: the first child has the smallest tile
                pending.append(child)
            if node & END_BIT:
                break
            i += 1
    return True


def letter_frequencies(kwg: Kwg, words: int, samples: int = LETTER_SAMPLES) -> list[int]:
    """Tile counts (index = tile id) over ``samples`` words evenly spread through the DAWG."""
    counts = kwg.word_counts()
    freq = [0] * 256
    n = min(samples, words)
    for s in range(n):
        for t in kwg.word_at((2 * s + 1) * words // (2 * n), counts):
            freq[t] += 1
    return freq


def fit(freq: Sequence[int], tiles: TileSet) -> float:
    """Cosine similarity of letter frequencies with the tile set's letter counts."""
    size = len(tiles.alphabet)
    ours = [freq[t] for t in range(1, size + 1)]
    theirs = [tiles.counts[t] for t in range(1, size + 1)]
    outside = sum(freq[size + 1 :])
    dot = sum(a * b for a, b in zip(ours, theirs, strict=True))
    norm = math.sqrt((sum(a * a for a in ours) + outside * outside) * sum(b * b for b in theirs))
    return dot / norm if norm else 0.0


def tileset_of(alphabet: Alphabet) -> TileSet | None:
    """A shipped tile set with exactly this alphabet (its letter counts stand for the
    language's letter frequencies), or None for a custom alphabet."""
    for name in available_tilesets():
        ts = tileset(name)
        if ts.alphabet.labels == alphabet.labels and ts.alphabet.name == alphabet.name:
            return ts
    for name in available_tilesets():
        ts = tileset(name)
        if ts.alphabet.labels == alphabet.labels:
            return ts
    return None


def _best_fitting(freq: Sequence[int], top: int) -> tuple[str, float] | None:
    best: tuple[str, float] | None = None
    seen: set[tuple[str, ...]] = set()
    for name in available_tilesets():
        ts = tileset(name)
        if ts.alphabet.labels in seen or len(ts.alphabet) < top:
            continue
        seen.add(ts.alphabet.labels)
        score = fit(freq, ts)
        if best is None or score > best[1]:
            best = (ts.alphabet.name, score)
    return best if best is not None and best[1] >= MIN_SUGGEST_FIT else None


def pass_alphabet(name: str = "NAME") -> str:
    """How to say which alphabet a word graph is in, for any command: the ``--alphabet`` flag
    where a command takes one, and ``tessera lexicon add``, which keeps the graph with its
    description in the lexicon directory for the others (``serve``, ``moves``, ``gcg``)."""
    return (f"pass --alphabet {name}, or install it with `tessera lexicon add FILE --alphabet "
            f"{name}` and use it by name")


def vet_word_graph(kwg: Kwg, alphabet: Alphabet, where: str, declared: bool = True) -> Kwg:
    """The graph to play with: ``kwg`` itself, or a full KWG built from the words of a
    DAWG-only one. Raises :class:`KwgError` saying what the graph is when it is not a word list
    in ``alphabet`` (see the module docstring). ``declared`` is False when no one said which
    alphabet the graph is in (``alphabet`` is the default). ``kwg`` must have passed the
    structure check."""
    top = kwg.max_tile()
    words = kwg.count()
    if words > MAX_WORDS:
        raise KwgError(f"{where}: the word graph holds {words:,} words; more than {MAX_WORDS:,} "
                       "is not a word list")
    if top > len(alphabet):
        best = (
            _best_fitting(letter_frequencies(kwg, words), top)
            if words >= LETTER_CHECK_MIN_WORDS else None
        )
        fits = f"; its letters fit the {best[0]} alphabet ({best[1]:.2f})" if best else ""
        raise KwgError(
            f"{where}: the word graph uses tile {top}, but the {alphabet.name} alphabet has "
            f"only {len(alphabet)} letters{fits}: {pass_alphabet(best[0] if best else 'NAME')}"
        )
    if not declared and words < LETTER_CHECK_MIN_WORDS:
        alphabets = sorted({tileset(n).alphabet.name for n in available_tilesets()})
        raise KwgError(
            f"{where}: no alphabet given and no description beside it, and a graph of "
            f"{words:,} words is too small to tell its alphabet by its letters: "
            f"{pass_alphabet()} ({', '.join(alphabets)})"
        )
    if words >= ALPHAGRAM_MIN_WORDS and is_alphagram_graph(kwg):
        raise KwgError(
            f"{where}: an alphagram graph (all {words:,} entries have their letters in "
            "alphabetical order, as in wolges' -kwg-alpha output), not a word list"
        )
    tiles = tileset_of(alphabet)
    if tiles is not None and words >= LETTER_CHECK_MIN_WORDS:
        freq = letter_frequencies(kwg, words)
        score = fit(freq, tiles)
        if score < MIN_LETTER_FIT:
            best = _best_fitting(freq, top)
            hint = (
                f"they fit the {best[0]} alphabet ({best[1]:.2f}): {pass_alphabet(best[0])}"
                if best is not None
                else "they fit none of Tessera's tile sets: the graph is numbered for another "
                "alphabet (a Catalan or Norwegian KWG, say), which Tessera has no tile set for"
            )
            raise KwgError(
                f"{where}: the word graph's letters do not fit the {alphabet.name} alphabet "
                f"(similarity {score:.2f} to its tile set, below {MIN_LETTER_FIT}); {hint}"
            )
    if has_gaddag(kwg):
        return kwg
    # DAWG only (Tessera's own with an empty GADDAG pointer, or wolges' DawgOnly layout with
    # no pointer at all): build the GADDAG the move generator walks
    if kwgmod._native is not None:
        listed = list(kwgmod._native.kwg_words(kwg.nodes, kwg.dawg_root, False))
    else:
        listed = [bytes(w) for w in kwg.words()]
    try:
        return Kwg(build_bytes(listed), check=False)
    except KwgError as exc:
        raise KwgError(f"{where}: {exc}") from None


__all__ = [
    "MAX_WORDS",
    "fit",
    "has_gaddag",
    "is_alphagram_graph",
    "letter_frequencies",
    "pass_alphabet",
    "tileset_of",
    "vet_word_graph",
]
