"""What a page asks of a live game, checked before anything is done with it: the new-game
dialog's settings (:class:`GameSpec`: preset, word list, seats, the game's own clock and
challenge rule), a move request's fields (a play as text or as tiles placed, an exchange, a
pass, a challenge, a resignation, a call to abort) and the seat it is made for. Every field is
bounded; anything malformed is a precise 400 (:class:`RequestError`), a play the board refuses
an :class:`IllegalMove`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from tessera.board import Board
from tessera.game import Game
from tessera.legality import Reason, play_from_squares
from tessera.move import Exchange, Move, NotationError, Pass, Play, parse_move
from tessera.rules import PRESETS, ChallengeRule, preset
from tessera.tiles import BLANK, Alphabet, TileError

from .accounts import User, check_display_name
from .computer import levels
from .config import ServerConfig
from .errors import RequestError, excerpt, field_int, field_str
from .lobby import parse_clock
from .storage import Seat

# presets the web app offers (duplicate needs its own flow)
WEB_PRESETS = tuple(name for name in PRESETS if name != "duplicate")
DEFAULT_RULES = "casual"
MAX_NAME = 24
MAX_MOVE_TEXT = 64  # the longest play in GCG notation is under 30 characters
MAX_TILES_TEXT = 32
MAX_PLACEMENTS = 32
CLOCK_FIELDS = frozenset({"initial_min", "increment_s", "max_overtime_min"})


@dataclass(frozen=True)
class GameSpec:
    """A new game as the new-game dialog asks for it, checked: the preset, the word list, the
    seats, and the game's own time control and challenge rule (None: the preset's)."""

    rules: str
    lexicon: str
    seats: list[Seat]
    clock: dict[str, int] | None = None
    challenge_rule: str | None = None


def parse_own_clock(spec: dict[str, Any]) -> dict[str, int] | None:
    """The game's own time control, ``{"initial_min", "increment_s", "max_overtime_min"}``
    (main minutes 1–90, then seconds added per move 0–60 and minutes of overtime 0–10, at
    10 points a minute); absent or null: the preset's."""
    clock = spec.get("clock")
    if clock is None:
        return None
    if not isinstance(clock, dict):
        raise RequestError(
            400, "bad_clock", "clock must be an object: initial_min, increment_s, max_overtime_min"
        )
    unknown = sorted(set(clock) - CLOCK_FIELDS)
    if unknown:
        raise RequestError(
            400,
            "bad_clock",
            f"clock has no field {excerpt(unknown[0])}; use {sorted(CLOCK_FIELDS)}",
        )
    given = {k: v for k, v in clock.items() if v is not None}
    if "initial_min" not in given:
        raise RequestError(400, "bad_clock", "clock needs initial_min, the main time in minutes")
    return parse_clock({"increment_s": 0, "max_overtime_min": 0, **given})


def parse_challenge_rule(spec: dict[str, Any]) -> str | None:
    """The game's own challenge rule (a :class:`ChallengeRule` value); absent, null or empty:
    the preset's."""
    value = field_str(spec, "challenge_rule", 16)
    if not value:
        return None
    if value not in {r.value for r in ChallengeRule}:
        raise RequestError(
            400,
            "bad_challenge_rule",
            f"no challenge rule {excerpt(value)}; use one of {[r.value for r in ChallengeRule]}",
        )
    return value


def parse_spec(spec: dict[str, Any], user: User, config: ServerConfig) -> GameSpec:
    """The new game the dialog asks for, checked. The user's seats are the human ones
    (several: people sharing one screen), or every seat when all are computers."""
    rules_name = field_str(spec, "rules", 64) or DEFAULT_RULES
    if rules_name not in WEB_PRESETS:
        raise RequestError(
            400,
            "bad_rules",
            f"no rules preset {excerpt(rules_name)}; use one of {list(WEB_PRESETS)}",
        )
    lex_name = field_str(spec, "lexicon", 64) or config.default_lexicon
    if lex_name not in config.lexicons:
        raise RequestError(
            400,
            "bad_lexicon",
            f"no word list {excerpt(lex_name)} here; use one of {list(config.lexicons)}",
        )
    rules = preset(rules_name)
    players = spec.get("players")
    if not isinstance(players, list) or len(players) > rules.max_players:
        raise RequestError(
            400,
            "bad_players",
            f"players must be a list of {rules.min_players}–{rules.max_players}",
        )
    seats: list[Seat] = []
    for i, p in enumerate(players):
        if not isinstance(p, dict):
            raise RequestError(400, "bad_players", f"player {i + 1} must be an object")
        try:
            name = check_display_name(p.get("name"), MAX_NAME)
        except RequestError as exc:
            raise RequestError(400, "bad_players", f"player {i + 1}: {exc.message}") from None
        kind = p.get("kind", "human")
        if kind not in ("human", "computer"):
            raise RequestError(
                400, "bad_players", f"player {i + 1}: kind must be human or computer"
            )
        level = None
        if kind == "computer":
            level = p.get("level") or "best"
            if level not in levels():
                raise RequestError(
                    400,
                    "bad_players",
                    f"computer level {excerpt(level)}: use one of {list(levels())}",
                )
        seats.append(Seat(name, kind, level, user.id if kind == "human" else None))
    if not rules.min_players <= len(seats) <= rules.max_players:
        raise RequestError(
            400,
            "bad_players",
            f"{rules.name} rules take {rules.min_players}–{rules.max_players} players, "
            f"not {len(seats)}",
        )
    if len({s.name for s in seats}) != len(seats):
        raise RequestError(400, "bad_players", "player names must be different")
    if not any(s.kind == "human" for s in seats):
        # computer against computer: the person who starts it holds every seat, to watch
        # it (and rematch it); a computer seat's moves stay the computer's
        seats = [replace(s, user=user.id) for s in seats]
    return GameSpec(rules_name, lex_name, seats, parse_own_clock(spec), parse_challenge_rule(spec))


def placements_play(board: Board, alphabet: Alphabet, placements: Any) -> Play:
    """The play a page's ``[[row, column, letter], …]`` names on ``board`` (blanks as
    lower-case letters); every field bounded and checked. RequestError for a malformed
    list, IllegalMove for tiles that do not form a play."""
    if not isinstance(placements, list) or not placements:
        raise RequestError(400, Reason.NO_TILES.value, "place at least one tile")
    if len(placements) > MAX_PLACEMENTS:
        raise RequestError(400, Reason.NOTATION.value, "too many tiles in one play")
    squares = []
    seen = set()
    for item in placements:
        if not (
            isinstance(item, list)
            and len(item) == 3
            and type(item[0]) is int
            and type(item[1]) is int
            and isinstance(item[2], str)
            and len(item[2]) <= 4
        ):
            raise RequestError(
                400, Reason.NOTATION.value, "each placement is [row, column, letter]"
            )
        r, c, label = item
        if not board.on_board(r, c):
            raise RequestError(400, Reason.OFF_BOARD.value, "a tile is off the board")
        if (r, c) in seen:
            raise RequestError(400, Reason.OCCUPIED.value, "two tiles on one square")
        seen.add((r, c))
        try:
            tiles = alphabet.parse(label)
        except TileError as exc:
            raise RequestError(400, Reason.NOTATION.value, str(exc)) from None
        if len(tiles) != 1:
            raise RequestError(400, Reason.NOTATION.value, f"{label!r} is not one tile")
        if tiles[0] == BLANK:
            raise RequestError(400, Reason.NOTATION.value, "choose a letter for the blank")
        squares.append((r, c, tiles[0]))
    return play_from_squares(board, squares)  # IllegalMove: a refused play


def bound_fields(body: dict[str, Any]) -> None:
    """Refuse an oversized field at once, before the request waits for the game's lock
    and the worker pool: a flood of them then queues behind nothing."""
    if "text" in body:
        field_str(body, "text", MAX_MOVE_TEXT)
    if "tiles" in body:
        field_str(body, "tiles", MAX_TILES_TEXT)
    placements = body.get("placements")
    if isinstance(placements, list) and len(placements) > MAX_PLACEMENTS:
        raise RequestError(400, Reason.NOTATION.value, "too many tiles in one play")


def parse_request(game: Game, body: dict[str, Any]) -> tuple[str, Move | None]:
    """(log kind, move) from a page's request; refuses malformed input clearly. Every
    field is bounded before it is parsed."""
    kind = body.get("action")
    alphabet = game.alphabet
    if kind == "play":
        if "text" in body:
            text = field_str(body, "text", MAX_MOVE_TEXT)
            try:
                move = parse_move(text, alphabet, game.board)
            except NotationError as exc:
                raise RequestError(400, Reason.NOTATION.value, str(exc)) from None
            if not isinstance(move, Play):
                raise RequestError(400, Reason.NOTATION.value, "that is not a tile play")
            return "move", move
        return "move", placements_play(game.board, game.alphabet, body.get("placements"))
    if kind == "exchange":
        tiles_text = field_str(body, "tiles", MAX_TILES_TEXT)
        try:
            tiles = alphabet.parse(tiles_text.upper())
        except TileError as exc:
            raise RequestError(400, Reason.NOTATION.value, f"exchange: {exc}") from None
        if not tiles:
            raise RequestError(400, Reason.NOTATION.value, "choose the tiles to exchange")
        return "move", Exchange(tuple(tiles))
    if kind == "pass":
        return "move", Pass()
    if kind in ("challenge", "resign", "abort"):
        return kind, None
    raise RequestError(400, "bad_action", f"unknown action {excerpt(kind)}")


def requested_seat(body: dict[str, Any], seats: frozenset[int], what: str) -> int:
    seat = field_int(body, "seat")
    if seat not in seats:
        raise RequestError(403, "forbidden", f"you cannot {what} for that seat")
    return seat
