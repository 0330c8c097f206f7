"""Players' ratings: Glicko-2 (:mod:`.glicko2`) per rules family and speed class, with history.

A rating's key is ``family.speed``: the family groups presets that play the same game (the
English 15×15 presets differ only in challenge rules and clocks), the speed class comes from
:func:`expected_ms`, the time one side may use in a typical game, as Woogles estimates it:
main time + maximum overtime + 16 turns of increment. Blitz up to 6 minutes, rapid up to 14,
classic beyond (Woogles' cut-offs; its ultra-blitz, up to 2 minutes, is blitz here). A game
without a clock is classic.

Which rated games move ratings (docs/tutorial/server.md, "Ratings"): only a game in which
each side took at least :data:`MIN_TURNS` turns of its own (:func:`turns_taken`), and of the
rated games between the same two accounts only the first :data:`PAIR_GAMES_PER_DAY` in any
24 hours (:meth:`Ratings.pair_games_since`); guests never play rated.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from .glicko2 import Rating, rate_game
from .schema import history_table, ratings_table
from .storage import Storage

STANDARD_FAMILY = frozenset(
    {"hasbro", "mattel", "naspa", "naspa_csw", "wespa", "woogles", "casual"}
)
# (class, longest expected time one side uses in it, ms); beyond the last: classic
SPEEDS = (("blitz", 6 * 60_000), ("rapid", 14 * 60_000))
TURNS_PER_SIDE = 16  # Woogles' estimate of one side's turns in a game
MIN_TURNS = 2  # turns each side must take for a rated game to move ratings
PAIR_GAMES_PER_DAY = 3  # rated games between two accounts that count in any 24 hours
PAIR_WINDOW_MS = 24 * 3_600_000


def family(rules: str) -> str:
    return "standard" if rules in STANDARD_FAMILY else rules


def expected_ms(clock: dict[str, int]) -> int:
    """The time one side may use in a typical game: main time, maximum overtime and
    :data:`TURNS_PER_SIDE` turns of increment."""
    return (
        clock.get("initial_ms", 0)
        + clock.get("max_overtime_min", 0) * 60_000
        + TURNS_PER_SIDE * clock.get("increment_ms", 0)
    )


def speed_class(clock: dict[str, int] | None) -> str:
    """blitz, rapid or classic (module docstring). The names are the keys of stored ratings:
    a change of the limits moves future games, never a stored rating."""
    if not clock:
        return "classic"
    expected = expected_ms(clock)
    for name, limit in SPEEDS:
        if expected <= limit:
            return name
    return "classic"


def turns_taken(kinds_by_seat: list[tuple[int, str]], seats: int) -> list[int]:
    """How many turns each seat took of its own, from a game log's (player, kind) entries: a
    tile play, an exchange, a pass or a challenge each count; a resignation, a loss on time
    and calling the game off do not."""
    taken = [0] * seats
    for player, kind in kinds_by_seat:
        if kind in ("move", "challenge") and 0 <= player < seats:
            taken[player] += 1
    return taken


def rating_key(rules: str, clock: dict[str, int] | None) -> str:
    return f"{family(rules)}.{speed_class(clock)}"


class Ratings:
    def __init__(self, storage: Storage) -> None:
        self.engine = storage.engine

    @staticmethod
    def _get(conn: Connection, user_id: str, key: str) -> tuple[Rating, int] | None:
        row = conn.execute(
            select(ratings_table).where(
                ratings_table.c.user_id == user_id, ratings_table.c.key == key
            )
        ).first()
        if row is None:
            return None
        return Rating(row.rating, row.deviation, row.volatility), int(row.games)

    def get(self, user_id: str, key: str) -> Rating:
        with self.engine.connect() as conn:
            found = self._get(conn, user_id, key)
        return found[0] if found else Rating()

    @staticmethod
    def pair_games_since(conn: Connection, users: tuple[str, str], since_ms: int) -> int:
        """How many rated games between these two users moved their ratings since then."""
        mine, theirs = history_table.alias("mine"), history_table.alias("theirs")
        return int(
            conn.execute(
                select(func.count())
                .select_from(mine)
                .join(theirs, theirs.c.game_id == mine.c.game_id)
                .where(
                    mine.c.user_id == users[0],
                    theirs.c.user_id == users[1],
                    mine.c.at > since_ms,
                )
            ).scalar_one()
        )

    def record_game(
        self, conn: Connection, game_id: str, key: str, users: tuple[str, str], score_a: float
    ) -> tuple[Rating, Rating] | None:
        """Rate a finished game between two users (``score_a`` for the first), inside the
        caller's transaction (the one that marks the game over, so it is rated once). None,
        and nothing changed, past the day's :data:`PAIR_GAMES_PER_DAY` for this pair."""
        now = int(time.time() * 1000)
        if self.pair_games_since(conn, users, now - PAIR_WINDOW_MS) >= PAIR_GAMES_PER_DAY:
            return None
        found = [self._get(conn, u, key) for u in users]
        before = [f[0] if f else Rating() for f in found]
        after = rate_game(before[0], before[1], score_a)
        for user_id, old, prior, new in zip(users, found, before, after, strict=True):
            values = {
                "rating": new.rating,
                "deviation": new.deviation,
                "volatility": new.volatility,
                "updated_at": now,
            }
            if old is None:
                conn.execute(
                    insert(ratings_table).values(user_id=user_id, key=key, games=1, **values)
                )
            else:
                conn.execute(
                    update(ratings_table)
                    .where(ratings_table.c.user_id == user_id, ratings_table.c.key == key)
                    .values(games=old[1] + 1, **values)
                )
            conn.execute(
                insert(history_table).values(
                    user_id=user_id,
                    game_id=game_id,
                    key=key,
                    before=prior.rating,
                    rating=new.rating,
                    deviation=new.deviation,
                    at=now,
                )
            )
        return after[0], after[1]

    def of_user(self, user_id: str) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ratings_table)
                .where(ratings_table.c.user_id == user_id)
                .order_by(ratings_table.c.games.desc())
            ).all()
        return [
            {
                "key": r.key,
                "rating": round(r.rating),
                "deviation": round(r.deviation),
                "games": r.games,
            }
            for r in rows
        ]

    def of_game(self, game_id: str) -> dict[str, tuple[float, float]]:
        """Each rated player's (rating before, rating after) for one game."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(history_table).where(history_table.c.game_id == game_id)
            ).all()
        return {r.user_id: (r.before, r.rating) for r in rows}

    def history(self, user_id: str, limit: int = 500) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(history_table)
                .where(history_table.c.user_id == user_id)
                .order_by(history_table.c.at)
                .limit(limit)
            ).all()
        return [
            {
                "key": r.key,
                "game_id": r.game_id,
                "rating": round(r.rating, 1),
                "deviation": round(r.deviation, 1),
                "at": r.at,
            }
            for r in rows
        ]
