"""Initial Fontes: fixed pairings for the first rounds, each player meeting one from every
part of the field.

For ``fontes_rounds`` = ``k`` (odd, 3 by default) the field, in seed order, is cut into ``k + 1``
bands of ``G = ceil(n / (k + 1))`` players (the quartiles when ``k`` is 3) and group ``g`` takes
the ``g``-th player of every band: seeds ``g``, ``g + G``, ``g + 2G``, ... So every group spans
the field, and within its group each player meets one player of every other band over the
``k`` rounds, as a round robin on the Berger schedule (:mod:`.round_robin`). The top band
meets the bottom band first, then the next band up, and the group's top two meet last. A group
short of players (the field does not divide evenly) has empty seats; the players whom an empty
seat would give a bye are paired with each other down the seed order, so at most one player has
a bye in any round.

The pairings depend on the seeds only, so all ``k`` rounds can be printed before play begins.
"""

from __future__ import annotations

import random

from tessera.tournament.history import DivisionHistory, Pairing, PlayerRecord
from tessera.tournament.pairing.errors import PairingError
from tessera.tournament.pairing.firsts import order_games
from tessera.tournament.pairing.round_assembly import active_players, number_boards
from tessera.tournament.pairing.round_robin import berger_round
from tessera.tournament.pairing.settings import PairingSettings


def fontes_groups(players: list[PlayerRecord], rounds: int) -> list[list[PlayerRecord | None]]:
    """The groups of ``rounds + 1`` seats, ``players`` in seed order; None is an empty seat."""
    size = rounds + 1
    band = -(-len(players) // size)
    return [
        [players[g + b * band] if g + b * band < len(players) else None for b in range(size)]
        for g in range(band)
    ]


def fontes_round(
    players: list[PlayerRecord], rounds: int, round_number: int
) -> tuple[list[tuple[int, int]], list[int]]:
    """(games as unordered pairs, byes) for ``round_number`` (from 1) of the opening."""
    size = rounds + 1
    # the Berger rounds reordered so seat 1 meets the last seat first and seat 2 last (seat
    # 1's opponent in Berger round r is seat r, or the last seat in round 1)
    schedule = berger_round(size, 1 if round_number == 1 else size + 1 - round_number)
    games, waiting = [], []
    for group in fontes_groups(players, rounds):
        for first, second in schedule:
            a, b = group[first - 1], group[second - 1]
            if a is not None and b is not None:
                games.append((a.number, b.number))
            else:
                waiting += [p for p in (a, b) if p is not None]
    order = {p.number: i for i, p in enumerate(players)}
    waiting.sort(key=lambda p: order[p.number])
    games += [(waiting[i].number, waiting[i + 1].number) for i in range(0, len(waiting) - 1, 2)]
    byes = [waiting[-1].number] if len(waiting) % 2 else []
    return games, byes


def pair_fontes(
    history: DivisionHistory, settings: PairingSettings, rng: random.Random
) -> list[Pairing]:
    """The next of the ``fontes_rounds`` opening rounds."""
    round_number = history.rounds_played + 1
    if round_number > settings.fontes_rounds or round_number > history.total_rounds:
        raise PairingError(
            f"Initial Fontes pairs rounds 1 to {settings.fontes_rounds}; round {round_number} "
            "needs another system")
    players = sorted(active_players(history), key=lambda p: (p.seed, p.number))
    games, byes = fontes_round(players, settings.fontes_rounds, round_number)
    records = {p.number: p for p in players}
    return number_boards(history, order_games(records, games, settings.firsts_rule, rng), byes)
