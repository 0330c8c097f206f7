"""What the rating system reads: players' standing before an event, the event's games, and the
one error every bad input raises.

These are the package's own small types: the division model converts its results to them, so
the rating system depends on nothing else in :mod:`tessera.tournament`. A player is named by a
key, a name (``str``) or an id (``int``), whichever the caller keeps its ratings list by.

Every size and count is bounded (:data:`MAX_ROUNDS` and the rest), and a bad value raises
:class:`RatingInputError` naming what is wrong and where, before anything is computed.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

PlayerKey = str | int
"""A player's name or id, whichever the ratings list is kept by."""

MIN_RATING = 1
MAX_RATING = 4000  # far above any published rating; a larger number is a typing error
MAX_GAMES_PLAYED = 1_000_000
MAX_ROUNDS = 200
MAX_PLAYERS = 10_000
MAX_GAMES = 200_000
MAX_EVENTS = 100_000
MAX_SCORE = 10_000  # one player's score in one game, either sign (end-of-game penalties)


class RatingInputError(ValueError):
    """Input the rating system cannot rate: the message names what is wrong and where."""


@dataclass(frozen=True)
class PlayerRating:
    """A player's standing in a ratings list: ``rating`` (None while unrated) and the rated
    ``games`` played so far (the multiplier depends on them)."""

    rating: int | None = None
    games: int = 0

    def check(self, player: PlayerKey) -> None:
        """Raise :class:`RatingInputError` if the rating or the game count is out of range."""
        if self.rating is not None and (
            isinstance(self.rating, bool)
            or not isinstance(self.rating, int)
            or not MIN_RATING <= self.rating <= MAX_RATING
        ):
            raise RatingInputError(
                f"player {player!r}: rating {self.rating!r} is not a whole number from "
                f"{MIN_RATING} to {MAX_RATING} (use None for an unrated player)"
            )
        if (
            isinstance(self.games, bool)
            or not isinstance(self.games, int)
            or not 0 <= self.games <= MAX_GAMES_PLAYED
        ):
            raise RatingInputError(
                f"player {player!r}: games played {self.games!r} is not a whole number from 0 "
                f"to {MAX_GAMES_PLAYED}"
            )


UNRATED = PlayerRating()


@dataclass(frozen=True)
class Game:
    """One game of round ``round`` (from 1) between ``player_a`` and ``player_b``.

    Give either both scores (the higher wins, equal scores tie) or ``result``, player a's
    share of the win: 1, 0.5 or 0. A ``forfeit`` is recorded but not rated, as NASPA rates
    only games played over the board.
    """

    round: int
    player_a: PlayerKey
    player_b: PlayerKey
    score_a: int | None = None
    score_b: int | None = None
    result: float | None = None
    forfeit: bool = False

    @property
    def wins_a(self) -> float:
        """Player a's earned wins from this game: 1 for a win, 0.5 for a tie, 0 for a loss."""
        if self.result is not None:
            return float(self.result)
        assert self.score_a is not None and self.score_b is not None
        if self.score_a == self.score_b:
            return 0.5
        return 1.0 if self.score_a > self.score_b else 0.0

    @property
    def rated(self) -> bool:
        return not self.forfeit

    def check(self, index: int, rounds: int) -> None:
        """Raise :class:`RatingInputError` naming game number ``index`` (from 1) if it is
        malformed or its round is not one of the event's ``rounds``."""
        where = f"game {index} (round {self.round!r})"
        _check_round(where, self.round, rounds)
        if self.player_a == self.player_b:
            raise RatingInputError(f"{where}: player {self.player_a!r} cannot play themself")
        has_scores = self.score_a is not None or self.score_b is not None
        if has_scores == (self.result is not None) or (self.score_a is None) != (
            self.score_b is None
        ):
            raise RatingInputError(f"{where}: give both scores or a result, not both or neither")
        if has_scores:
            for label, score in (("a", self.score_a), ("b", self.score_b)):
                if (
                    isinstance(score, bool)
                    or not isinstance(score, int)
                    or not -MAX_SCORE <= score <= MAX_SCORE
                ):
                    raise RatingInputError(
                        f"{where}: score {label} {score!r} is not a whole number from "
                        f"{-MAX_SCORE} to {MAX_SCORE}"
                    )
        elif self.result not in (0, 0.5, 1) or isinstance(self.result, bool):
            raise RatingInputError(f"{where}: result {self.result!r} is not 1, 0.5 or 0")


@dataclass(frozen=True)
class Bye:
    """A bye for ``player`` in round ``round``: it counts in standings, never in ratings."""

    round: int
    player: PlayerKey

    def check(self, index: int, rounds: int) -> None:
        _check_round(f"game {index} (a bye for {self.player!r})", self.round, rounds)


def _check_round(where: str, round_number: object, rounds: int) -> None:
    if (
        isinstance(round_number, bool)
        or not isinstance(round_number, int)
        or not 1 <= round_number <= rounds
    ):
        raise RatingInputError(f"{where}: the round is not a whole number from 1 to {rounds}")


@dataclass(frozen=True)
class RatedEvent:
    """One event (or one division of it) for a ratings list: its games in round order, rated
    in ``date`` order among the list's events. ``rounds`` defaults to the last round with a
    game or bye."""

    name: str
    date: datetime.date
    games: tuple[Game | Bye, ...]
    rounds: int | None = None


def event_rounds(games: Sequence[Game | Bye], rounds: int | None) -> int:
    """The number of rounds of an event: ``rounds`` if given (checked), else its last round."""
    if rounds is None:
        if not games:
            raise RatingInputError("the event has no games")
        valid = (r for g in games if type(r := getattr(g, "round", None)) is int and r >= 1)
        rounds = max(valid, default=1)  # a game's bad round is reported by check_event
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise RatingInputError(
            f"the event's rounds {rounds!r} is not a whole number from 1 to {MAX_ROUNDS}"
        )
    return rounds


def check_event(
    players: Mapping[PlayerKey, PlayerRating], games: Sequence[Game | Bye], rounds: int
) -> None:
    """Raise :class:`RatingInputError` for the first thing wrong with an event: too many
    players or games, a malformed game, a player missing from ``players`` or playing twice
    in one round."""
    if len(players) > MAX_PLAYERS:
        raise RatingInputError(f"the event has {len(players)} players, more than {MAX_PLAYERS}")
    if len(games) > MAX_GAMES:
        raise RatingInputError(f"the event has {len(games)} games, more than {MAX_GAMES}")
    for key, standing in players.items():
        if not isinstance(standing, PlayerRating):
            raise RatingInputError(f"player {key!r}: {standing!r} is not a PlayerRating")
        standing.check(key)
    seen: set[tuple[int, PlayerKey]] = set()
    for index, game in enumerate(games, start=1):
        if not isinstance(game, Game | Bye):
            raise RatingInputError(f"game {index}: {game!r} is neither a Game nor a Bye")
        game.check(index, rounds)
        who = (game.player_a, game.player_b) if isinstance(game, Game) else (game.player,)
        for player in who:
            if player not in players:
                raise RatingInputError(
                    f"game {index} (round {game.round}): player {player!r} is not among the "
                    "event's players"
                )
            if (game.round, player) in seen:
                raise RatingInputError(
                    f"game {index} (round {game.round}): player {player!r} already has a game "
                    "or bye in that round"
                )
            seen.add((game.round, player))
