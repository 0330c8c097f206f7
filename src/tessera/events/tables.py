"""The plain-text tables ``tessera tournament`` prints: pairings, standings, the crosstable and
new ratings. Each function returns lines; the command prints them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..tournament.model import Division, Game, GameKind
from ..tournament.ratings import AbspRatingChange, PlayerKey, RatingChange
from ..tournament.standings import CrosstableCell


def points(value: float) -> str:
    """``3`` for 3.0 and ``2.5`` for 2.5: wins as a director writes them."""
    return f"{value:g}"


def _columns(rows: Sequence[Sequence[str]], right: set[int]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            cell.rjust(w) if i in right else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]


def pairings(division: Division, round_number: int) -> list[str]:
    """Round ``round_number``'s games, board by board, the player going first named first."""
    def who(number: int) -> str:
        return f"{division.player(number).name} ({number})"

    games = sorted(division.round_games(round_number), key=lambda g: (g.second is None, g.board))
    rows = [["Board", "First", "", "Second", "Result"]]
    for g in games:
        if g.second is None:
            rows.append(["-", who(g.first), "", g.kind.value, ""])
        else:
            rows.append([str(g.board), who(g.first), "v", who(g.second), _result(g)])
    return [f"Division {division.name}, round {round_number}", *_columns(rows, {0})]


def _result(game: Game) -> str:
    if game.scores is not None:
        return f"{game.scores[0]}-{game.scores[1]}"
    if game.kind is GameKind.FORFEIT:
        return f"forfeit by {game.forfeited_by}"
    return ""


def standings(division: Division) -> list[str]:
    """The standings after every result entered."""
    rows = [["Rank", "No", "Name", "Rating", "Wins", "W-L-T", "Spread", "High"]]
    for s in division.standings():
        e = s.entrant
        rows.append([
            str(s.rank), str(e.number), e.name, str(e.rating), points(s.points),
            f"{s.won}-{s.lost}-{s.tied}", f"{s.spread:+d}",
            "" if s.high_game is None else str(s.high_game),
        ])
    title = f"Division {division.name} after {division.rounds_complete} of " \
        f"{division.total_rounds} rounds"
    return [title, *_columns(rows, {0, 1, 3, 4, 6, 7})]


def _cell(cell: CrosstableCell) -> str:
    r = cell.round
    opponent = "bye" if r.opponent is None else f"@{r.opponent}"
    if r.kind == "missed":
        opponent = "--"
    return f"{r.result}{r.spread:+d} {opponent}"


def crosstable(division: Division) -> list[str]:
    """Each player's rounds in standings order: result and spread, then the opponent's number
    (``@3``), ``bye`` or ``--`` for a missed round."""
    table = division.crosstable()
    header = ["Rank", "No", "Name", *(f"R{r}" for r in range(1, table.rounds + 1)), "Wins",
              "Spread"]
    rows = [header]
    for row in table.rows:
        s = row.standing
        cells = {c.round.round: _cell(c) for c in row.cells}
        rows.append([
            str(s.rank), str(s.number), s.entrant.name,
            *(cells.get(r, "") for r in range(1, table.rounds + 1)),
            points(s.points), f"{s.spread:+d}",
        ])
    return [f"Division {division.name}", *_columns(rows, {0, 1, len(header) - 2,
                                                          len(header) - 1})]


def ratings(
    division: Division,
    changes: Mapping[PlayerKey, RatingChange] | Mapping[PlayerKey, AbspRatingChange],
    system: str = "NASPA",
) -> list[str]:
    """Each player's rating before and after the division's games, titled by ``system``."""
    rows = [["No", "Name", "Before", "After", "Change", "Games"]]
    for p in division.players:
        change = changes[p.number]
        before, after = change.before.rating, change.after.rating
        rows.append([
            str(p.number), p.name, "unrated" if before is None else str(before),
            "unrated" if after is None else str(after),
            "" if change.change is None else f"{change.change:+d}", str(change.after.games),
        ])
    return [f"Division {division.name}: {system} ratings", *_columns(rows, {0, 2, 3, 4, 5})]
