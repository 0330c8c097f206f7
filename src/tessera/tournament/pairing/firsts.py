"""Who goes first in a game: the player who has gone first fewer times.

Both rules start from balanced starts: the player who has gone first fewer times goes first.
When the two have gone first equally often, the rule chosen as the setting ``firsts_rule``
decides:

- ``"random"``: a draw decides. This is the balanced-starts rule the Australian Scrabble
  Players Association publishes (ASPA Rules of Tournament Play, valid from 1 January 2007,
  rules 1.3 and 1.4: the player who has had fewer starts plays first; with equal starts, tiles
  are drawn), and what clubs that toss a coin do.
- ``"naspa"``: the one who has gone second more often goes first (a late entry or a bye
  leaves a player with fewer games); if that too is equal, their sides are compared round by
  round backwards from the latest (:attr:`PlayerRecord.sides`), and at the most recent round
  where one went first and the other second, the one who went second now goes first; if the
  records never differ, a draw decides. This is the rule NASPA directors apply and TSH follows
  when it assigns firsts; no public text of it could be read while writing this, so it is
  the rule as directors state it, not a quotation.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from tessera.tournament.history import PlayerRecord

WENT_FIRST, WENT_SECOND = 1, 2


def _went_second_more_recently(a: PlayerRecord, b: PlayerRecord) -> PlayerRecord | None:
    """The one of ``a`` and ``b`` who went second at the latest round where one went first and
    the other second (their ``sides`` aligned by round), or None if there is no such round."""
    for side_a, side_b in zip(reversed(a.sides), reversed(b.sides), strict=False):
        if side_a == WENT_SECOND and side_b == WENT_FIRST:
            return a
        if side_b == WENT_SECOND and side_a == WENT_FIRST:
            return b
    return None


def first_of(a: PlayerRecord, b: PlayerRecord, rule: str, rng: random.Random) -> tuple[int, int]:
    """(first, second) player numbers for a game between ``a`` and ``b``."""
    if a.firsts != b.firsts:
        return (a.number, b.number) if a.firsts < b.firsts else (b.number, a.number)
    if rule == "naspa":
        if a.seconds != b.seconds:
            return (a.number, b.number) if a.seconds > b.seconds else (b.number, a.number)
        due = _went_second_more_recently(a, b)
        if due is not None:
            other = b if due is a else a
            return due.number, other.number
    return (a.number, b.number) if rng.random() < 0.5 else (b.number, a.number)


def order_games(
    players: Mapping[int, PlayerRecord],
    games: Sequence[tuple[int, int]],
    rule: str,
    rng: random.Random,
) -> list[tuple[int, int]]:
    """Each game of ``games`` as (first, second) by :func:`first_of`."""
    return [first_of(players[a], players[b], rule, rng) for a, b in games]
