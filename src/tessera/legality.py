"""Legality of a placement (R2) with a precise reason for every refusal."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum

from .board import Board, WordSpan, format_position, square_name
from .move import PLAYED_THROUGH, NotationError, Play, play_from_placements
from .rules import CenterMiss, Rules, Validity
from .tiles import BLANK, Alphabet, Rack, letter_of


class Reason(StrEnum):
    """Why a move was refused; stable codes for programs, with a message for people."""

    NO_TILES = "no_tiles"
    OFF_BOARD = "off_board"
    NOT_IN_LINE = "not_in_line"
    GAP = "gap"
    OCCUPIED = "occupied"
    NOT_ON_RACK = "not_on_rack"
    TOO_MANY_TILES = "too_many_tiles"
    FIRST_PLAY_TOO_FEW_TILES = "first_play_too_few_tiles"
    FIRST_PLAY_MISSES_START = "first_play_misses_start"
    NOT_CONNECTED = "not_connected"
    NO_WORD = "no_word"
    WORD_TOO_SHORT = "word_too_short"
    INVALID_WORDS = "invalid_words"
    NOTATION = "notation"
    # game-level reasons
    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    UNKNOWN_PLAYER = "unknown_player"
    EXCHANGE_NOT_ALLOWED = "exchange_not_allowed"
    BAG_TOO_SMALL = "bag_too_small"
    EXCHANGE_LIMIT = "exchange_limit"
    NOTHING_TO_CHALLENGE = "nothing_to_challenge"
    CHALLENGES_NOT_ALLOWED = "challenges_not_allowed"
    ONLY_PASS_OR_CHALLENGE = "only_pass_or_challenge"
    UNDO_NOT_ALLOWED = "undo_not_allowed"
    NO_CLOCK = "no_clock"
    OUT_OF_TIME = "out_of_time"  # R7.3: the mover's time and maximum overtime are used up
    # duplicate (R8.4)
    ALREADY_SUBMITTED = "already_submitted"
    ROUND_CLOSED = "round_closed"


class IllegalMove(ValueError):
    """A refused move. ``reason`` is a :class:`Reason`; ``words`` names invalid words."""

    def __init__(self, reason: Reason, message: str, words: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.reason = reason
        self.words = tuple(words)


WordCheck = Callable[[Sequence[int]], bool]


def normalize_play(board: Board, play: Play) -> Play:
    """The play named by its full main word (R2.4): tiles touching either end are included.

    A single tile keeps its stated direction if it forms a word that way (R2.9).
    """
    placements = play.placements
    if len(placements) == 1:
        r, c, t = placements[0]
        extra = {(r, c): t}
        if (
            len(board.run_through(r, c, play.across, extra).tiles) < 2
            and len(board.run_through(r, c, not play.across, extra).tiles) >= 2
        ):
            span = board.run_through(r, c, not play.across, extra)
        else:
            span = board.run_through(r, c, play.across, extra)
        pairs = zip(span.tiles, span.new, strict=True)
        word = tuple(tile if new else PLAYED_THROUGH for tile, new in pairs)
        return Play(span.row, span.col, span.across, word, play.score, play.alphabet)
    normal = play_from_placements(board, placements)
    return Play(normal.row, normal.col, normal.across, normal.word, play.score, play.alphabet)


def check_geometry(board: Board, play: Play, rules: Rules) -> None:
    """R2.1–R2.7: squares, line, gaps, first play and connection (not the rack, not words)."""
    if not play.placements:
        raise IllegalMove(Reason.NO_TILES, f"{play.position}: the play places no tile (R2.1)")
    dr, dc = (0, 1) if play.across else (1, 0)
    end_r = play.row + dr * (len(play.word) - 1)
    end_c = play.col + dc * (len(play.word) - 1)
    if not (board.on_board(play.row, play.col) and board.on_board(end_r, end_c)):
        raise IllegalMove(Reason.OFF_BOARD, f"{play.position}: the word runs off the board")
    for i, tile in enumerate(play.word):
        r, c = play.row + dr * i, play.col + dc * i
        if tile == PLAYED_THROUGH:
            if not board.get(r, c):
                raise IllegalMove(
                    Reason.GAP,
                    f"gap at {square_name(r, c)}: the squares between the tiles must all be filled",
                )
        elif board.get(r, c):
            raise IllegalMove(Reason.OCCUPIED, f"square {square_name(r, c)} is already occupied")
    n = len(play.placements)
    if n > rules.rack_size:
        raise IllegalMove(Reason.TOO_MANY_TILES, f"{n} tiles placed; at most {rules.rack_size}")
    if board.is_empty():
        if n < rules.min_first_play_tiles:
            raise IllegalMove(
                Reason.FIRST_PLAY_TOO_FEW_TILES,
                f"the first play must place at least {rules.min_first_play_tiles} tiles",
            )
        if rules.first_play_covers_center and rules.center_miss is CenterMiss.ILLEGAL:
            if not covers_start(board, play):
                sr, sc = board.layout.start
                raise IllegalMove(
                    Reason.FIRST_PLAY_MISSES_START,
                    f"the first play must cover the start square {square_name(sr, sc)}",
                )
    else:
        if not any(
            board.get(r + ar, c + ac)
            for r, c, _ in play.placements
            for ar, ac in ((0, 1), (0, -1), (1, 0), (-1, 0))
        ):
            raise IllegalMove(
                Reason.NOT_CONNECTED, "the play must touch a tile already on the board"
            )


def check_tiles(play: Play, alphabet: Alphabet) -> None:
    """Every placed tile is a letter of the alphabet or a blank designated as one."""
    for r, c, tile in play.placements:
        if tile == BLANK:
            raise IllegalMove(
                Reason.NOTATION, f"the blank on {square_name(r, c)} needs a designated letter"
            )
        if not (0 <= tile <= 0xFF and 1 <= letter_of(tile) <= len(alphabet)):
            raise IllegalMove(
                Reason.NOTATION,
                f"tile id {tile} on {square_name(r, c)} is not a tile of the "
                f"{alphabet.name} alphabet",
            )


def covers_start(board: Board, play: Play) -> bool:
    return any((r, c) == board.layout.start for r, c, _ in play.placements)


def check_rack(rack: Rack, play_tiles: Iterable[int], alphabet: Alphabet) -> None:
    missing = rack.missing(play_tiles)
    if missing:
        raise IllegalMove(
            Reason.NOT_ON_RACK,
            f"not on your rack: {alphabet.format(missing)} (rack {alphabet.format(rack.tiles())})",
        )


def formed_words(board: Board, play: Play, rules: Rules) -> list[WordSpan]:
    """R2.8: the words a geometrically legal play forms; refuses plays that form none."""
    words = board.words_formed(play.placements, play.across)
    if not words:
        raise IllegalMove(Reason.NO_WORD, "the play forms no word of two or more letters")
    for w in words:
        if len(w.tiles) < rules.min_word_length:
            raise IllegalMove(
                Reason.WORD_TOO_SHORT,
                f"{w.position}: words must have at least {rules.min_word_length} letters",
            )
    return words


def invalid_words(
    words: Iterable[WordSpan], rules: Rules, contains: WordCheck, has_anagram: WordCheck
) -> list[WordSpan]:
    """R2.11, R8.5: the formed words the lexicon does not accept."""
    check = has_anagram if rules.validity is Validity.ANAGRAM else contains
    return [w for w in words if not check([letter_of(t) for t in w.tiles])]


def check_play(
    board: Board,
    play: Play,
    rack: Rack,
    rules: Rules,
    alphabet: Alphabet,
) -> tuple[Play, list[WordSpan]]:
    """Everything but word validity: returns the normalised play and its formed words."""
    check_tiles(play, alphabet)
    check_geometry(board, play, rules)
    try:
        play = normalize_play(board, play)
    except NotationError as exc:
        raise IllegalMove(Reason.NOT_IN_LINE, str(exc)) from None
    check_rack(rack, play.tiles_used, alphabet)
    return play, formed_words(board, play, rules)


def play_from_squares(board: Board, placements: Iterable[tuple[int, int, int]]) -> Play:
    """A play from placed tiles, with R2.2/R2.3 reasons when they are not one line."""
    placed = list(placements)
    for item in placed:
        if not (
            isinstance(item, tuple | list)
            and len(item) == 3
            and all(isinstance(x, int) and not isinstance(x, bool) for x in item)
        ):
            raise IllegalMove(
                Reason.NOTATION,
                f"a placed tile is a (row, col, tile) triple of integers, not {item!r}",
            )
    if not placed:
        raise IllegalMove(Reason.NO_TILES, "no tiles placed: a play places at least one (R2.1)")
    rows = {r for r, _, _ in placed}
    cols = {c for _, c, _ in placed}
    if len(placed) > 1 and len(rows) > 1 and len(cols) > 1:
        raise IllegalMove(Reason.NOT_IN_LINE, "the tiles must all be in one row or one column")
    seen: set[tuple[int, int]] = set()
    for r, c, tile in placed:
        if not board.on_board(r, c):
            raise IllegalMove(
                Reason.OFF_BOARD,
                f"row {r + 1}, column {c + 1} is off the {board.rows}×{board.cols} board",
            )
        if (r, c) in seen:
            raise IllegalMove(Reason.OCCUPIED, f"two tiles placed on {square_name(r, c)}")
        seen.add((r, c))
        if tile == BLANK:
            raise IllegalMove(
                Reason.NOTATION, f"the blank on {square_name(r, c)} needs a designated letter"
            )
    try:
        return play_from_placements(board, placed)
    except NotationError as exc:
        raise IllegalMove(Reason.NOT_IN_LINE, str(exc)) from None


def describe_words(words: Iterable[WordSpan], alphabet: Alphabet) -> list[str]:
    return [alphabet.format(w.tiles) for w in words]


__all__ = [
    "IllegalMove",
    "Reason",
    "check_geometry",
    "check_play",
    "check_rack",
    "check_tiles",
    "covers_start",
    "describe_words",
    "format_position",
    "formed_words",
    "invalid_words",
    "normalize_play",
    "play_from_squares",
]
