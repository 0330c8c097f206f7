"""The ABSP's rating system (Association of British Scrabble Players, the "weighted rolling
system" in use since 1999), one small named function each, in exact arithmetic.

Sources, read for the facts only:

- "ABSP Ratings System" (https://www.absp.org.uk/results/ratings_detail.shtml, also at
  http://www.absp.org.uk/results/ratings_detail.shtml), section "Ratings Points": a game is
  worth the opponent's rating plus 50 for a win, less 50 for a loss, unchanged for a tie; an
  opponent rated more than 40 points away counts as exactly 40 away ("if the player, who was
  rated 169, played someone rated under 129, then she would use 129"); the tournament's
  rating points (Penzance: 1901 + 350 - 250 = 2001) and its number of games (12) are the
  input to the overall calculation, and the tournament rating is their average, "2001/12 =
  167 rounded"; spread and which opponents were beaten do not matter. Its introduction: the
  overall rating uses each player's most recent 150 games "where available", weighted 225 (the
  most recent) down to 76 (100 games weighted 150 to 51 until the end of 2010), so that
  recent tournaments count for more; the lowest possible rating is 50;
- John Grayson's guide (http://absp.org.uk/results/JAGRatingsNotes.shtml): "Basic ratings
  system" (JAGrn1: the 40-point rule, rated 150 against 90 the opponent is worth 110 and you
  are worth 130 to them), "Some questions from Player A" (JAGrn4: byes are never rated;
  associated events are rated separately, one after the other), "The 10 point rule" (JAGrn5);
- "2011 Rating Changes" (http://www.absp.org.uk/news/news300111.shtml): with about 100 games
  in the calculation "the weight of the most recent game was 225", so the weights count down
  from 225 however few games a player has; the oldest games are dropped one by one once a
  player has more than 150 (under the 100-game system an oldest tournament "may have
  contributed only 1 or 2 games"), so the window is a number of games, not of tournaments.

The description's worked example of the weighted calculation ("an example at the end of this
file") and its section on new players could not be read. Where the readable text leaves a
point open, the choice made here (each a named function or constant):

- the overall rating is the weighted mean of the per-game values of the window's games, a
  game's value being its tournament's rating points divided by its games, unrounded (the page
  names the total and the count, not the rounded 167, as the input);
- every rounding is to the nearest whole number, halves up (:func:`round_half_up`), and only
  the overall rating (and a tournament rating as shown) is rounded; the rating is then raised
  to :data:`LOWEST_RATING` if below it;
- the 40-point rule compares the two players' ratings before the event; an unrated player has
  no rating, so it does not apply to their games (as in TSH's ABSP module, the director's tool
  that reports ABSP ratings); unrated players are rated in TSH's documented order: first an
  estimate from their games against rated players, then their tournament again with the
  other newcomers' estimates, then rated players' games against newcomers count the
  newcomers' new ratings; a newcomer's game against a newcomer not estimated in the pass
  before does not count for them;
- the 10-point rule (:func:`ten_point_rule_resets`) counts a player's career games before
  the event, and its one recalculation rerates the whole division with every eligible
  player's reset start rating at once ("only one recalculation per player per eligible
  division"); the new standings still hold the player's real tournaments;
- a player known only by a rating and a game count (an imported list) is taken to have played
  that many games (at most the window) all worth that rating; with no count, a full window.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from .inputs import (
    MAX_EVENTS,
    MAX_GAMES_PLAYED,
    MAX_RATING,
    MIN_RATING,
    Bye,
    Game,
    PlayerKey,
    PlayerRating,
    RatingInputError,
    check_event,
    event_rounds,
)

RATING_DIFFERENCE_CAP = 40
"""An opponent rated further than this from the player counts as exactly this far away."""

RESULT_POINTS = 50
"""A win adds this to the opponent's rating, a loss takes it away, a tie neither."""

LOWEST_RATING = 50
"""The lowest possible ABSP rating."""

TEN_POINT_RULE_GAMES = 30
"""The 10-point rule applies to players whose start rating rests on fewer games than this."""

TEN_POINT_RULE_CHANGE = 10
"""... and whose new rating is at least this far from it."""

_LOWEST_GAME_VALUE = MIN_RATING - RESULT_POINTS
_HIGHEST_GAME_VALUE = MAX_RATING + RESULT_POINTS


@dataclass(frozen=True)
class Weighting:
    """The rolling window: the most recent ``games`` games, the most recent weighted
    ``most_recent`` and each older one 1 less."""

    games: int
    most_recent: int

    def weight(self, position: int) -> int:
        """The weight of the game ``position`` places back (1: the most recent)."""
        if not 1 <= position <= self.games:
            raise ValueError(f"game position {position} is outside the window of {self.games}")
        return self.most_recent - position + 1

    def weights(self, positions: range) -> int:
        """The total weight of the games at ``positions`` (all inside the window)."""
        return sum(self.weight(p) for p in positions)


WEIGHTING_2011 = Weighting(games=150, most_recent=225)
"""From January 1st 2011: 150 games weighted 225 down to 76."""

WEIGHTING_1999 = Weighting(games=100, most_recent=150)
"""From 1999 to December 31st 2010: 100 games weighted 150 down to 51."""


def round_half_up(value: Fraction) -> int:
    """``value`` to the nearest whole number, halves up (166.75 -> 167, 166.5 -> 167)."""
    return math.floor(value + Fraction(1, 2))


def counted_opponent_rating(own: int | None, opponent: int) -> int:
    """The opponent's rating as it counts for a player rated ``own`` (None: unrated, no cap):
    at most :data:`RATING_DIFFERENCE_CAP` points from ``own``."""
    if own is None:
        return opponent
    return min(max(opponent, own - RATING_DIFFERENCE_CAP), own + RATING_DIFFERENCE_CAP)


def result_points(result: float) -> int:
    """+50 for a win (1), -50 for a loss (0), 0 for a tie (0.5)."""
    if result not in (0, 0.5, 1):
        raise ValueError(f"result {result!r} is not 1, 0.5 or 0")
    return round(RESULT_POINTS * (2 * result - 1))


def game_rating_points(own: int | None, opponent: int, result: float) -> int:
    """A game's rating points for a player rated ``own`` against ``opponent``, scoring
    ``result`` (1, 0.5 or 0): the counted opponent rating plus the result's points."""
    return counted_opponent_rating(own, opponent) + result_points(result)


@dataclass(frozen=True)
class TournamentPerformance:
    """One player's tournament: its total rating ``points`` and rated ``games``."""

    points: int
    games: int

    @property
    def value(self) -> Fraction:
        """Rating points per game, exactly: what each of its games counts in the window."""
        return Fraction(self.points, self.games)

    @property
    def rating(self) -> int:
        """The tournament rating as the ABSP prints it: points per game, rounded."""
        return round_half_up(self.value)

    def check(self, where: str) -> None:
        """Raise :class:`RatingInputError` (naming ``where``) for an impossible record."""
        if isinstance(self.games, bool) or not isinstance(self.games, int) or not (
            1 <= self.games <= MAX_GAMES_PLAYED
        ):
            raise RatingInputError(
                f"{where}: games {self.games!r} is not a whole number from 1 to "
                f"{MAX_GAMES_PLAYED}"
            )
        if isinstance(self.points, bool) or not isinstance(self.points, int) or not (
            _LOWEST_GAME_VALUE * self.games <= self.points <= _HIGHEST_GAME_VALUE * self.games
        ):
            raise RatingInputError(
                f"{where}: points {self.points!r} is not a whole number from "
                f"{_LOWEST_GAME_VALUE} to {_HIGHEST_GAME_VALUE} a game"
            )


def tournament_performance(
    own: int | None, games: Iterable[tuple[int, float]]
) -> TournamentPerformance | None:
    """The tournament of a player rated ``own`` (None: unrated) from their ``games``
    (opponent's rating, result); None if they played no rated game."""
    return counted_performance(
        (counted_opponent_rating(own, opponent), result) for opponent, result in games
    )


def counted_performance(games: Iterable[tuple[int, float]]) -> TournamentPerformance | None:
    """The tournament from ``games`` whose opponents' ratings already count as they should
    (capped or not): their sum plus the results' points; None without a game."""
    played = list(games)
    if not played:
        return None
    return TournamentPerformance(
        sum(opponent + result_points(result) for opponent, result in played), len(played)
    )


def window(
    tournaments: Sequence[TournamentPerformance], weighting: Weighting = WEIGHTING_2011
) -> list[tuple[TournamentPerformance, range]]:
    """The tournaments (most recent first) that reach into the window, each with the
    positions its counted games take (1: the most recent game); the oldest may be cut."""
    counted: list[tuple[TournamentPerformance, range]] = []
    position = 1
    for tournament in reversed(tournaments):
        if position > weighting.games:
            break
        last = min(position + tournament.games, weighting.games + 1)
        counted.append((tournament, range(position, last)))
        position = last
    return counted


def rolling_value(
    tournaments: Sequence[TournamentPerformance], weighting: Weighting = WEIGHTING_2011
) -> Fraction | None:
    """The weighted mean value of the window's games, unrounded; None with no games.

    ``tournaments`` are the player's, oldest first."""
    counted = window(tournaments, weighting)
    if not counted:
        return None
    total = sum(weighting.weights(p) * t.value for t, p in counted)
    return Fraction(total) / sum(weighting.weights(p) for _, p in counted)


def rolling_rating(
    tournaments: Sequence[TournamentPerformance], weighting: Weighting = WEIGHTING_2011
) -> int | None:
    """The ABSP rating from ``tournaments`` (oldest first): the rolling value rounded, at
    least :data:`LOWEST_RATING`; None (unrated) with no games."""
    value = rolling_value(tournaments, weighting)
    if value is None:
        return None
    return max(round_half_up(value), LOWEST_RATING)


@dataclass(frozen=True)
class AbspStanding:
    """A player's place in an ABSP list: the ``tournaments`` still in reach of the window
    (oldest first) and the career ``games`` (the 10-point rule reads them)."""

    tournaments: tuple[TournamentPerformance, ...] = ()
    games: int = 0
    weighting: Weighting = field(default=WEIGHTING_2011, compare=False)

    @property
    def rating(self) -> int | None:
        """The player's rating (None while unrated)."""
        return rolling_rating(self.tournaments, self.weighting)

    @classmethod
    def from_rating(
        cls,
        rating: int | None,
        games: int = 0,
        weighting: Weighting = WEIGHTING_2011,
        player: PlayerKey = "?",
    ) -> AbspStanding:
        """A player known only by ``rating`` and career ``games`` (0: unknown): that many
        games (at most the window; unknown: a full window) all worth ``rating``. Bad values
        raise :class:`RatingInputError` naming ``player``."""
        PlayerRating(rating, games).check(player)
        if rating is None:
            return cls((), games, weighting)
        counted = min(games, weighting.games) if games else weighting.games
        return cls((TournamentPerformance(rating * counted, counted),), max(games, counted),
                   weighting)

    def after(self, tournament: TournamentPerformance | None) -> AbspStanding:
        """This standing with ``tournament`` played (None: unchanged); tournaments wholly
        outside the window are dropped."""
        if tournament is None:
            return self
        kept = tuple(t for t, _ in reversed(window((*self.tournaments, tournament),
                                                   self.weighting)))
        return replace(self, tournaments=kept, games=self.games + tournament.games)

    def check(self, player: PlayerKey) -> None:
        """Raise :class:`RatingInputError` naming ``player`` for an impossible standing."""
        if len(self.tournaments) > MAX_EVENTS:
            raise RatingInputError(
                f"player {player!r}: {len(self.tournaments)} tournaments, more than "
                f"{MAX_EVENTS}"
            )
        for number, tournament in enumerate(self.tournaments, 1):
            if not isinstance(tournament, TournamentPerformance):
                raise RatingInputError(
                    f"player {player!r}: tournament {number} is not a TournamentPerformance"
                )
            tournament.check(f"player {player!r}, tournament {number}")
        in_reach = sum(t.games for t in self.tournaments)
        if isinstance(self.games, bool) or not isinstance(self.games, int) or not (
            in_reach <= self.games <= MAX_GAMES_PLAYED
        ):
            raise RatingInputError(
                f"player {player!r}: career games {self.games!r} is not a whole number from "
                f"{in_reach} (the tournaments' games) to {MAX_GAMES_PLAYED}"
            )


@dataclass(frozen=True)
class AbspRatingChange:
    """A player's standing before and after an event, with the event's working:
    ``performance`` (None without a rated game) and ``start_rating``, the rating the event
    was rated with (the 10-point rule may have reset it: ``ten_point_rule``)."""

    player: PlayerKey
    before: AbspStanding
    after: AbspStanding
    performance: TournamentPerformance | None
    start_rating: int | None
    ten_point_rule: bool = False

    @property
    def change(self) -> int | None:
        """Rating points gained (negative: lost); None unless rated before and after."""
        before, after = self.before.rating, self.after.rating
        if before is None or after is None:
            return None
        return after - before


Played = Mapping[PlayerKey, Sequence[tuple[PlayerKey, float]]]
"""Each player's rated games in the event: (opponent, result) in round order."""


def played_games(games: Iterable[Game | Bye]) -> dict[PlayerKey, list[tuple[PlayerKey, float]]]:
    """Each player's rated games: games over the board only (byes and forfeits are not
    rated)."""
    played: dict[PlayerKey, list[tuple[PlayerKey, float]]] = defaultdict(list)
    for game in games:
        if isinstance(game, Game) and game.rated:
            wins = game.wins_a
            played[game.player_a].append((game.player_b, wins))
            played[game.player_b].append((game.player_a, 1.0 - wins))
    return played


def _counted_games(
    own: int | None,
    games: Iterable[tuple[PlayerKey, float]],
    start: Mapping[PlayerKey, int | None],
    newcomers: Mapping[PlayerKey, int],
) -> list[tuple[int, float]]:
    """A player's games with a rating for each opponent: the opponent's start rating (the
    cap applies between two rated players), else the newcomer's estimate; games against an
    opponent with neither are left out."""
    counted: list[tuple[int, float]] = []
    for opponent, result in games:
        rating = start[opponent]
        if rating is not None:
            counted.append((counted_opponent_rating(own, rating), result))
        elif opponent in newcomers:
            counted.append((newcomers[opponent], result))
    return counted


def newcomer_performances(
    start: Mapping[PlayerKey, int | None], played: Played, passes: int
) -> dict[PlayerKey, TournamentPerformance]:
    """Unrated players' tournaments, worked out ``passes`` times: each time from their games
    against rated players and against newcomers estimated the time before (the first time:
    rated players only). The last pass's tournaments are theirs."""
    performances: dict[PlayerKey, TournamentPerformance] = {}
    for _ in range(passes):
        estimates = newcomer_ratings(performances)
        following: dict[PlayerKey, TournamentPerformance] = {}
        for player, games in played.items():
            if start[player] is None:
                performance = counted_performance(_counted_games(None, games, start, estimates))
                if performance is not None:
                    following[player] = performance
        performances = following
    return performances


def newcomer_ratings(
    performances: Mapping[PlayerKey, TournamentPerformance],
) -> dict[PlayerKey, int]:
    """Newcomers' ratings from their one tournament: its rating, at least 50."""
    return {key: max(p.rating, LOWEST_RATING) for key, p in performances.items()}


NEWCOMER_PASSES = 2
"""Newcomers are worked out twice: from rated opponents, then with each other's estimates."""


def event_performances(
    start: Mapping[PlayerKey, int | None], played: Played
) -> dict[PlayerKey, TournamentPerformance]:
    """Every player's tournament from the event's games, rated from the ``start`` ratings
    (None: unrated); rated players' games against newcomers count the newcomers' new
    ratings. Players without a rated game are left out."""
    performances = newcomer_performances(start, played, NEWCOMER_PASSES)
    estimates = newcomer_ratings(performances)
    for player, games in played.items():
        own = start[player]
        if own is not None:
            performance = counted_performance(_counted_games(own, games, start, estimates))
            if performance is not None:
                performances[player] = performance
    return performances


def ten_point_rule_resets(
    standings: Mapping[PlayerKey, AbspStanding], new_ratings: Mapping[PlayerKey, int | None]
) -> dict[PlayerKey, int]:
    """The players whose start rating the 10-point rule resets, with their reset rating: a
    start rating based on fewer than 30 games and a first new rating at least 10 away."""
    resets: dict[PlayerKey, int] = {}
    for player, standing in standings.items():
        before, after = standing.rating, new_ratings.get(player)
        if (
            before is not None
            and after is not None
            and standing.games < TEN_POINT_RULE_GAMES
            and abs(after - before) >= TEN_POINT_RULE_CHANGE
        ):
            resets[player] = after
    return resets


def _standings(
    players: Mapping[PlayerKey, AbspStanding | PlayerRating], weighting: Weighting
) -> dict[PlayerKey, AbspStanding]:
    standings: dict[PlayerKey, AbspStanding] = {}
    for key, standing in players.items():
        if isinstance(standing, PlayerRating):
            standing = AbspStanding.from_rating(standing.rating, standing.games, weighting, key)
        elif not isinstance(standing, AbspStanding):
            raise RatingInputError(
                f"player {key!r}: {standing!r} is neither an AbspStanding nor a PlayerRating"
            )
        standing.check(key)
        standing = replace(standing, weighting=weighting)
        standings[key] = standing
    return standings


def _bounded_ratings(standings: Mapping[PlayerKey, AbspStanding]) -> dict[PlayerKey, PlayerRating]:
    """The standings as the shared input check reads them (rating and games, in range)."""
    return {
        key: PlayerRating(s.rating, min(s.games, MAX_GAMES_PLAYED)) for key, s in standings.items()
    }


def rate_event_absp(
    players: Mapping[PlayerKey, AbspStanding | PlayerRating],
    games: Sequence[Game | Bye],
    rounds: int | None = None,
    weighting: Weighting = WEIGHTING_2011,
    ten_point_rule: bool = True,
) -> dict[PlayerKey, AbspRatingChange]:
    """Every player's new ABSP standing after one event (or division: each is rated on its
    own, JAGrn4).

    ``players`` maps each player to their standing before it: an :class:`AbspStanding`, or a
    :class:`PlayerRating` (rating and career games, see :meth:`AbspStanding.from_rating`);
    ``games`` are the event's games and byes (byes and forfeits are not rated); every
    player is rated with ``weighting``, the list's window. With
    ``ten_point_rule`` (the ABSP's rule since April 2009) the event is rated once more with
    the start ratings the rule resets. Raises :class:`RatingInputError` before rating
    anything if the input is malformed.
    """
    standings = _standings(players, weighting)
    check_event(_bounded_ratings(standings), games, event_rounds(games, rounds))
    played = played_games(games)
    start = {key: standing.rating for key, standing in standings.items()}
    performances = event_performances(start, played)
    resets: dict[PlayerKey, int] = {}
    if ten_point_rule:
        first = {k: standings[k].after(p).rating for k, p in performances.items()}
        resets = ten_point_rule_resets(standings, first)
        if resets:
            start = {**start, **resets}
            performances = event_performances(start, played)
    return {
        key: AbspRatingChange(
            player=key,
            before=standing,
            after=standing.after(performances.get(key)),
            performance=performances.get(key),
            start_rating=start[key],
            ten_point_rule=key in resets,
        )
        for key, standing in standings.items()
    }
