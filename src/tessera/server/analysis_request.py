"""The analysis board's requests, read and checked: a position (a CGP, or a board, a rack,
rules and a word list) and the move list's filters.

Every position goes through the one CGP reader (:func:`tessera.formats.cgp.loads`), which
checks the board's size, every tile against the tile set, the rack's size and the tile
counts; a board and rack are written as a CGP line for it, after their shape and characters
are checked here. Every refusal is a 400 naming what is wrong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from tessera.board import CoordinateError, parse_position
from tessera.formats import cgp
from tessera.rules import PRESETS

from .errors import RequestError, excerpt, field_int, field_str

MAX_CGP = 4096  # a 21×21 position with every opcode is under 1,000 characters
MAX_SIDE = 25  # rows or columns a board may be sent with (the largest layout has 21)
MAX_LABEL = 4  # characters of one tile's label (Hungarian DZS is the longest)
MAX_RACK_TEXT = 64
MAX_FILTER = 32
DEFAULT_LIMIT = 100
MAX_LIMIT = 500
_LABEL = re.compile(r"[^\W\d_]{1,4}")  # letters only: no CGP syntax ([, ], /, digits, ?)
_RACK = re.compile(r"[^\W\d_?\[\]]|[?\[\]]")  # letters, ? and the brackets of a long label


@dataclass(frozen=True)
class Request:
    """A checked analysis request: the position and the filters of the move list."""

    position: cgp.Position
    word: str = ""
    square: tuple[int, int] | None = None
    length: int | None = None
    limit: int = DEFAULT_LIMIT


def read_position(
    body: dict[str, Any], presets: tuple[str, ...], lexicons: tuple[str, ...]
) -> cgp.Position:
    """The position a request names: ``cgp``, or ``board`` (rows of tile labels, a blank's
    letter in lower case, null where empty) with ``rack``, ``rules`` and ``lexicon``.
    A ``lexicon`` sent with a cgp stands instead of its ``lex`` opcode. ``presets`` are the
    rules a board may name (the first is the default), ``lexicons`` the word lists the server
    offers (the first is the default)."""
    text = field_str(body, "cgp", MAX_CGP)
    if text.strip():
        if any(k in body for k in ("board", "rack")):
            raise RequestError(400, "bad_position", "send a cgp or a board and rack, not both")
        position = _loads(text, "bad_cgp", "cgp")
    else:
        position = _loads(_cgp_of_board(body, presets, lexicons), "bad_position", "position")
    chosen = field_str(body, "lexicon", 64) or position.lexicon or lexicons[0]
    if chosen not in lexicons:
        raise RequestError(
            400,
            "bad_lexicon",
            f"no word list {excerpt(chosen)} here; use one of {list(lexicons)}",
        )
    if position.lexicon != chosen:
        position = replace(position, lexicon=chosen)
    return position


def _loads(text: str, reason: str, what: str) -> cgp.Position:
    try:
        return cgp.loads(text)
    except cgp.CgpError as exc:
        raise RequestError(400, reason, f"{what}: {exc}") from None


def _cgp_of_board(body: dict[str, Any], presets: tuple[str, ...], lexicons: tuple[str, ...]) -> str:
    """The CGP line of a board and rack as the page sends them (the other player's rack
    unknown, scores 0; no board is an empty one), for :func:`tessera.formats.cgp.loads` to
    check."""
    rules = field_str(body, "rules", 64) or presets[0]
    if rules not in presets:
        raise RequestError(
            400, "bad_rules", f"no rules preset {excerpt(rules)}; use one of {list(presets)}"
        )
    lexicon = field_str(body, "lexicon", 64) or lexicons[0]
    if lexicon not in lexicons:
        raise RequestError(
            400, "bad_lexicon", f"no word list {excerpt(lexicon)} here; use one of {list(lexicons)}"
        )
    rack = field_str(body, "rack", MAX_RACK_TEXT).strip()
    if rack and _RACK.sub("", rack):
        raise RequestError(400, "bad_rack", f"rack {excerpt(rack)}: only letters and ? for a blank")
    board = body.get("board")
    if board is None:  # an empty board of the rules' layout
        layout = PRESETS[rules].layout
        rows = [str(layout.cols)] * layout.rows
    else:
        rows = _board_rows(board)
    return f"{'/'.join(rows)} {rack}/ 0/0 0 lex {lexicon}; tr {rules};"


def _board_rows(board: Any) -> list[str]:
    if not isinstance(board, list) or not board or len(board) > MAX_SIDE:
        raise RequestError(400, "bad_board", f"board must be a list of 1–{MAX_SIDE} rows")
    rows = []
    for r, row in enumerate(board, start=1):
        if not isinstance(row, list) or not row or len(row) > MAX_SIDE:
            raise RequestError(
                400, "bad_board", f"board row {r} must be a list of 1–{MAX_SIDE} squares"
            )
        text, empty = [], 0
        for c, label in enumerate(row):
            if label is None or label == "":
                empty += 1
                continue
            if not isinstance(label, str) or not _LABEL.fullmatch(label):
                raise RequestError(
                    400,
                    "bad_board",
                    f"square {chr(ord('A') + c)}{r}: {excerpt(label)} is not a tile "
                    f"(letters, at most {MAX_LABEL}; a blank in lower case)",
                )
            if empty:
                text.append(str(empty))
                empty = 0
            text.append(label if len(label) == 1 else f"[{label}]")
        if empty:
            text.append(str(empty))
        rows.append("".join(text))
    return rows


def read_request(
    body: dict[str, Any], presets: tuple[str, ...], lexicons: tuple[str, ...]
) -> Request:
    """The position and the move list's filters (``word``, ``square``, ``length``,
    ``limit``), every one checked."""
    position = read_position(body, presets, lexicons)
    word = field_str(body, "word", MAX_FILTER).strip().upper()
    if not re.fullmatch(r"(?:[^\W\d_]|[?.])*", word):
        raise RequestError(
            400, "bad_word", f"word {excerpt(word)}: letters, with ? or . for any one tile"
        )
    square = None
    square_text = field_str(body, "square", 8).strip()
    if square_text:
        layout = position.rules.layout
        try:
            row, col, _ = parse_position(square_text.upper(), layout.rows, layout.cols)
        except CoordinateError:
            raise RequestError(
                400, "bad_square", f"square {excerpt(square_text)}: write it as 8D or D8"
            ) from None
        square = (row, col)
    length = field_int(body, "length", required=False)
    if length is not None and not 1 <= length <= MAX_SIDE:
        raise RequestError(400, "bad_length", f"length must be 1–{MAX_SIDE}")
    limit = field_int(body, "limit", required=False)
    if limit is None:
        limit = DEFAULT_LIMIT
    if not 1 <= limit <= MAX_LIMIT:
        raise RequestError(400, "bad_limit", f"limit must be 1–{MAX_LIMIT}")
    return Request(position, word, square, length, limit)
