"""A small tournament simulator for the pairing tests: random results from ratings.

:func:`simulate` plays ``rounds`` rounds of a division with one pairing system: before each
round it rebuilds a :class:`DivisionHistory` from the results so far (standings by wins, then
spread, then seed), pairs it, and plays every game: the higher-rated player wins with the Elo
probability ``1 / (1 + 10 ** (-diff / 400))``, by a random margin from 1 to ``max_margin``; a
bye is a win worth +50. It returns every round's history and pairings, so properties can be
checked round by round. ``withdraw`` maps a round (from 1) to player numbers withdrawn before
it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from tessera.tournament.history import DivisionHistory, Pairing, PlayerRecord
from tessera.tournament.pairing import PairingSettings, pair_round

BYE_SPREAD = 50


@dataclass
class SimPlayer:
    number: int
    rating: int
    wins: float = 0.0
    spread: int = 0
    opponents: list[int | None] = field(default_factory=list)
    went_first: list[bool | None] = field(default_factory=list)
    byes: int = 0
    active: bool = True

    def record(self, seed: int) -> PlayerRecord:
        return PlayerRecord(
            number=self.number, name=f"Player {self.number}", rating=self.rating, seed=seed,
            wins=self.wins, spread=self.spread, opponents=tuple(self.opponents),
            firsts=sum(1 for f in self.went_first if f is True),
            seconds=sum(1 for f in self.went_first if f is False),
            byes=self.byes, active=self.active,
        )


@dataclass
class SimRound:
    history: DivisionHistory
    pairings: list[Pairing]


def history_of(
    players: list[SimPlayer], rounds_played: int, total_rounds: int, prizes: int = 1,
    max_spread_per_game: int = 500,
) -> DivisionHistory:
    """The division as a pairing system sees it: standings by wins, spread, seed."""
    by_rating = sorted(players, key=lambda p: (-p.rating, p.number))
    seed = {p.number: i for i, p in enumerate(by_rating, 1)}
    standings = sorted(players, key=lambda p: (-p.wins, -p.spread, seed[p.number]))
    return DivisionHistory(
        tuple(p.record(seed[p.number]) for p in standings), rounds_played, total_rounds,
        prizes=prizes, max_spread_per_game=max_spread_per_game,
    )


def play_round(
    players: Mapping[int, SimPlayer], pairings: list[Pairing], rng: random.Random,
    max_margin: int = 200,
) -> None:
    """Play one round's games and byes into ``players``; absent players get an empty round."""
    seen = set()
    for game in pairings:
        first = players[game.first]
        seen.add(game.first)
        if game.second is None:
            first.wins += 1
            first.spread += BYE_SPREAD
            first.byes += 1
            first.opponents.append(None)
            first.went_first.append(None)
            continue
        second = players[game.second]
        seen.add(game.second)
        p_first = 1 / (1 + 10 ** (-(first.rating - second.rating) / 400))
        winner, loser = (first, second) if rng.random() < p_first else (second, first)
        margin = rng.randint(1, max_margin)
        winner.wins += 1
        winner.spread += margin
        loser.spread -= margin
        first.opponents.append(second.number)
        second.opponents.append(first.number)
        first.went_first.append(True)
        second.went_first.append(False)
    for number, p in players.items():
        if number not in seen:
            p.opponents.append(None)
            p.went_first.append(None)


def simulate(
    system: str, n_players: int, rounds: int, seed: int,
    settings: PairingSettings | None = None, prizes: int = 1,
    withdraw: Mapping[int, set[int]] | None = None,
) -> list[SimRound]:
    """Every round of one simulated event: the history it was paired from and its pairings."""
    rng = random.Random(seed)
    players = {
        i: SimPlayer(i, int(rng.gauss(1500, 250))) for i in range(1, n_players + 1)
    }
    out = []
    for r in range(rounds):
        for number in (withdraw or {}).get(r + 1, ()):
            players[number].active = False
        history = history_of(list(players.values()), r, rounds, prizes)
        pairings = pair_round(system, history, settings, random.Random(rng.random()))
        out.append(SimRound(history, pairings))
        play_round(players, pairings, rng)
    return out
