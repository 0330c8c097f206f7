"""Boards as SVG pictures (and PNG through headless Chromium), sharing the web board's look.

:data:`THEME` holds the colours and premium-square labels the web page uses too (it is
served to the page as CSS custom properties, see :func:`theme_css`), and :class:`Geometry`
the square size, the margin for coordinates and the gap: one place for how a board looks.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from tessera.board import Board
from tessera.display import BOARD_SVG, register
from tessera.layouts import Layout
from tessera.tiles import TileSet, is_blank

THEME: dict[str, str] = {
    "board": "#1d5c4b",
    "square": "#e9e4d4",
    "2L": "#9fd3e8",
    "3L": "#2f86c2",
    "4L": "#1a4f8a",
    "2W": "#f2b6b0",
    "3W": "#d9473f",
    "4W": "#8e1f1a",
    "start": "#f2b6b0",
    "tile": "#f7d98b",
    "tile-edge": "#c89b3c",
    "tile-text": "#2b2118",
    "blank-text": "#b0281e",
    "last": "#ffe66b",
    "coord": "#f4f1e8",
    "premium-text": "#2b2b2b",
}

PREMIUM_LABELS: dict[str, str] = {
    "2L": "DL",
    "3L": "TL",
    "4L": "QL",
    "2W": "DW",
    "3W": "TW",
    "4W": "QW",
}


@dataclass(frozen=True)
class Geometry:
    """Sizes in SVG user units: a square, the gap between squares and the coordinate margin."""

    square: int = 40
    gap: int = 2
    margin: int = 24

    def origin(self, row: int, col: int) -> tuple[int, int]:
        step = self.square + self.gap
        return self.margin + col * step, self.margin + row * step

    def size(self, layout: Layout) -> tuple[int, int]:
        step = self.square + self.gap
        return (
            self.margin + layout.cols * step - self.gap + self.gap * 2,
            self.margin + layout.rows * step - self.gap + self.gap * 2,
        )


GEOMETRY = Geometry()


def theme_css() -> str:
    """The theme as CSS custom properties for the web page (``--t-2W`` and so on)."""
    lines = [f"  --t-{key}: {value};" for key, value in THEME.items()]
    lines += [f'  --label-{key}: "{value}";' for key, value in PREMIUM_LABELS.items()]
    g = GEOMETRY
    lines.append(f"  --gap-ratio: {g.gap / g.square:.4f};")
    return ":root {\n" + "\n".join(lines) + "\n}\n"


def board_svg(
    board: Board,
    tiles: TileSet,
    *,
    highlight: set[tuple[int, int]] | frozenset[tuple[int, int]] = frozenset(),
    geometry: Geometry = GEOMETRY,
    title: str | None = None,
) -> str:
    """An SVG picture of ``board``: premium squares, tiles with their values, coordinates;
    ``highlight`` squares (the last move) get a bright tile colour."""
    layout = board.layout
    g = geometry
    width, height = g.size(layout)
    extra = 28 if title else 0
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + extra}" '
        f'viewBox="0 0 {width} {height + extra}" font-family="DejaVu Sans, Arial, sans-serif">',
        f'<rect width="{width}" height="{height + extra}" fill="{THEME["board"]}"/>',
    ]
    if title:
        out.append(
            f'<text x="{width / 2}" y="{height + 18}" text-anchor="middle" font-size="15" '
            f'fill="{THEME["coord"]}">{escape(title)}</text>'
        )
    half = g.square / 2
    for c in range(layout.cols):
        x, _ = g.origin(0, c)
        out.append(
            f'<text x="{x + half}" y="{g.margin - 8}" text-anchor="middle" font-size="12" '
            f'fill="{THEME["coord"]}">{chr(65 + c)}</text>'
        )
    for r in range(layout.rows):
        _, y = g.origin(r, 0)
        out.append(
            f'<text x="{g.margin - 6}" y="{y + half + 4}" text-anchor="end" font-size="12" '
            f'fill="{THEME["coord"]}">{r + 1}</text>'
        )
    alphabet = tiles.alphabet
    for r in range(layout.rows):
        for c in range(layout.cols):
            x, y = g.origin(r, c)
            tile = board.get(r, c)
            premium = layout.premium(r, c)
            if tile:
                fill = THEME["last"] if (r, c) in highlight else THEME["tile"]
                out.append(
                    f'<rect x="{x}" y="{y}" width="{g.square}" height="{g.square}" rx="4" '
                    f'fill="{fill}" stroke="{THEME["tile-edge"]}"/>'
                )
                blank = is_blank(tile)
                colour = THEME["blank-text"] if blank else THEME["tile-text"]
                label = escape(alphabet.label(tile).upper())
                size = 22 if len(label) == 1 else 14
                out.append(
                    f'<text x="{x + half}" y="{y + half + 8}" text-anchor="middle" '
                    f'font-size="{size}" font-weight="bold" fill="{colour}">{label}</text>'
                )
                if not blank:
                    out.append(
                        f'<text x="{x + g.square - 3}" y="{y + g.square - 4}" '
                        f'text-anchor="end" font-size="9" fill="{colour}">'
                        f"{tiles.value(tile)}</text>"
                    )
                continue
            is_start = (r, c) == layout.start
            fill = THEME.get(premium, THEME["square"]) if premium != "." else THEME["square"]
            if is_start and premium == ".":
                fill = THEME["start"]
            out.append(
                f'<rect x="{x}" y="{y}" width="{g.square}" height="{g.square}" rx="2" '
                f'fill="{fill}"/>'
            )
            if is_start:
                out.append(
                    f'<text x="{x + half}" y="{y + half + 7}" text-anchor="middle" '
                    f'font-size="20" fill="{THEME["premium-text"]}">★</text>'
                )
            elif premium != ".":
                out.append(
                    f'<text x="{x + half}" y="{y + half + 4}" text-anchor="middle" '
                    f'font-size="11" fill="{THEME["premium-text"]}">'
                    f"{PREMIUM_LABELS[premium]}</text>"
                )
    out.append("</svg>")
    return "\n".join(out) + "\n"


register(BOARD_SVG, board_svg)
