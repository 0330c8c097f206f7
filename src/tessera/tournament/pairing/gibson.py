"""Gibsonization and prize contention in the late rounds.

A player has *clinched* first when no other active player can catch them over the rounds left:
even if the leader loses every remaining game and the other wins every one, the other finishes
behind on wins (or, with ``on_spread``, level on wins but behind on spread, each game moving a
spread by at most the division's ``max_spread_per_game``). A tie is not a clinch. Once
clinched, the leader is *Gibsonized*: they play the highest-ranked non-contender, or take the
bye, by the ``gibson`` setting, so their games no longer decide who else wins a prize.

A player is a *contender* while they can still reach a prize place (``prizes`` of them): if
they win every remaining game while the player now in the last prize place gains nothing, they
finish above that place on wins, or level on wins and (the best case) not behind on spread.
"""

from __future__ import annotations

from collections.abc import Sequence

from tessera.tournament.history import DivisionHistory, PlayerRecord


def clinched_first(history: DivisionHistory, on_spread: bool = True) -> PlayerRecord | None:
    """The leader if they have clinched first place, else None."""
    players = [p for p in history.players if p.active]
    rounds = history.rounds_left
    if len(players) < 2 or rounds < 1:
        return None
    leader, swing = players[0], rounds * history.max_spread_per_game
    for other in players[1:]:
        best_wins = other.wins + rounds
        if best_wins > leader.wins:
            return None
        if best_wins == leader.wins and (
            not on_spread or other.spread + swing >= leader.spread - swing
        ):
            return None
    return leader


def contenders(history: DivisionHistory) -> set[int]:
    """The numbers of the active players who can still reach a prize place."""
    players = [p for p in history.players if p.active]
    if len(players) <= history.prizes:
        return {p.number for p in players}
    last_prize = players[history.prizes - 1]
    swing = history.rounds_left * history.max_spread_per_game
    out = set()
    for p in players:
        best_wins = p.wins + history.rounds_left
        if best_wins > last_prize.wins or (
            best_wins == last_prize.wins and p.spread + swing >= last_prize.spread
        ):
            out.add(p.number)
    return out


def gibson_opponent(
    history: DivisionHistory,
    leader: PlayerRecord,
    candidates: Sequence[PlayerRecord],
    repeat_limit: int,
) -> PlayerRecord | None:
    """The Gibsonized ``leader``'s opponent among ``candidates`` (standings order): the
    highest-ranked non-contender they may still meet under ``repeat_limit`` (failing that, the
    highest-ranked non-contender; failing that, the lowest-ranked candidate)."""
    rivals = contenders(history) - {leader.number}
    others = [p for p in candidates if p.number != leader.number]
    outside = [p for p in others if p.number not in rivals]
    fresh = [p for p in outside if leader.times_played(p.number) < repeat_limit]
    if fresh:
        return fresh[0]
    if outside:
        return outside[0]
    return others[-1] if others else None
