"""A division's results as the input of the rating system (:mod:`tessera.tournament.ratings`).

Players are keyed by their number in the division. A rating of 0 is how a division records an
unrated player (TSH writes 0 too), so it is rated as a newcomer. Games over the board are
rated; forfeits are recorded as unrated games and byes as byes, as the rating system expects;
a late entry's missed rounds and games still without a result are left out.
"""

from __future__ import annotations

from ..tournament.model import Division, GameKind
from ..tournament.ratings import Bye, Game, PlayerKey, PlayerRating, RatingChange, rate_event


def rating_inputs(
    division: Division, career_games: int = 0
) -> tuple[dict[PlayerKey, PlayerRating], list[Game | Bye]]:
    """Each player's standing before the event (``career_games`` rated games each) and the
    division's games and byes, in round order."""
    players: dict[PlayerKey, PlayerRating] = {
        p.number: PlayerRating(p.rating or None, career_games if p.rating else 0)
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
    division: Division, career_games: int = 0
) -> dict[PlayerKey, RatingChange]:
    """Every player's new NASPA rating after the division's rounds (by player number)."""
    players, games = rating_inputs(division, career_games)
    return rate_event(players, games, len(division.rounds) or None)
