"""Moves — Play, Exchange, Pass, Challenge — and their notation (R0.2.3, R9.4, R9.5).

A play's ``word`` is its whole main word; ``PLAYED_THROUGH`` (0) marks a square whose tile
was already on the board. Two plays that put the same tiles on the same squares are equal,
whichever direction names them (``9G T.`` and ``G8 .T``, R2.9).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from .board import Board, CoordinateError, format_position, parse_position, square_name
from .tiles import BLANK, Alphabet, TileError, face, is_blank, letter_of

PLAYED_THROUGH = 0


class NotationError(ValueError):
    """Move text that cannot be read."""


def _known(given: Alphabet | None, move: Play | Exchange) -> Alphabet:
    """The alphabet to write ``move`` in: the one given, else the one the move carries."""
    alphabet = given if given is not None else move.alphabet
    if alphabet is None:
        raise ValueError(f"{move!r} does not know its alphabet: pass one")
    return alphabet


class Move:
    """Base of every move kind."""

    __slots__ = ()

    def is_play(self) -> bool:
        return isinstance(self, Play)


@dataclass(frozen=True, eq=False)
class Play(Move):
    """Tiles placed in one row or column: ``word`` is the whole main word from (row, col).

    ``alphabet`` is only for display and notation (it takes no part in equality); plays made
    by a game, the parsers, the move generators and the computer players carry it.

    >>> from tessera import tileset
    >>> english = tileset("english").alphabet
    >>> play = Play.from_gcg("8D QUITE", english).with_score(48)
    >>> play, str(play), play.position
    (Play('8D QUITE', score=48), '8D QUITE', '8D')
    >>> Play.from_gcg(play.gcg(), english) == play
    True
    """

    row: int
    col: int
    across: bool
    word: tuple[int, ...]
    score: int | None = field(default=None, compare=False)
    alphabet: Alphabet | None = field(default=None, compare=False, repr=False)

    @classmethod
    def from_gcg(cls, text: str, alphabet: Alphabet, board: Board | None = None) -> Play:
        """Read a play in GCG or human notation (``8D QUITE``, ``8A MES.....``,
        ``8A MES(QUITE)``); :func:`parse_move` reads every kind of move."""
        move = parse_move(text, alphabet, board)
        if not isinstance(move, Play):
            raise NotationError(f"{text!r} is not a play")
        return move

    def __post_init__(self) -> None:
        if not self.word:
            raise NotationError("a play needs at least one tile")

    @cached_property
    def placements(self) -> tuple[tuple[int, int, int], ...]:
        """(row, col, tile) of every newly placed tile, in word order."""
        dr, dc = (0, 1) if self.across else (1, 0)
        return tuple(
            (self.row + dr * i, self.col + dc * i, t)
            for i, t in enumerate(self.word)
            if t != PLAYED_THROUGH
        )

    @property
    def tiles_used(self) -> list[int]:
        """The rack tiles the play uses (designated blanks as ``?``)."""
        return [face(t) for t in self.word if t != PLAYED_THROUGH]

    @property
    def position(self) -> str:
        return format_position(self.row, self.col, self.across)

    def _key(self) -> frozenset[tuple[int, int, int]]:
        return frozenset(self.placements)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Play) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def with_score(self, score: int) -> Play:
        return Play(self.row, self.col, self.across, self.word, score, self.alphabet)

    def with_alphabet(self, alphabet: Alphabet) -> Play:
        """This play, written in ``alphabet`` (itself when it already is)."""
        return self if self.alphabet is alphabet else replace(self, alphabet=alphabet)

    def gcg(self, alphabet: Alphabet | None = None) -> str:
        """GCG notation: ``8A MES.....`` (dots for played-through tiles)."""
        alphabet = _known(alphabet, self)
        text = "".join("." if t == PLAYED_THROUGH else alphabet.label(t) for t in self.word)
        return f"{self.position} {text}"

    def human(self, alphabet: Alphabet | None, board: Board) -> str:
        """Human notation: ``8A MES(QUITE)`` (played-through tiles in parentheses)."""
        alphabet = _known(alphabet, self)
        parts: list[str] = []
        inside = False
        dr, dc = (0, 1) if self.across else (1, 0)
        for i, t in enumerate(self.word):
            through = t == PLAYED_THROUGH
            if through != inside:
                parts.append("(" if through else ")")
                inside = through
            if through:
                on_board = board.get(self.row + dr * i, self.col + dc * i)
                if not on_board:
                    raise NotationError(
                        f"{self.gcg(alphabet)}: no tile on the board to play through"
                    )
                parts.append(alphabet.label(on_board))
            else:
                parts.append(alphabet.label(t))
        if inside:
            parts.append(")")
        return f"{self.position} {''.join(parts)}"

    def __str__(self) -> str:
        if self.alphabet is None:
            return f"{self.position} {list(self.word)}"
        return self.gcg()

    def __repr__(self) -> str:
        score = "" if self.score is None else f", score={self.score}"
        if self.alphabet is None:
            return (
                f"Play(row={self.row}, col={self.col}, across={self.across}, "
                f"word={self.word!r}{score})"
            )
        return f"Play({self.gcg()!r}{score})"


@dataclass(frozen=True)
class Exchange(Move):
    """Exchange these rack tiles (R4.2). ``count`` alone stands for unknown tiles (GCG ``-3``).

    >>> from tessera import tileset
    >>> english = tileset("english").alphabet
    >>> parse_move("-QV?", english), str(parse_move("-QV?", english)), Exchange(count=3)
    (Exchange('-QV?'), '-QV?', Exchange('-3'))
    """

    tiles: tuple[int, ...] = ()
    count: int | None = None
    alphabet: Alphabet | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.count is not None and self.tiles and self.count != len(self.tiles):
            raise NotationError("an exchange's count must equal its number of tiles")

    @property
    def n(self) -> int:
        return len(self.tiles) if self.tiles else (self.count or 0)

    def gcg(self, alphabet: Alphabet | None = None) -> str:
        if not self.tiles:
            return f"-{self.n}"
        return f"-{_known(alphabet, self).format(self.tiles)}"

    def __str__(self) -> str:
        if self.tiles and self.alphabet is None:
            return f"-{list(self.tiles)}"
        return self.gcg()

    def __repr__(self) -> str:
        if self.tiles and self.alphabet is None:
            return f"Exchange(tiles={self.tiles!r})"
        return f"Exchange({self.gcg()!r})"


@dataclass(frozen=True)
class Pass(Move):
    """Pass the turn (R4.1). ``str(Pass())`` is ``pass``, which :func:`parse_move` reads back."""

    def gcg(self, alphabet: Alphabet | None = None) -> str:
        return "-"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Challenge(Move):
    """Challenge the last play; ``words`` lists the challenged words under listed-word scope."""

    words: tuple[tuple[int, ...], ...] | None = None

    def __str__(self) -> str:
        return "challenge"

    def __repr__(self) -> str:
        return "Challenge()" if self.words is None else f"Challenge(words={self.words!r})"


def play_from_placements(board: Board, placements: Iterable[tuple[int, int, int]]) -> Play:
    """Name a set of placed tiles as a play: its main word, position and direction (R2.4).

    The tiles must lie in one row or column (the legality check gives the precise reason
    when they don't; here a mixed set raises :class:`NotationError`). A single tile takes the
    direction in which it forms a word, preferring across (R2.9).
    """
    placed = {(r, c): t for r, c, t in placements}
    if not placed:
        raise NotationError("no tiles placed")
    rows = {r for r, _ in placed}
    cols = {c for _, c in placed}
    if len(placed) == 1:
        (r, c), _t = next(iter(placed.items()))
        across_run = board.run_through(r, c, True, placed)
        across = len(across_run.tiles) >= 2 or len(board.run_through(r, c, False, placed).tiles) < 2
    elif len(rows) == 1:
        across = True
    elif len(cols) == 1:
        across = False
    else:
        raise NotationError("the placed tiles are not in one row or column")
    first = min(placed)
    span = board.run_through(first[0], first[1], across, placed)
    dr, dc = (0, 1) if across else (1, 0)
    last = max(placed)
    # the span stops at a gap; tiles after a gap still belong to the play (legality names it)
    length = max(len(span.tiles), (last[0] - span.row) * dr + (last[1] - span.col) * dc + 1)
    word = []
    for i in range(length):
        sq = (span.row + dr * i, span.col + dc * i)
        word.append(placed.get(sq, PLAYED_THROUGH))
    return Play(span.row, span.col, across, tuple(word), alphabet=board.alphabet)


def _read_tile(
    alphabet: Alphabet, text: str, i: int, held: Counter[int] | None = None
) -> tuple[int, int]:
    """The tile spelled at ``text[i]`` and how many characters it takes: the longest label,
    or with ``held`` (the rack's tiles not yet read) the longest the rack holds, so C·S is
    read where the rack has C and S but no CS tile. The error names the character and its
    position in the whole word."""
    longest = max(len(label) for label in alphabet.labels)
    found: list[tuple[int, int]] = []
    for n in range(min(longest, len(text) - i), 0, -1):
        chunk = text[i : i + n]
        if any(ch in "().?" for ch in chunk):
            continue
        try:
            tiles = alphabet.parse(chunk)
        except TileError:
            continue
        if len(tiles) == 1:
            if held is None or held[face(tiles[0])] > 0:
                return tiles[0], n
            found.append((tiles[0], n))
    if found:
        return found[0]  # the rack holds none: the longest, which the game will refuse
    raise NotationError(
        f"{text!r}: {text[i]!r} at position {i + 1} is not a tile of the {alphabet.name} alphabet"
    )


def _parse_word(
    alphabet: Alphabet,
    text: str,
    row: int,
    col: int,
    across: bool,
    board: Board | None,
    rack: Iterable[int] | None = None,
) -> tuple[int, ...]:
    """Tiles of a main word; ``.`` and ``(…)`` are played through (GCG and human notation).
    Multi-letter tiles are read as the ``rack`` holds them, when it is given."""
    word: list[int] = []
    held = None if rack is None else Counter(face(t) for t in rack)
    dr, dc = (0, 1) if across else (1, 0)
    i = 0
    inside = False
    while i < len(text):
        ch = text[i]
        if ch == "(":
            if inside:
                raise NotationError(f"{text!r}: nested '(' at position {i + 1}")
            inside = True
            i += 1
            continue
        if ch == ")":
            if not inside:
                raise NotationError(f"{text!r}: ')' at position {i + 1} without '('")
            inside = False
            i += 1
            continue
        if ch == ".":
            if inside:
                raise NotationError(f"{text!r}: '.' inside parentheses at position {i + 1}")
            word.append(PLAYED_THROUGH)
            i += 1
            continue
        if ch == "?":
            raise NotationError(
                f"{text!r}: a blank on the board needs its letter (lower case), not '?'"
            )
        sq = (row + dr * len(word), col + dc * len(word))
        on_board = board.get(*sq) if board is not None else 0
        if inside and on_board:
            # inside parentheses the board decides: R·R on the board is (RR), not the RR tile
            label = alphabet.label(on_board)
            if text[i : i + len(label)].upper() == label.upper():
                word.append(PLAYED_THROUGH)
                i += len(label)
                continue
        tile, step = _read_tile(alphabet, text, i, None if inside or on_board else held)
        # a letter names a tile on the board whether that tile is a blank or not (ALI(QUANT))
        same = bool(on_board) and letter_of(on_board) == letter_of(tile)
        if inside:
            if board is not None and not same:
                found = alphabet.label(on_board) if on_board else "an empty square"
                raise NotationError(
                    f"{text!r}: ({alphabet.label(tile)}) at position {i + 1} is not on the "
                    f"board: {square_name(*sq)} holds {found}"
                )
            word.append(PLAYED_THROUGH)
        elif same:
            word.append(PLAYED_THROUGH)  # lenient: the letter itself for a played-through tile
        else:
            word.append(tile)
            if held is not None:
                held[face(tile)] -= 1
        i += step
    if inside:
        raise NotationError(f"{text!r}: '(' is never closed")
    if not word:
        raise NotationError(f"{text!r}: a play needs a word")
    if all(t == PLAYED_THROUGH for t in word):
        raise NotationError(f"{text!r}: the play places no new tile")
    return tuple(word)


def parse_move(
    text: str,
    alphabet: Alphabet,
    board: Board | None = None,
    *,
    rows: int | None = None,
    cols: int | None = None,
    rack: Iterable[int] | None = None,
) -> Move:
    """Read a move: ``8D QUITE``, ``8A MES(QUITE)``, ``8A MES.....``, ``-ABC``, ``-3``, ``-``,
    ``pass``, ``challenge``.

    With a board, letters on occupied squares count as played through (GCG leniency) and
    parenthesised letters are checked against it. A placed word's multi-letter tiles are read
    longest label first; with the mover's ``rack``, the longest label the rack holds (a
    Hungarian ``CSAK`` is C·S·A·K from a rack with C and S but no CS tile).
    """
    s = text.strip()
    if not s:
        raise NotationError("empty move")
    low = s.lower()
    if low in ("-", "pass", "-0"):
        return Pass()
    if low == "challenge":
        return Challenge()
    if s.startswith("-"):
        body = s[1:].strip()
        if body.isascii() and body.isdigit():  # not '²' or '٣', which int() rejects or misreads
            return Exchange(count=int(body), alphabet=alphabet)
        try:
            tiles = alphabet.parse(body)
        except TileError as exc:
            raise NotationError(f"exchange {s!r}: {exc}") from None
        if any(is_blank(t) and t != BLANK for t in tiles):
            raise NotationError(f"exchange {s!r}: write blanks as '?', not lower case")
        return Exchange(tuple(tiles), alphabet=alphabet)
    parts = s.split()
    if len(parts) != 2:
        raise NotationError(
            f"{s!r}: a play is a position and a word, e.g. '8D QUITE' (across) or 'D8 QUITE' (down)"
        )
    nrows = rows or (board.rows if board else 15)
    ncols = cols or (board.cols if board else 15)
    try:
        row, col, across = parse_position(parts[0], nrows, ncols)
    except CoordinateError as exc:
        raise NotationError(str(exc)) from None
    word = _parse_word(alphabet, parts[1], row, col, across, board, rack)
    end = (row + (0 if across else len(word) - 1), col + (len(word) - 1 if across else 0))
    if end[0] >= nrows or end[1] >= ncols:
        raise NotationError(f"{s!r}: the word runs off the board")
    return Play(row, col, across, word, alphabet=alphabet)


def format_move(move: Move, alphabet: Alphabet) -> str:
    """GCG-style text of a move (``8D QUITE``, ``-ABC``, ``-``)."""
    if isinstance(move, Play | Exchange | Pass):
        return move.gcg(alphabet)
    if isinstance(move, Challenge):
        return "challenge"
    raise TypeError(f"not a move: {move!r}")


def word_text(alphabet: Alphabet, tiles: Sequence[int]) -> str:
    """A formed word's text, blanks in lower case."""
    return alphabet.format(tiles)
