"""A user's list of games (the account page): each game once, newest first."""

from __future__ import annotations

from pathlib import Path

from tessera.server.storage import Seat, Storage


def test_a_game_with_two_seats_of_one_user_is_listed_once(tmp_path: Path) -> None:
    store = Storage(f"sqlite:///{tmp_path / 's.db'}")
    try:
        # people at one screen: the host's account controls both seats
        both = store.create_game(
            "duplicate", "enable", 1,
            [Seat("Ann", "human", user="u1"), Seat("Bob", "human", user="u1")],
        )
        other = store.create_game(
            "naspa", "enable", 2,
            [Seat("Ann", "human", user="u1"), Seat("Cy", "human", user="u2")],
        )
        mine = [g["id"] for g in store.games_of("u1")]
        assert sorted(mine) == sorted([both, other])
        assert [g["id"] for g in store.games_of("u2")] == [other]
        assert len(store.games_of("u1", limit=1)) == 1
    finally:
        store.close()
