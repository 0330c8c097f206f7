"""Tiles: alphabets with multi-letter labels, tile sets, racks, and the one text→tiles parser.

A tile is a small integer. ``0`` is the blank as it sits on a rack (``?``); letters are
numbered from 1 in alphabet order; a blank on the board designated as letter ``L`` is
``L | BLANK_BIT``. This is the numbering wolges uses for KWG/KLV files, so word graphs and
leave tables index by the same ids.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

BLANK = 0
BLANK_BIT = 0x80
BLANK_LABEL = "?"
SEPARATOR = "·"  # between tiles in display text when some label has several letters


class TileError(ValueError):
    """Text that does not spell tiles of an alphabet, or a tile-set definition that is wrong."""


def is_blank(tile: int) -> bool:
    """True for a rack blank (0) and for a designated blank on the board."""
    return tile == BLANK or bool(tile & BLANK_BIT)


def letter_of(tile: int) -> int:
    """The letter a tile stands for (a designated blank's letter; 0 for a rack blank)."""
    return tile & ~BLANK_BIT


def as_blank(letter: int) -> int:
    return letter | BLANK_BIT


def face(tile: int) -> int:
    """The tile as it sits on a rack: designated blanks become the undesignated blank."""
    return BLANK if is_blank(tile) else tile


@dataclass(frozen=True)
class Alphabet:
    """The letters of a language as tile labels; label ``i-1`` is tile ``i``.

    Labels are upper case and may be several characters long (Spanish ``CH``, Hungarian
    ``DZS`` would be one). Text is parsed longest label first; lower case spells a blank.
    """

    name: str
    labels: tuple[str, ...]
    _index: dict[str, int] = field(init=False, repr=False, compare=False)
    _max_len: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.labels:
            raise TileError(f"alphabet {self.name!r} has no letters")
        if len(self.labels) > 0x7F - 1:
            raise TileError(f"alphabet {self.name!r} has {len(self.labels)} letters; at most 126")
        index: dict[str, int] = {}
        for i, label in enumerate(self.labels, start=1):
            if not label or label != label.upper() or label == label.lower():
                raise TileError(
                    f"alphabet {self.name!r}: label {label!r} must be upper case letters"
                )
            if label in index:
                raise TileError(f"alphabet {self.name!r}: label {label!r} appears twice")
            index[label] = i
        object.__setattr__(self, "_index", index)
        object.__setattr__(self, "_max_len", max(len(s) for s in self.labels))

    def __len__(self) -> int:
        return len(self.labels)

    @property
    def size(self) -> int:
        """Number of tile ids including the blank (letters + 1)."""
        return len(self.labels) + 1

    def letter(self, label: str) -> int:
        """The tile id of an upper-case label."""
        try:
            return self._index[label]
        except KeyError:
            raise TileError(f"{label!r} is not a letter of the {self.name} alphabet") from None

    def label(self, tile: int) -> str:
        """Display label: upper case for letters, lower case for designated blanks, ``?``."""
        if tile == BLANK:
            return BLANK_LABEL
        letter = letter_of(tile)
        if not 1 <= letter <= len(self.labels):
            raise TileError(f"tile id {tile} is outside the {self.name} alphabet")
        text = self.labels[letter - 1]
        return text.lower() if tile & BLANK_BIT else text

    def format(self, tiles: Iterable[int]) -> str:
        """Labels run together, as notation writes them (``CHURRO``, ``QUITE``)."""
        return "".join(self.label(t) for t in tiles)

    def text(self, tiles: Iterable[int]) -> str:
        """Tiles as a player reads them — the one display form every repr and str uses.

        Letters in upper case, designated blanks in lower case, ``?`` for an undesignated
        blank. In an alphabet with multi-letter labels the tiles are joined by ``·`` so the
        tiling is never ambiguous (Spanish C·H is two tiles, CH one).

        >>> from tessera import tileset
        >>> spanish = tileset("spanish").alphabet
        >>> spanish.text(spanish.parse("CHURRO")), spanish.text(spanish.parse("chURRO"))
        ('CH·U·RR·O', 'ch·U·RR·O')
        >>> english = tileset("english").alphabet
        >>> english.text(english.parse("QUITe?"))
        'QUITe?'
        """
        return (SEPARATOR if self._max_len > 1 else "").join(self.label(t) for t in tiles)

    def __repr__(self) -> str:
        return f"Alphabet({self.name!r}, {self.text(range(1, self.size))!r})"

    # -- parsing -------------------------------------------------------------------------

    def _match_at(self, text: str, pos: int) -> Iterator[int]:
        """Every tile that can start at ``text[pos]``, longest label first."""
        if text[pos] == BLANK_LABEL:
            yield BLANK
            return
        for n in range(min(self._max_len, len(text) - pos), 0, -1):
            chunk = text[pos : pos + n]
            upper = chunk.upper()
            tile = self._index.get(upper)
            if tile is None:
                continue
            if chunk == upper:
                yield tile
            elif chunk == chunk.lower():
                yield as_blank(tile)

    def parse(self, text: str, *, allow_blank: bool = True) -> Tiles:
        """Parse text into tiles, longest label first (``CSŐSZ`` → CS·Ő·SZ).

        Lower case spells a designated blank, ``?`` an undesignated one. Raises
        :class:`TileError` naming the position that fits no label. The result is a list of
        tile ids that prints as its letters:

        >>> from tessera import tileset
        >>> tileset("spanish").alphabet.parse("CHURRO")
        Tiles('CH·U·RR·O')
        >>> list(tileset("english").alphabet.parse("QI"))
        [17, 9]
        """
        tiles: list[int] = []
        pos = 0
        while pos < len(text):
            tile = next(self._match_at(text, pos), None)
            if tile is None:
                # longest-first met a dead end; a shorter label earlier may still fit
                alternatives = self._spellings(text)
                if not alternatives:
                    raise TileError(
                        f"{text!r}: {text[pos]!r} at position {pos + 1} is not a tile of the "
                        f"{self.name} alphabet"
                    )
                tiles = list(alternatives[0])
                break
            tiles.append(tile)
            pos += len(self.label(tile)) if tile != BLANK else 1
        if not allow_blank and BLANK in tiles:
            raise TileError(f"{text!r}: an undesignated blank '?' is not allowed here")
        return Tiles(tiles, self)

    def spellings(self, text: str) -> list[tuple[int, ...]]:
        """Every way to spell ``text`` in tiles (Hungarian ``CS`` is CS or C·S).

        Ordered longest-label-first, so the first spelling equals :meth:`parse`.
        """
        result = self._spellings(text)
        if not result:
            self.parse(text)  # raises with the position that fails
        return result

    def _spellings(self, text: str) -> list[tuple[int, ...]]:
        memo: dict[int, list[tuple[int, ...]]] = {}

        def rest(pos: int) -> list[tuple[int, ...]]:
            if pos == len(text):
                return [()]
            if pos in memo:
                return memo[pos]
            out: list[tuple[int, ...]] = []
            for tile in self._match_at(text, pos):
                step = 1 if tile == BLANK else len(self.labels[letter_of(tile) - 1])
                out.extend((tile, *tail) for tail in rest(pos + step))
            memo[pos] = out
            return out

        return rest(0)


class Tiles(list[int]):
    """Tile ids that know their alphabet, so they print as letters: ``Tiles('CH·U·RR·O')``.

    It is a plain ``list`` otherwise (equal to a list of the same ids), which is what
    :meth:`Alphabet.parse` has always returned.
    """

    __slots__ = ("alphabet",)

    def __init__(self, tiles: Iterable[int], alphabet: Alphabet) -> None:
        super().__init__(tiles)
        self.alphabet = alphabet

    def __str__(self) -> str:
        return self.alphabet.text(self)

    def __repr__(self) -> str:
        return f"Tiles({self.alphabet.text(self)!r})"


@dataclass(frozen=True)
class TileSet:
    """A bag's contents: an alphabet, each letter's count and value, and the blanks."""

    name: str
    alphabet: Alphabet
    counts: tuple[int, ...]  # indexed by tile id; counts[0] is the number of blanks
    values: tuple[int, ...]  # indexed by tile id; values[0] is the blank's (0)
    description: str = ""
    source: str = ""

    def __post_init__(self) -> None:
        n = self.alphabet.size
        if len(self.counts) != n or len(self.values) != n:
            raise TileError(f"tile set {self.name!r}: counts and values need {n} entries")
        if any(c < 0 for c in self.counts):
            raise TileError(f"tile set {self.name!r}: negative count")

    @property
    def total(self) -> int:
        return sum(self.counts)

    @property
    def blanks(self) -> int:
        return self.counts[BLANK]

    def value(self, tile: int) -> int:
        """Points of a tile; any blank is worth 0 wherever it lies (R3.1, R3.6)."""
        return 0 if is_blank(tile) else self.values[tile]

    def bag(self) -> list[int]:
        """Every tile of the set, in tile-id order (the unshuffled bag)."""
        return [t for t, c in enumerate(self.counts) for _ in range(c)]

    def label(self, tile: int) -> str:
        return self.alphabet.label(tile)

    def parse(self, text: str, *, allow_blank: bool = True) -> list[int]:
        return self.alphabet.parse(text, allow_blank=allow_blank)

    def format(self, tiles: Iterable[int]) -> str:
        return self.alphabet.format(tiles)

    def __repr__(self) -> str:
        return f"<TileSet {self.name}: {self.total} tiles, {self.blanks} blanks>"


def tileset_from_toml(text: str, *, origin: str = "<string>") -> TileSet:
    """Read a tile set from TOML: ``name``, ``blanks``, ``tiles = [["A", count, value], ...]``."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise TileError(f"{origin}: not valid TOML: {exc}") from None
    try:
        name = str(data["name"])
        rows = data["tiles"]
        blanks = int(data.get("blanks", 0))
    except (KeyError, TypeError, ValueError) as exc:
        raise TileError(f"{origin}: missing or bad field {exc}") from None
    labels: list[str] = []
    counts = [blanks]
    values = [0]
    for row in rows:
        if not (isinstance(row, list) and len(row) == 3):
            raise TileError(f"{origin}: tile entry {row!r} must be [label, count, value]")
        label, count, value = row
        labels.append(str(label))
        counts.append(int(count))
        values.append(int(value))
    alphabet = Alphabet(str(data.get("alphabet", name)), tuple(labels))
    return TileSet(
        name=name,
        alphabet=alphabet,
        counts=tuple(counts),
        values=tuple(values),
        description=str(data.get("description", "")),
        source=str(data.get("source", "")),
    )


def available_tilesets() -> list[str]:
    """Names of the shipped tile sets."""
    folder = resources.files("tessera") / "data" / "tilesets"
    return sorted(
        p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml")
    )


@cache
def tileset(name: str) -> TileSet:
    """A shipped tile set by name (``english``, ``english_super``, ``spanish``, …)."""
    path = resources.files("tessera") / "data" / "tilesets" / f"{name}.toml"
    if not path.is_file():
        raise TileError(f"no tile set named {name!r}; shipped: {', '.join(available_tilesets())}")
    return tileset_from_toml(path.read_text(encoding="utf-8"), origin=f"{name}.toml")


class Rack:
    """A multiset of tiles (letters and undesignated blanks), counted per tile id.

    ``alphabet``, when given, is only for display: ``Rack('ABEIQTU')``.

    >>> from tessera import tileset
    >>> rack = Rack.from_text(tileset("english").alphabet, "QUITEAB")
    >>> rack, str(rack), len(rack)
    (Rack('ABEIQTU'), 'ABEIQTU', 7)
    """

    __slots__ = ("_counts", "alphabet")

    def __init__(
        self, size: int, tiles: Iterable[int] = (), alphabet: Alphabet | None = None
    ) -> None:
        self._counts = [0] * size
        self.alphabet = alphabet
        for t in tiles:
            self.add(t)

    @classmethod
    def from_text(cls, alphabet: Alphabet, text: str) -> Rack:
        return cls(alphabet.size, alphabet.parse(text), alphabet)

    def copy(self) -> Rack:
        other = Rack.__new__(Rack)
        other._counts = list(self._counts)
        other.alphabet = self.alphabet
        return other

    @property
    def counts(self) -> Sequence[int]:
        return tuple(self._counts)

    def add(self, tile: int) -> None:
        self._counts[face(tile)] += 1

    def remove(self, tile: int) -> None:
        t = face(tile)
        if self._counts[t] == 0:
            raise TileError(f"tile {tile} is not on the rack")
        self._counts[t] -= 1

    def has(self, tiles: Iterable[int]) -> bool:
        need = [0] * len(self._counts)
        for t in tiles:
            need[face(t)] += 1
        return all(n <= c for n, c in zip(need, self._counts, strict=True))

    def missing(self, tiles: Iterable[int]) -> list[int]:
        """The tiles (as rack faces) of ``tiles`` that this rack cannot supply."""
        left = list(self._counts)
        out = []
        for t in tiles:
            f = face(t)
            if left[f]:
                left[f] -= 1
            else:
                out.append(f)
        return out

    def tiles(self) -> list[int]:
        """Letters in alphabet order, blanks last (the usual way to show a rack)."""
        out = [t for t in range(1, len(self._counts)) for _ in range(self._counts[t])]
        return out + [BLANK] * self._counts[BLANK]

    def __len__(self) -> int:
        return sum(self._counts)

    def __iter__(self) -> Iterator[int]:
        return iter(self.tiles())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rack) and self._counts == other._counts

    def __hash__(self) -> int:
        return hash(tuple(self._counts))

    def __str__(self) -> str:
        if self.alphabet is None:
            return " ".join(map(str, self.tiles()))
        return self.alphabet.text(self.tiles())

    def __repr__(self) -> str:
        if self.alphabet is None:
            return f"Rack({self.tiles()!r})"
        return f"Rack({str(self)!r})"
