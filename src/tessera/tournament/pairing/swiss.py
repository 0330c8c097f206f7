"""Swiss: players meet others on the same wins (then spread), repeats as few as possible.

The history's standings order (wins, then spread) is the order the pairing follows. With an odd
count the bye goes by rotation (:mod:`.byes`); a player who has clinched first is Gibsonized
(:mod:`.gibson`); everyone else is paired by the minimum-weight perfect matching of
:mod:`.matching`, whose policies keep score groups together, pair neighbours within a group
(1v2, 3v4, ...), keep prize contenders playing each other and take a repeat only when no
pairing avoids it (a further meeting beyond ``repeat_limit`` only when nothing else exists).
With ``last_round_koth`` the last round pairs the prize contenders King of the Hill first.

On the cases TSH's Swiss notes describe (its NewSwiss command: win groups paired within
themselves from the top, an odd group taking the next group's top player, rematches avoided by
backtracking to a lower choice) this pairs as TSH does with its setting ``swiss_order koth``
(each player's preferred opponent the closest in rank). TSH's default order prefers an opponent
half the group away (1v3, 2v4 in a group of four). TSH searches top down; this is a global
optimum, so the two can differ where TSH's early choices cost more further down. The cases:
tests/tournament/test_tournament_pairing_sources.py.
"""

from __future__ import annotations

import random

from tessera.tournament.history import DivisionHistory, Pairing, PlayerRecord
from tessera.tournament.pairing.byes import bye_player, next_bye
from tessera.tournament.pairing.firsts import order_games
from tessera.tournament.pairing.gibson import clinched_first, gibson_opponent
from tessera.tournament.pairing.matching import chosen_policies, min_weight_pairs, pair_context
from tessera.tournament.pairing.round_assembly import (
    active_players,
    check_round_to_pair,
    number_boards,
)
from tessera.tournament.pairing.settings import PairingSettings


def gibson_split(
    history: DivisionHistory, settings: PairingSettings, players: list[PlayerRecord]
) -> tuple[list[tuple[int, int]], list[int], list[PlayerRecord]]:
    """(the Gibsonized leader's game, the bye, the players left to pair) of ``players``.

    With no clinched leader nothing is split off. A clinched leader takes the round's bye when
    the setting says so and the count is odd; otherwise the bye (if any) rotates among the
    others and the leader plays the highest-ranked non-contender left."""
    leader = (
        None if settings.gibson == "off"
        else clinched_first(history, on_spread=settings.gibson_on_spread)
    )
    if leader is None:
        return [], [], players
    rest = [p for p in players if p.number != leader.number]
    if len(players) % 2 == 1 and settings.gibson == "bye":
        return [], [leader.number], rest
    byes = []
    if len(players) % 2 == 1:
        bye = next_bye(rest)
        byes.append(bye.number)
        rest = [p for p in rest if p.number != bye.number]
    opponent = gibson_opponent(history, leader, rest, settings.repeat_limit)
    if opponent is None:  # the leader is alone: nothing to play
        return [], [leader.number], rest
    rest = [p for p in rest if p.number != opponent.number]
    return [(leader.number, opponent.number)], byes, rest


def contenders_hill(
    players: list[PlayerRecord], contenders: frozenset[int]
) -> tuple[list[tuple[int, int]], list[PlayerRecord]]:
    """(King of the Hill games among the prize contenders of ``players``, the players left):
    with an odd number of contenders the lowest of them is left to the matching."""
    hill = [p for p in players if p.number in contenders]
    hill = hill[: len(hill) - len(hill) % 2]
    games = [(hill[i].number, hill[i + 1].number) for i in range(0, len(hill), 2)]
    paired = {p.number for p in hill}
    return games, [p for p in players if p.number not in paired]


def pair_swiss(
    history: DivisionHistory, settings: PairingSettings, rng: random.Random
) -> list[Pairing]:
    """The next round of a Swiss division."""
    check_round_to_pair(history)
    players = active_players(history)
    games, byes, rest = gibson_split(history, settings, players)
    if not byes and len(rest) % 2 == 1:
        bye = bye_player(rest)
        assert bye is not None
        byes.append(bye.number)
        rest = [p for p in rest if p.number != bye.number]
    ctx = pair_context(history, settings.repeat_limit)
    if settings.last_round_koth and history.rounds_left == 1:
        hill, rest = contenders_hill(rest, ctx.contenders)
        games += hill
    policies = chosen_policies(settings.policies)
    games += min_weight_pairs(rest, ctx, policies, settings.candidate_window)
    records = {p.number: p for p in players}
    return number_boards(history, order_games(records, games, settings.firsts_rule, rng), byes)
