"""The bodies of duplicate requests (:mod:`.duplicates`), bounded and checked before they wait
for a game: who plays a new game, and one person's play. Each refusal is a 400 naming what
is wrong."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tessera.engine.duplicate_players import DUPLICATE_PLAYER_NAMES

from .accounts import check_display_name
from .errors import RequestError, field_int, field_str
from .game_requests import MAX_MOVE_TEXT, MAX_NAME, MAX_PLACEMENTS

MAX_DECLARED = 9999  # no play scores more than a few thousand
MAX_SEATS = 4  # people and computers together
MAX_OPPONENTS = MAX_SEATS - 1  # computers beside the owner when the body names no people
PLAY_FIELDS = frozenset({"placements", "move", "declared", "round", "seat"})
START_FIELDS = frozenset({"opponents", "people"})
NEXT_FIELDS = frozenset({"round"})


def _known_fields(body: dict[str, Any], allowed: frozenset[str]) -> None:
    unknown = set(body) - allowed
    if unknown:
        raise RequestError(400, "bad_field", f"unknown field {sorted(unknown)[0]!r}")


@dataclass(frozen=True)
class StartRequest:
    """Who plays a new game: ``people`` at the screen in seat order (None: the owner alone,
    named as their account), then the ``opponents``, computers named by their level."""

    people: list[str] | None
    opponents: list[str]


def read_start(body: dict[str, Any]) -> StartRequest:
    """A new game's body: ``{"people": [...], "opponents": [...]}``, both optional. Without
    ``people`` the owner plays with up to ``MAX_OPPONENTS`` computers; with it, 0–4 people
    and the computers make 1–``MAX_SEATS`` players (no people: the computers play alone)."""
    _known_fields(body, START_FIELDS)
    names = body.get("opponents", [])
    if not isinstance(names, list) or len(names) > MAX_SEATS:
        raise RequestError(
            400, "bad_opponents", f"opponents is a list of at most {MAX_SEATS} computers"
        )
    if any(not isinstance(n, str) or n not in DUPLICATE_PLAYER_NAMES for n in names):
        raise RequestError(
            400, "bad_opponents", f"computers are {', '.join(DUPLICATE_PLAYER_NAMES)}"
        )
    if len(set(names)) != len(names):
        raise RequestError(400, "bad_opponents", "each computer plays once")
    if "people" not in body:
        if len(names) > MAX_OPPONENTS:
            raise RequestError(
                400, "bad_opponents",
                f"opponents is a list of at most {MAX_OPPONENTS} computers beside you",
            )
        return StartRequest(None, names)
    people = read_people(body["people"])
    if not people and not names:
        raise RequestError(400, "bad_players", "a game needs a person or a computer to play it")
    if len(people) + len(names) > MAX_SEATS:
        raise RequestError(
            400, "bad_players",
            f"people and computers together are at most {MAX_SEATS} players",
        )
    return StartRequest(people, names)


def read_people(value: object) -> list[str]:
    """The names of the people at the screen: at most ``MAX_SEATS``, each 1–``MAX_NAME``
    printable characters, all different, none a computer's."""
    if not isinstance(value, list) or len(value) > MAX_SEATS:
        raise RequestError(400, "bad_people", f"people is a list of at most {MAX_SEATS} names")
    people: list[str] = []
    for i, raw in enumerate(value, start=1):
        try:
            name = check_display_name(raw, MAX_NAME)
        except RequestError as exc:
            raise RequestError(400, "bad_people", f"person {i}: {exc.message}") from None
        if name.casefold() in DUPLICATE_PLAYER_NAMES:
            raise RequestError(
                400, "bad_people", f"person {i}: {name} is the name of a computer"
            )
        if any(name.casefold() == other.casefold() for other in people):
            raise RequestError(400, "bad_people", f"person {i}: {name} is named twice")
        people.append(name)
    return people


@dataclass(frozen=True)
class PlayRequest:
    """A checked ``/play`` body: placements or notation, the declared score, the round, and
    the seat of the person handing it in (None: whoever's entry it is)."""

    placements: Any
    text: str | None
    declared: int | None
    round: int | None
    seat: int | None = None


def read_play(body: dict[str, Any]) -> PlayRequest:
    """Bound and check a ``/play`` body before it waits for the game (400 when malformed)."""
    _known_fields(body, PLAY_FIELDS)
    has_move, has_placements = "move" in body, "placements" in body
    if has_move == has_placements:
        raise RequestError(400, "bad_play", "send either placements or move")
    text = field_str(body, "move", MAX_MOVE_TEXT).strip() if has_move else None
    if has_move and not text:
        raise RequestError(400, "bad_play", "write the play, such as 8D QUITE")
    placements = body.get("placements")
    if has_placements:
        if not isinstance(placements, list) or not placements:
            raise RequestError(400, "bad_play", "placements is a list of [row, column, letter]")
        if len(placements) > MAX_PLACEMENTS:
            raise RequestError(400, "bad_play", "too many tiles in one play")
    declared = field_int(body, "declared", required=False)
    if declared is not None and not 0 <= declared <= MAX_DECLARED:
        raise RequestError(400, "bad_declared", f"declared is a score from 0 to {MAX_DECLARED}")
    round_number = field_int(body, "round", required=False)
    seat = field_int(body, "seat", required=False)
    if seat is not None and not 0 <= seat < MAX_SEATS:
        raise RequestError(400, "bad_seat", f"seat is a number from 0 to {MAX_SEATS - 1}")
    return PlayRequest(placements, text, declared, round_number, seat)


def read_next(body: dict[str, Any]) -> int | None:
    """A ``/next`` body: the round the page shows (optional), so a second click of the same
    round is refused rather than playing the next."""
    _known_fields(body, NEXT_FIELDS)
    return field_int(body, "round", required=False)
