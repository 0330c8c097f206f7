"""Games as append-only event logs in SQL (SQLite by default, PostgreSQL by URL).

A game row holds what never changes — rules preset, lexicon, seed, seats (each with the user
who plays it, or the computer's level) — and the action table holds the ordered actions
(player, GCG move text or ``challenge``/``resign``/``time_expired``/``abort``, elapsed
milliseconds). Replaying the actions on ``Game(rules, lexicon, players, seed)`` rebuilds
the game exactly (DESIGN principle 5). :meth:`Storage.append` commits before it returns, so
a move the server acknowledges survives a crash; the primary key (game, sequence number)
refuses a second action at the same place in the log. ``tessera_game_info`` holds what the
online game adds: its clock, whether it is rated, its status and result; ``tessera_game_rules``
holds a game's own changes to its preset (its challenge rule); ``tessera_game_players``
indexes games by the users who play them. ``tessera_heartbeat`` says when a server process
was last alive and ``tessera_outages`` when none was (:mod:`.downtime`). The tables are
defined, with every other table of the server, in :mod:`.schema`.
"""

from __future__ import annotations

import json
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sqlalchemy import bindparam, create_engine, event, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.elements import ColumnElement

from .checkpointer import Checkpointer
from .schema import (
    actions_table,
    games_table,
    heartbeat_table,
    info_table,
    metadata,
    outages_table,
    players_table,
    rules_table,
)

HEARTBEAT_ROW = 1
MAX_OUTAGES = 1000  # the most recent outages a process keeps (each a whole service outage)

# built once: a statement made anew for every batch is analysed anew for the compile cache
_INSERT_ACTIONS = insert(actions_table)
_SET_DEADLINE = (
    update(info_table)
    .where(info_table.c.game_id == bindparam("gid"))
    .values(deadline_ms=bindparam("deadline"))
)


class StorageError(RuntimeError):
    """The log cannot take an action (a conflicting write, an unknown game)."""


@dataclass(frozen=True)
class Seat:
    """One player of a stored game: a person (the user who plays the seat), or the computer
    at a level."""

    name: str
    kind: str  # "human" | "computer"
    level: str | None = None
    user: str | None = None  # the user id that controls a human seat
    guest: bool = False  # that user played it as a guest (stored only when true)

    def to_json(self) -> dict[str, Any]:
        data = {"name": self.name, "kind": self.kind, "level": self.level, "user": self.user}
        return {**data, "guest": True} if self.guest else data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        return cls(
            str(data["name"]),
            str(data["kind"]),
            data.get("level"),
            data.get("user"),
            data.get("guest") is True,
        )


@dataclass(frozen=True)
class Action:
    """One entry of a game's log (``at_ms``: when it was stored, epoch milliseconds)."""

    player: int
    kind: str
    text: str
    elapsed_ms: int | None = None
    at_ms: int | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "kind": self.kind,
            "text": self.text,
            "elapsed_ms": self.elapsed_ms,
            "at_ms": self.at_ms,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Action:
        """An action another process sent (its fields checked: it came over the wire)."""
        player, kind, text = data["player"], data["kind"], data["text"]
        elapsed, at = data.get("elapsed_ms"), data.get("at_ms")
        if not (type(player) is int and isinstance(kind, str) and isinstance(text, str)):
            raise ValueError("malformed action")
        if not all(v is None or type(v) is int for v in (elapsed, at)):
            raise ValueError("malformed action")
        return cls(player, kind, text, elapsed, at)


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
    clock: dict[str, int] | None = None  # the game's own time control (TimeControl fields)
    challenge_rule: str | None = None  # the game's own challenge rule, else the preset's
    rated: bool = False
    online: bool = False
    status: str = "live"

    def seats_of(self, user_id: str) -> frozenset[int]:
        """The seats ``user_id`` controls in this game."""
        return frozenset(i for i, s in enumerate(self.seats) if s.user == user_id)


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


def _no_checkpoint_in_commits(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA wal_autocheckpoint=0")  # the Checkpointer's thread does it
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


def live_game_of(
    conn: Connection, user_id: str, now_ms: int, kind: ColumnElement[bool]
) -> str | None:
    """A game of ``kind`` (e.g. rated, or between people) in which ``user_id`` holds a seat
    and which is still being played at ``now_ms``, if any: not over, not aborted, and its
    clock not run out (such a game is lost on time: the sweep is about to say so)."""
    return conn.execute(
        select(info_table.c.game_id)
        .join(players_table, players_table.c.game_id == info_table.c.game_id)
        .where(
            players_table.c.user_id == user_id,
            info_table.c.status == "live",
            kind,
            info_table.c.deadline_ms.is_(None) | (info_table.c.deadline_ms >= now_ms),
        )
        .limit(1)
    ).scalar()


class Storage:
    """The game store behind the web app. ``url`` is any SQLAlchemy URL. A serving process
    asks for ``background_checkpoints``: an SQLite file's log is then checkpointed by a
    thread of its own, never inside a commit (:mod:`.checkpointer`)."""

    def __init__(self, url: str, *, background_checkpoints: bool = False) -> None:
        self.url = url
        url = engine_url(url)
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        self.engine: Engine = create_engine(url, **kwargs)
        self.checkpointer: Checkpointer | None = None
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
            path = self.engine.url.database
            if background_checkpoints and path not in (None, "", ":memory:"):
                event.listen(self.engine, "connect", _no_checkpoint_in_commits)
                self.checkpointer = Checkpointer(self.engine, Path(str(path)))
        metadata.create_all(self.engine)

    def close(self) -> None:
        if self.checkpointer is not None:
            self.checkpointer.close()
        self.engine.dispose()

    # -- writing -------------------------------------------------------------------------

    def create_game(
        self,
        rules: str,
        lexicon: str,
        seed: int,
        seats: list[Seat],
        *,
        clock: dict[str, int] | None = None,
        challenge_rule: str | None = None,
        rated: bool = False,
        online: bool = False,
    ) -> str:
        """Store a new game; returns its id."""
        game_id = secrets.token_urlsafe(12)
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
            deadline = None
            if clock:  # the first player's time runs from now
                deadline = now + clock["initial_ms"] + clock.get("max_overtime_min", 0) * 60_000
            conn.execute(
                insert(info_table).values(
                    game_id=game_id,
                    status="live",
                    rated=rated,
                    online=online,
                    clock=json.dumps(clock) if clock else None,
                    created_at=now,
                    deadline_ms=deadline,
                )
            )
            if challenge_rule is not None:
                conn.execute(
                    insert(rules_table).values(game_id=game_id, challenge_rule=challenge_rule)
                )
            owners = [(i, s.user) for i, s in enumerate(seats) if s.user is not None]
            if owners:
                conn.execute(
                    insert(players_table),
                    [{"game_id": game_id, "seat": i, "user_id": u} for i, u in owners],
                )
        return game_id

    def finish(
        self,
        game_id: str,
        status: str,
        result: dict[str, Any] | None,
        also: Callable[[Connection], object] | None = None,
    ) -> bool:
        """Mark a live game over (or aborted) with its result; ``also`` runs in the same
        transaction (rating the game). True if this call ended it (once, across processes)."""
        with self.engine.begin() as conn:
            ended = conn.execute(
                update(info_table)
                .where(info_table.c.game_id == game_id, info_table.c.status == "live")
                .values(
                    status=status, result=json.dumps(result), ended_at=_now_ms(), deadline_ms=None
                )
            ).rowcount
            if ended == 1 and also is not None:
                also(conn)
        return ended == 1

    def overdue(self, now_ms: int, limit: int = 100) -> list[str]:
        """Live games whose player to move has run out of time."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(info_table.c.game_id)
                .where(info_table.c.status == "live", info_table.c.deadline_ms < now_ms)
                .limit(limit)
            ).all()
        return [r.game_id for r in rows]

    def beat(self, now_ms: int) -> None:
        """A server process of this database is alive at ``now_ms``."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(heartbeat_table)
                .where(heartbeat_table.c.id == HEARTBEAT_ROW)
                .values(alive_ms=now_ms)
            ).rowcount
            if done == 0:
                conn.execute(insert(heartbeat_table).values(id=HEARTBEAT_ROW, alive_ms=now_ms))

    def record_outage(self, now_ms: int, quiet_ms: int) -> tuple[int, int] | None:
        """A process starting at ``now_ms``: if no process of this database has been alive for
        more than ``quiet_ms``, the service was down since the last heartbeat. Records that
        outage and moves every live game's clock deadline on by its length (the player on move
        keeps the time they had), then beats. Returns the outage, or None (none, or another
        process starting at the same time recorded it: once, whoever comes first)."""
        try:
            with self.engine.begin() as conn:
                alive = conn.execute(
                    select(heartbeat_table.c.alive_ms).where(
                        heartbeat_table.c.id == HEARTBEAT_ROW
                    )
                ).scalar()
                if alive is None or now_ms - alive <= quiet_ms:
                    outage = None
                else:
                    outage = (int(alive), now_ms)
                    conn.execute(insert(outages_table).values(start_ms=alive, end_ms=now_ms))
                    conn.execute(
                        update(info_table)
                        .where(info_table.c.status == "live", info_table.c.deadline_ms > alive)
                        .values(deadline_ms=info_table.c.deadline_ms + (now_ms - alive))
                    )
        except IntegrityError:
            outage = None
        self.beat(now_ms)
        return outage

    def outages(self, since_ms: int) -> list[tuple[int, int]]:
        """The outages that ended after ``since_ms``, oldest first (at most MAX_OUTAGES)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(outages_table.c.start_ms, outages_table.c.end_ms)
                .where(outages_table.c.end_ms > since_ms)
                .order_by(outages_table.c.end_ms.desc())
                .limit(MAX_OUTAGES)
            ).all()
        return sorted((int(r.start_ms), int(r.end_ms)) for r in rows)

    def append(self, game_id: str, seq: int, action: Action) -> Action:
        """Commit ``action`` as entry ``seq`` (0-based) of the game's log; returns it, stamped
        with the time it was stored, once it is durable."""
        result = self.append_many([(game_id, seq, action, None)])[0]
        if isinstance(result, StorageError):
            raise result
        return result

    def append_many(
        self, entries: list[tuple[str, int, Action, int | None]]
    ) -> list[Action | StorageError]:
        """Commit several log entries in one transaction (one disk flush for all of them).

        An entry is (game, place in its log, action, the game's new clock deadline or None).
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
            for game_id, seq, action, _ in entries
        ]
        deadlines = [
            {"gid": game_id, "deadline": deadline}
            for game_id, _, _, deadline in entries
            if deadline is not None
        ]
        try:
            with self.engine.begin() as conn:
                conn.execute(_INSERT_ACTIONS, rows)
                if deadlines:
                    conn.execute(_SET_DEADLINE, deadlines)
        except IntegrityError:
            if len(entries) == 1:
                game_id, seq, _, _ = entries[0]
                return [StorageError(f"game {game_id}: log entry {seq} already exists")]
            return [r for entry in entries for r in self.append_many([entry])]
        return [replace(action, at_ms=at) for _, _, action, _ in entries]

    # -- reading -------------------------------------------------------------------------

    def load(self, game_id: str) -> GameRecord | None:
        """The stored game with its actions in order, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(games_table, info_table, rules_table.c.challenge_rule)
                .outerjoin(info_table, info_table.c.game_id == games_table.c.id)
                .outerjoin(rules_table, rules_table.c.game_id == games_table.c.id)
                .where(games_table.c.id == game_id)
            ).first()
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
            actions=[_action(r) for r in rows],
            created_ms=row.created_at,
            clock=json.loads(row.clock) if row.clock else None,
            challenge_rule=row.challenge_rule,
            rated=bool(row.rated),
            online=bool(row.online),
            status=row.status or "live",
        )

    def actions_since(self, game_id: str, seq: int) -> list[Action]:
        """The log's entries from ``seq`` on (what another process stored meanwhile)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(actions_table)
                .where(actions_table.c.game_id == game_id, actions_table.c.seq >= seq)
                .order_by(actions_table.c.seq)
            ).all()
        return [_action(r) for r in rows]

    def games_of(self, user_id: str, limit: int = 20) -> list[dict[str, Any]]:
        """A user's most recent games: id, rules, seats, status, rated, result, times (each
        game once, though one account may hold several seats of it)."""
        seated = select(players_table.c.game_id).where(players_table.c.user_id == user_id)
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games_table, info_table)
                .join(info_table, info_table.c.game_id == games_table.c.id)
                .where(games_table.c.id.in_(seated))
                .order_by(info_table.c.created_at.desc())
                .limit(limit)
            ).all()
        return [_summary(r) for r in rows]

    def rated_game_in_progress(self, user_id: str, now_ms: int) -> bool:
        """Whether ``user_id`` holds a seat in a rated game that is neither over nor aborted
        (one whose clock ran out before ``now_ms`` is lost on time, so over). The fair-play
        check asks it on every request for engine help: the user's seats by their index,
        each game's status by its key, and the first found answers."""
        with self.engine.connect() as conn:
            return live_game_of(conn, user_id, now_ms, info_table.c.rated.is_(True)) is not None

    def live_online_games(self, limit: int = 50) -> list[dict[str, Any]]:
        """Games between people in progress, newest first (for spectators)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games_table, info_table)
                .join(info_table, info_table.c.game_id == games_table.c.id)
                .where(info_table.c.status == "live", info_table.c.online.is_(True))
                .order_by(info_table.c.created_at.desc())
                .limit(limit)
            ).all()
        return [_summary(r) for r in rows]


def _action(r: Any) -> Action:
    return Action(r.player, r.kind, r.text, r.elapsed_ms, r.created_at)


def _summary(r: Any) -> dict[str, Any]:
    seats = json.loads(r.seats)
    return {
        "id": r.id,
        "rules": r.rules,
        "lexicon": r.lexicon,
        "names": [s["name"] for s in seats],
        "guests": [s.get("guest") is True for s in seats],
        "status": r.status,
        "rated": bool(r.rated),
        "online": bool(r.online),
        "result": json.loads(r.result) if r.result else None,
        "clock": json.loads(r.clock) if r.clock else None,
        "created_ms": r.created_at,
        "ended_ms": r.ended_at,
    }
