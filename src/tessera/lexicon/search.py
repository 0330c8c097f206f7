"""Searches over a KWG, in tiles: anagrams (with blanks, sub-anagrams), patterns, and affix
searches that use the GADDAG half. The compiled core runs anagrams; these are the reference."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from tessera.lexicon.kwg import ACCEPTS_BIT, ARC_MASK, SEPARATOR, TILE_SHIFT, Kwg, _native
from tessera.tiles import BLANK_BIT

ANY = -1  # pattern token: exactly one tile
RUN = -2  # pattern token: any run of tiles, possibly empty


def anagrams_reference(
    kwg: Kwg, counts: Sequence[int], *, min_length: int = 1, exact: bool = False
) -> list[tuple[int, ...]]:
    """Words spelled from a rack given as counts per tile id (index 0: blanks).

    Each word appears once: a letter comes from a real tile when the rack has one and from a
    blank otherwise (then it carries :data:`BLANK_BIT`). ``exact`` keeps only words that use
    every tile (the rack's anagrams); otherwise sub-anagrams of ``min_length`` or more count.
    """
    left = list(counts) or [0]
    rack_size = sum(left)
    nodes = kwg.nodes
    out: list[tuple[int, ...]] = []
    prefix: list[int] = []

    def go(index: int) -> None:
        for t, i in kwg.arcs(index):
            if t == SEPARATOR:
                continue
            if t < len(left) and left[t] > 0:
                source, shown = t, t
            elif left[0] > 0:
                source, shown = 0, t | BLANK_BIT
            else:
                continue
            left[source] -= 1
            prefix.append(shown)
            node = nodes[i]
            if (
                node & ACCEPTS_BIT
                and len(prefix) >= min_length
                and (not exact or len(prefix) == rack_size)
            ):
                out.append(tuple(prefix))
            if len(prefix) < rack_size:
                go(node & ARC_MASK)
            prefix.pop()
            left[source] += 1

    if kwg.dawg_root:
        go(kwg.dawg_root)
    return out


def anagrams(
    kwg: Kwg, counts: Sequence[int], *, min_length: int = 1, exact: bool = False
) -> list[tuple[int, ...]]:
    """:func:`anagrams_reference`, run by the compiled core when it is there."""
    if _native is None or kwg.dawg_root == 0:
        return anagrams_reference(kwg, counts, min_length=min_length, exact=exact)
    found = _native.kwg_anagrams(kwg.nodes, kwg.dawg_root, list(counts), min_length, exact)
    return [tuple(w) for w in found]


def match(kwg: Kwg, tokens: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """DAWG words matching a pattern of tiles, :data:`ANY` and :data:`RUN` tokens.

    Words may repeat when a pattern has several runs; callers deduplicate.
    """
    nodes = kwg.nodes
    tokens = [t for i, t in enumerate(tokens) if not (t == RUN and i and tokens[i - 1] == RUN)]
    end = len(tokens)
    prefix: list[int] = []

    def go(index: int, pos: int, accepted: bool) -> Iterator[tuple[int, ...]]:
        if pos == end:
            if accepted:
                yield tuple(prefix)
            return
        tok = tokens[pos]
        if tok == RUN:
            yield from go(index, pos + 1, accepted)
            for t, i in kwg.arcs(index):
                node = nodes[i]
                prefix.append(t)
                yield from go(node & ARC_MASK, pos, bool(node & ACCEPTS_BIT))
                prefix.pop()
        elif tok == ANY:
            for t, i in kwg.arcs(index):
                node = nodes[i]
                prefix.append(t)
                yield from go(node & ARC_MASK, pos + 1, bool(node & ACCEPTS_BIT))
                prefix.pop()
        else:
            i = kwg.find(index, tok)
            if i:
                node = nodes[i]
                prefix.append(tok)
                yield from go(node & ARC_MASK, pos + 1, bool(node & ACCEPTS_BIT))
                prefix.pop()

    if kwg.dawg_root:
        yield from go(kwg.dawg_root, 0, False)


def ending_with(kwg: Kwg, suffix: Sequence[int]) -> set[tuple[int, ...]]:
    """Words ending with ``suffix``, found through the GADDAG: the entry of a word split at
    its end is the whole word reversed, so it starts with the reversed suffix."""
    if not suffix or kwg.gaddag_root == 0:
        return set()
    node = kwg.walk(reversed(suffix), kwg.gaddag_root)
    if node == 0:
        return set()
    tail = tuple(suffix)
    out = {tail} if kwg.nodes[node] & ACCEPTS_BIT else set()
    for path in kwg.paths(kwg.nodes[node] & ARC_MASK, skip_separator=True):
        out.add(path[::-1] + tail)
    return out


def containing(kwg: Kwg, infix: Sequence[int]) -> set[tuple[int, ...]]:
    """Words containing ``infix``, through the GADDAG: a word ``x+infix+y`` has the entry
    ``reversed(x+infix) 0 y`` (or ``reversed(x+infix)`` when ``y`` is empty)."""
    if not infix or kwg.gaddag_root == 0:
        return set()
    node = kwg.walk(reversed(infix), kwg.gaddag_root)
    if node == 0:
        return set()
    middle = tuple(infix)
    out = {middle} if kwg.nodes[node] & ACCEPTS_BIT else set()
    for path in kwg.paths(kwg.nodes[node] & ARC_MASK):
        if SEPARATOR in path:
            cut = path.index(SEPARATOR)
            out.add(path[:cut][::-1] + middle + path[cut + 1 :])
        else:
            out.add(path[::-1] + middle)
    return out


def starting_with(kwg: Kwg, prefix: Sequence[int]) -> list[tuple[int, ...]]:
    """Words beginning with ``prefix`` (a DAWG walk, then every completion)."""
    if not prefix:
        return []
    node = kwg.walk(prefix, kwg.dawg_root)
    if node == 0:
        return []
    head = tuple(prefix)
    out = [head] if kwg.nodes[node] & ACCEPTS_BIT else []
    out.extend(head + rest for rest in kwg.paths(kwg.nodes[node] & ARC_MASK))
    return out


__all__ = [
    "ANY",
    "RUN",
    "TILE_SHIFT",
    "anagrams",
    "anagrams_reference",
    "containing",
    "ending_with",
    "match",
    "starting_with",
]
