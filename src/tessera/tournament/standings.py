"""Standings, a player's record round by round, and the crosstable.

Everything here is computed from :class:`PlayerRound` values (one per player per round, built
by :mod:`tessera.tournament.model` from its games), so a corrected result changes every number
after it the next time standings are asked for: nothing is cached.

Order: points (a win 1, a tie 1/2, as the event's settings count them), then spread, then the
tie-breaks named in the division's settings, each a small function in :data:`TIE_BREAKS`
(DESIGN.md, "Policies have names"), then seed order so that the order is always total.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class PlayerRound:
    """One round of one player's record.

    ``opponent`` is None for a round without an opponent (a bye, a missed round of a late
    entry). ``went_first`` is True/False for a game whose order is known, else None.
    ``score``/``opponent_score`` are the game's scores, None when no game was played (a bye, a
    forfeit, a missed round). ``points`` and ``spread`` are what the round credits the player
    under the event's settings; ``result`` is ``"W"``, ``"L"`` or ``"T"``; ``kind`` is the
    game's kind (``game``, ``bye``, ``missed``, ``forfeit``)."""

    round: int  # from 1
    opponent: int | None
    went_first: bool | None
    score: int | None
    opponent_score: int | None
    points: float
    spread: int
    result: str
    kind: str
    board: int = 0

    @property
    def is_bye(self) -> bool:
        return self.kind == "bye"

    @property
    def is_game(self) -> bool:
        """A game played over the board, with both scores."""
        return self.score is not None


@dataclass(frozen=True)
class Entrant:
    """A player as the standings see them (the division's player without its history)."""

    number: int
    name: str
    rating: int
    seed: int
    player_class: str | None = None
    active: bool = True


@dataclass(frozen=True)
class Standing:
    """One line of the standings. ``won + lost + tied`` is the number of rounds counted;
    ``repeats`` counts the rounds against an opponent met before; ``high_game`` is the best
    score over the board (None before any game)."""

    rank: int
    entrant: Entrant
    points: float
    won: int
    lost: int
    tied: int
    spread: int
    cumulative_score: int
    opponents_points: float
    firsts: int
    seconds: int
    byes: int
    repeats: int
    high_game: int | None
    rounds: tuple[PlayerRound, ...]

    @property
    def number(self) -> int:
        return self.entrant.number

    @property
    def games(self) -> int:
        return self.won + self.lost + self.tied


@dataclass(frozen=True)
class CrosstableCell:
    """A player's round in the crosstable, with the points they had after it."""

    round: PlayerRound
    points_after: float
    spread_after: int


@dataclass(frozen=True)
class CrosstableRow:
    standing: Standing
    cells: tuple[CrosstableCell, ...]


@dataclass(frozen=True)
class Crosstable:
    """Every player's rounds, in standings order: the data a wall chart is drawn from."""

    rounds: int
    rows: tuple[CrosstableRow, ...]

    def row(self, number: int) -> CrosstableRow:
        for row in self.rows:
            if row.standing.number == number:
                return row
        raise KeyError(number)


# -- tie-breaks ---------------------------------------------------------------------------

# A tie-break gets the players tied on points and spread (and every standing, for context)
# and gives each a sort key: a smaller key ranks higher.
TieBreak = Callable[[Sequence[Standing], Mapping[int, Standing]], dict[int, float]]


def cumulative_score(group: Sequence[Standing], _all: Mapping[int, Standing]) -> dict[int, float]:
    """More points scored over the board ranks higher."""
    return {s.number: -s.cumulative_score for s in group}


def head_to_head(group: Sequence[Standing], _all: Mapping[int, Standing]) -> dict[int, float]:
    """More points won in the games among the tied players ranks higher (a player who met
    none of them scores 0 against them)."""
    members = {s.number for s in group}
    return {
        s.number: -sum(r.points for r in s.rounds if r.opponent in members) for s in group
    }


def opponents_wins(group: Sequence[Standing], _all: Mapping[int, Standing]) -> dict[int, float]:
    """Opponents with more points between them rank a player higher (strength of schedule:
    each opponent counted once a meeting)."""
    return {s.number: -s.opponents_points for s in group}


TIE_BREAKS: dict[str, TieBreak] = {
    "cumulative_score": cumulative_score,
    "head_to_head": head_to_head,
    "opponents_wins": opponents_wins,
}
DEFAULT_TIE_BREAKS: tuple[str, ...] = ("head_to_head", "cumulative_score", "opponents_wins")


def check_tie_breaks(names: Sequence[str]) -> None:
    """Raise ValueError naming an unknown tie-break."""
    for name in names:
        if name not in TIE_BREAKS:
            raise ValueError(
                f"unknown tie-break {name!r}; known: {', '.join(sorted(TIE_BREAKS))}"
            )


# -- computing ----------------------------------------------------------------------------


def _tally(entrant: Entrant, rounds: Sequence[PlayerRound]) -> Standing:
    met: set[int] = set()
    repeats = 0
    for r in rounds:
        if r.opponent is not None:
            repeats += r.opponent in met
            met.add(r.opponent)
    scores = [r.score for r in rounds if r.score is not None]
    return Standing(
        rank=0,
        entrant=entrant,
        points=sum(r.points for r in rounds),
        won=sum(r.result == "W" for r in rounds),
        lost=sum(r.result == "L" for r in rounds),
        tied=sum(r.result == "T" for r in rounds),
        spread=sum(r.spread for r in rounds),
        cumulative_score=sum(scores),
        opponents_points=0.0,
        firsts=sum(r.went_first is True for r in rounds),
        seconds=sum(r.went_first is False for r in rounds),
        byes=sum(r.is_bye for r in rounds),
        repeats=repeats,
        high_game=max(scores) if scores else None,
        rounds=tuple(rounds),
    )


def standings(
    records: Mapping[Entrant, Sequence[PlayerRound]],
    tie_breaks: Sequence[str] = DEFAULT_TIE_BREAKS,
) -> tuple[Standing, ...]:
    """The standings of the players in ``records`` (each entrant's rounds in round order)."""
    check_tie_breaks(tie_breaks)
    tallies = {e.number: _tally(e, rounds) for e, rounds in records.items()}
    with_sos: dict[int, Standing] = {}
    for number, s in tallies.items():
        opp = sum((tallies[r.opponent].points for r in s.rounds if r.opponent in tallies), 0.0)
        with_sos[number] = replace(s, opponents_points=opp)
    groups: dict[tuple[float, int], list[Standing]] = {}
    for s in with_sos.values():
        groups.setdefault((s.points, s.spread), []).append(s)
    ordered: list[Standing] = []
    for key in sorted(groups, key=lambda k: (-k[0], -k[1])):
        group = groups[key]
        keys = [TIE_BREAKS[name](group, with_sos) for name in tie_breaks]
        group.sort(
            key=lambda s: (*(k[s.number] for k in keys), s.entrant.seed, s.number)
        )
        ordered.extend(group)
    return tuple(replace(s, rank=i) for i, s in enumerate(ordered, 1))


def crosstable(table: Sequence[Standing], rounds: int) -> Crosstable:
    """The crosstable of standings ``table`` over ``rounds`` rounds."""
    rows = []
    for s in table:
        cells = []
        points, spread = 0.0, 0
        for r in s.rounds:
            points += r.points
            spread += r.spread
            cells.append(CrosstableCell(r, points, spread))
        rows.append(CrosstableRow(s, tuple(cells)))
    return Crosstable(rounds, tuple(rows))


__all__ = [
    "DEFAULT_TIE_BREAKS",
    "TIE_BREAKS",
    "Crosstable",
    "CrosstableCell",
    "CrosstableRow",
    "Entrant",
    "PlayerRound",
    "Standing",
    "TieBreak",
    "check_tie_breaks",
    "crosstable",
    "cumulative_score",
    "head_to_head",
    "opponents_wins",
    "standings",
]
