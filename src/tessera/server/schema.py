"""Every table of the server's database, on one :data:`metadata`.

:class:`~.storage.Storage` creates them all (``create_all``) whenever it opens a database, so a
database made before a table existed gains it then; the modules that read and write them
(:mod:`.storage`: games, their logs and the service's heartbeat; :mod:`.accounts`; :mod:`.lobby`;
:mod:`.ratings`; :mod:`.study`; :mod:`.duplicate_store`) import them from here, and none of them
needs another imported for its tables to exist.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

from .lookalike import MAX_KEY

# create_all makes the tables in the order they are defined here: the order the server has
# always made them in
metadata = MetaData()

# -- games, their action logs and the service's heartbeat (:mod:`.storage`) -----------------------

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

info_table = Table(
    "tessera_game_info",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("status", String(12), nullable=False, index=True),  # live | over | aborted
    Column("rated", Boolean, nullable=False, default=False),
    Column("clock", Text, nullable=True),  # JSON time control, when the game has its own
    Column("online", Boolean, nullable=False, default=False),  # people on their own devices
    Column("result", Text, nullable=True),  # JSON: reason, scores, winners
    Column("created_at", BigInteger, nullable=False),
    Column("ended_at", BigInteger, nullable=True),
    # when the player to move runs out of time (epoch ms): a game nobody watches is found
    # and adjudicated by its clock
    Column("deadline_ms", BigInteger, nullable=True, index=True),
)

# a game's own changes to its preset (new-game dialog): a table of its own, so that a
# database made before it gains it by create_all
rules_table = Table(
    "tessera_game_rules",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("challenge_rule", String(16), nullable=True),  # a ChallengeRule value
)

players_table = Table(
    "tessera_game_players",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("user_id", String(32), nullable=False, index=True),
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

# when a server process of this database was last alive (epoch ms), one row: each process
# beats it every few seconds, so a process that starts after a silence knows the service
# was down from then (and records the outage)
heartbeat_table = Table(
    "tessera_heartbeat",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("alive_ms", BigInteger, nullable=False),
)

# the times no server process was alive (epoch ms): not charged to the player on move
outages_table = Table(
    "tessera_outages",
    metadata,
    Column("start_ms", BigInteger, primary_key=True, autoincrement=False),
    Column("end_ms", BigInteger, nullable=False, index=True),
)

# -- accounts and sessions (:mod:`.accounts`) -----------------------------------------------------

users_table = Table(
    "tessera_users",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(32), nullable=False),
    Column("name_key", String(32), nullable=True, unique=True),  # lower case; None for guests
    Column("password_hash", String(256), nullable=True),
    Column("kind", String(8), nullable=False),  # user | guest
    Column("created_at", BigInteger, nullable=False),
)

sessions_table = Table(
    "tessera_sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("user_id", String(32), nullable=False, index=True),
    Column("created_at", BigInteger, nullable=False),
    Column("expires_at", BigInteger, nullable=False),
)

# the look-alike keys of every registered name (a table of its own: a database made before it
# gains it by create_all, and Accounts fills it in)
name_keys_table = Table(
    "tessera_name_keys",
    metadata,
    Column("user_id", String(32), primary_key=True),
    Column("name_key", String(MAX_KEY), primary_key=True, index=True),
)

# -- ratings and their history (:mod:`.ratings`) --------------------------------------------------

ratings_table = Table(
    "tessera_ratings",
    metadata,
    Column("user_id", String(32), primary_key=True),
    Column("key", String(64), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", BigInteger, nullable=False),
)

history_table = Table(
    "tessera_rating_history",
    metadata,
    Column("user_id", String(32), primary_key=True),
    Column("game_id", String(32), primary_key=True),
    Column("key", String(64), nullable=False),
    Column("before", Float, nullable=False),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("at", BigInteger, nullable=False, index=True),
)

# -- seeks, rematch offers and games starting (:mod:`.lobby`) -------------------------------------

seeks_table = Table(
    "tessera_seeks",
    metadata,
    Column("id", String(32), primary_key=True),  # also the invitation link's secret
    Column("user_id", String(32), nullable=False, index=True),
    Column("user_name", String(32), nullable=False),
    Column("rules", String(64), nullable=False),
    Column("lexicon", String(128), nullable=False),
    Column("clock", Text, nullable=False),  # JSON time control
    Column("rated", Boolean, nullable=False),
    Column("rating_min", Integer, nullable=True),
    Column("rating_max", Integer, nullable=True),
    Column("target_id", String(32), nullable=True, index=True),  # a direct challenge
    Column("invite", Boolean, nullable=False),  # only whoever has the link
    Column("rematch_of", String(32), nullable=True),
    Column("status", String(12), nullable=False, index=True),  # open | taken | cancelled
    Column("game_id", String(32), nullable=True),
    Column("created_at", BigInteger, nullable=False),
)

# the rematch offer standing for a finished game: its primary key lets one offer be made at a
# time, whichever process is asked (the seek it names may since be taken or declined)
rematches_table = Table(
    "tessera_rematch_offers",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seek_id", String(32), nullable=False),
)

# the players of a seek just taken, until its game exists: the key lets each of them be in
# one starting game at a time (two acceptances at one moment: the second is refused)
starting_table = Table(
    "tessera_seek_starting",
    metadata,
    Column("user_id", String(32), primary_key=True),
    Column("seek_id", String(32), nullable=False, index=True),
    Column("at", BigInteger, nullable=False),
)

# -- solo duplicate games (:mod:`.duplicate_store`) -----------------------------------------------

duplicates_table = Table(
    "tessera_duplicate_games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("user_id", String(32), nullable=False, index=True),
    Column("lexicon", String(128), nullable=False),
    Column("record", Text, nullable=False),  # the GCG duplicate record, as dumps writes it
    Column("over", Boolean, nullable=False, default=False),
    Column("created_at", BigInteger, nullable=False),
    Column("updated_at", BigInteger, nullable=False),
)

# -- quiz card boxes (:mod:`.study`) --------------------------------------------------------------

cards_table = Table(
    "tessera_study_cards",
    metadata,
    Column("user_id", String(32), primary_key=True),
    Column("lexicon", String(128), primary_key=True),
    Column("alphagram", String(64), primary_key=True),
    Column("length", Integer, nullable=False),
    Column("box", Integer, nullable=False),
    Column("due_at", BigInteger, nullable=False),
    Column("retry_at", Integer, nullable=True),  # the answer count a missed card returns at
    Column("asked", Integer, nullable=False),
    Column("missed", Integer, nullable=False),
    Column("answered_at", BigInteger, nullable=False),
    Index("ix_tessera_study_cards_due", "user_id", "lexicon", "length", "due_at"),
)
