"""Rating one event: every player's new rating and games played from their standing before it
and its games.

The event is rated segment by segment (:func:`~.naspa.rating_segments`), each segment's new
ratings the next one's old ones. In a segment:

1. newcomers (unrated players with rated games in it) get initial ratings
   (:func:`~.newcomers.initial_ratings`), which their opponents' expectations then use;
2. each rated player's excess (earned wins minus :func:`~.naspa.expected_wins` summed over
   their games) becomes base points (:func:`~.naspa.base_change`), then acceleration points
   (:func:`~.naspa.acceleration_points`); the rating is kept at least
   :data:`~.naspa.RATING_FLOOR`;
3. each rated player gets feedback points (:func:`~.naspa.feedback_points`) for every game
   against a rated player who earned acceleration points;
4. the sum is rounded (:func:`~.naspa.round_rating`).

The multiplier uses the career games played before the event, in every segment, as Levesque's
description reads ("how many games you played before the tourney started"). Byes and forfeits
are not rated and do not count as games played.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .inputs import Bye, Game, PlayerKey, PlayerRating, check_event, event_rounds
from .naspa import (
    RATING_FLOOR,
    acceleration_points,
    base_change,
    expected_wins,
    feedback_points,
    rating_segments,
    round_rating,
)
from .newcomers import NewcomerResult, initial_ratings


@dataclass(frozen=True)
class SegmentRating:
    """One player's rating through one segment: the parts of the change, by name.

    ``rating_before`` is None for a newcomer, whose ``rating_after`` is their initial rating
    (and whose expected wins, base, acceleration and feedback are 0)."""

    rounds: range
    rating_before: int | None
    rating_after: int | None
    games: int
    earned_wins: float
    expected_wins: float
    base: float
    acceleration: float
    feedback: float


@dataclass(frozen=True)
class RatingChange:
    """A player's standing before and after an event, with each segment's working."""

    player: PlayerKey
    before: PlayerRating
    after: PlayerRating
    segments: tuple[SegmentRating, ...]

    @property
    def change(self) -> int | None:
        """Rating points gained (negative: lost); None unless rated before and after."""
        if self.before.rating is None or self.after.rating is None:
            return None
        return self.after.rating - self.before.rating


@dataclass(frozen=True)
class _Played:
    opponent: PlayerKey
    wins: float


def rate_event(
    players: Mapping[PlayerKey, PlayerRating],
    games: Sequence[Game | Bye],
    rounds: int | None = None,
) -> dict[PlayerKey, RatingChange]:
    """Every player's new rating and games played after an event.

    ``players`` maps each player of the event to their standing before it (an unrated
    player's rating is None); ``games`` are the event's games and byes, in round order;
    ``rounds`` defaults to the last round with a game. Raises :class:`RatingInputError`
    (naming the player, game or round) before rating anything if the input is malformed.
    """
    total_rounds = event_rounds(games, rounds)
    check_event(players, games, total_rounds)
    rated_games = [g for g in games if isinstance(g, Game) and g.rated]
    ratings: dict[PlayerKey, int | None] = {key: p.rating for key, p in players.items()}
    worked: dict[PlayerKey, list[SegmentRating]] = {key: [] for key in players}
    for segment in rating_segments(total_rounds):
        played = _games_by_player(g for g in rated_games if g.round in segment)
        after = _rate_segment(ratings, played, players, segment, worked)
        ratings.update(after)
    return {
        key: RatingChange(
            player=key,
            before=standing,
            after=PlayerRating(ratings[key], standing.games + sum(s.games for s in worked[key])),
            segments=tuple(worked[key]),
        )
        for key, standing in players.items()
    }


def _games_by_player(games: Iterable[Game]) -> dict[PlayerKey, list[_Played]]:
    played: dict[PlayerKey, list[_Played]] = defaultdict(list)
    for game in games:
        wins = game.wins_a
        played[game.player_a].append(_Played(game.player_b, wins))
        played[game.player_b].append(_Played(game.player_a, 1.0 - wins))
    return played


def _rate_segment(
    ratings: Mapping[PlayerKey, int | None],
    played: Mapping[PlayerKey, list[_Played]],
    players: Mapping[PlayerKey, PlayerRating],
    segment: range,
    worked: dict[PlayerKey, list[SegmentRating]],
) -> dict[PlayerKey, int | None]:
    """The ratings after one segment, its working appended to ``worked`` for each player
    who played in it."""
    rated = {key: r for key, r in ratings.items() if r is not None}
    newcomers = {
        key: NewcomerResult(
            wins=math.fsum(g.wins for g in games), opponents=tuple(g.opponent for g in games)
        )
        for key, games in played.items()
        if key not in rated
    }
    initial = initial_ratings(newcomers, rated)
    effective: dict[PlayerKey, float] = {**rated, **initial}

    unrounded: dict[PlayerKey, float] = {}
    parts: dict[PlayerKey, tuple[float, float, float, float]] = {}
    for key, games in played.items():
        if key not in rated:
            continue
        earned = math.fsum(g.wins for g in games)
        expected = math.fsum(expected_wins(effective[key], effective[g.opponent]) for g in games)
        base = base_change(rated[key], earned - expected, players[key].games)
        acceleration = acceleration_points(base, len(games))
        unrounded[key] = max(rated[key] + base + acceleration, float(RATING_FLOOR))
        parts[key] = (earned, expected, base, acceleration)

    feedback_shares: dict[PlayerKey, list[float]] = defaultdict(list)
    for key, (_, _, _, acceleration) in parts.items():
        if acceleration > 0:
            for game in played[key]:
                if game.opponent in rated:
                    feedback_shares[game.opponent].append(feedback_points(acceleration))

    after: dict[PlayerKey, int | None] = {}
    for key, games in played.items():
        if key in rated:
            earned, expected, base, acceleration = parts[key]
            feedback = math.fsum(feedback_shares[key])
            after[key] = round_rating(unrounded[key] + feedback)
        else:
            earned, expected, base, acceleration, feedback = newcomers[key].wins, 0.0, 0.0, 0.0, 0.0
            after[key] = round_rating(initial[key])
        worked[key].append(
            SegmentRating(
                rounds=segment,
                rating_before=ratings[key],
                rating_after=after[key],
                games=len(games),
                earned_wins=earned,
                expected_wins=expected,
                base=base,
                acceleration=acceleration,
                feedback=feedback,
            )
        )
    return after
