"""Move generation: every legal move of a position, ranked by equity.

Two generators give identical results (tested on thousands of random positions):

* :func:`reference_moves` — this module, pure Python: Gordon's GADDAG algorithm over the
  lexicon's KWG with cross-checks, written to be read. It is the specification and the
  test oracle.
* the compiled core (``tessera._core.MoveGenerator``), used by :func:`generate_moves`.

How plays are found (:class:`_Reference`). For each direction, each line (a row for across
plays, a column for down plays) is scanned for *anchors*: empty squares next to a tile (on an
empty board, the start square). Every play covers at least one anchor with a new tile. From
each anchor the generator walks the GADDAG: first leftwards from the anchor (placing rack
tiles or reading tiles on the board), then — after the GADDAG separator — rightwards from the
square after the anchor. A play is generated only from the *leftmost* anchor it covers: the
leftward walk stops before another empty anchor. Each empty square carries a *cross-check*,
the letters that form a valid word with the tiles above and below it (for across plays). A
single tile forming words both ways is found in both directions; it is reported once, named
across (as :func:`tessera.move.play_from_placements` names it).

Clabbers (``Validity.ANAGRAM``, R8.5) cannot use the GADDAG, because the main word only needs
to be an anagram of a word. There every *slot* (a run of squares with empty squares to fill,
bounded by empty squares or the edge) is tried: first the multisets of tiles that make the
slot's letters an anagram of a word are found in a DAWG of alphagrams, then every distinct
arrangement of each multiset that passes the cross-checks is a play.

A first play must cover the start square whenever ``rules.first_play_covers_center`` is set,
even where a centre-missing play stands unless challenged (R2.6.1): such a play may be
challenged off whatever its words, so it is never a move worth listing.

Equity is score plus the value of the tiles kept (:class:`tessera.lexicon.Leaves`, looked up
by the sorted leave); without leaves it is the score. Moves are ranked by equity, highest
first; ties are broken by a fixed order (:func:`sort_key`) so that both generators agree
move for move.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterator, Sequence
from itertools import product
from typing import TYPE_CHECKING, Any, overload

from .board import Board
from .display import MOVES_HTML, draw
from .move import PLAYED_THROUGH, Exchange, Move, Pass, Play
from .rules import Rules, Validity, preset
from .scoring import score_play
from .tiles import BLANK, BLANK_BIT, Alphabet, Rack, letter_of

if TYPE_CHECKING:
    from .lexicon import Leaves, Lexicon

RackLike = Rack | Sequence[int] | str

__all__ = [
    "MoveList",
    "exchange_sizes",
    "generate_moves",
    "reference_moves",
    "sort_key",
]


# -- ordering --------------------------------------------------------------------------------


def sort_key(move: Move) -> tuple[Any, ...]:
    """The fixed tie-break order among moves of equal equity: plays (across before down, then
    by row, column and word tiles), then exchanges (by tiles), then the pass."""
    if isinstance(move, Play):
        return (0, 0 if move.across else 1, move.row, move.col, move.word)
    if isinstance(move, Exchange):
        return (1, 0, 0, 0, tuple(_exchange_order(t) for t in move.tiles))
    return (2, 0, 0, 0, ())


def _exchange_order(tile: int) -> int:
    """Exchanged tiles are listed letters first, blanks last (as racks are shown)."""
    return 256 if tile == BLANK else tile


# -- exchanges -------------------------------------------------------------------------------


def exchange_sizes(rules: Rules, rack_len: int, bag_count: int | None) -> range:
    """How many tiles may be exchanged (R4.3): none when ``bag_count`` is None (unknown);
    otherwise 1..rack size when the bag holds ``rules.exchange_min_bag`` tiles, and with no
    minimum (None) at most as many as the bag holds."""
    return range(1, _max_exchange(rules, rack_len, bag_count) + 1)


def _max_exchange(rules: Rules, rack_len: int, bag_count: int | None) -> int:
    """The most tiles that may be exchanged (0: no exchange); see :func:`exchange_sizes`."""
    if bag_count is None:
        return 0
    floor = rules.exchange_min_bag
    if floor is not None and bag_count < floor:
        return 0
    return min(rack_len, bag_count)


def _exchanges(counts: Sequence[int], sizes: range) -> list[tuple[int, ...]]:
    """Every distinct sub-multiset of the rack whose size is in ``sizes``."""
    tiles = [t for t in range(len(counts)) if counts[t]]
    out = []
    for choice in product(*(range(counts[t] + 1) for t in tiles)):
        n = sum(choice)
        if n in sizes:
            picked = [t for t, k in zip(tiles, choice, strict=True) for _ in range(k)]
            out.append(tuple(sorted(picked, key=_exchange_order)))
    return out


# -- the reference generator -----------------------------------------------------------------


class _Line:
    """One row (across) or column (down) of the board seen as positions 0..n-1."""

    def __init__(self, board: Board, index: int, across: bool) -> None:
        self.board = board
        self.index = index
        self.across = across
        self.size = board.cols if across else board.rows

    def square(self, pos: int) -> tuple[int, int]:
        return (self.index, pos) if self.across else (pos, self.index)

    def tile(self, pos: int) -> int:
        """The tile at ``pos``; EMPTY (0) there and off the line."""
        if not 0 <= pos < self.size:
            return 0
        return self.board.get(*self.square(pos))

    def empty(self, pos: int) -> bool:
        """True for an empty square and for positions off the board (word boundaries)."""
        return self.tile(pos) == 0


class _Reference:
    """The pure-Python generator for one position (see the module docstring)."""

    def __init__(self, board: Board, counts: list[int], lexicon: Lexicon, rules: Rules) -> None:
        self.board = board
        self.counts = counts  # rack tile counts by id; mutated during the search, restored
        self.lexicon = lexicon
        self.rules = rules
        self.kwg = lexicon.kwg
        self.letters = range(1, len(lexicon.alphabet) + 1)
        self.anagram = rules.validity is Validity.ANAGRAM
        self.first = board.is_empty()
        self.plays: list[Play] = []
        # Clabbers: the fills of a slot depend only on its fixed letters and its number of
        # empty squares (the rack is the same throughout), and many slots share them
        self.fills: dict[tuple[tuple[int, ...], int], list[tuple[int, ...]]] = {}

    # cross-checks ------------------------------------------------------------------------

    def word_ok(self, letters: Sequence[int]) -> bool:
        if self.anagram:
            return self.lexicon.has_anagram(letters)
        return self.lexicon.contains(letters)

    def cross_check(self, row: int, col: int, across: bool) -> set[int] | None:
        """Letters allowed on the empty square (row, col) by the perpendicular word; None when
        no tile touches it that way (any letter, no cross-word)."""
        dr, dc = (1, 0) if across else (0, 1)  # the perpendicular direction
        before: list[int] = []
        r, c = row - dr, col - dc
        while self.board.get(r, c):
            before.append(letter_of(self.board.get(r, c)))
            r, c = r - dr, c - dc
        after: list[int] = []
        r, c = row + dr, col + dc
        while self.board.get(r, c):
            after.append(letter_of(self.board.get(r, c)))
            r, c = r + dr, c + dc
        if not before and not after:
            return None
        if len(before) + len(after) + 1 < self.rules.min_word_length:
            return set()
        before.reverse()
        return {t for t in self.letters if self.word_ok([*before, t, *after])}

    def is_anchor(self, line: _Line, pos: int) -> bool:
        if not line.empty(pos) or not 0 <= pos < line.size:
            return False
        r, c = line.square(pos)
        if self.first:
            if self.rules.first_play_covers_center:
                return (r, c) == self.board.layout.start
            return True
        return any(self.board.get(r + a, c + b) for a, b in ((0, 1), (0, -1), (1, 0), (-1, 0)))

    # rack ------------------------------------------------------------------------------------

    def choices(self, allowed: set[int] | None) -> Iterator[tuple[int, int]]:
        """(letter, tile) pairs the rack can put on a square allowing ``allowed``."""
        for t in self.letters:
            if self.counts[t] and (allowed is None or t in allowed):
                yield t, t
        if self.counts[BLANK]:
            for t in self.letters:
                if allowed is None or t in allowed:
                    yield t, t | BLANK_BIT

    # recording -------------------------------------------------------------------------------

    def record(self, line: _Line, start: int, end: int, placed: dict[int, int]) -> None:
        """A play covering ``start..end`` of ``line`` with new tiles ``placed`` (pos → tile)."""
        if end - start + 1 < self.rules.min_word_length:
            return
        if self.first and len(placed) < self.rules.min_first_play_tiles:
            return
        if len(placed) == 1 and not line.across:
            (pos,) = placed
            r, c = line.square(pos)
            if self.board.get(r, c - 1) or self.board.get(r, c + 1):
                return  # forms an across word too: reported by the across pass
        word = tuple(placed.get(p, PLAYED_THROUGH) for p in range(start, end + 1))
        r, c = line.square(start)
        self.plays.append(Play(r, c, line.across, word, alphabet=self.lexicon.alphabet))

    # Gordon's GADDAG search --------------------------------------------------------------------

    def generate(self) -> list[Play]:
        for across in (True, False):
            count = self.board.rows if across else self.board.cols
            for index in range(count):
                line = _Line(self.board, index, across)
                checks = [
                    self.cross_check(*line.square(p), across) if line.empty(p) else set()
                    for p in range(line.size)
                ]
                anchors = [self.is_anchor(line, p) for p in range(line.size)]
                if self.anagram:
                    self.clabbers_line(line, checks, anchors)
                    continue
                for a in range(line.size):
                    if anchors[a]:
                        self.extend(line, checks, anchors, a, a, self.kwg.gaddag_root, True, {})
        return self.plays

    def extend(
        self,
        line: _Line,
        checks: list[set[int] | None],
        anchors: list[bool],
        anchor: int,
        pos: int,
        arcs: int,
        leftward: bool,
        placed: dict[int, int],
    ) -> None:
        """Fill square ``pos`` following the GADDAG sibling list ``arcs``."""
        on_board = line.tile(pos)
        if on_board:
            node = self.kwg.find(arcs, letter_of(on_board))
            if node:
                self.step(line, checks, anchors, anchor, pos, node, leftward, placed)
            return
        for letter, tile in list(self.choices(checks[pos])):
            node = self.kwg.find(arcs, letter)
            if not node:
                continue
            face = BLANK if tile & BLANK_BIT else tile
            self.counts[face] -= 1
            placed[pos] = tile
            self.step(line, checks, anchors, anchor, pos, node, leftward, placed)
            del placed[pos]
            self.counts[face] += 1

    def step(
        self,
        line: _Line,
        checks: list[set[int] | None],
        anchors: list[bool],
        anchor: int,
        pos: int,
        node: int,
        leftward: bool,
        placed: dict[int, int],
    ) -> None:
        """After ``pos`` is filled by the tile of GADDAG node ``node``: record a word that ends
        here, and continue left, across the separator, or right."""
        value = self.kwg.nodes[node]
        accepts = bool(value & (1 << 23))
        children = value & ((1 << 22) - 1)
        if leftward:
            # the letters from pos to the anchor, reversed, are a whole word (no separator)
            if accepts and line.empty(pos - 1) and line.empty(anchor + 1):
                self.record(line, pos, anchor, placed)
            if not children:
                return
            left = pos - 1
            if left >= 0 and not (line.empty(left) and anchors[left]):
                self.extend(line, checks, anchors, anchor, left, children, True, placed)
            sep = self.kwg.find(children, 0)
            if sep and line.empty(pos - 1) and anchor + 1 < line.size:
                sep_children = self.kwg.nodes[sep] & ((1 << 22) - 1)
                self.extend(line, checks, anchors, anchor, anchor + 1, sep_children, False, placed)
        else:
            if accepts and line.empty(pos + 1):
                start = anchor
                while start > 0 and (start - 1 in placed or line.tile(start - 1)):
                    start -= 1
                self.record(line, start, pos, placed)
            if children and pos + 1 < line.size:
                self.extend(line, checks, anchors, anchor, pos + 1, children, False, placed)

    # Clabbers ------------------------------------------------------------------------------

    def clabbers_line(
        self, line: _Line, checks: list[set[int] | None], anchors: list[bool]
    ) -> None:
        """Every slot of the line whose letters can be an anagram of a word (R8.5)."""
        rack_size = sum(self.counts)
        for start in range(line.size):
            if not line.empty(start - 1):
                continue
            for end in range(start + 1, line.size):
                if not line.empty(end + 1):
                    continue
                empties = [p for p in range(start, end + 1) if line.empty(p)]
                if not empties or len(empties) > rack_size:
                    continue
                if not any(anchors[p] for p in empties):
                    continue
                if any(checks[p] is not None and not checks[p] for p in empties):
                    continue
                fixed = sorted(
                    letter_of(line.tile(p)) for p in range(start, end + 1) if line.tile(p)
                )
                key = (tuple(fixed), len(empties))
                if key not in self.fills:
                    self.fills[key] = self.anagram_fills(fixed, len(empties))
                for tiles in self.fills[key]:
                    self.arrange(line, checks, start, end, empties, tiles)

    def anagram_fills(self, fixed: list[int], k: int) -> list[tuple[int, ...]]:
        """Distinct multisets of ``k`` rack tiles (blanks designated) that, with the ``fixed``
        letters, are an anagram of a word: a walk of the alphagram DAWG in letter order where
        fixed letters are used first, then real tiles, then blanks (so no multiset repeats)."""
        graph = self.lexicon.alphagrams()
        fixed = sorted(fixed)
        total = len(fixed) + k
        found: list[tuple[int, ...]] = []
        chosen: list[int] = []

        def walk(arcs: int, depth: int, used: int, last: tuple[int, int]) -> None:
            """Extend a path of ``depth`` letters that has taken the first ``used`` fixed
            letters (they come in ascending order, as the alphagram's letters do)."""
            if len(fixed) - used > total - depth:
                return  # the fixed letters left do not fit in the squares left
            pending = fixed[used] if used < len(fixed) else None  # the next fixed letter
            for letter, i in graph.arcs(arcs):
                if pending is not None and pending < letter:
                    break  # a fixed letter would be skipped: no alphagram further on has it
                node = graph.nodes[i]
                for kind in (0, 1, 2):  # 0 fixed letter, 1 real tile, 2 blank
                    if (letter, kind) < last:
                        continue
                    if kind == 0:
                        if pending != letter:
                            continue
                    elif kind == 1:
                        if pending == letter or not self.counts[letter]:
                            continue
                        self.counts[letter] -= 1
                        chosen.append(letter)
                    else:
                        if pending == letter or not self.counts[BLANK]:
                            continue
                        self.counts[BLANK] -= 1
                        chosen.append(letter | BLANK_BIT)
                    now_used = used + (kind == 0)
                    if depth + 1 == total:
                        if node & (1 << 23) and now_used == len(fixed):
                            found.append(tuple(chosen))
                    else:
                        walk(node & ((1 << 22) - 1), depth + 1, now_used, (letter, kind))
                    if kind != 0:
                        self.counts[BLANK if kind == 2 else letter] += 1
                        chosen.pop()

        walk(graph.dawg_root, 0, 0, (0, 0))
        return found

    def arrange(
        self,
        line: _Line,
        checks: list[set[int] | None],
        start: int,
        end: int,
        empties: list[int],
        tiles: tuple[int, ...],
    ) -> None:
        """Every distinct order of ``tiles`` on the ``empties`` that passes the cross-checks."""
        left: dict[int, int] = {}
        for t in tiles:
            left[t] = left.get(t, 0) + 1
        placed: dict[int, int] = {}

        def fill(i: int) -> None:
            if i == len(empties):
                self.record(line, start, end, dict(placed))
                return
            pos = empties[i]
            allowed = checks[pos]
            for t in sorted(left):
                if left[t] and (allowed is None or letter_of(t) in allowed):
                    left[t] -= 1
                    placed[pos] = t
                    fill(i + 1)
                    del placed[pos]
                    left[t] += 1

        fill(0)


# -- the result list ---------------------------------------------------------------------------


def _counts_of(rack: RackLike, lexicon: Lexicon) -> list[int]:
    size = len(lexicon.alphabet) + 1
    if isinstance(rack, Rack):
        counts = list(rack.counts)
        if len(counts) != size:
            raise ValueError(
                f"the rack has {len(counts)} tile kinds; the {lexicon.alphabet.name} alphabet "
                f"needs {size}"
            )
        return counts
    tiles = lexicon.alphabet.parse(rack.strip().upper()) if isinstance(rack, str) else rack
    counts = [0] * size
    try:  # checked in bulk (this runs on every call): an index outside 0..size-1 fails
        for t in tiles:
            counts[t] += 1
        if tiles and min(tiles) < 0:
            raise IndexError
    except (IndexError, TypeError):
        bad = next(t for t in tiles if not _is_tile_id(t, size))
        raise ValueError(
            f"tile {bad!r} is not a rack tile of the {lexicon.alphabet.name} alphabet "
            f"(0 for a blank, 1..{size - 1} for letters)"
        ) from None
    return counts


def _is_tile_id(t: Any, size: int) -> bool:
    try:
        return 0 <= operator.index(t) < size
    except TypeError:
        return False


def _leave_of(counts: Sequence[int], used: Sequence[int]) -> list[int]:
    left = list(counts)
    for t in used:
        left[t] -= 1
    return [t for t in range(len(left)) for _ in range(left[t])]


def reference_moves(
    board: Board,
    rack: RackLike,
    lexicon: Lexicon,
    rules: Rules | str = "naspa",
    *,
    bag_count: int | None = None,
    leaves: Leaves | None = None,
) -> list[tuple[Move, float]]:
    """Every legal move with its equity, best first — the pure-Python reference.

    Plays carry their score (from :func:`tessera.scoring.score_play`). Exchanges are listed
    when ``bag_count`` allows them (:func:`exchange_sizes`); the pass always.
    """
    rules = preset(rules)
    _check_inputs(board, lexicon, rules)
    counts = _counts_of(rack, lexicon)
    if sum(counts) == 0:
        plays: list[Play] = []
    else:
        plays = _Reference(board, list(counts), lexicon, rules).generate()
    ranked: list[tuple[Move, float]] = []
    for play in plays:
        scored = play.with_score(score_play(board, play, rules))
        equity = float(scored.score or 0)
        if leaves is not None:
            equity += leaves.value(_leave_of(counts, scored.tiles_used))
        ranked.append((scored, equity))
    for tiles in _exchanges(counts, exchange_sizes(rules, sum(counts), bag_count)):
        equity = leaves.value(_leave_of(counts, tiles)) if leaves is not None else 0.0
        ranked.append((Exchange(tiles, alphabet=lexicon.alphabet), equity))
    keep = [t for t in range(len(counts)) for _ in range(counts[t])]
    ranked.append((Pass(), leaves.table_value(keep) if leaves is not None and keep else 0.0))
    ranked.sort(key=lambda me: (-me[1], sort_key(me[0])))
    return ranked


def _check_inputs(board: Board, lexicon: Lexicon, rules: Rules) -> None:
    if board.layout != rules.layout:
        raise ValueError(
            f"the board is a {board.layout.name} board but the rules use {rules.layout.name}"
        )
    if rules.tileset.alphabet.labels != lexicon.alphabet.labels:
        raise ValueError(
            f"the lexicon {lexicon.name!r} uses the {lexicon.alphabet.name} alphabet, but the "
            f"rules' tiles ({rules.tiles}) use {rules.tileset.alphabet.name}"
        )


class MoveList(Sequence[Move]):
    """Moves ranked by equity, best first (unranked from ``generate_moves(sort=False)``).
    Python move objects are made only when asked for: ``len()`` is cheap, ``moves[i]`` builds
    one move, ``moves[:10]`` ten.

    ``equity(i)`` is a move's equity (its score when no leave values were given); plays carry
    their ``score``.
    """

    __slots__ = ("_buffer", "_cache", "_ranked", "alphabet")

    def __init__(
        self,
        ranked: list[tuple[Move, float]] | None = None,
        buffer: Any = None,
        alphabet: Alphabet | None = None,
    ) -> None:
        self._ranked = ranked
        self._buffer = buffer
        self._cache: dict[int, Move] = {}
        self.alphabet = alphabet  # what the compiled generator's moves are written in

    def __len__(self) -> int:
        if self._ranked is not None:
            return len(self._ranked)
        return len(self._buffer)

    def _move(self, i: int) -> Move:
        if self._ranked is not None:
            return self._ranked[i][0]
        move = self._cache.get(i)
        if move is None:
            kind, row, col, across, word, score = self._buffer.move(i)
            if kind == 0:
                move = Play(row, col, across, tuple(word), score, self.alphabet)
            elif kind == 1:
                move = Exchange(tuple(word), alphabet=self.alphabet)
            else:
                move = Pass()
            self._cache[i] = move
        return move

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> list[Move]: ...

    def __getitem__(self, index: int | slice) -> Move | list[Move]:
        n = len(self)
        if isinstance(index, slice):
            return [self._move(i) for i in range(*index.indices(n))]
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("move index out of range")
        return self._move(index)

    def equity(self, index: int) -> float:
        """The equity of the move at ``index``."""
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("move index out of range")
        if self._ranked is not None:
            return self._ranked[index][1]
        return float(self._buffer.equity(index))

    def equities(self) -> list[float]:
        """Every move's equity, in order."""
        if self._ranked is not None:
            return [e for _, e in self._ranked]
        return list(self._buffer.equities())

    def ranked(self) -> Iterator[tuple[Move, float]]:
        """(move, equity) pairs, best first."""
        for i in range(len(self)):
            yield self._move(i), self.equity(i)

    def __repr__(self) -> str:
        if not len(self):
            return "<MoveList: 0 moves>"
        return f"<MoveList: {len(self)} moves, best {self[0]}>"

    def _repr_html_(self) -> str:
        """Jupyter's table of the moves: rank, move, score and equity (the best 50)."""
        return draw(MOVES_HTML, self.ranked(), len(self))


# -- the compiled generator ----------------------------------------------------------------------

_GENERATORS: dict[tuple[Any, ...], tuple[Any, Any, Any]] = {}


@functools.cache
def _native_available() -> bool:
    """True when the compiled core with the move generator is installed."""
    from ._compiled import _core

    return hasattr(_core, "MoveGenerator")


def compiled_generator(lexicon: Lexicon, rules: Rules, leaves: Leaves | None) -> Any:
    """The compiled generator for (lexicon, the rules that shape move generation, leaves),
    built once and kept: equal rules made separately share one generator."""
    shape = (
        rules.board,
        rules.tiles,
        rules.bingo_bonus,
        rules.rack_size,
        rules.min_word_length,
        rules.min_first_play_tiles,
        rules.first_play_covers_center,
        rules.validity,
    )
    key = (id(lexicon), id(leaves), shape)
    hit = _GENERATORS.get(key)
    if hit is not None and hit[0] is lexicon and hit[1] is leaves:
        return hit[2]
    from ._compiled import _core

    lay = rules.layout
    tiles = rules.tileset
    gen = _core.MoveGenerator(
        lexicon.kwg.nodes,
        lexicon.alphagrams().nodes,
        rules.validity is Validity.ANAGRAM,
        lay.rows,
        lay.cols,
        [m for row in lay.letter_mult for m in row],
        [m for row in lay.word_mult for m in row],
        lay.start[0],
        lay.start[1],
        [tiles.value(t) for t in range(tiles.alphabet.size)],
        [rules.bingo(n) for n in range(rules.rack_size + 1)],
        rules.min_word_length,
        rules.min_first_play_tiles,
        rules.first_play_covers_center,
        leaves.kwg.nodes if leaves is not None else None,
        leaves.values if leaves is not None else None,
    )
    if len(_GENERATORS) > 64:
        _GENERATORS.clear()
    _GENERATORS[key] = (lexicon, leaves, gen)
    return gen


# (id of the board's layout, lexicon, rules, leaves) -> (those four, their generator or None)
_CHECKED: dict[tuple[int, int, int, int], tuple[Any, Any, Any, Any, Any]] = {}
# the entry the last call used: a tuple, rebound whole, so that a thread reading it while
# another replaces it sees one entry or the other, never a mix
_LAST_CHECKED: tuple[Any, Any, Any, Any, Any] = (None, None, None, None, None)


def _remember_checked(entry: tuple[Any, Any, Any, Any, Any]) -> None:
    global _LAST_CHECKED
    _LAST_CHECKED = entry


def _checked_generator(
    board: Board, lexicon: Lexicon, rules: Rules, leaves: Leaves | None
) -> Any:
    """The compiled generator for these inputs, once they are checked to fit together (or
    None where the reference must do: alphabets of more than 63 letters, no compiled core, a
    graph too large for the core's private copy). Kept per inputs, which are immutable: a
    caller asking position after position pays for the checks once."""
    layout = board.layout
    last = _LAST_CHECKED
    if last[0] is layout and last[1] is lexicon and last[2] is rules and last[3] is leaves:
        return last[4]  # the same inputs as the call before (a caller's usual pattern)
    key = (id(layout), id(lexicon), id(rules), id(leaves))
    hit = _CHECKED.get(key)
    if (
        hit is not None
        and hit[0] is layout
        and hit[1] is lexicon
        and hit[2] is rules
        and hit[3] is leaves
    ):
        _remember_checked(hit)
        return hit[4]
    gen = None
    if len(lexicon.alphabet) <= 63 and _native_available():
        _check_inputs(board, lexicon, rules)
        try:
            gen = compiled_generator(lexicon, rules, leaves)
        except ValueError:  # a graph too large for the compiled generator's private copy
            gen = None
    if len(_CHECKED) > 64:
        _CHECKED.clear()
    entry = (layout, lexicon, rules, leaves, gen)
    _CHECKED[key] = entry
    _remember_checked(entry)
    return gen


def generate_moves(
    board: Board,
    rack: RackLike,
    lexicon: Lexicon,
    rules: Rules | str = "naspa",
    top: int | None = None,
    leaves: Leaves | None = None,
    *,
    bag_count: int | None = None,
    reference: bool = False,
    mirrors: bool = True,
    sort: bool = True,
) -> MoveList:
    """Every legal move of ``rack`` on ``board``, ranked by equity (best first).

    ``rack`` is a :class:`~tessera.tiles.Rack`, tile ids or text (``"AEIRST?"``). ``top=N``
    keeps only the N best, found with upper-bound pruning. ``leaves`` adds leave values to
    the scores. ``bag_count`` is the number of tiles in the bag: exchanges are listed only when
    it is given and allows them under ``rules`` (R4.3); None lists no exchanges. The pass is
    always listed. ``reference=True`` uses the pure-Python generator (same result, slower);
    it is also used for alphabets of more than 63 letters and when the compiled core is
    missing. ``mirrors=False`` lists, on an empty board that is its own mirror image
    (:attr:`~tessera.layouts.Layout.mirror_symmetric`), only the plays across: each play down
    is then the mirror image of one of them, with the same score and leave (engines and hints
    rank one of the two). ``sort=False`` (without ``top``) lists every move unranked, in the
    order the generator finds them: the same moves and equities, for callers that rank or
    filter them themselves and need not pay for the sort (the reference's list stays ranked).
    """
    rules = preset(rules)
    if top is not None and top < 0:
        raise ValueError(f"top must be a positive number of moves, not {top}")
    gen = None if reference else _checked_generator(board, lexicon, rules, leaves)
    if gen is None:
        return _reference_list(board, rack, lexicon, rules, top, leaves, bag_count, mirrors)
    tiles, n = _compiled_rack(rack, lexicon)
    try:
        buffer = gen.generate(
            board.cell_bytes(), tiles, _max_exchange(rules, n, bag_count), top or 0, mirrors, sort
        )
    except ValueError:
        if isinstance(tiles, bytes):  # the core found a tile id past the alphabet:
            _counts_of(tiles, lexicon)  # the error that names it and the alphabet
        raise
    return MoveList(buffer=buffer, alphabet=lexicon.alphabet)


def _compiled_rack(rack: RackLike, lexicon: Lexicon) -> tuple[bytes | list[int], int]:
    """The rack as the compiled generator takes it, and its number of tiles: its tile ids as
    bytes (counted and checked by the core), or counts per tile id for a Rack or ids that are
    no bytes (the ValueError of :func:`_counts_of` for a bad one)."""
    if isinstance(rack, Rack):
        counts = _counts_of(rack, lexicon)
        return counts, sum(counts)
    tiles = lexicon.alphabet.parse(rack.strip().upper()) if isinstance(rack, str) else rack
    if type(tiles) is bytes:
        return tiles, len(tiles)
    if type(tiles) in (list, tuple):  # (bytes() of an array would give its raw memory)
        try:
            ids = bytes(tiles)  # ints 0..255 only
            return ids, len(ids)
        except (TypeError, ValueError):
            pass
    counts = _counts_of(tiles, lexicon)  # raises, naming the tile, if one is bad
    return counts, sum(counts)


def _reference_list(
    board: Board, rack: RackLike, lexicon: Lexicon, rules: Rules, top: int | None,
    leaves: Leaves | None, bag_count: int | None, mirrors: bool,
) -> MoveList:
    """:func:`generate_moves` by the pure-Python reference."""
    ranked = reference_moves(board, rack, lexicon, rules, bag_count=bag_count, leaves=leaves)
    if not mirrors and board.is_empty() and rules.layout.mirror_symmetric:
        ranked = [(m, e) for m, e in ranked if not isinstance(m, Play) or m.across]
    return MoveList(ranked if top is None else ranked[:top])
