"""The tables of a stored tournament event, on one :data:`metadata`.

An event file (SQLite, through SQLAlchemy Core) holds these; the server is to keep its events
in the same tables on PostgreSQL, so every row carries its ``event_id`` and nothing here is
SQLite's own. Derived numbers (standings, ratings) are never stored: they are computed from
the games, as :mod:`tessera.tournament.model` does.

Versions: a file records the :data:`SCHEMA_VERSION` that wrote it. Version 2 added the players'
``games`` column and the games' ``gcg`` column (:data:`ADDED_COLUMNS`); the store reads a
version 1 file as it is (every player's ``games`` unknown, no game's record) and adds the
columns, raising the version, in the transaction of the file's first change. A Tessera that
reads only version 1 then refuses the file rather than write it back without the columns.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    ForeignKeyConstraint,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

from ..tournament.model import MAX_NAME

MAX_SYSTEM = 32  # a pairing system's name (tessera.tournament.pairing.SYSTEMS)
SCHEMA_VERSION = 2
READABLE_VERSIONS = (1, 2)

metadata = MetaData()

events_table = Table(
    "tournament_events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("name", String(MAX_NAME), nullable=False),
    Column("schema_version", Integer, nullable=False),
    Column("created_at", BigInteger, nullable=False),  # epoch ms
)

divisions_table = Table(
    "tournament_divisions",
    metadata,
    Column("event_id", Integer, primary_key=True, autoincrement=False),
    Column("name", String(MAX_NAME), primary_key=True),
    Column("position", Integer, nullable=False),  # the order the director created them in
    Column("total_rounds", Integer, nullable=False),
    Column("pairing", String(MAX_SYSTEM), nullable=False),
    Column("pairing_seed", Integer, nullable=False),
    Column("prizes", Integer, nullable=False),
    Column("max_spread_per_game", Integer, nullable=False),
    Column("scoring", Text, nullable=False),  # JSON: the division's ScoringSettings
    # raised by every write: a writer holding an older revision is refused (no lost change)
    Column("revision", Integer, nullable=False),
    ForeignKeyConstraint(["event_id"], ["tournament_events.id"]),
)

players_table = Table(
    "tournament_players",
    metadata,
    Column("event_id", Integer, primary_key=True, autoincrement=False),
    Column("division", String(MAX_NAME), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),  # from 1, as TSH
    Column("name", String(MAX_NAME), nullable=False),
    Column("rating", Integer, nullable=False),
    Column("account", String(MAX_NAME), nullable=True),
    Column("player_class", String(20), nullable=True),
    Column("seed", Integer, nullable=True),
    Column("joined_round", Integer, nullable=False),
    Column("withdrawn_from", Integer, nullable=True),
    Column("extra", Text, nullable=False),  # JSON list of [field, value]: kept from a .t file
    Column("games", Integer, nullable=True),  # rated games before the event; None: not known
    ForeignKeyConstraint(
        ["event_id", "division"], ["tournament_divisions.event_id", "tournament_divisions.name"]
    ),
)

games_table = Table(
    "tournament_games",
    metadata,
    Column("event_id", Integer, primary_key=True, autoincrement=False),
    Column("division", String(MAX_NAME), primary_key=True),
    Column("round", Integer, primary_key=True, autoincrement=False),  # from 1
    Column("slot", Integer, primary_key=True, autoincrement=False),  # order within the round
    Column("first", Integer, nullable=False),  # the player who went first (or the bye's)
    Column("second", Integer, nullable=True),  # None: a bye or a missed round
    Column("board", Integer, nullable=False),
    Column("kind", String(12), nullable=False),  # a GameKind value
    Column("first_score", Integer, nullable=True),
    Column("second_score", Integer, nullable=True),
    Column("forfeited_by", Integer, nullable=True),
    Column("first_known", Boolean, nullable=False),
    Column("spread", Integer, nullable=True),  # a bye's or forfeit's own spread, if recorded
    # the game's GCG record (events.records), kept while the game has the result it was
    # checked against; None: no record
    Column("gcg", Text, nullable=True),
    ForeignKeyConstraint(
        ["event_id", "division"], ["tournament_divisions.event_id", "tournament_divisions.name"]
    ),
)

# columns added since version 1, by table: nullable, so an older file's rows read as None
ADDED_COLUMNS = {
    players_table.name: (players_table.c.games,),
    games_table.name: (games_table.c.gcg,),
}
