"""Games as append-only event logs in SQL (SQLite by default, PostgreSQL by URL).

A game row holds what never changes — rules preset, lexicon, seed, seats — and the action
table holds the ordered actions (player, GCG move text or ``challenge``/``resign``, elapsed
milliseconds). Replaying the actions on ``Game(rules, lexicon, players, seed)`` rebuilds
the game exactly (DESIGN principle 5). :meth:`Storage.append` commits before it returns, so
a move the server acknowledges survives a crash; the primary key (game, sequence number)
refuses a second action at the same place in the log.
"""

from __future__ import annotations

import json
import os
import secrets
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

metadata = MetaData()

games_table = Table(
    "tessera_games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("rules", String(64), nullable=False),
    Column("lexicon", String(128), nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("seats", Text, nullable=False),  # JSON list of Seat dicts
    Column("created_at", BigInteger, nullable=False),
)

tokens_table = Table(
    "tessera_tokens",
    metadata,
    Column("token", String(64), primary_key=True),
    Column("game_id", String(32), nullable=False, index=True),
    Column("seats", Text, nullable=False),  # JSON list of seat indices this token controls
)

actions_table = Table(
    "tessera_actions",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("player", Integer, nullable=False),
    Column("kind", String(16), nullable=False),  # move | challenge | resign
    Column("text", String(256), nullable=False),
    Column("elapsed_ms", BigInteger, nullable=True),
    Column("created_at", BigInteger, nullable=False),
)


class StorageError(RuntimeError):
    """The log cannot take an action (a conflicting write, an unknown game)."""


@dataclass(frozen=True)
class Seat:
    """One player of a stored game: a person at the screen, or the computer at a level."""

    name: str
    kind: str  # "human" | "computer"
    level: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "level": self.level}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        return cls(str(data["name"]), str(data["kind"]), data.get("level"))


@dataclass(frozen=True)
class Action:
    """One entry of a game's log (``at_ms``: when it was stored, epoch milliseconds)."""

    player: int
    kind: str
    text: str
    elapsed_ms: int | None = None
    at_ms: int | None = field(default=None, compare=False)


@dataclass
class GameRecord:
    """A stored game: its fixed setup and its actions so far."""

    id: str
    rules: str
    lexicon: str
    seed: int
    seats: list[Seat]
    actions: list[Action] = field(default_factory=list)
    created_ms: int | None = None


GAME_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def is_game_id(text: str) -> bool:
    """Whether ``text`` has the shape of a game id (so junk never reaches the database)."""
    return 0 < len(text) <= 32 and set(text) <= GAME_ID_CHARS


def _now_ms() -> int:
    return int(time.time() * 1000)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")  # durable on commit, even against power loss
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


DATA_ENV = "TESSERA_DATA_DIR"


def default_database() -> str:
    """``sqlite:///`` in ``$TESSERA_DATA_DIR`` (else ``~/.local/share/tessera``)/games.db."""
    env = os.environ.get(DATA_ENV)
    folder = Path(env) if env else Path.home() / ".local" / "share" / "tessera"
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'games.db'}"


def engine_url(url: str) -> str:
    """``postgresql://…`` means psycopg 3 when psycopg2 (SQLAlchemy's default) is absent."""
    if url.startswith(("postgresql://", "postgres://")):
        import importlib.util

        if importlib.util.find_spec("psycopg2") is None:
            return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


class Storage:
    """The game store behind the web app. ``url`` is any SQLAlchemy URL."""

    def __init__(self, url: str) -> None:
        self.url = url
        url = engine_url(url)
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        self.engine: Engine = create_engine(url, **kwargs)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # -- writing -------------------------------------------------------------------------

    def create_game(
        self, rules: str, lexicon: str, seed: int, seats: list[Seat], token_seats: list[list[int]]
    ) -> tuple[str, list[str]]:
        """Store a new game; returns its id and one fresh token per entry of ``token_seats``."""
        game_id = secrets.token_urlsafe(12)
        tokens = [secrets.token_urlsafe(24) for _ in token_seats]
        now = _now_ms()
        with self.engine.begin() as conn:
            conn.execute(
                insert(games_table).values(
                    id=game_id,
                    rules=rules,
                    lexicon=lexicon,
                    seed=seed,
                    seats=json.dumps([s.to_json() for s in seats]),
                    created_at=now,
                )
            )
            for token, seat_list in zip(tokens, token_seats, strict=True):
                conn.execute(
                    insert(tokens_table).values(
                        token=token, game_id=game_id, seats=json.dumps(seat_list)
                    )
                )
        return game_id, tokens

    def append(self, game_id: str, seq: int, action: Action) -> Action:
        """Commit ``action`` as entry ``seq`` (0-based) of the game's log; returns it, stamped
        with the time it was stored, once it is durable."""
        result = self.append_many([(game_id, seq, action)])[0]
        if isinstance(result, StorageError):
            raise result
        return result

    def append_many(
        self, entries: list[tuple[str, int, Action]]
    ) -> list[Action | StorageError]:
        """Commit several log entries in one transaction (one disk flush for all of them).

        Each entry's answer is its stamped action, or a StorageError when its place in its
        game's log is taken (the others are still stored). A database that cannot answer
        raises for all."""
        at = _now_ms()
        rows = [
            {
                "game_id": game_id,
                "seq": seq,
                "player": action.player,
                "kind": action.kind,
                "text": action.text,
                "elapsed_ms": action.elapsed_ms,
                "created_at": at,
            }
            for game_id, seq, action in entries
        ]
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(actions_table), rows)
        except IntegrityError:
            if len(entries) == 1:
                game_id, seq, _ = entries[0]
                return [StorageError(f"game {game_id}: log entry {seq} already exists")]
            return [r for entry in entries for r in self.append_many([entry])]
        return [replace(action, at_ms=at) for _, _, action in entries]

    # -- reading -------------------------------------------------------------------------

    def load(self, game_id: str) -> GameRecord | None:
        """The stored game with its actions in order, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games_table).where(games_table.c.id == game_id)).first()
            if row is None:
                return None
            rows = conn.execute(
                select(actions_table)
                .where(actions_table.c.game_id == game_id)
                .order_by(actions_table.c.seq)
            ).all()
        return GameRecord(
            id=row.id,
            rules=row.rules,
            lexicon=row.lexicon,
            seed=int(row.seed),
            seats=[Seat.from_json(s) for s in json.loads(row.seats)],
            actions=[Action(r.player, r.kind, r.text, r.elapsed_ms, r.created_at) for r in rows],
            created_ms=row.created_at,
        )

    def token_seats(self, game_id: str, token: str) -> frozenset[int]:
        """The seats a token controls in a game (empty for an unknown token)."""
        if not token:
            return frozenset()
        with self.engine.connect() as conn:
            row = conn.execute(
                select(tokens_table.c.game_id, tokens_table.c.seats).where(
                    tokens_table.c.token == token
                )
            ).first()
        if row is None or not secrets.compare_digest(row.game_id, game_id):
            return frozenset()
        return frozenset(int(s) for s in json.loads(row.seats))
