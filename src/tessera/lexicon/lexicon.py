"""Lexicon: a word graph with its alphabet and name, loaded by name or path, cached by content.

Where lexicons come from, in the order a name is tried:

1. a path to a file: a KWG word graph or a text word list (plain or gzipped), told by its
   content, not its name (:mod:`tessera.lexicon.detect`); anything else — a KLV2 leave table,
   a program, binary data — is refused saying what it is, and a foreign KWG is vetted
   (:mod:`tessera.lexicon.vet`) for its alphabet, alphagrams and size;
2. a shipped list (``enable``);
3. the lexicon directory (``$TESSERA_LEXICON_DIR``, else ``~/.local/share/tessera/lexicons``),
   where users drop NWL/CSW text or KWG files and ``tessera lexicon install`` puts the lists
   it builds: ``NAME.kwg`` or ``NAME.txt``/``NAME.txt.gz``, with an optional ``NAME.json``
   naming the alphabet.

A text list is compiled once and cached by the hash of its bytes and the build settings in
``$TESSERA_CACHE_DIR/lexicons`` (else ``~/.cache/tessera/lexicons``); later loads memory-map
the cached graph.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from itertools import product
from pathlib import Path
from typing import Any

from tessera.lexicon import search
from tessera.lexicon.detect import FileKind, detect_file, refuse_unless_word_list
from tessera.lexicon.errors import KwgError, LexiconError, UnknownLexicon
from tessera.lexicon.kwg import Kwg, build_bytes, write_atomic
from tessera.lexicon.vet import vet_word_graph
from tessera.lexicon.wordlist import (
    MAX_LENGTH,
    MIN_LENGTH,
    Progress,
    Spellings,
    Tokenizer,
    WordList,
    fold_to_alphabet,
    parse_words,
    read_list_bytes,
    text_lines,
)
from tessera.tiles import BLANK, BLANK_BIT, Alphabet, TileError, face, tileset

CACHE_ENV = "TESSERA_CACHE_DIR"
LEXICON_DIR_ENV = "TESSERA_LEXICON_DIR"
CACHE_FORMAT = 2  # bump when the build output for the same input changes

# name -> (file in tessera/data/lexicons, tile set whose alphabet it uses)
SHIPPED: dict[str, tuple[str, str]] = {"enable": ("enable2k.txt.gz", "english")}
TEXT_SUFFIXES = (".txt.gz", ".txt", ".gz")
KWG_SUFFIX = ".kwg"


def cache_dir() -> Path:
    """Where compiled lexicons are cached."""
    env = os.environ.get(CACHE_ENV)
    return Path(env) if env else Path.home() / ".cache" / "tessera"


def lexicon_dir() -> Path:
    """Where users keep their own lists (and ``tessera lexicon install`` writes)."""
    env = os.environ.get(LEXICON_DIR_ENV)
    return Path(env) if env else Path.home() / ".local" / "share" / "tessera" / "lexicons"


def resolve_alphabet(alphabet: Alphabet | str | None, default: str = "english") -> Alphabet:
    """An Alphabet from itself, a tile-set name, or the default tile set."""
    if isinstance(alphabet, Alphabet):
        return alphabet
    try:
        return tileset(alphabet or default).alphabet
    except TileError as exc:
        raise LexiconError(str(exc)) from None


def _stem(path: Path) -> str:
    name = path.name
    for suffix in (*TEXT_SUFFIXES, KWG_SUFFIX):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return path.stem


@dataclass(frozen=True)
class Available:
    """A lexicon that can be loaded by name."""

    name: str
    where: str  # "shipped" or the file's path
    kind: str  # "text" or "kwg"


def available() -> list[Available]:
    """Shipped lexicons and those in the lexicon directory."""
    out = [Available(name, "shipped", "text") for name in SHIPPED]
    folder = lexicon_dir()
    if folder.is_dir():
        for p in sorted(folder.iterdir()):
            low = p.name.lower()
            if low.endswith(KWG_SUFFIX):
                out.append(Available(_stem(p), str(p), "kwg"))
            elif low.endswith(TEXT_SUFFIXES):
                out.append(Available(_stem(p), str(p), "text"))
    return out


def _find_in_dir(name: str) -> Path | None:
    folder = lexicon_dir()
    if not folder.is_dir():
        return None
    matches = [p for p in folder.iterdir() if _stem(p).lower() == name.lower() and p.is_file()]
    for wanted in (KWG_SUFFIX, *TEXT_SUFFIXES):
        for p in matches:
            if p.name.lower().endswith(wanted):
                return p
    return None


def locate(spec: str | os.PathLike[str]) -> Path | str:
    """Where :meth:`Lexicon.load` finds ``spec``, without reading it: a file's path (given, or
    found by name in the lexicon directory) or a shipped lexicon's name. Raises
    :class:`UnknownLexicon` when it names nothing."""
    text = os.fspath(spec)
    path = Path(text).expanduser()
    looks_like_path = os.sep in text or text.lower().endswith((*TEXT_SUFFIXES, KWG_SUFFIX))
    if looks_like_path or path.is_file():
        if not path.is_file():
            raise UnknownLexicon(f"no lexicon file {text!r}")
        return path
    key = text.lower()
    if key in SHIPPED:
        return key
    found = _find_in_dir(text)
    if found is not None:
        return found
    names = ", ".join(sorted({a.name for a in available()}))
    raise UnknownLexicon(
        f"no lexicon named {text!r}: not a file, not shipped, and not in {lexicon_dir()} "
        f"(known: {names})"
    )


def _read_sidecar(path: Path) -> dict[str, Any]:
    side = path.with_name(_stem(path) + ".json")
    if not side.is_file():
        return {}
    try:
        data = json.loads(side.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise LexiconError(f"{side}: not a readable lexicon description: {exc}") from None
    if not isinstance(data, dict):
        raise LexiconError(f"{side}: expected a JSON object")
    return data


def _sidecar_alphabet(meta: dict[str, Any]) -> Alphabet | None:
    labels = meta.get("labels")
    name = meta.get("alphabet")
    if isinstance(labels, list) and labels:
        try:
            return Alphabet(str(name or "custom"), tuple(str(x) for x in labels))
        except TileError as exc:
            raise LexiconError(f"lexicon description: {exc}") from None
    if isinstance(name, str):
        return resolve_alphabet(name)
    return None


def _tokens(alphabet: Alphabet, text: str) -> list[tuple[int, ...]]:
    """Every tile spelling of text, upper-cased and with accents that are not letters of the
    alphabet stripped (empty if it has no spelling)."""
    try:
        text = fold_to_alphabet(text.strip(), alphabet)
    except ValueError:
        return []
    if not text:
        return []
    try:
        return alphabet.spellings(text)
    except TileError:
        return []


def hunspell_checker(base: str) -> Callable[[str], bool] | None:
    """A word check by Hunspell dictionary ``base`` (``.dic``/``.aff``) through spylls, loaded
    on first use; None when spylls or the dictionary is missing."""
    if importlib.util.find_spec("spylls") is None or not Path(base + ".dic").is_file():
        return None
    loaded: list[Any] = []

    def check(word: str) -> bool:
        if not loaded:
            from spylls.hunspell import Dictionary

            loaded.append(Dictionary.from_files(base))
        return bool(loaded[0].lookup(word))

    return check


class Lexicon:
    """A word list compiled to a KWG, with the alphabet its tiles belong to.

    Tile arguments are sequences of tile ids; designated blanks (``letter | BLANK_BIT``)
    count as their letter. Text arguments are case-insensitive and may be spelled several
    ways in alphabets with multi-letter tiles; a word is valid if any spelling is.
    """

    def __init__(
        self,
        kwg: Kwg,
        alphabet: Alphabet,
        name: str,
        *,
        info: dict[str, Any] | None = None,
        key: str | None = None,
    ) -> None:
        self.kwg = kwg
        self.alphabet = alphabet
        self.name = name
        self.info: dict[str, Any] = dict(info or {})
        self.report: WordList | None = None  # set when this object built the graph itself
        self._key = key
        self._count: int | None = None
        self._alpha: Kwg | None = None
        # byte -> letter: letters map to themselves, designated blanks to their letter, and
        # anything else (the undesignated blank, ids past the alphabet) to 0
        n = len(alphabet)
        self._letter_table = bytes(
            (b & ~BLANK_BIT) if 1 <= (b & ~BLANK_BIT) <= n else 0 for b in range(256)
        )
        self._tokenizer = Tokenizer(alphabet)
        # Extra validity for human plays beyond the finite graph (Hungarian: Hunspell).
        # Called with the word in lower case; the move generator uses only the graph.
        self.checker: Callable[[str], bool] | None = None

    # -- loading --------------------------------------------------------------------------

    @classmethod
    def load(
        cls,
        spec: str | os.PathLike[str],
        *,
        alphabet: Alphabet | str | None = None,
        name: str | None = None,
        min_length: int = MIN_LENGTH,
        max_length: int = MAX_LENGTH,
        spellings: Spellings = "all",
        progress: Progress | None = None,
        cache: bool = True,
    ) -> Lexicon:
        """Load a shipped lexicon, one from the lexicon directory, or a file (see module doc).

        Text lists are compiled with words of ``min_length``..``max_length`` tiles (longer
        words cannot be played on the board) and cached; ``.kwg`` files are memory-mapped.
        """
        where = locate(spec)
        if isinstance(where, Path):
            return cls._load_file(where, alphabet, name or _stem(where), min_length, max_length,
                                  spellings, progress, cache)
        filename, tiles = SHIPPED[where]
        raw = (resources.files("tessera") / "data" / "lexicons" / filename).read_bytes()
        return cls._from_text_bytes(raw, resolve_alphabet(alphabet, tiles), name or where,
                                    f"shipped:{filename}", min_length, max_length, spellings,
                                    progress, cache)

    @classmethod
    def _load_file(
        cls,
        path: Path,
        alphabet: Alphabet | str | None,
        name: str,
        min_length: int,
        max_length: int,
        spellings: Spellings,
        progress: Progress | None,
        cache: bool,
    ) -> Lexicon:
        meta = _read_sidecar(path)
        described = _sidecar_alphabet(meta)
        alpha = (
            resolve_alphabet(alphabet) if alphabet is not None
            else described or resolve_alphabet(None)
        )
        name = str(meta.get("name", name)) if meta and name == _stem(path) else name
        detected = detect_file(path)
        refuse_unless_word_list(path, detected)
        if detected.kind is FileKind.KWG:
            kwg = Kwg.load(path)
            try:
                playable = vet_word_graph(
                    kwg, alpha, str(path), declared=alphabet is not None or described is not None
                )
            except KwgError:
                kwg.close()
                raise
            if playable is not kwg:
                kwg.close()
            lex = cls(playable, alpha, name, info={**meta, "source": str(path)})
            if isinstance(meta.get("hunspell"), str):
                lex.checker = hunspell_checker(meta["hunspell"])
            return lex
        raw = read_list_bytes(path)
        spellings = meta.get("spellings", spellings) if meta else spellings
        return cls._from_text_bytes(raw, alpha, name, str(path), min_length, max_length,
                                    spellings, progress, cache)

    @classmethod
    def _from_text_bytes(
        cls,
        raw: bytes,
        alphabet: Alphabet,
        name: str,
        source: str,
        min_length: int,
        max_length: int,
        spellings: Spellings,
        progress: Progress | None,
        cache: bool,
    ) -> Lexicon:
        h = hashlib.sha256()
        h.update(f"tessera-lexicon {CACHE_FORMAT}\0{alphabet.name}\0".encode())
        h.update("\0".join(alphabet.labels).encode())
        h.update(f"\0{min_length}\0{max_length}\0{spellings}\0".encode())
        h.update(raw)
        key = h.hexdigest()[:40]
        folder = cache_dir() / "lexicons"
        kwg_path, meta_path = folder / f"{key}.kwg", folder / f"{key}.json"
        if cache and meta_path.is_file() and kwg_path.is_file():
            try:
                info = json.loads(meta_path.read_text(encoding="utf-8"))
                # the structure check is skipped for our own cache entries; a hash of the
                # mapped bytes (a few ms) guards against damaged or altered files instead
                kwg = Kwg.load(kwg_path, check=False)
                if hashlib.sha256(kwg.nodes).hexdigest() == info.get("sha256"):
                    info["source"] = source
                    return cls(kwg, alphabet, name, info=info, key=key)
                kwg.close()
            except (OSError, ValueError, KwgError):
                pass  # a damaged cache entry is rebuilt below
        lines = text_lines(raw, origin=source)
        words = parse_words(lines, alphabet, min_length=min_length, max_length=max_length,
                            spellings=spellings, progress=progress, total=len(lines))
        if progress is not None:
            progress("building", 0, 1)
        data = build_bytes(words.words)
        if progress is not None:
            progress("building", 1, 1)
        info = {
            "name": name,
            "source": source,
            "alphabet": alphabet.name,
            "labels": list(alphabet.labels),
            "words": words.entries,
            "spellings": spellings,
            "min_length": min_length,
            "max_length": max_length,
            "rejected": len(words.rejected),
            "rejected_by_reason": words.reasons(),
            "nodes": len(data) // 4,
            "sha256": hashlib.sha256(data).hexdigest(),
        }
        kwg = Kwg(data, check=False)
        if cache:
            try:
                write_atomic(kwg_path, data)
                write_atomic(meta_path, json.dumps(info, indent=1).encode())
            except OSError:
                pass  # an unwritable cache only costs the next load a rebuild
        lex = cls(kwg, alphabet, name, info=info, key=key)
        lex.report = words
        return lex

    @classmethod
    def from_words(
        cls,
        words: Iterable[str],
        alphabet: Alphabet | str | None = None,
        *,
        name: str = "custom",
        min_length: int = MIN_LENGTH,
        max_length: int = MAX_LENGTH,
        spellings: Spellings = "all",
    ) -> Lexicon:
        """Compile words given as text, in memory (no cache). Rejected words are in
        ``report.rejected``."""
        alpha = resolve_alphabet(alphabet)
        words_list = parse_words(words, alpha, min_length=min_length, max_length=max_length,
                                 spellings=spellings)
        kwg = Kwg(build_bytes(words_list.words), check=False)
        info = {"name": name, "alphabet": alpha.name, "labels": list(alpha.labels),
                "words": words_list.entries, "spellings": spellings,
                "min_length": min_length, "max_length": max_length,
                "rejected": len(words_list.rejected), "nodes": len(kwg)}
        lex = cls(kwg, alpha, name, info=info)
        lex.report = words_list
        return lex

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the graph to ``path`` (a ``.kwg``) and its description beside it
        (``NAME.json``: name and alphabet), so loading it by name restores both."""
        path = Path(path)
        self.kwg.save(path)
        meta = {k: v for k, v in self.info.items() if k not in ("source", "nodes")}
        meta.update(name=self.name, alphabet=self.alphabet.name,
                    labels=list(self.alphabet.labels))
        side = path.with_name(_stem(path) + ".json")
        write_atomic(side, json.dumps(meta, indent=1).encode())
        return side

    # -- size and listing -----------------------------------------------------------------

    def __len__(self) -> int:
        if self._count is None:
            self._count = self.kwg.count()
        return self._count

    def __repr__(self) -> str:
        return f"<Lexicon {self.name!r}: {len(self):,} words, {self.alphabet.name} alphabet>"

    def words(self) -> Iterator[tuple[int, ...]]:
        """Every word in tiles, in tile order."""
        return self.kwg.words()

    def format(self, tiles: Sequence[int]) -> str:
        """A word's text (blank-made letters in lower case)."""
        return self.alphabet.format(tiles)

    # -- validity -------------------------------------------------------------------------

    def _letters(self, tiles: Sequence[int]) -> bytes | None:
        """Letters of tiles, designated blanks as their letters; None if any is no letter."""
        try:
            letters = bytes(tiles).translate(self._letter_table)
        except (ValueError, TypeError):
            return None  # a value outside 0..255 is no tile
        return None if 0 in letters else letters

    def contains(self, tiles: Sequence[int]) -> bool:
        """True if the tiles spell a word (undesignated blanks spell nothing)."""
        letters = self._letters(tiles)
        if not letters:
            return False
        if self.kwg.accepts_path(letters, self.kwg.dawg_root):
            return True
        return self.checker is not None and self.checker(self.alphabet.format(letters).lower())

    def contains_word(self, text: str) -> bool:
        """True if ``text`` (any case, any tile spelling) is a word."""
        try:
            spelled: Iterable[Sequence[int]] = self._tokenizer(text.strip().upper())
        except ValueError:  # accents to strip, or no spelling at all
            spelled = _tokens(self.alphabet, text)
        return any(self.contains(s) for s in spelled)

    def __contains__(self, item: object) -> bool:
        if isinstance(item, str):
            return self.contains_word(item)
        if isinstance(item, (tuple, list, bytes)):
            return self.contains(item)
        return False

    def alphagrams(self) -> Kwg:
        """A DAWG (no GADDAG) of every word's letters in ascending tile order: the word list
        for Clabbers and for anagram questions. Built on first use, then kept in memory and in
        the lexicon cache."""
        if self._alpha is not None:
            return self._alpha
        key = self._key or hashlib.sha256(self.kwg.to_bytes()).hexdigest()[:40]
        path = cache_dir() / "lexicons" / f"{key}.alpha.kwg"
        if path.is_file():
            try:
                self._alpha = Kwg.load(path, check=False)
                return self._alpha
            except KwgError:
                pass
        data = build_bytes((bytes(sorted(w)) for w in self.kwg.words()), gaddag=False)
        try:
            write_atomic(path, data)
        except OSError:
            pass
        self._alpha = Kwg(data, check=False)
        return self._alpha

    def has_anagram(self, tiles: Sequence[int]) -> bool:
        """Clabbers validity: some word uses exactly these tiles in some order. Undesignated
        blanks (0) may stand for any letter."""
        if not tiles:
            return False
        blanks = sum(1 for t in tiles if t == BLANK)
        letters = self._letters([t for t in tiles if t != BLANK])
        if letters is None:
            return False
        if blanks:
            counts = [0] * (len(self.alphabet) + 1)
            counts[0] = blanks
            for t in letters:
                counts[t] += 1
            return bool(search.anagrams(self.kwg, counts, exact=True, min_length=len(tiles)))
        return self.alphagrams().contains(sorted(letters))

    def alphagram(self, tiles: Sequence[int]) -> list[tuple[int, ...]]:
        """Every word whose letters are exactly ``tiles`` (the Clabbers lookup)."""
        return self.anagrams(tiles, partial=False)

    # -- searches -------------------------------------------------------------------------

    def rack(self, text: str) -> list[int]:
        """Parse rack text: letters in any case, ``?`` for a blank."""
        try:
            return [face(t) for t in self.alphabet.parse(text.strip().upper())]
        except TileError as exc:
            raise LexiconError(str(exc)) from None

    def anagrams(
        self, rack: Sequence[int] | str, *, partial: bool = True, min_length: int = 2
    ) -> list[tuple[int, ...]]:
        """Words made from the rack's tiles (``?`` = blank): all of them, or with
        ``partial`` every word of ``min_length`` or more tiles (sub-anagrams). Letters made
        by a blank carry :data:`BLANK_BIT`. In tile order."""
        tiles = self.rack(rack) if isinstance(rack, str) else [face(t) for t in rack]
        counts = [0] * (len(self.alphabet) + 1)
        for t in tiles:
            if not 0 <= t < len(counts):
                raise LexiconError(f"tile {t} is not in the {self.alphabet.name} alphabet")
            counts[t] += 1
        if not tiles:
            return []
        if partial:
            return search.anagrams(self.kwg, counts, min_length=max(1, min_length))
        return search.anagrams(self.kwg, counts, exact=True, min_length=len(tiles))

    def _pattern_tokens(self, pattern: str) -> list[list[int]]:
        """The tile-token sequences a pattern text stands for (one per spelling)."""
        parts: list[list[tuple[int, ...]]] = []
        chunk = ""
        for ch in pattern.strip().upper() + "\0":
            if ch in "?*\0":
                if chunk:
                    spelled = _tokens(self.alphabet, chunk)
                    if not spelled:
                        raise LexiconError(
                            f"pattern {pattern!r}: {chunk!r} is not spelled in the "
                            f"{self.alphabet.name} alphabet"
                        )
                    parts.append(spelled)
                    chunk = ""
                if ch == "?":
                    parts.append([(search.ANY,)])
                elif ch == "*":
                    parts.append([(search.RUN,)])
            else:
                chunk += ch
        return [[t for piece in combo for t in piece] for combo in product(*parts)]

    def pattern(
        self, pattern: str, *, min_length: int = 1, max_length: int | None = None
    ) -> list[tuple[int, ...]]:
        """Words matching a pattern: letters, ``?`` for any one tile, ``*`` for any run of
        tiles (also none). ``CH?`` in Spanish means the CH tile then one more. Sorted."""
        found: set[tuple[int, ...]] = set()
        for tokens in self._pattern_tokens(pattern):
            if search.RUN in tokens:
                found.update(self._match_runs(tokens))
            else:
                found.update(search.match(self.kwg, tokens))
        top = max_length if max_length is not None else 1 << 30
        return sorted(w for w in found if min_length <= len(w) <= top)

    def _match_runs(self, tokens: Sequence[int]) -> Iterator[tuple[int, ...]]:
        """Words matching tokens with a run (``*``): the words that begin with the pattern's
        fixed start, listed by the compiled core, kept where the whole pattern matches. The
        graph walk of :func:`search.match` tries every split of every run in Python, seconds
        for ``*ING``; this takes a fraction of one."""
        head: list[int] = []
        for t in tokens:
            if t < 0:
                break
            head.append(t)
        parts = [
            b".*" if t == search.RUN else b"." if t == search.ANY else re.escape(bytes([t]))
            for t in tokens
        ]
        whole = re.compile(b"".join(parts), re.DOTALL)
        candidates = search.starting_with(self.kwg, head) if head else self.kwg.words()
        return (w for w in candidates if whole.fullmatch(bytes(w)))

    def _affix(self, affix: Sequence[int] | str) -> list[tuple[int, ...]]:
        if isinstance(affix, str):
            return [tuple(s) for s in _tokens(self.alphabet, affix)]
        letters = self._letters(affix)
        return [tuple(letters)] if letters else []

    def starting_with(self, prefix: Sequence[int] | str) -> list[tuple[int, ...]]:
        """Words that begin with the prefix, sorted."""
        out: set[tuple[int, ...]] = set()
        for p in self._affix(prefix):
            out.update(search.starting_with(self.kwg, p))
        return sorted(out)

    def ending_with(self, suffix: Sequence[int] | str) -> list[tuple[int, ...]]:
        """Words that end with the suffix, sorted (searched through the GADDAG)."""
        out: set[tuple[int, ...]] = set()
        for s in self._affix(suffix):
            out |= search.ending_with(self.kwg, s)
        return sorted(out)

    def containing(self, infix: Sequence[int] | str) -> list[tuple[int, ...]]:
        """Words that contain the tiles anywhere, sorted (searched through the GADDAG)."""
        out: set[tuple[int, ...]] = set()
        for s in self._affix(infix):
            out |= search.containing(self.kwg, s)
        return sorted(out)
