"""The game store's database holds every table of the server as soon as a Storage opens it,
whichever other server modules the process has imported (none, here)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from support.fresh_python import run_python

# in the order the server has always created them (sqlite_master keeps it)
SERVER_TABLES = [
    "tessera_games",
    "tessera_game_info",
    "tessera_game_rules",
    "tessera_game_players",
    "tessera_actions",
    "tessera_heartbeat",
    "tessera_outages",
    "tessera_users",
    "tessera_sessions",
    "tessera_name_keys",
    "tessera_ratings",
    "tessera_rating_history",
    "tessera_seeks",
    "tessera_rematch_offers",
    "tessera_seek_starting",
    "tessera_duplicate_games",
    "tessera_study_cards",
]


def test_a_storage_alone_creates_every_table_of_the_server(tmp_path: Path) -> None:
    db = tmp_path / "alone.db"
    # a fresh interpreter: no test has imported accounts, lobby, duplicate_store, …
    code = (
        "import json, sys\n"
        "from tessera.server.storage import Storage\n"
        f"Storage({f'sqlite:///{db}'!r}).close()\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('tessera.server.'))))\n"
    )
    loaded = json.loads(run_python(code))
    for owner in ("accounts", "lobby", "ratings", "study", "duplicate_store"):
        assert f"tessera.server.{owner}" not in loaded
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid")
        made = [row[0] for row in rows]
    assert made == SERVER_TABLES
