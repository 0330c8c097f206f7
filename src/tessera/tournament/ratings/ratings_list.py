"""A ratings list across events: every player's rating and games played, events applied in
date order (NASPA rates tournaments in the order they began, not the order results arrive;
the ABSP rates associated events one after the other, each from the ratings the one before
left, JAGrn4).

Two systems, one list each: :class:`RatingsList` (NASPA: a rating and a game count) and
:class:`AbspRatingsList` (ABSP: each player's recent tournaments, which the weighted rolling
rating is computed from). Both are immutable: ``after`` returns a new list, so a list can be
kept for every date and an event rerated from the list before it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .absp import WEIGHTING_2011, AbspRatingChange, AbspStanding, Weighting, rate_event_absp
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
        players = {key: self[key] for key in _event_players(event)}
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
    """The NASPA ratings list after ``events``, rated in date order (events of one date in
    the order given) from ``start`` (empty: everyone unrated)."""
    ratings = start if start is not None else RatingsList()
    for event in _in_date_order(events):
        ratings = ratings.after(event)
    return ratings


@dataclass(frozen=True)
class AbspRatingsList:
    """ABSP standings by key, every player rated with ``weighting``; a player not in the list
    is unrated with no games."""

    players: Mapping[PlayerKey, AbspStanding] = field(default_factory=dict)
    weighting: Weighting = WEIGHTING_2011

    def __post_init__(self) -> None:
        for key, standing in self.players.items():
            if not isinstance(standing, AbspStanding):
                raise RatingInputError(f"player {key!r}: {standing!r} is not an AbspStanding")
            standing.check(key)
        object.__setattr__(self, "players", MappingProxyType(dict(self.players)))

    def __getitem__(self, player: PlayerKey) -> AbspStanding:
        return self.players.get(player, AbspStanding(weighting=self.weighting))

    def __iter__(self) -> Iterator[PlayerKey]:
        return iter(self.players)

    def __len__(self) -> int:
        return len(self.players)

    def rated(self) -> list[tuple[PlayerKey, int]]:
        """The rated players and their ratings, highest first (ties in the list's order)."""
        rated = [(k, r) for k, s in self.players.items() if (r := s.rating) is not None]
        return sorted(rated, key=lambda item: -item[1])

    def after(self, event: RatedEvent) -> AbspRatingsList:
        """This list with ``event`` rated: its players' standings replaced by their new ones."""
        updated = dict(self.players)
        for key, change in self.changes(event).items():
            updated[key] = change.after
        return AbspRatingsList(updated, self.weighting)

    def changes(self, event: RatedEvent) -> dict[PlayerKey, AbspRatingChange]:
        """How ``event`` changes its players' standings, rated from this list."""
        players = {key: self[key] for key in _event_players(event)}
        try:
            return rate_event_absp(players, event.games, event.rounds, self.weighting)
        except RatingInputError as error:
            raise RatingInputError(f"event {event.name!r} ({event.date}): {error}") from None


def rate_events_absp(
    events: Iterable[RatedEvent], start: AbspRatingsList | None = None
) -> AbspRatingsList:
    """The ABSP ratings list after ``events``, rated in date order (events of one date in
    the order given) from ``start`` (empty: everyone unrated, 150-game weighting)."""
    ratings = start if start is not None else AbspRatingsList()
    for event in _in_date_order(events):
        ratings = ratings.after(event)
    return ratings


def _in_date_order(events: Iterable[RatedEvent]) -> list[RatedEvent]:
    """``events`` by date, events of one date in the order given (at most MAX_EVENTS)."""
    ordered = list(events)
    if len(ordered) > MAX_EVENTS:
        raise RatingInputError(f"{len(ordered)} events, more than {MAX_EVENTS}")
    ordered.sort(key=lambda e: e.date)
    return ordered


def _event_players(event: RatedEvent) -> list[PlayerKey]:
    """The players of ``event``'s games and byes, in order of first appearance."""
    players: dict[PlayerKey, None] = {}
    for game in event.games:
        keys = (game.player_a, game.player_b) if isinstance(game, Game) else (game.player,)
        for key in keys:
            players.setdefault(key, None)
    return list(players)
