"""tessera.events.store: an event through its SQLite file and back, unchanged by a refused
change, durable as soon as a change returns, and guarded against a file it should not trust."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tessera.events.store import EventStore, EventStoreError, StoredDivision
from tessera.tournament import Division, Pairing, ScoringSettings, TournamentError


def whole_division() -> Division:
    """A division using every kind of record: a bye, a forfeit, a late entry's missed round,
    a withdrawal, classes, director's seeds, imported extra fields, its own scoring."""
    settings = ScoringSettings(bye_spread=75, tie_breaks=("cumulative_score",))
    d = Division("A", 4, settings, prizes=2, max_spread_per_game=400)
    d.add_player("Ann Able", 1800, player_class="A", seed=2)
    d.add_player("Bob Baker", 1700, account="bob")
    d.add_player("Cy Cole", 0, player_class="C")
    d.pair_round([Pairing(1, 2, 1), Pairing(3, None, 0)])
    d.record_result(1, 1, 420, 2, 380)
    d.add_player("Di Dunn", 1500, missed="forfeit")
    d.pair_round([Pairing(2, 1, 1), Pairing(3, 4, 2)])
    d.record_forfeit(2, 3)
    d.record_result(2, 2, 401, 1, 401)
    d.withdraw(3)
    d.pair_round([Pairing(4, 1, 1), Pairing(2, None, 0)])
    return d


def snapshot(d: Division) -> tuple[object, ...]:
    return (d.name, d.total_rounds, d.settings, d.prizes, d.max_spread_per_game, d.players,
            d.rounds, d.standings())


def make(tmp_path: Path) -> Path:
    path = tmp_path / "event.db"
    b = Division("B", 2)
    b.add_player("Eve", 1200)
    divisions = [StoredDivision(whole_division(), "swiss", 7), StoredDivision(b, "koth")]
    EventStore.create_file(path, "Club night", divisions).close()
    return path


def test_a_whole_event_round_trips_through_the_file(tmp_path: Path) -> None:
    path = make(tmp_path)
    with EventStore.open_file(path) as store:
        event = store.load()
    assert event.name == "Club night"
    assert list(event.divisions) == ["A", "B"]
    a = event.division("A")
    assert (a.pairing, a.pairing_seed) == ("swiss", 7)
    assert snapshot(a.division) == snapshot(whole_division())
    assert event.division("B").pairing == "koth"
    assert [p.name for p in event.division("B").division.players] == ["Eve"]


def test_a_change_round_trips_and_raises_the_revision(tmp_path: Path) -> None:
    path = make(tmp_path)
    with EventStore.open_file(path) as store:
        store.change("A", lambda s: s.division.record_result(3, 4, 350, 1, 360))
        again = store.load().division("A")
    assert again.revision == 1
    assert again.division.round_games(3)[0].scores == (350, 360)


def test_a_refused_change_leaves_the_file_byte_identical(tmp_path: Path) -> None:
    path = make(tmp_path)
    before = path.read_bytes()
    with EventStore.open_file(path) as store:
        with pytest.raises(TournamentError, match="negative score"):
            store.change("A", lambda s: s.division.record_result(3, 4, -1, 1, 360))
        with pytest.raises(TournamentError, match="no division 'Q'"):
            store.change("Q", lambda s: None)
    assert path.read_bytes() == before


def test_a_write_that_lost_a_race_writes_nothing(tmp_path: Path) -> None:
    path = make(tmp_path)
    with EventStore.open_file(path) as first, EventStore.open_file(path) as second:
        mine = first.load().division("A")
        theirs = second.load().division("A")
        theirs.division.record_result(3, 4, 350, 1, 360)
        second.save(theirs)
        mine.division.record_result(3, 4, 100, 1, 200)
        with pytest.raises(EventStoreError, match="changed by someone else"):
            first.save(mine)
        assert first.load().division("A").division.round_games(3)[0].scores == (350, 360)


def test_a_change_is_durable_when_it_returns(tmp_path: Path) -> None:
    """Another connection (no SQLAlchemy, no shared cache) sees the change at once."""
    path = make(tmp_path)
    with EventStore.open_file(path) as store:
        store.change("A", lambda s: s.division.record_result(3, 4, 350, 1, 360))
        other = sqlite3.connect(path)
        try:
            row = other.execute(
                "SELECT first_score, second_score FROM tournament_games "
                "WHERE division = 'A' AND round = 3 AND first = 4"
            ).fetchone()
        finally:
            other.close()
    assert row == (350, 360)


def test_a_file_is_never_overwritten_by_a_new_event(tmp_path: Path) -> None:
    path = make(tmp_path)
    before = path.read_bytes()
    with pytest.raises(EventStoreError, match="already exists"):
        EventStore.create_file(path, "Other", [StoredDivision(Division("C", 2), "swiss")])
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("UPDATE tournament_games SET kind = 'duel' WHERE round = 1", "unknown game kind"),
        ("UPDATE tournament_games SET first_score = -4 WHERE round = 1 AND first = 1",
         "negative score"),
        ("UPDATE tournament_divisions SET pairing = 'dice' WHERE name = 'A'",
         "unknown pairing system"),
        ("UPDATE tournament_divisions SET scoring = '{\"win\": 0}' WHERE name = 'A'",
         "need loss < tie < win"),
        ("UPDATE tournament_players SET number = 9 WHERE division = 'B'", "numbered 9"),
        ("UPDATE tournament_games SET round = 5 WHERE round = 3", "round 5 follows round 2"),
        ("UPDATE tournament_events SET schema_version = 99", "version 99"),
        ("UPDATE tournament_players SET games = -3 WHERE division = 'B'",
         "division B: rated games -3 for player 1"),
        ("UPDATE tournament_games SET gcg = '#note x' WHERE round = 1 AND second IS NULL",
         "division A, round 1, board 0: a GCG record on a game without a result"),
        ("UPDATE tournament_games SET gcg = '#note x' WHERE round = 3 AND first = 4",
         "division A, round 3, board 1: a GCG record on a game without a result"),
        ("UPDATE tournament_games SET gcg = printf('%.1000001c', 'x') WHERE round = 1 AND "
         "first = 1", "round 1, board 1: a GCG record of 1,000,001 characters; at most"),
    ],
)
def test_a_tampered_file_is_reported_where_it_is_wrong(
    tmp_path: Path, sql: str, message: str
) -> None:
    path = make(tmp_path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA foreign_keys=OFF")
    db.execute(sql)
    db.commit()
    db.close()
    with pytest.raises(EventStoreError, match=message):
        with EventStore.open_file(path) as store:
            store.load()


def test_a_division_name_that_could_leave_the_export_folder_is_refused(tmp_path: Path) -> None:
    path = make(tmp_path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA foreign_keys=OFF")
    for table in ("tournament_divisions",):
        db.execute(f"UPDATE {table} SET name = '../../x' WHERE name = 'B'")
    db.commit()
    db.close()
    with EventStore.open_file(path) as store, pytest.raises(EventStoreError, match="division"):
        store.load()


def make_version_1(tmp_path: Path) -> Path:
    """An event file as version 1 wrote it: no players' ``games`` column, no games' ``gcg``."""
    path = make(tmp_path)
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE tournament_players DROP COLUMN games")
    db.execute("ALTER TABLE tournament_games DROP COLUMN gcg")
    db.execute("UPDATE tournament_events SET schema_version = 1")
    db.commit()
    db.close()
    return path


def player_columns(path: Path, table: str = "tournament_players") -> list[str]:
    db = sqlite3.connect(path)
    try:
        return [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
    finally:
        db.close()


def test_a_version_2_file_has_the_players_games_and_the_games_gcg_columns(
    tmp_path: Path,
) -> None:
    path = make(tmp_path)
    assert "games" in player_columns(path)
    assert player_columns(path, "tournament_games")[-1] == "gcg"


def test_a_version_1_file_reads_as_it_is_and_its_first_change_upgrades_it(
    tmp_path: Path,
) -> None:
    path = make_version_1(tmp_path)
    before = path.read_bytes()
    with EventStore.open_file(path) as store:
        a = store.load().division("A")
        assert snapshot(a.division) == snapshot(whole_division())
        assert all(p.rated_games is None for p in a.division.players)
        # a refused change writes nothing, so the file stays version 1
        with pytest.raises(TournamentError, match="negative score"):
            store.change("A", lambda s: s.division.record_result(3, 4, -1, 1, 360))
    assert path.read_bytes() == before
    assert "games" not in player_columns(path)
    assert "gcg" not in player_columns(path, "tournament_games")
    with EventStore.open_file(path) as store:
        store.change("B", lambda s: s.division.add_player("Fay", 1300, rated_games=75))
        assert store.version == 2
        event = store.load()
        store.change("A", lambda s: s.division.record_result(3, 4, 350, 1, 360))
    assert "games" in player_columns(path)
    assert player_columns(path, "tournament_games").count("gcg") == 1
    with EventStore.open_file(path) as store:
        again = store.load()
        assert store.version == 2
    assert [p.rated_games for p in again.division("B").division.players] == [None, 75]
    assert event.division("B").division.players == again.division("B").division.players
    assert again.division("A").division.round_games(3)[0].scores == (350, 360)


def test_a_version_1_file_gains_a_division_through_the_upgrade(tmp_path: Path) -> None:
    path = make_version_1(tmp_path)
    c = Division("C", 2)
    c.add_player("Gus", 1100, rated_games=3)
    with EventStore.open_file(path) as store:
        store.add_division(StoredDivision(c, "swiss"))
    with EventStore.open_file(path) as store:
        assert store.load().division("C").division.players[0].rated_games == 3


@pytest.mark.parametrize(
    ("dropped", "message"),
    [
        ("ALTER TABLE tournament_players DROP COLUMN games", r"tournament_players\.games"),
        ("ALTER TABLE tournament_games DROP COLUMN gcg", r"tournament_games\.gcg"),
    ],
)
def test_a_version_2_file_without_one_of_its_columns_is_refused(
    tmp_path: Path, dropped: str, message: str
) -> None:
    path = make(tmp_path)
    db = sqlite3.connect(path)
    db.execute(dropped)
    db.commit()
    db.close()
    with pytest.raises(EventStoreError, match=r"version 2 without its column " + message):
        EventStore.open_file(path).close()


def test_two_writers_of_a_version_1_file_upgrade_it_once(tmp_path: Path) -> None:
    path = make_version_1(tmp_path)
    with EventStore.open_file(path) as first, EventStore.open_file(path) as second:
        first.change("A", lambda s: s.division.record_result(3, 4, 350, 1, 360))
        second.change("B", lambda s: s.division.add_player("Fay", 1300, rated_games=9))
        event = second.load()
    assert event.division("A").division.round_games(3)[0].scores == (350, 360)
    assert event.division("B").division.players[-1].rated_games == 9
    assert player_columns(path).count("games") == 1
    assert player_columns(path, "tournament_games").count("gcg") == 1
