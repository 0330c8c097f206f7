"""An event kept in a database: load it as the model, change it, write the change back.

The tables are :mod:`.schema`'s (SQLAlchemy Core), so the same code keeps an event in the
command line's SQLite file or, later, in the server's PostgreSQL database. A change is made to
the model first (:mod:`tessera.tournament.model` checks everything and refuses with one line),
and only then written, in one transaction that is committed before :meth:`EventStore.change`
returns: a refused change writes nothing, a failed write rolls back, and a confirmed change is
on disk (SQLite's ``synchronous=FULL``). Each division carries a revision number, so two
directors changing the same division at once cannot overwrite each other's change: the second
write is refused and nothing of it is kept.

Nothing read from the database is trusted: every count and size is bounded, and a row the model
would not accept is reported naming the division, round or player.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import (
    Column,
    Engine,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import URL, Connection
from sqlalchemy.exc import DatabaseError, SQLAlchemyError

from ..formats.gcg_zip import MAX_GCG_CHARS
from ..tournament.model import (
    MAX_PLAYERS,
    MAX_ROUNDS,
    Division,
    Event,
    Game,
    GameKind,
    Player,
    ScoringSettings,
    TournamentError,
)
from ..tournament.pairing import SYSTEMS
from .records import GameRecord
from .schema import (
    ADDED_COLUMNS,
    READABLE_VERSIONS,
    SCHEMA_VERSION,
    divisions_table,
    events_table,
    games_table,
    metadata,
)
from .schema import players_table as event_players_table

MAX_DIVISIONS = 100
MAX_SETTINGS_CHARS = 10_000
MAX_EXTRA_CHARS = 10_000
MAX_SEED = 2**31 - 1
EVENT_ID = 1  # an event file holds one event; the server's database holds many
# a division's name is also its exported file's name (A.t): letters, digits, - and _ only
DIVISION_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,19}")

T = TypeVar("T")


class EventStoreError(ValueError):
    """A stored event that cannot be read or written: one line naming what and where."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))


@dataclass
class StoredDivision:
    """A division with what the store keeps beside the model: the pairing system's name (a key
    of :data:`tessera.tournament.pairing.SYSTEMS`), the seed its random choices start from, the
    revision the division was read at, and the games' GCG records by (round, board)."""

    division: Division
    pairing: str
    pairing_seed: int = 0
    revision: int = 0
    records: dict[tuple[int, int], GameRecord] = field(default_factory=dict)

    def kept_records(self) -> dict[tuple[int, int], GameRecord]:
        """The records whose games still have the result each was checked against (the store
        writes only these: a result corrected, cleared or forfeited loses its record)."""
        games = {
            (r, g.board): g
            for r, round_games in enumerate(self.division.rounds, 1)
            for g in round_games if g.second is not None
        }
        return {
            key: record for key, record in sorted(self.records.items())
            if key in games and record.fits(games[key])
        }


@dataclass
class StoredEvent:
    name: str
    divisions: dict[str, StoredDivision] = field(default_factory=dict)

    def division(self, name: str) -> StoredDivision:
        if name not in self.divisions:
            known = ", ".join(self.divisions) or "none"
            raise TournamentError(f"no division {name!r} (divisions: {known})")
        return self.divisions[name]

    def as_event(self) -> Event:
        """The model's :class:`Event` of these divisions."""
        event_ = Event(self.name)
        for stored in self.divisions.values():
            event_.add_division(stored.division)
        return event_


def check_division_name(name: str) -> str:
    """``name`` if it can name a division (and so a file of an export), else
    :class:`TournamentError`."""
    if not DIVISION_NAME.fullmatch(name):
        raise TournamentError(
            f"division name {name[:40]!r}: 1 to 20 letters, digits, '-' or '_', starting with a "
            "letter or digit"
        )
    return name


def check_pairing(system: str, seed: int = 0) -> None:
    """Refuse an unknown pairing system or a seed out of range (:class:`TournamentError`)."""
    if system not in SYSTEMS:
        raise TournamentError(f"unknown pairing system {system!r}; have: {', '.join(SYSTEMS)}")
    if not 0 <= seed <= MAX_SEED:
        raise TournamentError(f"pairing seed {seed} out of 0 to {MAX_SEED}")


# -- settings as JSON -----------------------------------------------------------------------


def _settings_json(settings: ScoringSettings) -> str:
    return json.dumps(asdict(settings), sort_keys=True)


def _settings_from_json(text: str, where: str) -> ScoringSettings:
    if len(text) > MAX_SETTINGS_CHARS:
        raise EventStoreError(f"{where}: scoring settings of {len(text)} characters")
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise EventStoreError(f"{where}: scoring settings are not JSON ({exc})") from None
    if not isinstance(data, dict):
        raise EventStoreError(f"{where}: scoring settings are not a JSON object")
    known = set(ScoringSettings.__dataclass_fields__)
    unknown = sorted(set(data) - known)
    if unknown:
        raise EventStoreError(f"{where}: unknown scoring setting(s) {', '.join(unknown)}")
    if isinstance(data.get("tie_breaks"), list):
        data["tie_breaks"] = tuple(data["tie_breaks"])
    try:
        return ScoringSettings(**data)
    except (TournamentError, TypeError) as exc:
        raise EventStoreError(f"{where}: {exc}") from None


# -- rows ---------------------------------------------------------------------------------


def _division_row(stored: StoredDivision, position: int) -> dict[str, Any]:
    d = stored.division
    return {
        "event_id": EVENT_ID,
        "name": d.name,
        "position": position,
        "total_rounds": d.total_rounds,
        "pairing": stored.pairing,
        "pairing_seed": stored.pairing_seed,
        "prizes": d.prizes,
        "max_spread_per_game": d.max_spread_per_game,
        "scoring": _settings_json(d.settings),
        "revision": stored.revision,
    }


def _player_rows(d: Division) -> list[dict[str, Any]]:
    return [
        {
            "event_id": EVENT_ID,
            "division": d.name,
            "number": p.number,
            "name": p.name,
            "rating": p.rating,
            "account": p.account,
            "player_class": p.player_class,
            "seed": p.seed,
            "joined_round": p.joined_round,
            "withdrawn_from": p.withdrawn_from,
            "extra": json.dumps([list(pair) for pair in p.extra]),
            "games": p.rated_games,
        }
        for p in d.players
    ]


def _game_rows(stored: StoredDivision) -> list[dict[str, Any]]:
    d = stored.division
    records = stored.kept_records()
    rows = []
    for r, games in enumerate(d.rounds, 1):
        for slot, g in enumerate(games):
            record = records.get((r, g.board)) if g.second is not None else None
            rows.append(
                {
                    "event_id": EVENT_ID,
                    "division": d.name,
                    "round": r,
                    "slot": slot,
                    "first": g.first,
                    "second": g.second,
                    "board": g.board,
                    "kind": g.kind.value,
                    "first_score": None if g.scores is None else g.scores[0],
                    "second_score": None if g.scores is None else g.scores[1],
                    "forfeited_by": g.forfeited_by,
                    "first_known": g.first_known,
                    "spread": g.spread,
                    "gcg": None if record is None else record.gcg,
                }
            )
    return rows


def _player_of(row: Any, where: str) -> Player:
    if len(row.extra) > MAX_EXTRA_CHARS:
        raise EventStoreError(f"{where}: extra fields of {len(row.extra)} characters")
    try:
        extra = json.loads(row.extra)
        pairs = tuple((str(k), str(v)) for k, v in extra)
    except (ValueError, TypeError) as exc:
        raise EventStoreError(
            f"{where}: extra fields are not a JSON list of pairs ({exc})"
        ) from None
    for label, value, limit in (("account", row.account, 100), ("class", row.player_class, 20)):
        if value is not None and not 0 < len(value) <= limit:
            raise EventStoreError(f"{where}: {label} of {len(value)} characters")
    return Player(
        row.number, row.name, row.rating, row.account, row.player_class, row.seed,
        joined_round=row.joined_round, withdrawn_from=row.withdrawn_from, extra=pairs,
        rated_games=getattr(row, "games", None),  # None in a version 1 file
    )


def _record_of(row: Any, game: Game, where: str) -> GameRecord | None:
    """The GCG record of a game's row (None in a version 1 file or without one)."""
    text = getattr(row, "gcg", None)
    if text is None:
        return None
    if len(text) > MAX_GCG_CHARS:
        raise EventStoreError(f"{where}: a GCG record of {len(text):,} characters; at most "
                              f"{MAX_GCG_CHARS:,}")
    if game.kind is not GameKind.GAME or game.second is None or game.scores is None:
        raise EventStoreError(f"{where}: a GCG record on a game without a result")
    return GameRecord(text, game.first, game.second, game.scores)


def _game_of(row: Any, where: str) -> Game:
    try:
        kind = GameKind(row.kind)
    except ValueError:
        raise EventStoreError(f"{where}: unknown game kind {row.kind!r}") from None
    if (row.first_score is None) != (row.second_score is None):
        raise EventStoreError(f"{where}: one score without the other")
    scores = None if row.first_score is None else (row.first_score, row.second_score)
    return Game(
        row.first, row.second, row.board, kind, scores, row.forfeited_by,
        bool(row.first_known), row.spread,
    )


# -- the store ------------------------------------------------------------------------------


BUSY_TIMEOUT_MS = 5000  # how long a command waits for another's write to finish


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA synchronous=FULL")  # a commit is on disk before it returns
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def sqlite_engine(path: Path) -> Engine:
    """An engine on the SQLite file at ``path`` (the path as given, never parsed as a URL)."""
    engine = create_engine(
        URL.create("sqlite", database=str(path)),
        connect_args={"timeout": BUSY_TIMEOUT_MS / 1000},  # the driver's wait for a lock
    )
    event.listen(engine, "connect", _sqlite_pragmas)
    return engine


class EventStore:
    """One event in a database reached through ``engine`` (see the module's docstring)."""

    def __init__(self, engine: Engine, where: str) -> None:
        self.engine = engine
        self.where = where  # how errors name the database (the file's path)
        # the schema version the database is at, and the columns of ADDED_COLUMNS it lacks
        # (an older file's), which the first write adds (see .schema)
        self.version = SCHEMA_VERSION
        self.missing_columns: tuple[Column[Any], ...] = ()

    # -- opening -------------------------------------------------------------------------

    @classmethod
    def create_file(cls, path: Path, name: str, divisions: Sequence[StoredDivision]) -> EventStore:
        """A new event file at ``path`` (which must not exist) holding ``divisions``."""
        if path.exists():
            raise EventStoreError(f"{path} already exists; choose a new file for a new event")
        cls._check_new(name, divisions)
        try:
            return cls.create(sqlite_engine(path), str(path), name, divisions)
        except BaseException:
            path.unlink(missing_ok=True)
            raise

    @classmethod
    def create(
        cls, engine: Engine, where: str, name: str, divisions: Sequence[StoredDivision]
    ) -> EventStore:
        """A new event with ``divisions`` in the database of ``engine`` (its tables made if
        missing), in one transaction."""
        cls._check_new(name, divisions)
        store = cls(engine, where)
        try:
            with store._writing() as conn:
                metadata.create_all(conn)
                conn.execute(
                    insert(events_table).values(
                        id=EVENT_ID, name=name, schema_version=SCHEMA_VERSION,
                        created_at=int(time.time() * 1000),
                    )
                )
                for position, stored in enumerate(divisions, 1):
                    store._insert_division(conn, stored, position)
        except BaseException:
            store.close()
            raise
        return store

    @classmethod
    def _check_new(cls, name: str, divisions: Sequence[StoredDivision]) -> None:
        cls._check_divisions(divisions)
        Event(name)  # the model's check of the event's name

    @classmethod
    def open_file(cls, path: Path) -> EventStore:
        """The event file at ``path``, which must exist and be one."""
        if not path.is_file():
            raise EventStoreError(f"{path}: no such event file")
        return cls.open(sqlite_engine(path), str(path))

    @classmethod
    def open(cls, engine: Engine, where: str) -> EventStore:
        """The event in the database of ``engine``; ``where`` names it in errors."""
        store = cls(engine, where)
        try:
            store._check_schema()
        except BaseException:
            store.close()
            raise
        return store

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _check_schema(self) -> None:
        try:
            with self.engine.connect() as conn:
                tables = set(inspect(conn).get_table_names())
                missing = sorted(t for t in metadata.tables if t not in tables)
                if missing:
                    raise EventStoreError(
                        f"{self.where} is not a Tessera event file (no table {missing[0]})"
                    )
                version = conn.execute(
                    select(events_table.c.schema_version).where(events_table.c.id == EVENT_ID)
                ).scalar()
                if version not in READABLE_VERSIONS:
                    readable = " and ".join(map(str, READABLE_VERSIONS))
                    raise EventStoreError(
                        f"{self.where}: event file version {version!r}; this Tessera reads "
                        f"versions {readable}"
                    )
                absent: list[Column[Any]] = []
                for table, columns in ADDED_COLUMNS.items():
                    present = {c["name"] for c in inspect(conn).get_columns(table)}
                    absent += [c for c in columns if c.name not in present]
        except DatabaseError as exc:
            raise EventStoreError(
                f"{self.where}: could not read it as an event file ({exc.orig})"
            ) from None
        if version == SCHEMA_VERSION and absent:
            raise EventStoreError(
                f"{self.where}: event file version {version} without its column "
                f"{absent[0].table.name}.{absent[0].name}"
            )
        self.version, self.missing_columns = version, tuple(absent)

    def _upgrade(self, conn: Connection) -> None:
        """Bring an older file to :data:`SCHEMA_VERSION` within the write's transaction: add
        the columns it lacks (nullable: its rows read as before) and record the version."""
        if self.version == SCHEMA_VERSION:
            return
        current = conn.execute(
            select(events_table.c.schema_version).where(events_table.c.id == EVENT_ID)
        ).scalar()
        if current == SCHEMA_VERSION:
            return  # another writer upgraded the file since it was opened
        for column in self.missing_columns:
            kind = column.type.compile(dialect=conn.dialect)
            conn.execute(text(f"ALTER TABLE {column.table.name} ADD COLUMN {column.name} {kind}"))
        conn.execute(
            update(events_table).where(events_table.c.id == EVENT_ID)
            .values(schema_version=SCHEMA_VERSION)
        )

    def _upgraded(self) -> None:
        """The write that upgraded the file committed."""
        self.version, self.missing_columns = SCHEMA_VERSION, ()

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        """One transaction, committed when the block ends, rolled back if it raises."""
        try:
            with self.engine.begin() as conn:
                yield conn
        except SQLAlchemyError as exc:
            raise EventStoreError(f"{self.where}: could not write ({exc.__class__.__name__}: "
                                  f"{getattr(exc, 'orig', exc)})") from None

    @staticmethod
    def _check_divisions(divisions: Sequence[StoredDivision]) -> None:
        if not 1 <= len(divisions) <= MAX_DIVISIONS:
            raise TournamentError(
                f"an event has 1 to {MAX_DIVISIONS} divisions, not {len(divisions)}"
            )
        names = [s.division.name for s in divisions]
        for name in names:
            if names.count(name) > 1:
                raise TournamentError(f"division {name} is named twice")
        for stored in divisions:
            check_division_name(stored.division.name)
            check_pairing(stored.pairing, stored.pairing_seed)

    def _insert_division(self, conn: Connection, stored: StoredDivision, position: int) -> None:
        conn.execute(insert(divisions_table).values(**_division_row(stored, position)))
        self._insert_rows(conn, stored)

    @staticmethod
    def _insert_rows(conn: Connection, stored: StoredDivision) -> None:
        """The division's players and games (with their records), as rows."""
        players = _player_rows(stored.division)
        if players:
            conn.execute(insert(event_players_table), players)
        games = _game_rows(stored)
        if games:
            conn.execute(insert(games_table), games)

    # -- reading -------------------------------------------------------------------------

    def load(self) -> StoredEvent:
        """The whole event, every division rebuilt and checked by the model."""
        try:
            return self._load()
        except SQLAlchemyError as exc:
            raise EventStoreError(f"{self.where}: could not read ({exc.__class__.__name__}: "
                                  f"{getattr(exc, 'orig', exc)})") from None

    def _load(self) -> StoredEvent:
        with self.engine.connect() as conn:
            name = conn.execute(
                select(events_table.c.name).where(events_table.c.id == EVENT_ID)
            ).scalar()
            if name is None:
                raise EventStoreError(f"{self.where}: the file holds no event")
            rows = conn.execute(
                select(divisions_table)
                .where(divisions_table.c.event_id == EVENT_ID)
                .order_by(divisions_table.c.position)
                .limit(MAX_DIVISIONS + 1)
            ).all()
            if len(rows) > MAX_DIVISIONS:
                raise EventStoreError(f"{self.where}: more than {MAX_DIVISIONS} divisions")
            stored = StoredEvent(name)
            for row in rows:
                stored.divisions[row.name] = self._load_division(conn, row)
        return stored

    def _load_division(self, conn: Connection, row: Any) -> StoredDivision:
        where = f"{self.where}: division {row.name}"
        settings = _settings_from_json(row.scoring, where)
        try:
            check_division_name(row.name)
            check_pairing(row.pairing, row.pairing_seed)
        except TournamentError as exc:
            raise EventStoreError(f"{where}: {exc}") from None
        of_division = (
            (event_players_table.c.event_id == EVENT_ID)
            & (event_players_table.c.division == row.name)
        )
        read = [c for c in event_players_table.c if c not in self.missing_columns]
        player_rows = conn.execute(
            select(*read).where(of_division)
            .order_by(event_players_table.c.number).limit(MAX_PLAYERS + 1)
        ).all()
        if len(player_rows) > MAX_PLAYERS:
            raise EventStoreError(f"{where}: more than {MAX_PLAYERS} players")
        players = [_player_of(p, f"{where}, player {p.number}") for p in player_rows]
        max_games = len(players) * MAX_ROUNDS
        in_division = (games_table.c.event_id == EVENT_ID) & (games_table.c.division == row.name)
        count = conn.execute(select(func.count()).select_from(games_table).where(in_division))
        if count.scalar_one() > max_games:
            raise EventStoreError(f"{where}: more games than {len(players)} players can play")
        rounds: list[list[Game]] = []
        records: dict[tuple[int, int], GameRecord] = {}
        for g in conn.execute(
            select(*(c for c in games_table.c if c not in self.missing_columns))
            .where(in_division).order_by(games_table.c.round, games_table.c.slot)
        ):
            if g.round == len(rounds) + 1:
                rounds.append([])
            elif g.round != len(rounds):
                raise EventStoreError(f"{where}: round {g.round} follows round {len(rounds)}")
            game = _game_of(g, f"{where}, round {g.round}")
            rounds[-1].append(game)
            record = _record_of(g, game, f"{where}, round {g.round}, board {g.board}")
            if record is not None:
                records[g.round, g.board] = record
        try:
            division = Division.restore(
                row.name, row.total_rounds, players, rounds, settings,
                prizes=row.prizes, max_spread_per_game=row.max_spread_per_game,
            )
        except TournamentError as exc:
            raise EventStoreError(f"{where}: {exc}") from None
        return StoredDivision(division, row.pairing, row.pairing_seed, row.revision, records)

    # -- changing ------------------------------------------------------------------------

    def change(self, division: str, change: Callable[[StoredDivision], T]) -> T:
        """Load the event, apply ``change`` to the division named ``division`` (it raises
        :class:`TournamentError` to refuse: nothing is written), then write the division back
        and commit. Returns what ``change`` returned, once the change is durable."""
        stored = self.load().division(division)
        result = change(stored)
        self.save(stored)
        return result

    def save(self, stored: StoredDivision) -> None:
        """Write ``stored`` over the division as it was read (its revision): refused, with
        nothing written, if another writer changed the division since."""
        d = stored.division
        table = divisions_table
        with self._writing() as conn:
            self._upgrade(conn)
            done = conn.execute(
                update(table)
                .where(
                    (table.c.event_id == EVENT_ID) & (table.c.name == d.name)
                    & (table.c.revision == stored.revision)
                )
                .values(revision=stored.revision + 1, scoring=_settings_json(d.settings),
                        pairing=stored.pairing, pairing_seed=stored.pairing_seed)
            )
            if done.rowcount != 1:
                raise EventStoreError(
                    f"{self.where}: division {d.name} was changed by someone else meanwhile; "
                    "nothing was written, try again"
                )
            for rows_of in (event_players_table, games_table):
                conn.execute(
                    delete(rows_of).where(
                        (rows_of.c.event_id == EVENT_ID) & (rows_of.c.division == d.name)
                    )
                )
            self._insert_rows(conn, stored)
        self._upgraded()
        stored.revision += 1

    def add_division(self, stored: StoredDivision) -> None:
        """Add a new division to the event (refused if the name is taken)."""
        event_ = self.load()
        if stored.division.name in event_.divisions:
            raise TournamentError(f"the event already has a division {stored.division.name}")
        self._check_divisions([*event_.divisions.values(), stored])
        with self._writing() as conn:
            self._upgrade(conn)
            self._insert_division(conn, stored, len(event_.divisions) + 1)
        self._upgraded()


__all__ = [
    "EVENT_ID",
    "MAX_DIVISIONS",
    "EventStore",
    "EventStoreError",
    "StoredDivision",
    "StoredEvent",
    "check_division_name",
    "check_pairing",
    "sqlite_engine",
]
