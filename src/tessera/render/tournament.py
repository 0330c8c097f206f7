"""A division's printouts as HTML documents (pure string building, no files):

* :func:`wall_chart` — the standings with every round's result, the chart a director pins
  up: each player once (rank, number, name, rating, record, spread), each round a cell with
  the result, the spread, the opponent by number, who went first and the running record;
* :func:`pairings_sheet` — one round's pairings by board, each player once, with their record
  before the round; byes after the games;
* :func:`score_cards` — a score card per player, one a printed page: the player's opponents
  and sides (first or second) by round as far as paired, the results entered so far, blank
  lines for the rest.

Names come from users: every piece of text is escaped (:func:`html.escape`) before it is
placed. Each document carries its own print style sheet (A4 or Letter, no browser chrome).
"""

from __future__ import annotations

from html import escape

from ..tournament.model import Division, Game, GameKind
from ..tournament.standings import PlayerRound, Standing

PRINT_CSS = """
body { font-family: sans-serif; font-size: 10pt; margin: 1em; }
table { border-collapse: collapse; margin-bottom: 1em; }
th, td { border: 1px solid #444; padding: 2px 5px; text-align: right; }
th { background: #eee; }
td.name, th.name { text-align: left; }
.card { page-break-after: always; break-after: page; }
.card:last-child { page-break-after: auto; break-after: auto; }
.card td { height: 1.6em; }
@page { margin: 12mm; }
@media print {
  body { margin: 0; }
  th { background: none; }
  table { page-break-inside: avoid; break-inside: avoid; }
}
"""


def _document(title: str, body: list[str]) -> str:
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>{escape(title)}</title>",
        f"<style>{PRINT_CSS}</style>",
        "</head>",
        "<body>",
        *body,
        "</body>",
        "</html>",
        "",
    ])


def _points(value: float) -> str:
    return f"{value:g}"


def _signed(value: int) -> str:
    return f"{value:+d}"


def _record(s: Standing) -> str:
    return f"{_points(s.points)}-{_points(s.games - s.points)}"


def _side(went_first: bool | None) -> str:
    return {True: "1st", False: "2nd", None: ""}[went_first]


def _cell(r: PlayerRound, points_after: float) -> str:
    if r.opponent is None:
        what = r.kind  # bye or missed
    else:
        side = _side(r.went_first)
        what = f"v #{r.opponent}" + (f" {side}" if side else "")
    return f"{r.result} {_signed(r.spread)} {what} ({_points(points_after)})"


def _heading(title: str | None, division: Division, what: str) -> tuple[str, list[str]]:
    name = f"{title} — " if title else ""
    full = f"{name}division {division.name}: {what}"
    return full, [f"<h1>{escape(full)}</h1>"]


def wall_chart(division: Division, *, through: int | None = None, title: str | None = None) -> str:
    """The standings of ``division`` after round ``through`` (default: every result) as an
    HTML wall chart; ``title`` is the event's name."""
    chart = division.crosstable(through)
    head, body = _heading(title, division, f"standings after round {chart.rounds}")
    rounds = "".join(f"<th>{r}</th>" for r in range(1, chart.rounds + 1))
    body += [
        '<table class="wall-chart">',
        "<thead><tr><th>rank</th><th>#</th><th class=\"name\">name</th><th>rating</th>"
        f"<th>won-lost</th><th>spread</th>{rounds}</tr></thead>",
        "<tbody>",
    ]
    for row in chart.rows:
        s = row.standing
        cells = {c.round.round: _cell(c.round, c.points_after) for c in row.cells}
        per_round = "".join(
            f"<td>{escape(cells.get(r, ''))}</td>" for r in range(1, chart.rounds + 1)
        )
        body.append(
            f"<tr><td>{s.rank}</td><td>{s.number}</td>"
            f'<td class="name">{escape(s.entrant.name)}</td><td>{s.entrant.rating}</td>'
            f"<td>{_record(s)}</td><td>{_signed(s.spread)}</td>{per_round}</tr>"
        )
    body += ["</tbody>", "</table>"]
    return _document(head, body)


def _entry(division: Division, number: int, before: dict[int, Standing]) -> str:
    player = division.player(number)
    s = before[number]
    return (
        f'<td>{number}</td><td class="name">{escape(player.name)}</td>'
        f"<td>{_record(s)}</td><td>{_signed(s.spread)}</td>"
    )


def pairings_sheet(division: Division, round_number: int, *, title: str | None = None) -> str:
    """Round ``round_number``'s pairings of ``division`` as a printable HTML sheet: by board,
    who goes first on the left, each player's record before the round."""
    games = division.round_games(round_number)
    before = {s.number: s for s in division.standings(round_number - 1)}
    head, body = _heading(title, division, f"round {round_number} pairings")
    body += [
        '<table class="pairings">',
        "<thead><tr><th>board</th>"
        '<th>#</th><th class="name">first</th><th>record</th><th>spread</th>'
        '<th>#</th><th class="name">second</th><th>record</th><th>spread</th>'
        "</tr></thead>",
        "<tbody>",
    ]
    for game in sorted(games, key=lambda g: (g.second is None, g.board, g.first)):
        first = _entry(division, game.first, before)
        if game.second is None:
            what = "bye" if game.kind is GameKind.BYE else "not playing"
            body.append(f'<tr><td></td>{first}<td colspan="4" class="name">{what}</td></tr>')
        else:
            second = _entry(division, game.second, before)
            body.append(f"<tr><td>{game.board}</td>{first}{second}</tr>")
    body += ["</tbody>", "</table>"]
    return _document(head, body)


def _card_row(division: Division, number: int, r: int, game: Game | None,
              played: PlayerRound | None, spread_after: int | None) -> str:
    withdrawn_from = division.player(number).withdrawn_from
    if game is None and withdrawn_from is not None and r >= withdrawn_from:
        blanks = "<td></td>" * 5
        return f'<tr><td>{r}</td><td></td><td class="name">withdrawn</td>{blanks}</tr>'
    if game is None:
        return f"<tr><td>{r}</td>" + "<td></td>" * 7 + "</tr>"
    if game.second is None:
        opponent, side, board = game.kind.value, "", ""
    else:
        other = game.second if game.first == number else game.first
        opponent = f"#{other} {division.player(other).name}"
        side = _side(game.first == number) if game.first_known else ""
        board = str(game.board)
    cells = [str(r), board, opponent, side]
    if played is None:
        cells += ["", "", "", ""]
    else:
        cells += [
            "" if played.score is None else str(played.score),
            "" if played.opponent_score is None else str(played.opponent_score),
            played.result,
            "" if spread_after is None else _signed(spread_after),
        ]
    classes = ["", "", ' class="name"', "", "", "", "", ""]
    return "<tr>" + "".join(
        f"<td{cls}>{escape(text)}</td>" for cls, text in zip(classes, cells, strict=True)
    ) + "</tr>"


def score_cards(division: Division, *, title: str | None = None) -> str:
    """A printable score card for each player of ``division`` (in number order), one a page:
    each round's board, opponent and side as far as paired, the results entered so far, and
    blank lines to fill in."""
    head, _ = _heading(title, division, "score cards")
    body: list[str] = []  # each card has its own heading: every printed page says whose it is
    for player in division.players:
        rounds = {r.round: r for r in division.player_rounds(player.number)}
        spread = 0
        rows = []
        for r in range(1, division.total_rounds + 1):
            game = None
            if r <= len(division.rounds):
                game = next(
                    (g for g in division.round_games(r) if player.number in g.players), None
                )
            played = rounds.get(r)
            spread_after = None
            if played is not None:
                spread += played.spread
                spread_after = spread
            rows.append(_card_row(division, player.number, r, game, played, spread_after))
        heading = (
            f"{title + ' — ' if title else ''}division {division.name}: "
            f"#{player.number} {player.name} ({player.rating})"
        )
        body += [
            '<section class="card">',
            f"<h2>{escape(heading)}</h2>",
            '<table class="score-card">',
            '<thead><tr><th>round</th><th>board</th><th class="name">opponent</th>'
            "<th>side</th><th>score</th><th>opponent's</th><th>result</th>"
            "<th>spread</th></tr></thead>",
            "<tbody>",
            *rows,
            "</tbody>",
            "</table>",
            "</section>",
        ]
    return _document(head, body)


__all__ = ["PRINT_CSS", "pairings_sheet", "score_cards", "wall_chart"]
