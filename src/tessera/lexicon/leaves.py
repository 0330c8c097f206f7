"""Leave values in wolges' KLV2 format, for the bots' equity.

A ``.klv2`` file is, all little-endian: a u32 node count; that many u32 nodes forming a KWG
whose DAWG holds every leave as its tiles sorted by id (the blank, tile 0, first); a u32
value count; that many f32 values. A leave's value is found by its word index: its position
among the DAWG's words in tile order.
"""

from __future__ import annotations

import math
import os
import struct
import sys
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from tessera.lexicon.detect import FileKind, detect_bytes
from tessera.lexicon.errors import KlvError, KwgError
from tessera.lexicon.kwg import (
    ACCEPTS_BIT,
    ARC_MASK,
    END_BIT,
    TILE_SHIFT,
    Kwg,
    build_bytes,
    write_atomic,
)
from tessera.lexicon.vet import MAX_WORDS, is_alphagram_graph
from tessera.tiles import BLANK_BIT, face

MAX_KLV_BYTES = 256 << 20  # English 7-tile leaves: 4 MB


def sub_leave_prior(leave: Sequence[int], value: Callable[[tuple[int, ...]], float]) -> float:
    """A leave's value estimated from smaller ones: the mean, over its distinct tiles ``x``, of
    ``value(leave - x) + value(x)``. ``leave`` is sorted and has at least two tiles; ``value``
    takes sorted tuples. Training smooths rarely seen leaves towards it and values unseen ones
    with it; :meth:`Leaves.value` values leaves longer than the table's with it (and so does
    the compiled core, summing in the same order)."""
    parts = 0
    total = 0.0
    for i, x in enumerate(leave):
        if i and x == leave[i - 1]:
            continue
        total += value(tuple(leave[:i]) + tuple(leave[i + 1 :])) + value((x,))
        parts += 1
    return total / parts


class Leaves:
    """Leave values: ``value(tiles)`` for the tiles kept on the rack after a play."""

    def __init__(self, kwg: Kwg, values: Sequence[float], *, path: Path | None = None) -> None:
        self.kwg = kwg
        self.values = array("f", values)
        self.path = path
        words = kwg.count()
        if words != len(self.values):
            where = f"{path}: " if path else ""
            raise KlvError(f"{where}{len(self.values)} values for {words} leaves; they must match")
        self._counts = kwg.word_counts()

    # -- building and files ---------------------------------------------------------------

    @classmethod
    def from_mapping(cls, table: Mapping[Sequence[int], float]) -> Leaves:
        """Build from ``{leave tiles: value}`` (tiles in any order; blanks are 0)."""
        merged: dict[bytes, float] = {}
        for tiles, value in table.items():
            key = bytes(sorted(face(t) for t in tiles))
            if not key:
                raise KlvError("the empty leave has no entry (its value is always 0)")
            if key in merged and merged[key] != value:
                raise KlvError(f"leave {list(key)} is given two different values")
            merged[key] = float(value)
        order = sorted(merged)
        kwg = Kwg(build_bytes(order, gaddag=False), check=False)
        return cls(kwg, [merged[k] for k in order])

    @classmethod
    def from_bytes(cls, data: bytes, *, path: Path | None = None) -> Leaves:
        where = f"{path}: " if path else ""
        if len(data) < 4:
            raise KlvError(f"{where}too short for a KLV2 file ({len(data)} bytes)")
        detected = detect_bytes(data)
        if detected.kind is FileKind.KLV:
            raise KlvError(f"{where}{detected.what}; Tessera reads KLV2 (32-bit float values)")
        if detected.kind is not FileKind.KLV2 and detected.known:
            raise KlvError(f"{where}{detected.what}, not a KLV2 leave-value table")
        (n_nodes,) = struct.unpack_from("<I", data, 0)
        values_at = 4 + 4 * n_nodes
        if len(data) < values_at + 4:
            raise KlvError(
                f"{where}says it has {n_nodes} nodes but the file ends after "
                f"{(len(data) - 4) // 4}"
            )
        (n_values,) = struct.unpack_from("<I", data, values_at)
        end = values_at + 4 + 4 * n_values
        if len(data) != end:
            raise KlvError(
                f"{where}expected {end} bytes for {n_nodes} nodes and {n_values} values, "
                f"found {len(data)}"
            )
        try:
            kwg = Kwg(data[4:values_at], path=path)
        except KwgError as exc:
            raise KlvError(f"{where}its word graph is not valid: {exc}") from None
        top = max(kwg.nodes) >> TILE_SHIFT if len(kwg) else 0
        if top & BLANK_BIT:
            raise KlvError(
                f"{where}a leave holds tile {top}; leave tiles run from 0 (the blank) to "
                f"{BLANK_BIT - 1}"
            )
        if not is_alphagram_graph(kwg):
            raise KlvError(
                f"{where}its leaves are not all in tile order (a leave table holds each leave's "
                "tiles sorted, the blank first), so some could never be looked up"
            )
        values = array("f", data[values_at + 4 : end])
        if sys.byteorder != "little":
            values.byteswap()
        if not all(map(math.isfinite, values)):
            bad = next(i for i, v in enumerate(values) if not math.isfinite(v))
            raise KlvError(f"{where}value {bad} is {values[bad]}, not a finite number")
        if n_values > MAX_WORDS:
            raise KlvError(f"{where}{n_values:,} leaves; more than {MAX_WORDS:,} is no leave table")
        return cls(kwg, values, path=path)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Leaves:
        """Read a ``.klv2`` file."""
        path = Path(path)
        try:
            with open(path, "rb") as f:
                size = os.fstat(f.fileno()).st_size
                if size > MAX_KLV_BYTES:
                    raise KlvError(
                        f"{path}: {size:,} bytes; a leave table may hold at most {MAX_KLV_BYTES:,}"
                    )
                data = f.read()
        except OSError as exc:
            raise KlvError(f"{path}: cannot read: {exc.strerror or exc}") from None
        return cls.from_bytes(data, path=path)

    def to_bytes(self) -> bytes:
        values = array("f", self.values)
        if sys.byteorder != "little":
            values.byteswap()
        return b"".join(
            (
                struct.pack("<I", len(self.kwg)),
                self.kwg.to_bytes(),
                struct.pack("<I", len(values)),
                values.tobytes(),
            )
        )

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write a ``.klv2`` file."""
        write_atomic(Path(path), self.to_bytes())

    # -- lookups --------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.values)

    def index(self, tiles: Iterable[int]) -> int:
        """The word index of a leave (tiles in any order), or -1 if it is not listed."""
        leave = sorted(face(t) for t in tiles)
        if not leave:
            return -1
        nodes, counts = self.kwg.nodes, self._counts
        index = 0
        start = self.kwg.dawg_root
        last = len(leave) - 1
        for depth, t in enumerate(leave):
            if start == 0:
                return -1
            i = start
            while True:
                node = nodes[i]
                nt = node >> TILE_SHIFT
                if nt == t:
                    break
                if nt > t or node & END_BIT:
                    return -1
                index += counts[i]
                i += 1
            if depth == last:
                return index if node & ACCEPTS_BIT else -1
            if node & ACCEPTS_BIT:
                index += 1  # the shorter leave ending here comes first
            start = node & ARC_MASK
        return -1

    def value(self, tiles: Iterable[int]) -> float:
        """The value of keeping ``tiles``: the table's, or for a leave it does not hold (one
        longer than its leaves, say 7 of a 9-tile rack) :func:`sub_leave_prior`, as training
        values a leave it never saw. The empty leave and an unlisted tile are worth 0.0."""
        memo: dict[tuple[int, ...], float] = {}

        def of(leave: tuple[int, ...]) -> float:
            if leave not in memo:
                i = self.index(leave)
                if i >= 0:
                    memo[leave] = float(self.values[i])
                else:
                    memo[leave] = sub_leave_prior(leave, of) if len(leave) > 1 else 0.0
            return memo[leave]

        return of(tuple(sorted(face(t) for t in tiles)))

    def table_value(self, tiles: Iterable[int]) -> float:
        """The table's own value of ``tiles``, 0.0 when it does not hold them. A pass keeps the
        whole rack at this value: passing leaves the same rack to face again, so it earns no
        credit from sub-leaves."""
        i = self.index(tiles)
        return float(self.values[i]) if i >= 0 else 0.0

    def items(self) -> list[tuple[tuple[int, ...], float]]:
        """Every (leave tiles, value), in word-index order."""
        return [(w, float(v)) for w, v in zip(self.kwg.words(), self.values, strict=True)]
