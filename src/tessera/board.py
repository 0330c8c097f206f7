"""The board: squares, GCG coordinates (R0.2), and the words a placement forms (R2.4, R2.8)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .display import BOARD_SVG, BOARD_TEXT, draw
from .layouts import Layout
from .tiles import Alphabet, TileSet

EMPTY = 0


class CoordinateError(ValueError):
    """Text that is not a GCG position on this board."""


# ASCII only: a non-ASCII digit such as '٨' or '８' is not a row number
_POSITION = re.compile(r"^\s*(?:(\d{1,2})([A-Za-z])|([A-Za-z])(\d{1,2}))\s*$", re.ASCII)


def parse_position(text: str, rows: int = 15, cols: int = 15) -> tuple[int, int, bool]:
    """``8D`` → (7, 3, across); ``D8`` → (7, 3, down). R0.2.2: row number first means across."""
    m = _POSITION.match(text)
    if not m:
        raise CoordinateError(
            f"{text!r} is not a position: use row then column for across (8D) "
            "or column then row for down (D8)"
        )
    if m.group(1):
        row_text, col_text, across = m.group(1), m.group(2), True
    else:
        col_text, row_text, across = m.group(3), m.group(4), False
    row = int(row_text) - 1
    col = ord(col_text.upper()) - ord("A")
    if not 0 <= row < rows:
        raise CoordinateError(f"{text!r}: row {row + 1} is off the board (1–{rows})")
    if not 0 <= col < cols:
        last = chr(ord("A") + cols - 1)
        raise CoordinateError(f"{text!r}: column {col_text.upper()} is off the board (A–{last})")
    return row, col, across


def format_position(row: int, col: int, across: bool) -> str:
    """The inverse of :func:`parse_position`."""
    letter = chr(ord("A") + col)
    return f"{row + 1}{letter}" if across else f"{letter}{row + 1}"


def square_name(row: int, col: int) -> str:
    """A square as players name it: ``H8``."""
    return f"{chr(ord('A') + col)}{row + 1}"


@dataclass(frozen=True)
class WordSpan:
    """A word on the board: its first square, its direction and its squares' tiles.

    ``new`` marks squares filled by the play being considered.
    """

    row: int
    col: int
    across: bool
    tiles: tuple[int, ...]
    new: tuple[bool, ...]

    def squares(self) -> Iterator[tuple[int, int]]:
        dr, dc = (0, 1) if self.across else (1, 0)
        for i in range(len(self.tiles)):
            yield self.row + dr * i, self.col + dc * i

    @property
    def position(self) -> str:
        return format_position(self.row, self.col, self.across)


class Board:
    """A grid of tiles (``EMPTY`` or a tile id, designated blanks carrying ``BLANK_BIT``).

    The squares are a ``bytearray`` (every tile id is under 256): a server holds a board per
    live game, and a byte array is one object that the cycle collector never has to walk,
    where a list of 225 numbers is 225 references it visits on every full collection.

    ``tileset``, when given, is only for display (letters and their values); a game's board
    has its rules' tile set. ``str(board)`` is a text board with coordinates, premium
    squares shown while empty; in a notebook the board shows as an SVG picture.
    """

    __slots__ = ("_cells", "cols", "layout", "rows", "tileset")

    def __init__(self, layout: Layout, tileset: TileSet | None = None) -> None:
        self.layout = layout
        self.tileset = tileset
        self.rows = layout.rows
        self.cols = layout.cols
        self._cells = bytearray(self.rows * self.cols)

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.layout, other.rows, other.cols = self.layout, self.rows, self.cols
        other.tileset = self.tileset
        other._cells = bytearray(self._cells)
        return other

    @property
    def alphabet(self) -> Alphabet | None:
        """The display alphabet (the tile set's), if the board has one."""
        return None if self.tileset is None else self.tileset.alphabet

    def on_board(self, row: int, col: int) -> bool:
        return 0 <= row < self.rows and 0 <= col < self.cols

    def __getitem__(self, rc: tuple[int, int]) -> int:
        row, col = rc
        return self._cells[row * self.cols + col]

    def get(self, row: int, col: int) -> int:
        """The tile at a square; ``EMPTY`` off the board too (convenient for neighbours)."""
        if 0 <= row < self.rows and 0 <= col < self.cols:
            return self._cells[row * self.cols + col]
        return EMPTY

    def set(self, row: int, col: int, tile: int) -> None:
        self._cells[row * self.cols + col] = tile

    @property
    def cells(self) -> list[int]:
        """Row-major tiles (a copy)."""
        return list(self._cells)

    def cell_bytes(self) -> bytes:
        """Row-major tiles as bytes (a copy; what the compiled generator reads)."""
        return bytes(self._cells)

    def is_empty(self) -> bool:
        return not any(self._cells)

    def tile_count(self) -> int:
        return sum(1 for t in self._cells if t)

    def placed_tiles(self) -> list[int]:
        """The tiles on the board, in no particular order."""
        return [t for t in self._cells if t]

    def occupied(self) -> Iterator[tuple[int, int, int]]:
        for i, t in enumerate(self._cells):
            if t:
                yield i // self.cols, i % self.cols, t

    def place(self, placements: Iterable[tuple[int, int, int]]) -> None:
        for row, col, tile in placements:
            self.set(row, col, tile)

    def lift(self, placements: Iterable[tuple[int, int, int]]) -> None:
        for row, col, _tile in placements:
            self.set(row, col, EMPTY)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Board) and self.layout == other.layout and self._cells == other._cells
        )

    __hash__ = None  # type: ignore[assignment]

    # -- display -------------------------------------------------------------------------

    def __repr__(self) -> str:
        return f"<Board {self.layout.name} {self.rows}×{self.cols}: {self.tile_count()} tiles>"

    def __str__(self) -> str:
        # drawn by tessera.render.text (render builds on the board, not the reverse)
        return draw(BOARD_TEXT, self, self.alphabet).rstrip("\n")

    def _repr_svg_(self) -> str | None:
        """Jupyter's picture of the board (None without a tile set: Jupyter shows the text)."""
        if self.tileset is None:
            return None
        return draw(BOARD_SVG, self, self.tileset)

    # -- words ---------------------------------------------------------------------------

    def run_through(
        self, row: int, col: int, across: bool, extra: dict[tuple[int, int], int] | None = None
    ) -> WordSpan:
        """The maximal run of filled squares through (row, col) in one direction.

        ``extra`` holds tiles being placed (not yet on the board); they count as filled and
        are marked new.
        """
        extra = extra or {}
        dr, dc = (0, 1) if across else (1, 0)

        def filled(r: int, c: int) -> int:
            return extra.get((r, c)) or self.get(r, c)

        r, c = row, col
        while self.on_board(r - dr, c - dc) and filled(r - dr, c - dc):
            r, c = r - dr, c - dc
        start = (r, c)
        tiles: list[int] = []
        new: list[bool] = []
        while self.on_board(r, c) and filled(r, c):
            tiles.append(filled(r, c))
            new.append((r, c) in extra)
            r, c = r + dr, c + dc
        return WordSpan(start[0], start[1], across, tuple(tiles), tuple(new))

    def words_formed(
        self, placements: Iterable[tuple[int, int, int]], across: bool
    ) -> list[WordSpan]:
        """R2.8: the main word (first) and one cross-word per new tile, runs of 2+ only.

        ``across`` picks the main-word direction (it matters only for single-tile plays,
        where either direction may be the main word, R2.9).
        """
        extra = {(r, c): t for r, c, t in placements}
        if not extra:
            return []
        first = min(extra)
        main = self.run_through(first[0], first[1], across, extra)
        words = [main] if len(main.tiles) >= 2 else []
        for r, c in sorted(extra):
            cross = self.run_through(r, c, not across, extra)
            if len(cross.tiles) >= 2:
                words.append(cross)
        return words

    def to_text(self, alphabet: Alphabet) -> str:
        """Rows of labels, ``.`` for empty squares (the CGP board without run-length)."""
        lines = []
        for r in range(self.rows):
            lines.append(
                " ".join(
                    alphabet.label(t) if t else "."
                    for t in self._cells[r * self.cols : (r + 1) * self.cols]
                )
            )
        return "\n".join(lines)
