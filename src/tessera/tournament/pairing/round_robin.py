"""Single and double round robin on a fixed schedule: the Berger tables (the circle method).

Seats go by seed order (``PlayerRecord.seed``, then number), withdrawn players keeping theirs
so the schedule never moves; with an odd count the last seat is the bye. For ``n`` seats
(``n`` even) there are ``n - 1`` rounds. In round ``r`` (from 1) seats ``i`` and ``j`` below
``n`` meet when ``i + j ≡ r + 1 (mod n - 1)``, and the seat whose double is that sum meets
seat ``n``. Who goes first follows the tables: between two seats below ``n``, the lower seat
goes first when the seats differ by an odd number and the higher when by an even one; seat
``n`` goes first in even rounds. This reproduces the Berger tables FIDE publishes (Handbook
C.05, Annex 1), where each player's firsts and seconds alternate as far as an odd number of
rounds allows. A double round robin plays the schedule twice, firsts swapped the second time.
The opponent of a withdrawn player (like the bye seat's) has a bye that round.
"""

from __future__ import annotations

import random

from tessera.tournament.history import DivisionHistory, Pairing, PlayerRecord
from tessera.tournament.pairing.errors import PairingError
from tessera.tournament.pairing.round_assembly import check_round_to_pair, number_boards
from tessera.tournament.pairing.settings import PairingSettings


def berger_round(seats: int, round_number: int) -> list[tuple[int, int]]:
    """Round ``round_number`` (from 1) of the Berger schedule for ``seats`` seats (even), as
    (first, second) seat numbers from 1."""
    if seats < 2 or seats % 2:
        raise PairingError(f"a Berger schedule needs an even number of seats, not {seats}")
    if not 1 <= round_number <= seats - 1:
        raise PairingError(
            f"a round robin of {seats} seats has rounds 1 to {seats - 1}, not {round_number}")
    modulus, target = seats - 1, (round_number + 1) % (seats - 1)
    games = []
    for i in range(1, seats):
        j = (target - i) % modulus or modulus
        if j == i:
            games.append((seats, i) if round_number % 2 == 0 else (i, seats))
        elif i < j:
            games.append((i, j) if (j - i) % 2 else (j, i))
    return games


def seat_order(history: DivisionHistory) -> list[PlayerRecord]:
    """Every player of the division (withdrawn too) in seat order."""
    return sorted(history.players, key=lambda p: (p.seed, p.number))


def schedule_round(
    history: DivisionHistory, round_number: int, cycles: int
) -> tuple[list[tuple[int, int]], list[int]]:
    """(games as (first, second) player numbers, byes) for ``round_number`` (from 1) of a
    round robin played ``cycles`` times."""
    players = seat_order(history)
    seats = len(players) + len(players) % 2
    per_cycle = seats - 1
    if seats < 2:
        raise PairingError("a round robin needs at least two players")
    if not 1 <= round_number <= per_cycle * cycles:
        raise PairingError(
            f"this round robin of {len(players)} players has {per_cycle * cycles} rounds; "
            f"there is no round {round_number}")
    cycle, in_cycle = divmod(round_number - 1, per_cycle)
    games, byes = [], []
    for first, second in berger_round(seats, in_cycle + 1):
        if cycle % 2:
            first, second = second, first
        a = players[first - 1] if first <= len(players) else None
        b = players[second - 1] if second <= len(players) else None
        if a is not None and b is not None and a.active and b.active:
            games.append((a.number, b.number))
        else:
            byes += [p.number for p in (a, b) if p is not None and p.active]
    return games, byes


def _pair(history: DivisionHistory, cycles: int) -> list[Pairing]:
    check_round_to_pair(history)
    games, byes = schedule_round(history, history.rounds_played + 1, cycles)
    return number_boards(history, games, byes)


def pair_round_robin(
    history: DivisionHistory, settings: PairingSettings, rng: random.Random
) -> list[Pairing]:
    """The next round of a single round robin."""
    return _pair(history, 1)


def pair_double_round_robin(
    history: DivisionHistory, settings: PairingSettings, rng: random.Random
) -> list[Pairing]:
    """The next round of a double round robin."""
    return _pair(history, 2)
