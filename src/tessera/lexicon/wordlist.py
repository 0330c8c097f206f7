"""Reading word lists: one word per line, normalised and spelled in tiles, every rejected
line kept with its reason (nothing is dropped silently).

A line's first whitespace-separated token is the word (lists with definitions after the word
load as they are). Letters are upper-cased (``ß`` becomes ``SS``); a word of a multi-letter
alphabet is spelled every valid way (:meth:`Alphabet.spellings`) or longest label first.
"""

from __future__ import annotations

import os
import re
import unicodedata
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from tessera.lexicon.detect import FileKind, detect_file, refuse_unless_word_list
from tessera.lexicon.errors import LexiconError
from tessera.tiles import Alphabet, TileError

Spellings = Literal["all", "longest"]
Progress = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: called now and then while a list is read or built."""

MIN_LENGTH = 2
MAX_LENGTH = 15


OUTSIDE_ALPHABET = "characters outside the alphabet"
BAD_LENGTH = "length outside the limits"
NOT_UTF8 = "not valid UTF-8"

LIGATURES = {"Œ": "OE", "Æ": "AE", "Ĳ": "IJ", "ẞ": "SS"}


@dataclass(frozen=True)
class Rejected:
    """A line that did not become a word: its 1-based number, its text, why, and the kind
    of reason (for summaries)."""

    line: int
    text: str
    reason: str
    kind: str = ""

    def __str__(self) -> str:
        return f"line {self.line}: {self.text!r}: {self.reason}"


@dataclass
class WordList:
    """The outcome of reading a list: words as tile strings, and what was left out."""

    words: list[bytes] = field(default_factory=list)  # every accepted spelling, one byte a tile
    entries: int = 0  # lines that gave at least one word
    rejected: list[Rejected] = field(default_factory=list)
    blank_lines: int = 0
    duplicates: int = 0  # entries equal to an earlier one (kept once)
    lines: int = 0

    def summary(self) -> str:
        parts = [f"{self.entries:,} words"]
        if len(self.words) != self.entries:
            parts.append(f"{len(self.words):,} tile spellings")
        parts.append(f"{len(self.rejected):,} rejected lines")
        if self.duplicates:
            parts.append(f"{self.duplicates:,} duplicates")
        if self.blank_lines:
            parts.append(f"{self.blank_lines:,} blank lines")
        return ", ".join(parts)

    def reasons(self) -> dict[str, int]:
        """Rejected lines counted by kind of reason."""
        out: dict[str, int] = {}
        for r in self.rejected:
            kind = r.kind or r.reason
            out[kind] = out.get(kind, 0) + 1
        return out


class Tokenizer:
    """Spells upper-case words in tiles of one alphabet, or says why a word cannot be."""

    def __init__(self, alphabet: Alphabet, *, spellings: Spellings = "all") -> None:
        if spellings not in ("all", "longest"):
            raise LexiconError(f"spellings must be 'all' or 'longest', not {spellings!r}")
        self.alphabet = alphabet
        self.spellings = spellings
        labels = alphabet.labels
        self._single = all(len(label) == 1 for label in labels)
        ordered = sorted(labels, key=len, reverse=True)
        self._token = re.compile("|".join(re.escape(label) for label in ordered))
        # single-letter alphabets (the common case) are checked with one regex
        self._whole = re.compile("[" + "".join(re.escape(label) for label in labels) + "]+")
        self._ids = {label: i for i, label in enumerate(labels, start=1)}
        self._table = str.maketrans(
            {label: chr(i) for label, i in self._ids.items() if len(label) == 1}
        )

    def _bad_char(self, word: str) -> str:
        letters = set("".join(self.alphabet.labels))
        for pos, ch in enumerate(word, start=1):
            if ch not in letters:
                return (
                    f"character {ch!r} (position {pos}) is not in the "
                    f"{self.alphabet.name} alphabet"
                )
        return f"cannot be spelled in tiles of the {self.alphabet.name} alphabet"

    def __call__(self, word: str) -> list[bytes]:
        """Every accepted tile spelling of ``word`` (upper case). Raises ValueError(reason)."""
        if self._single:
            if not self._whole.fullmatch(word):
                raise ValueError(self._bad_char(word))
            return [word.translate(self._table).encode("latin-1")]
        if "?" in word:
            raise ValueError(self._bad_char(word))
        if self.spellings == "longest":
            tokens = self._token.findall(word)
            if sum(map(len, tokens)) != len(word):
                raise ValueError(self._bad_char(word))
            return [bytes(self._ids[t] for t in tokens)]
        try:
            return [bytes(s) for s in self.alphabet.spellings(word)]
        except TileError:
            raise ValueError(self._bad_char(word)) from None


class _Unfoldable(Exception):
    """A character that folds to no letter of the alphabet (internal)."""


class _Folding(dict[int, str]):
    """str.translate table that folds each character once, on first sight, and remembers."""

    def __init__(self, alphabet: Alphabet) -> None:
        super().__init__()
        self.own = {ch for label in alphabet.labels for ch in label}

    def __missing__(self, code: int) -> str:
        ch = chr(code)
        if ch in self.own:
            out = ch
        elif ch in LIGATURES:
            out = LIGATURES[ch]
        else:
            out = "".join(
                c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c)
            )
            if not out or not all(c in self.own for c in out):
                raise _Unfoldable(ch)
        self[code] = out
        return out


_FOLDINGS: dict[tuple[str, tuple[str, ...]], _Folding] = {}


def fold_to_alphabet(text: str, alphabet: Alphabet) -> str:
    """Upper-case ``text`` and strip accents from letters that are not tiles of the alphabet
    (``été`` → ``ETE`` in French; Spanish ``Ñ`` stays); ligatures are spelled out and ``ß``
    becomes ``SS``. Raises ``ValueError(reason)`` for a character with no such letter."""
    key = (alphabet.name, alphabet.labels)
    folding = _FOLDINGS.get(key)
    if folding is None:
        folding = _FOLDINGS[key] = _Folding(alphabet)
    upper = unicodedata.normalize("NFC", text).upper()
    try:
        return upper.translate(folding)
    except _Unfoldable as exc:
        ch = exc.args[0]
        raise ValueError(
            f"character {ch!r} (position {upper.index(ch) + 1}) is not in the "
            f"{alphabet.name} alphabet"
        ) from None


MAX_LIST_BYTES = 256 << 20  # a word list, compressed or not (the largest real ones: ~50 MB)


def read_list_bytes(path: Path) -> bytes:
    """The bytes of a word-list file, refused before reading when it is larger than
    :data:`MAX_LIST_BYTES`."""
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > MAX_LIST_BYTES:
                raise LexiconError(
                    f"{path}: {size:,} bytes; a word list may hold at most {MAX_LIST_BYTES:,}"
                )
            data = f.read(size + 1)  # not read(MAX + 1): that buffer is allocated up front
    except OSError as exc:
        raise LexiconError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if len(data) > MAX_LIST_BYTES:  # it grew while being read
        raise LexiconError(f"{path}: more than {MAX_LIST_BYTES:,} bytes; too large for a word list")
    return data


def read_lines(path: Path) -> list[bytes]:
    """Raw lines of a ``.txt`` or gzip-compressed list (decoded later, line by line). A file
    that holds no word list (a KWG, a leave table, binary data) is refused, saying what it is."""
    detected = detect_file(path)
    refuse_unless_word_list(path, detected)
    if detected.kind is FileKind.KWG:
        raise LexiconError(f"{path}: already a KWG word graph; build from a text word list")
    return text_lines(read_list_bytes(path), origin=str(path))


def _gunzip(raw: bytes, origin: str) -> bytes:
    """Decompress, refusing output past :data:`MAX_LIST_BYTES` (a small file can expand to
    gigabytes) before it is produced."""
    inflate = zlib.decompressobj(wbits=31)
    parts: list[bytes] = []
    size = 0
    data = raw
    try:
        while data:
            chunk = inflate.decompress(data, MAX_LIST_BYTES + 1 - size)
            size += len(chunk)
            parts.append(chunk)
            if size > MAX_LIST_BYTES:
                raise LexiconError(
                    f"{origin}: expands to more than {MAX_LIST_BYTES:,} bytes; too large for a "
                    "word list"
                )
            if inflate.eof:
                data = inflate.unused_data  # another gzip member follows
                if data:
                    inflate = zlib.decompressobj(wbits=31)
                continue
            data = inflate.unconsumed_tail
            if not data and not chunk:
                break
        if not inflate.eof:
            raise LexiconError(f"{origin}: damaged gzip file: it ends too early")
    except zlib.error as exc:
        raise LexiconError(f"{origin}: damaged gzip file: {exc}") from None
    return b"".join(parts)


def text_lines(raw: bytes, *, origin: str = "<bytes>") -> list[bytes]:
    """The lines of a word list's bytes (gunzipped first if compressed). Binary content is
    refused: a list has no NUL bytes."""
    if raw[:2] == b"\x1f\x8b":
        raw = _gunzip(raw, origin)
    nul = raw.find(b"\x00", 0, 1 << 16)
    if nul >= 0:
        raise LexiconError(f"{origin}: not a word list: binary data (a NUL byte at offset {nul})")
    return raw.splitlines()


def parse_words(
    lines: Iterable[bytes | str],
    alphabet: Alphabet,
    *,
    min_length: int = MIN_LENGTH,
    max_length: int = MAX_LENGTH,
    spellings: Spellings = "all",
    normalize: Callable[[str], str | None] | None = None,
    progress: Progress | None = None,
    total: int = 0,
) -> WordList:
    """Turn lines into words (tile strings), keeping every rejected line with its reason.

    ``normalize`` maps a raw token to the text to spell (``None`` rejects it; raising
    ``ValueError(reason)`` rejects it with that reason); the default upper-cases it.
    Lengths count tiles, so Spanish ``CHICO`` is four long.
    """
    if min_length < 1 or max_length < min_length:
        raise LexiconError(f"bad length limits {min_length}..{max_length}")
    tokenize = Tokenizer(alphabet, spellings=spellings)
    out = WordList()
    seen: set[bytes] = set()
    seen_entries: set[str] = set()
    step = max(1, total // 100) if total else 10_000
    for number, line in enumerate(lines, start=1):
        out.lines = number
        if progress is not None and number % step == 0:
            progress("reading", number, total)
        if isinstance(line, bytes):
            raw = line
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                shown = raw.decode("utf-8", "replace")
                why = f"not valid UTF-8: {exc.reason}"
                out.rejected.append(Rejected(number, shown, why, NOT_UTF8))
                continue
        fields = line.split(None, 1)
        if not fields:
            out.blank_lines += 1
            continue
        token = fields[0].lstrip("\ufeff")
        try:
            text = normalize(token) if normalize is not None else token.upper()
        except ValueError as exc:
            why = str(exc)
            kind = OUTSIDE_ALPHABET if why.startswith("character ") else why
            out.rejected.append(Rejected(number, token, why, kind))
            continue
        if text is None:
            why = "left out by the language's rules"
            out.rejected.append(Rejected(number, token, why, why))
            continue
        if text in seen_entries:
            out.duplicates += 1
            continue
        try:
            spelled = tokenize(text)
        except ValueError as exc:
            out.rejected.append(Rejected(number, token, str(exc), OUTSIDE_ALPHABET))
            continue
        fitting = [s for s in spelled if min_length <= len(s) <= max_length]
        if not fitting:
            lengths = sorted({len(s) for s in spelled})
            shown = "/".join(map(str, lengths))
            why = f"length {shown} is outside {min_length}–{max_length} tiles"
            out.rejected.append(Rejected(number, token, why, BAD_LENGTH))
            continue
        seen_entries.add(text)
        out.entries += 1
        for s in fitting:
            if s not in seen:
                seen.add(s)
                out.words.append(s)
    if progress is not None:
        progress("reading", out.lines, out.lines)
    return out
