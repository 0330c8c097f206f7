"""Who goes first in a game: the player who has gone first fewer times.

When the two have gone first equally often, the one who has gone second more often goes first
(a late entry or a bye leaves a player with fewer games); if that too is equal, the rule chosen
as the setting ``firsts_rule`` decides:

- ``"naspa"``: the player who went second more recently goes first: their records of firsts
  and seconds are compared round by round backwards from the last, and at the most recent
  round where one went first and the other second, the one who went second now goes first (the
  rule NASPA directors apply and TSH follows when it assigns firsts); if the records never
  differ, a draw decides.
- ``"random"``: a draw decides (a coin toss, as many clubs do).

:class:`~tessera.tournament.history.PlayerRecord` counts firsts and seconds but does not keep
which rounds they were in, so the NASPA comparison needs ``sequences``: each player's number ->
one entry per round, True for first, False for second, None for no game. Without it, the rule
falls back to the draw.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from tessera.tournament.history import PlayerRecord

FirstSequences = Mapping[int, Sequence[bool | None]]


def _went_second_more_recently(
    a: PlayerRecord, b: PlayerRecord, sequences: FirstSequences | None
) -> PlayerRecord | None:
    """The one of ``a`` and ``b`` who went second at the latest round where they differ."""
    if sequences is None or a.number not in sequences or b.number not in sequences:
        return None
    sa, sb = sequences[a.number], sequences[b.number]
    for went_a, went_b in zip(reversed(sa), reversed(sb), strict=False):
        if went_a is False and went_b is True:
            return a
        if went_b is False and went_a is True:
            return b
    return None


def first_of(
    a: PlayerRecord,
    b: PlayerRecord,
    rule: str,
    rng: random.Random,
    sequences: FirstSequences | None = None,
) -> tuple[int, int]:
    """(first, second) player numbers for a game between ``a`` and ``b``."""
    if a.firsts != b.firsts:
        return (a.number, b.number) if a.firsts < b.firsts else (b.number, a.number)
    if a.seconds != b.seconds:
        return (a.number, b.number) if a.seconds > b.seconds else (b.number, a.number)
    if rule == "naspa":
        due = _went_second_more_recently(a, b, sequences)
        if due is not None:
            other = b if due is a else a
            return due.number, other.number
    return (a.number, b.number) if rng.random() < 0.5 else (b.number, a.number)


def order_games(
    players: Mapping[int, PlayerRecord],
    games: Sequence[tuple[int, int]],
    rule: str,
    rng: random.Random,
    sequences: FirstSequences | None = None,
) -> list[tuple[int, int]]:
    """Each game of ``games`` as (first, second) by :func:`first_of`."""
    return [first_of(players[a], players[b], rule, rng, sequences) for a, b in games]
