"""A division's printouts as HTML (tessera.render.tournament): the wall chart, a round's
pairings and the score cards parse, name each player once a table, and escape every name."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from hypothesis import given, settings

from support.tournament_divisions import played_divisions
from tessera.render.tournament import pairings_sheet, score_cards, wall_chart
from tessera.tournament import Division, Pairing, TournamentError

SCRIPT_NAME = "<script>alert(1)</script>"
VOID = {"meta", "br", "hr", "img", "input", "link"}


class Tables(HTMLParser):
    """Every table's rows of cell texts, every score card's rows, the headings, and a check
    that every tag is closed in order."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self.cards: list[list[list[str]]] = []
        self.headings: list[str] = []
        self.open: list[str] = []
        self._text: list[str] | None = None

    def handle_starttag(self, tag, attrs) -> None:
        if tag not in VOID:
            self.open.append(tag)
        if tag == "table":
            self.tables.append([])
        elif tag == "section" and ("class", "card") in attrs:
            self.cards.append([])
        elif tag == "tr":
            self.tables[-1].append([])
            if self.cards and "section" in self.open:
                self.cards[-1].append(self.tables[-1][-1])
        elif tag in ("td", "th", "h1", "h2"):
            self._text = []

    def handle_endtag(self, tag) -> None:
        assert self.open and self.open.pop() == tag, f"</{tag}> closes nothing open"
        if self._text is None:
            return
        if tag in ("td", "th"):
            self.tables[-1][-1].append("".join(self._text))
        elif tag in ("h1", "h2"):
            self.headings.append("".join(self._text))
        self._text = None

    def handle_data(self, data) -> None:
        if self._text is not None:
            self._text.append(data)


def column(rows: list[list[str]], index: int) -> list[str]:
    """One column of a table's rows after the header row."""
    return [row[index] for row in rows[1:] if len(row) > index]


def parsed(document: str) -> Tables:
    parser = Tables()
    parser.feed(document)
    parser.close()
    assert parser.open == [], f"left open: {parser.open}"
    assert document.startswith("<!DOCTYPE html>")
    return parser


def division() -> Division:
    """Five players (a bye each round), two rounds played and a third paired."""
    d = Division("A", 4)
    for name, rating in (("Ann", 1800), (SCRIPT_NAME, 1700), ("Bo & Co", 1600),
                         ("Dee", 1500), ("Eve", 1400)):
        d.add_player(name, rating)
    d.pair_round([Pairing(1, 2, 1), Pairing(3, 4, 2), Pairing(5, None, 3)])
    d.record_result(1, 1, 400, 2, 350)
    d.record_result(1, 3, 380, 4, 380)
    d.pair_round([Pairing(2, 5, 1), Pairing(4, 1, 2), Pairing(3, None, 3)])
    d.record_result(2, 2, 300, 5, 420)
    d.record_result(2, 4, 410, 1, 390)
    d.pair_round([Pairing(5, 1, 1), Pairing(3, 2, 2), Pairing(4, None, 3)])
    return d


def names(d: Division) -> list[str]:
    return [p.name for p in d.players]


def test_the_wall_chart_names_each_player_once_and_shows_every_round() -> None:
    d = division()
    page = wall_chart(d, title="Club <night>")
    tables = parsed(page).tables
    assert len(tables) == 1
    assert sorted(column(tables[0], 2)) == sorted(names(d))
    rows = {row[2]: row for row in tables[0][1:]}
    # Ann: won round 1 going first against #2, lost round 2 going second to #4
    assert rows["Ann"][3:] == ["1800", "1-1", "+30", "W +50 v #2 1st (1)",
                               "L -20 v #4 2nd (1)", ""]
    assert rows["Eve"][6] == "W +50 bye (1)"
    assert [row[0] for row in tables[0][1:]] == ["1", "2", "3", "4", "5"]
    assert "<h1>Club &lt;night&gt; — division A: standings after round 3</h1>" in page


def test_a_name_with_a_script_tag_is_shown_escaped_everywhere() -> None:
    d = division()
    for page in (wall_chart(d), pairings_sheet(d, 3), score_cards(d)):
        assert "<script>" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
        assert "Bo &amp; Co" in page
        assert SCRIPT_NAME in str(parsed(page).tables)


def test_the_pairings_sheet_lists_each_player_once_by_board() -> None:
    d = division()
    rows = parsed(pairings_sheet(d, 3)).tables[0]
    shown = column(rows, 2) + column(rows, 6)
    assert sorted(shown) == sorted(names(d))
    # board 1: Eve (2-0: a bye, then 420-300) goes first against Ann (1-1)
    assert rows[1] == ["1", "5", "Eve", "2-0", "+170", "1", "Ann", "1-1", "+30"]
    assert rows[2][:3] == ["2", "3", "Bo & Co"]
    assert rows[3] == ["", "4", "Dee", "1.5-0.5", "+20", "bye"]


def test_every_player_has_one_score_card_a_page_with_opponents_and_sides() -> None:
    d = division()
    page = score_cards(d, title="Club")
    doc = parsed(page)
    assert len(doc.cards) == len(d.players) == page.count('<section class="card">')
    assert "break-after: page" in page and "@media print" in page
    assert [h.split(": ", 1)[1] for h in doc.headings] == [
        f"#{p.number} {p.name} ({p.rating})" for p in d.players]
    rounds = doc.cards[0][1:]  # Ann's, after the header row
    assert len(rounds) == d.total_rounds
    assert rounds[0] == ["1", "1", f"#2 {SCRIPT_NAME}", "1st", "400", "350", "W", "+50"]
    assert rounds[1] == ["2", "2", "#4 Dee", "2nd", "390", "410", "L", "+30"]
    assert rounds[2] == ["3", "1", "#5 Eve", "2nd", "", "", "", ""]  # paired, not played
    assert rounds[3] == ["4", "", "", "", "", "", "", ""]  # not paired yet
    assert doc.cards[4][1][:4] == ["1", "", "bye", ""]  # Eve's round 1


def test_a_withdrawn_players_card_says_so_for_the_rounds_after() -> None:
    d = division()
    d.record_result(3, 5, 400, 1, 300)
    d.record_result(3, 3, 400, 2, 300)
    d.withdraw(5)
    d.pair_round([Pairing(1, 2, 1), Pairing(3, 4, 2)])
    eve = parsed(score_cards(d)).cards[4]
    assert eve[4][:3] == ["4", "", "withdrawn"]
    assert eve[3][:4] == ["3", "1", "#1 Ann", "1st"]


def test_an_unpaired_round_cannot_be_printed() -> None:
    with pytest.raises(TournamentError, match="round 4 of division A is not paired"):
        pairings_sheet(division(), 4)


@settings(max_examples=30, deadline=None)
@given(played_divisions(unplayed_last_round=True))
def test_any_division_prints_each_player_once_a_table(d: Division) -> None:
    """Every player is one row of the wall chart (by number), one entry of each round's
    pairings, and has one score card."""
    chart = parsed(wall_chart(d)).tables[0]
    assert sorted(int(n) for n in column(chart, 1)) == [p.number for p in d.players]
    assert len(parsed(score_cards(d)).cards) == len(d.players)
    for r in range(1, len(d.rounds) + 1):
        rows = parsed(pairings_sheet(d, r)).tables[0]
        games = [row for row in rows[1:] if len(row) == 9]
        numbers = [int(n) for n in column(rows, 1) + [row[5] for row in games]]
        assert sorted(numbers) == sorted(n for g in d.round_games(r) for n in g.players)
