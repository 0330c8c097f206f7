"""The event store beyond the hand-made case: any played division round-trips through the file
(Hypothesis), and the same tables and code keep an event on PostgreSQL, as the server will."""

from __future__ import annotations

import os
import tempfile
import uuid
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from sqlalchemy import create_engine

from support.throwaway_postgres import bindir, throwaway_postgres
from support.tournament_divisions import played_divisions
from tessera.events.store import EventStore, EventStoreError, StoredDivision
from tessera.tournament import Division, Pairing, TournamentError


def state(d: Division) -> tuple[object, ...]:
    return (d.name, d.total_rounds, d.settings, d.players, d.rounds, d.standings(),
            d.history())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played_divisions(classes=True, unplayed_last_round=True))
def test_any_played_division_round_trips_through_the_file(d: Division) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "event.db"
        EventStore.create_file(path, "Property", [StoredDivision(d, "swiss")]).close()
        with EventStore.open_file(path) as store:
            again = store.load().division("P").division
    assert state(again) == state(d)


def test_the_same_store_keeps_an_event_on_postgresql() -> None:
    if bindir() is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL is missing: run scripts/ensure-system-packages")
        pytest.skip("PostgreSQL is not installed (scripts/ensure-system-packages)")
    psycopg = pytest.importorskip("psycopg")
    with throwaway_postgres() as cluster:
        name = "t_" + uuid.uuid4().hex[:16]
        with psycopg.connect(cluster, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        url = "postgresql+psycopg://" + cluster.split("://", 1)[1].rsplit("/", 1)[0] + "/" + name
        d = Division("A", 2)
        for player, rating in (("Ann", 1800), ("Bob", 1700), ("Cy", 1600)):
            d.add_player(player, rating)
        store = EventStore.create(create_engine(url), "pg", "On PostgreSQL",
                                  [StoredDivision(d, "round_robin", 3)])
        try:
            store.change("A", lambda s: s.division.pair_round(
                [Pairing(1, 2, 1), Pairing(3, None, 0)]))
            store.change("A", lambda s: s.division.record_result(1, 2, 388, 1, 412))
            with pytest.raises(TournamentError, match="negative score"):
                store.change("A", lambda s: s.division.correct_result(1, 2, -1, 1, 412))
            stale = store.load().division("A")
            store.change("A", lambda s: s.division.correct_result(1, 2, 390, 1, 412))
            stale.division.correct_result(1, 2, 100, 1, 412)
            with pytest.raises(EventStoreError, match="changed by someone else"):
                store.save(stale)
            again = EventStore.open(create_engine(url), "pg again")
            loaded = again.load().division("A")
            again.close()
        finally:
            store.close()
    assert (loaded.pairing, loaded.pairing_seed, loaded.revision) == ("round_robin", 3, 3)
    assert loaded.division.round_games(1)[0].scores == (412, 390)
    # a win each for Ann (+22) and Cy (the bye, +50), then Bob
    assert [s.number for s in loaded.division.standings()] == [3, 1, 2]
