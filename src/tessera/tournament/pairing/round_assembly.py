"""What every pairing system shares: the active players in standings order, who takes the bye,
and turning the round's games into numbered :class:`Pairing` rows, each game's first player
chosen by the settings' rule.

Boards are numbered from 1 in standings order of each game's higher-ranked player; a bye comes
after every game, on the next number.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from tessera.tournament.history import DivisionHistory, Pairing, PlayerRecord
from tessera.tournament.pairing.byes import bye_player
from tessera.tournament.pairing.errors import PairingError
from tessera.tournament.pairing.firsts import order_games
from tessera.tournament.pairing.settings import PairingSettings


def active_players(history: DivisionHistory) -> list[PlayerRecord]:
    """The players still to be paired, in standings order."""
    return [p for p in history.players if p.active]


def standings_rank(history: DivisionHistory) -> dict[int, int]:
    """Each player's number -> place in the standings order, from 0."""
    return {p.number: i for i, p in enumerate(history.players)}


def check_round_to_pair(history: DivisionHistory) -> None:
    """Refuse a round beyond the event's last (a precise error, nothing changed)."""
    if history.rounds_played >= history.total_rounds:
        raise PairingError(
            f"all {history.total_rounds} rounds are paired and played; no round "
            f"{history.rounds_played + 1} to pair")


def number_boards(
    history: DivisionHistory, games: Iterable[tuple[int, int]], byes: Iterable[int] = ()
) -> list[Pairing]:
    """The round's rows: ``games`` as (first, second), then ``byes``, boards from 1."""
    rank = standings_rank(history)
    ordered = sorted(games, key=lambda g: min(rank[g[0]], rank[g[1]]))
    rows = [Pairing(first, second, board) for board, (first, second) in enumerate(ordered, 1)]
    for player in sorted(byes, key=rank.__getitem__):
        rows.append(Pairing(player, None, len(rows) + 1))
    return rows


def players_to_pair(
    history: DivisionHistory,
) -> tuple[list[PlayerRecord], PlayerRecord | None, list[PlayerRecord]]:
    """For a round that may be paired: the active players in standings order, the one who
    takes the bye (None for an even count, :mod:`.byes`), and the rest, who are to be paired."""
    check_round_to_pair(history)
    players = active_players(history)
    bye = bye_player(players)
    rest = [p for p in players if bye is None or p.number != bye.number]
    return players, bye, rest


def assemble_round(
    history: DivisionHistory,
    players: list[PlayerRecord],
    games: Iterable[tuple[int, int]],
    bye: PlayerRecord | None,
    settings: PairingSettings,
    rng: random.Random,
) -> list[Pairing]:
    """The round's rows: who goes first in each game by the settings' rule, boards numbered."""
    records = {p.number: p for p in players}
    ordered = order_games(records, list(games), settings.firsts_rule, rng)
    return number_boards(history, ordered, [] if bye is None else [bye.number])
