"""What a pairing system sees of a division: each player's record after the rounds so far.

The pairing systems (:mod:`tessera.tournament.pairing`) are pure functions of a
:class:`DivisionHistory` and their settings; the division model
(:mod:`tessera.tournament.model`) builds the history from its results, so the two meet here and
neither imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PlayerRecord:
    """One player of a division after ``DivisionHistory.rounds_played`` rounds.

    ``opponents`` has one entry per round played: the opponent's ``number``, or None for a bye
    or a round the player did not play (late entry, forfeit without an opponent). ``firsts``
    and ``seconds`` count the games the player went first and second in (byes count in
    neither). ``active`` is False once the player has withdrawn: a withdrawn player is never
    paired again. ``sides`` is the player's side round by round, one entry per round of
    ``opponents``: 1 went first, 2 went second, None no game or an order not recorded; NASPA's
    rule for who goes first compares it backwards from the latest round
    (:mod:`tessera.tournament.pairing.firsts`). Empty when the caller does not know it.
    """

    number: int  # the player's number in the division, from 1, as TSH numbers them
    name: str
    rating: int
    seed: int  # seed order, 1 the top seed (by rating unless the director set it)
    wins: float  # a win 1, a tie 1/2, a bye or forfeit as the event's settings count them
    spread: int
    opponents: tuple[int | None, ...]
    firsts: int = 0
    seconds: int = 0
    byes: int = 0
    active: bool = True
    sides: tuple[int | None, ...] = ()

    def times_played(self, other: int) -> int:
        """How many times this player has met player number ``other``."""
        return sum(1 for o in self.opponents if o == other)


@dataclass(frozen=True)
class DivisionHistory:
    """A division between rounds: the players in standings order (first place first) and how
    many of the event's rounds are played. ``prizes`` is how many places win a prize (for
    contention-aware pairing and Gibsonization); ``max_spread_per_game`` bounds what one game
    can change a player's spread by (for deciding that a lead cannot be caught on spread)."""

    players: tuple[PlayerRecord, ...]
    rounds_played: int
    total_rounds: int
    prizes: int = 1
    max_spread_per_game: int = 500

    @property
    def rounds_left(self) -> int:
        return self.total_rounds - self.rounds_played

    def player(self, number: int) -> PlayerRecord:
        """The player numbered ``number`` (KeyError if there is none)."""
        for p in self.players:
            if p.number == number:
                return p
        raise KeyError(number)


@dataclass(frozen=True)
class Pairing:
    """One game of a round: ``first`` goes first; ``second`` is None for a bye. ``board`` is
    the board (table) number, from 1."""

    first: int
    second: int | None
    board: int
