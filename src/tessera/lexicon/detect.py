"""What a lexicon file is, told from its bytes (never from its name).

``--lexicon``, ``tessera lexicon info`` and :meth:`Lexicon.load` accept a path; before
reading a file as a word graph or a word list they ask :func:`detect_file` what it holds:

* **KWG** — little-endian uint32 nodes; node 0 is the DAWG root pointer (tile 0, the end bit,
  not accepting), as wolges and MAGPIE write it;
* **KLV2** — a u32 node count, that many nodes, a u32 value count, that many f32 values, and
  nothing else (the lengths must add up exactly); **KLV** the same with 16-bit values (wolges'
  older leave files);
* **gzip** — a compressed word list (``.txt.gz``);
* **text** — anything else without NUL bytes or other control characters;
* **binary** — the rest (a program, an archive, an image …), named when its magic number says
  what it is.

Leave files and binary data are refused as lexicons, with a message that says what the file is
instead. The KWG checks that need the whole graph (which tile set its letters fit, whether it
holds alphagrams instead of words) are in :mod:`tessera.lexicon.lexicon`.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from tessera.lexicon.errors import LexiconError
from tessera.lexicon.kwg import ACCEPTS_BIT, END_BIT, TILE_SHIFT

SNIFF_BYTES = 1 << 16
GZIP_MAGIC = b"\x1f\x8b"
# well-known magic numbers, to say what a binary file is
MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x7fELF", "a program (ELF executable)"),
    (b"MZ", "a Windows program"),
    (b"\xcf\xfa\xed\xfe", "a program (Mach-O executable)"),
    (b"\xca\xfe\xba\xbe", "a Java class or Mach-O program"),
    (b"PK\x03\x04", "a ZIP archive"),
    (b"%PDF", "a PDF document"),
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"BZh", "a bzip2 archive"),
    (b"\xfd7zXZ", "an xz archive"),
    (b"7z\xbc\xaf", "a 7-Zip archive"),
    (b"SQLite format 3\x00", "an SQLite database"),
)
_TEXT_CONTROLS = frozenset(b"\t\n\r\f\v")


class FileKind(StrEnum):
    KWG = "kwg"
    KLV2 = "klv2"
    KLV = "klv"
    GZIP = "gzip"
    TEXT = "text"
    BINARY = "binary"
    EMPTY = "empty"


@dataclass(frozen=True)
class Detected:
    kind: FileKind
    what: str  # a phrase for messages: "a KLV2 leave-value table"
    known: bool = True  # False: binary data its magic number does not name

    @property
    def is_word_list(self) -> bool:
        return self.kind in (FileKind.KWG, FileKind.GZIP, FileKind.TEXT)


def _leave_table(size: int, read_u32: object) -> Detected | None:
    """KLV2 / KLV when the two counts account for every byte of the file."""
    if size < 8 or size % 2:
        return None
    (n_nodes,) = struct.unpack("<I", read_u32(0))  # type: ignore[operator]
    values_at = 4 + 4 * n_nodes
    if values_at + 4 > size:
        return None
    (n_values,) = struct.unpack("<I", read_u32(values_at))  # type: ignore[operator]
    rest = size - values_at - 4
    if rest == 4 * n_values:
        return Detected(FileKind.KLV2, "a KLV2 leave-value table")
    if rest == 2 * n_values:
        return Detected(FileKind.KLV, "a KLV leave-value table (16-bit values)")
    return None


def _looks_like_kwg(head: bytes, size: int) -> bool:
    if size < 8 or size % 4:
        return False
    (root,) = struct.unpack_from("<I", head, 0)
    return root >> TILE_SHIFT == 0 and bool(root & END_BIT) and not root & ACCEPTS_BIT


def _binary_or_text(head: bytes) -> Detected:
    for magic, what in MAGIC:
        if head.startswith(magic):
            return Detected(FileKind.BINARY, what)
    nul = head.find(b"\x00")
    if nul >= 0:
        return Detected(FileKind.BINARY, f"binary data (a NUL byte at offset {nul})", False)
    controls = sum(1 for b in head if b < 0x20 and b not in _TEXT_CONTROLS)
    if controls * 100 > len(head):
        return Detected(
            FileKind.BINARY, f"binary data ({controls} control bytes in the first {len(head)})",
            False,
        )
    return Detected(FileKind.TEXT, "a text word list")


def detect_bytes(data: bytes) -> Detected:
    """What ``data`` holds (see the module docstring)."""
    size = len(data)
    if size == 0:
        return Detected(FileKind.EMPTY, "an empty file")
    head = data[:SNIFF_BYTES]
    if head.startswith(GZIP_MAGIC):
        return Detected(FileKind.GZIP, "a gzip-compressed word list")
    leaves = _leave_table(size, lambda at: data[at : at + 4])
    if leaves is not None:
        return leaves
    if _looks_like_kwg(head, size):
        return Detected(FileKind.KWG, "a KWG word graph")
    return _binary_or_text(head)


def detect_file(path: Path) -> Detected:
    """What the file at ``path`` holds, reading only its first 64 KiB (and 4 bytes where a
    leave table's second count would be). Raises :class:`LexiconError` if it cannot be read."""
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            head = f.read(SNIFF_BYTES)

            def read_u32(at: int) -> bytes:
                f.seek(at)
                return f.read(4)

            if size == 0:
                return Detected(FileKind.EMPTY, "an empty file")
            if head.startswith(GZIP_MAGIC):
                return Detected(FileKind.GZIP, "a gzip-compressed word list")
            leaves = _leave_table(size, read_u32)
    except OSError as exc:
        raise LexiconError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if leaves is not None:
        return leaves
    if _looks_like_kwg(head, size):
        return Detected(FileKind.KWG, "a KWG word graph")
    return _binary_or_text(head)


def refuse_unless_word_list(path: Path | str, detected: Detected) -> None:
    """Raise :class:`LexiconError` naming what the file is when it is no word list."""
    if detected.is_word_list:
        return
    if detected.kind in (FileKind.KLV2, FileKind.KLV):
        raise LexiconError(
            f"{path}: {detected.what}, not a word list (leave tables go to --leaves)"
        )
    if detected.kind is FileKind.EMPTY:
        raise LexiconError(f"{path}: an empty file, not a word list")
    raise LexiconError(f"{path}: not a word list or word graph: {detected.what}")


__all__ = ["Detected", "FileKind", "detect_bytes", "detect_file", "refuse_unless_word_list"]
