"""Standings as CSV (tessera.formats.standings_csv): read back with the csv module, every row
equals the standings it was written from."""

from __future__ import annotations

import csv
import io

from hypothesis import given, settings

from support.tournament_divisions import played_divisions
from tessera.formats.standings_csv import COLUMNS, cell_text, dumps
from tessera.tournament import Division, Pairing, Standing


def expected_row(s: Standing) -> dict[str, str]:
    e = s.entrant
    return {
        "rank": str(s.rank), "number": str(e.number), "name": cell_text(e.name),
        "rating": str(e.rating), "class": cell_text(e.player_class or ""),
        "points": f"{s.points:g}", "won": str(s.won), "lost": str(s.lost), "tied": str(s.tied),
        "spread": str(s.spread), "cumulative_score": str(s.cumulative_score),
        "opponents_points": f"{s.opponents_points:g}", "firsts": str(s.firsts),
        "seconds": str(s.seconds), "byes": str(s.byes), "repeats": str(s.repeats),
        "high_game": "" if s.high_game is None else str(s.high_game),
    }


def read_back(text: str) -> list[dict[str, str]]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    assert tuple(reader.fieldnames or ()) == COLUMNS
    return list(reader)


def test_a_small_divisions_standings_read_back_by_hand() -> None:
    d = Division("A", 3)
    d.add_player('Smith, "Jo", Jr', 1700, player_class="B")
    d.add_player("Lee", 1600)
    d.add_player("Ng", 1500)
    d.pair_round([Pairing(1, 2, 1), Pairing(3, None, 2)])
    d.record_result(1, 1, 420, 2, 380)
    rows = read_back(dumps(d.standings()))
    assert [(r["rank"], r["name"], r["points"], r["spread"]) for r in rows] == [
        ("1", "Ng", "1", "50"), ("2", 'Smith, "Jo", Jr', "1", "40"), ("3", "Lee", "0", "-40")]
    assert rows[1]["class"] == "B" and rows[1]["firsts"] == "1" and rows[1]["high_game"] == "420"
    assert rows[0]["high_game"] == "" and rows[0]["byes"] == "1"


def test_a_name_a_spreadsheet_would_run_is_written_as_text() -> None:
    d = Division("A", 1)
    d.add_player("=HYPERLINK(\"http://x\")", 1500)
    d.add_player("-Dash", 1500)
    d.add_player("Plain", 1500)
    names = {r["name"] for r in read_back(dumps(d.standings()))}
    assert names == {"'=HYPERLINK(\"http://x\")", "'-Dash", "Plain"}


@settings(max_examples=40, deadline=None)
@given(played_divisions(unplayed_last_round=True, classes=True))
def test_any_divisions_standings_read_back_equal(d: Division) -> None:
    table = d.standings()
    assert read_back(dumps(table)) == [expected_row(s) for s in table]
