"""Premium-square layouts, read from text grids (the same grids RULES.md prints)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

MAX_DIM = 26  # GCG column letters A–Z


class LayoutError(ValueError):
    """A layout grid that cannot be read."""


_PREMIUMS = {
    ".": (1, 1),
    "2L": (2, 1),
    "3L": (3, 1),
    "4L": (4, 1),
    "2W": (1, 2),
    "3W": (1, 3),
    "4W": (1, 4),
}


@dataclass(frozen=True)
class Layout:
    """A board's size, its premium squares and its start square.

    ``letter_mult[r][c]`` and ``word_mult[r][c]`` are 1 on plain squares; rows and columns
    count from 0 at the top left.
    """

    name: str
    rows: int
    cols: int
    letter_mult: tuple[tuple[int, ...], ...]
    word_mult: tuple[tuple[int, ...], ...]
    start: tuple[int, int]

    @property
    def mirror_symmetric(self) -> bool:
        """The layout is its own mirror image across the main diagonal (square, the start
        square on it, premiums symmetric): on it when empty, a play down is a play across
        seen in a mirror, the same move but for its notation."""
        if self.rows != self.cols or self.start[0] != self.start[1]:
            return False
        return all(
            self.letter_mult[r][c] == self.letter_mult[c][r]
            and self.word_mult[r][c] == self.word_mult[c][r]
            for r in range(self.rows)
            for c in range(r + 1, self.cols)
        )

    def premium(self, row: int, col: int) -> str:
        """The square's token: ``.``, ``2L`` … ``4W``."""
        lm, wm = self.letter_mult[row][col], self.word_mult[row][col]
        if wm > 1:
            return f"{wm}W"
        if lm > 1:
            return f"{lm}L"
        return "."

    def to_text(self) -> str:
        """The layout as a text grid that :func:`layout_from_text` reads back."""
        width = 4
        lines = ["   " + "".join(f"{chr(65 + c):>{width}}" for c in range(self.cols))]
        for r in range(self.rows):
            cells = []
            for c in range(self.cols):
                token = self.premium(r, c)
                cells.append(f"{('*' + token) if (r, c) == self.start else token:>{width}}")
            lines.append(f"{r + 1:>3}" + "".join(cells))
        return "\n".join(lines) + "\n"


def layout_from_text(text: str, name: str = "custom") -> Layout:
    """Read a layout grid: an optional header of column letters, then one line per row.

    Each row is an optional row number followed by one token per column (``.``, ``2L``,
    ``3L``, ``4L``, ``2W``, ``3W``, ``4W``); ``*`` before a token (or alone) marks the
    start square. Lines starting with ``#`` are comments.
    """
    rows_tokens: list[list[str]] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip() if raw.lstrip().startswith("#") else raw.strip()
        if not line:
            continue
        tokens = line.split()
        if all(len(t) == 1 and t.isalpha() and t.isupper() for t in tokens) and not rows_tokens:
            continue  # header of column letters
        if tokens[0].isdigit():
            if int(tokens[0]) != len(rows_tokens) + 1:
                raise LayoutError(f"{name}: line {lineno}: row number {tokens[0]} out of order")
            tokens = tokens[1:]
        rows_tokens.append([t for t in tokens])
        for t in tokens:
            if t.lstrip("*") not in _PREMIUMS and t != "*":
                raise LayoutError(f"{name}: line {lineno}: unknown square {t!r}")
    if not rows_tokens:
        raise LayoutError(f"{name}: no rows")
    cols = len(rows_tokens[0])
    for i, row in enumerate(rows_tokens, start=1):
        if len(row) != cols:
            raise LayoutError(f"{name}: row {i} has {len(row)} squares, row 1 has {cols}")
    if not (2 <= cols <= MAX_DIM and 2 <= len(rows_tokens) <= MAX_DIM):
        raise LayoutError(f"{name}: board must be 2..{MAX_DIM} squares each way")
    starts = [
        (r, c) for r, row in enumerate(rows_tokens) for c, t in enumerate(row) if t.startswith("*")
    ]
    if len(starts) > 1:
        raise LayoutError(f"{name}: more than one start square")
    start = starts[0] if starts else (len(rows_tokens) // 2, cols // 2)
    lm = tuple(tuple(_PREMIUMS[t.lstrip("*") or "."][0] for t in row) for row in rows_tokens)
    wm = tuple(tuple(_PREMIUMS[t.lstrip("*") or "."][1] for t in row) for row in rows_tokens)
    return Layout(name, len(rows_tokens), cols, lm, wm, start)


def available_layouts() -> list[str]:
    folder = resources.files("tessera") / "data" / "layouts"
    return sorted(p.name.removesuffix(".txt") for p in folder.iterdir() if p.name.endswith(".txt"))


@cache
def layout(name: str) -> Layout:
    """A shipped layout: ``standard15``, ``super21``, ``wwf15``, ``lexulous15``."""
    path = resources.files("tessera") / "data" / "layouts" / f"{name}.txt"
    if not path.is_file():
        raise LayoutError(f"no layout named {name!r}; shipped: {', '.join(available_layouts())}")
    return layout_from_text(path.read_text(encoding="utf-8"), name)
