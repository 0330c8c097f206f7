"""Who watches a game: the spectator list its pages are sent.

A page without a seat is a spectator. Spectators with an account are listed once each, by
name, with whether they play as a guest; those without one are counted. With several server
processes each knows only the pages it serves: it tells the others of its own spectators of a
game whenever they change (an event through :mod:`.notify`), and keeps theirs, so that every
page hears the whole list. The message a page receives is
``{"type": "watchers", "watchers": [{"name": …, "guest": …}, …], "anonymous": N}``; it is not
part of the game's state (which is cached per position, the same for every spectator).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Protocol

from .accounts import User

MAX_NAMED = 50  # spectators listed by name from one process; more are counted
MAX_COUNT = 1_000_000


class Page(Protocol):
    seats: frozenset[int]
    viewer: User | None


Named = dict[str, dict[str, Any]]  # user id → {"name", "guest"}


def spectators(pages: Iterable[Page]) -> tuple[Named, int]:
    """The spectators among ``pages``: each user once by id (at most :data:`MAX_NAMED`), and
    how many more (without an account, or past the bound)."""
    named: Named = {}
    anonymous = 0
    for page in pages:
        if page.seats:
            continue
        who = page.viewer
        if who is not None and (who.id in named or len(named) < MAX_NAMED):
            named[who.id] = {"name": who.name, "guest": who.is_guest}
        else:
            anonymous += 1
    return named, anonymous


def _checked(named: Any, anonymous: Any) -> tuple[Named, int] | None:
    """Another process's list as it came over the wire, or None when malformed."""
    if not isinstance(named, dict) or len(named) > MAX_NAMED:
        return None
    if type(anonymous) is not int or not 0 <= anonymous <= MAX_COUNT:
        return None
    for key, who in named.items():
        if not (
            isinstance(key, str)
            and isinstance(who, dict)
            and isinstance(who.get("name"), str)
            and type(who.get("guest")) is bool
        ):
            return None
    return {k: {"name": w["name"], "guest": w["guest"]} for k, w in named.items()}, anonymous


class Watchers:
    """The spectators other processes serve, by game and process."""

    def __init__(self) -> None:
        self.remote: dict[str, dict[str, tuple[Named, int]]] = {}

    def heard(self, game_id: str, origin: str, named: Any, anonymous: Any) -> bool:
        """Another process's spectators of a game (an empty list forgets it). False when
        the event is malformed."""
        checked = _checked(named, anonymous)
        if checked is None:
            return False
        games = self.remote.setdefault(game_id, {})
        if checked[0] or checked[1]:
            games[origin] = checked
        else:
            games.pop(origin, None)
        if not games:
            del self.remote[game_id]
        return True

    def anyone(self, game_id: str, pages: Iterable[Page]) -> bool:
        return game_id in self.remote or any(not page.seats for page in pages)

    def text(self, game_id: str, pages: Iterable[Page]) -> str:
        """The message for a game's pages: this process's spectators and the others'."""
        named, anonymous = spectators(pages)
        for theirs, count in self.remote.get(game_id, {}).values():
            named = {**theirs, **named}
            anonymous += count
        listed = sorted(named.values(), key=lambda w: (w["name"].casefold(), w["name"]))
        message = {"type": "watchers", "watchers": listed, "anonymous": anonymous}
        return json.dumps(message, separators=(",", ":"))


def event(game_id: str, pages: Iterable[Page]) -> dict[str, Any]:
    """The event that tells the other processes who watches ``game_id`` here."""
    named, anonymous = spectators(pages)
    return {"kind": "watchers", "game": game_id, "named": named, "anonymous": anonymous}
