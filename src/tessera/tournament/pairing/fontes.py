"""Initial Fontes: fixed pairings for the first rounds, each player meeting one from every
part of the field.

As TSH's InitFontes describes it (the help of tsh's Perl module TSH::Command::InitFontes):
the field is divided into equal parts by pretournament ranking, and round robin groups are
formed by drawing one member from each part. For ``fontes_rounds`` = ``k`` (odd, 3 by
default) the field, in seed order, is cut into ``k + 1`` bands of ``G = ceil(n / (k + 1))``
players (the quartiles when ``k`` is 3), and the groups are dealt from the bands as a snake,
so that every group is about as strong: group ``g`` (from 0) takes the ``g``-th player of
each even band (the top band is band 0) and the ``g``-th from the bottom of each odd band.
This is TSH's ``initial_snaked`` arrangement and the one NASPA published for the Scrabble
All-Stars 2003 (scrabbleplayers.org/tourneys/2003/allstars/pairings.html: 24 players in three
groups of eight, ranks 1, 6, 7, 12, 13, 18, 19, 24 in one); TSH's default draws each group's
member of a band at random instead, which a pure function of the seeds cannot.

Within its group a player meets one player of every other band over the ``k`` rounds, as a
round robin on the Berger circle (the circle method) with seat 1 at the centre and the
other seats around the circle odd ones rising, then even ones falling (for 8 seats: 3 5 7 8 6
4 2), the seating TSH uses. In round ``r`` seat 1 meets seat
``k + 2 - r``: the top band meets the bottom band first, and the last round is King of the Hill
inside the group (1v2, 3v4, ...). For groups of four this is the schedule of TSH's
three-round opening (tsh's TSH::Division::Pairing::Berger): 1v4 2v3, then 1v3 2v4, then
1v2 3v4. A group short of players (the field does not divide evenly) has empty seats; the
players whom an empty seat would give a bye are paired with each other down the seed order,
each with the next one they do not meet elsewhere in the opening, so at most one player has a
bye in any round and it goes to one who has not had one (TSH instead moves such players into
one larger group, and plays a field of at most ``2k`` as one group).

The pairings depend on the seeds only, so all ``k`` rounds can be printed before play begins.
"""

from __future__ import annotations

import random

from tessera.tournament.history import DivisionHistory, Pairing, PlayerRecord
from tessera.tournament.pairing.errors import PairingError
from tessera.tournament.pairing.firsts import order_games
from tessera.tournament.pairing.round_assembly import active_players, number_boards
from tessera.tournament.pairing.settings import PairingSettings


def fontes_groups(players: list[PlayerRecord], rounds: int) -> list[list[PlayerRecord | None]]:
    """The groups of ``rounds + 1`` seats, ``players`` in seed order, dealt from the bands as a
    snake; seat ``b + 1`` of a group is its player from band ``b``; None is an empty seat."""
    size = rounds + 1
    band = -(-len(players) // size)
    groups: list[list[PlayerRecord | None]] = []
    for g in range(band):
        seats: list[PlayerRecord | None] = []
        for b in range(size):
            index = b * band + (g if b % 2 == 0 else band - 1 - g)
            seats.append(players[index] if index < len(players) else None)
        groups.append(seats)
    return groups


def circle_order(seats: int) -> list[int]:
    """Seats 2 to ``seats`` (even) in their order around the Berger circle, seat 1 at the
    centre: the odd seats rising, then the even seats falling (3 5 7 8 6 4 2 for 8 seats)."""
    return list(range(3, seats, 2)) + list(range(seats, 1, -2))


def scrabble_circle_round(seats: int, top_meets: int) -> list[tuple[int, int]]:
    """The round of the circle schedule for ``seats`` seats (even) in which seat 1 meets seat
    ``top_meets``, as unordered pairs of seat numbers. Seat 1 meets the seat at one place on
    the circle and the others pair off symmetrically about it: two seats meet when their
    places sum to twice that place (mod the circle's length). With ``top_meets`` 2 the round
    is 1v2, 3v4, 5v6, ...: the schedule ends King of the Hill."""
    order = circle_order(seats)
    places = len(order)
    place = {seat: i for i, seat in enumerate(order)}
    target = 2 * place[top_meets] % places
    games = [(1, top_meets)]
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            if (place[a] + place[b]) % places == target:
                games.append((a, b))
    return games


def _group_rounds(
    groups: list[list[PlayerRecord | None]], size: int, round_number: int
) -> tuple[list[tuple[int, int]], list[PlayerRecord]]:
    """(the groups' games, the players an empty seat leaves waiting) in ``round_number``."""
    games, waiting = [], []
    for first, second in scrabble_circle_round(size, size + 1 - round_number):
        for group in groups:
            a, b = group[first - 1], group[second - 1]
            if a is not None and b is not None:
                games.append((a.number, b.number))
            else:
                waiting += [p for p in (a, b) if p is not None]
    return games, waiting


def _pair_down(
    left: list[PlayerRecord], avoid: set[frozenset[int]]
) -> tuple[list[tuple[int, int]], bool]:
    """(``left`` paired down the list, each with the next one they must not avoid, else the
    next one; whether every pair avoided ``avoid``)."""
    games, clean = [], True
    while left:
        top, rest = left[0], left[1:]
        other = next((p for p in rest if frozenset((top.number, p.number)) not in avoid), None)
        if other is None:
            other, clean = rest[0], False
        games.append((top.number, other.number))
        left = [p for p in rest if p is not other]
    return games, clean


def _pair_waiting(
    waiting: list[PlayerRecord], avoid: set[frozenset[int]], had_bye: set[int]
) -> tuple[list[tuple[int, int]], list[int]]:
    """Pair the waiting players (seed order) by :func:`_pair_down`; with an odd count one sits
    out: the lowest without an opening bye (else the lowest) whose absence lets the rest pair
    without meeting anyone twice, if anyone's does."""
    if len(waiting) % 2 == 0:
        return _pair_down(waiting, avoid)[0], []
    candidates = [p for p in reversed(waiting) if p.number not in had_bye]
    candidates += [p for p in reversed(waiting) if p.number in had_bye]
    tries = [(c, _pair_down([p for p in waiting if p is not c], avoid)) for c in candidates]
    bye, (games, _) = next((t for t in tries if t[1][1]), tries[0])
    return games, [bye.number]


def fontes_round(
    players: list[PlayerRecord], rounds: int, round_number: int
) -> tuple[list[tuple[int, int]], list[int]]:
    """(games as unordered pairs, byes) for ``round_number`` (from 1) of the opening.

    Players left waiting by empty seats are paired so as not to meet anyone they meet in
    their group in any opening round or met while waiting before, which needs the earlier
    rounds: they are worked out again, in order (the opening is at most 15 rounds)."""
    size = rounds + 1
    groups = fontes_groups(players, rounds)
    order = {p.number: i for i, p in enumerate(players)}
    avoid = {frozenset(g) for r in range(1, rounds + 1) for g in _group_rounds(groups, size, r)[0]}
    had_bye: set[int] = set()
    for r in range(1, round_number + 1):
        games, waiting = _group_rounds(groups, size, r)
        waiting.sort(key=lambda p: order[p.number])
        extra, byes = _pair_waiting(waiting, avoid, had_bye)
        avoid |= {frozenset(g) for g in extra}
        had_bye |= set(byes)
    return games + extra, byes


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
