"""A division's results as the input of the rating system (:mod:`tessera.tournament.ratings`).

Players are keyed by their number in the division. A rating of 0 is how a division records an
unrated player (TSH writes 0 too), so it is rated as a newcomer. A rated player's career games
(NASPA's multiplier is higher below 50) are the player's own ``rated_games`` where the event
records them, else the ``career_games`` given as the default. Games over the board are
rated; forfeits are recorded as unrated games and byes as byes, as the rating system expects;
a late entry's missed rounds and games still without a result are left out.
"""

from __future__ import annotations

from ..tournament.model import Division, GameKind
from ..tournament.ratings import (
    AbspRatingChange,
    Bye,
    Game,
    PlayerKey,
    PlayerRating,
    RatingChange,
    rate_event,
    rate_event_absp,
)

RATING_SYSTEMS = {"naspa": "NASPA", "absp": "ABSP"}
"""The federation rating systems a division can be rated by: name -> how tables title it."""


def rating_inputs(
    division: Division, career_games: int = 0
) -> tuple[dict[PlayerKey, PlayerRating], list[Game | Bye]]:
    """Each player's standing before the event (their own rated games, or ``career_games``
    where the event does not record them) and the division's games and byes, in round
    order."""
    players: dict[PlayerKey, PlayerRating] = {
        p.number: PlayerRating(
            p.rating or None,
            (career_games if p.rated_games is None else p.rated_games) if p.rating else 0,
        )
        for p in division.players
    }
    games: list[Game | Bye] = []
    for r, round_games in enumerate(division.rounds, 1):
        for g in round_games:
            if g.kind is GameKind.BYE:
                games.append(Bye(r, g.first))
            elif g.second is None:
                continue  # a missed round: no game, no bye
            elif g.kind is GameKind.FORFEIT:
                won = 0.0 if g.forfeited_by == g.first else 1.0
                games.append(Game(r, g.first, g.second, result=won, forfeit=True))
            elif g.scores is not None:
                games.append(Game(r, g.first, g.second, g.scores[0], g.scores[1]))
    return players, games


def rate_division(
    division: Division, career_games: int = 0, system: str = "naspa"
) -> dict[PlayerKey, RatingChange] | dict[PlayerKey, AbspRatingChange]:
    """Every player's new rating after the division's rounds (by player number), by the
    federation ``system`` of :data:`RATING_SYSTEMS`: NASPA's Elo-style system, or the ABSP's
    weighted rolling system (its ratings run from 50 to about 200, so a division rated on
    NASPA's scale is not one to rate by it); ``career_games`` is the default for players
    whose rated games are not recorded."""
    players, games = rating_inputs(division, career_games)
    rounds = len(division.rounds) or None
    if system == "naspa":
        return rate_event(players, games, rounds)
    if system == "absp":
        return rate_event_absp(players, games, rounds)
    raise ValueError(f"unknown rating system {system!r}; have: {', '.join(RATING_SYSTEMS)}")
