"""Manual pairing: the director's own pairs, checked before they are accepted.

Each pair is (first, second) by player number, second None for a bye; the director's order is
who goes first. Refused with a PairingError naming the pair (from 1) and player: a number that
is no player of the division, a withdrawn player, a player paired with themself, a player in
two pairs, an active player left out, more than one bye.
"""

from __future__ import annotations

import random

from tessera.tournament.history import DivisionHistory, Pairing
from tessera.tournament.pairing.errors import PairingError
from tessera.tournament.pairing.round_assembly import check_round_to_pair, number_boards
from tessera.tournament.pairing.settings import PairingSettings


def check_manual(
    history: DivisionHistory, requested: tuple[tuple[int, int | None], ...]
) -> tuple[list[tuple[int, int]], list[int]]:
    """(games, byes) of the director's ``requested`` pairs, or a PairingError."""
    known = {p.number: p for p in history.players}
    seen: dict[int, int] = {}
    games, byes = [], []
    for index, (first, second) in enumerate(requested, 1):
        where = f"pair {index} ({first} v {'bye' if second is None else second})"
        if first == second:
            raise PairingError(f"{where}: a player cannot play themself")
        for number in (first, second):
            if number is None:
                continue
            if number not in known:
                raise PairingError(f"{where}: there is no player {number} in the division")
            if not known[number].active:
                raise PairingError(
                    f"{where}: player {number} ({known[number].name}) has withdrawn")
            if number in seen:
                raise PairingError(
                    f"{where}: player {number} ({known[number].name}) is already in pair "
                    f"{seen[number]}")
            seen[number] = index
        if second is None:
            byes.append(first)
        else:
            games.append((first, second))
    if len(byes) > 1:
        raise PairingError(
            f"{len(byes)} byes (players {', '.join(map(str, byes))}); at most one a round")
    missing = [p for p in history.players if p.active and p.number not in seen]
    if missing:
        names = ", ".join(f"{p.number} ({p.name})" for p in missing)
        raise PairingError(f"not paired: {names}")
    return games, byes


def pair_manual(
    history: DivisionHistory, settings: PairingSettings, rng: random.Random
) -> list[Pairing]:
    """The director's pairs (``settings.manual_pairings``), checked and numbered."""
    check_round_to_pair(history)
    games, byes = check_manual(history, settings.manual_pairings)
    return number_boards(history, games, byes)
