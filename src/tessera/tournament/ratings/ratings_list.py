"""A ratings list across events: every player's rating and games played, events applied in
date order (NASPA rates tournaments in the order they began, not the order results arrive).

A :class:`RatingsList` is immutable: :meth:`RatingsList.after` returns a new list, so a list
can be kept for every date and an event rerated from the list before it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .event import RatingChange, rate_event
from .inputs import (
    MAX_EVENTS,
    UNRATED,
    Game,
    PlayerKey,
    PlayerRating,
    RatedEvent,
    RatingInputError,
)


@dataclass(frozen=True)
class RatingsList:
    """Players' standings by key; a player not in the list is unrated with no games."""

    players: Mapping[PlayerKey, PlayerRating] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for key, standing in self.players.items():
            if not isinstance(standing, PlayerRating):
                raise RatingInputError(f"player {key!r}: {standing!r} is not a PlayerRating")
            standing.check(key)
        object.__setattr__(self, "players", MappingProxyType(dict(self.players)))

    def __getitem__(self, player: PlayerKey) -> PlayerRating:
        return self.players.get(player, UNRATED)

    def __iter__(self) -> Iterator[PlayerKey]:
        return iter(self.players)

    def __len__(self) -> int:
        return len(self.players)

    def rated(self) -> list[tuple[PlayerKey, PlayerRating]]:
        """The rated players, highest rating first (ties in the list's order)."""
        rated = [(k, p) for k, p in self.players.items() if p.rating is not None]
        return sorted(rated, key=lambda item: -(item[1].rating or 0))

    def after(self, event: RatedEvent) -> RatingsList:
        """This list with ``event`` rated: its players' standings replaced by their new ones."""
        return self._with(self.changes(event))

    def changes(self, event: RatedEvent) -> dict[PlayerKey, RatingChange]:
        """How ``event`` changes its players' standings, rated from this list."""
        players: dict[PlayerKey, PlayerRating] = {}
        for game in event.games:
            keys = (game.player_a, game.player_b) if isinstance(game, Game) else (game.player,)
            for key in keys:
                players.setdefault(key, self[key])
        try:
            return rate_event(players, event.games, event.rounds)
        except RatingInputError as error:
            raise RatingInputError(f"event {event.name!r} ({event.date}): {error}") from None

    def _with(self, changes: Mapping[PlayerKey, RatingChange]) -> RatingsList:
        updated = dict(self.players)
        for key, change in changes.items():
            updated[key] = change.after
        return RatingsList(updated)


def rate_events(events: Iterable[RatedEvent], start: RatingsList | None = None) -> RatingsList:
    """The ratings list after ``events``, rated in date order (events of one date in the
    order given) from ``start`` (empty: everyone unrated)."""
    ordered = list(events)
    if len(ordered) > MAX_EVENTS:
        raise RatingInputError(f"{len(ordered)} events, more than {MAX_EVENTS}")
    ordered.sort(key=lambda e: e.date)
    ratings = start if start is not None else RatingsList()
    for event in ordered:
        ratings = ratings.after(event)
    return ratings
