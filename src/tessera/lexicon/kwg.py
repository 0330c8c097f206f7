"""KWG word graphs: a DAWG and a GADDAG in one array of little-endian uint32 nodes.

The layout is wolges' ``Node22``, so ``.kwg`` files made by other tools load here and ours
load there:

========  ==============================================================================
bits      meaning
========  ==============================================================================
0–21      arc index: where this node's child sibling list starts (0: no children)
22        end of the sibling list
23        accepts: the path ending with this node's tile spells a word
24–31     tile: letters from 1 in alphabet order; 0 is the GADDAG separator
========  ==============================================================================

Node 0's arc index is the DAWG root list and node 1's the GADDAG root list. Sibling lists are
sorted by tile. The DAWG holds each word forward. For a word ``w`` the GADDAG holds, for each
split point ``i`` in ``1..len(w)``, ``reversed(w[:i]) + [0] + w[i:]`` — except ``i == len(w)``,
stored as ``reversed(w)`` without the separator.

:func:`build_reference` is the readable specification of the builder; the compiled core's
``kwg_build`` follows the same algorithm and produces byte-identical arrays (tested).
"""

from __future__ import annotations

import mmap
import os
import sys
from array import array
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from tessera._compiled import _core
from tessera.lexicon.errors import KwgError

# the compiled core; the pure-Python paths below are the fallback and the reference
_native: Any = _core if hasattr(_core, "kwg_build") else None

ARC_MASK = (1 << 22) - 1
END_BIT = 1 << 22
ACCEPTS_BIT = 1 << 23
TILE_SHIFT = 24
SEPARATOR = 0
MAX_NODES = 1 << 22
MAX_DEPTH = 255
# Paths (prefixes) a walk of the whole DAWG / GADDAG may take: a minimised graph can spell
# exponentially many in few nodes, which would make any walk that lists words run for ever.
# Real lists stay far below (ENABLE: 0.4 M and 4 M). The compiled check has the same bounds.
MAX_DAWG_PATHS = 1 << 28
MAX_GADDAG_PATHS = 1 << 32


def tile(node: int) -> int:
    """The tile on a node's incoming arc (0 is the GADDAG separator)."""
    return node >> TILE_SHIFT


def accepts(node: int) -> bool:
    """True if the path ending with this node's tile is a word."""
    return bool(node & ACCEPTS_BIT)


def is_end(node: int) -> bool:
    """True if this node is the last of its sibling list."""
    return bool(node & END_BIT)


def arc_index(node: int) -> int:
    """Where this node's children start in the array (0 if it has none)."""
    return node & ARC_MASK


def move_generator_size(nodes: Sequence[int]) -> int:
    """The words the compiled move generator's copy of this graph takes: it stores each
    sibling list reachable from the roots once, led by two words of its tiles' mask, and
    refuses a graph whose copy outgrows the 22-bit arc index (:data:`ARC_MASK`)."""
    size = 2
    seen: set[int] = set()
    todo = [arc_index(nodes[1]), arc_index(nodes[0])]
    while todo:
        start = todo.pop()
        if start == 0 or start in seen:
            continue
        seen.add(start)
        i = start
        while True:
            todo.append(arc_index(nodes[i]))
            if is_end(nodes[i]):
                break
            i += 1
        size += 2 + (i - start + 1)
    return size


def make_node(tile_id: int, arc: int, *, accepting: bool, end: bool) -> int:
    """Pack one node (the inverse of the four accessors above)."""
    if not 0 <= tile_id <= 0xFF:
        raise KwgError(f"tile {tile_id} does not fit in a KWG node (0..255)")
    if not 0 <= arc <= ARC_MASK:
        raise KwgError(f"arc index {arc} does not fit in 22 bits")
    flags = (ACCEPTS_BIT if accepting else 0) | (END_BIT if end else 0)
    return (tile_id << TILE_SHIFT) | flags | arc


# -- building -------------------------------------------------------------------------------


def gaddag_strings(word: bytes) -> Iterator[bytes]:
    """The GADDAG entries of one word (wolges' convention; see the module docstring)."""
    n = len(word)
    for i in range(1, n + 1):
        head = word[:i][::-1]
        yield head if i == n else head + bytes([SEPARATOR]) + word[i:]


class _ReferenceBuilder:
    """Pure-Python builder: a trie over sorted strings, each state's sibling list interned
    (hash-consed) as soon as no later string can extend it, so equal lists are stored once."""

    def __init__(self) -> None:
        self.nodes: list[int] = [0, 0]
        self._lists: dict[tuple[int, ...], int] = {}

    def intern(self, arcs: list[int]) -> int:
        if not arcs:
            return 0
        arcs[-1] |= END_BIT
        key = tuple(arcs)
        pos = self._lists.get(key)
        if pos is None:
            pos = len(self.nodes)
            if pos + len(key) - 1 > ARC_MASK:
                raise KwgError("word graph needs more than 2^22 nodes (the KWG limit)")
            self.nodes.extend(key)
            self._lists[key] = pos
        return pos

    def add_sorted(self, strings: Sequence[bytes]) -> int:
        open_: list[list[int]] = [[]]
        prev = b""

        def close_to(depth: int, keep: int) -> None:
            for d in range(depth, keep, -1):
                child = self.intern(open_[d])
                open_[d] = []
                open_[d - 1][-1] |= child

        for s in strings:
            common = 0
            limit = min(len(prev), len(s))
            while common < limit and prev[common] == s[common]:
                common += 1
            close_to(len(prev), common)
            while len(open_) < len(s) + 1:
                open_.append([])
            for j in range(common, len(s)):
                open_[j].append(s[j] << TILE_SHIFT)
            open_[len(s) - 1][-1] |= ACCEPTS_BIT
            prev = s
        close_to(len(prev), 0)
        return self.intern(open_[0])


def build_reference(words: Iterable[bytes], *, dawg: bool = True, gaddag: bool = True) -> bytes:
    """Build a KWG in pure Python from tile strings (one byte per tile). Slow; the spec."""
    unique = sorted({bytes(w) for w in words if w})
    builder = _ReferenceBuilder()
    dawg_root = builder.add_sorted(unique) if dawg else 0
    gaddag_root = 0
    if gaddag:
        strings = sorted({s for w in unique for s in gaddag_strings(w)})
        gaddag_root = builder.add_sorted(strings)
    builder.nodes[0] = END_BIT | dawg_root
    builder.nodes[1] = END_BIT | gaddag_root
    out = array("I", builder.nodes)
    if sys.byteorder != "little":
        out.byteswap()
    return out.tobytes()


def build_bytes(words: Iterable[bytes], *, dawg: bool = True, gaddag: bool = True) -> bytes:
    """Build a KWG's bytes with the compiled core (the Python reference if it is missing)."""
    if _native is None:
        return build_reference(words, dawg=dawg, gaddag=gaddag)
    try:
        return bytes(_native.kwg_build(list(words), dawg, gaddag))
    except (ValueError, OverflowError) as exc:  # length_error arrives as ValueError
        raise KwgError(str(exc)) from None


# -- checking -------------------------------------------------------------------------------


def check_reference(nodes: Sequence[int]) -> str:
    """'' if ``nodes`` is a well-formed KWG, else what is wrong (pure Python, linear time)."""
    n = len(nodes)
    if n < 2:
        return (
            "a KWG needs at least 2 nodes (the DAWG and GADDAG root pointers); found "
            f"{n}"
        )
    ok_from = [False] * (n + 1)
    for i in range(n - 1, -1, -1):
        node = nodes[i]
        if arc_index(node) >= n:
            return f"node {i}: arc index {arc_index(node)} is past the end ({n} nodes)"
        ok_from[i] = is_end(node) or (
            i + 1 < n and tile(node) < tile(nodes[i + 1]) and ok_from[i + 1]
        )
    state = [0] * n  # 0 unseen, 1 on the current path, 2 done
    height = [0] * n
    paths = [0] * n  # paths below a list (saturating)
    for which, root, limit in (
        ("the DAWG", arc_index(nodes[0]), MAX_DAWG_PATHS),
        ("the GADDAG", arc_index(nodes[1]), MAX_GADDAG_PATHS),
    ):
        if root == 0 or state[root] == 2:
            continue
        stack = [[root, root, False]]
        state[root] = 1
        while stack:
            frame = stack[-1]
            lst, pos, done = frame
            if done:
                h, i, below = 1, lst, 0
                while True:
                    child = arc_index(nodes[i])
                    if child:
                        h = max(h, height[child] + 1)
                    below = min(MAX_GADDAG_PATHS + 1, below + 1 + paths[child])
                    if is_end(nodes[i]):
                        break
                    i += 1
                if h > MAX_DEPTH:
                    return f"paths longer than {MAX_DEPTH} tiles"
                height[lst] = h
                paths[lst] = below
                state[lst] = 2
                stack.pop()
                continue
            if pos == lst and not ok_from[lst]:
                return (
                    f"the sibling list at node {lst} is not sorted by tile or runs past the "
                    "end of the array"
                )
            node = nodes[pos]
            if is_end(node):
                frame[2] = True
            else:
                frame[1] = pos + 1
            child = arc_index(node)
            if child == 0 or state[child] == 2:
                continue
            if state[child] == 1:
                return f"the graph has a cycle through node {child}"
            stack.append([child, child, False])
            state[child] = 1
        if paths[root] > limit:
            return (
                f"{which} spells more than {limit} paths, far more than any word list "
                "(a graph made to explode when walked)"
            )
    return ""


# -- the graph ------------------------------------------------------------------------------


def _as_nodes(data: bytes | bytearray | memoryview) -> memoryview:
    """A uint32 view of little-endian node bytes (copied and swapped on big-endian hosts)."""
    view = memoryview(data)
    if view.nbytes % 4:
        raise KwgError(f"a KWG file holds whole 4-byte nodes; this one has {view.nbytes} bytes")
    if sys.byteorder == "little":
        return view.cast("B").cast("I")
    swapped = array("I", view.tobytes())
    swapped.byteswap()
    return memoryview(swapped)


class Kwg:
    """A loaded word graph. ``nodes`` is a uint32 sequence (a memory-mapped view when loaded
    from a file); the move generator walks it directly with the helpers of this module."""

    __slots__ = ("__weakref__", "_mmap", "nodes", "path")

    def __init__(
        self,
        data: bytes | bytearray | memoryview,
        *,
        path: Path | None = None,
        check: bool = True,
        _mmap: mmap.mmap | None = None,
    ) -> None:
        self.nodes: memoryview = _as_nodes(data)
        self.path = path
        self._mmap = _mmap
        if check:
            where = f"{path}: " if path else ""
            problem = _native.kwg_check(self.nodes) if _native else check_reference(self.nodes)
            if problem:
                raise KwgError(f"{where}not a valid KWG: {problem}")

    # construction and files ------------------------------------------------------------

    @classmethod
    def build(
        cls, words: Iterable[Sequence[int]], *, dawg: bool = True, gaddag: bool = True
    ) -> Kwg:
        """Build from words given as tile-id sequences (letters 1..255)."""
        return cls(build_bytes((bytes(w) for w in words), dawg=dawg, gaddag=gaddag), check=False)

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, check: bool = True) -> Kwg:
        """Memory-map a ``.kwg`` file. ``check`` validates its structure (linear time)."""
        path = Path(path)
        try:
            with open(path, "rb") as f:
                size = os.fstat(f.fileno()).st_size
                if size == 0:
                    raise KwgError(f"{path}: empty file, not a KWG")
                mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except OSError as exc:
            raise KwgError(f"{path}: cannot read: {exc.strerror or exc}") from None
        return cls(memoryview(mm), path=path, check=check, _mmap=mm)

    def to_bytes(self) -> bytes:
        if sys.byteorder == "little":
            return self.nodes.tobytes()
        out = array("I", self.nodes)
        out.byteswap()
        return out.tobytes()

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the node array (atomically: a temporary file renamed into place)."""
        write_atomic(Path(path), self.to_bytes())

    # structure ------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.nodes)

    @property
    def dawg_root(self) -> int:
        """Index of the DAWG root's sibling list (0 if the graph has no DAWG)."""
        return arc_index(self.nodes[0])

    @property
    def gaddag_root(self) -> int:
        """Index of the GADDAG root's sibling list (0 if the graph has no GADDAG)."""
        return arc_index(self.nodes[1])

    def siblings(self, index: int) -> Iterator[int]:
        """Node indices of the sibling list starting at ``index`` (none for 0)."""
        if index == 0:
            return
        nodes = self.nodes
        while True:
            yield index
            if nodes[index] & END_BIT:
                return
            index += 1

    def arcs(self, index: int) -> Iterator[tuple[int, int]]:
        """(tile, node index) for each arc of the list starting at ``index``."""
        nodes = self.nodes
        for i in self.siblings(index):
            yield nodes[i] >> TILE_SHIFT, i

    def find(self, index: int, tile_id: int) -> int:
        """The node in the list at ``index`` with tile ``tile_id``, or 0 if there is none."""
        if index == 0:
            return 0
        nodes = self.nodes
        while True:
            node = nodes[index]
            t = node >> TILE_SHIFT
            if t == tile_id:
                return index
            if t > tile_id or node & END_BIT:
                return 0
            index += 1

    def walk(self, tiles: Iterable[int], root: int) -> int:
        """The node reached by following ``tiles`` from the list ``root``; 0 if none."""
        node = 0
        index = root
        for t in tiles:
            node = self.find(index, t)
            if node == 0:
                return 0
            index = self.nodes[node] & ARC_MASK
        return node

    def accepts_path(self, tiles: Sequence[int], root: int) -> bool:
        """True if ``tiles`` is a complete entry reached from list ``root``."""
        if not tiles:
            return False
        if _native is not None:
            try:
                return bool(_native.kwg_accepts(self.nodes, root, bytes(tiles)))
            except ValueError:
                return False  # a tile outside 0..255 is in no graph
        node = self.walk(tiles, root)
        return node != 0 and bool(self.nodes[node] & ACCEPTS_BIT)

    def contains(self, tiles: Sequence[int]) -> bool:
        """DAWG membership of a tile sequence."""
        return self.accepts_path(tiles, self.dawg_root)

    def gaddag_contains(self, tiles: Sequence[int]) -> bool:
        """GADDAG membership of one entry (reversed prefix, separator 0, suffix)."""
        return self.accepts_path(tiles, self.gaddag_root)

    def paths(self, root: int, *, skip_separator: bool = False) -> Iterator[tuple[int, ...]]:
        """Every accepting path from list ``root``, in tile order."""
        if root == 0:
            return
        if _native is not None:
            for w in _native.kwg_words(self.nodes, root, skip_separator):
                yield tuple(w)
            return
        prefix: list[int] = []
        # explicit stack of iterators keeps this free of recursion limits
        stack = [self.arcs(root)]
        while stack:
            step = next(stack[-1], None)
            if step is None:
                stack.pop()
                if prefix:
                    prefix.pop()
                continue
            t, i = step
            if skip_separator and t == SEPARATOR:
                continue
            prefix.append(t)
            node = self.nodes[i]
            if node & ACCEPTS_BIT:
                yield tuple(prefix)
            stack.append(self.arcs(node & ARC_MASK))

    def words(self) -> Iterator[tuple[int, ...]]:
        """Every DAWG word, in tile order."""
        return self.paths(self.dawg_root)

    def count(self, root: int | None = None) -> int:
        """Number of accepting paths from a list (default: DAWG words)."""
        root = self.dawg_root if root is None else root
        if root == 0:
            return 0
        if _native is not None:
            return int(_native.kwg_count(self.nodes, root))
        return sum(1 for _ in self.paths(root))

    def word_counts(self) -> Sequence[int]:
        """Per node reachable from the DAWG root, the words through it: its own (if it
        accepts) plus all below it (0 for other nodes). For leave indexes and sampling."""
        if _native is not None:
            return memoryview(_native.kwg_word_counts(self.nodes)).cast("I")
        nodes = self.nodes
        below: dict[int, int] = {0: 0}  # list start -> words in that list's subtrees
        out = [0] * len(nodes)

        def list_count(start: int) -> int:  # depth <= MAX_DEPTH in checked graphs
            if start in below:
                return below[start]
            total = 0
            for i in self.siblings(start):
                node = nodes[i]
                out[i] = (1 if node & ACCEPTS_BIT else 0) + list_count(node & ARC_MASK)
                total += out[i]
            below[start] = total
            return total

        list_count(self.dawg_root)
        return out

    def word_at(self, index: int, counts: Sequence[int] | None = None) -> tuple[int, ...]:
        """The DAWG word with this index in tile order (``counts`` from :meth:`word_counts`,
        computed if not given). Raises IndexError past the last word."""
        counts = self.word_counts() if counts is None else counts
        nodes = self.nodes
        out: list[int] = []
        start = self.dawg_root
        while start:
            i = start
            while True:
                node = nodes[i]
                if index < counts[i]:
                    break
                index -= counts[i]
                if node & END_BIT:
                    raise IndexError("word index past the last word")
                i += 1
            out.append(node >> TILE_SHIFT)
            if node & ACCEPTS_BIT:
                if index == 0:
                    return tuple(out)
                index -= 1
            start = node & ARC_MASK
        raise IndexError("word index past the last word")

    def verify(self, words: Iterable[Sequence[int]]) -> str:
        """'' if the DAWG holds exactly ``words`` and the GADDAG exactly their entries (each
        one walked, then the totals compared), else the first difference found."""
        unique = sorted({bytes(w) for w in words if len(w)})
        if _native is not None:
            problem = str(_native.kwg_verify(self.nodes, unique))
            if "#" in problem:
                head, _, number = problem.rpartition("#")
                problem = f"{head}{list(unique[int(number)])}"
            return problem
        entries = 0
        for w in unique:
            if not self.contains(w):
                return f"the DAWG lacks word {list(w)}"
            for i, entry in enumerate(gaddag_strings(w), start=1):
                if not self.gaddag_contains(entry):
                    return f"the GADDAG lacks entry {i} of word {list(w)}"
                entries += 1
        if self.count() != len(unique):
            return f"the DAWG holds {self.count()} words, not {len(unique)}"
        if self.count(self.gaddag_root) != entries:
            return f"the GADDAG holds {self.count(self.gaddag_root)} entries, not {entries}"
        return ""

    def max_tile(self) -> int:
        """The largest tile on any node (to check a graph against an alphabet)."""
        if len(self.nodes) <= 2:
            return 0
        return max(self.nodes[2:]) >> TILE_SHIFT

    def close(self) -> None:
        """Release the memory map (the object must not be used afterwards)."""
        if self._mmap is not None:
            try:
                self.nodes.release()
                self._mmap.close()
            except BufferError:
                pass  # views of the nodes are still held elsewhere: unmapped when they go
            self._mmap = None


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
